/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * perf_event ring buffer reader: data_head/data_tail protocol and the copy
 * of records that wrap.  Follows tools/lib/perf/mmap.c and the comment on
 * struct perf_event_mmap_page in include/uapi/linux/perf_event.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "perffile/capture/ringbuf.h"

#define RINGBUF_COPY_SIZE 65536	/* header.size is a u16 */

long ringbuf__next(const unsigned char *data, uint64_t mask, uint64_t *pos, uint64_t end,
		   unsigned char *copy, const void **rec)
{
	struct perf_event_header hdr;
	uint64_t avail = end - *pos;
	uint64_t off = *pos & mask;
	uint64_t room = mask + 1 - off;	/* bytes before the end of the data area */

	if (avail < sizeof(hdr))
		return 0;
	/* the kernel keeps records 8-byte aligned, so the header never wraps; copy anyway to be safe */
	if (room >= sizeof(hdr)) {
		memcpy(&hdr, data + off, sizeof(hdr));
	} else {
		memcpy(&hdr, data + off, room);
		memcpy((unsigned char *)&hdr + room, data, sizeof(hdr) - room);
	}
	if (hdr.size < sizeof(hdr))
		return -EINVAL;
	if (avail < hdr.size)
		return 0;
	if (hdr.size <= room) {
		*rec = data + off;
	} else {
		memcpy(copy, data + off, room);
		memcpy(copy + room, data, hdr.size - room);
		*rec = copy;
	}
	*pos += hdr.size;
	return hdr.size;
}

int ringbuf__mmap(struct ringbuf *rb, int fd, int cpu, unsigned pages)
{
	long psz = sysconf(_SC_PAGESIZE);
	void *base;

	memset(rb, 0, sizeof(*rb));
	rb->fd = -1;
	if (psz <= 0 || pages == 0 || (pages & (pages - 1)))
		return -EINVAL;
	rb->copy = malloc(RINGBUF_COPY_SIZE);
	if (!rb->copy)
		return -ENOMEM;
	rb->mmap_len = (size_t)(pages + 1) * (size_t)psz;
	base = mmap(NULL, rb->mmap_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED) {
		int err = -errno;

		free(rb->copy);
		rb->copy = NULL;
		return err;
	}
	rb->base = base;
	rb->data = (const unsigned char *)base + psz;
	rb->mask = (uint64_t)pages * (uint64_t)psz - 1;
	rb->fd = fd;
	rb->cpu = cpu;
	rb->pos = __atomic_load_n(&((struct perf_event_mmap_page *)base)->data_head, __ATOMIC_ACQUIRE);
	rb->end = rb->pos;
	return 0;
}

void ringbuf__munmap(struct ringbuf *rb)
{
	if (rb->base)
		munmap(rb->base, rb->mmap_len);
	free(rb->copy);
	rb->base = NULL;
	rb->copy = NULL;
	rb->data = NULL;
}

uint64_t ringbuf__read_init(struct ringbuf *rb)
{
	struct perf_event_mmap_page *pc = rb->base;

	/* smp_load_acquire: the data up to head is visible once we see head */
	rb->end = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	if (rb->end - rb->pos > rb->mask + 1) {
		/* cannot happen with a writable (non-overwrite) mapping; resynchronise */
		rb->pos = rb->end;
		ringbuf__consume(rb);
	}
	return rb->end - rb->pos;
}

long ringbuf__read_event(struct ringbuf *rb, const void **rec)
{
	long n = ringbuf__next(rb->data, rb->mask, &rb->pos, rb->end, rb->copy, rec);

	if (n < 0)
		rb->pos = rb->end;
	return n;
}

void ringbuf__consume(struct ringbuf *rb)
{
	struct perf_event_mmap_page *pc = rb->base;

	/* smp_store_release: our reads of the records happen before the kernel may overwrite them */
	__atomic_store_n(&pc->data_tail, rb->pos, __ATOMIC_RELEASE);
}

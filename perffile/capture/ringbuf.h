/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Reading a perf_event mmap ring buffer (non-overwrite mode).
 *
 * The mapping is one control page (struct perf_event_mmap_page) followed by
 * 2^n data pages.  The kernel advances data_head; we read records from our
 * position up to data_head (loaded with acquire semantics, so record bytes
 * are read after the head that covers them), then publish data_tail (with
 * release semantics, after the bytes were used) so the kernel may reuse the
 * space.  A record that crosses the end of the data area is copied out into
 * a contiguous buffer.  Follows tools/lib/perf/mmap.c (perf_mmap__read_init,
 * perf_mmap__read_event, perf_mmap__consume) and
 * tools/include/linux/ring_buffer.h.
 *
 * Usage:
 *	ringbuf__read_init(rb);
 *	while ((n = ringbuf__read_event(rb, &rec)) > 0)
 *		use(rec, n);	-- rec valid until the next call
 *	ringbuf__consume(rb);
 */
#ifndef PERFFILE_RINGBUF_H
#define PERFFILE_RINGBUF_H

#include <stddef.h>
#include <stdint.h>

struct ringbuf {
	void *base;		/* the mapping: control page + data */
	size_t mmap_len;
	const unsigned char *data;	/* data area */
	uint64_t mask;		/* data size - 1 */
	uint64_t pos;		/* next byte to read (free-running, like data_head) */
	uint64_t end;		/* data_head seen by read_init */
	unsigned char *copy;	/* owned: a record that wrapped, copied out (64 KiB) */
	int fd, cpu;
};

/*
 * The wrap logic as a pure function over memory.  data is the data area of
 * mask + 1 bytes (a power of two); pos and end are free-running positions.
 * If a complete record starts at *pos, set *rec to it (in place, or copied
 * into copy, which holds 65536 bytes, when it crosses the end), advance
 * *pos and return its size.  Return 0 when fewer bytes than a whole record
 * remain, -EINVAL when the header's size is smaller than a header (the
 * ring is corrupt; the caller should skip to end).
 */
long ringbuf__next(const unsigned char *data, uint64_t mask, uint64_t *pos, uint64_t end,
		   unsigned char *copy, const void **rec);

/* mmap fd's ring with 1 + pages pages; pages must be a power of two */
int ringbuf__mmap(struct ringbuf *rb, int fd, int cpu, unsigned pages);
void ringbuf__munmap(struct ringbuf *rb);

/* load data_head (acquire); returns bytes available */
uint64_t ringbuf__read_init(struct ringbuf *rb);
/* next record (see ringbuf__next); at -EINVAL the rest of the data is dropped */
long ringbuf__read_event(struct ringbuf *rb, const void **rec);
/* store data_tail = pos (release) */
void ringbuf__consume(struct ringbuf *rb);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Self-monitoring counters read through the perf_event mmap page seqlock
 * (rdpmc) with a read(2) fallback.  Follows include/uapi/linux/perf_event.h
 * (struct perf_event_mmap_page) and tools/lib/perf/mmap.c
 * perf_mmap__read_self().
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "perffile/capture/selfmon.h"

int selfmon__open(struct selfmon *sm, uint32_t type, uint64_t config)
{
	struct perf_event_attr attr;
	long psz = sysconf(_SC_PAGESIZE);
	void *p;

	memset(sm, 0, sizeof(*sm));
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.exclude_kernel = 1;	/* what user space may read with rdpmc */
	attr.exclude_hv = 1;
	sm->fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (sm->fd < 0) {
		/* exclude_kernel may be refused for software events on old kernels; not for counting */
		int err = -errno;

		sm->fd = -1;
		return err;
	}
	sm->page_len = psz > 0 ? (size_t)psz : 4096;
	p = mmap(NULL, sm->page_len, PROT_READ, MAP_SHARED, sm->fd, 0);
	sm->page = p == MAP_FAILED ? NULL : p;
	return 0;
}

void selfmon__close(struct selfmon *sm)
{
	if (sm->page)
		munmap(sm->page, sm->page_len);
	if (sm->fd >= 0)
		close(sm->fd);
	sm->page = NULL;
	sm->fd = -1;
}

#if defined(__x86_64__) || defined(__i386__)
static uint64_t rdpmc(uint32_t counter)
{
	uint32_t lo, hi;

	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return lo | ((uint64_t)hi << 32);
}

static uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return lo | ((uint64_t)hi << 32);
}
#define HAVE_RDPMC 1
#else
#define HAVE_RDPMC 0
static uint64_t rdpmc(uint32_t counter)
{
	(void)counter;
	return 0;
}

static uint64_t rdtsc(void)
{
	return 0;
}
#endif

void selfmon__snapshot(const volatile struct perf_event_mmap_page *pc, struct selfmon_snapshot *s)
{
	uint32_t seq;

	do {
		seq = pc->lock;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);	/* barrier(): compiler only, as the kernel documents */
		s->index = pc->index;
		s->offset = pc->offset;
		s->time_enabled = pc->time_enabled;
		s->time_running = pc->time_running;
		s->pmc_width = pc->pmc_width;
		s->cap_user_rdpmc = pc->cap_user_rdpmc;
		s->cap_user_time = pc->cap_user_time;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
	} while (pc->lock != seq);
	s->seq = seq;
}

int selfmon__read_syscall(const struct selfmon *sm, struct selfmon_value *v)
{
	uint64_t buf[3];
	ssize_t n = read(sm->fd, buf, sizeof(buf));

	if (n < 0)
		return -errno;
	if (n != sizeof(buf))
		return -EIO;
	v->val = buf[0];
	v->ena = buf[1];
	v->run = buf[2];
	v->via_rdpmc = 0;
	/* scaling as perf_event_open(2) gives it */
	if (v->run && v->run < v->ena)
		v->val = (uint64_t)((double)v->val * (double)v->ena / (double)v->run);
	return 0;
}

/* (a * mult) >> shift without overflowing 64 bits */
static uint64_t mul_shift(uint64_t a, uint32_t mult, uint16_t shift)
{
	return (uint64_t)(((unsigned __int128)a * mult) >> shift);
}

int selfmon__read(const struct selfmon *sm, struct selfmon_value *v)
{
	const volatile struct perf_event_mmap_page *pc = sm->page;
	uint32_t seq, idx, mult = 0;
	uint16_t shift = 0;
	uint64_t cnt, cyc = 0, toff = 0, tcyc = 0, tmask = ~0ULL, ena, run;

	if (!HAVE_RDPMC || !pc || !pc->cap_user_rdpmc)
		return selfmon__read_syscall(sm, v);
	do {
		seq = pc->lock;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		ena = pc->time_enabled;
		run = pc->time_running;
		if (pc->cap_user_time && ena != run) {
			cyc = rdtsc();
			mult = pc->time_mult;
			shift = pc->time_shift;
			toff = pc->time_offset;
			if (pc->cap_user_time_short) {
				tcyc = pc->time_cycles;
				tmask = pc->time_mask;
			}
		}
		idx = pc->index;
		cnt = (uint64_t)pc->offset;
		if (!pc->cap_user_rdpmc || !idx)
			return selfmon__read_syscall(sm, v);	/* not scheduled on a counter right now */
		{
			uint16_t width = pc->pmc_width;
			int64_t ev = (int64_t)rdpmc(idx - 1);

			if (width && width < 64) {
				ev = (int64_t)((uint64_t)ev << (64 - width));
				ev >>= 64 - width;
			}
			cnt += (uint64_t)ev;
		}
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
	} while (pc->lock != seq);
	if (ena != run) {
		uint64_t delta;

		cyc = tcyc + ((cyc - tcyc) & tmask);
		delta = toff + mul_shift(cyc, mult, shift);
		ena += delta;
		run += delta;
		if (run)
			cnt = (uint64_t)((double)cnt * (double)ena / (double)run);
	}
	v->val = cnt;
	v->ena = ena;
	v->run = run;
	v->via_rdpmc = 1;
	return 0;
}

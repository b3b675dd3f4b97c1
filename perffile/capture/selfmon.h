/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Self-monitoring: count an event on the calling thread and read it
 * without a system call where the hardware allows.
 *
 * The counter's first mmap page (struct perf_event_mmap_page) is a seqlock
 * protected snapshot: lock, index (hardware counter + 1, 0 when none),
 * offset, time_enabled/time_running and the time conversion fields.  With
 * cap_user_rdpmc and index != 0 the value is offset + rdpmc(index - 1)
 * sign-extended to pmc_width bits; otherwise (software events, no PMU,
 * rdpmc not allowed) the reader falls back to read(2).  Follows the
 * comment on perf_event_mmap_page in include/uapi/linux/perf_event.h and
 * perf_mmap__read_self() in tools/lib/perf/mmap.c.
 */
#ifndef PERFFILE_SELFMON_H
#define PERFFILE_SELFMON_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct selfmon {
	int fd;
	struct perf_event_mmap_page *page;	/* NULL when the mmap failed (read(2) only) */
	size_t page_len;
};

struct selfmon_value {
	uint64_t val;		/* scaled as libperf does when enabled != running */
	uint64_t ena, run;
	int via_rdpmc;		/* 1: read from the page with rdpmc, 0: read(2) */
};

/* one consistent copy of the page's fields (what the seqlock protects) */
struct selfmon_snapshot {
	uint32_t seq, index;
	int64_t offset;
	uint64_t time_enabled, time_running;
	uint16_t pmc_width;
	int cap_user_rdpmc, cap_user_time;
};

/* counter of (type, config) on this thread, any cpu, enabled; 0 or -errno */
int selfmon__open(struct selfmon *sm, uint32_t type, uint64_t config);
void selfmon__close(struct selfmon *sm);

/* seqlock read of the page: retries while lock changes (odd/changed sequence) */
void selfmon__snapshot(const volatile struct perf_event_mmap_page *pc, struct selfmon_snapshot *s);

/* the mmap page with rdpmc when cap_user_rdpmc and index allow, else read(2); 0 or -errno */
int selfmon__read(const struct selfmon *sm, struct selfmon_value *v);
/* always read(2) */
int selfmon__read_syscall(const struct selfmon *sm, struct selfmon_value *v);

#endif

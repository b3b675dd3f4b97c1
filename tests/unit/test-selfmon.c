/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests for self-monitoring: the seqlock snapshot on a page in memory,
 * and, when the kernel lets us open a counter, that the mmap-page reader
 * agrees with read(2).  Tests that need perf_event_open skip with a message
 * when the kernel refuses.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "perffile/capture/selfmon.h"

static void test_snapshot_memory(void **state)
{
	struct perf_event_mmap_page *pc = calloc(1, 4096);
	struct selfmon_snapshot s;

	(void)state;
	assert_non_null(pc);
	pc->lock = 4;
	pc->index = 3;
	pc->offset = -1234;
	pc->time_enabled = 500;
	pc->time_running = 400;
	pc->pmc_width = 48;
	pc->cap_user_rdpmc = 1;
	selfmon__snapshot(pc, &s);
	assert_int_equal(s.seq, 4);
	assert_int_equal(s.index, 3);
	assert_true(s.offset == -1234);
	assert_int_equal(s.time_enabled, 500);
	assert_int_equal(s.time_running, 400);
	assert_int_equal(s.pmc_width, 48);
	assert_int_equal(s.cap_user_rdpmc, 1);
	free(pc);
}

static int open_or_skip(struct selfmon *sm, uint32_t type, uint64_t config)
{
	int err = selfmon__open(sm, type, config);

	if (err) {
		fprintf(stderr, "skip: perf_event_open refused: %s\n", strerror(-err));
		return -1;
	}
	return 0;
}

/* page faults: touching N fresh pages (no huge pages) adds at least N */
static void test_page_faults_agree(void **state)
{
	struct selfmon sm;
	struct selfmon_value r1, m, r2, m2;
	const size_t pages = 64;
	long psz = sysconf(_SC_PAGESIZE);
	unsigned char *mem;

	(void)state;
	if (open_or_skip(&sm, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS)) {
		skip();
		return;
	}
	mem = mmap(NULL, pages * (size_t)psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(mem != MAP_FAILED);
	madvise(mem, pages * (size_t)psz, MADV_NOHUGEPAGE);
	assert_int_equal(selfmon__read_syscall(&sm, &r1), 0);
	assert_int_equal(selfmon__read(&sm, &m), 0);
	assert_int_equal(selfmon__read_syscall(&sm, &r2), 0);
	/* no page is touched between the three reads except by the reads themselves */
	assert_true(r1.val <= m.val);
	assert_true(m.val <= r2.val);
	assert_true(r2.val - r1.val <= 2);
	if (!sm.page || !sm.page->cap_user_rdpmc)
		assert_int_equal(m.via_rdpmc, 0);	/* software event: read(2) fallback */
	for (size_t i = 0; i < pages; i++)
		mem[i * (size_t)psz] = 1;
	assert_int_equal(selfmon__read(&sm, &m2), 0);
	assert_true(m2.val >= r2.val + pages);
	assert_true(m2.ena >= r2.ena);
	munmap(mem, pages * (size_t)psz);
	selfmon__close(&sm);
}

/* task-clock: the page is readable and its times never run ahead of read(2)'s */
static void test_task_clock_page(void **state)
{
	struct selfmon sm;
	struct selfmon_snapshot s;
	struct selfmon_value a, b;
	volatile uint64_t spin = 0;

	(void)state;
	if (open_or_skip(&sm, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK)) {
		skip();
		return;
	}
	for (int i = 0; i < 1000000; i++)
		spin += (uint64_t)i;
	assert_int_equal(selfmon__read(&sm, &a), 0);
	assert_int_equal(selfmon__read_syscall(&sm, &b), 0);
	assert_true(a.val > 0);
	assert_true(a.val <= b.val);
	assert_true(b.run <= b.ena);
	if (sm.page) {
		selfmon__snapshot(sm.page, &s);
		/* the page is updated at schedule-in/out only: it lags read(2) */
		assert_true(s.time_enabled <= b.ena);
		assert_true(s.time_running <= b.run);
	}
	selfmon__close(&sm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snapshot_memory),
		cmocka_unit_test(test_page_faults_agree),
		cmocka_unit_test(test_task_clock_page),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

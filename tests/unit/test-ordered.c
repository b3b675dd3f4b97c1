/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests of perffile/ordered.c: files built in memory (tests/lib/perfemit.h) with
 * out-of-order rounds, read with perf_file__next() and replayed through the
 * queue.  Expected orders are worked out by hand from perf's OE_FLUSH__ROUND
 * rule (a round flushes what is <= the largest time seen before the
 * previous round) in the comment of each test.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perffile/ordered.h"
#include "perffile/perffile.h"
#include "tests/lib/perfemit.h"

struct seen {
	uint32_t type[256];
	uint64_t time[256];
	uint64_t nr[256];
	size_t n;
	uint64_t count, last_time;
	int out_of_order;
};

static int record_cb(void *ctx, struct perf_record *rec)
{
	struct seen *s = ctx;
	uint64_t t = (rec->sample.sample_type & PERF_SAMPLE_TIME) ? rec->sample.time : 0;

	if (s->n < 256) {
		s->type[s->n] = rec->type;
		s->time[s->n] = t;
		s->nr[s->n] = rec->nr;
		s->n++;
	}
	if (rec->type == PERF_RECORD_SAMPLE) {
		if (t < s->last_time)
			s->out_of_order = 1;
		s->last_time = t;
	}
	s->count++;
	return 0;
}

static void replay(const uint8_t *buf, size_t len, struct seen *s, struct ordered_queue_stats *st)
{
	struct perf_file *f;
	struct ordered_queue *q;
	struct perf_record rec;
	int ret;

	assert_int_equal(perf_file__open_mem(&f, buf, len, NULL), 0);
	assert_int_equal(ordered_queue__new(&q, f, record_cb, s), 0);
	while ((ret = perf_file__next(f, &rec)) == 1)
		assert_int_equal(ordered_queue__push(q, &rec), 0);
	assert_int_equal(ret, 0);
	assert_int_equal(ordered_queue__flush(q), 0);
	if (st)
		ordered_queue__stats(q, st);
	ordered_queue__delete(q);
	perf_file__delete(f);
}

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)

/*
 * Round 1: S10 S30 S20, ROUND -> limit 0: nothing but the ROUND; next limit 30.
 * COMM at time 0 (synthesized): delivered at once.
 * Round 2: S25 S40 S15 S20b, ROUND -> S10 S15 S20 S20b S25 S30, ROUND; next 40.
 * Round 3: S50 S35 S5 (older than what was delivered: late), end ->
 *          S5 S35 S40 S50.
 */
static void test_rounds(void **state)
{
	static const uint64_t want_time[] = {
		0, 0, 10, 15, 20, 20, 25, 30, 0, 5, 35, 40, 50
	};
	static const uint32_t want_type[] = {
		68, PERF_RECORD_COMM, 9, 9, 9, 9, 9, 9, 68, 9, 9, 9, 9
	};
	struct pe e = { 0 };
	struct seen s = { 0 };
	struct ordered_queue_stats st;
	uint8_t *buf;
	size_t len, i;

	(void)state;
	pe__attr(&e, ST, 1000);
	pe__sample(&e, 0, PERF_RECORD_MISC_USER, 0x1, 1, 1, 10, 1, NULL, 0);	/* nr 0 */
	pe__sample(&e, 0, PERF_RECORD_MISC_USER, 0x1, 1, 1, 30, 1, NULL, 0);	/* nr 1 */
	pe__sample(&e, 0, PERF_RECORD_MISC_USER, 0x1, 1, 1, 20, 1, NULL, 0);	/* nr 2 */
	pe__round(&e);								/* nr 3 */
	pe__comm(&e, 0, 1, 1, "init", 0, 0);					/* nr 4 */
	pe__sample(&e, 0, PERF_RECORD_MISC_USER, 0x1, 1, 1, 25, 1, NULL, 0);	/* nr 5 */
	pe__sample(&e, 0, PERF_RECORD_MISC_USER, 0x1, 1, 1, 40, 1, NULL, 0);	/* nr 6 */
	pe__sample(&e, 0, PERF_RECORD_MISC_USER, 0x1, 1, 1, 15, 1, NULL, 0);	/* nr 7 */
	pe__sample(&e, 0, PERF_RECORD_MISC_USER, 0x1, 1, 1, 20, 1, NULL, 0);	/* nr 8 */
	pe__round(&e);								/* nr 9 */
	pe__sample(&e, 0, PERF_RECORD_MISC_USER, 0x1, 1, 1, 50, 1, NULL, 0);
	pe__sample(&e, 0, PERF_RECORD_MISC_USER, 0x1, 1, 1, 35, 1, NULL, 0);
	pe__sample(&e, 0, PERF_RECORD_MISC_USER, 0x1, 1, 1, 5, 1, NULL, 0);
	buf = pe__file(&e, &len);
	replay(buf, len, &s, &st);

	assert_int_equal(s.n, sizeof(want_time) / sizeof(want_time[0]));
	for (i = 0; i < s.n; i++) {
		assert_int_equal(s.type[i], want_type[i]);
		assert_int_equal(s.time[i], want_time[i]);
	}
	/* equal times keep file order: S20 (nr 2) before S20b (nr 8) */
	assert_int_equal(s.nr[4], 2);
	assert_int_equal(s.nr[5], 8);
	assert_int_equal(st.nr_unordered, 1);	/* S5 */
	assert_int_equal(st.queued, 0);
	free(buf);
	pe__release(&e);
}

/* without PERF_SAMPLE_TIME nothing is queued: file order */
static void test_no_time(void **state)
{
	struct pe e = { 0 };
	struct seen s = { 0 };
	uint8_t *buf;
	size_t len, i;

	(void)state;
	pe__attr(&e, PERF_SAMPLE_IP | PERF_SAMPLE_TID, 1000);
	for (i = 0; i < 5; i++)
		pe__sample(&e, 0, PERF_RECORD_MISC_USER, 0x10 + i, 1, 1, 0, 1, NULL, 0);
	pe__round(&e);
	pe__sample(&e, 0, PERF_RECORD_MISC_USER, 0x20, 1, 1, 0, 1, NULL, 0);
	buf = pe__file(&e, &len);
	replay(buf, len, &s, NULL);
	assert_int_equal(s.n, 7);
	for (i = 0; i < s.n; i++)
		assert_int_equal(s.nr[i], i);
	free(buf);
	pe__release(&e);
}

/*
 * 400,000 samples in 400 rounds of 1000, each round's times shuffled inside
 * a window that overlaps the previous round: delivery must be in time order,
 * complete, and the queue must stay around two rounds (never the file).
 */
static void test_many_rounds(void **state)
{
	struct pe e = { 0 };
	struct seen s = { 0 };
	struct ordered_queue_stats st;
	uint64_t x = 88172645463325252ULL;
	uint8_t *buf;
	size_t len, r, i;

	(void)state;
	pe__attr(&e, ST, 1000);
	for (r = 0; r < 400; r++) {
		for (i = 0; i < 1000; i++) {
			uint64_t jitter;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			jitter = x % 1001;	/* up to half a round into the neighbours */
			pe__sample(&e, 0, PERF_RECORD_MISC_USER, 0x1, 1, 1,
				  1000000 + r * 1000 + i + 500 - jitter, 1, NULL, 0);
		}
		pe__round(&e);
	}
	buf = pe__file(&e, &len);
	replay(buf, len, &s, &st);
	assert_int_equal(s.count, 400 * 1001);
	assert_false(s.out_of_order);
	assert_int_equal(st.nr_unordered, 0);
	assert_true(st.max_queued <= 3000);
	assert_true(st.bytes_allocated <= 4u << 20);
	free(buf);
	pe__release(&e);
}

/*
 * No FINISHED_ROUND at all: 2.5M samples, each pair of times swapped
 * (1000001, 1000000, 1000003, 1000002, ...).  Without a bound the queue held
 * the whole file; at its bound (1M entries) it delivers the earlier half by
 * time, so it never holds more than 1M, the bytes stay under 64 MiB of copies
 * plus a block, and as a swapped pair never straddles a half (the half
 * delivered ends at an even time's partner) the order is still right.
 */
static void test_memory_bound(void **state)
{
	struct pe e = { 0 };
	struct seen s = { 0 };
	struct ordered_queue_stats st;
	uint8_t *buf;
	size_t len, i, n = 2500000;

	(void)state;
	pe__attr(&e, ST, 1000);
	for (i = 0; i < n; i++)
		pe__sample(&e, 0, PERF_RECORD_MISC_USER, 0x1, 1, 1, 1000000 + (i ^ 1), 1, NULL, 0);
	buf = pe__file(&e, &len);
	replay(buf, len, &s, &st);
	assert_int_equal(s.count, n);
	assert_false(s.out_of_order);
	assert_true(st.max_queued <= 1u << 20);
	assert_true(st.half_flushes >= 2);
	assert_true(st.bytes_allocated <= 65u << 20);
	free(buf);
	pe__release(&e);
}

/* delivery strictly increasing in (time, nr): the order of the key, equal times in file order */
struct keyorder {
	uint64_t count, time, nr;
	int bad;
};

static int keyorder_cb(void *ctx, struct perf_record *rec)
{
	struct keyorder *k = ctx;

	if (rec->type != PERF_RECORD_SAMPLE)
		return 0;
	if (k->count && (rec->sample.time < k->time || (rec->sample.time == k->time && rec->nr <= k->nr)))
		k->bad = 1;
	k->time = rec->sample.time;
	k->nr = rec->nr;
	k->count++;
	return 0;
}

/*
 * Rounds written as nr_runs ascending runs (one per CPU buffer), times drawn
 * from a small range so that equal times meet across runs, each round
 * overlapping the next (the queued head merges with the new runs); 1500
 * runs and a descending round take the sort for more runs than are merged.
 */
static void test_runs(void **state)
{
	static const size_t nr_runs[] = { 1, 2, 3, 8, 33, 1500 };
	uint64_t x = 0x2545f4914f6cdd1dULL;
	size_t c, r, run, i;

	(void)state;
	for (c = 0; c <= sizeof(nr_runs) / sizeof(nr_runs[0]); c++) {
		struct pe e = { 0 };
		struct keyorder k = { 0 };
		struct perf_file *f;
		struct ordered_queue *q;
		struct ordered_queue_stats st;
		struct perf_record rec;
		uint64_t n = 0;
		uint8_t *buf;
		size_t len;
		int ret;

		pe__attr(&e, ST, 1000);
		for (r = 0; r < 6; r++) {
			size_t runs = c < sizeof(nr_runs) / sizeof(nr_runs[0]) ? nr_runs[c] : 1;

			for (run = 0; run < runs; run++) {
				uint64_t t = 1000000 + r * 3000;
				size_t len_run = c < sizeof(nr_runs) / sizeof(nr_runs[0]) ? 4 + x % 300 : 3000;

				for (i = 0; i < len_run; i++, n++) {
					x ^= x << 13;
					x ^= x >> 7;
					x ^= x << 17;
					/* the descending case counts down, the others step 0-2 up */
					t = len_run == 3000 ? 1000000 + r * 3000 + 4499 - i : t + x % 3;
					if (t > 1000000 + r * 3000 + 4499)
						t = 1000000 + r * 3000 + 4499;
					pe__sample(&e, 0, PERF_RECORD_MISC_USER, 0x1, 1, 1, t, 1, NULL, 0);
				}
			}
			pe__round(&e);
		}
		buf = pe__file(&e, &len);
		assert_int_equal(perf_file__open_mem(&f, buf, len, NULL), 0);
		assert_int_equal(ordered_queue__new(&q, f, keyorder_cb, &k), 0);
		while ((ret = perf_file__next(f, &rec)) == 1)
			assert_int_equal(ordered_queue__push(q, &rec), 0);
		assert_int_equal(ret, 0);
		assert_int_equal(ordered_queue__flush(q), 0);
		ordered_queue__stats(q, &st);
		assert_int_equal(k.count, n);
		assert_false(k.bad);
		assert_int_equal(st.nr_unordered, 0);
		ordered_queue__delete(q);
		perf_file__delete(f);
		free(buf);
		pe__release(&e);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rounds),
		cmocka_unit_test(test_no_time),
		cmocka_unit_test(test_many_rounds),
		cmocka_unit_test(test_memory_bound),
		cmocka_unit_test(test_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

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
	uint64_t hash;		/* of every (type, time, nr, ip, offset, bytes) delivered, in order */
	uint64_t fail_at;	/* the callback returns -EIO for this delivery (1-based), 0: never */
	unsigned spin;		/* the callback's busy loop: a worker that lags behind the reader */
};

/* replay() with the queue's worker thread (the tests run both ways) */
static int with_worker;

static int worker_on(void **state)
{
	(void)state;
	with_worker = 1;
	return 0;
}

static int worker_off(void **state)
{
	(void)state;
	with_worker = 0;
	return 0;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x100000001b3ULL;
}

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
	s->hash = mix(mix(mix(mix(mix(s->hash, rec->type), t), rec->nr), rec->sample.ip), rec->offset);
	for (size_t i = 0; i < rec->size; i++)
		s->hash = mix(s->hash, ((const uint8_t *)rec->data)[i]);
	for (volatile unsigned k = 0; k < s->spin; k++)
		;
	return s->count == s->fail_at ? -EIO : 0;
}

static void replay(const uint8_t *buf, size_t len, struct seen *s, struct ordered_queue_stats *st)
{
	struct perf_file *f;
	struct ordered_queue *q;
	struct perf_record rec = { 0 };
	int ret;

	assert_int_equal(perf_file__open_mem(&f, buf, len, NULL), 0);
	assert_int_equal(ordered_queue__new(&q, f, record_cb, s), 0);
	if (with_worker)
		assert_int_equal(ordered_queue__start_worker(q), 0);
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
	/*
	 * 1 MiB blocks: about two rounds queued (2 blocks); with the worker,
	 * also the records of the batches it is not through (ordered.c: up to
	 * three while they hold 2 MiB, and the one being filled, 8,192
	 * records of 40 bytes): 2 + 3 + 1 blocks when it lags (a loaded machine)
	 */
	assert_true(st.bytes_allocated <= (with_worker ? 6u : 4u) << 20);
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
		struct perf_record rec = { 0 };
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

/* rounds of per samples over three overlapping windows, a COMM at time 0 every 7th round */
static uint8_t *rounds_file(size_t rounds, size_t per, size_t *len)
{
	struct pe e = { 0 };
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	size_t r, i;
	uint8_t *buf;

	pe__attr(&e, ST, 1000);
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < per; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			pe__sample(&e, 0, PERF_RECORD_MISC_USER, 0x1, 1, 1, 1000000 + r * per + x % (3 * per), 1,
				  NULL, 0);
		}
		if (r % 7 == 0)
			pe__comm(&e, 0, 1, 1, "c", 0, 0);
		pe__round(&e);
	}
	buf = pe__file(&e, len);
	pe__release(&e);
	return buf;
}

/* e's file (e is emptied for the next) */
static uint8_t *file_of(struct pe *e, size_t *len)
{
	uint8_t *buf = pe__file(e, len);

	pe__release(e);
	memset(e, 0, sizeof(*e));
	return buf;
}

/* buf replayed without the worker into a and with it into b (settings of b kept): the same deliveries */
static void both_ways(uint8_t *buf, size_t len, struct seen *a, struct seen *b, struct ordered_queue_stats *sa,
		      struct ordered_queue_stats *sb)
{
	memset(a, 0, sizeof(*a));
	replay(buf, len, a, sa);
	with_worker = 1;
	replay(buf, len, b, sb);
	with_worker = 0;
	assert_int_equal(b->count, a->count);
	assert_true(a->hash == b->hash);
	free(buf);
}

/*
 * The worker delivers what the caller's thread delivers, in the same order:
 * every (type, time, nr, ip) of 1.2M records in rounds that overlap (late
 * ones among them) with records delivered at once between, of rounds larger
 * than a block with a lagging worker, of large samples, of records without
 * time, and of the file without rounds that reaches the memory bound (the
 * worker then stops).
 */
static void test_worker_same(void **state)
{
	struct seen a, b = { 0 };
	struct ordered_queue_stats sa, sb;
	static uint64_t chain[1000];
	struct pe e = { 0 };
	uint8_t *buf;
	size_t len, i;

	(void)state;
	buf = rounds_file(2000, 600, &len);
	both_ways(buf, len, &a, &b, &sa, &sb);
	assert_int_equal(a.count, 2000 * 601 + 286);
	assert_true(sa.nr_unordered > 0);
	assert_int_equal(sb.nr_unordered, sa.nr_unordered);

	/*
	 * A worker slower than the reader, rounds of more than a block (1 MiB
	 * of copies): the reader must not reuse a block before the worker is
	 * through the records it held.
	 */
	memset(&b, 0, sizeof(b));
	b.spin = 300;
	buf = rounds_file(30, 20000, &len);
	both_ways(buf, len, &a, &b, &sa, &sb);
	assert_int_equal(b.count, 30 * 20001 + 5);

	/*
	 * Samples of 8 KiB (a callchain of 1,000), rounds of 40: a round hands
	 * its batch over at 2 MiB, before 8,192 records (64 MiB) wait in the
	 * blocks.
	 */
	memset(&b, 0, sizeof(b));
	pe__attr(&e, ST | PERF_SAMPLE_CALLCHAIN, 1000);
	for (i = 0; i < 4000; i++) {
		chain[i % 1000] = i;
		pe__sample(&e, 0, PERF_RECORD_MISC_USER, 0x1000 + i, 1, 1, 1000000 + i, 1, chain, 1000);
		if (i % 40 == 39)
			pe__round(&e);
	}
	buf = file_of(&e, &len);
	both_ways(buf, len, &a, &b, &sa, &sb);
	assert_int_equal(b.count, 4000 + 100);
	assert_true(sb.bytes_allocated <= 8u << 20);

	/*
	 * 100k samples without time, all delivered at once: 4.8 MB of copies
	 * (37 chunks of 128 KiB), handed over a MiB at a time; the ring's 4
	 * batches (OQ_BATCHES) keep 9 chunks each at most: 36
	 */
	memset(&b, 0, sizeof(b));
	pe__attr(&e, PERF_SAMPLE_IP | PERF_SAMPLE_TID, 1000);
	for (i = 0; i < 100000; i++)
		pe__sample(&e, 0, PERF_RECORD_MISC_USER, 0x1000 + i, 1, 1, 0, 1, NULL, 0);
	buf = file_of(&e, &len);
	both_ways(buf, len, &a, &b, &sa, &sb);
	assert_int_equal(b.count, 100000);
	assert_true(sb.bytes_allocated <= 36 * ((128u << 10) + 64));

	/*
	 * Records of a type this reader does not know, 1 to 15 bytes of body
	 * before the trailer that has their time: sizes that are not a
	 * multiple of 8 (the copy's last word is padded), the records after
	 * them misaligned in the file.  Every byte is delivered as read.
	 */
	memset(&b, 0, sizeof(b));
	pe__attr(&e, ST, 1000);
	for (i = 0; i < 3000; i++) {
		struct perfemit_sample_id sid = { .pid = 1, .tid = 1, .time = 5000 - i % 700, .id = e.ids[0] };
		size_t start = perfemit__rec_begin(&e.data, 30, 0);
		uint8_t body[15];

		for (size_t k = 0; k < sizeof(body); k++)
			body[k] = (uint8_t)(i * 31 + k);
		perfemit__bytes(&e.data, body, 1 + i % 15);
		perfemit__sample_id(&e.data, e.attrs[0].sample_type, &sid);
		perfemit__rec_end(&e.data, start, 0);
		if (i % 100 == 99)
			pe__round(&e);
	}
	buf = file_of(&e, &len);
	both_ways(buf, len, &a, &b, &sa, &sb);
	assert_int_equal(b.count, 3000 + 30);

	/* no rounds, to the memory bound */
	memset(&b, 0, sizeof(b));
	pe__attr(&e, ST, 1000);
	for (i = 0; i < 1500000; i++)
		pe__sample(&e, 0, PERF_RECORD_MISC_USER, 0x1, 1, 1, 3000000 - i + (i % 5) * 7, 1, NULL, 0);
	buf = file_of(&e, &len);
	both_ways(buf, len, &a, &b, &sa, &sb);
	assert_int_equal(b.count, 1500000);
	assert_true(sa.half_flushes >= 1);
	assert_int_equal(sb.half_flushes, sa.half_flushes);
	assert_int_equal(sb.nr_unordered, sa.nr_unordered);
	assert_int_equal(sb.max_queued, sa.max_queued);
}

/*
 * The callback's error stops delivery with the worker as without it: the
 * 5000th call fails, no call follows, and a later push or the flush
 * returns the error (with the worker, also every sync after).
 */
/*
 * A record's number goes with its copy (in 47 bits of the copy's header):
 * numbers just under 2^47 come out as they went in, in the order of the
 * same records numbered from 0; 2^47 is refused (EOVERFLOW), not cut.
 */
static void test_record_numbers(void **state)
{
	const uint64_t base = (UINT64_C(1) << 47) - (UINT64_C(1) << 21);
	int worker, pass;

	(void)state;
	for (worker = 0; worker < 2; worker++) {
		struct seen s[2];

		memset(s, 0, sizeof(s));
		for (pass = 0; pass < 2; pass++) {
			struct perf_file *f;
			struct ordered_queue *q;
			struct perf_record rec = { 0 };
			uint8_t *buf;
			size_t len, i;
			int ret;

			buf = rounds_file(2000, 600, &len);
			assert_int_equal(perf_file__open_mem(&f, buf, len, NULL), 0);
			assert_int_equal(ordered_queue__new(&q, f, record_cb, &s[pass]), 0);
			if (worker)
				assert_int_equal(ordered_queue__start_worker(q), 0);
			while ((ret = perf_file__next(f, &rec)) == 1) {
				assert_true(rec.nr < (UINT64_C(1) << 21));
				rec.nr += pass ? base : 0;
				assert_int_equal(ordered_queue__push(q, &rec), 0);
			}
			assert_int_equal(ret, 0);
			rec.nr = UINT64_C(1) << 47;
			assert_int_equal(ordered_queue__push(q, &rec), -EOVERFLOW);
			assert_int_equal(ordered_queue__flush(q), 0);
			ordered_queue__delete(q);
			perf_file__delete(f);
			free(buf);
			if (pass) {
				assert_int_equal(s[1].count, s[0].count);
				assert_int_equal(s[1].n, s[0].n);
				for (i = 0; i < s[0].n; i++)
					assert_int_equal(s[1].nr[i], s[0].nr[i] + base);
			}
		}
	}
}

static void test_worker_error(void **state)
{
	int worker;

	(void)state;
	for (worker = 0; worker < 2; worker++) {
		struct seen s = { .fail_at = 5000 };
		struct perf_file *f;
		struct ordered_queue *q;
		struct perf_record rec = { 0 };
		uint8_t *buf;
		size_t len;
		int ret, err = 0;

		buf = rounds_file(2000, 600, &len);
		assert_int_equal(perf_file__open_mem(&f, buf, len, NULL), 0);
		assert_int_equal(ordered_queue__new(&q, f, record_cb, &s), 0);
		if (worker)
			assert_int_equal(ordered_queue__start_worker(q), 0);
		while (!err && (ret = perf_file__next(f, &rec)) == 1)
			err = ordered_queue__push(q, &rec);
		if (!err)
			err = ordered_queue__flush(q);
		assert_int_equal(err, -EIO);
		/* the worker's error stays */
		assert_int_equal(ordered_queue__sync(q), worker ? -EIO : 0);
		assert_int_equal(s.count, 5000);
		ordered_queue__delete(q);
		perf_file__delete(f);
		free(buf);
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
		/* the same expectations with the worker thread delivering */
		cmocka_unit_test_setup_teardown(test_rounds, worker_on, worker_off),
		cmocka_unit_test_setup_teardown(test_no_time, worker_on, worker_off),
		cmocka_unit_test_setup_teardown(test_many_rounds, worker_on, worker_off),
		cmocka_unit_test_setup_teardown(test_memory_bound, worker_on, worker_off),
		cmocka_unit_test(test_worker_same),
		cmocka_unit_test(test_worker_error),
		cmocka_unit_test(test_record_numbers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

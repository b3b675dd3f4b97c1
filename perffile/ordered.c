/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Time-ordered replay (see ordered.h).  Follows ordered_events__queue(),
 * __ordered_events__flush() (OE_FLUSH__ROUND, OE_FLUSH__FINAL) and
 * perf_session__process_event() of Linux perf 6.1.
 *
 * Storage: record copies are appended to 1 MiB blocks; a block counts the
 * records still queued in it and goes back to a free list when that count
 * drops to zero.  The index is an array of (time, nr, copy) kept sorted on
 * its first `sorted` entries; a flush sorts the entries added since the last
 * flush (usually already sorted: a cheap check) and merges them in.
 *
 * Memory is bounded: a file without FINISHED_ROUND (or with rounds larger
 * than the bound) would queue everything, so when the copies reach
 * OQ_MAX_BLOCKS blocks or the index OQ_MAX_ENTS entries the earlier half of
 * the queue by time is delivered, as perf's OE_FLUSH__HALF does when
 * ordered_events reaches its max_alloc_size.  Order is kept within what is
 * queued; a record that arrives later with an older time than the last one
 * delivered is delivered at the next flush (counted in nr_unordered, as
 * perf warns "Timestamp below last timeslice flush").  About 64 MiB of
 * copies and 48 MiB of index at most.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perffile/ordered.h"

#define OQ_BLOCK_SIZE (1u << 20)
#define OQ_MAX_BLOCKS 64		/* 64 MiB of record copies */
#define OQ_MAX_ENTS (1u << 20)		/* 24 MiB of index, twice (the merge's) */

struct oq_block {
	struct oq_block *next;
	size_t used;
	size_t live;		/* records in this block not yet delivered */
	unsigned char data[];
};

struct oq_rec {
	struct oq_block *blk;
	uint64_t offset;
	uint32_t size;
	int compressed;
	/* size record bytes follow, 8-byte aligned */
};

struct oq_ent {
	uint64_t time;
	uint64_t nr;
	struct oq_rec *r;
};

struct ordered_queue {
	const struct perf_file *f;
	ordered_deliver_fn deliver;
	void *ctx;
	struct oq_block *cur;		/* block being filled */
	struct oq_block *free_blocks;
	struct oq_ent *ents, *tmp;
	size_t nr_ents, cap_ents, sorted;
	uint64_t max_time;		/* largest time queued */
	uint64_t next_flush;		/* OE_FLUSH__ROUND limit */
	uint64_t last_flush;		/* time of the last delivered queued record */
	uint64_t nr_unordered;
	uint64_t nr_half_flushes;	/* flushes at the memory bound */
	size_t max_queued;
	size_t nr_blocks;
	struct oq_block **blocks;	/* every block, for delete */
	size_t cap_blocks;
};

int ordered_queue__new(struct ordered_queue **out, const struct perf_file *f,
		       ordered_deliver_fn deliver, void *ctx)
{
	struct ordered_queue *q = calloc(1, sizeof(*q));

	*out = NULL;
	if (!q)
		return -ENOMEM;
	q->f = f;
	q->deliver = deliver;
	q->ctx = ctx;
	*out = q;
	return 0;
}

void ordered_queue__delete(struct ordered_queue *q)
{
	size_t i;

	if (!q)
		return;
	for (i = 0; i < q->nr_blocks; i++)
		free(q->blocks[i]);
	free(q->blocks);
	free(q->ents);
	free(q->tmp);
	free(q);
}

static struct oq_block *new_block(struct ordered_queue *q)
{
	struct oq_block *b;

	if (q->free_blocks) {
		b = q->free_blocks;
		q->free_blocks = b->next;
	} else {
		if (q->nr_blocks == q->cap_blocks) {
			size_t cap = q->cap_blocks ? q->cap_blocks * 2 : 16;
			struct oq_block **nb = realloc(q->blocks, cap * sizeof(*nb));

			if (!nb)
				return NULL;
			q->blocks = nb;
			q->cap_blocks = cap;
		}
		b = malloc(sizeof(*b) + OQ_BLOCK_SIZE);
		if (!b)
			return NULL;
		q->blocks[q->nr_blocks++] = b;
	}
	b->next = NULL;
	b->used = 0;
	b->live = 0;
	return b;
}

static void release_rec(struct ordered_queue *q, struct oq_rec *r)
{
	struct oq_block *b = r->blk;

	if (--b->live == 0 && b != q->cur) {
		b->next = q->free_blocks;
		q->free_blocks = b;
	}
}

static int ent_before(const struct oq_ent *a, const struct oq_ent *b)
{
	return a->time < b->time || (a->time == b->time && a->nr < b->nr);
}

static int ent_cmp(const void *pa, const void *pb)
{
	const struct oq_ent *a = pa, *b = pb;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	if (a->nr != b->nr)
		return a->nr < b->nr ? -1 : 1;
	return 0;
}

static int deliver_upto(struct ordered_queue *q, uint64_t limit, int all);
static void sort_all(struct ordered_queue *q);

/*
 * At the memory bound: deliver the earlier half of the queue by time (more
 * while no block comes free), as perf's OE_FLUSH__HALF.  0 or the callback's value.
 */
static int flush_half(struct ordered_queue *q, int need_block)
{
	int ret;

	do {
		uint64_t limit;

		if (!q->nr_ents)
			return 0;
		sort_all(q);
		limit = q->ents[(q->nr_ents - 1) / 2].time;
		ret = deliver_upto(q, limit, 0);
		if (ret)
			return ret;
		q->nr_half_flushes++;
	} while (need_block && !q->free_blocks);
	return 0;
}

static int queue_rec(struct ordered_queue *q, const struct perf_record *rec, uint64_t time)
{
	size_t need = (sizeof(struct oq_rec) + (size_t)rec->size + 7) & ~(size_t)7;
	struct oq_block *b = q->cur;
	struct oq_rec *r;
	struct oq_ent *e;
	int ret;

	if (need > OQ_BLOCK_SIZE)
		return -EINVAL;
	if (q->nr_ents >= OQ_MAX_ENTS) {
		ret = flush_half(q, 0);
		if (ret)
			return ret;
	}
	if ((!b || b->used + need > OQ_BLOCK_SIZE) && !q->free_blocks && q->nr_blocks >= OQ_MAX_BLOCKS) {
		ret = flush_half(q, 1);
		if (ret)
			return ret;
	}
	if (!b || b->used + need > OQ_BLOCK_SIZE) {
		struct oq_block *nb = new_block(q);

		if (!nb)
			return -ENOMEM;
		if (b && b->live == 0) {
			b->next = q->free_blocks;
			q->free_blocks = b;
		}
		q->cur = b = nb;
	}
	if (q->nr_ents == q->cap_ents) {
		size_t cap = q->cap_ents ? q->cap_ents * 2 : 4096;
		struct oq_ent *ne, *nt;

		if (cap > SIZE_MAX / sizeof(*ne))
			return -ENOMEM;
		ne = realloc(q->ents, cap * sizeof(*ne));
		if (!ne)
			return -ENOMEM;
		q->ents = ne;
		nt = realloc(q->tmp, cap * sizeof(*nt));
		if (!nt)
			return -ENOMEM;
		q->tmp = nt;
		q->cap_ents = cap;
	}
	r = (struct oq_rec *)(void *)(b->data + b->used);
	r->blk = b;
	r->offset = rec->offset;
	r->size = rec->size;
	r->compressed = rec->compressed;
	memcpy(r + 1, rec->data, rec->size);
	b->used += need;
	b->live++;

	e = &q->ents[q->nr_ents++];
	e->time = time;
	e->nr = rec->nr;
	e->r = r;
	if (q->nr_ents > q->max_queued)
		q->max_queued = q->nr_ents;
	if (time > q->max_time)
		q->max_time = time;
	if (time < q->last_flush)
		q->nr_unordered++;
	return 0;
}

/* make ents[0, nr_ents) sorted */
static void sort_all(struct ordered_queue *q)
{
	struct oq_ent *head = q->ents, *tail;
	size_t nh = q->sorted, nt = q->nr_ents - q->sorted, i, a, b, o;

	if (!nt)
		return;
	tail = q->ents + q->sorted;	/* ents is NULL while nothing was queued */
	for (i = 1; i < nt; i++)
		if (ent_before(&tail[i], &tail[i - 1]))
			break;
	if (i < nt)
		qsort(tail, nt, sizeof(*tail), ent_cmp);
	if (nh && ent_before(&tail[0], &head[nh - 1])) {
		/* merge head and tail through tmp */
		a = 0;
		b = 0;
		o = 0;
		while (a < nh && b < nt) {
			if (ent_before(&tail[b], &head[a]))
				q->tmp[o++] = tail[b++];
			else
				q->tmp[o++] = head[a++];
		}
		while (a < nh)
			q->tmp[o++] = head[a++];
		while (b < nt)
			q->tmp[o++] = tail[b++];
		memcpy(q->ents, q->tmp, o * sizeof(*q->ents));
	}
	q->sorted = q->nr_ents;
}

static int deliver_upto(struct ordered_queue *q, uint64_t limit, int all)
{
	size_t i, n;
	int ret = 0;

	sort_all(q);
	for (i = 0; i < q->nr_ents; i++) {
		struct oq_ent *e = &q->ents[i];
		struct perf_record rec;
		const char *why = NULL;
		int err;

		if (!all && e->time > limit)
			break;
		memset(&rec, 0, sizeof(rec));
		err = perf_file__decode(q->f, e->r + 1, e->r->size, &rec, &why);
		rec.nr = e->nr;
		rec.offset = e->r->offset;
		rec.compressed = e->r->compressed;
		q->last_flush = e->time;
		if (err)
			ret = err;
		else
			ret = q->deliver(q->ctx, &rec);
		release_rec(q, e->r);
		if (ret) {
			i++;
			break;
		}
	}
	n = q->nr_ents - i;
	if (i && n)
		memmove(q->ents, q->ents + i, n * sizeof(*q->ents));
	q->nr_ents = n;
	q->sorted = n;
	return ret;
}

static int record_time(const struct perf_record *rec, uint64_t *time)
{
	if (rec->type >= PERF_RECORD_USER_TYPE_START)
		return 0;
	if (!(rec->sample.sample_type & PERF_SAMPLE_TIME))
		return 0;
	if (rec->sample.time == 0 || rec->sample.time == UINT64_MAX)
		return 0;
	*time = rec->sample.time;
	return 1;
}

int ordered_queue__push(struct ordered_queue *q, const struct perf_record *rec)
{
	struct perf_record copy;
	uint64_t time = 0;
	int ret;

	if (record_time(rec, &time))
		return queue_rec(q, rec, time);

	if (rec->type == PERF_RECORD_FINISHED_ROUND) {
		ret = deliver_upto(q, q->next_flush, 0);
		if (ret)
			return ret;
		q->next_flush = q->max_time;
	} else if (rec->type == PERF_RECORD_FINISHED_INIT) {
		ret = deliver_upto(q, 0, 1);
		if (ret)
			return ret;
	}
	copy = *rec;	/* the callback takes a non-const record */
	return q->deliver(q->ctx, &copy);
}

int ordered_queue__flush(struct ordered_queue *q)
{
	return deliver_upto(q, 0, 1);
}

void ordered_queue__stats(const struct ordered_queue *q, struct ordered_queue_stats *st)
{
	st->queued = q->nr_ents;
	st->max_queued = q->max_queued;
	st->nr_unordered = q->nr_unordered;
	st->half_flushes = q->nr_half_flushes;
	st->bytes_allocated = q->nr_blocks * (sizeof(struct oq_block) + OQ_BLOCK_SIZE);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Time-ordered replay (see ordered.h).  Follows ordered_events__queue(),
 * __ordered_events__flush() (OE_FLUSH__ROUND, OE_FLUSH__FINAL) and
 * perf_session__process_event() of Linux perf 6.1.
 *
 * Storage: record copies are appended to 1 MiB blocks; a block counts the
 * records still queued in it and goes back to a free list when that count
 * drops to zero.  The index is an array of (time, copy) kept sorted on
 * its first `sorted` entries; a flush sorts the entries added since the last
 * flush (a round is one ascending run per CPU buffer: the runs are merged)
 * and merges them in.
 *
 * Memory is bounded: a file without FINISHED_ROUND (or with rounds larger
 * than the bound) would queue everything, so when the copies reach
 * OQ_MAX_BLOCKS blocks or the index OQ_MAX_ENTS entries the earlier half of
 * the queue by time is delivered, as perf's OE_FLUSH__HALF does when
 * ordered_events reaches its max_alloc_size.  Order is kept within what is
 * queued; a record that arrives later with an older time than the last one
 * delivered is delivered at the next flush (counted in nr_unordered, as
 * perf warns "Timestamp below last timeslice flush").  About 64 MiB of
 * copies and 32 MiB of index at most (the record number, the key's second half, is in the copy).
 *
 * With a worker (ordered_queue__start_worker), "delivering" appends to a
 * batch that a second thread decodes and hands to the callback, a round at
 * a time, while this thread reads on.  Every decision (what is delivered
 * when, the memory bound) is taken here exactly as without it, on the
 * records' accounting: a block whose records were all delivered is retired
 * with the batch that holds its last ones and reused once the worker is
 * through that batch.  The callback sees the same records in the same
 * order.  Should the copies reach half the bound, the worker is drained and
 * delivery goes on in this thread, as without one.
 *
 * The merge buffer (tmp) is allocated when a flush first has runs to merge:
 * a file written in time order never needs it.  The final flush frees each
 * block as its last record goes and then the index, so the queue's memory
 * is given back before the reports are written (the 1M-process file, one
 * FINISHED_ROUND at its end: 64 MiB of copies and 16 MiB of index held at
 * the end of the file, and until the end of the run).
 */
#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perffile/ordered.h"
#include "util/array.h"
#include "util/stream.h"

#define OQ_BLOCK_SIZE (1u << 20)		/* header and copies, at an address that is a multiple of it */
#define OQ_MAX_BLOCKS 64		/* 64 MiB of record copies */
#define OQ_MAX_ENTS (1u << 20)		/* 16 MiB of index, twice (the merge's) */
#define OQ_MAX_RUNS 1024		/* ascending runs merged in a flush, else qsort */

struct oq_block {
	struct oq_block *next;
	size_t used;
	size_t live;		/* records in this block not yet delivered */
	size_t idx;		/* in the queue's blocks */
	/* the reader writes the header: the worker's copies begin on the next line */
	_Alignas(64) unsigned char data[];
};

#define OQ_BLOCK_DATA (OQ_BLOCK_SIZE - offsetof(struct oq_block, data))

/* the block a queued copy is in */
static struct oq_block *block_of(const void *copy)
{
	return (struct oq_block *)((uintptr_t)copy & ~(uintptr_t)(OQ_BLOCK_SIZE - 1));
}

/*
 * 16 bytes: the copies of a full queue are about a million, and the 40-byte
 * samples of the bench's 1 GiB file take 56 bytes each (they went to memory
 * at 64 with a 24-byte header).  Two words, so that a copy is written a word
 * at a time (stream__copy()).
 */
struct oq_rec {
	uint64_t offset;
	uint64_t meta;		/* the record's number (the key's second half) << 17, compressed << 16, header.size */
	/* size record bytes follow, 8-byte aligned */
};

/* the most records a queue takes: 2^47, over a petabyte of input */
#define OQ_NR_MAX (UINT64_MAX >> 17)

static uint16_t rec_size(const struct oq_rec *r)
{
	return (uint16_t)r->meta;
}

static int rec_compressed(const struct oq_rec *r)
{
	return (int)(r->meta >> 16) & 1;
}

static uint64_t rec_nr(const struct oq_rec *r)
{
	return r->meta >> 17;
}

/* 16 bytes: the index of a full queue holds a million */
struct oq_ent {
	uint64_t time;
	uintptr_t ref;		/* the copy, which has the nr (read when two times are equal): ent_rec() */
};

#if defined(__x86_64__) && UINTPTR_MAX == UINT64_MAX
/*
 * x86-64 Linux maps user space below 2^47 (above only for an mmap hint that
 * asks, which malloc does not give), so an entry keeps its record's size in
 * bits 47-62, and bit 63 says so: delivery then reads nothing of the copy,
 * which went to memory past the reader's cache (util/stream.h).  An address
 * above is kept as it is, its size read from the copy.
 */
static uintptr_t ent_ref(const struct oq_rec *r, uint16_t size)
{
	uintptr_t a = (uintptr_t)r;

	return a >> 47 ? a : a | (uintptr_t)size << 47 | (uintptr_t)1 << 63;
}

static struct oq_rec *ent_rec(const struct oq_ent *e)
{
	return (struct oq_rec *)(e->ref & (UINTPTR_MAX >> (17 * (e->ref >> 63))));
}

static uint16_t ent_size(const struct oq_ent *e)
{
	return e->ref >> 63 ? (uint16_t)(e->ref >> 47) : rec_size(ent_rec(e));
}
#else
static uintptr_t ent_ref(const struct oq_rec *r, uint16_t size)
{
	(void)size;
	return (uintptr_t)r;
}

static struct oq_rec *ent_rec(const struct oq_ent *e)
{
	return (struct oq_rec *)e->ref;
}

static uint16_t ent_size(const struct oq_ent *e)
{
	return rec_size(ent_rec(e));
}
#endif

/* a copy takes 8 bytes less than with the 24-byte header before e35c672: the memory bound comes later */
_Static_assert(sizeof(struct oq_rec) == 16 && sizeof(struct oq_ent) == 16, "copy header 16 bytes, index entry 16");
_Static_assert(offsetof(struct oq_block, data) % 8 == 0, "copies 8-byte aligned in a block");
_Static_assert((OQ_BLOCK_SIZE & (OQ_BLOCK_SIZE - 1)) == 0 && OQ_BLOCK_DATA >= sizeof(struct oq_rec) + 65535 + 7,
	       "a block is found from a copy's address, and holds any record's copy");

#define OQ_BATCH_MIN 8192		/* records in a batch before a round hands it over */
#define OQ_BATCH_MIN_BYTES (2u << 20)	/* or bytes of them */
#define OQ_BATCH_MAX (1u << 20)		/* records in a batch before it is handed over unasked */
#define OQ_ARENA_CHUNK (128u << 10)	/* holds any record (header.size is 16 bits) */
#define OQ_ARENA_MAX (1u << 20)		/* bytes of copies in a batch before it is handed over unasked */

_Static_assert(OQ_ARENA_CHUNK >= sizeof(struct oq_rec) + 65535 + 7, "a chunk holds any record's copy");

/* copies of records delivered at once, for a batch; chunks are kept for reuse */
struct oq_chunk {
	struct oq_chunk *next;
	size_t used;
	unsigned char data[];
};

/*
 * records to deliver in order, and what the worker's being through them
 * frees; a cache line each: one thread fills one while the other reads the other
 */
struct oq_batch {
	_Alignas(64) struct array ents;	/* of struct oq_ent */
	struct oq_block *retired;	/* blocks that held the last of their records in this batch */
	struct oq_chunk *chunks, *chunk;	/* the immediate records' copies; chunk: being filled */
	size_t copied;			/* bytes of them */
	size_t bytes;			/* of all its records */
};

/*
 * Batches in a ring: the one being filled, and up to OQ_BATCHES - 1 handed
 * over while they hold OQ_BATCH_MIN_BYTES of records at most (else one, as
 * large batches need blocks), so the reader reads ahead while the worker is
 * on a long batch: with one handed batch the reader waited for it at each
 * hand-over, and then the worker for the reader (46 waits of the worker in
 * a run on big.data, 10 with the ring)
 */
#define OQ_BATCHES 4

struct oq_worker {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;		/* handed, done or quit changed */
	struct oq_batch batches[OQ_BATCHES];
	struct oq_batch *pending;	/* batches[handed % OQ_BATCHES], being filled by the reader */
	uint64_t handed;		/* batches handed over (the reader's, under mu) */
	uint64_t done;			/* batches the worker is through (the worker's, under mu) */
	uint64_t reclaimed;		/* of those, the ones the reader took back what they free (the reader's) */
	int quit;
	int err;			/* the worker's first error: it delivers nothing more */
};

/* a copy that did not decode at its turn (ordered_queue__fault) */
struct oq_fault {
	uint64_t offset;
	char why[sizeof(((struct perf_record *)0)->why_buf)];	/* "": none */
};

struct ordered_queue {
	const struct perf_file *f;
	struct oq_fault fault;		/* written by the thread that delivers, read once it is at rest */
	int revalidate;			/* attrs came while records were queued: each is decoded before it goes */
	struct oq_worker *w;		/* NULL: delivery in the caller's thread (also once drained at the bound) */
	size_t nr_chunks;		/* the worker's copy chunks allocated */
	ordered_deliver_fn deliver;
	void *ctx;
	struct oq_block *cur;		/* block being filled */
	struct oq_block *free_blocks;
	struct oq_ent *ents_mem, *tmp;	/* cap_ents entries each */
	struct oq_ent *ents;		/* the queued: ents_mem + first, nr_ents */
	size_t first, nr_ents, cap_ents, sorted;
	uint64_t max_time;		/* largest time queued */
	uint64_t next_flush;		/* OE_FLUSH__ROUND limit */
	uint64_t last_flush;		/* time of the last delivered queued record */
	uint64_t nr_unordered;
	uint64_t nr_half_flushes;	/* flushes at the memory bound */
	size_t max_queued;
	int draining;			/* the final flush: a block whose records went is freed */
	size_t max_bytes;		/* the most the blocks and chunks took at once */
	size_t nr_blocks;
	struct oq_block **blocks;	/* every block, for delete */
	size_t cap_blocks;
	size_t runs[OQ_MAX_RUNS + 1];	/* sort_tail()'s run starts */
};

static void worker_stop(struct ordered_queue *q);
static int worker_wait(struct ordered_queue *q, uint64_t keep, size_t bytes);

/* after a block or chunk was allocated: the most the copies took */
static void note_bytes(struct ordered_queue *q)
{
	size_t b = q->nr_blocks * (size_t)OQ_BLOCK_SIZE +
		   q->nr_chunks * (sizeof(struct oq_chunk) + OQ_ARENA_CHUNK);

	if (b > q->max_bytes)
		q->max_bytes = b;
}

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
	worker_stop(q);
	for (i = 0; i < q->nr_blocks; i++)
		free(q->blocks[i]);	/* NULL: freed by the final flush */
	free(q->blocks);
	free(q->ents_mem);
	free(q->tmp);
	free(q);
}

static struct oq_block *new_block(struct ordered_queue *q)
{
	struct oq_block *b;

	/* what the worker is through frees blocks: taken back before one more is made (an error comes later) */
	if (!q->free_blocks && q->w)
		(void)worker_wait(q, OQ_BATCHES, SIZE_MAX);
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
		b = aligned_alloc(OQ_BLOCK_SIZE, OQ_BLOCK_SIZE);
		if (!b)
			return NULL;
		b->idx = q->nr_blocks;
		q->blocks[q->nr_blocks++] = b;
		note_bytes(q);
	}
	b->next = NULL;
	b->used = 0;
	b->live = 0;
	return b;
}

/* give b back to malloc (the final flush): its place in the list of every block stays, empty */
static void free_block(struct ordered_queue *q, struct oq_block *b)
{
	q->blocks[b->idx] = NULL;
	if (q->cur == b)
		q->cur = NULL;
	free(b);
}

/* a block none of whose records is queued any more: free, or retired with the pending batch */
static void retire_block(struct ordered_queue *q, struct oq_block *b)
{
	struct oq_block **list = q->w ? &q->w->pending->retired : &q->free_blocks;

	if (q->draining) {
		free_block(q, b);
		return;
	}
	b->next = *list;
	*list = b;
}

static void release_rec(struct ordered_queue *q, struct oq_rec *r)
{
	struct oq_block *b = block_of(r);

	if (--b->live == 0 && b != q->cur)
		retire_block(q, b);
}

static int ent_before(const struct oq_ent *a, const struct oq_ent *b)
{
	return a->time < b->time || (a->time == b->time && rec_nr(ent_rec(a)) < rec_nr(ent_rec(b)));
}

static int ent_cmp(const void *pa, const void *pb)
{
	const struct oq_ent *a = pa, *b = pb;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	if (rec_nr(ent_rec(a)) != rec_nr(ent_rec(b)))
		return rec_nr(ent_rec(a)) < rec_nr(ent_rec(b)) ? -1 : 1;
	return 0;
}

static int deliver_upto(struct ordered_queue *q, uint64_t limit, int all);
static void sort_all(struct ordered_queue *q);
static int stop_async(struct ordered_queue *q);

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

/*
 * Room for one more entry at the end: a flush delivers from the front, so
 * move what is queued back to the start when that frees half the array (or
 * the array is at its bound), else double it.  0 or -ENOMEM.
 */
static int make_room(struct ordered_queue *q)
{
	size_t cap = q->cap_ents ? q->cap_ents * 2 : 4096;
	struct oq_ent *ne;

	if (q->first && (q->nr_ents <= q->cap_ents / 2 || q->cap_ents >= OQ_MAX_ENTS)) {
		memmove(q->ents_mem, q->ents, q->nr_ents * sizeof(*q->ents));
		q->ents = q->ents_mem;
		q->first = 0;
		return 0;
	}
	if (cap > SIZE_MAX / sizeof(*ne))
		return -ENOMEM;
	ne = realloc(q->ents_mem, cap * sizeof(*ne));
	if (!ne)
		return -ENOMEM;
	q->ents_mem = ne;
	q->ents = ne + q->first;
	q->cap_ents = cap;
	/* scratch: made again at the new size when a flush merges */
	free(q->tmp);
	q->tmp = NULL;
	return 0;
}

/* the merge buffer, cap_ents entries; NULL on ENOMEM (the caller sorts in place) */
static struct oq_ent *merge_buffer(struct ordered_queue *q)
{
	if (!q->tmp)
		q->tmp = malloc(q->cap_ents * sizeof(*q->tmp));
	return q->tmp;
}

/* bytes a copy of rec takes, header included (8-byte aligned) */
static size_t copy_size(const struct perf_record *rec)
{
	return (sizeof(struct oq_rec) + (size_t)rec->size + 7) & ~(size_t)7;
}

/*
 * A copy of rec at `at`, in block blk (NULL: a worker's chunk).  What the
 * worker reads (the records' copies, the batch's index) is streamed
 * (util/stream.h): on the 1 GiB file (--reports stat,events,results) the
 * reading thread's plain stores waited for the worker's core 42% of its
 * time, 2.1 s at 1.33 CPUs; streamed, 0.96 s at 1.75 CPUs (AMD EPYC VM,
 * 2026-11-27, the two vCPUs alike).  worker_hand_over() fences them before
 * the batch is handed over.
 */
static struct oq_rec *put_copy(unsigned char *at, const struct perf_record *rec, int streamed)
{
	struct oq_rec *r = (struct oq_rec *)(void *)at;
	uint64_t head[2] = { rec->offset, rec->nr << 17 | (uint64_t)!!rec->compressed << 16 | rec->size };

	_Static_assert(sizeof(head) == sizeof(*r), "the copy's header is two words");
	if (streamed) {
		stream__copy(r, head, sizeof(head));
		stream__copy(r + 1, rec->data, rec->size);
		return r;
	}
	memcpy(r, head, sizeof(head));
	memcpy(r + 1, rec->data, rec->size);
	return r;
}

/*
 * Room for a copy of need bytes and one more entry when the block or the
 * index is full: a flush at a bound, a new block, a larger index.  0 or an
 * error.  Out of line, so that queue_rec() saves no registers for it.
 */
static int __attribute__((noinline)) queue_room(struct ordered_queue *q, size_t need)
{
	struct oq_block *b = q->cur;
	int new_blk = !b || b->used + need > OQ_BLOCK_DATA;
	int ret;

	if (need > OQ_BLOCK_DATA)
		return -EINVAL;
	if (q->nr_ents >= OQ_MAX_ENTS) {
		ret = flush_half(q, 0);
		if (ret)
			return ret;
	}
	if (new_blk && !q->free_blocks && q->w && q->nr_blocks >= OQ_MAX_BLOCKS / 2) {
		ret = stop_async(q);
		if (ret)
			return ret;
	}
	if (new_blk && !q->free_blocks && q->nr_blocks >= OQ_MAX_BLOCKS) {
		ret = flush_half(q, 1);
		if (ret)
			return ret;
	}
	if (new_blk) {
		struct oq_block *nb = new_block(q);

		if (!nb)
			return -ENOMEM;
		if (b && b->live == 0)
			retire_block(q, b);
		q->cur = nb;
	}
	return q->first + q->nr_ents == q->cap_ents ? make_room(q) : 0;
}

static int queue_rec(struct ordered_queue *q, const struct perf_record *rec, uint64_t time)
{
	size_t need = copy_size(rec);
	struct oq_block *b = q->cur;
	struct oq_rec *r;
	struct oq_ent *e;

	if (!b || b->used + need > OQ_BLOCK_DATA || q->nr_ents >= OQ_MAX_ENTS ||
	    q->first + q->nr_ents == q->cap_ents) {
		int ret = queue_room(q, need);

		if (ret)
			return ret;
		b = q->cur;
	}
	r = put_copy(b->data + b->used, rec, q->w != NULL);
	b->used += need;
	b->live++;

	e = &q->ents[q->nr_ents++];
	e->time = time;
	e->ref = ent_ref(r, rec->size);
	if (q->nr_ents > q->max_queued)
		q->max_queued = q->nr_ents;
	if (time > q->max_time)
		q->max_time = time;
	if (time < q->last_flush)
		q->nr_unordered++;
	return 0;
}

/* merge the sorted a[0, na) and b[0, nb) into out */
static void merge_ents(const struct oq_ent *a, size_t na, const struct oq_ent *b, size_t nb,
		       struct oq_ent *out)
{
	size_t i = 0, j = 0;

	while (i < na && j < nb) {
		if (ent_before(&b[j], &a[i]))
			*out++ = b[j++];
		else
			*out++ = a[i++];
	}
	memcpy(out, a + i, (na - i) * sizeof(*out));
	memcpy(out + (na - i), b + j, (nb - j) * sizeof(*out));
}

/* merge the sorted a[0, na) and b[0, nb) into a[0, na + nb) from the back; b lies elsewhere */
static void merge_back(struct oq_ent *a, size_t na, const struct oq_ent *b, size_t nb)
{
	struct oq_ent *out = a + na + nb;

	while (nb) {
		if (na && ent_before(&b[nb - 1], &a[na - 1]))
			*--out = a[--na];
		else
			*--out = b[--nb];
	}
}

/*
 * Sort ents[from, nr_ents): a round holds one ascending run per CPU buffer,
 * so merge the runs pairwise (src and tmp in turn) rather than sort them.
 * The key (time, nr) is unique, so the order is the one any sort gives.
 * More than OQ_MAX_RUNS runs (records that were not written in order), or
 * no memory for the merge buffer: qsort.
 * Returns where the sorted entries are: ents + from or tmp.
 */
static struct oq_ent *sort_tail(struct ordered_queue *q, size_t from)
{
	struct oq_ent *src = q->ents + from, *dst, *t;
	size_t n = q->nr_ents - from, *b = q->runs, nr = 0, i, k;

	b[nr++] = 0;
	for (i = 1; i < n; i++) {
		if (!ent_before(&src[i], &src[i - 1]))
			continue;
		if (nr == OQ_MAX_RUNS) {
			qsort(src, n, sizeof(*src), ent_cmp);
			return src;
		}
		b[nr++] = i;
	}
	b[nr] = n;
	dst = nr > 1 ? merge_buffer(q) : NULL;
	if (nr > 1 && !dst) {
		qsort(src, n, sizeof(*src), ent_cmp);
		return src;
	}
	while (nr > 1) {
		for (i = 0, k = 0; i + 1 < nr; i += 2, k++) {
			merge_ents(src + b[i], b[i + 1] - b[i], src + b[i + 1], b[i + 2] - b[i + 1],
				   dst + b[i]);
			b[k] = b[i];
		}
		if (i < nr) {
			memcpy(dst + b[i], src + b[i], (n - b[i]) * sizeof(*dst));
			b[k++] = b[i];
		}
		b[k] = n;
		nr = k;
		t = src;
		src = dst;
		dst = t;
	}
	return src;
}

/* make ents[0, nr_ents) sorted */
static void sort_all(struct ordered_queue *q)
{
	struct oq_ent *head = q->ents, *tail;
	size_t nh = q->sorted, nt = q->nr_ents - q->sorted;

	if (!nt)
		return;
	tail = sort_tail(q, nh);
	if (nh && ent_before(&tail[0], &head[nh - 1])) {
		if (tail != q->tmp && !merge_buffer(q)) {
			/* the tail is sorted in place: qsort all (the key is unique, the order the same) */
			qsort(head, nh + nt, sizeof(*head), ent_cmp);
			q->sorted = q->nr_ents;
			return;
		}
		if (tail != q->tmp) {
			memcpy(q->tmp, tail, nt * sizeof(*tail));
			tail = q->tmp;
		}
		/* head from the back into its place: the writes stay behind the reads */
		merge_back(head, nh, tail, nt);
	} else if (tail != head + nh) {
		memcpy(head + nh, tail, nt * sizeof(*tail));
	}
	q->sorted = q->nr_ents;
}

/* what delivery needs of the queue (the worker's copy: not on a line the reader writes) */
struct oq_target {
	const struct perf_file *f;
	struct oq_fault *fault;
	ordered_deliver_fn deliver;
	void *ctx;
	struct perf_record *rec;	/* the delivering thread's, decoded into again for each copy */
};

/*
 * Decode a copy into rec (perf_file__decode() sets every field the callback
 * may read); 0, or -EBADMSG with the first such fault noted: it decoded
 * when read, so an attr changed since (HEADER_ATTR in the stream)
 */
static int decode_copy(const struct perf_file *f, struct oq_fault *fault, const struct oq_ent *e,
		       struct perf_record *rec)
{
	const struct oq_rec *r = ent_rec(e);
	const char *why = NULL;

	rec->nr = rec_nr(r);
	rec->offset = r->offset;
	rec->compressed = rec_compressed(r);
	if (!perf_file__decode(f, r + 1, rec_size(r), rec, &why))
		return 0;
	if (!fault->why[0]) {
		fault->offset = rec->offset;
		/* why may be in rec */
		snprintf(fault->why, sizeof(fault->why), "%s", why ? why : "malformed");
	}
	return -EBADMSG;
}

/* decode a copy and hand it to the callback; 0, decode_copy()'s -EBADMSG or the callback's value */
static int deliver_ent(const struct oq_target *t, const struct oq_ent *e)
{
	int err = decode_copy(t->f, t->fault, e, t->rec);

	return err ? err : t->deliver(t->ctx, t->rec);
}

/* ------------------------------------------------------------ the worker */

static void *worker_main(void *arg)
{
	struct ordered_queue *q = arg;
	struct oq_worker *w = q->w;
	/*
	 * Read once: the queue's first line shares a cache line with fields
	 * the reader writes for every record (malloc's alignment is 16), and
	 * reading it for every record tripled the time of both threads.
	 */
	struct perf_record rec = { 0 };
	const struct oq_target t = { q->f, &q->fault, q->deliver, q->ctx, &rec };
	size_t i;
	int err;

	(void)pthread_setname_np(pthread_self(), "readperf-work");
	pthread_mutex_lock(&w->mu);
	for (;;) {
		const struct oq_batch *b;
		const struct oq_ent *ents;
		size_t n;

		while (w->done == w->handed && !w->quit)
			pthread_cond_wait(&w->cv, &w->mu);
		if (w->done == w->handed)
			break;
		b = &w->batches[w->done % OQ_BATCHES];
		ents = b->ents.data;
		n = b->ents.len;
		err = w->err;	/* after an error, the batches handed before the reader saw it pass undelivered */
		pthread_mutex_unlock(&w->mu);
		for (i = 0; i < n && !err; i++)
			err = deliver_ent(&t, &ents[i]);
		pthread_mutex_lock(&w->mu);
		if (err)
			w->err = err;
		/* atomic: worker_idle() reads it without the lock */
		__atomic_store_n(&w->done, w->done + 1, __ATOMIC_RELEASE);
		pthread_cond_broadcast(&w->cv);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

/* the batches the worker is through up to done: their blocks to the free list, their copies' room reused */
static void reclaim(struct ordered_queue *q, uint64_t done)
{
	struct oq_worker *w = q->w;
	struct oq_block *blk;
	struct oq_chunk *c;

	for (; w->reclaimed < done; w->reclaimed++) {
		struct oq_batch *b = &w->batches[w->reclaimed % OQ_BATCHES];

		while ((blk = b->retired)) {
			b->retired = blk->next;
			blk->next = q->free_blocks;
			q->free_blocks = blk;
		}
		for (c = b->chunks; c; c = c->next)
			c->used = 0;
		b->chunk = b->chunks;
		b->copied = 0;
		b->bytes = 0;
		b->ents.len = 0;
	}
}

/* the bytes of the records of the batches handed over that the worker is not through (under mu) */
static size_t ahead_bytes(const struct oq_worker *w)
{
	size_t n = 0;
	uint64_t i;

	for (i = w->done; i < w->handed; i++)
		n += w->batches[i % OQ_BATCHES].bytes;
	return n;
}

/*
 * Wait until at most keep handed batches are left to the worker, and, when
 * more than one, of no more than bytes; then take back what the others
 * free.  The worker's error.
 */
static int worker_wait(struct ordered_queue *q, uint64_t keep, size_t bytes)
{
	struct oq_worker *w = q->w;
	uint64_t done;
	int err;

	pthread_mutex_lock(&w->mu);
	while (w->handed - w->done > keep || (w->handed - w->done > 1 && ahead_bytes(w) > bytes))
		pthread_cond_wait(&w->cv, &w->mu);
	err = w->err;
	done = w->done;
	pthread_mutex_unlock(&w->mu);
	reclaim(q, done);
	return err;
}

/* the worker is through every batch handed over (the reader's view: it may be a moment late) */
static int worker_idle(const struct oq_worker *w)
{
	return __atomic_load_n(&w->done, __ATOMIC_ACQUIRE) == w->handed;
}

/*
 * Hand the pending batch to the worker; the next one to fill is the oldest
 * of the ring, waited for when the worker is not through it yet.  The
 * worker's error.
 */
static int worker_hand_over(struct ordered_queue *q)
{
	struct oq_worker *w = q->w;
	int err;

	if (!w->pending->ents.len)
		return worker_wait(q, OQ_BATCHES, SIZE_MAX);	/* no wait: the error, and what is through */
	stream__fence();	/* the batch's copies are in memory before the worker is told */
	pthread_mutex_lock(&w->mu);
	err = w->err;
	if (!err) {
		w->handed++;
		pthread_cond_broadcast(&w->cv);
	}
	pthread_mutex_unlock(&w->mu);
	if (err)
		return err;
	w->pending = &w->batches[w->handed % OQ_BATCHES];
	/* small batches run ahead; large ones (a callchain each, no rounds) one at a time as before */
	return worker_wait(q, OQ_BATCHES - 1, OQ_BATCH_MIN_BYTES);
}

/* everything appended so far delivered; the worker's error */
static int worker_drain(struct ordered_queue *q)
{
	int err = worker_hand_over(q);

	return err ? err : worker_wait(q, 0, SIZE_MAX);
}

int ordered_queue__start_worker(struct ordered_queue *q)
{
	struct oq_worker *w;
	int err, i;

	if (q->w)
		return 0;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	for (i = 0; i < OQ_BATCHES; i++)
		array__init(&w->batches[i].ents, sizeof(struct oq_ent));
	w->pending = &w->batches[0];
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	q->w = w;
	err = pthread_create(&w->thread, NULL, worker_main, q);
	if (err) {
		pthread_cond_destroy(&w->cv);
		pthread_mutex_destroy(&w->mu);
		free(w);
		q->w = NULL;
		return -err;
	}
	return 0;
}

int ordered_queue__sync(struct ordered_queue *q)
{
	/* the callback itself may end up here (a message of the file): it is at rest already */
	if (!q->w || pthread_equal(pthread_self(), q->w->thread))
		return 0;
	return worker_drain(q);
}

/*
 * Deliver the rest in this thread (the copies near the memory bound, where
 * flush_half() decides; the end of the file): the worker drained, and gone.
 * After an error of the callback it stays, to say it again.
 */
static int stop_async(struct ordered_queue *q)
{
	int err = worker_drain(q);

	if (!err)
		worker_stop(q);
	return err;
}

/* the worker ends once through what it was handed (batches are empty after worker_drain()) */
static void worker_stop(struct ordered_queue *q)
{
	struct oq_worker *w = q->w;
	struct oq_chunk *c;
	int i;

	if (!w)
		return;
	pthread_mutex_lock(&w->mu);
	w->quit = 1;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	for (i = 0; i < OQ_BATCHES; i++) {
		array__release(&w->batches[i].ents);
		while ((c = w->batches[i].chunks)) {
			w->batches[i].chunks = c->next;
			free(c);
		}
	}
	free(w);
	q->w = NULL;
}

/*
 * A full batch goes to the worker now (waiting for it if need be), so that
 * records delivered at once (a file of them, or without rounds) do not pile
 * up; the worker's error.
 */
static int batch_check(struct ordered_queue *q)
{
	const struct oq_batch *b = q->w->pending;

	return b->ents.len >= OQ_BATCH_MAX || b->copied >= OQ_ARENA_MAX ? worker_hand_over(q) : 0;
}

/* a record delivered at once, copied for the worker; 0, -ENOMEM or the worker's error */
static int append_now(struct ordered_queue *q, const struct perf_record *rec)
{
	struct oq_batch *b = q->w->pending;
	size_t need = copy_size(rec);
	struct oq_chunk *c = b->chunk;
	struct oq_rec *r;
	struct oq_ent *e;

	if (c && c->used + need > OQ_ARENA_CHUNK)
		c = c->next;
	if (!c) {
		c = malloc(sizeof(*c) + OQ_ARENA_CHUNK);
		if (!c)
			return -ENOMEM;
		q->nr_chunks++;
		note_bytes(q);
		c->used = 0;
		c->next = NULL;
		if (b->chunk)
			b->chunk->next = c;
		else
			b->chunks = c;
	}
	b->chunk = c;
	e = array__push(&b->ents);
	if (!e)
		return -ENOMEM;
	r = put_copy(c->data + c->used, rec, 1);
	c->used += need;
	b->copied += need;
	b->bytes += rec->size;
	e->time = 0;
	e->ref = ent_ref(r, rec->size);
	return batch_check(q);
}

/* ------------------------------------------------------------ delivery */

static int deliver_upto(struct ordered_queue *q, uint64_t limit, int all)
{
	struct perf_record tmp = { 0 }, one = { 0 };
	const struct oq_target t = { q->f, &q->fault, q->deliver, q->ctx, &one };
	size_t i, n;
	int ret = 0, bad = 0;

	sort_all(q);
	for (i = 0; i < q->nr_ents; i++) {
		struct oq_ent *e = &q->ents[i];

		if (!all && e->time > limit)
			break;
		/*
		 * once attrs came while records were queued, each is decoded here
		 * first: delivery stops at the same record with or without the worker
		 */
		if (q->revalidate && decode_copy(q->f, &q->fault, e, &tmp)) {
			bad = 1;	/* it stays queued; what came before it goes */
			break;
		}
		q->last_flush = e->time;
		/* with the worker, delivered means in its batch: appended below, all at once */
		if (q->w)
			q->w->pending->bytes += ent_size(e);
		else
			ret = deliver_ent(&t, e);
		release_rec(q, ent_rec(e));
		if (ret) {
			i++;
			break;
		}
	}
	if (q->w && i) {
		struct array *to = &q->w->pending->ents;

		ret = array__reserve(to, i);
		if (!ret) {
			stream__copy((struct oq_ent *)to->data + to->len, q->ents, i * sizeof(*q->ents));
			to->len += i;
		}
		ret = ret ? ret : batch_check(q);
	}
	n = q->nr_ents - i;
	/* the rest stays where it is: make_room() moves it when the end is reached */
	q->first = n ? q->first + i : 0;
	q->ents = n ? q->ents + i : q->ents_mem;
	q->nr_ents = n;
	q->sorted = n;
	return ret ? ret : bad ? -EBADMSG : 0;
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

/* a record without a time: at once, after what a round's end delivers.  Out of line, as queue_room() */
static int __attribute__((noinline)) push_untimed(struct ordered_queue *q, const struct perf_record *rec)
{
	struct perf_record copy;
	int ret;

	/* an attr that comes while records are queued may change how they decode */
	if (rec->type == PERF_RECORD_HEADER_ATTR && q->nr_ents)
		q->revalidate = 1;

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
	if (q->w) {
		ret = append_now(q, rec);
		/*
		 * The batch goes at the end of a round, once it has enough
		 * records that waking the worker (and waiting for it) costs
		 * little beside them: rounds of a few hundred records each
		 * handed over made 1,600 futex calls for 390k samples.  Large
		 * records (user stacks) go sooner, so that few blocks wait.  A
		 * worker with nothing to do gets the round at once: the first
		 * rounds of a file (it waited ~10 ms for 8,192 records of
		 * big.data) and whenever the reader is the slower thread.
		 */
		if (!ret && rec->type == PERF_RECORD_FINISHED_ROUND &&
		    (q->w->pending->ents.len >= OQ_BATCH_MIN || q->w->pending->bytes >= OQ_BATCH_MIN_BYTES ||
		     worker_idle(q->w)))
			ret = worker_hand_over(q);
		return ret;
	}
	copy = *rec;	/* the callback takes a non-const record */
	return q->deliver(q->ctx, &copy);
}

int ordered_queue__push(struct ordered_queue *q, const struct perf_record *rec)
{
	uint64_t time = 0;

	if (rec->nr > OQ_NR_MAX)
		return -EOVERFLOW;	/* its number does not fit its copy's header */
	return record_time(rec, &time) ? queue_rec(q, rec, time) : push_untimed(q, rec);
}

/* the queue emptied at the end: its blocks and index go back to malloc (a later push makes new ones) */
static void free_storage(struct ordered_queue *q)
{
	while (q->nr_blocks)
		free(q->blocks[--q->nr_blocks]);	/* NULL: freed already */
	q->cur = NULL;
	q->free_blocks = NULL;
	free(q->ents_mem);
	free(q->tmp);
	q->ents_mem = q->ents = q->tmp = NULL;
	q->first = q->cap_ents = q->sorted = 0;
}

/*
 * Before the final flush: the free blocks go back to malloc, and the index
 * shrinks to what it holds (the analysis grows while it is delivered)
 */
static void shrink_storage(struct ordered_queue *q)
{
	struct oq_block *b;
	struct oq_ent *ne;

	while ((b = q->free_blocks)) {
		q->free_blocks = b->next;
		free_block(q, b);
	}
	if (!q->nr_ents || q->nr_ents > q->cap_ents / 2)
		return;
	memmove(q->ents_mem, q->ents, q->nr_ents * sizeof(*q->ents));
	ne = realloc(q->ents_mem, q->nr_ents * sizeof(*ne));
	q->ents_mem = q->ents = ne ? ne : q->ents_mem;
	q->first = 0;
	q->cap_ents = ne ? q->nr_ents : q->cap_ents;
	free(q->tmp);
	q->tmp = NULL;
}

int ordered_queue__flush(struct ordered_queue *q)
{
	/* the end: the worker drained, the rest delivered here (no copy of what is left to hand over) */
	int ret = q->w ? stop_async(q) : 0;

	if (ret)
		return ret;
	shrink_storage(q);
	q->draining = 1;
	ret = deliver_upto(q, 0, 1);
	q->draining = 0;
	if (!q->nr_ents)
		free_storage(q);
	return ret;
}

int ordered_queue__fault(const struct ordered_queue *q, uint64_t *offset, const char **why)
{
	*offset = q->fault.offset;
	*why = q->fault.why;
	return q->fault.why[0] != '\0';
}

void ordered_queue__stats(const struct ordered_queue *q, struct ordered_queue_stats *st)
{
	st->queued = q->nr_ents;
	st->max_queued = q->max_queued;
	st->nr_unordered = q->nr_unordered;
	st->half_flushes = q->nr_half_flushes;
	st->bytes_allocated = q->max_bytes;
}

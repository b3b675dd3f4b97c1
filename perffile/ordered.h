/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The time-ordered queue: replays the records of a perf.data file in
 * timestamp order, as perf's ordered-events do (tools/perf/util/ordered-events.c
 * and perf_session__process_event() in session.c of Linux perf 6.1).
 *
 *  - A kernel record with a timestamp (SAMPLE with PERF_SAMPLE_TIME, other
 *    kernel records with sample_id_all and TIME) is copied into the queue.
 *    Its time 0 (synthesized records) or no time at all: it is delivered at
 *    once, in file position relative to what the queue already delivered.
 *  - User records (type >= 64) are delivered at once.
 *  - PERF_RECORD_FINISHED_ROUND delivers every queued record whose time is
 *    <= the largest time seen before the previous FINISHED_ROUND (perf's
 *    OE_FLUSH__ROUND), then itself.  FINISHED_INIT and ordered_queue__flush()
 *    deliver everything.
 *  - Equal times keep file order (the key is (time, nr)).  A record older
 *    than what was already delivered is delivered at the next flush, late,
 *    as perf does.
 *
 * Memory: the copies live in big blocks that are recycled once every record
 * in them was delivered, so the queue holds about two rounds, not the file.
 * Nothing is allocated per record.
 */
#ifndef PERFFILE_ORDERED_H
#define PERFFILE_ORDERED_H

#include <stddef.h>
#include <stdint.h>

#include "perffile/perffile.h"

struct ordered_queue;

/*
 * Called for every record in replay order.  rec (and the bytes it points
 * into) is valid only during the call.  A non-zero return stops delivery
 * and is returned by the push/flush that delivered.
 */
typedef int (*ordered_deliver_fn)(void *ctx, struct perf_record *rec);

/* f is borrowed (used to re-decode the copies); 0 or -ENOMEM */
int ordered_queue__new(struct ordered_queue **out, const struct perf_file *f,
		       ordered_deliver_fn deliver, void *ctx);
void ordered_queue__delete(struct ordered_queue *q);

/*
 * Queue (or deliver) one record from perf_file__next().  The record bytes are
 * copied; rec may be reused by the caller after the call.  Returns 0, the
 * deliver callback's non-zero value, -ENOMEM, or -EINVAL when a queued copy
 * no longer decodes with perf_file__decode() (that record is dropped).
 */
int ordered_queue__push(struct ordered_queue *q, const struct perf_record *rec);

/*
 * Deliver everything queued (end of file, after an error), in the caller's
 * thread, also with a worker (which is through its records first); 0 or
 * the callback's value.  The copies' blocks are freed as they empty, and
 * once the queue is empty its index too (a later push allocates anew).
 */
int ordered_queue__flush(struct ordered_queue *q);

/*
 * Deliver from a second thread from now on: push hands the records over a
 * round at a time and returns before the callback ran, an error of the
 * callback coming out of a later call.  The callback sees the same records
 * in the same order as without it, one at a time.  ordered_queue__sync()
 * and ordered_queue__flush() return with the worker at rest (flush delivers
 * what is left in the caller's thread); only then may the caller touch what
 * the callback uses, or change the file's attrs or features.  0 or a
 * negative errno (then delivery stays in the caller's thread).
 */
int ordered_queue__start_worker(struct ordered_queue *q);

/* wait until everything pushed so far was delivered; 0 or the callback's (first) non-zero value */
int ordered_queue__sync(struct ordered_queue *q);

/*
 * A queued record is decoded again at its turn, with the file's attrs as
 * they are then: one that a HEADER_ATTR read since has changed may not
 * decode.  Delivery then stops with -EBADMSG, and this says which record
 * and why (1; 0: no such fault).  Call it with the queue at rest (after
 * ordered_queue__sync or __flush).
 */
int ordered_queue__fault(const struct ordered_queue *q, uint64_t *offset, const char **why);

/* statistics: records queued now, the most ever queued, records delivered late */
struct ordered_queue_stats {
	size_t queued;
	size_t max_queued;
	uint64_t nr_unordered;
	uint64_t half_flushes;		/* deliveries forced by the memory bound */
	size_t bytes_allocated;		/* the most record copies took at once: the blocks, and the worker's batches */
};
void ordered_queue__stats(const struct ordered_queue *q, struct ordered_queue_stats *st);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The threads report (threads.csv, offcpu.csv, --folded-offcpu,
 * --flamegraph-offcpu): its rows and off-CPU stacks for another report (the
 * --html page, decode/reports/html.c).
 */
#ifndef DECODE_REPORTS_THREADS_H
#define DECODE_REPORTS_THREADS_H

#include <stdint.h>

#include "decode/reports/flame.h"

extern const struct report_ops threads_report;

/* one row of threads.csv; -1 in the switch columns: the file has no context-switch data */
struct thread_row {
	uint32_t pid, tid;
	const char *comm, *comms;
	uint64_t start, end;		/* 0: no time */
	const char *event;		/* "": the thread has no samples */
	uint64_t samples, period, oncpu_ns;
	int64_t offcpu_ns, switches, voluntary, preempted;
};

/*
 * threads.csv's rows in its order, each handed to fn (which returns 0 to go
 * on or an error that ends the walk and is returned); the threads report must
 * be enabled, else -EINVAL.
 */
int threads__each(struct analysis *a, int (*fn)(void *ctx, const struct thread_row *r), void *ctx);
/*
 * The off-CPU stacks of --folded-offcpu (weights in ns) into fd (released by
 * the caller); -ENODATA without context-switch data (not said), -EINVAL
 * when the report is not enabled, -ENOMEM.
 */
int threads__folded_offcpu(struct analysis *a, struct folded *fd);

#endif

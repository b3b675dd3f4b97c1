/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The on-CPU stacks report (--folded, --flamegraph), and its counters for a
 * report of the caller's (analysis_opts.consumer): readperf diff counts
 * each run's stacks this way for its differential flame graph
 * (decode/reports/diff.c) without reaching into the stacks report.
 */
#ifndef DECODE_REPORTS_STACKS_H
#define DECODE_REPORTS_STACKS_H

#include "decode/reports/flame.h"

extern const struct report_ops stacks_report;

/* one (samples, period) per distinct (event, comm, frames) of the samples it was handed */
struct stack_count;

/*
 * The counting report: analysis_opts.consumer = &stack_count_ops and
 * consumer_state a struct stack_count of stack_count__new; the analysis
 * hands it every sample with its frames.
 */
extern const struct report_ops stack_count_ops;

/* 0 or -ENOMEM; freed by stack_count__delete (NULL: no-op), after or before its analysis */
int stack_count__new(struct stack_count **out);
void stack_count__delete(struct stack_count *sc);
/*
 * The collapsed stacks of a's first event with samples (a warning, once,
 * when other events have samples too), weighted by period, into fd
 * (released by the caller: folded__release); sc counted a's samples and a
 * is alive.  0 or -ENOMEM.
 */
int stack_count__folded(struct stack_count *sc, struct analysis *a, struct folded *fd);

/*
 * The key of s's stack in k (replacing what k held): a struct stack_key
 * (event, nr frames, comm: NULL with --focus-root) and the frames, as the
 * stacks report counts them.  0 or -ENOMEM.
 */
int stacks__key(struct strbuf *k, struct analysis *a, const struct rsample *s);

#endif

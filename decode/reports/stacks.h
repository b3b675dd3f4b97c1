/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The on-CPU stacks report (--folded, --flamegraph): its stacks for another
 * report (readperf diff's differential flame graph, decode/reports/diff.c).
 */
#ifndef DECODE_REPORTS_STACKS_H
#define DECODE_REPORTS_STACKS_H

#include "decode/reports/flame.h"

extern const struct report_ops stacks_report;

/*
 * The collapsed stacks of a's first event with samples, weighted by period,
 * into fd (released by the caller: folded__release); the stacks report must
 * be enabled (the "folded" output in opts.outputs), else -EINVAL.  0 or -ENOMEM.
 */
int stacks__folded(struct analysis *a, struct folded *fd);

/*
 * The key of s's stack in k (replacing what k held): a struct stack_key
 * (event, nr frames, comm: NULL with --focus-root) and the frames, as the
 * stacks report counts them.  0 or -ENOMEM.
 */
int stacks__key(struct strbuf *k, struct analysis *a, const struct rsample *s);

#endif

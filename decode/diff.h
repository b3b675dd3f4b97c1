/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * readperf diff: two analyses compared function by function (DESIGN.md
 * "Reports"), in the spirit of perf diff's default delta column: for every
 * (event name, dso, function) with self samples in either profile, its
 * period share of the event in each and the change.
 *
 * diff.csv: event,dso,function,old_samples,new_samples,old_percent,
 * new_percent,delta_percent.  Percentages are results.csv's (period share
 * within the event, 4 decimals, rounded half up); delta_percent is
 * new_percent - old_percent of those rounded values, so the columns add
 * up exactly.  A function on one side only has zeros on the other.  Rows are
 * sorted by |delta_percent| descending, then event, dso, function (bytewise).
 */
#ifndef DECODE_DIFF_H
#define DECODE_DIFF_H

#include "decode/analysis.h"

/* write DIR/diff.csv atomically; both analyses are only read; 0, -ENOMEM or -errno */
int diff__write(const struct analysis *old, const struct analysis *new, const char *dir);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * readperf diff: two analyses compared function by function (README
 * "Reports"), in the spirit of perf diff: events paired first, then every
 * (event pair, dso, function) with samples in either profile joined.
 *
 * Events are paired as perf diff pairs evsels: by name, then by the name
 * without perf's ":modifiers" and "/terms/" ("cpu-clock:ppp" with
 * "cpu-clock", "page-faults/period=5/" with "page-faults") when that base
 * name is unique on both sides, then the rest by position (attr order).
 * Only events with samples take part.
 *
 * diff.csv: event,dso,function,old_samples,new_samples,old_period,
 * new_period,old_percent,new_percent,delta_percent,ratio and, when both
 * profiles have callchains, old_children_percent,new_children_percent,
 * delta_children_percent.
 *  - event: the NEW profile's name of the pair (the OLD one's when the event
 *    is only in OLD);
 *  - percentages are results.csv's (period share within the event, 4
 *    decimals, rounded half up); delta = new - old of those rounded values;
 *  - ratio = new_period / old_period with 4 decimals: for time-based events
 *    (cpu-clock, task-clock) the time spent in the function, so a function
 *    twice as slow on the same work shows 2.0000 whatever the others did,
 *    and profiles recorded with different -F compare; a function absent from
 *    OLD has ratio -1 (documented sentinel: no number is left blank);
 *  - sorted by event pair, then by the sort key descending (DIFF_SORT_*),
 *    then dso, function (bytewise).
 */
#ifndef DECODE_REPORTS_DIFF_H
#define DECODE_REPORTS_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "decode/analysis.h"

enum diff_sort {
	DIFF_SORT_PERIOD,	/* |new_period - old_period|: absolute change (default) */
	DIFF_SORT_RATIO,	/* |log ratio|: relative change; absent in OLD first */
	DIFF_SORT_DELTA,	/* |delta_percent|: change of share */
};

enum diff_pairing {
	DIFF_PAIR_NAME,		/* same name */
	DIFF_PAIR_BASE,		/* same name without :modifiers and /terms/ */
	DIFF_PAIR_POSITION,	/* the n-th unpaired event of each */
	DIFF_PAIR_OLD_ONLY,	/* no partner in NEW */
	DIFF_PAIR_NEW_ONLY,	/* no partner in OLD */
};

struct diff_pair {
	const char *old_name, *new_name;	/* borrowed from the analyses; NULL on the missing side */
	enum diff_pairing how;
	int children;				/* both sides carry callchains */
};

struct diff_row {
	const char *event, *dso, *function;	/* borrowed from the analyses */
	size_t pair;				/* index for diff__pair() */
	uint64_t samples[2], period[2];		/* [0] OLD, [1] NEW; self */
	int64_t pct[2], delta;			/* self share in 1/10000 % */
	int64_t ch_pct[2], ch_delta;		/* children share in 1/10000 % */
	int64_t ratio;				/* new/old period in 1/10000, -1 when old is 0 */
};

struct diff;

/* pair, join and sort; both analyses are borrowed until diff__delete; 0 or -ENOMEM */
int diff__new(struct diff **out, const struct analysis *old, const struct analysis *new, enum diff_sort sort);
void diff__delete(struct diff *d);

size_t diff__nr_pairs(const struct diff *d);
const struct diff_pair *diff__pair(const struct diff *d, size_t i);
/* rows in diff.csv's order */
size_t diff__nr_rows(const struct diff *d);
const struct diff_row *diff__row(const struct diff *d, size_t i);

/* write DIR/diff.csv atomically; 0, -ENOMEM or -errno */
/* diff.csv into dir; raw_csv: text cells verbatim (util/csv.h) */
int diff__write(const struct diff *d, const char *dir, int raw_csv);

/* the diff.csv spelling of a value in 1/10000 (percentages, ratio): "-1.2345" */
void diff__format(char *buf, size_t size, int64_t v);

#endif

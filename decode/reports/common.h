/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the reports of decode/reports/ share: a header row, orderings, opening an output. */
#ifndef DECODE_REPORTS_COMMON_H
#define DECODE_REPORTS_COMMON_H

#include <stdint.h>

#include "decode/report.h"
#include "util/csv.h"

/* dir/NAME.csv opened with the profile column of batch mode and the header row of cols; 0 or -errno */
int report__open_csv(struct csv *c, struct analysis *a, const char *dir, const char *name,
		     const struct report_column *cols);
/* the header row of cols (a NULL name ends them) */
void report__header(struct csv *c, const struct report_column *cols);

/* NULL first, then bytewise */
int report__cmp_str(const char *a, const char *b);
/* descending */
static inline int report__cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a == b ? 0 : (a > b ? -1 : 1);
}

/* the thread's comm, ":TID" for a thread without COMM as perf names it (thread__new); NULL on ENOMEM */
const char *report__comm(struct analysis *a, const struct mthread *th);
/* the comm of the process with the most samples (15 bytes of the name it exec'd), or NULL */
const char *report__main_comm(const struct analysis *a);
/* whether the dso (a path or a name) is the main executable: named as main_comm (NULL: none is) */
int report__is_main_dso(const char *main_comm, const char *dso);
/* qsort orders of const struct func_stat * as results.csv and const struct line_stat * as lines.csv */
int report__func_cmp(const void *pa, const void *pb);
/* qsort order of const struct func_stat *: self period descending, then dso, function (the top functions of an event) */
int report__top_cmp(const void *pa, const void *pb);
/* by event, then period descending, then dso and function name: the rows
 * of one function-keyed table with their own period (lines, call-tree nodes) */
int report__func_period_cmp(const struct func_stat *fa, uint64_t pa, const struct func_stat *fb, uint64_t pb);
int report__line_cmp(const void *pa, const void *pb);

/* the function of a frame list's leaf that blocks: the innermost user frame, else the innermost; NULL when none */
const struct func_stat *report__leaf(const uintptr_t *frames, uint32_t nr);

#endif

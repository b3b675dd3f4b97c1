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
 * Functions are joined on (event pair, dso, function) after two
 * relaxations, each said by the caller when used (diff__nr_dso_pairs,
 * diff_row.old_function):
 *  - a dso found on one side only stands for the other side's dso that
 *    played the same role: the main executable (the dso named as the comm of
 *    the process with the most samples: the image it exec'd), a file of the
 *    same name in another directory, a library of the same soname stem
 *    (libfoo.so.1.2 and libfoo.so.1.3: "libfoo.so"); one-to-one only;
 *  - compiler clone suffixes are ignored: GCC's .constprop.N, .isra.N,
 *    .part.N, .cold(.N), .lto_priv.N, LLVM's .llvm.N and the demangler's
 *    " [clone .X]" (compute_b.constprop.0 pairs with compute_b.constprop.1;
 *    clones of one function on one side are summed into its row);
 * DIFF_BY_FUNCTION (--pair function, perf diff -s sym) ignores the dso.
 *
 * Several recordings per side are summed (diff__new's arrays); the period
 * of a side is then the mean over its runs, so sides with different run
 * counts compare.
 *
 * diff.csv: event,dso,function,old_samples,new_samples,old_period,
 * new_period,old_percent,new_percent,delta_percent,ratio and, when both
 * profiles have callchains, old_children_percent,new_children_percent,
 * delta_children_percent; then ratio_low,ratio_high, with callchains
 * children_ratio,children_ratio_low,children_ratio_high, and last
 * old_dso,old_function (OLD's names, empty when OLD lacks the function).
 *  - event, dso, function: the NEW profile's names (OLD's when the function
 *    is only in OLD);
 *  - percentages are results.csv's (period share within the event, 4
 *    decimals, rounded half up); delta = new - old of those rounded values;
 *  - ratio = new_period / old_period with 4 decimals: for time-based events
 *    (cpu-clock, task-clock) the time spent in the function, so a function
 *    twice as slow on the same work shows 2.0000 whatever the others did,
 *    and profiles recorded with different -F compare.  Sentinels (no number
 *    is left blank): -1.0000 when OLD lacks the function (neither self nor
 *    children samples); a function in OLD's stacks without self time has
 *    1.0000 when NEW has no self time either, -2.0000 when NEW has some;
 *  - children_ratio: the same for the children (inclusive) period;
 *  - ratio_low, ratio_high: the confidence interval of ratio (DIFF_NOISE
 *    below); -1.0000 for an unbounded end;
 *  - sorted by event pair, then by the sort key descending (DIFF_SORT_*),
 *    then dso, function (bytewise).
 *
 * DIFF_NOISE: the samples of a function in a fixed-rate recording are
 * taken as Poisson counts, independent between functions and runs.  Given
 * n = old + new samples, new samples are Binomial(n, p) with p = the new
 * rate / (old + new rates); the Wilson score interval of p at the
 * confidence asked gives the interval of the rate ratio p / (1 - p), scaled
 * by the mean period per sample of each side (the event's) and by the run
 * counts.  With 3 or more runs on each side the run-to-run spread is used
 * as well: the interval of the ratio of the mean periods from the runs'
 * variances (log scale, Student's t with runs - 2 degrees of freedom), and
 * the row's interval is the union of both.  Limits: samples are not truly
 * independent (the timer ticks a thread's time, a phase of a run moves many
 * samples together), which only the spread of repeated runs captures; a
 * run's frequency must not be throttled; the children interval treats the
 * stacks holding the function as counts the same way.
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
	uint64_t samples[2], period[2];		/* the event's totals per side, summed over the runs */
};

/* how a dso on one side only was paired with one on the other */
enum diff_dso_how {
	DIFF_DSO_MAIN,		/* both the main executable */
	DIFF_DSO_FILE_NAME,	/* the same file name in another directory */
	DIFF_DSO_SONAME,	/* the same soname stem (libfoo.so.1.2, libfoo.so.1.3) */
	DIFF_DSO_JIT,		/* both a process's JIT code (jit-PID.dump, [JIT] tid PID): the pid aside */
};

struct diff_dso_pair {
	const char *old_dso, *new_dso;		/* borrowed from the analyses */
	enum diff_dso_how how;
};

struct diff_row {
	const char *event, *dso, *function;	/* NEW's names (OLD's when NEW lacks it); borrowed */
	const char *old_dso, *old_function;	/* OLD's, NULL when OLD lacks the function */
	size_t pair;				/* index for diff__pair() */
	uint64_t samples[2], period[2];		/* [0] OLD, [1] NEW; self, summed over the runs */
	uint64_t ch_samples[2], ch_period[2];	/* children, likewise */
	int64_t pct[2], delta;			/* self share in 1/10000 % */
	int64_t ch_pct[2], ch_delta;		/* children share in 1/10000 % */
	/* new/old of the mean period per run in 1/10000; sentinels -1 and -2 as diff.csv */
	int64_t ratio, ch_ratio;
	/* the confidence interval (DIFF_NOISE): ratio_lo[0] self, [1] children; INFINITY: unbounded */
	double ratio_lo[2], ratio_hi[2];
	/* per-run sums for the spread: [side][0 self, 1 children] of period and period squared */
	double run_sum[2][2], run_sq[2][2];
	uint64_t run_mark[2][2];		/* the period before the current run */
};

enum diff_by {
	DIFF_BY_DSO_FUNCTION,	/* (dso, function), dsos paired as above (default) */
	DIFF_BY_FUNCTION,	/* the function name alone (--pair function) */
};

struct diff_config {
	enum diff_sort sort;
	enum diff_by by;
	double confidence;	/* of the intervals, in (0, 1); 0: the point estimate */
};

struct diff;

/*
 * Pair, join and sort run[0][0..nr[0]) (OLD) against run[1][0..nr[1]) (NEW),
 * nr >= 1 each; events are paired on the first run of each side, the
 * others' events join by name.  The analyses are borrowed until
 * diff__delete; 0 or -ENOMEM.
 */
int diff__new(struct diff **out, struct analysis *const *run[2], const size_t nr[2],
	      const struct diff_config *cfg);
void diff__delete(struct diff *d);

size_t diff__nr_pairs(const struct diff *d);
const struct diff_pair *diff__pair(const struct diff *d, size_t i);
/* the dsos paired by role (not by name), in OLD's name order */
size_t diff__nr_dso_pairs(const struct diff *d);
const struct diff_dso_pair *diff__dso_pair(const struct diff *d, size_t i);
/* some pair has callchains on both sides (the children columns are written) */
int diff__has_children(const struct diff *d);
/* rows in diff.csv's order */
size_t diff__nr_rows(const struct diff *d);
const struct diff_row *diff__row(const struct diff *d, size_t i);

/* write DIR/diff.csv atomically; 0, -ENOMEM or -errno */
/* diff.csv into dir; raw_csv: text cells verbatim (util/csv.h) */
int diff__write(const struct diff *d, const char *dir, int raw_csv);

/* the diff.csv spelling of a value in 1/10000 (percentages, ratio): "-1.2345" */
void diff__format(char *buf, size_t size, int64_t v);
/* a ratio bound in 1/10000, INFINITY as -1 (10000 * -1) */
int64_t diff__fixed(double v);

struct folded;
struct stack_count;
/*
 * The differential stacks (flame.h, fd->diff): every run's stacks of the
 * first event with samples, counted by the caller's stack_count_ops
 * (decode/reports/stacks.h: stacks[s][k] counted the samples of run
 * [s][k] of diff__new), NEW's and OLD's period per stack as the mean per
 * run, stacks paired as functions are (clone suffixes ignored, OLD's main
 * process comm as NEW's); a stack in OLD only keeps OLD's names with NEW
 * weight 0.  0 or -ENOMEM; out released by folded__release.
 */
int diff__folded(const struct diff *d, struct stack_count *const *stacks[2], struct folded *out);

/* what readperf diff --html shows besides the diff itself */
struct diff_page {
	const char *const *files[2];	/* OLD's and NEW's recordings as named */
	size_t nr[2];
	double confidence;		/* of the intervals */
	const char *gate;		/* the gates asked, in words, or NULL: none */
	int failed;			/* some row crossed a gate (exit 4) */
	const unsigned char *crossed;	/* per row in diff.csv's order: bit 0 self, bit 1 children crossed; or NULL */
	struct stack_count *const *stacks[2];	/* each run's stacks (as diff__folded), or NULL: none counted */
};
/*
 * The diff as one self-contained HTML page into path ('-': standard output,
 * decode/reports/diffpage.c); the differential flame graph when
 * info->stacks holds each run's stacks.  0 or -errno.
 */
int diff__write_html(const struct diff *d, const char *path, const struct diff_page *info);

/* name without its compiler clone suffixes: its length */
size_t diff__clone_base_len(const char *name);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The analysis: takes the records of one perf.data file in replay (time)
 * order, keeps the machine model (decode/machine.h) up to date, resolves
 * every sample and callchain address to (dso, function, source line)
 * through decode/symbols.h, aggregates per event, and writes the reports
 * of DESIGN.md: overview.csv, processes.csv, results.csv, lines.csv and
 * callers.csv; with opts->stacks also collapsed call stacks (the folded
 * format of Brendan Gregg's stackcollapse-perf.pl) and a flame graph SVG.
 *
 * Follows perf report (builtin-report.c process_sample_event(),
 * machine__resolve(), thread__resolve_callchain_sample(), hists with
 * --sort dso,sym and --children) of Linux perf 6.1:
 *  - the sample's cpumode (misc & PERF_RECORD_MISC_CPUMODE_MASK) picks the
 *    kernel maps or the thread's maps; hypervisor and guest addresses and
 *    addresses in no map are "[unknown]"; a file without kernel MMAP gets
 *    the kernel symbols for kernel addresses, "[unknown]" where they fail;
 *  - period is the sample's PERIOD field, else attr.sample_period;
 *    percentages are period shares within the event, of every sample of that
 *    event inside --time (perf report's default --percentage absolute);
 *  - callchains: PERF_CONTEXT_* entries switch cpumode and are skipped; the
 *    first address that repeats the sample ip is skipped; a function counts
 *    once per sample for children_*, an edge once per sample for callers.csv.
 *
 * Memory: per distinct address, function and line, never per sample.  The
 * overview rows are streamed to a temporary file (or straight into
 * opts->out_dir) while records arrive.
 */
#ifndef DECODE_ANALYSIS_H
#define DECODE_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "perffile/perffile.h"
#include "decode/symbols.h"
#include "util/log.h"

struct strbuf;

enum report_id {
	REPORT_OVERVIEW = 1 << 0,
	REPORT_PROCESSES = 1 << 1,
	REPORT_RESULTS = 1 << 2,
	REPORT_LINES = 1 << 3,
	REPORT_CALLERS = 1 << 4,
	REPORT_THREADS = 1 << 5,
	REPORT_OFFCPU = 1 << 6,
	REPORT_TIMELINE = 1 << 7,
};

struct analysis_opts {
	const char *event;                 /* -e: only this event name, or NULL */
	const uint32_t *pids; size_t nr_pids;   /* --pid filter, or none */
	const uint32_t *tids; size_t nr_tids;
	const char *const *comms; size_t nr_comms;
	const char *const *dsos; size_t nr_dsos;	/* --dsos: only samples in these dsos (names as in results.csv) */
	const char *const *syms; size_t nr_syms;	/* --symbols: only samples in these functions */
	const char *profile;               /* batch mode: every report gets a leading "profile" column with this value */
	int unknown_addresses;             /* --unknown-addresses: "[unknown] 0x1204" per address in a dso without the symbol */
	uint64_t percent_limit;            /* --percent-limit in 1/10000 %: rows of results, lines and callers below it are left out */
	int has_time; uint64_t time_start, time_end;   /* --time START,END in ns (perf timestamps); either may be 0 = open */
	unsigned reports;                  /* REPORT_* mask to produce */
	const struct symbols_opts *symbols;  /* decode/symbols.h: symfs, kallsyms, debug dirs, no_source, recorded osrelease/build ids, log */
	const struct log *log;
	const char *out_dir;               /* optional: stream overview.csv straight into this dir (must be the dir given to analysis__write) */
	int stacks;                        /* aggregate call stacks for analysis__write_folded/_flamegraph */
	int fold_period;                   /* --weight period: --folded counts the period, not samples */
	int inline_frames;                 /* --inline: stacks and callers.csv expand inlined functions */
	int offcpu_stacks;                 /* --folded-offcpu / --flamegraph-offcpu: keep the off-CPU stacks */
	uint64_t interval_ns;              /* --interval: timeline.csv's interval, 0: the span / 100, readable */
	int timeline;                      /* --timeline: keep the timeline without timeline.csv */
	int speedscope;                    /* --speedscope: keep every sample's stack for speedscope__write */
	const char *report_dir;            /* where the reports end up, for messages (out_dir may stage them) */
	unsigned fg_minwidth;              /* --minwidth: flame graph frames narrower than this (1/100 px) left out */
	int fg_minwidth_set;               /* else flamegraph.pl's 0.1 px */
};

struct analysis;

/*
 * f is borrowed until analysis__delete (evlist, features: event names, build
 * ids); opts and what it points to are borrowed likewise.  Build ids of the
 * BUILD_ID feature are handed to the symbols.  0, -ENOMEM, or -errno when
 * the overview's temporary file cannot be made.
 */
int analysis__new(struct analysis **out, const struct perf_file *f, const struct analysis_opts *opts);
/*
 * One record, in replay order (the ordered queue's deliver callback); 0,
 * -ENOMEM, or -errno for an I/O error reading symbols.  The first error is
 * kept (analysis__status) and every later call returns it: out of memory
 * never becomes an [unknown] or a missing line in a report, the run ends
 * instead (a binary that is missing or has no symbols is no error).
 */
int analysis__process(struct analysis *a, struct perf_record *rec);
/* the first error of analysis__process (or of the symbols), or 0 */
int analysis__status(const struct analysis *a);
/*
 * write the selected reports into dir (callers.csv has rows only when
 * samples carry callchains); 0 or -errno; analysis__status without writing
 * when an error is kept
 */
int analysis__write(struct analysis *a, const char *dir);
void analysis__delete(struct analysis *a);

/* adapter with the ordered queue's signature: ctx is the struct analysis */
int analysis__deliver(void *ctx, struct perf_record *rec);

/*
 * Collapsed stacks, one line per distinct stack, "comm;outermost;...;innermost
 * COUNT", sorted bytewise, written atomically to path (not relative to any
 * output directory).  As stackcollapse-perf.pl --kernel (FlameGraph) does:
 * frames are function names with ';' made ':', the argument list and quotes
 * dropped; a frame without a symbol is "[DSO]" (the dso's name), or
 * "[unknown]" when it is in no map; kernel frames end in "_[k]"; spaces in
 * the comm become '_'; COUNT is samples (opts.fold_period: the period).  A sample without a callchain is a
 * one-frame stack.  One event only: the first (attr order) with samples; a
 * warning names it when others have samples too (choose with opts.event).
 * Needs opts.stacks.  0, -ENOMEM or -errno.
 */
int analysis__write_folded(struct analysis *a, const char *path);
/*
 * The same stacks as a flame graph (after flamegraph.pl): a self-contained
 * SVG, no script, root "all" at the bottom, one rectangle per frame with a
 * width proportional to the period of its samples (so a share equals
 * results.csv's percent), a label where it fits and a <title> tooltip with
 * the period and share.  Integer layout: byte-identical for the same
 * input.  0, -ENOMEM or -errno.
 */
int analysis__write_flamegraph(struct analysis *a, const char *path);
/* the samples (opts.speedscope) in speedscope's JSON format into path; name: the profile's */
int speedscope__write(struct analysis *a, const char *path, const char *name);
/* the timeline (opts.timeline or REPORT_TIMELINE) as a stacked-area SVG into path */
int timeline__write_svg(struct analysis *a, const char *path);
/*
 * The off-CPU stacks (opts.offcpu_stacks): blocked nanoseconds per blocking
 * stack (decode/threads.c), folded as Brendan Gregg's off-CPU flame graphs
 * take them, and their flame graph in a blue palette.
 */
/* context switches seen: switch records or sched_switch samples */
int analysis__has_switch_data(const struct analysis *a);
int analysis__write_folded_offcpu(struct analysis *a, const char *path);
int analysis__write_flamegraph_offcpu(struct analysis *a, const char *path);

/* the (event, dso, function) aggregates of results.csv, for decode/diff.c */
struct analysis_function {
	const char *event, *dso, *function;	/* borrowed until analysis__delete */
	size_t event_idx;			/* the event's index for analysis__event() */
	uint64_t samples, period;		/* self */
	uint64_t ch_samples, ch_period;		/* children: samples whose callchain holds it */
	uint64_t event_period;			/* the event's total: percent = period / event_period */
};
size_t analysis__nr_functions(const struct analysis *a);
/* the i-th aggregate, i < analysis__nr_functions(a), in creation order */
void analysis__function(const struct analysis *a, size_t i, struct analysis_function *out);

/* the events (attrs) of the file, in attr order, with what passed the filters */
struct analysis_event {
	const char *name;			/* borrowed until analysis__delete; NULL: no sample met */
	uint64_t samples, period;
	int callchain;				/* its samples carry PERF_SAMPLE_CALLCHAIN */
};
size_t analysis__nr_events(const struct analysis *a);
/* the i-th event, i < analysis__nr_events(a) */
void analysis__event(const struct analysis *a, size_t i, struct analysis_event *out);

/*
 * What the file holds, for a filter that matched nothing: up to 10
 * processes ("1234 work"), the time range of every sample seen (filtered or
 * not, in perf timestamps) and up to 10 dsos of the samples that got as far
 * as symbol resolution.  0 or -ENOMEM.
 */
int analysis__describe(const struct analysis *a, struct strbuf *sb);

/*
 * One warning per dso whose samples found no symbols at all: the path tried,
 * the build id wanted and the share of the event's samples it holds.  Call
 * once, after the last record.  0 or -ENOMEM.
 */
int analysis__warn_unresolved(const struct analysis *a);

/* the run's symbols into the persistent symbol cache (symbols__save_cache), after the reports */
void analysis__save_symbol_cache(struct analysis *a);

/* what was seen, for tests */
struct analysis_stats {
	uint64_t samples;		/* samples that passed the filters */
	uint64_t filtered;		/* samples dropped by filters */
	uint64_t unresolved;		/* of those passed: no function found */
	size_t nr_functions, nr_addresses;
};
void analysis__stats(const struct analysis *a, struct analysis_stats *st);

#endif

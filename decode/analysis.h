/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The analysis: takes the records of one perf.data file in replay (time)
 * order, keeps the machine model (decode/machine.h) up to date, resolves
 * every sample and callchain address to (dso, function, source line)
 * through decode/symbols.h, aggregates per event (function and source
 * line, self and children), and hands every resolved sample to the enabled
 * reports of decode/reports/ through the report interface (decode/report.h),
 * which write the outputs.  ARCHITECTURE.md describes the pipeline.
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
 *    once per sample for children_*.
 *
 * Memory: per distinct address, function and line, never per sample (a
 * report may keep more: decode/reports/).
 */
#ifndef DECODE_ANALYSIS_H
#define DECODE_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "perffile/perffile.h"
#include "decode/symbols.h"
#include "util/log.h"

struct strbuf;
struct report_ops;

/* what the command line saw around the analysis, for the --html page */
struct analysis_notes {
	const struct log_keep *warnings;	/* the run's warnings so far, or NULL */
	int have_losses;
	uint64_t lost_chunks, lost_records;	/* LOST records and the records they say were dropped */
	uint64_t lost_samples, samples;		/* LOST_SAMPLES' counts and the SAMPLE records */
};

struct analysis_opts {
	const char *event;                 /* -e: only this event name, or NULL */
	const uint32_t *pids; size_t nr_pids;   /* --pid filter, or none */
	const uint32_t *tids; size_t nr_tids;
	const char *const *comms; size_t nr_comms;
	const char *const *dsos; size_t nr_dsos;	/* --dsos: only samples in these dsos (names as in results.csv) */
	const char *const *syms; size_t nr_syms;	/* --symbols: only samples in these functions */
	/*
	 * --focus: only samples whose stack holds one of these functions (any
	 * frame, with --inline its 'NAME (inlined)' frames too); --ignore: not
	 * those whose stack holds one of these.  As the other filters, a
	 * dropped sample counts nowhere: totals, percentages and children are
	 * of the kept samples (pprof -focus with -relative_percentages).
	 */
	const char *const *focus; size_t nr_focus;
	const char *const *ignore; size_t nr_ignore;
	int focus_root;                    /* --focus-root: rsample.frames end at the outermost --focus frame */
	const char *profile;               /* batch mode: every report gets a leading "profile" column with this value */
	int unknown_addresses;             /* --unknown-addresses: "[unknown] 0x1204" per address in a dso without the symbol */
	uint64_t percent_limit;            /* --percent-limit in 1/10000 %: rows of results, lines and callers below it are left out */
	int has_time; uint64_t time_start, time_end;   /* --time START,END in ns (perf timestamps); either may be 0 = open */
	uint64_t outputs;                  /* the outputs to produce: bit 1 << id (report_outputs__find in decode/report.h) */
	const struct symbols_opts *symbols;  /* decode/symbols.h: symfs, kallsyms, debug dirs, no_source, recorded osrelease/build ids, log */
	const struct log *log;
	const char *out_dir;               /* optional: stream overview.csv straight into this dir (must be the dir given to analysis__write) */
	/*
	 * more threads beside the analysis's: overview.csv's rows formatted and
	 * written by one (util/spool.h), kallsyms read by another while the
	 * first records decode (when an event samples the kernel)
	 */
	int helper_threads;
	const char *input_name;            /* the input as the user named it (speedscope's profile name), or NULL */
	int fold_period;                   /* --weight period: --folded counts the period, not samples */
	int inline_frames;                 /* --inline: stacks and callers.csv expand inlined functions */
	uint64_t interval_ns;              /* --interval: timeline.csv's interval, 0: the span / 100, readable */
	const char *report_dir;            /* where the reports end up, for messages (out_dir may stage them) */
	unsigned fg_minwidth;              /* --minwidth: flame graph frames narrower than this (1/100 px) left out */
	int fg_minwidth_set;               /* else flamegraph.pl's 0.1 px */
	int raw_csv;                       /* --raw-csv: text cells verbatim, no leading ' before a formula (util/csv.h) */
	const uint8_t *sort_keys;          /* --sort: results.csv's keys (decode/reports/results.h), */
	size_t nr_sort_keys;               /* 0: dso,sym as always */
	int inverted;                      /* --inverted: calltree.csv bottom-up (roots are the sampled functions) */
	const char *const *annotate_funcs; size_t nr_annotate_funcs;	/* --annotate's text: these functions, or none: */
	unsigned annotate_top;             /* the N hottest (0: 20) */
	/*
	 * A report of the caller's beside the registry's (readperf diff counts
	 * each run's stacks with decode/reports/stacks.h's stack_count_ops): the
	 * hub calls its begin, sample and record callbacks as a registry
	 * report's, after theirs, with consumer_state, which the caller owns:
	 * the hub neither allocates, releases nor writes it (its outputs are
	 * not looked at).  Or NULL.
	 */
	const struct report_ops *consumer;
	void *consumer_state;
	const struct analysis_notes *notes; /* or NULL; filled while the analysis runs */
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
 * Write the CSV outputs of opts.outputs into dir, in registry order;
 * analysis__status without writing when an error is kept.  The first that
 * fails ends it (it is named in a message): 0 or -errno.
 */
int analysis__write(struct analysis *a, const char *dir);
/*
 * Write path output id (decode/report.h) of opts.outputs into path ('-':
 * standard output): 0, -ENODATA when it has nothing to show (the caller
 * says so), -ENOMEM or -errno.
 */
int analysis__write_output(struct analysis *a, size_t id, const char *path);
void analysis__delete(struct analysis *a);

/* adapter with the ordered queue's signature: ctx is the struct analysis */
int analysis__deliver(void *ctx, struct perf_record *rec);

/* the events (attrs) of the file, in attr order, with what passed the filters */
struct analysis_event {
	const char *name;			/* borrowed until analysis__delete; NULL: no sample met */
	uint64_t samples, period;
	int callchain;				/* its samples carry PERF_SAMPLE_CALLCHAIN */
	int time_unit;				/* cpu-clock or task-clock: the period is nanoseconds */
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
	int syms_on_stack;		/* a --symbols name is a caller on a dropped sample's stack */
	uint64_t unknown_frames;	/* of those passed: [unknown] as their own function or a caller's */
	size_t nr_functions, nr_addresses;
};
void analysis__stats(const struct analysis *a, struct analysis_stats *st);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The analysis: takes the records of one perf.data file in replay (time)
 * order, keeps the machine model (decode/machine.h) up to date, resolves
 * every sample and callchain address to (dso, function, source line)
 * through decode/symbols.h, aggregates per event, and writes the reports
 * of DESIGN.md: overview.csv, processes.csv, results.csv, lines.csv and
 * callers.csv.
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

enum report_id {
	REPORT_OVERVIEW = 1 << 0,
	REPORT_PROCESSES = 1 << 1,
	REPORT_RESULTS = 1 << 2,
	REPORT_LINES = 1 << 3,
	REPORT_CALLERS = 1 << 4,
};

struct analysis_opts {
	const char *event;                 /* -e: only this event name, or NULL */
	const uint32_t *pids; size_t nr_pids;   /* --pid filter, or none */
	const uint32_t *tids; size_t nr_tids;
	const char *const *comms; size_t nr_comms;
	int has_time; uint64_t time_start, time_end;   /* --time START,END in ns (perf timestamps); either may be 0 = open */
	unsigned reports;                  /* REPORT_* mask to produce */
	const struct symbols_opts *symbols;  /* decode/symbols.h: symfs, kallsyms, debug dirs, no_source, recorded osrelease/build ids, log */
	const struct log *log;
	/* additions: */
	const char *out_dir;               /* optional: stream overview.csv straight into this dir (must be the dir given to analysis__write) */
};

struct analysis;

/*
 * f is borrowed until analysis__delete (evlist, features: event names, build
 * ids); opts and what it points to are borrowed likewise.  Build ids of the
 * BUILD_ID feature are handed to the symbols.  0, -ENOMEM, or -errno when
 * the overview's temporary file cannot be made.
 */
int analysis__new(struct analysis **out, const struct perf_file *f, const struct analysis_opts *opts);
/* one record, in replay order (the ordered queue's deliver callback); 0 or -ENOMEM */
int analysis__process(struct analysis *a, struct perf_record *rec);
/* write the selected reports into dir (callers.csv has rows only when samples carry callchains); 0 or -errno */
int analysis__write(struct analysis *a, const char *dir);
void analysis__delete(struct analysis *a);

/* adapter with the ordered queue's signature: ctx is the struct analysis */
int analysis__deliver(void *ctx, struct perf_record *rec);

/* what was seen, for tests and -v */
struct analysis_stats {
	uint64_t samples;		/* samples that passed the filters */
	uint64_t filtered;		/* samples dropped by filters */
	uint64_t unresolved;		/* of those passed: no function found */
	size_t nr_functions, nr_addresses;
};
void analysis__stats(const struct analysis *a, struct analysis_stats *st);

#endif

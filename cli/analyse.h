/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The analysis on the command line, shared by cli/analyse.c (one file),
 * cli/batch.c (many files) and cli/diff.c (two files, compared): the
 * options they have in common and what each file goes through (open, -e
 * and --time resolved against it, replayed into an analysis in time order).
 */
#ifndef CLI_ANALYSE_H
#define CLI_ANALYSE_H

#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "decode/analysis.h"
#include "decode/report.h"
#include "decode/reports/results.h"
#include "decode/symbols.h"

struct filestat;
struct ordered_queue;
struct perf_file;
struct perf_record;

/*
 * --time as perf report takes it, and relative seconds: "START,END" with
 * each side empty (open), perf timestamps in ns, seconds with a '.', or
 * "+S" seconds after the first sample; "P%/N" the N-th slice of P% of the
 * recording; "A%-B%" from A% to B% of it.  The relative forms need the
 * file's first and last sample time (HEADER_SAMPLE_TIME, as perf does).
 */
struct time_spec {
	int set, pct;
	int rel[2];			/* '+': seconds after the first sample */
	uint64_t val[2];		/* ns; with pct: share of the duration in 1/10000 % */
};

/* what analyse() saw of a file, for batch mode's index.csv */
struct analyse_result {
	uint64_t samples, duration_ns;
	char hostname[128], perf_version[64];
};

struct analyse_opts {
	/* the options analyse and diff share (analyse_shared_options) */
	const char *outdir;
	int quiet;
	struct symbols_opts sym;
	struct analysis_opts an;
	char *cache_dir;			/* the default symbol cache directory (malloc'd) */
	int no_symbol_cache;			/* --no-symbol-cache */
	const char *debug_dirs[16];
	uint32_t pids[256], tids[256];
	const char *comms[64];
	char *comm_list;			/* the copies --comms, --dsos, --symbols point into */
	char *dso_list, *sym_list, *focus_list, *ignore_list;
	const char *dsos[64], *syms[64], *focus[64], *ignore[64];
	const char *event_arg;			/* -e as given; an.event is the file's own name for it */
	struct time_spec time;			/* --time as given; resolved per file */
	struct analysis_notes notes;		/* an.notes: the run's warnings and losses, for --html */
	/* the analysis only (analyse_only_options) */
	const char *input;
	uint64_t reports;			/* --reports: the CSV outputs of the registry, a bit per output id */
	const char *input_opt;			/* -i FILE */
	const char *paths[REPORT_MAX_OUTPUTS];	/* the path outputs' files (--folded FILE ...), by output id */
	uint8_t sort_keys[RESULTS_MAX_KEYS];			/* --sort: results.csv's keys (decode/reports/results.h) */
	/* many files (batch mode) */
	const char *files_from;			/* --files-from LIST ('-': stdin) */
	long jobs;				/* -j N; 0: the number of CPUs */
	int profile_col;			/* --profile-column 1, --no-profile-column 0, else -1 */
	int no_summary;				/* a batch child: the parent sums up */
	int each_focus;				/* readperf tree: a FUNCTION on no stack is bad input */
	struct analyse_result *result;		/* filled by analyse() when not NULL */
	int exits_after;			/* the process exits after this analysis: the analysis, the
						 * file and libbfd's data are left to the OS (not under sanitizers) */
	int64_t fail_unknown;			/* --fail-unknown PCT in 1/10000 %, or -1 */
	char **args; size_t nr_args;		/* the command's arguments as given, for the manifest (a copy of
					   the pointers: getopt reorders argv) */
};

/* the ids of the options without a short name, of analyse and diff (one list: the tables share rows) */
enum analyse_opt_id {
	OPT_REPORTS = CLI_OPT_LONG_ONLY, OPT_VERSION, OPT_SYMFS, OPT_KALLSYMS, OPT_VMLINUX, OPT_DEBUG_DIR, OPT_NO_SOURCE,
	OPT_PID, OPT_TID, OPT_COMM, OPT_TIME, OPT_DSOS, OPT_SYMBOLS,
	OPT_PERCENT_LIMIT, OPT_FULL_SOURCE_PATH, OPT_NO_DEMANGLE, OPT_FILES_FROM, OPT_PROFILE_COL,
	OPT_NO_PROFILE_COL, OPT_UNKNOWN_ADDRESSES, OPT_BUILDID_DIR, OPT_WEIGHT, OPT_SORT, OPT_FAIL_ABOVE,
	OPT_FAIL_RATIO, OPT_FAIL_MIN, OPT_INLINE, OPT_MINWIDTH, OPT_INTERVAL, OPT_SYMBOL_CACHE,
	OPT_NO_SYMBOL_CACHE, OPT_RAW_CSV, OPT_PAIR, OPT_GATE, OPT_FAIL_CONF, OPT_DIFF_FLAME, OPT_DIFF_FOLDED, OPT_DIFF_HTML,
	OPT_RESULTS_SORT, OPT_INVERTED, OPT_FOCUS, OPT_FOCUS_ROOT, OPT_IGNORE, OPT_FAIL_UNKNOWN,
	OPT_NO_DEBUGINFOD,
	OPT_PATH = CLI_OPT_LONG_ONLY + 1024,	/* + output id: the path outputs of the registry */
};

/* -o, the symbol options, the filters, -q, -v, --version, -h: analyse and diff (cli/common.c) */
extern const struct cli_option analyse_shared_options[];
/* the analysis' own: --reports, the extra outputs, many files (cli/analyse.c); diff refuses them */
extern const struct cli_option analyse_only_options[];
/*
 * The path outputs of the registry (decode/report.h) as option rows,
 * --NAME FILE with the registry's help, ids OPT_PATH + output id, into
 * rows (REPORT_MAX_OUTPUTS + 1, ends with CLI_OPT_END): a report with a
 * path output gets its option from its registry entry.
 */
void analyse_path_options(struct cli_option *rows);
/* the CSV reports of --reports default, a bit per output id */
uint64_t analyse_default_reports(void);
/* readperf diff's own: --sort, --fail-* (cli/diff.c); the analysis refuses them */
extern const struct cli_option diff_options[];

/* the defaults: ./perf.data into ., every report, no filter */
void analyse_opts__init(struct analyse_opts *o);
/* one option of analyse_shared_options into o; -1 to go on, else the exit code (said) */
int analyse_opts__shared(struct analyse_opts *o, struct cli *cli, int id, const char *arg);
/* after the options: the default symbol cache; -1 to go on, else the exit code */
int analyse_opts__finish(struct analyse_opts *o);
/* how many of v[0, n) are "-"; dash_twice(): two of them, said, the exit code */
size_t count_dashes(const char *const *v, size_t n);
int dash_twice(const char *what);
void analyse_opts__release(struct analyse_opts *o);
/* keep argv[1..argc) for the manifest before the options are parsed; 0 or -ENOMEM */
int analyse_opts__args(struct analyse_opts *o, int argc, char **argv);

/* -e's event in f (its full name into *name, borrowed from f); -EINVAL (said) when none or two match */
int find_event(const struct perf_file *f, const char *want, const char **name, const struct log *log);
/* the --time window of f in perf timestamps; 0 or -EINVAL (said) when f cannot place it */
int resolve_time(const struct time_spec *ts, const struct perf_file *f, struct analysis_opts *an,
		 const struct log *log);
/* the recorded kernel's build id and os release, for the kallsyms check */
void recorded_kernel(const struct perf_file *f, struct symbols_opts *so);
/*
 * A filter that left no sample is an error that says what the file holds,
 * also on a file without samples; with each_focus (readperf tree), so is a
 * --focus function on no stack of the others'.  0 or -EINVAL
 */
int check_filters(const struct analyse_opts *o, const struct perf_file *f, const struct analysis *an,
		  const struct log *log);
/*
 * The functions of names[0..n) that have no sample in an: their own (self),
 * or with on_stack one whose stack holds them, said as "PATH: WHAT NAMES (as
 * results.csv names functions)"; 0, or -EINVAL when one lacks them
 */
int check_named(const char *path, const struct analysis *an, const char *const *names, size_t n, int on_stack,
		const char *what, const struct log *log);
/* the analysis' own error (analysis__status), said unless it is ENOMEM or EINTR */
void analysis_error(const char *input, int err, const struct log *log);

/*
 * SIGINT/SIGTERM during an analysis (cli/replay.c): the replay stops at the
 * next record; stop_signal() is the signal caught, or 0.
 */
void catch_stop_signals(void);
int stop_signal(void);
/* the ordered queue's delivery into the analysis an, stopped by a signal */
int deliver(void *an, struct perf_record *rec);
/*
 * Every record of f into fs (when given) and, in time order, into q (when
 * given).  0 or the first error of fs/q; the reader's own fault, after which
 * the records read so far still count, goes to *read_err.
 */
int replay(struct perf_file *f, struct filestat *fs, struct ordered_queue *q, int quiet, int *read_err);

/*
 * The output directory's manifest (cli/manifest.c): MANIFEST_NAME written
 * into the transaction's stage after the reports, from the inputs in[0..nr)
 * (prefix: "" for the analysis, "old_"/"new_" for diff's sides) and
 * o->args; 0 or -errno.  manifest__owns: is name a report readperf writes
 * into a directory (the registry's NAME.csv), which a commit may remove
 * (csv_txn.owns)?
 */
#define MANIFEST_NAME "manifest.csv"
struct manifest_input {
	const char *prefix, *path;
	const struct perf_file *f;
};
int manifest__write(const char *stage, const struct analyse_opts *o, const struct manifest_input *in, size_t nr);
int manifest__owns(const char *name);
struct csv_txn;
/*
 * The manifest into txn's stage (its failure said, but ENOMEM), and txn set
 * to move it in last and remove the reports of an earlier run that this one
 * did not write (cli/analyse.c); 0 or -errno.
 */
int commit_manifest(const struct analyse_opts *o, struct csv_txn *txn, const struct manifest_input *in, size_t nr,
		    const struct log *log);

/* one file into o->outdir (cli/analyse.c); the exit code */
int analyse(struct analyse_opts *o, const struct log *log);
/* a profile's name from its path (perf.data.gz -> perf); malloc'd, NULL without memory */
char *profile_base(const char *path);
/* readperf -o DIR FILE FILE... / --files-from (cli/batch.c); the exit code */
int batch(struct analyse_opts *o, char **files, size_t nr_files, struct cli *cli);

#endif

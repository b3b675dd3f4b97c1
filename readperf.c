/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * readperf: the command line.  Parses options, calls the modules, prints
 * their messages, chooses the exit code.  Nothing else in the tree prints or
 * exits.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "decode/analysis.h"
#include "decode/report.h"
#include "decode/reports/diff.h"
#include "decode/reports/schema.h"
#include "perffile/attr.h"
#include "decode/reports/filestat.h"
#include "decode/symbols.h"
#include "perffile/ordered.h"
#include "perffile/perffile.h"
#include "perffile/capture/recorder.h"
#include "util/array.h"
#include "util/csv.h"
#include "util/fs.h"
#include "util/heap.h"
#include "util/log.h"
#include "util/progress.h"
#include "util/strbuf.h"

#define READPERF_VERSION "0.1.0"

enum exit_code {
	EXIT_OK = 0,		/* success */
	EXIT_USAGE = 1,		/* bad command line */
	EXIT_BAD_INPUT = 2,	/* malformed or truncated input */
	EXIT_SYSTEM = 3,	/* I/O or system error */
	EXIT_REGRESSION = 4,	/* readperf diff: a function crossed --fail-above or --fail-above-ratio */
};

struct logger {
	int quiet;
	int verbose;		/* -v: the debug messages too */
	char first_err[512];	/* batch mode: the first error, for index.csv */
};

static void print_log(void *ctx, enum log_level level, const char *msg)
{
	struct logger *lg = ctx;

	if (level == LOG_ERR && !lg->first_err[0])
		snprintf(lg->first_err, sizeof(lg->first_err), "%s", msg);
	if (lg->quiet && level != LOG_ERR)
		return;
	if (level == LOG_DEBUG && !lg->verbose)
		return;
	fprintf(stderr, "readperf: %s%s\n", level == LOG_WARN ? "warning: " : "", msg);
}

static int exit_for(int err)
{
	if (!err)
		return EXIT_OK;
	return err == -EINVAL ? EXIT_BAD_INPUT : EXIT_SYSTEM;
}

static void usage(FILE *fp)
{
	fputs("usage: readperf [OPTIONS] [FILE]          analyse FILE (default ./perf.data; '-' reads a pipe from stdin)\n"
	      "       readperf -o DIR [OPTIONS] FILE FILE...  analyse each into DIR/NAME/, DIR/index.csv lists them\n"
	      "       readperf diff [OPTIONS] OLD NEW    compare two profiles function by function (diff.csv)\n"
	      "       readperf header FILE               print the header and every feature section\n"
	      "       readperf dump FILE                 print every decoded record (for debugging)\n"
	      "       readperf record [OPTIONS] [CMD]    record CMD (or -a, -C, -p, -t) into perf.data\n"
	      "       readperf stat [OPTIONS] CMD        count events while CMD runs, as perf stat\n"
	      "       readperf schema [DIR]              CREATE TABLE statements for the reports (SQL types)\n"
	      "                                          (readperf record -h, readperf stat -h: their options)\n"
	      "\n"
	      "options:\n"
	      "  -i, --input FILE    the file to analyse (as perf report -i; or give it after the options)\n"
	      "  -o DIR              output directory (default .; created if missing)\n"
	      "  --reports LIST      reports to write, comma-separated (default all):\n"
	      "                      stat,events,header,overview,processes,results,lines,callers,\n"
	      "                      threads,offcpu,timeline;\n"
	      "                      'default' is all of them, 'none' none (with --folded, --flamegraph)\n"
	      "  --symfs DIR         look for binaries under DIR first\n"
	      "  --kallsyms FILE     kernel symbols from FILE (default /proc/kallsyms when the\n"
	      "                      running kernel is the recorded one)\n"
	      "  --debug-dir DIR     another root for separate debug files (repeatable)\n"
	      "  --no-source         skip source file and line lookups\n"
	      "  --full-source-path  source_file as the debug info names it (the default)\n"
	      "  --no-demangle       keep C++/Rust symbol names mangled\n"
	      "  --unknown-addresses a row '[unknown] 0x1204' per address of a dso without its symbol\n"
	      "  --buildid-dir DIR   the build-id cache (default $PERF_BUILDID_DIR, else ~/.debug)\n"
	      "  --symbol-cache DIR  keep the symbols and source lines found per binary in DIR for the\n"
	      "                      next run (default $XDG_CACHE_HOME/readperf, else ~/.cache/readperf)\n"
	      "  --no-symbol-cache   neither read nor write it\n"
	      "  -e, --event NAME    only samples of this event\n"
	      "  --pid LIST          only these processes (comma-separated pids)\n"
	      "  --tid LIST          only these threads\n"
	      "  --comms LIST        only these command names (also --comm)\n"
	      "  --dsos LIST         only samples in these dsos (names as results.csv prints them)\n"
	      "  --symbols LIST      only samples in these functions\n"
	      "                      a filter that leaves no sample is an error (exit 2) naming what is there\n"
	      "  --percent-limit PCT leave out rows of results, lines and callers below PCT% of the event\n"
	      "  --time START,END    only samples in this time window: perf timestamps in ns,\n"
	      "                      seconds with a '.' (as perf script prints), or +S seconds after\n"
	      "                      the first sample; either may be empty. Also perf's P%/N (the N-th\n"
	      "                      P% slice of the recording) and A%-B%\n"
	      "  --folded FILE       collapsed call stacks (stackcollapse-perf.pl format) into FILE ('-': stdout)\n"
	      "  --flamegraph FILE   a flame graph SVG of the same stacks into FILE ('-': stdout); widths and\n"
	      "                      shares by period, as results.csv's percent\n"
	      "  --weight W          --folded counts samples (default) or period\n"
	      "  --inline            --folded, --flamegraph and callers.csv show inlined functions as frames\n"
	      "                      of their own ('NAME (inlined)'; '_[i]' in folded stacks), from the\n"
	      "                      debug info; results.csv and the rest stay as perf report --no-inline\n"
	      "  --minwidth PX       flame graph: leave out frames narrower than PX pixels (default 0.1)\n"
	      "  --interval DURATION timeline.csv's interval (10ms, 0.5s, ...); default the recording's\n"
	      "                      span / 100, rounded up to 1, 2 or 5 x 10^n ns\n"
	      "  --timeline FILE     the timeline as a stacked-area SVG (top 10 functions of the first event)\n"
	      "  --speedscope FILE   the samples as speedscope's JSON (a profile per thread, in time order)\n"
	      "  --folded-offcpu FILE  time off the CPU per blocking stack (ns), folded, into FILE\n"
	      "                      (needs perf record --switch-events with -e context-switches -g,\n"
	      "                      or -e sched:sched_switch -g)\n"
	      "  --flamegraph-offcpu FILE  its flame graph (blue)\n"
	      "  -q, --quiet         no summary, warnings or progress (errors only)\n"
	      "  -v, --verbose       also what a run does step by step (files, symbol sources, the cache)\n"
	      "  --files-from LIST   analyse the files LIST names, one a line ('-': stdin), as FILE FILE...\n"
	      "  -j, --jobs N        analyse N files at once (default: the number of CPUs); one file with\n"
	      "                      N > 1: the analysis in a second thread, same reports; -j 1: one thread\n"
	      "  --profile-column    a leading 'profile' column in every report (the default with many files)\n"
	      "  --no-profile-column none, also with many files\n"
	      "  -h, --help          this text\n"
	      "  --version           print the version\n"
	      "\n"
	      "readperf diff takes -o and the symbol and filter options above, applies them to both\n"
	      "files and writes DIR/diff.csv; its own options:\n"
	      "  --sort KEY          period (|change of period|, default), ratio (relative change)\n"
	      "                      or delta (|change of percent|)\n"
	      "  --fail-above PCT    exit 4 when a function's self percent grows by more than PCT points\n"
	      "  --fail-above-ratio R  exit 4 when a function's period grows more than R times\n"
	      "                      (new functions count as growing without bound)\n"
	      "  --fail-min-percent P  the ratio gate looks at functions with P% or more on either\n"
	      "                      side only (default 1)\n"
	      "\n"
	      "exit codes: 0 ok, 1 usage, 2 bad input, 3 I/O or system error,\n"
	      "            4 readperf diff: a function crossed --fail-above or --fail-above-ratio\n", fp);
}

/* ---------------------------------------------------------------- reports */

/* is output id a CSV report of the analysis (of the hub or of the file's count, not diff's)? */
static int analyse_csv(size_t id)
{
	const struct report_ops *owner;
	const struct report_output *r = report_outputs__get(id, &owner);

	return r && !r->is_path && owner->source != REPORT_FROM_DIFF;
}

/* the CSV reports of the analysis in the registry (decode/report.h), one bit per output id */
static uint64_t all_csv_reports(void)
{
	uint64_t mask = 0;
	size_t id;

	for (id = 0; id < report_outputs__count(); id++)
		if (analyse_csv(id) && !report_outputs__get(id, NULL)->opt_in)
			mask |= (uint64_t)1 << id;
	return mask;
}

/* "stat, events, ..." for messages */
static void list_csv_reports(FILE *fp)
{
	const char *sep = "";
	size_t id;

	for (id = 0; id < report_outputs__count(); id++) {
		if (analyse_csv(id)) {
			fprintf(fp, "%s%s", sep, report_outputs__get(id, NULL)->name);
			sep = ", ";
		}
	}
}

static int parse_reports(const char *list, uint64_t *mask)
{
	char *copy = strdup(list), *tok, *save = NULL;
	int id;

	if (!copy)
		return -ENOMEM;
	*mask = 0;
	if (!strtok_r(copy, ",", &save)) {
		fputs("readperf: --reports names no report ('none' for none)\n", stderr);
		free(copy);
		return -EINVAL;
	}
	strcpy(copy, list);
	save = NULL;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t len = strlen(tok);

		if (len > 4 && !strcmp(tok + len - 4, ".csv"))
			tok[len - 4] = '\0';
		if (!strcmp(tok, "none"))
			continue;
		if (!strcmp(tok, "default") || !strcmp(tok, "all")) {
			*mask = all_csv_reports();
			continue;
		}
		id = report_outputs__find(tok, 0);
		if (id < 0 || !analyse_csv((size_t)id)) {
			fprintf(stderr, "readperf: unknown report '%s'; reports: none, default (all), ", tok);
			list_csv_reports(stderr);
			fputc('\n', stderr);
			free(copy);
			return -EINVAL;
		}
		*mask |= (uint64_t)1 << id;
	}
	free(copy);
	return 0;
}

/* ---------------------------------------------------------------- analyse */

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

static int64_t parse_fixed4(const char *s);
static int parse_time(const char *s, size_t len, uint64_t *out);

static int parse_time_side(const char *s, size_t len, struct time_spec *ts, int i)
{
	if (len && s[0] == '+') {
		ts->rel[i] = 1;
		s++;
		len--;
		if (!len)
			return -EINVAL;
	}
	return parse_time(s, len, &ts->val[i]);
}

static int parse_time_pct(const char *arg, struct time_spec *ts)
{
	char buf[64], *slash, *dash;
	int64_t a, b;

	if (strlen(arg) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, arg);
	slash = strchr(buf, '/');
	dash = strchr(buf, '-');
	if (slash && slash > buf && slash[-1] == '%') {		/* P%/N */
		char *end;
		unsigned long n;

		slash[-1] = '\0';
		a = parse_fixed4(buf);
		errno = 0;
		n = strtoul(slash + 1, &end, 10);
		if (a <= 0 || *end || errno || !n || n > 1000000 || (uint64_t)a * n > 1000000)
			return -EINVAL;
		ts->val[0] = (uint64_t)a * (n - 1);
		ts->val[1] = (uint64_t)a * n;
	} else if (dash && dash > buf && dash[-1] == '%' && buf[strlen(buf) - 1] == '%') {	/* A%-B% */
		buf[strlen(buf) - 1] = '\0';
		dash[-1] = '\0';
		a = parse_fixed4(buf);
		b = parse_fixed4(dash + 1);
		if (a < 0 || b < a || b > 1000000)
			return -EINVAL;
		ts->val[0] = (uint64_t)a;
		ts->val[1] = (uint64_t)b;
	} else {
		return -EINVAL;
	}
	ts->pct = 1;
	return 0;
}

static int parse_time_spec(const char *arg, struct time_spec *ts)
{
	const char *comma = strchr(arg, ',');

	memset(ts, 0, sizeof(*ts));
	ts->set = 1;
	if (strchr(arg, '%'))
		return parse_time_pct(arg, ts);
	if (!comma || parse_time_side(arg, (size_t)(comma - arg), ts, 0) ||
	    parse_time_side(comma + 1, strlen(comma + 1), ts, 1))
		return -EINVAL;
	return 0;
}

/* the --time window of f in perf timestamps; 0 or -EINVAL (said) when f cannot place it */
static int resolve_time(const struct time_spec *ts, const struct perf_file *f, struct analysis_opts *an,
			const struct log *log)
{
	const struct perf_features *ft = perf_file__features(f);
	uint64_t first = ft->first_sample_time, last = ft->last_sample_time, dur;
	int i;

	if (!ts->set)
		return 0;
	an->has_time = 1;
	if ((ts->pct || ts->rel[0] || ts->rel[1]) && (!last || last < first)) {
		log_msg(log, LOG_ERR, "%s: --time with %% or +seconds needs the first and last sample time, "
			"which the file does not have (perf record writes them since perf 5.x)", perf_file__name(f));
		return -EINVAL;
	}
	dur = last - first;
	for (i = 0; i < 2; i++) {
		uint64_t *t = i ? &an->time_end : &an->time_start;

		if (ts->pct)
			*t = first + (uint64_t)((unsigned __int128)dur * ts->val[i] / 1000000);
		else
			*t = ts->rel[i] ? first + ts->val[i] : ts->val[i];
	}
	if (an->time_start && an->time_end && an->time_start > an->time_end) {
		log_msg(log, LOG_ERR, "%s: --time: START is after END", perf_file__name(f));
		return -EINVAL;
	}
	return 0;
}


/* what analyse() saw of a file, for batch mode's index.csv */
struct analyse_result {
	uint64_t samples, duration_ns;
	char hostname[128], perf_version[64];
};

struct analyse_opts {
	const char *input;
	const char *outdir;
	uint64_t reports;			/* the CSV outputs of the registry, a bit per output id */
	int quiet;
	struct symbols_opts sym;
	struct analysis_opts an;
	char *cache_dir;			/* the default symbol cache directory (malloc'd) */
	int no_symbol_cache;			/* --no-symbol-cache */
	const char *debug_dirs[16];
	uint32_t pids[256], tids[256];
	const char *comms[64];
	char *comm_list;			/* the copies --comms, --dsos, --symbols point into */
	char *dso_list, *sym_list;
	const char *dsos[64], *syms[64];
	const char *input_opt;			/* -i FILE */
	const char *folded, *flamegraph;	/* --folded, --flamegraph paths */
	const char *folded_offcpu, *flamegraph_offcpu;	/* --folded-offcpu, --flamegraph-offcpu */
	const char *timeline;			/* --timeline FILE.svg */
	const char *speedscope;			/* --speedscope FILE.json */
	const char *event_arg;			/* -e as given; an.event is the file's own name for it */
	struct time_spec time;			/* --time as given; resolved per file */
	/* many files (batch mode) */
	const char *files_from;			/* --files-from LIST ('-': stdin) */
	long jobs;				/* -j N; 0: the number of CPUs */
	int profile_col;			/* --profile-column 1, --no-profile-column 0, else -1 */
	int no_summary;				/* a batch child: the parent sums up */
	struct analyse_result *result;		/* filled by analyse() when not NULL */
	/* readperf diff only */
	enum diff_sort sort;			/* --sort */
	int64_t fail_above;			/* --fail-above PCT in 1/10000 points, or -1 */
	int64_t fail_ratio;			/* --fail-above-ratio R in 1/10000, or -1 */
	int64_t fail_min;			/* --fail-min-percent in 1/10000 % (default 1%) */
};

static int open_input(const char *input, const struct log *log, struct perf_file **f)
{
	struct perf_file_opts fo = { .log = log, .name = input };

	if (!strcmp(input, "-")) {
		fo.name = "stdin";
		return perf_file__open_fd(f, STDIN_FILENO, &fo);
	}
	return perf_file__open(f, input, &fo);
}

/* the reports of the file's count (stat, events, header) into dir (the staging directory of o->outdir) */
static int write_reports(const struct analyse_opts *o, const struct filestat *fs, const char *dir,
			 const struct log *log)
{
	const struct report_ops *owner;
	size_t id;
	int err = 0, e;

	for (id = 0; id < report_outputs__count(); id++) {
		const struct report_output *r = report_outputs__get(id, &owner);

		if (owner->source != REPORT_FROM_FILE || !(o->reports >> id & 1))
			continue;
		e = r->write((void *)fs, NULL, dir);
		if (e)
			log_msg(log, LOG_ERR, "%s/%s.csv: %s", o->outdir, r->name, strerror(-e));
		err = err ? err : e;
	}
	return err;
}

/* the recorded kernel's build id and os release, for the kallsyms check */
static void recorded_kernel(const struct perf_file *f, struct symbols_opts *so)
{
	const struct perf_features *ft = perf_file__features(f);
	size_t i;

	so->recorded_osrelease = ft->osrelease;
	for (i = 0; i < ft->build_ids.len; i++) {
		const struct perf_build_id *b = &ARRAY_AT(&ft->build_ids, struct perf_build_id, i);

		if (b->filename && !strcmp(b->filename, "[kernel.kallsyms]")) {
			so->recorded_kernel_build_id = b->build_id;
			so->recorded_kernel_build_id_size = b->size;
		}
	}
}

/*
 * The attr -e names in f: its name exactly, else the one whose name without
 * perf's ":modifiers" and "/terms/" is it ("cycles" for "cycles:P",
 * "page-faults" for "page-faults/period=5/").  No match, or two,
 * is a usage error that lists the events of the file.  *name gets the full
 * name (borrowed from f).
 */
static int find_event(const struct perf_file *f, const char *want, const char **name,
		      const struct log *log)
{
	const struct perf_evlist *el = perf_file__evlist(f);
	const char *match = NULL;
	struct strbuf sb = STRBUF_INIT;
	size_t i, n = 0, len = strlen(want);

	*name = NULL;
	for (i = 0; i < el->nr; i++) {
		if (!strcmp(el->attrs[i].name, want)) {
			*name = el->attrs[i].name;
			return 0;
		}
	}
	for (i = 0; i < el->nr; i++) {
		const char *a = el->attrs[i].name;

		if (perf_event_name__base_len(a) == len && !strncmp(a, want, len)) {
			match = a;
			n++;
		}
	}
	if (n == 1) {
		*name = match;
		return 0;
	}
	for (i = 0; i < el->nr; i++)
		strbuf__addf(&sb, "%s%s", i ? ", " : "", el->attrs[i].name);
	log_msg(log, LOG_ERR, "%s: -e %s: %s event of that name; the file has: %s",
		perf_file__name(f), want, n ? "more than one" : "no", sb.len ? sb.buf : "no events");
	strbuf__release(&sb);
	return -EINVAL;
}

/* what the analysis cannot do for this file, said once */
static void warn_limits(const struct perf_file *f, const struct log *log)
{
	const struct perf_evlist *el = perf_file__evlist(f);
	const char *arch = perf_file__features(f)->arch;
	size_t i;

	if (!arch || !strcmp(arch, "x86_64"))
		return;
	for (i = 0; i < el->nr; i++) {
		if (el->attrs[i].attr.sample_type & PERF_SAMPLE_STACK_USER) {
			log_msg(log, LOG_WARN, "%s: %s carries user stack dumps (--call-graph dwarf) of %s, whose "
				"registers readperf does not know (x86_64 only): they are not unwound; children and "
				"callers see the sampled function and kernel frames only",
				perf_file__name(f), el->attrs[i].name, arch);
			return;
		}
	}
}

/*
 * Every record of f into fs (when given) and, in time order, into q (when
 * given).  0 or the first error of fs/q; the reader's own fault, after which
 * the records read so far still count, goes to *read_err.
 */
/*
 * SIGINT/SIGTERM during an analysis: the one mutable global, as a signal
 * handler can reach nothing else.  The replay stops at the next record and
 * the reports' temporary files are removed (the previous reports stay whole);
 * once the writing has begun it finishes (all new reports), then readperf
 * exits 128 + the signal.
 */
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

static void catch_stop_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* -j: a second thread for one file's analysis unless one thread is asked for or there is one CPU */
static int second_thread(const struct analyse_opts *o)
{
	return o->jobs > 1 || (o->jobs == 0 && sysconf(_SC_NPROCESSORS_ONLN) > 1);
}

/* perf_file's barrier: the analysis thread through what was handed to it */
static void sync_queue(void *q)
{
	ordered_queue__sync(q);
}

/* the ordered queue's delivery into the analysis, stopped by a signal */
static int deliver(void *an, struct perf_record *rec)
{
	return stop_signal ? -EINTR : analysis__deliver(an, rec);
}

static int replay(struct perf_file *f, struct filestat *fs, struct ordered_queue *q, int quiet,
		  int *read_err)
{
	struct perf_record rec;
	struct progress prog;
	uint64_t n = 0;
	int err = 0, r;

	progress__init(&prog, !quiet && isatty(STDERR_FILENO) &&
		       perf_file__info(f)->file_size > (64u << 20) ? stderr : NULL,
		       "reading", perf_file__info(f)->file_size);
	while ((r = perf_file__next(f, &rec)) > 0) {
		if (stop_signal) {
			err = -EINTR;
			break;
		}
		if (fs)
			err = filestat__add(fs, &rec);
		if (!err && q && !rec.undecoded)
			err = ordered_queue__push(q, &rec);
		if (err)
			break;
		if (!(++n & 0xffff))
			progress__update(&prog, perf_file__pos(f));
	}
	progress__finish(&prog);
	*read_err = r < 0 ? r : 0;
	if (!err && q)
		err = ordered_queue__flush(q);
	/* after an error too: the analysis at rest */
	if (q) {
		r = ordered_queue__sync(q);
		err = err ? err : r;
	}
	return err;
}

/* the path outputs of the registry: the option's path for output id, or NULL */
static const char *output_path(const struct analyse_opts *o, size_t id)
{
	const struct report_output *r = report_outputs__get(id, NULL);
	const struct {
		const char *name;
		const char *path;
	} paths[] = {
		{ "folded", o->folded }, { "flamegraph", o->flamegraph }, { "speedscope", o->speedscope },
		{ "timeline", o->timeline }, { "folded-offcpu", o->folded_offcpu },
		{ "flamegraph-offcpu", o->flamegraph_offcpu },
	};
	size_t i;

	for (i = 0; r && r->is_path && i < sizeof(paths) / sizeof(paths[0]); i++)
		if (!strcmp(paths[i].name, r->name))
			return paths[i].path;
	return NULL;
}

/* the outputs the analysis makes: the CSV reports of the hub and the path outputs given */
static uint64_t analysis_outputs(const struct analyse_opts *o)
{
	const struct report_ops *owner;
	uint64_t mask = 0;
	size_t id;

	for (id = 0; id < report_outputs__count(); id++) {
		const struct report_output *r = report_outputs__get(id, &owner);

		if (owner->source != REPORT_FROM_ANALYSIS)
			continue;
		if (r->is_path ? output_path(o, id) != NULL : (o->reports >> id & 1))
			mask |= (uint64_t)1 << id;
	}
	return mask;
}

/* --folded, --flamegraph and the other path outputs, after the reports */
static int write_paths(const struct analyse_opts *o, struct analysis *an, const struct log *log)
{
	int err = 0, e;
	size_t id;

	for (id = 0; id < report_outputs__count(); id++) {
		const char *path = output_path(o, id);

		if (!path)
			continue;
		e = analysis__write_output(an, id, path);
		if (e == -ENODATA)	/* nothing to show: the report said why */
			continue;
		if (e)
			log_msg(log, LOG_ERR, "%s: cannot write: %s", path, strerror(-e));
		err = err ? err : e;
	}
	return err;
}

/* ---------------------------------------------------------------- after the analysis */

/* one of the extra outputs goes to standard output ('-'): the summary goes to stderr then */
static int to_stdout(const struct analyse_opts *o)
{
	const char *const outs[] = { o->folded, o->flamegraph, o->folded_offcpu, o->flamegraph_offcpu,
				     o->timeline, o->speedscope };
	size_t i;

	for (i = 0; i < sizeof(outs) / sizeof(outs[0]); i++)
		if (outs[i] && !strcmp(outs[i], "-"))
			return 1;
	return 0;
}

static int filters_given(const struct analyse_opts *o)
{
	const struct analysis_opts *an = &o->an;

	return an->nr_pids || an->nr_tids || an->nr_comms || an->nr_dsos || an->nr_syms || o->time.set;
}

/* a filter that left no sample is an error that says what the file holds; 0 or -EINVAL */
static int check_filters(const struct analyse_opts *o, const struct perf_file *f, const struct analysis *an,
			 const struct log *log)
{
	struct analysis_stats st;
	struct strbuf sb = STRBUF_INIT;

	if (!an || !filters_given(o))
		return 0;
	analysis__stats(an, &st);
	if (st.samples || !st.filtered)
		return 0;
	analysis__describe(an, &sb);
	log_msg(log, LOG_ERR, "%s: no sample passes the filters (--pid, --tid, --comms, --dsos, --symbols, --time); "
		"the file has %s", perf_file__name(f), sb.len ? sb.buf : "no process");
	strbuf__release(&sb);
	return -EINVAL;
}

static int fn_cmp(const void *pa, const void *pb)
{
	const struct func_stat *a = *(const struct func_stat *const *)pa, *b = *(const struct func_stat *const *)pb;
	int r;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	r = strcmp(a->dso, b->dso);
	return r ? r : strcmp(a->function, b->function);
}

/* the head of each event's results.csv, as perf report --stdio shows it */
static void print_top(FILE *fp, const struct analysis *an)
{
	size_t nf = analysis__nr_funcs(an), ne = analysis__nr_events(an), e, i, n;
	const struct func_stat **v = calloc(nf ? nf : 1, sizeof(*v));

	if (!v)
		return;
	for (e = 0; e < ne; e++) {
		struct analysis_event ev;

		analysis__event(an, e, &ev);
		if (!ev.name || !ev.samples)
			continue;
		for (i = n = 0; i < nf; i++) {
			v[n] = analysis__func(an, i);
			if (v[n]->event == e && v[n]->samples)
				n++;
		}
		qsort(v, n, sizeof(*v), fn_cmp);
		fprintf(fp, "%s: %" PRIu64 " samples, period %" PRIu64 "\n", ev.name, ev.samples, ev.period);
		for (i = 0; i < n && i < 10; i++)
			fprintf(fp, "  %6.2f%%  %-24s %s\n", ev.period ? 100.0 * (double)v[i]->period / (double)ev.period : 0.0,
				v[i]->dso, v[i]->function);
	}
	free(v);
}

/* where the reports went, the top functions, and what to know about them; -q: nothing */
static void print_summary(const struct analyse_opts *o, const struct filestat *fs, const struct analysis *an,
			  const struct log *log)
{
	FILE *fp = to_stdout(o) ? stderr : stdout;
	struct analysis_stats st;
	struct stat sb;
	char path[4096];
	uint64_t lost = fs ? filestat__lost(fs) : 0;
	size_t i;

	if (o->quiet)
		return;
	snprintf(path, sizeof(path), "%s/overview.csv", o->outdir);
	if ((o->reports >> report_outputs__find("overview", 0) & 1) && !stat(path, &sb) &&
	    sb.st_size > 100 * 1024 * 1024)
		log_msg(log, LOG_WARN, "%s is %.1f MB; --reports default without overview leaves it out", path,
			(double)sb.st_size / (1024 * 1024));
	fprintf(fp, "readperf: %s: reports in %s/:", o->input, o->outdir);
	for (i = 0; i < report_outputs__count(); i++)
		if (o->reports >> i & 1)
			fprintf(fp, " %s.csv", report_outputs__get(i, NULL)->name);
	fputc('\n', fp);
	if (!an)
		return;
	print_top(fp, an);
	analysis__stats(an, &st);
	if (st.unresolved)
		fprintf(fp, "note: %" PRIu64 " of %" PRIu64 " samples (%.2f%%) have no symbol: the [unknown] rows\n",
			st.unresolved, st.samples, 100.0 * (double)st.unresolved / (double)(st.samples ? st.samples : 1));
	if (lost)
		fprintf(fp, "note: %" PRIu64 " samples were lost while recording (events.csv lost)\n", lost);
}

/* perf's warnings about lost data (perf_session__warn_about_errors) */
static void warn_losses(const struct perf_file *f, const struct filestat *fs, const struct log *log)
{
	struct filestat_losses l;

	filestat__losses(fs, &l);
	if (l.chunks)
		log_msg(log, LOG_WARN, "%s: processed %" PRIu64 " events and lost %" PRIu64 " chunks (%" PRIu64
			" records the kernel dropped when the ring buffer was full: record with more --mmap-pages "
			"or a lower frequency)", perf_file__name(f), l.records, l.chunks, l.chunk_samples);
	if (l.lost_samples && (double)l.lost_samples / (double)(l.samples + l.lost_samples) > 0.05)
		log_msg(log, LOG_WARN, "%s: processed %" PRIu64 " samples and lost %.2f%% samples (events.csv lost)",
			perf_file__name(f), l.samples, 100.0 * (double)l.lost_samples / (double)(l.samples + l.lost_samples));
}

static void fill_result(struct analyse_result *r, const struct perf_file *f, const struct filestat *fs)
{
	const struct perf_features *ft = perf_file__features(f);

	r->samples = filestat__samples(fs);
	r->duration_ns = ft->last_sample_time > ft->first_sample_time ?
			 ft->last_sample_time - ft->first_sample_time : filestat__duration(fs);
	snprintf(r->hostname, sizeof(r->hostname), "%s", ft->hostname ? ft->hostname : "");
	snprintf(r->perf_version, sizeof(r->perf_version), "%s", ft->version ? ft->version : "");
}

/*
 * The analysis' own error (analysis__status), other than ENOMEM (said once,
 * at the end): EIO only comes from reading the binaries, kallsyms or a perf map.
 */
static void analysis_error(const char *input, int err, const struct log *log)
{
	if (err == -ENOMEM || err == -EINTR)
		return;
	log_msg(log, LOG_ERR, "%s: %s: %s", input, err == -EIO ? "cannot read symbols" : "cannot analyse",
		strerror(-err));
}

static int analyse(struct analyse_opts *o, const struct log *log)
{
	struct perf_file *f;
	struct filestat *fs = NULL;
	struct analysis *an = NULL;
	struct ordered_queue *q = NULL;
	struct csv_txn txn = { 0 };
	int err, read_err = 0;

	err = fs__mkdir_p(o->outdir);
	if (!err) {
		csv__remove_stale(o->outdir);
		/* every report goes to a staging directory first, moved in when all are whole */
		err = csv_txn__begin(&txn, o->outdir);
	}
	if (err) {
		log_msg(log, LOG_ERR, "%s: cannot create: %s", o->outdir, strerror(-err));
		return EXIT_SYSTEM;
	}
	err = open_input(o->input, log, &f);
	if (err) {
		csv_txn__abort(&txn);
		if (err == -ENOMEM)
			log_msg(log, LOG_ERR, "out of memory");
		return exit_for(err);
	}
	err = resolve_time(&o->time, f, &o->an, log);
	if (!err)
		err = filestat__new(&fs, f);
	if (err)
		goto out_close;
	filestat__set_profile(fs, o->an.profile);
	o->an.outputs = analysis_outputs(o);
	if (o->an.outputs) {
		if (o->event_arg && find_event(f, o->event_arg, &o->an.event, log)) {
			filestat__delete(fs);
			perf_file__delete(f);
			csv_txn__abort(&txn);
			return EXIT_USAGE;
		}
		warn_limits(f, log);
		recorded_kernel(f, &o->sym);
		o->sym.log = log;
		o->an.symbols = &o->sym;
		o->an.log = log;
		o->an.input_name = o->input;
		o->an.out_dir = txn.stage;
		o->an.report_dir = o->outdir;
		err = analysis__new(&an, f, &o->an);
		if (err && err != -ENOMEM)
			log_msg(log, LOG_ERR, "%s: cannot write the reports: %s", o->outdir, strerror(-err));
		if (!err)
			err = ordered_queue__new(&q, f, deliver, an);
		if (err)
			goto out_delete;
		/* the analysis in a second thread; without one (-j 1, one CPU) it runs in this one */
		if (second_thread(o) && !ordered_queue__start_worker(q)) {
			perf_file__set_barrier(f, sync_queue, q);
			log_msg(log, LOG_DEBUG, "%s: the analysis in a second thread", perf_file__name(f));
		}
	}
	/* the reports cover what was read, also after a fault */
	err = replay(f, fs, q, o->quiet, &read_err);
	warn_losses(f, fs, log);
	if (!err)
		err = write_reports(o, fs, txn.stage, log);
	/* after an error the dsos without symbols may only be the ones it stopped */
	if (!err && an)
		err = analysis__warn_unresolved(an);
	if (err && an && err == analysis__status(an))
		analysis_error(o->input, err, log);
	if (!err && an)
		err = analysis__write(an, txn.stage);	/* it names the report that failed */
	if (err || stop_signal) {
		csv_txn__abort(&txn);
		if (err && err != -EINTR && err != -ENOMEM)
			log_msg(log, LOG_ERR, "%s: no report written, the previous ones are as they were", o->outdir);
	} else {
		err = csv_txn__commit(&txn);
		if (err)
			log_msg(log, LOG_ERR, "%s: cannot move the reports in: %s", o->outdir, strerror(-err));
	}
	if (!err && an)
		err = write_paths(o, an, log);
	if (!err && an)
		analysis__save_symbol_cache(an);
	if (!err && !read_err)
		err = check_filters(o, f, an, log);
	if (!err && !o->no_summary)
		print_summary(o, fs, an, log);
	if (o->result)
		fill_result(o->result, f, fs);
	if (read_err)
		err = read_err;
out_delete:
	perf_file__set_barrier(f, NULL, NULL);
	ordered_queue__delete(q);
	analysis__delete(an);
	filestat__delete(fs);
out_close:
	perf_file__delete(f);
	csv_txn__abort(&txn);
	if (err == -ENOMEM)
		log_msg(log, LOG_ERR, "out of memory");
	if (stop_signal) {
		log_msg(log, LOG_ERR, "%s: %s", o->input, err == -EINTR ?
			"interrupted: no report written, the previous ones are as they were" :
			"interrupted after the reports were written");
		return 128 + stop_signal;
	}
	return exit_for(err);
}

/* "10ms", "0.5s", "250us", "100ns", "2m" -> ns, more than 0; 0 or -EINVAL */
static int parse_duration(const char *s, uint64_t *ns)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = { { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "m", 60e9 }, { "min", 60e9 } };
	char *end;
	double v;
	size_t i;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !(v > 0))
		return -EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcmp(end, units[i].unit)) {
			double r = v * units[i].ns + 0.5;

			if (r < 1 || r > 1e19)
				return -EINVAL;
			*ns = (uint64_t)r;
			return 0;
		}
	}
	return -EINVAL;
}

/* "1,2,3" -> numbers; 0 or -EINVAL */
static int parse_u32_list(const char *arg, uint32_t *out, size_t max, size_t *nr)
{
	const char *p = arg;
	char *end;

	*nr = 0;
	while (*p) {
		unsigned long v;

		errno = 0;
		v = strtoul(p, &end, 10);
		if (end == p || errno || v > UINT32_MAX || (*end && *end != ',') || *nr == max)
			return -EINVAL;
		out[(*nr)++] = (uint32_t)v;
		p = *end ? end + 1 : end;
	}
	return *nr ? 0 : -EINVAL;
}

/* ns as an integer, or seconds with a '.' ("12345.678901"); empty = open */
static int parse_time(const char *s, size_t len, uint64_t *out)
{
	char buf[64], *end;
	const char *dot;

	*out = 0;
	if (!len)
		return 0;
	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	dot = strchr(buf, '.');
	errno = 0;
	if (!dot) {
		unsigned long long v = strtoull(buf, &end, 10);

		if (*end || errno || end == buf)
			return -EINVAL;
		*out = v;
		return 0;
	} else {
		unsigned long long sec = strtoull(buf, &end, 10), frac = 0;
		size_t digits = 0;

		if (end != dot || errno)
			return -EINVAL;
		for (end = (char *)dot + 1; *end; end++, digits++) {
			if (*end < '0' || *end > '9' || digits >= 9)
				return -EINVAL;
			frac = frac * 10 + (unsigned long long)(*end - '0');
		}
		for (; digits < 9; digits++)
			frac *= 10;
		if (sec > UINT64_MAX / 1000000000ull)
			return -EINVAL;
		*out = sec * 1000000000ull + frac;
		return 0;
	}
}

/*
 * The options of the analysis, also those of readperf diff (is_diff: no
 * --reports, --folded, --flamegraph).  The file names are left at
 * argv[optind...].  -1 to go on, else the exit code.
 */
/* a non-negative decimal with up to 4 places ("2", "1.5", "0.25") in 1/10000; -1 when malformed */
static int64_t parse_fixed4(const char *s)
{
	int64_t v = 0, scale = 10000;
	int digits = 0;

	for (; *s >= '0' && *s <= '9' && v < INT64_MAX / 100000; s++, digits++)
		v = v * 10 + (*s - '0');
	v *= 10000;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9' && scale > 1; s++, digits++)
			v += (*s - '0') * (scale /= 10);
	return digits && !*s ? v : -1;
}

/* readperf diff's own options: which is the index from --sort on */
static int parse_diff_opt(int which, const char *arg, struct analyse_opts *o)
{
	static const char *const sorts[] = { "period", "ratio", "delta" };
	static const char *const names[] = { "--sort", "--fail-above", "--fail-above-ratio", "--fail-min-percent" };
	int64_t v;
	size_t i;

	if (which == 0) {
		for (i = 0; i < sizeof(sorts) / sizeof(sorts[0]); i++)
			if (!strcmp(arg, sorts[i])) {
				o->sort = (enum diff_sort)i;
				return 0;
			}
		fprintf(stderr, "readperf diff: --sort wants period, ratio or delta, not '%s'\n", arg);
		return -1;
	}
	v = parse_fixed4(arg);
	if (v < 0 || (which == 2 && v == 0)) {
		fprintf(stderr, "readperf diff: %s wants a positive number, not '%s'\n", names[which], arg);
		return -1;
	}
	if (which == 1)
		o->fail_above = v;
	else if (which == 2)
		o->fail_ratio = v;
	else
		o->fail_min = v;
	return 0;
}

/* --comms, --dsos, --symbols (which: 0, 1, 2): comma-separated names, at most 64 */
static int parse_name_list(struct analyse_opts *o, int which, const char *arg)
{
	static const char *const names[] = { "--comms", "--dsos", "--symbols" };
	char **store[] = { &o->comm_list, &o->dso_list, &o->sym_list };
	const char **arr[] = { o->comms, o->dsos, o->syms };
	size_t *nr[] = { &o->an.nr_comms, &o->an.nr_dsos, &o->an.nr_syms };
	char *tok, *save = NULL;

	free(*store[which]);
	*store[which] = strdup(arg);
	if (!*store[which])
		return -ENOMEM;
	*nr[which] = 0;
	for (tok = strtok_r(*store[which], ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*nr[which] == 64) {
			fprintf(stderr, "readperf: %s takes at most 64 names\n", names[which]);
			return -EINVAL;
		}
		arr[which][(*nr[which])++] = tok;
	}
	if (!*nr[which]) {
		fprintf(stderr, "readperf: %s wants names\n", names[which]);
		return -EINVAL;
	}
	o->an.comms = o->comms;
	o->an.dsos = o->dsos;
	o->an.syms = o->syms;
	return 0;
}

static void analyse_opts__release(struct analyse_opts *o)
{
	free(o->cache_dir);
	free(o->comm_list);
	free(o->dso_list);
	free(o->sym_list);
}

/* is dir ours (root running with a user's HOME, as sudo may keep it, must not leave root's files there)? */
static int owned(const char *dir)
{
	struct stat st;

	return !stat(dir, &st) && st.st_uid == geteuid();
}

/*
 * The symbol cache: --symbol-cache DIR, else $XDG_CACHE_HOME/readperf, else
 * ~/.cache/readperf when HOME is the user's own; none with
 * --no-symbol-cache or without a home.  -1 (go
 * on) or EXIT_SYSTEM (out of memory).
 */
static int default_cache_dir(struct analyse_opts *o)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n = 0;

	if (o->no_symbol_cache) {
		o->sym.cache_dir = NULL;
		return -1;
	}
	if (o->sym.cache_dir)
		return -1;
	if (xdg && *xdg == '/')
		n = asprintf(&o->cache_dir, "%s/readperf", xdg);
	else if (home && *home && owned(home))
		n = asprintf(&o->cache_dir, "%s/.cache/readperf", home);
	else
		return -1;
	if (n < 0) {
		o->cache_dir = NULL;
		fputs("readperf: out of memory\n", stderr);
		return EXIT_SYSTEM;
	}
	o->sym.cache_dir = o->cache_dir;
	return -1;
}

static int parse_analyse_opts(int argc, char **argv, struct logger *lg, struct analyse_opts *o,
			      int is_diff)
{
	enum { OPT_REPORTS = 256, OPT_VERSION, OPT_SYMFS, OPT_KALLSYMS, OPT_DEBUG_DIR, OPT_NO_SOURCE,
	       OPT_PID, OPT_TID, OPT_COMM, OPT_TIME, OPT_FOLDED, OPT_FLAMEGRAPH,
	       OPT_DSOS, OPT_SYMBOLS, OPT_PERCENT_LIMIT, OPT_FULL_SOURCE_PATH, OPT_NO_DEMANGLE,
	       OPT_FILES_FROM, OPT_PROFILE_COL, OPT_NO_PROFILE_COL, OPT_UNKNOWN_ADDRESSES, OPT_BUILDID_DIR, OPT_WEIGHT,
	       OPT_SORT, OPT_FAIL_ABOVE, OPT_FAIL_RATIO, OPT_FAIL_MIN, OPT_INLINE, OPT_MINWIDTH,
	       OPT_FOLDED_OFFCPU, OPT_FLAMEGRAPH_OFFCPU, OPT_INTERVAL, OPT_TIMELINE, OPT_SPEEDSCOPE,
	       OPT_SYMBOL_CACHE, OPT_NO_SYMBOL_CACHE };
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "reports", required_argument, NULL, OPT_REPORTS },
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
		{ "debug-dir", required_argument, NULL, OPT_DEBUG_DIR },
		{ "no-source", no_argument, NULL, OPT_NO_SOURCE },
		{ "event", required_argument, NULL, 'e' },
		{ "pid", required_argument, NULL, OPT_PID },
		{ "tid", required_argument, NULL, OPT_TID },
		{ "comm", required_argument, NULL, OPT_COMM },
		{ "comms", required_argument, NULL, OPT_COMM },
		{ "dsos", required_argument, NULL, OPT_DSOS },
		{ "symbols", required_argument, NULL, OPT_SYMBOLS },
		{ "percent-limit", required_argument, NULL, OPT_PERCENT_LIMIT },
		{ "full-source-path", no_argument, NULL, OPT_FULL_SOURCE_PATH },
		{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
		{ "input", required_argument, NULL, 'i' },
		{ "files-from", required_argument, NULL, OPT_FILES_FROM },
		{ "unknown-addresses", no_argument, NULL, OPT_UNKNOWN_ADDRESSES },
		{ "weight", required_argument, NULL, OPT_WEIGHT },
		{ "inline", no_argument, NULL, OPT_INLINE },
		{ "minwidth", required_argument, NULL, OPT_MINWIDTH },
		{ "buildid-dir", required_argument, NULL, OPT_BUILDID_DIR },
		{ "symbol-cache", required_argument, NULL, OPT_SYMBOL_CACHE },
		{ "no-symbol-cache", no_argument, NULL, OPT_NO_SYMBOL_CACHE },
		{ "jobs", required_argument, NULL, 'j' },
		{ "profile-column", no_argument, NULL, OPT_PROFILE_COL },
		{ "no-profile-column", no_argument, NULL, OPT_NO_PROFILE_COL },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "folded", required_argument, NULL, OPT_FOLDED },
		{ "flamegraph", required_argument, NULL, OPT_FLAMEGRAPH },
		{ "folded-offcpu", required_argument, NULL, OPT_FOLDED_OFFCPU },
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "timeline", required_argument, NULL, OPT_TIMELINE },
		{ "speedscope", required_argument, NULL, OPT_SPEEDSCOPE },
		{ "flamegraph-offcpu", required_argument, NULL, OPT_FLAMEGRAPH_OFFCPU },
		{ "sort", required_argument, NULL, OPT_SORT },
		{ "fail-above", required_argument, NULL, OPT_FAIL_ABOVE },
		{ "fail-above-ratio", required_argument, NULL, OPT_FAIL_RATIO },
		{ "fail-min-percent", required_argument, NULL, OPT_FAIL_MIN },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->input = "perf.data";
	o->outdir = ".";
	o->reports = all_csv_reports();
	o->fail_above = o->fail_ratio = -1;
	o->fail_min = 10000;
	opterr = 0;
	char *end;

	o->profile_col = -1;
	while ((c = getopt_long(argc, argv, ":o:e:i:j:qvh", longopts, NULL)) != -1) {
		if (is_diff && (c == OPT_REPORTS || c == OPT_FOLDED || c == OPT_FLAMEGRAPH)) {
			fputs("readperf diff: --reports, --folded and --flamegraph are options of the analysis only\n",
			      stderr);
			return EXIT_USAGE;
		}
		if (!is_diff && c >= OPT_SORT && c <= OPT_FAIL_MIN) {
			fputs("readperf: --sort and --fail-* are options of readperf diff\n", stderr);
			return EXIT_USAGE;
		}
		if (c >= OPT_SORT && c <= OPT_FAIL_MIN) {
			if (parse_diff_opt(c - OPT_SORT, optarg, o))
				return EXIT_USAGE;
			continue;
		}
		switch (c) {
		case 'o':
			if (!*optarg || !strcmp(optarg, "-")) {
				fputs("readperf: -o wants a directory for the reports\n", stderr);
				return EXIT_USAGE;
			}
			o->outdir = optarg;
			break;
		case OPT_REPORTS:
			if (parse_reports(optarg, &o->reports))
				return EXIT_USAGE;
			break;
		case OPT_SYMFS:
			o->sym.symfs = optarg;
			break;
		case OPT_KALLSYMS:
			/* named by the user: a file that cannot be read is an error, not a warning */
			if (access(optarg, R_OK)) {
				fprintf(stderr, "readperf: --kallsyms %s: %s\n", optarg, strerror(errno));
				return EXIT_SYSTEM;
			}
			o->sym.kallsyms = optarg;
			break;
		case OPT_DEBUG_DIR:
			if (o->sym.nr_debug_dirs == sizeof(o->debug_dirs) / sizeof(o->debug_dirs[0])) {
				fputs("readperf: too many --debug-dir\n", stderr);
				return EXIT_USAGE;
			}
			o->debug_dirs[o->sym.nr_debug_dirs++] = optarg;
			o->sym.debug_dirs = o->debug_dirs;
			break;
		case OPT_NO_SOURCE:
			o->sym.no_source = 1;
			break;
		case 'e':
			if (!*optarg) {
				fputs("readperf: -e wants an event name\n", stderr);
				return EXIT_USAGE;
			}
			o->event_arg = optarg;
			break;
		case OPT_PID:
			if (parse_u32_list(optarg, o->pids, 256, &o->an.nr_pids)) {
				fprintf(stderr, "readperf: --pid wants comma-separated numbers, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			o->an.pids = o->pids;
			break;
		case OPT_TID:
			if (parse_u32_list(optarg, o->tids, 256, &o->an.nr_tids)) {
				fprintf(stderr, "readperf: --tid wants comma-separated numbers, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			o->an.tids = o->tids;
			break;
		case OPT_COMM:
		case OPT_DSOS:
		case OPT_SYMBOLS:
			if (parse_name_list(o, c == OPT_COMM ? 0 : c == OPT_DSOS ? 1 : 2, optarg))
				return EXIT_USAGE;
			break;
		case OPT_PERCENT_LIMIT:
			o->an.percent_limit = (uint64_t)parse_fixed4(optarg);
			if (parse_fixed4(optarg) < 0 || o->an.percent_limit > 1000000) {
				fprintf(stderr, "readperf: --percent-limit wants a percentage, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_FULL_SOURCE_PATH:	/* the default: source_file is the full path */
			break;
		case OPT_NO_DEMANGLE:
			o->sym.no_demangle = 1;
			break;
		case OPT_INLINE:
			o->an.inline_frames = 1;
			break;
		case OPT_MINWIDTH: {
			char *end;
			double px = strtod(optarg, &end);

			if (end == optarg || *end || !(px >= 0 && px <= 1200)) {
				fprintf(stderr, "readperf: --minwidth wants pixels from 0 to 1200, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			o->an.fg_minwidth = (unsigned)(px * 100 + 0.5);
			o->an.fg_minwidth_set = 1;
			break;
		}
		case 'i':
			o->input_opt = optarg;
			break;
		case OPT_FILES_FROM:
			o->files_from = optarg;
			break;
		case OPT_UNKNOWN_ADDRESSES:
			o->an.unknown_addresses = 1;
			break;
		case OPT_WEIGHT:
			if (strcmp(optarg, "samples") && strcmp(optarg, "period")) {
				fprintf(stderr, "readperf: --weight wants samples or period, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			o->an.fold_period = !strcmp(optarg, "period");
			break;
		case OPT_BUILDID_DIR:
			o->sym.buildid_dir = optarg;
			break;
		case OPT_SYMBOL_CACHE:
			o->sym.cache_dir = optarg;
			break;
		case OPT_NO_SYMBOL_CACHE:
			o->no_symbol_cache = 1;
			break;
		case 'j':
			o->jobs = strtol(optarg, &end, 10);
			if (*end || o->jobs < 1 || o->jobs > 1024) {
				fprintf(stderr, "readperf: -j wants a number of parallel analyses (1-1024), not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_PROFILE_COL:
		case OPT_NO_PROFILE_COL:
			o->profile_col = c == OPT_PROFILE_COL;
			break;
		case OPT_FOLDED:
			o->folded = optarg;
			break;
		case OPT_FLAMEGRAPH:
			o->flamegraph = optarg;
			break;
		case OPT_INTERVAL:
			if (parse_duration(optarg, &o->an.interval_ns)) {
				fprintf(stderr, "readperf: --interval wants a duration (10ms, 0.5s, 250us, 1000000ns), "
					"not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_SPEEDSCOPE:
			o->speedscope = optarg;
			break;
		case OPT_TIMELINE:
			o->timeline = optarg;
			break;
		case OPT_FOLDED_OFFCPU:
			o->folded_offcpu = optarg;
			break;
		case OPT_FLAMEGRAPH_OFFCPU:
			o->flamegraph_offcpu = optarg;
			break;
		case OPT_TIME:
			if (parse_time_spec(optarg, &o->time)) {
				fprintf(stderr, "readperf: --time wants START,END (ns, s.frac or +s from the first sample), "
					"P%%/N or A%%-B%%, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			if (!o->time.pct && !o->time.rel[0] && !o->time.rel[1] && o->time.val[0] && o->time.val[1] &&
			    o->time.val[0] > o->time.val[1]) {
				fprintf(stderr, "readperf: --time %s: START is after END\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'q':
			lg->quiet = o->quiet = 1;
			break;
		case 'v':
			lg->verbose = 1;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case OPT_VERSION:
			printf("readperf %s\n", READPERF_VERSION);
			return EXIT_OK;
		case ':':
			fprintf(stderr, "readperf%s: option '%s' needs a value\nTry 'readperf%s --help'\n",
				is_diff ? " diff" : "", argv[optind - 1], is_diff ? " diff" : "");
			return EXIT_USAGE;
		default:
			fprintf(stderr, "readperf%s: unknown or ambiguous option '%s'\nTry 'readperf%s --help'\n",
				is_diff ? " diff" : "", argv[optind - 1], is_diff ? " diff" : "");
			return EXIT_USAGE;
		}
	}
	return default_cache_dir(o);
}

/* ---------------------------------------------------------------- many files */

/*
 * A profile's name from its path: the base name without .gz, .zst and .data
 * (perf.data.gz -> perf), other bytes than [A-Za-z0-9._-] as '_'; malloc'd.
 */
static char *profile_base(const char *path)
{
	const char *b = strrchr(path, '/');
	static const char *const exts[] = { ".gz", ".zst", ".data" };
	char *name;
	size_t len, i, k;

	b = b ? b + 1 : path;
	len = strlen(b);
	for (k = 0; k < 3; k++) {
		size_t el = strlen(exts[k]);

		if (len > el && !memcmp(b + len - el, exts[k], el))
			len -= el;
	}
	name = malloc(len + 8);
	if (!name)
		return NULL;
	for (i = 0; i < len; i++)
		name[i] = isalnum((unsigned char)b[i]) || strchr("._-", b[i]) ? b[i] : '_';
	name[len] = '\0';
	if (!len || !strcmp(name, ".") || !strcmp(name, ".."))
		strcpy(name, "profile");
	return name;
}

struct batch_item {
	const char *path;
	char *name;		/* DIR/name/ */
	pid_t pid;
	int fd;			/* the child's result pipe */
	int status;
	struct strbuf res;	/* samples \0 duration \0 hostname \0 version \0 message \0 */
};

/* --files-from LIST: one path a line ('-': stdin) appended to paths; 0 or -errno */
static int read_list(const char *list, struct array *paths)
{
	FILE *fp = strcmp(list, "-") ? fopen(list, "r") : stdin;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int err = 0;

	if (!fp)
		return -errno;
	while (!err && (n = getline(&line, &cap, fp)) >= 0) {
		char **slot;

		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (!n)
			continue;
		slot = array__push(paths);
		if (!slot || !(*slot = strdup(line)))
			err = -ENOMEM;
	}
	if (!err && ferror(fp))
		err = -EIO;
	free(line);
	if (fp != stdin)
		fclose(fp);
	return err;
}

/* the child: analyse one file into DIR/name/, the result down the pipe, exit with analyse's code */
static void batch_child(struct analyse_opts *o, const struct batch_item *it, int fd, struct logger *lg,
			const struct log *log)
{
	struct analyse_result r;
	struct strbuf dir = STRBUF_INIT, out = STRBUF_INIT;
	int code;

	memset(&r, 0, sizeof(r));
	lg->first_err[0] = '\0';
	if (strbuf__addf(&dir, "%s/%s", o->outdir, it->name))
		_exit(EXIT_SYSTEM);
	o->input = it->path;
	o->outdir = dir.buf;
	o->an.profile = o->profile_col == 0 ? NULL : it->name;
	o->no_summary = 1;
	o->result = &r;
	o->jobs = 1;	/* -j files at once, each in one thread */
	code = analyse(o, log);
	strbuf__addf(&out, "%" PRIu64 "%c%" PRIu64 "%c%s%c%s%c%s%c", r.samples, 0, r.duration_ns, 0,
		     r.hostname, 0, r.perf_version, 0, lg->first_err, 0);
	if (write(fd, out.buf, out.len) != (ssize_t)out.len)
		code = code ? code : EXIT_SYSTEM;
	fflush(NULL);
	_exit(code);
}

static int batch_start(struct analyse_opts *o, struct batch_item *it, struct logger *lg, const struct log *log)
{
	int p[2];

	if (pipe(p))
		return -errno;
	fflush(NULL);
	it->pid = fork();
	if (it->pid < 0) {
		int err = -errno;

		close(p[0]);
		close(p[1]);
		return err;
	}
	if (it->pid == 0) {
		close(p[0]);
		batch_child(o, it, p[1], lg, log);
	}
	close(p[1]);
	it->fd = p[0];
	return 0;
}

/* wait for one child, read its result; 0 or -errno */
static int batch_reap(struct batch_item *items, size_t n)
{
	char buf[4096];
	ssize_t r;
	size_t i;
	int status;
	pid_t pid = waitpid(-1, &status, 0);

	if (pid < 0)
		return -errno;
	for (i = 0; i < n && items[i].pid != pid; i++)
		;
	if (i == n)
		return 0;
	while ((r = read(items[i].fd, buf, sizeof(buf))) > 0)
		strbuf__add(&items[i].res, buf, (size_t)r);
	close(items[i].fd);
	items[i].pid = 0;
	items[i].status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	return 0;
}

/* the i-th \0-terminated field of a child's result, "" when missing */
static const char *res_field(const struct strbuf *res, int i)
{
	const char *p = res->buf, *end = res->buf + res->len;

	for (; i > 0 && p < end; i--)
		p += strlen(p) + 1;
	return p < end ? p : "";
}

static int write_index(const struct analyse_opts *o, const struct batch_item *items, size_t n)
{
	static const char *const cols[] = { "profile", "path", "status", "samples", "duration_ns", "hostname",
					    "perf_version", "message", NULL };
	struct csv c;
	size_t i;
	int err = csv__open(&c, o->outdir, "index.csv");

	if (err)
		return err;
	csv__row(&c, cols);
	for (i = 0; i < n; i++) {
		const struct strbuf *r = &items[i].res;

		csv__str(&c, items[i].name);
		csv__str(&c, items[i].path);
		csv__u64(&c, (uint64_t)items[i].status);
		csv__u64(&c, strtoull(res_field(r, 0), NULL, 10));
		csv__u64(&c, strtoull(res_field(r, 1), NULL, 10));
		csv__str(&c, res_field(r, 2));
		csv__str(&c, res_field(r, 3));
		csv__str(&c, items[i].status && !*res_field(r, 4) ? "no result (the analysis was killed)" :
			 res_field(r, 4));
		csv__end_row(&c);
	}
	return csv__commit(&c);
}

/* names for DIR/NAME/: from the path, made unique in input order (said when changed); 0 or -ENOMEM */
static int batch_names(struct batch_item *items, size_t n, const char *outdir, const struct log *log)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		char *base = profile_base(items[i].path);
		unsigned k = 1;

		if (!base)
			return -ENOMEM;
		items[i].name = base;
		for (j = 0; j < i; j++) {
			if (strcmp(items[j].name, items[i].name))
				continue;
			free(items[i].name != base ? items[i].name : NULL);
			items[i].name = malloc(strlen(base) + 16);
			if (!items[i].name) {
				free(base);
				return -ENOMEM;
			}
			sprintf(items[i].name, "%s-%u", base, ++k);
			j = (size_t)-1;		/* check the new name from the start */
		}
		if (items[i].name != base) {
			log_msg(log, LOG_INFO, "%s: its name is taken: reports in %s/%s/", items[i].path, outdir,
				items[i].name);
			free(base);
		}
	}
	return 0;
}

/*
 * readperf -o DIR FILE FILE... / --files-from LIST: each file analysed by a
 * child process into DIR/NAME/ (-j at once), DIR/index.csv listing them;
 * the exit status is the worst of the files'.
 */
static int batch(struct analyse_opts *o, char **files, size_t nr_files, struct logger *lg, const struct log *log)
{
	struct array paths;
	struct batch_item *items = NULL;
	size_t n, i, running = 0, next = 0, failed = 0;
	long jobs = o->jobs > 0 ? o->jobs : sysconf(_SC_NPROCESSORS_ONLN);
	int err = 0, code = EXIT_OK;

	array__init(&paths, sizeof(char *));
	for (i = 0; i < nr_files && !err; i++) {
		char **slot = array__push(&paths);

		if (!slot || !(*slot = strdup(files[i])))
			err = -ENOMEM;
	}
	if (!err && o->files_from) {
		err = read_list(o->files_from, &paths);
		if (err)
			log_msg(log, LOG_ERR, "%s: %s", o->files_from, strerror(-err));
	}
	n = paths.len;
	if (!err && !n) {
		log_msg(log, LOG_ERR, "%s: no file to analyse", o->files_from);
		err = -EINVAL;
	}
	if (!err && !(items = calloc(n, sizeof(*items))))
		err = -ENOMEM;
	for (i = 0; !err && i < n; i++)
		items[i].path = ARRAY_AT(&paths, char *, i);
	if (!err)
		err = batch_names(items, n, o->outdir, log);
	if (!err && (err = fs__mkdir_p(o->outdir)))
		log_msg(log, LOG_ERR, "%s: cannot create: %s", o->outdir, strerror(-err));
	while (!err && (next < n || running)) {
		if (next < n && (long)running < (jobs > 0 ? jobs : 1)) {
			err = batch_start(o, &items[next++], lg, log);
			running += !err;
			continue;
		}
		err = batch_reap(items, n);
		running--;
	}
	for (i = 0; items && i < n; i++) {
		if (items[i].status > code)
			code = items[i].status;
		failed += items[i].status != 0;
	}
	if (!err) {
		err = write_index(o, items, n);
		if (err)
			log_msg(log, LOG_ERR, "%s/index.csv: cannot write: %s", o->outdir, strerror(-err));
	}
	if (!err && !o->quiet)
		printf("readperf: %zu profiles in %s/ (index.csv): %zu ok, %zu failed\n", n, o->outdir, n - failed,
		       failed);
	for (i = 0; items && i < n; i++) {
		free(items[i].name);
		strbuf__release(&items[i].res);
	}
	for (i = 0; i < paths.len; i++)
		free(ARRAY_AT(&paths, char *, i));
	array__release(&paths);
	free(items);
	if (err && err != -EINVAL && code < EXIT_SYSTEM)
		code = EXIT_SYSTEM;
	return err == -EINVAL && code == EXIT_OK ? EXIT_USAGE : code;
}

static int cmd_analyse(int argc, char **argv, struct logger *lg, const struct log *log)
{
	struct analyse_opts o;
	int code;

	code = parse_analyse_opts(argc, argv, lg, &o, 0);
	if (code >= 0)
		goto out;
	catch_stop_signals();
	if (o.input_opt)
		o.input = o.input_opt;
	if (optind < argc && o.input_opt) {
		fprintf(stderr, "readperf: -i %s and '%s': one input file at a time\nTry 'readperf --help'\n",
			o.input_opt, argv[optind]);
		code = EXIT_USAGE;
		goto out;
	}
	if (optind + 1 < argc || o.files_from) {
		code = batch(&o, argv + optind, (size_t)(argc - optind), lg, log);
		goto out;
	}
	if (optind < argc)
		o.input = argv[optind++];
	if (o.profile_col == 1)
		o.an.profile = profile_base(o.input);
	code = analyse(&o, log);
	free((char *)(o.profile_col == 1 ? o.an.profile : NULL));
out:
	analyse_opts__release(&o);
	return code;
}

/* ---------------------------------------------------------------- diff */

/* one side of readperf diff: the file read through an analysis of its own */
struct diff_side {
	struct perf_file *f;
	struct analysis *an;
	struct symbols_opts sym;	/* borrowed by an */
	struct analysis_opts opts;	/* borrowed by an */
};

/* open and replay path; 0 or a negative errno (-EINVAL: a fault, the records before it count) */
static int diff_load(struct diff_side *d, const char *path, const struct analyse_opts *o,
		     const struct log *log)
{
	struct ordered_queue *q = NULL;
	int err, read_err = 0;

	err = open_input(path, log, &d->f);
	if (err)
		return err;
	d->sym = o->sym;
	d->opts = o->an;
	if (o->event_arg && find_event(d->f, o->event_arg, &d->opts.event, log))
		return -EINVAL;
	if (resolve_time(&o->time, d->f, &d->opts, log))
		return -EINVAL;
	recorded_kernel(d->f, &d->sym);
	d->sym.log = log;
	d->opts.symbols = &d->sym;
	d->opts.log = log;
	d->opts.outputs = 0;		/* the aggregates only */
	d->opts.out_dir = NULL;
	err = analysis__new(&d->an, d->f, &d->opts);
	if (!err)
		err = ordered_queue__new(&q, d->f, deliver, d->an);
	if (!err)
		err = replay(d->f, NULL, q, o->quiet, &read_err);
	if (err && d->an && err == analysis__status(d->an))
		analysis_error(path, err, log);
	ordered_queue__delete(q);
	if (!err && !read_err)
		err = check_filters(o, d->f, d->an, log);
	return err ? err : read_err;
}

static const char *const pairing_how[] = {
	[DIFF_PAIR_NAME] = "by name",
	[DIFF_PAIR_BASE] = "by name without modifiers",
	[DIFF_PAIR_POSITION] = "by position",
};

/* " compute_b x2.0100 (+16.8200 points)" for the summary and the gate */
static void diff_row_text(struct strbuf *sb, const struct diff_row *r)
{
	char ratio[32], delta[32];

	diff__format(ratio, sizeof(ratio), r->ratio);
	diff__format(delta, sizeof(delta), r->delta);
	if (r->ratio < 0)
		strbuf__addf(sb, "%s (new, %s points)", r->function, delta);
	else
		strbuf__addf(sb, "%s x%s (%s%s points)", r->function, ratio, r->delta >= 0 ? "+" : "", delta);
}

/* how the events were paired, when not all by name; then the top changes in one line */
static void diff_notes(const struct diff *d, const struct log *log)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, n;

	for (i = 0; i < diff__nr_pairs(d); i++) {
		const struct diff_pair *p = diff__pair(d, i);

		if (p->how == DIFF_PAIR_OLD_ONLY || p->how == DIFF_PAIR_NEW_ONLY)
			log_msg(log, LOG_WARN, "diff: event %s is only in %s", p->old_name ? p->old_name : p->new_name,
				p->old_name ? "OLD" : "NEW");
		else if (p->how != DIFF_PAIR_NAME)
			log_msg(log, LOG_INFO, "diff: event %s (OLD) paired with %s (NEW) %s", p->old_name,
				p->new_name, pairing_how[p->how]);
	}
	for (i = n = 0; i < diff__nr_rows(d) && n < 3; i++) {
		const struct diff_row *r = diff__row(d, i);

		if (r->pair)	/* the first event pair only */
			break;
		strbuf__addstr(&sb, n++ ? ", " : "");
		diff_row_text(&sb, r);
	}
	if (n)
		log_msg(log, LOG_INFO, "diff: %s: %s", diff__row(d, 0)->event, sb.buf);
	strbuf__release(&sb);
}

/* --fail-above / --fail-above-ratio: say every function that crosses; 1 when any does */
static int diff_gate(const struct diff *d, const struct analyse_opts *o, const struct log *log)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int failed = 0;

	for (i = 0; i < diff__nr_rows(d); i++) {
		const struct diff_row *r = diff__row(d, i);
		int big = r->pct[0] >= o->fail_min || r->pct[1] >= o->fail_min;
		int over = o->fail_above >= 0 && r->delta > o->fail_above;

		if (o->fail_ratio >= 0 && big && r->period[1] && (r->ratio < 0 || r->ratio > o->fail_ratio))
			over = 1;
		if (!over)
			continue;
		strbuf__reset(&sb);
		diff_row_text(&sb, r);
		log_msg(log, LOG_ERR, "diff: regression: %s %s %s", r->event, r->dso, sb.buf);
		failed = 1;
	}
	strbuf__release(&sb);
	return failed;
}

static int cmd_diff(int argc, char **argv, struct logger *lg, const struct log *log)
{
	struct analyse_opts o;
	struct diff_side side[2];
	struct diff *d = NULL;
	int code, err = 0, fault = 0, i;

	memset(side, 0, sizeof(side));
	code = parse_analyse_opts(argc, argv, lg, &o, 1);
	if (code >= 0)
		goto out;
	if (argc - optind != 2) {
		fputs("usage: readperf diff [OPTIONS] OLD NEW   (readperf -h lists the options)\n", stderr);
		code = EXIT_USAGE;
		goto out;
	}
	err = fs__mkdir_p(o.outdir);
	if (err) {
		log_msg(log, LOG_ERR, "%s: cannot create: %s", o.outdir, strerror(-err));
		code = EXIT_SYSTEM;
		goto out;
	}
	for (i = 0; i < 2 && !err; i++) {
		err = diff_load(&side[i], argv[optind + i], &o, log);
		/* a damaged file still compares by what was read before the fault */
		if (err == -EINVAL && side[i].an) {
			fault = err;
			err = 0;
		}
	}
	if (!err)
		err = diff__new(&d, side[0].an, side[1].an, o.sort);
	if (!err) {
		diff_notes(d, log);
		err = diff__write(d, o.outdir);
		if (err)
			log_msg(log, LOG_ERR, "%s/diff.csv: cannot write: %s", o.outdir, strerror(-err));
	}
	if (err == -ENOMEM)
		log_msg(log, LOG_ERR, "out of memory");
	code = exit_for(err ? err : fault);
	for (i = 0; i < 2 && !err; i++)
		analysis__save_symbol_cache(side[i].an);
	if (!err && diff_gate(d, &o, log) && code == EXIT_OK)
		code = EXIT_REGRESSION;
	diff__delete(d);
out:
	for (i = 0; i < 2; i++) {
		analysis__delete(side[i].an);
		perf_file__delete(side[i].f);
	}
	analyse_opts__release(&o);
	return code;
}

/* ---------------------------------------------------------------- header, dump */

/* flush stdout; a failed write is said, not swallowed */
static int stdout_failed(const struct log *log)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	log_msg(log, LOG_ERR, "standard output: %s", strerror(errno ? errno : EIO));
	return 1;
}

/*
 * readperf header|dump [--] FILE: -h/--help prints the usage (EXIT_OK), a
 * wrong call one line and Try (EXIT_USAGE); -1: go on with argv[1].
 */
static int one_file_arg(int *argc, char ***argv, const char *cmd, const char *what)
{
	if (*argc == 2 && (!strcmp((*argv)[1], "-h") || !strcmp((*argv)[1], "--help"))) {
		printf("usage: readperf %s FILE\n%s ('-' reads a pipe-mode stream from stdin)\n", cmd, what);
		return EXIT_OK;
	}
	if (*argc == 3 && !strcmp((*argv)[1], "--")) {
		(*argv)++;
		(*argc)--;
	} else if (*argc == 2 && (*argv)[1][0] == '-' && (*argv)[1][1]) {
		fprintf(stderr, "readperf %s: unknown option '%s'\nTry 'readperf %s --help'\n", cmd, (*argv)[1], cmd);
		return EXIT_USAGE;
	}
	if (*argc != 2) {
		fprintf(stderr, "readperf %s: usage: readperf %s FILE\nTry 'readperf %s --help'\n", cmd, cmd, cmd);
		return EXIT_USAGE;
	}
	return -1;
}

static int cmd_header(int argc, char **argv, const struct log *log)
{
	const struct perf_features *ft;
	const struct perf_evlist *el;
	struct perf_file *f;
	const char *section = "";
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int err;

	err = one_file_arg(&argc, &argv, "header", "print the header and every feature section of FILE");
	if (err >= 0)
		return err;
	err = open_input(argv[1], log, &f);
	if (err)
		return exit_for(err);
	ft = perf_file__features(f);
	el = perf_file__evlist(f);
	if (perf_file__info(f)->format == PERF_FORMAT_PIPE) {
		struct perf_record rec;
		int r;

		/* a pipe carries its attrs and features as records */
		while ((r = perf_file__next(f, &rec)) > 0)
			;
		err = r;
	}
	for (i = 0; i < ft->facts.len; i++) {
		const struct perf_fact *fact = &ARRAY_AT(&ft->facts, struct perf_fact, i);

		if (strcmp(section, fact->section)) {
			section = fact->section;
			printf("# %s\n", section);
		}
		printf("#   %s: %s\n", fact->key, fact->value);
	}
	printf("# events\n");
	for (i = 0; i < el->nr; i++) {
		const struct perf_evattr *a = &el->attrs[i];

		strbuf__reset(&sb);
		perf_sample_type__format(a->attr.sample_type, &sb);
		printf("#   %s: type=%u config=%#llx size=%u %s=%llu sample_type=%s ids=%zu\n",
		       a->name, a->attr.type, (unsigned long long)a->attr.config, a->file_attr_size,
		       a->attr.freq ? "sample_freq" : "sample_period",
		       (unsigned long long)a->attr.sample_period, sb.buf, a->nr_ids);
	}
	strbuf__release(&sb);
	/* a broken feature section or a cut data section: said above, and exit 2 */
	if (!err)
		err = perf_file__status(f);
	perf_file__delete(f);
	if (stdout_failed(log))
		return EXIT_SYSTEM;
	return exit_for(err < 0 ? err : 0);
}

static int cmd_dump(int argc, char **argv, const struct log *log)
{
	struct strbuf sb = STRBUF_INIT;
	struct perf_file *f;
	struct perf_record rec;
	int err, r;

	err = one_file_arg(&argc, &argv, "dump", "print every decoded record of FILE, one per line (for debugging)");
	if (err >= 0)
		return err;
	err = open_input(argv[1], log, &f);
	if (err)
		return exit_for(err);
	while ((r = perf_file__next(f, &rec)) > 0) {
		strbuf__reset(&sb);
		if (perf_record__dump(&rec, &sb)) {
			r = -ENOMEM;
			break;
		}
		fwrite(sb.buf, 1, sb.len, stdout);
		if (!sb.len || sb.buf[sb.len - 1] != '\n')
			putchar('\n');
	}
	strbuf__release(&sb);
	perf_file__delete(f);
	if (stdout_failed(log))
		return EXIT_SYSTEM;
	return exit_for(r < 0 ? r : 0);
}

/* ---------------------------------------------------------------- record, stat */

static const char record_usage[] =
	"usage: readperf record [OPTIONS] [--] [CMD ARGS...]\n"
	"record samples of CMD (or of -a, -C, -p, -t) into a perf.data file perf and readperf read\n"
	"\n"
	"  -e, --event EVENT,...  events to sample (default cpu-clock): cpu-clock, task-clock,\n"
	"                         page-faults, context-switches, ..., tracepoints SUBSYS:NAME\n"
	"  -c, --count N          sample every N events (a fixed period)\n"
	"  -F, --freq HZ          sample HZ times a second (default 4000), or 'max'\n"
	"  -g                     record callchains (frame pointers)\n"
	"  --call-graph MODE      fp (as -g), or dwarf[,SIZE]: the kernel chain, the user registers\n"
	"                         and SIZE bytes of user stack (default 8192) to unwind with DWARF CFI\n"
	"  -a, --all-cpus         every process on every CPU (system-wide)\n"
	"  -C, --cpu LIST         these CPUs only (1,3 or 0-2)\n"
	"  -p, --pid PID          an existing process\n"
	"  -t, --tid TID          an existing thread\n"
	"  -o, --output FILE      the output file (default perf.data, kept as perf.data.old; '-': a pipe\n"
	"                         on stdout)\n"
	"  -m, --mmap-pages N     ring buffer pages per CPU, a power of two\n"
	"  -N, --no-buildid-cache do not save the binaries with samples into the build-id cache\n"
	"  --buildid-dir DIR      the build-id cache (default $PERF_BUILDID_DIR, else ~/.debug), where\n"
	"                         the binaries with samples are kept so a rebuilt one still resolves\n"
	"  -q, --quiet            no messages but errors\n"
	"  -h, --help             this text\n"
	"the command's exit status is readperf record's when the command fails, as perf does\n";
static const char stat_usage[] =
	"usage: readperf stat [OPTIONS] [--] CMD ARGS...\n"
	"count events while CMD runs, as perf stat (scaled when the kernel multiplexed them)\n"
	"\n"
	"  -e, --event EVENT,...  events to count (default task-clock,context-switches,\n"
	"                         cpu-migrations,page-faults)\n"
	"  -a, --all-cpus         every CPU while CMD runs\n"
	"  -C, --cpu LIST         these CPUs only\n"
	"  -p, --pid PID          an existing process (with CMD as the duration)\n"
	"  -t, --tid TID          an existing thread\n"
	"  -x, --field-separator SEP  CSV-like output with SEP between the fields, as perf stat -x\n"
	"  -q, --quiet            no messages but errors\n"
	"  -h, --help             this text\n";

struct capture_args {
	struct capture_evlist el;
	struct capture_opts opts;	/* mode is chosen by the run */
	const char *output;		/* record -o ("-": stdout, pipe format) */
	const char *sep;		/* stat -x */
	const char *buildid_dir;	/* record --buildid-dir */
	int no_buildid_cache;		/* record -N, --no-buildid-cache */
	int quiet;
	char **cmd;			/* NULL-terminated (the tail of main's argv), or NULL */
	int cmd_argc;
};

static int parse_num(const char *s, uint64_t max, uint64_t *out)
{
	char *end;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	*out = strtoull(s, &end, 0);
	if (errno || *end || *out > max)
		return -EINVAL;
	return 0;
}

/* --call-graph fp|dwarf[,SIZE] as perf spells it; 0, or -EINVAL after a message */
static int parse_call_graph(struct capture_args *a, const char *val, const struct log *log)
{
	uint64_t v = 8192;

	if (!strcmp(val, "fp")) {
		a->opts.callchain = 1;
		a->opts.dwarf_stack = 0;
		return 0;
	}
	if (strncmp(val, "dwarf", 5) || (val[5] && (val[5] != ',' || parse_num(val + 6, 65528, &v) || !v || v % 8))) {
		log_msg(log, LOG_ERR, "--call-graph wants fp, dwarf or dwarf,SIZE (SIZE a multiple of 8 up to 65528), "
			"not '%s'", val);
		return -EINVAL;
	}
	a->opts.callchain = 1;
	a->opts.dwarf_stack = (uint32_t)v;
	return 0;
}

/* one capture option (getopt_long's c) into a; 0, or -EINVAL after a message */
static int capture_opt(struct capture_args *a, int c, const char *val, int *targets, const struct log *log)
{
	uint64_t v;

	switch (c) {
	case 'e':
		return capture_evlist__parse(&a->el, val, log) ? -EINVAL : 0;
	case 'g':
		a->opts.callchain = 1;
		return 0;
	case 'a':
		a->opts.target = CAPTURE_TARGET_SYSTEM;
		break;
	case 'q':
		a->quiet = 1;
		return 0;
	case 'C':
		a->opts.target = CAPTURE_TARGET_CPUS;
		a->opts.cpu_list = val;
		break;
	case 'p':
	case 't':
		if (parse_num(val, INT_MAX, &v) || v == 0) {
			log_msg(log, LOG_ERR, "-%c needs a process id, not '%s'", c, val);
			return -EINVAL;
		}
		a->opts.target = c == 't' ? CAPTURE_TARGET_TID : CAPTURE_TARGET_PID;
		a->opts.pid = (pid_t)v;
		break;
	case 'c':
		if (parse_num(val, UINT64_MAX, &v) || v == 0) {
			log_msg(log, LOG_ERR, "-c needs a positive sample period, not '%s'", val);
			return -EINVAL;
		}
		a->opts.period = v;
		return 0;
	case 'F':
		if (!strcmp(val, "max")) {
			v = recorder__max_freq();
		} else if (parse_num(val, UINT32_MAX, &v) || v == 0) {
			log_msg(log, LOG_ERR, "-F needs a positive frequency in Hz, not '%s'", val);
			return -EINVAL;
		}
		a->opts.freq = v;
		return 0;
	case 'o':
		if (!*val) {
			log_msg(log, LOG_ERR, "-o needs a file name");
			return -EINVAL;
		}
		a->output = val;
		return 0;
	case 'm':
		if (parse_num(val, 1u << 20, &v) || v == 0 || (v & (v - 1))) {
			log_msg(log, LOG_ERR, "--mmap-pages needs a power of two, not '%s'", val);
			return -EINVAL;
		}
		a->opts.mmap_pages = (unsigned)v;
		return 0;
	case 'G':
		return parse_call_graph(a, val, log);
	case 'N':
		a->no_buildid_cache = 1;
		return 0;
	case 'B':
		a->buildid_dir = val;
		return 0;
	case 'x':
		if (!*val) {
			log_msg(log, LOG_ERR, "-x needs a separator: one or more characters");
			return -EINVAL;
		}
		a->sep = val;
		return 0;
	}
	(*targets)++;
	return 0;
}

/*
 * Options of record (is_stat 0) or stat, with getopt_long; argv[0] is the
 * subcommand and the command to run follows the options (after "--" or the
 * first non-option: "+" stops there, so the command's own options are its).
 * 0: go on; 1: -h printed the usage; -EINVAL: a message was printed.
 */
static int parse_capture_args(struct capture_args *a, int argc, char **argv, int is_stat, const struct log *log)
{
	static const struct option record_opts[] = {
		{ "event", required_argument, NULL, 'e' }, { "all-cpus", no_argument, NULL, 'a' },
		{ "quiet", no_argument, NULL, 'q' }, { "cpu", required_argument, NULL, 'C' },
		{ "pid", required_argument, NULL, 'p' }, { "tid", required_argument, NULL, 't' },
		{ "count", required_argument, NULL, 'c' }, { "freq", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' }, { "mmap-pages", required_argument, NULL, 'm' },
		{ "no-buildid-cache", no_argument, NULL, 'N' }, { "buildid-dir", required_argument, NULL, 'B' },
		{ "call-graph", required_argument, NULL, 'G' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	static const struct option stat_opts[] = {
		{ "event", required_argument, NULL, 'e' }, { "all-cpus", no_argument, NULL, 'a' },
		{ "quiet", no_argument, NULL, 'q' }, { "cpu", required_argument, NULL, 'C' },
		{ "pid", required_argument, NULL, 'p' }, { "tid", required_argument, NULL, 't' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	const char *name = is_stat ? "stat" : "record";
	int c, targets = 0;

	memset(a, 0, sizeof(*a));
	capture_evlist__init(&a->el);
	a->opts.target = CAPTURE_TARGET_CMD;
	a->output = "perf.data";
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, is_stat ? "+:e:aqC:p:t:x:h" : "+:e:gaqC:p:t:c:F:o:m:Nh",
				is_stat ? stat_opts : record_opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(is_stat ? stat_usage : record_usage, stdout);
			capture_evlist__release(&a->el);
			return 1;
		}
		if (c == ':' || c == '?') {
			fprintf(stderr, "readperf %s: %s '%s'\nTry 'readperf %s --help'\n", name,
				c == ':' ? "this option needs a value:" : "unknown or ambiguous option",
				argv[optind - 1], name);
			goto bad;
		}
		if (capture_opt(a, c, optarg, &targets, log))
			goto bad;
	}
	if (targets > 1) {
		log_msg(log, LOG_ERR, "-a, -C, -p and -t exclude each other");
		goto bad;
	}
	if (optind < argc) {
		a->cmd = argv + optind;
		a->cmd_argc = argc - optind;
	}
	if (a->opts.target == CAPTURE_TARGET_CMD && !a->cmd) {
		log_msg(log, LOG_ERR, "no command given (and none of -a, -C, -p, -t)");
		goto bad;
	}
	if (is_stat && !a->cmd) {
		log_msg(log, LOG_ERR, "readperf stat needs a command to run (it counts while the command runs)");
		goto bad;
	}
	if (a->opts.period && a->opts.freq) {
		log_msg(log, LOG_ERR, "-c and -F exclude each other");
		goto bad;
	}
	if (!a->el.nr) {
		static const char *const stat_default = "task-clock,context-switches,cpu-migrations,page-faults";

		/* perf falls back from cycles to cpu-clock where there is no PMU; start there */
		if (capture_evlist__parse(&a->el, is_stat ? stat_default : "cpu-clock", log))
			goto bad;
	}
	return 0;
bad:
	capture_evlist__release(&a->el);
	return -EINVAL;
}

/* the output file; perf keeps the previous one as NAME.old */
/* record and stat end as the command did, as perf does: its exit status when it failed */
static int command_status(int status, const char *cmd, const struct log *log)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status)) {
		/* as perf: the profile is complete, the exit status says how the command ended */
		log_msg(log, LOG_WARN, "%s was killed by signal %d (%s)", cmd ? cmd : "the command", WTERMSIG(status),
			strsignal(WTERMSIG(status)));
		return 128 + WTERMSIG(status);
	}
	return EXIT_OK;
}

/* whether CMD can be started: a path that is executable, or a name found in $PATH (execvp's search) */
static int command_exists(const char *cmd)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (strchr(cmd, '/'))
		return access(cmd, X_OK) == 0;
	for (path = path ? path : "/usr/bin:/bin"; *path; path += *path == ':') {
		size_t len = strcspn(path, ":");

		if (snprintf(buf, sizeof(buf), "%.*s%s%s", (int)len, path, len ? "/" : "", cmd) < (int)sizeof(buf) &&
		    access(buf, X_OK) == 0)
			return 1;
		path += len;
	}
	return 0;
}

static int open_record_output(const char *path, int *fd)
{
	struct stat st;
	char old[PATH_MAX];

	if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    snprintf(old, sizeof(old), "%s.old", path) < (int)sizeof(old))
		rename(path, old);
	*fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	return *fd < 0 ? -errno : 0;
}

/* perf's build-id cache: $PERF_BUILDID_DIR, else ~/.debug; NULL without a home */
static const char *default_buildid_dir(char *buf, size_t size)
{
	const char *env = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");

	if (env && *env)
		return env;
	if (!home || !*home || snprintf(buf, size, "%s/.debug", home) >= (int)size)
		return NULL;
	return buf;
}

static int cmd_record(int argc, char **argv, const struct log *log)
{
	struct capture_args a;
	struct record_opts ro;
	struct record_result res;
	const char **cmdline;
	char bdir[PATH_MAX];
	int fd, err;

	err = parse_capture_args(&a, argc, argv, 0, log);
	if (err)
		return err > 0 ? EXIT_OK : EXIT_USAGE;
	/* a command that cannot start leaves the previous output as it was */
	if (a.cmd && !command_exists(a.cmd[0])) {
		log_msg(log, LOG_ERR, "%s: command not found", a.cmd[0]);
		capture_evlist__release(&a.el);
		return 127;
	}
	memset(&ro, 0, sizeof(ro));
	ro.pipe = strcmp(a.output, "-") == 0;
	if (ro.pipe) {
		fd = STDOUT_FILENO;
		ro.out_name = "stdout";
	} else {
		err = open_record_output(a.output, &fd);
		if (err) {
			log_msg(log, LOG_ERR, "%s: %s", a.output, strerror(-err));
			capture_evlist__release(&a.el);
			return EXIT_SYSTEM;
		}
		ro.out_name = a.output;
	}
	/* CMDLINE as perf stores it, the program first: "readperf record ..." */
	cmdline = calloc((size_t)argc + 1, sizeof(*cmdline));
	if (!cmdline) {
		err = -ENOMEM;
		goto out;
	}
	cmdline[0] = "readperf";
	for (int i = 0; i < argc; i++)
		cmdline[i + 1] = argv[i];
	ro.events = &a.el;
	ro.capture = a.opts;
	ro.argv = a.cmd;
	ro.out_fd = fd;
	ro.version = "readperf " READPERF_VERSION;
	ro.cmdline_argc = argc + 1;
	ro.cmdline = cmdline;
	if (!a.no_buildid_cache)
		ro.buildid_dir = a.buildid_dir ? a.buildid_dir : default_buildid_dir(bdir, sizeof(bdir));
	err = recorder__run(&ro, log, &res);
	free(cmdline);
	if (err)
		goto out;
	if (res.lost)
		log_msg(log, LOG_WARN, "%" PRIu64 " records lost (the rings overflowed): try --mmap-pages %u or a lower -F",
			res.lost, res.mmap_pages * 4);
	if (!a.quiet)
		fprintf(stderr, "[ readperf record: wrote %.3f MB %s (%" PRIu64 " samples) ]\n",
			(double)res.data_size / (1024.0 * 1024.0), ro.pipe ? "to stdout" : a.output, res.samples);
out:
	if (err == -ENOMEM)
		log_msg(log, LOG_ERR, "out of memory");
	if (!ro.pipe)
		close(fd);
	capture_evlist__release(&a.el);
	if (err)
		return EXIT_SYSTEM;
	return command_status(res.status, a.cmd ? a.cmd[0] : NULL, log);
}

static int is_clock_event(const struct capture_event *e)
{
	return e->attr.type == PERF_TYPE_SOFTWARE &&
	       (e->attr.config == PERF_COUNT_SW_TASK_CLOCK || e->attr.config == PERF_COUNT_SW_CPU_CLOCK);
}

/* perf stat's layout on stderr, or with -x its CSV: value,unit,event,run time,percent running,metric,metric unit */
static void print_stat(const struct capture_args *a, const struct count_result *res)
{
	FILE *out = stderr;
	double task_ms = 0;
	int have_task = 0;

	for (size_t i = 0; i < res->nr; i++) {
		const struct capture_event *e = &a->el.events[i];

		if (e->attr.type == PERF_TYPE_SOFTWARE && e->attr.config == PERF_COUNT_SW_TASK_CLOCK &&
		    res->counts[i].counted) {
			task_ms = res->counts[i].scaled / 1e6;
			have_task = 1;
		}
	}
	if (!a->sep) {
		fprintf(out, "\n Performance counter stats for '");
		for (int i = 0; i < a->cmd_argc; i++)
			fprintf(out, "%s%s", i ? " " : "", a->cmd[i]);
		fprintf(out, "':\n\n");
	}
	for (size_t i = 0; i < res->nr; i++) {
		const struct capture_event *e = &a->el.events[i];
		const struct capture_count *c = &res->counts[i];
		char val[64], metric[64] = "", munit[32] = "";
		const char *unit = "";
		double pct = c->ena ? 100.0 * (double)c->run / (double)c->ena : 0;

		if (!c->counted) {
			snprintf(val, sizeof(val), "<not counted>");
		} else if (is_clock_event(e)) {
			snprintf(val, sizeof(val), "%.2f", c->scaled / 1e6);
			unit = "msec";
			if (e->attr.config == PERF_COUNT_SW_TASK_CLOCK && res->elapsed > 0) {
				snprintf(metric, sizeof(metric), "%.3f", c->scaled / 1e9 / res->elapsed);
				snprintf(munit, sizeof(munit), "CPUs utilized");
			}
		} else {
			snprintf(val, sizeof(val), "%.0f", c->scaled);
			if (have_task && task_ms > 0) {
				double rate = c->scaled / (task_ms / 1e3);
				const char *u = "/sec";

				if (rate >= 1e9) {
					rate /= 1e9;
					u = "G/sec";
				} else if (rate >= 1e6) {
					rate /= 1e6;
					u = "M/sec";
				} else if (rate >= 1e3) {
					rate /= 1e3;
					u = "K/sec";
				}
				snprintf(metric, sizeof(metric), "%.3f", rate);
				snprintf(munit, sizeof(munit), "%s", u);
			}
		}
		if (a->sep) {
			fprintf(out, "%s%s%s%s%s%s%" PRIu64 "%s%.2f%s%s%s%s\n", val, a->sep, unit, a->sep, e->name, a->sep,
				c->run, a->sep, pct, a->sep, metric, a->sep, munit);
			continue;
		}
		fprintf(out, "%18s %-4s %-32s", val, unit, e->name);
		if (*metric)
			fprintf(out, " # %8s %-20s", metric, munit);
		if (c->counted && c->run < c->ena)
			fprintf(out, "  (%.2f%%)", pct);
		fprintf(out, "\n");
	}
	if (!a->sep) {
		fprintf(out, "\n %16.9f seconds time elapsed\n\n", res->elapsed);
		fprintf(out, " %16.9f seconds user\n", (double)res->utime.tv_sec + (double)res->utime.tv_usec / 1e6);
		fprintf(out, " %16.9f seconds sys\n\n", (double)res->stime.tv_sec + (double)res->stime.tv_usec / 1e6);
	}
}

static int cmd_stat(int argc, char **argv, const struct log *log)
{
	struct capture_args a;
	struct count_opts co;
	struct count_result res;
	int err, code = EXIT_OK;

	err = parse_capture_args(&a, argc, argv, 1, log);
	if (err)
		return err > 0 ? EXIT_OK : EXIT_USAGE;
	memset(&co, 0, sizeof(co));
	co.events = &a.el;
	co.capture = a.opts;
	co.argv = a.cmd;
	err = counter__run(&co, log, &res);
	if (!err) {
		print_stat(&a, &res);
		if (WIFSIGNALED(res.status) && WTERMSIG(res.status) != SIGINT)
			log_msg(log, LOG_WARN, "'%s' was killed by signal %d", a.cmd[0], WTERMSIG(res.status));
	} else if (err == -ENOMEM) {
		log_msg(log, LOG_ERR, "out of memory");
	}
	if (!err)
		code = command_status(res.status, a.cmd ? a.cmd[0] : NULL, log);
	count_result__release(&res);
	capture_evlist__release(&a.el);
	return err ? EXIT_SYSTEM : code;
}

/* ---------------------------------------------------------------- schema */

static int cmd_schema(int argc, char **argv, const struct log *log)
{
	struct strbuf sb = STRBUF_INIT;
	const char *dir = NULL, *unknown;
	int err;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs("usage: readperf schema [DIR]\n"
		      "print CREATE TABLE statements with column types for the reports (all of them, or\n"
		      "those in DIR with the columns their header rows have), for DuckDB and SQLite\n", stdout);
		return EXIT_OK;
	}
	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		fputs("readperf schema: usage: readperf schema [DIR]\nTry 'readperf schema --help'\n", stderr);
		return EXIT_USAGE;
	}
	if (argc == 2)
		dir = argv[1];
	err = schema__sql(&sb, dir, &unknown);
	if (err == -ENOENT)
		log_msg(log, LOG_ERR, "%s: no report (NAME.csv) in it", dir);
	else if (err)
		log_msg(log, LOG_ERR, "%s: %s", dir ? dir : "schema", strerror(-err));
	else if (unknown)
		log_msg(log, LOG_WARN, "%s/%s.csv has columns readperf does not know: typed TEXT", dir, unknown);
	if (!err)
		fputs(sb.buf, stdout);
	strbuf__release(&sb);
	if (!err && stdout_failed(log))
		return EXIT_SYSTEM;
	return err == -ENOENT ? EXIT_USAGE : exit_for(err);
}

int main(int argc, char **argv)
{
	struct logger lg = { 0 };
	struct log log = { print_log, &lg };

	heap__prefer_huge_pages(64u << 20);
	if (argc > 1 && !strcmp(argv[1], "header"))
		return cmd_header(argc - 1, argv + 1, &log);
	if (argc > 1 && !strcmp(argv[1], "diff"))
		return cmd_diff(argc - 1, argv + 1, &lg, &log);
	if (argc > 1 && !strcmp(argv[1], "dump"))
		return cmd_dump(argc - 1, argv + 1, &log);
	if (argc > 1 && !strcmp(argv[1], "record"))
		return cmd_record(argc - 1, argv + 1, &log);
	if (argc > 1 && !strcmp(argv[1], "stat"))
		return cmd_stat(argc - 1, argv + 1, &log);
	if (argc > 1 && !strcmp(argv[1], "schema"))
		return cmd_schema(argc - 1, argv + 1, &log);
	return cmd_analyse(argc, argv, &lg, &log);
}

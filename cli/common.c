/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The options readperf (the analysis) and readperf diff share: -o, the
 * symbol sources, the filters (-e, --pid, --tid, --comms, --dsos,
 * --symbols, --time), -q, -v; one row set both option tables use, its
 * parsing, and what the filters need of each file (the event's name in it,
 * the --time window in its timestamps, a filter that left nothing).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/analyse.h"
#include "perffile/attr.h"
#include "perffile/perffile.h"
#include "util/array.h"
#include "util/strbuf.h"

const struct cli_option analyse_shared_options[] = {
	{ 'o', "output", "DIR", "output directory (default .; created if missing)", 'o', NULL },
	{ 0, "symfs", "DIR", "look for binaries under DIR first", OPT_SYMFS, NULL },
	{ 0, "kallsyms", "FILE", "kernel symbols from FILE (default /proc/kallsyms when the\n"
	  "running kernel is the recorded one)", OPT_KALLSYMS, NULL },
	{ 0, "vmlinux", "FILE", "the kernel's code for annotate.csv and readperf annotate: an ELF with\n"
	  "the kernel functions at their kallsyms addresses (as perf annotate -k)", OPT_VMLINUX, NULL },
	{ 0, "debug-dir", "DIR", "another root for separate debug files (repeatable)", OPT_DEBUG_DIR, NULL },
	{ 0, "no-source", NULL, "skip source file and line lookups", OPT_NO_SOURCE, NULL },
	{ 0, "full-source-path", NULL, "source_file as the debug info names it (the default)",
	  OPT_FULL_SOURCE_PATH, NULL },
	{ 0, "no-demangle", NULL, "keep C++/Rust symbol names mangled", OPT_NO_DEMANGLE, NULL },
	{ 0, "unknown-addresses", NULL, "a row '[unknown] 0x1204' per address of a dso without its symbol\n(and of no map)",
	  OPT_UNKNOWN_ADDRESSES, NULL },
	{ 0, "raw-csv", NULL, "CSV text cells verbatim (by default one that begins with = + @ TAB CR\n"
	  "gets a leading ', as spreadsheets would run it as a formula)", OPT_RAW_CSV, NULL },
	{ 0, "buildid-dir", "DIR", "the build-id cache (default $PERF_BUILDID_DIR, else ~/.debug)",
	  OPT_BUILDID_DIR, NULL },
	{ 0, "symbol-cache", "DIR", "keep the symbols and source lines found per binary in DIR for the\n"
	  "next run (default $XDG_CACHE_HOME/readperf, else ~/.cache/readperf)", OPT_SYMBOL_CACHE, NULL },
	{ 0, "no-symbol-cache", NULL, "neither read nor write it", OPT_NO_SYMBOL_CACHE, NULL },
	{ 0, "no-debuginfod", NULL, "do not ask the servers of $DEBUGINFOD_URLS for binaries and\n"
	  "debug files absent here (by default they are asked, after the local places)", OPT_NO_DEBUGINFOD, NULL },
	{ 'e', "event", "NAME", "only samples of this event", 'e', NULL },
	{ 0, "pid", "LIST", "only these processes (comma-separated pids)", OPT_PID, NULL },
	{ 0, "tid", "LIST", "only these threads", OPT_TID, NULL },
	{ 0, "comms", "LIST", "only these command names (also --comm)", OPT_COMM, NULL },
	{ 0, "comm", "LIST", NULL, OPT_COMM, NULL },
	{ 0, "dsos", "LIST", "only samples in these dsos (names as results.csv prints them)", OPT_DSOS, NULL },
	{ 0, "symbols", "LIST", "only samples in these functions\n"
	  "a filter that leaves no sample is an error (exit 2) naming what is there", OPT_SYMBOLS, NULL },
	{ 0, "focus", "LIST", "only samples whose stack holds one of these functions (any frame);\n"
	  "totals and percentages are of the kept samples", OPT_FOCUS, NULL },
	{ 0, "ignore", "LIST", "leave out the samples whose stack holds one of these functions", OPT_IGNORE, NULL },
	{ 0, "time", "START,END", "only samples in this time window: perf timestamps in ns,\n"
	  "seconds with a '.' (as perf script prints), or +S seconds after\n"
	  "the first sample; either may be empty. Also perf's P%/N (the N-th\n"
	  "P% slice of the recording) and A%-B%", OPT_TIME, NULL },
	{ 'q', "quiet", NULL, "no summary, warnings or progress (errors only)", 'q', NULL },
	{ 'v', "verbose", NULL, "also what a run does step by step (files, symbol sources, the cache)", 'v', NULL },
	{ 'h', "help", NULL, "this text", 'h', NULL },
	{ 0, "version", NULL, "print the version", OPT_VERSION, NULL },
	CLI_OPT_END,
};

/* ---------------------------------------------------------------- --time */

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

/* one side of START,END: +S is seconds after the first sample, with or without a '.' (+2 is 2 s, not 2 ns) */
static int parse_time_side(const char *s, size_t len, struct time_spec *ts, int i)
{
	int err;

	if (!len || s[0] != '+')
		return parse_time(s, len, &ts->val[i]);
	ts->rel[i] = 1;
	s++;
	len--;
	if (!len)
		return -EINVAL;
	err = parse_time(s, len, &ts->val[i]);
	if (err || memchr(s, '.', len))
		return err;
	if (ts->val[i] > UINT64_MAX / 1000000000u)
		return -EINVAL;
	ts->val[i] *= 1000000000u;
	return 0;
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

int resolve_time(const struct time_spec *ts, const struct perf_file *f, struct analysis_opts *an,
		 const struct log *log)
{
	const struct perf_features *ft = perf_file__features(f);
	uint64_t first = ft->first_sample_time, last = ft->last_sample_time, dur;
	int i;

	if (!ts->set)
		return 0;
	an->has_time = 1;
	if ((ts->pct || ts->rel[0] || ts->rel[1]) && (!last || last < first)) {
		int pipe = perf_file__info(f)->format == PERF_FORMAT_PIPE;

		log_msg(log, LOG_ERR, "%s: --time with %% or +seconds needs the first and last sample time, %s",
			perf_file__name(f), pipe ? "which a pipe-mode recording (perf record -o -) cannot have: its "
			"header goes out before the first sample; give times in seconds (--time START,END)" :
			"which the file does not have (perf record writes them since perf 5.x)");
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

/* ---------------------------------------------------------------- the options */

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

/* 1 when every <, (, [ and { of s is closed in order (by any closing bracket), else 0 */
static int brackets_balance(const char *s)
{
	int depth = 0;

	for (; *s; s++) {
		if (strchr("<([{", *s))
			depth++;
		else if (strchr(">)]}", *s) && --depth < 0)
			return 0;
	}
	return depth == 0;
}

/*
 * the ',' that ends the name at p, or its end: with nested, the first one
 * outside brackets (a C++ name such as 'f<int, long>' or 'g(int, char)' is
 * one name, as results.csv prints it)
 */
static char *name_end(char *p, int nested)
{
	int depth = 0;

	for (; *p && (*p != ',' || depth > 0); p++) {
		if (!nested)
			continue;
		if (strchr("<([{", *p))
			depth++;
		else if (strchr(">)]}", *p))
			depth--;
	}
	return p;
}

/*
 * --comms, --dsos, --symbols, --focus, --ignore (which: 0 to 4): comma-separated names, at most 64;
 * function names are split at the commas outside brackets when the brackets balance
 * (with 'operator<' among them they do not: split at every comma)
 */
static int parse_name_list(struct analyse_opts *o, int which, const char *arg)
{
	static const char *const names[] = { "--comms", "--dsos", "--symbols", "--focus", "--ignore" };
	char **store[] = { &o->comm_list, &o->dso_list, &o->sym_list, &o->focus_list, &o->ignore_list };
	const char **arr[] = { o->comms, o->dsos, o->syms, o->focus, o->ignore };
	size_t *nr[] = { &o->an.nr_comms, &o->an.nr_dsos, &o->an.nr_syms, &o->an.nr_focus, &o->an.nr_ignore };
	int nested = which >= 2 && brackets_balance(arg);
	char *tok, *end;

	free(*store[which]);
	*store[which] = strdup(arg);
	if (!*store[which])
		return -ENOMEM;
	*nr[which] = 0;
	for (tok = *store[which]; *tok; tok = end + 1) {
		end = name_end(tok, nested);
		if (end > tok && *nr[which] == 64) {
			fprintf(stderr, "readperf: %s takes at most 64 names\n", names[which]);
			return -EINVAL;
		}
		if (end > tok)
			arr[which][(*nr[which])++] = tok;
		if (!*end)
			break;
		*end = '\0';
	}
	if (!*nr[which]) {
		fprintf(stderr, "readperf: %s wants names\n", names[which]);
		return -EINVAL;
	}
	o->an.comms = o->comms;
	o->an.dsos = o->dsos;
	o->an.syms = o->syms;
	o->an.focus = o->focus;
	o->an.ignore = o->ignore;
	return 0;
}

void analyse_opts__init(struct analyse_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->input = "perf.data";
	o->outdir = ".";
	o->reports = analyse_default_reports();
	o->profile_col = -1;
	o->fail_unknown = -1;
	o->sym.stop = stop_signal;
}

void analyse_opts__release(struct analyse_opts *o)
{
	free(o->cache_dir);
	free(o->comm_list);
	free(o->dso_list);
	free(o->sym_list);
	free(o->focus_list);
	free(o->ignore_list);
	free(o->args);
}

int analyse_opts__args(struct analyse_opts *o, int argc, char **argv)
{
	o->nr_args = argc > 1 ? (size_t)argc - 1 : 0;
	o->args = calloc(o->nr_args + 1, sizeof(*o->args));
	if (!o->args)
		return -ENOMEM;
	memcpy(o->args, argv + 1, o->nr_args * sizeof(*o->args));
	return 0;
}

/* is dir ours (root running with a user's HOME, as sudo may keep it, must not leave root's files there)? */
static int owned(const char *dir)
{
	struct stat st;

	return !stat(dir, &st) && st.st_uid == geteuid();
}

/*
 * dir, or the nearest of its parents that exists, is this user's: root with
 * another user's XDG_CACHE_HOME (sudo keeps it) would make a root-owned cache
 * in that user's directory
 */
static int owned_or_parent(const char *dir)
{
	char *d = strdup(dir), *slash;
	struct stat st;
	int r = 0;

	while (d && *d) {
		if (!stat(d, &st)) {
			r = st.st_uid == geteuid();
			break;
		}
		slash = strrchr(d, '/');
		if (!slash || !strcmp(d, "/"))
			break;
		slash[slash == d] = '\0';	/* "/x" -> "/" */
	}
	free(d);
	return r;
}

/*
 * How many of v[0, n) are "-": an output there, or an input read from
 * there, can be only one (two outputs would mix on standard output, and a
 * stream is read once: a second '-' would read what the first left, or nothing)
 */
size_t count_dashes(const char *const *v, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		k += v[i] && !strcmp(v[i], "-");
	return k;
}

/* two '-' among what: said (a usage error) */
int dash_twice(const char *what)
{
	fprintf(stderr, "readperf: '-' given for two %s: standard %s can be only one of them\n", what,
		!strcmp(what, "inputs") ? "input" : "output");
	return EXIT_USAGE;
}

/*
 * The symbol cache: --symbol-cache DIR, else $XDG_CACHE_HOME/readperf when
 * it (or its nearest existing parent) is the user's own, else
 * ~/.cache/readperf when HOME is the user's own; none with
 * --no-symbol-cache or without a home; --focus-root without --focus is a usage error.
 */
int analyse_opts__finish(struct analyse_opts *o)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n = 0;

	if (o->an.focus_root && !o->an.nr_focus) {
		fputs("readperf: --focus-root starts the stacks at the --focus function: give --focus FUNC\n", stderr);
		return EXIT_USAGE;
	}
	if (count_dashes(o->paths, REPORT_MAX_OUTPUTS) > 1)
		return dash_twice("outputs");
	if (o->no_symbol_cache) {
		o->sym.cache_dir = NULL;
		return -1;
	}
	if (o->sym.cache_dir)
		return -1;
	if (xdg && *xdg == '/' && owned_or_parent(xdg))
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

/* the symbol sources; -1 to go on, else the exit code */
static int symbol_opt(struct analyse_opts *o, int id, const char *arg)
{
	switch (id) {
	case OPT_SYMFS:
		o->sym.symfs = arg;
		break;
	case OPT_KALLSYMS:
	case OPT_VMLINUX:
		/* named by the user: a file that cannot be read is an error, not a warning */
		if (access(arg, R_OK)) {
			fprintf(stderr, "readperf: --%s %s: %s\n", id == OPT_KALLSYMS ? "kallsyms" : "vmlinux", arg,
				strerror(errno));
			return EXIT_SYSTEM;
		}
		*(id == OPT_KALLSYMS ? &o->sym.kallsyms : &o->sym.vmlinux) = arg;
		break;
	case OPT_DEBUG_DIR:
		if (o->sym.nr_debug_dirs == sizeof(o->debug_dirs) / sizeof(o->debug_dirs[0])) {
			fputs("readperf: too many --debug-dir\n", stderr);
			return EXIT_USAGE;
		}
		o->debug_dirs[o->sym.nr_debug_dirs++] = arg;
		o->sym.debug_dirs = o->debug_dirs;
		break;
	case OPT_NO_SOURCE:
		o->sym.no_source = 1;
		break;
	case OPT_FULL_SOURCE_PATH:	/* the default: source_file is the full path */
		break;
	case OPT_NO_DEMANGLE:
		o->sym.no_demangle = 1;
		break;
	case OPT_UNKNOWN_ADDRESSES:
		o->an.unknown_addresses = 1;
		break;
	case OPT_RAW_CSV:
		o->an.raw_csv = 1;
		break;
	case OPT_BUILDID_DIR:
		o->sym.buildid_dir = arg;
		break;
	case OPT_SYMBOL_CACHE:
		o->sym.cache_dir = arg;
		break;
	case OPT_NO_SYMBOL_CACHE:
		o->no_symbol_cache = 1;
		break;
	case OPT_NO_DEBUGINFOD:
		o->sym.no_debuginfod = 1;
		break;
	}
	return -1;
}

/* --time: a window the file is then asked to place; -1 to go on, else the exit code */
static int time_opt(struct analyse_opts *o, const char *arg)
{
	if (parse_time_spec(arg, &o->time)) {
		fprintf(stderr, "readperf: --time wants START,END (ns, s.frac or +s from the first sample), "
			"P%%/N or A%%-B%%, not '%s'\n", arg);
		return EXIT_USAGE;
	}
	if (!o->time.pct && !o->time.rel[0] && !o->time.rel[1] && o->time.val[0] && o->time.val[1] &&
	    o->time.val[0] > o->time.val[1]) {
		fprintf(stderr, "readperf: --time %s: START is after END\n", arg);
		return EXIT_USAGE;
	}
	return -1;
}

/* -e and the filters; -1 to go on, else the exit code */
static int filter_opt(struct analyse_opts *o, int id, const char *arg)
{
	switch (id) {
	case 'e':
		if (!*arg) {
			fputs("readperf: -e wants an event name\n", stderr);
			return EXIT_USAGE;
		}
		o->event_arg = arg;
		break;
	case OPT_PID:
		if (parse_u32_list(arg, o->pids, 256, &o->an.nr_pids)) {
			fprintf(stderr, "readperf: --pid wants comma-separated numbers, not '%s'\n", arg);
			return EXIT_USAGE;
		}
		o->an.pids = o->pids;
		break;
	case OPT_TID:
		if (parse_u32_list(arg, o->tids, 256, &o->an.nr_tids)) {
			fprintf(stderr, "readperf: --tid wants comma-separated numbers, not '%s'\n", arg);
			return EXIT_USAGE;
		}
		o->an.tids = o->tids;
		break;
	case OPT_COMM:
	case OPT_DSOS:
	case OPT_SYMBOLS:
	case OPT_FOCUS:
	case OPT_IGNORE:
		if (parse_name_list(o, id == OPT_COMM ? 0 : id == OPT_DSOS ? 1 : id == OPT_SYMBOLS ? 2 :
				    id == OPT_FOCUS ? 3 : 4, arg))
			return EXIT_USAGE;
		break;
	case OPT_TIME:
		return time_opt(o, arg);
	}
	return -1;
}

int analyse_opts__shared(struct analyse_opts *o, struct cli *cli, int id, const char *arg)
{
	switch (id) {
	case 'o':
		if (!*arg || !strcmp(arg, "-")) {
			fputs("readperf: -o wants a directory for the reports\n", stderr);
			return EXIT_USAGE;
		}
		o->outdir = arg;
		return -1;
	case 'q':
		cli->quiet = o->quiet = 1;
		return -1;
	case 'v':
		cli->verbose = 1;
		return -1;
	case OPT_VERSION:
		printf("readperf %s\n", READPERF_VERSION);
		return EXIT_OK;
	case 'e':
	case OPT_PID:
	case OPT_TID:
	case OPT_COMM:
	case OPT_DSOS:
	case OPT_SYMBOLS:
	case OPT_FOCUS:
	case OPT_IGNORE:
	case OPT_TIME:
		return filter_opt(o, id, arg);
	}
	return symbol_opt(o, id, arg);
}

/* ---------------------------------------------------------------- per file */

void recorded_kernel(const struct perf_file *f, struct symbols_opts *so)
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
 * "page-faults" for "page-faults/period=5/").  No match, or two, is
 * -EINVAL, said with the events of the file: bad input (exit 2) as a
 * filter that leaves no sample, not a usage error, for the command line is
 * right and the file lacks what it asks (in a batch, one file of many).
 */
int find_event(const struct perf_file *f, const char *want, const char **name, const struct log *log)
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

static int filters_given(const struct analyse_opts *o)
{
	const struct analysis_opts *an = &o->an;

	return an->nr_pids || an->nr_tids || an->nr_comms || an->nr_dsos || an->nr_syms ||
	       an->nr_focus || an->nr_ignore || o->time.set;
}

/* --focus is the only filter (readperf tree's FUNCTION...): its names, ", "-joined, into *sb */
static int focus_only(const struct analyse_opts *o, struct strbuf *sb)
{
	const struct analysis_opts *an = &o->an;
	size_t i;

	if (an->nr_pids || an->nr_tids || an->nr_comms || an->nr_dsos || an->nr_syms || an->nr_ignore ||
	    o->time.set || !an->nr_focus)
		return 0;
	for (i = 0; i < an->nr_focus; i++)
		if (strbuf__addf(sb, "%s%s", i ? ", " : "", an->focus[i]) < 0)
			return 0;
	return 1;
}

/* whether a function of that name has samples of its own, or (on_stack) samples whose stack holds it */
static int has_samples(const struct analysis *an, const char *name, int on_stack)
{
	size_t i, n = analysis__nr_funcs(an);

	for (i = 0; i < n; i++) {
		const struct func_stat *fs = analysis__func(an, i);

		if ((fs->samples || (on_stack && fs->ch_samples)) && !strcmp(fs->function, name))
			return 1;
	}
	return 0;
}

int check_named(const char *path, const struct analysis *an, const char *const *names, size_t n, int on_stack,
		const char *what, const struct log *log)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int err = 0;

	for (i = 0; i < n && !err; i++)
		if (!has_samples(an, names[i], on_stack))
			err = strbuf__addf(&sb, "%s%s", sb.len ? ", " : "", names[i]);
	if (!sb.len && !err)
		return 0;
	log_msg(log, LOG_ERR, "%s: %s %s (as results.csv names functions)", path, what,
		err ? "a function named" : sb.buf);
	strbuf__release(&sb);
	return -EINVAL;
}

int check_filters(const struct analyse_opts *o, const struct perf_file *f, const struct analysis *an,
		  const struct log *log)
{
	struct analysis_stats st;
	struct strbuf sb = STRBUF_INIT, names = STRBUF_INIT;

	if (!an || !filters_given(o))
		return 0;
	analysis__stats(an, &st);
	if (st.samples && o->each_focus)
		return check_named(perf_file__name(f), an, o->an.focus, o->an.nr_focus, 1, "no stack holds", log);
	if (st.samples)
		return 0;
	if (!st.filtered) {
		log_msg(log, LOG_ERR, "%s: no sample passes the filters: the file has no samples%s", perf_file__name(f),
			o->an.event ? " of that event" : "");
		return -EINVAL;
	}
	analysis__describe(an, &sb);
	if (st.syms_on_stack)
		log_msg(log, LOG_ERR, "%s: no sample passes the filters: --symbols keeps the samples taken in "
			"those functions, which are only callers on the stacks here; --focus keeps the samples "
			"whose stack holds them", perf_file__name(f));
	else if (focus_only(o, &names))
		log_msg(log, LOG_ERR, "%s: no sample passes the filters: no stack holds %s (as results.csv "
			"names functions); the file has %s", perf_file__name(f), names.buf,
			sb.len ? sb.buf : "no process");
	else
		log_msg(log, LOG_ERR, "%s: no sample passes the filters (--pid, --tid, --comms, --dsos, --symbols, "
			"--focus, --ignore, --time); the file has %s", perf_file__name(f), sb.len ? sb.buf : "no process");
	strbuf__release(&sb);
	strbuf__release(&names);
	return -EINVAL;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * readperf: the command line.  Parses options, calls the modules, prints
 * their messages, chooses the exit code.  Nothing else in the tree prints or
 * exits.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decode/analysis.h"
#include "decode/filestat.h"
#include "decode/symbols.h"
#include "perffile/ordered.h"
#include "perffile/perffile.h"
#include "util/log.h"
#include "util/progress.h"
#include "util/strbuf.h"

#define READPERF_VERSION "0.1.0"

enum exit_code {
	EXIT_OK = 0,		/* success */
	EXIT_USAGE = 1,		/* bad command line */
	EXIT_BAD_INPUT = 2,	/* malformed or truncated input */
	EXIT_SYSTEM = 3,	/* I/O or system error */
};

struct logger {
	int quiet;
};

static void print_log(void *ctx, enum log_level level, const char *msg)
{
	const struct logger *lg = ctx;

	if (lg->quiet && level != LOG_ERR)
		return;
	if (level == LOG_DEBUG)
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
	      "       readperf header FILE               print the header and every feature section\n"
	      "       readperf dump FILE                 print every decoded record (for debugging)\n"
	      "\n"
	      "options:\n"
	      "  -o DIR              output directory (default .; created if missing)\n"
	      "  --reports LIST      reports to write, comma-separated (default all):\n"
	      "                      stat,events,header,overview,processes,results,lines,callers\n"
	      "  --symfs DIR         look for binaries under DIR first\n"
	      "  --kallsyms FILE     kernel symbols from FILE (default /proc/kallsyms when the\n"
	      "                      running kernel is the recorded one)\n"
	      "  --debug-dir DIR     another root for separate debug files (repeatable)\n"
	      "  --no-source         skip source file and line lookups\n"
	      "  -e, --event NAME    only samples of this event\n"
	      "  --pid LIST          only these processes (comma-separated pids)\n"
	      "  --tid LIST          only these threads\n"
	      "  --comm LIST         only these command names\n"
	      "  --time START,END    only samples in this time window: perf timestamps in ns,\n"
	      "                      or seconds with a '.' (as perf script prints); either may be empty\n"
	      "  -q, --quiet         no warnings or progress\n"
	      "  -h, --help          this text\n"
	      "  --version           print the version\n"
	      "\n"
	      "exit codes: 0 ok, 1 usage, 2 bad input, 3 I/O or system error\n", fp);
}

/* ---------------------------------------------------------------- reports */

enum report_bit {
	R_OVERVIEW = REPORT_OVERVIEW,
	R_PROCESSES = REPORT_PROCESSES,
	R_RESULTS = REPORT_RESULTS,
	R_LINES = REPORT_LINES,
	R_CALLERS = REPORT_CALLERS,
	R_ANALYSIS = R_OVERVIEW | R_PROCESSES | R_RESULTS | R_LINES | R_CALLERS,
	R_STAT = 1 << 8,
	R_EVENTS = 1 << 9,
	R_HEADER = 1 << 10,
};

static const struct {
	const char *name;
	unsigned bit;
} report_names[] = {
	{ "stat", R_STAT },
	{ "events", R_EVENTS },
	{ "header", R_HEADER },
	{ "overview", R_OVERVIEW },
	{ "processes", R_PROCESSES },
	{ "results", R_RESULTS },
	{ "lines", R_LINES },
	{ "callers", R_CALLERS },
};

#define NR_REPORTS (sizeof(report_names) / sizeof(report_names[0]))

static int parse_reports(const char *list, unsigned *mask)
{
	char *copy = strdup(list), *tok, *save = NULL;
	size_t i;

	if (!copy)
		return -ENOMEM;
	*mask = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t len = strlen(tok);

		if (len > 4 && !strcmp(tok + len - 4, ".csv"))
			tok[len - 4] = '\0';
		for (i = 0; i < NR_REPORTS; i++)
			if (!strcmp(tok, report_names[i].name))
				break;
		if (i == NR_REPORTS) {
			fprintf(stderr, "readperf: unknown report '%s'\n", tok);
			free(copy);
			return -EINVAL;
		}
		*mask |= report_names[i].bit;
	}
	free(copy);
	return 0;
}

static int mkdir_p(const char *dir)
{
	char path[PATH_MAX];
	size_t i, len = strlen(dir);

	if (len >= sizeof(path))
		return -ENAMETOOLONG;
	memcpy(path, dir, len + 1);
	for (i = 1; i <= len; i++) {
		if (path[i] != '/' && path[i] != '\0')
			continue;
		path[i] = '\0';
		if (mkdir(path, 0777) && errno != EEXIST)
			return -errno;
		path[i] = dir[i];
	}
	return 0;
}

/* ---------------------------------------------------------------- analyse */

struct analyse_opts {
	const char *input;
	const char *outdir;
	unsigned reports;
	int quiet;
	struct symbols_opts sym;
	struct analysis_opts an;
	const char *debug_dirs[16];
	uint32_t pids[256], tids[256];
	const char *comms[64];
	char *comm_list;
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

static int write_reports(const struct analyse_opts *o, const struct filestat *fs, const struct log *log)
{
	int err = 0, e;

	if (o->reports & R_STAT) {
		e = filestat__write_stat(fs, o->outdir);
		if (e)
			log_msg(log, LOG_ERR, "%s/stat.csv: %s", o->outdir, strerror(-e));
		err = err ? err : e;
	}
	if (o->reports & R_EVENTS) {
		e = filestat__write_events(fs, o->outdir);
		if (e)
			log_msg(log, LOG_ERR, "%s/events.csv: %s", o->outdir, strerror(-e));
		err = err ? err : e;
	}
	if (o->reports & R_HEADER) {
		e = filestat__write_header(fs, o->outdir);
		if (e)
			log_msg(log, LOG_ERR, "%s/header.csv: %s", o->outdir, strerror(-e));
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

static int analyse(struct analyse_opts *o, const struct log *log)
{
	struct perf_file *f;
	struct filestat *fs = NULL;
	struct analysis *an = NULL;
	struct ordered_queue *q = NULL;
	struct perf_record rec;
	struct progress prog;
	int err, read_err = 0, r;

	err = mkdir_p(o->outdir);
	if (err) {
		log_msg(log, LOG_ERR, "%s: cannot create: %s", o->outdir, strerror(-err));
		return EXIT_SYSTEM;
	}
	err = open_input(o->input, log, &f);
	if (err)
		return exit_for(err);
	err = filestat__new(&fs, f);
	if (err)
		goto out_close;
	if (o->reports & R_ANALYSIS) {
		recorded_kernel(f, &o->sym);
		o->sym.log = log;
		o->an.symbols = &o->sym;
		o->an.log = log;
		o->an.reports = o->reports & R_ANALYSIS;
		o->an.out_dir = o->outdir;
		err = analysis__new(&an, f, &o->an);
		if (!err)
			err = ordered_queue__new(&q, f, analysis__deliver, an);
		if (err)
			goto out_delete;
	}
	progress__init(&prog, !o->quiet && isatty(STDERR_FILENO) &&
		       perf_file__info(f)->file_size > (64u << 20) ? stderr : NULL,
		       "reading", perf_file__info(f)->file_size);
	while ((r = perf_file__next(f, &rec)) > 0) {
		err = filestat__add(fs, &rec);
		if (!err && q)
			err = ordered_queue__push(q, &rec);
		if (err)
			break;
		progress__update(&prog, perf_file__pos(f));
	}
	progress__finish(&prog);
	if (r < 0)
		read_err = r;
	/* the reports cover what was read, also after a fault */
	if (!err && q)
		err = ordered_queue__flush(q);
	if (!err)
		err = write_reports(o, fs, log);
	if (!err && an) {
		err = analysis__write(an, o->outdir);
		if (err)
			log_msg(log, LOG_ERR, "%s: cannot write the reports: %s", o->outdir, strerror(-err));
	}
	if (read_err)
		err = read_err;
out_delete:
	ordered_queue__delete(q);
	analysis__delete(an);
	filestat__delete(fs);
out_close:
	perf_file__delete(f);
	if (err == -ENOMEM)
		log_msg(log, LOG_ERR, "out of memory");
	return exit_for(err);
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

static int cmd_analyse(int argc, char **argv, struct logger *lg, const struct log *log)
{
	enum { OPT_REPORTS = 256, OPT_VERSION, OPT_SYMFS, OPT_KALLSYMS, OPT_DEBUG_DIR, OPT_NO_SOURCE,
	       OPT_PID, OPT_TID, OPT_COMM, OPT_TIME };
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "reports", required_argument, NULL, OPT_REPORTS },
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
		{ "debug-dir", required_argument, NULL, OPT_DEBUG_DIR },
		{ "no-source", no_argument, NULL, OPT_NO_SOURCE },
		{ "event", required_argument, NULL, 'e' },
		{ "pid", required_argument, NULL, OPT_PID },
		{ "tid", required_argument, NULL, OPT_TID },
		{ "comm", required_argument, NULL, OPT_COMM },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	struct analyse_opts o;
	const char *comma;
	char *tok, *save = NULL;
	int c, code;

	memset(&o, 0, sizeof(o));
	o.input = "perf.data";
	o.outdir = ".";
	o.reports = ~0u;
	while ((c = getopt_long(argc, argv, "o:e:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o.outdir = optarg;
			break;
		case OPT_REPORTS:
			if (parse_reports(optarg, &o.reports))
				return EXIT_USAGE;
			break;
		case OPT_SYMFS:
			o.sym.symfs = optarg;
			break;
		case OPT_KALLSYMS:
			o.sym.kallsyms = optarg;
			break;
		case OPT_DEBUG_DIR:
			if (o.sym.nr_debug_dirs == sizeof(o.debug_dirs) / sizeof(o.debug_dirs[0])) {
				fputs("readperf: too many --debug-dir\n", stderr);
				return EXIT_USAGE;
			}
			o.debug_dirs[o.sym.nr_debug_dirs++] = optarg;
			o.sym.debug_dirs = o.debug_dirs;
			break;
		case OPT_NO_SOURCE:
			o.sym.no_source = 1;
			break;
		case 'e':
			o.an.event = optarg;
			break;
		case OPT_PID:
			if (parse_u32_list(optarg, o.pids, 256, &o.an.nr_pids)) {
				fprintf(stderr, "readperf: --pid wants comma-separated numbers, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			o.an.pids = o.pids;
			break;
		case OPT_TID:
			if (parse_u32_list(optarg, o.tids, 256, &o.an.nr_tids)) {
				fprintf(stderr, "readperf: --tid wants comma-separated numbers, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			o.an.tids = o.tids;
			break;
		case OPT_COMM:
			free(o.comm_list);
			o.comm_list = strdup(optarg);
			if (!o.comm_list)
				return EXIT_SYSTEM;
			o.an.nr_comms = 0;
			for (tok = strtok_r(o.comm_list, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
				if (o.an.nr_comms < 64)
					o.comms[o.an.nr_comms++] = tok;
			o.an.comms = o.comms;
			break;
		case OPT_TIME:
			comma = strchr(optarg, ',');
			if (!comma || parse_time(optarg, (size_t)(comma - optarg), &o.an.time_start) ||
			    parse_time(comma + 1, strlen(comma + 1), &o.an.time_end)) {
				fprintf(stderr, "readperf: --time wants START,END, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			o.an.has_time = 1;
			break;
		case 'q':
			lg->quiet = o.quiet = 1;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case OPT_VERSION:
			printf("readperf %s\n", READPERF_VERSION);
			return EXIT_OK;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		o.input = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "readperf: one input file at a time ('%s' is extra)\n", argv[optind]);
		return EXIT_USAGE;
	}
	code = analyse(&o, log);
	free(o.comm_list);
	return code;
}

/* ---------------------------------------------------------------- header, dump */

static int cmd_header(int argc, char **argv, const struct log *log)
{
	const struct perf_features *ft;
	const struct perf_evlist *el;
	struct perf_file *f;
	const char *section = "";
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int err;

	if (argc != 2) {
		fputs("usage: readperf header FILE\n", stderr);
		return EXIT_USAGE;
	}
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
	perf_file__delete(f);
	if (fflush(stdout))
		return EXIT_SYSTEM;
	return exit_for(err < 0 ? err : 0);
}

static int cmd_dump(int argc, char **argv, const struct log *log)
{
	struct strbuf sb = STRBUF_INIT;
	struct perf_file *f;
	struct perf_record rec;
	int err, r;

	if (argc != 2) {
		fputs("usage: readperf dump FILE\n", stderr);
		return EXIT_USAGE;
	}
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
	if (fflush(stdout))
		return EXIT_SYSTEM;
	return exit_for(r < 0 ? r : 0);
}

int main(int argc, char **argv)
{
	struct logger lg = { 0 };
	struct log log = { print_log, &lg };

	if (argc > 1 && !strcmp(argv[1], "header"))
		return cmd_header(argc - 1, argv + 1, &log);
	if (argc > 1 && !strcmp(argv[1], "dump"))
		return cmd_dump(argc - 1, argv + 1, &log);
	return cmd_analyse(argc, argv, &lg, &log);
}

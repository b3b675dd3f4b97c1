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

#include "decode/filestat.h"
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
	      "                      stat,events,header\n"
	      "  -q, --quiet         no warnings or progress\n"
	      "  -h, --help          this text\n"
	      "  --version           print the version\n"
	      "\n"
	      "exit codes: 0 ok, 1 usage, 2 bad input, 3 I/O or system error\n", fp);
}

/* ---------------------------------------------------------------- reports */

enum report_bit {
	R_STAT = 1 << 0,
	R_EVENTS = 1 << 1,
	R_HEADER = 1 << 2,
};

static const struct {
	const char *name;
	unsigned bit;
} report_names[] = {
	{ "stat", R_STAT },
	{ "events", R_EVENTS },
	{ "header", R_HEADER },
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

static int analyse(const struct analyse_opts *o, const struct log *log)
{
	struct perf_file *f;
	struct filestat *fs = NULL;
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
	progress__init(&prog, !o->quiet && isatty(STDERR_FILENO) &&
		       perf_file__info(f)->file_size > (64u << 20) ? stderr : NULL,
		       "reading", perf_file__info(f)->file_size);
	while ((r = perf_file__next(f, &rec)) > 0) {
		err = filestat__add(fs, &rec);
		if (err)
			break;
		progress__update(&prog, perf_file__pos(f));
	}
	progress__finish(&prog);
	if (r < 0)
		read_err = r;
	/* the reports cover what was read, also after a fault */
	if (!err)
		err = write_reports(o, fs, log);
	if (read_err)
		err = read_err;
	filestat__delete(fs);
out_close:
	perf_file__delete(f);
	if (err == -ENOMEM)
		log_msg(log, LOG_ERR, "out of memory");
	return exit_for(err);
}

static int cmd_analyse(int argc, char **argv, struct logger *lg, const struct log *log)
{
	enum { OPT_REPORTS = 256, OPT_VERSION };
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "reports", required_argument, NULL, OPT_REPORTS },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	struct analyse_opts o = { .input = "perf.data", .outdir = ".", .reports = ~0u };
	int c;

	while ((c = getopt_long(argc, argv, "o:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o.outdir = optarg;
			break;
		case OPT_REPORTS:
			if (parse_reports(optarg, &o.reports))
				return EXIT_USAGE;
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
	return analyse(&o, log);
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

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * readperf annotate [OPTIONS] FILE [FUNCTION...]: perf annotate --stdio's
 * view on standard output: each function's instructions (objdump -d's text,
 * through libopcodes) with the share of its period at each, the source
 * lines between them, the hottest instruction marked; the named functions,
 * else the --top N (20) hottest.  The file is read through an analysis
 * with the symbol and filter options of readperf (cli/common.c's rows;
 * --no-source leaves the source lines out); the text is the annotate
 * report's path output (decode/reports/annotate.c), as --annotate FILE.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/analyse.h"
#include "perffile/ordered.h"
#include "perffile/perffile.h"
#include "util/strbuf.h"

enum { OPT_TOP = CLI_OPT_LONG_ONLY + 512 };

static const struct cli_option annotate_own_options[] = {
	{ 0, "top", "N", "without FUNCTION: the N hottest functions (default 20)", OPT_TOP, NULL },
	CLI_OPT_END,
};

static const struct cli_option_group annotate_groups[] = {
	{ NULL, analyse_shared_options, NULL, 0 },
	{ "\nits own options:", annotate_own_options, NULL, 0 },
	{ NULL, analyse_only_options, "the analysis only", 1 },
	{ NULL, NULL, NULL, 0 },
};

static const struct cli_command annotate_cmd = {
	.name = "readperf annotate",
	.usage_head = "usage: readperf annotate [OPTIONS] FILE [FUNCTION...]\n"
		"perf annotate --stdio's view of FUNCTION (each one named), else of the hottest\n"
		"functions: instructions with the share of the function's period, source lines\n"
		"\n"
		"options:\n",
	.usage_tail = "\n"
		"kernel functions show their sampled addresses only, unless --vmlinux FILE\n"
		"gives their code\n"
		"exit codes: 0 ok, 1 usage, 2 bad input, 3 I/O or system error\n",
	.groups = annotate_groups,
	.help_col = 22,
};

struct annotate_cli {
	struct analyse_opts o;
	struct cli *cli;
	unsigned top;
};

static int annotate_opt(void *ctx, int id, const char *arg)
{
	struct annotate_cli *ac = ctx;
	char *end;
	unsigned long v;

	if (id != OPT_TOP)
		return analyse_opts__shared(&ac->o, ac->cli, id, arg);
	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || !v || v > 100000 || arg[0] == '-') {
		fprintf(stderr, "readperf annotate: --top wants a number from 1 to 100000, not '%s'\n", arg);
		return EXIT_USAGE;
	}
	ac->top = (unsigned)v;
	return -1;
}

/* nothing to annotate: which of the named functions (none: no function) had no sample */
static void no_sample(const char *path, const char *const *funcs, size_t nr_funcs, const struct log *log)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int err = 0;

	for (i = 0; i < nr_funcs && !err; i++)
		err = strbuf__addf(&sb, "%s%s", i ? ", " : "", funcs[i]);
	if (nr_funcs && !err)
		log_msg(log, LOG_ERR, "%s: no sample in %s (as results.csv names functions)", path, sb.buf);
	else
		log_msg(log, LOG_ERR, "%s: no sample in %s", path, nr_funcs ? "the functions named" : "any function");
	strbuf__release(&sb);
}

/* read path through an analysis with the text output on; 0 or -errno (-EINVAL: a fault) */
static int annotate_run(struct annotate_cli *ac, const char *path, char **funcs, size_t nr_funcs,
			const struct log *log)
{
	struct perf_file *f = NULL;
	struct analysis *an = NULL;
	struct ordered_queue *q = NULL;
	struct symbols_opts so = ac->o.sym;
	struct analysis_opts opts = ac->o.an;
	int id = report_outputs__find("annotate", 1), err, read_err = 0;

	err = open_input(path, log, &f);
	if (err)
		return err;
	if ((ac->o.event_arg && find_event(f, ac->o.event_arg, &opts.event, log)) ||
	    resolve_time(&ac->o.time, f, &opts, log)) {
		perf_file__delete(f);
		return -EINVAL;
	}
	recorded_kernel(f, &so);
	so.log = log;
	opts.symbols = &so;
	opts.log = log;
	opts.outputs = (uint64_t)1 << id;
	opts.out_dir = NULL;
	opts.annotate_funcs = (const char *const *)funcs;
	opts.nr_annotate_funcs = nr_funcs;
	opts.annotate_top = ac->top;
	err = analysis__new(&an, f, &opts);
	if (!err)
		err = ordered_queue__new(&q, f, deliver, an);
	if (!err)
		err = replay(f, NULL, q, 1, &read_err);
	if (err && an && err == analysis__status(an))
		analysis_error(path, err, log);
	ordered_queue__delete(q);
	if (!err && !read_err)
		err = check_filters(&ac->o, f, an, log);
	if (!err) {
		err = analysis__write_output(an, (size_t)id, "-");
		if (err == -ENODATA)
			no_sample(path, (const char *const *)funcs, nr_funcs, log);
		else if (err)
			log_msg(log, LOG_ERR, "annotate: cannot write: %s", strerror(-err));
		else
			analysis__save_symbol_cache(an);
		/* the others shown: one named without a sample is bad input still */
		if (!err)
			err = check_named(path, an, (const char *const *)funcs, nr_funcs, 0, "no sample in", log);
	}
	analysis__delete(an);
	perf_file__delete(f);
	return err ? err : read_err;
}

int cmd_annotate(int argc, char **argv, struct cli *cli)
{
	struct annotate_cli ac = { .cli = cli };
	int code, next, err;

	analyse_opts__init(&ac.o);
	code = cli_command__parse(&annotate_cmd, argc, argv, annotate_opt, &ac, &next);
	if (code < 0)
		code = analyse_opts__finish(&ac.o);
	if (code >= 0)
		goto out;
	if (next >= argc) {
		fputs("usage: readperf annotate [OPTIONS] FILE [FUNCTION...]   (readperf annotate -h lists the options)\n",
		      stderr);
		code = EXIT_USAGE;
		goto out;
	}
	err = annotate_run(&ac, argv[next], argv + next + 1, (size_t)(argc - next - 1), &cli->log);
	/* the command line is right and the file lacks what it asks: bad input, as a filter that leaves no sample */
	if (err == -ENODATA)
		code = EXIT_BAD_INPUT;
	else
		code = exit_for(err);
	if (!err && stdout_failed(&cli->log))
		code = EXIT_SYSTEM;
out:
	analyse_opts__release(&ac.o);
	return code;
}

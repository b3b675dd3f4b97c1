/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * readperf diff [OPTIONS] OLD NEW: both files read through an analysis of
 * their own with the same options (the rows shared with the analysis,
 * cli/common.c), compared function by function by decode/diff.c into
 * DIR/diff.csv; --fail-above and --fail-above-ratio make a regression exit
 * 4.  The analysis' own options are refused: diff would not use them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/analyse.h"
#include "decode/reports/diff.h"
#include "perffile/ordered.h"
#include "perffile/perffile.h"
#include "util/fs.h"
#include "util/strbuf.h"

const struct cli_option diff_options[] = {
	{ 0, "sort", "KEY", "period (|change of period|, default), ratio (relative change)\n"
	  "or delta (|change of percent|)", OPT_SORT, NULL },
	{ 0, "fail-above", "PCT", "exit 4 when a function's self percent grows by more than PCT points",
	  OPT_FAIL_ABOVE, NULL },
	{ 0, "fail-above-ratio", "R", "exit 4 when a function's period grows more than R times\n"
	  "(new functions count as growing without bound)", OPT_FAIL_RATIO, NULL },
	{ 0, "fail-min-percent", "P", "the ratio gate looks at functions with P% or more on either\n"
	  "side only (default 1)", OPT_FAIL_MIN, NULL },
	CLI_OPT_END,
};

static const struct cli_option_group diff_groups[] = {
	{ NULL, analyse_shared_options, NULL, 0 },
	{ "\nits own options:", diff_options, NULL, 0 },
	{ NULL, analyse_only_options, "the analysis only", 1 },
	{ NULL, NULL, NULL, 0 },
};

static const struct cli_command diff_cmd = {
	.name = "readperf diff",
	.usage_head = "usage: readperf diff [OPTIONS] OLD NEW\n"
		"compare two profiles function by function into DIR/diff.csv; the options below\n"
		"apply to both files\n"
		"\n"
		"options:\n",
	.usage_tail = "\n"
		"exit codes: 0 ok, 1 usage, 2 bad input, 3 I/O or system error,\n"
		"            4 a function crossed --fail-above or --fail-above-ratio\n",
	.groups = diff_groups,
	.help_col = 22,
};

struct diff_opts {
	struct analyse_opts o;		/* the options shared with the analysis */
	struct cli *cli;
	enum diff_sort sort;		/* --sort */
	int64_t fail_above;		/* --fail-above PCT in 1/10000 points, or -1 */
	int64_t fail_ratio;		/* --fail-above-ratio R in 1/10000, or -1 */
	int64_t fail_min;		/* --fail-min-percent in 1/10000 % (default 1%) */
};

/* one option of readperf diff (cli_command__parse's handler); -1 to go on, else the exit code */
static int diff_opt(void *ctx, int id, const char *arg)
{
	static const char *const sorts[] = { "period", "ratio", "delta" };
	static const char *const names[] = { "--sort", "--fail-above", "--fail-above-ratio", "--fail-min-percent" };
	struct diff_opts *d = ctx;
	int64_t v;
	size_t i;

	if (id < OPT_SORT || id > OPT_FAIL_MIN)
		return analyse_opts__shared(&d->o, d->cli, id, arg);
	if (id == OPT_SORT) {
		for (i = 0; i < sizeof(sorts) / sizeof(sorts[0]); i++)
			if (!strcmp(arg, sorts[i])) {
				d->sort = (enum diff_sort)i;
				return -1;
			}
		fprintf(stderr, "readperf diff: --sort wants period, ratio or delta, not '%s'\n", arg);
		return EXIT_USAGE;
	}
	v = parse_fixed4(arg);
	if (v < 0 || (id == OPT_FAIL_RATIO && v == 0)) {
		fprintf(stderr, "readperf diff: %s wants a positive number, not '%s'\n", names[id - OPT_SORT], arg);
		return EXIT_USAGE;
	}
	if (id == OPT_FAIL_ABOVE)
		d->fail_above = v;
	else if (id == OPT_FAIL_RATIO)
		d->fail_ratio = v;
	else
		d->fail_min = v;
	return -1;
}

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
static int diff_gate(const struct diff *d, const struct diff_opts *o, const struct log *log)
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

int cmd_diff(int argc, char **argv, struct cli *cli)
{
	const struct log *log = &cli->log;
	struct diff_opts o = { .cli = cli, .fail_above = -1, .fail_ratio = -1, .fail_min = 10000 };
	struct diff_side side[2];
	struct diff *d = NULL;
	struct cli_option paths[REPORT_MAX_OUTPUTS + 1];
	struct cli_option_group groups[] = {
		diff_groups[0], diff_groups[1], diff_groups[2], { NULL, NULL, "the analysis only", 1 }, diff_groups[3],
	};
	struct cli_command cmd = diff_cmd;
	int code, err = 0, fault = 0, i, next;

	memset(side, 0, sizeof(side));
	analyse_opts__init(&o.o);
	analyse_path_options(paths);
	groups[3].rows = paths;
	cmd.groups = groups;
	code = cli_command__parse(&cmd, argc, argv, diff_opt, &o, &next);
	if (code < 0)
		code = analyse_opts__finish(&o.o);
	if (code >= 0)
		goto out;
	if (argc - next != 2) {
		fputs("usage: readperf diff [OPTIONS] OLD NEW   (readperf -h lists the options)\n", stderr);
		code = EXIT_USAGE;
		goto out;
	}
	err = fs__mkdir_p(o.o.outdir);
	if (err) {
		log_msg(log, LOG_ERR, "%s: cannot create: %s", o.o.outdir, strerror(-err));
		code = EXIT_SYSTEM;
		goto out;
	}
	for (i = 0; i < 2 && !err; i++) {
		err = diff_load(&side[i], argv[next + i], &o.o, log);
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
		err = diff__write(d, o.o.outdir, o.o.an.raw_csv);
		if (err)
			log_msg(log, LOG_ERR, "%s/diff.csv: cannot write: %s", o.o.outdir, strerror(-err));
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
	analyse_opts__release(&o.o);
	return code;
}

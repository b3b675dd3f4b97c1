/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * readperf tree [OPTIONS] FILE FUNCTION...: the callers and callees of the
 * functions with their shares, as text on standard output (pprof's peek,
 * perf report -g caller on one function): the analysis with --focus
 * FUNCTION... and the peek output (decode/reports/peek.c) to '-', no CSV
 * report.  Takes the analysis' symbol options and filters.
 */
#include <stdio.h>
#include <string.h>

#include "cli/analyse.h"
#include "cli/cli.h"
#include "cli/options.h"

static const struct cli_option_group tree_groups[] = {
	{ NULL, analyse_shared_options, NULL, 0 },
	{ NULL, analyse_only_options, "the analysis only", 1 },
	{ NULL, NULL, NULL, 0 },
};

static const struct cli_command tree_cmd = {
	.name = "readperf tree",
	.usage_head = "usage: readperf tree [OPTIONS] FILE FUNCTION...\n"
		"print the callers and callees of FUNCTION with their shares of the samples whose\n"
		"stack holds it (pprof's peek, perf report -g caller); callers are the frames right\n"
		"above it, callees right below, self the samples it is the leaf of\n"
		"\n"
		"options (-o and the reports do not apply):\n",
	.usage_tail = "\n"
		"exit codes: 0 ok, 1 usage, 2 bad input (also: FUNCTION on no stack), 3 I/O or system error\n",
	.groups = tree_groups,
	.help_col = 22,
};

struct tree_ctx {
	struct analyse_opts *o;
	struct cli *cli;
};

static int tree_opt(void *ctx, int id, const char *arg)
{
	struct tree_ctx *c = ctx;

	return analyse_opts__shared(c->o, c->cli, id, arg);
}

int cmd_tree(int argc, char **argv, struct cli *cli)
{
	struct analyse_opts o;
	struct tree_ctx ctx = { &o, cli };
	int code, next, peek = report_outputs__find("peek", 1);
	size_t i;

	analyse_opts__init(&o);
	o.reports = 0;
	o.no_summary = 1;
	o.each_focus = 1;
	code = cli_command__parse(&tree_cmd, argc, argv, tree_opt, &ctx, &next);
	if (code < 0)
		code = analyse_opts__finish(&o);
	if (code >= 0)
		goto out;
	if (argc - next < 2 || argc - next > 1 + 64 || peek < 0) {
		fputs("readperf tree: usage: readperf tree [OPTIONS] FILE FUNCTION...\n"
		      "Try 'readperf tree --help'\n", stderr);
		code = EXIT_USAGE;
		goto out;
	}
	catch_stop_signals();
	o.input = argv[next++];
	for (i = 0; next < argc; i++)
		o.focus[i] = argv[next++];
	o.an.focus = o.focus;
	o.an.nr_focus = i;
	o.paths[peek] = "-";
	code = analyse(&o, &cli->log);
out:
	analyse_opts__release(&o);
	return code;
}

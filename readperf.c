/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * readperf: the command line.  main and the command table: which
 * subcommand runs which function (as git.c's cmd_struct); each subcommand,
 * with its option table, is a file in cli/ (cli/cli.h says how to add one).
 * readperf.c and cli/ alone parse options, print, and choose the exit code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "util/heap.h"
#include "util/strbuf.h"

struct command {
	const char *name;	/* argv[1]; NULL: the analysis, readperf's default */
	int (*fn)(int argc, char **argv, struct cli *cli);
	const char *synopsis;	/* after "readperf " in the usage */
	const char *what;
};

static const struct command commands[] = {
	{ NULL, cmd_analyse, "[OPTIONS] [FILE]",
	  "analyse FILE (default ./perf.data; '-' reads a pipe from stdin)" },
	{ NULL, cmd_analyse, "-o DIR [OPTIONS] FILE FILE...", "analyse each into DIR/NAME/, DIR/index.csv lists them" },
	{ "diff", cmd_diff, "diff [OPTIONS] OLD NEW", "compare two profiles function by function (diff.csv)" },
	{ "annotate", cmd_annotate, "annotate [OPTIONS] FILE [FUNCTION...]",
	  "perf annotate's view: instructions and source lines with their share" },
	{ "header", cmd_header, "header FILE", "print the header and every feature section" },
	{ "dump", cmd_dump, "dump FILE", "print every decoded record (for debugging)" },
	{ "record", cmd_record, "record [OPTIONS] [CMD]", "record CMD (or -a, -C, -p, -t) into perf.data" },
	{ "stat", cmd_stat, "stat [OPTIONS] CMD", "count events while CMD runs, as perf stat" },
	{ "schema", cmd_schema, "schema [DIR]", "CREATE TABLE statements for the reports (SQL types)" },
	{ "tree", cmd_tree, "tree [OPTIONS] FILE FUNCTION", "callers and callees of FUNCTION with their shares" },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

int readperf_synopsis(struct strbuf *sb)
{
	size_t i;
	int err = 0;

	for (i = 0; i < NR_COMMANDS && !err; i++) {
		int w = (int)strlen(commands[i].synopsis);

		err = strbuf__addf(sb, "%s readperf %s%*s%s\n", i ? "      " : "usage:", commands[i].synopsis,
				   w < 24 ? 26 - w : 2, "", commands[i].what);
	}
	if (!err)
		err = strbuf__addf(sb, "%42s(readperf COMMAND --help: the options of each)\n", "");
	return err;
}

/* perf's commands that readperf's analysis answers, or that a perf user types first by habit */
static const char *const perf_commands[] = { "report", "script", "top", "archive", "inject", "buildid-list", NULL };

int misplaced_command(const char *arg, int first)
{
	struct stat st;
	size_t i;

	if (stat(arg, &st) == 0)
		return 0;	/* a file of that name */
	for (i = 0; i < NR_COMMANDS; i++) {
		if (commands[i].name && !strcmp(arg, commands[i].name)) {
			fprintf(stderr, "readperf: '%s' is a command: it comes first, its options after it "
				"(readperf %s)\nTry 'readperf %s --help'\n", arg, commands[i].synopsis, arg);
			return EXIT_USAGE;
		}
	}
	for (i = 0; first && perf_commands[i]; i++) {
		if (!strcmp(arg, perf_commands[i])) {
			fprintf(stderr, "readperf: no file '%s', and no command of that name: readperf [OPTIONS] FILE "
				"analyses FILE (perf report's figures, in CSV)\nTry 'readperf --help'\n", arg);
			return EXIT_USAGE;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct cli cli = { 0 };
	size_t i;

	cli.log.fn = cli_print_log;
	cli.log.ctx = &cli;
	heap__prefer_huge_pages(64u << 20);
	for (i = 0; argc > 1 && i < NR_COMMANDS; i++)
		if (commands[i].name && !strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1, &cli);
	return cmd_analyse(argc, argv, &cli);
}

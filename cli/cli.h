/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What readperf.c and the subcommands in cli/ share: the exit codes, the
 * log callback, the parsers of option values more than one subcommand
 * takes, and the subcommands themselves (as git's builtin.h).
 *
 * To add a subcommand: write cli/NAME.c with its option table
 * (cli/options.h) and `int cmd_NAME(int argc, char **argv, struct cli *cli)`,
 * declare it below, add a row to readperf.c's command table and the file to
 * the Makefile's CLI_SRCS; document it in README.md and readperf.1.
 */
#ifndef CLI_CLI_H
#define CLI_CLI_H

#include <stdint.h>

#include "util/log.h"

struct perf_file;

#define READPERF_VERSION "0.1.0"

enum exit_code {
	EXIT_OK = 0,		/* success */
	EXIT_USAGE = 1,		/* bad command line */
	EXIT_BAD_INPUT = 2,	/* malformed or truncated input */
	EXIT_SYSTEM = 3,	/* I/O or system error */
	EXIT_REGRESSION = 4,	/* readperf diff: a function crossed --fail-above or --fail-above-ratio;
				   readperf --fail-unknown: too many samples with [unknown] frames */
};

/* the log callback's state: -q, -v, and the first error (batch mode's index.csv) */
struct cli {
	int quiet;
	int verbose;		/* -v: the debug messages too */
	char first_err[512];	/* batch mode: the first error, for index.csv */
	struct log log;		/* cli_print_log with this struct as its context */
};

/* "readperf: [warning: ]MSG" on stderr, as -q and -v allow; ctx is the struct cli */
void cli_print_log(void *ctx, enum log_level level, const char *msg);

/* a module's 0 / -errno as the exit code: -EINVAL is bad input, the rest a system error */
int exit_for(int err);
/* standard output flushed: 0, or -errno of a write that failed (EIO when none is known) */
int stdout_error(void);
/* flush stdout; a failed write is said (1), not swallowed (0) */
int stdout_failed(const struct log *log);

/* path, or stdin for "-" (a pipe-mode stream), through the log; 0 or -errno (cli/replay.c) */
int open_input(const char *input, const struct log *log, struct perf_file **f);

/* a non-negative decimal with up to 4 places ("2", "1.5", "0.25") in 1/10000; -1 when malformed */
int64_t parse_fixed4(const char *s);

struct strbuf;
/* the first lines of readperf --help: the commands of readperf.c's table; 0 or -ENOMEM */
int readperf_synopsis(struct strbuf *sb);
/*
 * An analysis' argument that names a command, not a file that exists: the
 * usage error that says how to give it (a readperf command comes first,
 * before its options; perf's report is readperf's analysis); 0 otherwise
 */
int misplaced_command(const char *arg, int first);

/* the subcommands: argv[0] is the subcommand's name ("readperf" for the analysis); the exit code */
int cmd_analyse(int argc, char **argv, struct cli *cli);
int cmd_diff(int argc, char **argv, struct cli *cli);
int cmd_annotate(int argc, char **argv, struct cli *cli);
int cmd_header(int argc, char **argv, struct cli *cli);
int cmd_dump(int argc, char **argv, struct cli *cli);
int cmd_record(int argc, char **argv, struct cli *cli);
int cmd_stat(int argc, char **argv, struct cli *cli);
int cmd_schema(int argc, char **argv, struct cli *cli);
int cmd_tree(int argc, char **argv, struct cli *cli);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Declarative option tables, after git's parse-options.h: a subcommand
 * lists its options once, as rows (short name, long name, argument name,
 * help text, id), and the getopt_long table, the short-option string and
 * the usage text (-h, and the "Try 'readperf X --help'" line of a usage
 * error) are made from the rows, so an option cannot be parsed without
 * being listed, or listed under another spelling.
 *
 * Rows come in groups.  A subcommand's table is a list of groups: its own,
 * and groups shared with another subcommand (the symbol and filter options
 * of analyse and diff are one group used by both).  A group with `refuse`
 * set is parsed (so long-option abbreviations resolve as in the subcommand
 * that owns it) and then refused with one line, exit 1: "readperf diff:
 * --speedscope is an option of the analysis only".
 */
#ifndef CLI_OPTIONS_H
#define CLI_OPTIONS_H

#include <stdio.h>

struct strbuf;

/* the most rows a subcommand's table may have (its groups together) */
#define CLI_MAX_ROWS 96

/* the first id of the options without a short name (ids below are their letter) */
#define CLI_OPT_LONG_ONLY 256

struct cli_option {
	int short_name;		/* 'o', or 0: none */
	const char *long_name;	/* "output", or NULL: none */
	/*
	 * the argument's name in the usage ("DIR"), NULL: takes none; "[=N]":
	 * optional, given as --name=N or -xN (the handler gets NULL without it)
	 */
	const char *arg;
	/* the usage text, lines separated by '\n'; NULL: an alias, not listed */
	const char *help;
	int id;			/* what the subcommand's handler receives: the letter, or >= CLI_OPT_LONG_ONLY */
	/* instead of help: writes the help text (--reports lists the report names); 0 or -ENOMEM */
	int (*help_fn)(struct strbuf *sb);
};

#define CLI_OPT_END { 0, NULL, NULL, NULL, 0, NULL }

struct cli_option_group {
	const char *title;		/* a line before the rows in the usage, or NULL */
	const struct cli_option *rows;	/* up to CLI_OPT_END; NULL ends the group list */
	/* not NULL: every row is refused, "OPTION is an option of <refuse>" */
	const char *refuse;
	int unlisted;			/* leave the rows out of the usage */
};

struct cli_command {
	const char *name;		/* "readperf diff": the messages' prefix and the Try line */
	int (*synopsis)(struct strbuf *sb);	/* when set, the usage's first lines; 0 or -ENOMEM */
	const char *usage_head;		/* the usage up to the options (after synopsis), ends in '\n' */
	const char *usage_tail;		/* after them, or NULL */
	const struct cli_option_group *groups;	/* up to a group with rows NULL */
	int help_col;			/* the column of the help texts */
	int stop_at_command;		/* options end at the first non-option (record, stat: the command's own) */
};

/* the table of a subcommand whose only option is -h, --help */
extern const struct cli_option_group cli_help_only[];

/*
 * Calls handle(ctx, id, arg) for each option of argv[1..] in order (arg NULL
 * for options without an argument); handle returns -1 to go on or an exit
 * code, which ends the parse.  -h/--help (id 'h') prints the usage on stdout
 * and returns 0 without calling handle.  An unknown, ambiguous or refused
 * option, or one missing its value, prints one line on stderr (the Try line
 * too unless refused) and returns 1 (the usage exit code).  -1 when every
 * option was taken; *next is then the index of the first argument that is no
 * option (getopt_long moves the operands behind the options unless
 * stop_at_command).  Sets getopt's optind and opterr.
 */
int cli_command__parse(const struct cli_command *cmd, int argc, char **argv,
		       int (*handle)(void *ctx, int id, const char *arg), void *ctx, int *next);

/* the usage text of cmd into fp; 0, or -ENOMEM / -EIO */
int cli_command__usage(const struct cli_command *cmd, FILE *fp);
/* whether arg is one of cmd's options whose value is the next argument ("-o", "--output"; not "--output=D") */
int cli_command__value_next(const struct cli_command *cmd, const char *arg);

#endif

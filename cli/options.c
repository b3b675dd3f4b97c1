/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The option tables of cli/options.h made into getopt_long's arguments and
 * into usage text.  Follows git's parse-options.c in spirit (rows in,
 * parsing and usage out), on top of getopt_long so every spelling,
 * abbreviation and argument order behaves as getopt_long does.
 */
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "util/strbuf.h"

static const struct cli_option help_row[] = {
	{ 'h', "help", NULL, "this text", 'h', NULL },
	CLI_OPT_END,
};

const struct cli_option_group cli_help_only[] = {
	{ NULL, help_row, NULL, 0 },
	{ NULL, NULL, NULL, 0 },
};

static size_t nr_rows(const struct cli_command *cmd)
{
	const struct cli_option_group *g;
	const struct cli_option *o;
	size_t n = 0;

	for (g = cmd->groups; g->rows; g++)
		for (o = g->rows; o->short_name || o->long_name; o++)
			n++;
	return n;
}

/* the row whose id getopt_long returned, and its group */
static const struct cli_option *find_row(const struct cli_command *cmd, int id, const struct cli_option_group **group)
{
	const struct cli_option_group *g;
	const struct cli_option *o;

	for (g = cmd->groups; g->rows; g++) {
		for (o = g->rows; o->short_name || o->long_name; o++) {
			if (o->id == id) {
				*group = g;
				return o;
			}
		}
	}
	return NULL;
}

/*
 * getopt_long's table and short-option string from the rows, in arrays of
 * the caller (no allocation: parsing cannot run out of memory); 0, or
 * -E2BIG when the table has more than CLI_MAX_ROWS rows.
 */
struct getopt_args {
	struct option longopts[CLI_MAX_ROWS + 1];
	char shortopts[3 * CLI_MAX_ROWS + 3];	/* "+:" and "c:" (or "c::") per row */
};

static int build_getopt(const struct cli_command *cmd, struct getopt_args *ga)
{
	const struct cli_option_group *g;
	const struct cli_option *o;
	size_t k = 0;
	char *p = ga->shortopts;

	if (nr_rows(cmd) > CLI_MAX_ROWS)
		return -E2BIG;
	if (cmd->stop_at_command)
		*p++ = '+';
	*p++ = ':';	/* a missing value is ':', not '?' */
	for (g = cmd->groups; g->rows; g++) {
		for (o = g->rows; o->short_name || o->long_name; o++) {
			if (o->long_name)
				ga->longopts[k++] = (struct option){ o->long_name, !o->arg ? no_argument :
								     o->arg[0] == '[' ? optional_argument : required_argument,
								     NULL, o->id };
			if (o->short_name) {
				*p++ = (char)o->short_name;
				if (o->arg)
					*p++ = ':';
				if (o->arg && o->arg[0] == '[')
					*p++ = ':';	/* "z::": the value only attached (-z3) */
			}
		}
	}
	ga->longopts[k] = (struct option){ NULL, 0, NULL, 0 };
	*p = '\0';
	return 0;
}

/* --help: the usage on standard output; EXIT_SYSTEM, said, when it cannot be written (/dev/full, a closed pipe) */
static int usage_to_stdout(const struct cli_command *cmd)
{
	int err = cli_command__usage(cmd, stdout);

	if (!err)
		err = stdout_error();
	if (!err)
		return EXIT_OK;
	fprintf(stderr, "readperf: standard output: %s\n", strerror(-err));
	return EXIT_SYSTEM;
}

int cli_command__parse(const struct cli_command *cmd, int argc, char **argv,
		       int (*handle)(void *ctx, int id, const char *arg), void *ctx, int *next)
{
	const struct cli_option_group *g = NULL;
	const struct cli_option *row;
	struct getopt_args ga;
	struct option *longopts = ga.longopts;
	int c, li, code = -1;

	if (build_getopt(cmd, &ga)) {
		fprintf(stderr, "readperf: %s: more than %d options in its table\n", cmd->name, CLI_MAX_ROWS);
		return EXIT_SYSTEM;
	}
	optind = 1;
	opterr = 0;
	while (li = -1, (c = getopt_long(argc, argv, ga.shortopts, longopts, &li)) != -1) {
		row = c == ':' || c == '?' ? NULL : find_row(cmd, c, &g);
		if (!row) {
			if (c == ':')
				fprintf(stderr, "%s: option '%s' needs a value\n", cmd->name, argv[optind - 1]);
			else
				fprintf(stderr, "%s: unknown or ambiguous option '%s'\n", cmd->name, argv[optind - 1]);
			fprintf(stderr, "Try '%s --help'\n", cmd->name);
			code = EXIT_USAGE;
		} else if (g->refuse) {
			if (li >= 0)
				fprintf(stderr, "%s: --%s is an option of %s\n", cmd->name, longopts[li].name, g->refuse);
			else
				fprintf(stderr, "%s: -%c is an option of %s\n", cmd->name, c, g->refuse);
			code = EXIT_USAGE;
		} else if (c == 'h') {
			code = usage_to_stdout(cmd);
		} else {
			code = handle(ctx, c, optarg);
		}
		if (code >= 0)
			break;
	}
	*next = optind;
	return code;
}

int cli_command__value_next(const struct cli_command *cmd, const char *arg)
{
	const struct cli_option_group *g;
	const struct cli_option *o;

	for (g = cmd->groups; g->rows; g++) {
		for (o = g->rows; o->short_name || o->long_name; o++) {
			if (!o->arg || o->arg[0] == '[')
				continue;	/* no value, or one attached only */
			if ((o->long_name && arg[0] == '-' && arg[1] == '-' && !strcmp(arg + 2, o->long_name)) ||
			    (o->short_name && arg[0] == '-' && arg[1] == o->short_name && !arg[2]))
				return 1;
		}
	}
	return 0;
}

/* "  -o, --output DIR" then the help from column col (two spaces past it when longer), its lines indented */
static int row_usage(struct strbuf *sb, const struct cli_option *o, int col)
{
	struct strbuf help = STRBUF_INIT;
	char sh[8] = "", left[160];
	const char *p, *nl;
	int err, w;

	err = o->help_fn ? o->help_fn(&help) : strbuf__addstr(&help, o->help);
	if (o->short_name)
		snprintf(sh, sizeof(sh), "-%c%s", o->short_name, o->long_name ? ", " : "");
	w = snprintf(left, sizeof(left), "  %s%s%s%s%s", sh, o->long_name ? "--" : "",
		     o->long_name ? o->long_name : "", o->arg && o->arg[0] != '[' ? " " : "", o->arg ? o->arg : "");
	if (!err)
		err = strbuf__addf(sb, "%s%*s", left, w < col ? col - w : 2, "");
	for (p = help.buf; !err; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl) {
			err = strbuf__addf(sb, "%s\n", p);
			break;
		}
		err = strbuf__addf(sb, "%.*s\n%*s", (int)(nl - p), p, col, "");
	}
	strbuf__release(&help);
	return err;
}

int cli_command__usage(const struct cli_command *cmd, FILE *fp)
{
	const struct cli_option_group *g;
	const struct cli_option *o;
	struct strbuf sb = STRBUF_INIT;
	int err = cmd->synopsis ? cmd->synopsis(&sb) : 0;

	if (!err)
		err = strbuf__addstr(&sb, cmd->usage_head);
	for (g = cmd->groups; g->rows && !err; g++) {
		if (g->unlisted)
			continue;
		if (g->title)
			err = strbuf__addf(&sb, "%s\n", g->title);
		for (o = g->rows; (o->short_name || o->long_name) && !err; o++)
			if (o->help || o->help_fn)
				err = row_usage(&sb, o, cmd->help_col);
	}
	if (!err && cmd->usage_tail)
		err = strbuf__addstr(&sb, cmd->usage_tail);
	errno = 0;
	if (!err && fwrite(sb.buf, 1, sb.len, fp) != sb.len)
		err = -(errno ? errno : EIO);
	strbuf__release(&sb);
	return err;
}

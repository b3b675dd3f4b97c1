/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * readperf schema [DIR]: CREATE TABLE statements with SQL column types for
 * the reports (decode/schema.c), all of them or those in DIR.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "decode/reports/schema.h"
#include "util/strbuf.h"

static const struct cli_command schema_cmd = {
	.name = "readperf schema",
	.usage_head = "usage: readperf schema [DIR]\n"
		"print CREATE TABLE statements with column types for the reports (all of them, or\n"
		"those in DIR with the columns their header rows have), for DuckDB and SQLite\n"
		"\n",
	.groups = cli_help_only,
	.help_col = 14,
	.stop_at_command = 1,
};

int cmd_schema(int argc, char **argv, struct cli *cli)
{
	const struct log *log = &cli->log;
	struct strbuf sb = STRBUF_INIT;
	const char *dir = NULL, *unknown;
	int err, next;

	err = cli_command__parse(&schema_cmd, argc, argv, NULL, NULL, &next);
	if (err >= 0)
		return err;
	if (argc - next > 1) {
		fputs("readperf schema: usage: readperf schema [DIR]\nTry 'readperf schema --help'\n", stderr);
		return EXIT_USAGE;
	}
	if (next < argc)
		dir = argv[next];
	err = schema__sql(&sb, dir, &unknown);
	if (err == -ENOENT)
		log_msg(log, LOG_ERR, "%s: no report (NAME.csv) in it", dir);
	else if (err == -EINVAL && unknown)
		log_msg(log, LOG_ERR, "%s/%s.csv: not a report readperf wrote (not a regular file, a header over "
			"64 KiB or a column readperf does not write): no schema", dir, unknown);
	else if (err)
		log_msg(log, LOG_ERR, "%s: %s", dir ? dir : "schema", strerror(-err));
	if (!err)
		fputs(sb.buf, stdout);
	strbuf__release(&sb);
	if (!err && stdout_failed(log))
		return EXIT_SYSTEM;
	return err == -ENOENT ? EXIT_USAGE : exit_for(err);
}

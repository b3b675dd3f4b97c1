/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Test driver for the capture commands until readperf.c wires them:
 * `capture-main record ...` and `capture-main stat ...` call cmd_record /
 * cmd_stat with argv[0] the subcommand, and print log messages as readperf
 * does ("readperf: ...", info lines without the prefix).
 */
#include <stdio.h>
#include <string.h>

#include "util/log.h"

int cmd_record(int argc, char **argv, const struct log *log);
int cmd_stat(int argc, char **argv, const struct log *log);

static void print_log(void *ctx, enum log_level level, const char *msg)
{
	(void)ctx;
	if (level == LOG_DEBUG)
		return;
	if (level == LOG_INFO)
		fprintf(stderr, "%s\n", msg);
	else
		fprintf(stderr, "readperf: %s%s\n", level == LOG_WARN ? "warning: " : "", msg);
}

int main(int argc, char **argv)
{
	struct log log = { print_log, NULL };

	if (argc >= 2 && strcmp(argv[1], "record") == 0)
		return cmd_record(argc - 1, argv + 1, &log);
	if (argc >= 2 && strcmp(argv[1], "stat") == 0)
		return cmd_stat(argc - 1, argv + 1, &log);
	fprintf(stderr, "usage: capture-main record|stat ...\n");
	return 1;
}

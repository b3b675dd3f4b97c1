/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The pieces every subcommand uses: the log callback readperf.c installs,
 * the exit code of an error, and the number parsers of the options.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/escape.h"
#include "util/strbuf.h"

void cli_print_log(void *ctx, enum log_level level, const char *msg)
{
	struct cli *cli = ctx;
	struct term_text t = TERM_TEXT_INIT;

	if (level == LOG_ERR && !cli->first_err[0])
		snprintf(cli->first_err, sizeof(cli->first_err), "%s", msg);
	if (cli->quiet && level != LOG_ERR)
		return;
	if (level == LOG_DEBUG && !cli->verbose)
		return;
	/* messages name what the file names: shown as terminal text (util/escape.h) */
	fprintf(stderr, "readperf: %s%s\n", level == LOG_WARN ? "warning: " : "", escape__term_str(&t, msg));
	term_text__release(&t);
}

int exit_for(int err)
{
	if (!err)
		return EXIT_OK;
	return err == -EINVAL ? EXIT_BAD_INPUT : EXIT_SYSTEM;
}

int stdout_error(void)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	return -(errno ? errno : EIO);
}

int stdout_failed(const struct log *log)
{
	int err = stdout_error();

	if (!err)
		return 0;
	log_msg(log, LOG_ERR, "standard output: %s", strerror(-err));
	return 1;
}

int64_t parse_fixed4(const char *s)
{
	int64_t v = 0, scale = 10000;
	int digits = 0;

	for (; *s >= '0' && *s <= '9' && v < INT64_MAX / 100000; s++, digits++)
		v = v * 10 + (*s - '0');
	v *= 10000;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9' && scale > 1; s++, digits++)
			v += (*s - '0') * (scale /= 10);
	return digits && !*s ? v : -1;
}

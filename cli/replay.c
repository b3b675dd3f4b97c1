/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A file through an analysis, as readperf and readperf diff read it: opened
 * (a path, or stdin as a pipe-mode stream), its records replayed in time
 * order through the ordered queue, stopped by SIGINT, SIGTERM, SIGHUP or SIGPIPE.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/analyse.h"
#include "decode/reports/filestat.h"
#include "perffile/ordered.h"
#include "perffile/perffile.h"
#include "util/progress.h"

/*
 * SIGINT, SIGTERM, SIGHUP, SIGPIPE during an analysis: the one mutable global, as a signal
 * handler can reach nothing else.  The replay stops at the next record and
 * the reports' temporary files are removed (the previous reports stay whole);
 * once the writing has begun it finishes (all new reports), then readperf
 * exits 128 + the signal.
 */
static volatile sig_atomic_t caught_signal;

static void on_stop_signal(int sig)
{
	caught_signal = sig;
}

void catch_stop_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);	/* the terminal closed */
	sigaction(SIGPIPE, &sa, NULL);	/* a report to a closed pipe: the write's EPIPE, and the same end */
}

int stop_signal(void)
{
	return caught_signal;
}

int open_input(const char *input, const struct log *log, struct perf_file **f)
{
	struct perf_file_opts fo = { .log = log, .name = input };

	if (!strcmp(input, "-")) {
		fo.name = "stdin";
		return perf_file__open_fd(f, STDIN_FILENO, &fo);
	}
	return perf_file__open(f, input, &fo);
}

int deliver(void *an, struct perf_record *rec)
{
	return caught_signal ? -EINTR : analysis__deliver(an, rec);
}

int replay(struct perf_file *f, struct filestat *fs, struct ordered_queue *q, int quiet, int *read_err)
{
	struct perf_record rec = { 0 };
	struct progress prog;
	uint64_t n = 0;
	int err = 0, r;

	progress__init(&prog, !quiet && isatty(STDERR_FILENO) &&
		       perf_file__info(f)->file_size > (64u << 20) ? stderr : NULL,
		       "reading", perf_file__info(f)->file_size);
	while ((r = perf_file__next(f, &rec)) > 0) {
		if (caught_signal) {
			err = -EINTR;
			break;
		}
		if (fs)
			err = filestat__add(fs, &rec);
		if (!err && q && !rec.undecoded)
			err = ordered_queue__push(q, &rec);
		if (err)
			break;
		if (!(++n & 0xffff))
			progress__update(&prog, perf_file__pos(f));
	}
	progress__finish(&prog);
	*read_err = r < 0 ? r : 0;
	if (!err && q)
		err = ordered_queue__flush(q);
	/* after an error too: the analysis at rest */
	if (q) {
		uint64_t off;
		const char *why;

		r = ordered_queue__sync(q);
		err = err ? err : r;
		/* a record that no longer decodes at its turn: bad input, the reports of what came before */
		if (err == -EBADMSG && ordered_queue__fault(q, &off, &why)) {
			char msg[320];	/* why (up to 191 bytes) and the words after it */

			snprintf(msg, sizeof(msg), "%s (decoded at its turn in time order, after a later record changed "
				 "the attrs)", why);
			perf_file__fault(f, off, msg);
			*read_err = *read_err ? *read_err : -EINVAL;
			err = 0;
		}
	}
	return err;
}

/* ENOMEM is said once, at the end; EIO only comes from reading the binaries, kallsyms or a perf map */
void analysis_error(const char *input, int err, const struct log *log)
{
	if (err == -ENOMEM || err == -EINTR)
		return;
	log_msg(log, LOG_ERR, "%s: %s: %s", input, err == -EIO ? "cannot read symbols" : "cannot analyse",
		strerror(-err));
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * One log callback for the whole program.  Modules never print: they format
 * a message and hand it to the callback that readperf.c installed.  A NULL
 * struct log, or one with a NULL fn, drops every message.
 *
 * Messages are lower-case, without a full stop, subject first, e.g.
 * "perf.data: record at offset 0x1a2b0: size 8 is smaller than its header".
 */
#ifndef UTIL_LOG_H
#define UTIL_LOG_H

#include <stdarg.h>
#include <stddef.h>

enum log_level {
	LOG_ERR,	/* the operation failed */
	LOG_WARN,	/* something is off, work goes on */
	LOG_INFO,	/* progress for the user, hidden by -q */
	LOG_DEBUG,	/* for developers */
};

struct log {
	void (*fn)(void *ctx, enum log_level level, const char *msg);
	void *ctx;
};

void log_msg(const struct log *log, enum log_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void log_vmsg(const struct log *log, enum log_level level, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/*
 * A log that keeps the warnings (their text, the first LOG_KEEP_MAX; the
 * others counted in dropped, as those memory refused) and hands every
 * message on to next unchanged: what the --html page shows as the run's
 * warnings.  Use &k->log as the log; _release frees the kept text.
 */
#define LOG_KEEP_MAX 200
struct log_keep {
	struct log log;
	const struct log *next;
	char **msgs;
	size_t nr, cap, dropped;
};
void log_keep__init(struct log_keep *k, const struct log *next);
void log_keep__release(struct log_keep *k);

#endif

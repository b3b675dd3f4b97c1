/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The log callback: format once, hand the text to whoever installed the callback. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

void log_vmsg(const struct log *log, enum log_level level, const char *fmt, va_list ap)
{
	char buf[1024];

	if (!log || !log->fn)
		return;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	log->fn(log->ctx, level, buf);
}

void log_msg(const struct log *log, enum log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vmsg(log, level, fmt, ap);
	va_end(ap);
}

static void keep_fn(void *ctx, enum log_level level, const char *msg)
{
	struct log_keep *k = ctx;

	if (level == LOG_WARN && k->nr < LOG_KEEP_MAX) {
		if (k->nr == k->cap) {
			size_t cap = k->cap ? 2 * k->cap : 8;
			char **m = realloc(k->msgs, cap * sizeof(*m));

			if (m) {
				k->msgs = m;
				k->cap = cap;
			}
		}
		if (k->nr < k->cap && (k->msgs[k->nr] = strdup(msg)))
			k->nr++;
		else
			k->dropped++;
	} else if (level == LOG_WARN) {
		k->dropped++;
	}
	log_msg(k->next, level, "%s", msg);
}

void log_keep__init(struct log_keep *k, const struct log *next)
{
	memset(k, 0, sizeof(*k));
	k->log.fn = keep_fn;
	k->log.ctx = k;
	k->next = next;
}

void log_keep__release(struct log_keep *k)
{
	size_t i;

	for (i = 0; i < k->nr; i++)
		free(k->msgs[i]);
	free(k->msgs);
	k->msgs = NULL;
	k->nr = k->cap = 0;
}

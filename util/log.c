/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The log callback: format once, hand the text to whoever installed the callback. */
#include <stdio.h>

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

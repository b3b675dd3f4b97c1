/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A progress line ("readperf: reading 42%") redrawn on a terminal at most a
 * few times a second.  Disabled (every call a no-op) unless the caller enables
 * it: readperf.c enables it when stderr is a terminal and the input is large.
 */
#ifndef UTIL_PROGRESS_H
#define UTIL_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

struct progress {
	FILE *fp;		/* NULL: disabled */
	const char *title;
	uint64_t total;
	uint64_t next_check;	/* done value at which to look at the clock again */
	int64_t last_ms;
	int last_pct;
};

void progress__init(struct progress *p, FILE *fp, const char *title, uint64_t total);
void progress__update(struct progress *p, uint64_t done);
void progress__finish(struct progress *p);

#endif

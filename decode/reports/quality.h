/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The unwind-quality report (quality.csv): its rows for another report (the --html page). */
#ifndef DECODE_REPORTS_QUALITY_H
#define DECODE_REPORTS_QUALITY_H

#include <stdint.h>

#include "decode/report.h"

extern const struct report_ops quality_report;

/* a row of quality.csv: (event, dso) and its counts (quality.c says what each means) */
struct quality_row {
	uint32_t event;
	const char *dso;		/* interned */
	uint64_t samples, user_stacks, cut, unknown, cut_here;
};

/*
 * quality.csv's rows in its order, each handed to fn (0 goes on, an error
 * ends the walk and is returned); the quality report must be enabled, else
 * -EINVAL; -ENOMEM.
 */
int quality__each(struct analysis *a, int (*fn)(void *ctx, const struct quality_row *r), void *ctx);

#endif

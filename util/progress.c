/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Terminal progress indicator, rate-limited so it costs nothing per record. */
#include <time.h>

#include "util/progress.h"

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void progress__init(struct progress *p, FILE *fp, const char *title, uint64_t total)
{
	p->fp = total ? fp : NULL;
	p->title = title;
	p->total = total;
	p->next_check = 0;
	p->last_ms = 0;
	p->last_pct = -1;
}

void progress__update(struct progress *p, uint64_t done)
{
	int64_t t;
	int pct;

	if (!p->fp || done < p->next_check)
		return;
	p->next_check = done + p->total / 1000 + 1;
	t = now_ms();
	if (t - p->last_ms < 200)
		return;
	p->last_ms = t;
	pct = done >= p->total ? 100 : (int)(done * 100 / p->total);
	if (pct == p->last_pct)
		return;
	p->last_pct = pct;
	fprintf(p->fp, "\rreadperf: %s %3d%%", p->title, pct);
	fflush(p->fp);
}

void progress__finish(struct progress *p)
{
	if (p->fp && p->last_pct >= 0)
		fprintf(p->fp, "\r\033[K");
	p->fp = NULL;
}

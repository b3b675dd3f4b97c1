/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Running mean and spread (contract in stats.h). */
#include <math.h>

#include "util/stats.h"

void stats__init(struct stats *s)
{
	s->n = 0;
	s->mean = 0;
	s->m2 = 0;
}

void stats__update(struct stats *s, double v)
{
	double delta = v - s->mean;

	s->n += 1;
	s->mean += delta / s->n;
	s->m2 += delta * (v - s->mean);
}

double stats__stddev_mean(const struct stats *s)
{
	if (s->n < 2)
		return 0;
	return sqrt(s->m2 / (s->n - 1) / s->n);
}

double stats__rel_pct(double sd, double mean)
{
	return mean != 0 ? 100.0 * sd / mean : 0;
}

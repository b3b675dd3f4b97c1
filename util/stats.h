/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Running mean and spread of repeated measurements, as perf stat -r
 * reports them (tools/perf/util/stat.c update_stats, stddev_stats,
 * rel_stddev_stats): Welford's update of the mean and of M2, the sum of
 * squared differences from it; the spread is the standard deviation of the
 * mean, sqrt(M2 / (n - 1) / n), and perf prints it relative to the mean in
 * percent.  An embedded struct: stats__init() and no release.
 */
#ifndef UTIL_STATS_H
#define UTIL_STATS_H

struct stats {
	double n;
	double mean;
	double m2;
};

void stats__init(struct stats *s);
void stats__update(struct stats *s, double v);
/* the standard deviation of the mean; 0 with fewer than two values */
double stats__stddev_mean(const struct stats *s);
/* 100 * sd / mean, 0 when the mean is 0 */
double stats__rel_pct(double sd, double mean);

#endif

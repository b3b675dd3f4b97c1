/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cpus.csv: samples and period per (event, CPU), as perf report --sort cpu
 * counts them: the CPU is the sample's PERF_SAMPLE_CPU field, -1 when the
 * samples do not carry it; percent is the share of the event's period.
 * Sorted by event, then CPU.  Not in --reports default: --reports cpus.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decode/reports/common.h"

struct cpu_count {
	uint64_t samples, period;
};

struct cpus {
	struct cpu_count *v;		/* [event * nr_cpus + cpu + 1]: slot 0 of an event is cpu -1 */
	uint32_t nr_events, nr_cpus;	/* nr_cpus counts the -1 slot */
};

static const struct report_column cpus_cols[] = {
	{ "event", "TEXT" }, { "cpu", "BIGINT" }, { "samples", "BIGINT" }, { "period", "BIGINT" },
	{ "percent", "DOUBLE" }, { NULL, NULL }
};

/* make room for (event, slot); the table is re-laid when either grows */
static int grow(struct cpus *c, uint32_t event, uint32_t slot)
{
	uint32_t ne = event >= c->nr_events ? event + 1 : c->nr_events;
	uint32_t nc = slot >= c->nr_cpus ? slot + 1 : c->nr_cpus;
	struct cpu_count *v;
	uint32_t e;

	if ((uint64_t)ne * nc > (1u << 26))	/* the CPU field is a u32: bound what it may ask */
		return -EINVAL;
	v = calloc((size_t)ne * nc, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (e = 0; e < c->nr_events; e++)
		if (c->nr_cpus)
			memcpy(v + (size_t)e * nc, c->v + (size_t)e * c->nr_cpus, c->nr_cpus * sizeof(*v));
	free(c->v);
	c->v = v;
	c->nr_events = ne;
	c->nr_cpus = nc;
	return 0;
}

static int cpus_sample(void *state, struct analysis *a, const struct rsample *s)
{
	struct cpus *c = state;
	const struct perf_sample *ps = &s->rec->sample;
	uint32_t slot = (ps->sample_type & PERF_SAMPLE_CPU) ? ps->cpu + 1 : 0;
	struct cpu_count *n;
	int err;

	(void)a;
	if (s->event >= c->nr_events || slot >= c->nr_cpus) {
		err = grow(c, s->event, slot);
		if (err == -EINVAL) {
			slot = 0;	/* an absurd CPU number (or 0xffffffff) counts as unknown */
			err = s->event >= c->nr_events ? grow(c, s->event, 0) : 0;
		}
		if (err)
			return err;
	}
	n = &c->v[(size_t)s->event * c->nr_cpus + slot];
	n->samples++;
	n->period += s->period;
	return 0;
}

static void cpus_release(void *state)
{
	free(((struct cpus *)state)->v);
}

static int cpus_write(void *state, struct analysis *a, const char *dir)
{
	const struct cpus *c = state;
	struct csv out;
	uint32_t e, k;
	int err = report__open_csv(&out, a, dir, "cpus", cpus_cols);

	if (err)
		return err;
	for (e = 0; e < c->nr_events; e++) {
		for (k = 0; k < c->nr_cpus; k++) {
			const struct cpu_count *n = &c->v[(size_t)e * c->nr_cpus + k];

			if (!n->samples)
				continue;
			csv__str(&out, analysis__event_name(a, e));
			csv__i64(&out, (int64_t)k - 1);
			csv__u64(&out, n->samples);
			csv__u64(&out, n->period);
			csv__pct(&out, n->period, analysis__event_period(a, e));
			csv__end_row(&out);
		}
	}
	return csv__commit(&out);
}

static const struct report_output cpus_outputs[] = {
	{ .name = "cpus", .columns = cpus_cols, .write = cpus_write, .opt_in = 1 },
	{ .name = NULL }
};

const struct report_ops cpus_report = {
	.name = "cpus",
	.source = REPORT_FROM_ANALYSIS,
	.state_size = sizeof(struct cpus),
	.outputs = cpus_outputs,
	.sample = cpus_sample,
	.release = cpus_release,
};

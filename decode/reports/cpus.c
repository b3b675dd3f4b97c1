/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cpus.csv: samples and period per (event, CPU), as perf report --sort cpu
 * counts them: the CPU is the sample's PERF_SAMPLE_CPU field as a signed
 * int (as perf prints it), -1 when the samples do not carry it; percent is
 * the share of the event's period.  Sorted by event, then CPU.  Not in --reports default: --reports cpus.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decode/reports/common.h"
#include "util/hashmap.h"

struct cpu_count {
	uint32_t event, cpu;	/* cpu: the sample's field, 0xffffffff when it has none */
	uint64_t samples, period;
};

/*
 * One count per (event, CPU) seen: a map to the counts, so a damaged CPU
 * field (any u32) costs one entry, not a table as wide as its value
 */
struct cpus {
	struct hashmap index;		/* (event, cpu) -> count number + 1 */
	struct cpu_count *v;
	size_t len, cap;
};

static const struct report_column cpus_cols[] = {
	{ "event", "TEXT" }, { "cpu", "BIGINT" }, { "samples", "BIGINT" }, { "period", "BIGINT" },
	{ "percent", "DOUBLE" }, { NULL, NULL }
};

static struct cpu_count *cpus_find(struct cpus *c, uint32_t event, uint32_t cpu)
{
	uint32_t key[2] = { event, cpu };
	void **slot;
	int ret = hashmap__insert(&c->index, key, sizeof(key), &slot);

	if (ret < 0)
		return NULL;
	if (!ret)
		return &c->v[(uintptr_t)*slot - 1];
	if (c->len == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;
		struct cpu_count *v = realloc(c->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		c->v = v;
		c->cap = cap;
	}
	c->v[c->len] = (struct cpu_count){ .event = event, .cpu = cpu };
	*slot = (void *)(uintptr_t)++c->len;
	return &c->v[c->len - 1];
}

static int cpus_sample(void *state, struct analysis *a, const struct rsample *s)
{
	struct cpus *c = state;
	const struct perf_sample *ps = &s->rec->sample;
	struct cpu_count *n = cpus_find(c, s->event, (ps->sample_type & PERF_SAMPLE_CPU) ? ps->cpu : UINT32_MAX);

	(void)a;
	if (!n)
		return -ENOMEM;
	n->samples++;
	n->period += s->period;
	return 0;
}

static void cpus_release(void *state)
{
	struct cpus *c = state;

	hashmap__release(&c->index, NULL);
	free(c->v);
}

/* the CPU as perf prints it: the field as a signed int, so no CPU is -1 */
static int64_t cpu_number(uint32_t cpu)
{
	return (int32_t)cpu;
}

static int cmp_count(const void *pa, const void *pb)
{
	const struct cpu_count *x = pa, *y = pb;

	if (x->event != y->event)
		return x->event < y->event ? -1 : 1;
	return (cpu_number(x->cpu) > cpu_number(y->cpu)) - (cpu_number(x->cpu) < cpu_number(y->cpu));
}

static int cpus_write(void *state, struct analysis *a, const char *dir)
{
	struct cpus *c = state;
	struct csv out;
	size_t i;
	int err = report__open_csv(&out, a, dir, "cpus", cpus_cols);

	if (err)
		return err;
	if (c->len)
		qsort(c->v, c->len, sizeof(*c->v), cmp_count);
	for (i = 0; i < c->len; i++) {
		const struct cpu_count *n = &c->v[i];

		csv__str(&out, analysis__event_name(a, n->event));
		csv__i64(&out, cpu_number(n->cpu));
		csv__u64(&out, n->samples);
		csv__u64(&out, n->period);
		csv__pct(&out, n->period, analysis__event_period(a, n->event));
		csv__end_row(&out);
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

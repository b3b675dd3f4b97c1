/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * callers.csv: one row per caller -> callee edge of the samples' stacks
 * (consecutive frames, with --inline's inlined frames), each counted once
 * per sample; only samples that carry a callchain.  Sorted by event, period
 * descending, then the names.  Written also without callchains (the header
 * only), so scripts find every report.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decode/reports/common.h"
#include "util/array.h"
#include "util/hashmap.h"
#include "util/pool.h"

struct edge_stat {
	const struct func_stat *caller, *callee;
	uint64_t samples, period;
	uint64_t seen;			/* the sample that counted it last */
};

struct callers {
	struct pool pool;
	struct hashmap edges;		/* (caller, callee) -> struct edge_stat * */
	struct hashfront front;		/* before edges */
	struct array list;		/* struct edge_stat *, creation order */
};

static const struct report_column callers_cols[] = {
	{ "event", "TEXT" }, { "caller_dso", "TEXT" }, { "caller", "TEXT" }, { "callee_dso", "TEXT" },
	{ "callee", "TEXT" }, { "samples", "BIGINT" }, { "period", "BIGINT" }, { NULL, NULL }
};

static int callers_begin(void *state, struct analysis *a)
{
	struct callers *cs = state;

	(void)a;
	hashmap__init(&cs->edges);
	array__init(&cs->list, sizeof(void *));
	return 0;
}

static void callers_release(void *state)
{
	struct callers *cs = state;

	hashmap__release(&cs->edges, NULL);
	array__release(&cs->list);
	pool__release(&cs->pool);
}

static struct edge_stat *get_edge(struct callers *cs, const struct func_stat *caller, const struct func_stat *callee)
{
	const struct func_stat *key[2] = { caller, callee };
	struct hashfront_entry *fe = hashfront__slot(&cs->front, (uintptr_t)caller, (uintptr_t)callee);
	struct edge_stat *e = hashfront__get(fe, (uintptr_t)caller, (uintptr_t)callee), **p;
	void **slot;
	int ret;

	if (e)
		return e;
	ret = hashmap__insert(&cs->edges, key, sizeof(key), &slot);
	if (ret < 0)
		return NULL;
	if (ret == 1) {
		e = pool__alloc(&cs->pool, sizeof(*e));
		*slot = e;
		p = array__push(&cs->list);
		if (!e || !p)
			return NULL;
		*p = e;
		e->caller = caller;
		e->callee = callee;
		e->seen = UINT64_MAX;
	}
	e = *slot;
	if (e)
		hashfront__set(fe, (uintptr_t)caller, (uintptr_t)callee, e);
	return e;
}

static int callers_sample(void *state, struct analysis *a, const struct rsample *s)
{
	struct callers *cs = state;
	size_t i;

	(void)a;
	if (!s->callchain)
		return 0;
	for (i = 0; i + 1 < s->nr_frames; i++) {
		struct edge_stat *e = get_edge(cs, frame__func(s->frames[i + 1]), frame__func(s->frames[i]));

		if (!e)
			return -ENOMEM;
		if (e->seen != s->seq) {
			e->seen = s->seq;
			e->samples++;
			e->period += s->period;
		}
	}
	return 0;
}

static int edge_cmp(const void *pa, const void *pb)
{
	const struct edge_stat *a = *(struct edge_stat *const *)pa, *b = *(struct edge_stat *const *)pb;
	int r;

	if (a->callee->event != b->callee->event)
		return a->callee->event < b->callee->event ? -1 : 1;
	r = report__cmp_u64_desc(a->period, b->period);
	if (r)
		return r;
	r = report__cmp_str(a->caller->dso, b->caller->dso);
	if (r)
		return r;
	r = report__cmp_str(a->caller->function, b->caller->function);
	if (r)
		return r;
	r = report__cmp_str(a->callee->dso, b->callee->dso);
	if (r)
		return r;
	return report__cmp_str(a->callee->function, b->callee->function);
}

static int callers_write(void *state, struct analysis *a, const char *dir)
{
	struct callers *cs = state;
	struct edge_stat **v = cs->list.data;
	size_t n = cs->list.len, i;
	struct csv c;
	int err;

	if (n)
		qsort(v, n, sizeof(*v), edge_cmp);
	err = report__open_csv(&c, a, dir, "callers", callers_cols);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		const struct edge_stat *e = v[i];

		if (analysis__below_limit(a, e->period, analysis__event_period(a, e->callee->event)))
			continue;
		csv__str(&c, analysis__event_name(a, e->callee->event));
		csv__str(&c, e->caller->dso);
		csv__str(&c, e->caller->function);
		csv__str(&c, e->callee->dso);
		csv__str(&c, e->callee->function);
		csv__u64(&c, e->samples);
		csv__u64(&c, e->period);
		csv__end_row(&c);
	}
	return csv__commit(&c);
}

static const struct report_output callers_outputs[] = {
	{ .name = "callers", .columns = callers_cols, .write = callers_write },
	{ .name = NULL }
};

const struct report_ops callers_report = {
	.name = "callers",
	.source = REPORT_FROM_ANALYSIS,
	.state_size = sizeof(struct callers),
	.needs = REPORT_NEEDS_FRAMES,
	.outputs = callers_outputs,
	.begin = callers_begin,
	.sample = callers_sample,
	.release = callers_release,
};

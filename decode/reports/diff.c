/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * diff.csv (see diff.h): the events of two analyses paired as perf diff
 * pairs them (builtin-diff.c: by name, else by position), the function
 * aggregates read through analysis__function() joined on (event pair, dso,
 * function) in a hash map, and sorted by the size of the change.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/reports/diff.h"
#include "decode/report.h"
#include "perffile/attr.h"
#include "util/array.h"
#include "util/csv.h"
#include "util/hashmap.h"
#include "util/strbuf.h"

struct diff {
	const struct analysis *an[2];
	enum diff_sort sort;
	struct array pairs;		/* struct diff_pair */
	size_t *pair_of[2];		/* event index -> pair index + 1, 0: not paired */
	size_t nr_events[2];
	struct array rows;		/* struct diff_row */
	int children;			/* some pair has callchains on both sides */
};

/* 100 * num / den in 1/10000 %, half up (csv__pct's rounding) */
static int64_t share(uint64_t num, uint64_t den)
{
	if (!den)
		return 0;
	return (int64_t)(((unsigned __int128)num * 2000000 + den) / ((unsigned __int128)den * 2));
}

void diff__format(char *buf, size_t size, int64_t v)
{
	uint64_t m = (uint64_t)(v < 0 ? -v : v);

	snprintf(buf, size, "%s%" PRIu64 ".%04" PRIu64, v < 0 ? "-" : "", m / 10000, m % 10000);
}

/* ---------------------------------------------------------------- events */

static int add_pair(struct diff *d, const struct analysis_event ev[2], const size_t idx[2],
		    enum diff_pairing how)
{
	struct diff_pair *p = array__push(&d->pairs);
	int s;

	if (!p)
		return -ENOMEM;
	p->old_name = how == DIFF_PAIR_NEW_ONLY ? NULL : ev[0].name;
	p->new_name = how == DIFF_PAIR_OLD_ONLY ? NULL : ev[1].name;
	p->how = how;
	p->children = how < DIFF_PAIR_OLD_ONLY && ev[0].callchain && ev[1].callchain;
	d->children |= p->children;
	for (s = 0; s < 2; s++) {
		if ((s == 0 && how == DIFF_PAIR_NEW_ONLY) || (s == 1 && how == DIFF_PAIR_OLD_ONLY))
			continue;
		d->pair_of[s][idx[s]] = d->pairs.len;
	}
	return 0;
}

/* an event of side s that has samples and no pair yet */
static int open_event(const struct diff *d, int s, size_t i, struct analysis_event *ev)
{
	analysis__event(d->an[s], i, ev);
	return ev->name && ev->samples && !d->pair_of[s][i];
}

/* how many open events of side s have this base name; *at gets the last */
static size_t count_base(const struct diff *d, int s, const char *name, size_t len, size_t *at)
{
	struct analysis_event ev;
	size_t i, n = 0;

	for (i = 0; i < d->nr_events[s]; i++) {
		if (open_event(d, s, i, &ev) && perf_event_name__base_len(ev.name) == len &&
		    !memcmp(ev.name, name, len)) {
			*at = i;
			n++;
		}
	}
	return n;
}

/* one pass over OLD's open events: pair each with NEW's event chosen by how */
static int pair_pass(struct diff *d, enum diff_pairing how)
{
	struct analysis_event ev[2];
	size_t idx[2], next_new = 0;
	int err;

	for (idx[0] = 0; idx[0] < d->nr_events[0]; idx[0]++) {
		size_t len, at = 0;
		int found = 0;

		if (!open_event(d, 0, idx[0], &ev[0]))
			continue;
		if (how == DIFF_PAIR_BASE) {
			len = perf_event_name__base_len(ev[0].name);
			found = count_base(d, 0, ev[0].name, len, &at) == 1 &&
				count_base(d, 1, ev[0].name, len, &at) == 1;
			idx[1] = at;
		}
		for (idx[1] = found ? idx[1] : next_new; !found && idx[1] < d->nr_events[1]; idx[1]++) {
			if (!open_event(d, 1, idx[1], &ev[1]))
				continue;
			if (how == DIFF_PAIR_POSITION || !strcmp(ev[0].name, ev[1].name))
				found = 1;
			if (found)
				break;
		}
		if (!found)
			continue;
		next_new = how == DIFF_PAIR_POSITION ? idx[1] + 1 : 0;
		analysis__event(d->an[1], idx[1], &ev[1]);
		err = add_pair(d, ev, idx, how);
		if (err)
			return err;
	}
	return 0;
}

static int pair_events(struct diff *d)
{
	struct analysis_event ev[2];
	size_t idx[2];
	int s, err = 0;

	for (s = 0; s < 2; s++) {
		d->nr_events[s] = analysis__nr_events(d->an[s]);
		d->pair_of[s] = calloc(d->nr_events[s] + 1, sizeof(size_t));
		if (!d->pair_of[s])
			return -ENOMEM;
	}
	err = pair_pass(d, DIFF_PAIR_NAME);
	if (!err)
		err = pair_pass(d, DIFF_PAIR_BASE);
	if (!err)
		err = pair_pass(d, DIFF_PAIR_POSITION);
	for (s = 0; s < 2 && !err; s++) {
		for (idx[s] = 0; idx[s] < d->nr_events[s] && !err; idx[s]++) {
			if (!open_event(d, s, idx[s], &ev[s]))
				continue;
			ev[!s] = ev[s];
			idx[!s] = idx[s];
			err = add_pair(d, ev, idx, s ? DIFF_PAIR_NEW_ONLY : DIFF_PAIR_OLD_ONLY);
		}
	}
	return err;
}

/* ---------------------------------------------------------------- rows */

static int add_side(struct diff *d, struct hashmap *map, struct strbuf *key, int side)
{
	const struct analysis *a = d->an[side];
	size_t i, n = analysis__nr_funcs(a);

	for (i = 0; i < n; i++) {
		const struct func_stat *fn = analysis__func(a, i);
		uint64_t event_period = analysis__event_period(a, fn->event);
		const struct diff_pair *p;
		struct diff_row *r;
		size_t pair;
		void **slot;
		int ret;

		pair = fn->event < d->nr_events[side] ? d->pair_of[side][fn->event] : 0;
		if (!pair--)
			continue;
		p = diff__pair(d, pair);
		if (!fn->samples && !(p->children && fn->ch_samples))
			continue;
		strbuf__reset(key);
		if (strbuf__addf(key, "%zu", pair) || strbuf__addch(key, '\0') ||
		    strbuf__addstr(key, fn->dso) || strbuf__addch(key, '\0') ||
		    strbuf__addstr(key, fn->function))
			return -ENOMEM;
		ret = hashmap__insert(map, key->buf, key->len, &slot);
		if (ret < 0)
			return -ENOMEM;
		if (ret == 1) {
			r = array__push(&d->rows);
			if (!r)
				return -ENOMEM;
			r->event = p->new_name ? p->new_name : p->old_name;
			r->pair = pair;
			r->dso = fn->dso;
			r->function = fn->function;
			*slot = (void *)(uintptr_t)(d->rows.len - 1);	/* rows move as they grow */
		}
		r = &ARRAY_AT(&d->rows, struct diff_row, (size_t)(uintptr_t)*slot);
		r->samples[side] += fn->samples;
		r->period[side] += fn->period;
		r->pct[side] = share(r->period[side], event_period);
		if (p->children)
			r->ch_pct[side] = share(fn->ch_period, event_period);
	}
	return 0;
}

static uint64_t abs_diff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* |log(new/old)|; infinite when the function is on one side only */
static double log_ratio(const struct diff_row *r)
{
	if (!r->period[0] || !r->period[1])
		return INFINITY;
	return fabs(log((double)r->period[1] / (double)r->period[0]));
}

static int row_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct diff_row *a = pa, *b = pb;
	const enum diff_sort *sort = ctx;
	uint64_t ka, kb;
	int r;

	if (a->pair != b->pair)
		return a->pair < b->pair ? -1 : 1;
	if (*sort == DIFF_SORT_RATIO) {
		double la = log_ratio(a), lb = log_ratio(b);

		if (la != lb)
			return la > lb ? -1 : 1;
	}
	if (*sort == DIFF_SORT_DELTA) {
		ka = (uint64_t)(a->delta < 0 ? -a->delta : a->delta);
		kb = (uint64_t)(b->delta < 0 ? -b->delta : b->delta);
	} else {
		ka = abs_diff(a->period[0], a->period[1]);
		kb = abs_diff(b->period[0], b->period[1]);
	}
	if (ka != kb)
		return ka > kb ? -1 : 1;
	r = strcmp(a->dso, b->dso);
	if (r)
		return r;
	return strcmp(a->function, b->function);
}

static void finish_rows(struct diff *d)
{
	size_t i;

	for (i = 0; i < d->rows.len; i++) {
		struct diff_row *r = &ARRAY_AT(&d->rows, struct diff_row, i);

		r->delta = r->pct[1] - r->pct[0];
		r->ch_delta = r->ch_pct[1] - r->ch_pct[0];
		r->ratio = r->period[0] ? (int64_t)(((unsigned __int128)r->period[1] * 20000 + r->period[0]) /
						    ((unsigned __int128)r->period[0] * 2)) : -10000;
	}
	if (d->rows.len)
		qsort_r(d->rows.data, d->rows.len, sizeof(struct diff_row), row_cmp, &d->sort);
}

int diff__new(struct diff **out, const struct analysis *old, const struct analysis *new, enum diff_sort sort)
{
	struct diff *d = calloc(1, sizeof(*d));
	struct hashmap map;
	struct strbuf key = STRBUF_INIT;
	int err;

	*out = NULL;
	if (!d)
		return -ENOMEM;
	d->an[0] = old;
	d->an[1] = new;
	d->sort = sort;
	array__init(&d->pairs, sizeof(struct diff_pair));
	array__init(&d->rows, sizeof(struct diff_row));
	hashmap__init(&map);
	err = pair_events(d);
	if (!err)
		err = add_side(d, &map, &key, 0);
	if (!err)
		err = add_side(d, &map, &key, 1);
	hashmap__release(&map, NULL);
	strbuf__release(&key);
	if (err) {
		diff__delete(d);
		return err;
	}
	finish_rows(d);
	*out = d;
	return 0;
}

void diff__delete(struct diff *d)
{
	if (!d)
		return;
	array__release(&d->pairs);
	array__release(&d->rows);
	free(d->pair_of[0]);
	free(d->pair_of[1]);
	free(d);
}

size_t diff__nr_pairs(const struct diff *d)
{
	return d->pairs.len;
}

const struct diff_pair *diff__pair(const struct diff *d, size_t i)
{
	return &ARRAY_AT(&d->pairs, struct diff_pair, i);
}

size_t diff__nr_rows(const struct diff *d)
{
	return d->rows.len;
}

const struct diff_row *diff__row(const struct diff *d, size_t i)
{
	return &ARRAY_AT(&d->rows, struct diff_row, i);
}

/* ---------------------------------------------------------------- diff.csv */

static void fixed_field(struct csv *c, int64_t v)
{
	char buf[32];

	diff__format(buf, sizeof(buf), v);
	csv__str(c, buf);
}

static const struct report_column diff_cols[] = {
	{ "event", "TEXT" }, { "dso", "TEXT" }, { "function", "TEXT" }, { "old_samples", "BIGINT" },
	{ "new_samples", "BIGINT" }, { "old_period", "BIGINT" }, { "new_period", "BIGINT" },
	{ "old_percent", "DOUBLE" }, { "new_percent", "DOUBLE" }, { "delta_percent", "DOUBLE" },
	{ "ratio", "DOUBLE" }, { "old_children_percent", "DOUBLE" }, { "new_children_percent", "DOUBLE" },
	{ "delta_children_percent", "DOUBLE" }, { NULL, NULL }
};
#define NR_SELF_COLS 11

int diff__write(const struct diff *d, const char *dir, int raw_csv)
{
	struct csv c;
	size_t i;
	int err, k;

	err = csv__open(&c, dir, "diff.csv");
	if (err)
		return err;
	csv__set_raw_text(&c, raw_csv);
	for (k = 0; diff_cols[k].name && (d->children || k < NR_SELF_COLS); k++)
		csv__str(&c, diff_cols[k].name);
	csv__end_row(&c);
	for (i = 0; i < d->rows.len; i++) {
		const struct diff_row *r = diff__row(d, i);

		csv__str(&c, r->event);
		csv__str(&c, r->dso);
		csv__str(&c, r->function);
		csv__u64(&c, r->samples[0]);
		csv__u64(&c, r->samples[1]);
		csv__u64(&c, r->period[0]);
		csv__u64(&c, r->period[1]);
		fixed_field(&c, r->pct[0]);
		fixed_field(&c, r->pct[1]);
		fixed_field(&c, r->delta);
		fixed_field(&c, r->ratio);
		if (d->children) {
			fixed_field(&c, r->ch_pct[0]);
			fixed_field(&c, r->ch_pct[1]);
			fixed_field(&c, r->ch_delta);
		}
		csv__end_row(&c);
	}
	return csv__commit(&c);
}

static int diff_write(void *state, struct analysis *a, const char *dir)
{
	return diff__write(state, dir, a ? analysis__opts(a)->raw_csv : 0);
}

static const struct report_output diff_outputs[] = {
	{ .name = "diff", .columns = diff_cols, .write = diff_write },
	{ .name = NULL }
};

/* readperf diff's report: its state is the struct diff */
const struct report_ops diff_report = {
	.name = "diff",
	.source = REPORT_FROM_DIFF,
	.outputs = diff_outputs,
};

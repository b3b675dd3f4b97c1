/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * diff.csv (see diff.h): the function aggregates of two analyses, read
 * through analysis__function(), joined on (event name, dso, function) in a
 * hash map, and sorted by the size of the change.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/diff.h"
#include "util/array.h"
#include "util/csv.h"
#include "util/hashmap.h"
#include "util/strbuf.h"

struct diff_row {
	const char *event, *dso, *function;	/* borrowed from the analyses */
	uint64_t samples[2], period[2], total[2];
	int64_t pct[2];				/* in 1/10000 % */
	int64_t delta;
};

/* 100 * period / total in 1/10000 %, half up (csv__pct's rounding) */
static int64_t share(uint64_t period, uint64_t total)
{
	if (!total)
		return 0;
	return (int64_t)(((unsigned __int128)period * 2000000 + total) / ((unsigned __int128)total * 2));
}

static int add_side(struct hashmap *map, struct array *rows, struct strbuf *key,
		    const struct analysis *a, int side)
{
	size_t i, n = analysis__nr_functions(a);

	for (i = 0; i < n; i++) {
		struct analysis_function fn;
		struct diff_row *r;
		void **slot;
		int ret;

		analysis__function(a, i, &fn);
		if (!fn.samples)	/* only in callchains: no self share */
			continue;
		strbuf__reset(key);
		if (strbuf__addstr(key, fn.event) || strbuf__addch(key, '\0') ||
		    strbuf__addstr(key, fn.dso) || strbuf__addch(key, '\0') ||
		    strbuf__addstr(key, fn.function))
			return -ENOMEM;
		ret = hashmap__insert(map, key->buf, key->len, &slot);
		if (ret < 0)
			return -ENOMEM;
		if (ret == 1) {
			r = array__push(rows);
			if (!r)
				return -ENOMEM;
			r->event = fn.event;
			r->dso = fn.dso;
			r->function = fn.function;
			*slot = (void *)(uintptr_t)(rows->len - 1);	/* rows move as they grow */
		}
		r = &ARRAY_AT(rows, struct diff_row, (size_t)(uintptr_t)*slot);
		r->samples[side] += fn.samples;
		r->period[side] += fn.period;
		r->total[side] = fn.event_period;
	}
	return 0;
}

static int row_cmp(const void *pa, const void *pb)
{
	const struct diff_row *a = pa, *b = pb;
	uint64_t da = (uint64_t)(a->delta < 0 ? -a->delta : a->delta);
	uint64_t db = (uint64_t)(b->delta < 0 ? -b->delta : b->delta);
	int r;

	if (da != db)
		return da > db ? -1 : 1;
	r = strcmp(a->event, b->event);
	if (r)
		return r;
	r = strcmp(a->dso, b->dso);
	if (r)
		return r;
	return strcmp(a->function, b->function);
}

static void pct_field(struct csv *c, int64_t v)
{
	char buf[32];
	uint64_t m = (uint64_t)(v < 0 ? -v : v);

	snprintf(buf, sizeof(buf), "%s%" PRIu64 ".%04" PRIu64, v < 0 ? "-" : "", m / 10000, m % 10000);
	csv__str(c, buf);
}

int diff__write(const struct analysis *old, const struct analysis *new, const char *dir)
{
	static const char *const cols[] = {
		"event", "dso", "function", "old_samples", "new_samples",
		"old_percent", "new_percent", "delta_percent", NULL
	};
	struct hashmap map;
	struct array rows;
	struct strbuf key = STRBUF_INIT;
	struct csv c;
	size_t i;
	int err;

	hashmap__init(&map);
	array__init(&rows, sizeof(struct diff_row));
	err = add_side(&map, &rows, &key, old, 0);
	if (!err)
		err = add_side(&map, &rows, &key, new, 1);
	if (err)
		goto out;
	for (i = 0; i < rows.len; i++) {
		struct diff_row *r = &ARRAY_AT(&rows, struct diff_row, i);

		r->pct[0] = share(r->period[0], r->total[0]);
		r->pct[1] = share(r->period[1], r->total[1]);
		r->delta = r->pct[1] - r->pct[0];
	}
	if (rows.len)
		qsort(rows.data, rows.len, sizeof(struct diff_row), row_cmp);
	err = csv__open(&c, dir, "diff.csv");
	if (err)
		goto out;
	csv__row(&c, cols);
	for (i = 0; i < rows.len; i++) {
		const struct diff_row *r = &ARRAY_AT(&rows, struct diff_row, i);

		csv__str(&c, r->event);
		csv__str(&c, r->dso);
		csv__str(&c, r->function);
		csv__u64(&c, r->samples[0]);
		csv__u64(&c, r->samples[1]);
		pct_field(&c, r->pct[0]);
		pct_field(&c, r->pct[1]);
		pct_field(&c, r->delta);
		csv__end_row(&c);
	}
	err = csv__commit(&c);
out:
	hashmap__release(&map, NULL);
	array__release(&rows);
	strbuf__release(&key);
	return err;
}

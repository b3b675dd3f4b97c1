/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * When it happened: timeline.csv and --timeline FILE.svg.
 *
 * The recording is cut into intervals of opts.interval_ns (--interval), by
 * default its span (the file's HEADER_SAMPLE_TIME, else 10 s) divided into
 * 100 and rounded up to a readable 1, 2 or 5 x 10^n ns.  Intervals start at
 * the first sample.  Each sample adds its period to (interval, function) —
 * the function as results.csv names it, (event, dso, function) — so memory
 * grows with the intervals that hold samples times the functions in each,
 * not with the samples.
 *
 * timeline.csv: for every interval from the first to the last sample and
 * every event with samples, one row per top function of the event (the
 * TIMELINE_TOP with the most period over the whole recording, results.csv's
 * order) and one "[other]" row for the rest: samples, period and the share
 * of the interval's period of the event (0 in an interval without samples),
 * so a spreadsheet plots it as a stacked area chart.  The SVG draws that
 * chart for the first event with samples.
 *
 * At most TIMELINE_MAX_INTERVALS intervals, and at most 10 per sample (but
 * 1,000 always allowed): when the samples span more (a tiny --interval, or a
 * timestamp far from the others in a damaged file), the interval is widened
 * by a whole factor until they fit, so memory and the table stay bounded
 * whatever the times say, and the table's size follows the input's (a 53 KB
 * damaged file with a far timestamp made a 54 MB timeline.csv).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/reports/common.h"
#include "perffile/features.h"
#include "util/hashmap.h"
#include "util/pool.h"

#define TIMELINE_TOP 10
#define DEFAULT_SPAN 10000000000ULL	/* 10 s when the file does not say */

struct tl_key {
	uint64_t bucket;
	const struct func_stat *f;
};

struct timeline {
	struct pool pool;		/* the counters */
	struct hashmap map;		/* struct tl_key -> uint64_t[2] samples, period */
	struct hashfront front;		/* (interval, function) -> uint64_t[2], before map */
	int started;
	uint64_t start, width, last;	/* first sample time, interval, last interval */
};

/* 1, 2 or 5 x 10^n, the smallest at least ns */
static uint64_t readable(uint64_t ns)
{
	uint64_t p = 1;

	for (;;) {
		if (p >= ns)
			return p;
		if (2 * p >= ns)
			return 2 * p;
		if (5 * p >= ns)
			return 5 * p;
		if (p > UINT64_MAX / 100)
			return p * 10;
		p *= 10;
	}
}

static uint64_t default_interval(const struct perf_file *f)
{
	const struct perf_features *ft = f ? perf_file__features(f) : NULL;
	uint64_t span = DEFAULT_SPAN;

	if (ft && ft->last_sample_time > ft->first_sample_time)
		span = ft->last_sample_time - ft->first_sample_time;
	return readable(span / 100 ? span / 100 : 1);
}

static int timeline_begin(void *state, struct analysis *a)
{
	struct timeline *tl = state;
	const struct analysis_opts *o = analysis__opts(a);

	hashmap__init(&tl->map);
	tl->width = o->interval_ns ? o->interval_ns : default_interval(analysis__file(a));
	return 0;
}

static void timeline_release(void *state)
{
	struct timeline *tl = state;

	hashmap__release(&tl->map, NULL);	/* counters are pool memory */
	pool__release(&tl->pool);
}

static int timeline_sample(void *state, struct analysis *a, const struct rsample *s)
{
	struct timeline *tl = state;
	uint64_t time = s->time;
	struct hashfront_entry *fe;
	struct tl_key key;
	uint64_t *v;
	void **slot;
	int ret;

	(void)a;
	if (!s->has_time)
		return 0;
	if (!tl->started) {
		tl->started = 1;
		tl->start = time;
	}
	if (time < tl->start)		/* out of order beyond the queue's window: the first interval */
		time = tl->start;
	memset(&key, 0, sizeof(key));
	key.bucket = (time - tl->start) / tl->width;
	key.f = s->func;
	if (key.bucket > tl->last)
		tl->last = key.bucket;
	fe = hashfront__slot(&tl->front, key.bucket, (uintptr_t)key.f);
	v = hashfront__get(fe, key.bucket, (uintptr_t)key.f);
	if (!v) {
		ret = hashmap__insert(&tl->map, &key, sizeof(key), &slot);
		if (ret < 0)
			return -ENOMEM;
		if (ret == 1)
			*slot = pool__alloc(&tl->pool, 2 * sizeof(uint64_t));
		v = *slot;
		if (!v)
			return -ENOMEM;
		hashfront__set(fe, key.bucket, (uintptr_t)key.f, v);
	}
	v[0]++;
	v[1] += s->period;
	return 0;
}

/* ------------------------------------------------------------- the table */

/* one event's rows: its top functions in results.csv's order, then [other] */
struct tl_event {
	uint32_t event;
	const struct func_stat *top[TIMELINE_TOP];
	size_t nr_top;
	uint64_t *cells;	/* (nr_top + 1) x 2 per interval: samples, period */
};

#define TIMELINE_MAX_INTERVALS 100000
#define TIMELINE_PER_SAMPLE 10		/* intervals a sample may add over ... */
#define TIMELINE_FREE_INTERVALS 1000	/* ... these */

struct tl_table {
	struct tl_event *ev;
	size_t nr_ev;
	uint64_t nr_buckets;
	uint64_t merge;		/* intervals of the analysis per interval of the table */
	uint64_t width;		/* the table's interval, ns */
};

static void table_release(struct tl_table *t)
{
	size_t i;

	for (i = 0; i < t->nr_ev; i++)
		free(t->ev[i].cells);
	free(t->ev);
}

/* the index of f's row in e: a top function, else the [other] row */
static size_t row_of(const struct tl_event *e, const struct func_stat *f)
{
	size_t i;

	for (i = 0; i < e->nr_top; i++)
		if (e->top[i] == f)
			return i;
	return e->nr_top;
}

/* the top functions of each event with samples (results.csv's order), and their cells */
static int table_events(struct analysis *a, struct tl_table *t)
{
	size_t nf = analysis__nr_funcs(a), ne = analysis__nr_events(a), i, j;
	const struct func_stat **sorted = calloc(nf + 1, sizeof(*sorted));
	struct analysis_event ev;

	t->ev = calloc(ne ? ne : 1, sizeof(*t->ev));
	if (!t->ev || !sorted)
		goto nomem;
	for (i = 0; i < nf; i++)
		sorted[i] = analysis__func(a, i);
	if (nf)
		qsort(sorted, nf, sizeof(*sorted), report__top_cmp);
	for (i = 0; i < ne; i++) {
		struct tl_event *e = &t->ev[t->nr_ev];

		analysis__event(a, i, &ev);
		if (!ev.samples)
			continue;
		e->event = (uint32_t)i;
		for (j = 0; j < nf && e->nr_top < TIMELINE_TOP; j++)
			if (sorted[j]->event == i && sorted[j]->samples)
				e->top[e->nr_top++] = sorted[j];
		if (t->nr_buckets > SIZE_MAX / 2 / (e->nr_top + 1) / sizeof(uint64_t))
			goto nomem;
		e->cells = calloc((size_t)t->nr_buckets * (e->nr_top + 1) * 2, sizeof(uint64_t));
		if (!e->cells)
			goto nomem;
		t->nr_ev++;
	}
	free(sorted);
	return 0;
nomem:
	free(sorted);
	return -ENOMEM;
}

/* the most intervals the table may have for the samples of a */
static uint64_t interval_cap(struct analysis *a)
{
	struct analysis_event ev;
	uint64_t samples = 0, cap;
	size_t i;

	for (i = 0; i < analysis__nr_events(a); i++) {
		analysis__event(a, i, &ev);
		samples += ev.samples;
	}
	cap = samples < TIMELINE_MAX_INTERVALS / TIMELINE_PER_SAMPLE ? samples * TIMELINE_PER_SAMPLE : TIMELINE_MAX_INTERVALS;
	return cap > TIMELINE_FREE_INTERVALS ? cap : TIMELINE_FREE_INTERVALS;
}

static int build_table(struct timeline *tl, struct analysis *a, struct tl_table *t)
{
	const struct hashmap_entry *he;
	size_t i, it = 0;

	memset(t, 0, sizeof(*t));
	if (!tl->started)
		return 0;
	t->merge = tl->last / interval_cap(a) + 1;
	t->nr_buckets = tl->last / t->merge + 1;
	t->width = tl->width <= UINT64_MAX / t->merge ? tl->width * t->merge : UINT64_MAX;
	if (table_events(a, t)) {
		table_release(t);
		return -ENOMEM;
	}
	while ((he = hashmap__next(&tl->map, &it))) {
		struct tl_key key;
		const uint64_t *v = he->value;

		memcpy(&key, he->key, sizeof(key));
		for (i = 0; i < t->nr_ev; i++) {
			struct tl_event *e = &t->ev[i];
			uint64_t *c;

			if (e->event != key.f->event)
				continue;
			c = e->cells + ((size_t)(key.bucket / t->merge) * (e->nr_top + 1) + row_of(e, key.f)) * 2;
			c[0] += v[0];
			c[1] += v[1];
		}
	}
	return 0;
}

/* the period of event e in interval b */
static uint64_t bucket_total(const struct tl_event *e, uint64_t b)
{
	const uint64_t *c = e->cells + (size_t)b * (e->nr_top + 1) * 2;
	uint64_t sum = 0;
	size_t r;

	for (r = 0; r <= e->nr_top; r++)
		sum += c[2 * r + 1];
	return sum;
}

static const struct report_column timeline_cols[] = {
	{ "interval_start", "BIGINT" }, { "time", "BIGINT" }, { "event", "TEXT" }, { "dso", "TEXT" },
	{ "function", "TEXT" }, { "samples", "BIGINT" }, { "period", "BIGINT" }, { "percent", "DOUBLE" },
	{ NULL, NULL }
};

static int timeline_write(void *state, struct analysis *a, const char *dir)
{
	struct timeline *tl = state;
	struct tl_table t;
	uint64_t b;
	size_t i, r;
	struct csv c;
	int err;

	err = build_table(tl, a, &t);
	if (err)
		return err;
	err = report__open_csv(&c, a, dir, "timeline", timeline_cols);
	if (err) {
		table_release(&t);
		return err;
	}
	for (b = 0; b < t.nr_buckets; b++) {
		for (i = 0; i < t.nr_ev; i++) {
			const struct tl_event *e = &t.ev[i];
			const uint64_t *cell = e->cells + (size_t)b * (e->nr_top + 1) * 2;
			uint64_t total = bucket_total(e, b);

			for (r = 0; r <= e->nr_top; r++) {
				csv__u64(&c, b * t.width);
				csv__u64(&c, tl->start + b * t.width);
				csv__str(&c, analysis__event_name(a, e->event));
				csv__str(&c, r < e->nr_top ? e->top[r]->dso : "[other]");
				csv__str(&c, r < e->nr_top ? e->top[r]->function : "[other]");
				csv__u64(&c, cell[2 * r]);
				csv__u64(&c, cell[2 * r + 1]);
				csv__pct(&c, cell[2 * r + 1], total);
				csv__end_row(&c);
			}
		}
	}
	table_release(&t);
	return csv__commit(&c);
}

/* ------------------------------------------------------------- the SVG */

#define TL_W 1200
#define TL_H 600
#define TL_LEFT 70
#define TL_RIGHT 330		/* the legend */
#define TL_TOP 50
#define TL_BOTTOM 60

/* a colour per layer, well apart (Tableau 10), grey for [other] */
static const char *const tl_colours[] = {
	"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
	"#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
};

/* a name as XML text, at most max characters (cut with "..") */
static void xml_put(struct csv *c, const char *s, size_t max)
{
	csv__xml(c, s, strlen(s), max);
}

/* hundredths of a pixel as "x.yy" */
static void put_c(struct csv *c, uint64_t v)
{
	csv__printf(c, "%" PRIu64 ".%02" PRIu64, v / 100, v % 100);
}

/* a time in ns as a short label: 1.5s, 250ms, 40us, 800ns */
static void time_label(char *buf, size_t n, uint64_t ns)
{
	if (ns >= 1000000000ULL)
		snprintf(buf, n, "%" PRIu64 ".%03" PRIu64 "s", (uint64_t)(ns / 1000000000ULL), (uint64_t)(ns / 1000000ULL % 1000));
	else if (ns >= 1000000ULL)
		snprintf(buf, n, "%" PRIu64 "ms", (uint64_t)(ns / 1000000ULL));
	else if (ns >= 1000ULL)
		snprintf(buf, n, "%" PRIu64 "us", (uint64_t)(ns / 1000ULL));
	else
		snprintf(buf, n, "%" PRIu64 "ns", ns);
}

/* the top of the rows up to r (r + 1 rows; r = -1: none) in interval b, as a y in 1/100 px */
static uint64_t layer_y(const struct tl_event *e, uint64_t b, size_t rows)
{
	const uint64_t ph = (TL_H - TL_TOP - TL_BOTTOM) * 100, y0 = (TL_H - TL_BOTTOM) * 100;
	const uint64_t *c = e->cells + (size_t)b * (e->nr_top + 1) * 2;
	uint64_t total = bucket_total(e, b), below = 0;
	size_t k;

	for (k = 0; k < rows; k++)
		below += c[2 * k + 1];
	return y0 - (total ? (uint64_t)((unsigned __int128)ph * below / total) : 0);
}

static void put_point(struct csv *c, uint64_t x, uint64_t y, char sep)
{
	put_c(c, x);
	csv__puts(c, ",");
	put_c(c, y);
	csv__raw(c, &sep, 1);
}

/*
 * Layer r, stacked on the rows below it: a step per interval (the share is
 * the interval's, flat across it), the top edge left to right, then the
 * bottom edge back.
 */
static void draw_layers(struct csv *c, const struct tl_event *e, uint64_t nb)
{
	const uint64_t pw = (TL_W - TL_LEFT - TL_RIGHT) * 100, x0 = TL_LEFT * 100;
	size_t r;
	uint64_t b;

	for (r = 0; r <= e->nr_top; r++) {
		csv__printf(c, "<polygon class=\"layer\" data-layer=\"%zu\" fill=\"%s\" points=\"", r,
			r < e->nr_top ? tl_colours[r % 10] : "#d3d3d3");
		for (b = 0; b < nb; b++) {
			uint64_t y = layer_y(e, b, r + 1);

			put_point(c, x0 + pw * b / nb, y, ' ');
			put_point(c, x0 + pw * (b + 1) / nb, y, ' ');
		}
		for (b = nb; b-- > 0;) {
			uint64_t y = layer_y(e, b, r);

			put_point(c, x0 + pw * (b + 1) / nb, y, ' ');
			put_point(c, x0 + pw * b / nb, y, b ? ' ' : '"');
		}
		csv__puts(c, "/>\n");
	}
}

static int timeline_svg_write(void *state, struct analysis *a, const char *path)
{
	struct timeline *tl = state;
	struct tl_table t;
	const struct tl_event *e;
	struct csv c;
	char lab[32];
	uint64_t b, nb, step;
	size_t r, k;
	int err;

	err = build_table(tl, a, &t);
	if (err)
		return err;
	err = csv__open_path(&c, path);
	if (err) {
		table_release(&t);
		return err;
	}
	csv__printf(&c,
		"<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\">\n"
		"<desc>Timeline written by readperf: the share of each interval's period per function (top %u, the rest grey), "
		"as timeline.csv</desc>\n"
		"<style type=\"text/css\">\n"
		"text { font-family: Verdana, sans-serif; font-size: 12px; fill: rgb(0,0,0); }\n"
		".title { font-size: 17px; text-anchor: middle; }\n"
		".axis { stroke: rgb(0,0,0); stroke-width: 1; }\n"
		".grid { stroke: rgb(220,220,220); stroke-width: 1; }\n"
		"</style>\n"
		"<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" fill=\"rgb(255,255,255)\"/>\n",
		TL_W, TL_H, TL_W, TL_H, TIMELINE_TOP, TL_W, TL_H);
	e = t.nr_ev ? &t.ev[0] : NULL;
	csv__printf(&c, "<text class=\"title\" x=\"%u\" y=\"24\">", (TL_W - TL_RIGHT + TL_LEFT) / 2);
	if (e) {
		xml_put(&c, analysis__event_name(a, e->event), 60);
		time_label(lab, sizeof(lab), t.width);
		csv__printf(&c, ": share of each %s interval</text>\n", lab);
	} else {
		csv__puts(&c, "no samples</text>\n");
	}
	/* y axis: 0, 25, 50, 75, 100 % */
	for (k = 0; k <= 4; k++) {
		unsigned y = TL_H - TL_BOTTOM - (unsigned)k * (TL_H - TL_TOP - TL_BOTTOM) / 4;

		csv__printf(&c, "<line class=\"grid\" x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\"/>\n"
			"<text x=\"%u\" y=\"%u\" text-anchor=\"end\">%zu%%</text>\n",
			TL_LEFT, y, TL_W - TL_RIGHT, y, TL_LEFT - 6, y + 4, k * 25);
	}
	nb = e ? t.nr_buckets : 0;
	if (e)
		draw_layers(&c, e, nb);
	csv__printf(&c, "<line class=\"axis\" x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\"/>\n"
		"<line class=\"axis\" x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\"/>\n",
		TL_LEFT, TL_TOP, TL_LEFT, TL_H - TL_BOTTOM, TL_LEFT, TL_H - TL_BOTTOM, TL_W - TL_RIGHT, TL_H - TL_BOTTOM);
	/* x axis: at most 10 labels, time since the first sample */
	step = nb > 10 ? (nb + 9) / 10 : 1;
	for (b = 0; b <= nb && nb; b += step) {
		uint64_t x = TL_LEFT * 100 + (uint64_t)(TL_W - TL_LEFT - TL_RIGHT) * 100 * b / nb;

		time_label(lab, sizeof(lab), b * t.width);
		csv__puts(&c, "<text x=\"");
		put_c(&c, x);
		csv__printf(&c, "\" y=\"%u\" text-anchor=\"middle\">%s</text>\n", TL_H - TL_BOTTOM + 18, lab);
	}
	csv__printf(&c, "<text x=\"%u\" y=\"%u\" text-anchor=\"middle\">time since the first sample</text>\n",
		(TL_W - TL_RIGHT + TL_LEFT) / 2, TL_H - 14);
	/* the legend: top function first */
	for (r = 0; e && r <= e->nr_top; r++) {
		unsigned y = TL_TOP + (unsigned)r * 22;

		csv__printf(&c, "<g class=\"legend\" data-layer=\"%zu\"><rect x=\"%u\" y=\"%u\" width=\"14\" height=\"14\" "
			"fill=\"%s\"/><text x=\"%u\" y=\"%u\">", r, TL_W - TL_RIGHT + 20, y,
			r < e->nr_top ? tl_colours[r % 10] : "#d3d3d3", TL_W - TL_RIGHT + 40, y + 12);
		xml_put(&c, r < e->nr_top ? e->top[r]->function : "[other]", 38);
		csv__puts(&c, "</text></g>\n");
	}
	csv__puts(&c, "</svg>\n");
	table_release(&t);
	return csv__commit(&c);
}

static const struct report_output timeline_outputs[] = {
	{ .name = "timeline", .columns = timeline_cols, .write = timeline_write },
	{ .name = "timeline", .is_path = 1, .write = timeline_svg_write,
	  .help = "the timeline as a stacked-area SVG (top 10 functions of the first event)" },
	{ .name = NULL }
};

const struct report_ops timeline_report = {
	.name = "timeline",
	.source = REPORT_FROM_ANALYSIS,
	.state_size = sizeof(struct timeline),
	.outputs = timeline_outputs,
	.begin = timeline_begin,
	.sample = timeline_sample,
	.release = timeline_release,
};

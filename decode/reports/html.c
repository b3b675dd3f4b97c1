/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * --html FILE.html: one self-contained page of the analysis (issue 26,
 * page.h): the recording's header, the function table of results.csv per
 * event, a function's callers and callees (callers.csv's edges) and source
 * lines (lines.csv), the flame graph of the event's stacks, the timeline
 * whose brush re-computes the table and the flame graph for a time range,
 * the off-CPU flame graph, threads.csv's threads and the unwind quality of
 * quality.csv.
 *
 * The stacks are the stacks report's (stacks__key: event, comm, frames),
 * each with its samples and period per time cell: the timeline splits the
 * recording's [first, last] sample time (the header's SAMPLE_TIME) at the
 * HTML_BUCKETS + 1 instants --time P% resolves to (cli/common.c: first +
 * span * P / 100 in integers); cell 2k holds the samples at instant k
 * exactly, cell 2k + 1 those strictly between instants k and k + 1.  As
 * --time START,END keeps START <= time <= END, a brush from A% to B% is
 * cells 2A .. 2B: the samples of --time A%-B%.  Cell -1: no time, or
 * outside [first, last] (in no range).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "decode/reports/common.h"
#include "decode/reports/page.h"
#include "decode/reports/quality.h"
#include "decode/reports/stacks.h"
#include "decode/reports/threads.h"
#include "perffile/features.h"
#include "util/array.h"
#include "util/hashmap.h"
#include "util/pool.h"
#include "util/strbuf.h"

#define HTML_BUCKETS 100

struct html_stack {
	uint32_t id;
	int callchain;
	size_t last;			/* its newest entry in cells, + 1 */
	uint64_t samples, period;
};

/* a stack's samples in one time cell */
struct html_cell {
	uint32_t stack;
	int32_t cell;
	uint64_t samples, period;
	size_t seq;			/* creation order: equal keys merge in order */
};

struct html {
	struct pool pool;		/* struct html_stack */
	struct hashmap stacks;		/* stacks__key -> struct html_stack */
	struct array cells;		/* struct html_cell, creation order */
	struct strbuf key, prev;	/* this sample's stack key, the last sample's */
	struct html_stack *prev_st;	/* the last sample's stack: consecutive samples often share it */
	uint64_t t0, span;		/* the header's first sample time and last - first; span 0: no timeline */
	uint64_t k, lo, hi;		/* the last sample's interval: k, instants k and k + 1 (samples come in time order) */
	uint64_t first_time, last_time;	/* of the samples, when the file has no SAMPLE_TIME */
	int have_time;
};

struct html_edge {
	uint32_t caller, callee;	/* func_stat ids */
	uint64_t samples, period;
	uint32_t seen;			/* the stack that counted it last, + 1 */
};

/* what the writer carries besides the page */
struct html_out {
	struct page p;
	uint32_t *func_index;		/* func id -> row + 1 in "f", 0: not written */
	const uint8_t **keys;		/* stack id -> its key (struct stack_key + frames) */
	struct html_stack **st;		/* stack id -> its counts */
	size_t nr_stacks;
	struct pool names;		/* the off-CPU frames' names, alive until the page is closed */
	struct hashmap comm_refs;	/* a stack's comm (interned: its pointer) -> its index in "s" + 1 */
	struct analysis *a;
	int first;			/* the next row is the list's first */
};

static int html_begin(void *state, struct analysis *a)
{
	struct html *h = state;
	const struct perf_features *ft = perf_file__features(analysis__file(a));

	hashmap__init(&h->stacks);
	array__init(&h->cells, sizeof(struct html_cell));
	strbuf__init(&h->key);
	strbuf__init(&h->prev);
	if (ft && perf_features__has(ft, PERF_FEAT_SAMPLE_TIME) && ft->last_sample_time > ft->first_sample_time) {
		h->t0 = ft->first_sample_time;
		h->span = ft->last_sample_time - ft->first_sample_time;
	}
	return 0;
}

static void html_release(void *state)
{
	struct html *h = state;

	hashmap__release(&h->stacks, NULL);	/* values are pool memory */
	array__release(&h->cells);
	strbuf__release(&h->key);
	strbuf__release(&h->prev);
	pool__release(&h->pool);
}

/* instant k of the timeline: --time's first + span * k / HTML_BUCKETS */
static uint64_t instant(const struct html *h, uint64_t k)
{
	return h->t0 + (uint64_t)((unsigned __int128)h->span * k / HTML_BUCKETS);
}

/* the time cell of a sample (the file comment) */
static int32_t time_cell(struct html *h, const struct rsample *s)
{
	uint64_t k;

	if (!h->span || !s->has_time || s->time < h->t0 || s->time > h->t0 + h->span)
		return -1;
	if (h->hi && s->time >= h->lo && s->time < h->hi)
		return (int32_t)(s->time == h->lo ? 2 * h->k : 2 * h->k + 1);
	k = (uint64_t)((unsigned __int128)(s->time - h->t0) * HTML_BUCKETS / h->span);
	if (k > HTML_BUCKETS)
		k = HTML_BUCKETS;
	while (k > 0 && instant(h, k) > s->time)
		k--;
	while (k < HTML_BUCKETS && instant(h, k + 1) <= s->time)
		k++;
	if (k < HTML_BUCKETS) {
		h->k = k;
		h->lo = instant(h, k);
		h->hi = instant(h, k + 1);
	}
	return (int32_t)(instant(h, k) == s->time ? 2 * k : 2 * k + 1);
}

/* the counts of the stack in h->key, made when new; NULL on ENOMEM */
static struct html_stack *find_stack(struct html *h, const struct rsample *s)
{
	struct html_stack *st;
	void **slot;
	int ret = hashmap__insert(&h->stacks, h->key.buf, h->key.len, &slot);

	if (ret < 0)
		return NULL;
	if (ret == 1) {
		*slot = st = pool__alloc(&h->pool, sizeof(*st));
		if (!st)
			return NULL;
		st->id = (uint32_t)(h->stacks.len - 1);
		st->callchain = s->callchain;
	}
	return *slot;
}

static int html_sample(void *state, struct analysis *a, const struct rsample *s)
{
	struct html *h = state;
	struct html_stack *st;
	struct html_cell *c;
	int32_t cell = time_cell(h, s);
	struct strbuf tmp;
	int ret;

	if (s->has_time) {
		if (!h->have_time || s->time < h->first_time)
			h->first_time = s->time;
		if (!h->have_time || s->time > h->last_time)
			h->last_time = s->time;
		h->have_time = 1;
	}
	ret = stacks__key(&h->key, a, s);
	if (ret)
		return ret;
	st = h->prev_st;
	if (!st || h->key.len != h->prev.len || memcmp(h->key.buf, h->prev.buf, h->key.len)) {
		st = find_stack(h, s);
		if (!st)
			return -ENOMEM;
		tmp = h->key;	/* the key is the last sample's now */
		h->key = h->prev;
		h->prev = tmp;
		h->prev_st = st;
	}
	st->samples++;
	st->period += s->period;
	c = st->last ? &ARRAY_AT(&h->cells, struct html_cell, st->last - 1) : NULL;
	if (!c || c->cell != cell) {
		c = array__push(&h->cells);
		if (!c)
			return -ENOMEM;
		memset(c, 0, sizeof(*c));
		c->stack = st->id;
		c->cell = cell;
		c->seq = h->cells.len;
		st->last = h->cells.len;
	}
	c->samples++;
	c->period += s->period;
	return 0;
}

/* the recording: file, host, perf version, command line, duration, events, the timeline's span */
static void put_header(struct html_out *o, const struct html *h, struct analysis *a)
{
	const struct perf_features *ft = perf_file__features(analysis__file(a));
	struct page *p = &o->p;
	uint64_t dur = h->span;
	struct analysis_event ev;
	struct strbuf cmd;
	size_t i, n = analysis__nr_events(a);
	uint32_t k;

	if (!dur && h->have_time)
		dur = h->last_time - h->first_time;
	csv__puts(&p->c, ",\"file\":");
	page__str(p, analysis__opts(a)->input_name);
	csv__puts(&p->c, ",\"host\":");
	page__str(p, ft ? ft->hostname : NULL);
	csv__puts(&p->c, ",\"perf\":");
	page__str(p, ft ? ft->version : NULL);
	csv__puts(&p->c, ",\"cmd\":");
	strbuf__init(&cmd);
	for (k = 0; ft && k < ft->cmdline_argc; k++)
		page__err(p, (k ? strbuf__addch(&cmd, ' ') : 0) ?: strbuf__addstr(&cmd, ft->cmdline[k]));
	page__str(p, ft && ft->cmdline_argc ? cmd.buf : NULL);
	strbuf__release(&cmd);
	csv__printf(&p->c, ",\"dur\":%" PRIu64 ",\"span\":%" PRIu64 ",\"buckets\":%d,\"lim\":%" PRIu64 ",\"ev\":[",
		    dur, h->span, HTML_BUCKETS, analysis__opts(a)->percent_limit);
	for (i = 0; i < n; i++) {
		analysis__event(a, i, &ev);
		csv__puts(&p->c, i ? ",[" : "[");
		page__str(p, analysis__event_name(a, (uint32_t)i));
		csv__printf(&p->c, ",%" PRIu64 ",%" PRIu64 ",%d,%d]", ev.samples, ev.period, ev.time_unit ? 1 : 0,
			    ev.callchain ? 1 : 0);
	}
	csv__puts(&p->c, "]");
}

/*
 * "f": every function with samples or children, in results.csv's order:
 * [event, dso, function, file, line, samples, period, children samples,
 * children period, shown] (strings as indices into "s"; shown: 0 when
 * --percent-limit leaves it out of results.csv)
 */
static int put_funcs(struct html_out *o, struct analysis *a)
{
	size_t n = analysis__nr_funcs(a), i, row = 0;
	const struct func_stat **v = calloc(n + 1, sizeof(*v));
	int children = analysis__have_callchains(a);

	o->func_index = calloc(n + 1, sizeof(*o->func_index));
	if (!v || !o->func_index) {
		free(v);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		v[i] = analysis__func(a, i);
	qsort(v, n, sizeof(*v), report__func_cmp);
	csv__puts(&o->p.c, ",\"f\":[");
	for (i = 0; i < n; i++) {
		const struct func_stat *f = v[i];
		uint64_t total = analysis__event_period(a, f->event);
		long dso, fn, file;
		int shown;

		if (!f->samples && !f->ch_samples)
			continue;
		shown = !analysis__below_limit(a, f->period, total) ||
			(children && !analysis__below_limit(a, f->ch_period, total));
		o->func_index[f->id] = (uint32_t)++row;
		dso = page__ref(&o->p, f->dso);	/* in this order: the table is deterministic */
		fn = page__ref(&o->p, f->function);
		file = page__ref(&o->p, f->def_file);
		csv__printf(&o->p.c, "%s[%" PRIu32 ",%ld,%ld,%ld,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%d]",
			    row > 1 ? "," : "", f->event, dso, fn, file, f->def_file ? f->def_line : 0, f->samples, f->period,
			    f->ch_samples, f->ch_period, shown);
	}
	csv__puts(&o->p.c, "]");
	free(v);
	return 0;
}

/* the stacks by id: their keys and counts */
static int index_stacks(struct html_out *o, const struct html *h)
{
	const struct hashmap_entry *he;
	size_t it = 0;

	o->nr_stacks = h->stacks.len;
	o->keys = calloc(o->nr_stacks + 1, sizeof(*o->keys));
	o->st = calloc(o->nr_stacks + 1, sizeof(*o->st));
	if (!o->keys || !o->st)
		return -ENOMEM;
	while ((he = hashmap__next(&h->stacks, &it))) {
		struct html_stack *st = he->value;

		o->keys[st->id] = he->key;
		o->st[st->id] = st;
	}
	return 0;
}

static const uintptr_t *key_frames(const uint8_t *key, struct stack_key *k)
{
	memcpy(k, key, sizeof(*k));
	return (const uintptr_t *)(const void *)(key + sizeof(*k));
}

/* one (caller, callee) pair of stack id, counted once per stack */
static int count_edge(struct hashmap *map, struct array *list, uint32_t caller, uint32_t callee,
		      const struct html_stack *st)
{
	uint64_t key = (uint64_t)caller << 32 | callee;
	struct html_edge *e;
	void **slot;
	int ret = hashmap__insert(map, &key, sizeof(key), &slot);

	if (ret < 0)
		return ret;
	if (ret == 1) {
		e = array__push(list);
		if (!e)
			return -ENOMEM;
		memset(e, 0, sizeof(*e));
		e->caller = caller;
		e->callee = callee;
		*slot = (void *)(uintptr_t)list->len;
	}
	e = &ARRAY_AT(list, struct html_edge, (uintptr_t)*slot - 1);
	if (e->seen != st->id + 1) {
		e->seen = st->id + 1;
		e->samples += st->samples;
		e->period += st->period;
	}
	return 0;
}

/*
 * "e": callers.csv's edges that pass --percent-limit: [caller row, callee
 * row, samples, period].  callers.c counts a (caller, callee) pair once per
 * sample; a sample's pairs are its stack's, so each stack's pairs once, with
 * the stack's samples, give the same counts.
 */
static int put_edges(struct html_out *o, struct analysis *a)
{
	struct hashmap map;
	struct array list;
	const struct html_edge *e;
	struct stack_key k;
	size_t i, j, first = 1;
	int err = 0;

	hashmap__init(&map);
	array__init(&list, sizeof(struct html_edge));
	for (i = 0; i < o->nr_stacks && !err; i++) {
		const uintptr_t *fr = key_frames(o->keys[i], &k);

		for (j = 0; o->st[i]->callchain && j + 1 < k.nr && !err; j++)
			err = count_edge(&map, &list, frame__func(fr[j + 1])->id, frame__func(fr[j])->id, o->st[i]);
	}
	csv__puts(&o->p.c, ",\"e\":[");
	for (i = 0, e = list.data; i < list.len && !err; i++) {
		const struct func_stat *callee = analysis__func(a, e[i].callee);

		if (analysis__below_limit(a, e[i].period, analysis__event_period(a, callee->event)))
			continue;
		if (!o->func_index[e[i].caller] || !o->func_index[callee->id])
			continue;
		csv__printf(&o->p.c, "%s[%" PRIu32 ",%" PRIu32 ",%" PRIu64 ",%" PRIu64 "]", first ? "" : ",",
			    o->func_index[e[i].caller] - 1, o->func_index[callee->id] - 1, e[i].samples, e[i].period);
		first = 0;
	}
	csv__puts(&o->p.c, "]");
	hashmap__release(&map, NULL);
	array__release(&list);
	return err;
}

/* "l": lines.csv's rows in its order: [function row, file, line, samples, period] */
static int put_lines(struct html_out *o, struct analysis *a)
{
	size_t n = analysis__nr_lines(a), i, first = 1;
	const struct line_stat **v = calloc(n + 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		v[i] = analysis__line(a, i);
	qsort(v, n, sizeof(*v), report__line_cmp);
	csv__puts(&o->p.c, ",\"l\":[");
	for (i = 0; i < n; i++) {
		const struct line_stat *l = v[i];

		if (!l->samples || analysis__below_limit(a, l->period, analysis__event_period(a, l->f->event)))
			continue;
		if (!o->func_index[l->f->id])
			continue;
		csv__printf(&o->p.c, "%s[%" PRIu32 ",%ld,%u,%" PRIu64 ",%" PRIu64 "]", first ? "" : ",",
			    o->func_index[l->f->id] - 1, page__ref(&o->p, l->src_file), l->src_file ? l->line : 0,
			    l->samples, l->period);
		first = 0;
	}
	csv__puts(&o->p.c, "]");
	free(v);
	return 0;
}

static int cell_cmp(const void *pa, const void *pb)
{
	const struct html_cell *a = pa, *b = pb;

	if (a->stack != b->stack)
		return a->stack < b->stack ? -1 : 1;
	if (a->cell != b->cell)
		return a->cell < b->cell ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* comm's index in "s", found once: page__ref hashes the name, and a long one is in every stack of its thread */
static long comm_ref(struct html_out *o, const char *comm)
{
	void **slot;
	long ref;

	if (!comm)
		return page__ref(&o->p, comm);
	if (hashmap__insert(&o->comm_refs, &comm, sizeof(comm), &slot) < 0) {
		page__err(&o->p, -ENOMEM);
		return -1;
	}
	if (!*slot) {
		ref = page__ref(&o->p, comm);
		if (ref < 0)
			return ref;
		*slot = (void *)(uintptr_t)(ref + 1);
	}
	return (long)((uintptr_t)*slot - 1);
}

/* one stack: [event, comm, callchain, [frame rows, innermost first], [cell, samples, period, ...]] */
static void put_stack(struct html_out *o, size_t id, const struct html_cell *c, size_t nr)
{
	struct stack_key k;
	const uintptr_t *fr = key_frames(o->keys[id], &k);
	size_t i;
	int first = 1;

	csv__printf(&o->p.c, "%s[%" PRIu32 ",%ld,%d,[", id ? "," : "", k.event, comm_ref(o, k.comm),
		    o->st[id]->callchain ? 1 : 0);
	for (i = 0; i < k.nr; i++)
		page__num(&o->p, i ? ',' : 0, (int64_t)o->func_index[frame__func(fr[i])->id] - 1);
	csv__puts(&o->p.c, "],[");
	for (i = 0; i < nr; i++) {
		uint64_t samples = c[i].samples, period = c[i].period;

		while (i + 1 < nr && c[i + 1].cell == c[i].cell) {	/* out of time order: one cell again */
			samples += c[++i].samples;
			period += c[i].period;
		}
		page__num(&o->p, first ? 0 : ',', c[i].cell);
		page__num(&o->p, ',', (int64_t)samples);
		page__num(&o->p, ',', (int64_t)period);
		first = 0;
	}
	csv__puts(&o->p.c, "]]");
}

/* "k": the stacks in creation order, each with its time cells */
static void put_stacks(struct html_out *o, struct html *h)
{
	struct html_cell *c = h->cells.data;
	size_t i = 0, id, end;

	if (h->cells.len)
		qsort(c, h->cells.len, sizeof(*c), cell_cmp);
	csv__puts(&o->p.c, ",\"k\":[");
	for (id = 0; id < o->nr_stacks; id++) {
		for (end = i; end < h->cells.len && c[end].stack == id; end++)
			;
		put_stack(o, id, c + i, end - i);
		i = end;
	}
	csv__puts(&o->p.c, "]");
}

/* "w": the run's warnings so far, "wd": those not kept; "lost": [chunks, records, lost samples, samples] */
static void put_notes(struct html_out *o, struct analysis *a)
{
	const struct analysis_notes *n = analysis__opts(a)->notes;
	const struct log_keep *k = n ? n->warnings : NULL;
	size_t i;

	csv__puts(&o->p.c, ",\"w\":[");
	for (i = 0; k && i < k->nr; i++) {
		csv__puts(&o->p.c, i ? "," : "");
		page__str(&o->p, k->msgs[i]);
	}
	csv__printf(&o->p.c, "],\"wd\":%zu,\"lost\":", k ? k->dropped : 0);
	if (n && n->have_losses)
		csv__printf(&o->p.c, "[%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "]", n->lost_chunks, n->lost_records,
			    n->lost_samples, n->samples);
	else
		csv__puts(&o->p.c, "null");
}

/* one row of "q": quality.csv's [event, dso, samples, user_stacks, cut, unknown, cut_here] */
static int quality_row(void *ctx, const struct quality_row *r)
{
	struct html_out *o = ctx;

	csv__printf(&o->p.c, "%s[%" PRIu32 ",%ld,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "]",
		    o->first ? "" : ",", r->event, page__ref(&o->p, r->dso), r->samples, r->user_stacks, r->cut,
		    r->unknown, r->cut_here);
	o->first = 0;
	return 0;
}

/* one row of "th": threads.csv's [pid, tid, comm, comms, event (-1: none), samples, period, oncpu_ns, offcpu_ns,
 * switches, voluntary, preempted] */
static int thread_row(void *ctx, const struct thread_row *r)
{
	struct html_out *o = ctx;

	csv__printf(&o->p.c, "%s[%" PRIu32 ",%" PRIu32 ",%ld,%ld,%ld,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRId64
		    ",%" PRId64 ",%" PRId64 ",%" PRId64 "]", o->first ? "" : ",", r->pid, r->tid, page__ref(&o->p, r->comm),
		    page__ref(&o->p, r->comms), *r->event ? page__ref(&o->p, r->event) : -1L, r->samples, r->period,
		    r->oncpu_ns, r->offcpu_ns, r->switches, r->voluntary, r->preempted);
	o->first = 0;
	return 0;
}

/* "o": the off-CPU stacks of --folded-offcpu, [[comm, outer, ..., inner frame names], ns]; null without switches */
static int put_offcpu(struct html_out *o, struct analysis *a)
{
	struct folded fd;
	long *refs;
	size_t i;
	int err = threads__folded_offcpu(a, &fd);

	csv__puts(&o->p.c, ",\"o\":");
	if (err == -ENODATA) {
		csv__puts(&o->p.c, "null");
		return 0;
	}
	if (err)
		return err;
	refs = calloc(fd.names.v.len ? fd.names.v.len : 1, sizeof(*refs));
	if (!refs)
		err = -ENOMEM;
	csv__puts(&o->p.c, "[");
	for (i = 0; i < fd.nr && !err; i++) {
		csv__puts(&o->p.c, i ? ",[[" : "[[");
		err = page__fold_line(&o->p, &fd, i, refs, &o->names);
		csv__printf(&o->p.c, "],%" PRIu64 "]", fd.v[i].samples);
	}
	csv__puts(&o->p.c, "]");
	free(refs);
	folded__release(&fd);
	return err;
}

/* "w", "wd", "lost", "q", "th", "o": the header's notes, quality.csv, threads.csv, the off-CPU stacks */
static int put_more(struct html_out *o, struct analysis *a)
{
	int err;

	put_notes(o, a);
	csv__puts(&o->p.c, ",\"q\":[");
	o->first = 1;
	err = quality__each(a, quality_row, o);
	csv__puts(&o->p.c, "],\"th\":[");
	o->first = 1;
	err = err ?: threads__each(a, thread_row, o);
	csv__puts(&o->p.c, "]");
	return err ?: put_offcpu(o, a);
}

static int html_write(void *state, struct analysis *a, const char *path)
{
	struct html *h = state;
	struct html_out o;
	int err;

	memset(&o, 0, sizeof(o));
	err = page__open(&o.p, path, PAGE_ANALYSIS);
	if (err)
		return err;
	put_header(&o, h, a);
	err = put_funcs(&o, a) ?: index_stacks(&o, h) ?: put_edges(&o, a) ?: put_lines(&o, a);
	if (!err)
		put_stacks(&o, h);
	err = err ?: put_more(&o, a);
	page__err(&o.p, err);
	free(o.func_index);
	free(o.keys);
	free(o.st);
	err = page__close(&o.p);
	pool__release(&o.names);
	hashmap__release(&o.comm_refs, NULL);
	return err;
}

static const struct report_output html_outputs[] = {
	{ .name = "html", .is_path = 1, .write = html_write,
	  .help = "one self-contained HTML page: the function table (sortable, per event), callers, callees,\n"
		  "lines, flame graphs, the timeline with a time-range brush, threads, unwind quality" },
	{ .name = NULL }
};

static const struct report_ops *const html_uses[] = { &threads_report, &quality_report, NULL };

const struct report_ops html_report = {
	.name = "html",
	.source = REPORT_FROM_ANALYSIS,
	.state_size = sizeof(struct html),
	.needs = REPORT_NEEDS_FRAMES,
	.outputs = html_outputs,
	.uses = html_uses,
	.begin = html_begin,
	.sample = html_sample,
	.release = html_release,
};

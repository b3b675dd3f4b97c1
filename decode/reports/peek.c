/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * --peek FILE (readperf tree FILE FUNCTION): the callers and callees of the
 * --focus functions as text, pprof's peek and perf report -g caller's view
 * of one function.  Per event and function: the samples whose stack holds
 * it (its total, the children columns of results.csv), then each caller
 * (the frame right above an occurrence) and each callee (right below), and
 * the samples it is the leaf of (self), each counted once per sample, with
 * its share of the function's total period; the function's own line gives
 * its share of the kept samples and of all the event's samples (perf report
 * --children's figure).  Rows by period descending,
 * then name.  Needs --focus (the functions); without it there is nothing to
 * show.  Names are terminal text (escape__term).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "decode/reports/common.h"
#include "util/array.h"
#include "util/hashmap.h"
#include "util/pool.h"
#include "util/escape.h"
#include "util/strbuf.h"

enum peek_kind { PEEK_CALLER, PEEK_CALLEE };

/* a caller or callee of a focus function (target) */
struct peek_edge {
	const struct func_stat *target, *other;
	uint32_t kind;
	uint64_t samples, period;
	uint64_t seen;			/* the sample that counted it last */
};

/* a focus function of one event */
struct peek_target {
	const struct func_stat *f;
	uint64_t samples, period, self_samples, self_period;
	uint64_t seen;
};

struct peek {
	struct pool pool;
	struct hashmap edges;		/* (target, other, kind) -> struct peek_edge * */
	struct hashmap targets;		/* func_stat * -> struct peek_target * */
	struct array edge_list, target_list;	/* creation order */
};

static int peek_begin(void *state, struct analysis *a)
{
	struct peek *p = state;

	(void)a;
	hashmap__init(&p->edges);
	hashmap__init(&p->targets);
	array__init(&p->edge_list, sizeof(void *));
	array__init(&p->target_list, sizeof(void *));
	return 0;
}

static void peek_release(void *state)
{
	struct peek *p = state;

	hashmap__release(&p->edges, NULL);	/* pool memory */
	hashmap__release(&p->targets, NULL);
	array__release(&p->edge_list);
	array__release(&p->target_list);
	pool__release(&p->pool);
}

/* the value of key in map, a new zeroed size-byte object in the pool (and in list) when absent */
static void *get_entry(struct peek *p, struct hashmap *map, struct array *list, const void *key, size_t len,
		       size_t size)
{
	void **slot, **l;
	int ret = hashmap__insert(map, key, len, &slot);

	if (ret < 0)
		return NULL;
	if (ret == 1) {
		*slot = pool__alloc(&p->pool, size);
		l = array__push(list);
		if (!*slot || !l)
			return NULL;
		*l = *slot;
	}
	return *slot;
}

static int count_edge(struct peek *p, const struct rsample *s, const struct func_stat *target,
		      const struct func_stat *other, uint32_t kind)
{
	struct { const void *t, *o; uint64_t kind; } key = { target, other, kind };
	struct peek_edge *e = get_entry(p, &p->edges, &p->edge_list, &key, sizeof(key), sizeof(*e));

	if (!e)
		return -ENOMEM;
	if (!e->target) {
		e->target = target;
		e->other = other;
		e->kind = kind;
		e->seen = UINT64_MAX;
	}
	if (e->seen != s->seq) {
		e->seen = s->seq;
		e->samples++;
		e->period += s->period;
	}
	return 0;
}

static int count_target(struct peek *p, const struct rsample *s, const struct func_stat *f, int leaf)
{
	struct peek_target *t = get_entry(p, &p->targets, &p->target_list, &f, sizeof(f), sizeof(*t));

	if (!t)
		return -ENOMEM;
	if (!t->f) {
		t->f = f;
		t->seen = UINT64_MAX;
	}
	if (t->seen != s->seq) {
		t->seen = s->seq;
		t->samples++;
		t->period += s->period;
	}
	if (leaf) {
		t->self_samples++;
		t->self_period += s->period;
	}
	return 0;
}

static int is_focus(const struct analysis_opts *o, const struct func_stat *f)
{
	size_t i;

	for (i = 0; i < o->nr_focus; i++)
		if (!strcmp(o->focus[i], f->function))
			return 1;
	return 0;
}

static int peek_sample(void *state, struct analysis *a, const struct rsample *s)
{
	const struct analysis_opts *o = analysis__opts(a);
	struct peek *p = state;
	size_t i;
	int err = 0;

	for (i = 0; i < s->nr_frames && !err; i++) {
		const struct func_stat *f = frame__func(s->frames[i]);

		if (!is_focus(o, f))
			continue;
		err = count_target(p, s, f, i == 0);
		if (!err && i + 1 < s->nr_frames)
			err = count_edge(p, s, f, frame__func(s->frames[i + 1]), PEEK_CALLER);
		if (!err && i > 0)
			err = count_edge(p, s, f, frame__func(s->frames[i - 1]), PEEK_CALLEE);
	}
	return err;
}

static int name_cmp(const struct func_stat *a, const struct func_stat *b)
{
	int r = report__cmp_str(a->function, b->function);

	return r ? r : report__cmp_str(a->dso, b->dso);
}

static int target_cmp(const void *pa, const void *pb)
{
	const struct peek_target *a = *(struct peek_target *const *)pa, *b = *(struct peek_target *const *)pb;
	int r;

	if (a->f->event != b->f->event)
		return a->f->event < b->f->event ? -1 : 1;
	r = report__cmp_u64_desc(a->period, b->period);
	return r ? r : name_cmp(a->f, b->f);
}

static int edge_cmp(const void *pa, const void *pb)
{
	const struct peek_edge *a = *(struct peek_edge *const *)pa, *b = *(struct peek_edge *const *)pb;
	int r = report__cmp_u64_desc(a->period, b->period);

	return r ? r : name_cmp(a->other, b->other);
}

static double pct_of(uint64_t part, uint64_t total)
{
	return total ? 100.0 * (double)part / (double)total : 0;
}

/* names from the file as terminal text: two scratch buffers for one line */
struct peek_text {
	struct term_text a, b;
};

static void share(struct csv *c, struct peek_text *tx, uint64_t samples, uint64_t period, uint64_t total,
		  const struct func_stat *f)
{
	csv__printf(c, "  %10" PRIu64 " %14" PRIu64 " %7.2f%%  %s (%s)\n", samples, period, pct_of(period, total),
		    escape__term_str(&tx->a, f->function), escape__term_str(&tx->b, f->dso));
}

/* the callers or callees of t, by period */
static int print_edges(struct csv *c, struct peek_text *tx, const struct peek *p, const struct peek_target *t,
		       uint32_t kind, struct array *v)
{
	struct peek_edge **e = p->edge_list.data, **out;
	size_t i;

	v->len = 0;
	for (i = 0; i < p->edge_list.len; i++) {
		if (e[i]->target != t->f || e[i]->kind != kind)
			continue;
		out = array__push(v);
		if (!out)
			return -ENOMEM;
		*out = e[i];
	}
	csv__printf(c, "  %s:%s\n", kind == PEEK_CALLER ? "callers" : "callees", v->len ? "" : " none");
	for (i = 0; i < v->len; i++) {
		const struct peek_edge *x = ((struct peek_edge **)v->data)[i];

		share(c, tx, x->samples, x->period, t->period, x->other);
	}
	return 0;
}

static int sort_edges(struct peek *p)
{
	if (p->edge_list.len)
		qsort(p->edge_list.data, p->edge_list.len, sizeof(void *), edge_cmp);
	if (p->target_list.len)
		qsort(p->target_list.data, p->target_list.len, sizeof(void *), target_cmp);
	return 0;
}

/*
 * Filters other than --focus, --ignore and -e (which picks events, not
 * samples of one): then the second share is not of all samples.
 */
static int other_filters(const struct analysis_opts *o)
{
	return o->nr_pids || o->nr_tids || o->nr_comms || o->nr_dsos || o->nr_syms || o->has_time;
}

/*
 * A target's first line: its share of the kept samples (100% with one
 * --focus function) and of all the event's samples, the figure of perf
 * report --children, whose percentages are of the event's total.
 */
static void print_target(struct csv *c, struct peek_text *tx, struct term_text *ev, struct analysis *a,
			 const struct peek_target *t, int first)
{
	uint32_t event = t->f->event;

	csv__printf(c, "%s%s: %s (%s): on the stack of %" PRIu64 " samples, period %" PRIu64
		    " (%.2f%% of the kept samples, %.2f%% of %s)\n", first ? "" : "\n",
		    escape__term_str(ev, analysis__event_name(a, event)),
		    escape__term_str(&tx->a, t->f->function), escape__term_str(&tx->b, t->f->dso),
		    t->samples, t->period, pct_of(t->period, analysis__event_period(a, event)),
		    pct_of(t->period, analysis__event_unstacked_period(a, event)),
		    other_filters(analysis__opts(a)) ? "the samples before --focus and --ignore" : "all samples");
}

static int write_peek(struct peek *p, struct analysis *a, struct csv *c)
{
	struct peek_target **t = p->target_list.data;
	struct peek_text tx = { TERM_TEXT_INIT, TERM_TEXT_INIT };
	struct term_text ev = TERM_TEXT_INIT;
	struct array v;
	size_t i;
	int err = sort_edges(p);

	array__init(&v, sizeof(void *));
	for (i = 0; i < p->target_list.len && !err; i++) {
		print_target(c, &tx, &ev, a, t[i], i == 0);
		csv__printf(c, "  %10s %14s %8s  %s\n", "samples", "period", "share", "function");
		err = print_edges(c, &tx, p, t[i], PEEK_CALLER, &v);
		if (err)
			break;
		csv__printf(c, "  self:\n");
		share(c, &tx, t[i]->self_samples, t[i]->self_period, t[i]->period, t[i]->f);
		err = print_edges(c, &tx, p, t[i], PEEK_CALLEE, &v);
	}
	array__release(&v);
	term_text__release(&tx.a);
	term_text__release(&tx.b);
	term_text__release(&ev);
	return err;
}

static int peek_write(void *state, struct analysis *a, const char *path)
{
	struct peek *p = state;
	struct csv c;
	int err;

	if (!p->target_list.len)
		return -ENODATA;
	err = csv__open_path(&c, path);
	if (err)
		return err;
	/* text, not CSV: csv__printf writes it as it is */
	err = write_peek(p, a, &c);
	if (err) {
		csv__abort(&c);
		return err;
	}
	return csv__commit(&c);
}

static const struct report_output peek_outputs[] = {
	{ .name = "peek", .is_path = 1, .write = peek_write,
	  .help = "the callers and callees of the --focus functions, with their shares,\n"
		  "as text into FILE (readperf tree)" },
	{ .name = NULL }
};

const struct report_ops peek_report = {
	.name = "peek",
	.source = REPORT_FROM_ANALYSIS,
	.state_size = sizeof(struct peek),
	.needs = REPORT_NEEDS_FRAMES,
	.outputs = peek_outputs,
	.begin = peek_begin,
	.sample = peek_sample,
	.release = peek_release,
};

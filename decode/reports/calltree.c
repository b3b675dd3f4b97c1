/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * calltree.csv: the call tree as a table, one row per distinct path from a
 * root (perf report -g caller's tree, pprof's tree).  Top-down by default:
 * a root is a stack's outermost frame and each level the function it
 * called; --inverted gives the bottom-up tree (a root is the sampled
 * function, each level its caller, so a root's total is results.csv's
 * self columns).  A node's self counts are the samples whose stack ends at
 * it, its totals the samples whose stack passes through it; percent is the
 * total period's share of the event's.  Every sample counts, a sample
 * without a callchain as a one-frame stack; with --inline the inlined
 * frames are nodes.
 *
 * Node ids are 1, 2, ... in depth-first order, events in attr order, the
 * roots and each node's children sorted by total period descending, then
 * dso and function; parent is empty for a root.  --percent-limit leaves out
 * a node below it with its subtree.  Memory: one node per distinct path
 * (and event), never per sample.  Not in --reports default: --reports
 * calltree.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decode/reports/common.h"
#include "util/array.h"
#include "util/hashmap.h"
#include "util/pool.h"

struct ct_node {
	const struct func_stat *f;
	struct ct_node *parent, *child, *next;	/* first child, next sibling */
	uint64_t self_samples, self_period, samples, period;
	uint32_t depth;
};

struct calltree {
	struct pool pool;
	struct hashmap nodes;		/* (parent, func) -> struct ct_node * */
	struct hashfront front;		/* before nodes */
	struct ct_node root;		/* the parent of the roots: no function */
	int inverted;
};

static const struct report_column calltree_cols[] = {
	{ "event", "TEXT" }, { "node", "BIGINT" }, { "parent", "BIGINT" }, { "depth", "BIGINT" },
	{ "dso", "TEXT" }, { "function", "TEXT" }, { "self_samples", "BIGINT" }, { "self_period", "BIGINT" },
	{ "total_samples", "BIGINT" }, { "total_period", "BIGINT" }, { "percent", "DOUBLE" }, { NULL, NULL }
};

static int calltree_begin(void *state, struct analysis *a)
{
	struct calltree *ct = state;

	hashmap__init(&ct->nodes);
	ct->inverted = analysis__opts(a)->inverted;
	return 0;
}

static void calltree_release(void *state)
{
	struct calltree *ct = state;

	hashmap__release(&ct->nodes, NULL);	/* nodes are pool memory */
	pool__release(&ct->pool);
}

/* the child of parent for function f, made when new; NULL on ENOMEM */
static struct ct_node *get_child(struct calltree *ct, struct ct_node *parent, const struct func_stat *f)
{
	const void *key[2] = { parent, f };
	struct hashfront_entry *fe = hashfront__slot(&ct->front, (uintptr_t)parent, (uintptr_t)f);
	struct ct_node *n = hashfront__get(fe, (uintptr_t)parent, (uintptr_t)f);
	void **slot;
	int ret;

	if (n)
		return n;
	ret = hashmap__insert(&ct->nodes, key, sizeof(key), &slot);
	if (ret < 0)
		return NULL;
	if (ret == 1) {
		n = pool__alloc(&ct->pool, sizeof(*n));
		*slot = n;
		if (!n)
			return NULL;
		n->f = f;
		n->parent = parent;
		n->depth = parent == &ct->root ? 0 : parent->depth + 1;
		n->next = parent->child;
		parent->child = n;
	}
	n = *slot;
	if (n)
		hashfront__set(fe, (uintptr_t)parent, (uintptr_t)f, n);
	return n;
}

static int calltree_sample(void *state, struct analysis *a, const struct rsample *s)
{
	struct calltree *ct = state;
	struct ct_node *n = &ct->root;
	size_t i, nr = s->nr_frames;

	(void)a;
	for (i = 0; i < nr; i++) {
		/* top-down walks from the outermost frame, bottom-up from the innermost */
		uintptr_t frame = ct->inverted ? s->frames[i] : s->frames[nr - 1 - i];

		n = get_child(ct, n, frame__func(frame));
		if (!n)
			return -ENOMEM;
		n->samples++;
		n->period += s->period;
	}
	if (n != &ct->root) {
		n->self_samples++;
		n->self_period += s->period;
	}
	return 0;
}

static int node_cmp(const void *pa, const void *pb)
{
	const struct ct_node *a = *(struct ct_node *const *)pa, *b = *(struct ct_node *const *)pb;

	return report__func_period_cmp(a->f, a->period, b->f, b->period);
}

/* relink n's children in write order; v is scratch */
static int sort_children(struct ct_node *n, struct array *v)
{
	struct ct_node *c, **p;
	size_t i;

	v->len = 0;
	for (c = n->child; c; c = c->next) {
		p = array__push(v);
		if (!p)
			return -ENOMEM;
		*p = c;
	}
	if (v->len < 2)
		return 0;
	p = v->data;
	qsort(p, v->len, sizeof(*p), node_cmp);
	n->child = p[0];
	for (i = 0; i + 1 < v->len; i++)
		p[i]->next = p[i + 1];
	p[v->len - 1]->next = NULL;
	return 0;
}

static void node_row(struct csv *c, struct analysis *a, const struct ct_node *n, uint64_t id, uint64_t parent)
{
	csv__str(c, analysis__event_name(a, n->f->event));
	csv__u64(c, id);
	if (parent)
		csv__u64(c, parent);
	else
		csv__empty(c);
	csv__u64(c, n->depth);
	csv__str(c, n->f->dso);
	csv__str(c, n->f->function);
	csv__u64(c, n->self_samples);
	csv__u64(c, n->self_period);
	csv__u64(c, n->samples);
	csv__u64(c, n->period);
	csv__pct(c, n->period, analysis__event_period(a, n->f->event));
	csv__end_row(c);
}

/* one entry of the depth-first walk: a node and its parent's id */
struct walk {
	struct ct_node *n;
	uint64_t parent;
};

/* the tree in depth-first order; ids from 1 */
static int write_tree(struct calltree *ct, struct analysis *a, struct csv *c)
{
	struct array stack, scratch;
	uint64_t id = 0;
	int err;

	array__init(&stack, sizeof(struct walk));
	array__init(&scratch, sizeof(struct ct_node *));
	err = sort_children(&ct->root, &scratch);
	if (!err && ct->root.child) {
		struct walk *w = array__push(&stack);

		if (!w)
			err = -ENOMEM;
		else
			*w = (struct walk){ ct->root.child, 0 };
	}
	while (!err && stack.len) {
		struct walk *w = (struct walk *)stack.data + stack.len - 1;
		struct ct_node *n = w->n;
		uint64_t parent = w->parent;

		/* the entry becomes n's next sibling, then n's first child goes on top */
		if (n->next)
			w->n = n->next;
		else
			stack.len--;
		if (analysis__below_limit(a, n->period, analysis__event_period(a, n->f->event)))
			continue;
		node_row(c, a, n, ++id, parent);
		err = sort_children(n, &scratch);
		if (!err && n->child) {
			w = array__push(&stack);
			if (!w)
				err = -ENOMEM;
			else
				*w = (struct walk){ n->child, id };
		}
	}
	array__release(&stack);
	array__release(&scratch);
	return err;
}

static int calltree_write(void *state, struct analysis *a, const char *dir)
{
	struct csv c;
	int err = report__open_csv(&c, a, dir, "calltree", calltree_cols);

	if (err)
		return err;
	err = write_tree(state, a, &c);
	if (err) {
		csv__abort(&c);
		return err;
	}
	return csv__commit(&c);
}

static const struct report_output calltree_outputs[] = {
	{ .name = "calltree", .columns = calltree_cols, .write = calltree_write, .opt_in = 1 },
	{ .name = NULL }
};

const struct report_ops calltree_report = {
	.name = "calltree",
	.source = REPORT_FROM_ANALYSIS,
	.state_size = sizeof(struct calltree),
	.needs = REPORT_NEEDS_FRAMES,
	.outputs = calltree_outputs,
	.begin = calltree_begin,
	.sample = calltree_sample,
	.release = calltree_release,
};

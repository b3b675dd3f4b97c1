/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annotate.csv: every instruction of every function with samples, with the
 * samples and period at its address, as perf annotate counts them: a
 * sample counts at its own ip, made file-relative (the address objdump -d
 * prints); percent is the share of the function's period.  The text is
 * objdump -d --no-show-raw-insn's, by libopcodes (analysis__disassemble);
 * a function whose code cannot be read (the kernel, JIT code, a missing
 * binary) has a row per sampled address with an empty instruction.
 * Sorted by event, the function's period (largest first), dso, function,
 * then address.  Not in --reports default (disassembling costs): --reports
 * annotate.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decode/reports/annotate.h"
#include "decode/reports/common.h"
#include "util/array.h"
#include "util/hashmap.h"

/* samples at one address of a function */
struct acount {
	uint64_t addr, samples, period;
};

static const struct report_column annotate_cols[] = {
	{ "event", "TEXT" }, { "dso", "TEXT" }, { "function", "TEXT" }, { "address", "TEXT" },
	{ "func_offset", "BIGINT" }, { "instruction", "TEXT" }, { "source_file", "TEXT" }, { "line", "BIGINT" },
	{ "samples", "BIGINT" }, { "period", "BIGINT" }, { "percent", "DOUBLE" }, { NULL, NULL }
};

/* the function key: one func_stat in one dso at one place */
struct afunc_key {
	const struct func_stat *f;
	const struct dso *dso;
	uint64_t start;
};

static void free_afunc(void *p)
{
	struct annotate_func *af = p;

	if (!af)
		return;
	hashmap__release(&af->addrs, free);
	free(af);
}

static struct annotate_func *get_afunc(struct annotate *an, const struct rsample *s,
				       const struct sample_place *pl)
{
	struct afunc_key key = { s->func, pl->dso, pl->start };
	struct annotate_func *af;
	void **slot;
	int ret;

	if (an->last && an->last->f == s->func && an->last->dso == pl->dso && an->last->start == pl->start)
		return an->last;
	ret = hashmap__insert(&an->funcs, &key, sizeof(key), &slot);
	if (ret < 0)
		return NULL;
	if (!*slot) {
		af = calloc(1, sizeof(*af));
		if (!af)
			return NULL;
		af->f = s->func;
		af->dso = pl->dso;
		af->start = pl->start;
		af->end = pl->end;
		hashmap__init(&af->addrs);
		*slot = af;
	}
	an->last = *slot;
	return an->last;
}

static int annotate_sample(void *state, struct analysis *a, const struct rsample *s)
{
	struct annotate *an = state;
	struct sample_place pl;
	struct annotate_func *af;
	struct acount *c;
	void **slot;
	int ret = analysis__sample_place(a, s, &pl);

	if (ret == -ENOENT)
		return 0;	/* no function: nothing to annotate */
	if (ret)
		return ret;
	af = get_afunc(an, s, &pl);
	if (!af)
		return -ENOMEM;
	ret = hashmap__insert(&af->addrs, &pl.addr, sizeof(pl.addr), &slot);
	if (ret < 0)
		return ret;
	if (!*slot) {
		c = calloc(1, sizeof(*c));
		if (!c)
			return -ENOMEM;
		c->addr = pl.addr;
		*slot = c;
	}
	c = *slot;
	c->samples++;
	c->period += s->period;
	af->samples++;
	af->period += s->period;
	return 0;
}

static void annotate_release(void *state)
{
	hashmap__release(&((struct annotate *)state)->funcs, free_afunc);
}

static int cmp_func(const void *pa, const void *pb)
{
	const struct annotate_func *a = *(const struct annotate_func *const *)pa;
	const struct annotate_func *b = *(const struct annotate_func *const *)pb;
	int r;

	if (a->f->event != b->f->event)
		return a->f->event < b->f->event ? -1 : 1;
	if ((r = report__cmp_u64_desc(a->period, b->period)) || (r = report__cmp_str(a->f->dso, b->f->dso)) ||
	    (r = report__cmp_str(a->f->function, b->f->function)))
		return r;
	return a->start == b->start ? 0 : (a->start < b->start ? -1 : 1);
}

int annotate__sorted(const struct annotate *an, struct annotate_func ***out, size_t *n)
{
	struct annotate_func **v = calloc(an->funcs.len ? an->funcs.len : 1, sizeof(*v));
	struct hashmap_entry *e;
	size_t it = 0;

	if (!v)
		return -ENOMEM;
	*n = 0;
	while ((e = hashmap__next(&an->funcs, &it)))
		v[(*n)++] = e->value;
	qsort(v, *n, sizeof(*v), cmp_func);
	*out = v;
	return 0;
}

static int cmp_count(const void *pa, const void *pb)
{
	const struct acount *a = *(const struct acount *const *)pa, *b = *(const struct acount *const *)pb;

	return a->addr == b->addr ? 0 : (a->addr < b->addr ? -1 : 1);
}

/* the walk over one function: its sampled addresses in order, merged with the instructions */
struct walk {
	const struct annotate_func *af;
	const struct acount **counts;
	size_t nr, next;
	annotate_line_fn fn;
	void *ctx;
};

/* the sampled addresses below limit that start no instruction (or have no code): a line each */
static int flush_below(struct walk *w, uint64_t limit)
{
	while (w->next < w->nr && w->counts[w->next]->addr < limit) {
		struct sym_insn lone = { .addr = w->counts[w->next]->addr };
		struct annotate_line l = { .af = w->af, .insn = &lone };
		int err;

		l.samples = w->counts[w->next]->samples;
		l.period = w->counts[w->next]->period;
		w->next++;
		if ((err = w->fn(w->ctx, &l)))
			return err;
	}
	return 0;
}

static int emit(struct walk *w, const struct sym_insn *in)
{
	struct annotate_line l = { .af = w->af, .insn = in };
	int err = flush_below(w, in->addr);

	if (err)
		return err;
	if (w->next < w->nr && w->counts[w->next]->addr == in->addr) {
		l.samples = w->counts[w->next]->samples;
		l.period = w->counts[w->next]->period;
		w->next++;
	}
	return w->fn(w->ctx, &l);
}

static int on_insn(void *ctx, const struct sym_insn *in)
{
	return emit(ctx, in);
}

int annotate__walk(struct analysis *a, const struct annotate_func *af, annotate_line_fn fn, void *ctx,
		   int *disassembled)
{
	struct walk w = { .af = af, .fn = fn, .ctx = ctx };
	struct hashmap_entry *e;
	size_t it = 0;
	int err;

	w.counts = calloc(af->addrs.len ? af->addrs.len : 1, sizeof(*w.counts));
	if (!w.counts)
		return -ENOMEM;
	while ((e = hashmap__next(&af->addrs, &it)))
		w.counts[w.nr++] = e->value;
	qsort(w.counts, w.nr, sizeof(*w.counts), cmp_count);
	err = analysis__disassemble(a, af->dso, af->start, af->end, on_insn, &w);
	*disassembled = !err;
	if (err == -ENOENT)
		err = 0;
	/* what is left: past the last instruction, or every address when there was no code */
	if (!err)
		err = flush_below(&w, UINT64_MAX);
	free(w.counts);
	return err;
}

struct csv_ctx {
	struct csv *out;
	struct analysis *a;
};

static int csv_line(void *ctx, const struct annotate_line *l)
{
	struct csv_ctx *c = ctx;
	const struct sym_insn *in = l->insn;

	csv__str(c->out, analysis__event_name(c->a, l->af->f->event));
	csv__str(c->out, l->af->f->dso);
	csv__str(c->out, l->af->f->function);
	csv__hex(c->out, in->addr);
	csv__i64(c->out, (int64_t)(in->addr - l->af->start));
	csv__str(c->out, in->text);
	csv__str(c->out, in->src_path ? in->src_path : in->src_file);
	csv__u64(c->out, in->line);
	csv__u64(c->out, l->samples);
	csv__u64(c->out, l->period);
	csv__pct(c->out, l->period, l->af->period);
	csv__end_row(c->out);
	return 0;
}

static int annotate_write(void *state, struct analysis *a, const char *dir)
{
	struct annotate_func **v;
	struct csv out;
	struct csv_ctx c = { &out, a };
	size_t n, i;
	int err = annotate__sorted(state, &v, &n), dis;

	if (err)
		return err;
	err = report__open_csv(&out, a, dir, "annotate", annotate_cols);
	if (err) {
		free(v);
		return err;
	}
	for (i = 0; !err && i < n; i++)
		err = annotate__walk(a, v[i], csv_line, &c, &dis);
	free(v);
	if (err) {
		csv__abort(&out);
		return err;
	}
	return csv__commit(&out);
}

static const struct report_output annotate_outputs[] = {
	{ .name = "annotate", .columns = annotate_cols, .write = annotate_write, .opt_in = 1 },
	{ .name = NULL }
};

const struct report_ops annotate_report = {
	.name = "annotate",
	.source = REPORT_FROM_ANALYSIS,
	.state_size = sizeof(struct annotate),
	.outputs = annotate_outputs,
	.sample = annotate_sample,
	.release = annotate_release,
};

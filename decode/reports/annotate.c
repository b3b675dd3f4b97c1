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
 *
 * --annotate FILE (and readperf annotate, cli/annotate.c): the same walk as
 * perf annotate --stdio's text, for the functions named
 * (analysis_opts.annotate_funcs) or the annotate_top (20) hottest.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/reports/annotate.h"
#include "decode/reports/common.h"
#include "util/array.h"
#include "util/escape.h"
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


/*
 * ------------------------------------------------ the text view (--annotate)
 *
 * Terminal text, as perf annotate --stdio: every name (the dso, the event,
 * the function, the source file), the instructions (whose <symbol> comes
 * from the binary) and the source lines go through escape__term.
 */

#define ANNOTATE_TOP 20

struct text_ctx {
	struct csv *out;
	const char *symfs;		/* where else a source file may be, or NULL */
	const char *file;		/* the source line printed last */
	unsigned line;
	double hottest;			/* the function's largest percent */
	struct term_text a, b;		/* the names of a line as terminal text */
};

/* line n (1-based) of path into buf, or 0 when it cannot be read; a small bounded scan */
static int source_text(const char *path, unsigned n, char *buf, size_t size)
{
	FILE *fp = path && n ? fopen(path, "r") : NULL;
	unsigned at = 1;
	int ok = 0;

	if (!fp)
		return 0;
	while (fgets(buf, (int)size, fp)) {
		size_t len = strlen(buf);
		int whole = len && buf[len - 1] == '\n';

		if (at == n) {
			if (whole)
				buf[len - 1] = '\0';
			ok = 1;
			break;
		}
		if (whole)
			at++;
	}
	fclose(fp);
	return ok;
}

/* a source line (in buf, changed) as terminal text, its tabs kept: they lay the code out, as in perf annotate */
static void put_source(struct csv *out, struct term_text *t, char *buf)
{
	char *tab;

	while ((tab = strchr(buf, '\t'))) {
		*tab = '\0';
		csv__printf(out, "%s\t", escape__term_str(t, buf));
		buf = tab + 1;
	}
	csv__puts(out, escape__term_str(t, buf));
}

static double pct(uint64_t num, uint64_t den)
{
	return den ? 100.0 * (double)num / (double)den : 0.0;
}

static int text_line(void *ctx, const struct annotate_line *l)
{
	struct text_ctx *t = ctx;
	const struct sym_insn *in = l->insn;
	const char *src = in->src_path ? in->src_path : in->src_file;
	double p = pct(l->period, l->af->period);
	char buf[256], sympath[4096];

	if (src && (src != t->file || in->line != t->line)) {
		t->file = src;
		t->line = in->line;
		csv__printf(t->out, "         :\t%s:%u", escape__term_str(&t->a, in->src_file ? in->src_file : src),
			    in->line);
		if (source_text(src, in->line, buf, sizeof(buf)) ||
		    (t->symfs && (size_t)snprintf(sympath, sizeof(sympath), "%s/%s", t->symfs, src) < sizeof(sympath) &&
		     source_text(sympath, in->line, buf, sizeof(buf))))
		{
			csv__puts(t->out, "\t");
			put_source(t->out, &t->a, buf);
		}
		csv__puts(t->out, "\n");
	}
	csv__printf(t->out, "%8.2f :\t%6" PRIx64 ":%s%s%s\n", p, in->addr, in->text ? "\t" : "",
		    escape__term_str(&t->a, in->text), l->samples && p >= t->hottest ? "\t<-- hottest" : "");
	return 0;
}

static int is_named(const struct analysis_opts *o, const char *function)
{
	size_t i;

	for (i = 0; i < o->nr_annotate_funcs; i++)
		if (!strcmp(o->annotate_funcs[i], function))
			return 1;
	return 0;
}

/* the largest percent of one address of af */
static double hottest(const struct annotate_func *af)
{
	struct hashmap_entry *e;
	uint64_t max = 0;
	size_t it = 0;

	while ((e = hashmap__next(&af->addrs, &it)))
		if (((const struct acount *)e->value)->period > max)
			max = ((const struct acount *)e->value)->period;
	return pct(max, af->period);
}

static int text_func(struct analysis *a, struct csv *out, const struct annotate_func *af, int *no_code)
{
	const struct analysis_opts *o = analysis__opts(a);
	struct text_ctx t = { .out = out, .hottest = hottest(af), .a = TERM_TEXT_INIT, .b = TERM_TEXT_INIT };
	int err, dis;

	t.symfs = o->symbols && o->symbols->symfs && *o->symbols->symfs ? o->symbols->symfs : NULL;
	csv__printf(out, " Percent |\tSource code & Disassembly of %s for %s (%" PRIu64 " samples, percent: local period)\n",
		    escape__term_str(&t.a, af->f->dso), escape__term_str(&t.b, analysis__event_name(a, af->f->event)),
		    af->samples);
	csv__puts(out, "---------------------------------------------------------------------------------------------\n");
	csv__printf(out, "         :\t%016" PRIx64 " <%s>:\n", af->start, escape__term_str(&t.a, af->f->function));
	err = annotate__walk(a, af, text_line, &t, &dis);
	if (!err && !dis)
		*no_code = 1;
	csv__puts(out, "\n");
	term_text__release(&t.a);
	term_text__release(&t.b);
	return err;
}

static int annotate_text_write(void *state, struct analysis *a, const char *path)
{
	const struct analysis_opts *o = analysis__opts(a);
	unsigned top = o->annotate_top ? o->annotate_top : ANNOTATE_TOP, shown = 0;
	struct annotate_func **v;
	struct csv out;
	size_t n, i;
	int err = annotate__sorted(state, &v, &n), no_code = 0;

	if (err)
		return err;
	for (i = 0; i < n && (o->nr_annotate_funcs || shown < top); i++)
		shown += !o->nr_annotate_funcs || is_named(o, v[i]->f->function);
	if (!shown) {
		free(v);
		return -ENODATA;
	}
	err = csv__open_path(&out, path);
	for (i = 0, shown = 0; !err && i < n && (o->nr_annotate_funcs || shown < top); i++) {
		if (o->nr_annotate_funcs && !is_named(o, v[i]->f->function))
			continue;
		shown++;
		err = text_func(a, &out, v[i], &no_code);
	}
	free(v);
	if (!err && no_code)
		csv__puts(&out, "(functions without code to read, such as the kernel's, show their sampled addresses only)\n");
	if (err) {
		csv__abort(&out);
		return err;
	}
	return csv__commit(&out);
}

static const struct report_output annotate_outputs[] = {
	{ .name = "annotate", .columns = annotate_cols, .write = annotate_write, .opt_in = 1 },
	{ .name = "annotate", .is_path = 1, .write = annotate_text_write,
	  .help = "perf annotate --stdio's view of the 20 hottest functions (readperf annotate)" },
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

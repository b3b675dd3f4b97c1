/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * results.csv: one row per (event, dso, function), as perf report --sort
 * dso,sym prints them, with the source line of the definition; with
 * callchains also the children columns (perf report --children).  Sorted
 * by event, period descending, children period descending, dso, function.
 *
 * --sort KEYS (perf report's names, decode/reports/results.h): one row per
 * (event, the keys' values), the keys the leading columns (pid is perf's:
 * a row per thread, the columns pid and tid), then samples,
 * period and percent (self, as perf report --no-children), counted from the
 * samples as they arrive; sorted by event, period descending, then the keys.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/reports/common.h"
#include "decode/reports/results.h"
#include "util/array.h"
#include "util/hashmap.h"
#include "util/pool.h"

static const struct report_column results_cols[] = {
	{ "event", "TEXT" }, { "dso", "TEXT" }, { "function", "TEXT" }, { "source_file", "TEXT" },
	{ "line", "BIGINT" }, { "samples", "BIGINT" }, { "period", "BIGINT" }, { "percent", "DOUBLE" },
	{ "children_samples", "BIGINT" }, { "children_period", "BIGINT" }, { "children_percent", "DOUBLE" },
	{ NULL, NULL }
};
#define NR_SELF_COLS 8

/* the --sort keys' columns, as they lead the rows (readperf schema DIR types them) */
static const struct report_column results_key_cols[] = {
	{ "comm", "TEXT" }, { "pid", "BIGINT" }, { "tid", "BIGINT" }, { "cpu", "BIGINT" }, { "dso", "TEXT" },
	{ "function", "TEXT" }, { "srcline", "TEXT" }, { "symoff", "TEXT" }, { NULL, NULL }
};
static const char *const key_names[RESULTS_NR_KEYS] = {
	"comm", "pid", "tid", "cpu", "dso", "sym", "srcline", "symoff"
};

const char *results__key_name(unsigned key)
{
	return key < RESULTS_NR_KEYS ? key_names[key] : NULL;
}

int results__parse_sort(const char *spec, uint8_t *keys, const char **bad)
{
	const char *p = spec;
	int nr = 0;

	while (*p || p == spec) {
		size_t len = strcspn(p, ","), k;

		for (k = 0; k < RESULTS_NR_KEYS; k++)
			if (strlen(key_names[k]) == len && !memcmp(key_names[k], p, len))
				break;
		if (bad)
			*bad = p;
		if (k == RESULTS_NR_KEYS)
			return -EINVAL;
		/* pid is the thread, as perf's: pid and tid are the same rows */
		if (memchr(keys, (int)k, (size_t)nr) ||
		    (k == RESULTS_KEY_TID && memchr(keys, RESULTS_KEY_PID, (size_t)nr)) ||
		    (k == RESULTS_KEY_PID && memchr(keys, RESULTS_KEY_TID, (size_t)nr)))
			return -EEXIST;
		keys[nr++] = (uint8_t)k;
		p += len;
		if (!*p)
			break;
		p++;
	}
	return nr;
}

/* the values of the keys of one row; the keys not chosen stay zero */
struct sort_row_key {
	uint32_t event;
	int32_t pid, tid, cpu;
	const char *comm, *dso, *function, *src_file;	/* interned */
	const char *sym_dso;		/* sym: the function's dso, unprinted (perf's sym is a symbol of one dso) */
	uint64_t line;
	uint64_t symoff;		/* symoff: 1 + the offset in the function, 0 without one */
};

struct sort_row {
	struct sort_row_key k;
	uint64_t samples, period;
	const struct results *owner;	/* its keys' order, for the comparison (qsort has no context) */
};

struct results {
	const uint8_t *keys;		/* opts.sort_keys; NULL: dso,sym from the hub's totals */
	size_t nr_keys;
	unsigned mask;			/* 1 << key of the chosen keys */
	struct pool pool;
	struct hashmap rows;		/* struct sort_row_key -> struct sort_row * */
	struct array list;		/* struct sort_row *, creation order */
};

static void result_row(struct csv *c, struct analysis *a, const struct func_stat *f, int children)
{
	uint64_t total = analysis__event_period(a, f->event);

	csv__str(c, analysis__event_name(a, f->event));
	csv__str(c, f->dso);
	csv__str(c, f->function);
	csv__str(c, f->def_file);
	csv__u64(c, f->def_file ? f->def_line : 0);
	csv__u64(c, f->samples);
	csv__u64(c, f->period);
	csv__pct(c, f->period, total);
	if (children) {
		csv__u64(c, f->ch_samples);
		csv__u64(c, f->ch_period);
		csv__pct(c, f->ch_period, total);
	}
	csv__end_row(c);
}

static int results_begin(void *state, struct analysis *a)
{
	struct results *r = state;
	const struct analysis_opts *o = analysis__opts(a);
	size_t i;

	hashmap__init(&r->rows);
	array__init(&r->list, sizeof(void *));
	if (!o->nr_sort_keys)
		return 0;
	r->keys = o->sort_keys;
	r->nr_keys = o->nr_sort_keys;
	for (i = 0; i < r->nr_keys; i++)
		r->mask |= 1u << r->keys[i];
	return 0;
}

static void results_release(void *state)
{
	struct results *r = state;

	hashmap__release(&r->rows, NULL);	/* rows are pool memory */
	array__release(&r->list);
	pool__release(&r->pool);
}

#define HAS(r, key) ((r)->mask >> (key) & 1)

/* the thread's comm, ":TID" when it has none (as perf names it) */
static const char *thread_comm(struct analysis *a, const struct mthread *th)
{
	char name[16];

	if (th->comm)
		return th->comm;
	snprintf(name, sizeof(name), ":%" PRIi32, (int32_t)th->tid);
	return analysis__intern(a, name);
}

/* symoff: 1 + the sample's offset in its function (perf's ip - sym->start), 0 when it has no bounds */
static int sym_offset(struct analysis *a, const struct rsample *s, uint64_t *off)
{
	struct sample_place pl;
	int ret = analysis__sample_place(a, s, &pl);

	*off = 0;
	if (ret == -ENOENT)
		return 0;
	if (ret)
		return ret;
	*off = 1 + (pl.addr - pl.start);
	return 0;
}

static int results_sample(void *state, struct analysis *a, const struct rsample *s)
{
	struct results *r = state;
	const struct perf_sample *ps = &s->rec->sample;
	struct sort_row_key k;
	struct sort_row *row, **p;
	void **slot;
	int ret;

	if (!r->keys)
		return 0;
	memset(&k, 0, sizeof(k));
	k.event = s->event;
	if (HAS(r, RESULTS_KEY_COMM) && !(k.comm = thread_comm(a, s->th)))
		return -ENOMEM;
	if (HAS(r, RESULTS_KEY_PID))
		k.pid = (int32_t)s->th->proc->pid;
	if (HAS(r, RESULTS_KEY_PID) || HAS(r, RESULTS_KEY_TID))
		k.tid = (int32_t)s->th->tid;
	if (HAS(r, RESULTS_KEY_CPU))
		k.cpu = (ps->sample_type & PERF_SAMPLE_CPU) ? (int32_t)ps->cpu : -1;
	if (HAS(r, RESULTS_KEY_DSO))
		k.dso = s->func->dso;
	if (HAS(r, RESULTS_KEY_SYM) || HAS(r, RESULTS_KEY_SYMOFF)) {
		k.function = s->func->function;
		k.sym_dso = s->func->dso;
	}
	if (HAS(r, RESULTS_KEY_SYMOFF) && (ret = sym_offset(a, s, &k.symoff)))
		return ret;
	if (HAS(r, RESULTS_KEY_SRCLINE) && s->line && s->line->src_file) {
		k.src_file = s->line->src_file;
		k.line = s->line->line;
	}
	ret = hashmap__insert(&r->rows, &k, sizeof(k), &slot);
	if (ret < 0)
		return -ENOMEM;
	if (ret == 1) {
		row = pool__alloc(&r->pool, sizeof(*row));
		*slot = row;
		p = array__push(&r->list);
		if (!row || !p)
			return -ENOMEM;
		*p = row;
		row->k = k;
		row->owner = r;
	}
	row = *slot;
	if (!row)
		return -ENOMEM;
	row->samples++;
	row->period += s->period;
	return 0;
}

/* the order of the keys' values: as the columns print */
static int key_cmp(const struct sort_row_key *a, const struct sort_row_key *b, unsigned key)
{
	int r;

	switch (key) {
	case RESULTS_KEY_COMM:
		return report__cmp_str(a->comm, b->comm);
	case RESULTS_KEY_PID:
		if (a->pid != b->pid)
			return a->pid < b->pid ? -1 : 1;
		/* perf's pid is the thread */
		return a->tid == b->tid ? 0 : (a->tid < b->tid ? -1 : 1);
	case RESULTS_KEY_TID:
		return a->tid == b->tid ? 0 : (a->tid < b->tid ? -1 : 1);
	case RESULTS_KEY_CPU:
		return a->cpu == b->cpu ? 0 : (a->cpu < b->cpu ? -1 : 1);
	case RESULTS_KEY_DSO:
		return report__cmp_str(a->dso, b->dso);
	case RESULTS_KEY_SYM:
		r = report__cmp_str(a->function, b->function);
		return r ? r : report__cmp_str(a->sym_dso, b->sym_dso);
	case RESULTS_KEY_SYMOFF:
		r = key_cmp(a, b, RESULTS_KEY_SYM);
		return r ? r : (a->symoff == b->symoff ? 0 : (a->symoff < b->symoff ? -1 : 1));
	default:
		r = report__cmp_str(a->src_file, b->src_file);
		return r ? r : (a->line == b->line ? 0 : (a->line < b->line ? -1 : 1));
	}
}

static int row_cmp(const void *pa, const void *pb)
{
	const struct sort_row *a = *(struct sort_row *const *)pa, *b = *(struct sort_row *const *)pb;
	size_t i;
	int r;

	if (a->k.event != b->k.event)
		return a->k.event < b->k.event ? -1 : 1;
	r = report__cmp_u64_desc(a->period, b->period);
	for (i = 0; !r && i < a->owner->nr_keys; i++)
		r = key_cmp(&a->k, &b->k, a->owner->keys[i]);
	return r;
}

/* as perf's symoff: "function+0xOFFSET" */
static void sym_offset_field(struct csv *c, const struct sort_row_key *k)
{
	char buf[4096];

	if (!k->symoff) {
		csv__str(c, k->function);
		return;
	}
	snprintf(buf, sizeof(buf), "%s+0x%" PRIx64, k->function, k->symoff - 1);
	csv__str(c, buf);
}

static void key_field(struct csv *c, const struct sort_row_key *k, unsigned key)
{
	switch (key) {
	case RESULTS_KEY_COMM:
		csv__str(c, k->comm);
		break;
	case RESULTS_KEY_PID:
		csv__i64(c, k->pid);
		csv__i64(c, k->tid);
		break;
	case RESULTS_KEY_TID:
		csv__i64(c, k->tid);
		break;
	case RESULTS_KEY_CPU:
		csv__i64(c, k->cpu);
		break;
	case RESULTS_KEY_DSO:
		csv__str(c, k->dso);
		break;
	case RESULTS_KEY_SYM:
		csv__str(c, k->function);
		break;
	case RESULTS_KEY_SYMOFF:
		sym_offset_field(c, k);
		break;
	default: {
		/* as perf's srcline: the file's base name and the line */
		char buf[4096];
		const char *base = k->src_file ? strrchr(k->src_file, '/') : NULL;

		if (!k->src_file) {
			csv__str(c, UNKNOWN);
			break;
		}
		snprintf(buf, sizeof(buf), "%s:%" PRIu64, base ? base + 1 : k->src_file, k->line);
		csv__str(c, buf);
	}
	}
}

/* --sort KEYS: the rows counted from the samples */
static int sorted_write(struct results *r, struct analysis *a, const char *dir)
{
	struct sort_row **v = r->list.data;
	size_t n = r->list.len, i;
	struct csv c;
	int err;

	if (n)
		qsort(v, n, sizeof(*v), row_cmp);
	err = report__open_csv(&c, a, dir, "results", NULL);
	if (err)
		return err;
	csv__str(&c, "event");
	for (i = 0; i < r->nr_keys; i++) {
		csv__str(&c, results_key_cols[r->keys[i]].name);
		if (r->keys[i] == RESULTS_KEY_PID)
			csv__str(&c, "tid");
	}
	csv__row(&c, (const char *const[]){ "samples", "period", "percent", NULL });
	for (i = 0; i < n; i++) {
		const struct sort_row *row = v[i];
		uint64_t total = analysis__event_period(a, row->k.event);
		size_t j;

		if (analysis__below_limit(a, row->period, total))
			continue;
		csv__str(&c, analysis__event_name(a, row->k.event));
		for (j = 0; j < r->nr_keys; j++)
			key_field(&c, &row->k, r->keys[j]);
		csv__u64(&c, row->samples);
		csv__u64(&c, row->period);
		csv__pct(&c, row->period, total);
		csv__end_row(&c);
	}
	return csv__commit(&c);
}

static int results_write(void *state, struct analysis *a, const char *dir)
{
	size_t n = analysis__nr_funcs(a), i;
	const struct func_stat **v = calloc(n + 1, sizeof(*v));
	int children = analysis__have_callchains(a);
	struct csv c;
	int err;

	if (((struct results *)state)->keys) {
		free(v);
		return sorted_write(state, a, dir);
	}
	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		v[i] = analysis__func(a, i);
	qsort(v, n, sizeof(*v), report__func_cmp);
	err = report__open_csv(&c, a, dir, "results", NULL);
	if (err) {
		free(v);
		return err;
	}
	for (i = 0; results_cols[i].name && (children || i < NR_SELF_COLS); i++)
		csv__str(&c, results_cols[i].name);
	csv__end_row(&c);
	for (i = 0; i < n; i++) {
		const struct func_stat *f = v[i];
		uint64_t total = analysis__event_period(a, f->event);

		if (!f->samples && !f->ch_samples)
			continue;
		if (analysis__below_limit(a, f->period, total) &&
		    (!children || analysis__below_limit(a, f->ch_period, total)))
			continue;
		result_row(&c, a, f, children);
	}
	free(v);
	return csv__commit(&c);
}

static const struct report_output results_outputs[] = {
	{ .name = "results", .columns = results_cols, .key_columns = results_key_cols, .write = results_write },
	{ .name = NULL }
};

const struct report_ops results_report = {
	.name = "results",
	.source = REPORT_FROM_ANALYSIS,
	.state_size = sizeof(struct results),
	.outputs = results_outputs,
	.begin = results_begin,
	.sample = results_sample,
	.release = results_release,
};

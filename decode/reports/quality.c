/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * quality.csv (--reports quality): how whole the stacks are, per (event,
 * dso), the dso being the sample's own (results.csv's):
 *   samples       the samples there
 *   user_stacks   those with a callchain that has user frames
 *   cut           of those, the user stack does not reach a thread root
 *   unknown       samples with an [unknown] frame (their own function or a caller's)
 *   cut_here      cut samples (of any dso) whose user stack ends in this dso:
 *                 where the unwinding stopped, the dso to blame
 * and the percentages of samples.  A user stack reaches a thread root when
 * its outermost frame is where a process or a thread begins:
 *  - a stack unwound from a user stack copy (--call-graph dwarf): _start
 *    (the executable's or ld.so's), clone or clone3 (also named __clone,
 *    __clone3, __GI___clone, __GI___clone3), the entry points whose CFI ends
 *    the stack (the return address undefined); in a stripped program, whose
 *    _start has no symbol ([unknown]), an address in the first bytes of its
 *    ELF entry point (e_entry: perf script shows sqlite3's stacks ending
 *    at 0xa7a0, e_entry 0xa780);
 *  - a frame-pointer chain (-g): those, or __libc_start_call_main,
 *    __libc_start_main (__libc_start_main_impl) and start_thread: the
 *    outermost glibc frames that save a frame pointer, where every complete
 *    chain of a glibc program ends.
 * Anything else is cut: the DWARF stack copy ran out (--call-graph
 * dwarf,SIZE smaller than the stack), the unwinder found no CFI, a
 * frame-pointer chain broke into an address in no map ([unknown]) or went
 * through code without frame pointers, or the chain passed the hub's 1024
 * frames.  perf script shows the same chains (test-quality.sh counts them).
 *
 * A warning per process whose samples are cut for more than 5%, naming the
 * dsos the cut stacks end in.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "decode/reports/common.h"
#include "decode/reports/quality.h"
#include "util/array.h"
#include "util/hashmap.h"
#include "util/pool.h"
#include "util/strbuf.h"

#define WARN_CUT_PCT 5
#define WARN_DSOS 5


/* a process, and a dso its cut stacks end in */
struct qproc {
	const struct process *proc;
	const char *dso;		/* NULL: the process's own totals */
	uint64_t samples, cut;
};

struct quality {
	struct pool pool;
	struct hashmap rows, procs;
	/* the last sample's: most samples repeat them */
	struct quality_row *last_row;
	struct qproc *last_proc;
	const struct func_stat *last_outer;
	int last_copy, last_root;
	/* the last [unknown] outermost frame looked up: its process, the maps' generation, address */
	const struct process *entry_proc;
	uint64_t entry_gen, entry_addr;
	int entry_root;
	struct array row_list, proc_list;	/* pointers, creation order */
};

static const struct report_column quality_cols[] = {
	{ "event", "TEXT" }, { "dso", "TEXT" }, { "samples", "BIGINT" }, { "user_stacks", "BIGINT" },
	{ "cut", "BIGINT" }, { "cut_percent", "DOUBLE" }, { "unknown", "BIGINT" }, { "unknown_percent", "DOUBLE" },
	{ "cut_here", "BIGINT" }, { NULL, NULL }
};

/* the entry points: the roots of every unwinding */
static const char *const entry_roots[] = {
	"_start", "clone", "clone3", "__clone", "__clone3", "__GI___clone", "__GI___clone3", NULL
};
/* the outermost glibc frames with a frame pointer: the roots of frame-pointer chains */
static const char *const fp_roots[] = {
	"__libc_start_call_main", "__libc_start_main", "__libc_start_main_impl", "start_thread", NULL
};

static int in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return 1;
	return 0;
}

static int is_thread_root(const char *function, int from_stack_copy)
{
	return in_list(entry_roots, function) || (!from_stack_copy && in_list(fp_roots, function));
}

static int quality_begin(void *state, struct analysis *a)
{
	struct quality *q = state;

	(void)a;
	hashmap__init(&q->rows);
	hashmap__init(&q->procs);
	array__init(&q->row_list, sizeof(void *));
	array__init(&q->proc_list, sizeof(void *));
	return 0;
}

static void quality_release(void *state)
{
	struct quality *q = state;

	hashmap__release(&q->rows, NULL);	/* values are pool memory */
	hashmap__release(&q->procs, NULL);
	array__release(&q->row_list);
	array__release(&q->proc_list);
	pool__release(&q->pool);
}

/* the entry of key (size bytes, the entry's first bytes) in map, made when new; NULL on ENOMEM */
static void *entry(struct quality *q, struct hashmap *map, struct array *list, const void *key, size_t keylen,
		   size_t size)
{
	void **slot, **at;
	int ret = hashmap__insert(map, key, keylen, &slot);

	if (ret < 0)
		return NULL;
	if (ret == 1) {
		*slot = pool__alloc(&q->pool, size);
		at = array__push(list);
		if (!*slot || !at)
			return NULL;
		memcpy(*slot, key, keylen);
		*at = *slot;
	}
	return *slot;
}

static struct quality_row *row(struct quality *q, uint32_t event, const char *dso)
{
	struct quality_row key;

	memset(&key, 0, sizeof(key));
	key.event = event;
	key.dso = dso;
	return entry(q, &q->rows, &q->row_list, &key, offsetof(struct quality_row, samples), sizeof(key));
}

static struct qproc *proc_entry(struct quality *q, const struct process *proc, const char *dso)
{
	struct qproc key;

	memset(&key, 0, sizeof(key));
	key.proc = proc;
	key.dso = dso;
	return entry(q, &q->procs, &q->proc_list, &key, offsetof(struct qproc, samples), sizeof(key));
}

/*
 * Whether s's outermost user frame (frames[i], outer) is a thread root: an
 * [unknown] frame by its address (a stripped program's _start), the others
 * by name.  The last answer of each kind is kept: most samples repeat it.
 */
static int outer_is_root(struct quality *q, struct analysis *a, const struct rsample *s,
			 const struct func_stat *outer, size_t i, int copy)
{
	if (!strncmp(outer->function, UNKNOWN, sizeof(UNKNOWN) - 1)) {
		const struct process *proc = s->th->proc;
		uint64_t gen = proc->pm ? proc->pm->maps.gen : 0;

		if (!s->addrs)
			return 0;
		if (proc != q->entry_proc || gen != q->entry_gen || s->addrs[i] != q->entry_addr) {
			q->entry_proc = proc;
			q->entry_gen = gen;
			q->entry_addr = s->addrs[i];
			q->entry_root = analysis__at_entry(a, s->th, s->addrs[i]);
		}
		return q->entry_root;
	}
	if (outer != q->last_outer || copy != q->last_copy) {
		q->last_outer = outer;
		q->last_copy = copy;
		q->last_root = is_thread_root(outer->function, copy);
	}
	return q->last_root;
}

static int quality_sample(void *state, struct analysis *a, const struct rsample *s)
{
	struct quality *q = state;
	const struct func_stat *outer = NULL;
	struct quality_row *r = q->last_row, *end;
	struct qproc *p = q->last_proc, *pe;
	int copy = !!(s->rec->sample.sample_type & PERF_SAMPLE_STACK_USER);
	size_t i;

	if (!r || r->event != s->event || r->dso != s->func->dso)
		r = q->last_row = row(q, s->event, s->func->dso);
	if (!p || p->proc != s->th->proc)
		p = q->last_proc = proc_entry(q, s->th->proc, NULL);
	if (!r || !p)
		return -ENOMEM;
	r->samples++;
	p->samples++;
	for (i = 0; i < s->nr_frames; i++) {
		if (!strncmp(frame__func(s->frames[i])->function, UNKNOWN, sizeof(UNKNOWN) - 1)) {
			r->unknown++;
			break;
		}
	}
	if (!s->callchain)
		return 0;
	/* the outermost user frame: the last that is not the kernel's */
	for (i = s->nr_frames; i-- > 0;) {
		if (!frame__is_kernel(s->frames[i])) {
			outer = frame__func(s->frames[i]);
			break;
		}
	}
	if (!outer)
		return 0;
	r->user_stacks++;
	if (outer_is_root(q, a, s, outer, i, copy))
		return 0;
	r->cut++;
	p->cut++;
	end = row(q, s->event, outer->dso);
	pe = proc_entry(q, s->th->proc, outer->dso);
	if (!end || !pe)
		return -ENOMEM;
	end->cut_here++;
	pe->cut++;
	return 0;
}

static int row_cmp(const void *pa, const void *pb)
{
	const struct quality_row *a = *(const struct quality_row *const *)pa, *b = *(const struct quality_row *const *)pb;

	if (a->event != b->event)
		return a->event < b->event ? -1 : 1;
	if (a->samples != b->samples)
		return report__cmp_u64_desc(a->samples, b->samples);
	if (a->cut_here != b->cut_here)
		return report__cmp_u64_desc(a->cut_here, b->cut_here);
	return report__cmp_str(a->dso, b->dso);
}

static int end_cmp(const void *pa, const void *pb)
{
	const struct qproc *a = *(const struct qproc *const *)pa, *b = *(const struct qproc *const *)pb;

	return a->cut != b->cut ? report__cmp_u64_desc(a->cut, b->cut) : report__cmp_str(a->dso, b->dso);
}

/* the dso entries grouped by process (its address: a grouping, not an order), each's most cut first */
static int by_proc_cmp(const void *pa, const void *pb)
{
	const struct qproc *a = *(const struct qproc *const *)pa, *b = *(const struct qproc *const *)pb;

	if (a->proc != b->proc)
		return (uintptr_t)a->proc < (uintptr_t)b->proc ? -1 : 1;
	return end_cmp(pa, pb);
}

/* the warning of one process: the dsos its cut stacks end in (ends[0..n), by_proc_cmp's order), most first */
static int warn_process(struct analysis *a, const struct qproc *p, const struct qproc *const *ends, size_t n)
{
	struct strbuf sb;
	size_t lo = 0, hi = n, i, k;
	int err = 0;

	while (lo < hi) {	/* the first entry of p's process */
		size_t mid = lo + (hi - lo) / 2;

		if ((uintptr_t)ends[mid]->proc < (uintptr_t)p->proc)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = lo; k < n && ends[k]->proc == p->proc; k++)
		;
	strbuf__init(&sb);
	for (i = lo; i < k && i - lo < WARN_DSOS && !err; i++)
		err = strbuf__addf(&sb, "%s%s (%" PRIu64 ")", i > lo ? ", " : "", ends[i]->dso, ends[i]->cut);
	if (!err && k - lo > WARN_DSOS)
		err = strbuf__addf(&sb, " and %zu more", k - lo - WARN_DSOS);
	if (!err)
		log_msg(analysis__log(a), LOG_WARN, "process %" PRIu32 " (%s): %" PRIu64 " of %" PRIu64 " samples "
			"(%.1f%%) have a user stack cut short of the thread root; they end in %s (quality.csv)",
			p->proc->pid, p->proc->comm ? p->proc->comm : UNKNOWN, p->cut, p->samples,
			100.0 * (double)p->cut / (double)p->samples, sb.buf ? sb.buf : "");
	strbuf__release(&sb);
	return err ? -ENOMEM : 0;
}

/*
 * A warning per process cut for more than WARN_CUT_PCT%, in their order;
 * the dso entries sorted once (each process's looked up: a scan of them all
 * per process was quadratic, 85,000 processes 15 s)
 */
static int warn_processes(struct quality *q, struct analysis *a)
{
	const struct qproc **ends = malloc((q->proc_list.len + 1) * sizeof(*ends));
	size_t i, n = 0;
	int err = 0;

	if (!ends)
		return -ENOMEM;
	for (i = 0; i < q->proc_list.len; i++) {
		const struct qproc *e = ((struct qproc **)q->proc_list.data)[i];

		if (e->dso)
			ends[n++] = e;
	}
	qsort(ends, n, sizeof(*ends), by_proc_cmp);
	for (i = 0; i < q->proc_list.len && !err; i++) {
		const struct qproc *p = ((struct qproc **)q->proc_list.data)[i];

		if (!p->dso && p->cut * 100 > p->samples * WARN_CUT_PCT)
			err = warn_process(a, p, ends, n);
	}
	free(ends);
	return err;
}

/* the rows in quality.csv's order, each handed to fn */
static int rows_each(struct quality *q, int (*fn)(void *ctx, const struct quality_row *r), void *ctx)
{
	struct quality_row **v = malloc((q->row_list.len + 1) * sizeof(*v));
	size_t i;
	int err = 0;

	if (!v)
		return -ENOMEM;
	if (q->row_list.len)
		memcpy(v, q->row_list.data, q->row_list.len * sizeof(*v));
	qsort(v, q->row_list.len, sizeof(*v), row_cmp);
	for (i = 0; i < q->row_list.len && !err; i++)
		err = fn(ctx, v[i]);
	free(v);
	return err;
}

int quality__each(struct analysis *a, int (*fn)(void *ctx, const struct quality_row *r), void *ctx)
{
	struct quality *q = analysis__report_state(a, &quality_report);

	return q ? rows_each(q, fn, ctx) : -EINVAL;
}

struct csv_ctx {
	struct csv *c;
	struct analysis *a;
};

static int csv_row(void *ctx, const struct quality_row *r)
{
	struct csv_ctx *x = ctx;

	csv__str(x->c, analysis__event_name(x->a, r->event));
	csv__str(x->c, r->dso);
	csv__u64(x->c, r->samples);
	csv__u64(x->c, r->user_stacks);
	csv__u64(x->c, r->cut);
	csv__pct(x->c, r->cut, r->samples);
	csv__u64(x->c, r->unknown);
	csv__pct(x->c, r->unknown, r->samples);
	csv__u64(x->c, r->cut_here);
	csv__end_row(x->c);
	return 0;
}

static int quality_write(void *state, struct analysis *a, const char *dir)
{
	struct quality *q = state;
	struct csv out;
	struct csv_ctx x = { &out, a };
	int err = warn_processes(q, a);

	if (!err)
		err = report__open_csv(&out, a, dir, "quality", quality_cols);
	if (err)
		return err;
	err = rows_each(q, csv_row, &x);
	if (err)
		csv__abort(&out);
	return err ? err : csv__commit(&out);
}

static const struct report_output quality_outputs[] = {
	{ .name = "quality", .columns = quality_cols, .write = quality_write, .opt_in = 1 },
	{ .name = NULL }
};

const struct report_ops quality_report = {
	.name = "quality",
	.source = REPORT_FROM_ANALYSIS,
	.state_size = sizeof(struct quality),
	.needs = REPORT_NEEDS_FRAMES | REPORT_NEEDS_ADDRS,
	.outputs = quality_outputs,
	.begin = quality_begin,
	.sample = quality_sample,
	.release = quality_release,
};

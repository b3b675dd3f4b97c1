/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Threads and waiting: threads.csv (one row per thread and event: its comms,
 * when it was seen, samples, time on the CPU, and with context-switch data
 * its time off the CPU and its switches) and the off-CPU analysis
 * (offcpu.csv, --folded-offcpu, --flamegraph-offcpu).
 *
 * Context switches come from two sources:
 * - PERF_RECORD_SWITCH / SWITCH_CPU_WIDE (perf record --switch-events): a
 *   record with PERF_RECORD_MISC_SWITCH_OUT when the record's thread leaves
 *   the CPU (PERF_RECORD_MISC_SWITCH_OUT_PREEMPT: it was preempted, else it
 *   blocked), one without when it comes back;
 * - sched:sched_switch tracepoint samples (perf record -e sched:sched_switch),
 *   read through the tracepoint's format from TRACING_DATA: prev_pid leaves
 *   (prev_state 0, or only TASK_REPORT_MAX, means preempted), next_pid comes
 *   back.  A system-wide recording has both sides of every switch.
 * A thread is off the CPU from a switch out to its next switch in; the
 * interval is counted when the switch in arrives (a thread still off the CPU
 * when the recording ends is not counted: its end is unknown).  The idle
 * task (tid 0) is left out.
 *
 * The blocking stack of an interval is the callchain of the thread's last
 * sample of a switch event (sched:sched_switch, or the context-switches
 * software event: perf record -e context-switches -g) taken between its
 * previous switch in and this switch back in; without one the interval is
 * counted with an empty stack ([unknown]).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/analysis_internal.h"
#include "perffile/features.h"

/* the key of an off-CPU stack: as stacks.c's (event 0), the frames follow */
struct off_key {
	uint32_t event, nr;
	const char *comm;
};

static struct tstat *get_tstat(struct analysis *a, struct mthread *th)
{
	struct tstat *t = th->priv;

	if (t)
		return t;
	t = pool__alloc(&a->pool, sizeof(*t));
	th->priv = t;
	if (!t || analysis__push_ptr(&a->tstat_list, t))
		return NULL;
	t->th = th;
	t->pid = th->proc->pid;
	t->tid = th->tid;
	return t;
}

/* time seen and comm history */
static int touch(struct analysis *a, struct tstat *t, uint64_t time, int has_time)
{
	const char *comm = t->th->comm;

	if (has_time) {
		if (!t->has_time || time < t->first)
			t->first = time;
		if (!t->has_time || time > t->last)
			t->last = time;
		t->has_time = 1;
	}
	if (comm && comm != t->comm) {
		t->comm = comm;
		if (!t->comms) {
			t->comms = comm;
		} else {
			struct strbuf sb = STRBUF_INIT;
			int err = strbuf__addstr(&sb, t->comms) || strbuf__addch(&sb, '|') ||
				  strbuf__addstr(&sb, comm);

			t->comms = err ? NULL : analysis__intern(a, sb.buf);
			strbuf__release(&sb);
			if (!t->comms)
				return -ENOMEM;
		}
	}
	return 0;
}

/* the switch state of t, made on its first switch; NULL on ENOMEM */
static struct tswitch *get_sw(struct analysis *a, struct tstat *t)
{
	if (!t->sw)
		t->sw = pool__alloc(&a->pool, sizeof(*t->sw));
	return t->sw;
}

static int switch_out(struct analysis *a, struct tstat *t, uint64_t time, int preempted)
{
	if (!get_sw(a, t))
		return -ENOMEM;
	t->sw->switches++;
	if (preempted)
		t->sw->preempted++;
	else
		t->sw->voluntary++;
	t->sw->is_out = 1;
	t->sw->out_time = time;
	return 0;
}

/* the blocking stack of the interval that ends at time: the candidate if it was taken in it */
static int add_off_stack(struct analysis *a, struct tstat *t, uint64_t ns, uint64_t time)
{
	struct strbuf *k = &a->keybuf;
	struct off_key key;
	uint64_t *v;
	void **slot;
	int ret, use = t->sw->has_cand && t->sw->cand_time >= t->sw->in_time && t->sw->cand_time <= time;

	memset(&key, 0, sizeof(key));
	key.nr = use ? t->sw->nr_cand : 0;
	key.comm = t->comm ? t->comm : UNKNOWN;
	strbuf__reset(k);
	if (strbuf__add(k, &key, sizeof(key)) ||
	    (key.nr && strbuf__add(k, t->sw->cand, key.nr * sizeof(uintptr_t))))
		return -ENOMEM;
	/* the thread too, for offcpu.csv: after the stack part stacks.c reads */
	if (strbuf__add(k, &t, sizeof(t)))
		return -ENOMEM;
	ret = hashmap__insert(&a->offstacks, k->buf, k->len, &slot);
	if (ret < 0)
		return -ENOMEM;
	if (ret == 1)
		*slot = pool__alloc(&a->pool, 3 * sizeof(uint64_t));
	v = *slot;		/* intervals, ns, longest */
	if (!v)
		return -ENOMEM;
	v[0]++;
	v[1] += ns;
	if (ns > v[2])
		v[2] = ns;
	return 0;
}

static int switch_in(struct analysis *a, struct tstat *t, uint64_t time)
{
	int err = 0;

	if (!get_sw(a, t))
		return -ENOMEM;
	if (t->sw->is_out && time >= t->sw->out_time) {
		uint64_t ns = time - t->sw->out_time;

		t->sw->offcpu_ns += ns;
		t->sw->intervals++;
		err = add_off_stack(a, t, ns, time);
	}
	t->sw->is_out = 0;
	t->sw->in_time = time;
	return err;
}

static int is_switch_record(const struct perf_record *rec)
{
	return rec->type == PERF_RECORD_SWITCH || rec->type == PERF_RECORD_SWITCH_CPU_WIDE;
}

int threads__record(struct analysis *a, const struct perf_record *rec, uint64_t time, int has_time)
{
	uint32_t pid, tid;
	struct mthread *th;
	struct tstat *t;
	int err;

	if (!analysis__record_pid_tid(rec, &pid, &tid) || tid == 0 || tid == UINT32_MAX)
		return 0;
	th = machine__find_thread(a->m, tid);
	if (!th)
		return 0;
	t = get_tstat(a, th);
	if (!t)
		return -ENOMEM;
	err = touch(a, t, time, has_time);
	if (err || !is_switch_record(rec) || !has_time)
		return err;
	a->switch_data = 1;
	if (rec->misc & PERF_RECORD_MISC_SWITCH_OUT)
		return switch_out(a, t, time, !!(rec->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT));
	return switch_in(a, t, time);
}

/* the sched_switch format's fields, looked up once per event */
static const struct tp_format *sched_switch_format(struct analysis *a, const struct perf_evattr *ev)
{
	const struct tp_format *fmt;

	if (ev->attr.type != PERF_TYPE_TRACEPOINT || !a->f)
		return NULL;
	fmt = tp_formats__find(&perf_file__features(a->f)->tp_formats, ev->attr.config);
	if (!fmt || strcmp(fmt->system, "sched") || strcmp(fmt->name, "sched_switch"))
		return NULL;
	return fmt;
}

/* a copy of the current sample's frames as the thread's blocking-stack candidate */
static int set_candidate(struct analysis *a, struct tstat *t, uint64_t time)
{
	size_t n = a->frames.len;

	if (!get_sw(a, t))
		return -ENOMEM;
	if (n > t->sw->cap_cand) {
		uintptr_t *c = pool__alloc(&a->pool, n * sizeof(*c));

		if (!c)
			return -ENOMEM;
		t->sw->cand = c;
		t->sw->cap_cand = (uint32_t)n;
	}
	if (n)
		memcpy(t->sw->cand, a->frames.data, n * sizeof(uintptr_t));
	t->sw->nr_cand = (uint32_t)n;
	t->sw->cand_time = time;
	t->sw->has_cand = 1;
	return 0;
}

static int is_time_event(const struct perf_evattr *ev)
{
	return ev->attr.type == PERF_TYPE_SOFTWARE &&
	       (ev->attr.config == PERF_COUNT_SW_CPU_CLOCK || ev->attr.config == PERF_COUNT_SW_TASK_CLOCK);
}

int threads__sample(struct analysis *a, uint32_t event, struct mthread *th, const struct perf_record *rec,
		    uint64_t period)
{
	const struct perf_sample *s = &rec->sample;
	int has_time = !!(s->sample_type & PERF_SAMPLE_TIME);
	const struct perf_evattr *ev = rec->evattr;
	const struct tp_format *fmt;
	struct tstat *t;
	int err;

	if (th->tid == 0 || th->tid == UINT32_MAX) {
		/* the idle task: not a thread of threads.csv, but its switches bring others back */
		t = NULL;
		goto switches;
	}
	t = get_tstat(a, th);
	if (!t)
		return -ENOMEM;
	err = touch(a, t, s->time, has_time);
	if (err)
		return err;
	if (event >= t->nr_ev) {
		uint64_t *nv = pool__alloc(&a->pool, 2 * (event + 1) * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		if (t->nr_ev)
			memcpy(nv, t->ev, 2 * t->nr_ev * sizeof(*nv));
		t->ev = nv;
		t->nr_ev = event + 1;
	}
	t->ev[2 * event]++;
	t->ev[2 * event + 1] += period;
	if (is_time_event(ev))
		t->oncpu_ns += period;
switches:
	if (!has_time)
		return 0;
	if (ev->attr.type == PERF_TYPE_SOFTWARE && ev->attr.config == PERF_COUNT_SW_CONTEXT_SWITCHES) {
		a->switch_samples = 1;
		return t ? set_candidate(a, t, s->time) : 0;
	}
	fmt = sched_switch_format(a, ev);
	if (fmt && (s->sample_type & PERF_SAMPLE_RAW)) {
		const struct tp_formats *tf = &perf_file__features(a->f)->tp_formats;
		int64_t prev_pid, prev_state, next_pid;
		struct mthread *next;
		struct tstat *prev = t;

		if (tp_field__read(tp_format__field(fmt, "prev_pid"), tf, s->raw, s->raw_size, &prev_pid) ||
		    tp_field__read(tp_format__field(fmt, "prev_state"), tf, s->raw, s->raw_size, &prev_state) ||
		    tp_field__read(tp_format__field(fmt, "next_pid"), tf, s->raw, s->raw_size, &next_pid))
			return 0;
		a->switch_data = a->switch_samples = 1;
		if (prev_pid != (int64_t)th->tid) {
			struct mthread *pth = prev_pid > 0 ? machine__find_thread(a->m, (uint32_t)prev_pid) : NULL;

			prev = pth ? get_tstat(a, pth) : NULL;
			if (pth && !prev)
				return -ENOMEM;
		}
		if (prev) {
			err = set_candidate(a, prev, s->time);
			if (!err)
				err = switch_out(a, prev, s->time, (prev_state & 0x7f) == 0);
			if (err)
				return err;
		}
		next = next_pid > 0 ? machine__find_thread(a->m, (uint32_t)next_pid) : NULL;
		if (next) {
			struct tstat *nt = get_tstat(a, next);

			if (!nt)
				return -ENOMEM;
			err = touch(a, nt, s->time, 1);
			if (!err)
				err = switch_in(a, nt, s->time);
		}
	}
	return err;
}

/* ------------------------------------------------------------- reports */

int analysis__has_switch_data(const struct analysis *a)
{
	return a && a->switch_data;
}

static int tstat_cmp(const void *pa, const void *pb)
{
	const struct tstat *a = *(struct tstat *const *)pa, *b = *(struct tstat *const *)pb;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->first != b->first)
		return a->first < b->first ? -1 : 1;
	return 0;
}

static void thread_columns(struct csv *c, const struct analysis *a, const struct tstat *t)
{
	csv__u64(c, t->oncpu_ns);
	if (a->switch_data) {
		const struct tswitch none = { 0 }, *sw = t->sw ? t->sw : &none;

		csv__u64(c, sw->offcpu_ns);
		csv__u64(c, sw->switches);
		csv__u64(c, sw->voluntary);
		csv__u64(c, sw->preempted);
	} else {
		csv__i64(c, -1);
		csv__i64(c, -1);
		csv__i64(c, -1);
		csv__i64(c, -1);
	}
}

int threads__write(struct analysis *a, const char *dir)
{
	static const char *const cols[] = {
		"pid", "tid", "comm", "comms", "start_time", "end_time", "event", "samples", "period",
		"oncpu_ns", "offcpu_ns", "switches", "voluntary", "preempted", NULL
	};
	struct tstat **v = a->tstat_list.data;
	size_t n = a->tstat_list.len, i;
	uint32_t e;
	struct csv c;
	int err;

	if (n)
		qsort(v, n, sizeof(*v), tstat_cmp);
	err = csv__open(&c, dir, "threads.csv");
	if (err)
		return err;
	csv__prefix(&c, "profile", a->opts.profile);
	csv__row(&c, cols);
	for (i = 0; i < n; i++) {
		const struct tstat *t = v[i];
		int rows = 0;

		for (e = 0; e <= t->nr_ev; e++) {
			int last = e == t->nr_ev;

			if (!last && !t->ev[2 * e])
				continue;
			if (last && rows)
				break;
			csv__u64(&c, t->pid);
			csv__u64(&c, t->tid);
			csv__str(&c, t->comm ? t->comm : UNKNOWN);
			csv__str(&c, t->comms ? t->comms : UNKNOWN);
			if (t->has_time) {
				csv__u64(&c, t->first);
				csv__u64(&c, t->last);
			} else {
				csv__u64(&c, 0);
				csv__u64(&c, 0);
			}
			/* a thread without samples: one row, no event */
			csv__str(&c, last ? "" : a->events[e].name);
			csv__u64(&c, last ? 0 : t->ev[2 * e]);
			csv__u64(&c, last ? 0 : t->ev[2 * e + 1]);
			thread_columns(&c, a, t);
			csv__end_row(&c);
			rows++;
		}
	}
	return csv__commit(&c);
}

/* offcpu.csv rows: (thread, leaf function) */
struct offrow {
	const struct tstat *t;
	const char *dso, *function;
	uint64_t count, ns, max;
};

static int offrow_cmp(const void *pa, const void *pb)
{
	const struct offrow *a = pa, *b = pb;
	int r;

	if (a->ns != b->ns)
		return a->ns > b->ns ? -1 : 1;
	if (a->t->pid != b->t->pid)
		return a->t->pid < b->t->pid ? -1 : 1;
	if (a->t->tid != b->t->tid)
		return a->t->tid < b->t->tid ? -1 : 1;
	r = strcmp(a->dso, b->dso);
	return r ? r : strcmp(a->function, b->function);
}

/* the blocking function of a stack (innermost first): the innermost user frame, else the innermost */
static const struct fstat *leaf_of(const uintptr_t *frames, uint32_t nr)
{
	uint32_t i;
	uintptr_t f;

	for (i = 0; i < nr; i++) {
		memcpy(&f, frames + i, sizeof(f));
		if (!(f & FRAME_KERNEL))
			return (const struct fstat *)f;
	}
	if (!nr)
		return NULL;
	memcpy(&f, frames, sizeof(f));
	return (const struct fstat *)(f & ~FRAME_KERNEL);
}

int offcpu__write(struct analysis *a, const char *dir)
{
	static const char *const cols[] = {
		"pid", "tid", "comm", "dso", "function", "count", "offcpu_ns", "max_ns", NULL
	};
	const struct hashmap_entry *he;
	struct offrow *rows = NULL;
	struct hashmap byrow;
	size_t it = 0, n = 0, i, k;
	struct csv c;
	int err = 0;

	hashmap__init(&byrow);
	if (a->offstacks.len) {
		rows = calloc(a->offstacks.len, sizeof(*rows));
		if (!rows)
			return -ENOMEM;
	}
	while ((he = hashmap__next(&a->offstacks, &it))) {
		const char *p = he->key;
		const uint64_t *val = he->value;
		const struct fstat *leaf;
		struct off_key key;
		struct offrow r;

		memcpy(&key, p, sizeof(key));
		memset(&r, 0, sizeof(r));
		memcpy(&r.t, p + sizeof(key) + key.nr * sizeof(uintptr_t), sizeof(r.t));
		leaf = leaf_of((const uintptr_t *)(p + sizeof(key)), key.nr);
		r.dso = leaf ? leaf->dso : UNKNOWN;
		r.function = leaf ? leaf->function : UNKNOWN;
		/* merge with the row of the same thread and leaf */
		{
			const void *mk[3] = { r.t, r.dso, r.function };
			void **slot;
			int ret = hashmap__insert(&byrow, mk, sizeof(mk), &slot);

			if (ret < 0) {
				err = -ENOMEM;
				goto out;
			}
			if (ret == 1) {
				rows[n] = r;
				*slot = (void *)(uintptr_t)n++;
			}
			k = (size_t)(uintptr_t)*slot;
		}
		rows[k].count += val[0];
		rows[k].ns += val[1];
		if (val[2] > rows[k].max)
			rows[k].max = val[2];
	}
	hashmap__release(&byrow, NULL);
	if (n)
		qsort(rows, n, sizeof(*rows), offrow_cmp);
	err = csv__open(&c, dir, "offcpu.csv");
	if (err) {
		free(rows);
		return err;
	}
	csv__prefix(&c, "profile", a->opts.profile);
	csv__row(&c, cols);
	for (i = 0; i < n; i++) {
		csv__u64(&c, rows[i].t->pid);
		csv__u64(&c, rows[i].t->tid);
		csv__str(&c, rows[i].t->comm ? rows[i].t->comm : UNKNOWN);
		csv__str(&c, rows[i].dso);
		csv__str(&c, rows[i].function);
		csv__u64(&c, rows[i].count);
		csv__u64(&c, rows[i].ns);
		csv__u64(&c, rows[i].max);
		csv__end_row(&c);
	}
	free(rows);
	return csv__commit(&c);
out:
	hashmap__release(&byrow, NULL);
	free(rows);
	return err;
}

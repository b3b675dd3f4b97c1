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
 *   (prev_state 0, or only TASK_REPORT_MAX, means preempted: the kernel's
 *   format prints prev_state & (TASK_REPORT_MAX - 1), 0xff, and "R" or "R+"
 *   for those; TASK_REPORT_IDLE 0x80, "I", is a sleep), next_pid comes back.
 *   A system-wide recording has both sides of every switch.
 * A thread is off the CPU from a switch out to its next switch in; the
 * interval is counted when the switch in arrives (a thread still off the CPU
 * when the recording ends is not counted: its end is unknown).  The idle
 * task (tid 0, perf's 0:swapper, one per CPU) has its samples counted, as
 * perf report --sort pid shows them; it has no switches of its own (it runs
 * whenever nothing else does): -1 in those columns.
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

#include "decode/reports/common.h"
#include "decode/reports/flame.h"
#include "decode/reports/threads.h"
#include "perffile/features.h"
#include "util/array.h"
#include "util/pool.h"

/* what few threads have: a second comm, context switches */
struct tswitch {
	const char **comms;		/* every comm it had, in order (interned); nr_comms 0: only its comm */
	uint32_t nr_comms, cap_comms;
	uint64_t offcpu_ns, intervals, switches, voluntary, preempted;
	int is_out;
	uint64_t out_time, in_time;	/* last switch out, last switch in */
	int has_cand;			/* the blocking-stack candidate: a switch sample's frames */
	uint64_t cand_time;
	uintptr_t *cand;
	uint32_t nr_cand, cap_cand;
};

/* a thread (one lifetime), hung on its mthread's priv: 56 bytes (a file may have a million) */
struct tstat {
	uint32_t pid, tid;
	const char *comm;		/* the last, interned */
	uint64_t first, last;		/* when it was seen */
	uint64_t *ev;			/* samples, period per event index */
	struct tswitch *sw;		/* NULL until its first switch or second comm */
	uint32_t nr_ev;
	int has_time;
};

struct threads {
	struct pool pool;		/* switch state, counters */
	struct stable_array tstats;	/* struct tstat, creation order */
	struct hashmap offstacks;	/* struct stack_key + frames + struct tstat * -> uint64_t[3] */
	struct strbuf keybuf;
	int switch_data;		/* context switches seen (records or sched_switch samples) */
	int switch_samples;		/* samples at switches (blocking stacks) */
	uint64_t unreadable;		/* sched_switch samples whose fields the format cannot give */
	uint64_t sched_samples;		/* readable sched_switch samples */
	int task_ids, wide_ids;		/* ID_INDEX: events opened on a task, on every task of a CPU (perf record -a) */
	int said, said_csv;		/* why there is no off-CPU time: said once for the paths, once for offcpu.csv */
};

/* prev_state's task state bits: TASK_REPORT_MAX (0x100, preempted) - 1 */
#define SWITCH_STATE_MASK 0xff

/* the key of an off-CPU stack: as stacks.c's (event 0), the frames and the thread follow */
#define off_key stack_key

/* samples at context switches, with the blocking stacks: sched:sched_switch or context-switches */
static int has_switch_events(const struct perf_file *f)
{
	const struct perf_evlist *el = f ? perf_file__evlist(f) : NULL;
	const struct perf_features *ft = f ? perf_file__features(f) : NULL;
	size_t i;

	for (i = 0; el && i < el->nr; i++) {
		const struct perf_event_attr *at = &el->attrs[i].attr;
		const struct tp_format *fmt;

		if (at->type == PERF_TYPE_SOFTWARE && at->config == PERF_COUNT_SW_CONTEXT_SWITCHES)
			return 1;
		fmt = at->type == PERF_TYPE_TRACEPOINT ? tp_formats__find(&ft->tp_formats, at->config) : NULL;
		if (fmt && !strcmp(fmt->name, "sched_switch"))
			return 1;
	}
	return 0;
}

static int threads_begin(void *state, struct analysis *a)
{
	struct threads *ts = state;

	stable_array__init(&ts->tstats, sizeof(struct tstat), 10);
	hashmap__init(&ts->offstacks);
	strbuf__init(&ts->keybuf);
	/* the blocking stacks are the frames of the samples at switches */
	if ((analysis__wants(a, "offcpu", 0) || analysis__wants(a, "folded-offcpu", 1) ||
	     analysis__wants(a, "flamegraph-offcpu", 1) || analysis__wants(a, "html", 1)) &&
	    has_switch_events(analysis__file(a)))
		analysis__want_frames(a);
	return 0;
}

static void threads_release(void *state)
{
	struct threads *ts = state;

	stable_array__release(&ts->tstats);
	hashmap__release(&ts->offstacks, NULL);
	strbuf__release(&ts->keybuf);
	pool__release(&ts->pool);	/* the tstats (mthread->priv) go above: the machine is gone or going */
}

static struct tstat *get_tstat(struct threads *ts, struct mthread *th)
{
	struct tstat *t = th->priv;

	if (t)
		return t;
	t = stable_array__push(&ts->tstats);
	if (!t)
		return NULL;
	th->priv = t;
	t->pid = th->proc->pid;
	t->tid = th->tid;
	return t;
}

/* the switch state of t, made on its first switch (or second comm); NULL on ENOMEM */
static struct tswitch *get_sw(struct threads *ts, struct tstat *t)
{
	if (!t->sw)
		t->sw = pool__alloc(&ts->pool, sizeof(*t->sw));
	return t->sw;
}

/* comm after the comms t had; -ENOMEM (pool arrays doubled: a thread renamed n times keeps < 2n) */
static int add_comm(struct threads *ts, struct tstat *t, const char *comm)
{
	struct tswitch *sw = get_sw(ts, t);

	if (!sw)
		return -ENOMEM;
	if (sw->nr_comms == sw->cap_comms) {
		uint32_t cap = sw->cap_comms ? 2 * sw->cap_comms : 4;
		const char **v = pool__alloc(&ts->pool, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		if (sw->nr_comms)
			memcpy(v, sw->comms, sw->nr_comms * sizeof(*v));
		sw->comms = v;
		sw->cap_comms = cap;
	}
	sw->comms[sw->nr_comms++] = comm;
	return 0;
}

/*
 * every comm t had, '|'-separated (interned when there were several:
 * made once, here, for the rows); NULL on ENOMEM
 */
static const char *comms_of(struct analysis *a, const struct tstat *t)
{
	struct strbuf sb = STRBUF_INIT;
	const char *s = NULL;
	uint32_t i;
	int err = 0;

	if (!t->sw || !t->sw->nr_comms)
		return t->comm ? t->comm : UNKNOWN;
	for (i = 0; i < t->sw->nr_comms && !err; i++)
		err = (i && strbuf__addch(&sb, '|')) || strbuf__addstr(&sb, t->sw->comms[i]);
	if (!err)
		s = analysis__intern(a, sb.buf);
	strbuf__release(&sb);
	return s;
}

/* time seen and comm history; th is t's thread */
static int touch(struct threads *ts, struct tstat *t, const struct mthread *th,
		 uint64_t time, int has_time)
{
	const char *comm = th->comm;

	if (has_time) {
		if (!t->has_time || time < t->first)
			t->first = time;
		if (!t->has_time || time > t->last)
			t->last = time;
		t->has_time = 1;
	}
	if (comm && comm != t->comm) {
		if (t->comm && ((!t->sw || !t->sw->nr_comms) && add_comm(ts, t, t->comm)))
			return -ENOMEM;
		if (t->comm && add_comm(ts, t, comm))
			return -ENOMEM;
		t->comm = comm;
	}
	return 0;
}

static int switch_out(struct threads *ts, struct tstat *t, uint64_t time, int preempted)
{
	if (!get_sw(ts, t))
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
static int add_off_stack(struct threads *ts, struct tstat *t, uint64_t ns, uint64_t time)
{
	struct strbuf *k = &ts->keybuf;
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
	ret = hashmap__insert(&ts->offstacks, k->buf, k->len, &slot);
	if (ret < 0)
		return -ENOMEM;
	if (ret == 1)
		*slot = pool__alloc(&ts->pool, 3 * sizeof(uint64_t));
	v = *slot;		/* intervals, ns, longest */
	if (!v)
		return -ENOMEM;
	v[0]++;
	v[1] += ns;
	if (ns > v[2])
		v[2] = ns;
	return 0;
}

static int switch_in(struct threads *ts, struct tstat *t, uint64_t time)
{
	int err = 0;

	if (!get_sw(ts, t))
		return -ENOMEM;
	if (t->sw->is_out && time >= t->sw->out_time) {
		uint64_t ns = time - t->sw->out_time;

		t->sw->offcpu_ns += ns;
		t->sw->intervals++;
		err = add_off_stack(ts, t, ns, time);
	}
	t->sw->is_out = 0;
	t->sw->in_time = time;
	return err;
}

/* how the events were opened, from an ID_INDEX record: on tasks, or system-wide */
static void note_id_index(struct threads *ts, const struct perf_rec_id_index *ix)
{
	const unsigned char *e = (const void *)ix->entries;
	uint64_t i, tid;

	for (i = 0; i < ix->nr; i++, e += sizeof(*ix->entries)) {
		memcpy(&tid, e + offsetof(struct perf_rec_id_index_entry, tid), sizeof(tid));
		if ((int64_t)tid == -1)
			ts->wide_ids = 1;
		else
			ts->task_ids = 1;
	}
}

static int is_switch_record(const struct perf_record *rec)
{
	return rec->type == PERF_RECORD_SWITCH || rec->type == PERF_RECORD_SWITCH_CPU_WIDE;
}

static int threads_record(void *state, struct analysis *a, const struct rrecord *rr)
{
	struct threads *ts = state;
	const struct perf_record *rec = rr->rec;
	uint64_t time = rr->time;
	int has_time = rr->has_time;
	uint32_t pid, tid;
	struct mthread *th;
	struct tstat *t;
	int err;

	if (rec->type == PERF_RECORD_ID_INDEX)
		note_id_index(ts, &rec->u.id_index);
	if (!analysis__record_pid_tid(rec, &pid, &tid) || tid == 0 || tid == UINT32_MAX)
		return 0;
	th = machine__find_thread(analysis__machine(a), tid);
	if (!th)
		return 0;
	t = get_tstat(ts, th);
	if (!t)
		return -ENOMEM;
	err = touch(ts, t, th, time, has_time);
	if (err || !is_switch_record(rec) || !has_time)
		return err;
	ts->switch_data = 1;
	if (rec->misc & PERF_RECORD_MISC_SWITCH_OUT)
		return switch_out(ts, t, time, !!(rec->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT));
	return switch_in(ts, t, time);
}

/* the sched_switch format's fields, looked up once per event */
static const struct tp_format *sched_switch_format(struct analysis *a, const struct perf_evattr *ev)
{
	const struct perf_file *f = analysis__file(a);
	const struct tp_format *fmt;

	if (ev->attr.type != PERF_TYPE_TRACEPOINT || !f)
		return NULL;
	fmt = tp_formats__find(&perf_file__features(f)->tp_formats, ev->attr.config);
	if (!fmt || strcmp(fmt->system, "sched") || strcmp(fmt->name, "sched_switch"))
		return NULL;
	return fmt;
}

/* a copy of the current sample's frames as the thread's blocking-stack candidate */
static int set_candidate(struct threads *ts, struct tstat *t, const struct rsample *s)
{
	size_t n = s->nr_frames;

	if (!get_sw(ts, t))
		return -ENOMEM;
	if (n > t->sw->cap_cand) {
		uintptr_t *c = pool__alloc(&ts->pool, n * sizeof(*c));

		if (!c)
			return -ENOMEM;
		t->sw->cand = c;
		t->sw->cap_cand = (uint32_t)n;
	}
	if (n)
		memcpy(t->sw->cand, s->frames, n * sizeof(uintptr_t));
	t->sw->nr_cand = (uint32_t)n;
	t->sw->cand_time = s->time;
	t->sw->has_cand = 1;
	return 0;
}

/* a sched:sched_switch sample: prev_pid leaves the CPU (with this sample's stack), next_pid comes back */
static int sched_switch(struct threads *ts, struct analysis *a, const struct rsample *rs, const struct tp_format *fmt,
			struct tstat *t)
{
	const struct perf_sample *s = &rs->rec->sample;
	const struct tp_formats *tf = &perf_file__features(analysis__file(a))->tp_formats;
	struct machine *m = analysis__machine(a);
	int64_t prev_pid, prev_state, next_pid;
	struct mthread *next;
	struct tstat *prev = t;
	int err = 0;

	if (tp_field__read(tp_format__field(fmt, "prev_pid"), tf, s->raw, s->raw_size, &prev_pid) ||
	    tp_field__read(tp_format__field(fmt, "prev_state"), tf, s->raw, s->raw_size, &prev_state) ||
	    tp_field__read(tp_format__field(fmt, "next_pid"), tf, s->raw, s->raw_size, &next_pid)) {
		ts->unreadable++;
		return 0;
	}
	ts->switch_data = ts->switch_samples = 1;
	ts->sched_samples++;
	if (prev_pid != (int64_t)rs->th->tid) {
		struct mthread *pth = prev_pid > 0 ? machine__find_thread(m, (uint32_t)prev_pid) : NULL;

		prev = pth ? get_tstat(ts, pth) : NULL;
		if (pth && !prev)
			return -ENOMEM;
	}
	if (prev) {
		err = set_candidate(ts, prev, rs);
		if (!err)
			err = switch_out(ts, prev, s->time, (prev_state & SWITCH_STATE_MASK) == 0);
		if (err)
			return err;
	}
	next = next_pid > 0 ? machine__find_thread(m, (uint32_t)next_pid) : NULL;
	if (next) {
		struct tstat *nt = get_tstat(ts, next);

		if (!nt)
			return -ENOMEM;
		err = touch(ts, nt, next, s->time, 1);
		if (!err)
			err = switch_in(ts, nt, s->time);
	}
	return err;
}

/* the sample's thread's counts per event */
static int count_sample(struct threads *ts, struct tstat *t, const struct rsample *rs)
{
	uint32_t event = rs->event;

	if (event >= t->nr_ev) {
		uint64_t *nv = pool__alloc(&ts->pool, 2 * (event + 1) * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		if (t->nr_ev)
			memcpy(nv, t->ev, 2 * t->nr_ev * sizeof(*nv));
		t->ev = nv;
		t->nr_ev = event + 1;
	}
	t->ev[2 * event]++;
	t->ev[2 * event + 1] += rs->period;
	return 0;
}

static int threads_sample(void *state, struct analysis *a, const struct rsample *rs)
{
	struct threads *ts = state;
	const struct perf_sample *s = &rs->rec->sample;
	const struct perf_evattr *ev = rs->rec->evattr;
	struct mthread *th = rs->th;
	const struct tp_format *fmt;
	struct tstat *t = NULL;
	int err;

	if (th->tid != UINT32_MAX) {
		t = get_tstat(ts, th);
		if (!t)
			return -ENOMEM;
		err = touch(ts, t, th, s->time, rs->has_time);
		if (!err)
			err = count_sample(ts, t, rs);
		if (err)
			return err;
	}
	if (!rs->has_time)
		return 0;
	/* the idle task's samples at switches have no stack of its own, but bring others back */
	if (th->tid == 0)
		t = NULL;
	if (ev->attr.type == PERF_TYPE_SOFTWARE && ev->attr.config == PERF_COUNT_SW_CONTEXT_SWITCHES) {
		ts->switch_samples = 1;
		return t ? set_candidate(ts, t, rs) : 0;
	}
	fmt = sched_switch_format(a, ev);
	if (fmt && (s->sample_type & PERF_SAMPLE_RAW))
		return sched_switch(ts, a, rs, fmt, t);
	return 0;
}

/* ------------------------------------------------------------- reports */

static const struct report_column threads_cols[] = {
	{ "pid", "BIGINT" }, { "tid", "BIGINT" }, { "comm", "TEXT" }, { "comms", "TEXT" },
	{ "start_time", "BIGINT" }, { "end_time", "BIGINT" }, { "event", "TEXT" }, { "samples", "BIGINT" },
	{ "period", "BIGINT" }, { "oncpu_ns", "BIGINT" }, { "offcpu_ns", "BIGINT" }, { "switches", "BIGINT" },
	{ "voluntary", "BIGINT" }, { "preempted", "BIGINT" }, { NULL, NULL }
};

static const struct report_column offcpu_cols[] = {
	{ "pid", "BIGINT" }, { "tid", "BIGINT" }, { "comm", "TEXT" }, { "dso", "TEXT" }, { "function", "TEXT" },
	{ "count", "BIGINT" }, { "offcpu_ns", "BIGINT" }, { "max_ns", "BIGINT" }, { NULL, NULL }
};

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

/* the period of t's cpu-clock and task-clock samples (ns) */
static uint64_t oncpu_ns(struct analysis *a, const struct tstat *t)
{
	struct analysis_event ev;
	uint64_t ns = 0;
	uint32_t e;

	for (e = 0; e < t->nr_ev; e++) {
		if (!t->ev[2 * e])
			continue;
		analysis__event(a, e, &ev);
		if (ev.time_unit)
			ns += t->ev[2 * e + 1];
	}
	return ns;
}

/* a thread's rows: one per event it has samples of, else one without an event */
static int thread_rows(struct analysis *a, const struct threads *ts, const struct tstat *t,
		       int (*fn)(void *ctx, const struct thread_row *r), void *ctx)
{
	const struct tswitch none = { 0 }, *sw = t->sw ? t->sw : &none;
	const int switches = ts->switch_data && t->tid != 0;	/* the idle task: none of its own */
	const char *comms = comms_of(a, t);
	uint64_t ns = oncpu_ns(a, t);
	struct thread_row r;
	int rows = 0, err;
	uint32_t e;

	if (!comms)
		return -ENOMEM;
	for (e = 0; e <= t->nr_ev; e++) {
		int last = e == t->nr_ev;

		if (!last && !t->ev[2 * e])
			continue;
		if (last && rows)
			break;
		r.pid = t->pid;
		r.tid = t->tid;
		r.comm = t->comm ? t->comm : UNKNOWN;
		r.comms = comms;
		r.start = t->has_time ? t->first : 0;
		r.end = t->has_time ? t->last : 0;
		r.event = last ? "" : analysis__event_name(a, e);
		r.samples = last ? 0 : t->ev[2 * e];
		r.period = last ? 0 : t->ev[2 * e + 1];
		r.oncpu_ns = ns;
		r.offcpu_ns = switches ? (int64_t)sw->offcpu_ns : -1;
		r.switches = switches ? (int64_t)sw->switches : -1;
		r.voluntary = switches ? (int64_t)sw->voluntary : -1;
		r.preempted = switches ? (int64_t)sw->preempted : -1;
		err = fn(ctx, &r);
		if (err)
			return err;
		rows++;
	}
	return 0;
}

static int rows_each(struct threads *ts, struct analysis *a, int (*fn)(void *ctx, const struct thread_row *r),
		     void *ctx)
{
	size_t n = ts->tstats.len, i;
	struct tstat **v = malloc((n ? n : 1) * sizeof(*v));
	int err = 0;

	if (!v)
		return -ENOMEM;
	/* in creation order, as the sort's ties were before */
	for (i = 0; i < n; i++)
		v[i] = stable_array__at(&ts->tstats, i);
	if (n)
		qsort(v, n, sizeof(*v), tstat_cmp);
	for (i = 0; i < n && !err; i++)
		err = thread_rows(a, ts, v[i], fn, ctx);
	free(v);
	return err;
}

int threads__each(struct analysis *a, int (*fn)(void *ctx, const struct thread_row *r), void *ctx)
{
	struct threads *ts = analysis__report_state(a, &threads_report);

	return ts ? rows_each(ts, a, fn, ctx) : -EINVAL;
}

static int csv_row(void *ctx, const struct thread_row *r)
{
	struct csv *c = ctx;

	csv__u64(c, r->pid);
	csv__u64(c, r->tid);
	csv__str(c, r->comm);
	csv__str(c, r->comms);
	csv__u64(c, r->start);
	csv__u64(c, r->end);
	csv__str(c, r->event);
	csv__u64(c, r->samples);
	csv__u64(c, r->period);
	csv__u64(c, r->oncpu_ns);
	csv__i64(c, r->offcpu_ns);
	csv__i64(c, r->switches);
	csv__i64(c, r->voluntary);
	csv__i64(c, r->preempted);
	csv__end_row(c);
	return 0;
}

/*
 * sched_switch samples of a recording that was not system-wide: the
 * tracepoint fires in the task that leaves the CPU, so without -a a
 * recorded thread's return (another task's switch) is not recorded and its
 * time off the CPU mostly missing.  The file's ID_INDEX says how its events
 * were opened: on tasks (a tid), or on every task of a CPU (tid -1, perf
 * record -a).  A file without ID_INDEX says nothing.
 */
static void say_not_system_wide(const struct threads *ts, struct analysis *a)
{
	const char *input = analysis__opts(a)->input_name;

	if (!ts->sched_samples || !ts->task_ids || ts->wide_ids)
		return;
	log_msg(analysis__log(a), LOG_WARN, "%s: %" PRIu64 " sched:sched_switch samples of a recording that is not "
		"system-wide (its events were opened on tasks: no perf record -a): a thread's returns to the CPU are "
		"not recorded, so its time off the CPU (threads.csv, offcpu.csv) is mostly missing",
		input ? input : "input", ts->sched_samples);
}

static int threads_write(void *state, struct analysis *a, const char *dir)
{
	struct csv c;
	int err = report__open_csv(&c, a, dir, "threads", threads_cols);

	if (err)
		return err;
	say_not_system_wide(state, a);
	err = rows_each(state, a, csv_row, &c);
	if (err) {
		csv__abort(&c);
		return err;
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

/*
 * Why a file gives no off-CPU time, said once: it has no context switches,
 * or its sched_switch samples cannot be read through their format; path:
 * the output not written, NULL for offcpu.csv (said only in the second case)
 */
static void say_no_switches(struct threads *ts, struct analysis *a, const char *path)
{
	const char *input = analysis__opts(a)->input_name;

	if (path ? ts->said++ : ts->said_csv++)
		return;
	if (ts->unreadable)
		log_msg(analysis__log(a), LOG_WARN, "%s: %" PRIu64 " sched:sched_switch samples whose prev_pid, "
			"prev_state or next_pid the tracepoint's format puts outside the record: no off-CPU time, "
			"%s%s", input ? input : "input", ts->unreadable, path ? path : "offcpu.csv has no rows",
			path ? " not written" : "");
	else
		log_msg(analysis__log(a), LOG_WARN, "%s: no context switches in the file (perf record --switch-events, "
			"or -e sched:sched_switch): no off-CPU time, %s not written", input ? input : "input", path);
}

/* the offcpu.csv rows of the off-CPU stacks, merged per (thread, leaf); n rows into *out */
static int offcpu_rows(const struct threads *ts, struct offrow **out, size_t *nr)
{
	const struct hashmap_entry *he;
	struct offrow *rows;
	struct hashmap byrow;
	size_t it = 0, n = 0, k;

	rows = calloc(ts->offstacks.len + 1, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	hashmap__init(&byrow);
	while ((he = hashmap__next(&ts->offstacks, &it))) {
		const char *p = he->key;
		const uint64_t *val = he->value;
		const struct func_stat *leaf;
		struct off_key key;
		struct offrow r;
		const void *mk[3];
		void **slot;
		int ret;

		memcpy(&key, p, sizeof(key));
		memset(&r, 0, sizeof(r));
		memcpy(&r.t, p + sizeof(key) + key.nr * sizeof(uintptr_t), sizeof(r.t));
		leaf = report__leaf((const uintptr_t *)(p + sizeof(key)), key.nr);
		r.dso = leaf ? leaf->dso : UNKNOWN;
		r.function = leaf ? leaf->function : UNKNOWN;
		/* merge with the row of the same thread and leaf */
		mk[0] = r.t;
		mk[1] = r.dso;
		mk[2] = r.function;
		ret = hashmap__insert(&byrow, mk, sizeof(mk), &slot);
		if (ret < 0) {
			hashmap__release(&byrow, NULL);
			free(rows);
			return -ENOMEM;
		}
		if (ret == 1) {
			rows[n] = r;
			*slot = (void *)(uintptr_t)n++;
		}
		k = (size_t)(uintptr_t)*slot;
		rows[k].count += val[0];
		rows[k].ns += val[1];
		if (val[2] > rows[k].max)
			rows[k].max = val[2];
	}
	hashmap__release(&byrow, NULL);
	*out = rows;
	*nr = n;
	return 0;
}

static int offcpu_write(void *state, struct analysis *a, const char *dir)
{
	struct threads *ts = state;
	struct offrow *rows;
	size_t n, i;
	struct csv c;
	int err = offcpu_rows(ts, &rows, &n);

	if (err)
		return err;
	if (!ts->switch_data && ts->unreadable)
		say_no_switches(ts, a, NULL);
	if (n)
		qsort(rows, n, sizeof(*rows), offrow_cmp);
	err = report__open_csv(&c, a, dir, "offcpu", offcpu_cols);
	if (err) {
		free(rows);
		return err;
	}
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
}

/* the off-CPU stacks: counters intervals, ns, longest; weighted by ns; -ENODATA (said) without switch data */
static int collapse_offcpu(struct threads *ts, struct analysis *a, const char *path, struct folded *fd)
{
	if (!ts->switch_data) {
		say_no_switches(ts, a, path);
		return -ENODATA;
	}
	memset(fd, 0, sizeof(*fd));
	fd->by_period = 1;
	fd->event = "off-CPU";
	return folded__collapse(&ts->offstacks, UINT32_MAX, 1, fd);
}

int threads__folded_offcpu(struct analysis *a, struct folded *fd)
{
	struct threads *ts = analysis__report_state(a, &threads_report);

	if (!ts)
		return -EINVAL;
	if (!ts->switch_data)
		return -ENODATA;
	return collapse_offcpu(ts, a, NULL, fd);
}

static int folded_offcpu_write(void *state, struct analysis *a, const char *path)
{
	struct folded fd;
	int err = collapse_offcpu(state, a, path, &fd);

	return err ? err : folded__write(&fd, path);
}

static int flamegraph_offcpu_write(void *state, struct analysis *a, const char *path)
{
	const struct analysis_opts *o = analysis__opts(a);
	struct folded fd;
	int err = collapse_offcpu(state, a, path, &fd);

	return err ? err : flame__write_svg(&fd, path, 1, o->fg_minwidth_set ? o->fg_minwidth : FLAME_MIN_CPX);
}

static const struct report_output threads_outputs[] = {
	{ .name = "threads", .columns = threads_cols, .write = threads_write },
	/* header only without context-switch data */
	{ .name = "offcpu", .columns = offcpu_cols, .write = offcpu_write },
	{ .name = "folded-offcpu", .is_path = 1, .write = folded_offcpu_write,
	  .help = "time off the CPU per blocking stack (ns), folded, into FILE\n"
		  "(needs perf record --switch-events with -e context-switches -g,\n"
		  "or -e sched:sched_switch -g)" },
	{ .name = "flamegraph-offcpu", .is_path = 1, .write = flamegraph_offcpu_write,
	  .help = "its flame graph (blue)" },
	{ .name = NULL }
};

const struct report_ops threads_report = {
	.name = "threads",
	.source = REPORT_FROM_ANALYSIS,
	.state_size = sizeof(struct threads),
	.outputs = threads_outputs,
	.begin = threads_begin,
	.sample = threads_sample,
	.record = threads_record,
	.release = threads_release,
};

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Processes, threads and maps (see machine.h).  Follows
 * machine__process_{comm,fork,exit,mmap,mmap2}_event(), thread__fork() and
 * maps__fixup_overlappings() of Linux perf 6.1, and for jitdumps perf
 * inject --jit (util/jitdump.c: jit_process, jit_repipe_code_load/move,
 * convert_timestamp; builtin-inject.c's anon map stripping).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "decode/machine.h"
#include "decode/symbols.h"
#include "util/array.h"
#include "util/hashmap.h"
#include "util/log.h"
#include "util/pool.h"

#define TCACHE 256

struct machine {
	struct symbols *syms;
	struct strset strings;		/* interned comms and map file names */
	struct u32map procs;		/* pid -> the index of its current process in all_procs */
	struct u32map threads;		/* tid -> the index of its current thread in all_threads */
	struct stable_array all_procs;	/* struct process, every lifetime in creation order */
	struct stable_array all_threads;	/* struct mthread, likewise */
	struct pool pool;		/* the processes' maps parts */
	struct maps kmaps;
	struct mthread *last;		/* the thread of the last lookup */
	/* the threads of recent lookups by tid % TCACHE (samples of a few threads interleave) */
	struct mthread *tcache[TCACHE];
	/* jitdumps */
	struct machine_jit jit;
	struct array jit_due;		/* struct jit_due: maps of timed dumps, sorted from jit_head on */
	size_t jit_head;		/* the first not applied */
	uint64_t jit_next;		/* the time of jit_head's, UINT64_MAX when none */
	uint64_t jit_seq;
	int jit_warned;
	int has_tsc;			/* a TIME_CONV record: arch timestamps convert */
	uint64_t maps_gen;		/* machine__maps_gen */
	struct perf_rec_time_conv tsc;
};

/* a JIT map waiting for its time */
struct jit_due {
	struct jit_map m;
	uint64_t seq;			/* arrival order: ties keep it */
};

static const char *intern(struct machine *m, const char *s)
{
	if (!s)
		s = "";		/* a record whose body was not decoded (unknown id) */
	return strset__intern(&m->strings, s, strlen(s));
}

static uint32_t proc_pid(const void *ctx, uint32_t i)
{
	return ((const struct process *)stable_array__at(&((const struct machine *)ctx)->all_procs, i))->pid;
}

static uint32_t thread_tid(const void *ctx, uint32_t i)
{
	return ((const struct mthread *)stable_array__at(&((const struct machine *)ctx)->all_threads, i))->tid;
}

int machine__new(struct machine **out, struct symbols *syms)
{
	struct machine *m = calloc(1, sizeof(*m));

	*out = NULL;
	if (!m)
		return -ENOMEM;
	m->syms = syms;
	array__init(&m->jit_due, sizeof(struct jit_due));
	m->jit_next = UINT64_MAX;
	strset__init(&m->strings);
	stable_array__init(&m->all_procs, sizeof(struct process), 10);
	stable_array__init(&m->all_threads, sizeof(struct mthread), 11);
	u32map__init(&m->procs, proc_pid, m);
	u32map__init(&m->threads, thread_tid, m);
	*out = m;
	return 0;
}

void machine__delete(struct machine *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->all_procs.len; i++) {
		struct process *p = stable_array__at(&m->all_procs, i);

		if (p->pm)
			maps__release(&p->pm->maps);
	}
	pool__release(&m->pool);
	stable_array__release(&m->all_procs);
	stable_array__release(&m->all_threads);
	maps__release(&m->kmaps);
	array__release(&m->jit_due);
	strset__release(&m->strings);
	u32map__release(&m->procs);
	u32map__release(&m->threads);
	free(m);
}

/* ------------------------------------------------------------------ maps */

const struct map_entry *maps__find(const struct maps *maps, uint64_t ip)
{
	size_t lo = 0, hi = maps->n;

	/* last map with start <= ip */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (maps->v[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	if (ip < maps->v[lo - 1].end)
		return &maps->v[lo - 1];
	return NULL;
}

static int maps_reserve(struct maps *maps, size_t extra)
{
	size_t cap;
	struct map_entry *nv;

	if (maps->n + extra <= maps->cap)
		return 0;
	cap = maps->cap ? maps->cap : 16;
	while (cap < maps->n + extra)
		cap *= 2;
	nv = realloc(maps->v ? maps->v - maps->front : NULL, (maps->front + cap) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	maps->v = nv + maps->front;
	maps->cap = cap;
	return 0;
}

/*
 * At least extra free slots before v: a new allocation with as many free
 * slots in front as there are maps (doubling, so maps arriving at
 * descending addresses cost O(1) each, not a memmove of all the others).
 */
static int maps_reserve_front(struct maps *maps, size_t extra)
{
	size_t front = maps->n > 16 ? maps->n : 16;
	struct map_entry *nb;

	if (maps->front >= extra)
		return 0;
	if (front < extra)
		front = extra;
	nb = malloc((front + maps->cap) * sizeof(*nb));
	if (!nb)
		return -ENOMEM;
	if (maps->n)
		memcpy(nb + front, maps->v, maps->n * sizeof(*nb));
	free(maps->v ? maps->v - maps->front : NULL);
	maps->v = nb + front;
	maps->front = front;
	return 0;
}

void maps__release(struct maps *maps)
{
	if (!maps->refs || !--*maps->refs) {
		free(maps->v ? maps->v - maps->front : NULL);
		free(maps->refs);
	}
	maps->v = NULL;
	maps->refs = NULL;
	maps->n = maps->cap = maps->front = 0;
}

/* make v this process's own before it changes (copy on write); 0 or -ENOMEM */
static int maps_unshare(struct maps *maps)
{
	struct map_entry *own;

	if (!maps->refs)
		return 0;
	if (*maps->refs == 1) {
		free(maps->refs);
		maps->refs = NULL;
		return 0;
	}
	own = malloc((maps->n ? maps->n : 1) * sizeof(*own));
	if (!own)
		return -ENOMEM;
	if (maps->n)
		memcpy(own, maps->v, maps->n * sizeof(*own));
	(*maps->refs)--;
	maps->refs = NULL;
	maps->v = own;
	maps->cap = maps->n ? maps->n : 1;
	maps->front = 0;
	return 0;
}

int maps__insert(struct maps *maps, const struct map_entry *e)
{
	maps->gen++;
	size_t lo = 0, hi = maps->n, first, last, nr_new = 0;
	struct map_entry repl[3];
	int err;

	if (e->end <= e->start)
		return 0;
	err = maps_unshare(maps);
	if (err)
		return err;
	/* first map whose end is past e->start (ends are sorted too: no overlaps) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (maps->v[mid].end <= e->start)
			lo = mid + 1;
		else
			hi = mid;
	}
	first = lo;
	last = first;
	while (last < maps->n && maps->v[last].start < e->end)
		last++;
	/* maps [first, last) overlap e; keep what sticks out on either side */
	if (first < last && maps->v[first].start < e->start) {
		repl[nr_new] = maps->v[first];
		repl[nr_new].end = e->start;
		nr_new++;
	}
	repl[nr_new++] = *e;
	if (first < last && maps->v[last - 1].end > e->end) {
		const struct map_entry *old = &maps->v[last - 1];

		repl[nr_new] = *old;
		repl[nr_new].start = e->end;
		repl[nr_new].pgoff = old->pgoff + (e->end - old->start);
		nr_new++;
	}
	if (nr_new > last - first && first < maps->n - last) {
		/* growing nearer the front: the maps before it move one slot left */
		size_t g = nr_new - (last - first);

		err = maps_reserve_front(maps, g);
		if (err)
			return err;
		memmove(maps->v - g, maps->v, first * sizeof(*maps->v));
		maps->v -= g;
		maps->front -= g;
		maps->cap += g;
		memcpy(&maps->v[first], repl, nr_new * sizeof(*repl));
		maps->n += g;
		return 0;
	}
	if (nr_new > last - first) {
		err = maps_reserve(maps, nr_new - (last - first));
		if (err)
			return err;
	}
	memmove(&maps->v[first + nr_new], &maps->v[last], (maps->n - last) * sizeof(*maps->v));
	memcpy(&maps->v[first], repl, nr_new * sizeof(*repl));
	maps->n = maps->n - (last - first) + nr_new;
	return 0;
}

/*
 * A forked child starts with its parent's maps: shared, not copied (40k forks
 * of a process with 2000 maps copied 3.3 GB); whichever changes first copies.
 */
static int maps_copy(struct maps *dst, struct maps *src)
{
	maps__release(dst);
	if (!src->n)
		return 0;
	if (!src->refs) {
		src->refs = malloc(sizeof(*src->refs));
		if (!src->refs)
			return -ENOMEM;
		*src->refs = 1;
	}
	(*src->refs)++;
	dst->refs = src->refs;
	dst->v = src->v;
	dst->n = src->n;
	dst->cap = src->cap;
	dst->front = src->front;
	dst->gen++;
	return 0;
}

/* ------------------------------------------------------- processes/threads */

/* p's maps, made on first use; NULL on ENOMEM */
static struct process_maps *process_maps(struct machine *m, struct process *p)
{
	if (!p->pm)
		p->pm = pool__alloc(&m->pool, sizeof(*p->pm));
	return p->pm;
}

static struct process *new_process(struct machine *m, uint32_t pid)
{
	struct process *p;
	uint32_t *slot;

	/* the maps' indexes and processes.csv's sort keys are 32-bit */
	if (m->all_procs.len >= UINT32_MAX - 1)
		return NULL;
	p = stable_array__push(&m->all_procs);
	if (!p || u32map__insert(&m->procs, pid, &slot) < 0)
		return NULL;
	if (*slot)
		((struct process *)stable_array__at(&m->all_procs, *slot - 1))->retired = 1;
	p->pid = pid;
	*slot = (uint32_t)m->all_procs.len;
	if (pid == 0)	/* perf names the idle thread so (machine__init) */
		p->comm = intern(m, "swapper");
	return p;
}

static struct process *findnew_process(struct machine *m, uint32_t pid)
{
	const uint32_t *slot = u32map__find(&m->procs, pid);

	if (slot)
		return stable_array__at(&m->all_procs, *slot - 1);
	return new_process(m, pid);
}

/* the current thread tid, or NULL */
static struct mthread *thread_of(const struct machine *m, uint32_t tid)
{
	const uint32_t *slot = u32map__find(&m->threads, tid);

	return slot ? stable_array__at(&m->all_threads, *slot - 1) : NULL;
}

static struct mthread *new_thread(struct machine *m, struct process *p, uint32_t tid)
{
	struct mthread *t;
	uint32_t *slot;

	if (m->all_threads.len >= UINT32_MAX - 1)
		return NULL;
	t = stable_array__push(&m->all_threads);
	if (!t || u32map__insert(&m->threads, tid, &slot) < 0)
		return NULL;
	t->tid = tid;
	*slot = (uint32_t)m->all_threads.len;
	/* it may be the thread this one replaces */
	m->last = NULL;
	m->tcache[tid % TCACHE] = NULL;
	t->proc = p;
	if (tid == p->pid || !p->comm)
		t->comm = p->comm;
	p->nr_threads++;
	return t;
}

struct mthread *machine__findnew_thread(struct machine *m, uint32_t pid, uint32_t tid)
{
	struct mthread *t = m->last;
	struct process *p;

	/*
	 * perf finds threads by tid alone (____machine__findnew_thread): a
	 * sample whose pid disagrees with the known thread still goes to it
	 */
	if (t && t->tid == tid && !t->proc->retired)
		return t;
	t = m->tcache[tid % TCACHE];
	if (t && t->tid == tid && !t->proc->retired) {
		m->last = t;
		return t;
	}
	t = thread_of(m, tid);
	if (t && !t->proc->retired) {
		m->last = t;
		m->tcache[tid % TCACHE] = t;
		return t;
	}
	if (pid == UINT32_MAX)
		pid = tid;
	p = findnew_process(m, pid);
	if (!p)
		return NULL;
	return new_thread(m, p, tid);
}

struct mthread *machine__find_thread(const struct machine *m, uint32_t tid)
{
	struct mthread *t = thread_of(m, tid);

	if (t && !t->proc->retired)
		return t;
	return NULL;
}

static struct mthread *find_thread(struct machine *m, uint32_t pid, uint32_t tid)
{
	(void)pid;	/* by tid, as perf's machine__find_thread() */
	return machine__find_thread(m, tid);
}

static void set_comm(struct mthread *t, const char *comm)
{
	struct process *p = t->proc;

	t->comm = comm;
	if (t->tid == p->pid || !p->comm || p->pid == 0)
		p->comm = comm;
}

static int process_comm(struct machine *m, const struct perf_rec_comm *c)
{
	struct mthread *t = machine__findnew_thread(m, c->pid, c->tid);
	const char *comm;

	if (!t)
		return -ENOMEM;
	comm = intern(m, c->comm);
	if (!comm)
		return -ENOMEM;
	/*
	 * exec keeps the maps, as perf does (thread__set_comm): the new image's
	 * MMAPs replace what they overlap, and samples taken inside execve()
	 * after the COMM still carry user callchains into the old image
	 */
	set_comm(t, comm);
	return 0;
}

static int process_fork(struct machine *m, const struct perf_rec_fork *f, uint64_t time)
{
	struct mthread *parent = machine__findnew_thread(m, f->ppid, f->ptid);
	struct mthread *child;
	struct process *p;

	if (!parent)
		return -ENOMEM;
	if (f->pid != f->ppid) {
		/* a new process; an existing one with this pid is a past lifetime */
		p = new_process(m, f->pid);
		if (!p)
			return -ENOMEM;
		p->has_ppid = 1;
		p->ppid = f->ppid;
		/* synthesized FORKs of processes that ran before have time 0: unknown */
		p->start_time = f->time ? f->time : time;
		if (parent->proc->pm && parent->proc->pm->maps.n &&
		    (!process_maps(m, p) || maps_copy(&p->pm->maps, &parent->proc->pm->maps)))
			return -ENOMEM;
		p->comm = parent->comm;
	} else {
		p = parent->proc;
		if (p->pid != f->pid || p->retired) {
			p = findnew_process(m, f->pid);
			if (!p)
				return -ENOMEM;
		}
	}
	child = new_thread(m, p, f->tid);
	if (!child)
		return -ENOMEM;
	if (parent->comm)
		set_comm(child, parent->comm);
	return 0;
}

static int process_exit(struct machine *m, const struct perf_rec_fork *f, uint64_t time)
{
	struct mthread *t = find_thread(m, f->pid, f->tid);

	if (!t)
		return 0;
	t->exited = 1;
	if (t->tid == t->proc->pid) {
		t->proc->exit_time = f->time ? f->time : time;
		/* a process that was there before the recording learns its parent here */
		if (!t->proc->has_ppid && f->ppid != f->pid) {
			t->proc->has_ppid = 1;
			t->proc->ppid = f->ppid;
		}
	}
	return 0;
}

static uint64_t map_end(uint64_t start, uint64_t len)
{
	if (len > UINT64_MAX - start)
		return UINT64_MAX;
	return start + len;
}

/* ------------------------------------------------------------- jitdumps */

void machine__set_jit(struct machine *m, const struct machine_jit *j)
{
	m->jit = *j;
}

/* perf inject drops these maps of a process whose jitdump it read: the dump's loads cover them */
static int is_jit_anon(const char *f)
{
	return !strncmp(f, "//anon", 6) || !strncmp(f, "[anon:", 6) || !strncmp(f, "/memfd:", 7);
}

/* a JIT map into its process's maps, as perf inject's MMAP2 of jitted-PID-N.so */
static int jit_insert(struct machine *m, const struct jit_map *jm, const char *path)
{
	struct mthread *t = machine__findnew_thread(m, jm->pid, jm->tid);
	struct process_maps *pm = t ? process_maps(m, t->proc) : NULL;
	struct map_entry e;

	if (!pm)
		return -ENOMEM;
	memset(&e, 0, sizeof(e));
	e.start = jm->start;
	e.end = map_end(jm->start, jm->len);
	e.dso = jm->dso;
	e.filename = path;
	return maps__insert(&pm->maps, &e);
}

/* perf's tsc_to_perf_time (util/tsc.c) */
static uint64_t tsc_to_time(const struct perf_rec_time_conv *tc, uint64_t cyc)
{
	uint64_t quot, rem, shift = tc->time_shift & 63;

	if (tc->has_ext && tc->cap_user_time_short)
		cyc = tc->time_cycles + ((cyc - tc->time_cycles) & tc->time_mask);
	quot = cyc >> shift;
	rem = cyc & (((uint64_t)1 << shift) - 1);
	return tc->time_zero + quot * tc->time_mult + ((rem * tc->time_mult) >> shift);
}

static int due_cmp(const void *pa, const void *pb)
{
	const struct jit_due *a = pa, *b = pb;

	if (a->m.time != b->m.time)
		return a->m.time < b->m.time ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* the maps of a timed dump wait for their times (converted from the arch counter when it is one) */
static int jit_queue(struct machine *m, const struct jit_map *maps, size_t nr, int arch)
{
	struct jit_due *d;
	size_t i;

	if (m->jit_head == m->jit_due.len)
		m->jit_head = m->jit_due.len = 0;
	if (array__reserve(&m->jit_due, nr))
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		d = array__push(&m->jit_due);
		d->m = maps[i];
		if (arch)
			d->m.time = tsc_to_time(&m->tsc, d->m.time);
		d->seq = m->jit_seq++;
	}
	if (m->jit_due.len == m->jit_head) {
		m->jit_next = UINT64_MAX;
		return 0;
	}
	d = &ARRAY_AT(&m->jit_due, struct jit_due, m->jit_head);
	qsort(d, m->jit_due.len - m->jit_head, sizeof(*d), due_cmp);
	m->jit_next = d->m.time;
	return 0;
}

int machine__advance(struct machine *m, uint64_t time)
{
	const struct jit_due *d;
	int err;

	/* (jit_next is UINT64_MAX when none is due, and so may be a damaged sample's time) */
	while (m->jit_head < m->jit_due.len && m->jit_next <= time) {
		d = &ARRAY_AT(&m->jit_due, struct jit_due, m->jit_head);
		err = jit_insert(m, &d->m, dso__path(d->m.dso));
		if (err)
			return err;
		m->maps_gen++;
		m->jit_head++;
		m->jit_next = m->jit_head < m->jit_due.len ? d[1].m.time : UINT64_MAX;
	}
	return 0;
}

/*
 * A process mapped a jitdump: its code as maps.  perf inject requires the
 * dump's clock (CLOCK_MONOTONIC, or the arch counter with a TIME_CONV
 * record) to be the recording's and refuses the dump otherwise; here each
 * address then takes its latest load, with one warning.
 */
static int jitdump_mapped(struct machine *m, struct process *p, const char *path)
{
	const struct jit_map *maps;
	uint64_t flags;
	size_t nr, i;
	int err, arch, timed;

	err = symbols__jitdump(m->syms, path, &maps, &nr, &flags);
	/* perf inject reads one dump per process; one it cannot read leaves the anonymous maps as they are */
	if (err || p->pm->jitdump)
		return err == -ENOMEM ? err : 0;
	p->pm->jitdump = 1;
	arch = (flags & JIT_FLAG_ARCH_TIMESTAMP) != 0;
	timed = !m->jit.times ? 0 :
		arch ? m->has_tsc && m->tsc.time_mult && (!m->tsc.has_ext || m->tsc.cap_user_time_zero)
		     : m->jit.monotonic;
	if (timed)
		return jit_queue(m, maps, nr, arch);
	if (nr && !m->jit_warned) {
		m->jit_warned = 1;
		log_msg(m->jit.log, LOG_WARN, "%s: %s: each JIT address takes its latest code load, whatever the "
			"sample's time", path, arch ? "timestamps of the CPU's counter but no TIME_CONV record" :
			"the recording's clock is not the dump's CLOCK_MONOTONIC (record with -k 1)");
	}
	for (i = 0; i < nr; i++)
		if ((err = jit_insert(m, &maps[i], path)))
			return err;
	return 0;
}

static int process_mmap(struct machine *m, const struct perf_record *rec)
{
	const struct perf_rec_mmap *mm = &rec->u.mmap;
	unsigned cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct map_entry e;

	memset(&e, 0, sizeof(e));
	e.start = mm->start;
	e.end = map_end(mm->start, mm->len);
	e.pgoff = mm->pgoff;
	e.filename = intern(m, mm->filename);
	if (!e.filename)
		return -ENOMEM;

	if (cpumode == PERF_RECORD_MISC_GUEST_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_USER)
		return 0;	/* no guest machines */
	if (cpumode == PERF_RECORD_MISC_KERNEL) {
		int is_kernel = !strncmp(mm->filename, "[kernel.kallsyms]", 17);

		if (m->syms) {
			if (rec->type == PERF_RECORD_MMAP2 && mm->build_id && mm->build_id_size)
				symbols__set_build_id(m->syms, is_kernel ? "[kernel.kallsyms]" : mm->filename,
						      mm->build_id, mm->build_id_size);
			e.dso = is_kernel ? symbols__kernel_dso(m->syms)
					  : symbols__dso_for_map(m->syms, mm->filename, mm->pid, 1);
			if (!e.dso)
				return -ENOMEM;
		}
		/* perf: a zero-sized synthesized kernel MMAP covers everything */
		if (is_kernel && e.start == 0 && e.end == 0)
			e.end = UINT64_MAX;
		return maps__insert(&m->kmaps, &e);
	}

	{
		struct mthread *t = machine__findnew_thread(m, mm->pid, mm->tid);
		struct process_maps *pm = t ? process_maps(m, t->proc) : NULL;
		int err;

		if (!pm)
			return -ENOMEM;
		if (m->syms) {
			if (rec->type == PERF_RECORD_MMAP2 && mm->build_id && mm->build_id_size)
				symbols__set_build_id(m->syms, mm->filename, mm->build_id,
						      mm->build_id_size);
			e.dso = symbols__dso_for_map(m->syms, mm->filename, mm->pid, 0);
			if (!e.dso)
				return -ENOMEM;
		}
		pm->nr_mmaps++;
		if (pm->jitdump && is_jit_anon(mm->filename))
			return 0;
		err = maps__insert(&pm->maps, &e);
		if (!err && m->syms && symbols__is_jitdump(mm->filename, mm->pid))
			err = jitdump_mapped(m, t->proc, e.filename);
		return err;
	}
}

int machine__process(struct machine *m, const struct perf_record *rec, uint64_t time)
{
	m->maps_gen++;
	switch (rec->type) {
	case PERF_RECORD_COMM:
		return process_comm(m, &rec->u.comm);
	case PERF_RECORD_FORK:
		return process_fork(m, &rec->u.fork, time);
	case PERF_RECORD_EXIT:
		return process_exit(m, &rec->u.fork, time);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return process_mmap(m, rec);
	case PERF_RECORD_TIME_CONV:
		m->tsc = rec->u.time_conv;
		m->has_tsc = 1;
		return 0;
	default:
		return 0;
	}
}

uint64_t machine__maps_gen(const struct machine *m)
{
	return m->maps_gen;
}

const struct map_entry *machine__find_map(const struct mthread *t, uint64_t ip)
{
	return t->proc->pm ? maps__find(&t->proc->pm->maps, ip) : NULL;
}

/*
 * perf (machine__create_kernel_maps) lets the kernel's map reach the first
 * module's, or the end of the address space: init text above _etext
 * (start_kernel, x86_64_start_kernel) is the kernel's although the kernel
 * MMAP's length stops before it
 */
const struct map_entry *machine__find_kernel_map(const struct machine *m, uint64_t ip)
{
	const struct map_entry *e = maps__find(&m->kmaps, ip);
	size_t i;

	if (e)
		return e;
	for (i = 0; i < m->kmaps.n; i++) {
		const struct map_entry *k = &m->kmaps.v[i];

		if (strncmp(k->filename, "[kernel.kallsyms]", 17))
			continue;
		if (ip >= k->end && (i + 1 == m->kmaps.n || ip < m->kmaps.v[i + 1].start))
			return k;
		break;
	}
	return NULL;
}

size_t machine__nr_kernel_maps(const struct machine *m)
{
	return m->kmaps.n;
}

size_t machine__nr_processes(const struct machine *m)
{
	return m->all_procs.len;
}

struct process *machine__process_at(const struct machine *m, size_t i)
{
	return stable_array__at(&m->all_procs, i);
}


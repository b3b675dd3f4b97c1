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
#include <stdint.h>
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

/* at most this many maps to a chunk: a change copies one chunk's maps, not the set's */
#define MAPS_CHUNK 64

struct maps_chunk {
	size_t refs;			/* directories listing it */
	uint32_t n, cap;		/* n >= 1 */
	struct map_entry v[];
};

struct maps_slot {
	uint64_t start;			/* c->v[0].start (the search reads no chunk but the one it finds) */
	struct maps_chunk *c;
};

struct maps_dir {
	size_t refs;			/* maps sharing it (a fork's child and its parent) */
	size_t nc, cap;
	struct maps_slot s[];		/* chunks in address order */
};

/* the last of v[0, n) whose start is at or before ip, plus one (0: none) */
static size_t upper(const struct map_entry *v, size_t n, uint64_t ip)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* the last chunk whose first map starts at or before ip, plus one (0: none) */
static size_t slot_upper(const struct maps_dir *d, uint64_t ip)
{
	size_t lo = 0, hi = d->nc;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->s[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct map_entry *maps__find(const struct maps *maps, uint64_t ip)
{
	const struct maps_chunk *c;
	size_t i;

	if (!maps->dir || !(i = slot_upper(maps->dir, ip)))
		return NULL;
	c = maps->dir->s[i - 1].c;
	i = upper(c->v, c->n, ip);
	if (i && ip < c->v[i - 1].end)
		return &c->v[i - 1];
	return NULL;
}

const struct map_entry *maps__next(const struct maps *maps, struct maps_iter *it)
{
	const struct maps_dir *d = maps->dir;

	while (d && it->chunk < d->nc) {
		const struct maps_chunk *c = d->s[it->chunk].c;

		if (it->i < c->n)
			return &c->v[it->i++];
		it->chunk++;
		it->i = 0;
	}
	return NULL;
}

static void chunk_put(struct maps_chunk *c)
{
	if (!--c->refs)
		free(c);
}

void maps__release(struct maps *maps)
{
	struct maps_dir *d = maps->dir;
	size_t i;

	if (d && !--d->refs) {
		for (i = 0; i < d->nc; i++)
			chunk_put(d->s[i].c);
		free(d);
	}
	maps->dir = NULL;
	maps->n = 0;
}

/*
 * The directory this set's alone (copied when shared: the copy lists the
 * same chunks, shared until changed) with room for extra more chunks;
 * 0 or -ENOMEM (maps then as they were)
 */
static int dir_own(struct maps *maps, size_t extra)
{
	struct maps_dir *d = maps->dir, *nd;
	size_t nc = d ? d->nc : 0, cap, i;

	if (d && d->refs == 1 && d->cap - nc >= extra)
		return 0;
	if (extra > SIZE_MAX / 2 / sizeof(struct maps_slot) - nc)
		return -ENOMEM;
	cap = nc + extra;
	if (d && d->refs == 1) {
		if (cap < 2 * d->cap)
			cap = 2 * d->cap;
		nd = realloc(d, sizeof(*nd) + cap * sizeof(nd->s[0]));
		if (!nd)
			return -ENOMEM;
	} else {
		/* a fork's copy: as many slots as it needs, it may never change again */
		nd = malloc(sizeof(*nd) + cap * sizeof(nd->s[0]));
		if (!nd)
			return -ENOMEM;
		nd->refs = 1;
		nd->nc = nc;
		if (nc)
			memcpy(nd->s, d->s, nc * sizeof(nd->s[0]));
		for (i = 0; i < nc; i++)
			nd->s[i].c->refs++;
		if (d)
			d->refs--;
	}
	nd->cap = cap;
	maps->dir = nd;
	return 0;
}

static struct maps_chunk *chunk_new(size_t cap)
{
	struct maps_chunk *c = malloc(sizeof(*c) + cap * sizeof(c->v[0]));

	if (c) {
		c->refs = 1;
		c->n = 0;
		c->cap = (uint32_t)cap;
	}
	return c;
}

/*
 * Chunks [ca, cb] become the maps of tmp[0, k) in new chunks, evenly but
 * for the ends (maps added in ascending or descending order fill whole
 * chunks: at_end, at_front); the directory is maps' own with room for two
 * more.  0 or -ENOMEM (maps then as they were).
 */
static int chunks_replace(struct maps *maps, size_t ca, size_t cb, const struct map_entry *tmp, size_t k,
			  int at_front, int at_end)
{
	struct maps_dir *d = maps->dir;
	struct maps_chunk *nw[3];
	size_t m = (k + MAPS_CHUNK - 1) / MAPS_CHUNK, r = cb - ca + 1, i, off = 0, sz;

	for (i = 0; i < m; i++) {
		if (m == 1)
			sz = k;
		else if (at_end)
			sz = i + 1 < m ? MAPS_CHUNK : k - (m - 1) * MAPS_CHUNK;
		else if (at_front)
			sz = i ? MAPS_CHUNK : k - (m - 1) * MAPS_CHUNK;
		else
			sz = k / m + (i < k % m);
		nw[i] = chunk_new(sz);
		if (!nw[i]) {
			while (i--)
				free(nw[i]);
			return -ENOMEM;
		}
		memcpy(nw[i]->v, tmp + off, sz * sizeof(*tmp));
		nw[i]->n = (uint32_t)sz;
		off += sz;
	}
	for (i = ca; i <= cb; i++)
		chunk_put(d->s[i].c);
	memmove(&d->s[ca + m], &d->s[cb + 1], (d->nc - cb - 1) * sizeof(d->s[0]));
	d->nc = d->nc - r + m;
	for (i = 0; i < m; i++) {
		d->s[ca + i].c = nw[i];
		d->s[ca + i].start = nw[i]->v[0].start;
	}
	return 0;
}

int maps__insert(struct maps *maps, const struct map_entry *e)
{
	struct map_entry repl[3], tmp[2 * MAPS_CHUNK + 3];
	struct maps_dir *d;
	struct maps_chunk *c;
	size_t nr_new = 0, removed = 0, cf, fi, cl, li, k, lo, hi, ca, cb, old, i;
	int err;

	maps->gen++;
	if (e->end <= e->start)
		return 0;
	if (!maps->n) {
		err = dir_own(maps, 1);
		if (err)
			return err;
		c = chunk_new(1);
		if (!c)
			return -ENOMEM;
		c->v[0] = *e;
		c->n = 1;
		maps->dir->s[0].c = c;
		maps->dir->s[0].start = e->start;
		maps->dir->nc = 1;
		maps->n = 1;
		return 0;
	}
	d = maps->dir;
	/*
	 * the first map whose end is past e->start (ends are sorted too: no
	 * overlaps) is in the chunk of the last map starting at or before it,
	 * or first in the next
	 */
	cf = slot_upper(d, e->start);
	cf = cf ? cf - 1 : 0;
	c = d->s[cf].c;
	lo = 0;
	hi = c->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->v[mid].end <= e->start)
			lo = mid + 1;
		else
			hi = mid;
	}
	fi = lo;
	if (fi == c->n && cf + 1 < d->nc) {
		cf++;
		fi = 0;
	}
	/* the maps e overlaps: from (cf, fi) to before (cl, li) */
	cl = cf;
	li = fi;
	for (;;) {
		c = d->s[cl].c;
		while (li < c->n && c->v[li].start < e->end) {
			li++;
			removed++;
		}
		if (li < c->n || cl + 1 == d->nc || d->s[cl + 1].start >= e->end)
			break;
		cl++;
		li = 0;
	}
	/* keep what sticks out on either side */
	if (removed && d->s[cf].c->v[fi].start < e->start) {
		repl[nr_new] = d->s[cf].c->v[fi];
		repl[nr_new].end = e->start;
		nr_new++;
	}
	repl[nr_new++] = *e;
	if (removed && d->s[cl].c->v[li - 1].end > e->end) {
		const struct map_entry *o = &d->s[cl].c->v[li - 1];

		repl[nr_new] = *o;
		repl[nr_new].start = e->end;
		repl[nr_new].pgoff = o->pgoff + (e->end - o->start);
		nr_new++;
	}
	/* between two chunks: at the end of the first when it has room */
	if (!removed && !fi && cf && d->s[cf - 1].c->n < MAPS_CHUNK) {
		cf = cl = cf - 1;
		fi = li = d->s[cf].c->n;
	}
	k = fi + nr_new + (d->s[cl].c->n - li);
	c = d->s[cf].c;
	if (cf == cl && d->refs == 1 && c->refs == 1 && k <= MAPS_CHUNK &&
	    (k >= c->n || k >= MAPS_CHUNK / 4 || d->nc == 1)) {
		/* in place: the chunk is this set's alone, it fits and is not left nearly empty */
		if (k > c->cap) {
			size_t cap = 2 * (size_t)c->cap < k ? k : 2 * (size_t)c->cap;

			if (cap > MAPS_CHUNK)
				cap = MAPS_CHUNK;
			c = realloc(c, sizeof(*c) + cap * sizeof(c->v[0]));
			if (!c)
				return -ENOMEM;
			c->cap = (uint32_t)cap;
			d->s[cf].c = c;
		}
		memmove(&c->v[fi + nr_new], &c->v[li], (c->n - li) * sizeof(c->v[0]));
		memcpy(&c->v[fi], repl, nr_new * sizeof(repl[0]));
		c->n = (uint32_t)k;
		d->s[cf].start = c->v[0].start;
		maps->n = maps->n - removed + nr_new;
		return 0;
	}
	/*
	 * New chunks for [cf, cl]: a shared one is copied (copy on write), one
	 * over MAPS_CHUNK split, one left nearly empty merged with a neighbour
	 * (k < MAPS_CHUNK / 4 then: tmp holds the neighbour too)
	 */
	for (old = 0, i = cf; i <= cl; i++)
		old += d->s[i].c->n;
	ca = cf;
	cb = cl;
	if (k < MAPS_CHUNK / 4 && k < old && d->nc > cl - cf + 1) {
		if (cf)
			ca--;
		else
			cb++;
	}
	err = dir_own(maps, 2);
	if (err)
		return err;
	d = maps->dir;
	i = 0;
	if (ca < cf) {
		c = d->s[ca].c;
		memcpy(tmp, c->v, c->n * sizeof(tmp[0]));
		i = c->n;
	}
	memcpy(tmp + i, d->s[cf].c->v, fi * sizeof(tmp[0]));
	i += fi;
	memcpy(tmp + i, repl, nr_new * sizeof(tmp[0]));
	i += nr_new;
	c = d->s[cl].c;
	memcpy(tmp + i, c->v + li, (c->n - li) * sizeof(tmp[0]));
	i += c->n - li;
	if (cb > cl) {
		c = d->s[cb].c;
		memcpy(tmp + i, c->v, c->n * sizeof(tmp[0]));
		i += c->n;
	}
	err = chunks_replace(maps, ca, cb, tmp, i, !ca && ca == cf && !fi,
			     cb + 1 == d->nc && cb == cl && li == d->s[cl].c->n);
	if (err)
		return err;
	maps->n = maps->n - removed + nr_new;
	return 0;
}

/*
 * A forked child starts with its parent's maps: the directory shared, not
 * copied (40k forks of a process with 2000 maps copied 3.3 GB); whichever
 * changes first copies it and the chunks it changes (maps__insert).
 */
static void maps_copy(struct maps *dst, struct maps *src)
{
	maps__release(dst);
	if (!src->n)
		return;
	src->dir->refs++;
	dst->dir = src->dir;
	dst->n = src->n;
	dst->gen++;
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

static struct mthread *findnew_thread(struct machine *m, uint32_t pid, uint32_t tid);

struct mthread *machine__findnew_thread(struct machine *m, uint32_t pid, uint32_t tid)
{
	struct mthread *t = m->last;

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
	return findnew_thread(m, pid, tid);
}

/* machine__findnew_thread() past its caches.  Out of line, so that a hit saves no registers */
static struct mthread *__attribute__((noinline)) findnew_thread(struct machine *m, uint32_t pid, uint32_t tid)
{
	struct mthread *t = thread_of(m, tid);
	struct process *p;

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
		if (parent->proc->pm && parent->proc->pm->maps.n) {
			if (!process_maps(m, p))
				return -ENOMEM;
			maps_copy(&p->pm->maps, &parent->proc->pm->maps);
		}
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
	const struct map_entry *e = maps__find(&m->kmaps, ip), *next;
	struct maps_iter it = { 0, 0 };

	if (e)
		return e;
	while ((e = maps__next(&m->kmaps, &it))) {
		if (strncmp(e->filename, "[kernel.kallsyms]", 17))
			continue;
		next = maps__next(&m->kmaps, &it);
		if (ip >= e->end && (!next || ip < next->start))
			return e;
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


/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Sample resolution and aggregation (see analysis.h).  Follows
 * process_sample_event() of tools/perf/builtin-report.c, machine__resolve()
 * and thread__resolve_callchain_sample() of tools/perf/util/machine.c, and
 * the hists of --sort dso,sym / --children (util/hist.c) in Linux perf 6.1.
 *
 * Hot path per sample: one thread lookup, one map lookup per address (binary
 * search), one hash lookup per address in the address cache, which points
 * straight at the per-event counters of the function and of the source
 * line.  Everything else happens once per distinct address.  The report
 * writers are in report.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "decode/report.h"
#include "decode/group.h"
#include "decode/unwind.h"
#include "perffile/features.h"
#include "util/array.h"
#include "util/hashmap.h"
#include "util/pool.h"
#include "util/strbuf.h"

#define MAX_CHAIN 1024		/* addresses used per callchain */

/* a function as the hub keeps it: what reports see, and the children stamp */
struct hub_func {
	struct func_stat pub;		/* first: frames point at it */
	uint64_t seen;			/* sample sequence number of the last children count */
};

/* an address cache entry */
struct ipent {
	struct hub_func *f;
	struct line_stat *l;		/* NULL until used as a sample address */
	int unresolved;
	/*
	 * --inline: the functions inlined at the address, innermost first:
	 * [0] where a sample is, [1] where a caller is, the call before its
	 * return address (what addr2line -i says for address - 1)
	 */
	struct inl_list {
		int done;		/* looked up */
		uint32_t n;
		struct hub_func **f;
	} inl[2];
};

/* the address cache key: one map of one event, one address */
struct ip_key {
	uint64_t dso, start, pgoff, ip;
	uint32_t event, pad;
};

#define IPFAST_BITS 13
struct ipfast {
	struct ip_key key;
	struct ipent *e;
};

struct evstat {
	const char *name;		/* interned */
	uint32_t idx;
	int time_unit;			/* cpu-clock or task-clock: the period is nanoseconds */
	uint64_t samples, period;
	uint64_t unstacked_period;	/* of the samples that passed every filter but --focus and --ignore */
	struct ipent *unknown;		/* addresses in no map */
};

struct target {
	struct dso *dso;	/* NULL: no map */
	uint64_t start, pgoff;
	int fallback;		/* kernel dso without a kernel map */
};

/*
 * A callchain and what walk_chain made of it: the frames it pushed and the
 * callers it counted.  The key: the chain's words, whether its first
 * address is the sample's own (skipped), the process (its maps), the event
 * (functions are per event), the sample's cpumode and the machine's map
 * generation (any record that may change a map makes the older ones stale).
 */
struct cmemo {
	uint64_t hash, gen;
	const void *proc;
	uint32_t event, cpumode;
	uint32_t nr_words, nr_frames, nr_funcs;
	int skip_self, unknown;
	int valid;			/* the entry is whole */
	size_t cap;			/* bytes at data */
	uint64_t *data;		/* the words, then the frames (uintptr_t), then the callers (struct hub_func *) */
};

#define CMEMO_BITS 12
#define CMEMO_SIZE (1u << CMEMO_BITS)
/*
 * an entry's words, frames and callers take at most this many bytes (a
 * chain of 170 frames without --inline): a file of long distinct chains
 * cannot make the memo more than 16 MiB; longer ones are walked each time
 */
#define CMEMO_ENTRY_MAX 4096

/* an enabled report: its ops, its state, its outputs of opts.outputs */
struct report_inst {
	const struct report_ops *ops;
	void *state;
	int borrowed;			/* analysis_opts.consumer's: the caller's state */
};

struct analysis {
	const struct perf_file *f;
	struct analysis_opts opts;
	const struct log *log;
	struct symbols *syms;
	int err;			/* the first error, ours or the symbols' (analysis__status) */
	struct dso *kernel_dso;
	struct machine *m;
	struct pool pool;
	struct hashmap strings;		/* string -> pool copy */
	struct hashmap fstats, lstats;
	struct hashmap ipcache;		/* struct ip_key -> struct ipent */
	struct ipfast ipfast[1 << IPFAST_BITS];
	struct array fstat_list, lstat_list;	/* creation order */
	struct evstat *events;		/* by attr index */
	size_t nr_events;
	struct strbuf keybuf;		/* scratch for hash keys */
	uint64_t seq;			/* samples seen: dedup stamp for children */
	uint64_t nr_samples, nr_filtered, nr_unresolved;
	uint64_t nr_unknown_frames;	/* samples with an [unknown] frame (own or a caller) */
	int cur_unknown;		/* the current sample has one */
	uint64_t time_min, time_max;	/* of every sample with a time, filtered or not */
	struct group group;		/* read-group samples (group.h) */
	struct hashmap unres_dsos;	/* struct dso * -> samples there without a symbol */
	struct unwinder *unwinder;	/* samples with user stacks (--call-graph dwarf), or NULL */
	uint64_t *uw_chain;		/* the kernel chain and the unwound user frames, MAX_CHAIN + 2 */
	int chain_ret;			/* the walk's current caller address is a return address (walk_chain) */
	int uw_off;			/* not an x86_64 file: no unwinding */
	struct array frames;		/* uintptr_t: the current sample's stack, innermost first */
	int want_frames;		/* a->frames filled for every sample */
	int stack_filter;		/* --focus or --ignore: the stack decides, children wait for it */
	struct array chain;		/* struct hub_func *: the children of the current sample, with stack_filter */
	int syms_on_stack;		/* analysis_stats.syms_on_stack */
	struct array addrs;		/* uint64_t: the address of each frame, when want_addrs */
	int want_addrs;
	struct cmemo *memo;		/* CMEMO_SIZE callchains and their frames (memo_chain), made at the first */
	struct array memo_funcs;	/* struct hub_func *: the callers a walk being memoised counted */
	int memo_rec;			/* a walk is being memoised: chain_frame notes its callers */
	int memo_unknown;		/* one of them is [unknown] */
	int record_filter;		/* a report reads rrecord.filtered */
	struct report_inst *rep;	/* the enabled reports, registry order */
	size_t nr_rep;
	struct target cur;		/* the map of the sample being handed to the reports (analysis__sample_place) */
	struct report_inst *on_sample;	/* those with a sample callback, registry order */
	size_t nr_on_sample;
};

/* --------------------------------------------------------------- helpers */

static int ptrs_push(struct array *a, void *p)
{
	void **slot = array__push(a);

	if (!slot)
		return -ENOMEM;
	*slot = p;
	return 0;
}

/* keep err as the analysis' first error (analysis__status); err back */
static int analysis_fail(struct analysis *a, int err)
{
	if (err && !a->err)
		a->err = err;
	return err;
}

/*
 * The string value interned in the pool (stable for the analysis' life);
 * NULL for NULL, or when out of memory (kept: the run ends, so no name is
 * ever replaced by another).
 */
static const char *intern(struct analysis *a, const char *s)
{
	void **slot;
	int ret;

	if (!s)
		return NULL;
	ret = hashmap__insert(&a->strings, s, strlen(s) + 1, &slot);
	if (ret < 0) {
		analysis_fail(a, ret);
		return NULL;
	}
	if (ret == 1) {
		*slot = pool__strdup(&a->pool, s);
		if (!*slot) {
			/* a valid value in the map; never freed: values are pool memory */
			*slot = (void *)UNKNOWN;
			analysis_fail(a, -ENOMEM);
			return NULL;
		}
	}
	return a->err ? NULL : *slot;
}

const char *analysis__intern(struct analysis *a, const char *s)
{
	return intern(a, s);
}

static struct evstat *get_event(struct analysis *a, const struct perf_evattr *ev)
{
	struct evstat *es;
	size_t i = (size_t)ev->idx;

	if (ev->idx < 0)
		return NULL;
	if (i >= a->nr_events) {
		size_t n = i + 1;
		struct evstat *ne = realloc(a->events, n * sizeof(*ne));

		if (!ne)
			return NULL;
		memset(ne + a->nr_events, 0, (n - a->nr_events) * sizeof(*ne));
		a->events = ne;
		a->nr_events = n;
	}
	es = &a->events[i];
	if (!es->name) {
		es->name = intern(a, ev->name ? ev->name : UNKNOWN);
		if (!es->name)
			return NULL;
		es->idx = (uint32_t)i;
		es->time_unit = ev->attr.type == PERF_TYPE_SOFTWARE &&
				(ev->attr.config == PERF_COUNT_SW_CPU_CLOCK || ev->attr.config == PERF_COUNT_SW_TASK_CLOCK);
	}
	return es;
}

/* the (event, dso, function) counters; def_file/line filled on creation */
static struct hub_func *get_func(struct analysis *a, uint32_t event, const char *dso,
				 const char *fn, const char *def_file, unsigned def_line)
{
	struct strbuf *k = &a->keybuf;
	void **slot;
	struct hub_func *f;
	int ret;

	strbuf__reset(k);
	if (strbuf__add(k, &event, sizeof(event)) || strbuf__addstr(k, dso) ||
	    strbuf__addch(k, '\0') || strbuf__addstr(k, fn))
		return NULL;
	ret = hashmap__insert(&a->fstats, k->buf, k->len, &slot);
	if (ret < 0)
		return NULL;
	if (ret == 0)
		return *slot;
	f = pool__alloc(&a->pool, sizeof(*f));
	if (!f) {
		*slot = NULL;
		return NULL;
	}
	f->pub.event = event;
	f->pub.id = (uint32_t)a->fstat_list.len;
	f->pub.dso = intern(a, dso);
	f->pub.function = intern(a, fn);
	f->pub.def_file = def_file ? intern(a, def_file) : NULL;
	f->pub.def_line = def_line;
	f->seen = UINT64_MAX;
	*slot = f;
	if (!f->pub.dso || !f->pub.function || ptrs_push(&a->fstat_list, f))
		return NULL;
	return f;
}

static struct line_stat *get_line(struct analysis *a, struct hub_func *f, const char *src, unsigned line)
{
	struct strbuf *k = &a->keybuf;
	void **slot;
	struct line_stat *l;
	int ret;

	strbuf__reset(k);
	if (strbuf__add(k, &f, sizeof(f)) || strbuf__add(k, &line, sizeof(line)) ||
	    strbuf__addstr(k, src ? src : ""))
		return NULL;
	ret = hashmap__insert(&a->lstats, k->buf, k->len, &slot);
	if (ret < 0)
		return NULL;
	if (ret == 0)
		return *slot;
	l = pool__alloc(&a->pool, sizeof(*l));
	if (!l) {
		*slot = NULL;
		return NULL;
	}
	l->f = &f->pub;
	l->src_file = src ? intern(a, src) : NULL;
	l->line = line;
	*slot = l;
	if ((src && !l->src_file) || ptrs_push(&a->lstat_list, l))
		return NULL;
	return l;
}



/* where the function is defined: the path as the debug info names it, else the base name */
static const char *def_path(const struct sym_result *r)
{
	return r->def_path ? r->def_path : r->def_file;
}

/* the entry of addresses in no map of one event */
static struct ipent *unknown_entry(struct analysis *a, uint32_t event, int need_line)
{
	struct evstat *es = &a->events[event];

	if (!es->unknown) {
		es->unknown = pool__alloc(&a->pool, sizeof(*es->unknown));
		if (!es->unknown)
			return NULL;
		es->unknown->f = get_func(a, event, UNKNOWN, UNKNOWN, NULL, 0);
		if (!es->unknown->f)
			return NULL;
	}
	if (need_line && !es->unknown->l) {
		es->unknown->l = get_line(a, es->unknown->f, NULL, 0);
		if (!es->unknown->l)
			return NULL;
	}
	return es->unknown;
}

/*
 * The function name of an address the symbols did not find: "[unknown]",
 * or with --unknown-addresses "[unknown] 0x1204": the address as perf report
 * prints it, the offset in the file (map__map_ip), which is not the ELF
 * address in a non-PIE executable (0x400000 apart); in no map (or the
 * kernel's without its MMAP) the address itself.
 * NULL on ENOMEM.
 */
static const char *unknown_name(struct analysis *a, const struct target *t, uint64_t ip,
				const struct sym_result *res)
{
	if (!a->opts.unknown_addresses)
		return UNKNOWN;
	strbuf__reset(&a->keybuf);
	if (strbuf__addf(&a->keybuf, UNKNOWN " 0x%" PRIx64, !t->dso || t->fallback ? ip : res->map_addr))
		return NULL;
	return intern(a, a->keybuf.buf);
}

/*
 * Look (t, ip) up in the symbols and fill e (a new entry when e is NULL,
 * put in the cache at key and fast).  NULL on error (kept in a->err).
 */
static struct ipent *resolve_new(struct analysis *a, uint32_t event, const struct target *t, uint64_t ip,
				 int need_line, struct ipent *e, const struct ip_key *key, struct ipfast *fast)
{
	struct sym_result res;
	const char *dso_name, *fn;
	void **slot;
	int ret, found;

	memset(&res, 0, sizeof(res));
	if (!t->dso)
		ret = -ENOENT;	/* in no map (--unknown-addresses: a row per address) */
	else if (need_line)
		ret = symbols__resolve(a->syms, t->dso, t->start, t->pgoff, ip, &res);
	else
		ret = symbols__resolve_sym(a->syms, t->dso, t->start, t->pgoff, ip, &res);
	if (ret && ret != -ENOENT) {
		/* out of memory or an I/O error in the symbols: not an [unknown] */
		analysis_fail(a, ret);
		return NULL;
	}
	found = ret == 0 && res.function;
	dso_name = t->dso ? dso__name(t->dso) : NULL;
	/*
	 * without a kernel MMAP perf maps only the running kernel's text: an
	 * address our kernel symbols do not know is in no map for perf too
	 */
	if (!dso_name || (!found && t->fallback))
		dso_name = UNKNOWN;
	fn = found ? res.function : unknown_name(a, t, ip, &res);
	if (!fn)
		return NULL;
	if (!e) {
		e = pool__alloc(&a->pool, sizeof(*e));
		if (!e)
			return NULL;
		e->f = get_func(a, event, dso_name, fn, found ? def_path(&res) : NULL, found ? res.def_line : 0);
		if (!e->f)
			return NULL;
		e->unresolved = !found;
		ret = hashmap__insert(&a->ipcache, key, sizeof(*key), &slot);
		if (ret < 0)
			return NULL;
		*slot = e;
		fast->key = *key;
		fast->e = e;
	}
	if (need_line) {
		if (!e->f->pub.def_file && found && def_path(&res)) {
			e->f->pub.def_file = intern(a, def_path(&res));
			e->f->pub.def_line = res.def_line;
		}
		e->l = get_line(a, e->f, found ? (res.src_path ? res.src_path : res.src_file) : NULL,
				found ? res.src_line : 0);
		if (!e->l)
			return NULL;
	}
	return e;
}

/*
 * The cache entry of (event, map, ip).  need_line: the source line too
 * (self addresses); callchain addresses take the fast path.
 */
/* resolve() past its direct-mapped cache.  Out of line, so that a hit saves no registers */
static struct ipent *__attribute__((noinline)) resolve_miss(struct analysis *a, uint32_t event,
							    const struct target *t, uint64_t ip, int need_line,
							    const struct ip_key *key, struct ipfast *fast)
{
	void **slot = hashmap__find(&a->ipcache, key, sizeof(*key));
	struct ipent *e = slot ? *slot : NULL;

	if (e) {
		fast->key = *key;
		fast->e = e;
		if (!need_line || e->l)
			return e;
	}
	return resolve_new(a, event, t, ip, need_line, e, key, fast);
}

static struct ipent *resolve(struct analysis *a, uint32_t event, const struct target *t,
			     uint64_t ip, int need_line)
{
	struct ip_key key;
	struct ipfast *fast;
	uint64_t h;

	if (!t->dso && !a->opts.unknown_addresses)
		return unknown_entry(a, event, need_line);
	memset(&key, 0, sizeof(key));
	key.dso = (uint64_t)(uintptr_t)t->dso;
	key.start = t->start;
	key.pgoff = t->pgoff;
	key.ip = ip;
	key.event = event;
	/* a direct-mapped cache in front of the hash map: most lookups end here */
	h = (ip ^ key.dso ^ (t->start >> 12) ^ ((uint64_t)event << 40)) * 0x9e3779b97f4a7c15ULL;
	fast = &a->ipfast[h >> (64 - IPFAST_BITS)];
	/* a hit without the line asked for finds the same entry in the map (every fast one is there) */
	if (fast->e && !memcmp(&fast->key, &key, sizeof(key)) && (!need_line || fast->e->l))
		return fast->e;
	return resolve_miss(a, event, t, ip, need_line, &key, fast);
}

/* the map of ip for a cpumode; t->dso NULL when none */
static void find_target(struct analysis *a, const struct mthread *th, unsigned cpumode,
			uint64_t ip, struct target *t)
{
	const struct map_entry *m = NULL;

	t->dso = NULL;
	t->start = 0;
	t->pgoff = 0;
	t->fallback = 0;
	if (cpumode == PERF_RECORD_MISC_KERNEL) {
		m = machine__find_kernel_map(a->m, ip);
		if (!m && !machine__nr_kernel_maps(a->m)) {
			/* no kernel MMAP in the file: the whole space is the kernel's */
			t->dso = a->kernel_dso;
			t->fallback = 1;
			return;
		}
	} else if (cpumode == PERF_RECORD_MISC_USER && th) {
		m = machine__find_map(th, ip);
	}
	if (m) {
		t->dso = m->dso;
		t->start = m->start;
		t->pgoff = m->pgoff;
	}
}

/* ---------------------------------------------------------------- filters */

static int pass_pid_lists(const struct analysis *a, uint32_t pid, uint32_t tid,
			  const struct mthread *th)
{
	const struct analysis_opts *o = &a->opts;
	size_t i;

	if (o->nr_pids) {
		for (i = 0; i < o->nr_pids; i++)
			if (o->pids[i] == pid)
				break;
		if (i == o->nr_pids)
			return 0;
	}
	if (o->nr_tids) {
		for (i = 0; i < o->nr_tids; i++)
			if (o->tids[i] == tid)
				break;
		if (i == o->nr_tids)
			return 0;
	}
	if (o->nr_comms) {
		const char *comm = th ? th->comm : NULL;

		if (!comm)
			return 0;
		for (i = 0; i < o->nr_comms; i++)
			if (!strcmp(o->comms[i], comm))
				break;
		if (i == o->nr_comms)
			return 0;
	}
	return 1;
}

/* inline: without --pid, --tid and --comm (most runs) a sample passes without a call */
static inline int pass_pid_filters(const struct analysis *a, uint32_t pid, uint32_t tid,
				   const struct mthread *th)
{
	const struct analysis_opts *o = &a->opts;

	return (!o->nr_pids && !o->nr_tids && !o->nr_comms) || pass_pid_lists(a, pid, tid, th);
}

static int in_list(const char *const *list, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(list[i], s))
			return 1;
	return 0;
}

/* --dsos, --symbols: on the sample's own (dso, function), as perf report filters its entries */
static int pass_sym_filters(const struct analysis *a, const struct func_stat *f)
{
	const struct analysis_opts *o = &a->opts;

	return (!o->nr_dsos || in_list(o->dsos, o->nr_dsos, f->dso)) &&
	       (!o->nr_syms || in_list(o->syms, o->nr_syms, f->function));
}

static int pass_time(const struct analysis *a, uint64_t time)
{
	const struct analysis_opts *o = &a->opts;

	if (!o->has_time)
		return 1;
	if (o->time_start && time < o->time_start)
		return 0;
	if (o->time_end && time > o->time_end)
		return 0;
	return 1;
}

/* ---------------------------------------------------------------- samples */

/* one frame of the current sample's stack (innermost first), at address ip */
/* push_frame's rare part: the address too (--pprof), or a frames array to grow */
static int push_frame_slow(struct analysis *a, uintptr_t frame, uint64_t ip)
{
	uintptr_t *slot;

	if (a->want_addrs) {
		uint64_t *at = array__push(&a->addrs);

		if (!at)
			return -ENOMEM;
		*at = ip;
	}
	slot = array__push(&a->frames);
	if (!slot)
		return -ENOMEM;
	*slot = frame;
	return 0;
}

static inline int push_frame(struct analysis *a, const struct hub_func *f, unsigned cpumode, uint64_t ip)
{
	uintptr_t frame = (uintptr_t)&f->pub | (cpumode == PERF_RECORD_MISC_KERNEL ? FRAME_KERNEL : 0);

	if (!a->want_frames)
		return 0;
	if (!a->want_addrs && a->frames.len < a->frames.cap) {	/* the common case, without a call */
		((uintptr_t *)a->frames.data)[a->frames.len++] = frame;
		return 0;
	}
	return push_frame_slow(a, frame, ip);
}

/*
 * --inline: the functions inlined at ip (e's address), innermost first, as
 * functions named "NAME (inlined)" as perf marks them, once per address.
 * A caller's ip is a return address, the instruction after its call: its
 * inlined functions are those of the call, at ip - 1 (pprof's and gdb's
 * rule), unless ip - 1 is in another function (a call that ends a
 * function, to a function that does not return).  They get no samples or
 * children of their own, so results.csv is unchanged.
 */
static int lookup_inlines(struct analysis *a, uint32_t event, const struct target *t,
			  uint64_t ip, struct ipent *e, int caller)
{
	struct inl_list *l = &e->inl[caller];
	const char *names[MAX_INLINE];
	struct sym_result res;
	struct strbuf name;
	size_t n, i;
	int err = 0, ret;

	if (l->done)
		return 0;
	l->done = 1;
	if (e->unresolved || !t->dso)
		return 0;
	if (caller && ip) {
		memset(&res, 0, sizeof(res));
		ret = symbols__resolve_sym(a->syms, t->dso, t->start, t->pgoff, ip - 1, &res);
		if (ret && ret != -ENOENT)
			return analysis_fail(a, ret);
		if (!ret && res.function && !strcmp(res.function, e->f->pub.function))
			ip--;
	}
	ret = symbols__inlines(a->syms, t->dso, t->start, t->pgoff, ip, names, MAX_INLINE);
	if (ret <= 0)
		return analysis_fail(a, ret);
	n = (size_t)ret;
	l->f = pool__alloc(&a->pool, n * sizeof(*l->f));
	if (!l->f)
		return -ENOMEM;
	strbuf__init(&name);
	for (i = 0; i < n && !err; i++) {
		strbuf__reset(&name);
		if (strbuf__addstr(&name, names[i]) || strbuf__addstr(&name, INLINED_SUFFIX)) {
			err = -ENOMEM;
			break;
		}
		l->f[i] = get_func(a, event, e->f->pub.dso, name.buf, NULL, 0);
		if (!l->f[i])
			err = -ENOMEM;
	}
	strbuf__release(&name);
	if (!err)
		l->n = (uint32_t)n;
	return err;
}

/*
 * the frames of one address (caller: a return address in a callchain): with
 * --inline its inlined functions (innermost first) before its own
 */
/* push_frames() with --inline: the inlined functions first.  Out of line, so that the other saves no registers */
static int __attribute__((noinline)) push_inlined(struct analysis *a, uint32_t event, const struct target *t,
						  uint64_t ip, struct ipent *e, unsigned cpumode, int caller)
{
	const struct inl_list *l = &e->inl[caller];
	uint32_t i;
	int err = lookup_inlines(a, event, t, ip, e, caller);

	if (err)
		return err;
	for (i = 0; i < l->n; i++)
		if (push_frame(a, l->f[i], cpumode, ip))
			return -ENOMEM;
	return push_frame(a, e->f, cpumode, ip);
}

static int push_frames(struct analysis *a, uint32_t event, const struct target *t, uint64_t ip,
		       struct ipent *e, unsigned cpumode, int caller)
{
	if (a->opts.inline_frames && cpumode == PERF_RECORD_MISC_USER)
		return push_inlined(a, event, t, ip, e, cpumode, caller);
	return push_frame(a, e->f, cpumode, ip);
}

static void count_child(struct analysis *a, struct hub_func *f, uint64_t period)
{
	if (f->seen == a->seq)
		return;
	f->seen = a->seq;
	f->pub.ch_samples++;
	f->pub.ch_period += period;
}

/* a function on the stack: counted now, or with --focus/--ignore once the stack passed */
static int stack_child(struct analysis *a, struct hub_func *f, uint64_t period)
{
	return a->stack_filter ? ptrs_push(&a->chain, f) : (count_child(a, f, period), 0);
}

#define BAD_CONTEXT UINT_MAX		/* context_cpumode: no PERF_CONTEXT_* value */

/* a PERF_CONTEXT_* entry: the cpumode of the addresses after it, BAD_CONTEXT for none of them */
static unsigned context_cpumode(uint64_t ip, unsigned cpumode)
{
	switch (ip) {
	case PERF_CONTEXT_HV:
		return PERF_RECORD_MISC_HYPERVISOR;
	case PERF_CONTEXT_KERNEL:
		return PERF_RECORD_MISC_KERNEL;
	case PERF_CONTEXT_USER:
		return PERF_RECORD_MISC_USER;
	case PERF_CONTEXT_GUEST_KERNEL:
		return PERF_RECORD_MISC_GUEST_KERNEL;
	case PERF_CONTEXT_GUEST_USER:
		return PERF_RECORD_MISC_GUEST_USER;
	case PERF_CONTEXT_GUEST:
		return cpumode;
	default:
		return BAD_CONTEXT;
	}
}

/*
 * An entry in PERF_CONTEXT_*'s range that is none of them (a frame-pointer
 * walk that read -1 off a user stack): the chain is corrupt and perf discards
 * all of it, the sample keeping its own frame (add_callchain_ip's "invalid
 * callchain context"); so does walk_chain
 */
static int chain_corrupt(const struct perf_sample *s)
{
	uint64_t i;

	for (i = 0; i < s->callchain_nr; i++)
		if (s->callchain[i] >= PERF_CONTEXT_MAX && context_cpumode(s->callchain[i], 0) == BAD_CONTEXT)
			return 1;
	return 0;
}

/*
 * What walk_chain does with each caller: 0 goes on, 1 stops the walk, < 0 is
 * an error; arg is the caller's
 */
typedef int (*chain_fn)(struct analysis *a, uint32_t event, const struct target *t, uint64_t ip,
			struct ipent *e, unsigned cpumode, void *arg);

/*
 * The callers of a sample, innermost first, each resolved: PERF_CONTEXT_*
 * entries set the cpumode of what follows, the first entry is skipped when it
 * is the sample's own ip (perf's callchains begin with it), at most MAX_CHAIN;
 * none of a corrupt chain
 */
static int walk_chain(struct analysis *a, uint32_t event, const struct mthread *th,
		      const struct perf_record *rec, chain_fn fn, void *arg)
{
	const struct perf_sample *s = &rec->sample;
	unsigned cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK, sample_mode = cpumode;
	int skipped_self = 0, entered = 0, unwound = s->callchain == a->uw_chain, err;
	uint64_t i, depth = 0;

	if (chain_corrupt(s))
		return 0;
	for (i = 0; i < s->callchain_nr && depth < MAX_CHAIN; i++) {
		uint64_t ip = s->callchain[i];
		struct target t;
		struct ipent *e;

		if (ip >= PERF_CONTEXT_MAX) {
			unsigned mode = context_cpumode(ip, cpumode);

			entered = mode == PERF_RECORD_MISC_USER && sample_mode != PERF_RECORD_MISC_USER;
			cpumode = mode;
			continue;
		}
		/*
		 * a return address, the instruction after a call, but for the
		 * user address where a kernel sample's kernel was entered (an
		 * interrupted or faulting instruction, as the sample's own ip) and
		 * the unwinder's, which are the calls' already (pc - 1)
		 */
		a->chain_ret = !entered && !unwound;
		entered = 0;
		if (!skipped_self) {
			skipped_self = 1;
			if (ip == s->ip)
				continue;
		}
		depth++;
		find_target(a, th, cpumode, ip, &t);
		e = resolve(a, event, &t, ip, 0);
		if (!e)
			return -ENOMEM;
		if ((err = fn(a, event, &t, ip, e, cpumode, arg)))
			return err < 0 ? err : 0;
	}
	return 0;
}

/* a caller of the sample: counted as a child, its frames pushed */
static int chain_frame(struct analysis *a, uint32_t event, const struct target *t, uint64_t ip,
		       struct ipent *e, unsigned cpumode, void *arg)
{
	int unknown = e->unresolved || !t->dso;

	a->cur_unknown |= unknown;
	if (a->memo_rec) {
		a->memo_unknown |= unknown;
		if (ptrs_push(&a->memo_funcs, e->f))
			return -ENOMEM;
	}
	if (stack_child(a, e->f, *(const uint64_t *)arg))
		return -ENOMEM;
	return push_frames(a, event, t, ip, e, cpumode, a->chain_ret);
}

/* the key of a sample's callchain in the memo: its hash, and whether its first address is the sample's */
static uint64_t memo_hash(const struct perf_sample *s, const void *proc, uint32_t event, unsigned cpumode,
			  int *skip_self)
{
	uint64_t h = ((uint64_t)event << 32 | cpumode) ^ (uint64_t)(uintptr_t)proc, h2 = 0, i;

	*skip_self = 0;
	for (i = 0; i < s->callchain_nr; i++)
		if (s->callchain[i] < PERF_CONTEXT_MAX) {
			*skip_self = s->callchain[i] == s->ip;
			break;
		}
	h ^= (uint64_t)*skip_self << 63;
	/* two lanes, so that each word waits for one multiply, not for all before it */
	for (i = 0; i + 1 < s->callchain_nr; i += 2) {
		h = (h ^ s->callchain[i]) * 0x9e3779b97f4a7c15ULL;
		h2 = (h2 ^ s->callchain[i + 1]) * 0xc2b2ae3d27d4eb4fULL;
	}
	if (i < s->callchain_nr)
		h = (h ^ s->callchain[i]) * 0x9e3779b97f4a7c15ULL;
	h ^= h2 + (h2 >> 31);
	return h ^ (h >> 29);
}

/* the memo's entry m holds this chain */
static int memo_hit(const struct cmemo *m, const struct perf_sample *s, uint64_t h, uint64_t gen,
		    const void *proc, uint32_t event, unsigned cpumode, int skip_self)
{
	return m->valid && m->hash == h && m->gen == gen && m->proc == proc && m->event == event &&
	       m->cpumode == cpumode && m->skip_self == skip_self && m->nr_words == s->callchain_nr &&
	       (!s->callchain_nr || !memcmp(m->data, s->callchain, s->callchain_nr * sizeof(uint64_t)));
}

/* what the walk did again: its callers counted, its frames pushed */
static int memo_replay(struct analysis *a, const struct cmemo *m, uint64_t period)
{
	const uintptr_t *frames;
	struct hub_func *const *funcs;
	uint32_t i;

	a->cur_unknown |= m->unknown;
	if (!m->data)
		return 0;	/* only empty walks were kept here (memo_store) */
	frames = (const uintptr_t *)(m->data + m->nr_words);
	funcs = (struct hub_func *const *)(frames + m->nr_frames);
	for (i = 0; i < m->nr_funcs; i++)
		if (stack_child(a, funcs[i], period))
			return -ENOMEM;
	if (a->frames.cap - a->frames.len < m->nr_frames)
		return array__append(&a->frames, frames, m->nr_frames);
	/* the common case, a few frames where there is room: no call */
	for (i = 0; i < m->nr_frames; i++)
		((uintptr_t *)a->frames.data)[a->frames.len++] = frames[i];
	return 0;
}

/*
 * The walk just made into m: the words, the frames from a->frames[first],
 * the callers noted.  0, 1 when they take more than CMEMO_ENTRY_MAX (not
 * kept), or -ENOMEM.
 */
static int memo_store(struct analysis *a, struct cmemo *m, const struct perf_sample *s, size_t first)
{
	size_t nf = a->frames.len - first, nc = a->memo_funcs.len;
	size_t need = (s->callchain_nr + nf + nc) * sizeof(uint64_t);
	unsigned char *p;

	_Static_assert(sizeof(uintptr_t) <= sizeof(uint64_t) && sizeof(void *) <= sizeof(uint64_t),
		       "frames and callers fit the words' slots");
	if (s->callchain_nr > CMEMO_ENTRY_MAX || need > CMEMO_ENTRY_MAX)
		return 1;
	m->nr_words = (uint32_t)s->callchain_nr;
	m->nr_frames = (uint32_t)nf;
	m->nr_funcs = (uint32_t)nc;
	m->unknown = a->memo_unknown;
	if (!need)
		return 0;	/* nothing to copy (m->data may be NULL) */
	if (need > m->cap) {
		/* room for a chain of 16 frames at first: few reallocs, each a turn at malloc's one lock */
		size_t cap = need > 256 ? need : 256;
		void *d = realloc(m->data, cap);

		if (!d)
			return -ENOMEM;
		m->data = d;
		m->cap = cap;
	}
	p = (unsigned char *)m->data;
	/* (an empty chain, frames or callers may be a NULL pointer: no memcpy of those) */
	if (s->callchain_nr)
		memcpy(p, s->callchain, s->callchain_nr * sizeof(uint64_t));
	p += s->callchain_nr * sizeof(uint64_t);
	if (nf)
		memcpy(p, (const uintptr_t *)a->frames.data + first, nf * sizeof(uintptr_t));
	p += nf * sizeof(uintptr_t);
	if (nc)
		memcpy(p, a->memo_funcs.data, nc * sizeof(void *));
	return 0;
}

/*
 * The callers of a sample through the memo: most samples of a profile
 * repeat a few stacks, and a stack seen before needs no map lookup or
 * address resolution per frame (big.data: 418k of 436k samples found
 * here; the analysis thread's instructions 874M -> 748M, callgrind).  The
 * same frames and counts as walk_chain.
 */
static int memo_chain(struct analysis *a, uint32_t event, const struct mthread *th,
		      const struct perf_record *rec, uint64_t period)
{
	const struct perf_sample *s = &rec->sample;
	unsigned cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	uint64_t gen = machine__maps_gen(a->m), h;
	size_t first = a->frames.len;
	struct cmemo *m;
	int skip_self, err;

	if (!a->memo && !(a->memo = calloc(CMEMO_SIZE, sizeof(*a->memo))))
		return -ENOMEM;
	h = memo_hash(s, th->proc, event, cpumode, &skip_self);
	m = &a->memo[h >> (64 - CMEMO_BITS)];
	if (memo_hit(m, s, h, gen, th->proc, event, cpumode, skip_self))
		return memo_replay(a, m, period);
	a->memo_funcs.len = 0;
	a->memo_unknown = 0;
	a->memo_rec = 1;
	err = walk_chain(a, event, th, rec, chain_frame, &period);
	a->memo_rec = 0;
	if (err)
		return err;
	m->valid = 0;
	if ((err = memo_store(a, m, s, first)))
		return err < 0 ? err : 0;	/* 1: too long to keep */
	m->valid = 1;
	m->hash = h;
	m->gen = gen;
	m->proc = th->proc;
	m->event = event;
	m->cpumode = cpumode;
	m->skip_self = skip_self;
	return 0;
}

static int do_callchain(struct analysis *a, uint32_t event, const struct mthread *th,
			const struct perf_record *rec, struct hub_func *self, uint64_t period)
{
	if (stack_child(a, self, period))
		return -ENOMEM;
	/* --pprof's addresses of the frames are not memoised: the walk */
	if (a->want_addrs)
		return walk_chain(a, event, th, rec, chain_frame, &period);
	return memo_chain(a, event, th, rec, period);
}

static uint64_t sample_period(const struct perf_record *rec)
{
	if (rec->sample.sample_type & PERF_SAMPLE_PERIOD)
		return rec->sample.period;
	return rec->evattr->attr.sample_period;
}

/* a sample in a dso that had no symbol for it, for analysis__warn_unresolved */
static int count_unresolved(struct analysis *a, const struct dso *d)
{
	void **slot;

	if (hashmap__insert(&a->unres_dsos, &d, sizeof(d), &slot) < 0)
		return -ENOMEM;
	*slot = (void *)((uintptr_t)*slot + 1);
	return 0;
}

static int cmp_dso_path(const void *pa, const void *pb)
{
	return strcmp(dso__path(*(const struct dso *const *)pa), dso__path(*(const struct dso *const *)pb));
}

int analysis__warn_unresolved(const struct analysis *a)
{
	const struct dso **v = calloc(a->unres_dsos.len + 1, sizeof(*v));
	struct hashmap_entry *he;
	size_t it = 0, n = 0, i;

	if (!v)
		return -ENOMEM;
	while ((he = hashmap__next(&a->unres_dsos, &it)))
		v[n++] = *(const struct dso **)he->key;
	qsort(v, n, sizeof(*v), cmp_dso_path);
	for (i = 0; i < n; i++) {
		uint64_t cnt = (uint64_t)(uintptr_t)*hashmap__find(&a->unres_dsos, &v[i], sizeof(v[i]));
		char wanted[2 * 64 + 1];
		const char *tried;

		if (symbols__dso_has_symbols(a->syms, v[i], &tried, wanted, sizeof(wanted)))
			continue;
		log_msg(a->log, LOG_WARN, "%s: no symbols (looked for %s%s%s%s): %" PRIu64 " samples (%.2f%%) are "
			"[unknown]; --unknown-addresses lists them by address", dso__name(v[i]),
			a->opts.symbols && a->opts.symbols->symfs ? a->opts.symbols->symfs : "", tried,
			wanted[0] ? " with build id " : "", wanted, cnt,
			a->nr_samples ? 100.0 * (double)cnt / (double)a->nr_samples : 0.0);
	}
	free(v);
	return 0;
}

/*
 * The unwinder, made at the first sample with user registers and a user
 * stack copy (--call-graph dwarf) in an x86_64 file (the only register map
 * known; a file that does not say is taken as one): in pipe mode the attrs
 * and the arch arrive as records, after the analysis began.  0 or -ENOMEM.
 */
static int need_unwinder(struct analysis *a, const struct perf_sample *s)
{
	const char *arch = a->f ? perf_file__features(a->f)->arch : NULL;

	if (a->unwinder || a->uw_off || (s->sample_type & (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER)) !=
	    (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER))
		return 0;
	if (arch && strcmp(arch, "x86_64")) {
		a->uw_off = 1;
		return 0;
	}
	if (!a->uw_chain) {
		a->uw_chain = calloc(MAX_CHAIN + 2, sizeof(*a->uw_chain));
		if (!a->uw_chain)
			return -ENOMEM;
	}
	return unwinder__new(&a->unwinder, a->syms);
}

/*
 * --call-graph dwarf: the sample's kernel chain, then the user frames the
 * unwinder finds in its registers and stack copy, into *out (a copy of rec
 * whose callchain is a->uw_chain).  1 when *out is to be used, 0 when rec's
 * own chain is all there is, -ENOMEM.
 */
static int unwind_user(struct analysis *a, const struct mthread *th, const struct perf_record *rec,
		       struct perf_record *out)
{
	const struct perf_sample *s = &rec->sample;
	uint64_t i, n = 0;
	int got = need_unwinder(a, s);

	if (got < 0)
		return got;
	if (!a->unwinder || !(s->sample_type & PERF_SAMPLE_STACK_USER))
		return 0;
	for (i = 0; i < s->callchain_nr && n < MAX_CHAIN; i++) {
		if (s->callchain[i] == PERF_CONTEXT_USER)
			break;		/* a user part recorded too: the unwinder's replaces it */
		a->uw_chain[n++] = s->callchain[i];
	}
	a->uw_chain[n++] = PERF_CONTEXT_USER;
	got = unwinder__unwind(a->unwinder, th, s, a->uw_chain + n, MAX_CHAIN + 1 - n);
	if (got <= 0)
		return got;
	*out = *rec;
	out->sample.callchain = a->uw_chain;
	out->sample.callchain_nr = n + (uint64_t)got;
	return 1;
}

/*
 * The sample's thread and event when it passes -e, --time, --pid, --tid and
 * --comm: 1, 0 when filtered, -ENOMEM.  Every sample's time counts for
 * analysis__describe.
 */
static int sample_passes(struct analysis *a, const struct perf_record *rec, struct mthread **th,
			 struct evstat **es)
{
	const struct perf_sample *s = &rec->sample;
	uint32_t pid = UINT32_MAX, tid = UINT32_MAX;
	uint64_t time = (s->sample_type & PERF_SAMPLE_TIME) ? s->time : 0;

	if (s->sample_type & PERF_SAMPLE_TIME) {
		int err = machine__advance(a->m, time);	/* the JIT code loaded by now */

		if (err)
			return err;
		if (!a->time_min || time < a->time_min)
			a->time_min = time;
		if (time > a->time_max)
			a->time_max = time;
	}
	if (!pass_time(a, time) || !rec->evattr)
		return 0;
	if (a->opts.event && strcmp(a->opts.event, rec->evattr->name ? rec->evattr->name : ""))
		return 0;
	if (s->sample_type & PERF_SAMPLE_TID) {
		pid = s->pid;
		tid = s->tid;
	}
	*th = machine__findnew_thread(a->m, pid, tid);
	if (!*th)
		return -ENOMEM;
	/* perf filters on the thread's pid/tid (thread__is_filtered) */
	if (!pass_pid_filters(a, (*th)->proc->pid, (*th)->tid, *th) || rec->evattr->idx < 0)
		return 0;
	*es = get_event(a, rec->evattr);
	return *es ? 1 : -ENOMEM;
}

/* the self counts of a sample that passed every filter (its a->seq stamped before its stack) */
static int count_self(struct analysis *a, struct evstat *es, struct ipent *e, const struct target *t,
		      struct mthread *th, uint64_t period)
{
	a->nr_samples++;
	if (e->unresolved || !t->dso) {
		a->cur_unknown = 1;	/* its callers were looked at before it */
		a->nr_unresolved++;
	}
	if (e->unresolved && t->dso && count_unresolved(a, t->dso))
		return -ENOMEM;
	es->samples++;
	es->period += period;
	e->f->pub.samples++;
	e->f->pub.period += period;
	e->l->samples++;
	e->l->period += period;
	th->proc->samples++;
	th->proc->period += period;
	return 0;
}

/* the outermost frame of the current stack that --focus names, or -1 */
static long outermost_focus(const struct analysis *a)
{
	const uintptr_t *fr = a->frames.data;
	size_t i = a->frames.len;

	while (i-- > 0)
		if (in_list(a->opts.focus, a->opts.nr_focus, frame__func(fr[i])->function))
			return (long)i;
	return -1;
}

/*
 * --focus, --ignore on the current stack (a->frames): 1 when the sample is
 * kept, its children counted then (a->chain), 0 when dropped
 */
static int pass_stack_filters(struct analysis *a, uint64_t period)
{
	const uintptr_t *fr = a->frames.data;
	struct hub_func **ch = a->chain.data;
	long root = -1;
	size_t i;

	for (i = 0; i < a->frames.len && a->opts.nr_ignore; i++)
		if (in_list(a->opts.ignore, a->opts.nr_ignore, frame__func(fr[i])->function))
			return 0;
	if (a->opts.nr_focus && (root = outermost_focus(a)) < 0)
		return 0;
	for (i = 0; i < a->chain.len; i++)
		count_child(a, ch[i], period);
	if (a->opts.focus_root && root >= 0)
		a->frames.len = (size_t)root + 1;
	return 1;
}

static int sym_listed(struct analysis *a, uint32_t event, const struct target *t, uint64_t ip,
		      struct ipent *e, unsigned cpumode, void *arg)
{
	(void)event, (void)t, (void)ip, (void)cpumode, (void)arg;
	if (!in_list(a->opts.syms, a->opts.nr_syms, e->f->pub.function))
		return 0;
	a->syms_on_stack = 1;
	return 1;
}

/*
 * --symbols dropped this sample: is one of its names a caller on the stack
 * (the message for a filter that leaves nothing then names --focus)?  Looked
 * for until found once; 0 or -ENOMEM.
 */
static int syms_on_stack(struct analysis *a, uint32_t event, const struct mthread *th,
			 const struct perf_record *rec)
{
	if (a->syms_on_stack || !a->opts.nr_syms || !(rec->sample.sample_type & PERF_SAMPLE_CALLCHAIN))
		return 0;
	return walk_chain(a, event, th, rec, sym_listed, NULL);
}

/* the resolved sample to every report that takes samples */
static int to_reports(struct analysis *a, struct rsample *rs)
{
	const struct report_inst *r = a->on_sample, *end = r + a->nr_on_sample;
	int err;

	rs->frames = a->frames.data;
	rs->nr_frames = a->frames.len;
	rs->addrs = a->want_addrs ? a->addrs.data : NULL;
	rs->seq = a->seq;
	for (; r < end; r++)
		if ((err = r->ops->sample(r->state, a, rs)))
			return err;
	return 0;
}

/* a sample's stack begins: its stamp, no frame, no child, nothing unknown yet */
static void new_stack(struct analysis *a)
{
	a->seq++;
	a->frames.len = 0;
	a->chain.len = 0;
	a->addrs.len = 0;
	a->cur_unknown = 0;
}

/*
 * jitdump timestamps are CLOCK_MONOTONIC: they order with the samples when
 * every event has that clock (perf record -k 1), what perf inject requires
 */
static void set_jit_clock(struct analysis *a)
{
	const struct perf_evlist *el = a->f ? perf_file__evlist(a->f) : NULL;
	struct machine_jit j = { .monotonic = el && el->nr, .times = el && el->nr, .log = a->log };
	size_t i;

	for (i = 0; el && i < el->nr; i++) {
		const struct perf_event_attr *at = &el->attrs[i].attr;

		if (!at->use_clockid || at->clockid != CLOCK_MONOTONIC)
			j.monotonic = 0;
		if (!(at->sample_type & PERF_SAMPLE_TIME))
			j.times = 0;
	}
	machine__set_jit(a->m, &j);
}

static int process_sample(struct analysis *a, struct perf_record *rec)
{
	const struct perf_sample *s = &rec->sample;
	unsigned cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct mthread *th = NULL;
	struct evstat *es = NULL;
	struct rsample rs;
	struct target t;
	struct ipent *e;
	int err = sample_passes(a, rec, &th, &es);

	if (err <= 0)
		goto filtered;
	rs.period = sample_period(rec);
	find_target(a, th, cpumode, s->ip, &t);
	e = resolve(a, es->idx, &t, s->ip, 1);
	if (!e)
		return -ENOMEM;
	if (!pass_sym_filters(a, &e->f->pub)) {
		err = syms_on_stack(a, es->idx, th, rec);
		goto filtered;
	}
	new_stack(a);
	err = push_frames(a, es->idx, &t, s->ip, e, cpumode, 0);
	if (!err && (s->sample_type & PERF_SAMPLE_CALLCHAIN)) {
		struct perf_record unwound;

		err = unwind_user(a, th, rec, &unwound);
		if (err >= 0)
			err = do_callchain(a, es->idx, th, err ? &unwound : rec, e->f, rs.period);
	}
	if (err)
		return err;
	es->unstacked_period += rs.period;
	if (a->stack_filter && (err = pass_stack_filters(a, rs.period)) <= 0)
		goto filtered;
	if (count_self(a, es, e, &t, th, rs.period))
		return -ENOMEM;
	a->cur = t;
	a->nr_unknown_frames += (uint64_t)a->cur_unknown;
	rs.rec = rec;
	rs.th = th;
	rs.event = es->idx;
	rs.event_name = es->name;
	rs.has_time = !!(s->sample_type & PERF_SAMPLE_TIME);
	rs.time = rs.has_time ? s->time : 0;
	rs.func = &e->f->pub;
	rs.line = e->l;
	rs.callchain = !!(s->sample_type & PERF_SAMPLE_CALLCHAIN);
	return to_reports(a, &rs);

filtered:
	if (err < 0)
		return err;
	a->nr_filtered++;
	return 0;
}

int analysis__sample_place(struct analysis *a, const struct rsample *rs, struct sample_place *out)
{
	struct sym_result res;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!a->cur.dso)
		return -ENOENT;
	/* the hub resolved this address with its line just now: a cache hit (resolve_sym would look the definition up) */
	ret = symbols__resolve(a->syms, a->cur.dso, a->cur.start, a->cur.pgoff, rs->rec->sample.ip, &res);
	if (!ret)
		ret = symbols__func_bounds(a->syms, a->cur.dso, res.addr, &out->start, &out->end);
	if (ret)
		return ret == -ENOENT ? ret : analysis_fail(a, ret);
	out->dso = a->cur.dso;
	out->addr = res.addr;
	return 0;
}

int analysis__at_entry(struct analysis *a, const struct mthread *th, uint64_t addr)
{
	const struct map_entry *m = th ? machine__find_map(th, addr) : NULL;

	return m && m->dso && symbols__at_entry(a->syms, m->dso, m->start, m->pgoff, addr);
}

int analysis__disassemble(struct analysis *a, struct dso *d, uint64_t start, uint64_t end,
			  symbols_insn_fn cb, void *ctx)
{
	return symbols__disassemble(a->syms, d, start, end, cb, ctx);
}

/* pid/tid of a non-sample record: from its body, else from its sample_id_all trailer */
int analysis__record_pid_tid(const struct perf_record *rec, uint32_t *pid, uint32_t *tid)
{
	switch (rec->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		*pid = rec->u.mmap.pid;
		*tid = rec->u.mmap.tid;
		return 1;
	case PERF_RECORD_COMM:
		*pid = rec->u.comm.pid;
		*tid = rec->u.comm.tid;
		return 1;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		*pid = rec->u.fork.pid;
		*tid = rec->u.fork.tid;
		return 1;
	default:
		break;
	}
	if (rec->type < PERF_RECORD_USER_TYPE_START && (rec->sample.sample_type & PERF_SAMPLE_TID)) {
		*pid = rec->sample.pid;
		*tid = rec->sample.tid;
		return 1;
	}
	return 0;
}

static int process_sample_cb(void *ctx, struct perf_record *rec)
{
	return process_sample(ctx, rec);
}

/* is a record outside --time, --pid, --tid or --comm? (what overview.csv leaves out) */
static int record_filtered(struct analysis *a, const struct perf_record *rec, uint64_t time, int has_time)
{
	const struct analysis_opts *o = &a->opts;
	uint32_t pid, tid;

	if (o->has_time && has_time && !pass_time(a, time))
		return 1;
	if (!o->nr_pids && !o->nr_tids && !o->nr_comms)
		return 0;
	if (!analysis__record_pid_tid(rec, &pid, &tid))
		return 1;
	return !pass_pid_filters(a, pid, tid, o->nr_comms ? machine__findnew_thread(a->m, pid, tid) : NULL);
}

/* a record other than a sample.  Out of line, so that process_record() saves no registers for it */
static int __attribute__((noinline)) process_other(struct analysis *a, struct perf_record *rec)
{
	struct rrecord rr;
	size_t i;
	int err;

	memset(&rr, 0, sizeof(rr));
	rr.rec = rec;
	if (rec->type < PERF_RECORD_USER_TYPE_START && (rec->sample.sample_type & PERF_SAMPLE_TIME)) {
		rr.time = rec->sample.time;
		rr.has_time = 1;
		err = machine__advance(a->m, rr.time);
		if (err)
			return err;
	}
	err = machine__process(a->m, rec, rr.time);
	if (err)
		return err;
	/* a pipe's features come as records: the release the running kernel is compared with ([vdso]) */
	if (rec->type == PERF_RECORD_HEADER_FEATURE && symbols__set_osrelease(a->syms,
	    perf_file__features(analysis__file(a))->osrelease))
		return -ENOMEM;
	if (rec->type == PERF_RECORD_HEADER_BUILD_ID && rec->u.build_id.build_id &&
	    rec->u.build_id.filename && rec->u.build_id.size)
		symbols__set_build_id(a->syms, rec->u.build_id.filename, rec->u.build_id.build_id,
				      rec->u.build_id.size);
	if (a->record_filter)
		rr.filtered = record_filtered(a, rec, rr.time, rr.has_time);
	for (i = 0; i < a->nr_rep; i++) {
		const struct report_inst *r = &a->rep[i];

		if (r->ops->record && (err = r->ops->record(r->state, a, &rr)))
			return err;
	}
	return 0;
}

static int process_record(struct analysis *a, struct perf_record *rec)
{
	if (rec->type == PERF_RECORD_SAMPLE)
		return group__deliver(&a->group, a->f, rec, process_sample_cb, a);
	return process_other(a, rec);
}

/*
 * The first error stays: after it every record gets it back, so the caller
 * stops at once.  The symbols keep theirs (symbols__status) for calls whose
 * result does not say (a build id not stored, a dso file the unwinder did
 * not get): it is checked here, once per record.
 */
int analysis__process(struct analysis *a, struct perf_record *rec)
{
	int err;

	if (a->err)
		return a->err;
	err = process_record(a, rec);
	if (!err)
		err = symbols__status(a->syms);
	analysis_fail(a, err);
	return a->err;
}

int analysis__status(const struct analysis *a)
{
	return a ? a->err : 0;
}

int analysis__deliver(void *ctx, struct perf_record *rec)
{
	return analysis__process(ctx, rec);
}

/* ------------------------------------------------------------ lifecycle */

/* report ops with state as the next enabled report, begun */
static int enable_report(struct analysis *a, const struct report_ops *ops, void *state, int borrowed)
{
	struct report_inst *r = &a->rep[a->nr_rep++];

	r->ops = ops;
	r->state = state;
	r->borrowed = borrowed;
	if (ops->needs & REPORT_NEEDS_FRAMES)
		a->want_frames = 1;
	if (ops->needs & REPORT_NEEDS_ADDRS)
		a->want_frames = a->want_addrs = 1;
	if (ops->needs & REPORT_NEEDS_RECORD_FILTER)
		a->record_filter = 1;
	if (ops->sample)
		a->on_sample[a->nr_on_sample++] = *r;
	return ops->begin ? ops->begin(state, a) : 0;
}

/* which of the n reports of the registry are on: those with an output in opts->outputs and those they use; NULL on ENOMEM */
static unsigned char *report_enabled(const struct analysis_opts *opts, size_t n)
{
	unsigned char *on = calloc(n + 1, 1);
	const struct report_ops *const *u;
	const struct report_output *o;
	size_t id = 0, i, j;

	for (i = 0; on && i < n; i++)
		for (o = report_registry[i]->outputs; o->name; o++, id++)
			if (id < REPORT_MAX_OUTPUTS && (opts->outputs >> id & 1))
				on[i] = 1;
	for (i = 0; on && i < n; i++)
		for (u = report_registry[i]->uses; on[i] && u && *u; u++)
			for (j = 0; j < n; j++)
				if (report_registry[j] == *u)
					on[j] = 1;
	return on;
}

/* the enabled reports of the registry (decode/report.h), each with its state, begun; then opts.consumer */
static int begin_reports(struct analysis *a)
{
	size_t i, n = 0;
	int err;
	unsigned char *on;

	for (i = 0; report_registry[i]; i++)
		n++;
	a->rep = calloc(n + 1, sizeof(*a->rep));	/* and the consumer */
	a->on_sample = calloc(n + 1, sizeof(*a->on_sample));
	on = report_enabled(&a->opts, n);
	if (!a->rep || !a->on_sample || !on) {
		free(on);
		return -ENOMEM;
	}
	for (i = 0; report_registry[i]; i++) {
		const struct report_ops *ops = report_registry[i];
		void *state;

		if (!on[i] || ops->source != REPORT_FROM_ANALYSIS)
			continue;
		state = calloc(1, ops->state_size ? ops->state_size : 1);
		err = state ? enable_report(a, ops, state, 0) : -ENOMEM;
		if (err) {
			free(on);
			return err;
		}
	}
	free(on);
	return a->opts.consumer ? enable_report(a, a->opts.consumer, a->opts.consumer_state, 1) : 0;
}

/* does an event of f sample the kernel (its addresses, or its part of the stacks)? */
static int samples_kernel(const struct perf_file *f)
{
	const struct perf_evlist *el = f ? perf_file__evlist(f) : NULL;
	size_t i;

	for (i = 0; el && i < el->nr; i++)
		if (!el->attrs[i].attr.exclude_kernel)
			return 1;
	return 0;
}

int analysis__new(struct analysis **out, const struct perf_file *f, const struct analysis_opts *opts)
{
	struct analysis *a = calloc(1, sizeof(*a));
	struct symbols_opts so;
	const struct perf_features *ft;
	int err;

	*out = NULL;
	if (!a)
		return -ENOMEM;
	a->f = f;
	a->opts = *opts;
	a->log = opts->log;
	hashmap__init(&a->strings);
	hashmap__init(&a->unres_dsos);
	group__init(&a->group);
	hashmap__init(&a->fstats);
	hashmap__init(&a->lstats);
	hashmap__init(&a->ipcache);
	array__init(&a->frames, sizeof(uintptr_t));
	array__init(&a->memo_funcs, sizeof(void *));
	array__init(&a->chain, sizeof(void *));
	/* --focus and --ignore look at the whole stack before anything counts */
	a->stack_filter = opts->nr_focus || opts->nr_ignore;
	a->want_frames = a->stack_filter;
	array__init(&a->addrs, sizeof(uint64_t));
	array__init(&a->fstat_list, sizeof(void *));
	array__init(&a->lstat_list, sizeof(void *));
	strbuf__init(&a->keybuf);

	ft = f ? perf_file__features(f) : NULL;
	if (opts->symbols) {
		so = *opts->symbols;
	} else {
		memset(&so, 0, sizeof(so));
		so.log = opts->log;
		if (ft)
			so.recorded_osrelease = ft->osrelease;
	}
	err = symbols__new(&a->syms, &so);
	if (err)
		goto out_delete;
	a->kernel_dso = symbols__kernel_dso(a->syms);
	if (!a->kernel_dso) {
		err = -ENOMEM;
		goto out_delete;
	}
	if (ft) {
		size_t i;

		for (i = 0; i < ft->build_ids.len; i++) {
			const struct perf_build_id *b = &ARRAY_AT(&ft->build_ids, struct perf_build_id, i);

			if (b->filename && b->size)
				symbols__set_build_id(a->syms, b->filename, b->build_id, b->size);
		}
		/* a build id not stored for want of memory would pick another file */
		err = symbols__status(a->syms);
		if (err)
			goto out_delete;
	}
	if (opts->helper_threads && samples_kernel(f))
		symbols__read_kernel_ahead(a->syms);
	err = machine__new(&a->m, a->syms);
	if (!err) {
		set_jit_clock(a);
		err = begin_reports(a);
	}
	if (err)
		goto out_delete;
	*out = a;
	return 0;

out_delete:
	analysis__delete(a);
	return err;
}

void analysis__save_symbol_cache(struct analysis *a)
{
	symbols__save_cache(a->syms);
}

void analysis__delete(struct analysis *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < a->nr_rep; i++) {
		if (a->rep[i].borrowed)
			continue;
		if (a->rep[i].ops->release)
			a->rep[i].ops->release(a->rep[i].state);
		free(a->rep[i].state);
	}
	free(a->rep);
	free(a->on_sample);
	machine__delete(a->m);
	symbols__delete(a->syms);
	hashmap__release(&a->strings, NULL);
	hashmap__release(&a->unres_dsos, NULL);
	unwinder__delete(a->unwinder);
	free(a->uw_chain);
	group__release(&a->group);
	hashmap__release(&a->fstats, NULL);
	hashmap__release(&a->lstats, NULL);
	hashmap__release(&a->ipcache, NULL);
	for (i = 0; a->memo && i < CMEMO_SIZE; i++)
		free(a->memo[i].data);
	free(a->memo);
	array__release(&a->memo_funcs);
	array__release(&a->frames);
	array__release(&a->chain);
	array__release(&a->addrs);
	array__release(&a->fstat_list);
	array__release(&a->lstat_list);
	strbuf__release(&a->keybuf);
	free(a->events);
	pool__release(&a->pool);
	free(a);
}

/* ----------------------------------------------------------------- output */

/* the enabled outputs of the reports whose write_last is last; 0 or the first error */
static int write_reports(struct analysis *a, const char *dir, int last)
{
	size_t i, id;
	int err;

	for (i = 0; i < a->nr_rep; i++) {
		const struct report_ops *ops = a->rep[i].ops;
		const struct report_output *o;

		if (!ops->write_last != !last)
			continue;
		for (o = ops->outputs; o->name && !a->rep[i].borrowed; o++) {
			id = (size_t)report_outputs__find(o->name, o->is_path);
			if (o->is_path || !(a->opts.outputs >> id & 1))
				continue;
			err = o->write(a->rep[i].state, a, dir);
			if (err) {
				/* the first failure ends it: the reports are one transaction */
				log_msg(a->log, LOG_ERR, "%s/%s.csv: cannot write: %s",
					a->opts.report_dir ? a->opts.report_dir : dir, o->name, strerror(-err));
				return err;
			}
		}
	}
	return 0;
}

int analysis__write(struct analysis *a, const char *dir)
{
	int err;

	if (a->err)
		return a->err;
	/* the write_last reports after the others, written while their threads finish */
	err = write_reports(a, dir, 0);
	return err ? err : write_reports(a, dir, 1);
}

int analysis__write_output(struct analysis *a, size_t id, const char *path)
{
	const struct report_ops *owner;
	const struct report_output *o = report_outputs__get(id, &owner);
	size_t i;

	if (!o || !(a->opts.outputs >> id & 1))
		return -EINVAL;
	for (i = 0; i < a->nr_rep; i++)
		if (a->rep[i].ops == owner)
			return o->write(a->rep[i].state, a, path);
	return -EINVAL;
}

/* ------------------------------------------------------------- services */

void *analysis__report_state(const struct analysis *a, const struct report_ops *ops)
{
	size_t i;

	for (i = 0; i < a->nr_rep; i++)
		if (a->rep[i].ops == ops)
			return a->rep[i].state;
	return NULL;
}

const struct analysis_opts *analysis__opts(const struct analysis *a)
{
	return &a->opts;
}

const struct perf_file *analysis__file(const struct analysis *a)
{
	return a->f;
}

const struct log *analysis__log(const struct analysis *a)
{
	return a->log;
}

struct machine *analysis__machine(const struct analysis *a)
{
	return a->m;
}

const char *analysis__event_name(const struct analysis *a, uint32_t event)
{
	return event < a->nr_events && a->events[event].name ? a->events[event].name : UNKNOWN;
}

uint64_t analysis__event_period(const struct analysis *a, uint32_t event)
{
	return event < a->nr_events ? a->events[event].period : 0;
}

uint64_t analysis__event_unstacked_period(const struct analysis *a, uint32_t event)
{
	return event < a->nr_events ? a->events[event].unstacked_period : 0;
}

int analysis__have_callchains(const struct analysis *a)
{
	const struct perf_evlist *el = a->f ? perf_file__evlist(a->f) : NULL;
	size_t i;

	for (i = 0; el && i < el->nr; i++) {
		const struct perf_evattr *ev = &el->attrs[i];

		if (a->opts.event && (!ev->name || strcmp(a->opts.event, ev->name)))
			continue;
		if (ev->attr.sample_type & PERF_SAMPLE_CALLCHAIN)
			return 1;
	}
	return 0;
}

void analysis__want_frames(struct analysis *a)
{
	a->want_frames = 1;
}

int analysis__wants(const struct analysis *a, const char *name, int is_path)
{
	int id = report_outputs__find(name, is_path);

	return id >= 0 && (a->opts.outputs >> id & 1);
}

size_t analysis__nr_funcs(const struct analysis *a)
{
	return a->fstat_list.len;
}

const struct func_stat *analysis__func(const struct analysis *a, size_t i)
{
	return &ARRAY_AT(&a->fstat_list, struct hub_func *, i)->pub;
}

size_t analysis__nr_lines(const struct analysis *a)
{
	return a->lstat_list.len;
}

const struct line_stat *analysis__line(const struct analysis *a, size_t i)
{
	return ARRAY_AT(&a->lstat_list, struct line_stat *, i);
}

int analysis__below_limit(const struct analysis *a, uint64_t period, uint64_t total)
{
	uint64_t limit = a->opts.percent_limit;

	if (!limit)
		return 0;
	return !total || ((unsigned __int128)period * 2000000 + total) / ((unsigned __int128)total * 2) < limit;
}

void analysis__stats(const struct analysis *a, struct analysis_stats *st)
{
	st->samples = a->nr_samples;
	st->filtered = a->nr_filtered;
	st->unresolved = a->nr_unresolved;
	st->syms_on_stack = a->syms_on_stack;
	st->unknown_frames = a->nr_unknown_frames;
	st->nr_functions = a->fstat_list.len;
	st->nr_addresses = a->ipcache.len;
}

/* the order results.csv has when every function has 0 samples: event, dso, function */
static int func_name_cmp(const void *pa, const void *pb)
{
	const struct func_stat *a = *(const struct func_stat *const *)pa, *b = *(const struct func_stat *const *)pb;
	int r;

	if (a->event != b->event)
		return a->event < b->event ? -1 : 1;
	r = strcmp(a->dso, b->dso);
	return r ? r : strcmp(a->function, b->function);
}

/* up to 10 dsos of the functions met (results.csv's order) */
static int describe_dsos(const struct analysis *a, struct strbuf *sb)
{
	size_t n = a->fstat_list.len, i, j, shown = 0;
	const struct func_stat **v = calloc(n + 1, sizeof(*v));
	int err = 0;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		v[i] = analysis__func(a, i);
	qsort(v, n, sizeof(*v), func_name_cmp);
	for (i = 0; i < n && shown < 10 && !err; i++) {
		for (j = 0; j < i; j++)
			if (v[j]->dso == v[i]->dso)
				break;
		if (j == i)
			err = strbuf__addf(sb, "%s%s", shown++ ? ", " : "; dsos ", v[i]->dso);
	}
	free(v);
	return err;
}

int analysis__describe(const struct analysis *a, struct strbuf *sb)
{
	size_t i, n = machine__nr_processes(a->m), shown = 0;
	int err = 0;

	for (i = 0; i < n && shown < 10 && !err; i++) {
		const struct process *p = machine__process_at(a->m, i);

		if (p->retired)
			continue;
		err = strbuf__addf(sb, "%s%" PRIi32 " %s", shown++ ? ", " : "processes ", (int32_t)p->pid,
				   p->comm ? p->comm : "");
	}
	if (!err && n > shown)
		err = strbuf__addf(sb, " and %zu more", n - shown);
	if (!err && a->time_max)
		err = strbuf__addf(sb, "%ssamples from %" PRIu64 ".%09" PRIu64 " to %" PRIu64 ".%09" PRIu64 " s",
				   sb->len ? "; " : "", a->time_min / 1000000000, a->time_min % 1000000000,
				   a->time_max / 1000000000, a->time_max % 1000000000);
	return err ? err : describe_dsos(a, sb);
}

size_t analysis__nr_events(const struct analysis *a)
{
	return a->nr_events;
}

void analysis__event(const struct analysis *a, size_t i, struct analysis_event *out)
{
	const struct perf_evlist *el = a->f ? perf_file__evlist(a->f) : NULL;

	out->name = a->events[i].name;
	out->samples = a->events[i].samples;
	out->period = a->events[i].period;
	out->time_unit = a->events[i].time_unit;
	out->callchain = el && i < el->nr && (el->attrs[i].attr.sample_type & PERF_SAMPLE_CALLCHAIN);
}

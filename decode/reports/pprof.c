/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * --pprof FILE.pb.gz: the samples as a pprof profile (profile.proto of
 * google/pprof, beside this file, encoded by protobuf-c and gzipped by
 * zlib), what go tool pprof, Pyroscope, Parca and Grafana read.
 *
 * One pprof sample per distinct (labels, stack); two values per event with
 * samples, in attr order: "samples:EVENT" (count) and "EVENT" (the period,
 * in nanoseconds for cpu-clock and task-clock, else count).  Labels: pid,
 * tid, comm (":TID" without a COMM, as perf and --folded name it) and cpu
 * when the samples carry it.  A location is one address of one mapping
 * (the map the address is in when the sample was taken: start, limit, file
 * offset, the recorded name and build id); with --inline the functions
 * inlined there are its first Lines, innermost first, as pprof wants.  A
 * function is (dso, name) with the file and line where it is defined.
 * Lines: the source line of a sampled address (lines.csv), 0 for callers.
 *
 * Memory: per distinct address, function and (labels, stack), as the
 * analysis.  The file is written as a sequence of Profile messages (the
 * protobuf encoding of one Profile whose repeated fields are their
 * concatenation), one sample or table entry at a time, through deflate:
 * nothing is built whole.  Ids and the string table are numbered in replay
 * order, so the bytes are the same on every run.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "profile.pb-c.h"

#include "decode/reports/common.h"
#include "util/array.h"
#include "util/hashmap.h"
#include "util/pool.h"
#include "util/escape.h"
#include "util/strbuf.h"

struct pp_mapping {
	uint64_t start, end, pgoff;	/* the map as recorded: the key */
	const char *filename;		/* interned by the machine */
	uint64_t kernel;
	/*
	 * memory_limit: end, or past it when perf's rule puts an address
	 * there (the kernel map reaches to the next map: init text above _etext)
	 */
	uint64_t limit;
};

struct pp_func {
	const struct func_stat *f;	/* the first met: its name, dso; def_file looked up at the end */
	int inlined;			/* a --inline frame ("NAME (inlined)") */
};

struct pp_loc {
	uint64_t mapping, addr;		/* mapping id (0: none) */
	int64_t line;			/* source line of Lines[0] when sampled there, else 0 */
	uint32_t nr;			/* Lines */
	uint64_t funcs[];		/* function ids, innermost first */
};

/* the key of a sample: these, then the location ids */
struct pp_skey {
	uint32_t pid, tid, cpu, has_cpu;
	const char *comm;
	uint32_t nr, pad;
};

struct pp_sample {
	uint64_t *vals;			/* [2 * event]: samples, period */
	uint32_t nr_vals;
	struct pp_skey key;
	uint64_t locs[];
};

/*
 * A direct-mapped cache of locations in front of the hash maps: one address
 * of one process's maps (maps.gen: as they were; proc NULL for the kernel),
 * met with the same frames, is the same location.
 */
#define LOC_CACHE_BITS 14
struct loc_cache {
	uint64_t addr, gen, loc;
	const void *proc;
	uintptr_t first, last;		/* the frames of the location: the first and the last */
	uint32_t span;			/* how many */
};

struct pprof {
	struct loc_cache *cache;	/* 1 << LOC_CACHE_BITS */
	struct pool pool;
	struct hashmap maps, funcs, locs, samples, strings;
	struct array map_list, func_list, loc_list, sample_list;	/* pointers, creation order */
	struct array str_list;		/* const char *: the string table */
	struct strbuf key;
	struct array loc_ids;		/* uint64_t scratch: a sample's locations */
	uint64_t *ev_period;		/* [event]: attr.sample_period when fixed, else 0 */
	uint32_t nr_ev;
	int has_time;
	uint64_t t_min, t_max;
	uint64_t main_map;		/* at write: the mapping written first (id 1), 0 none */
};

static int pprof_begin(void *state, struct analysis *a)
{
	struct pprof *p = state;

	(void)a;
	p->cache = calloc((size_t)1 << LOC_CACHE_BITS, sizeof(*p->cache));
	if (!p->cache)
		return -ENOMEM;
	hashmap__init(&p->maps);
	hashmap__init(&p->funcs);
	hashmap__init(&p->locs);
	hashmap__init(&p->samples);
	hashmap__init(&p->strings);
	array__init(&p->map_list, sizeof(void *));
	array__init(&p->func_list, sizeof(void *));
	array__init(&p->loc_list, sizeof(void *));
	array__init(&p->sample_list, sizeof(void *));
	array__init(&p->str_list, sizeof(const char *));
	array__init(&p->loc_ids, sizeof(uint64_t));
	strbuf__init(&p->key);
	return 0;
}

static void pprof_release(void *state)
{
	struct pprof *p = state;

	hashmap__release(&p->maps, NULL);	/* values are ids or pool memory */
	hashmap__release(&p->funcs, NULL);
	hashmap__release(&p->locs, NULL);
	hashmap__release(&p->samples, NULL);
	hashmap__release(&p->strings, NULL);
	array__release(&p->map_list);
	array__release(&p->func_list);
	array__release(&p->loc_list);
	array__release(&p->sample_list);
	array__release(&p->str_list);
	array__release(&p->loc_ids);
	strbuf__release(&p->key);
	free(p->ev_period);
	free(p->cache);
	pool__release(&p->pool);
}

static int ptr_push(struct array *list, void *v)
{
	void **slot = array__push(list);

	if (!slot)
		return -ENOMEM;
	*slot = v;
	return 0;
}

/* the id (1, 2, ...) of key in map, a copy of v (size bytes) added to list when new; 0 on ENOMEM */
static uint64_t intern_id(struct pprof *p, struct hashmap *map, struct array *list, const void *key,
			  size_t keylen, const void *v, size_t size)
{
	void **slot, *copy;
	int ret = hashmap__insert(map, key, keylen, &slot);

	if (ret < 0)
		return 0;
	if (ret == 0)
		return (uint64_t)(uintptr_t)*slot;
	copy = pool__alloc(&p->pool, size);
	if (!copy || ptr_push(list, copy))
		return 0;
	memcpy(copy, v, size);
	*slot = (void *)(uintptr_t)list->len;
	return list->len;
}

static uint64_t mapping_id(struct pprof *p, struct analysis *a, const struct mthread *th, int kernel, uint64_t addr)
{
	const struct map_entry *m = kernel ? machine__find_kernel_map(analysis__machine(a), addr)
					   : machine__find_map(th, addr);
	struct pp_mapping pm, *at;
	uint64_t id;

	if (!m)
		return UINT64_MAX;	/* none: location mapping 0 */
	memset(&pm, 0, sizeof(pm));
	pm.start = m->start;
	pm.end = m->end;
	pm.pgoff = m->pgoff;
	pm.filename = m->filename;
	pm.kernel = (uint64_t)kernel;
	pm.limit = m->end;
	id = intern_id(p, &p->maps, &p->map_list, &pm, offsetof(struct pp_mapping, limit), &pm, sizeof(pm));
	if (id) {
		at = ((struct pp_mapping **)p->map_list.data)[id - 1];
		if (addr >= at->limit)
			at->limit = addr + 1;
	}
	return id;
}

static uint64_t func_id(struct pprof *p, const struct func_stat *f)
{
	const char *key[2] = { f->dso, f->function };	/* interned: one pointer per string */
	struct pp_func pf;
	size_t n = strlen(f->function), sl = strlen(INLINED_SUFFIX);

	pf.f = f;
	pf.inlined = n > sl && !memcmp(f->function + n - sl, INLINED_SUFFIX, sl);
	return intern_id(p, &p->funcs, &p->func_list, key, sizeof(key), &pf, sizeof(pf));
}

static int is_inlined(const struct pprof *p, uint64_t fid)
{
	return ((struct pp_func *const *)p->func_list.data)[fid - 1]->inlined;
}

/* the location of frames [i, j] (inlined ones, then their own) at addr; 0 on ENOMEM */
static uint64_t location_id(struct pprof *p, uint64_t mapping, uint64_t addr, const uint64_t *fids, uint32_t nr)
{
	struct strbuf *k = &p->key;
	struct pp_loc *l;
	void **slot;
	int ret;

	strbuf__reset(k);
	if (strbuf__add(k, &mapping, sizeof(mapping)) || strbuf__add(k, &addr, sizeof(addr)) ||
	    strbuf__add(k, fids, nr * sizeof(*fids)))
		return 0;
	ret = hashmap__insert(&p->locs, k->buf, k->len, &slot);
	if (ret < 0)
		return 0;
	if (ret == 0)
		return (uint64_t)(uintptr_t)*slot;
	l = pool__alloc(&p->pool, sizeof(*l) + nr * sizeof(*fids));
	if (!l || ptr_push(&p->loc_list, l))
		return 0;
	l->mapping = mapping;
	l->addr = addr;
	l->nr = nr;
	memcpy(l->funcs, fids, nr * sizeof(*fids));
	*slot = (void *)(uintptr_t)p->loc_list.len;
	return p->loc_list.len;
}

/* the location of the frames from i on (inlined ones, then their own): its id, *span frames; 0 on ENOMEM */
static uint64_t frame_location(struct pprof *p, struct analysis *a, const struct rsample *s, size_t i,
			       uint32_t *span)
{
	uint64_t fids[MAX_INLINE + 1], addr = s->addrs[i], map;
	int kernel = frame__is_kernel(s->frames[i]);
	uint32_t n = 0;

	for (;;) {
		fids[n] = func_id(p, frame__func(s->frames[i + n]));
		if (!fids[n])
			return 0;
		n++;
		if (!is_inlined(p, fids[n - 1]) || n > MAX_INLINE || i + n >= s->nr_frames ||
		    s->addrs[i + n] != addr)
			break;
	}
	*span = n;
	map = mapping_id(p, a, s->th, kernel, addr);
	if (!map)
		return 0;
	return location_id(p, map == UINT64_MAX ? 0 : map, addr, fids, n);
}

/* the sample's stack as location ids into p->loc_ids, leaf first */
static int stack_locations(struct pprof *p, struct analysis *a, const struct rsample *s)
{
	size_t i = 0;

	p->loc_ids.len = 0;
	while (i < s->nr_frames) {
		uint64_t addr = s->addrs[i], *slot;
		int kernel = frame__is_kernel(s->frames[i]);
		const void *proc = kernel ? NULL : s->th->proc;
		uint64_t gen = kernel ? 0 : process__maps_gen(s->th->proc);
		uint64_t h = (addr ^ (uint64_t)s->frames[i] * 0xff51afd7ed558ccdULL ^ (uint64_t)(uintptr_t)proc ^ gen) *
			     0x9e3779b97f4a7c15ULL;
		struct loc_cache *c = &p->cache[h >> (64 - LOC_CACHE_BITS)];

		if (!(c->loc && c->addr == addr && c->first == s->frames[i] && c->proc == proc && c->gen == gen &&
		      i + c->span <= s->nr_frames && s->frames[i + c->span - 1] == c->last)) {
			c->loc = frame_location(p, a, s, i, &c->span);
			if (!c->loc)
				return -ENOMEM;
			c->addr = addr;
			c->first = s->frames[i];
			c->last = s->frames[i + c->span - 1];
			c->proc = proc;
			c->gen = gen;
		}
		slot = array__push(&p->loc_ids);
		if (!slot)
			return -ENOMEM;
		*slot = c->loc;
		if (i == 0 && s->line)
			((struct pp_loc **)p->loc_list.data)[c->loc - 1]->line = s->line->line;
		i += c->span;
	}
	return 0;
}

/* room for event's values in sample e (a new pool block when it grows) */
static int sample_vals(struct pprof *p, struct pp_sample *e, uint32_t event, uint32_t nr_ev)
{
	uint64_t *v;

	if (event < e->nr_vals)
		return 0;
	if (nr_ev <= event)
		nr_ev = event + 1;
	v = pool__alloc(&p->pool, 2 * (size_t)nr_ev * sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (e->nr_vals)
		memcpy(v, e->vals, 2 * (size_t)e->nr_vals * sizeof(*v));
	e->vals = v;
	e->nr_vals = nr_ev;
	return 0;
}

static int note_event(struct pprof *p, const struct rsample *s)
{
	const struct perf_event_attr *at = &s->rec->evattr->attr;

	if (s->event >= p->nr_ev) {
		uint64_t *v = realloc(p->ev_period, ((size_t)s->event + 1) * sizeof(*v));

		if (!v)
			return -ENOMEM;
		memset(v + p->nr_ev, 0, ((size_t)s->event + 1 - p->nr_ev) * sizeof(*v));
		p->ev_period = v;
		p->nr_ev = s->event + 1;
		p->ev_period[s->event] = at->freq ? 0 : at->sample_period;
	}
	if (s->has_time) {
		if (!p->has_time || s->time < p->t_min)
			p->t_min = s->time;
		if (!p->has_time || s->time > p->t_max)
			p->t_max = s->time;
		p->has_time = 1;
	}
	return 0;
}

static int pprof_sample(void *state, struct analysis *a, const struct rsample *s)
{
	struct pprof *p = state;
	const struct perf_sample *ps = &s->rec->sample;
	struct pp_skey key;
	struct pp_sample *e;
	struct strbuf *k = &p->key;
	void **slot;
	int ret;

	if (note_event(p, s) || stack_locations(p, a, s))
		return -ENOMEM;
	memset(&key, 0, sizeof(key));
	key.pid = s->th->proc->pid;
	key.tid = s->th->tid;
	key.has_cpu = !!(ps->sample_type & PERF_SAMPLE_CPU);
	key.cpu = key.has_cpu ? ps->cpu : 0;
	key.comm = report__comm(a, s->th);
	if (!key.comm)
		return -ENOMEM;
	key.nr = (uint32_t)p->loc_ids.len;
	strbuf__reset(k);
	if (strbuf__add(k, &key, sizeof(key)) || strbuf__add(k, p->loc_ids.data, p->loc_ids.len * sizeof(uint64_t)))
		return -ENOMEM;
	ret = hashmap__insert(&p->samples, k->buf, k->len, &slot);
	if (ret < 0)
		return -ENOMEM;
	if (ret == 1) {
		e = pool__alloc(&p->pool, sizeof(*e) + p->loc_ids.len * sizeof(uint64_t));
		if (!e || ptr_push(&p->sample_list, e))
			return -ENOMEM;
		e->key = key;
		memcpy(e->locs, p->loc_ids.data, p->loc_ids.len * sizeof(uint64_t));
		*slot = e;
	}
	e = *slot;
	if (sample_vals(p, e, s->event, (uint32_t)analysis__nr_events(a)))
		return -ENOMEM;
	e->vals[2 * s->event]++;
	e->vals[2 * s->event + 1] += s->period;
	return 0;
}

/* ------------------------------------------------------------ writing */

/* deflate (gzip) into a csv output, fed by protobuf-c's pack_to_buffer */
struct gz_out {
	ProtobufCBuffer base;
	z_stream z;
	struct csv *c;
	int err;
	unsigned char buf[1 << 16];
};

static void gz_run(struct gz_out *g, const uint8_t *data, size_t len, int flush)
{
	g->z.next_in = (Bytef *)(uintptr_t)data;
	g->z.avail_in = (uInt)len;
	do {
		int ret;

		g->z.next_out = g->buf;
		g->z.avail_out = sizeof(g->buf);
		ret = deflate(&g->z, flush);
		if (ret == Z_STREAM_ERROR) {
			g->err = -EIO;
			return;
		}
		csv__raw(g->c, (const char *)g->buf, sizeof(g->buf) - g->z.avail_out);
		if (flush == Z_FINISH && ret == Z_STREAM_END)
			return;
	} while (g->z.avail_out == 0 || g->z.avail_in || flush == Z_FINISH);
}

static void gz_append(ProtobufCBuffer *b, size_t len, const uint8_t *data)
{
	struct gz_out *g = (struct gz_out *)b;

	/* deflate takes uInt lengths: pieces of at most 1 GiB */
	while (len && !g->err) {
		size_t n = len > (1u << 30) ? (1u << 30) : len;

		gz_run(g, data, n, Z_NO_FLUSH);
		data += n;
		len -= n;
	}
}

/* one Profile message (part of the whole) packed into the stream */
static void put(struct gz_out *g, const Perftools__Profiles__Profile *msg)
{
	protobuf_c_message_pack_to_buffer(&msg->base, &g->base);
}

/* the index of s in the string table, added when new; -1 on ENOMEM */
/* a name as the string table holds it: valid UTF-8 (escape__utf8), in the pool when it had to change; NULL on ENOMEM */
static const char *table_string(struct pprof *p, const char *s, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	char *copy = NULL;

	if (utf8__valid(s, n))
		return s;
	if (!escape__utf8(&sb, s, n) && (copy = pool__alloc(&p->pool, sb.len + 1)))
		memcpy(copy, sb.buf, sb.len + 1);
	strbuf__release(&sb);
	return copy;
}

static int64_t str_id(struct pprof *p, const char *s)
{
	void **slot;
	const char **at;
	size_t n = strlen(s);
	int ret = hashmap__insert(&p->strings, s, n, &slot);

	if (ret < 0)
		return -1;
	if (ret == 0)
		return (int64_t)(uintptr_t)*slot;
	at = array__push(&p->str_list);
	if (!at)
		return -1;
	*at = table_string(p, s, n);
	if (!*at)
		return -1;
	*slot = (void *)(uintptr_t)(p->str_list.len - 1);
	return (int64_t)(p->str_list.len - 1);
}

/* the events with samples, in attr order: col[event] their index, -1 for the others; their number */
static size_t event_columns(const struct analysis *a, int *col, size_t n)
{
	struct analysis_event ev;
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		analysis__event(a, i, &ev);
		col[i] = ev.samples ? (int)k++ : -1;
	}
	return k;
}

/* sample_type, period_type, the times: the first message */
static int put_header(struct pprof *p, struct analysis *a, struct gz_out *g, const int *col, size_t n)
{
	Perftools__Profiles__Profile msg = PERFTOOLS__PROFILES__PROFILE__INIT;
	Perftools__Profiles__ValueType vt[2], pt = PERFTOOLS__PROFILES__VALUE_TYPE__INIT, *vtp[2];
	const struct perf_features *ft = analysis__file(a) ? perf_file__features(analysis__file(a)) : NULL;
	struct analysis_event ev;
	char name[512];
	int first = 1;
	size_t i;

	for (i = 0; i < n; i++) {
		if (col[i] < 0)
			continue;
		analysis__event(a, i, &ev);
		snprintf(name, sizeof(name), "samples:%s", ev.name);
		perftools__profiles__value_type__init(&vt[0]);
		perftools__profiles__value_type__init(&vt[1]);
		vt[0].type = str_id(p, analysis__intern(a, name) ? analysis__intern(a, name) : "");
		vt[0].unit = str_id(p, "count");
		vt[1].type = str_id(p, ev.name);
		vt[1].unit = str_id(p, ev.time_unit ? "nanoseconds" : "count");
		if (vt[0].type < 0 || vt[0].unit < 0 || vt[1].type < 0 || vt[1].unit < 0)
			return -ENOMEM;
		vtp[0] = &vt[0];
		vtp[1] = &vt[1];
		msg.n_sample_type = 2;
		msg.sample_type = vtp;
		if (first) {
			/* the first event's period is what pprof shows by default */
			pt = vt[1];
			msg.period_type = &pt;
			msg.period = (int64_t)(i < p->nr_ev ? p->ev_period[i] : 0);
			msg.default_sample_type = vt[1].type;
			if (p->has_time)
				msg.duration_nanos = (int64_t)(p->t_max - p->t_min);
			/* wall-clock time of the first sample: only when perf recorded the clock pair (-k) */
			if (p->has_time && ft && perf_features__has(ft, PERF_FEAT_CLOCK_DATA))
				msg.time_nanos = (int64_t)(ft->clock_tod_ns + (p->t_min - ft->clock_clockid_ns));
			first = 0;
		}
		put(g, &msg);
		memset(&msg, 0, sizeof(msg));
		perftools__profiles__profile__init(&msg);
	}
	return 0;
}

static int label(struct pprof *p, Perftools__Profiles__Label *l, const char *key, const char *str, int64_t num)
{
	perftools__profiles__label__init(l);
	l->key = str_id(p, key);
	if (str)
		l->str = str_id(p, str);
	else
		l->num = num;
	return l->key < 0 || l->str < 0 ? -ENOMEM : 0;
}

/*
 * The comm label: its string id found once per comm (interned: by pointer),
 * as str_id hashes the name and a long one is in every sample of its thread
 */
static int comm_label(struct pprof *p, struct hashmap *ids, Perftools__Profiles__Label *l, const char *comm)
{
	void **slot;
	int err;

	if (hashmap__insert(ids, &comm, sizeof(comm), &slot) < 0)
		return -ENOMEM;
	if (*slot) {
		perftools__profiles__label__init(l);
		l->key = str_id(p, "comm");
		l->str = (int64_t)((uintptr_t)*slot - 1);
		return l->key < 0 ? -ENOMEM : 0;
	}
	err = label(p, l, "comm", comm, 0);
	if (!err)
		*slot = (void *)(uintptr_t)(l->str + 1);
	return err;
}

static int put_samples(struct pprof *p, struct gz_out *g, const int *col, size_t nr_ev, size_t nr_cols)
{
	struct hashmap comm_ids;	/* comm -> its string id + 1 */
	Perftools__Profiles__Profile msg = PERFTOOLS__PROFILES__PROFILE__INIT;
	Perftools__Profiles__Sample smp = PERFTOOLS__PROFILES__SAMPLE__INIT, *sp = &smp;
	Perftools__Profiles__Label lab[4], *labp[4] = { &lab[0], &lab[1], &lab[2], &lab[3] };
	int64_t *vals = calloc(2 * nr_cols + 1, sizeof(*vals));
	size_t i, e;
	int err = vals ? 0 : -ENOMEM;

	hashmap__init(&comm_ids);
	msg.n_sample = 1;
	msg.sample = &sp;
	smp.label = labp;
	smp.value = vals;
	smp.n_value = 2 * nr_cols;
	for (i = 0; i < p->sample_list.len && !err && !g->err; i++) {
		const struct pp_sample *s = ((struct pp_sample **)p->sample_list.data)[i];

		memset(vals, 0, 2 * nr_cols * sizeof(*vals));
		for (e = 0; e < s->nr_vals && e < nr_ev; e++) {
			if (col[e] < 0)
				continue;
			vals[2 * col[e]] = (int64_t)s->vals[2 * e];
			vals[2 * col[e] + 1] = (int64_t)s->vals[2 * e + 1];
		}
		smp.location_id = (uint64_t *)s->locs;
		smp.n_location_id = s->key.nr;
		err = label(p, &lab[0], "pid", NULL, s->key.pid) || label(p, &lab[1], "tid", NULL, s->key.tid) ||
		      comm_label(p, &comm_ids, &lab[2], s->key.comm) ||
		      (s->key.has_cpu && label(p, &lab[3], "cpu", NULL, s->key.cpu)) ? -ENOMEM : 0;
		smp.n_label = s->key.has_cpu ? 4 : 3;
		if (!err)
			put(g, &msg);
	}
	free(vals);
	hashmap__release(&comm_ids, NULL);
	return err;
}

/* the recorded build id of a mapping's file, in hex, interned; "" when none */
static const char *build_id(struct analysis *a, const struct pp_mapping *m)
{
	const struct perf_features *ft = analysis__file(a) ? perf_file__features(analysis__file(a)) : NULL;
	char hex[2 * 20 + 1];
	size_t i, j;

	for (i = 0; ft && i < ft->build_ids.len; i++) {
		const struct perf_build_id *b = (const struct perf_build_id *)ft->build_ids.data + i;
		int kernel_entry = !strcmp(b->filename, "[kernel.kallsyms]");

		if (m->kernel ? !kernel_entry || strncmp(m->filename, "[kernel.kallsyms]", 17)
			      : strcmp(b->filename, m->filename))
			continue;
		for (j = 0; j < b->size && j < 20; j++)
			snprintf(hex + 2 * j, 3, "%02x", b->build_id[j]);
		hex[2 * j] = 0;
		return analysis__intern(a, hex);
	}
	return "";
}

/*
 * pprof takes mapping[0] for the main binary (profile.proto): the main
 * executable's mapping (named as the busiest process, as diff pairs them)
 * with the most samples of its own (the first column; one of its frames may
 * have none), else the user mapping with the most; written first as id 1, the
 * others after it in their order.  0 when neither is.
 */
static int find_main_mapping(struct pprof *p, const struct analysis *a)
{
	uint64_t *n = calloc(p->map_list.len + 1, sizeof(*n)), best = 0;
	const char *comm = report__main_comm(a);
	int main_seen = 0;
	size_t i;

	if (!n)
		return -ENOMEM;
	for (i = 0; i < p->sample_list.len; i++) {
		const struct pp_sample *s = ((struct pp_sample **)p->sample_list.data)[i];
		const struct pp_loc *l = ((struct pp_loc **)p->loc_list.data)[s->locs[0] - 1];
		uint32_t e;

		if (!l->mapping || ((struct pp_mapping **)p->map_list.data)[l->mapping - 1]->kernel)
			continue;
		for (e = 0; e < s->nr_vals; e++)
			n[l->mapping] += s->vals[2 * e];
	}
	p->main_map = 0;
	for (i = 1; i <= p->map_list.len; i++) {
		const struct pp_mapping *m = ((struct pp_mapping **)p->map_list.data)[i - 1];
		int is_main = !m->kernel && m->filename && report__is_main_dso(comm, m->filename);

		if (is_main > main_seen || (is_main == main_seen && n[i] > best)) {
			best = n[i];
			p->main_map = i;
			main_seen = is_main;
		}
	}
	free(n);
	return 0;
}

/* the id a mapping is written with: the main one first */
static uint64_t map_out_id(const struct pprof *p, uint64_t id)
{
	if (!p->main_map || !id || id > p->main_map)
		return id;
	return id == p->main_map ? 1 : id + 1;
}

static int put_mappings(struct pprof *p, struct analysis *a, struct gz_out *g)
{
	Perftools__Profiles__Profile msg = PERFTOOLS__PROFILES__PROFILE__INIT;
	Perftools__Profiles__Mapping mp, *mpp = &mp;
	size_t k, i;

	msg.n_mapping = 1;
	msg.mapping = &mpp;
	for (k = 0; k < p->map_list.len && !g->err; k++) {
		const struct pp_mapping *m;
		const char *bid;

		/* the main mapping, then the others in creation order */
		i = !p->main_map ? k : (k == 0 ? p->main_map - 1 : (k < p->main_map ? k - 1 : k));
		m = ((struct pp_mapping **)p->map_list.data)[i];
		bid = build_id(a, m);
		perftools__profiles__mapping__init(&mp);
		mp.id = map_out_id(p, i + 1);
		mp.memory_start = m->start;
		mp.memory_limit = m->limit;
		mp.file_offset = m->pgoff;
		mp.filename = str_id(p, m->filename ? m->filename : "");
		mp.build_id = str_id(p, bid ? bid : "");
		mp.has_functions = 1;
		if (mp.filename < 0 || mp.build_id < 0)
			return -ENOMEM;
		put(g, &msg);
	}
	return 0;
}

static int put_locations(struct pprof *p, struct gz_out *g)
{
	Perftools__Profiles__Profile msg = PERFTOOLS__PROFILES__PROFILE__INIT;
	Perftools__Profiles__Location lc, *lcp = &lc;
	Perftools__Profiles__Line ln[MAX_INLINE + 1], *lnp[MAX_INLINE + 1];
	size_t i;
	uint32_t j;

	msg.n_location = 1;
	msg.location = &lcp;
	for (i = 0; i < p->loc_list.len && !g->err; i++) {
		const struct pp_loc *l = ((struct pp_loc **)p->loc_list.data)[i];

		perftools__profiles__location__init(&lc);
		lc.id = i + 1;
		lc.mapping_id = map_out_id(p, l->mapping);
		lc.address = l->addr;
		for (j = 0; j < l->nr; j++) {
			perftools__profiles__line__init(&ln[j]);
			ln[j].function_id = l->funcs[j];
			ln[j].line = j ? 0 : l->line;
			lnp[j] = &ln[j];
		}
		lc.n_line = l->nr;
		lc.line = lnp;
		put(g, &msg);
	}
	return 0;
}

/* where the functions are defined: def_file is known once a sample met the function (any event) */
static void def_of(const struct analysis *a, const struct func_stat *f, const char **file, unsigned *line)
{
	size_t i, n = analysis__nr_funcs(a);

	*file = f->def_file;
	*line = f->def_line;
	for (i = 0; !*file && i < n; i++) {
		const struct func_stat *o = analysis__func(a, i);

		if (o->dso == f->dso && o->function == f->function && o->def_file) {
			*file = o->def_file;
			*line = o->def_line;
		}
	}
}

static int put_functions(struct pprof *p, struct analysis *a, struct gz_out *g)
{
	Perftools__Profiles__Profile msg = PERFTOOLS__PROFILES__PROFILE__INIT;
	Perftools__Profiles__Function fn, *fnp = &fn;
	const char *name, *file;
	unsigned line;
	size_t i;

	msg.n_function = 1;
	msg.function = &fnp;
	for (i = 0; i < p->func_list.len && !g->err; i++) {
		const struct pp_func *f = ((struct pp_func **)p->func_list.data)[i];

		name = f->f->function;
		if (f->inlined) {
			/* pprof marks inlining by Lines: the plain name */
			strbuf__reset(&p->key);
			if (strbuf__add(&p->key, name, strlen(name) - strlen(INLINED_SUFFIX)) ||
			    strbuf__addch(&p->key, 0))
				return -ENOMEM;
			name = analysis__intern(a, p->key.buf);
			if (!name)
				return -ENOMEM;
		}
		def_of(a, f->f, &file, &line);
		perftools__profiles__function__init(&fn);
		fn.id = i + 1;
		fn.name = fn.system_name = str_id(p, name);
		fn.filename = str_id(p, file ? file : "");
		fn.start_line = line;
		if (fn.name < 0 || fn.filename < 0)
			return -ENOMEM;
		put(g, &msg);
	}
	return 0;
}

static int put_strings(struct pprof *p, struct gz_out *g)
{
	Perftools__Profiles__Profile msg = PERFTOOLS__PROFILES__PROFILE__INIT;

	msg.n_string_table = p->str_list.len;
	msg.string_table = (char **)p->str_list.data;
	put(g, &msg);
	return 0;
}

static int put_all(struct pprof *p, struct analysis *a, struct gz_out *g)
{
	size_t nr_ev = analysis__nr_events(a), nr_cols;
	int *col = calloc(nr_ev + 1, sizeof(*col));
	int err;

	if (!col)
		return -ENOMEM;
	nr_cols = event_columns(a, col, nr_ev);
	err = str_id(p, "") < 0 ? -ENOMEM : 0;	/* string_table[0] is "" */
	if (!err)
		err = put_header(p, a, g, col, nr_ev);
	if (!err)
		err = put_samples(p, g, col, nr_ev, nr_cols);
	if (!err)
		err = find_main_mapping(p, a);
	if (!err)
		err = put_mappings(p, a, g);
	if (!err)
		err = put_locations(p, g);
	if (!err)
		err = put_functions(p, a, g);
	if (!err)
		err = put_strings(p, g);
	free(col);
	return err;
}

static int pprof_write(void *state, struct analysis *a, const char *path)
{
	struct pprof *p = state;
	struct gz_out *g;
	struct csv *c;
	int err;

	if (!p->sample_list.len)
		return -ENODATA;
	g = calloc(1, sizeof(*g));
	c = calloc(1, sizeof(*c));
	if (!g || !c) {
		err = -ENOMEM;
		goto out_free;
	}
	g->base.append = gz_append;
	g->c = c;
	/* windowBits 15 + 16: a gzip wrapper (mtime 0, so the bytes do not depend on the clock) */
	if (deflateInit2(&g->z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		err = -ENOMEM;
		goto out_free;
	}
	err = csv__open_path(c, path);
	if (err)
		goto out_end;
	err = put_all(p, a, g);
	if (!err && !g->err)
		gz_run(g, NULL, 0, Z_FINISH);
	err = err ? err : g->err;
	if (err)
		csv__abort(c);
	else
		err = csv__commit(c);
out_end:
	deflateEnd(&g->z);
out_free:
	free(g);
	free(c);
	return err;
}

static const struct report_output pprof_outputs[] = {
	{ .name = "pprof", .is_path = 1, .write = pprof_write,
	  .help = "the samples as a gzipped pprof profile (profile.proto) into FILE, for\n"
		  "go tool pprof, Pyroscope, Parca, Grafana: a value per event, pid, tid,\n"
		  "comm and cpu labels, mappings with build ids, --inline frames as Lines" },
	{ .name = NULL }
};

const struct report_ops pprof_report = {
	.name = "pprof",
	.source = REPORT_FROM_ANALYSIS,
	.state_size = sizeof(struct pprof),
	.needs = REPORT_NEEDS_FRAMES | REPORT_NEEDS_ADDRS,
	.outputs = pprof_outputs,
	.begin = pprof_begin,
	.sample = pprof_sample,
	.release = pprof_release,
};

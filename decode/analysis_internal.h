/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What analysis.c (aggregation) and report.c (CSV writers) share.  Not a
 * public API.
 */
#ifndef DECODE_ANALYSIS_INTERNAL_H
#define DECODE_ANALYSIS_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "decode/analysis.h"
#include "decode/group.h"
#include "decode/machine.h"
#include "util/array.h"
#include "util/csv.h"
#include "util/hashmap.h"
#include "util/strbuf.h"

#define UNKNOWN "[unknown]"
#define MAX_CHAIN 1024		/* addresses used per callchain */

/* bump allocator for everything that lives as long as the analysis */
struct pool {
	struct pool_chunk *head;
};

void *pool__alloc(struct pool *p, size_t size);	/* zeroed; NULL on ENOMEM */
char *pool__strdup(struct pool *p, const char *s);
void pool__release(struct pool *p);

/* (event, dso, function) */
struct fstat {
	uint32_t event;
	const char *dso, *function;	/* interned */
	const char *def_file;		/* interned or NULL */
	unsigned def_line;
	uint64_t samples, period;	/* self */
	uint64_t ch_samples, ch_period;	/* children: samples whose chain holds it */
	uint64_t seen;			/* sample sequence number of the last children count */
	/* overview.csv: "event" then ",dso,function," escaped once (pool), NULL until needed */
	const char *ov_text, *ov_event;	/* ov_event: the interned name it was made for */
	uint32_t ov_event_len, ov_len;
};

/* (event, dso, function, source file, line) */
struct lstat {
	struct fstat *f;
	const char *src_file;		/* interned or NULL */
	unsigned line;
	uint64_t samples, period;
};

/* caller -> callee */
struct estat {
	struct fstat *caller, *callee;
	uint64_t samples, period;
	uint64_t seen;
};

/* an address cache entry */
struct ipent {
	struct fstat *f;
	struct lstat *l;		/* NULL until used as a sample address */
	int unresolved;
	int inl_done;			/* --inline: inl looked up */
	uint32_t nr_inl;
	struct fstat **inl;		/* the functions inlined there, innermost first */
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

/*
 * A call-stack frame as decode/stacks.c keys it: the fstat's address with
 * bit 0 set for a kernel frame (fstats come from the pool, 8-aligned).
 */
#define FRAME_KERNEL ((uintptr_t)1)

/* how --inline names an inlined function's frame, as perf marks it */
#define INLINED_SUFFIX " (inlined)"

/* a thread's context switches (decode/threads.c) */
struct tswitch {
	uint64_t offcpu_ns, intervals, switches, voluntary, preempted;
	int is_out;
	uint64_t out_time, in_time;	/* last switch out, last switch in */
	int has_cand;			/* the blocking-stack candidate: a switch sample's frames */
	uint64_t cand_time;
	uintptr_t *cand;
	uint32_t nr_cand, cap_cand;
};

/* a thread (one lifetime) for threads.csv and the off-CPU analysis (decode/threads.c) */
struct tstat {
	struct mthread *th;
	uint32_t pid, tid;
	const char *comm;		/* the last, interned */
	const char *comms;		/* every comm it had, '|'-separated, interned */
	int has_time;
	uint64_t first, last;		/* when it was seen */
	uint64_t *ev;			/* samples, period per event index */
	uint32_t nr_ev;
	uint64_t oncpu_ns;		/* period of its cpu-clock/task-clock samples */
	struct tswitch *sw;		/* NULL until its first switch */
};

struct evstat {
	const char *name;		/* interned */
	uint32_t idx;
	int time_unit;			/* cpu-clock or task-clock: the period is nanoseconds */
	uint64_t samples, period;
	struct ipent *unknown;		/* addresses in no map */
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
	struct hashmap fstats, lstats, estats;
	struct hashfront efront;	/* (caller, callee) -> struct estat *, before estats */
	struct hashmap ipcache;		/* struct ip_key -> struct ipent */
	struct ipfast ipfast[1 << IPFAST_BITS];
	struct array fstat_list, lstat_list, estat_list;	/* creation order */
	struct evstat *events;		/* by attr index */
	size_t nr_events;
	struct strbuf keybuf;		/* scratch for hash keys */
	struct strbuf info;		/* scratch for overview info */
	uint64_t seq;			/* samples seen: dedup stamp for children and edges */
	uint64_t nr_samples, nr_filtered, nr_unresolved;
	uint64_t time_min, time_max;	/* of every sample with a time, filtered or not */
	struct group group;		/* read-group samples (group.h) */
	struct hashmap unres_dsos;	/* struct dso * -> samples there without a symbol */
	struct unwinder *unwinder;	/* samples with user stacks (--call-graph dwarf), or NULL */
	uint64_t *uw_chain;		/* the kernel chain and the unwound user frames, MAX_CHAIN + 2 */
	/* --folded / --flamegraph (decode/stacks.c) */
	struct hashmap stacks;		/* struct stack_key + frames -> uint64_t samples */
	struct array frames;		/* uintptr_t: the current sample's stack, innermost first */
	int stacks_warned;
	/* threads.csv and off-CPU (decode/threads.c) */
	struct array tstat_list;	/* struct tstat *, creation order */
	struct hashmap offstacks;	/* struct stack_key + frames + struct tstat * -> uint64_t[3] */
	int want_frames;		/* a->frames filled for every sample (stacks or off-CPU) */
	int switch_data;		/* context switches seen (records or sched_switch samples) */
	int switch_samples;		/* samples at switches (blocking stacks) */
	/* timeline.csv, --timeline (decode/timeline.c) */
	struct hashmap timeline;	/* struct tl_key -> uint64_t[2] samples, period */
	struct hashfront tlfront;	/* (interval, fstat) -> uint64_t[2], before timeline */
	int tl_started;
	uint64_t tl_start, tl_width, tl_last;	/* first sample time, interval, last interval */
	/* --speedscope (decode/speedscope.c) */
	struct hashmap ss_profiles;	/* (thread, event) -> struct ss_profile */
	struct hashmap ss_frames;	/* struct fstat * -> frame index */
	struct array ss_list, ss_frame_list;	/* profiles, frames (struct fstat *) in creation order */
	/* overview.csv, streamed */
	int overview_open;
	struct csv ov;
	FILE *ov_tmp;			/* when not streaming into opts.out_dir */
	/* "type,pid,tid,cpu" of the last row of each thread (slot tid % 64) as text: mostly the same from row to row */
	struct ov_seg {
		int64_t pid, tid, cpu;
		uint32_t type;
		uint32_t len;		/* 0: empty */
		char text[112];
	} ov_seg[64];
};

int overview__open(struct analysis *a);
void overview__close(struct analysis *a);
void overview__sample(struct analysis *a, const struct perf_record *rec, const char *event,
		      uint64_t period, struct fstat *f);
void overview__record(struct analysis *a, const struct perf_record *rec);

const char *analysis__intern(struct analysis *a, const char *s);	/* NULL on ENOMEM (kept in a->err) */
int analysis__push_ptr(struct array *a, void *p);
int analysis__record_pid_tid(const struct perf_record *rec, uint32_t *pid, uint32_t *tid);

/* decode/timeline.c */
uint64_t timeline__default_interval(const struct perf_file *f);
int timeline__sample(struct analysis *a, const struct fstat *f, uint64_t time, uint64_t period);
int timeline__write(struct analysis *a, const char *dir);

/* csv__open's atomic temporary file + rename for any path; "-" is standard output (stacks.c) */
int analysis__open_path(struct csv *c, const char *path);

/* decode/speedscope.c */
int speedscope__sample(struct analysis *a, const struct mthread *th, uint32_t event, uint64_t period);
void speedscope__release(struct analysis *a);

/* decode/threads.c */
int threads__record(struct analysis *a, const struct perf_record *rec, uint64_t time, int has_time);
int threads__sample(struct analysis *a, uint32_t event, struct mthread *th, const struct perf_record *rec,
		    uint64_t period);
int threads__write(struct analysis *a, const char *dir);
int offcpu__write(struct analysis *a, const char *dir);

/* decode/stacks.c: count the stack in a->frames for one sample; 0 or -ENOMEM */
int stacks__add(struct analysis *a, uint32_t event, const struct mthread *th, uint64_t period);
void stacks__release(struct analysis *a);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The machine model: processes, threads and their memory maps, rebuilt from
 * COMM, FORK, EXIT, MMAP and MMAP2 records replayed in time order, and the
 * kernel's maps ([kernel.kallsyms] and modules) from kernel MMAP records.
 * Follows machine.c, thread.c and maps.c of Linux perf 6.1:
 *
 *  - a thread is known by its tid (a record whose pid disagrees with a
 *    known thread still goes to that thread); the threads of a process
 *    share the process's maps;
 *  - FORK of a new process takes the parent's maps as of the fork and its comm; FORK of a
 *    thread adds it to the process; a FORK for a pid that is already known
 *    starts a new process lifetime (pid reuse); the old one stays listed;
 *  - COMM with PERF_RECORD_MISC_COMM_EXEC (exec) renames but keeps the maps,
 *    as perf does: the new image's MMAPs replace what they overlap, and a
 *    sample inside execve() after the COMM still unwinds into the old image;
 *  - EXIT marks the thread exited (it still resolves later samples);
 *  - a new map removes the parts of older maps it overlaps (perf's
 *    maps__fixup_overlappings), keeping pgoff right for the pieces;
 *  - processes that existed before the recording (synthesized records at
 *    time 0, or a first sample) are created on first sight;
 *  - a user MMAP of a jitdump (".../jit-PID.dump", perf's jit_detect) adds
 *    the dump's code loads and moves as maps (symbols__jitdump), as perf
 *    inject --jit writes them: each at its record's time when the dump's
 *    clock is the recording's (timed: machine__advance applies them), else
 *    all at once, a later load of an address over an earlier one (with one
 *    warning); the process's anonymous maps after it ("//anon", "[anon:",
 *    "/memfd:") are left out, as perf inject drops them.
 *
 * Everything returned is owned by the machine and lives until
 * machine__delete; struct map_entry pointers only until the next record
 * that changes maps.
 */
#ifndef DECODE_MACHINE_H
#define DECODE_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#include "perffile/record.h"

struct symbols;
struct dso;
struct log;

struct map_entry {
	uint64_t start, end;		/* [start, end) */
	uint64_t pgoff;
	struct dso *dso;		/* NULL when the machine has no symbols */
	const char *filename;		/* as recorded, interned */
};

/*
 * A map set: its maps sorted by start, no overlaps, in runs of at most 64
 * (chunks) listed in a directory.  A fork's child shares its parent's
 * directory, and directories share chunks (both reference counted): a change
 * copies the directory if it is shared and the chunks it changes if they are,
 * so a child that maps one file costs its own directory and a chunk or two,
 * not a copy of every map (10,000 children each mapping a file beside 3,000
 * inherited maps took 1.28 GB copied whole).  Zero-initialised is empty.
 */
struct maps_dir;

struct maps {
	struct maps_dir *dir;		/* NULL: no maps */
	size_t n;			/* maps in all */
	uint64_t gen;			/* changes with every insert (the unwinder's cache key) */
};

/* a walk in address order: struct maps_iter it = { 0 }; while ((e = maps__next(maps, &it))) ... */
struct maps_iter {
	size_t chunk, i;
};

struct process;

/* 32 bytes: a file of a million processes has a million of them */
struct mthread {
	uint32_t tid;
	int exited;
	struct process *proc;
	const char *comm;		/* interned; NULL until known */
	void *priv;			/* the analysis' per-thread data (decode/threads.c), NULL */
};

/* what a process has once it maps something (made at its first MMAP, or a fork of one that had maps) */
struct process_maps {
	struct maps maps;
	uint64_t nr_mmaps;		/* MMAP/MMAP2 records for it */
	int jitdump;			/* a jitdump of it was read: later anonymous maps are left out */
};

/* 64 bytes, the maps apart (most processes of a system-wide recording map nothing it sees) */
struct process {
	uint32_t pid;
	uint32_t ppid;
	uint32_t nr_threads;		/* threads seen in this lifetime */
	uint8_t has_ppid;
	uint8_t retired;		/* a later lifetime took the pid */
	const char *comm;		/* of the main thread (or the first named thread), interned */
	uint64_t start_time, exit_time;	/* 0: unknown */
	uint64_t samples, period;	/* filled by the analysis */
	struct process_maps *pm;	/* NULL: no maps and no MMAP record */
};

/* MMAP/MMAP2 records for p */
static inline uint64_t process__nr_mmaps(const struct process *p)
{
	return p->pm ? p->pm->nr_mmaps : 0;
}

/* changes with every change of p's maps (the unwinder's and pprof's cache key) */
static inline uint64_t process__maps_gen(const struct process *p)
{
	return p->pm ? p->pm->maps.gen : 0;
}

struct machine;

/* syms is borrowed and may be NULL (maps then carry no dso); 0 or -ENOMEM */
int machine__new(struct machine **out, struct symbols *syms);
void machine__delete(struct machine *m);

/* what jitdumps need of the recording */
struct machine_jit {
	int monotonic;			/* every event has use_clockid, clockid CLOCK_MONOTONIC (perf record -k 1) */
	int times;			/* every event's samples have times (else nothing is timed) */
	const struct log *log;		/* the clock warning (once); may be NULL */
};
/* before the first record; j is copied */
void machine__set_jit(struct machine *m, const struct machine_jit *j);
/*
 * Apply the JIT maps of timed jitdumps due at time (at or before it): call
 * before a record or sample of that time.  0 or -ENOMEM.
 */
int machine__advance(struct machine *m, uint64_t time);

/*
 * Apply one record (COMM, FORK, EXIT, MMAP, MMAP2, TIME_CONV; others are ignored).
 * time is the record's time (0 when unknown).  0 or -ENOMEM.
 */
int machine__process(struct machine *m, const struct perf_record *rec, uint64_t time);

/*
 * The thread tid (as perf, whatever pid says once the thread is known), or a
 * new thread of process pid (created too when unknown); NULL on ENOMEM.
 */
struct mthread *machine__findnew_thread(struct machine *m, uint32_t pid, uint32_t tid);

/* the live thread tid, or NULL when unknown (nothing is created) */
struct mthread *machine__find_thread(const struct machine *m, uint32_t tid);

/* the map of the thread's process holding ip, or NULL */
/*
 * A number that changes whenever a map may have changed (every record
 * machine__process takes, every JIT load machine__advance applies): what
 * is derived from the maps and this number holds while it stays
 */
uint64_t machine__maps_gen(const struct machine *m);
const struct map_entry *machine__find_map(const struct mthread *t, uint64_t ip);
/* the kernel map holding ip, or NULL */
const struct map_entry *machine__find_kernel_map(const struct machine *m, uint64_t ip);
/* number of kernel maps seen */
size_t machine__nr_kernel_maps(const struct machine *m);

/*
 * Every process lifetime in creation order: machine__process_at(m, i) for
 * i < machine__nr_processes(m); at most UINT32_MAX - 1 (one more is ENOMEM)
 */
size_t machine__nr_processes(const struct machine *m);
struct process *machine__process_at(const struct machine *m, size_t i);

/* the map holding ip in maps, or NULL (binary search) */
const struct map_entry *maps__find(const struct maps *maps, uint64_t ip);
/* the next map of a walk (see struct maps_iter), NULL after the last; no change to maps between calls */
const struct map_entry *maps__next(const struct maps *maps, struct maps_iter *it);
/* insert a map, cutting what it overlaps out of older maps; 0 or -ENOMEM (maps then as they were) */
int maps__insert(struct maps *maps, const struct map_entry *e);
/* let go of the maps (shared ones are freed with their last user) */
void maps__release(struct maps *maps);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests of decode/machine.c: maps overlapping and splitting, threads
 * sharing their process's maps, fork sharing them (checked against a flat
 * model of each process's maps), exec renaming, pid reuse starting a new
 * lifetime, kernel maps.  Records are built as decoded
 * struct perf_record values (no file needed); no symbols (dso is NULL).
 * Expected values are worked out by hand in the comments.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "decode/machine.h"

static struct perf_record mmap_rec(uint32_t pid, uint32_t tid, uint64_t start, uint64_t len,
				   uint64_t pgoff, const char *file)
{
	return (struct perf_record){
		.type = PERF_RECORD_MMAP2, .misc = PERF_RECORD_MISC_USER,
		.u.mmap = { .pid = pid, .tid = tid, .start = start, .len = len, .pgoff = pgoff, .filename = file },
	};
}

static struct perf_record fork_rec(uint32_t type, uint32_t pid, uint32_t ppid, uint32_t tid,
				   uint32_t ptid, uint64_t time)
{
	return (struct perf_record){
		.type = type,
		.u.fork = { .pid = pid, .ppid = ppid, .tid = tid, .ptid = ptid, .time = time },
	};
}

static struct perf_record comm_rec(uint32_t pid, uint32_t tid, const char *comm, int exec)
{
	return (struct perf_record){
		.type = PERF_RECORD_COMM, .misc = exec ? PERF_RECORD_MISC_COMM_EXEC : 0,
		.u.comm = { .pid = pid, .tid = tid, .comm = comm, .exec = exec },
	};
}

static void feed(struct machine *m, struct perf_record r)
{
	assert_int_equal(machine__process(m, &r, 0), 0);
}

/* the first 16 process lifetimes in creation order, *nr all of them */
static struct process *const *all_processes(const struct machine *m, size_t *nr)
{
	static struct process *v[16];
	size_t i;

	*nr = machine__nr_processes(m);
	for (i = 0; i < *nr && i < 16; i++)
		v[i] = machine__process_at(m, i);
	return v;
}

static const struct map_entry *find(struct machine *m, uint32_t pid, uint32_t tid, uint64_t ip)
{
	struct mthread *t = machine__findnew_thread(m, pid, tid);

	assert_non_null(t);
	return machine__find_map(t, ip);
}

/*
 * Old map [0x1000, 0x9000) pgoff 0x100; a new map [0x3000, 0x5000) splits it
 * into [0x1000, 0x3000) pgoff 0x100, the new one, and [0x5000, 0x9000) with
 * pgoff 0x100 + (0x5000 - 0x1000) = 0x4100 (maps__fixup_overlappings).  A
 * third map [0x8000, 0xa000) trims the right piece to [0x5000, 0x8000).
 */
static void test_overlap(void **state)
{
	struct maps maps = { 0 };
	struct map_entry e = { 0x1000, 0x9000, 0x100, NULL, "a" };
	const struct map_entry *f;

	(void)state;
	assert_int_equal(maps__insert(&maps, &e), 0);
	e = (struct map_entry){ 0x3000, 0x5000, 0, NULL, "b" };
	assert_int_equal(maps__insert(&maps, &e), 0);
	assert_int_equal(maps.n, 3);
	f = maps__find(&maps, 0x2fff);
	assert_non_null(f);
	assert_string_equal(f->filename, "a");
	assert_int_equal(f->end, 0x3000);
	assert_int_equal(f->pgoff, 0x100);
	assert_string_equal(maps__find(&maps, 0x3000)->filename, "b");
	f = maps__find(&maps, 0x5000);
	assert_string_equal(f->filename, "a");
	assert_int_equal(f->pgoff, 0x4100);
	e = (struct map_entry){ 0x8000, 0xa000, 0, NULL, "c" };
	assert_int_equal(maps__insert(&maps, &e), 0);
	assert_int_equal(maps.n, 4);
	assert_int_equal(maps__find(&maps, 0x7fff)->end, 0x8000);
	assert_string_equal(maps__find(&maps, 0x9fff)->filename, "c");
	assert_null(maps__find(&maps, 0xa000));
	assert_null(maps__find(&maps, 0xfff));
	/* a map covering everything replaces all four */
	e = (struct map_entry){ 0, 0x100000, 0, NULL, "d" };
	assert_int_equal(maps__insert(&maps, &e), 0);
	assert_int_equal(maps.n, 1);
	maps__release(&maps);
}

/* the walk gives maps.n maps in address order, none overlapping */
static void assert_sorted(const struct maps *maps)
{
	struct maps_iter it = { 0, 0 };
	const struct map_entry *e, *prev = NULL;
	size_t n = 0;

	while ((e = maps__next(maps, &it))) {
		assert_true(e->start < e->end);
		if (prev)
			assert_true(prev->end <= e->start);
		prev = e;
		n++;
	}
	assert_int_equal(n, maps->n);
}

/*
 * Maps arriving at descending addresses go in front (whole chunks, not a
 * move of all the others), ascending ones at the back, the rest in the
 * middle: every one found again, in order, after each kind.
 */
static void test_insert_orders(void **state)
{
	struct maps maps;
	struct map_entry e;
	const struct map_entry *f;
	size_t i, n = 5000;

	(void)state;
	memset(&maps, 0, sizeof(maps));
	memset(&e, 0, sizeof(e));
	e.filename = "x";
	for (i = 0; i < n; i++) {	/* descending: 0x10000000 - 0x1000 * (i + 1) */
		e.start = 0x10000000 - 0x1000 * (i + 1);
		e.end = e.start + 0x1000;
		assert_int_equal(maps__insert(&maps, &e), 0);
	}
	for (i = 0; i < n; i++) {	/* ascending, after them */
		e.start = 0x10000000 + 0x1000 * i;
		e.end = e.start + 0x1000;
		assert_int_equal(maps__insert(&maps, &e), 0);
	}
	assert_int_equal(maps.n, 2 * n);
	assert_sorted(&maps);
	f = maps__find(&maps, 0x10000000 - 0x1000 * n + 5);
	assert_non_null(f);
	assert_int_equal(f->start, 0x10000000 - 0x1000 * n);
	f = maps__find(&maps, 0x10000000 + 0x1000 * (n - 1) + 0xfff);
	assert_non_null(f);
	/* one in the middle splits a map in three */
	e.start = 0x10000000 - 0x800;
	e.end = 0x10000000 + 0x800;
	e.filename = "mid";
	assert_int_equal(maps__insert(&maps, &e), 0);
	assert_int_equal(maps.n, 2 * n + 1);
	assert_string_equal(maps__find(&maps, 0x10000000)->filename, "mid");
	assert_int_equal(maps__find(&maps, 0x10000000 - 0x801)->end, 0x10000000 - 0x800);
	assert_int_equal(maps__find(&maps, 0x10000800)->start, 0x10000800);
	assert_sorted(&maps);
	maps__release(&maps);
}

/* threads share maps; fork copies them; later maps of the parent stay its own */
static void test_threads_and_fork(void **state)
{
	struct machine *m;
	struct process *const *procs;
	size_t nr;

	(void)state;
	assert_int_equal(machine__new(&m, NULL), 0);
	feed(m, comm_rec(100, 100, "app", 0));
	feed(m, mmap_rec(100, 100, 0x400000, 0x1000, 0, "/bin/app"));
	/* thread 101 of process 100 */
	feed(m, fork_rec(PERF_RECORD_FORK, 100, 100, 101, 100, 5));
	assert_non_null(find(m, 100, 101, 0x400010));
	/* a map added through the thread is seen by the main thread */
	feed(m, mmap_rec(100, 101, 0x500000, 0x1000, 0, "/lib/libx.so"));
	assert_string_equal(find(m, 100, 100, 0x500000)->filename, "/lib/libx.so");
	/* fork: process 200 gets a copy */
	feed(m, fork_rec(PERF_RECORD_FORK, 200, 100, 200, 101, 10));
	assert_string_equal(find(m, 200, 200, 0x400010)->filename, "/bin/app");
	feed(m, mmap_rec(100, 100, 0x600000, 0x1000, 0, "/lib/liby.so"));
	assert_non_null(find(m, 100, 100, 0x600000));
	assert_null(find(m, 200, 200, 0x600000));
	/*
	 * the lists are shared until one side changes (copy on write): a child of
	 * 200 (and its child) change theirs, 200's and 100's stay as they were
	 */
	feed(m, fork_rec(PERF_RECORD_FORK, 300, 200, 300, 200, 20));
	feed(m, fork_rec(PERF_RECORD_FORK, 400, 300, 400, 300, 21));
	feed(m, mmap_rec(300, 300, 0x400000, 0x1000, 0, "/bin/other"));
	assert_string_equal(find(m, 300, 300, 0x400010)->filename, "/bin/other");
	assert_string_equal(find(m, 400, 400, 0x400010)->filename, "/bin/app");
	assert_string_equal(find(m, 200, 200, 0x400010)->filename, "/bin/app");
	assert_string_equal(find(m, 100, 100, 0x400010)->filename, "/bin/app");
	feed(m, mmap_rec(200, 200, 0x700000, 0x1000, 0, "/lib/libz.so"));
	assert_non_null(find(m, 200, 200, 0x700000));
	assert_null(find(m, 400, 400, 0x700000));
	assert_null(find(m, 300, 300, 0x700000));
	feed(m, fork_rec(PERF_RECORD_EXIT, 400, 300, 400, 300, 30));

	procs = all_processes(m, &nr);
	assert_int_equal(nr, 4);
	assert_int_equal(procs[0]->pid, 100);
	assert_int_equal(procs[0]->nr_threads, 2);
	assert_int_equal(process__nr_mmaps(procs[0]), 3);
	assert_int_equal(procs[1]->pid, 200);
	assert_true(procs[1]->has_ppid);
	assert_int_equal(procs[1]->ppid, 100);
	assert_int_equal(procs[1]->start_time, 10);
	assert_string_equal(procs[1]->comm, "app");	/* inherited */
	machine__delete(m);
}

/* exec renames; pid reuse starts a second lifetime with the parent's maps */
static void test_exec_and_pid_reuse(void **state)
{
	struct machine *m;
	struct process *const *procs;
	struct mthread *t;
	size_t nr;

	(void)state;
	assert_int_equal(machine__new(&m, NULL), 0);
	feed(m, comm_rec(300, 300, "sh", 0));
	feed(m, mmap_rec(300, 300, 0x400000, 0x1000, 0, "/bin/sh"));
	feed(m, comm_rec(300, 300, "ls", 1));
	/* exec keeps the old maps until the new image's maps cover them (perf) */
	assert_string_equal(find(m, 300, 300, 0x400010)->filename, "/bin/sh");
	feed(m, mmap_rec(300, 300, 0x400000, 0x2000, 0, "/bin/ls"));
	assert_string_equal(find(m, 300, 300, 0x400010)->filename, "/bin/ls");
	assert_string_equal(find(m, 300, 300, 0x401000)->filename, "/bin/ls");
	feed(m, fork_rec(PERF_RECORD_EXIT, 300, 1, 300, 1, 50));
	/* exited: still resolves */
	assert_non_null(find(m, 300, 300, 0x401000));
	t = machine__findnew_thread(m, 300, 300);
	assert_true(t->exited);
	/* pid 300 again, forked by 1 */
	feed(m, fork_rec(PERF_RECORD_FORK, 300, 1, 300, 1, 60));
	feed(m, comm_rec(300, 300, "cat", 1));
	assert_null(find(m, 300, 300, 0x401000));	/* pid 1 had no maps to copy */

	procs = all_processes(m, &nr);
	/* 300 (sh -> ls), 1 (the parent, created on sight), 300 (cat) */
	assert_int_equal(nr, 3);
	assert_int_equal(procs[0]->pid, 300);
	assert_string_equal(procs[0]->comm, "ls");
	assert_true(procs[0]->retired);
	assert_int_equal(procs[0]->exit_time, 50);
	assert_int_equal(process__nr_mmaps(procs[0]), 2);
	assert_int_equal(procs[1]->pid, 1);
	assert_int_equal(procs[2]->pid, 300);
	assert_string_equal(procs[2]->comm, "cat");
	assert_false(procs[2]->retired);
	assert_int_equal(procs[2]->start_time, 60);
	assert_int_equal(process__nr_mmaps(procs[2]), 0);
	machine__delete(m);
}

/* kernel MMAPs go to the kernel maps, not to pid -1 */
static void test_kernel_maps(void **state)
{
	struct machine *m;
	struct perf_record r;
	const struct map_entry *e;

	(void)state;
	assert_int_equal(machine__new(&m, NULL), 0);
	r = mmap_rec(UINT32_MAX, 0, 0xffffffff81000000ULL, 0x1000000, 0xffffffff81000000ULL,
		     "[kernel.kallsyms]_text");
	r.type = PERF_RECORD_MMAP;
	r.misc = PERF_RECORD_MISC_KERNEL;
	feed(m, r);
	r = mmap_rec(UINT32_MAX, 0, 0xffffffffc0000000ULL, 0x5000, 0, "/lib/modules/x/ext4.ko");
	r.misc = PERF_RECORD_MISC_KERNEL;
	feed(m, r);
	assert_int_equal(machine__nr_kernel_maps(m), 2);
	e = machine__find_kernel_map(m, 0xffffffff81234567ULL);
	assert_non_null(e);
	assert_string_equal(e->filename, "[kernel.kallsyms]_text");
	e = machine__find_kernel_map(m, 0xffffffffc0001000ULL);
	assert_string_equal(e->filename, "/lib/modules/x/ext4.ko");
	assert_null(machine__find_kernel_map(m, 0xffffffffc0005000ULL));
	assert_int_equal(machine__nr_processes(m), 0);
	machine__delete(m);
}

/* ------------------------------------------------ the maps against a flat model */

#define NPROC 48

/* a map as the model keeps it */
struct ref_map {
	uint64_t start, end, pgoff;
	char name[16];
};

struct ref_maps {
	struct ref_map v[4096];
	size_t n;
};

/* perf's maps__fixup_overlappings over a flat list: each old map loses what e covers */
static void ref_insert(struct ref_maps *r, const struct ref_map *e)
{
	static struct ref_map out[4096 + 3];
	size_t i, n = 0;
	int done = 0;

	for (i = 0; i < r->n; i++) {
		const struct ref_map *o = &r->v[i];

		if (o->end <= e->start || o->start >= e->end) {
			if (!done && o->start >= e->end) {
				out[n++] = *e;
				done = 1;
			}
			out[n++] = *o;
			continue;
		}
		if (o->start < e->start) {
			out[n] = *o;
			out[n++].end = e->start;
		}
		if (!done) {
			out[n++] = *e;
			done = 1;
		}
		if (o->end > e->end) {
			out[n] = *o;
			out[n].start = e->end;
			out[n++].pgoff = o->pgoff + (e->end - o->start);
		}
	}
	if (!done)
		out[n++] = *e;
	assert_true(n <= 4096);
	memcpy(r->v, out, n * sizeof(out[0]));
	r->n = n;
}

static void ref_check(const struct ref_maps *r, const struct process *p)
{
	struct maps_iter it = { 0, 0 };
	const struct map_entry *e;
	size_t i = 0;

	assert_int_equal(p->pm ? p->pm->maps.n : 0, r->n);
	if (!p->pm)
		return;
	while ((e = maps__next(&p->pm->maps, &it))) {
		assert_true(i < r->n);
		assert_int_equal(e->start, r->v[i].start);
		assert_int_equal(e->end, r->v[i].end);
		assert_int_equal(e->pgoff, r->v[i].pgoff);
		assert_string_equal(e->filename, r->v[i].name);
		/* and the search finds it at both ends */
		assert_ptr_equal(maps__find(&p->pm->maps, e->start), e);
		assert_ptr_equal(maps__find(&p->pm->maps, e->end - 1), e);
		i++;
	}
	assert_int_equal(i, r->n);
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Forked children share their parent's maps (copy on write, by chunk): a
 * random run of maps and forks (small maps and large ones that remove many
 * across chunks, in 48 processes forked from one another) gives every
 * process, after every record, the maps a flat list of its own would: a
 * change of one never shows in another, and the pieces keep their pgoff.
 */
static void test_shared_maps_model(void **state)
{
	static struct ref_maps ref[NPROC];
	struct machine *m;
	struct process *procs[NPROC];
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	size_t np = 1, i, op;

	(void)state;
	assert_int_equal(machine__new(&m, NULL), 0);
	feed(m, comm_rec(1, 1, "p1", 0));
	procs[0] = machine__findnew_thread(m, 1, 1)->proc;
	ref[0].n = 0;
	for (op = 0; op < 6000; op++) {
		uint64_t r = rnd(&seed);

		if (op >= 300 && r % 16 == 0 && np < NPROC) {
			size_t parent = (r >> 8) % np;
			uint32_t pid = (uint32_t)np + 1;

			feed(m, fork_rec(PERF_RECORD_FORK, pid, procs[parent]->pid, pid, procs[parent]->pid, op));
			procs[np] = machine__findnew_thread(m, pid, pid)->proc;
			ref[np] = ref[parent];
			ref_check(&ref[np], procs[np]);
			np++;
		} else {
			size_t who = op < 300 ? 0 : (r >> 8) % np;
			struct ref_map e;
			uint64_t pages = (r >> 20) % 64 == 0 ? 1 + (r >> 32) % 300 : 1 + (r >> 32) % 4;

			e.start = 0x1000 * ((r >> 40) % 3000);
			e.end = e.start + 0x1000 * pages;
			e.pgoff = 0x1000 * ((r >> 50) % 16);
			snprintf(e.name, sizeof(e.name), "f%zu", op);
			feed(m, mmap_rec(procs[who]->pid, procs[who]->pid, e.start, e.end - e.start, e.pgoff, e.name));
			ref_insert(&ref[who], &e);
			ref_check(&ref[who], procs[who]);
		}
		if (op % 500 == 499)
			for (i = 0; i < np; i++)
				ref_check(&ref[i], procs[i]);
	}
	for (i = 0; i < np; i++)
		ref_check(&ref[i], procs[i]);
	assert_int_equal(np, NPROC);
	machine__delete(m);
}

/*
 * The chunks' edges: 130 maps in ascending order, a fork, then in the child
 * a map over the first 60 (the first chunk left with 5 merges with the next),
 * in the parent one over 40 maps across the first two chunks, and one over
 * everything but the last map's tail; each keeps the other's maps as they were.
 */
static void test_shared_maps_edges(void **state)
{
	static struct ref_maps ref[2];
	static const struct { size_t who; uint64_t start, pages; } ops[] = {
		{ 1, 0x1800, 60 }, { 0, 0x30000, 40 }, { 1, 0x30000, 40 }, { 0, 0x800, 130 },
	};
	struct machine *m;
	struct process *procs[2];
	struct ref_map e;
	size_t i;

	(void)state;
	assert_int_equal(machine__new(&m, NULL), 0);
	feed(m, comm_rec(1, 1, "p1", 0));
	procs[0] = machine__findnew_thread(m, 1, 1)->proc;
	for (i = 0; i < 130; i++) {
		e.start = 0x1000 * (i + 1);
		e.end = e.start + 0x1000;
		e.pgoff = 0x1000 * i;
		snprintf(e.name, sizeof(e.name), "a%zu", i);
		feed(m, mmap_rec(1, 1, e.start, 0x1000, e.pgoff, e.name));
		ref_insert(&ref[0], &e);
	}
	ref_check(&ref[0], procs[0]);
	feed(m, fork_rec(PERF_RECORD_FORK, 2, 1, 2, 1, 1));
	procs[1] = machine__findnew_thread(m, 2, 2)->proc;
	ref[1] = ref[0];
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		e.start = ops[i].start;
		e.end = e.start + 0x1000 * ops[i].pages;
		e.pgoff = 0x100000;
		snprintf(e.name, sizeof(e.name), "b%zu", i);
		feed(m, mmap_rec(procs[ops[i].who]->pid, procs[ops[i].who]->pid, e.start, e.end - e.start,
				 e.pgoff, e.name));
		ref_insert(&ref[ops[i].who], &e);
		ref_check(&ref[0], procs[0]);
		ref_check(&ref[1], procs[1]);
	}
	assert_int_equal(procs[0]->pm->maps.n, 2);
	machine__delete(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overlap),
		cmocka_unit_test(test_insert_orders),
		cmocka_unit_test(test_threads_and_fork),
		cmocka_unit_test(test_exec_and_pid_reuse),
		cmocka_unit_test(test_kernel_maps),
		cmocka_unit_test(test_shared_maps_model),
		cmocka_unit_test(test_shared_maps_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

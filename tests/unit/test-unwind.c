/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit test of decode/unwind on stacks captured by perf: the samples of
 * testdata/dwarf-nofp.data (perf record --call-graph dwarf,4096 of
 * testdata/src/nofp.c, built -O2 -fomit-frame-pointer, so a frame-pointer
 * walk finds nothing).  The file is replayed into a machine (maps from its
 * MMAP records); the first sample of the main thread whose ip is in
 * leaf_a and the first of the worker thread in libnofp.so's lib_spin are
 * unwound from their registers and stack copies alone.  The expected chains
 * are the program's source: main -> outer -> middle -> leaf_a, and
 * worker -> outer -> middle -> leaf_b -> lib_spin (every function noinline),
 * less middle: at -O2 it tail-calls both leaves (`jmp leaf_a`, `jmp leaf_b`
 * in objdump -d nofp), so its frame is gone from the machine stack, as in
 * perf report's chains of the same file (perf script -F ip,sym shows
 * lib_spin, leaf_b, outer, worker, start_thread, clone3 for the worker).
 * Skips when testdata/ is not there (run from the top of the tree).
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "decode/machine.h"
#include "decode/symbols.h"
#include "decode/unwind.h"
#include "perffile/perffile.h"

#define TD "testdata/"

/* the function at ip in th's maps, or "" */
static const char *function_at(struct symbols *s, const struct mthread *th, uint64_t ip)
{
	const struct map_entry *m = machine__find_map(th, ip);
	struct sym_result r;

	if (!m || symbols__resolve_sym(s, m->dso, m->start, m->pgoff, ip, &r) || !r.function)
		return "";
	return r.function;
}

struct found {
	const char *want;	/* the sample's own function */
	const char *chain[6];	/* expected, innermost first, NULL-ended */
	int done;
};

static void check_chain(struct symbols *s, struct unwinder *u, const struct mthread *th,
			const struct perf_sample *smp, struct found *fd)
{
	uint64_t ips[64];
	int n = unwinder__unwind(u, th, smp, ips, 64), i;
	struct perf_sample none = *smp;

	print_message("%s: %d frames:", fd->want, n);
	for (i = 0; i < n; i++)
		print_message(" %s", function_at(s, th, ips[i]));
	print_message("\n");
	assert_true(n > 0);
	/* the registers' ip first, as perf records it */
	assert_int_equal(ips[0], smp->user_regs.regs ? smp->ip : ips[0]);
	for (i = 0; fd->chain[i]; i++) {
		assert_true(i < n);
		assert_string_equal(function_at(s, th, ips[i]), fd->chain[i]);
	}
	/*
	 * The same sample as the kernel writes it when it could copy none of
	 * the stack (dyn_size 0: in execve after the switch to the new
	 * program's memory, testdata/exec-loop.dwarf): its bytes are the ring
	 * buffer's old contents, here a real stack that unwinds, and perf
	 * unwinds nothing ("Bail out if nothing was captured": its
	 * user_stack.size is dyn_size).  Neither does readperf.
	 */
	none.user_stack_dyn_size = 0;
	assert_int_equal(unwinder__unwind(u, th, &none, ips, 64), 0);
	fd->done = 1;
}

static void test_captured_stacks(void **state)
{
	struct perf_file_opts fo = { .name = TD "dwarf-nofp.data" };
	struct symbols_opts so = { .symfs = TD "symfs", .kallsyms = TD "dwarf-nofp.kallsyms" };
	struct found want[2] = {
		{ "leaf_a", { "leaf_a", "outer", "main", "__libc_start_call_main", NULL }, 0 },
		{ "lib_spin", { "lib_spin", "leaf_b", "outer", "worker", "start_thread", NULL }, 0 },
	};
	struct perf_file *f;
	struct symbols *s;
	struct machine *m;
	struct unwinder *u;
	struct perf_record rec = { 0 };
	int ret, samples = 0;

	(void)state;
	if (access(fo.name, R_OK)) {
		print_message("skip: %s not found (run from the top of the tree)\n", fo.name);
		skip();
	}
	assert_int_equal(perf_file__open(&f, fo.name, &fo), 0);
	assert_int_equal(symbols__new(&s, &so), 0);
	assert_int_equal(machine__new(&m, s), 0);
	assert_int_equal(unwinder__new(&u, s), 0);
	while ((ret = perf_file__next(f, &rec)) == 1 && !(want[0].done && want[1].done)) {
		const struct perf_sample *smp = &rec.sample;
		struct mthread *th;
		const char *fn;
		size_t i;

		if (rec.type != PERF_RECORD_SAMPLE) {
			assert_int_equal(machine__process(m, &rec, 0), 0);
			continue;
		}
		samples++;
		if ((rec.misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_USER)
			continue;
		th = machine__findnew_thread(m, smp->pid, smp->tid);
		assert_non_null(th);
		fn = function_at(s, th, smp->ip);
		for (i = 0; i < 2; i++)
			if (!want[i].done && !strcmp(fn, want[i].want))
				check_chain(s, u, th, smp, &want[i]);
	}
	assert_true(ret >= 0);
	print_message("%d samples read\n", samples);
	assert_true(want[0].done);
	assert_true(want[1].done);
	unwinder__delete(u);
	machine__delete(m);
	symbols__delete(s);
	perf_file__delete(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_captured_stacks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

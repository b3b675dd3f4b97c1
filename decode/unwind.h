/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * User stacks of --call-graph dwarf samples (PERF_SAMPLE_REGS_USER and
 * PERF_SAMPLE_STACK_USER) unwound with elfutils' libdwfl, as perf's
 * unwind-libdw.c and perfparser do: the sample's user registers start the
 * unwind, reads inside the copied stack come from the sample, and the CFI
 * (.eh_frame, .debug_frame) of the binaries the symbol code found (symfs,
 * build-id cache, ...) gives the frames.  One Dwfl per process, kept while
 * the process's maps stay the same (machine.h maps.gen); modules are
 * reported as frames reach them.  x86_64 only: other arches are not unwound.
 *
 * Frames are returned as perf records them: the registers' ip first, then
 * each caller's return address minus one (the call instruction), innermost
 * first.
 */
#ifndef DECODE_UNWIND_H
#define DECODE_UNWIND_H

#include <stddef.h>
#include <stdint.h>

struct unwinder;
struct symbols;
struct mthread;
struct perf_sample;

/* syms is borrowed; 0 or -ENOMEM */
int unwinder__new(struct unwinder **out, struct symbols *syms);
void unwinder__delete(struct unwinder *u);

/*
 * The user frames of sample s of thread th into ips (at most max): their
 * number, 0 when the sample has no user registers or stack, the kernel copied
 * none of the stack (dyn_size 0), or nothing could be unwound.  Never fails
 * the analysis: a stack that does not unwind gives the frames found up to
 * there.  -ENOMEM only.
 */
int unwinder__unwind(struct unwinder *u, const struct mthread *th, const struct perf_sample *s,
		     uint64_t *ips, size_t max);

#endif

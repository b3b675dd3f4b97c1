/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Folded stacks and flame graphs, shared by the on-CPU stacks (stacks.c:
 * --folded, --flamegraph) and the off-CPU ones (threads.c:
 * --folded-offcpu, --flamegraph-offcpu).
 *
 * A report counts stacks in a hash map whose keys are a struct stack_key
 * followed by its nr frames (uintptr_t, innermost first, decode/report.h)
 * and possibly more bytes of its own, and whose values are arrays of
 * uint64_t counters; folded__collapse turns them into sorted folded lines.
 */
#ifndef DECODE_REPORTS_FLAME_H
#define DECODE_REPORTS_FLAME_H

#include <stddef.h>
#include <stdint.h>

#include "decode/report.h"
#include "util/hashmap.h"
#include "util/strbuf.h"

struct stack_key {
	uint32_t event, nr;
	const char *comm;		/* interned; NULL: the stack has no comm frame (--focus-root) */
};

struct fold {
	const char *s;			/* "comm;outer;...;inner", in the arena */
	size_t len;
	uint64_t samples;		/* the weight: samples, or period with by_period */
	uint64_t old;			/* a differential graph: OLD's weight of the stack (NEW's is samples) */
};

struct folded {
	struct strbuf arena;
	struct fold *v;
	size_t nr;
	const char *event;		/* NULL when no sample passed */
	uint64_t total;			/* of the weights */
	uint64_t nr_samples;		/* counter 0 summed, whatever the weight */
	int by_period;
	int diff;			/* a differential graph: the lines carry old weights too */
	uint64_t old_total;		/* of the old weights */
};

/*
 * The stacks of map of one event (UINT32_MAX: every key) as sorted folded
 * lines merged where they print the same, weighted by counter `weight`,
 * into fd (fd->event, by_period set by the caller are kept); as
 * stackcollapse-perf.pl --kernel names frames.  0 or -ENOMEM.
 */
int folded__collapse(const struct hashmap *map, uint32_t event, unsigned weight, struct folded *fd);
void folded__release(struct folded *fd);
/* fd's lines ("STACK WEIGHT"; with fd->diff "STACK OLD NEW", as difffolded.pl) into path ('-': standard output); fd is released; 0 or -errno */
int folded__write(struct folded *fd, const char *path);

/* flamegraph.pl's --minwidth default: frames narrower than 0.1 px (10 in 1/100 px) are left out */
#define FLAME_MIN_CPX 10
/*
 * The flame graph of fd into path: offcpu draws the blue off-CPU graph
 * (weights are ns); frames narrower than min_cpx (1/100 px) are left out.
 * fd is released; 0 or -errno.
 */
int flame__write_svg(struct folded *fd, const char *path, int offcpu, unsigned min_cpx);
/*
 * With fd->diff: NEW's stacks (widths by samples), each frame coloured by
 * its change against OLD (old weights), as difffolded.pl and flamegraph.pl
 * draw it: red grew, blue shrank, white unchanged, saturation by the
 * change over the largest change of a frame; tooltips with both weights and
 * the ratio.  The same script as flame__write_svg.
 */
#define FLAME_DIFF 2		/* offcpu argument of flame__write_svg: a differential graph */
/* sort fd's lines as folded__collapse does (after a caller built them) */
void folded__sort(struct folded *fd);

#endif

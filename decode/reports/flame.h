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
 * A line holds the ids of its names, not their text: the text is made when
 * written, so memory goes with the distinct names and the lines' frames,
 * not with names times stacks (a 60 KB COMM over 20,000 stacks took 1.2 GB).
 */
#ifndef DECODE_REPORTS_FLAME_H
#define DECODE_REPORTS_FLAME_H

#include <stddef.h>
#include <stdint.h>

#include "decode/report.h"
#include "util/array.h"
#include "util/hashmap.h"
#include "util/pool.h"
#include "util/strbuf.h"

struct stack_key {
	uint32_t event, nr;
	const char *comm;		/* interned; NULL: the stack has no comm frame (--focus-root) */
};

/*
 * The distinct names of folded lines (a comm, a frame as printed: no ';'),
 * each held once and known by its id (0, 1, ... in order of first sight),
 * so that a line is an array of ids and a long name shared by many lines
 * costs its length once.  fold_names__init; fold_names__release frees it.
 */
struct fold_name {
	const char *s;			/* NUL-terminated */
	size_t len;
};

struct fold_names {
	struct hashmap ids;		/* name -> id + 1 */
	struct array v;			/* struct fold_name by id */
	struct pool text;		/* the names' copies */
};

void fold_names__init(struct fold_names *n);
void fold_names__release(struct fold_names *n);
/* the id of name (len bytes), added on first sight, in *id; 0 or -ENOMEM */
int fold_names__intern(struct fold_names *n, const char *name, size_t len, uint32_t *id);

static inline const struct fold_name *fold_names__at(const struct fold_names *n, uint32_t id)
{
	return &((const struct fold_name *)n->v.data)[id];
}

struct fold {
	const uint32_t *names;		/* ids in the folded's names: comm, outer, ..., inner (at least one) */
	size_t nr;
	uint64_t samples;		/* the weight: samples, or period with by_period */
	uint64_t old;			/* a differential graph: OLD's weight of the stack (NEW's is samples) */
};

/*
 * The text of a line is its names joined by ';' ("comm;outer;...;inner"),
 * made only when written; lines sort as those texts would (bytewise,
 * a prefix first).
 */
struct folded {
	struct fold_names names;
	struct array parts;		/* uint32_t: the lines' ids end to end (fold.names point into it) */
	struct fold *v;
	size_t nr;
	const char *event;		/* NULL when no sample passed */
	uint64_t total;			/* of the weights */
	uint64_t nr_samples;		/* counter 0 summed, whatever the weight */
	int by_period;
	int diff;			/* a differential graph: the lines carry old weights too */
	uint64_t old_total;		/* of the old weights */
};

/* empty lines and names, keeping what else fd holds (event, by_period, diff) */
void folded__init(struct folded *fd);

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
/* sort fd's lines as folded__collapse does (after a caller built them); 0 or -ENOMEM */
int folded__sort(struct folded *fd);

#endif

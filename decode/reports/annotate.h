/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The annotation's model (decode/reports/annotate.c), shared by annotate.csv
 * and readperf annotate's text view (the annotate report's path output, --annotate): the
 * functions with samples, each with its samples per file-relative address,
 * walked instruction by instruction.
 */
#ifndef DECODE_REPORTS_ANNOTATE_H
#define DECODE_REPORTS_ANNOTATE_H

#include <stddef.h>
#include <stdint.h>

#include "decode/report.h"
#include "util/hashmap.h"

/* a function with samples: one func_stat in one dso at one place */
struct annotate_func {
	const struct func_stat *f;
	struct dso *dso;
	uint64_t start, end;		/* [start, end): file vaddrs (the ip for kernel and JIT) */
	uint64_t samples, period;	/* of the samples counted here */
	struct hashmap addrs;		/* uint64_t address -> samples there */
};

/* the report's state */
struct annotate {
	struct hashmap funcs;		/* key -> struct annotate_func */
	struct annotate_func *last;	/* the previous sample's: most samples repeat it */
};

/* one line of the walk: an instruction with its counts */
struct annotate_line {
	const struct annotate_func *af;
	const struct sym_insn *insn;	/* text NULL: a sampled address without code (no binary, kernel) */
	uint64_t samples, period;
};
typedef int (*annotate_line_fn)(void *ctx, const struct annotate_line *l);

/* the functions, by event, period (largest first), dso, name, start: an array to free in *out */
int annotate__sorted(const struct annotate *an, struct annotate_func ***out, size_t *n);
/*
 * Every instruction of af in address order (with its samples; sampled
 * addresses that start no instruction get a line of their own), or only the
 * sampled addresses when its code cannot be read (*disassembled 0).  0,
 * fn's error, -ENOMEM.
 */
int annotate__walk(struct analysis *a, const struct annotate_func *af, annotate_line_fn fn, void *ctx,
		   int *disassembled);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target: the whole analysis over arbitrary bytes, as `readperf
 * FILE --inline --folded --flamegraph` runs it: the reader, the ordered
 * queue, the machine replay, symbols (no symfs match: binaries named by the
 * input are looked for under a directory that does not exist, the kernel's
 * symbols in a kallsyms file that does not exist), DWARF unwinding of the
 * stacks the input carries, every report of the analysis (threads, offcpu,
 * timeline, speedscope and the others: the registry's outputs, CSV and
 * path), written into one temporary directory; then readperf diff of the
 * first half of the records (OLD) against all of them (NEW): diff.csv, the
 * differential folded stacks and flame graph.  Built and run by `make fuzz`.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/analysis.h"
#include "decode/report.h"
#include "decode/reports/diff.h"
#include "decode/reports/flame.h"
#include "decode/reports/stacks.h"
#include "perffile/ordered.h"
#include "perffile/perffile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RECORDS 1000000

static char outdir[4096];
/* the inputs of the analyses of one run, deleted after them */
static struct perf_file *files[2];
static size_t nr_files;

static int deliver(void *an, struct perf_record *rec)
{
	return analysis__deliver(an, rec);
}

/* an analysis of f's first limit records with opts; 0 or -errno */
static int analyse(struct analysis **an, const uint8_t *data, size_t size, const struct analysis_opts *ao,
		   size_t limit, size_t *nr_records)
{
	struct perf_file *f;
	struct ordered_queue *q = NULL;
	struct perf_record rec = { 0 };
	size_t n = 0;
	int err;

	*an = NULL;
	err = perf_file__open_mem(&f, data, size, NULL);
	if (err)
		return err;
	err = analysis__new(an, f, ao);
	if (!err)
		err = ordered_queue__new(&q, f, deliver, *an);
	while (!err && n < limit && perf_file__next(f, &rec) > 0 && ++n)
		if (ordered_queue__push(q, &rec) == -ENOMEM)
			break;
	if (q)
		ordered_queue__flush(q);
	ordered_queue__delete(q);
	if (nr_records)
		*nr_records = n;
	/* the analysis borrows f until analysis__delete: kept with it */
	if (err) {
		analysis__delete(*an);
		*an = NULL;
		perf_file__delete(f);
		return err;
	}
	files[nr_files++] = f;
	return 0;
}

/* readperf diff of old against new, with the sort and pairing the input's size picks */
static void diff_outputs(struct analysis *old, struct analysis *new, struct stack_count *const stacks[2], size_t size)
{
	struct stack_count *const st0[1] = { stacks[0] }, *const st1[1] = { stacks[1] };
	struct analysis *const side0[1] = { old }, *const side1[1] = { new };
	struct diff_config cfg = { .sort = (enum diff_sort)(size % 3), .by = (enum diff_by)(size / 3 % 2),
				   .confidence = 0.99 };
	const size_t nr[2] = { 1, 1 };
	struct diff *d = NULL;
	struct folded fd;
	char path[4200];

	if (diff__new(&d, (struct analysis *const *[2]){ side0, side1 }, nr, &cfg))
		return;
	diff__write(d, outdir, 0);
	snprintf(path, sizeof(path), "%s/diff.folded", outdir);
	if (!diff__folded(d, (struct stack_count *const *[2]){ st0, st1 }, &fd))
		folded__write(&fd, path);
	snprintf(path, sizeof(path), "%s/diff.svg", outdir);
	if (!diff__folded(d, (struct stack_count *const *[2]){ st0, st1 }, &fd))
		flame__write_svg(&fd, path, FLAME_DIFF, FLAME_MIN_CPX);
	diff__delete(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct symbols_opts so = { .symfs = "/nonexistent-readperf-fuzz", .kallsyms = "/nonexistent-readperf-fuzz/kallsyms" };
	struct analysis_opts ao, old_ao;
	struct analysis *an = NULL, *old = NULL;
	struct stack_count *stacks[2] = { NULL, NULL };	/* OLD's and NEW's, counted as readperf diff does */
	const struct report_ops *owner;
	char path[4200];
	size_t n = 0, id;

	if (!outdir[0]) {
		/* under $TMPDIR: run.sh gives each run its own, removed after it */
		snprintf(outdir, sizeof(outdir), "%s/readperf-fuzz-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if (!mkdtemp(outdir))
			abort();
	}
	if (stack_count__new(&stacks[0]) || stack_count__new(&stacks[1]))
		goto out;
	memset(&ao, 0, sizeof(ao));
	ao.symbols = &so;
	ao.consumer = &stack_count_ops;
	ao.consumer_state = stacks[1];
	/* every output of the hub: the CSV reports and the path outputs */
	for (id = 0; id < report_outputs__count(); id++)
		if (report_outputs__get(id, &owner)->name && owner->source == REPORT_FROM_ANALYSIS)
			ao.outputs |= (uint64_t)1 << id;
	ao.inline_frames = 1;
	ao.out_dir = outdir;
	if (analyse(&an, data, size, &ao, MAX_RECORDS, &n))
		goto out;
	if (!analysis__write(an, outdir)) {
		for (id = 0; id < report_outputs__count(); id++) {
			if (!(ao.outputs >> id & 1) || !report_outputs__get(id, NULL)->is_path)
				continue;
			snprintf(path, sizeof(path), "%s/out-%zu", outdir, id);
			analysis__write_output(an, id, path);
		}
	}
	/* OLD: the first half of the records, with the stacks diff__folded reads (as readperf diff --flamegraph) */
	memset(&old_ao, 0, sizeof(old_ao));
	old_ao.symbols = &so;
	old_ao.consumer = &stack_count_ops;
	old_ao.consumer_state = stacks[0];
	if (!analysis__status(an) && !analyse(&old, data, size, &old_ao, n / 2, NULL) && !analysis__status(old))
		diff_outputs(old, an, stacks, size);
out:
	analysis__delete(old);
	analysis__delete(an);
	stack_count__delete(stacks[0]);
	stack_count__delete(stacks[1]);
	while (nr_files)
		perf_file__delete(files[--nr_files]);
	return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target: the whole analysis over arbitrary bytes, as `readperf
 * FILE --inline --folded --flamegraph` runs it: the reader, the ordered
 * queue, the machine replay, symbols (no symfs match: binaries named by the
 * input are looked for under a directory that does not exist, the kernel's
 * symbols in a kallsyms file that does not exist), DWARF unwinding of the
 * stacks the input carries, every report, the folded stacks and the flame
 * graph, written into one temporary directory.  Built and run by `make fuzz`.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/analysis.h"
#include "decode/report.h"
#include "perffile/ordered.h"
#include "perffile/perffile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char outdir[64];

static int deliver(void *an, struct perf_record *rec)
{
	return analysis__deliver(an, rec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct symbols_opts so = { .symfs = "/nonexistent-readperf-fuzz", .kallsyms = "/nonexistent-readperf-fuzz/kallsyms" };
	struct analysis_opts ao;
	struct perf_file *f;
	struct analysis *an = NULL;
	struct ordered_queue *q = NULL;
	struct perf_record rec;
	const struct report_ops *owner;
	char path[96];
	size_t n = 0, id;

	if (!outdir[0]) {
		snprintf(outdir, sizeof(outdir), "/tmp/readperf-fuzz-XXXXXX");
		if (!mkdtemp(outdir))
			abort();
	}
	if (perf_file__open_mem(&f, data, size, NULL))
		return 0;
	memset(&ao, 0, sizeof(ao));
	ao.symbols = &so;
	/* every output of the hub: the CSV reports and the path outputs */
	for (id = 0; id < report_outputs__count(); id++)
		if (report_outputs__get(id, &owner)->name && owner->source == REPORT_FROM_ANALYSIS)
			ao.outputs |= (uint64_t)1 << id;
	ao.inline_frames = 1;
	ao.out_dir = outdir;
	if (analysis__new(&an, f, &ao) || ordered_queue__new(&q, f, deliver, an))
		goto out;
	while (perf_file__next(f, &rec) > 0 && n++ < 1000000)
		if (ordered_queue__push(q, &rec) == -ENOMEM)
			break;
	ordered_queue__flush(q);
	if (!analysis__write(an, outdir)) {
		for (id = 0; id < report_outputs__count(); id++) {
			if (!(ao.outputs >> id & 1) || !report_outputs__get(id, NULL)->is_path)
				continue;
			snprintf(path, sizeof(path), "%s/out-%zu", outdir, id);
			analysis__write_output(an, id, path);
		}
	}
out:
	ordered_queue__delete(q);
	analysis__delete(an);
	perf_file__delete(f);
	return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * processes.csv: one row per process lifetime of the machine model (pid
 * reuse gives two rows), sorted by pid, lifetimes of one pid in the order
 * they began: pid, ppid, comm (at exit or the end), threads, mmaps, start
 * and exit time, and the samples and period that passed the filters.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "decode/reports/common.h"

static const struct report_column processes_cols[] = {
	{ "pid", "BIGINT" }, { "ppid", "BIGINT" }, { "comm", "TEXT" }, { "threads", "BIGINT" },
	{ "mmaps", "BIGINT" }, { "start_time", "BIGINT" }, { "exit_time", "BIGINT" }, { "samples", "BIGINT" },
	{ "period", "BIGINT" }, { NULL, NULL }
};

/*
 * A process's sort key: its pid as a signed number, then its place in
 * creation order (lifetimes of one pid stay in it), so the keys are unique
 * and any sort gives the one order; the machine has fewer than
 * UINT32_MAX of them
 */
static uint64_t proc_key(const struct process *p, size_t i)
{
	return (uint64_t)(p->pid ^ 0x80000000u) << 32 | (uint32_t)i;
}

static int key_cmp(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

static void process_row(struct csv *c, const struct process *p)
{
	csv__i64(c, (int32_t)p->pid);
	csv__i64(c, p->has_ppid ? (int32_t)p->ppid : -1);
	if (p->comm) {
		csv__str(c, p->comm);
	} else {
		char name[16];

		snprintf(name, sizeof(name), ":%" PRIi32, (int32_t)p->pid);
		csv__str(c, name);
	}
	csv__u64(c, p->nr_threads);
	csv__u64(c, process__nr_mmaps(p));
	csv__u64(c, p->start_time);
	csv__u64(c, p->exit_time);
	csv__u64(c, p->samples);
	csv__u64(c, p->period);
	csv__end_row(c);
}

static int processes_write(void *state, struct analysis *a, const char *dir)
{
	const struct machine *m = analysis__machine(a);
	size_t nr = machine__nr_processes(m), i, n = 0;
	uint64_t *v;
	struct csv c;
	int err;

	(void)state;
	v = malloc((nr ? nr : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		const struct process *p = machine__process_at(m, i);

		/* placeholders that never got a name, a map, a sample or a time */
		if (!p->comm && !p->samples && !process__nr_mmaps(p) && !p->start_time && !p->exit_time)
			continue;
		v[n++] = proc_key(p, i);
	}
	if (n)
		qsort(v, n, sizeof(*v), key_cmp);
	err = report__open_csv(&c, a, dir, "processes", processes_cols);
	if (err) {
		free(v);
		return err;
	}
	for (i = 0; i < n; i++)
		process_row(&c, machine__process_at(m, (uint32_t)v[i]));
	free(v);
	return csv__commit(&c);
}

static const struct report_output processes_outputs[] = {
	{ .name = "processes", .columns = processes_cols, .write = processes_write },
	{ .name = NULL }
};

const struct report_ops processes_report = {
	.name = "processes",
	.source = REPORT_FROM_ANALYSIS,
	.outputs = processes_outputs,
};

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

static int proc_cmp(const void *pa, const void *pb)
{
	const struct process *a = *(struct process *const *)pa, *b = *(struct process *const *)pb;

	if (a->pid != b->pid)
		return (int32_t)a->pid < (int32_t)b->pid ? -1 : 1;
	return 0;
}

/* proc_cmp, then the place in the creation-ordered array: O(n log n) and stable (n may be a million) */
static int proc_cmp_stable(const void *pa, const void *pb, void *base)
{
	int r = proc_cmp(pa, pb);

	(void)base;
	if (r)
		return r;
	return (*(struct process *const *)pa)->seq < (*(struct process *const *)pb)->seq ? -1 : 1;
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
	csv__u64(c, p->nr_mmaps);
	csv__u64(c, p->has_start ? p->start_time : 0);
	csv__u64(c, p->has_exit ? p->exit_time : 0);
	csv__u64(c, p->samples);
	csv__u64(c, p->period);
	csv__end_row(c);
}

static int processes_write(void *state, struct analysis *a, const char *dir)
{
	struct process *const *all;
	struct process **v;
	size_t nr, i, n = 0;
	struct csv c;
	int err;

	(void)state;
	all = machine__processes(analysis__machine(a), &nr);
	v = malloc((nr ? nr : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		const struct process *p = all[i];

		/* placeholders that never got a name, a map, a sample or a time */
		if (!p->comm && !p->samples && !p->nr_mmaps && !p->has_start && !p->has_exit)
			continue;
		v[n++] = all[i];
	}
	/* lifetimes of one pid stay in creation order: v is in it, and qsort_r ties on the position */
	if (n)
		qsort_r(v, n, sizeof(*v), proc_cmp_stable, v);
	err = report__open_csv(&c, a, dir, "processes", processes_cols);
	if (err) {
		free(v);
		return err;
	}
	for (i = 0; i < n; i++)
		process_row(&c, v[i]);
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

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * results.csv: one row per (event, dso, function), as perf report --sort
 * dso,sym prints them, with the source line of the definition; with
 * callchains also the children columns (perf report --children).  Sorted
 * by event, period descending, children period descending, dso, function.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decode/reports/common.h"

static const struct report_column results_cols[] = {
	{ "event", "TEXT" }, { "dso", "TEXT" }, { "function", "TEXT" }, { "source_file", "TEXT" },
	{ "line", "BIGINT" }, { "samples", "BIGINT" }, { "period", "BIGINT" }, { "percent", "DOUBLE" },
	{ "children_samples", "BIGINT" }, { "children_period", "BIGINT" }, { "children_percent", "DOUBLE" },
	{ NULL, NULL }
};
#define NR_SELF_COLS 8

static void result_row(struct csv *c, struct analysis *a, const struct func_stat *f, int children)
{
	uint64_t total = analysis__event_period(a, f->event);

	csv__str(c, analysis__event_name(a, f->event));
	csv__str(c, f->dso);
	csv__str(c, f->function);
	csv__str(c, f->def_file);
	csv__u64(c, f->def_file ? f->def_line : 0);
	csv__u64(c, f->samples);
	csv__u64(c, f->period);
	csv__pct(c, f->period, total);
	if (children) {
		csv__u64(c, f->ch_samples);
		csv__u64(c, f->ch_period);
		csv__pct(c, f->ch_period, total);
	}
	csv__end_row(c);
}

static int results_write(void *state, struct analysis *a, const char *dir)
{
	size_t n = analysis__nr_funcs(a), i;
	const struct func_stat **v = calloc(n + 1, sizeof(*v));
	int children = analysis__have_callchains(a);
	struct csv c;
	int err;

	(void)state;
	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		v[i] = analysis__func(a, i);
	qsort(v, n, sizeof(*v), report__func_cmp);
	err = report__open_csv(&c, a, dir, "results", NULL);
	if (err) {
		free(v);
		return err;
	}
	for (i = 0; results_cols[i].name && (children || i < NR_SELF_COLS); i++)
		csv__str(&c, results_cols[i].name);
	csv__end_row(&c);
	for (i = 0; i < n; i++) {
		const struct func_stat *f = v[i];
		uint64_t total = analysis__event_period(a, f->event);

		if (!f->samples && !f->ch_samples)
			continue;
		if (analysis__below_limit(a, f->period, total) &&
		    (!children || analysis__below_limit(a, f->ch_period, total)))
			continue;
		result_row(&c, a, f, children);
	}
	free(v);
	return csv__commit(&c);
}

static const struct report_output results_outputs[] = {
	{ .name = "results", .columns = results_cols, .write = results_write },
	{ .name = NULL }
};

const struct report_ops results_report = {
	.name = "results",
	.source = REPORT_FROM_ANALYSIS,
	.outputs = results_outputs,
};

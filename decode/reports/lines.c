/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lines.csv: one row per (event, dso, function, source file, line) of the
 * sample addresses' innermost source line, as perf report --sort srcline;
 * sorted by event, period descending, dso, function, file, line.
 */
#include <errno.h>
#include <stdlib.h>

#include "decode/reports/common.h"

static const struct report_column lines_cols[] = {
	{ "event", "TEXT" }, { "dso", "TEXT" }, { "function", "TEXT" }, { "source_file", "TEXT" },
	{ "line", "BIGINT" }, { "samples", "BIGINT" }, { "period", "BIGINT" }, { "percent", "DOUBLE" },
	{ NULL, NULL }
};

static int lines_write(void *state, struct analysis *a, const char *dir)
{
	size_t n = analysis__nr_lines(a), i;
	const struct line_stat **v = calloc(n + 1, sizeof(*v));
	struct csv c;
	int err;

	(void)state;
	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		v[i] = analysis__line(a, i);
	qsort(v, n, sizeof(*v), report__line_cmp);
	err = report__open_csv(&c, a, dir, "lines", lines_cols);
	if (err) {
		free(v);
		return err;
	}
	for (i = 0; i < n; i++) {
		const struct line_stat *l = v[i];
		uint64_t total = analysis__event_period(a, l->f->event);

		if (!l->samples || analysis__below_limit(a, l->period, total))
			continue;
		csv__str(&c, analysis__event_name(a, l->f->event));
		csv__str(&c, l->f->dso);
		csv__str(&c, l->f->function);
		csv__str(&c, l->src_file);
		csv__u64(&c, l->src_file ? l->line : 0);
		csv__u64(&c, l->samples);
		csv__u64(&c, l->period);
		csv__pct(&c, l->period, total);
		csv__end_row(&c);
	}
	free(v);
	return csv__commit(&c);
}

static const struct report_output lines_outputs[] = {
	{ .name = "lines", .columns = lines_cols, .write = lines_write },
	{ .name = NULL }
};

const struct report_ops lines_report = {
	.name = "lines",
	.source = REPORT_FROM_ANALYSIS,
	.outputs = lines_outputs,
};

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The registry: every report once, in the order --reports lists them, the
 * reports are written and readperf schema prints their tables.  Adding a
 * report is a file in decode/reports/ and a line here (ARCHITECTURE.md).
 */
#include <string.h>

#include "decode/report.h"

extern const struct report_ops filestat_report, overview_report, processes_report, results_report,
	lines_report, callers_report, stacks_report, speedscope_report, threads_report, timeline_report,
	cpus_report, calltree_report, peek_report, annotate_report,
	pprof_report, quality_report, html_report, diff_report;

const struct report_ops *const report_registry[] = {
	&filestat_report,	/* stat, events, header */
	&overview_report,
	&processes_report,
	&results_report,
	&lines_report,
	&callers_report,
	&stacks_report,		/* --folded, --flamegraph */
	&speedscope_report,	/* --speedscope */
	&threads_report,	/* threads, offcpu, --folded-offcpu, --flamegraph-offcpu */
	&timeline_report,	/* timeline, --timeline */
	&cpus_report,		/* cpus (--reports cpus) */
	&calltree_report,	/* calltree (--reports calltree) */
	&peek_report,		/* --peek, readperf tree */
	&annotate_report,	/* annotate (--reports annotate) */
	&pprof_report,		/* --pprof */
	&quality_report,	/* quality (--reports quality) */
	&html_report,		/* --html */
	&diff_report,		/* readperf diff */
	NULL
};

size_t report_outputs__count(void)
{
	const struct report_output *o;
	size_t i, n = 0;

	for (i = 0; report_registry[i]; i++)
		for (o = report_registry[i]->outputs; o->name; o++)
			n++;
	return n;
}

const struct report_output *report_outputs__get(size_t id, const struct report_ops **owner)
{
	const struct report_output *o;
	size_t i, n = 0;

	for (i = 0; report_registry[i]; i++) {
		for (o = report_registry[i]->outputs; o->name; o++, n++) {
			if (n != id)
				continue;
			if (owner)
				*owner = report_registry[i];
			return o;
		}
	}
	return NULL;
}

int report_outputs__find(const char *name, int is_path)
{
	const struct report_output *o;
	size_t i;
	int n = 0;

	for (i = 0; report_registry[i]; i++)
		for (o = report_registry[i]->outputs; o->name; o++, n++)
			if (o->is_path == is_path && !strcmp(o->name, name))
				return n;
	return -1;
}

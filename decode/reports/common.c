/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers the reports share (common.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "decode/reports/common.h"

void report__header(struct csv *c, const struct report_column *cols)
{
	for (; cols->name; cols++)
		csv__str(c, cols->name);
	csv__end_row(c);
}

int report__open_csv(struct csv *c, struct analysis *a, const char *dir, const char *name,
		     const struct report_column *cols)
{
	char file[64];
	int err;

	if (strlen(name) + 5 > sizeof(file))
		return -ENAMETOOLONG;
	strcpy(file, name);
	strcat(file, ".csv");
	err = csv__open(c, dir, file);
	if (err)
		return err;
	csv__prefix(c, "profile", analysis__opts(a)->profile);
	csv__set_raw_text(c, analysis__opts(a)->raw_csv);
	if (cols)
		report__header(c, cols);
	return 0;
}

int report__cmp_str(const char *a, const char *b)
{
	if (a == b)
		return 0;
	if (!a)
		return -1;
	if (!b)
		return 1;
	return strcmp(a, b);
}

int report__func_cmp(const void *pa, const void *pb)
{
	const struct func_stat *a = *(const struct func_stat *const *)pa, *b = *(const struct func_stat *const *)pb;
	int r;

	if (a->event != b->event)
		return a->event < b->event ? -1 : 1;
	r = report__cmp_u64_desc(a->period, b->period);
	if (r)
		return r;
	/* children-only rows: by children period */
	r = report__cmp_u64_desc(a->ch_period, b->ch_period);
	if (r)
		return r;
	r = report__cmp_str(a->dso, b->dso);
	if (r)
		return r;
	return report__cmp_str(a->function, b->function);
}

int report__func_period_cmp(const struct func_stat *fa, uint64_t pa, const struct func_stat *fb, uint64_t pb)
{
	int r;

	if (fa->event != fb->event)
		return fa->event < fb->event ? -1 : 1;
	r = report__cmp_u64_desc(pa, pb);
	if (r)
		return r;
	r = report__cmp_str(fa->dso, fb->dso);
	if (r)
		return r;
	return report__cmp_str(fa->function, fb->function);
}

int report__line_cmp(const void *pa, const void *pb)
{
	const struct line_stat *a = *(const struct line_stat *const *)pa, *b = *(const struct line_stat *const *)pb;
	int r;

	r = report__func_period_cmp(a->f, a->period, b->f, b->period);
	if (r)
		return r;
	r = report__cmp_str(a->src_file, b->src_file);
	if (r)
		return r;
	return a->line == b->line ? 0 : (a->line < b->line ? -1 : 1);
}

const struct func_stat *report__leaf(const uintptr_t *frames, uint32_t nr)
{
	uint32_t i;
	uintptr_t f;

	for (i = 0; i < nr; i++) {
		memcpy(&f, frames + i, sizeof(f));
		if (!frame__is_kernel(f))
			return frame__func(f);
	}
	if (!nr)
		return NULL;
	memcpy(&f, frames, sizeof(f));
	return frame__func(f);
}

const char *report__comm(struct analysis *a, const struct mthread *th)
{
	char name[16];

	if (th->comm)
		return th->comm;
	snprintf(name, sizeof(name), ":%" PRIi32, (int32_t)th->tid);
	return analysis__intern(a, name);
}

const char *report__main_comm(const struct analysis *a)
{
	const struct machine *m = analysis__machine(a);
	const struct process *best = NULL;
	size_t n = machine__nr_processes(m), i;

	for (i = 0; i < n; i++) {
		const struct process *p = machine__process_at(m, i);

		if (p->comm && (!best || p->samples > best->samples))
			best = p;
	}
	return best ? best->comm : NULL;
}

int report__is_main_dso(const char *main_comm, const char *dso)
{
	const char *slash = strrchr(dso, '/'), *base = slash ? slash + 1 : dso;
	size_t len = main_comm ? strlen(main_comm) : 0;

	if (!main_comm)
		return 0;
	return len >= 15 ? !strncmp(base, main_comm, len) : !strcmp(base, main_comm);
}

int report__top_cmp(const void *pa, const void *pb)
{
	const struct func_stat *a = *(const struct func_stat *const *)pa, *b = *(const struct func_stat *const *)pb;
	int r;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	r = strcmp(a->dso, b->dso);
	return r ? r : strcmp(a->function, b->function);
}

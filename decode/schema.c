/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * readperf schema: CREATE TABLE statements with column types for the CSV
 * reports, for DuckDB, SQLite and anything else that speaks SQL.  Every
 * report's columns are listed here with their type; a test loads every
 * report of a recording through these statements (tests/cli/test-schema.sh)
 * and fails when a report gains a column this table does not know.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/schema.h"
#include "util/strbuf.h"

#define I "BIGINT"
#define F "DOUBLE"
#define T "TEXT"

struct column {
	const char *name, *type;
};

static const struct report_schema {
	const char *name;		/* table name; the file is NAME.csv */
	struct column cols[16];
} reports[] = {
	{ "stat", { { "type", T }, { "count", I }, { "bytes", I } } },
	{ "events", { { "event", T }, { "type", I }, { "config", T }, { "sample_type", T },
		      { "sample_period", I }, { "sample_freq", I }, { "samples", I }, { "period", I },
		      { "lost", I } } },
	{ "header", { { "section", T }, { "key", T }, { "value", T } } },
	{ "overview", { { "nr", I }, { "time", I }, { "type", T }, { "pid", I }, { "tid", I }, { "cpu", I },
			{ "event", T }, { "ip", T }, { "period", I }, { "dso", T }, { "symbol", T }, { "info", T } } },
	{ "processes", { { "pid", I }, { "ppid", I }, { "comm", T }, { "threads", I }, { "mmaps", I },
			 { "start_time", I }, { "exit_time", I }, { "samples", I }, { "period", I } } },
	{ "results", { { "event", T }, { "dso", T }, { "function", T }, { "source_file", T }, { "line", I },
		       { "samples", I }, { "period", I }, { "percent", F }, { "children_samples", I },
		       { "children_period", I }, { "children_percent", F } } },
	{ "lines", { { "event", T }, { "dso", T }, { "function", T }, { "source_file", T }, { "line", I },
		     { "samples", I }, { "period", I }, { "percent", F } } },
	{ "callers", { { "event", T }, { "caller_dso", T }, { "caller", T }, { "callee_dso", T },
		       { "callee", T }, { "samples", I }, { "period", I } } },
	{ "threads", { { "pid", I }, { "tid", I }, { "comm", T }, { "comms", T }, { "start_time", I },
		       { "end_time", I }, { "event", T }, { "samples", I }, { "period", I }, { "oncpu_ns", I },
		       { "offcpu_ns", I }, { "switches", I }, { "voluntary", I }, { "preempted", I } } },
	{ "offcpu", { { "pid", I }, { "tid", I }, { "comm", T }, { "dso", T }, { "function", T },
		      { "count", I }, { "offcpu_ns", I }, { "max_ns", I } } },
	{ "timeline", { { "interval_start", I }, { "time", I }, { "event", T }, { "dso", T }, { "function", T },
			{ "samples", I }, { "period", I }, { "percent", F } } },
	{ "diff", { { "event", T }, { "dso", T }, { "function", T }, { "old_samples", I }, { "new_samples", I },
		    { "old_period", I }, { "new_period", I }, { "old_percent", F }, { "new_percent", F },
		    { "delta_percent", F }, { "ratio", F }, { "old_children_percent", F },
		    { "new_children_percent", F }, { "delta_children_percent", F } } },
};

#define NR_REPORTS (sizeof(reports) / sizeof(reports[0]))

static const char *type_of(const struct report_schema *r, const char *col, size_t len)
{
	size_t i;

	for (i = 0; i < 16 && r->cols[i].name; i++)
		if (strlen(r->cols[i].name) == len && !memcmp(r->cols[i].name, col, len))
			return r->cols[i].type;
	return NULL;
}

/* the header row of DIR/NAME.csv into sb; 0, -ENOENT when absent, or -errno */
static int read_header(const char *dir, const char *name, struct strbuf *sb)
{
	char path[4096];
	FILE *fp;
	int c, err = 0;

	snprintf(path, sizeof(path), "%s/%s.csv", dir, name);
	fp = fopen(path, "r");
	if (!fp)
		return -errno;
	strbuf__reset(sb);
	while ((c = getc(fp)) != EOF && c != '\n' && !err)
		err = strbuf__addch(sb, (char)c);
	if (!err && ferror(fp))
		err = -EIO;
	fclose(fp);
	return err;
}

static int table_sql(struct strbuf *out, const struct report_schema *r, const char *header,
		     const char **unknown)
{
	const char *p = header;
	int n = 0, err;

	err = strbuf__addf(out, "CREATE TABLE %s (", r->name);
	while (!err && *p) {
		size_t len = strcspn(p, ",");
		const char *type = type_of(r, p, len);

		if (!type && !*unknown)
			*unknown = r->name;
		err = strbuf__addf(out, "%s%.*s %s", n++ ? ", " : "", (int)len, p, type ? type : T);
		p += len + (p[len] == ',');
	}
	return err ? err : strbuf__addstr(out, ");\n");
}

int schema__sql(struct strbuf *out, const char *dir, const char **unknown)
{
	struct strbuf hdr = STRBUF_INIT;
	size_t i, j;
	int err = 0, found = 0;

	*unknown = NULL;
	for (i = 0; i < NR_REPORTS && !err; i++) {
		const struct report_schema *r = &reports[i];

		if (dir) {
			err = read_header(dir, r->name, &hdr);
			if (err == -ENOENT) {
				err = 0;
				continue;
			}
		} else {
			strbuf__reset(&hdr);
			for (j = 0; j < 16 && r->cols[j].name && !err; j++)
				err = strbuf__addf(&hdr, "%s%s", j ? "," : "", r->cols[j].name);
		}
		if (!err)
			err = table_sql(out, r, hdr.buf, unknown);
		found++;
	}
	strbuf__release(&hdr);
	if (!err && dir && !found)
		err = -ENOENT;
	return err;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * readperf schema: CREATE TABLE statements with column types for the CSV
 * reports, for DuckDB, SQLite and anything else that speaks SQL.  Every
 * report's columns and their types come from the registry (each report's
 * struct report_output); a test loads every report of a recording through
 * these statements (tests/cli/test-schema.sh) and fails when a report
 * writes a column its registry entry does not list.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decode/reports/schema.h"
#include "decode/report.h"
#include "util/strbuf.h"

#define T "TEXT"

/* a header row longer than this is no header readperf wrote */
#define HEADER_MAX 65536

/* a column's type; "profile" leads every report in batch mode (--profile-column) */
static const char *type_of(const struct report_output *r, const char *col, size_t len)
{
	const struct report_column *c;

	for (c = r->columns; c->name; c++)
		if (strlen(c->name) == len && !memcmp(c->name, col, len))
			return c->type;
	for (c = r->key_columns; c && c->name; c++)
		if (strlen(c->name) == len && !memcmp(c->name, col, len))
			return c->type;
	return len == 7 && !memcmp(col, "profile", 7) ? T : NULL;
}

/*
 * the header row of DIR/NAME.csv into sb, read with a bound, from a regular
 * file only (a FIFO would block, /dev/zero never end); 0, -ENOENT when
 * absent, -EINVAL when not a regular file or too long, or -errno
 */
static int read_header(const char *dir, const char *name, struct strbuf *sb)
{
	char path[4096];
	struct stat st;
	FILE *fp;
	int c, fd, err = 0;

	snprintf(path, sizeof(path), "%s/%s.csv", dir, name);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !(fp = fdopen(fd, "r"))) {
		close(fd);
		return -EINVAL;
	}
	strbuf__reset(sb);
	while (!err && (c = getc(fp)) != EOF && c != '\n')
		err = sb->len >= HEADER_MAX || !c ? -EINVAL : strbuf__addch(sb, (char)c);
	if (!err && ferror(fp))
		err = -EIO;
	fclose(fp);
	return err;
}

/* CREATE TABLE "name" ("col" TYPE, ...): identifiers quoted; a column readperf does not write is refused */
static int table_sql(struct strbuf *out, const struct report_output *r, const char *header,
		     const char **unknown)
{
	const char *p = header;
	int n = 0, err;

	err = strbuf__addf(out, "CREATE TABLE \"%s\" (", r->name);
	while (!err && *p) {
		size_t len = strcspn(p, ",");
		const char *type = type_of(r, p, len);

		if (!type) {
			*unknown = r->name;
			return -EINVAL;
		}
		err = strbuf__addf(out, "%s\"%.*s\" %s", n++ ? ", " : "", (int)len, p, type);
		p += len + (p[len] == ',');
	}
	return err ? err : strbuf__addstr(out, ");\n");
}

int schema__sql(struct strbuf *out, const char *dir, const char **unknown)
{
	struct strbuf hdr = STRBUF_INIT;
	const struct report_column *c;
	size_t id, nr = report_outputs__count();
	int err = 0, found = 0;

	*unknown = NULL;
	for (id = 0; id < nr && !err; id++) {
		const struct report_output *r = report_outputs__get(id, NULL);

		if (r->is_path)
			continue;
		if (dir) {
			err = read_header(dir, r->name, &hdr);
			if (err == -ENOENT) {
				err = 0;
				continue;
			}
			if (err == -EINVAL)
				*unknown = r->name;
		} else {
			strbuf__reset(&hdr);
			for (c = r->columns; c->name && !err; c++)
				err = strbuf__addf(&hdr, "%s%s", c == r->columns ? "" : ",", c->name);
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

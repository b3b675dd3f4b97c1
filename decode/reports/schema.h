/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The SQL types of the reports' columns (readperf schema): integers are
 * BIGINT, percentages and ratios DOUBLE, names, paths and hex addresses
 * TEXT.  No numeric cell of a report is ever empty (README "Reports"), so
 * the files load with these types into DuckDB, SQLite or pandas as they are.
 */
#ifndef DECODE_REPORTS_SCHEMA_H
#define DECODE_REPORTS_SCHEMA_H

struct strbuf;

/*
 * Append one "CREATE TABLE name (col TYPE, ...);" line per report to out:
 * with dir NULL every report with all its columns; else one per NAME.csv
 * found in dir, with the columns of its header row (results.csv without
 * callchains has no children columns).  *unknown names a report that has a
 * column this table does not know (typed TEXT), else NULL.  0, -ENOMEM,
 * -ENOENT (dir holds no report) or -errno.
 */
int schema__sql(struct strbuf *out, const char *dir, const char **unknown);

#endif

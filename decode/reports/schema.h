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
 * Append one 'CREATE TABLE "name" ("col" TYPE, ...);' line per report to
 * out, identifiers quoted: with dir NULL every report with all its columns;
 * else one per NAME.csv found in dir, with the columns of its header row
 * (results.csv without callchains has no children columns).  A header is
 * read from a regular file only, at most 64 KiB.  -EINVAL with *unknown the
 * report's name when its file is not a regular file, its header is too long
 * or holds a column readperf does not write (a tampered header must not
 * reach SQL); else *unknown is NULL.  0, -ENOMEM, -ENOENT (dir holds no
 * report) or -errno.
 */
int schema__sql(struct strbuf *out, const char *dir, const char **unknown);

#endif

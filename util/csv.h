/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * RFC 4180 CSV writer: fields separated by ',', rows ended by '\n', a field
 * quoted (with "" for ") only when it holds , " \r or \n.
 *
 * A text field (csv__str, csv__strn, csv__row, csv__escape, the csv__prefix
 * column) that begins with '=', '+', '@', TAB or CR gets a leading "'", so
 * a spreadsheet shows it instead of running it as a formula (OWASP's CSV
 * injection advice); '-' is left alone (login shells' comms are "-bash",
 * negative numbers begin with it).  Numbers are never text fields.
 * csv__set_raw_text(c, 1) writes text verbatim (readperf --raw-csv).
 *
 * A report is written to "DIR/.NAME.tmp.PID" and renamed to "DIR/NAME" by
 * csv__commit, so a reader never sees half a report.  csv__abort (or
 * csv__commit after a write error) removes the temporary file.  Output is
 * formatted straight into the buffer in struct csv (64 KiB: embed it or
 * allocate it, don't put it on a small stack) and handed to write(2) when it
 * is full: no stdio.  Errors are sticky and reported by csv__commit.
 */
#ifndef UTIL_CSV_H
#define UTIL_CSV_H

#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

struct csv {
	int fd;			/* -1 when closed */
	char *tmp_path;
	char *path;
	int need_sep;
	int in_row;		/* a field of the current row is written */
	int raw_text;		/* csv__set_raw_text: no leading ' on formula-like text */
	const char *pfx_hdr, *pfx_val;	/* csv__prefix: borrowed */
	uint64_t rows;		/* rows ended since csv__prefix (the first is the header) */
	int err;		/* first error, negative errno */
	struct strbuf esc;	/* csv__xml, csv__json: the escaped name */
	size_t len;		/* bytes in buf not yet written to fd */
	char buf[1 << 16];
};

/* create DIR/NAME atomically; 0 or negative errno */
int csv__open(struct csv *c, const char *dir, const char *name);
/*
 * write to an already open descriptor instead (standard output, a temporary
 * file); never renamed nor closed: csv__commit only flushes.  Flush a stdio
 * stream on fd first.
 */
void csv__open_fd(struct csv *c, int fd);
/*
 * csv__open's atomic temporary file and rename for any path (its directory
 * and base name), "-" for standard output (stdout is flushed first, so what
 * was printed before comes first); a path that is a device, FIFO, socket or
 * symbolic link is opened and written in place (truncated, as by a shell's
 * '>'), and closed by csv__commit; 0, -EISDIR for a path that names a
 * directory, -ENOMEM or -errno.
 */
int csv__open_path(struct csv *c, const char *path);
/* raw: text fields verbatim, without the leading ' of the formula rule (off after open) */
void csv__set_raw_text(struct csv *c, int raw);

/*
 * A first column in front of every row: header names it in the first row
 * written after this call, value fills it in every later one (readperf's
 * batch mode: the profile a row comes from).  header NULL: no header row is
 * to come (a stream continued after csv__open_stream).  value NULL: no
 * column.  Both are borrowed until csv__commit/csv__abort.
 */
void csv__prefix(struct csv *c, const char *header, const char *value);

void csv__str(struct csv *c, const char *s);		/* NULL writes an empty field */
void csv__strn(struct csv *c, const char *s, size_t len);
void csv__u64(struct csv *c, uint64_t v);
void csv__i64(struct csv *c, int64_t v);
void csv__hex(struct csv *c, uint64_t v);		/* 0x lower-case */
void csv__pct(struct csv *c, uint64_t num, uint64_t den);	/* 100*num/den, 4 decimals; 0.0000 when den is 0 */
void csv__empty(struct csv *c);
void csv__row(struct csv *c, const char *const *fields);	/* a whole row of strings, NULL-terminated */
void csv__end_row(struct csv *c);

/*
 * Pre-escaped fields, for text written in many rows: csv__escape writes s as
 * one field's text as c would write it (quoted if need be, the formula
 * rule) into dst, which has room for 2 * len + 3 bytes, and returns its
 * length; csv__text writes such text as the next field.  text may be
 * several fields joined by ','.
 */
size_t csv__escape(const struct csv *c, char *dst, const char *s, size_t len);
void csv__text(struct csv *c, const char *text, size_t len);
/* v as csv__i64 writes it, into dst (room for 20 bytes); its length */
size_t csv__format_i64(char *dst, int64_t v);

/*
 * Raw output, not CSV fields (folded stacks, SVG, JSON written through the
 * same atomic file): no separator, no quoting.
 */
void csv__raw(struct csv *c, const char *p, size_t n);
/*
 * A name from the file as XML text or attribute value (escape__xml: at most
 * max characters) or as a JSON string literal (escape__json): the only way
 * an SVG or JSON writer puts a name in its output (util/escape.h).
 */
void csv__xml(struct csv *c, const char *s, size_t n, size_t max);
void csv__json(struct csv *c, const char *s, size_t n);
void csv__puts(struct csv *c, const char *s);
void csv__printf(struct csv *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Remove the temporary files ("DIR/.NAME.tmp.PID") that a run killed before
 * it could clean up left in dir: those of processes that no longer exist.
 * Returns how many were removed, or a negative errno when dir cannot be read.
 */
int csv__remove_stale(const char *dir);

/*
 * Reports as one transaction: they are written into a staging directory
 * (DIR/.readperf-reports.tmp.PID, so that csv__remove_stale finds it after a
 * killed run) and moved into DIR only when every one is complete, so a
 * failure (ENOSPC, a signal) leaves the previous reports whole and no
 * temporary file.  begin: 0 or -errno; commit: renames every file of the
 * stage into dir and removes the stage (0 or -errno); abort: removes it.
 *
 * Set after begin, for commit: last, a file of the stage renamed after all
 * the others (a manifest of the set, so it is in place only when they are);
 * owns, which names of dir belong to the set: after the renames commit
 * removes each regular file (or symbolic link) of dir that owns accepts and
 * the stage did not hold (reports of an earlier run that this one did not
 * write).  A run killed before commit removes nothing.
 */
struct csv_txn {
	const char *dir;	/* borrowed */
	char *stage;
	const char *last;			/* or NULL; borrowed */
	int (*owns)(const char *name);		/* or NULL: nothing is removed */
};
int csv_txn__begin(struct csv_txn *t, const char *dir);
int csv_txn__commit(struct csv_txn *t);
void csv_txn__abort(struct csv_txn *t);

/* flush, close, rename into place; returns the first error */
int csv__commit(struct csv *c);
void csv__abort(struct csv *c);

#endif

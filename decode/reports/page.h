/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The self-contained HTML page of --html and readperf diff --html: one
 * file with its style, its markup, its data as one compact JSON object in
 * <script type="application/json" id="data"> and its script, all inline, so
 * the page makes no request.  Names go into the JSON through
 * escape__json_script (util/escape.h): no '<' in the data, so nothing a name
 * holds can end the script element.  Strings a row refers to often go into
 * one table, "s", that rows index (page__ref).
 *
 * Use: page__open, then the data's members (each starting with ',', the
 * object's '{' and first member are page__open's), then page__close.
 */
#ifndef DECODE_REPORTS_PAGE_H
#define DECODE_REPORTS_PAGE_H

#include "util/array.h"
#include "util/csv.h"
#include "util/hashmap.h"
#include "util/strbuf.h"

enum page_kind {
	PAGE_ANALYSIS,		/* --html */
	PAGE_DIFF,		/* readperf diff --html */
};

struct page {
	struct csv c;		/* the output; c.err the first error */
	struct strbuf sb;	/* scratch */
	struct hashmap strs;	/* string bytes -> index + 1 in "s" */
	struct array str_list;	/* const char *, borrowed, in index order */
	enum page_kind kind;
};

/* path opened, the page written up to the data's '{' and its "kind" member; 0 or -errno */
int page__open(struct page *p, const char *path, enum page_kind kind);
/* s as a JSON string (NULL: null) */
void page__str(struct page *p, const char *s);
/* the index of s in "s", added when new (borrowed until page__close); -1 for NULL */
long page__ref(struct page *p, const char *s);
/* sep (when not 0), then v in decimal: for long rows of numbers, cheaper than csv__printf */
void page__num(struct page *p, char sep, int64_t v);
struct folded;
struct pool;
/*
 * Line i of fd as its names' indexes in "s", comma-separated, outer first:
 * refs holds one long per name of fd, zeroed before the first line (then
 * each name's index + 1), so that a name is copied into keep (alive until
 * page__close) and looked up once, however many lines hold it.  0 or -ENOMEM.
 */
int page__fold_line(struct page *p, const struct folded *fd, size_t i, long *refs, struct pool *keep);
/* keep the first error */
void page__err(struct page *p, int err);
/* "s", the data's '}', the script; the file committed, p released; 0 or the first error */
int page__close(struct page *p);

#endif

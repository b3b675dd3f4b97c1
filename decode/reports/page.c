/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The self-contained HTML page (page.h): the assets of decode/reports/page/
 * (style, markup, script; embedded at build time by page/embed.sh) around
 * the data a report writes.
 */
#include <errno.h>
#include <string.h>

#include "decode/reports/flame.h"
#include "decode/reports/page.h"
#include "util/pool.h"
#include "util/escape.h"
#include "page-assets.h"

static const char page_top[] =
	"<!DOCTYPE html>\n"
	"<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
	"script-src 'unsafe-inline'\">\n"
	"<title>readperf</title>\n"
	"<style>\n";

int page__open(struct page *p, const char *path, enum page_kind kind)
{
	int err;

	memset(p, 0, sizeof(*p));
	err = csv__open_path(&p->c, path);
	if (err)
		return err;
	strbuf__init(&p->sb);
	hashmap__init(&p->strs);
	array__init(&p->str_list, sizeof(const char *));
	p->kind = kind;
	csv__puts(&p->c, page_top);
	csv__puts(&p->c, page_page_css);
	csv__puts(&p->c, "</style></head><body>\n");
	csv__puts(&p->c, kind == PAGE_DIFF ? page_diff_html : page_analysis_html);
	csv__puts(&p->c, "<script type=\"application/json\" id=\"data\">\n");
	csv__puts(&p->c, kind == PAGE_DIFF ? "{\"kind\":\"diff\"" : "{\"kind\":\"analysis\"");
	return 0;
}

void page__err(struct page *p, int err)
{
	if (err && !p->c.err)
		p->c.err = err;
}

void page__str(struct page *p, const char *s)
{
	strbuf__reset(&p->sb);
	if (!s)
		csv__puts(&p->c, "null");
	else if (escape__json_script(&p->sb, s, strlen(s)))
		page__err(p, -ENOMEM);
	else
		csv__puts(&p->c, p->sb.buf);
}

long page__ref(struct page *p, const char *s)
{
	void **slot;
	const char **e;
	int ret;

	if (!s)
		return -1;
	ret = hashmap__insert(&p->strs, s, strlen(s), &slot);
	if (ret < 0 || (ret == 1 && !(e = array__push(&p->str_list)))) {
		page__err(p, -ENOMEM);
		return -1;
	}
	if (ret == 1) {
		*e = s;
		*slot = (void *)(uintptr_t)p->str_list.len;
	}
	return (long)(uintptr_t)*slot - 1;
}

int page__fold_line(struct page *p, const struct folded *fd, size_t i, long *refs, struct pool *keep)
{
	const struct fold *f = &fd->v[i];
	size_t k;

	for (k = 0; k < f->nr; k++) {
		uint32_t id = f->names[k];

		if (!refs[id]) {
			const struct fold_name *n = fold_names__at(&fd->names, id);
			char *copy = pool__alloc(keep, n->len + 1);

			if (!copy)
				return -ENOMEM;
			memcpy(copy, n->s, n->len);
			refs[id] = page__ref(p, copy) + 1;
		}
		page__num(p, k ? ',' : 0, refs[id] - 1);
	}
	return 0;
}

void page__num(struct page *p, char sep, int64_t v)
{
	char buf[24], *e = buf + sizeof(buf), *b = e;
	uint64_t m = v < 0 ? -(uint64_t)v : (uint64_t)v;

	*--b = '\0';
	do
		*--b = (char)('0' + m % 10);
	while (m /= 10);
	if (v < 0)
		*--b = '-';
	if (sep)
		*--b = sep;
	csv__puts(&p->c, b);
}

int page__close(struct page *p)
{
	const char *const *s = p->str_list.data;
	size_t i;

	csv__puts(&p->c, ",\"s\":[");
	for (i = 0; i < p->str_list.len; i++) {
		if (i)
			csv__puts(&p->c, ",");
		page__str(p, s[i]);
	}
	csv__puts(&p->c, "]}\n</script>\n<script>\n\"use strict\";\n");
	csv__puts(&p->c, page_page_js);
	csv__puts(&p->c, p->kind == PAGE_DIFF ? page_diff_js : page_analysis_js);
	csv__puts(&p->c, "</script>\n</body></html>\n");
	strbuf__release(&p->sb);
	hashmap__release(&p->strs, NULL);
	array__release(&p->str_list);
	return csv__commit(&p->c);
}

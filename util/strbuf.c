/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Growable NUL-terminated string buffer. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

/* never written: every writer grows to a malloc'd buffer first */
char strbuf_slopbuf[1];

void strbuf__init(struct strbuf *sb)
{
	sb->buf = strbuf_slopbuf;
	sb->len = 0;
	sb->alloc = 0;
}

void strbuf__release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf__init(sb);
}

char *strbuf__detach(struct strbuf *sb, size_t *len)
{
	char *p;

	if (len)
		*len = sb->len;
	if (!sb->alloc) {
		p = calloc(1, 1);
	} else {
		p = sb->buf;
	}
	strbuf__init(sb);
	return p;
}

void strbuf__reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->alloc)
		sb->buf[0] = '\0';
}

int strbuf__grow(struct strbuf *sb, size_t extra)
{
	size_t want, alloc;
	char *p;

	if (extra > SIZE_MAX - sb->len - 1)
		return -ENOMEM;
	want = sb->len + extra + 1;
	if (want <= sb->alloc)
		return 0;
	alloc = sb->alloc ? sb->alloc : 64;
	while (alloc < want) {
		if (alloc > SIZE_MAX / 2)
			return -ENOMEM;
		alloc *= 2;
	}
	p = realloc(sb->alloc ? sb->buf : NULL, alloc);
	if (!p)
		return -ENOMEM;
	if (!sb->alloc)
		p[0] = '\0';
	sb->buf = p;
	sb->alloc = alloc;
	return 0;
}

int strbuf__add(struct strbuf *sb, const void *data, size_t len)
{
	int err = strbuf__grow(sb, len);

	if (err)
		return err;
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
	return 0;
}

int strbuf__addstr(struct strbuf *sb, const char *s)
{
	return strbuf__add(sb, s, strlen(s));
}

int strbuf__addch(struct strbuf *sb, char c)
{
	return strbuf__add(sb, &c, 1);
}

int strbuf__addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n, err;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	err = strbuf__grow(sb, (size_t)n);
	if (err)
		return err;
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
	return 0;
}

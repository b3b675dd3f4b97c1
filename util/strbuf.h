/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A growable, always NUL-terminated string (after git's strbuf).
 *
 * Invariants: buf[len] == '\0'; buf is never NULL (an empty strbuf points at
 * a shared static "" and alloc == 0).  strbuf__release frees and
 * re-initialises; strbuf__detach hands the malloc'd buffer to the caller.
 * On allocation failure the add functions return -ENOMEM and leave the
 * contents as they were.
 */
#ifndef UTIL_STRBUF_H
#define UTIL_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT { strbuf_slopbuf, 0, 0 }

void strbuf__init(struct strbuf *sb);
void strbuf__release(struct strbuf *sb);
char *strbuf__detach(struct strbuf *sb, size_t *len);
void strbuf__reset(struct strbuf *sb);
int strbuf__grow(struct strbuf *sb, size_t extra);
int strbuf__add(struct strbuf *sb, const void *data, size_t len);
int strbuf__addstr(struct strbuf *sb, const char *s);
int strbuf__addch(struct strbuf *sb, char c);
int strbuf__addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif

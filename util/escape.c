/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Names as XML, JSON and terminal text (the rules are in escape.h).  The
 * UTF-8 decoder follows the Unicode standard's table 3-7 of well-formed
 * byte sequences: lead bytes C2-DF, E0-EF (E0 needs A0-BF next, ED 80-9F),
 * F0-F4 (F0 needs 90-BF, F4 80-8F); anything else is an invalid byte.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/escape.h"

size_t utf8__decode(const char *str, size_t n, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len, i;
	uint32_t c;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		c = s[0] & 0x07;
	} else {
		goto invalid;
	}
	if (len > n)
		goto invalid;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			goto invalid;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* overlong, an encoded surrogate, past U+10FFFF */
	if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		goto invalid;
	*cp = c;
	return len;
invalid:
	*cp = UTF8_INVALID;
	return 1;
}

/*
 * Where escaped text goes: a strbuf, or (sb NULL) a fixed buffer of size
 * bytes, NUL-terminated, that never grows: text past its end is cut at a
 * character and "..." ends it (cut, and what comes after is dropped).
 */
struct esc_out {
	struct strbuf *sb;
	char *buf;
	size_t size, len;
	size_t safe;		/* the longest prefix written that leaves room for "..." and the NUL */
	int cut;
};

#define ESC_CUT_MARK "..."

/*
 * p (n bytes) into o: a run of characters written as themselves (cut
 * between characters: its bytes are well-formed UTF-8, escape.h) or, whole,
 * one character's substitution; 0 or -ENOMEM (a strbuf only)
 */
static int out_add(struct esc_out *o, const char *p, size_t n, int whole)
{
	size_t room, keep;

	if (o->sb)
		return strbuf__add(o->sb, p, n);
	if (o->cut || !n)
		return 0;
	room = o->size - sizeof(ESC_CUT_MARK);	/* escape__term_fixed: size >= sizeof(ESC_CUT_MARK) */
	if (o->len < room) {	/* the furthest character boundary in p that leaves room for the mark */
		keep = n <= room - o->len ? n : whole ? 0 : room - o->len;
		while (keep < n && keep && ((unsigned char)p[keep] & 0xc0) == 0x80)
			keep--;
		o->safe = o->len + keep;
	}
	if (n < o->size - o->len) {
		memcpy(o->buf + o->len, p, n);
		o->len += n;
		o->buf[o->len] = '\0';
		return 0;
	}
	/* p does not fit: the text ends at the last boundary with room for the mark */
	o->cut = 1;
	if (o->safe > o->len)
		memcpy(o->buf + o->len, p, o->safe - o->len);
	memcpy(o->buf + o->safe, ESC_CUT_MARK, sizeof(ESC_CUT_MARK));
	o->len = o->safe + sizeof(ESC_CUT_MARK) - 1;
	return 0;
}

/*
 * The walk the three kinds share: s[i] to s[n] character by character,
 * subst() says what a character is written as (NULL: itself); runs of
 * characters written as themselves are copied at once.
 */
typedef const char *subst_fn(uint32_t c, char tmp[16], const char *at, size_t len);

static int put_escaped_to(struct esc_out *o, const char *s, size_t n, size_t max_chars, subst_fn *subst)
{
	char tmp[16];
	size_t i = 0, run = 0, len, chars;
	int err = 0;

	for (chars = 0; i < n && chars < max_chars && !err; i += len, chars++) {
		const char *sub;
		uint32_t c;

		len = utf8__decode(s + i, n - i, &c);
		sub = subst(c, tmp, s + i, len);
		if (!sub)
			continue;
		err = out_add(o, s + run, i - run, 0);
		if (!err)
			err = out_add(o, sub, strlen(sub), 1);
		run = i + len;
	}
	if (!err)
		err = out_add(o, s + run, i - run, 0);
	return err ? -ENOMEM : 0;
}

static int put_escaped(struct strbuf *sb, const char *s, size_t n, size_t max_chars, subst_fn *subst)
{
	struct esc_out o = { .sb = sb };

	return put_escaped_to(&o, s, n, max_chars, subst);
}

static const char *xml_subst(uint32_t c, char tmp[16], const char *at, size_t len)
{
	(void)tmp, (void)at, (void)len;
	switch (c) {
	case '&':
		return "&amp;";
	case '<':
		return "&lt;";
	case '>':
		return "&gt;";
	case '"':
		return "&quot;";
	}
	if (c < 0x20 || c == 0xfffe || c == 0xffff || c == UTF8_INVALID)
		return UTF8_REPLACEMENT;
	return NULL;
}

/* characters in s, counted up to limit */
static size_t count_chars(const char *s, size_t n, size_t limit)
{
	size_t i, chars = 0;
	uint32_t c;

	for (i = 0; i < n && chars < limit; chars++)
		i += utf8__decode(s + i, n - i, &c);
	return chars;
}

int escape__xml(struct strbuf *sb, const char *s, size_t n, size_t max)
{
	int err;

	if (max == SIZE_MAX || count_chars(s, n, max + 1) <= max)
		return put_escaped(sb, s, n, SIZE_MAX, xml_subst);
	if (max < 2)
		return 0;
	err = put_escaped(sb, s, n, max - 2, xml_subst);
	return err ? err : strbuf__add(sb, "..", 2);
}

static const char *json_subst(uint32_t c, char tmp[16], const char *at, size_t len)
{
	(void)at, (void)len;
	if (c == '"')
		return "\\\"";
	if (c == '\\')
		return "\\\\";
	if (c < 0x20) {
		snprintf(tmp, 16, "\\u%04x", (unsigned)c);
		return tmp;
	}
	return c == UTF8_INVALID ? UTF8_REPLACEMENT : NULL;
}

/* json_subst, and '<' as \u003c: no "</script" nor "<!--" in a script element's JSON */
static const char *json_script_subst(uint32_t c, char tmp[16], const char *at, size_t len)
{
	return c == '<' ? "\\u003c" : json_subst(c, tmp, at, len);
}

static int json_quoted(struct strbuf *sb, const char *s, size_t n, subst_fn *subst)
{
	int err = strbuf__addch(sb, '"');

	if (!err)
		err = put_escaped(sb, s, n, SIZE_MAX, subst);
	return err ? err : strbuf__addch(sb, '"');
}

int escape__json(struct strbuf *sb, const char *s, size_t n)
{
	return json_quoted(sb, s, n, json_subst);
}

int escape__json_script(struct strbuf *sb, const char *s, size_t n)
{
	return json_quoted(sb, s, n, json_script_subst);
}

/* the bidirectional formatting characters: they reorder what follows on the line (Trojan Source) */
static int is_bidi_control(uint32_t c)
{
	return c == 0x061c || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) ||
	       (c >= 0x2066 && c <= 0x2069);
}

/*
 * a C0 or C1 control, DEL, a bidi control or an invalid byte: its bytes as
 * \xNN each; a backslash doubled, so that the text reads back to the name
 */
static const char *term_subst(uint32_t c, char tmp[16], const char *at, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	if (c == '\\')
		return "\\\\";
	if (c >= 0x20 && c != 0x7f && (c < 0x80 || c > 0x9f) && c != UTF8_INVALID && !is_bidi_control(c))
		return NULL;
	for (i = 0; i < len; i++) {
		unsigned char b = (unsigned char)at[i];

		tmp[4 * i] = '\\';
		tmp[4 * i + 1] = 'x';
		tmp[4 * i + 2] = hex[b >> 4];
		tmp[4 * i + 3] = hex[b & 0xf];
	}
	tmp[4 * len] = '\0';
	return tmp;
}

static const char *utf8_subst(uint32_t c, char tmp[16], const char *at, size_t len)
{
	(void)tmp, (void)at, (void)len;
	return c == UTF8_INVALID ? UTF8_REPLACEMENT : NULL;
}

int escape__utf8(struct strbuf *sb, const char *s, size_t n)
{
	return put_escaped(sb, s, n, SIZE_MAX, utf8_subst);
}

int utf8__valid(const char *s, size_t n)
{
	uint32_t cp;
	size_t k;

	for (; n; s += k, n -= k) {
		k = utf8__decode(s, n, &cp);
		if (cp == UTF8_INVALID)
			return 0;
	}
	return 1;
}

int escape__term(struct strbuf *sb, const char *s, size_t n)
{
	return put_escaped(sb, s, n, SIZE_MAX, term_subst);
}

void escape__term_fixed(char *buf, size_t size, const char *s, size_t n)
{
	struct esc_out o = { .buf = buf, .size = size };

	if (size < sizeof(ESC_CUT_MARK)) {
		if (size)
			buf[0] = '\0';
		return;
	}
	buf[0] = '\0';
	put_escaped_to(&o, s, n, SIZE_MAX, term_subst);
}

const char *escape__term_str(struct term_text *t, const char *s)
{
	strbuf__reset(&t->sb);
	if (!s)
		return "";
	if (!escape__term(&t->sb, s, strlen(s)))
		return t->sb.buf;
	/* out of memory: the same text in the fixed buffer, cut to fit (nothing allocated) */
	escape__term_fixed(t->fixed, sizeof(t->fixed), s, strlen(s));
	return t->fixed;
}

void term_text__release(struct term_text *t)
{
	strbuf__release(&t->sb);
}

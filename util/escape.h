/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Names from a perf.data file -- comms, mmap file names, event names, ELF
 * symbols, header strings -- are bytes its author chose.  Every output shows
 * them through one function per kind, so a writer cannot forget a case:
 *
 * A name is read as UTF-8.  A byte that does not begin a well-formed
 * sequence (a stray continuation or bad lead byte, a truncated or overlong
 * sequence, an encoded surrogate U+D800-U+DFFF, a code point above U+10FFFF)
 * is one *invalid byte*; the next character starts at the byte after it.
 *
 *  - XML (SVG character data and double-quoted attribute values):
 *    escape__xml.  Invalid bytes, the C0 controls U+0000-U+001F (TAB, LF and
 *    CR too: a label is one line) and U+FFFE, U+FFFF (not XML characters)
 *    become U+FFFD; & < > " become &amp; &lt; &gt; &quot;.
 *  - JSON strings: escape__json.  Invalid bytes become U+FFFD; " and \ are
 *    backslash-escaped, the C0 controls written as \u00xx;
 *    escape__json_script also writes '<' as \u003c (JSON in an HTML page).
 *  - Terminal text (stdout, stderr): escape__term.  Invalid bytes, the C0
 *    controls (ESC, CR, LF, ...), DEL, the C1 controls U+0080-U+009F and the
 *    bidirectional formatting characters (U+061C, U+200E, U+200F,
 *    U+202A-U+202E, U+2066-U+2069) are shown as \xNN, one per byte, so
 *    nothing a name holds moves the cursor, sets a title, starts a line or
 *    reorders the text after it; a backslash is shown as \\, so a name
 *    holding the text "\x1b" does not read as one holding ESC.
 *  - CSV cells: util/csv.h (quoting, and the leading ' of a text cell that
 *    a spreadsheet would run as a formula).
 *  - Protocol buffer strings (pprof's string table): escape__utf8.  Invalid
 *    bytes become U+FFFD, nothing else changes (a proto3 string must be
 *    valid UTF-8; decoders such as protobuf-go refuse the message else).
 *
 * The functions append to a strbuf (git's: always NUL-terminated) and return
 * 0 or -ENOMEM, leaving what they had appended in place on failure.
 */
#ifndef UTIL_ESCAPE_H
#define UTIL_ESCAPE_H

#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

/* U+FFFD REPLACEMENT CHARACTER in UTF-8 */
#define UTF8_REPLACEMENT "\xef\xbf\xbd"
/* utf8__decode's code point for an invalid byte */
#define UTF8_INVALID UINT32_MAX

/*
 * The character at s (n > 0 bytes left): its code point in *cp and its
 * length, or UTF8_INVALID and 1 for an invalid byte.
 */
size_t utf8__decode(const char *s, size_t n, uint32_t *cp);

/*
 * s (n bytes) as XML character data or attribute text.  At most max
 * characters of s are shown: a longer name shows its first max - 2 and
 * "..", nothing when max < 2 (SIZE_MAX: no limit).  An escaped or replaced
 * character counts as one.
 */
int escape__xml(struct strbuf *sb, const char *s, size_t n, size_t max);
/* s (n bytes) as a JSON string literal, with its quotes */
int escape__json(struct strbuf *sb, const char *s, size_t n);
/*
 * The same for JSON inside an HTML <script> element: '<' is written \u003c
 * too, so no "</script" nor "<!--" a name holds can end or bend the element.
 */
int escape__json_script(struct strbuf *sb, const char *s, size_t n);
/* s (n bytes) as valid UTF-8 */
int escape__utf8(struct strbuf *sb, const char *s, size_t n);
/* whether s (n bytes) is valid UTF-8: escape__utf8 would copy it unchanged */
int utf8__valid(const char *s, size_t n);
/* s (n bytes) as terminal text */
int escape__term(struct strbuf *sb, const char *s, size_t n);
/*
 * s (n bytes) as terminal text into buf (size bytes, NUL-terminated),
 * allocating nothing: what does not fit is cut between characters (never
 * inside one's \xNN) and "..." ends the text; size < 4: "" (size 0: nothing).
 */
void escape__term_fixed(char *buf, size_t size, const char *s, size_t n);

/*
 * One printf argument as terminal text: the strbuf holds it, the fixed
 * buffer when memory runs out (a message that says "out of memory" must
 * still show).  TERM_TEXT_INIT, term_text__release; sb may be used between
 * calls as any strbuf.
 */
#define TERM_TEXT_FIXED 1024
struct term_text {
	struct strbuf sb;
	char fixed[TERM_TEXT_FIXED];
};
#define TERM_TEXT_INIT { STRBUF_INIT, "" }
/*
 * The string s as terminal text, replacing what t held: t->sb.buf, or when
 * memory ran out t->fixed, cut with "..." past TERM_TEXT_FIXED - 1 bytes
 * (escape__term_fixed).  NULL s: "".  Valid until the next call with t.
 */
const char *escape__term_str(struct term_text *t, const char *s);
void term_text__release(struct term_text *t);

#endif

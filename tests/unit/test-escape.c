/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests for util/escape (names as XML, JSON, terminal text) and the
 * CSV writer's formula rule: every byte value, the UTF-8 boundaries of the
 * Unicode standard's table 3-7, U+FFFE/U+FFFF, encoded surrogates and code
 * points past U+10FFFF.  The decoder is checked against glibc's iconv.
 */
#include <errno.h>
#include <iconv.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/csv.h"
#include "util/escape.h"
#include "util/strbuf.h"

#define FFFD UTF8_REPLACEMENT

/* iconv's reading of s (n bytes) as one UTF-8 character: its code point, or UTF8_INVALID */
static uint32_t iconv_char(iconv_t cd, const unsigned char *s, size_t n)
{
	unsigned char out[8];
	char *in = (char *)s, *op = (char *)out;
	size_t il = n, ol = sizeof(out);

	iconv(cd, NULL, NULL, NULL, NULL);
	if (iconv(cd, &in, &il, &op, &ol) == (size_t)-1 || il || ol != 4)
		return UTF8_INVALID;
	return (uint32_t)out[0] | (uint32_t)out[1] << 8 | (uint32_t)out[2] << 16 | (uint32_t)out[3] << 24;
}

/* utf8__decode on s as a whole character: its code point, or UTF8_INVALID when it takes fewer bytes */
static uint32_t decode_whole(const unsigned char *s, size_t n)
{
	uint32_t cp;
	size_t len = utf8__decode((const char *)s, n, &cp);

	if (cp == UTF8_INVALID) {
		assert_int_equal(len, 1);
		return UTF8_INVALID;
	}
	return len == n ? cp : UTF8_INVALID;
}

/*
 * every 1-, 2- and 3-byte sequence and the 4-byte ones with each second
 * byte and the boundary values of the last two: valid and the same code
 * point as iconv's UTF-8 decoder, or invalid for both
 */
static void test_decode_against_iconv(void **state)
{
	static const unsigned char edge[] = { 0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff };
	iconv_t cd = iconv_open("UTF-32LE", "UTF-8");
	unsigned char s[4];
	unsigned a, b, c, d;
	size_t valid = 0;

	(void)state;
	assert_true(cd != (iconv_t)-1);
	for (a = 0; a < 256; a++) {
		s[0] = (unsigned char)a;
		assert_int_equal(decode_whole(s, 1), iconv_char(cd, s, 1));
		for (b = 0; b < 256; b++) {
			s[1] = (unsigned char)b;
			assert_int_equal(decode_whole(s, 2), iconv_char(cd, s, 2));
			for (c = 0; a >= 0xe0 && a < 0xf0 && c < 256; c++) {
				uint32_t cp;

				s[2] = (unsigned char)c;
				cp = decode_whole(s, 3);
				assert_int_equal(cp, iconv_char(cd, s, 3));
				valid += cp != UTF8_INVALID;
			}
			for (c = 0; a >= 0xf0 && c < sizeof(edge); c++) {
				for (d = 0; d < sizeof(edge); d++) {
					s[2] = edge[c];
					s[3] = edge[d];
					assert_int_equal(decode_whole(s, 4), iconv_char(cd, s, 4));
				}
			}
		}
	}
	/* U+0800-U+FFFF less the 2,048 surrogates */
	assert_int_equal(valid, 0x10000 - 0x800 - 0x800);
	iconv_close(cd);
}

/* the table's boundaries, written out: the code points by hand from the bit patterns */
static void test_decode_boundaries(void **state)
{
	static const struct {
		const char *s;
		uint32_t cp;	/* of the first character */
		size_t len;
	} cases[] = {
		{ "\x7f", 0x7f, 1 },
		{ "\xc2\x80", 0x80, 2 },
		{ "\xdf\xbf", 0x7ff, 2 },
		{ "\xc0\x80", UTF8_INVALID, 1 },	/* overlong U+0000 */
		{ "\xc1\xbf", UTF8_INVALID, 1 },	/* overlong U+007F */
		{ "\xe0\xa0\x80", 0x800, 3 },
		{ "\xe0\x9f\xbf", UTF8_INVALID, 1 },	/* overlong U+07FF */
		{ "\xed\x9f\xbf", 0xd7ff, 3 },
		{ "\xed\xa0\x80", UTF8_INVALID, 1 },	/* U+D800, a surrogate */
		{ "\xed\xbf\xbf", UTF8_INVALID, 1 },	/* U+DFFF */
		{ "\xee\x80\x80", 0xe000, 3 },
		{ "\xef\xbf\xbe", 0xfffe, 3 },
		{ "\xef\xbf\xbf", 0xffff, 3 },
		{ "\xf0\x90\x80\x80", 0x10000, 4 },
		{ "\xf0\x8f\xbf\xbf", UTF8_INVALID, 1 },	/* overlong U+FFFF */
		{ "\xf4\x8f\xbf\xbf", 0x10ffff, 4 },
		{ "\xf4\x90\x80\x80", UTF8_INVALID, 1 },	/* U+110000 */
		{ "\xf7\xbf\xbf\xbf", UTF8_INVALID, 1 },	/* U+1FFFFF */
		{ "\xf8\x88\x80\x80\x80", UTF8_INVALID, 1 },	/* a 5-byte form */
		{ "\xe2\x82", UTF8_INVALID, 1 },	/* cut short */
		{ "\xe2\x82\x41", UTF8_INVALID, 1 },	/* a continuation missing */
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t cp;

		assert_int_equal(utf8__decode(cases[i].s, strlen(cases[i].s), &cp), cases[i].len);
		assert_int_equal(cp, cases[i].cp);
	}
}

typedef int escape_fn(struct strbuf *sb, const char *s, size_t n);

static int xml_all(struct strbuf *sb, const char *s, size_t n)
{
	return escape__xml(sb, s, n, SIZE_MAX);
}

/* f(s) as a NUL-terminated string (static: valid until the next call) */
static const char *esc(escape_fn *f, const char *s, size_t n)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf__reset(&sb);
	assert_int_equal(f(&sb, s, n), 0);
	return sb.buf;
}

#define ESC(f, lit) esc(f, lit, sizeof(lit) - 1)

/* a one-byte name of every value */
static void test_every_byte(void **state)
{
	unsigned b;

	(void)state;
	for (b = 0; b < 256; b++) {
		char s[1] = { (char)b }, want[16];

		/* XML: controls and non-ASCII bytes alone (invalid) are U+FFFD; 5 characters entities */
		if (b < 0x20 || b >= 0x80)
			snprintf(want, sizeof(want), FFFD);
		else if (b == '&' || b == '<' || b == '>' || b == '"')
			snprintf(want, sizeof(want), "%s", b == '&' ? "&amp;" : b == '<' ? "&lt;" : b == '>' ? "&gt;" : "&quot;");
		else
			snprintf(want, sizeof(want), "%c", b);
		assert_string_equal(esc(xml_all, s, 1), want);
		/* JSON */
		if (b < 0x20)
			snprintf(want, sizeof(want), "\"\\u%04x\"", b);
		else if (b >= 0x80)
			snprintf(want, sizeof(want), "\"" FFFD "\"");
		else if (b == '"' || b == '\\')
			snprintf(want, sizeof(want), "\"\\%c\"", b);
		else
			snprintf(want, sizeof(want), "\"%c\"", b);
		assert_string_equal(esc(escape__json, s, 1), want);
		/* terminal: controls, DEL and lone non-ASCII bytes as \xNN, a backslash doubled */
		if (b < 0x20 || b >= 0x7f)
			snprintf(want, sizeof(want), "\\x%02x", b);
		else if (b == '\\')
			snprintf(want, sizeof(want), "\\\\");
		else
			snprintf(want, sizeof(want), "%c", b);
		assert_string_equal(esc(escape__term, s, 1), want);
		/* protobuf strings: a lone non-ASCII byte (invalid) is U+FFFD, every other byte itself */
		if (b >= 0x80)
			snprintf(want, sizeof(want), FFFD);
		else
			snprintf(want, sizeof(want), "%c", b);
		if (b)
			assert_string_equal(esc(escape__utf8, s, 1), want);
		assert_int_equal(utf8__valid(s, 1), b < 0x80);
	}
	/* a NUL inside a name is a character like the others */
	assert_string_equal(ESC(xml_all, "a\0b"), "a" FFFD "b");
	assert_string_equal(ESC(escape__json, "a\0b"), "\"a\\u0000b\"");
	assert_string_equal(ESC(escape__term, "a\0b"), "a\\x00b");
	/* the text \x1b in a name is not ESC on the terminal: its backslash doubled */
	assert_string_equal(ESC(escape__term, "a\\x1b\x1b"), "a\\\\x1b\\x1b");
	/* terminal: the bidi controls (U+202E RIGHT-TO-LEFT OVERRIDE, U+2066, U+200F) as their bytes, other marks pass */
	assert_string_equal(ESC(escape__term, "a\xe2\x80\xae" "b\xe2\x81\xa6" "c\xe2\x80\x8f"),
			    "a\\xe2\\x80\\xaeb\\xe2\\x81\\xa6c\\xe2\\x80\\x8f");
	assert_string_equal(ESC(escape__term, "\xe2\x80\x94\xe2\x80\x8b"), "\xe2\x80\x94\xe2\x80\x8b");
	assert_memory_equal(ESC(escape__utf8, "a\0b"), "a\0b", 4);
	/* protobuf strings: valid UTF-8 unchanged (U+FFFE/U+FFFF and controls too), an invalid byte one U+FFFD */
	assert_string_equal(ESC(escape__utf8, "\x1b]0;t\x07\xef\xbf\xbe\xc3\xa9"), "\x1b]0;t\x07\xef\xbf\xbe\xc3\xa9");
	assert_string_equal(ESC(escape__utf8, "s\xed\xa0\x80 \xf4\x90\x80\x80" "e\xe2\x82"),
			    "s" FFFD FFFD FFFD " " FFFD FFFD FFFD FFFD "e" FFFD FFFD);
	assert_true(utf8__valid("\xc3\xa9\xf4\x8f\xbf\xbf", 6));
	assert_false(utf8__valid("\xc3\xa9\xf4\x8f\xbf", 5));
}

static void test_special_code_points(void **state)
{
	(void)state;
	/* valid characters pass, U+FFFE/U+FFFF are not XML characters */
	assert_string_equal(ESC(xml_all, "\xc3\xa9\xe2\x82\xac\xef\xbf\xbd\xf4\x8f\xbf\xbf"),
			    "\xc3\xa9\xe2\x82\xac\xef\xbf\xbd\xf4\x8f\xbf\xbf");
	assert_string_equal(ESC(xml_all, "a\xef\xbf\xbe" "b\xef\xbf\xbf"), "a" FFFD "b" FFFD);
	assert_string_equal(ESC(xml_all, "\xef\xbf\xbd\xf0\x9f\x8f\xbe"), FFFD "\xf0\x9f\x8f\xbe");
	/* an encoded surrogate: 3 invalid bytes; past U+10FFFF: 4 */
	assert_string_equal(ESC(xml_all, "\xed\xa0\x80"), FFFD FFFD FFFD);
	assert_string_equal(ESC(xml_all, "\xf4\x90\x80\x80"), FFFD FFFD FFFD FFFD);
	assert_string_equal(ESC(xml_all, "x\xe2\x82"), "x" FFFD FFFD);
	assert_string_equal(ESC(xml_all, "a&b<c>d\"e'f\tg\nh\ri\x7fj"),
			    "a&amp;b&lt;c&gt;d&quot;e'f" FFFD "g" FFFD "h" FFFD "i\x7fj");
	/* JSON keeps U+FFFE/U+FFFF (JSON strings may hold any code point) */
	assert_string_equal(ESC(escape__json, "\xef\xbf\xbe\xed\xa0\x80\n"),
			    "\"\xef\xbf\xbe" FFFD FFFD FFFD "\\u000a\"");
	assert_string_equal(ESC(escape__json, "C:\\x \"y\"\x1f"), "\"C:\\\\x \\\"y\\\"\\u001f\"");
	/* in a <script>: '<' as \u003c (no "</script>" nor "<!--"), the rest as escape__json */
	assert_string_equal(ESC(escape__json_script, "a</script><!--\"\x01\xff>"),
			    "\"a\\u003c/script>\\u003c!--\\\"\\u0001" FFFD ">\"");
	assert_string_equal(ESC(escape__json, "a<b"), "\"a<b\"");
	/* terminal: an OSC title, a CSI clear, a forged line, the 8-bit CSI U+009B */
	assert_string_equal(ESC(escape__term, "\x1b]0;pwned\x07"), "\\x1b]0;pwned\\x07");
	assert_string_equal(ESC(escape__term, "f\x1b[2J\r\nreadperf: x"), "f\\x1b[2J\\x0d\\x0areadperf: x");
	assert_string_equal(ESC(escape__term, "a\xc2\x9b" "2J\xc2\xa0\xc3\xa9"), "a\\xc2\\x9b2J\xc2\xa0\xc3\xa9");
	assert_string_equal(ESC(escape__term, "\xc2\x7f\xed\xa0\x80\xef\xbf\xbf"),
			    "\\xc2\\x7f\\xed\\xa0\\x80\xef\xbf\xbf");
}

/* at most max characters: the first max - 2 and ".." */
static void test_xml_cut(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	static const struct {
		const char *s;
		size_t max;
		const char *want;
	} cases[] = {
		{ "abcdef", 6, "abcdef" },
		{ "abcdef", 5, "abc.." },
		{ "abcdef", 2, ".." },
		{ "abcdef", 1, "" },
		{ "abcdef", 0, "" },
		{ "", 0, "" },
		{ "<<<<<<", 4, "&lt;&lt;.." },
		{ "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 4, "\xc3\xa9\xc3\xa9.." },
		{ "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 5, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9" },
		{ "\xff\xff\xff\xff\xff", 4, FFFD FFFD ".." },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		strbuf__reset(&sb);
		assert_int_equal(escape__xml(&sb, cases[i].s, strlen(cases[i].s), cases[i].max), 0);
		assert_string_equal(sb.buf, cases[i].want);
	}
	/* appends */
	strbuf__reset(&sb);
	assert_int_equal(escape__xml(&sb, "a", 1, SIZE_MAX), 0);
	assert_int_equal(escape__json(&sb, "b", 1), 0);
	assert_int_equal(escape__term(&sb, "\n", 1), 0);
	assert_string_equal(sb.buf, "a\"b\"\\x0a");
	strbuf__release(&sb);
	{
		/* the string form replaces what the buffer held */
		struct term_text t = TERM_TEXT_INIT;

		assert_string_equal(escape__term_str(&t, "t\x1b[0m"), "t\\x1b[0m");
		assert_string_equal(escape__term_str(&t, "u"), "u");
		assert_string_equal(escape__term_str(&t, NULL), "");
		term_text__release(&t);
	}
}

/* escape__term_fixed(buf, size, s): what fits, else a cut with "..." */
static void test_term_fixed(void **state)
{
	static const struct {
		const char *s;
		size_t size;
		const char *want;
	} cases[] = {
		{ "abcdefg", 8, "abcdefg" },		/* 7 bytes and the NUL: fits */
		{ "abcdefgh", 8, "abcd..." },		/* 8 + 1 > 8: 4 bytes, "...", the NUL */
		{ "\x1b\x1b", 9, "\\x1b\\x1b" },	/* \xNN twice, 8 bytes: fits in 9 */
		{ "\x1b\x1b", 8, "\\x1b..." },	/* the second \x1b not cut in two */
		{ "a\x1b", 8, "a\\x1b" },		/* 5 bytes: fits */
		{ "ab\x1b\x1b", 8, "ab..." },		/* 10 bytes: ab, and a \x1b would pass the 4 with room for the mark */
		{ "a\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 8, "a\xc3\xa9..." },	/* 4 bytes would cut an e-acute */
		{ "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 9, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9" },
		{ "abcdef", 4, "..." },
		{ "abc", 4, "abc" },
		{ "abcd", 3, "" },			/* no room for the mark */
		{ "", 1, "" },
	};
	char buf[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(buf, 'x', sizeof(buf));
		escape__term_fixed(buf, cases[i].size, cases[i].s, strlen(cases[i].s));
		assert_string_equal(buf, cases[i].want);
	}
	buf[0] = 'x';
	escape__term_fixed(buf, 0, "abc", 3);	/* size 0: nothing written */
	assert_int_equal(buf[0], 'x');
}

/*
 * Every size on a mixed name: the whole escape__term text when it fits, else
 * the escape__term text of the longest character prefix that leaves room
 * for "..." and the NUL, then "..."
 */
static void test_term_fixed_every_size(void **state)
{
	static const char s[] = "ab\x1b[\xc3\xa9\xff\xe2\x82\xac" "c\x7f\xc2\x9b" "d";
	struct strbuf full = STRBUF_INIT, pre = STRBUF_INIT;
	char buf[64];
	size_t size, k, n = strlen(s), best;
	uint32_t cp;

	(void)state;
	assert_int_equal(escape__term(&full, s, n), 0);
	for (size = 0; size < full.len + 3; size++) {
		char want[64];

		memset(buf, 'x', sizeof(buf));
		escape__term_fixed(buf, size, s, n);
		if (size == 0)
			continue;
		if (full.len < size) {
			assert_string_equal(buf, full.buf);
			continue;
		}
		if (size < 4) {
			assert_string_equal(buf, "");
			continue;
		}
		/* the longest prefix of s, cut between characters, whose text is at most size - 4 bytes */
		best = 0;
		for (k = 0; k <= n; k += utf8__decode(s + k, n - k, &cp)) {
			strbuf__reset(&pre);
			assert_int_equal(escape__term(&pre, s, k), 0);
			if (pre.len <= size - 4)
				best = k;
			if (k == n)
				break;
		}
		strbuf__reset(&pre);
		assert_int_equal(escape__term(&pre, s, best), 0);
		snprintf(want, sizeof(want), "%s...", pre.buf);
		assert_string_equal(buf, want);
	}
	strbuf__release(&full);
	strbuf__release(&pre);
}

/* what a CSV writer on a memfd wrote; the descriptor is closed */
static char *csv_text(struct csv *c, int fd)
{
	off_t n;
	char *p;

	assert_int_equal(csv__commit(c), 0);
	n = lseek(fd, 0, SEEK_END);
	p = calloc(1, (size_t)n + 1);
	assert_non_null(p);
	assert_int_equal(pread(fd, p, (size_t)n, 0), n);
	close(fd);
	return p;
}

/* a text cell beginning with = + @ TAB CR gets a leading '; - and numbers do not */
static void test_csv_formula(void **state)
{
	struct csv *c = malloc(sizeof(*c));
	char esc_buf[64], *text;
	int fd, raw;

	(void)state;
	assert_non_null(c);
	for (raw = 0; raw < 2; raw++) {
		size_t n;

		fd = memfd_create("csv", 0);
		assert_true(fd >= 0);
		csv__open_fd(c, fd);
		csv__set_raw_text(c, raw);
		csv__prefix(c, "profile", "@p");
		csv__row(c, (const char *const[]){ "name", "n", NULL });
		csv__str(c, "=HYPERLINK(\"http://x\",\"y\")");
		csv__str(c, "+1");
		csv__str(c, "@SUM(A1)");
		csv__str(c, "\tx");
		csv__str(c, "\rx");
		csv__str(c, "-bash");
		csv__str(c, "a=b");
		csv__str(c, "=cmd|' /C calc'!A0");
		csv__i64(c, -5);
		csv__str(c, "");
		csv__end_row(c);
		/* the pre-escaped path writes what csv__str does */
		n = csv__escape(c, esc_buf, "=a,b", 4);
		esc_buf[n++] = ',';
		n += csv__escape(c, esc_buf + n, "+x", 2);
		csv__text(c, esc_buf, n);
		csv__str(c, "=a,b");
		csv__str(c, "+x");
		csv__end_row(c);
		text = csv_text(c, fd);
		if (!raw)
			assert_string_equal(text,
				"profile,name,n\n"
				"'@p,\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",'+1,'@SUM(A1),'\tx,\"'\rx\",-bash,a=b,"
				"'=cmd|' /C calc'!A0,-5,\n"
				"'@p,\"'=a,b\",'+x,\"'=a,b\",'+x\n");
		else
			assert_string_equal(text,
				"profile,name,n\n"
				"@p,\"=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",+1,@SUM(A1),\tx,\"\rx\",-bash,a=b,"
				"=cmd|' /C calc'!A0,-5,\n"
				"@p,\"=a,b\",+x,\"=a,b\",+x\n");
		free(text);
	}
	free(c);
}

/* every first byte: csv__escape and csv__str agree, and only the five get the ' */
static void test_csv_formula_every_byte(void **state)
{
	struct csv *c = malloc(sizeof(*c));
	struct strbuf want = STRBUF_INIT;
	char esc_buf[16], *text;
	unsigned b;
	int fd = memfd_create("csv", 0);

	(void)state;
	assert_non_null(c);
	assert_true(fd >= 0);
	csv__open_fd(c, fd);
	for (b = 0; b < 256; b++) {
		char s[2] = { (char)b, 'x' };
		int quoted = b == ',' || b == '"' || b == '\n' || b == '\r';
		int lead = b == '=' || b == '+' || b == '@' || b == '\t' || b == '\r';
		size_t n = csv__escape(c, esc_buf, s, 2);

		csv__text(c, esc_buf, n);
		csv__strn(c, s, 2);
		csv__end_row(c);
		strbuf__reset(&want);
		strbuf__addf(&want, "%s%s%s%s%cx%s", quoted ? "\"" : "", lead ? "'" : "",
			     b == '"' ? "\"" : "", "", (char)b, quoted ? "\"" : "");
		assert_int_equal(n, want.len);
		assert_memory_equal(esc_buf, want.buf, n);
	}
	text = csv_text(c, fd);
	/* each row is the pre-escaped field twice */
	{
		const char *p = text;

		for (b = 0; b < 256; b++) {
			char s[2] = { (char)b, 'x' }, e[16];
			size_t n = csv__escape(c, e, s, 2);

			assert_memory_equal(p, e, n);
			assert_int_equal(p[n], ',');
			assert_memory_equal(p + n + 1, e, n);
			assert_int_equal(p[2 * n + 1], '\n');
			p += 2 * n + 2;
		}
		assert_int_equal(*p, '\0');
	}
	free(text);
	strbuf__release(&want);
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_against_iconv),
		cmocka_unit_test(test_decode_boundaries),
		cmocka_unit_test(test_every_byte),
		cmocka_unit_test(test_special_code_points),
		cmocka_unit_test(test_xml_cut),
		cmocka_unit_test(test_term_fixed),
		cmocka_unit_test(test_term_fixed_every_size),
		cmocka_unit_test(test_csv_formula),
		cmocka_unit_test(test_csv_formula_every_byte),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target: names through every escaper of the text outputs
 * (util/escape.h: XML, JSON, terminal, protobuf UTF-8; util/csv.h: a CSV field), each
 * result checked well-formed by code that does not share the escapers'
 * decoder -- glibc's iconv says what is UTF-8, the checks below what each
 * format allows -- and, where the name was already fit to show, read back
 * to the name.  The first input byte is the XML cut (255: none), the
 * second's low bit --raw-csv; the rest is the name.  Any failed check
 * aborts.  Built and run by `make fuzz`.
 */
#include <iconv.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/csv.h"
#include "util/escape.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

/* s as code points (iconv's UTF-8 decoder) into *out; their number, or -1 when s is not UTF-8 */
static long code_points(const char *s, size_t n, uint32_t **out)
{
	static iconv_t cd = (iconv_t)-1;
	uint32_t *cps = malloc((n + 1) * 4);
	char *in = (char *)s, *op = (char *)cps;
	size_t il = n, ol = (n + 1) * 4;

	CHECK(cps);
	if (cd == (iconv_t)-1)
		cd = iconv_open("UTF-32LE", "UTF-8");
	CHECK(cd != (iconv_t)-1);
	iconv(cd, NULL, NULL, NULL, NULL);
	if (iconv(cd, &in, &il, &op, &ol) == (size_t)-1 || il) {
		free(cps);
		return -1;
	}
	*out = cps;
	return (long)((n + 1) * 4 - ol) / 4;
}

/* XML 1.0's Char production, less the C0 controls escape__xml also keeps out */
static int xml_char(uint32_t c)
{
	return (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
}

/* every character allowed; '&' only in the four references; no '<' nor '"' */
static void check_xml(const char *s, size_t n, size_t max, const char *name, size_t name_len)
{
	static const char *const refs[] = { "&amp;", "&lt;", "&gt;", "&quot;" };
	uint32_t *cp = NULL;
	long k = code_points(s, n, &cp), i, chars = 0;
	size_t at = 0;	/* the byte offset of cp[i] */

	CHECK(k >= 0);
	for (i = 0; i < k; i++, chars++) {
		CHECK(xml_char(cp[i]) && cp[i] != '<' && cp[i] != '"');
		if (cp[i] == '&') {
			size_t r, rl = 0;

			for (r = 0; r < 4 && !rl; r++) {
				size_t l = strlen(refs[r]);

				if (n - at >= l && !memcmp(s + at, refs[r], l))
					rl = l;
			}
			CHECK(rl);
			i += (long)rl - 1;	/* all ASCII */
			at += rl;
			continue;
		}
		at += cp[i] < 0x80 ? 1 : cp[i] < 0x800 ? 2 : cp[i] < 0x10000 ? 3 : 4;
	}
	CHECK(at == n);
	CHECK(max == SIZE_MAX || (size_t)chars <= max);
	/* a name of plain characters, shown whole: itself */
	if (max == SIZE_MAX) {
		uint32_t *ncp = NULL;
		long nk = code_points(name, name_len, &ncp);
		int plain = nk >= 0;

		for (i = 0; plain && i < nk; i++)
			plain = xml_char(ncp[i]) && !strchr("&<>\"", (int)ncp[i]);
		if (plain)
			CHECK(n == name_len && !memcmp(s, name, n));
		free(ncp);
	}
	free(cp);
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/*
 * RFC 8259's string: quotes around, no raw control, escapes of its list;
 * read back it is the name when the name is UTF-8
 */
static void check_json(const char *s, size_t n, const char *name, size_t name_len)
{
	struct strbuf back = STRBUF_INIT;
	uint32_t *cp = NULL;
	size_t i;

	CHECK(code_points(s, n, &cp) >= 0);
	free(cp);
	CHECK(n >= 2 && s[0] == '"' && s[n - 1] == '"');
	for (i = 1; i < n - 1; i++) {
		unsigned char c = (unsigned char)s[i];

		CHECK(c >= 0x20 && c != '"');
		if (c != '\\') {
			CHECK(!strbuf__addch(&back, (char)c));
			continue;
		}
		CHECK(i + 1 < n - 1);
		c = (unsigned char)s[++i];
		if (c == 'u') {
			int v = 0, k;

			CHECK(i + 4 < n - 1);
			for (k = 1; k <= 4; k++) {
				CHECK(hexval(s[i + k]) >= 0);
				v = v * 16 + hexval(s[i + k]);
			}
			CHECK(v < 0x20);	/* only controls are \u-escaped */
			CHECK(!strbuf__addch(&back, (char)v));
			i += 4;
		} else {
			CHECK(strchr("\"\\/bfnrt", c) && c);
			CHECK(!strbuf__addch(&back, c == 'b' ? '\b' : c == 'f' ? '\f' : c == 'n' ? '\n' :
					     c == 'r' ? '\r' : c == 't' ? '\t' : (char)c));
		}
	}
	if (code_points(name, name_len, &cp) >= 0) {
		free(cp);
		CHECK(back.len == name_len && !memcmp(back.buf, name, name_len));
	}
	strbuf__release(&back);
}

/* what the terminal shows as it is: no C0, DEL nor C1 control, no bidi formatting character */
static int term_plain(uint32_t c)
{
	return c >= 0x20 && (c < 0x7f || c > 0x9f) && c != 0x061c && c != 0x200e && c != 0x200f &&
	       (c < 0x202a || c > 0x202e) && (c < 0x2066 || c > 0x2069);
}

/*
 * only term_plain characters; UTF-8; read back (\\ a backslash, \xNN a
 * byte, every other character itself), the name
 */
static void check_term(const char *s, size_t n, const char *name, size_t name_len)
{
	struct strbuf back = STRBUF_INIT;
	uint32_t *cp = NULL;
	long k = code_points(s, n, &cp), i;
	size_t j;

	CHECK(k >= 0);
	for (i = 0; i < k; i++)
		CHECK(term_plain(cp[i]));
	free(cp);
	for (j = 0; j < n; j++) {
		char c = s[j];

		if (c == '\\') {
			CHECK(j + 1 < n && (s[j + 1] == '\\' || s[j + 1] == 'x'));
			if (s[j + 1] == 'x') {
				CHECK(j + 3 < n && hexval(s[j + 2]) >= 0 && hexval(s[j + 3]) >= 0);
				c = (char)(hexval(s[j + 2]) << 4 | hexval(s[j + 3]));
				j += 2;
			}
			j++;
		}
		CHECK(!strbuf__addch(&back, c));
	}
	CHECK(back.len == name_len && !memcmp(back.buf, name, name_len));
	strbuf__release(&back);
}

/* RFC 4180: read back, the field is the name, with a ' before a formula's first byte */
static void check_utf8(const char *s, size_t n, const char *name, size_t name_len)
{
	uint32_t *cps;
	long nc = code_points(s, n, &cps);

	CHECK(nc >= 0);
	free(cps);
	if (code_points(name, name_len, &cps) >= 0) {
		free(cps);
		CHECK(n == name_len && !memcmp(s, name, n));
	}
}

static void check_csv(const struct csv *c, const char *name, size_t len, int raw)
{
	char *f = malloc(2 * len + 3);
	struct strbuf back = STRBUF_INIT;
	size_t n, i;
	int formula = !raw && len && name[0] && strchr("=+@\t\r", name[0]);

	CHECK(f);
	n = csv__escape(c, f, name, len);
	CHECK(n <= 2 * len + 3);
	if (n && f[0] == '"') {
		CHECK(n >= 2 && f[n - 1] == '"');
		for (i = 1; i < n - 1; i++) {
			if (f[i] == '"') {
				CHECK(f[i + 1] == '"' && i + 1 < n - 1);
				i++;
			}
			CHECK(!strbuf__addch(&back, f[i]));
		}
	} else {
		for (i = 0; i < n; i++)
			CHECK(!strchr(",\"\r\n", f[i]) || !f[i]);
		CHECK(!strbuf__add(&back, f, n));
	}
	CHECK(back.len == len + (size_t)formula);
	CHECK(!formula || back.buf[0] == '\'');
	CHECK(!memcmp(back.buf + formula, name, len));
	strbuf__release(&back);
	free(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct csv c;	/* 64 KiB: never opened, only its settings used */
	struct strbuf sb = STRBUF_INIT;
	const char *name = (const char *)data + 2;
	size_t len, max;
	int raw;

	if (size < 2)
		return 0;
	max = data[0] == 255 ? SIZE_MAX : data[0];
	raw = data[1] & 1;
	len = size - 2;
	CHECK(!escape__xml(&sb, name, len, max));
	check_xml(sb.buf, sb.len, max, name, len);
	strbuf__reset(&sb);
	CHECK(!escape__json(&sb, name, len));
	check_json(sb.buf, sb.len, name, len);
	strbuf__reset(&sb);
	CHECK(!escape__term(&sb, name, len));
	check_term(sb.buf, sb.len, name, len);
	/* protobuf strings: UTF-8 out (iconv's word), a name that was UTF-8 unchanged */
	strbuf__reset(&sb);
	CHECK(!escape__utf8(&sb, name, len));
	check_utf8(sb.buf, sb.len, name, len);
	strbuf__release(&sb);
	csv__open_fd(&c, -1);
	csv__set_raw_text(&c, raw);
	check_csv(&c, name, len, raw);
	return 0;
}

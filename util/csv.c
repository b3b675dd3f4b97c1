/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CSV writer with atomic replace (temporary file + rename). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"

static char *path_join(const char *dir, const char *prefix, const char *name,
		       const char *suffix)
{
	size_t n = strlen(dir) + strlen(prefix) + strlen(name) + strlen(suffix) + 32;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s%s%s", dir, prefix, name, suffix);
	return p;
}

int csv__open(struct csv *c, const char *dir, const char *name)
{
	char suffix[32];

	memset(c, 0, sizeof(*c));
	snprintf(suffix, sizeof(suffix), ".tmp.%ld", (long)getpid());
	c->path = path_join(dir, "", name, "");
	c->tmp_path = path_join(dir, ".", name, suffix);
	if (!c->path || !c->tmp_path) {
		csv__abort(c);
		return -ENOMEM;
	}
	c->fp = fopen(c->tmp_path, "w");
	if (!c->fp) {
		int err = -errno;

		csv__abort(c);
		return err;
	}
	setvbuf(c->fp, NULL, _IOFBF, 1 << 16);
	return 0;
}

void csv__open_stream(struct csv *c, FILE *fp)
{
	memset(c, 0, sizeof(*c));
	c->fp = fp;
}

static void sep(struct csv *c)
{
	if (c->need_sep)
		putc(',', c->fp);
	c->need_sep = 1;
}

void csv__strn(struct csv *c, const char *s, size_t len)
{
	size_t i;
	int quote = 0;

	sep(c);
	for (i = 0; i < len; i++) {
		if (s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r') {
			quote = 1;
			break;
		}
	}
	if (!quote) {
		fwrite(s, 1, len, c->fp);
		return;
	}
	putc('"', c->fp);
	for (i = 0; i < len; i++) {
		if (s[i] == '"')
			putc('"', c->fp);
		putc(s[i], c->fp);
	}
	putc('"', c->fp);
}

void csv__str(struct csv *c, const char *s)
{
	csv__strn(c, s ? s : "", s ? strlen(s) : 0);
}

void csv__empty(struct csv *c)
{
	sep(c);
}

void csv__u64(struct csv *c, uint64_t v)
{
	char buf[24], *p = buf + sizeof(buf);

	sep(c);
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), c->fp);
}

void csv__i64(struct csv *c, int64_t v)
{
	if (v < 0) {
		sep(c);
		c->need_sep = 0;
		putc('-', c->fp);
		csv__u64(c, (uint64_t)0 - (uint64_t)v);
		return;
	}
	csv__u64(c, (uint64_t)v);
}

void csv__hex(struct csv *c, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char buf[20], *p = buf + sizeof(buf);

	/* by hand: this runs for every overview row, fprintf is measurable there */
	sep(c);
	do {
		*--p = digits[v & 0xf];
		v >>= 4;
	} while (v);
	*--p = 'x';
	*--p = '0';
	fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), c->fp);
}

void csv__pct(struct csv *c, uint64_t num, uint64_t den)
{
	/* exact decimal rounding in integers: 100.0000 * num / den, half up */
	unsigned __int128 q;
	uint64_t whole, frac;

	sep(c);
	if (!den) {
		fputs("0.0000", c->fp);
		return;
	}
	q = ((unsigned __int128)num * 1000000 * 2 + den) / ((unsigned __int128)den * 2);
	whole = (uint64_t)(q / 10000);
	frac = (uint64_t)(q % 10000);
	fprintf(c->fp, "%" PRIu64 ".%04" PRIu64, whole, frac);
}

void csv__row(struct csv *c, const char *const *fields)
{
	while (*fields)
		csv__str(c, *fields++);
	csv__end_row(c);
}

void csv__end_row(struct csv *c)
{
	putc('\n', c->fp);
	c->need_sep = 0;
}

int csv__commit(struct csv *c)
{
	int err = c->err;

	if (!c->fp)
		return err ? err : -EBADF;
	if (ferror(c->fp) && !err)
		err = -EIO;
	if (!c->tmp_path) {		/* a borrowed stream */
		if (fflush(c->fp) && !err)
			err = -errno;
		c->fp = NULL;
		return err;
	}
	if (fclose(c->fp) && !err)
		err = -errno;
	c->fp = NULL;
	if (!err && rename(c->tmp_path, c->path))
		err = -errno;
	if (err)
		unlink(c->tmp_path);
	free(c->tmp_path);
	free(c->path);
	c->tmp_path = c->path = NULL;
	return err;
}

void csv__abort(struct csv *c)
{
	if (c->fp && c->tmp_path) {
		fclose(c->fp);
		unlink(c->tmp_path);
	}
	c->fp = NULL;
	free(c->tmp_path);
	free(c->path);
	c->tmp_path = c->path = NULL;
}

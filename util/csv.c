/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CSV writer with atomic replace (temporary file + rename). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

	c->fp = NULL;
	c->need_sep = c->in_row = 0;
	c->pfx_hdr = c->pfx_val = NULL;
	c->err = 0;
	c->len = 0;
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
	c->fp = fp;
	c->tmp_path = c->path = NULL;
	c->need_sep = c->in_row = 0;
	c->pfx_hdr = c->pfx_val = NULL;
	c->err = 0;
	c->len = 0;
}

static void flush_buf(struct csv *c)
{
	if (c->len && fwrite(c->buf, 1, c->len, c->fp) != c->len && !c->err)
		c->err = errno ? -errno : -EIO;	/* ENOSPC, EDQUOT, ... as the kernel said */
	c->len = 0;
}

static void put(struct csv *c, const char *p, size_t n)
{
	if (n <= 32 && sizeof(c->buf) - c->len >= 32) {
		/* names and numbers: a loop beats a library call this short */
		char *d = c->buf + c->len;

		for (size_t i = 0; i < n; i++)
			d[i] = p[i];
		c->len += n;
		return;
	}
	if (n > sizeof(c->buf) - c->len) {
		flush_buf(c);
		if (n > sizeof(c->buf)) {
			if (fwrite(p, 1, n, c->fp) != n && !c->err)
				c->err = errno ? -errno : -EIO;
			return;
		}
	}
	memcpy(c->buf + c->len, p, n);
	c->len += n;
}

static void put_ch(struct csv *c, char ch)
{
	if (c->len == sizeof(c->buf))
		flush_buf(c);
	c->buf[c->len++] = ch;
}

static void put_field(struct csv *c, const char *s, size_t len);

static void sep(struct csv *c)
{
	if (c->need_sep) {
		put_ch(c, ',');
	} else if (!c->in_row && c->pfx_val) {
		const char *v = c->rows ? c->pfx_val : c->pfx_hdr;

		put_field(c, v, strlen(v));
		put_ch(c, ',');
	}
	c->in_row = 1;
	c->need_sep = 1;
}

void csv__prefix(struct csv *c, const char *header, const char *value)
{
	c->pfx_hdr = header;
	c->pfx_val = value;
	c->rows = header ? 0 : 1;
}

void csv__strn(struct csv *c, const char *s, size_t len)
{
	sep(c);
	put_field(c, s, len);
}

/* one field's text, quoted when it holds , " \r or \n */
static void put_field(struct csv *c, const char *s, size_t len)
{
	size_t i;
	int quote = 0;

	for (i = 0; i < len; i++) {
		if (s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r') {
			quote = 1;
			break;
		}
	}
	if (!quote) {
		put(c, s, len);
		return;
	}
	put_ch(c, '"');
	for (i = 0; i < len; i++) {
		if (s[i] == '"')
			put_ch(c, '"');
		put_ch(c, s[i]);
	}
	put_ch(c, '"');
}

void csv__str(struct csv *c, const char *s)
{
	csv__strn(c, s ? s : "", s ? strlen(s) : 0);
}

void csv__empty(struct csv *c)
{
	sep(c);
}

/* two digits per step: this formats most of overview.csv */
static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* room for n more bytes in buf (n is small) */
static void reserve(struct csv *c, size_t n)
{
	if (sizeof(c->buf) - c->len < n)
		flush_buf(c);
}

static unsigned decimal_digits(uint64_t v)
{
	unsigned n = 1;

	while (v >= 10000) {
		v /= 10000;
		n += 4;
	}
	return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

/* straight into the buffer, two digits a step: this is most of overview.csv */
void csv__u64(struct csv *c, uint64_t v)
{
	unsigned n = decimal_digits(v);
	char *p;

	sep(c);
	reserve(c, 20);
	p = c->buf + c->len + n;
	c->len += n;
	while (v >= 100) {
		unsigned i = (unsigned)(v % 100) * 2;

		v /= 100;
		*--p = digit_pairs[i + 1];
		*--p = digit_pairs[i];
	}
	if (v >= 10) {
		*--p = digit_pairs[v * 2 + 1];
		*--p = digit_pairs[v * 2];
	} else {
		*--p = (char)('0' + v);
	}
}

void csv__i64(struct csv *c, int64_t v)
{
	if (v < 0) {
		sep(c);
		c->need_sep = 0;
		put_ch(c, '-');
		csv__u64(c, (uint64_t)0 - (uint64_t)v);
		return;
	}
	csv__u64(c, (uint64_t)v);
}

void csv__hex(struct csv *c, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	unsigned n = v ? (unsigned)(64 - __builtin_clzll(v) + 3) / 4 : 1;
	char *p;

	sep(c);
	reserve(c, 18);
	c->buf[c->len] = '0';
	c->buf[c->len + 1] = 'x';
	p = c->buf + c->len + 2 + n;
	c->len += 2 + n;
	do {
		*--p = digits[v & 0xf];
		v >>= 4;
	} while (--n);
}

void csv__pct(struct csv *c, uint64_t num, uint64_t den)
{
	/* exact decimal rounding in integers: 100.0000 * num / den, half up */
	unsigned __int128 q;
	uint64_t whole, frac;

	sep(c);
	if (!den) {
		put(c, "0.0000", 6);
		return;
	}
	q = ((unsigned __int128)num * 1000000 * 2 + den) / ((unsigned __int128)den * 2);
	whole = (uint64_t)(q / 10000);
	frac = (uint64_t)(q % 10000);
	{
		char buf[48];
		int n = snprintf(buf, sizeof(buf), "%" PRIu64 ".%04" PRIu64, whole, frac);

		put(c, buf, (size_t)n);
	}
}

void csv__row(struct csv *c, const char *const *fields)
{
	while (*fields)
		csv__str(c, *fields++);
	csv__end_row(c);
}

void csv__end_row(struct csv *c)
{
	put_ch(c, '\n');
	c->need_sep = c->in_row = 0;
	c->rows++;
}

int csv__commit(struct csv *c)
{
	int err = c->err;

	if (!c->fp)
		return err ? err : -EBADF;
	flush_buf(c);
	err = c->err;
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

/* a staging directory's files, then the directory; 0 or -errno */
/*
 * Remove a directory of plain files (a staging directory) without
 * allocating: it runs after an allocation failed, to leave the previous
 * reports as they were.  getdents64 into a stack buffer, unlinkat on each
 * entry; a pass that removes something is followed by another, as the
 * listing may skip entries while it shrinks.
 */
static int remove_tree(const char *path)
{
	char buf[4096] __attribute__((aligned(8)));
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), err = 0, pass, removed = 1;
	ssize_t n, off;

	if (fd < 0)
		return -errno;
	for (pass = 0; removed && pass < 64; pass++) {
		removed = 0;
		if (lseek(fd, 0, SEEK_SET) < 0)
			break;
		while ((n = getdents64(fd, buf, sizeof(buf))) > 0) {
			for (off = 0; off < n; ) {
				const struct dirent64 *e = (const struct dirent64 *)(buf + off);

				off += e->d_reclen;
				if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
					continue;
				if (unlinkat(fd, e->d_name, 0))
					err = -errno;
				else
					removed = 1;
			}
		}
		if (n < 0 && !err)
			err = -errno;
	}
	close(fd);
	if (rmdir(path) && !err)
		err = -errno;
	return err;
}

int csv_txn__begin(struct csv_txn *t, const char *dir)
{
	char suffix[32];

	t->dir = dir;
	snprintf(suffix, sizeof(suffix), ".tmp.%ld", (long)getpid());
	t->stage = path_join(dir, ".", "readperf-reports", suffix);
	if (!t->stage)
		return -ENOMEM;
	if (mkdir(t->stage, 0777) && errno != EEXIST) {
		int err = -errno;

		free(t->stage);
		t->stage = NULL;
		return err;
	}
	return 0;
}

int csv_txn__commit(struct csv_txn *t)
{
	DIR *d = opendir(t->stage);
	struct dirent *e;
	int err = 0;

	if (!d)
		return -errno;
	/* renames need no space: once every report is whole, they all go in */
	while (!err && (e = readdir(d))) {
		char *from, *to;

		if (e->d_name[0] == '.')
			continue;
		from = path_join(t->stage, "", e->d_name, "");
		to = path_join(t->dir, "", e->d_name, "");
		if (!from || !to)
			err = -ENOMEM;
		else if (rename(from, to))
			err = -errno;
		free(from);
		free(to);
	}
	closedir(d);
	csv_txn__abort(t);
	return err;
}

void csv_txn__abort(struct csv_txn *t)
{
	if (t->stage)
		remove_tree(t->stage);
	free(t->stage);
	t->stage = NULL;
}

int csv__remove_stale(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		const char *t = e->d_name[0] == '.' ? strstr(e->d_name, ".tmp.") : NULL;
		char *end, *path;
		long pid;

		if (!t || t == e->d_name)
			continue;
		pid = strtol(t + 5, &end, 10);
		if (*end || pid <= 0 || pid == (long)getpid() || !(kill((pid_t)pid, 0) && errno == ESRCH))
			continue;
		path = path_join(dir, "", e->d_name, "");
		/* a temporary report, or a staging directory of reports (csv_txn) */
		if (path && (!unlink(path) || ((errno == EISDIR || errno == EPERM) && !remove_tree(path))))
			n++;
		free(path);
	}
	closedir(d);
	return n;
}

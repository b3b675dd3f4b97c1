/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CSV writer with atomic replace (temporary file + rename). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/csv.h"
#include "util/escape.h"
#include "util/fs.h"

static char *path_join(const char *dir, const char *prefix, const char *name,
		       const char *suffix)
{
	size_t n = strlen(dir) + strlen(prefix) + strlen(name) + strlen(suffix) + 32;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s%s%s", dir, prefix, name, suffix);
	return p;
}

static void init(struct csv *c, int fd)
{
	c->fd = fd;
	c->tmp_path = c->path = NULL;
	c->need_sep = c->in_row = 0;
	c->raw_text = 0;
	c->pfx_hdr = c->pfx_val = NULL;
	c->rows = 0;
	c->err = 0;
	c->len = 0;
	strbuf__init(&c->esc);
}

int csv__open(struct csv *c, const char *dir, const char *name)
{
	char suffix[32];

	init(c, -1);
	snprintf(suffix, sizeof(suffix), ".tmp.%ld", (long)getpid());
	c->path = path_join(dir, "", name, "");
	c->tmp_path = path_join(dir, ".", name, suffix);
	if (!c->path || !c->tmp_path) {
		csv__abort(c);
		return -ENOMEM;
	}
	c->fd = open(c->tmp_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (c->fd < 0) {
		int err = -errno;

		csv__abort(c);
		return err;
	}
	return 0;
}

void csv__open_fd(struct csv *c, int fd)
{
	init(c, fd);
}

void csv__set_raw_text(struct csv *c, int raw)
{
	c->raw_text = raw;
}

/* all of p to the file: partial writes continued, EINTR retried; the first error kept */
static void write_all(struct csv *c, const char *p, size_t n)
{
	while (n && !c->err) {
		ssize_t w = write(c->fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			c->err = w < 0 ? -errno : -EIO;	/* ENOSPC, EDQUOT, ... as the kernel said */
			break;
		}
		p += w;
		n -= (size_t)w;
	}
}

static void flush_buf(struct csv *c)
{
	write_all(c, c->buf, c->len);
	c->len = 0;
}

/* room for n more bytes in buf (n is small) */
static inline void reserve(struct csv *c, size_t n)
{
	if (__builtin_expect(sizeof(c->buf) - c->len < n, 0))
		flush_buf(c);
}

static void put(struct csv *c, const char *p, size_t n)
{
	if (n > sizeof(c->buf) - c->len) {
		flush_buf(c);
		if (n >= sizeof(c->buf)) {
			write_all(c, p, n);
			return;
		}
	}
	memcpy(c->buf + c->len, p, n);
	c->len += n;
}

static inline void put_ch(struct csv *c, char ch)
{
	reserve(c, 1);
	c->buf[c->len++] = ch;
}

static void put_field(struct csv *c, const char *s, size_t len);

/* the first field of a row: the csv__prefix column in front of it */
static void __attribute__((noinline)) first_sep(struct csv *c)
{
	if (!c->in_row && c->pfx_val) {
		const char *v = c->rows ? c->pfx_val : c->pfx_hdr;

		put_field(c, v, strlen(v));
		put_ch(c, ',');
	}
	c->in_row = 1;
	c->need_sep = 1;
}

/* the separator before a field, with room for n bytes after it */
static inline void sep(struct csv *c, size_t n)
{
	if (__builtin_expect(c->need_sep, 1)) {
		reserve(c, n + 1);
		c->buf[c->len++] = ',';
		return;
	}
	first_sep(c);
	reserve(c, n);
}

void csv__prefix(struct csv *c, const char *header, const char *value)
{
	c->pfx_hdr = header;
	c->pfx_val = value;
	c->rows = header ? 0 : 1;
}

void csv__strn(struct csv *c, const char *s, size_t len)
{
	sep(c, 0);
	put_field(c, s, len);
}

/* bytes that make a field quoted */
static inline int special(char ch)
{
	return ch == ',' || ch == '"' || ch == '\n' || ch == '\r';
}

/* text a spreadsheet would take for a formula: it gets a leading ' (csv.h) */
static inline int formula(const struct csv *c, const char *s, size_t len)
{
	return len && !c->raw_text &&
	       (s[0] == '=' || s[0] == '+' || s[0] == '@' || s[0] == '\t' || s[0] == '\r');
}

size_t csv__escape(const struct csv *c, char *dst, const char *s, size_t len)
{
	size_t i, n = 0;
	int quote;

	for (i = 0; i < len && !special(s[i]); i++)
		;
	quote = i < len;
	if (quote)
		dst[n++] = '"';
	if (formula(c, s, len))
		dst[n++] = '\'';
	if (!quote) {
		memcpy(dst + n, s, len);
		return n + len;
	}
	for (i = 0; i < len; i++) {
		if (s[i] == '"')
			dst[n++] = '"';
		dst[n++] = s[i];
	}
	dst[n++] = '"';
	return n;
}

/* one field's text, quoted when it holds , " \r or \n; the formula rule */
static void put_field(struct csv *c, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len && !special(s[i]); i++)
		;
	if (i == len) {
		if (__builtin_expect(formula(c, s, len), 0))
			put_ch(c, '\'');
		put(c, s, len);
		return;
	}
	put_ch(c, '"');
	if (formula(c, s, len))
		put_ch(c, '\'');
	for (i = 0; i < len; i++) {
		if (s[i] == '"')
			put_ch(c, '"');
		put_ch(c, s[i]);
	}
	put_ch(c, '"');
}

void csv__text(struct csv *c, const char *text, size_t len)
{
	sep(c, 0);
	put(c, text, len);
}

void csv__str(struct csv *c, const char *s)
{
	csv__strn(c, s ? s : "", s ? strlen(s) : 0);
}

void csv__empty(struct csv *c)
{
	sep(c, 0);
}

/* two digits per step: this formats most of overview.csv */
static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static const uint64_t pow10[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
	100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
	10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL
};

/* from the bit length (1233 / 4096 ~ log10 2), without a division loop */
static inline unsigned decimal_digits(uint64_t v)
{
	unsigned t = ((unsigned)(64 - __builtin_clzll(v | 1)) * 1233) >> 12;

	return v ? t + (v >= pow10[t]) : 1;
}

/* v's digits into dst, which has room for 20; their number */
static inline unsigned format_u64(char *dst, uint64_t v)
{
	unsigned n = decimal_digits(v);
	char *p = dst + n;

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
	return n;
}

static inline void put_digits(struct csv *c, uint64_t v)
{
	c->len += format_u64(c->buf + c->len, v);
}

size_t csv__format_i64(char *dst, int64_t v)
{
	if (v < 0) {
		*dst = '-';
		return 1 + format_u64(dst + 1, (uint64_t)0 - (uint64_t)v);
	}
	return format_u64(dst, (uint64_t)v);
}

void csv__u64(struct csv *c, uint64_t v)
{
	sep(c, 20);
	put_digits(c, v);
}

void csv__i64(struct csv *c, int64_t v)
{
	sep(c, 21);
	if (v < 0) {
		c->buf[c->len++] = '-';
		put_digits(c, (uint64_t)0 - (uint64_t)v);
		return;
	}
	put_digits(c, (uint64_t)v);
}

void csv__hex(struct csv *c, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	unsigned n = v ? (unsigned)(64 - __builtin_clzll(v) + 3) / 4 : 1;
	char *p;

	sep(c, 18);
	c->buf[c->len] = '0';
	c->buf[c->len + 1] = 'x';
	p = c->buf + c->len + 2 + n;
	c->len += 2 + n;
	/* a byte (two digits) a step, then the odd leading digit */
	for (; n >= 2; n -= 2, v >>= 8) {
		*--p = digits[v & 0xf];
		*--p = digits[(v >> 4) & 0xf];
	}
	if (n)
		*--p = digits[v & 0xf];
}

void csv__pct(struct csv *c, uint64_t num, uint64_t den)
{
	/* exact decimal rounding in integers: 100.0000 * num / den, half up */
	unsigned __int128 q;
	uint64_t frac;

	sep(c, 26);
	if (!den) {
		put(c, "0.0000", 6);
		return;
	}
	q = ((unsigned __int128)num * 1000000 * 2 + den) / ((unsigned __int128)den * 2);
	frac = (uint64_t)(q % 10000);
	put_digits(c, (uint64_t)(q / 10000));
	c->buf[c->len++] = '.';
	c->buf[c->len++] = digit_pairs[frac / 100 * 2];
	c->buf[c->len++] = digit_pairs[frac / 100 * 2 + 1];
	c->buf[c->len++] = digit_pairs[frac % 100 * 2];
	c->buf[c->len++] = digit_pairs[frac % 100 * 2 + 1];
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

void csv__raw(struct csv *c, const char *p, size_t n)
{
	put(c, p, n);
}

/* what an escaper appended to c->esc, or its -ENOMEM */
static void put_esc(struct csv *c, int err)
{
	if (err && !c->err)
		c->err = err;
	if (!err)
		put(c, c->esc.buf, c->esc.len);
	strbuf__reset(&c->esc);
}

void csv__xml(struct csv *c, const char *s, size_t n, size_t max)
{
	put_esc(c, escape__xml(&c->esc, s, n, max));
}

void csv__json(struct csv *c, const char *s, size_t n)
{
	put_esc(c, escape__json(&c->esc, s, n));
}

void csv__puts(struct csv *c, const char *s)
{
	put(c, s, strlen(s));
}

void csv__printf(struct csv *c, const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	for (int pass = 0; pass < 2; pass++) {
		size_t room = sizeof(c->buf) - c->len;

		va_start(ap, fmt);
		n = vsnprintf(c->buf + c->len, room, fmt, ap);
		va_end(ap);
		if (n < 0) {
			if (!c->err)
				c->err = -EINVAL;
			return;
		}
		if ((size_t)n < room) {
			c->len += (size_t)n;
			return;
		}
		if (!c->len)
			break;
		flush_buf(c);
	}
	/* longer than the whole buffer: formatted into one of its own */
	p = malloc((size_t)n + 1);
	if (!p) {
		if (!c->err)
			c->err = -ENOMEM;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	write_all(c, p, (size_t)n);
	free(p);
}

int csv__commit(struct csv *c)
{
	int err;

	strbuf__release(&c->esc);
	if (c->fd < 0)
		return c->err ? c->err : -EBADF;
	flush_buf(c);
	err = c->err;
	if (!c->tmp_path) {		/* a borrowed descriptor, or one opened in place (path set) */
		if (c->path && close(c->fd) && !err)
			err = -errno;
		free(c->path);
		c->path = NULL;
		c->fd = -1;
		return err;
	}
	if (close(c->fd) && !err)
		err = -errno;
	c->fd = -1;
	if (!err)
		err = fs__rename_over(c->tmp_path, c->path);
	if (err)
		unlink(c->tmp_path);
	free(c->tmp_path);
	free(c->path);
	c->tmp_path = c->path = NULL;
	return err;
}

void csv__abort(struct csv *c)
{
	strbuf__release(&c->esc);
	if (c->fd >= 0 && c->tmp_path) {
		close(c->fd);
		unlink(c->tmp_path);
	} else if (c->fd >= 0 && c->path) {
		close(c->fd);
	}
	c->fd = -1;
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

/* stage/name to dir/name; 0 or -errno */
static int stage_rename(const struct csv_txn *t, const char *name)
{
	char *from = path_join(t->stage, "", name, ""), *to = path_join(t->dir, "", name, "");
	int err = 0;

	if (!from || !to)
		err = -ENOMEM;
	else
		err = fs__rename_over(from, to);
	free(from);
	free(to);
	return err;
}

/* is name among moved ("NAME\0NAME\0...")? */
static int moved_has(const struct strbuf *moved, const char *name)
{
	size_t off;

	for (off = 0; off < moved->len; off += strlen(moved->buf + off) + 1)
		if (!strcmp(moved->buf + off, name))
			return 1;
	return 0;
}

/* the files of dir that t->owns accepts and the commit did not move in: removed; 0 or -errno */
static int remove_unwritten(const struct csv_txn *t, const struct strbuf *moved)
{
	DIR *d = opendir(t->dir);
	struct dirent *e;
	struct stat st;
	int err = 0;

	if (!d)
		return -errno;
	while (!err && (e = readdir(d))) {
		if (e->d_name[0] == '.' || !t->owns(e->d_name) || moved_has(moved, e->d_name))
			continue;
		/* a directory or a device of that name is not a report readperf wrote */
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)))
			continue;
		if (unlinkat(dirfd(d), e->d_name, 0) && errno != ENOENT)
			err = -errno;
	}
	closedir(d);
	return err;
}

int csv_txn__commit(struct csv_txn *t)
{
	DIR *d = opendir(t->stage);
	struct strbuf moved = STRBUF_INIT;
	struct dirent *e;
	int err = 0, has_last = 0;

	if (!d)
		return -errno;
	/* renames need no space: once every report is whole, they all go in */
	while (!err && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (t->last && !strcmp(e->d_name, t->last))
			has_last = 1;
		else
			err = stage_rename(t, e->d_name);
		if (!err && strbuf__add(&moved, e->d_name, strlen(e->d_name) + 1))
			err = -ENOMEM;
	}
	closedir(d);
	if (!err && has_last)
		err = stage_rename(t, t->last);
	if (!err && t->owns)
		err = remove_unwritten(t, &moved);
	strbuf__release(&moved);
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

/*
 * path written where it is, as a shell's redirection: a device, FIFO or
 * socket, or a symbolic link (/dev/stdout, a process substitution's
 * /dev/fd/63, a link to a file), which a rename would replace by a regular
 * file (as root, /dev/null too)
 */
static int open_in_place(struct csv *c, const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0666);

	if (fd < 0)
		return -errno;
	init(c, fd);
	c->path = strdup(path);
	if (!c->path) {
		close(fd);
		c->fd = -1;
		return -ENOMEM;
	}
	return 0;
}

/*
 * a symbolic link to a regular file: that file replaced whole by the
 * temporary file and rename, so a killed run leaves the old one, and the
 * link stays; to anything else (a device, a FIFO) or to nothing yet (a
 * dangling link: open() creates its target): written in place
 */
static int open_link(struct csv *c, const char *path)
{
	char *real = realpath(path, NULL);	/* NULL for a dangling link */
	struct stat st;
	int err;

	if (!real || stat(real, &st) || !S_ISREG(st.st_mode)) {
		free(real);
		return open_in_place(c, path);
	}
	err = csv__open_path(c, real);
	free(real);
	return err;
}

int csv__open_path(struct csv *c, const char *path)
{
	const char *slash = strrchr(path, '/');
	struct stat st;
	char *dir;
	int err;

	if (!strcmp(path, "-")) {
		fflush(stdout);		/* what readperf printed before goes first */
		csv__open_fd(c, STDOUT_FILENO);
		return 0;
	}
	if (!*path || (slash && !slash[1]))
		return -EISDIR;
	if (!lstat(path, &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		if (S_ISLNK(st.st_mode) && strncmp(path, "/dev/", 5) && strncmp(path, "/proc/", 6))
			return open_link(c, path);
		return open_in_place(c, path);
	}
	if (!slash)
		return csv__open(c, ".", path);
	dir = strndup(path, slash == path ? 1 : (size_t)(slash - path));
	if (!dir)
		return -ENOMEM;
	err = csv__open(c, dir, slash + 1);
	free(dir);
	return err;
}

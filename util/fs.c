/* SPDX-License-Identifier: GPL-3.0-or-later */
/* File-system helpers (fs.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fs.h"

int fs__mkdir_p(const char *dir)
{
	char path[PATH_MAX];
	size_t i, len = strlen(dir);

	if (len >= sizeof(path))
		return -ENAMETOOLONG;
	memcpy(path, dir, len + 1);
	for (i = 1; i <= len; i++) {
		if (path[i] != '/' && path[i] != '\0')
			continue;
		path[i] = '\0';
		if (mkdir(path, 0777) && errno != EEXIST)
			return -errno;
		path[i] = dir[i];
	}
	return 0;
}

int fs__read_fd(int fd, size_t max, char **data, size_t *len)
{
	struct stat st;
	size_t cap = 1 << 20, n = 0;
	char *buf, *nb;
	ssize_t got;

	*data = NULL;
	if (max > SIZE_MAX / 2)
		max = SIZE_MAX / 2;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0)
		cap = (uint64_t)st.st_size < max ? (size_t)st.st_size + 1 : max + 1;
	else if (cap > max + 1)
		cap = max + 1;
	buf = malloc(cap + 1);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int err = -errno;

			free(buf);
			return err;
		}
		if (!got)
			break;
		n += (size_t)got;
		if (n > max) {
			free(buf);
			return -EFBIG;
		}
		if (n < cap)
			continue;
		/* full: a larger buffer (a byte past max shows a file over it) */
		cap = cap > max / 2 ? max + 1 : cap * 2;
		nb = realloc(buf, cap + 1);
		if (!nb) {
			free(buf);
			return -ENOMEM;
		}
		buf = nb;
	}
	buf[n] = '\0';
	*data = buf;
	*len = n;
	return 0;
}

/* all of p to fd; 0 or -errno */
static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int copy_fd(int in, int out)
{
	char buf[1 << 16];
	ssize_t n;
	int err;

	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		err = write_all(out, buf, (size_t)n);
		if (err)
			return err;
	}
	return 0;
}

int fs__rename_over(const char *from, const char *to)
{
	struct stat st;

	/* a directory at to is refused by rename (EISDIR), but an exchange would take it */
	if (!lstat(to, &st) && S_ISREG(st.st_mode) && !renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_EXCHANGE))
		return unlink(from) ? -errno : 0;
	/* to absent or no regular file, or a file system without RENAME_EXCHANGE (EINVAL) */
	return rename(from, to) ? -errno : 0;
}

/* fill the temporary file tmp (created here) and rename it to dst; tmp is gone on failure */
static int commit_tmp(const char *tmp, const char *dst, int mode, int in, const void *data, size_t len)
{
	int out, err;

	/*
	 * Created here, never an existing file: whatever sits at that name (a
	 * symlink or FIFO someone made there, a killed run's file) is removed
	 * first, and O_EXCL|O_NOFOLLOW refuse anything put back meanwhile.
	 */
	if (unlink(tmp) && errno != ENOENT)
		return -errno;
	out = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (out < 0)
		return -errno;
	err = in >= 0 ? copy_fd(in, out) : write_all(out, data, len);
	if (close(out) && !err)
		err = -errno;
	if (!err)
		err = fs__rename_over(tmp, dst);
	if (err)
		unlink(tmp);
	return err;
}

static int tmp_name(char *tmp, size_t n, const char *dst)
{
	return snprintf(tmp, n, "%s.tmp.%ld", dst, (long)getpid()) >= (int)n ? -ENAMETOOLONG : 0;
}

int fs__copy_file(const char *src, const char *dst)
{
	char tmp[PATH_MAX];
	struct stat st;
	int in, err;

	if (tmp_name(tmp, sizeof(tmp), dst))
		return -ENAMETOOLONG;
	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	if (fstat(in, &st)) {
		err = -errno;
		close(in);
		return err;
	}
	err = commit_tmp(tmp, dst, (st.st_mode & 0111) ? 0755 : 0644, in, NULL, 0);
	close(in);
	return err;
}

int fs__write_file(const char *dst, const void *data, size_t len)
{
	char tmp[PATH_MAX];

	if (tmp_name(tmp, sizeof(tmp), dst))
		return -ENAMETOOLONG;
	return commit_tmp(tmp, dst, 0644, -1, data, len);
}

/* one line into buf (room for max bytes): its length, -1 at the end, or -ENAMETOOLONG / -EINVAL (a NUL) */
static long read_line(FILE *fp, char *buf, size_t max)
{
	size_t len = 0;
	int c;

	/* the rest of a refused line is not read */
	while ((c = getc(fp)) != EOF && c != '\n') {
		if (c == '\0')
			return -EINVAL;
		if (len + 1 >= max)
			return -ENAMETOOLONG;
		buf[len++] = (char)c;
	}
	if (c == EOF && !len)
		return -1;
	if (len && buf[len - 1] == '\r')
		len--;
	buf[len] = '\0';
	return (long)len;
}

int fs__read_lines(FILE *fp, size_t max, int (*add)(void *arg, const char *line), void *arg, int (*stop)(void),
		   unsigned long *lineno)
{
	char *buf = malloc(max);
	long n;
	int err = buf ? 0 : -ENOMEM;

	*lineno = 0;
	while (!err && (n = read_line(fp, buf, max)) != -1) {
		++*lineno;
		if (n < 0)
			err = (int)n;
		else if (stop && !(*lineno & 4095) && stop())
			err = -EINTR;
		else if (n)
			err = add(arg, buf);
	}
	if (!err && ferror(fp))
		err = -EIO;
	free(buf);
	return err;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* File-system helpers (fs.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
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

static int copy_fd(int in, int out)
{
	char buf[1 << 16];
	ssize_t n;

	while ((n = read(in, buf, sizeof(buf))) != 0) {
		char *p = buf;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		while (n > 0) {
			ssize_t w = write(out, p, (size_t)n);

			if (w < 0) {
				if (errno == EINTR)
					continue;
				return -errno;
			}
			p += w;
			n -= w;
		}
	}
	return 0;
}

int fs__copy_file(const char *src, const char *dst)
{
	char tmp[PATH_MAX];
	struct stat st;
	int in, out, err;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", dst, (long)getpid()) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	if (fstat(in, &st)) {
		err = -errno;
		close(in);
		return err;
	}
	out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, (st.st_mode & 0111) ? 0755 : 0644);
	if (out < 0) {
		err = -errno;
		close(in);
		return err;
	}
	err = copy_fd(in, out);
	close(in);
	if (close(out) && !err)
		err = -errno;
	if (!err && rename(tmp, dst))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Small file-system helpers: a directory with its parents, an atomic file copy, a whole file read. */
#ifndef UTIL_FS_H
#define UTIL_FS_H

#include <stdio.h>

/* mkdir -p: dir and every missing parent (0777 less umask); 0 or -errno */
int fs__mkdir_p(const char *dir);
/*
 * Copy src to dst through a temporary file beside dst and a rename, so dst
 * is either absent or whole; mode 0755 when src is executable, else 0644.
 * 0 or -errno.
 */
int fs__copy_file(const char *src, const char *dst);
/*
 * rename(from, to), where an existing regular file at to is swapped out to
 * from (renameat2 RENAME_EXCHANGE) and unlinked there: ext4 (auto_da_alloc)
 * writes out a file renamed over another at the rename, 28 ms for a 40 MB
 * overview.csv here, where the exchange takes 0.1 ms.  What is at to is
 * replaced at once, as by rename.  0 or -errno (from removed when the
 * exchange happened but the unlink failed: to holds the new file).
 */
int fs__rename_over(const char *from, const char *to);
/* len bytes of data as the file dst, whole or not at all, as fs__copy_file (mode 0644); 0 or -errno */
int fs__write_file(const char *dst, const void *data, size_t len);
/*
 * What fd has left to read, in one malloc'd buffer with a NUL after it (a
 * /proc file too, which has no size to ask for; a regular file is read
 * into a buffer of its size): more than max bytes is -EFBIG.  0 (*data,
 * *len set; the caller frees *data) or -errno (*data NULL).
 */
int fs__read_fd(int fd, size_t max, char **data, size_t *len);

/*
 * A list of lines from fp, each handed to add(arg, line) without its "\n"
 * or "\r\n"; blank lines skipped.  A line of max bytes or more is
 * -ENAMETOOLONG and one holding a NUL byte -EINVAL (/dev/zero is refused at
 * its first line), with *lineno the line's number; memory is bounded by max.
 * stop (may be NULL) is polled every 4096 lines: -EINTR when it returns
 * non-zero.  0, add's negative return, -EIO (read error) or the above.
 */
int fs__read_lines(FILE *fp, size_t max, int (*add)(void *arg, const char *line), void *arg, int (*stop)(void),
		   unsigned long *lineno);

#endif

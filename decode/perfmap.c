/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * JIT symbols from /tmp/perf-PID.map: one "START SIZE name" line per
 * symbol, START and SIZE in hex (an optional 0x is accepted), name to the
 * end of the line.  Follows Linux perf 6.1 tools/perf/util/symbol.c
 * (dso__load_perf_map): sizes as given, no end or alias fixups.
 * Malformed lines are skipped; a missing or unreadable map is no error (no
 * symbols), running out of memory or a read error is.
 */
#define MAP_LINE_MAX	(64u << 10)
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/log.h"
#include "decode/symbols_internal.h"

/*
 * The map at path, a regular file only: its name comes from the recording
 * (the pid), and a FIFO or a device there would block or never end.  NULL:
 * no map (errno ENOMEM: out of memory)
 */
static FILE *open_map(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	FILE *f;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !(f = fdopen(fd, "r"))) {
		int e = errno;

		close(fd);
		errno = e == ENOMEM ? ENOMEM : EINVAL;
		return NULL;
	}
	return f;
}

/*
 * The next line of f into line (MAP_LINE_MAX + 1 bytes: NUL-terminated,
 * without its newline); its length, -1 at the end.  A line longer than
 * MAP_LINE_MAX is skipped (no name is that long; perf would hold it whole).
 * A NUL byte in a line ends the name there, as it did for perf's getline.
 */
static ssize_t next_line(FILE *f, char *line)
{
	for (;;) {
		size_t len = 0;
		int c;

		while ((c = getc_unlocked(f)) != EOF && c != '\n' && len <= MAP_LINE_MAX)
			line[len++] = (char)c;
		if (len > MAP_LINE_MAX) {	/* too long: the rest of it goes */
			while ((c = getc_unlocked(f)) != EOF && c != '\n')
				;
			if (c == EOF)
				return -1;
			continue;
		}
		if (c == EOF && !len)
			return -1;
		line[len] = '\0';
		return (ssize_t)len;
	}
}

int dso__load_perfmap(struct symbols *s, struct dso *d)
{
	FILE *f = open_map(d->path);
	char *line = malloc(MAP_LINE_MAX + 1);
	size_t n = 0, alloc = 0;
	ssize_t len;
	struct sym *v = NULL;
	int err = 0;

	if (!f || !line) {
		err = (!f && errno == ENOMEM) || !line ? -ENOMEM : 0;
		if (!err)
			log_msg(s->log, LOG_DEBUG, "%s: cannot open (or not a file)", d->path);
		if (f)
			fclose(f);
		free(line);
		return err;
	}
	for (;;) {
		errno = 0;
		len = next_line(f, line);
		if (len < 0) {
			/* a read error ends the run */
			if (ferror(f) && errno == EIO)
				err = -errno;
			break;
		}
		unsigned long long start, size;
		char *p = line, *end;

		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		errno = 0;
		start = strtoull(p, &end, 16);
		if (end == p || errno || *end != ' ')
			continue;
		p = end + 1;
		size = strtoull(p, &end, 16);
		if (end == p || errno || *end != ' ' || !end[1])
			continue;
		if (n == alloc) {
			size_t na = alloc ? alloc * 2 : 256;
			struct sym *nv;

			nv = na > SIZE_MAX / sizeof(*v) ? NULL : realloc(v, na * sizeof(*v));
			if (!nv) {
				err = -ENOMEM;
				break;
			}
			v = nv;
			alloc = na;
		}
		memset(&v[n], 0, sizeof(v[n]));
		v[n].start = start;
		v[n].end = size && start + size > start ? start + size : start;
		v[n].name = symbols__intern(s, end + 1);
		if (!v[n].name) {
			err = -ENOMEM;
			break;
		}
		v[n].bind = STB_GLOBAL;
		v[n].idx = (uint32_t)n;
		n++;
	}
	free(line);
	fclose(f);
	if (err) {
		free(v);
		return err;
	}
	/* perf inserts perf-map symbols as they are: sort, no end or alias fixups */
	symtab__sort(v, n);
	d->syms = v;
	d->nr_syms = n;
	return 0;
}

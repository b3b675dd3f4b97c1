/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * JIT symbols from /tmp/perf-PID.map: one "START SIZE name" line per
 * symbol, START and SIZE in hex (an optional 0x is accepted), name to the
 * end of the line.  Follows Linux perf 6.1 tools/perf/util/symbol.c
 * (dso__load_perf_map): sizes as given, no end or alias fixups.
 * Malformed lines are skipped; a missing or unreadable map is no error (no
 * symbols), running out of memory or a read error is.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "decode/symbols_internal.h"

int dso__load_perfmap(struct symbols *s, struct dso *d)
{
	FILE *f = fopen(d->path, "re");
	char *line = NULL;
	size_t cap = 0, n = 0, alloc = 0;
	ssize_t len;
	struct sym *v = NULL;
	int err = 0;

	if (!f) {
		if (errno == ENOMEM)
			return -ENOMEM;
		log_msg(s->log, LOG_DEBUG, "%s: cannot open", d->path);
		return 0;
	}
	for (;;) {
		errno = 0;
		len = getline(&line, &cap, f);
		if (len < 0) {
			/* a read error ends the run; what is not a file (a directory) has no symbols */
			if (errno == ENOMEM || (ferror(f) && errno == EIO))
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

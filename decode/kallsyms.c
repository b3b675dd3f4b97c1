/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Kernel symbols from a kallsyms file: --kallsyms FILE as given; else the
 * build-id cache's ~/.debug/[kernel.kallsyms]/<id>/kallsyms; else
 * /proc/kallsyms when the running kernel is the recorded one (build id
 * from /sys/kernel/notes against the recorded one, else uname's release
 * against the OSRELEASE feature; nothing recorded: trusted, as perf does).
 *
 * Follows Linux perf 6.1 tools/perf/util/symbol.c (dso__load_kallsyms,
 * map__process_kallsym_symbol, maps__split_kallsyms): types T/t/W/w/D/d/B/b
 * (symbol_type__filter), 'W' weak, upper case global, lower case local;
 * "name\t[mod]" lines belong to module "[mod]"; fixup_end on the whole
 * table before splitting it per module.
 *
 * A kallsyms file that is missing, unreadable, empty or all zeros is no
 * error (kernel addresses stay unresolved, with a warning); running out of
 * memory or a read error (EIO) is.
 */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util/fs.h"
#include "util/log.h"
#include "perffile/buildid.h"
#include "decode/symbols_internal.h"

static int kallsyms_type_ok(char t)
{
	t = (char)toupper((unsigned char)t);
	return t == 'T' || t == 'W' || t == 'D' || t == 'B';
}

static uint8_t kallsyms_bind(char t)
{
	if (t == 'W')
		return STB_WEAK;
	return isupper((unsigned char)t) ? STB_GLOBAL : STB_LOCAL;
}

/* the whole file; a read error other than EIO (a directory) reads as empty */
static char *slurp(const char *path, size_t *len, int *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *buf;

	*err = fd < 0 ? -errno : fs__read_fd(fd, SIZE_MAX, &buf, len);
	if (fd >= 0)
		close(fd);
	if (fd >= 0 && *err && *err != -EIO && *err != -ENOMEM) {
		*err = 0;
		buf = strdup("");
		*len = 0;
		if (!buf)
			*err = -ENOMEM;
	}
	return *err ? NULL : buf;
}

static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/*
 * Parse a kallsyms file into s->ksyms.  The file is read whole and parsed in
 * place: names point into s->ksyms_text (no allocation per symbol: /proc/kallsyms
 * has over 100k lines and this runs at the first kernel sample).
 * 0, -errno, -ENOMEM.
 */
static int kallsyms_parse(struct symbols *s, const char *path)
{
	size_t len, n = 0, alloc = 0;
	struct sym *v = NULL;
	char *text, *p, *end;
	int nonzero = 0, ret = 0;

	text = slurp(path, &len, &ret);
	if (!text)
		return ret;
	/* one allocation (no copies while growing over 100k symbols): a symbol a line at most */
	for (p = text, end = text + len; p < end && (p = memchr(p, '\n', (size_t)(end - p))); p++)
		alloc++;
	alloc++;	/* the last line may have no newline */
	if (alloc > SIZE_MAX / sizeof(*v) || !(v = malloc(alloc * sizeof(*v)))) {
		free(text);
		return -ENOMEM;
	}
	for (p = text, end = text + len; p < end; ) {
		char *eol, *q = p, *name;
		uint64_t addr = 0;
		int digits = 0, h, brackets = 0;
		char type;

		while ((h = hexval((unsigned char)*q)) >= 0 && digits < 17) {
			addr = addr << 4 | (uint64_t)h;
			q++;
			digits++;
		}
		/* the end of the line, and a '[' in the name ("name\t[mod]", up to a NUL) */
		eol = memchr(q, '\n', (size_t)(end - q));
		if (!eol)
			eol = end;
		if (eol - q > 3) {
			const char *lim = memchr(q + 3, '\0', (size_t)(eol - q - 3));

			brackets = memchr(q + 3, '[', (size_t)((lim ? lim : eol) - (q + 3))) != NULL;
		}
		*eol = '\0';
		if (eol > p && eol[-1] == '\r')
			eol[-1] = '\0';
		p = eol + 1;
		if (!digits || digits > 16 || eol - q < 3 || q[0] != ' ' || !q[1] || q[2] != ' ')
			continue;
		name = q + 3;
		type = q[1];
		if (!*name || !kallsyms_type_ok(type) || name[0] == '$')
			continue;
		memset(&v[n], 0, sizeof(v[n]));
		v[n].start = addr;
		v[n].end = addr;
		/* "name\t[mod]" keeps the module in the name for now, as perf does */
		v[n].name = name;
		v[n].bind = kallsyms_bind(type);
		v[n].has_brackets = (uint8_t)brackets;
		v[n].idx = (uint32_t)n;
		if (addr)
			nonzero = 1;
		n++;
	}
	if (ret) {
		free(v);
		free(text);
		return ret;
	}
	if (!n) {
		free(v);
		free(text);
		log_msg(s->log, LOG_WARN, "%s: no kallsyms lines (\"ADDRESS TYPE NAME\") in it: kernel symbols not used", path);
		return -EINVAL;
	}
	if (!nonzero) {
		free(v);
		free(text);
		log_msg(s->log, LOG_WARN, "%s: all addresses are zero (kptr_restrict?): kernel symbols not used", path);
		return -EPERM;
	}
	s->nr_ksyms = symtab__finish(v, n, 1);
	s->ksyms = v;
	s->ksyms_text = text;
	return 0;
}

/* the build id of the running kernel from /sys/kernel/notes; size or 0 */
static size_t running_kernel_build_id(uint8_t *id)
{
	size_t n;

	return build_id__running_kernel(id, &n) ? 0 : n;
}

/* the errors of kallsyms_parse that end the run; the others leave the kernel unresolved */
static int hard_error(int err)
{
	return err == -ENOMEM || err == -EIO ? err : 0;
}

/* 0 (with or without a table), -ENOMEM or -EIO */
static int kallsyms_load(struct symbols *s)
{
	const struct recorded_id *rec = symbols__recorded_build_id(s, "[kernel.kallsyms]");
	char *cached = NULL;
	uint8_t id[BUILD_ID_MAX];
	size_t idsz;
	struct utsname u;
	int ok, err;

	if (s->kallsyms_loaded)
		return 0;
	s->kallsyms_loaded = 1;
	if (s->kallsyms) {
		err = kallsyms_parse(s, s->kallsyms);
		if (err == -ENOENT)
			log_msg(s->log, LOG_WARN, "%s: cannot open kallsyms", s->kallsyms);
		return hard_error(err);
	}
	if (rec && s->buildid_dir) {
		char hex[2 * BUILD_ID_MAX + 1];

		build_id__hex(rec->data, rec->size, hex);
		if (asprintf(&cached, "%s/[kernel.kallsyms]/%s/kallsyms", s->buildid_dir, hex) < 0)
			return -ENOMEM;
		err = file__exists(cached) ? kallsyms_parse(s, cached) : -ENOENT;
		free(cached);
		if (!err || hard_error(err))
			return err;
	}
	idsz = running_kernel_build_id(id);
	if (rec && idsz)
		ok = build_id__equal(id, idsz, rec->data, rec->size);
	else if (s->osrelease)
		ok = !uname(&u) && !strcmp(u.release, s->osrelease);
	else
		ok = 1;	/* nothing recorded to compare with: as perf, trust the running kernel */
	if (!ok) {
		log_msg(s->log, LOG_WARN, "the running kernel is not the recorded one: kernel symbols not resolved (use --kallsyms)");
		return 0;
	}
	return hard_error(kallsyms_parse(s, "/proc/kallsyms"));
}

/* the kernel or module table: a filtered copy of the kallsyms table, names without "\t[mod]" */
int dso__load_kernel(struct symbols *s, struct dso *d)
{
	size_t i, n = 0, mlen = d->module ? strlen(d->module) : 0;
	int err;

	err = kallsyms_load(s);
	if (err || !s->nr_ksyms)
		return err;
	if (d->kind == DSO_KERNEL) {
		/* the kernel's symbols sort before the modules': share that prefix, no copy */
		while (n < s->nr_ksyms && !s->ksyms[n].has_brackets)
			n++;
		for (i = n; i < s->nr_ksyms && s->ksyms[i].has_brackets; i++)
			;
		if (i == s->nr_ksyms) {
			d->syms = s->ksyms;
			d->nr_syms = n;
			d->syms_shared = 1;
			return 0;
		}
		n = 0;
	}
	d->syms = calloc(s->nr_ksyms, sizeof(*d->syms));
	if (!d->syms)
		return -ENOMEM;
	for (i = 0; i < s->nr_ksyms; i++) {
		const struct sym *k = &s->ksyms[i];
		const char *tab;

		if (d->kind == DSO_KERNEL) {
			if (k->has_brackets)
				continue;
			d->syms[n++] = *k;
			continue;
		}
		tab = strchr(k->name, '\t');
		if (!tab || strncmp(tab + 1, "[", 1) || strncmp(tab + 2, d->module, mlen) ||
		    strcmp(tab + 2 + mlen, "]"))
			continue;
		d->syms[n] = *k;
		d->syms[n].name = symbols__intern_n(s, k->name, (size_t)(tab - k->name));
		if (!d->syms[n].name) {
			err = -ENOMEM;
			break;
		}
		n++;
	}
	d->nr_syms = n;
	return err;
}

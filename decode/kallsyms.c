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
#include <pthread.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util/fs.h"
#include "util/log.h"
#include "util/thread.h"
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

/* a hex digit's value plus one, 0 for any other byte: the parse's 16 digits a line without branches per range */
static const uint8_t hex1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

static int hexval(unsigned char c)
{
	return (int)hex1[c] - 1;
}

/*
 * What kallsyms_load reads from, and what it found: the table, its return
 * value and, when it ran ahead in a thread of its own, its messages, said
 * in the analysis thread when that takes the table (so that -j 1 and -j 2
 * say the same, in the same place).
 */
#define KALLSYMS_MSGS 4

struct kallsyms_job {
	char *kallsyms;			/* --kallsyms, or NULL */
	char *cached;			/* the build-id cache's copy of the recorded kernel's, or NULL */
	char *osrelease;		/* the recorded kernel release, or NULL */
	uint8_t rec_id[BUILD_ID_MAX];	/* the recorded kernel's build id */
	size_t rec_size;		/* 0: none recorded */
	const struct log *log;
	struct sym *ksyms;		/* the results */
	char *ksyms_text;
	size_t nr_ksyms;
	int err;
};

struct kallsyms_ahead {
	pthread_t thread;
	struct kallsyms_job job;
	struct log log;			/* job.log: keeps the messages */
	struct {
		enum log_level level;
		char *text;
	} msgs[KALLSYMS_MSGS];
	size_t nr_msgs;
	int lost;			/* a message not kept (memory, or more than KALLSYMS_MSGS) */
};

/*
 * Parse a kallsyms file into j->ksyms.  The file is read whole and parsed in
 * place: names point into j->ksyms_text (no allocation per symbol: /proc/kallsyms
 * has over 100k lines and this runs at the first kernel sample).
 * 0, -errno, -ENOMEM.
 */
static int kallsyms_parse(struct kallsyms_job *j, const char *path)
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
		log_msg(j->log, LOG_WARN, "%s: no kallsyms lines (\"ADDRESS TYPE NAME\") in it: kernel symbols not used", path);
		return -EINVAL;
	}
	if (!nonzero) {
		free(v);
		free(text);
		log_msg(j->log, LOG_WARN, "%s: all addresses are zero (kptr_restrict?): kernel symbols not used", path);
		return -EPERM;
	}
	j->nr_ksyms = symtab__finish(v, n, 1);
	j->ksyms = v;
	j->ksyms_text = text;
	return 0;
}

/* the build id of the running kernel from /sys/kernel/notes; size or 0 */
static size_t running_kernel_build_id(uint8_t *id)
{
	size_t n;

	return build_id__running_kernel(id, &n) ? 0 : n;
}

/*
 * The running kernel is the recorded one: its build id is the recorded one
 * (rec_size 0: none recorded), else uname's release is the OSRELEASE
 * feature: 1 or 0; nothing recorded to compare with: -1 (kallsyms trusts
 * it, as perf does).
 */
static int running_is_recorded(const uint8_t *rec_id, size_t rec_size, const char *osrelease)
{
	uint8_t id[BUILD_ID_MAX];
	size_t idsz = running_kernel_build_id(id);
	struct utsname u;

	if (rec_size && idsz)
		return build_id__equal(id, idsz, rec_id, rec_size);
	if (osrelease)
		return !uname(&u) && !strcmp(u.release, osrelease);
	return -1;
}

int kernel__running_is_recorded(const struct symbols *s)
{
	const struct recorded_id *rec = symbols__recorded_build_id(s, "[kernel.kallsyms]");

	return running_is_recorded(rec ? rec->data : NULL, rec ? rec->size : 0,
				   s->osrelease ? s->osrelease : s->late_osrelease);
}

/* the errors of kallsyms_parse that end the run; the others leave the kernel unresolved */
static int hard_error(int err)
{
	return err == -ENOMEM || err == -EIO ? err : 0;
}

/* the table from the first place that has one; 0 (with or without a table), -ENOMEM or -EIO */
static int kallsyms_run(struct kallsyms_job *j)
{
	int ok, err;

	if (j->kallsyms) {
		err = kallsyms_parse(j, j->kallsyms);
		if (err == -ENOENT)
			log_msg(j->log, LOG_WARN, "%s: cannot open kallsyms", j->kallsyms);
		return hard_error(err);
	}
	if (j->cached) {
		err = file__exists(j->cached) ? kallsyms_parse(j, j->cached) : -ENOENT;
		if (!err || hard_error(err))
			return err;
	}
	ok = running_is_recorded(j->rec_id, j->rec_size, j->osrelease) != 0;	/* nothing recorded: trusted */
	if (!ok) {
		log_msg(j->log, LOG_WARN, "the running kernel is not the recorded one: kernel symbols not resolved (use --kallsyms)");
		return 0;
	}
	return hard_error(kallsyms_parse(j, "/proc/kallsyms"));
}

static void job_release(struct kallsyms_job *j)
{
	free(j->kallsyms);
	free(j->cached);
	free(j->osrelease);
	free(j->ksyms);
	free(j->ksyms_text);
}

/* where kallsyms_run looks, as s says now (copies: a thread ahead reads them); 0 or -ENOMEM */
static int job_init(struct kallsyms_job *j, const struct symbols *s)
{
	const struct recorded_id *rec = symbols__recorded_build_id(s, "[kernel.kallsyms]");
	int err = 0;

	memset(j, 0, sizeof(*j));
	j->log = s->log;
	if (s->kallsyms && !(j->kallsyms = strdup(s->kallsyms)))
		err = -ENOMEM;
	if (s->osrelease && !(j->osrelease = strdup(s->osrelease)))
		err = -ENOMEM;
	if (rec) {
		j->rec_size = rec->size < BUILD_ID_MAX ? rec->size : BUILD_ID_MAX;
		memcpy(j->rec_id, rec->data, j->rec_size);
	}
	if (rec && s->buildid_dir) {
		char hex[2 * BUILD_ID_MAX + 1];

		build_id__hex(rec->data, rec->size, hex);
		if (asprintf(&j->cached, "%s/[kernel.kallsyms]/%s/kallsyms", s->buildid_dir, hex) < 0) {
			j->cached = NULL;
			err = -ENOMEM;
		}
	}
	if (err)
		job_release(j);
	return err;
}

static int same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* would the two look in the same places? */
static int job_same(const struct kallsyms_job *a, const struct kallsyms_job *b)
{
	return same_str(a->kallsyms, b->kallsyms) && same_str(a->cached, b->cached) &&
	       same_str(a->osrelease, b->osrelease) && a->rec_size == b->rec_size &&
	       !memcmp(a->rec_id, b->rec_id, a->rec_size);
}

/* the thread ahead's log: its messages kept in order */
static void keep_msg(void *ctx, enum log_level level, const char *msg)
{
	struct kallsyms_ahead *k = ctx;

	if (k->nr_msgs == KALLSYMS_MSGS || !(k->msgs[k->nr_msgs].text = strdup(msg))) {
		k->lost = 1;
		return;
	}
	k->msgs[k->nr_msgs++].level = level;
}

static void *ahead_main(void *arg)
{
	struct kallsyms_ahead *k = arg;

	thread__give_way("readperf-ksyms");
	k->job.err = kallsyms_run(&k->job);
	return NULL;
}

void symbols__read_kernel_ahead(struct symbols *s)
{
	struct kallsyms_ahead *k;

	/* perf record lists the build ids of the dsos with samples: none of the kernel's, no kernel sample */
	if (s->ksyms_ahead || s->kallsyms_loaded || !symbols__recorded_build_id(s, "[kernel.kallsyms]") ||
	    !(k = calloc(1, sizeof(*k))))
		return;
	if (job_init(&k->job, s)) {
		free(k);
		return;
	}
	k->log.fn = keep_msg;
	k->log.ctx = k;
	k->job.log = &k->log;
	if (pthread_create(&k->thread, NULL, ahead_main, k)) {
		job_release(&k->job);
		free(k);
		return;
	}
	s->ksyms_ahead = k;
}

/* a joined thread ahead's messages, inputs and (unless taken) table freed */
static void ahead_free(struct kallsyms_ahead *k)
{
	size_t i;

	for (i = 0; i < k->nr_msgs; i++)
		free(k->msgs[i].text);
	job_release(&k->job);
	free(k);
}

void symbols__stop_kernel_ahead(struct symbols *s)
{
	if (!s->ksyms_ahead)
		return;
	pthread_join(s->ksyms_ahead->thread, NULL);
	ahead_free(s->ksyms_ahead);
	s->ksyms_ahead = NULL;
}

/*
 * The thread ahead's work into j when it looked where j would (its messages
 * said now); else (the inputs changed since, as a pipe's build ids arrive
 * with its records, or a message was lost) left to the caller: 1 taken, 0 not.
 */
static int take_ahead(struct symbols *s, struct kallsyms_job *j)
{
	struct kallsyms_ahead *k = s->ksyms_ahead;
	size_t i;
	int taken;

	s->ksyms_ahead = NULL;
	pthread_join(k->thread, NULL);
	taken = !k->lost && job_same(&k->job, j);
	if (taken) {
		for (i = 0; i < k->nr_msgs; i++)
			log_msg(s->log, k->msgs[i].level, "%s", k->msgs[i].text);
		j->ksyms = k->job.ksyms;
		j->ksyms_text = k->job.ksyms_text;
		j->nr_ksyms = k->job.nr_ksyms;
		j->err = k->job.err;
		k->job.ksyms = NULL;
		k->job.ksyms_text = NULL;
	}
	ahead_free(k);
	return taken;
}

/* 0 (with or without a table), -ENOMEM or -EIO */
static int kallsyms_load(struct symbols *s)
{
	struct kallsyms_job j;
	int err;

	if (s->kallsyms_loaded)
		return 0;
	s->kallsyms_loaded = 1;
	err = job_init(&j, s);
	if (err)
		return err;
	if (!s->ksyms_ahead || !take_ahead(s, &j))
		j.err = kallsyms_run(&j);
	s->ksyms = j.ksyms;
	s->ksyms_text = j.ksyms_text;
	s->nr_ksyms = j.nr_ksyms;
	j.ksyms = NULL;
	j.ksyms_text = NULL;
	err = j.err;
	job_release(&j);
	return err;
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

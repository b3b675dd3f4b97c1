/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Symbol resolution, in process, cached: the DSO registry, the per-address
 * cache, the symbol tables' perf rules, options.  ELF files (libbfd) are in
 * dso.c, kallsyms in kallsyms.c, /tmp/perf-PID.map in perfmap.c, jitdumps
 * in jitdump.c.
 *
 * Follows Linux perf 6.1 (tools/perf/util/symbol.c, map.c, dso.c):
 *  - symbols__fixup_end: a zero-size symbol ends where the next one starts,
 *    the last one at the next page (kallsyms: the last kernel symbol before
 *    a module symbol too); sized symbols keep their size, so an address in
 *    the padding after a function is unresolved, as in perf.
 *  - symbols__fixup_duplicate/choose_best_symbol among aliases at one
 *    address: non-zero size, then non-weak, then global, then fewer leading
 *    underscores, then the longer name, then the first in the table.
 *  - map__new's anon maps ("//anon", "/dev/zero", "/anon_hugepage", and
 *    "[heap]", "[stack", "/SYSV") use /tmp/perf-PID.map (perf does so for
 *    executable ones, and samples only land in those).  Named anonymous
 *    memory ("[anon:name]") is not anon to perf 6.1: its own, unresolved dso.
 */
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/log.h"
#include "util/strbuf.h"
#include "decode/symbols_internal.h"

int symbols__fail(struct symbols *s, int err)
{
	if (err && !s->err)
		s->err = err;
	return err;
}

int symbols__status(const struct symbols *s)
{
	return s ? s->err : 0;
}

/* the value left in the string map when a copy could not be made */
static const char intern_failed[] = "";

const char *symbols__intern_n(struct symbols *s, const char *str, size_t len)
{
	void **slot;
	char *copy;
	int ret;

	ret = hashmap__insert(&s->strings, str, len, &slot);
	if (ret < 0) {
		symbols__fail(s, ret);
		return NULL;
	}
	if (!ret)
		return *slot == (void *)intern_failed ? NULL : *slot;
	copy = malloc(len + 1);
	if (!copy) {
		/* leave a valid value rather than NULL in the map; the error is kept */
		*slot = (void *)intern_failed;
		symbols__fail(s, -ENOMEM);
		return NULL;
	}
	memcpy(copy, str, len);
	copy[len] = '\0';
	*slot = copy;
	return copy;
}

const char *symbols__intern(struct symbols *s, const char *str)
{
	return symbols__intern_n(s, str, strlen(str));
}

static void free_string(void *p)
{
	if (p != (const void *)intern_failed)
		free(p);
}

const char *symbols__basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

int file__exists(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

void build_id__hex(const uint8_t *id, size_t size, char *hex)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < size; i++) {
		hex[2 * i] = digits[id[i] >> 4];
		hex[2 * i + 1] = digits[id[i] & 15];
	}
	hex[2 * size] = '\0';
}

/*
 * perf pads recorded build ids to 20 bytes with zeros: ids are equal when
 * the common prefix matches and the longer one has only zeros after it.
 */
int build_id__equal(const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
	size_t i, n = na < nb ? na : nb;

	if (memcmp(a, b, n))
		return 0;
	for (i = n; i < na; i++)
		if (a[i])
			return 0;
	for (i = n; i < nb; i++)
		if (b[i])
			return 0;
	return 1;
}

const struct recorded_id *symbols__recorded_build_id(const struct symbols *s, const char *path)
{
	void **slot = hashmap__find(&s->build_ids, path, strlen(path));

	return slot ? *slot : NULL;
}

static int sym_cmp(const void *pa, const void *pb)
{
	const struct sym *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static size_t prefix_underscores(const char *name)
{
	size_t n = 0;

	while (name[n] == '_')
		n++;
	return n;
}

/* perf's choose_best_symbol(): 1 keeps a, 0 keeps b */
static int choose_a(const struct sym *a, const struct sym *b)
{
	int wa, wb;
	size_t na, nb;

	if (b->end == b->start && a->end > a->start)
		return 1;
	if (a->end == a->start && b->end > b->start)
		return 0;
	wa = a->bind == STB_WEAK;
	wb = b->bind == STB_WEAK;
	if (wb && !wa)
		return 1;
	if (wa && !wb)
		return 0;
	wa = a->bind == STB_GLOBAL;
	wb = b->bind == STB_GLOBAL;
	if (wa && !wb)
		return 1;
	if (wb && !wa)
		return 0;
	na = prefix_underscores(a->name);
	nb = prefix_underscores(b->name);
	if (nb > na)
		return 1;
	if (na > nb)
		return 0;
	na = strlen(a->name);
	nb = strlen(b->name);
	if (na != nb)
		return na > nb;
	/* arch__choose_best_symbol: avoid "SyS" syscall aliases */
	if (!strncmp(a->name, "SyS", 3) || !strncmp(a->name, "compat_SyS", 10))
		return 0;
	return 1;
}

static uint64_t next_page(uint64_t addr)
{
	uint64_t r = (addr + 4095) & ~(uint64_t)4095;

	return r + 4096 < r ? UINT64_MAX : r + 4096;
}

/*
 * A label (a symbol without size, as node's construct_stub_create_deopt_addr
 * inside Builtins_JSConstructStubGeneric) inside a sized symbol's extent:
 * the addresses there stay the sized symbol's, as in perf, whose symbol tree
 * finds the symbol that covers the address; the label has only what lies
 * past the sized symbol's end.
 */
static void set_parents(struct sym *v, size_t n)
{
	size_t i, cur = SIZE_MAX;

	for (i = 0; i < n; i++) {
		v[i].parent = 0;
		if (!v[i].label) {
			cur = i;
			continue;
		}
		if (cur != SIZE_MAX && v[cur].end > v[i].start)
			v[i].parent = (uint32_t)cur + 1;
	}
}

void symtab__sort(struct sym *v, size_t n)
{
	if (n)
		qsort(v, n, sizeof(*v), sym_cmp);
	set_parents(v, n);
}

/* sort, then perf's symbols__fixup_end and symbols__fixup_duplicate; returns the new count */
size_t symtab__finish(struct sym *v, size_t n, int is_kallsyms)
{
	size_t i, out;

	if (!n)
		return 0;
	/* kallsyms comes sorted but for a few lines: sort only when it must */
	for (i = 1; i < n && sym_cmp(&v[i - 1], &v[i]) <= 0; i++)
		;
	if (i < n)
		qsort(v, n, sizeof(*v), sym_cmp);
	for (i = 0; i < n; i++)
		v[i].label = v[i].end == v[i].start;
	for (i = 1; i < n; i++) {
		struct sym *prev = &v[i - 1];

		if (prev->end != prev->start)
			continue;
		if (is_kallsyms && prev->has_brackets != v[i].has_brackets)
			prev->end = next_page(prev->end);
		else
			prev->end = v[i].start;
	}
	if (v[n - 1].end == v[n - 1].start)
		v[n - 1].end = next_page(v[n - 1].start);

	out = 0;
	for (i = 1; i < n; i++) {
		if (v[i].start != v[out].start) {
			v[++out] = v[i];
			continue;
		}
		if (!choose_a(&v[out], &v[i]))
			v[out] = v[i];
	}
	set_parents(v, out + 1);
	return out + 1;
}

/* perf's symbols__find on a sorted, duplicate-free table */
size_t symtab__starts_upto(const struct sym *v, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct sym *symtab__find(struct sym *v, size_t n, uint64_t addr)
{
	size_t lo = symtab__starts_upto(v, n, addr);

	if (!lo)
		return NULL;
	if (v[lo - 1].parent && addr < v[v[lo - 1].parent - 1].end)
		return &v[v[lo - 1].parent - 1];
	if (addr < v[lo - 1].end || addr == v[lo - 1].start)
		return &v[lo - 1];
	return NULL;
}

/* 0, or the error, kept (symbols__fail): the dso's symbols would be incomplete */
static int dso_load(struct symbols *s, struct dso *d)
{
	int err = 0;

	d->loaded = 1;
	switch (d->kind) {
	case DSO_ELF:
	case DSO_VDSO:
		err = symcache__load(s, d);
		if (!err) {
			d->cache_dirty = 1;
			err = dso__load_elf(s, d);
		}
		err = err < 0 ? err : 0;
		break;
	case DSO_KERNEL:
	case DSO_KMODULE:
		err = dso__load_kernel(s, d);
		break;
	case DSO_PERFMAP:
		err = dso__load_perfmap(s, d);
		break;
	case DSO_JIT:		/* made loaded (jitdump.c) */
	case DSO_NONE:
		break;
	}
	return symbols__fail(s, err);
}

static void free_cache_entry(void *p)
{
	free(p);
}

static void dso_free(void *p)
{
	struct dso *d = p;

	if (!d)
		return;
	hashmap__release(&d->cache, free_cache_entry);
	symcache__release(d);
	dso__release_elf(d);
	if (!d->syms_shared)
		free(d->syms);
	free(d->path);
	free(d->module);
	free(d);
}

static int has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

static int has_suffix(const char *s, const char *suf)
{
	size_t ls = strlen(s), lf = strlen(suf);

	return ls >= lf && !strcmp(s + ls - lf, suf);
}

/* perf's "[module]" name for a kernel module path: basename, no .ko*, '-' -> '_' */
static char *module_name(const char *filename)
{
	static const char *const exts[] = { ".ko.xz", ".ko.gz", ".ko.zst", ".ko.bz2", ".ko" };
	const char *b = symbols__basename(filename);
	size_t len = strlen(b), i;
	char *m;

	for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		if (has_suffix(b, exts[i])) {
			len -= strlen(exts[i]);
			break;
		}
	}
	m = strndup(b, len);
	if (!m)
		return NULL;
	for (i = 0; m[i]; i++)
		if (m[i] == '-')
			m[i] = '_';
	return m;
}

static int is_anon(const char *f)
{
	return !strcmp(f, "//anon") || has_prefix(f, "/dev/zero") ||
	       has_prefix(f, "/anon_hugepage") ||
	       !strcmp(f, "[heap]") || has_prefix(f, "[stack") || has_prefix(f, "/SYSV");
}

static int is_kernel_image(const char *f)
{
	return has_prefix(f, "[kernel.kallsyms]") || has_prefix(f, "[guest.kernel.kallsyms");
}

static struct dso *dso_new(struct symbols *s, enum dso_kind kind, const char *path,
			   uint32_t pid, char *module)
{
	struct dso *d = calloc(1, sizeof(*d));
	const char *name = NULL;
	char *tmp = NULL;

	if (!d) {
		free(module);
		symbols__fail(s, -ENOMEM);
		return NULL;
	}
	d->kind = kind;
	d->pid = pid;
	d->module = module;
	d->path = strdup(path);
	hashmap__init(&d->cache);
	if (!d->path)
		goto fail;
	switch (kind) {
	case DSO_KERNEL:
		name = symbols__intern(s, "[kernel.kallsyms]");
		break;
	case DSO_KMODULE:
		if (asprintf(&tmp, "[%s]", module) < 0)
			goto fail;
		name = symbols__intern(s, tmp);
		free(tmp);
		break;
	case DSO_VDSO:
	case DSO_NONE:
		name = symbols__intern(s, path[0] == '[' ? path : symbols__basename(path));
		break;
	case DSO_PERFMAP:
		/* perf 6.1 report: "[JIT] tid 20193" for /tmp/perf-20193.map */
		if (asprintf(&tmp, "[JIT] tid %u", (unsigned)pid) < 0)
			goto fail;
		name = symbols__intern(s, tmp);
		free(tmp);
		break;
	case DSO_ELF:
	case DSO_JIT:
		name = symbols__intern(s, symbols__basename(path));
		break;
	}
	if (!name)
		goto fail;
	d->name = name;
	return d;
fail:
	dso_free(d);
	symbols__fail(s, -ENOMEM);
	return NULL;
}

struct dso *symbols__dso_new(struct symbols *s, enum dso_kind kind, const char *path, uint32_t pid)
{
	return dso_new(s, kind, path, pid, NULL);
}

void symbols__dso_free(struct dso *d)
{
	dso_free(d);
}

struct dso *symbols__dso_for_map(struct symbols *s, const char *filename, uint32_t pid, int kernel)
{
	enum dso_kind kind;
	char *module = NULL;
	char perfmap[64];
	const char *path = filename;
	struct strbuf key = STRBUF_INIT;
	struct dso *d = NULL;
	void **slot;
	int ret;

	if (!s || !filename)
		return NULL;
	if (kernel && is_kernel_image(filename)) {
		return symbols__kernel_dso(s);
	} else if (kernel && (filename[0] == '/' || (filename[0] == '[' && has_suffix(filename, "]")))) {
		if (filename[0] == '[')
			module = strndup(filename + 1, strlen(filename) - 2);
		else
			module = module_name(filename);
		if (!module) {
			symbols__fail(s, -ENOMEM);
			return NULL;
		}
		kind = DSO_KMODULE;
	} else if (kernel) {
		kind = DSO_NONE;
	} else if (is_anon(filename)) {
		snprintf(perfmap, sizeof(perfmap), "/tmp/perf-%u.map", (unsigned)pid);
		path = perfmap;
		kind = DSO_PERFMAP;
	} else if (!strcmp(filename, "[vdso]")) {
		kind = DSO_VDSO;
	} else if (filename[0] == '[') {
		kind = DSO_NONE;
	} else {
		kind = DSO_ELF;
	}
	if (kind == DSO_KMODULE) {
		if (strbuf__addf(&key, "m[%s]", module) < 0)
			goto out;
	} else if (strbuf__addf(&key, "%c%s", kernel ? 'k' : 'u', path) < 0) {
		goto out;
	}
	ret = hashmap__insert(&s->dsos, key.buf, key.len, &slot);
	if (ret < 0)
		goto out;
	if (!ret) {
		d = *slot;
		goto out;
	}
	d = dso_new(s, kind, path, pid, module);
	module = NULL;
	*slot = d;
	/* a NULL value stays in the map (the error is kept) */
out:
	if (!d)
		symbols__fail(s, -ENOMEM);
	free(module);
	strbuf__release(&key);
	return d;
}

struct dso *symbols__kernel_dso(struct symbols *s)
{
	if (!s)
		return NULL;
	if (!s->kernel)
		s->kernel = dso_new(s, DSO_KERNEL, "[kernel.kallsyms]", 0, NULL);
	return s->kernel;
}

const char *dso__name(const struct dso *d)
{
	return d ? d->name : NULL;
}

const char *dso__path(const struct dso *d)
{
	return d ? d->path : NULL;
}

const char *symbols__dso_file(struct symbols *s, struct dso *d)
{
	if (!s || !d || (d->kind != DSO_ELF))
		return NULL;
	if (!d->loaded && dso_load(s, d))
		return NULL;
	return dso__main_file(d);
}

int symbols__dso_has_symbols(struct symbols *s, const struct dso *d, const char **tried, char *wanted, size_t n)
{
	const struct recorded_id *rec = symbols__recorded_build_id(s, d->kind == DSO_VDSO ? "[vdso]" : d->path);

	*tried = d->path;
	if (wanted && n)
		wanted[0] = '\0';
	if (d->nr_syms)
		return 1;
	if (rec && wanted && n > 2 * rec->size)
		build_id__hex(rec->data, rec->size, wanted);
	return 0;
}

static int do_resolve(struct symbols *s, struct dso *d, uint64_t map_start, uint64_t map_pgoff,
		      uint64_t ip, struct sym_result *out, int want_lines)
{
	struct cache_entry *e;
	struct sym *sym;
	uint64_t addr;
	void **slot;
	int ret;

	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (!s || !d)
		return -EINVAL;
	if (s->err)
		return s->err;
	if (!d->loaded && dso_load(s, d))
		return s->err;
	if (d->kind == DSO_ELF || d->kind == DSO_VDSO)
		addr = dso__file_vaddr(d, ip - map_start + map_pgoff);
	else if (d->kind == DSO_JIT)
		addr = ip - map_start + d->syms->start;	/* a moved code's map: its load's addresses */
	else
		addr = ip;
	out->addr = addr;

	slot = hashmap__find(&d->cache, &addr, sizeof(addr));
	if (slot) {
		e = *slot;
	} else {
		e = calloc(1, sizeof(*e));
		if (!e)
			return symbols__fail(s, -ENOMEM);
		ret = hashmap__insert(&d->cache, &addr, sizeof(addr), &slot);
		if (ret < 0) {
			free(e);
			return symbols__fail(s, ret);
		}
		*slot = e;
		s->nr_cached++;
		e->r.addr = addr;
		sym = symtab__find(d->syms, d->nr_syms, addr);
		if (sym) {
			e->found = 1;
			e->r.function = sym->name;
			e->r.sym_addr = sym->start;
		}
	}
	if (want_lines && !s->no_source && !e->lines_done) {
		e->lines_done = 1;
		sym = e->found ? symtab__find(d->syms, d->nr_syms, addr) : NULL;
		if (d->kind == DSO_JIT)
			jitdump__line(d, addr, &e->r);
		else if (dso__lookup_lines(s, d, &e->r, sym, addr))
			return s->err;
	}
	*out = e->r;
	out->map_addr = d->kind == DSO_ELF || d->kind == DSO_VDSO ? ip - map_start + map_pgoff : addr;
	if (!want_lines) {
		out->src_file = out->src_path = NULL;
		out->src_line = 0;
		/* callchain addresses: where the function is defined (once per symbol), not the line */
		sym = e->found && !s->no_source ? symtab__find(d->syms, d->nr_syms, addr) : NULL;
		out->def_file = out->def_path = NULL;
		out->def_line = 0;
		if (sym && dso__lookup_def(s, d, out, sym))
			return s->err;
	}
	return e->found ? 0 : -ENOENT;
}

int symbols__resolve(struct symbols *s, struct dso *dso, uint64_t map_start,
		     uint64_t map_pgoff, uint64_t ip, struct sym_result *out)
{
	return do_resolve(s, dso, map_start, map_pgoff, ip, out, 1);
}

int symbols__resolve_sym(struct symbols *s, struct dso *dso, uint64_t map_start,
			 uint64_t map_pgoff, uint64_t ip, struct sym_result *out)
{
	return do_resolve(s, dso, map_start, map_pgoff, ip, out, 0);
}

int symbols__at_entry(struct symbols *s, struct dso *d, uint64_t map_start, uint64_t map_pgoff, uint64_t ip)
{
	if (!s || !d || s->err || d->kind != DSO_ELF)
		return 0;
	if (!d->loaded && dso_load(s, d))
		return 0;
	return dso__at_entry(s, d, dso__file_vaddr(d, ip - map_start + map_pgoff));
}

int symbols__inlines(struct symbols *s, struct dso *d, uint64_t map_start,
		     uint64_t map_pgoff, uint64_t ip, const char **names, size_t max)
{
	if (!s || !d || s->no_source)
		return 0;
	if (s->err)
		return s->err;
	if (!d->loaded && dso_load(s, d))
		return s->err;
	if (d->kind != DSO_ELF && d->kind != DSO_VDSO)
		return 0;
	return dso__lookup_inlines(s, d, dso__file_vaddr(d, ip - map_start + map_pgoff), names, max);
}

void symbols__save_cache(struct symbols *s)
{
	symcache__save(s);
}

size_t symbols__nr_cached(const struct symbols *s)
{
	return s ? s->nr_cached : 0;
}

int symbols__set_osrelease(struct symbols *s, const char *osrelease)
{
	if (s->late_osrelease || !osrelease)
		return 0;
	s->late_osrelease = strdup(osrelease);
	return s->late_osrelease ? 0 : symbols__fail(s, -ENOMEM);
}

int symbols__set_build_id(struct symbols *s, const char *filename, const uint8_t *build_id, size_t size)
{
	struct recorded_id *r;
	void **slot;
	int ret;

	if (!s || !filename || !build_id || !size || size > BUILD_ID_MAX)
		return -EINVAL;
	ret = hashmap__insert(&s->build_ids, filename, strlen(filename), &slot);
	if (ret < 0)
		return symbols__fail(s, ret);
	r = *slot;
	if (!r) {
		r = calloc(1, sizeof(*r));
		if (!r)
			return symbols__fail(s, -ENOMEM);
		*slot = r;
	}
	memset(r, 0, sizeof(*r));
	memcpy(r->data, build_id, size);
	/*
	 * Old perf pads every id to 20 bytes: a 16-byte (md5/uuid) id then
	 * ends in four zero bytes.  The real size names cache directories.
	 */
	if (size == BUILD_ID_MAX && !r->data[16] && !r->data[17] && !r->data[18] && !r->data[19])
		size = 16;
	r->size = size;
	return 0;
}

static char *dup_or_null(const char *p, int *err)
{
	char *c;

	if (!p)
		return NULL;
	c = strdup(p);
	if (!c)
		*err = -ENOMEM;
	return c;
}

int symbols__new(struct symbols **out, const struct symbols_opts *opts)
{
	struct symbols_opts none;
	struct symbols *s;
	const char *home, *bdir, *urls;
	size_t i;
	int err = 0;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!opts) {
		memset(&none, 0, sizeof(none));
		opts = &none;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	hashmap__init(&s->dsos);
	hashmap__init(&s->strings);
	hashmap__init(&s->build_ids);
	hashmap__init(&s->jitdumps);
	s->log = opts->log;
	s->no_source = opts->no_source;
	s->no_demangle = opts->no_demangle;
	s->stop = opts->stop;
	urls = getenv("DEBUGINFOD_URLS");
	s->debuginfod = !opts->no_debuginfod && urls && *urls;
	s->symfs = strdup(opts->symfs ? opts->symfs : "");
	if (!s->symfs)
		err = -ENOMEM;
	/* a trailing '/' on --symfs would double the one that starts each path */
	while (s->symfs && s->symfs[0] && has_suffix(s->symfs, "/"))
		s->symfs[strlen(s->symfs) - 1] = '\0';
	s->kallsyms = dup_or_null(opts->kallsyms, &err);
	s->vmlinux = dup_or_null(opts->vmlinux, &err);
	s->cache_dir = opts->cache_dir && *opts->cache_dir ? dup_or_null(opts->cache_dir, &err) : NULL;
	s->osrelease = dup_or_null(opts->recorded_osrelease, &err);
	if (opts->nr_debug_dirs && opts->debug_dirs) {
		s->debug_dirs = calloc(opts->nr_debug_dirs, sizeof(char *));
		if (!s->debug_dirs)
			err = -ENOMEM;
		for (i = 0; s->debug_dirs && i < opts->nr_debug_dirs; i++) {
			s->debug_dirs[i] = dup_or_null(opts->debug_dirs[i] ? opts->debug_dirs[i] : "", &err);
			s->nr_debug_dirs = i + 1;
		}
	}
	bdir = opts->buildid_dir ? opts->buildid_dir : getenv("PERF_BUILDID_DIR");
	home = getenv("HOME");
	if (bdir && *bdir) {
		s->buildid_dir = dup_or_null(bdir, &err);
	} else if (home && *home && asprintf(&s->buildid_dir, "%s/.debug", home) < 0) {
		s->buildid_dir = NULL;
		err = -ENOMEM;
	}
	if (!err && opts->recorded_kernel_build_id && opts->recorded_kernel_build_id_size &&
	    opts->recorded_kernel_build_id_size <= BUILD_ID_MAX)
		err = symbols__set_build_id(s, "[kernel.kallsyms]", opts->recorded_kernel_build_id,
					    opts->recorded_kernel_build_id_size);
	if (err) {
		symbols__delete(s);
		return err;
	}
	*out = s;
	return 0;
}

static void free_plain(void *p)
{
	free(p);
}

void symbols__delete(struct symbols *s)
{
	size_t i;

	if (!s)
		return;
	symbols__stop_kernel_ahead(s);
	hashmap__release(&s->dsos, dso_free);
	hashmap__release(&s->jitdumps, jitdump__free);
	dso_free(s->kernel);
	hashmap__release(&s->build_ids, free_plain);
	free(s->ksyms);
	free(s->ksyms_text);
	hashmap__release(&s->strings, free_string);
	for (i = 0; i < s->nr_debug_dirs; i++)
		free(s->debug_dirs[i]);
	free(s->debug_dirs);
	free(s->symfs);
	free(s->kallsyms);
	free(s->vmlinux);
	disasm__close_vmlinux(s);
	free(s->cache_dir);
	free(s->osrelease);
	free(s->vdso_path);
	free(s->late_osrelease);
	free(s->buildid_dir);
	debuginfod__release(s);
	free(s);
}

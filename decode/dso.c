/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ELF DSOs through libbfd: the binary (--symfs, the build-id cache,
 * debuginfod), its separate debug file (by build id under /usr/lib/debug,
 * --debug-dir and ~/.debug, by path, by .gnu_debuglink, debuginfod), the
 * symbol table, PLT symbols,
 * the PT_LOAD program headers, source lines.
 *
 * Follows Linux perf 6.1 tools/perf/util/symbol-elf.c (dso__load_sym,
 * dso__synthesize_plt_symbols) and symbol.c (dso__load's search order):
 *  - symbols: .symtab, else (stripped) a separate debug file's .symtab,
 *    else .dynsym; STT_FUNC, STT_GNU_IFUNC, STT_OBJECT and visible NOTYPE
 *    labels in text/data sections; SHF_ALLOC sections only; no SHN_ABS.
 *  - demangling with no options (perf's default): no parameter lists,
 *    "geo::Grid<double>::relax"; bfd's "@VERSION" suffixes of dynamic
 *    symbols dropped (perf reads raw ELF names).
 *  - "name@plt" for each .rela.plt entry.
 * Source lines: through libdw (dwlines.c), with the answers of libbfd's
 * bfd_find_nearest_line (innermost inline frame), bfd_find_inliner_info
 * and bfd_find_line (DW_AT_decl_file/decl_line of the function), as
 * basenames like perf's srcline without --full-source-path.  libbfd's own
 * DWARF reader parsed every unit of a file at the first lookup; libdw
 * reads the unit of the address (README: source lines and speed).
 *
 * Errors: a file that is missing, that bfd cannot read, or that has no
 * symbols or no debug info is no error.  Running out of memory (ours or
 * libbfd's, bfd_error_no_memory) or EIO is: it is kept with symbols__fail
 * where it happens and dso__load_elf and the lookups return it, so a
 * failed copy never turns into an [unknown] in a report.
 */
#include "decode/bfdlib.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/log.h"
#include "util/strbuf.h"
#include "perffile/buildid.h"
#include "perffile/elf.h"
#include "decode/dwlines.h"
#include "decode/symbols_internal.h"

/* bfd's DMGL_NO_OPTS (include/demangle.h, not installed) */
#define DEMANGLE_NO_OPTS 0

/*
 * binutils' elf_symbol_type (bfd/elf-bfd.h, not installed): the asymbol is
 * followed by the ELF symbol.  Used only after check_elf_mirror() has
 * verified the layout against bfd's own view of every symbol.
 */
struct elf_internal_sym_mirror {
	bfd_vma st_value;
	bfd_vma st_size;
	unsigned long st_name;
	unsigned char st_info;
	unsigned char st_other;
	unsigned char st_target_internal;
	unsigned int st_shndx;
};

struct elf_symbol_mirror {
	asymbol symbol;
	struct elf_internal_sym_mirror internal;
};

struct dso_elf {
	struct elf_load_seg *segs;	/* PT_LOAD headers */
	size_t nr_segs;
	bfd *bfds[2];		/* main and debug file, either may be NULL */
	asymbol **symtabs[2];	/* canonical tables, owned */
	bfd *line_bfd;		/* one of bfds[]: the file with the DWARF, or NULL */
	struct dwlines *lines;	/* line_bfd's DWARF, opened at the first lookup */
	int lines_opened;
	int line_mirror;	/* line_bfd's symbols checked by check_elf_mirror: 1 fit, -1 not, 0 unknown */
	char *main_path;	/* the binary opened (symfs, build-id cache, ...), or NULL */
	int syms_from_debug;	/* the dso's symbols are the debug file's .symtab (the binary has none) */
};

/*
 * After a bfd call that failed (bfd_set_error(bfd_error_no_error) before
 * it): -ENOMEM or -EIO, kept (symbols__fail), when that was the cause;
 * 0 for a file bfd cannot use.
 */
static int bfd_failed(struct symbols *s)
{
	bfd_error_type e = bfdlib.get_error();

	if (e == bfd_error_no_memory)
		return symbols__fail(s, -ENOMEM);
	if (e == bfd_error_system_call && (errno == ENOMEM || errno == EIO))
		return symbols__fail(s, -errno);
	return 0;
}

int dso__bfd_ready(struct symbols *s)
{
	if (!bfdlib__load())
		return 0;
	if (!s->err)
		log_msg(s->log, LOG_ERR, "cannot load %s: %s", bfdlib__soname(), bfdlib__error());
	return symbols__fail(s, -EIO);
}

/* the one warning per dso: a file with another build id than the recording */
static void warn_build_id(struct symbols *s, struct dso *d, const char *what)
{
	if (d->warned)
		return;
	d->warned = 1;
	log_msg(s->log, LOG_WARN, "build id of %s%s differs from the recording: not used", d->path, what);
}

static uint64_t rd(const unsigned char *p, size_t n, int swap)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (swap)
			v = (v << 8) | p[i];
		else
			v |= (uint64_t)p[i] << (8 * i);
	}
	return v;
}

/* the PT_LOAD program headers of the ELF file at path (none for other files): 0 or a negative errno */
static int read_load_segs(const char *path, struct elf_load_seg **segs, size_t *nr)
{
	struct elf_file *ef;
	int err = elf_file__open(&ef, path);

	*segs = NULL;
	*nr = 0;
	if (err)
		return err == -EINVAL ? 0 : err;
	err = elf_file__load_segs(ef, segs, nr);
	elf_file__delete(ef);
	return err;
}

/*
 * sh_entsize of the section called name (bfd does not keep it); 0 when
 * absent, or when out of memory or EIO (kept, symbols__fail).
 */
static uint64_t elf_section_entsize(struct symbols *s, const char *path, const char *name)
{
	struct elf_file *ef;
	uint64_t entsize = 0;
	int err = elf_file__open(&ef, path);

	if (err == -ENOMEM || err == -EIO)
		symbols__fail(s, err);
	if (!err)
		entsize = elf_file__section_entsize(ef, name);
	elf_file__delete(ef);
	return entsize;
}

uint64_t dso__file_vaddr(const struct dso *d, uint64_t off)
{
	size_t i;

	if (!d->elf)
		return off;
	for (i = 0; i < d->elf->nr_segs; i++) {
		const struct elf_load_seg *g = &d->elf->segs[i];

		if (off >= g->offset && off - g->offset < g->filesz)
			return off - g->offset + g->vaddr;
	}
	/* no program headers (or outside them): offsets are addresses */
	return off;
}

/*
 * A file that exists but that bfd cannot read: unresolved, one warning per
 * dso.  NULL also when bfd ran out of memory (kept, symbols__fail).
 */
static bfd *open_bfd(struct symbols *s, struct dso *d, const char *path)
{
	bfd *abfd;

	if (!symcache__probe(s, d, path) || dso__bfd_ready(s))
		return NULL;
	bfdlib.set_error(bfd_error_no_error);
	abfd = bfdlib.openr(path, NULL);
	if (abfd) {
		abfd->flags |= BFD_DECOMPRESS;
		if (bfdlib.check_format(abfd, bfd_object))
			return abfd;
	}
	if (bfd_failed(s)) {
		if (abfd)
			bfdlib.close(abfd);
		return NULL;
	}
	if (!d->warned) {
		d->warned = 1;
		log_msg(s->log, LOG_WARN, "%s: cannot read symbols: %s", path, bfdlib.errmsg(bfdlib.get_error()));
	}
	if (abfd)
		bfdlib.close(abfd);
	return NULL;
}

/*
 * The NT_GNU_BUILD_ID note of a bfd's file (kept in separate debug files
 * too).  Size or 0; out of memory or EIO opening it is kept (symbols__fail).
 */
static size_t bfd_read_build_id(struct symbols *s, bfd *abfd, uint8_t *id)
{
	struct elf_file *ef;
	size_t n = 0;
	int err = elf_file__open(&ef, bfd_get_filename(abfd));

	if (err == -ENOMEM || err == -EIO)
		symbols__fail(s, err);
	if (!err && elf_file__build_id(ef, id, &n))
		n = 0;
	elf_file__delete(ef);
	return n;
}

static int bfd_build_id_matches(struct symbols *s, bfd *abfd, const struct recorded_id *rec)
{
	uint8_t id[BUILD_ID_MAX];
	size_t n;

	if (!rec)
		return 1;
	n = bfd_read_build_id(s, abfd, id);
	return !n || build_id__equal(id, n, rec->data, rec->size);
}

static int has_dwarf(bfd *abfd)
{
	return bfdlib.get_section_by_name(abfd, ".debug_info") ||
	       bfdlib.get_section_by_name(abfd, ".zdebug_info");
}

static int has_functions(asymbol **syms, long count)
{
	long i;

	for (i = 0; i < count; i++)
		if (syms[i]->flags & (BSF_FUNCTION | BSF_GNU_INDIRECT_FUNCTION))
			return 1;
	return 0;
}

/* a symbol table, or NULL: none, or out of memory (kept, symbols__fail) */
static asymbol **read_symtab(struct symbols *s, bfd *abfd, int dynamic, long *count)
{
	long size;
	asymbol **syms;

	*count = 0;
	if (!(bfd_get_file_flags(abfd) & HAS_SYMS) && !dynamic)
		return NULL;
	bfdlib.set_error(bfd_error_no_error);
	size = dynamic ? bfd_get_dynamic_symtab_upper_bound(abfd) : bfd_get_symtab_upper_bound(abfd);
	if (size <= 0) {
		bfd_failed(s);
		return NULL;
	}
	syms = malloc((size_t)size);
	if (!syms) {
		symbols__fail(s, -ENOMEM);
		return NULL;
	}
	bfdlib.set_error(bfd_error_no_error);
	*count = dynamic ? bfd_canonicalize_dynamic_symtab(abfd, syms) :
			   bfd_canonicalize_symtab(abfd, syms);
	if (*count <= 0) {
		if (*count < 0)
			bfd_failed(s);
		free(syms);
		*count = 0;
		return NULL;
	}
	return syms;
}

/*
 * Does elf_symbol_mirror describe this bfd's symbols?  Every symbol with a
 * real section must agree on address and on function-ness.
 */
static int check_elf_mirror(bfd *abfd, asymbol **syms, long count)
{
	long i;

	if (bfd_get_flavour(abfd) != bfd_target_elf_flavour)
		return 0;
	for (i = 0; i < count; i++) {
		const asymbol *sy = syms[i];
		const struct elf_internal_sym_mirror *e = &((const struct elf_symbol_mirror *)sy)->internal;
		unsigned type = ELF64_ST_TYPE(e->st_info);
		int func = type == STT_FUNC || type == STT_GNU_IFUNC;

		if (!sy->section || bfd_is_abs_section(sy->section) ||
		    bfd_is_und_section(sy->section) || bfd_is_com_section(sy->section))
			continue;
		if (sy->flags & (BSF_SECTION_SYM | BSF_SYNTHETIC))
			continue;
		if (e->st_value != bfd_asymbol_value(sy))
			return 0;
		if (func != !!(sy->flags & (BSF_FUNCTION | BSF_GNU_INDIRECT_FUNCTION)))
			return 0;
	}
	return 1;
}

/*
 * raw demangled as perf prints it (malloc'd), or NULL: not mangled, or
 * --no-demangle, or out of memory (kept, symbols__fail: the demangler
 * says no more than NULL, malloc's errno tells)
 */
static char *demangle(struct symbols *s, bfd *abfd, const char *raw)
{
	char *dem;

	/* a JIT's names (jitdump.c) come before any bfd is opened */
	if (s->no_demangle || !*raw || dso__bfd_ready(s))
		return NULL;
	errno = 0;
	dem = bfdlib.demangle(abfd, raw, DEMANGLE_NO_OPTS);
	if (!dem && errno == ENOMEM)
		symbols__fail(s, -ENOMEM);
	return dem;
}

const char *dso__demangled_name(struct symbols *s, const char *raw)
{
	char *dem = demangle(s, NULL, raw);
	const char *name;

	if (!dem)
		return s->err ? NULL : symbols__intern(s, raw);
	name = symbols__intern(s, dem);
	free(dem);
	return name;
}

static const char *symbol_name(struct symbols *s, bfd *abfd, const char *raw, int dynamic)
{
	char *dem;
	const char *name;
	const char *at;
	size_t len = strlen(raw);

	/* bfd appends symbol versions to dynamic names; perf's libelf does not */
	if (dynamic && (at = strchr(raw, '@')) && at != raw)
		len = (size_t)(at - raw);
	if (len == strlen(raw)) {
		dem = demangle(s, abfd, raw);
	} else {
		char *tmp = strndup(raw, len);

		if (!tmp) {
			symbols__fail(s, -ENOMEM);
			return NULL;
		}
		dem = demangle(s, abfd, tmp);
		if (!dem) {
			name = symbols__intern(s, tmp);
			free(tmp);
			return name;
		}
		free(tmp);
	}
	if (dem) {
		name = symbols__intern(s, dem);
		free(dem);
		return name;
	}
	return symbols__intern_n(s, raw, len);
}

static int section_name_has(const asection *sec, const char *what)
{
	const char *n = bfd_section_name(sec);

	return n && strstr(n, what);
}

/* the perf symbol filter; 1 when kept, with bind and size set */
static int keep_symbol(const asymbol *sy, int mirror, uint8_t *bind, uint64_t *size)
{
	const asection *sec = sy->section;

	if (!sy->name || !sy->name[0] || !sec)
		return 0;
	if (bfd_is_und_section(sec) || bfd_is_abs_section(sec) || bfd_is_com_section(sec))
		return 0;
	if (sy->flags & (BSF_SECTION_SYM | BSF_FILE | BSF_DEBUGGING))
		return 0;
	if (!(bfd_section_flags(sec) & SEC_ALLOC))
		return 0;
	if (mirror) {
		const struct elf_internal_sym_mirror *e = &((const struct elf_symbol_mirror *)sy)->internal;
		unsigned type = ELF64_ST_TYPE(e->st_info);
		unsigned vis = ELF64_ST_VISIBILITY(e->st_other);

		if (type == STT_NOTYPE) {
			if (vis == STV_HIDDEN || vis == STV_INTERNAL)
				return 0;
			if (!section_name_has(sec, "text") && !section_name_has(sec, "data"))
				return 0;
		} else if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_OBJECT) {
			return 0;
		}
		*bind = ELF64_ST_BIND(e->st_info);
		*size = e->st_size;
		return 1;
	}
	if (!(sy->flags & (BSF_FUNCTION | BSF_GNU_INDIRECT_FUNCTION)))
		return 0;
	*bind = sy->flags & BSF_WEAK ? STB_WEAK : sy->flags & BSF_GLOBAL ? STB_GLOBAL : STB_LOCAL;
	*size = 0;
	return 1;
}

static int load_bfd_symbols(struct symbols *s, struct dso *d, bfd *abfd, asymbol **syms,
			    long count, int dynamic, int same_as_lines)
{
	int mirror = check_elf_mirror(abfd, syms, count);
	struct sym *v;
	size_t n = 0;
	long i;

	v = calloc((size_t)count, sizeof(*v));
	if (!v)
		return symbols__fail(s, -ENOMEM);
	for (i = 0; i < count; i++) {
		asymbol *sy = syms[i];
		uint64_t size, start;
		uint8_t bind;

		if (!keep_symbol(sy, mirror, &bind, &size))
			continue;
		start = bfd_asymbol_value(sy);
		v[n].start = start;
		v[n].end = size && start + size > start ? start + size : start;
		v[n].name = symbol_name(s, abfd, sy->name, dynamic);
		if (!v[n].name || s->err) {
			free(v);
			return symbols__fail(s, -ENOMEM);
		}
		v[n].aux = same_as_lines ? sy : NULL;
		v[n].idx = (uint32_t)i;
		v[n].bind = bind;
		n++;
	}
	d->nr_syms = symtab__finish(v, n, 0);
	d->syms = v;
	return 0;
}

/* a section's contents, malloc'd, or NULL (out of memory: kept, symbols__fail) */
static bfd_byte *section_bytes(struct symbols *s, bfd *abfd, const char *name, uint64_t *size)
{
	asection *sec = bfdlib.get_section_by_name(abfd, name);
	bfd_byte *buf = NULL;

	*size = 0;
	if (!sec || !(bfd_section_flags(sec) & SEC_HAS_CONTENTS) || !bfd_section_size(sec))
		return NULL;
	bfdlib.set_error(bfd_error_no_error);
	if (!bfdlib.malloc_and_get_section(abfd, sec, &buf)) {
		bfd_failed(s);
		return NULL;
	}
	*size = bfd_section_size(sec);
	return buf;
}

/*
 * perf 6.1's dso__synthesize_plt_symbols(): one "name@plt" symbol per
 * .rela.plt (or .rel.plt) entry, at .plt + header + i * entry size, where
 * header and entry size are .plt's sh_entsize (x86).  Added after the end
 * and alias fixups, with their own size, as perf does.  perf uses
 * .plt's file offset as the address; this uses its vaddr, the same in
 * every usual layout.  0 or -ENOMEM (kept).
 */
static int synthesize_plt(struct symbols *s, struct dso *d, bfd *abfd)
{
	asection *plt = bfdlib.get_section_by_name(abfd, ".plt");
	bfd_byte *rel = NULL, *dsym = NULL, *dstr = NULL;
	uint64_t relsz, dsymsz, dstrsz, entsz, relent, syment, nrel, i, addr;
	int is64 = bfdlib.get_arch_size(abfd) == 64, swap = bfd_big_endian(abfd), rela = 1;
	struct strbuf name = STRBUF_INIT;
	struct sym *v;
	size_t n = d->nr_syms;

	if (!plt || bfd_get_flavour(abfd) != bfd_target_elf_flavour)
		return 0;
	entsz = elf_section_entsize(s, bfd_get_filename(abfd), ".plt");
	if (!entsz || entsz > bfd_section_size(plt))
		return s->err;
	rel = section_bytes(s, abfd, ".rela.plt", &relsz);
	if (!rel && !s->err) {
		rel = section_bytes(s, abfd, ".rel.plt", &relsz);
		rela = 0;
	}
	dsym = section_bytes(s, abfd, ".dynsym", &dsymsz);
	dstr = section_bytes(s, abfd, ".dynstr", &dstrsz);
	if (!rel || !dsym || !dstr || s->err)
		goto out;
	relent = is64 ? (rela ? 24 : 16) : (rela ? 12 : 8);
	syment = is64 ? 24 : 16;
	nrel = relsz / relent;
	if (n >= SIZE_MAX / sizeof(*v) - 1 || nrel > SIZE_MAX / sizeof(*v) - 1 - n)
		goto out;
	v = realloc(d->syms, (n + nrel + 1) * sizeof(*v));
	if (!v) {
		symbols__fail(s, -ENOMEM);
		goto out;
	}
	d->syms = v;
	addr = bfd_section_vma(plt) + entsz;
	for (i = 0; i < nrel; i++, addr += entsz) {
		const bfd_byte *r = rel + i * relent;
		uint64_t info = is64 ? rd(r + 8, 8, swap) : rd(r + 4, 4, swap);
		uint64_t symidx = is64 ? info >> 32 : info >> 8;
		uint64_t stname;
		const char *raw = "", *nm;
		char *dem;

		if (symidx < dsymsz / syment) {
			stname = rd(dsym + symidx * syment, 4, swap);
			if (stname < dstrsz && memchr(dstr + stname, '\0', dstrsz - stname))
				raw = (const char *)dstr + stname;
		}
		dem = demangle(s, abfd, raw);
		strbuf__reset(&name);
		if (s->err || strbuf__addstr(&name, dem ? dem : raw) || strbuf__addstr(&name, "@plt")) {
			free(dem);
			symbols__fail(s, -ENOMEM);
			break;
		}
		free(dem);
		nm = symbols__intern(s, name.buf);
		if (!nm)
			break;
		memset(&v[n], 0, sizeof(v[n]));
		v[n].start = addr;
		v[n].end = addr + entsz;
		v[n].name = nm;
		v[n].bind = STB_GLOBAL;
		v[n].idx = UINT32_MAX;
		n++;
	}
	if (n > d->nr_syms) {
		symtab__sort(v, n);
		d->nr_syms = n;
	}
out:
	strbuf__release(&name);
	free(rel);
	free(dsym);
	free(dstr);
	return s->err;
}

/* asprintf's string, or NULL when out of memory */
__attribute__((format(printf, 1, 2)))
static char *path_printf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : p;
}

static int add_candidate(struct strbuf *path, const char *a, const char *b, const char *c)
{
	strbuf__reset(path);
	if (strbuf__addstr(path, a) || strbuf__addstr(path, b) || strbuf__addstr(path, c))
		return -ENOMEM;
	return 0;
}

/* open path as a debug file: readable, and with the wanted build id when one is known */
static bfd *try_debug(struct symbols *s, struct dso *d, const char *path, const uint8_t *id, size_t idsz)
{
	uint8_t got[BUILD_ID_MAX];
	size_t n;
	bfd *abfd = open_bfd(s, d, path);

	if (!abfd || !id)
		return abfd;
	n = bfd_read_build_id(s, abfd, got);
	if (!n || build_id__equal(got, n, id, idsz))
		return abfd;
	log_msg(s->log, LOG_DEBUG, "%s: build id differs from %s's: not used", path, d->path);
	bfdlib.close(abfd);
	return NULL;
}

/*
 * The build-id cache's copy of the binary (.build-id/xx/.../elf) as the
 * file of its symbols, where the binary found has none: the same build
 * stripped since (perf buildid-cache -a of the unstripped one leaves it
 * there); perf takes the first file with a .symtab.  Only one with
 * functions, and not the binary itself.  NULL when none (or out of memory: kept).
 */
static bfd *cached_copy(struct symbols *s, struct dso *d, bfd *main_bfd, const uint8_t *id, size_t idsz,
			struct strbuf *path)
{
	char hex[2 * BUILD_ID_MAX + 1], sub[2 * BUILD_ID_MAX + 32];
	asymbol **syms;
	long count;
	bfd *abfd;

	build_id__hex(id, idsz, hex);
	snprintf(sub, sizeof(sub), "/.build-id/%.2s/%s/elf", hex, hex + 2);
	if (add_candidate(path, s->buildid_dir, sub, "")) {
		symbols__fail(s, -ENOMEM);
		return NULL;
	}
	if (main_bfd && !strcmp(path->buf, bfd_get_filename(main_bfd)))
		return NULL;
	abfd = try_debug(s, d, path->buf, id, idsz);
	syms = abfd && !s->err ? read_symtab(s, abfd, 0, &count) : NULL;
	if (syms && has_functions(syms, count)) {
		free(syms);
		return abfd;
	}
	free(syms);
	if (abfd)
		bfdlib.close(abfd);
	return NULL;
}

/*
 * A debug file for d: by build id, by path, by .gnu_debuglink, the
 * build-id cache's copy of the binary (need_syms: the binary has no
 * functions), from debuginfod; NULL when
 * none, or out of memory (kept, symbols__fail: the search stops).  The
 * build id is the recorded one, else the main binary's.
 */
static bfd *find_debug_file(struct symbols *s, struct dso *d, bfd *main_bfd,
			    const struct recorded_id *rec, int need_syms)
{
	struct strbuf path = STRBUF_INIT;
	char hex[2 * BUILD_ID_MAX + 1];
	char sub[2 * BUILD_ID_MAX + 32];
	uint8_t own[BUILD_ID_MAX];
	const uint8_t *id = NULL;
	size_t idsz = 0, i, nroots;
	const char *roots[64];
	bfd *dbg = NULL;
	char *sysdebug = NULL, *dpath;

	if (rec) {
		id = rec->data;
		idsz = rec->size;
	} else if (main_bfd && (idsz = bfd_read_build_id(s, main_bfd, own))) {
		id = own;
	}
	if (asprintf(&sysdebug, "%s/usr/lib/debug", s->symfs) < 0) {
		symbols__fail(s, -ENOMEM);
		return NULL;
	}
	nroots = 0;
	roots[nroots++] = sysdebug;
	for (i = 0; i < s->nr_debug_dirs && nroots < sizeof(roots) / sizeof(roots[0]); i++)
		roots[nroots++] = s->debug_dirs[i];

	if (id && idsz >= 2) {
		build_id__hex(id, idsz, hex);
		snprintf(sub, sizeof(sub), "/.build-id/%.2s/%s.debug", hex, hex + 2);
		for (i = 0; i < nroots && !dbg && !s->err; i++) {
			if (add_candidate(&path, roots[i], sub, ""))
				goto out_nomem;
			dbg = try_debug(s, d, path.buf, id, idsz);
		}
		if (!dbg && !s->err && s->buildid_dir) {
			snprintf(sub, sizeof(sub), "/.build-id/%.2s/%s/debug", hex, hex + 2);
			if (add_candidate(&path, s->buildid_dir, sub, ""))
				goto out_nomem;
			dbg = try_debug(s, d, path.buf, id, idsz);
		}
	}
	for (i = 0; i < nroots && !dbg && !s->err && d->path[0] == '/'; i++) {
		if (add_candidate(&path, roots[i], d->path, ".debug"))
			goto out_nomem;
		dbg = try_debug(s, d, path.buf, id, idsz);
		if (!dbg && !s->err) {
			if (add_candidate(&path, roots[i], d->path, ""))
				goto out_nomem;
			dbg = try_debug(s, d, path.buf, id, idsz);
		}
	}
	for (i = 0; i < nroots && !dbg && !s->err && main_bfd; i++) {
		/* the binary's dir, its .debug/, and ROOT/<binary's dir>/, CRC checked */
		char *link;

		bfdlib.set_error(bfd_error_no_error);
		link = bfdlib.follow_gnu_debuglink(main_bfd, roots[i]);
		if (link) {
			dbg = try_debug(s, d, link, id, idsz);
			free(link);
		} else {
			bfd_failed(s);
		}
	}
	if (!dbg && !s->err && id && idsz >= 2 && need_syms && s->buildid_dir)
		dbg = cached_copy(s, d, main_bfd, id, idsz, &path);
	if (!dbg && !s->err && id && !debuginfod__find(s, d, 1, id, idsz, &dpath)) {
		dbg = try_debug(s, d, dpath, id, idsz);
		free(dpath);
	}
	goto out;
out_nomem:
	symbols__fail(s, -ENOMEM);
out:
	free(sysdebug);
	strbuf__release(&path);
	return dbg;
}

/* the binary by its recorded build id from debuginfod, into *opened; NULL when none */
static bfd *fetch_main_file(struct symbols *s, struct dso *d, const struct recorded_id *rec, char **opened)
{
	bfd *abfd;

	if (debuginfod__find(s, d, 0, rec->data, rec->size, opened))
		return NULL;
	abfd = open_bfd(s, d, *opened);
	if (abfd && bfd_build_id_matches(s, abfd, rec) && !s->err)
		return abfd;
	if (abfd)
		bfdlib.close(abfd);
	free(*opened);
	*opened = NULL;
	return NULL;
}

/*
 * A copy of this process's vdso in a memfd that stays open, by a path that
 * libbfd, the load segments and objdump (a child) can open; NULL when there
 * is none (said at -v) or out of memory (kept).
 */
static const char *vdso_copy(struct symbols *s)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR), start, end, size = 0;
	FILE *maps;
	char line[256];
	int fd;

	if (s->vdso_tried)
		return s->vdso_path;
	s->vdso_tried = 1;
	maps = base ? fopen("/proc/self/maps", "re") : NULL;
	while (maps && fgets(line, sizeof(line), maps))
		if (sscanf(line, "%lx-%lx", &start, &end) == 2 && start == base && end > start)
			size = end - start;
	if (maps)
		fclose(maps);
	fd = size ? memfd_create("readperf-vdso", MFD_CLOEXEC) : -1;
	if (fd < 0 || write(fd, (const void *)base, size) != (ssize_t)size) {
		log_msg(s->log, LOG_DEBUG, "[vdso]: no copy of this process's vdso");
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (asprintf(&s->vdso_path, "/proc/%ld/fd/%d", (long)getpid(), fd) < 0) {
		s->vdso_path = NULL;
		close(fd);
		symbols__fail(s, -ENOMEM);
	}
	return s->vdso_path;
}

/*
 * [vdso] that the build-id cache does not have (always in pipe mode): this
 * process's own, as perf does, where it is the recorded one: its build id
 * is the recorded one, or, none recorded, the running kernel (whose vdso it
 * is) is the recorded kernel by its build id or release.  A file that
 * records neither (old pipe-mode perf) is not trusted here, unlike perf:
 * another kernel's or architecture's vdso would name the addresses wrongly.
 * NULL when not, or out of memory (kept).
 */
static bfd *running_vdso(struct symbols *s, struct dso *d, const struct recorded_id *rec, char **opened)
{
	uint8_t id[BUILD_ID_MAX];
	const char *path;
	size_t n;
	bfd *abfd;

	if (!rec && kernel__running_is_recorded(s) != 1)
		return NULL;
	path = vdso_copy(s);
	abfd = path ? open_bfd(s, d, path) : NULL;
	if (!abfd)
		return NULL;
	n = rec ? bfd_read_build_id(s, abfd, id) : 0;
	if (!s->err && rec && (!n || !build_id__equal(id, n, rec->data, rec->size))) {
		log_msg(s->log, LOG_DEBUG, "[vdso]: this process's vdso is not the recorded one");
		bfdlib.close(abfd);
		return NULL;
	}
	if (!s->err && !(*opened = strdup(path)))
		symbols__fail(s, -ENOMEM);
	if (s->err) {
		bfdlib.close(abfd);
		return NULL;
	}
	d->running_vdso = 1;
	log_msg(s->log, LOG_DEBUG, "[vdso]: this process's own, %s", rec ? "the recorded build id" :
		"the running kernel is the recorded one");
	return abfd;
}

/*
 * The main binary: symfs/path; else, when the file recorded a build id that
 * the candidate matches, symfs/basename (a flat directory of binaries, as
 * test suites ship them), the plain path, the build-id cache, debuginfod.  NULL also
 * when out of memory (kept, symbols__fail).
 */
static bfd *find_main_file(struct symbols *s, struct dso *d, const struct recorded_id *rec,
			   char **opened)
{
	char hex[2 * BUILD_ID_MAX + 1];
	const char *cands[5];
	size_t nc = 0, i;
	char *c0 = NULL, *c1 = NULL, *c2 = NULL, *c3 = NULL;
	const char *mismatch = NULL;
	bfd *abfd = NULL;

	*opened = NULL;
	if (d->kind == DSO_VDSO) {
		if (!rec || !s->buildid_dir)
			return running_vdso(s, d, rec, opened);
		build_id__hex(rec->data, rec->size, hex);
		c0 = path_printf("%s/[vdso]/%s/vdso", s->buildid_dir, hex);
		if (!c0)
			goto out_nomem;
		cands[nc++] = c0;
	} else {
		c0 = path_printf("%s%s", s->symfs, d->path);
		if (!c0)
			goto out_nomem;
		cands[nc++] = c0;
		if (s->symfs[0] && rec) {
			const char *base = strrchr(d->path, '/');

			if (base && base != d->path) {
				c3 = path_printf("%s%s", s->symfs, base);
				if (!c3)
					goto out_nomem;
				cands[nc++] = c3;
			}
			cands[nc++] = d->path;
		}
		if (rec && s->buildid_dir) {
			build_id__hex(rec->data, rec->size, hex);
			c1 = path_printf("%s/.build-id/%.2s/%s/elf", s->buildid_dir, hex, hex + 2);
			c2 = path_printf("%s/.build-id/%.2s/%s", s->buildid_dir, hex, hex + 2);
			if (!c1 || !c2)
				goto out_nomem;
			cands[nc++] = c1;
			cands[nc++] = c2;
		}
	}
	for (i = 0; i < nc && !s->err; i++) {
		abfd = open_bfd(s, d, cands[i]);
		if (!abfd)
			continue;
		if (bfd_build_id_matches(s, abfd, rec) && !s->err) {
			*opened = strdup(cands[i]);
			if (!*opened) {
				symbols__fail(s, -ENOMEM);
				bfdlib.close(abfd);
				abfd = NULL;
			}
			break;
		}
		if (!mismatch)
			mismatch = cands[i];
		bfdlib.close(abfd);
		abfd = NULL;
	}
	if (!abfd && !s->err && rec && d->kind == DSO_ELF)
		abfd = fetch_main_file(s, d, rec, opened);
	if (!abfd && !s->err && d->kind == DSO_VDSO)
		abfd = running_vdso(s, d, rec, opened);
	/* one word per dso: a later candidate (the build-id cache) may still have the recorded file */
	if (mismatch && abfd && !d->warned) {
		d->warned = 1;
		log_msg(s->log, LOG_INFO, "build id of %s differs from the recording: symbols from %s instead",
			mismatch, *opened);
	} else if (mismatch && !abfd && !s->err) {
		warn_build_id(s, d, "");
	}
	goto out;
out_nomem:
	symbols__fail(s, -ENOMEM);
out:
	free(c0);
	free(c1);
	free(c2);
	free(c3);
	return abfd;
}

/* the error of a load step when it is one that ends the run (read_load_segs: an open race is not) */
static int seg_error(int err)
{
	return err == -ENOMEM || err == -EIO ? err : 0;
}

int dso__load_elf(struct symbols *s, struct dso *d)
{
	const struct recorded_id *rec = symbols__recorded_build_id(s, d->kind == DSO_VDSO ? "[vdso]" : d->path);
	char *main_path = NULL;
	bfd *main_bfd, *dbg = NULL;
	asymbol **msyms = NULL, **dsyms = NULL;
	long mcount = 0, dcount = 0;
	int main_has_dwarf, main_has_funcs, err;
	const char *from = "nowhere";

	main_bfd = find_main_file(s, d, rec, &main_path);
	if (main_bfd) {
		msyms = read_symtab(s, main_bfd, 0, &mcount);
		main_has_dwarf = has_dwarf(main_bfd);
	} else {
		main_has_dwarf = 0;
	}
	/* a .symtab left with only file and section symbols counts as none */
	main_has_funcs = msyms && has_functions(msyms, mcount);
	if (!s->err && d->kind == DSO_ELF &&
	    (!main_bfd || !main_has_funcs || (!main_has_dwarf && !s->no_source)))
		dbg = find_debug_file(s, d, main_bfd, main_bfd ? NULL : rec, !main_has_funcs);
	if (dbg && !s->err)
		dsyms = read_symtab(s, dbg, 0, &dcount);
	if (!s->err && !main_bfd && !dbg) {
		log_msg(s->log, LOG_DEBUG, "%s: no binary found for symbols", d->path);
		return 0;
	}
	d->elf = s->err ? NULL : calloc(1, sizeof(*d->elf));
	if (!d->elf) {
		free(main_path);
		free(msyms);
		free(dsyms);
		if (main_bfd)
			bfdlib.close(main_bfd);
		if (dbg)
			bfdlib.close(dbg);
		return s->err ? s->err : symbols__fail(s, -ENOMEM);
	}
	d->elf->main_path = main_path;
	d->elf->bfds[0] = main_bfd;
	d->elf->symtabs[0] = msyms;
	d->elf->bfds[1] = dbg;
	d->elf->symtabs[1] = dsyms;

	err = read_load_segs(main_path ? main_path : bfd_get_filename(dbg), &d->elf->segs, &d->elf->nr_segs);
	if (seg_error(err))
		return symbols__fail(s, err);

	/* lines: the debug file when it has DWARF, else the main file */
	if (dbg && has_dwarf(dbg))
		d->elf->line_bfd = dbg;
	else if (main_bfd && main_has_dwarf)
		d->elf->line_bfd = main_bfd;

	/* perf: the first file with a .symtab (debug files first), else .dynsym */
	if (main_has_funcs || (msyms && !dsyms)) {
		err = load_bfd_symbols(s, d, main_bfd, msyms, mcount, 0, d->elf->line_bfd == main_bfd);
		from = bfd_get_filename(main_bfd);
	} else if (dsyms) {
		err = load_bfd_symbols(s, d, dbg, dsyms, dcount, 0, d->elf->line_bfd == dbg);
		from = bfd_get_filename(dbg);
		d->elf->syms_from_debug = 1;
	} else if (main_bfd) {
		long count;
		asymbol **dyn = read_symtab(s, main_bfd, 1, &count);

		if (dyn) {
			err = load_bfd_symbols(s, d, main_bfd, dyn, count, 1, 0);
			/* the bfd symbols are not kept: drop pointers into them */
			free(dyn);
			from = ".dynsym";
		}
	}
	if (!err && s->err)
		err = s->err;
	if (!err && d->nr_syms && main_bfd)
		err = synthesize_plt(s, d, main_bfd);
	if (err)
		return symbols__fail(s, err);
	log_msg(s->log, LOG_DEBUG, "%s: %zu symbols from %s, lines from %s", d->path, d->nr_syms, from,
		d->elf->line_bfd ? bfd_get_filename(d->elf->line_bfd) : "nowhere");
	return 0;
}

/* 0 or -ENOMEM (kept: symbols__intern) */
static int set_file(struct symbols *s, const char *file, const char **base, const char **full)
{
	*full = symbols__intern(s, file);
	*base = *full ? symbols__intern(s, symbols__basename(file)) : NULL;
	return *base ? 0 : -ENOMEM;
}

/* line_bfd's DWARF, opened at the first call; NULL when unusable (out of memory or EIO: kept) */
static struct dwlines *line_reader(struct symbols *s, struct dso *d)
{
	struct dso_elf *e = d->elf;
	int err;

	if (!e->lines_opened) {
		e->lines_opened = 1;
		err = dwlines__open(&e->lines, bfd_get_filename(e->line_bfd));
		if (err == -ENOMEM || err == -EIO)
			symbols__fail(s, err);
	}
	return e->lines;
}

static int in_section(const asymbol *sy, uint64_t addr)
{
	const asection *sec = sy->section;

	return sec && addr >= bfd_section_vma(sec) && addr - bfd_section_vma(sec) < bfd_section_size(sec);
}

/*
 * What bfd_find_nearest_line names where the DWARF has no line for addr:
 * binutils 2.40's elf_find_function (bfd/elf.c) over the line file's
 * symbol table, the STT_FILE symbol before the function symbol at addr
 * ("malloc.o" in a static binary, as perf 6.1's srcfile shows it); NULL
 * when none.
 */
static const char *elf_find_file(struct dso *d, uint64_t addr)
{
	struct dso_elf *el = d->elf;
	asymbol **syms = el->bfds[0] == el->line_bfd ? el->symtabs[0] : el->symtabs[1];
	const asymbol *file = NULL;
	const char *found = NULL;
	uint64_t low = 0, best = 0;
	long count = 0;
	int seen = 0, file_after = 0;

	if (!el->line_mirror) {
		while (syms && syms[count])
			count++;
		el->line_mirror = count && check_elf_mirror(el->line_bfd, syms, count) ? 1 : -1;
	}
	if (el->line_mirror < 0)
		return NULL;
	for (; *syms; syms++) {
		const asymbol *sy = *syms;
		const struct elf_internal_sym_mirror *e = &((const struct elf_symbol_mirror *)sy)->internal;
		uint64_t size, v;

		if (sy->flags & BSF_FILE) {
			file = sy;
			file_after |= seen;
			continue;
		}
		seen = 1;
		if ((sy->flags & (BSF_SECTION_SYM | BSF_OBJECT | BSF_THREAD_LOCAL | BSF_RELC | BSF_SRELC)) ||
		    !in_section(sy, addr))
			continue;
		size = sy->flags & BSF_SYNTHETIC ? 0 : e->st_size;
		/* annobin's hidden local NOTYPE markers are no functions (_bfd_elf_maybe_function_sym) */
		if (!size && (sy->flags & (BSF_SYNTHETIC | BSF_LOCAL)) == BSF_LOCAL &&
		    ELF64_ST_TYPE(e->st_info) == STT_NOTYPE && ELF64_ST_VISIBILITY(e->st_other) == STV_HIDDEN)
			continue;
		size = size ? size : 1;
		v = bfd_asymbol_value(sy);
		if (v <= addr && (v > low || (v == low && size > best))) {
			low = v;
			best = size;
			found = file && (ELF64_ST_BIND(e->st_info) == STB_LOCAL || !file_after) ?
				bfd_asymbol_name(file) : NULL;
		}
	}
	return found;
}

/* the frames at addr (dwlines__frames); out of memory is kept (symbols__fail) and is 0 frames */
static int line_frames(struct symbols *s, struct dso *d, uint64_t addr, struct dwframe *f, size_t max)
{
	struct dwlines *w = line_reader(s, d);
	int n = w ? dwlines__frames(w, addr, f, max) : 0;

	if (n < 0) {
		symbols__fail(s, n);
		return 0;
	}
	if (max && (!n || !f[0].file)) {
		f[0].file = elf_find_file(d, addr);
		if (!n) {
			f[0].func = NULL;
			f[0].line = 0;
			n = f[0].file ? 1 : 0;
		}
	}
	return n;
}

/*
 * Where the function of sym is defined, into sym's def fields; 0 or
 * -ENOMEM.  bfd_find_line's rule: the declaration of the function DIE the
 * symbol names, when the symbol comes from the file with the DWARF and is
 * a function.
 */
static int lookup_def(struct symbols *s, struct dso *d, struct sym *sym)
{
	const asymbol *sy = sym->aux;
	struct dwframe f[MAX_INLINE + 1];
	struct dwlines *w;
	const char *file = NULL;
	unsigned line = 0;
	int i, n;

	if (sy && (sy->flags & BSF_FUNCTION) && (w = line_reader(s, d))) {
		n = dwlines__decl(w, sym->start, bfd_asymbol_name(sy), &file, &line);
		if (n < 0)
			return symbols__fail(s, n);
		if (n && file && *file) {
			sym->def_line = line;
			return set_file(s, file, &sym->def_file, &sym->def_path);
		}
	}
	/*
	 * Else the outermost frame at the symbol's first address: its file is
	 * the function's (the line is then a call site when code was inlined
	 * at the very start).
	 */
	n = line_frames(s, d, sym->start, f, MAX_INLINE + 1);
	if (!n || !f[0].file || !*f[0].file)
		return s->err;
	file = f[0].file;
	for (i = 0; i < n; i++) {
		if (f[i].file && *f[i].file)
			file = f[i].file;
		line = f[i].line;
	}
	sym->def_line = line;
	return set_file(s, file, &sym->def_file, &sym->def_path);
}

int dso__set_cached(struct symbols *s, struct dso *d, struct elf_load_seg *segs, size_t nr_segs,
		    char *main_path)
{
	d->elf = calloc(1, sizeof(*d->elf));
	if (!d->elf)
		return symbols__fail(s, -ENOMEM);
	d->elf->segs = segs;
	d->elf->nr_segs = nr_segs;
	d->elf->main_path = main_path;
	d->from_cache = 1;
	return 0;
}

const struct elf_load_seg *dso__cached_segs(const struct dso *d, size_t *n)
{
	*n = d->elf ? d->elf->nr_segs : 0;
	return d->elf ? d->elf->segs : NULL;
}

int dso__has_lines(const struct dso *d)
{
	if (!d->elf)
		return 0;
	return d->from_cache ? d->cache_has_lines : d->elf->line_bfd != NULL;
}

/*
 * A dso from the symbol cache met an address or symbol the cache does not
 * have: load it from its files after all, keeping the definitions the
 * cache had.  *sym (a symbol of the old table, or NULL) is moved to the
 * same symbol of the new one.  0 or the error (kept).
 */
static int load_from_files(struct symbols *s, struct dso *d, struct sym **sym)
{
	struct sym *old = d->syms;
	size_t n = d->nr_syms, i, at = sym && *sym ? (size_t)(*sym - old) : SIZE_MAX;
	int same, err;

	d->from_cache = 0;
	d->cache_dirty = 1;
	d->syms = NULL;
	d->nr_syms = 0;
	dso__release_elf(d);
	symcache__release_probes(d);
	err = dso__load_elf(s, d);
	if (err || !d->nr_syms) {
		/* the files went away since the cache was checked: keep the cached symbols, no lines */
		free(d->syms);
		d->syms = old;
		d->nr_syms = n;
		if (d->elf)
			d->elf->line_bfd = NULL;
		return err;
	}
	same = d->nr_syms == n;
	for (i = 0; same && i < n; i++) {
		same = d->syms[i].start == old[i].start && d->syms[i].name == old[i].name;
		if (same && old[i].def_done) {
			d->syms[i].def_done = 1;
			d->syms[i].def_file = old[i].def_file;
			d->syms[i].def_path = old[i].def_path;
			d->syms[i].def_line = old[i].def_line;
		}
	}
	if (sym && *sym)
		*sym = same && at < n ? &d->syms[at] : NULL;
	free(old);
	return 0;
}

int dso__lookup_lines(struct symbols *s, struct dso *d, struct sym_result *r,
		      struct sym *sym, uint64_t addr)
{
	struct dwframe f;

	if (!d->elf)
		return 0;
	if (d->from_cache) {
		void **slot = d->cached_lines ? hashmap__find(d->cached_lines, &addr, sizeof(addr)) : NULL;

		if (!d->cache_has_lines)
			return 0;
		if (slot) {
			const struct cached_line *c = *slot;

			r->src_file = c->file;
			r->src_path = c->path;
			r->src_line = c->line;
			return sym ? dso__lookup_def(s, d, r, sym) : 0;
		}
		if (load_from_files(s, d, &sym))
			return s->err;
	}
	if (!d->elf || !d->elf->line_bfd)
		return 0;
	d->cache_dirty = 1;
	if (line_frames(s, d, addr, &f, 1) && f.file && *f.file) {
		if (set_file(s, f.file, &r->src_file, &r->src_path))
			return s->err;
		r->src_line = f.line;
	}
	if (s->err)
		return s->err;
	return sym ? dso__lookup_def(s, d, r, sym) : 0;
}

int dso__lookup_inlines(struct symbols *s, struct dso *d, uint64_t addr, const char **names, size_t max)
{
	struct dwframe f[MAX_INLINE + 1];
	size_t n, i, got = 0;

	if (d->elf && d->from_cache && d->cache_has_lines && max && load_from_files(s, d, NULL))
		return s->err;
	if (!d->elf || !d->elf->line_bfd || !max)
		return 0;
	/* the innermost function first, then each caller it was inlined into; the last is the real one */
	n = (size_t)line_frames(s, d, addr, f, MAX_INLINE + 1);
	if (s->err)
		return s->err;
	for (i = 0; i + 1 < n && got < max; i++) {
		char *dem;

		if (!f[i].func || !*f[i].func)
			continue;
		dem = demangle(s, d->elf->line_bfd, f[i].func);
		names[got] = s->err ? NULL : symbols__intern(s, dem ? dem : f[i].func);
		free(dem);
		if (!names[got])
			return s->err ? s->err : symbols__fail(s, -ENOMEM);
		got++;
	}
	return (int)got;
}

int dso__lookup_def(struct symbols *s, struct dso *d, struct sym_result *r, struct sym *sym)
{
	if (d->elf && d->from_cache && d->cache_has_lines && !sym->def_done) {
		if (load_from_files(s, d, &sym))
			return s->err;
		if (!sym)
			return 0;
	}
	if (!d->elf || (d->from_cache ? !d->cache_has_lines : !d->elf->line_bfd))
		return 0;
	if (!sym->def_done) {
		sym->def_done = 1;
		d->cache_dirty = 1;
		if (lookup_def(s, d, sym))
			return s->err;
	}
	r->def_file = sym->def_file;
	r->def_path = sym->def_path;
	r->def_line = sym->def_line;
	return 0;
}

uint64_t dso__elf_sym_size(const struct bfd_symbol *sym)
{
	return ((const struct elf_symbol_mirror *)sym)->internal.st_size;
}

struct bfd *dso__code_bfd(struct symbols *s, struct dso *d)
{
	if (!d->loaded || (d->kind != DSO_ELF && d->kind != DSO_VDSO) || !d->elf)
		return NULL;
	if (d->from_cache && load_from_files(s, d, NULL))
		return NULL;
	return d->elf ? d->elf->bfds[0] : NULL;
}

int dso__at_entry(struct symbols *s, struct dso *d, uint64_t vaddr)
{
	bfd *abfd = dso__code_bfd(s, d);
	uint64_t entry = abfd ? (uint64_t)bfd_get_start_address(abfd) : 0;

	return entry && vaddr >= entry && vaddr - entry < SYMBOLS_ENTRY_BYTES;
}

int dso__syms_from_debug(const struct dso *d)
{
	return d->elf && d->elf->syms_from_debug;
}

void dso__release_elf(struct dso *d)
{
	struct dso_elf *e = d->elf;
	int i;

	disasm__release(d->disasm);
	d->disasm = NULL;
	if (!e)
		return;
	free(e->main_path);
	for (i = 0; i < 2; i++) {
		if (e->bfds[i])
			bfdlib.close(e->bfds[i]);
		free(e->symtabs[i]);
	}
	dwlines__delete(e->lines);
	free(e->segs);
	free(e);
	d->elf = NULL;
}

/*
 * libbfd 2.40 leaks one small block per bfd inside its DWARF line reader
 * (_bfd_elf_find_nearest_line, seen with C++ debug info; once per file,
 * not per lookup).  Tell LeakSanitizer, so sanitizer builds of anything
 * using this module stay clean.  libbfd has no frame pointers, so the
 * default fast unwinder sees only the module: match on it.  Exists only in
 * -fsanitize=address builds.
 */
#if defined(__SANITIZE_ADDRESS__)
#define DSO_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DSO_ASAN 1
#endif
#endif
#ifdef DSO_ASAN
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:_bfd_elf_find_nearest_line\nleak:libbfd\n";
}
#endif

const char *dso__loader_id(void)
{
	return bfdlib__soname();
}

const char *dso__main_file(const struct dso *d)
{
	return d->elf ? d->elf->main_path : NULL;
}

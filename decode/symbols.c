/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Symbol resolution with libbfd, in process, cached.
 *
 * Follows Linux perf 6.1 (tools/perf/util/symbol.c, symbol-elf.c, dso.c,
 * map.c) where it decides what `perf report` prints:
 *  - ELF symbols: .symtab, else (stripped) a separate debug file's .symtab,
 *    else .dynsym; STT_FUNC, STT_GNU_IFUNC, STT_OBJECT and visible NOTYPE
 *    labels in text/data sections, in SHF_ALLOC sections, not SHN_ABS
 *    (symbol-elf.c dso__load_sym_internal).
 *  - symbols__fixup_end: a zero-size symbol ends where the next one starts,
 *    the last one at the next page; sized symbols keep their size, so an
 *    address in the padding after a function is unresolved, as in perf.
 *  - symbols__fixup_duplicate/choose_best_symbol among aliases at one
 *    address: non-zero size, then non-weak, then global, then fewer leading
 *    underscores, then the longer name, then the first in the table.
 *  - Demangling with no options (perf's default DMGL_NO_OPTS): no
 *    parameter lists, "geo::Grid<double>::relax".
 *  - kallsyms: types T/t/W/w/D/d/B/b (symbol_type__filter), "name\t[mod]"
 *    lines go to module "[mod]"; fixup_end with the kernel/module gap rule.
 *  - /tmp/perf-PID.map: "START SIZE name" (hex), sizes as given.
 * Source lines come from bfd_find_nearest_line (innermost inline frame) and
 * bfd_find_line (DW_AT_decl_file/decl_line of the function), printed as
 * basenames like perf's srcline without --full-source-path.
 */
#define PACKAGE "readperf"
#define PACKAGE_VERSION "0"
#include <bfd.h>

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util/hashmap.h"
#include "util/log.h"
#include "util/strbuf.h"
#include "symbols.h"

#define BUILD_ID_MAX 20

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

enum dso_kind {
	DSO_ELF,	/* a user-space ELF file */
	DSO_VDSO,	/* [vdso], from the build-id cache */
	DSO_KERNEL,	/* [kernel.kallsyms] */
	DSO_KMODULE,	/* [mod] */
	DSO_PERFMAP,	/* /tmp/perf-PID.map */
	DSO_NONE,	/* never resolves */
};

struct sym {
	uint64_t start;
	uint64_t end;
	const char *name;	/* interned */
	asymbol *bsym;		/* in the line bfd, for bfd_find_line; or NULL */
	uint32_t idx;		/* order in the source table (alias ties) */
	uint8_t bind;		/* STB_* */
	uint8_t has_brackets;	/* kallsyms: a module symbol */
};

struct load_seg {
	uint64_t offset;
	uint64_t vaddr;
	uint64_t filesz;
};

struct sec_range {
	uint64_t vma;
	uint64_t size;
	asection *sec;
};

struct cache_entry {
	struct sym_result r;
	int found;
	int lines_done;
};

struct dso {
	enum dso_kind kind;
	char *path;		/* as recorded */
	const char *name;	/* interned short name */
	char *module;		/* DSO_KMODULE: "ext4" */
	uint32_t pid;
	int loaded;
	int warned;
	struct sym *syms;
	size_t nr_syms;
	struct load_seg *segs;
	size_t nr_segs;
	bfd *bfds[2];		/* main and debug file, either may be NULL */
	asymbol **symtabs[2];	/* canonical tables, owned */
	bfd *line_bfd;		/* one of bfds[], or NULL */
	asymbol **line_syms;	/* never NULL when line_bfd is set */
	struct sec_range *secs;	/* alloc sections of line_bfd, by vma */
	size_t nr_secs;
	struct hashmap cache;	/* uint64_t addr -> struct cache_entry */
};

struct recorded_id {
	size_t size;
	uint8_t data[BUILD_ID_MAX];
};

struct symbols {
	char *symfs;		/* "" when none */
	char *kallsyms;
	char **debug_dirs;
	size_t nr_debug_dirs;
	int no_source;
	char *osrelease;
	char *buildid_dir;	/* ~/.debug or $PERF_BUILDID_DIR, or NULL */
	const struct log *log;
	struct hashmap dsos;	/* key -> struct dso */
	struct hashmap strings;	/* string -> malloc'd copy */
	struct hashmap build_ids;	/* path -> struct recorded_id */
	struct dso *kernel;
	int kallsyms_loaded;
	struct sym *ksyms;	/* whole kallsyms, sorted, fixed up */
	size_t nr_ksyms;
	size_t nr_cached;
};

/* ------------------------------------------------------------ helpers */

static void bfd_quiet(const char *fmt, va_list ap)
{
	(void)fmt;
	(void)ap;
}

/* the value left in the string map when a copy could not be made */
static const char intern_failed[] = "";

static const char *intern_n(struct symbols *s, const char *str, size_t len)
{
	void **slot;
	char *copy;
	int ret;

	ret = hashmap__insert(&s->strings, str, len, &slot);
	if (ret < 0)
		return NULL;
	if (!ret)
		return *slot;
	copy = malloc(len + 1);
	if (!copy) {
		/* leave a valid value rather than NULL in the map */
		*slot = (void *)intern_failed;
		return NULL;
	}
	memcpy(copy, str, len);
	copy[len] = '\0';
	*slot = copy;
	return copy;
}

static const char *intern(struct symbols *s, const char *str)
{
	return intern_n(s, str, strlen(str));
}

static void free_string(void *p)
{
	if (p != (const void *)intern_failed)
		free(p);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static int file_exists(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static void build_id_hex(const uint8_t *id, size_t size, char *hex)
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
static int build_id_equal(const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
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

static const struct recorded_id *recorded_build_id(const struct symbols *s, const char *path)
{
	void **slot = hashmap__find(&s->build_ids, path, strlen(path));

	return slot ? *slot : NULL;
}

/* the one warning per dso: a file with another build id than the recording */
static void warn_build_id(struct symbols *s, struct dso *d, const char *what)
{
	if (d->warned)
		return;
	d->warned = 1;
	log_msg(s->log, LOG_WARN, "build id of %s%s differs from the recording: not used", d->path, what);
}

/* ------------------------------------------------------ symbol tables */

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

/* sort, then perf's symbols__fixup_end and symbols__fixup_duplicate; returns the new count */
static size_t symtab_finish(struct sym *v, size_t n, int is_kallsyms)
{
	size_t i, out;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), sym_cmp);
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
	return out + 1;
}

/* perf's symbols__find on a sorted, duplicate-free table */
static const struct sym *symtab_find(const struct sym *v, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	if (addr < v[lo - 1].end || addr == v[lo - 1].start)
		return &v[lo - 1];
	return NULL;
}

/* ------------------------------------------------------------ ELF files */

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

/*
 * The PT_LOAD program headers of an ELF file, read with plain I/O (bfd
 * does not export them without elf-bfd.h).  Every offset and count is
 * checked against the file size.  0 or a negative errno; no segments for
 * non-ELF input.
 */
static int read_load_segs(const char *path, struct load_seg **out, size_t *nr)
{
	unsigned char eh[64], ph[56];
	struct stat st;
	uint64_t phoff, fsize;
	unsigned phentsize, phnum, i;
	int fd, is64, swap, ret = 0;
	struct load_seg *segs = NULL;
	size_t n = 0;

	*out = NULL;
	*nr = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || pread(fd, eh, sizeof(eh), 0) < 52 ||
	    memcmp(eh, ELFMAG, SELFMAG))
		goto out;
	fsize = (uint64_t)st.st_size;
	is64 = eh[EI_CLASS] == ELFCLASS64;
	if (!is64 && eh[EI_CLASS] != ELFCLASS32)
		goto out;
	swap = eh[EI_DATA] == ELFDATA2MSB;
	if (is64) {
		phoff = rd(eh + 32, 8, swap);
		phentsize = rd(eh + 54, 2, swap);
		phnum = rd(eh + 56, 2, swap);
	} else {
		phoff = rd(eh + 28, 4, swap);
		phentsize = rd(eh + 42, 2, swap);
		phnum = rd(eh + 44, 2, swap);
	}
	if (phentsize < (is64 ? 56u : 32u) || phoff > fsize ||
	    (uint64_t)phnum * phentsize > fsize - phoff)
		goto out;
	segs = calloc(phnum ? phnum : 1, sizeof(*segs));
	if (!segs) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < phnum; i++) {
		uint64_t type;

		if (pread(fd, ph, is64 ? 56 : 32, (off_t)(phoff + (uint64_t)i * phentsize)) != (is64 ? 56 : 32))
			break;
		type = rd(ph, 4, swap);
		if (type != PT_LOAD)
			continue;
		if (is64) {
			segs[n].offset = rd(ph + 8, 8, swap);
			segs[n].vaddr = rd(ph + 16, 8, swap);
			segs[n].filesz = rd(ph + 32, 8, swap);
		} else {
			segs[n].offset = rd(ph + 4, 4, swap);
			segs[n].vaddr = rd(ph + 8, 4, swap);
			segs[n].filesz = rd(ph + 16, 4, swap);
		}
		n++;
	}
	*out = segs;
	*nr = n;
	segs = NULL;
out:
	free(segs);
	close(fd);
	return ret;
}

/*
 * sh_entsize of the section called name (bfd does not keep it), read with
 * plain I/O and checked against the file size.  0 when absent.
 */
static uint64_t elf_section_entsize(const char *path, const char *name)
{
	unsigned char eh[64], sh[64];
	char want[32];
	struct stat st;
	uint64_t shoff, fsize, stroff = 0, strsize = 0, result = 0;
	unsigned shentsize, shnum, shstrndx, i;
	size_t nlen = strlen(name);
	int fd, is64, swap;

	if (nlen >= sizeof(want))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) || pread(fd, eh, sizeof(eh), 0) < 52 || memcmp(eh, ELFMAG, SELFMAG))
		goto out;
	fsize = (uint64_t)st.st_size;
	is64 = eh[EI_CLASS] == ELFCLASS64;
	swap = eh[EI_DATA] == ELFDATA2MSB;
	shoff = is64 ? rd(eh + 40, 8, swap) : rd(eh + 32, 4, swap);
	shentsize = rd(eh + (is64 ? 58 : 46), 2, swap);
	shnum = rd(eh + (is64 ? 60 : 48), 2, swap);
	shstrndx = rd(eh + (is64 ? 62 : 50), 2, swap);
	if (shentsize < (is64 ? 64u : 40u) || shentsize > sizeof(sh) || shoff > fsize ||
	    (uint64_t)shnum * shentsize > fsize - shoff || shstrndx >= shnum)
		goto out;
	if (pread(fd, sh, shentsize, (off_t)(shoff + (uint64_t)shstrndx * shentsize)) != (ssize_t)shentsize)
		goto out;
	stroff = is64 ? rd(sh + 24, 8, swap) : rd(sh + 16, 4, swap);
	strsize = is64 ? rd(sh + 32, 8, swap) : rd(sh + 20, 4, swap);
	if (stroff > fsize || strsize > fsize - stroff)
		goto out;
	for (i = 0; i < shnum; i++) {
		uint64_t nameoff;

		if (pread(fd, sh, shentsize, (off_t)(shoff + (uint64_t)i * shentsize)) != (ssize_t)shentsize)
			break;
		nameoff = rd(sh, 4, swap);
		if (nameoff >= strsize || strsize - nameoff < nlen + 1)
			continue;
		if (pread(fd, want, nlen + 1, (off_t)(stroff + nameoff)) != (ssize_t)(nlen + 1))
			continue;
		if (!memcmp(want, name, nlen + 1)) {
			result = is64 ? rd(sh + 56, 8, swap) : rd(sh + 36, 4, swap);
			break;
		}
	}
out:
	close(fd);
	return result;
}

static uint64_t offset_to_vaddr(const struct dso *d, uint64_t off)
{
	size_t i;

	for (i = 0; i < d->nr_segs; i++) {
		const struct load_seg *g = &d->segs[i];

		if (off >= g->offset && off - g->offset < g->filesz)
			return off - g->offset + g->vaddr;
	}
	/* no program headers (or outside them): offsets are addresses */
	return off;
}

static bfd *open_bfd(const char *path)
{
	bfd *abfd;

	if (!file_exists(path))
		return NULL;
	abfd = bfd_openr(path, NULL);
	if (!abfd)
		return NULL;
	abfd->flags |= BFD_DECOMPRESS;
	if (!bfd_check_format(abfd, bfd_object)) {
		bfd_close(abfd);
		return NULL;
	}
	return abfd;
}

/*
 * The NT_GNU_BUILD_ID note of a bfd, from its .note.gnu.build-id section
 * (kept in separate debug files too).  Size or 0.
 */
static size_t bfd_read_build_id(bfd *abfd, uint8_t *id)
{
	asection *sec = bfd_get_section_by_name(abfd, ".note.gnu.build-id");
	bfd_byte buf[256];
	uint64_t size, off = 0;
	int swap = bfd_big_endian(abfd);

	if (!sec || !(bfd_section_flags(sec) & SEC_HAS_CONTENTS))
		return 0;
	size = bfd_section_size(sec);
	if (size > sizeof(buf))
		size = sizeof(buf);
	if (size < 12 || !bfd_get_section_contents(abfd, sec, buf, 0, size))
		return 0;
	while (size - off >= 12) {
		uint64_t namesz = rd(buf + off, 4, swap), descsz = rd(buf + off + 4, 4, swap);
		uint64_t type = rd(buf + off + 8, 4, swap);
		uint64_t nalign = (namesz + 3) & ~(uint64_t)3, dalign = (descsz + 3) & ~(uint64_t)3;

		off += 12;
		if (nalign > size - off || dalign > size - off - nalign)
			break;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(buf + off, "GNU", 4) &&
		    descsz && descsz <= BUILD_ID_MAX) {
			memcpy(id, buf + off + nalign, descsz);
			return descsz;
		}
		off += nalign + dalign;
	}
	return 0;
}

static int bfd_build_id_matches(bfd *abfd, const struct recorded_id *rec)
{
	uint8_t id[BUILD_ID_MAX];
	size_t n;

	if (!rec)
		return 1;
	n = bfd_read_build_id(abfd, id);
	return !n || build_id_equal(id, n, rec->data, rec->size);
}

static int has_dwarf(bfd *abfd)
{
	return bfd_get_section_by_name(abfd, ".debug_info") ||
	       bfd_get_section_by_name(abfd, ".zdebug_info");
}

static asymbol **read_symtab(bfd *abfd, int dynamic, long *count)
{
	long size;
	asymbol **syms;

	*count = 0;
	if (!(bfd_get_file_flags(abfd) & HAS_SYMS) && !dynamic)
		return NULL;
	size = dynamic ? bfd_get_dynamic_symtab_upper_bound(abfd) : bfd_get_symtab_upper_bound(abfd);
	if (size <= 0)
		return NULL;
	syms = malloc((size_t)size);
	if (!syms)
		return NULL;
	*count = dynamic ? bfd_canonicalize_dynamic_symtab(abfd, syms) :
			   bfd_canonicalize_symtab(abfd, syms);
	if (*count <= 0) {
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
		dem = bfd_demangle(abfd, raw, DEMANGLE_NO_OPTS);
	} else {
		char *tmp = strndup(raw, len);

		if (!tmp)
			return NULL;
		dem = bfd_demangle(abfd, tmp, DEMANGLE_NO_OPTS);
		if (!dem) {
			name = intern(s, tmp);
			free(tmp);
			return name;
		}
		free(tmp);
	}
	if (dem) {
		name = intern(s, dem);
		free(dem);
		return name;
	}
	return intern_n(s, raw, len);
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
		return -ENOMEM;
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
		if (!v[n].name) {
			free(v);
			return -ENOMEM;
		}
		v[n].bsym = same_as_lines ? sy : NULL;
		v[n].idx = (uint32_t)i;
		v[n].bind = bind;
		n++;
	}
	d->nr_syms = symtab_finish(v, n, 0);
	d->syms = v;
	return 0;
}

/* a section's contents, malloc'd, or NULL */
static bfd_byte *section_bytes(bfd *abfd, const char *name, uint64_t *size)
{
	asection *sec = bfd_get_section_by_name(abfd, name);
	bfd_byte *buf = NULL;

	*size = 0;
	if (!sec || !(bfd_section_flags(sec) & SEC_HAS_CONTENTS) || !bfd_section_size(sec))
		return NULL;
	if (!bfd_malloc_and_get_section(abfd, sec, &buf))
		return NULL;
	*size = bfd_section_size(sec);
	return buf;
}

/*
 * perf 6.1's dso__synthesize_plt_symbols(): one "name@plt" symbol per
 * .rela.plt (or .rel.plt) entry, at .plt + header + i * entry size, where
 * header and entry size are .plt's sh_entsize (x86).  Added after the end
 * and alias fixups, with their own size, as perf does.  perf uses
 * .plt's file offset as the address; this uses its vaddr, the same in
 * every usual layout.
 */
static void synthesize_plt(struct symbols *s, struct dso *d, bfd *abfd)
{
	asection *plt = bfd_get_section_by_name(abfd, ".plt");
	bfd_byte *rel = NULL, *dsym = NULL, *dstr = NULL;
	uint64_t relsz, dsymsz, dstrsz, entsz, relent, syment, nrel, i, addr;
	int is64 = bfd_get_arch_size(abfd) == 64, swap = bfd_big_endian(abfd), rela = 1;
	struct strbuf name = STRBUF_INIT;
	struct sym *v;
	size_t n = d->nr_syms;

	if (!plt || bfd_get_flavour(abfd) != bfd_target_elf_flavour)
		return;
	entsz = elf_section_entsize(bfd_get_filename(abfd), ".plt");
	if (!entsz || entsz > bfd_section_size(plt))
		return;
	rel = section_bytes(abfd, ".rela.plt", &relsz);
	if (!rel) {
		rel = section_bytes(abfd, ".rel.plt", &relsz);
		rela = 0;
	}
	dsym = section_bytes(abfd, ".dynsym", &dsymsz);
	dstr = section_bytes(abfd, ".dynstr", &dstrsz);
	if (!rel || !dsym || !dstr)
		goto out;
	relent = is64 ? (rela ? 24 : 16) : (rela ? 12 : 8);
	syment = is64 ? 24 : 16;
	nrel = relsz / relent;
	if (nrel > (SIZE_MAX - n) / sizeof(*v) - 1)
		goto out;
	v = realloc(d->syms, (n + nrel + 1) * sizeof(*v));
	if (!v)
		goto out;
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
		dem = *raw ? bfd_demangle(abfd, raw, DEMANGLE_NO_OPTS) : NULL;
		strbuf__reset(&name);
		if (strbuf__addstr(&name, dem ? dem : raw) || strbuf__addstr(&name, "@plt")) {
			free(dem);
			break;
		}
		free(dem);
		nm = intern(s, name.buf);
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
		qsort(v, n, sizeof(*v), sym_cmp);
		d->nr_syms = n;
	}
out:
	strbuf__release(&name);
	free(rel);
	free(dsym);
	free(dstr);
}

static int sec_range_cmp(const void *pa, const void *pb)
{
	const struct sec_range *a = pa, *b = pb;

	return a->vma < b->vma ? -1 : a->vma > b->vma;
}

static int setup_lines(struct dso *d, bfd *abfd, asymbol **syms)
{
	static asymbol *no_syms[1];
	asection *sec;
	size_t n = 0;

	for (sec = abfd->sections; sec; sec = sec->next)
		n++;
	d->secs = calloc(n ? n : 1, sizeof(*d->secs));
	if (!d->secs)
		return -ENOMEM;
	n = 0;
	for (sec = abfd->sections; sec; sec = sec->next) {
		if (!(bfd_section_flags(sec) & SEC_ALLOC) || !bfd_section_size(sec))
			continue;
		d->secs[n].vma = bfd_section_vma(sec);
		d->secs[n].size = bfd_section_size(sec);
		d->secs[n].sec = sec;
		n++;
	}
	qsort(d->secs, n, sizeof(*d->secs), sec_range_cmp);
	d->nr_secs = n;
	d->line_bfd = abfd;
	/* bfd's fallback function search walks the table: never hand it NULL */
	d->line_syms = syms ? syms : no_syms;
	return 0;
}

static asection *find_section(const struct dso *d, uint64_t addr, uint64_t *off)
{
	size_t lo = 0, hi = d->nr_secs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->secs[mid].vma <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo > 0) {
		const struct sec_range *r = &d->secs[lo - 1];

		if (addr - r->vma < r->size) {
			*off = addr - r->vma;
			return r->sec;
		}
		/* overlapping sections (.tbss) are rare: look one further back */
		if (lo < 2 || addr - d->secs[lo - 2].vma >= d->secs[lo - 2].size)
			break;
		lo--;
	}
	return NULL;
}

static int add_candidate(struct strbuf *path, const char *a, const char *b, const char *c)
{
	strbuf__reset(path);
	if (strbuf__addstr(path, a) || strbuf__addstr(path, b) || strbuf__addstr(path, c))
		return -ENOMEM;
	return 0;
}

/* a debug file for d: by build id, by path, by .gnu_debuglink; NULL when none */
static bfd *find_debug_file(struct symbols *s, struct dso *d, bfd *main_bfd,
			    const struct recorded_id *rec)
{
	struct strbuf path = STRBUF_INIT;
	char hex[2 * BUILD_ID_MAX + 1];
	uint8_t own[BUILD_ID_MAX];
	const uint8_t *id = NULL;
	size_t idsz = 0, i, nroots;
	const char *roots[64];
	bfd *dbg = NULL;
	char *sysdebug = NULL;

	if (rec) {
		id = rec->data;
		idsz = rec->size;
	} else if (main_bfd && (idsz = bfd_read_build_id(main_bfd, own))) {
		id = own;
	}
	if (asprintf(&sysdebug, "%s/usr/lib/debug", s->symfs) < 0)
		return NULL;
	nroots = 0;
	roots[nroots++] = sysdebug;
	for (i = 0; i < s->nr_debug_dirs && nroots < 64; i++)
		roots[nroots++] = s->debug_dirs[i];

	if (id && idsz >= 2) {
		build_id_hex(id, idsz, hex);
		for (i = 0; i < nroots && !dbg; i++) {
			char sub[2 * BUILD_ID_MAX + 32];

			snprintf(sub, sizeof(sub), "/.build-id/%.2s/%s.debug", hex, hex + 2);
			if (add_candidate(&path, roots[i], sub, ""))
				goto out;
			dbg = open_bfd(path.buf);
		}
		if (!dbg && s->buildid_dir) {
			char sub[2 * BUILD_ID_MAX + 32];

			snprintf(sub, sizeof(sub), "/.build-id/%.2s/%s/debug", hex, hex + 2);
			if (add_candidate(&path, s->buildid_dir, sub, ""))
				goto out;
			dbg = open_bfd(path.buf);
		}
	}
	for (i = 0; i < nroots && !dbg && d->path[0] == '/'; i++) {
		if (add_candidate(&path, roots[i], d->path, ".debug"))
			goto out;
		dbg = open_bfd(path.buf);
		if (!dbg) {
			if (add_candidate(&path, roots[i], d->path, ""))
				goto out;
			dbg = open_bfd(path.buf);
		}
	}
	for (i = 0; i < nroots && !dbg && main_bfd; i++) {
		/* the binary's dir, its .debug/, and ROOT/<binary's dir>/, CRC checked */
		char *link = bfd_follow_gnu_debuglink(main_bfd, roots[i]);

		if (link) {
			dbg = open_bfd(link);
			free(link);
		}
	}
	if (dbg && !bfd_build_id_matches(dbg, rec)) {
		warn_build_id(s, d, " debug file");
		bfd_close(dbg);
		dbg = NULL;
	}
out:
	free(sysdebug);
	strbuf__release(&path);
	return dbg;
}

/* the main binary: symfs/path, else the plain path or the build-id cache when the build id says so */
static bfd *find_main_file(struct symbols *s, struct dso *d, const struct recorded_id *rec,
			   char **opened)
{
	char hex[2 * BUILD_ID_MAX + 1];
	const char *cands[4];
	size_t nc = 0, i;
	char *c0 = NULL, *c1 = NULL, *c2 = NULL;
	bfd *abfd = NULL;

	*opened = NULL;
	if (d->kind == DSO_VDSO) {
		if (!rec || !s->buildid_dir)
			return NULL;
		build_id_hex(rec->data, rec->size, hex);
		if (asprintf(&c0, "%s/[vdso]/%s/vdso", s->buildid_dir, hex) >= 0)
			cands[nc++] = c0;
	} else {
		if (asprintf(&c0, "%s%s", s->symfs, d->path) >= 0)
			cands[nc++] = c0;
		if (s->symfs[0] && rec)
			cands[nc++] = d->path;
		if (rec && s->buildid_dir) {
			build_id_hex(rec->data, rec->size, hex);
			if (asprintf(&c1, "%s/.build-id/%.2s/%s/elf", s->buildid_dir, hex, hex + 2) >= 0)
				cands[nc++] = c1;
			if (asprintf(&c2, "%s/.build-id/%.2s/%s", s->buildid_dir, hex, hex + 2) >= 0)
				cands[nc++] = c2;
		}
	}
	for (i = 0; i < nc; i++) {
		abfd = open_bfd(cands[i]);
		if (!abfd)
			continue;
		if (bfd_build_id_matches(abfd, rec)) {
			*opened = strdup(cands[i]);
			if (!*opened) {
				bfd_close(abfd);
				abfd = NULL;
			}
			break;
		}
		warn_build_id(s, d, "");
		bfd_close(abfd);
		abfd = NULL;
	}
	free(c0);
	free(c1);
	free(c2);
	return abfd;
}

static void load_elf(struct symbols *s, struct dso *d)
{
	const struct recorded_id *rec = recorded_build_id(s, d->kind == DSO_VDSO ? "[vdso]" : d->path);
	char *main_path = NULL;
	bfd *main_bfd, *dbg = NULL;
	asymbol **msyms = NULL, **dsyms = NULL;
	long mcount = 0, dcount = 0;
	int main_has_dwarf;

	main_bfd = find_main_file(s, d, rec, &main_path);
	if (main_bfd) {
		msyms = read_symtab(main_bfd, 0, &mcount);
		main_has_dwarf = has_dwarf(main_bfd);
	} else {
		main_has_dwarf = 0;
	}
	if (d->kind == DSO_ELF && (!main_bfd || !msyms || (!main_has_dwarf && !s->no_source)))
		dbg = find_debug_file(s, d, main_bfd, main_bfd ? NULL : rec);
	if (dbg)
		dsyms = read_symtab(dbg, 0, &dcount);
	if (!main_bfd && !dbg) {
		log_msg(s->log, LOG_DEBUG, "%s: no binary found for symbols", d->path);
		return;
	}

	if (main_path)
		read_load_segs(main_path, &d->segs, &d->nr_segs);
	else
		read_load_segs(bfd_get_filename(dbg), &d->segs, &d->nr_segs);
	free(main_path);

	d->bfds[0] = main_bfd;
	d->symtabs[0] = msyms;
	d->bfds[1] = dbg;
	d->symtabs[1] = dsyms;

	/* lines: the debug file when it has DWARF, else the main file */
	if (dbg && has_dwarf(dbg))
		setup_lines(d, dbg, dsyms);
	else if (main_bfd && main_has_dwarf)
		setup_lines(d, main_bfd, msyms);

	if (msyms) {
		load_bfd_symbols(s, d, main_bfd, msyms, mcount, 0, d->line_bfd == main_bfd);
	} else if (dsyms) {
		load_bfd_symbols(s, d, dbg, dsyms, dcount, 0, d->line_bfd == dbg);
	} else if (main_bfd) {
		long count;
		asymbol **dyn = read_symtab(main_bfd, 1, &count);

		if (dyn) {
			load_bfd_symbols(s, d, main_bfd, dyn, count, 1, 0);
			/* the bfd symbols are not kept: drop pointers into them */
			free(dyn);
		}
	}
	if (d->nr_syms && main_bfd)
		synthesize_plt(s, d, main_bfd);
	log_msg(s->log, LOG_DEBUG, "%s: %zu symbols from %s%s, lines from %s", d->path, d->nr_syms,
		msyms ? bfd_get_filename(main_bfd) : dsyms ? bfd_get_filename(dbg) :
		main_bfd ? bfd_get_filename(main_bfd) : "nowhere", msyms || dsyms ? "" : " (.dynsym)",
		d->line_bfd ? bfd_get_filename(d->line_bfd) : "nowhere");
}

/* ------------------------------------------------------------ kallsyms */

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

/* parse a kallsyms file into s->ksyms; 0, -errno, -ENOMEM */
static int kallsyms_parse(struct symbols *s, const char *path)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0, n = 0, alloc = 0;
	struct sym *v = NULL;
	ssize_t len;
	int nonzero = 0, ret = 0;

	if (!f)
		return -errno;
	while ((len = getline(&line, &cap, f)) >= 0) {
		char *p = line, *end, *name;
		unsigned long long addr;
		char type;

		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		errno = 0;
		addr = strtoull(p, &end, 16);
		if (end == p || errno || *end != ' ')
			continue;
		p = end + 1;
		type = *p;
		if (!type || p[1] != ' ')
			continue;
		name = p + 2;
		if (!*name || !kallsyms_type_ok(type) || name[0] == '$')
			continue;
		if (n == alloc) {
			size_t na = alloc ? alloc * 2 : 4096;
			struct sym *nv;

			if (na > SIZE_MAX / sizeof(*v)) {
				ret = -ENOMEM;
				break;
			}
			nv = realloc(v, na * sizeof(*v));
			if (!nv) {
				ret = -ENOMEM;
				break;
			}
			v = nv;
			alloc = na;
		}
		memset(&v[n], 0, sizeof(v[n]));
		v[n].start = addr;
		v[n].end = addr;
		/* "name\t[mod]" keeps the module in the name for now, as perf does */
		v[n].name = intern(s, name);
		if (!v[n].name) {
			ret = -ENOMEM;
			break;
		}
		v[n].bind = kallsyms_bind(type);
		v[n].has_brackets = strchr(name, '[') != NULL;
		v[n].idx = (uint32_t)n;
		if (addr)
			nonzero = 1;
		n++;
	}
	free(line);
	fclose(f);
	if (ret) {
		free(v);
		return ret;
	}
	if (!nonzero) {
		free(v);
		log_msg(s->log, LOG_WARN, "%s: all addresses are zero (kptr_restrict?): kernel symbols not used", path);
		return -EPERM;
	}
	s->nr_ksyms = symtab_finish(v, n, 1);
	s->ksyms = v;
	return 0;
}

/* the build id of the running kernel from /sys/kernel/notes; size or 0 */
static size_t running_kernel_build_id(uint8_t *id)
{
	unsigned char buf[4096];
	size_t off = 0, len;
	FILE *f = fopen("/sys/kernel/notes", "re");

	if (!f)
		return 0;
	len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	while (len - off >= 12) {
		uint32_t namesz, descsz, type;
		uint64_t nalign, dalign;

		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		off += 12;
		nalign = ((uint64_t)namesz + 3) & ~(uint64_t)3;
		dalign = ((uint64_t)descsz + 3) & ~(uint64_t)3;
		if (nalign > len - off || dalign > len - off - nalign)
			break;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(buf + off, "GNU", 4) &&
		    descsz && descsz <= BUILD_ID_MAX) {
			memcpy(id, buf + off + nalign, descsz);
			return descsz;
		}
		off += nalign + dalign;
	}
	return 0;
}

static void kallsyms_load(struct symbols *s)
{
	const struct recorded_id *rec = recorded_build_id(s, "[kernel.kallsyms]");
	char *cached = NULL;
	uint8_t id[BUILD_ID_MAX];
	size_t idsz;
	struct utsname u;
	int ok;

	if (s->kallsyms_loaded)
		return;
	s->kallsyms_loaded = 1;
	if (s->kallsyms) {
		if (kallsyms_parse(s, s->kallsyms) == -ENOENT)
			log_msg(s->log, LOG_WARN, "%s: cannot open kallsyms", s->kallsyms);
		return;
	}
	if (rec && s->buildid_dir) {
		char hex[2 * BUILD_ID_MAX + 1];

		build_id_hex(rec->data, rec->size, hex);
		if (asprintf(&cached, "%s/[kernel.kallsyms]/%s/kallsyms", s->buildid_dir, hex) >= 0 &&
		    file_exists(cached) && !kallsyms_parse(s, cached)) {
			free(cached);
			return;
		}
		free(cached);
	}
	idsz = running_kernel_build_id(id);
	if (rec && idsz)
		ok = build_id_equal(id, idsz, rec->data, rec->size);
	else if (s->osrelease)
		ok = !uname(&u) && !strcmp(u.release, s->osrelease);
	else
		ok = 1;	/* nothing recorded to compare with: as perf, trust the running kernel */
	if (!ok) {
		log_msg(s->log, LOG_WARN, "the running kernel is not the recorded one: kernel symbols not resolved (use --kallsyms)");
		return;
	}
	kallsyms_parse(s, "/proc/kallsyms");
}

/* the kernel or module table: a filtered copy of the kallsyms table, names without "\t[mod]" */
static void load_kernel(struct symbols *s, struct dso *d)
{
	size_t i, n = 0, mlen = d->module ? strlen(d->module) : 0;

	kallsyms_load(s);
	if (!s->nr_ksyms)
		return;
	d->syms = calloc(s->nr_ksyms, sizeof(*d->syms));
	if (!d->syms)
		return;
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
		d->syms[n].name = intern_n(s, k->name, (size_t)(tab - k->name));
		if (!d->syms[n].name)
			break;
		n++;
	}
	d->nr_syms = n;
}

/* ------------------------------------------------------------ perf-PID.map */

static void load_perfmap(struct symbols *s, struct dso *d)
{
	FILE *f = fopen(d->path, "re");
	char *line = NULL;
	size_t cap = 0, n = 0, alloc = 0;
	ssize_t len;
	struct sym *v = NULL;

	if (!f) {
		log_msg(s->log, LOG_DEBUG, "%s: cannot open", d->path);
		return;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
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

			if (na > SIZE_MAX / sizeof(*v))
				break;
			nv = realloc(v, na * sizeof(*v));
			if (!nv)
				break;
			v = nv;
			alloc = na;
		}
		memset(&v[n], 0, sizeof(v[n]));
		v[n].start = start;
		v[n].end = size && start + size > start ? start + size : start;
		v[n].name = intern(s, end + 1);
		if (!v[n].name)
			break;
		v[n].bind = STB_GLOBAL;
		v[n].idx = (uint32_t)n;
		n++;
	}
	free(line);
	fclose(f);
	/* perf inserts perf-map symbols as they are: sort, no end or alias fixups */
	if (n)
		qsort(v, n, sizeof(*v), sym_cmp);
	d->syms = v;
	d->nr_syms = n;
}

/* ------------------------------------------------------------ DSOs */

static void dso_load(struct symbols *s, struct dso *d)
{
	d->loaded = 1;
	switch (d->kind) {
	case DSO_ELF:
	case DSO_VDSO:
		load_elf(s, d);
		break;
	case DSO_KERNEL:
	case DSO_KMODULE:
		load_kernel(s, d);
		break;
	case DSO_PERFMAP:
		load_perfmap(s, d);
		break;
	case DSO_NONE:
		break;
	}
}

static void free_cache_entry(void *p)
{
	free(p);
}

static void dso_free(void *p)
{
	struct dso *d = p;
	int i;

	if (!d)
		return;
	hashmap__release(&d->cache, free_cache_entry);
	for (i = 0; i < 2; i++) {
		if (d->bfds[i])
			bfd_close(d->bfds[i]);
		free(d->symtabs[i]);
	}
	free(d->secs);
	free(d->syms);
	free(d->segs);
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
	const char *b = base_name(filename);
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
	       has_prefix(f, "/anon_hugepage") || has_prefix(f, "[anon:") ||
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
		name = intern(s, "[kernel.kallsyms]");
		break;
	case DSO_KMODULE:
		if (asprintf(&tmp, "[%s]", module) < 0)
			goto fail;
		name = intern(s, tmp);
		free(tmp);
		break;
	case DSO_VDSO:
	case DSO_NONE:
		name = intern(s, path[0] == '[' ? path : base_name(path));
		break;
	case DSO_ELF:
	case DSO_PERFMAP:
		name = intern(s, base_name(path));
		break;
	}
	if (!name)
		goto fail;
	d->name = name;
	return d;
fail:
	dso_free(d);
	return NULL;
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
		if (!module)
			return NULL;
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
	/* a NULL value stays in the map and is retried next time */
out:
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

/* ------------------------------------------------------------ resolve */

static void set_file(struct symbols *s, const char *file, const char **base, const char **full)
{
	*full = intern(s, file);
	*base = *full ? intern(s, base_name(file)) : NULL;
}

static void lookup_lines(struct symbols *s, struct dso *d, struct cache_entry *e,
			 const struct sym *sym, uint64_t addr)
{
	const char *file = NULL, *func = NULL;
	unsigned int line = 0;
	uint64_t off;
	asection *sec;

	if (!d->line_bfd)
		return;
	sec = find_section(d, addr, &off);
	if (sec && bfd_find_nearest_line(d->line_bfd, sec, d->line_syms, off, &file, &func, &line) &&
	    file && *file) {
		set_file(s, file, &e->r.src_file, &e->r.src_path);
		e->r.src_line = line;
	}
	if (!sym)
		return;
	file = NULL;
	line = 0;
	/* DW_AT_decl_file/decl_line of the function the symbol names */
	if (sym->bsym && bfd_find_line(d->line_bfd, d->line_syms, sym->bsym, &file, &line) &&
	    file && *file) {
		set_file(s, file, &e->r.def_file, &e->r.def_path);
		e->r.def_line = line;
		return;
	}
	/* else the outermost frame at the symbol's first address */
	sec = find_section(d, sym->start, &off);
	if (!sec || !bfd_find_nearest_line(d->line_bfd, sec, d->line_syms, off, &file, &func, &line) ||
	    !file || !*file)
		return;
	{
		const char *ifile = file, *ifunc;
		unsigned int iline = line, n = 0;

		while (n++ < 64 && bfd_find_inliner_info(d->line_bfd, &ifile, &ifunc, &iline)) {
			if (ifile && *ifile)
				file = ifile;
			line = iline;
		}
	}
	set_file(s, file, &e->r.def_file, &e->r.def_path);
	e->r.def_line = line;
}

static int do_resolve(struct symbols *s, struct dso *d, uint64_t map_start, uint64_t map_pgoff,
		      uint64_t ip, struct sym_result *out, int want_lines)
{
	struct cache_entry *e;
	const struct sym *sym;
	uint64_t addr;
	void **slot;
	int ret;

	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (!s || !d)
		return -EINVAL;
	if (!d->loaded)
		dso_load(s, d);
	if (d->kind == DSO_ELF || d->kind == DSO_VDSO)
		addr = offset_to_vaddr(d, ip - map_start + map_pgoff);
	else
		addr = ip;
	out->addr = addr;

	slot = hashmap__find(&d->cache, &addr, sizeof(addr));
	if (slot) {
		e = *slot;
	} else {
		e = calloc(1, sizeof(*e));
		if (!e)
			return -ENOMEM;
		ret = hashmap__insert(&d->cache, &addr, sizeof(addr), &slot);
		if (ret < 0) {
			free(e);
			return ret;
		}
		*slot = e;
		s->nr_cached++;
		e->r.addr = addr;
		sym = symtab_find(d->syms, d->nr_syms, addr);
		if (sym) {
			e->found = 1;
			e->r.function = sym->name;
			e->r.sym_addr = sym->start;
		}
	}
	if (want_lines && !s->no_source && !e->lines_done) {
		e->lines_done = 1;
		sym = e->found ? symtab_find(d->syms, d->nr_syms, addr) : NULL;
		lookup_lines(s, d, e, sym, addr);
	}
	*out = e->r;
	if (!want_lines) {
		out->def_file = out->src_file = out->def_path = out->src_path = NULL;
		out->def_line = out->src_line = 0;
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

size_t symbols__nr_cached(const struct symbols *s)
{
	return s ? s->nr_cached : 0;
}

/* ------------------------------------------------------------ lifetime */

int symbols__set_build_id(struct symbols *s, const char *filename, const uint8_t *build_id, size_t size)
{
	struct recorded_id *r;
	void **slot;
	int ret;

	if (!s || !filename || !build_id || !size || size > BUILD_ID_MAX)
		return -EINVAL;
	ret = hashmap__insert(&s->build_ids, filename, strlen(filename), &slot);
	if (ret < 0)
		return ret;
	r = *slot;
	if (!r) {
		r = calloc(1, sizeof(*r));
		if (!r)
			return -ENOMEM;
		*slot = r;
	}
	memset(r, 0, sizeof(*r));
	memcpy(r->data, build_id, size);
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
	const char *home, *bdir;
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
	s->log = opts->log;
	s->no_source = opts->no_source;
	s->symfs = strdup(opts->symfs ? opts->symfs : "");
	if (!s->symfs)
		err = -ENOMEM;
	/* a trailing '/' on --symfs would double the one that starts each path */
	while (s->symfs && s->symfs[0] && has_suffix(s->symfs, "/"))
		s->symfs[strlen(s->symfs) - 1] = '\0';
	s->kallsyms = dup_or_null(opts->kallsyms, &err);
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
	bdir = getenv("PERF_BUILDID_DIR");
	home = getenv("HOME");
	if (bdir && *bdir)
		s->buildid_dir = strdup(bdir);
	else if (home && *home && asprintf(&s->buildid_dir, "%s/.debug", home) < 0)
		s->buildid_dir = NULL;
	if (!err && opts->recorded_kernel_build_id && opts->recorded_kernel_build_id_size &&
	    opts->recorded_kernel_build_id_size <= BUILD_ID_MAX)
		err = symbols__set_build_id(s, "[kernel.kallsyms]", opts->recorded_kernel_build_id,
					    opts->recorded_kernel_build_id_size);
	if (err) {
		symbols__delete(s);
		return err;
	}
	bfd_init();
	bfd_set_error_handler(bfd_quiet);
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
	hashmap__release(&s->dsos, dso_free);
	dso_free(s->kernel);
	hashmap__release(&s->build_ids, free_plain);
	free(s->ksyms);
	hashmap__release(&s->strings, free_string);
	for (i = 0; i < s->nr_debug_dirs; i++)
		free(s->debug_dirs[i]);
	free(s->debug_dirs);
	free(s->symfs);
	free(s->kallsyms);
	free(s->osrelease);
	free(s->buildid_dir);
	free(s);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the symbol resolver's files share (decode/symbols.c, dso.c,
 * kallsyms.c, perfmap.c).  Not for other modules: they use symbols.h.
 * Only dso.c includes bfd.h.
 */
#ifndef DECODE_SYMBOLS_INTERNAL_H
#define DECODE_SYMBOLS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "util/hashmap.h"
#include "symbols.h"

#define BUILD_ID_MAX 20

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
	void *aux;		/* ELF: its asymbol in the line bfd (bfd_find_line), or NULL */
	const char *def_file;	/* where the function is defined, once def_done (dso.c) */
	const char *def_path;
	unsigned def_line;
	uint32_t idx;		/* order in the source table (alias ties) */
	uint8_t bind;		/* STB_* */
	uint8_t has_brackets;	/* kallsyms: a module symbol */
	uint8_t def_done;
	uint8_t label;		/* had no size: its end is the next symbol's start (symtab__finish) */
	uint32_t parent;	/* a label inside a sized symbol: that symbol's index + 1, else 0 */
};

struct dso_elf;		/* dso.c: the bfd side of an ELF dso */

struct dso {
	enum dso_kind kind;
	char *path;		/* as recorded */
	const char *name;	/* interned short name */
	char *module;		/* DSO_KMODULE: "ext4" */
	uint32_t pid;
	int loaded;
	int warned;
	struct sym *syms;	/* sorted by start */
	size_t nr_syms;
	struct dso_elf *elf;	/* DSO_ELF/DSO_VDSO once loaded from a file, or NULL */
	struct hashmap cache;	/* uint64_t addr -> struct cache_entry (symbols.c) */
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
	int no_demangle;
	char *osrelease;
	char *buildid_dir;	/* ~/.debug or $PERF_BUILDID_DIR, or NULL */
	const struct log *log;
	struct hashmap dsos;	/* key -> struct dso */
	struct hashmap strings;	/* string -> malloc'd copy */
	struct hashmap build_ids;	/* path -> struct recorded_id */
	struct dso *kernel;
	int kallsyms_loaded;
	struct sym *ksyms;	/* whole kallsyms, sorted, fixed up */
	char *ksyms_text;	/* the kallsyms file: ksyms' names point into it */
	size_t nr_ksyms;
	size_t nr_cached;
	int err;		/* the first -ENOMEM or -errno (symbols__fail), or 0 */
};

/* symbols.c */
/*
 * Keep err as the resolver's first error (symbols__status) unless one is
 * kept already; err itself back, so `return symbols__fail(s, -ENOMEM);`.
 * For allocation failures and real I/O errors only: a missing or unusable
 * file is no error (its addresses stay unresolved, with a warning).
 */
int symbols__fail(struct symbols *s, int err);
/* NULL only on ENOMEM, which is then kept (symbols__fail) */
const char *symbols__intern_n(struct symbols *s, const char *str, size_t len);
const char *symbols__intern(struct symbols *s, const char *str);
const char *symbols__basename(const char *path);
int file__exists(const char *path);
void build_id__hex(const uint8_t *id, size_t size, char *hex);
int build_id__equal(const uint8_t *a, size_t na, const uint8_t *b, size_t nb);
const struct recorded_id *symbols__recorded_build_id(const struct symbols *s, const char *path);
/* sort by start (ties: table order), then perf's fixup_end and fixup_duplicate; the new count */
size_t symtab__finish(struct sym *v, size_t n, int is_kallsyms);
/* sort by start only (perf-map and PLT symbols are not fixed up) */
void symtab__sort(struct sym *v, size_t n);
/* perf's symbols__find on a sorted table */
struct sym *symtab__find(struct sym *v, size_t n, uint64_t addr);

/*
 * The loaders fill d->syms (none when there is no usable file: not an
 * error).  0, -ENOMEM or -errno for a real I/O error.
 */
/* dso.c */
void dso__init_bfd(void);
int dso__load_elf(struct symbols *s, struct dso *d);
void dso__release_elf(struct dso *d);
/* the binary dso__load_elf opened, or NULL */
const char *dso__main_file(const struct dso *d);
/* a file offset in the dso to its ELF vaddr through the PT_LOAD headers */
uint64_t dso__file_vaddr(const struct dso *d, uint64_t off);
/*
 * Fill the src_* and def_* fields of r for addr (sym: its symbol, or NULL;
 * the definition is looked up once per symbol and kept in it).  0 or
 * -ENOMEM (kept, symbols__fail); no line found is no error.
 */
int dso__lookup_lines(struct symbols *s, struct dso *d, struct sym_result *r,
		      struct sym *sym, uint64_t addr);
/* where sym's function is defined (DW_AT_decl_file/line), looked up once per symbol, into r's def fields; 0 or -ENOMEM */
int dso__lookup_def(struct symbols *s, struct dso *d, struct sym_result *r, struct sym *sym);
/* the functions inlined at file vaddr addr, innermost first, without the one they are in; their number, or -ENOMEM */
int dso__lookup_inlines(struct symbols *s, struct dso *d, uint64_t addr, const char **names, size_t max);

/* kallsyms.c */
int dso__load_kernel(struct symbols *s, struct dso *d);

/* perfmap.c */
int dso__load_perfmap(struct symbols *s, struct dso *d);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the symbol resolver's files share (decode/symbols.c, dso.c,
 * kallsyms.c, perfmap.c).  Not for other modules: they use symbols.h.
 * Only dso.c and disasm.c include bfd.h.
 */
#ifndef DECODE_SYMBOLS_INTERNAL_H
#define DECODE_SYMBOLS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "util/hashmap.h"
#include "decode/symbols.h"

#define BUILD_ID_MAX 20

enum dso_kind {
	DSO_ELF,	/* a user-space ELF file */
	DSO_VDSO,	/* [vdso], from the build-id cache */
	DSO_KERNEL,	/* [kernel.kallsyms] */
	DSO_KMODULE,	/* [mod] */
	DSO_PERFMAP,	/* /tmp/perf-PID.map */
	DSO_JIT,	/* one code load of a jitdump (jitdump.c), named as the dump */
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

/* what the resolver keeps of an address (struct dso's cache) */
struct cache_entry {
	struct sym_result r;
	int found;
	int lines_done;		/* r's src_* looked up */
};

struct dso_elf;		/* dso.c: the bfd side of an ELF dso */
struct elf_load_seg;	/* perffile/elf.h */

/* a path an ELF load looked at and what was there (symcache.c validates a cache entry by them) */
struct probe {
	char *path;
	uint64_t size, ino, mtime_ns, ctime_ns;	/* 0 when absent */
	int exists;			/* a regular file */
};

/* the source line the symbol cache kept for an address (strings interned, NULL: none found) */
struct cached_line {
	const char *file, *path;
	unsigned line;
};

struct dso {
	enum dso_kind kind;
	uint32_t pid;
	char *path;		/* as recorded */
	const char *name;	/* interned short name */
	char *module;		/* DSO_KMODULE: "ext4" */
	struct sym *syms;	/* sorted by start */
	size_t nr_syms;
	struct dso_elf *elf;	/* DSO_ELF/DSO_VDSO once loaded from a file, or NULL */
	struct hashmap cache;	/* uint64_t addr -> struct cache_entry (symbols.c) */
	/* the persistent symbol cache (symcache.c) */
	struct probe *probes;	/* every file the ELF load looked at, in order */
	struct hashmap *cached_lines;	/* from the cache file: uint64_t addr -> struct cached_line, or NULL */
	struct disasm_syms *disasm;	/* disasm.c's symbol table of the binary, made at the first disassembly, or NULL */
	const struct jit_code *jit;	/* DSO_JIT: its code load (jitdump.c), owned by the jitdump */
	uint32_t nr_probes;
	/* flags, small: a recording may map 100k files */
	uint8_t loaded;
	uint8_t warned;
	uint8_t syms_shared;	/* syms is (a prefix of) s->ksyms, not d's own */
	uint8_t from_cache;	/* syms, segments and lines from the cache: no file opened yet */
	uint8_t cache_has_lines;	/* from_cache: the load had debug lines */
	uint8_t cache_dirty;	/* knows what its cache file does not (a load from the files, a new line) */
	uint8_t dbgd_missed;	/* debuginfod was asked and gave nothing: not cached (debuginfod.c) */
	uint8_t running_vdso;	/* [vdso] read from this process's own: not cached (it is the machine's) */
};

struct recorded_id {
	size_t size;
	uint8_t data[BUILD_ID_MAX];
};

struct symbols {
	char *symfs;		/* "" when none */
	char *kallsyms;
	char *vmlinux;		/* --vmlinux, or NULL */
	struct bfd *vmlinux_bfd;	/* opened at the first kernel function to disassemble */
	int vmlinux_tried;
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
	struct kallsyms_ahead *ksyms_ahead;	/* symbols__read_kernel_ahead's thread, until taken */
	struct sym *ksyms;	/* whole kallsyms, sorted, fixed up */
	char *ksyms_text;	/* the kallsyms file: ksyms' names point into it */
	size_t nr_ksyms;
	size_t nr_cached;
	int err;		/* the first -ENOMEM or -errno (symbols__fail), or 0 */
	char *cache_dir;	/* the persistent symbol cache's directory, or NULL */
	int debuginfod;		/* ask the servers of $DEBUGINFOD_URLS (set, and no --no-debuginfod) */
	int dbgd_down;		/* a server failed: warned once, none asked again */
	struct debuginfod_client *dbgd;	/* libdebuginfod's client, made at the first question, or NULL */
	int (*stop)(void);	/* symbols_opts.stop */
	struct hashmap jitdumps;	/* dump path -> struct jitdump (jitdump.c), NULL when unreadable */
	char *vdso_path;	/* a copy of this process's vdso (/proc/PID/fd/N of a memfd), once tried */
	char *late_osrelease;	/* the release a pipe's HEADER_FEATURE gave (for [vdso]; kallsyms keeps its rule) */
	int vdso_tried;
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
/* a dso not in the registry (the caller owns it: symbols__dso_free); NULL on ENOMEM (kept) */
struct dso *symbols__dso_new(struct symbols *s, enum dso_kind kind, const char *path, uint32_t pid);
void symbols__dso_free(struct dso *d);
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
/* how many of v (sorted by start) start at or below addr */
size_t symtab__starts_upto(const struct sym *v, size_t n, uint64_t addr);

/*
 * The loaders fill d->syms (none when there is no usable file: not an
 * error).  0, -ENOMEM or -errno for a real I/O error.
 */
/* dso.c */
int dso__load_elf(struct symbols *s, struct dso *d);
void dso__release_elf(struct dso *d);
/* the libbfd in use (its soname, which names its version): part of the symbol cache's key */
const char *dso__loader_id(void);
/*
 * libbfd loaded (decode/bfdlib.h) before a first bfd call: 0, or -EIO when
 * it cannot be, said once and kept (symbols__fail): no symbol is read
 */
int dso__bfd_ready(struct symbols *s);
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

/*
 * The symbols of an ELF dso that came from the cache (symcache.c): its
 * PT_LOAD segments and main file (both taken).  The bfd side is opened
 * only when a lookup needs what the cache does not have.  0 or -ENOMEM.
 */
int dso__set_cached(struct symbols *s, struct dso *d, struct elf_load_seg *segs, size_t nr_segs,
		    char *main_path);

/* the PT_LOAD segments of a loaded ELF dso (none: NULL, *n 0), for the cache file */
const struct elf_load_seg *dso__cached_segs(const struct dso *d, size_t *n);
/* does d have source lines (from its files, or as its cache file says)? */
int dso__has_lines(const struct dso *d);

/*
 * the binary's bfd for its code (opened from the files when the dso came
 * from the cache), or NULL when there is none (or an error, kept)
 */
struct bfd *dso__code_bfd(struct symbols *s, struct dso *d);
/* d's symbols came from its debug file's .symtab, its binary having none (stripped); after dso__code_bfd() */
int dso__syms_from_debug(const struct dso *d);
/* whether vaddr lies in the first SYMBOLS_ENTRY_BYTES of d's e_entry (its binary read when need be) */
int dso__at_entry(struct symbols *s, struct dso *d, uint64_t vaddr);
/* st_size of an ELF flavour bfd symbol (not synthetic, not a section's): bfd's elf_symbol_type, mirrored in dso.c */
struct bfd_symbol;
uint64_t dso__elf_sym_size(const struct bfd_symbol *sym);

/* disasm.c: free d->disasm's table (before the bfd it points into is closed) */
struct disasm_syms;
void disasm__release(struct disasm_syms *t);
/* close --vmlinux's bfd (symbols__delete) */
void disasm__close_vmlinux(struct symbols *s);

/* symcache.c */
/*
 * Fill an ELF or vdso dso from its cache file when there is a valid one:
 * 1 loaded, 0 none (load from the files), -ENOMEM (kept).  A missing,
 * stale, truncated or corrupt cache file is none.
 */
int symcache__load(struct symbols *s, struct dso *d);
/*
 * Is there a regular file at path?  Remembered in d->probes for the cache
 * entry when the cache is on (-ENOMEM kept: then 0).
 */
int symcache__probe(struct symbols *s, struct dso *d, const char *path);
/* write the cache file of every dso that learnt something; failures only logged (debug) */
void symcache__save(struct symbols *s);
/* forget d->probes (a new load records them again) */
void symcache__release_probes(struct dso *d);
/* everything of the cache in d */
void symcache__release(struct dso *d);

/* debuginfod.c */
/*
 * After the local places found nothing: the executable (debuginfo 0) or
 * the debug file (1) with build id id from the debuginfod servers (or
 * libdebuginfod's cache) for d, its path (malloc'd) into *path: 0;
 * -ENOENT when none (not asked: no $DEBUGINFOD_URLS, --no-debuginfod, no
 * id, a server failed earlier in the run); -ENOMEM (kept).  An answer
 * that is no file sets d->dbgd_missed.  A download is said once (info);
 * the first server failure is warned once.
 */
int debuginfod__find(struct symbols *s, struct dso *d, int debuginfo, const uint8_t *id, size_t idsz,
		     char **path);
/* end the client */
void debuginfod__release(struct symbols *s);

/* kallsyms.c */
int dso__load_kernel(struct symbols *s, struct dso *d);
/* the running kernel is the recorded one (build id, else release): 1 or 0; nothing recorded: -1 */
int kernel__running_is_recorded(const struct symbols *s);

/* perfmap.c */
int dso__load_perfmap(struct symbols *s, struct dso *d);

/* dso.c: raw demangled as ELF symbol names are (unless --no-demangle), interned; NULL on ENOMEM (kept) */
const char *dso__demangled_name(struct symbols *s, const char *raw);

/* jitdump.c */
struct jit_code;
struct jitdump;
/*
 * Parse a jitdump's bytes (path names it in the warning a malformed record
 * gets, with its offset; the records before it are kept): its code loads as
 * dsos of DSO_JIT, its loads and moves as maps.  0 or -ENOMEM (kept).
 */
int jitdump__parse(struct symbols *s, const char *path, const void *buf, size_t len, struct jitdump **out);
void jitdump__free(void *j);
/* its maps and flags as symbols__jitdump gives them: 0, or -EINVAL when its header is unusable */
int jitdump__maps(const struct jitdump *j, const struct jit_map **maps, size_t *nr, uint64_t *flags);
/* the source line of addr in a DSO_JIT dso's code, into r's src_* (unchanged when none) */
void jitdump__line(const struct dso *d, uint64_t addr, struct sym_result *r);

#endif

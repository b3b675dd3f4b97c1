/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Symbol resolution, in process, with libbfd: DSOs (ELF binaries, shared
 * objects, separate debug files, the build-id cache), the kernel from a
 * kallsyms file, JIT code from /tmp/perf-PID.map and from jitdump files
 * (jit-PID.dump, decode/jitdump.c), and the [vdso] from the build-id cache.  Follows tools/perf/util/symbol.c, symbol-elf.c, dso.c and
 * map.c of Linux perf 6.1 so names agree with `perf report`.
 *
 * Ownership: struct symbols owns every struct dso and every string it hands
 * out (function names, file names, dso names); they live until
 * symbols__delete.  Loading is lazy: a DSO's files are opened at its first
 * resolve.  Every resolve is cached per (dso, address); source lines are
 * looked up only by symbols__resolve (not symbols__resolve_sym), once per
 * address, and the definition once per symbol.  Nothing here prints or
 * forks; warnings go to opts->log, once per DSO.  Not thread-safe.
 *
 * Errors: a file that is missing, unreadable or without symbols is no
 * error (its addresses stay unresolved, with a warning).  Running out of
 * memory or a real I/O error is: the first one is kept (symbols__status),
 * the call that met it returns it, and so does every resolve after it, so
 * the caller ends the run rather than write a report with names missing.
 *
 * Where an ELF DSO's files come from, first found wins:
 *   binary:  SYMFS/path (just path without --symfs); with --symfs, the
 *            plain path only when a build id was recorded for it and the
 *            file has that id (perf itself never leaves the symfs); then
 *            BUILDID_DIR/.build-id/xx/rest/elf and .../xx/rest (perf's
 *            build-id cache; BUILDID_DIR is $PERF_BUILDID_DIR or ~/.debug).
 *            A file whose build id differs from the recorded one is
 *            skipped with one warning.
 *   debug file (when the binary has no .symtab, or no DWARF and source
 *            lines are wanted): ROOT/.build-id/xx/rest.debug for ROOT in
 *            SYMFS/usr/lib/debug and each --debug-dir, then
 *            BUILDID_DIR/.build-id/xx/rest/debug, then ROOT/path.debug and
 *            ROOT/path, then the binary's .gnu_debuglink (its own dir, its
 *            .debug/, ROOT/<its dir>/; CRC checked).  The build id is the
 *            recorded one, else the binary's.
 *   debuginfod: after all those, when $DEBUGINFOD_URLS is set (and not
 *            opts->no_debuginfod), the binary by its recorded build id and
 *            the debug file by the build id above from those servers,
 *            through libdebuginfod and its cache (debuginfod.c).
 *   [vdso]:  BUILDID_DIR/[vdso]/<recorded id>/vdso only.
 *   kernel:  see kallsyms.c: --kallsyms FILE; else
 *            BUILDID_DIR/[kernel.kallsyms]/<id>/kallsyms; else /proc/kallsyms
 *            when the running kernel is the recorded one.
 */
#ifndef DECODE_SYMBOLS_H
#define DECODE_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

struct log;

struct symbols;            /* the resolver: owns every DSO and all caches */
struct dso;

struct symbols_opts {
	const char *symfs;                 /* prefix for binary paths, or NULL */
	const char *kallsyms;              /* --kallsyms FILE, used as given, or NULL */
	const char *vmlinux;               /* --vmlinux FILE: the kernel's code for symbols__disassemble, or NULL */
	const char *const *debug_dirs;     /* extra debug roots (--debug-dir), nr_debug_dirs of them */
	size_t nr_debug_dirs;
	int no_source;                     /* skip file/line lookups */
	int no_demangle;                   /* keep C++/Rust names as the symbol table has them */
	const char *buildid_dir;           /* the build-id cache (--buildid-dir); NULL: $PERF_BUILDID_DIR, else ~/.debug */
	const char *recorded_osrelease;    /* from the file's OSRELEASE feature, or NULL */
	const uint8_t *recorded_kernel_build_id;   /* [kernel.kallsyms] build id from BUILD_ID, or NULL */
	size_t recorded_kernel_build_id_size;
	const struct log *log;             /* util/log.h; may be NULL */
	const char *cache_dir;             /* the persistent symbol cache (symcache.c), or NULL: none */
	int no_debuginfod;                 /* never ask the servers of $DEBUGINFOD_URLS (debuginfod.c) */
	int (*stop)(void);                 /* non-zero: stop a debuginfod download (a signal came), or NULL */
};

/*
 * opts and the strings it points to are copied; opts may be NULL (defaults).
 * 0 or -ENOMEM.
 */
int symbols__new(struct symbols **out, const struct symbols_opts *opts);
void symbols__delete(struct symbols *s);
/* the first -ENOMEM or -errno met by any call on s, or 0 (as perf_file__status) */
int symbols__status(const struct symbols *s);

/*
 * Read and parse the kernel's symbols (kallsyms, from where the first
 * kernel address would look now) in a thread of their own, while the
 * records decode, when the file recorded the kernel's build id (perf
 * record lists the dsos with samples; without it, nothing).  The first kernel address takes that table, and says
 * then what the reading had to say, as without; should the places have
 * changed since (a pipe's build ids), it reads them itself.  Nothing
 * happens when the thread cannot start.  symbols__stop_kernel_ahead
 * (symbols__delete does) waits for the thread and drops what it read.
 */
void symbols__read_kernel_ahead(struct symbols *s);
void symbols__stop_kernel_ahead(struct symbols *s);

/*
 * Record the build id the file recorded for a path (BUILD_ID feature, MMAP2
 * with build id), before or after the DSO is created but before its first
 * resolve.  "[kernel.kallsyms]" and "[vdso]" are accepted as paths.  A later
 * call for the same path replaces the earlier one.  0, -EINVAL (size 0 or
 * > 20 bytes), -ENOMEM (kept, symbols__status).
 */
/* the recorded kernel release when the file gives it late (a pipe's HEADER_FEATURE), for [vdso]; 0 or -ENOMEM */
int symbols__set_osrelease(struct symbols *s, const char *osrelease);
int symbols__set_build_id(struct symbols *s, const char *filename,
			  const uint8_t *build_id, size_t size);

/*
 * The DSO for a map: filename as in the MMAP record ("/usr/bin/ls",
 * "[kernel.kallsyms]_text", "/lib/modules/.../x.ko", "[vdso]", "//anon",
 * "[anon:...]", "/memfd:..." ...), pid of the process (for /tmp/perf-PID.map
 * of JIT/anon maps), kernel = the map came from a kernel MMAP (misc cpumode
 * kernel).  Interned: the same key gives the same dso.  NULL only on ENOMEM
 * (kept, symbols__status).
 *
 * Classification (perf 6.1, util/map.c map__new and machine.c):
 *   kernel, "[kernel.kallsyms]..." or "[guest.kernel.kallsyms..." -> the kernel dso
 *   kernel, "/path/x-y.ko[.xz|.gz|.zst]" or "[x_y]"     -> module "[x_y]" (kallsyms symbols)
 *   "//anon", "/dev/zero...", "/anon_hugepage...", "[heap]",
 *   "[stack...", "/SYSV..."                                -> "/tmp/perf-PID.map" of pid, "[JIT] tid PID"
 *   "[vdso]"                                               -> the vdso (build-id cache only)
 *   other "[...]" names ("[vsyscall]", "[uprobes]",
 *   "[anon:name]" as in perf 6.1)                          -> never resolves, named as given
 *   anything else                                          -> an ELF file at that path
 */
struct dso *symbols__dso_for_map(struct symbols *s, const char *filename,
				 uint32_t pid, int kernel);
/* the DSO for kernel addresses that fall in no map ([kernel.kallsyms]); NULL only on ENOMEM */
struct dso *symbols__kernel_dso(struct symbols *s);

/*
 * As perf report 6.1's dso column: "ls", "libc.so.6", "[kernel.kallsyms]",
 * "[vdso]", "[ext4]", "[JIT] tid 1234" (for /tmp/perf-1234.map; perf
 * report -v and perf script show the path, dso__path).
 */
const char *dso__name(const struct dso *d);
/* full path as recorded ("/tmp/perf-1234.map" for anon maps) */
const char *dso__path(const struct dso *d);
/*
 * For a warning about a dso without symbols (after its first resolve): 1
 * when it has symbols; else 0 with *tried the file looked for first (the
 * symfs path) and wanted the recorded build id in hex ("" when none); both
 * point into buf of size n or into s.
 */
/*
 * the ELF file this dso's symbols come from (loading it first), for the
 * unwinder; NULL when none, or when loading failed (symbols__status)
 */
const char *symbols__dso_file(struct symbols *s, struct dso *d);

int symbols__dso_has_symbols(struct symbols *s, const struct dso *d, const char **tried, char *wanted, size_t n);

/*
 * JIT code from a jitdump file, as perf inject --jit maps it: each code
 * load (and move) a map [start, start + len) of process pid from time on,
 * its dso one symbol (the load's name) with the dump's source lines;
 * dso__name is the dump's base name ("jit-1234.dump").
 */
struct jit_map {
	uint64_t time;		/* the record's timestamp: CLOCK_MONOTONIC, or the arch counter (JIT_FLAG_ARCH_TIMESTAMP) */
	uint64_t start, len;
	uint32_t pid, tid;
	struct dso *dso;
};
#define JIT_FLAG_ARCH_TIMESTAMP 1	/* the header's flag: timestamps are TSC counts, not CLOCK_MONOTONIC */

/* is filename (a user MMAP's) a jitdump of process pid: ".../jit-PID.dump" (perf's jit_detect; pid 0: any) */
int symbols__is_jitdump(const char *filename, uint32_t pid);
/*
 * The maps of the jitdump at path (as recorded; read as SYMFS/path with
 * --symfs), in file order, and the header's flags; parsed once per path,
 * *maps borrowed until symbols__delete.  An absent or unreadable file has
 * no maps (-ENOENT), one whose header perf would refuse none (-EINVAL), a
 * malformed record ends the maps (0): a warning once, with the byte
 * offset.  0, -ENOENT, -EINVAL, -ENOMEM (kept).
 */
int symbols__jitdump(struct symbols *s, const char *path, const struct jit_map **maps, size_t *nr,
		     uint64_t *flags);

struct sym_result {
	const char *function;     /* demangled as perf report prints it, NULL when unresolved (interned) */
	uint64_t sym_addr;        /* symbol start (file vaddr space; absolute for kernel and perf-map) */
	const char *def_file;     /* basename of the file where the function is defined (NULL unknown) */
	unsigned def_line;
	const char *src_file;     /* basename of the innermost (inline-aware) source file of the address */
	unsigned src_line;
	const char *def_path;     /* def_file as the debug info names it (usually absolute), or NULL */
	const char *src_path;     /* src_file likewise */
	uint64_t addr;            /* the address looked up: file vaddr for ELF dsos, ip otherwise */
	uint64_t map_addr;        /* as perf's map__map_ip gives it: the file offset for ELF dsos, else addr */
};

/*
 * Resolve a sample address in a map of this dso: map_start/map_pgoff from
 * the MMAP record, ip the address.  User DSOs: file offset = ip - map_start +
 * map_pgoff, then an ELF vaddr through the PT_LOAD program headers (PIE,
 * shared objects, non-zero pgoff, prelinked).  Kernel/kallsyms/perf-map: ip
 * as is.  A jitdump's code: ip - map_start + the load's code address.  Fills function and sym_addr and, unless opts->no_source, the
 * source fields (def_* and src_*).  0 found; -ENOENT no symbol (function
 * NULL, sym_addr and def_* zero; src_* may still be set when debug info
 * covers the address, as perf's srcline is); -EINVAL bad arguments;
 * -ENOMEM or -errno when loading or looking up met an allocation failure or
 * an I/O error, now or in an earlier call (symbols__status).  A bad or
 * missing file is no error: the address is then unresolved and a warning is
 * logged once for the dso.
 */
int symbols__resolve(struct symbols *s, struct dso *dso, uint64_t map_start,
		     uint64_t map_pgoff, uint64_t ip, struct sym_result *out);
/*
 * As symbols__resolve but function and sym_addr only: never touches the
 * debug line tables (the fast path; > 10M cached lookups/s).  The source
 * fields of out are NULL/0.
 */
int symbols__resolve_sym(struct symbols *s, struct dso *dso, uint64_t map_start,
			 uint64_t map_pgoff, uint64_t ip, struct sym_result *out);

/* the longest inline chain symbols__inlines returns */
#define MAX_INLINE 32

/*
 * The functions inlined at ip (a map of dso as for symbols__resolve),
 * innermost first, without the function they were inlined into (the
 * symbol's own), from the debug info (bfd_find_inliner_info): their number,
 * at most max; 0 when the code there is not inlined or has no debug info;
 * -ENOMEM or -errno as symbols__resolve.  Names demangled unless
 * --no-demangle, interned.  Not cached: callers cache.
 */
int symbols__inlines(struct symbols *s, struct dso *dso, uint64_t map_start,
		     uint64_t map_pgoff, uint64_t ip, const char **names, size_t max);

/* one instruction of symbols__disassemble */
struct sym_insn {
	uint64_t addr;            /* file vaddr, as objdump -d prints it */
	unsigned size;            /* bytes */
	const char *text;         /* objdump -d --no-show-raw-insn's text ("jmp    1139 <hot_big+0x19>"); only during the callback */
	const char *src_file;     /* as sym_result's src_*: basename, interned; NULL when unknown or no_source */
	const char *src_path;
	unsigned line;
};

/* 0 to go on, else an error that ends symbols__disassemble and is its result */
typedef int (*symbols_insn_fn)(void *ctx, const struct sym_insn *in);

/*
 * The bounds [*start, *end) of the function holding addr (a file vaddr,
 * sym_result.addr) in a dso already resolved once, in the same space.
 * 0; -ENOENT no symbol there; -EINVAL; the kept error (symbols__status).
 */
int symbols__func_bounds(struct symbols *s, struct dso *d, uint64_t addr, uint64_t *start, uint64_t *end);
/*
 * Whether ip (in a map of d at map_start, map_pgoff) lies in the first
 * SYMBOLS_ENTRY_BYTES of d's ELF entry point (e_entry): the _start of a
 * stripped program, where every stack of its main thread begins.  0 also
 * when d is no ELF file or its file cannot be read.
 */
#define SYMBOLS_ENTRY_BYTES 64
int symbols__at_entry(struct symbols *s, struct dso *d, uint64_t map_start, uint64_t map_pgoff, uint64_t ip);
/*
 * Disassemble [start, end) (file vaddrs, symbols__func_bounds) of an ELF
 * dso's binary with libopcodes, the architecture the binary's, each
 * instruction with its source line (unless no_source) handed to cb in
 * address order.  0; -ENOENT when there is no code to read (kernel, JIT,
 * no binary, a debug file without code, an architecture libopcodes does not
 * know, an empty range or one over 16 MiB); -EINVAL bad arguments; cb's error;
 * -ENOMEM (kept, symbols__status).  Follows objdump -d (decode/disasm.c).
 */
int symbols__disassemble(struct symbols *s, struct dso *d, uint64_t start, uint64_t end,
			 symbols_insn_fn cb, void *ctx);

/*
 * Write what this run learnt of its ELF dsos to the symbol cache
 * (opts->cache_dir), for the next run.  Nothing after an error
 * (symbols__status); a cache that cannot be written is no error.
 */
void symbols__save_cache(struct symbols *s);

/* statistics for tests: distinct (dso, address) pairs cached */
size_t symbols__nr_cached(const struct symbols *s);

#endif

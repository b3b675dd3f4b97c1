/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The persistent symbol cache: what loading an ELF dso (or the vdso) with
 * libbfd found, kept in a file per dso so the next analysis of profiles of
 * the same binaries skips libbfd, the symbol tables and the inflate of
 * compressed debug sections.  One file per (recorded build id, path,
 * options) under the cache directory ($XDG_CACHE_HOME/readperf, else
 * ~/.cache/readperf; --no-symbol-cache: none), named
 * BUILDID-KEYHASH.sym ("nobuildid-KEYHASH.sym" without a recorded id).
 *
 * A file holds the symbol table as the load left it (after perf's fixups
 * and the PLT symbols), the definition of every symbol met so far, the
 * source line of every address met so far, the PT_LOAD segments, and every
 * path the load looked at with its size, inode, mtime and ctime (or that
 * it was absent).  It is used only when all those paths are as they were: a
 * rebuilt, replaced or newly installed binary or debug file (at a place
 * the load looked) makes a new load from the files.  Not seen: a debug
 * file that appears in a place only libbfd's .gnu_debuglink search looks.
 * An address or symbol the file lacks opens the binary then (the lookup
 * is the same as without the cache), and the file is written again at the
 * end with what was learnt.
 *
 * A dso whose load warned (a build id that differs, an unreadable file) is
 * not cached, so its warning is said on every run; nor is one for which
 * debuginfod was asked and gave no file (a server down, or without it yet:
 * a later run may get it; libdebuginfod's own cache remembers a "none" for
 * ten minutes).  With debuginfod on, the key says so: an entry made
 * without the servers is not used then.  A cache file that is
 * truncated, corrupt (CRC-32 of its body), of another version or byte
 * order, or larger than SYMCACHE_FILE_MAX is treated as absent.  Files are
 * written whole (a temporary file and a rename); when the directory holds
 * more than SYMCACHE_DIR_MAX bytes the least recently used files are
 * removed down to three quarters of it (only files named as this cache
 * names them are ever removed).  A failure to write the cache is no error
 * of the analysis (logged at debug level).  Whoever can write the cache
 * directory decides what the reports say of the binaries it covers: it is
 * the user's own (a FIFO, device or symlink in place of a cache file is
 * not read; a temporary file is created exclusively).
 *
 * Layout (host byte order, checked by the marker): magic "RPSYMC\0" and a
 * version byte, u32 0x01020304, u32 0, u64 body size, u32 crc32(body),
 * u32 0; the body: key (str), probes (u32 n; str path, u8 exists, u64
 * size, ino, mtime_ns, ctime_ns), main path (str; length ~0: none), u8 has_lines,
 * segments (u32 n; u64 offset, vaddr, filesz), strings (u32 n; str),
 * symbols (u32 n; u64 start, end; u32 name, def_file, def_path, def_line,
 * idx, parent; u8 bind, has_brackets, label, def_done), lines (u32 n, by
 * address; u64 addr; u32 file, path, line).  str: u32 length and bytes;
 * string references are indexes into the strings, ~0 for none.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "util/array.h"
#include "util/fs.h"
#include "util/log.h"
#include "util/strbuf.h"
#include "perffile/elf.h"
#include "decode/symbols_internal.h"

/* bumped when what a load makes of the same files changes (perf's fixups, PLT symbols, demangling; 2: lines through libdw) */
#define SYMCACHE_VERSION 2
#define SYMCACHE_FILE_MAX (32u << 20)
#define SYMCACHE_LINES_MAX 1000000u	/* source lines kept per file (the lowest addresses) */
#define SYMCACHE_DIR_MAX (256ull << 20)
#define NONE UINT32_MAX

static const char magic[8] = { 'R', 'P', 'S', 'Y', 'M', 'C', 0, 1 };

struct hdr {
	char magic[8];
	uint32_t endian;
	uint32_t zero;
	uint64_t body_size;
	uint32_t crc;
	uint32_t zero2;
};

/* the key text of a dso: everything that chooses its files and shapes its symbols */
static int cache_key(const struct symbols *s, const struct dso *d, struct strbuf *key, char *idhex)
{
	const struct recorded_id *rec = symbols__recorded_build_id(s, d->kind == DSO_VDSO ? "[vdso]" : d->path);
	size_t i;

	strcpy(idhex, "nobuildid");
	if (rec)
		build_id__hex(rec->data, rec->size, idhex);
	if (strbuf__addf(key, "readperf symbols %d\nloader %s\nkind %d\npath %s\nbuild id %s\nsymfs %s\n"
			 "buildid dir %s\nno source %d\nno demangle %d\n", SYMCACHE_VERSION, dso__loader_id(),
			 (int)d->kind, d->path, idhex, s->symfs, s->buildid_dir ? s->buildid_dir : "",
			 s->no_source, s->no_demangle) < 0)
		return -ENOMEM;
	for (i = 0; i < s->nr_debug_dirs; i++)
		if (strbuf__addf(key, "debug dir %s\n", s->debug_dirs[i]) < 0)
			return -ENOMEM;
	/* a load without the servers may lack what they give: not the same entry (none without them: old keys stay) */
	if (s->debuginfod && strbuf__addstr(key, "debuginfod\n"))
		return -ENOMEM;
	return 0;
}

/* DIR/IDHEX-KEYHASH.sym; 0 or -ENOMEM */
static int cache_path(const struct symbols *s, const struct dso *d, struct strbuf *key, struct strbuf *path)
{
	char idhex[2 * BUILD_ID_MAX + 1];

	if (cache_key(s, d, key, idhex))
		return -ENOMEM;
	if (strbuf__addf(path, "%s/%s-%016llx.sym", s->cache_dir, idhex,
			 (unsigned long long)hash_bytes(key->buf, key->len)) < 0)
		return -ENOMEM;
	return 0;
}

static void stat_probe(const char *path, struct probe *p)
{
	struct stat st;

	memset(p, 0, sizeof(*p));
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return;
	p->exists = 1;
	p->size = (uint64_t)st.st_size;
	p->ino = (uint64_t)st.st_ino;
	p->mtime_ns = (uint64_t)st.st_mtim.tv_sec * 1000000000u + (uint64_t)st.st_mtim.tv_nsec;
	p->ctime_ns = (uint64_t)st.st_ctim.tv_sec * 1000000000u + (uint64_t)st.st_ctim.tv_nsec;
}

int symcache__probe(struct symbols *s, struct dso *d, const char *path)
{
	struct probe p, *v;

	stat_probe(path, &p);
	if (!s->cache_dir)
		return p.exists;
	v = realloc(d->probes, (d->nr_probes + 1) * sizeof(*v));
	if (v)
		d->probes = v;
	p.path = v ? strdup(path) : NULL;
	if (!p.path) {
		symbols__fail(s, -ENOMEM);
		return 0;
	}
	v[d->nr_probes++] = p;
	return p.exists;
}

void symcache__release_probes(struct dso *d)
{
	size_t i;

	for (i = 0; i < d->nr_probes; i++)
		free(d->probes[i].path);
	free(d->probes);
	d->probes = NULL;
	d->nr_probes = 0;
}

static void free_plain(void *p)
{
	free(p);
}

void symcache__release(struct dso *d)
{
	symcache__release_probes(d);
	if (d->cached_lines)
		hashmap__release(d->cached_lines, free_plain);
	free(d->cached_lines);
	d->cached_lines = NULL;
}

/* reading: a cursor over the body; any read past its end marks it bad */
struct cur {
	const unsigned char *p, *end;
	int bad;
};

static int take(struct cur *c, void *out, size_t n)
{
	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = 1;
		memset(out, 0, n);
		return -1;
	}
	memcpy(out, c->p, n);
	c->p += n;
	return 0;
}

static uint8_t get8(struct cur *c)
{
	uint8_t v;

	take(c, &v, 1);
	return v;
}

static uint32_t get32(struct cur *c)
{
	uint32_t v;

	take(c, &v, 4);
	return v;
}

static uint64_t get64(struct cur *c)
{
	uint64_t v;

	take(c, &v, 8);
	return v;
}

/* a string of the body (not NUL-terminated): its length, or -1 for none (~0) or a bad cursor */
static long get_str(struct cur *c, const char **str)
{
	uint32_t n = get32(c);

	*str = NULL;
	if (c->bad || n == NONE)
		return -1;
	if ((size_t)(c->end - c->p) < n) {
		c->bad = 1;
		return -1;
	}
	*str = (const char *)c->p;
	c->p += n;
	return (long)n;
}

/* a count of records of at least min bytes each that fits in what is left */
static uint32_t get_count(struct cur *c, size_t min)
{
	uint32_t n = get32(c);

	if (!c->bad && n > (size_t)(c->end - c->p) / min)
		c->bad = 1;
	return c->bad ? 0 : n;
}

/* the string with index i of v (n of them), or NULL for none; an index out of range marks c bad */
static const char *str_at(struct cur *c, const char **v, uint32_t n, uint32_t i)
{
	if (i == NONE)
		return NULL;
	if (i >= n) {
		c->bad = 1;
		return NULL;
	}
	return v[i];
}

/* a path of the file body and its length */
struct span {
	const char *p;
	size_t len;
};

/*
 * Are the files the load looked at as they were?  found (n of them, the
 * caller frees) gets the paths that exist: the main file must be one.
 */
static int probes_valid(struct cur *c, struct span **found, size_t *nfound)
{
	uint32_t i, n = get_count(c, 4 + 1 + 32);
	char path[PATH_MAX];

	*nfound = 0;
	*found = calloc(n ? n : 1, sizeof(**found));
	if (!*found)
		return 0;
	for (i = 0; i < n && !c->bad; i++) {
		struct probe was, now;
		const char *p;
		long len = get_str(c, &p);

		was.exists = get8(c);
		was.size = get64(c);
		was.ino = get64(c);
		was.mtime_ns = get64(c);
		was.ctime_ns = get64(c);
		if (c->bad || len < 0 || (size_t)len >= sizeof(path))
			return 0;
		memcpy(path, p, (size_t)len);
		path[len] = '\0';
		stat_probe(path, &now);
		if (now.exists != was.exists || now.size != was.size || now.ino != was.ino ||
		    now.mtime_ns != was.mtime_ns || now.ctime_ns != was.ctime_ns)
			return 0;
		if (now.exists) {
			(*found)[*nfound].p = p;
			(*found)[(*nfound)++].len = (size_t)len;
		}
	}
	return !c->bad;
}

/*
 * The parts of the body after the probes.  Each returns 0, or -ENOMEM; bad
 * input marks c bad and still returns 0, and what a part allocated (even on
 * failure) is the caller's to free.
 */

/* the main path (length ~0: none; else one of the found paths) into *path */
static int parse_main_path(struct cur *c, const struct span *found, size_t nfound, char **path)
{
	const char *p;
	long len = get_str(c, &p);
	size_t i;

	for (i = 0; len >= 0 && i < nfound; i++)
		if (found[i].len == (size_t)len && !memcmp(found[i].p, p, found[i].len))
			break;
	if (len >= 0 && i == nfound)
		c->bad = 1;	/* the unwinder opens it: only a file the load looked at */
	else if (len >= 0 && !(*path = strndup(p, (size_t)len)))
		return -ENOMEM;
	return 0;
}

static int parse_segs(struct cur *c, struct elf_load_seg **out, uint32_t *nr)
{
	uint32_t i, n = get_count(c, 24);
	struct elf_load_seg *segs;

	segs = *out = calloc(n ? n : 1, sizeof(*segs));
	if (!segs)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		segs[i].offset = get64(c);
		segs[i].vaddr = get64(c);
		segs[i].filesz = get64(c);
	}
	*nr = n;
	return 0;
}

/* the string table, interned in s */
static int parse_strs(struct symbols *s, struct cur *c, const char ***out, uint32_t *nr)
{
	uint32_t i, n = get_count(c, 4);
	const char **strs, *p;
	long len;

	strs = *out = calloc(n ? n : 1, sizeof(*strs));
	if (!strs)
		return -ENOMEM;
	*nr = n;
	for (i = 0; i < n && !c->bad; i++) {
		len = get_str(c, &p);
		if (len < 0)
			c->bad = 1;
		else if (!(strs[i] = symbols__intern_n(s, p, (size_t)len)))
			return -ENOMEM;
	}
	return 0;
}

/* the symbol table; strs (nstr of them) is the string table its names index */
static int parse_syms(struct cur *c, const char **strs, uint32_t nstr, struct sym **out, uint32_t *nr)
{
	uint32_t i, n = get_count(c, 16 + 24 + 4);
	struct sym *syms;

	syms = *out = calloc(n ? n : 1, sizeof(*syms));
	if (!syms)
		return -ENOMEM;
	*nr = n;
	for (i = 0; i < n && !c->bad; i++) {
		struct sym *y = &syms[i];

		y->start = get64(c);
		y->end = get64(c);
		y->name = str_at(c, strs, nstr, get32(c));
		y->def_file = str_at(c, strs, nstr, get32(c));
		y->def_path = str_at(c, strs, nstr, get32(c));
		y->def_line = get32(c);
		y->idx = get32(c);
		y->parent = get32(c);
		y->bind = get8(c);
		y->has_brackets = get8(c);
		y->label = get8(c);
		y->def_done = get8(c);
		/* what symtab__find relies on: sorted, parents before their labels, a name */
		if (!y->name || (i && y->start < y[-1].start) || y->parent > i)
			c->bad = 1;
	}
	return 0;
}

/* the source lines by address (struct cached_line); strs as for parse_syms */
static int parse_lines(struct cur *c, const char **strs, uint32_t nstr, struct hashmap **out)
{
	uint32_t i, n = get_count(c, 8 + 12);
	struct hashmap *lines;

	if (n > SYMCACHE_LINES_MAX)
		c->bad = 1;
	lines = *out = calloc(1, sizeof(*lines));
	if (!lines)
		return -ENOMEM;
	hashmap__init(lines);
	for (i = 0; i < n && !c->bad; i++) {
		struct cached_line *l;
		uint64_t addr = get64(c);
		void **slot;
		int ret;

		l = malloc(sizeof(*l));
		if (!l)
			return -ENOMEM;
		l->file = str_at(c, strs, nstr, get32(c));
		l->path = str_at(c, strs, nstr, get32(c));
		l->line = get32(c);
		ret = hashmap__insert(lines, &addr, sizeof(addr), &slot);
		if (ret < 0) {
			free(l);
			return -ENOMEM;
		}
		free(*slot);
		*slot = l;
	}
	return 0;
}

/* the body after the probes into d: 1, 0 (bad: d untouched), -ENOMEM; main: a file that exists */
static int parse_entry(struct symbols *s, struct dso *d, struct cur *c, const struct span *found, size_t nfound)
{
	const char **strs = NULL;
	struct elf_load_seg *segs = NULL;
	struct sym *syms = NULL;
	struct hashmap *lines = NULL;
	char *main_path = NULL;
	uint32_t nstr = 0, nseg = 0, nsym = 0;
	int has_lines, err = -ENOMEM;

	if (parse_main_path(c, found, nfound, &main_path))
		goto out;
	has_lines = get8(c);
	if (parse_segs(c, &segs, &nseg) || parse_strs(s, c, &strs, &nstr) ||
	    parse_syms(c, strs, nstr, &syms, &nsym) || parse_lines(c, strs, nstr, &lines))
		goto out;
	if (c->bad || c->p != c->end) {
		err = 0;
		goto out;
	}
	if (dso__set_cached(s, d, segs, nseg, main_path))
		goto out;
	segs = NULL;
	main_path = NULL;
	d->syms = syms;
	d->nr_syms = nsym;
	syms = NULL;
	d->cache_has_lines = (uint8_t)has_lines;
	d->cached_lines = lines;
	lines = NULL;
	err = 1;
out:
	if (lines)
		hashmap__release(lines, free_plain);
	free(lines);
	free(strs);
	free(segs);
	free(syms);
	free(main_path);
	return err < 0 ? symbols__fail(s, err) : err;
}

/* the whole file at path when it is no larger than max: 0, or -1 (absent, unreadable, too large) */
static int read_whole(const char *path, size_t max, unsigned char **data, size_t *size)
{
	struct stat st;
	/* a FIFO or a device in its place must not block nor be read; nor is a symlink followed */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW), err;
	char *buf = NULL;

	*data = NULL;
	if (fd < 0)
		return -1;
	err = fstat(fd, &st) || !S_ISREG(st.st_mode) || fs__read_fd(fd, max, &buf, size);
	close(fd);
	*data = (unsigned char *)buf;
	return err ? -1 : 0;
}

int symcache__load(struct symbols *s, struct dso *d)
{
	struct strbuf key = STRBUF_INIT, path = STRBUF_INIT;
	unsigned char *data = NULL;
	struct span *found = NULL;
	size_t size = 0, nfound = 0;
	struct hdr h;
	struct cur c;
	const char *k;
	long klen;
	int ret = 0;

	if (!s->cache_dir)
		return 0;
	if (cache_path(s, d, &key, &path)) {
		ret = symbols__fail(s, -ENOMEM);
		goto out;
	}
	if (read_whole(path.buf, SYMCACHE_FILE_MAX, &data, &size) || size < sizeof(h))
		goto out;
	memcpy(&h, data, sizeof(h));
	if (memcmp(h.magic, magic, sizeof(magic)) || h.endian != 0x01020304 || h.zero || h.zero2 ||
	    h.body_size != size - sizeof(h) || h.crc != crc32(0, data + sizeof(h), (uInt)h.body_size))
		goto out;
	c.p = data + sizeof(h);
	c.end = data + size;
	c.bad = 0;
	klen = get_str(&c, &k);
	if (klen < 0 || (size_t)klen != key.len || memcmp(k, key.buf, key.len) || !probes_valid(&c, &found, &nfound))
		goto out;
	ret = parse_entry(s, d, &c, found, nfound);
	if (ret == 1) {
		/* least recently used goes first when the directory is full */
		utimensat(AT_FDCWD, path.buf, NULL, 0);
		log_msg(s->log, LOG_DEBUG, "%s: %zu symbols from the symbol cache %s", d->path, d->nr_syms, path.buf);
	}
out:
	free(found);
	free(data);
	strbuf__release(&key);
	strbuf__release(&path);
	return ret;
}

/* writing */
static int put(struct strbuf *b, const void *p, size_t n)
{
	return strbuf__add(b, p, n);
}

static int put8(struct strbuf *b, uint8_t v)
{
	return put(b, &v, 1);
}

static int put32(struct strbuf *b, uint32_t v)
{
	return put(b, &v, 4);
}

static int put64(struct strbuf *b, uint64_t v)
{
	return put(b, &v, 8);
}

static int put_str(struct strbuf *b, const char *str)
{
	size_t n = str ? strlen(str) : 0;

	if (!str)
		return put32(b, NONE);
	return put32(b, (uint32_t)n) || put(b, str, n);
}

/* the strings of an entry, by (interned) pointer: each once, in the order first met */
struct strtab {
	struct hashmap idx;	/* const char * -> index + 1 */
	struct strbuf out;	/* the strings, each a str */
	uint32_t n;
};

/* the index of str (added when new), NONE for NULL; -1 on ENOMEM */
static int64_t strtab_ref(struct strtab *t, const char *str)
{
	void **slot;
	int ret;

	if (!str)
		return NONE;
	ret = hashmap__insert(&t->idx, &str, sizeof(str), &slot);
	if (ret < 0)
		return -1;
	if (ret) {
		*slot = (void *)(uintptr_t)(t->n + 1);
		if (put_str(&t->out, str))
			return -1;
		t->n++;
	}
	return (int64_t)(uintptr_t)*slot - 1;
}

struct line_out {
	uint64_t addr;
	const char *file, *path;
	unsigned line;
};

static int line_cmp(const void *pa, const void *pb)
{
	const struct line_out *a = pa, *b = pb;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* the source lines d knows: those looked up this run, then those of the cache file it came from */
static int collect_lines(const struct dso *d, const struct hashmap *cache, struct array *lines)
{
	const struct hashmap_entry *he;
	size_t it = 0;

	while ((he = hashmap__next(cache, &it))) {
		const struct cache_entry *e = he->value;
		const struct sym_result *r = &e->r;
		struct line_out *l;

		if (!e->lines_done)
			continue;
		l = array__push(lines);
		if (!l)
			return -ENOMEM;
		l->addr = r->addr;
		l->file = r->src_file;
		l->path = r->src_path;
		l->line = r->src_line;
	}
	it = 0;
	while (d->cached_lines && (he = hashmap__next(d->cached_lines, &it))) {
		const struct cached_line *c = he->value;
		uint64_t addr;
		void **slot;
		struct line_out *l;

		memcpy(&addr, he->key, sizeof(addr));
		slot = hashmap__find(cache, &addr, sizeof(addr));
		if (slot && ((const struct cache_entry *)*slot)->lines_done)
			continue;
		l = array__push(lines);
		if (!l)
			return -ENOMEM;
		l->addr = addr;
		l->file = c->file;
		l->path = c->path;
		l->line = c->line;
	}
	if (lines->len > 1)
		qsort(lines->data, lines->len, sizeof(struct line_out), line_cmp);
	return 0;
}

/* the body of d's cache file after the key and probes (b holds those): 0 or -ENOMEM */
static int put_entry(const struct dso *d, struct strbuf *b)
{
	struct strtab t = { .out = STRBUF_INIT };
	struct strbuf recs = STRBUF_INIT;
	struct array lines = ARRAY_INIT(struct line_out);
	const struct elf_load_seg *segs;
	size_t i, nseg;
	int err = -ENOMEM;

	hashmap__init(&t.idx);
	segs = dso__cached_segs(d, &nseg);
	if (put_str(b, dso__main_file(d)) || put8(b, (uint8_t)dso__has_lines(d)) || put32(b, (uint32_t)nseg))
		goto out;
	for (i = 0; i < nseg; i++)
		if (put64(b, segs[i].offset) || put64(b, segs[i].vaddr) || put64(b, segs[i].filesz))
			goto out;
	/* symbols and lines into recs, their strings into t */
	if (put32(&recs, (uint32_t)d->nr_syms))
		goto out;
	for (i = 0; i < d->nr_syms; i++) {
		const struct sym *y = &d->syms[i];
		int64_t name = strtab_ref(&t, y->name);
		int64_t file = strtab_ref(&t, y->def_done ? y->def_file : NULL);
		int64_t path = strtab_ref(&t, y->def_done ? y->def_path : NULL);

		if (name < 0 || file < 0 || path < 0 || put64(&recs, y->start) || put64(&recs, y->end) ||
		    put32(&recs, (uint32_t)name) || put32(&recs, (uint32_t)file) ||
		    put32(&recs, (uint32_t)path) || put32(&recs, y->def_done ? y->def_line : 0) ||
		    put32(&recs, y->idx) || put32(&recs, y->parent) || put8(&recs, y->bind) ||
		    put8(&recs, y->has_brackets) || put8(&recs, y->label) || put8(&recs, y->def_done))
			goto out;
	}
	if (collect_lines(d, &d->cache, &lines))
		goto out;
	if (lines.len > SYMCACHE_LINES_MAX)
		lines.len = SYMCACHE_LINES_MAX;
	if (put32(&recs, (uint32_t)lines.len))
		goto out;
	for (i = 0; i < lines.len; i++) {
		const struct line_out *l = &ARRAY_AT(&lines, struct line_out, i);
		int64_t file = strtab_ref(&t, l->file), path = strtab_ref(&t, l->path);

		if (file < 0 || path < 0 || put64(&recs, l->addr) || put32(&recs, (uint32_t)file) ||
		    put32(&recs, (uint32_t)path) || put32(&recs, l->line))
			goto out;
	}
	if (put32(b, t.n) || put(b, t.out.buf, t.out.len) || put(b, recs.buf, recs.len))
		goto out;
	err = 0;
out:
	hashmap__release(&t.idx, NULL);
	strbuf__release(&t.out);
	strbuf__release(&recs);
	array__release(&lines);
	return err;
}

/* the whole cache file of d into b: 0 or -ENOMEM */
static int put_file(const struct dso *d, const struct strbuf *key, struct strbuf *b)
{
	struct hdr h;
	size_t i;

	memset(&h, 0, sizeof(h));
	if (put(b, &h, sizeof(h)) || put_str(b, key->buf) || put32(b, (uint32_t)d->nr_probes))
		return -ENOMEM;
	for (i = 0; i < d->nr_probes; i++) {
		const struct probe *p = &d->probes[i];

		if (put_str(b, p->path) || put8(b, (uint8_t)p->exists) || put64(b, p->size) ||
		    put64(b, p->ino) || put64(b, p->mtime_ns) || put64(b, p->ctime_ns))
			return -ENOMEM;
	}
	if (put_entry(d, b))
		return -ENOMEM;
	memcpy(h.magic, magic, sizeof(magic));
	h.endian = 0x01020304;
	h.body_size = b->len - sizeof(h);
	h.crc = crc32(0, (const unsigned char *)b->buf + sizeof(h), (uInt)h.body_size);
	memcpy(b->buf, &h, sizeof(h));
	return 0;
}

struct aged {
	char *name;
	uint64_t size;
	int64_t mtime_ns;
};

static int aged_cmp(const void *pa, const void *pb)
{
	const struct aged *a = pa, *b = pb;

	if (a->mtime_ns != b->mtime_ns)
		return a->mtime_ns < b->mtime_ns ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* n hex digits at p (lower case) */
static int hex_run(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f')))
			return 0;
	return 1;
}

/*
 * A name this cache writes: IDHEX-KEYHASH.sym (1), or its temporary file
 * IDHEX-KEYHASH.sym.tmp.PID (2); else 0 (nobody else's file is touched).
 */
static int own_name(const char *name)
{
	const char *dash = strchr(name, '-'), *rest;
	size_t idlen = dash ? (size_t)(dash - name) : 0;

	if (!dash || !idlen || idlen > 2 * BUILD_ID_MAX ||
	    (!hex_run(name, idlen) && (idlen != 9 || strncmp(name, "nobuildid", 9))))
		return 0;
	rest = dash + 1;
	if (!hex_run(rest, 16) || strncmp(rest + 16, ".sym", 4))
		return 0;
	rest += 20;
	if (!*rest)
		return 1;
	if (strncmp(rest, ".tmp.", 5) || !rest[5] || strspn(rest + 5, "0123456789") != strlen(rest + 5))
		return 0;
	return 2;
}

/*
 * Keep the directory under SYMCACHE_DIR_MAX: when over it, the least
 * recently used cache files go until it holds three quarters of it.
 * Temporary files of killed runs older than an hour go too.
 */
static void evict(const struct symbols *s)
{
	struct array v = ARRAY_INIT(struct aged);
	uint64_t total = 0;
	struct timespec now;
	struct dirent *de;
	size_t i;
	DIR *dir = opendir(s->cache_dir);

	if (!dir)
		return;
	clock_gettime(CLOCK_REALTIME, &now);
	while ((de = readdir(dir))) {
		struct stat st;
		struct aged *a;
		int kind = own_name(de->d_name), tmp = kind == 2;

		if (!kind || fstatat(dirfd(dir), de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
			continue;
		if (tmp) {
			if (st.st_mtim.tv_sec + 3600 < now.tv_sec)
				unlinkat(dirfd(dir), de->d_name, 0);
			continue;
		}
		a = array__push(&v);
		if (!a || !(a->name = strdup(de->d_name))) {
			if (a)
				v.len--;
			break;
		}
		a->size = (uint64_t)st.st_size;
		a->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
		total += a->size;
	}
	if (total > SYMCACHE_DIR_MAX) {
		qsort(v.data, v.len, sizeof(struct aged), aged_cmp);
		for (i = 0; i < v.len && total > SYMCACHE_DIR_MAX / 4 * 3; i++) {
			const struct aged *a = &ARRAY_AT(&v, struct aged, i);

			if (!unlinkat(dirfd(dir), a->name, 0))
				total -= a->size;
		}
	}
	for (i = 0; i < v.len; i++)
		free(ARRAY_AT(&v, struct aged, i).name);
	array__release(&v);
	closedir(dir);
}

/* write d's cache file; 0 or -errno (not kept: the cache is no part of the analysis) */
static int save_dso(const struct symbols *s, const struct dso *d)
{
	struct strbuf key = STRBUF_INIT, path = STRBUF_INIT, b = STRBUF_INIT;
	int err = -ENOMEM;

	if (!cache_path(s, d, &key, &path) && !put_file(d, &key, &b)) {
		err = b.len > SYMCACHE_FILE_MAX ? -EFBIG : fs__write_file(path.buf, b.buf, b.len);
		log_msg(s->log, LOG_DEBUG, "%s: symbol cache %s: %s", d->path, path.buf,
			err ? strerror(-err) : "written");
	}
	strbuf__release(&key);
	strbuf__release(&path);
	strbuf__release(&b);
	return err;
}

void symcache__save(struct symbols *s)
{
	const struct hashmap_entry *he;
	size_t it = 0;
	int wrote = 0, err;

	if (!s || !s->cache_dir || s->err)
		return;
	while ((he = hashmap__next(&s->dsos, &it))) {
		const struct dso *d = he->value;

		/*
		 * a load that warned is not cached: its warning is said again; nor
		 * one debuginfod gave nothing: a later run may get the file
		 */
		if (!d || !d->loaded || !d->cache_dirty || d->warned || d->dbgd_missed || d->running_vdso ||
		    !dso__main_file(d) ||
		    (d->kind != DSO_ELF && d->kind != DSO_VDSO))
			continue;
		if (!wrote) {
			err = fs__mkdir_p(s->cache_dir);
			if (err) {
				log_msg(s->log, LOG_DEBUG, "%s: %s: no symbol cache", s->cache_dir, strerror(-err));
				return;
			}
		}
		if (!save_dso(s, d))
			wrote = 1;
	}
	if (wrote)
		evict(s);
}

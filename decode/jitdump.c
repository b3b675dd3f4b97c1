/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * JIT code from jitdump files (jit-PID.dump: V8 --perf-prof, the JVM
 * agents, .NET), read as perf inject --jit would make them, without its
 * ELF files: each code load is a dso of one symbol, mapped at its code
 * address from its load's time.  The format is Linux perf's
 * tools/perf/util/jitdump.h (the jitdump specification):
 *
 *   header   u32 magic 'JiTD' (0x4A695444; byte-swapped: the other order),
 *            u32 version (1), u32 total_size, u32 elf_mach, u32 pad,
 *            u32 pid, u64 timestamp, u64 flags (bit 0: arch timestamps);
 *            records start at total_size
 *   record   u32 id, u32 total_size, u64 timestamp, then by id:
 *     0 LOAD        u32 pid, tid; u64 vma, code_addr, code_size,
 *                   code_index; the name, NUL-terminated; the code
 *     1 MOVE        u32 pid, tid; u64 vma, old_code_addr, new_code_addr,
 *                   code_size, code_index
 *     2 DEBUG_INFO  u64 code_addr, nr_entry; entries of u64 addr,
 *                   i32 line, i32 discrim, a NUL-terminated file name
 *                   ("\xff" alone: the previous one) -- for the next LOAD
 *     3 CLOSE
 *     4 UNWINDING   u64 unwinding_size, eh_frame_hdr_size, mapped_size
 *                   (a map is then ALIGN_8(code_size) + mapped_size long,
 *                   until a LOAD takes one with an eh_frame_hdr)
 *
 * As perf 6.1's jitdump.c: a MOVE maps the code of the last LOAD of its
 * code_index at the new address (perf maps jitted-PID-INDEX.so there), a
 * version above 1 or reserved flags make the file unusable, unknown records
 * are skipped.  The source line of an address is that of the last debug
 * entry at or below it (the line table perf's genelf writes).  Unlike perf,
 * which stops silently, a record cut short or malformed is reported with
 * its byte offset; the records before it are kept.
 */
#include <byteswap.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/array.h"
#include "util/log.h"
#include "util/strbuf.h"
#include "decode/symbols_internal.h"

#define JIT_MAGIC 0x4A695444u
#define JIT_HEADER_SIZE 40
#define JIT_PREFIX_SIZE 16
#define JIT_LOAD_SIZE (JIT_PREFIX_SIZE + 40)
#define JIT_MOVE_SIZE (JIT_PREFIX_SIZE + 48)
#define JIT_DEBUG_SIZE (JIT_PREFIX_SIZE + 16)
#define JIT_ENTRY_SIZE 16
#define JIT_UNWIND_SIZE (JIT_PREFIX_SIZE + 24)
/* a dump larger than this is read up to here (V8 writes ~1 KiB per function) */
#define JIT_MAX_FILE ((uint64_t)1 << 32)

enum { JIT_LOAD, JIT_MOVE, JIT_DEBUG_INFO, JIT_CLOSE, JIT_UNWINDING_INFO };

struct jit_line {
	uint64_t addr;
	const char *file;	/* as the dump names it, interned */
	const char *base;	/* its base name, interned */
	unsigned line;
	uint32_t seq;		/* order in the record: the sort is stable */
};

struct jit_code {
	const char *name;	/* interned, demangled as perf's ELF symbols */
	uint64_t addr, size, index;
	size_t first_line, nr_lines;	/* into jitdump.lines, sorted by address */
	const struct jit_line *lines;	/* set once the parse is done */
};

/* a map while parsing: the code's index instead of its dso */
struct pending_map {
	struct jit_map m;
	size_t code;
};

struct jitdump {
	uint64_t flags;
	int unusable;		/* its header is not a jitdump's perf reads */
	struct jit_map *maps;
	size_t nr_maps;
	struct jit_code *codes;
	size_t nr_codes;
	struct dso **dsos;	/* one per code, owned */
	struct jit_line *lines;
	size_t nr_lines;
};

/* the parse state: a cursor over the bytes, what the next LOAD takes */
struct parse {
	struct symbols *s;
	const uint8_t *buf;
	uint64_t len;
	int swap;
	struct array codes, lines, maps;	/* struct jit_code, jit_line, pending_map */
	size_t debug_first, debug_nr;		/* lines of the last DEBUG_INFO, not yet taken */
	int has_debug;
	uint64_t unwind_mapped;			/* mapped_size of the last UNWINDING_INFO */
	int unwind_hdr;				/* it had an eh_frame_hdr: the next LOAD takes it */
	struct hashmap by_index;		/* code_index -> its last code + 1 */
	uint64_t fault;				/* the offset of the first fault */
	int in_records;				/* the header was good */
	char why[96];
};

static uint32_t get32(const struct parse *p, uint64_t off)
{
	uint32_t v;

	memcpy(&v, p->buf + off, 4);
	return p->swap ? bswap_32(v) : v;
}

static uint64_t get64(const struct parse *p, uint64_t off)
{
	uint64_t v;

	memcpy(&v, p->buf + off, 8);
	return p->swap ? bswap_64(v) : v;
}

/* remember the first fault: -EINVAL */
static int fault(struct parse *p, uint64_t off, const char *why)
{
	p->fault = off;
	snprintf(p->why, sizeof(p->why), "%s", why);
	return -EINVAL;
}

static int code_by_index(struct parse *p, uint64_t index, size_t *code)
{
	void **slot = hashmap__find(&p->by_index, &index, sizeof(index));

	if (!slot)
		return 0;
	*code = (size_t)(uintptr_t)*slot - 1;
	return 1;
}

static int add_map(struct parse *p, uint64_t off, uint64_t start, uint64_t len, size_t code)
{
	struct pending_map *pm = array__push(&p->maps);

	if (!pm)
		return -ENOMEM;
	pm->m.time = get64(p, off + 8);
	pm->m.pid = get32(p, off + 16);
	pm->m.tid = get32(p, off + 20);
	pm->m.start = start;
	pm->m.len = len;
	pm->code = code;
	return 0;
}

/* perf inject's map length: the unwinding data after the code, when there is some */
static uint64_t map_len(const struct parse *p, uint64_t code_size)
{
	uint64_t len = ((code_size + 7) & ~(uint64_t)7) + p->unwind_mapped;

	if (!p->unwind_mapped)
		return code_size;
	return len < code_size ? UINT64_MAX : len;
}

/*
 * Do the pending debug entries describe c?  Their addresses lie in its code
 * (V8 adds 64, the ELF header perf's genelf once put before the code).  V8
 * 11 writes a user script's entries with a NUL first in the file name and
 * bytes after it, so a reader by the format (perf) walks into garbage:
 * such a table, or one with no file name, is no source.
 */
static int lines_fit(const struct parse *p, const struct jit_code *c)
{
	const struct jit_line *l;
	uint64_t end = c->addr + c->size + 64;
	size_t i;

	if (!p->debug_nr)
		return 0;
	l = &ARRAY_AT(&p->lines, struct jit_line, p->debug_first);
	for (i = 0; i < p->debug_nr; i++)
		if (l[i].addr < c->addr || l[i].addr > end || end < c->addr || !l[i].file[0])
			return 0;
	return 1;
}

static int parse_load(struct parse *p, uint64_t off, uint64_t size)
{
	const char *name = (const char *)p->buf + off + JIT_LOAD_SIZE;
	const char *nul;
	struct jit_code *c;
	uint64_t code_size, len;
	void **slot;
	int ret;

	if (size < JIT_LOAD_SIZE + 1)
		return fault(p, off, "code load record too short for its name");
	nul = memchr(name, '\0', size - JIT_LOAD_SIZE);
	if (!nul)
		return fault(p, off, "code load name not terminated");
	c = array__push(&p->codes);
	if (!c)
		return -ENOMEM;
	c->addr = get64(p, off + 32);
	c->size = code_size = get64(p, off + 40);
	c->index = get64(p, off + 48);
	c->name = dso__demangled_name(p->s, name);
	if (!c->name)
		return -ENOMEM;
	if (p->has_debug && lines_fit(p, c)) {
		c->first_line = p->debug_first;
		c->nr_lines = p->debug_nr;
	}
	p->has_debug = 0;
	len = map_len(p, code_size);
	if (p->unwind_hdr)
		p->unwind_mapped = p->unwind_hdr = 0;
	ret = hashmap__insert(&p->by_index, &c->index, sizeof(c->index), &slot);
	if (ret < 0)
		return ret;
	*slot = (void *)(uintptr_t)p->codes.len;
	return add_map(p, off, c->addr, len, p->codes.len - 1);
}

static int parse_move(struct parse *p, uint64_t off, uint64_t size)
{
	size_t code;

	if (size < JIT_MOVE_SIZE)
		return fault(p, off, "code move record too short");
	/* perf maps jitted-PID-INDEX.so: nothing to map when no load made it */
	if (!code_by_index(p, get64(p, off + 56), &code))
		return 0;
	return add_map(p, off, get64(p, off + 40), map_len(p, get64(p, off + 48)), code);
}

static int line_cmp(const void *a, const void *b)
{
	const struct jit_line *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int parse_debug(struct parse *p, uint64_t off, uint64_t size)
{
	uint64_t nr, i, at = off + JIT_DEBUG_SIZE, end = off + size;
	const char *prev = NULL, *prev_base = NULL;

	if (size < JIT_DEBUG_SIZE)
		return fault(p, off, "debug info record too short");
	nr = get64(p, off + 24);
	/* each entry is at least its fixed part and a NUL */
	if (nr > (size - JIT_DEBUG_SIZE) / (JIT_ENTRY_SIZE + 1))
		return fault(p, off, "debug info entry count larger than the record");
	p->debug_first = p->lines.len;
	for (i = 0; i < nr; i++) {
		const char *file = (const char *)p->buf + at + JIT_ENTRY_SIZE, *nul;
		struct jit_line *l;
		int32_t line;

		if (end - at < JIT_ENTRY_SIZE + 1 || !(nul = memchr(file, '\0', end - at - JIT_ENTRY_SIZE)))
			return fault(p, at, "debug info entry cut short");
		line = (int32_t)get32(p, at + 8);
		if (strcmp(file, "\xff") || !prev) {
			prev = symbols__intern(p->s, file);
			prev_base = prev ? symbols__intern(p->s, symbols__basename(prev)) : NULL;
			if (!prev_base)
				return -ENOMEM;
		}
		l = array__push(&p->lines);
		if (!l)
			return -ENOMEM;
		l->addr = get64(p, at);
		l->file = prev;
		l->base = prev_base;
		l->line = line > 0 ? (unsigned)line : 0;
		l->seq = (uint32_t)i;
		at = (uint64_t)(nul - (const char *)p->buf) + 1;
	}
	p->debug_nr = p->lines.len - p->debug_first;
	if (p->debug_nr)
		qsort(&ARRAY_AT(&p->lines, struct jit_line, p->debug_first), p->debug_nr,
		      sizeof(struct jit_line), line_cmp);
	p->has_debug = 1;
	return 0;
}

static int parse_record(struct parse *p, uint64_t off, uint32_t id, uint64_t size)
{
	switch (id) {
	case JIT_LOAD:
		return parse_load(p, off, size);
	case JIT_MOVE:
		return parse_move(p, off, size);
	case JIT_DEBUG_INFO:
		return parse_debug(p, off, size);
	case JIT_UNWINDING_INFO:
		if (size < JIT_UNWIND_SIZE)
			return fault(p, off, "unwinding info record too short");
		p->unwind_mapped = get64(p, off + 32);
		p->unwind_hdr = get64(p, off + 24) != 0;
		return 0;
	default:
		return 0;	/* CLOSE, and records of later versions */
	}
}

/* the header, then every record; 0, -EINVAL (p->fault, the records before it kept) or -ENOMEM */
static int parse_all(struct parse *p, uint64_t *flags)
{
	uint64_t off, hsize;
	uint32_t magic;
	int ret = 0;

	if (p->len < JIT_HEADER_SIZE)
		return fault(p, 0, "shorter than the jitdump header (40 bytes)");
	memcpy(&magic, p->buf, 4);
	if (magic != JIT_MAGIC && magic != bswap_32(JIT_MAGIC))
		return fault(p, 0, "no jitdump magic 'JiTD'");
	p->swap = magic != JIT_MAGIC;
	if (get32(p, 4) > 1)
		return fault(p, 4, "jitdump version above 1");
	*flags = get64(p, 32);
	if (*flags & ~(uint64_t)JIT_FLAG_ARCH_TIMESTAMP)
		return fault(p, 32, "unknown jitdump flags");
	hsize = get32(p, 8);
	if (hsize < JIT_HEADER_SIZE || hsize > p->len)
		return fault(p, 8, "header size out of the file");
	p->in_records = 1;
	for (off = hsize; off < p->len && !ret; ) {
		uint64_t size;

		if (p->len - off < JIT_PREFIX_SIZE)
			return fault(p, off, "record prefix cut short");
		size = get32(p, off + 4);
		if (size < JIT_PREFIX_SIZE)
			return fault(p, off, "record smaller than its prefix");
		if (size > p->len - off)
			return fault(p, off, "record runs past the end of the file");
		ret = parse_record(p, off, get32(p, off), size);
		off += size;
	}
	return ret;
}

static void jitdump_free(struct jitdump *j)
{
	size_t i;

	if (!j)
		return;
	for (i = 0; j->dsos && i < j->nr_codes; i++)
		symbols__dso_free(j->dsos[i]);
	free(j->dsos);
	free(j->maps);
	free(j->codes);
	free(j->lines);
	free(j);
}

void jitdump__free(void *p)
{
	jitdump_free(p);
}

/* a dso per code (named as the dump), the maps pointing at them; 0 or -ENOMEM */
static int make_dsos(struct symbols *s, struct jitdump *j, struct parse *p, const char *path)
{
	size_t i;

	j->codes = array__detach(&p->codes, &j->nr_codes);
	j->lines = array__detach(&p->lines, &j->nr_lines);
	j->dsos = calloc(j->nr_codes ? j->nr_codes : 1, sizeof(*j->dsos));
	j->maps = calloc(p->maps.len ? p->maps.len : 1, sizeof(*j->maps));
	if (!j->dsos || !j->maps)
		return -ENOMEM;
	for (i = 0; i < j->nr_codes; i++) {
		struct jit_code *c = &j->codes[i];
		struct dso *d = symbols__dso_new(s, DSO_JIT, path, 0);

		if (!d)
			return -ENOMEM;
		j->dsos[i] = d;
		c->lines = c->nr_lines ? &j->lines[c->first_line] : NULL;
		d->syms = calloc(1, sizeof(*d->syms));
		if (!d->syms)
			return -ENOMEM;
		d->syms->start = c->addr;
		d->syms->end = c->addr + c->size < c->addr ? UINT64_MAX : c->addr + c->size;
		d->syms->name = c->name;
		d->nr_syms = 1;
		d->jit = c;
		d->loaded = 1;
	}
	for (i = 0; i < p->maps.len; i++) {
		const struct pending_map *pm = &ARRAY_AT(&p->maps, struct pending_map, i);

		j->maps[i] = pm->m;
		j->maps[i].dso = j->dsos[pm->code];
	}
	j->nr_maps = p->maps.len;
	return 0;
}

int jitdump__parse(struct symbols *s, const char *path, const void *buf, size_t len, struct jitdump **out)
{
	struct parse p;
	struct jitdump *j;
	int ret;

	*out = NULL;
	memset(&p, 0, sizeof(p));
	p.s = s;
	p.buf = buf;
	p.len = len;
	array__init(&p.codes, sizeof(struct jit_code));
	array__init(&p.lines, sizeof(struct jit_line));
	array__init(&p.maps, sizeof(struct pending_map));
	hashmap__init(&p.by_index);
	j = calloc(1, sizeof(*j));
	ret = j ? parse_all(&p, &j->flags) : -ENOMEM;
	if (ret == -EINVAL) {
		log_msg(s->log, LOG_WARN, "%s: offset %#" PRIx64 ": %s: %s", path, p.fault, p.why,
			p.in_records ? "the JIT code after it stays unresolved" : "not used");
		j->unusable = !p.in_records;
		ret = 0;
	}
	if (!ret)
		ret = make_dsos(s, j, &p, path);
	array__release(&p.codes);
	array__release(&p.lines);
	array__release(&p.maps);
	hashmap__release(&p.by_index, NULL);
	if (ret) {
		jitdump_free(j);
		return symbols__fail(s, ret);
	}
	*out = j;
	return 0;
}

/* the file's bytes, at most JIT_MAX_FILE of them (malloc'd); 0, -errno */
static int read_all(const char *path, uint8_t **buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);	/* a FIFO there: no wait for a writer */
	struct stat st;
	uint8_t *b = NULL;
	size_t n = 0, cap;
	int err = 0;

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	cap = (uint64_t)st.st_size < JIT_MAX_FILE ? (size_t)st.st_size : (size_t)JIT_MAX_FILE;
	b = malloc(cap ? cap : 1);
	if (!b)
		err = -ENOMEM;
	while (!err && n < cap) {
		ssize_t r = read(fd, b + n, cap - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			err = -errno;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (err) {
		free(b);
		return err;
	}
	*buf = b;
	*len = n;
	return 0;
}

/* the dump's jitdump: parsed at the first call for its path; NULL when absent or on ENOMEM (kept) */
static struct jitdump *jitdump_get(struct symbols *s, const char *path)
{
	struct strbuf file = STRBUF_INIT;
	struct jitdump *j = NULL;
	uint8_t *buf = NULL;
	size_t len = 0;
	void **slot;
	int ret;

	ret = hashmap__insert(&s->jitdumps, path, strlen(path), &slot);
	if (ret < 0) {
		symbols__fail(s, ret);
		return NULL;
	}
	if (!ret)
		return *slot;
	/* --symfs as for binaries: the file under it, never beside it */
	if (strbuf__addf(&file, "%s%s", s->symfs, path) < 0) {
		symbols__fail(s, -ENOMEM);
		return NULL;
	}
	ret = read_all(file.buf, &buf, &len);
	if (ret == -ENOMEM) {
		symbols__fail(s, ret);
	} else if (ret) {
		/* NULL stays in the map: said once */
		log_msg(s->log, LOG_WARN, "%s: cannot read the jitdump (%s): its JIT code stays unresolved",
			file.buf, strerror(-ret));
	} else if (!jitdump__parse(s, file.buf, buf, len, &j)) {
		*slot = j;
	}
	free(buf);
	strbuf__release(&file);
	return j;
}

int symbols__jitdump(struct symbols *s, const char *path, const struct jit_map **maps, size_t *nr,
		     uint64_t *flags)
{
	struct jitdump *j;

	*maps = NULL;
	*nr = 0;
	*flags = 0;
	if (!s || !path)
		return -EINVAL;
	j = jitdump_get(s, path);
	if (!j)
		return s->err ? s->err : -ENOENT;
	return jitdump__maps(j, maps, nr, flags);
}

int jitdump__maps(const struct jitdump *j, const struct jit_map **maps, size_t *nr, uint64_t *flags)
{
	if (j->unusable)
		return -EINVAL;
	*maps = j->maps;
	*nr = j->nr_maps;
	*flags = j->flags;
	return 0;
}

int symbols__is_jitdump(const char *filename, uint32_t pid)
{
	const char *p = strrchr(filename, '/'), *digits;
	char *end;
	unsigned long v;

	/* perf's jit_detect: ".../jit-PID.dump", PID the mapping process (pid 0: any) */
	if (!p || strncmp(p, "/jit-", 5))
		return 0;
	digits = p + 5;
	if (*digits < '0' || *digits > '9')
		return 0;
	errno = 0;
	v = strtoul(digits, &end, 10);
	if (errno || strcmp(end, ".dump"))
		return 0;
	return !pid || v == pid;
}

void jitdump__line(const struct dso *d, uint64_t addr, struct sym_result *r)
{
	const struct jit_code *c = d->jit;
	size_t lo = 0, hi;

	if (!c || !c->nr_lines)
		return;
	hi = c->nr_lines;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->lines[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return;
	r->src_path = c->lines[lo - 1].file;
	r->src_file = c->lines[lo - 1].base;
	r->src_line = c->lines[lo - 1].line;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests of decode/jitdump.c and the machine's JIT maps: a jitdump is
 * built here record by record (the layout of perf's util/jitdump.h), in
 * both byte orders, written to a temporary directory and read through
 * symbols__jitdump and through a process's MMAP of it.  Expected values
 * are the records' own, and perf inject --jit's rules worked out by hand in
 * the comments (map lengths, moves, the line of an address).
 */
#include <byteswap.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "decode/machine.h"
#include "decode/symbols.h"
#include "util/log.h"
#include "util/strbuf.h"

/* every warning of a run, one a line, in ctx (a struct strbuf) */
static void keep_warnings(void *ctx, enum log_level level, const char *msg)
{
	if (level <= LOG_WARN) {
		assert_int_equal(strbuf__addstr(ctx, msg), 0);
		assert_int_equal(strbuf__addch(ctx, '\n'), 0);
	}
}

static int nr_lines(const struct strbuf *sb)
{
	int n = 0;
	size_t i;

	for (i = 0; i < sb->len; i++)
		n += sb->buf[i] == '\n';
	return n;
}

/* a dump being built: fields in host order, or swapped */
struct dump {
	struct strbuf b;
	int swap;
};

static void put32(struct dump *d, uint32_t v)
{
	if (d->swap)
		v = bswap_32(v);
	assert_int_equal(strbuf__add(&d->b, &v, 4), 0);
}

static void put64(struct dump *d, uint64_t v)
{
	if (d->swap)
		v = bswap_64(v);
	assert_int_equal(strbuf__add(&d->b, &v, 8), 0);
}

static void put_str(struct dump *d, const char *s)
{
	assert_int_equal(strbuf__add(&d->b, s, strlen(s) + 1), 0);
}

/* the record prefix; its size is patched by end_record */
static size_t begin_record(struct dump *d, uint32_t id, uint64_t time)
{
	size_t at = d->b.len;

	put32(d, id);
	put32(d, 0);
	put64(d, time);
	return at;
}

static void end_record(struct dump *d, size_t at)
{
	uint32_t size = (uint32_t)(d->b.len - at);

	if (d->swap)
		size = bswap_32(size);
	memcpy(d->b.buf + at + 4, &size, 4);
}

static void header(struct dump *d, uint64_t flags)
{
	put32(d, 0x4A695444);	/* 'JiTD' */
	put32(d, 1);
	put32(d, 40);
	put32(d, 62);		/* EM_X86_64 */
	put32(d, 0);
	put32(d, 77);
	put64(d, 123);
	put64(d, flags);
}

static void load(struct dump *d, uint64_t time, uint32_t tid, uint64_t addr, uint64_t size, uint64_t index,
		 const char *name)
{
	size_t at = begin_record(d, 0, time);
	uint64_t i;

	put32(d, 77);
	put32(d, tid);
	put64(d, addr);
	put64(d, addr);
	put64(d, size);
	put64(d, index);
	put_str(d, name);
	for (i = 0; i < size; i++)
		assert_int_equal(strbuf__addch(&d->b, (char)0xcc), 0);
	end_record(d, at);
}

/*
 * The dump of the tests, at times 10..50:
 *   DEBUG_INFO for the next load: 0x1000 line 5 of /src/a.js, 0x1080 line 7 ("\xff": the same file)
 *   UNWINDING_INFO: mapped_size 0x20, with an eh_frame_hdr
 *   LOAD fnA  [0x1000, +0x100) index 1, time 10: map 0x100 (8-aligned) + 0x20 = 0x120 long
 *   LOAD _Z3foov [0x2000, +0x10) index 2, time 20: map 0x10 (the unwinding data was taken)
 *   a record of an unknown type (9), skipped
 *   MOVE of index 1 to 0x3000, time 30: fnA's code there, 0x100 long
 *   LOAD fnB [0x1000, +0x40) index 3, time 40: over fnA's first bytes from time 40 on
 *   CLOSE
 */
static void build(struct dump *d, int swap)
{
	size_t at;

	strbuf__init(&d->b);
	d->swap = swap;
	header(d, 0);
	at = begin_record(d, 2, 5);
	put64(d, 0x1000);
	put64(d, 2);
	put64(d, 0x1000);
	put32(d, 5);
	put32(d, 0);
	put_str(d, "/src/a.js");
	put64(d, 0x1080);
	put32(d, 7);
	put32(d, 0);
	put_str(d, "\xff");
	end_record(d, at);
	at = begin_record(d, 4, 6);
	put64(d, 8);
	put64(d, 8);
	put64(d, 0x20);
	put64(d, 0);
	end_record(d, at);
	load(d, 10, 78, 0x1000, 0x100, 1, "fnA");
	load(d, 20, 78, 0x2000, 0x10, 2, "_Z3foov");
	at = begin_record(d, 9, 25);
	put64(d, 42);
	end_record(d, at);
	at = begin_record(d, 1, 30);
	put32(d, 77);
	put32(d, 79);
	put64(d, 0x3000);
	put64(d, 0x1000);
	put64(d, 0x3000);
	put64(d, 0x100);
	put64(d, 1);
	end_record(d, at);
	load(d, 40, 78, 0x1000, 0x40, 3, "fnB");
	at = begin_record(d, 3, 50);
	end_record(d, at);
}

static char dir[64];

/* write the first n bytes of d to DIR/jit-77.dump; its path */
static const char *write_dump(const struct dump *d, size_t n)
{
	static char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/jit-77.dump", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(d->b.buf, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
	return path;
}

static struct symbols *new_symbols(struct strbuf *warnings, struct log *log)
{
	struct symbols_opts o;
	struct symbols *s = NULL;

	memset(&o, 0, sizeof(o));
	strbuf__init(warnings);
	log->fn = keep_warnings;
	log->ctx = warnings;
	o.log = log;
	assert_int_equal(symbols__new(&s, &o), 0);
	return s;
}

/* the end of a test: the resolver, its warnings, the dump and its file */
static void finish(struct symbols *s, struct strbuf *warnings, struct dump *d, const char *path)
{
	symbols__delete(s);
	strbuf__release(warnings);
	strbuf__release(&d->b);
	unlink(path);
}

/* ip in the map m */
static void expect_fn(struct symbols *s, const struct jit_map *m, uint64_t ip, const char *fn)
{
	struct sym_result r;

	assert_int_equal(symbols__resolve(s, m->dso, m->start, 0, ip, &r), fn ? 0 : -ENOENT);
	if (fn)
		assert_string_equal(r.function, fn);
}

static void check_dump(int swap)
{
	struct strbuf lc;
	struct log log;
	struct symbols *s = new_symbols(&lc, &log);
	const struct jit_map *m;
	struct sym_result r;
	struct dump d;
	const char *path;
	uint64_t flags;
	size_t nr;

	build(&d, swap);
	path = write_dump(&d, d.b.len);
	assert_int_equal(symbols__jitdump(s, path, &m, &nr, &flags), 0);
	assert_int_equal(nr_lines(&lc), 0);
	assert_int_equal(flags, 0);
	assert_int_equal(nr, 4);
	assert_int_equal(m[0].time, 10);
	assert_int_equal(m[0].start, 0x1000);
	assert_int_equal(m[0].len, 0x120);
	assert_int_equal(m[0].pid, 77);
	assert_int_equal(m[0].tid, 78);
	assert_int_equal(m[1].len, 0x10);
	assert_int_equal(m[2].time, 30);
	assert_int_equal(m[2].start, 0x3000);
	assert_int_equal(m[2].len, 0x100);
	assert_int_equal(m[2].tid, 79);
	assert_ptr_equal(m[2].dso, m[0].dso);
	assert_int_equal(m[3].time, 40);
	assert_string_equal(dso__name(m[0].dso), "jit-77.dump");
	assert_string_equal(dso__path(m[0].dso), path);
	/* each load's dso has its own symbol, sized as the code (not the map) */
	expect_fn(s, &m[0], 0x1050, "fnA");
	expect_fn(s, &m[0], 0x1100, NULL);
	expect_fn(s, &m[1], 0x2008, "foo");	/* demangled as perf 6.1 prints ELF symbols */
	expect_fn(s, &m[3], 0x1010, "fnB");
	/* the moved code resolves in its new place: the map's start is the load's code address */
	expect_fn(s, &m[2], 0x3010, "fnA");
	expect_fn(s, &m[2], 0x3100, NULL);
	/* the line of the last entry at or below the address */
	assert_int_equal(symbols__resolve(s, m[0].dso, 0x1000, 0, 0x107f, &r), 0);
	assert_string_equal(r.src_path, "/src/a.js");
	assert_string_equal(r.src_file, "a.js");
	assert_int_equal(r.src_line, 5);
	assert_int_equal(symbols__resolve(s, m[0].dso, 0x1000, 0, 0x1080, &r), 0);
	assert_int_equal(r.src_line, 7);
	assert_string_equal(r.src_file, "a.js");
	assert_int_equal(symbols__resolve(s, m[1].dso, 0x2000, 0, 0x2008, &r), 0);
	assert_null(r.src_file);
	/* a second call: the same maps, no second read */
	assert_int_equal(symbols__jitdump(s, path, &m, &nr, &flags), 0);
	assert_int_equal(nr, 4);
	finish(s, &lc, &d, path);
}

static void test_parse(void **state)
{
	(void)state;
	check_dump(0);
}

static void test_parse_swapped(void **state)
{
	(void)state;
	check_dump(1);
}

/* cut in fnB's load (the last 0x40 code bytes and the CLOSE gone): the 3 maps before it, one warning with its offset */
static void test_truncated(void **state)
{
	struct strbuf lc;
	struct log log;
	struct symbols *s = new_symbols(&lc, &log);
	const struct jit_map *m;
	struct dump d;
	const char *path;
	char want[160];
	uint64_t flags;
	size_t nr, fnb;

	(void)state;
	build(&d, 0);
	/* fnB's record: 56 fixed bytes, "fnB\0", 0x40 code bytes; then CLOSE's 16 */
	fnb = d.b.len - 16 - (56 + 4 + 0x40);
	path = write_dump(&d, d.b.len - 16 - 8);
	assert_int_equal(symbols__jitdump(s, path, &m, &nr, &flags), 0);
	assert_int_equal(nr, 3);
	assert_int_equal(nr_lines(&lc), 1);
	snprintf(want, sizeof(want), "%s: offset %#zx: record runs past the end of the file", path, fnb);
	assert_non_null(strstr(lc.buf, want));
	symbols__delete(s);
	strbuf__release(&lc);

	/* a file that is no jitdump: no maps, -EINVAL, one warning at offset 0 */
	s = new_symbols(&lc, &log);
	strbuf__reset(&lc);
	d.b.buf[0] = 'X';
	path = write_dump(&d, d.b.len);
	assert_int_equal(symbols__jitdump(s, path, &m, &nr, &flags), -EINVAL);
	assert_int_equal(nr, 0);
	assert_int_equal(symbols__jitdump(s, path, &m, &nr, &flags), -EINVAL);
	assert_int_equal(nr_lines(&lc), 1);
	assert_non_null(strstr(lc.buf, "offset 0: no jitdump magic"));
	/* absent: -ENOENT, one warning for both calls */
	strbuf__reset(&lc);
	assert_int_equal(symbols__jitdump(s, "/nonexistent/jit-1.dump", &m, &nr, &flags), -ENOENT);
	assert_int_equal(symbols__jitdump(s, "/nonexistent/jit-1.dump", &m, &nr, &flags), -ENOENT);
	assert_int_equal(nr_lines(&lc), 1);
	finish(s, &lc, &d, path);
}

/* perf's jit_detect: ".../jit-PID.dump" with the mapping process's pid (0: any) */
static void test_detect(void **state)
{
	(void)state;
	assert_true(symbols__is_jitdump("/tmp/jit-123.dump", 123));
	assert_true(symbols__is_jitdump("/tmp/jit-123.dump", 0));
	assert_false(symbols__is_jitdump("/tmp/jit-123.dump", 124));
	assert_false(symbols__is_jitdump("/tmp/jit-123.dumpx", 123));
	assert_false(symbols__is_jitdump("/tmp/jit-.dump", 0));
	assert_false(symbols__is_jitdump("jit-123.dump", 123));
	assert_false(symbols__is_jitdump("/tmp/xjit-123.dump", 123));
}

static struct perf_record mmap_rec(uint32_t pid, uint64_t start, uint64_t len, const char *file)
{
	return (struct perf_record){
		.type = PERF_RECORD_MMAP2, .misc = PERF_RECORD_MISC_USER,
		.u.mmap = { .pid = pid, .tid = pid, .start = start, .len = len, .filename = file },
	};
}

static const char *fn_at(struct machine *mc, struct symbols *s, uint64_t ip)
{
	const struct map_entry *e = machine__find_map(machine__findnew_thread(mc, 77, 77), ip);
	struct sym_result r;

	if (!e || !e->dso)
		return "-";
	return symbols__resolve_sym(s, e->dso, e->start, e->pgoff, ip, &r) ? "?" : r.function;
}

/*
 * The process maps anonymous memory, then the dump (time 8), then more
 * anonymous memory.  Timed (-k 1): fnA at 0x1050 from time 10, fnB over it
 * from 40; the move maps fnA at 0x3000 from 30; the anon map after the
 * dump is left out (perf inject drops it).  Untimed: all at once, fnB over
 * fnA at 0x1010 but fnA after fnB's 0x40 bytes, and one warning.
 */
static void test_machine(void **state)
{
	struct strbuf lc;
	struct log log;
	struct symbols *s = new_symbols(&lc, &log);
	struct machine *mc;
	struct dump d;
	const char *path;
	struct perf_record r;
	int timed;

	(void)state;
	build(&d, 0);
	path = write_dump(&d, d.b.len);
	for (timed = 1; timed >= 0; timed--) {
		struct machine_jit j = { .monotonic = timed, .times = 1, .log = &log };

		strbuf__reset(&lc);
		assert_int_equal(machine__new(&mc, s), 0);
		machine__set_jit(mc, &j);
		r = mmap_rec(77, 0x0, 0x4000, "//anon");
		assert_int_equal(machine__process(mc, &r, 1), 0);
		assert_int_equal(machine__advance(mc, 8), 0);
		r = mmap_rec(77, 0x7000, 0x1000, path);
		assert_int_equal(machine__process(mc, &r, 8), 0);
		r = mmap_rec(77, 0x8000, 0x1000, "//anon");
		assert_int_equal(machine__process(mc, &r, 9), 0);
		assert_string_equal(fn_at(mc, s, 0x8000), "-");
		if (timed) {
			assert_string_equal(fn_at(mc, s, 0x1050), "?");	/* the //anon map, no perf-PID.map */
			assert_int_equal(machine__advance(mc, 10), 0);
			assert_string_equal(fn_at(mc, s, 0x1050), "fnA");
			assert_string_equal(fn_at(mc, s, 0x3010), "?");
			assert_int_equal(machine__advance(mc, 39), 0);
			assert_string_equal(fn_at(mc, s, 0x3010), "fnA");
			assert_string_equal(fn_at(mc, s, 0x1010), "fnA");
			assert_int_equal(machine__advance(mc, 40), 0);
			assert_int_equal(nr_lines(&lc), 0);
		} else {
			assert_int_equal(nr_lines(&lc), 1);
			assert_non_null(strstr(lc.buf, "record with -k 1"));
		}
		assert_string_equal(fn_at(mc, s, 0x1010), "fnB");
		assert_string_equal(fn_at(mc, s, 0x1050), "fnA");
		assert_string_equal(fn_at(mc, s, 0x2008), "foo");
		assert_string_equal(fn_at(mc, s, 0x3010), "fnA");
		machine__delete(mc);
	}
	finish(s, &lc, &d, path);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test-jitdump.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_swapped),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_machine),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

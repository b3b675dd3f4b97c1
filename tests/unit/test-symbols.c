/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests for decode/symbols: ELF symbols through libbfd (PIE, non-PIE,
 * shared object, stripped with a debug file by .gnu_debuglink and by build
 * id, --symfs, build-id mismatch, C++ demangling, perf's alias choice,
 * sized symbols), source lines checked against addr2line, kallsyms, perf-PID.map,
 * DSO names, corrupt files, and the speed of cached lookups.
 *
 * The ELF tests compile small programs with the system compiler into a
 * temporary directory and skip when there is no compiler.  Symbol
 * addresses come from nm, expected lines from addr2line or from the
 * numbered sources below; expected names from `perf report` 6.1 runs
 * quoted at each test.
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "decode/symbols.h"
#include "decode/symbols_internal.h"
#include "util/log.h"
#include "tests/lib/external.h"

/* ---------------------------------------------------------------- helpers */

struct logcount {
	int warnings;
	char last[512];
};

static void count_log(void *ctx, enum log_level level, const char *msg)
{
	struct logcount *lc = ctx;

	if (level <= LOG_WARN) {
		lc->warnings++;
		snprintf(lc->last, sizeof(lc->last), "%s", msg);
	}
}

static char tmpdir[256];

static int run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int run(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	strncat(cmd, " >/dev/null 2>&1", sizeof(cmd) - strlen(cmd) - 1);
	return system(cmd);
}

static int have_tools(void)
{
	return !run("cc --version") && !run("nm --version") && !run("addr2line --version") &&
	       !run("objcopy --version") && !run("strip --version");
}

static int setup_dir(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/readperf-symtest-XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	return 0;
}

static int teardown_dir(void **state)
{
	(void)state;
	if (tmpdir[0])
		run("rm -rf '%s'", tmpdir);
	return 0;
}

static void write_file(const char *path, const char *const *lines)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	for (; *lines; lines++)
		fprintf(f, "%s\n", *lines);
	fclose(f);
}

static char *tpath(const char *name)
{
	static char buf[8][512];
	static int i;

	i = (i + 1) % 8;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", tmpdir, name);
	return buf[i];
}

/* address and size of a defined symbol, by nm; 0 found */
static int nm_lookup(const char *file, const char *name, uint64_t *addr, uint64_t *size)
{
	char cmd[1024], line[1024], n[512], t[8];
	unsigned long long a, sz;
	FILE *p;
	int found = -1;

	snprintf(cmd, sizeof(cmd), "nm -S --defined-only '%s' 2>/dev/null", file);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		if (sscanf(line, "%llx %llx %7s %511s", &a, &sz, t, n) == 4 && !strcmp(n, name)) {
			*addr = a;
			*size = sz;
			found = 0;
		}
	}
	pclose(p);
	return found;
}

/* addr2line -f -i: the innermost frame's function, file basename and line */
struct a2l {
	char func[1024];
	char file[1024];
	unsigned line;
	int frames;
};

static void addr2line(const char *file, uint64_t addr, struct a2l *out)
{
	char cmd[1024], l1[1024], l2[1024];
	FILE *p;

	memset(out, 0, sizeof(*out));
	snprintf(cmd, sizeof(cmd), "addr2line -f -i -e '%s' 0x%" PRIx64, file, addr);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(l1, sizeof(l1), p) && fgets(l2, sizeof(l2), p)) {
		char *colon, *slash, *sp;

		if (out->frames++)
			continue;
		l1[strcspn(l1, "\n")] = '\0';
		snprintf(out->func, sizeof(out->func), "%s", l1);
		/* "path/file.c:12 (discriminator 3)" */
		sp = strchr(l2, ' ');
		if (sp)
			*sp = '\0';
		l2[strcspn(l2, "\n")] = '\0';
		colon = strrchr(l2, ':');
		if (!colon)
			continue;
		*colon = '\0';
		out->line = (unsigned)strtoul(colon + 1, NULL, 10);
		slash = strrchr(l2, '/');
		snprintf(out->file, sizeof(out->file), "%s", slash ? slash + 1 : l2);
	}
	pclose(p);
}

/*
 * How the loader maps the executable segment: start = base + page of
 * p_vaddr, pgoff = page of p_offset (64-bit ELF, read here with <elf.h>,
 * independently of the code under test).
 */
struct mapping {
	uint64_t start;
	uint64_t pgoff;
	uint64_t seg_vaddr;
};

static void exec_mapping(const char *file, uint64_t base, struct mapping *m)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	FILE *f = fopen(file, "rb");
	int i, found = 0;

	assert_non_null(f);
	assert_int_equal(fread(&eh, sizeof(eh), 1, f), 1);
	for (i = 0; i < eh.e_phnum; i++) {
		assert_int_equal(fseek(f, (long)(eh.e_phoff + (uint64_t)i * eh.e_phentsize), SEEK_SET), 0);
		assert_int_equal(fread(&ph, sizeof(ph), 1, f), 1);
		if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X)) {
			m->seg_vaddr = ph.p_vaddr & ~(uint64_t)0xfff;
			m->start = base + m->seg_vaddr;
			m->pgoff = ph.p_offset & ~(uint64_t)0xfff;
			found = 1;
			break;
		}
	}
	fclose(f);
	assert_true(found);
}

static uint64_t ip_of(const struct mapping *m, uint64_t vaddr)
{
	return m->start + (vaddr - m->seg_vaddr);
}

static size_t read_build_id(const char *file, uint8_t *id)
{
	char cmd[1024], line[1024];
	size_t n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "readelf -n '%s' 2>/dev/null", file);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p)) {
		char *s = strstr(line, "Build ID: ");
		unsigned x;

		if (!s)
			continue;
		for (s += 10; n < 20 && sscanf(s, "%2x", &x) == 1; s += 2)
			id[n++] = (uint8_t)x;
		break;
	}
	pclose(p);
	return n;
}

/* the C program; line numbers are part of the expectations */
static const char *const prog_c[] = {
	/*  1 */ "/* test program */",
	/*  2 */ "#include <stdio.h>",
	/*  3 */ "",
	/*  4 */ "static int beta(int x)",
	/*  5 */ "{",
	/*  6 */ "\treturn x * 3 + 1;",
	/*  7 */ "}",
	/*  8 */ "",
	/*  9 */ "int alpha(int n)",
	/* 10 */ "{",
	/* 11 */ "\tint s = 0;",
	/* 12 */ "\tfor (int i = 0; i < n; i++)",
	/* 13 */ "\t\ts += beta(i);",
	/* 14 */ "\treturn s;",
	/* 15 */ "}",
	/* 16 */ "",
	/* 17 */ "static inline __attribute__((always_inline)) int gamma_inl(int v)",
	/* 18 */ "{",
	/* 19 */ "\treturn v * v + 7;",
	/* 20 */ "}",
	/* 21 */ "",
	/* 22 */ "__attribute__((noinline)) int delta(int n)",
	/* 23 */ "{",
	/* 24 */ "\tint s = 0;",
	/* 25 */ "\tfor (int i = 0; i < n; i++)",
	/* 26 */ "\t\ts += gamma_inl(i);",
	/* 27 */ "\treturn s;",
	/* 28 */ "}",
	/* 29 */ "",
	/* 30 */ "int main(int argc, char **argv)",
	/* 31 */ "{",
	/* 32 */ "\t(void)argv;",
	/* 33 */ "\treturn alpha(argc) + delta(argc) > 0;",
	/* 34 */ "}",
	NULL
};

static struct symbols *new_symbols(const struct symbols_opts *o)
{
	struct symbols *s = NULL;

	assert_int_equal(symbols__new(&s, o), 0);
	assert_non_null(s);
	return s;
}

/* resolve the symbol `name` + delta in file mapped as m, and check name and sym_addr */
static void expect_sym(struct symbols *s, struct dso *d, const char *nmfile, const struct mapping *m,
		       const char *name, uint64_t delta, const char *want, struct sym_result *r)
{
	uint64_t addr, size;

	assert_int_equal(nm_lookup(nmfile, name, &addr, &size), 0);
	assert_int_equal(symbols__resolve(s, d, m->start, m->pgoff, ip_of(m, addr + delta), r), 0);
	assert_non_null(r->function);
	assert_string_equal(r->function, want);
	assert_int_equal(r->sym_addr, addr);
	assert_int_equal(r->addr, addr + delta);
}

/* every address of symbol name: our src file:line equals addr2line's innermost frame */
static void expect_lines_like_addr2line(struct symbols *s, struct dso *d, const char *file,
					const struct mapping *m, const char *name, int *inlined)
{
	uint64_t addr, size, a;
	struct sym_result r;
	struct a2l want;

	assert_int_equal(nm_lookup(file, name, &addr, &size), 0);
	assert_true(size > 0);
	for (a = addr; a < addr + size; a++) {
		assert_int_equal(symbols__resolve(s, d, m->start, m->pgoff, ip_of(m, a), &r), 0);
		assert_string_equal(r.function, name);
		addr2line(file, a, &want);
		if (!want.line || !want.file[0])
			continue;
		assert_non_null(r.src_file);
		assert_string_equal(r.src_file, want.file);
		assert_int_equal(r.src_line, want.line);
		if (want.frames > 1)
			(*inlined)++;
	}
}

/* ---------------------------------------------------------------- ELF tests */

static void test_c_pie(void **state)
{
	struct symbols *s;
	struct dso *d;
	struct mapping m;
	struct sym_result r;
	int inlined = 0;
	char *exe = tpath("pie");

	(void)state;
	if (!have_tools())
		skip();
	write_file(tpath("prog.c"), prog_c);
	assert_int_equal(run("cc -O0 -g -fPIE -pie -o '%s' '%s'", exe, tpath("prog.c")), 0);
	exec_mapping(exe, 0x555555554000ULL, &m);
	assert_true(m.pgoff != 0);	/* gcc 12 + ld: text at file offset 0x1000 */

	s = new_symbols(NULL);
	d = symbols__dso_for_map(s, exe, 100, 0);
	assert_non_null(d);
	assert_ptr_equal(d, symbols__dso_for_map(s, exe, 100, 0));
	assert_string_equal(dso__name(d), "pie");
	assert_string_equal(dso__path(d), exe);

	expect_sym(s, d, exe, &m, "alpha", 4, "alpha", &r);
	/* where alpha is defined: line 9 of prog.c (the numbered source above) */
	assert_string_equal(r.def_file, "prog.c");
	assert_int_equal(r.def_line, 9);
	assert_non_null(r.def_path);
	assert_string_equal(r.def_path + strlen(r.def_path) - strlen("/prog.c"), "/prog.c");
	expect_sym(s, d, exe, &m, "beta", 0, "beta", &r);
	assert_int_equal(r.def_line, 4);
	expect_sym(s, d, exe, &m, "delta", 1, "delta", &r);
	assert_int_equal(r.def_line, 22);
	expect_sym(s, d, exe, &m, "main", 2, "main", &r);
	assert_int_equal(r.def_line, 30);

	/* the inline frame: gamma_inl's body inside delta reports prog.c:19 like addr2line */
	expect_lines_like_addr2line(s, d, exe, &m, "delta", &inlined);
	assert_true(inlined > 0);
	expect_lines_like_addr2line(s, d, exe, &m, "alpha", &inlined);

	/* the fast path (callchain addresses) has where the function is defined, not the line */
	assert_int_equal(symbols__resolve_sym(s, d, m.start, m.pgoff, r.addr - m.seg_vaddr + m.start, &r), 0);
	assert_string_equal(r.function, "main");
	assert_null(r.src_file);
	assert_string_equal(r.def_file, "prog.c");
	assert_int_equal(r.def_line, 30);

	/* before the first symbol's page: unresolved, out zeroed */
	assert_int_equal(symbols__resolve(s, d, m.start, m.pgoff, m.start - 0x100000, &r), -ENOENT);
	assert_null(r.function);
	symbols__delete(s);
}

static void test_c_nopie_and_no_source(void **state)
{
	struct symbols_opts o = { 0 };
	struct symbols *s;
	struct dso *d;
	struct mapping m;
	struct sym_result r;
	char *exe = tpath("nopie");

	(void)state;
	if (!have_tools())
		skip();
	write_file(tpath("prog.c"), prog_c);
	if (run("cc -O1 -g -fno-pie -no-pie -o '%s' '%s'", exe, tpath("prog.c")))
		skip();
	/* non-PIE: loaded at its link address, p_vaddr 0x401000 vs p_offset 0x1000 */
	exec_mapping(exe, 0, &m);
	assert_true(m.start != m.pgoff);
	o.no_source = 1;
	s = new_symbols(&o);
	d = symbols__dso_for_map(s, exe, 1, 0);
	expect_sym(s, d, exe, &m, "alpha", 3, "alpha", &r);
	assert_null(r.src_file);
	assert_null(r.def_file);
	expect_sym(s, d, exe, &m, "delta", 0, "delta", &r);
	symbols__delete(s);
}

/* addr2line's file path (not only the basename) of addr's innermost frame */
static void addr2line_path(const char *file, uint64_t addr, char *path, size_t size)
{
	char cmd[1024];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "addr2line -e '%s' 0x%" PRIx64, file, addr);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(path, (int)size, p));
	pclose(p);
	path[strcspn(path, ": \n")] = '\0';
}

/*
 * Lines from a unit that .debug_aranges does not list (clang does not
 * write it; here it is removed), with a relative DW_AT_comp_dir (".", as
 * -fdebug-prefix-map makes it): the unit is found through its own pc
 * ranges, and the path is libbfd's comp_dir/dir/file, as addr2line prints.
 */
static void test_no_aranges_relative_comp_dir(void **state)
{
	struct symbols *s;
	struct dso *d;
	struct mapping m;
	struct sym_result r;
	char want[1024];
	uint64_t addr, size;
	int inlined = 0;
	char *exe = tpath("noaranges");

	(void)state;
	if (!have_tools() || run("objcopy --version"))
		skip();
	write_file(tpath("prog.c"), prog_c);
	assert_int_equal(run("cd '%s' && cc -O1 -g -fdebug-prefix-map='%s'=. -o noaranges prog.c && "
			     "objcopy --remove-section .debug_aranges noaranges", tmpdir, tmpdir), 0);
	assert_int_equal(run("readelf -S '%s' | grep -q debug_aranges", exe) != 0, 1);
	exec_mapping(exe, 0x555555554000ULL, &m);
	s = new_symbols(NULL);
	d = symbols__dso_for_map(s, exe, 100, 0);
	expect_lines_like_addr2line(s, d, exe, &m, "delta", &inlined);
	expect_lines_like_addr2line(s, d, exe, &m, "alpha", &inlined);
	assert_true(inlined > 0);
	/* where alpha is defined: line 9 of prog.c (the numbered source above) */
	expect_sym(s, d, exe, &m, "alpha", 4, "alpha", &r);
	assert_string_equal(r.def_file, "prog.c");
	assert_int_equal(r.def_line, 9);
	assert_int_equal(nm_lookup(exe, "alpha", &addr, &size), 0);
	addr2line_path(exe, addr + 4, want, sizeof(want));
	assert_true(want[0] == '.');
	assert_string_equal(r.src_path, want);
	symbols__delete(s);
}

static void test_shared_object(void **state)
{
	static const char *const lib_c[] = {
		"int lib_twice(int x)",
		"{",
		"\treturn 2 * x;",
		"}",
		"int lib_other(int x) { return x - 1; }",
		NULL
	};
	struct symbols *s;
	struct dso *d;
	struct mapping m;
	struct sym_result r;
	char *so = tpath("libtwice.so.1");

	(void)state;
	if (!have_tools())
		skip();
	write_file(tpath("lib.c"), lib_c);
	assert_int_equal(run("cc -O1 -g -fPIC -shared -o '%s' '%s'", so, tpath("lib.c")), 0);
	exec_mapping(so, 0x7f1234560000ULL, &m);
	s = new_symbols(NULL);
	d = symbols__dso_for_map(s, so, 7, 0);
	assert_string_equal(dso__name(d), "libtwice.so.1");
	expect_sym(s, d, so, &m, "lib_twice", 2, "lib_twice", &r);
	assert_string_equal(r.def_file, "lib.c");
	assert_int_equal(r.def_line, 1);
	expect_sym(s, d, so, &m, "lib_other", 0, "lib_other", &r);
	assert_int_equal(r.def_line, 5);
	symbols__delete(s);
}

static void test_stripped_debuglink(void **state)
{
	struct symbols *s;
	struct dso *d;
	struct mapping m;
	struct sym_result r;
	struct a2l want;
	uint64_t addr, size;
	char *exe = tpath("stripped");
	char *dbg = tpath("stripped.debug");
	char *copy = tpath("full");

	(void)state;
	if (!have_tools())
		skip();
	write_file(tpath("prog.c"), prog_c);
	assert_int_equal(run("cc -O0 -g -o '%s' '%s'", exe, tpath("prog.c")), 0);
	assert_int_equal(run("cp '%s' '%s'", exe, copy), 0);
	assert_int_equal(run("cd '%s' && objcopy --only-keep-debug stripped stripped.debug && "
			     "strip -s stripped && objcopy --add-gnu-debuglink=stripped.debug stripped",
			     tmpdir), 0);
	/* beta is static: after strip -s only the debug file knows it */
	assert_int_not_equal(nm_lookup(exe, "beta", &addr, &size), 0);
	exec_mapping(exe, 0x560000000000ULL, &m);
	s = new_symbols(NULL);
	d = symbols__dso_for_map(s, exe, 1, 0);
	expect_sym(s, d, copy, &m, "beta", 3, "beta", &r);
	assert_int_equal(r.def_line, 4);
	addr2line(dbg, r.addr, &want);
	assert_string_equal(r.src_file, want.file);
	assert_int_equal(r.src_line, want.line);
	symbols__delete(s);

	/* without the debug file, beta is gone (only .dynsym is left) */
	assert_int_equal(run("rm '%s'", dbg), 0);
	s = new_symbols(NULL);
	d = symbols__dso_for_map(s, exe, 1, 0);
	assert_int_equal(symbols__resolve(s, d, m.start, m.pgoff, ip_of(&m, addr + 3), &r), -ENOENT);
	symbols__delete(s);
}

static void test_build_id_debug_dir_and_mismatch(void **state)
{
	struct logcount lc = { 0 };
	struct log lg = { count_log, &lc };
	struct symbols_opts o = { 0 };
	const char *dirs[1];
	struct symbols *s;
	struct dso *d;
	struct mapping m;
	struct sym_result r;
	uint8_t id[20], bad[20];
	size_t idsz;
	char hex[41], dbgdir[600];
	uint64_t addr, size;
	char *exe = tpath("bid");
	size_t i;

	(void)state;
	if (!have_tools())
		skip();
	write_file(tpath("prog.c"), prog_c);
	assert_int_equal(run("cc -O0 -g -Wl,--build-id=sha1 -o '%s' '%s'", exe, tpath("prog.c")), 0);
	assert_int_equal(nm_lookup(exe, "beta", &addr, &size), 0);
	idsz = read_build_id(exe, id);
	assert_int_equal(idsz, 20);
	for (i = 0; i < idsz; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	snprintf(dbgdir, sizeof(dbgdir), "%s/dbg/.build-id/%.2s", tmpdir, hex);
	assert_int_equal(run("mkdir -p '%s' && objcopy --only-keep-debug '%s' '%s/%s.debug' && strip -s '%s'",
			     dbgdir, exe, dbgdir, hex + 2, exe), 0);
	exec_mapping(exe, 0x560000000000ULL, &m);

	/* found through --debug-dir DIR/.build-id/xx/rest.debug */
	dirs[0] = tpath("dbg");
	o.debug_dirs = dirs;
	o.nr_debug_dirs = 1;
	o.log = &lg;
	s = new_symbols(&o);
	assert_int_equal(symbols__set_build_id(s, exe, id, idsz), 0);
	d = symbols__dso_for_map(s, exe, 1, 0);
	assert_int_equal(symbols__resolve(s, d, m.start, m.pgoff, ip_of(&m, addr + 1), &r), 0);
	assert_string_equal(r.function, "beta");
	assert_string_equal(r.def_file, "prog.c");
	assert_int_equal(r.def_line, 4);
	assert_int_equal(lc.warnings, 0);
	symbols__delete(s);

	/* a recorded build id that differs: the binary is not used, one warning */
	memcpy(bad, id, sizeof(bad));
	bad[0] ^= 0xff;
	s = new_symbols(&o);
	assert_int_equal(symbols__set_build_id(s, exe, bad, idsz), 0);
	d = symbols__dso_for_map(s, exe, 1, 0);
	assert_int_equal(symbols__resolve(s, d, m.start, m.pgoff, ip_of(&m, addr + 1), &r), -ENOENT);
	assert_int_equal(symbols__resolve(s, d, m.start, m.pgoff, ip_of(&m, addr + 2), &r), -ENOENT);
	assert_int_equal(lc.warnings, 1);
	assert_non_null(strstr(lc.last, "differs from the recording"));
	assert_non_null(strstr(lc.last, exe));
	symbols__delete(s);

	assert_int_equal(symbols__new(&s, NULL), 0);
	assert_int_equal(symbols__set_build_id(s, exe, id, 0), -EINVAL);
	assert_int_equal(symbols__set_build_id(s, exe, id, 21), -EINVAL);
	symbols__delete(s);
}

static void test_symfs(void **state)
{
	struct symbols_opts o = { 0 };
	struct symbols *s;
	struct dso *d;
	struct mapping m;
	struct sym_result r;
	uint8_t id[20];
	size_t idsz;
	char *exe = tpath("symfs/opt/rp/prog");
	char *outside = tpath("outside");
	char recorded[600];

	(void)state;
	if (!have_tools())
		skip();
	write_file(tpath("prog.c"), prog_c);
	assert_int_equal(run("mkdir -p '%s/symfs/opt/rp' && cc -O0 -g -o '%s' '%s'", tmpdir, exe,
			     tpath("prog.c")), 0);
	exec_mapping(exe, 0x560000000000ULL, &m);
	o.symfs = tpath("symfs/");	/* a trailing slash is fine */
	s = new_symbols(&o);
	d = symbols__dso_for_map(s, "/opt/rp/prog", 1, 0);
	assert_string_equal(dso__name(d), "prog");
	expect_sym(s, d, exe, &m, "alpha", 0, "alpha", &r);
	symbols__delete(s);

	/* without --symfs the recorded path does not exist */
	s = new_symbols(NULL);
	d = symbols__dso_for_map(s, "/opt/rp/prog", 1, 0);
	assert_int_equal(symbols__resolve(s, d, m.start, m.pgoff, m.start + 0x10, &r), -ENOENT);
	symbols__delete(s);

	/*
	 * --symfs given but the file is only at its recorded path: used only
	 * when its build id matches the recording.
	 */
	assert_int_equal(run("cp '%s' '%s'", exe, outside), 0);
	snprintf(recorded, sizeof(recorded), "%s", outside);
	idsz = read_build_id(outside, id);
	assert_true(idsz > 0);
	s = new_symbols(&o);
	d = symbols__dso_for_map(s, recorded, 1, 0);
	assert_int_equal(symbols__resolve(s, d, m.start, m.pgoff, m.start + 0x10, &r), -ENOENT);
	symbols__delete(s);
	s = new_symbols(&o);
	assert_int_equal(symbols__set_build_id(s, recorded, id, idsz), 0);
	d = symbols__dso_for_map(s, recorded, 1, 0);
	expect_sym(s, d, outside, &m, "alpha", 0, "alpha", &r);
	symbols__delete(s);
}

static void test_cxx_demangle(void **state)
{
	static const char *const prog_cc[] = {
		/*  1 */ "#include <vector>",
		/*  2 */ "namespace geo {",
		/*  3 */ "template <class T> struct Grid {",
		/*  4 */ "\tstd::vector<T> v;",
		/*  5 */ "\tGrid() : v(64, 1) {}",
		/*  6 */ "\t__attribute__((noinline)) T relax(int k)",
		/*  7 */ "\t{",
		/*  8 */ "\t\tT s = 0;",
		/*  9 */ "\t\tfor (int r = 0; r < k; r++)",
		/* 10 */ "\t\t\tfor (auto &x : v)",
		/* 11 */ "\t\t\t\ts += x = x * 0.5 + 1;",
		/* 12 */ "\t\treturn s;",
		/* 13 */ "\t}",
		/* 14 */ "};",
		/* 15 */ "}",
		/* 16 */ "namespace ns {",
		/* 17 */ "__attribute__((noinline)) int f(int x) { return x + 1; }",
		/* 18 */ "__attribute__((noinline)) int f(double x) { return (int)x + 2; }",
		/* 19 */ "}",
		/* 20 */ "int main(int argc, char **)",
		/* 21 */ "{",
		/* 22 */ "\tgeo::Grid<double> g;",
		/* 23 */ "\treturn (int)g.relax(argc) + ns::f(argc) + ns::f(1.0 * argc);",
		/* 24 */ "}",
		NULL
	};
	struct symbols *s;
	struct dso *d;
	struct mapping m;
	struct sym_result r;
	char *exe = tpath("cxx");

	(void)state;
	if (!have_tools() || run("c++ --version"))
		skip();
	write_file(tpath("prog.cc"), prog_cc);
	assert_int_equal(run("c++ -O1 -g -o '%s' '%s'", exe, tpath("prog.cc")), 0);
	exec_mapping(exe, 0x555555554000ULL, &m);
	s = new_symbols(NULL);
	d = symbols__dso_for_map(s, exe, 1, 0);
	/*
	 * perf report 6.1 --sort sym prints no parameter lists: a program with
	 * this Grid<double>::relax showed "geo::Grid<double>::relax"
	 * (perf record ./t; perf report --stdio --sort dso,sym).
	 */
	expect_sym(s, d, exe, &m, "_ZN3geo4GridIdE5relaxEi", 4, "geo::Grid<double>::relax", &r);
	assert_string_equal(r.def_file, "prog.cc");
	assert_int_equal(r.def_line, 6);
	expect_sym(s, d, exe, &m, "_ZN2ns1fEi", 0, "ns::f", &r);
	assert_int_equal(r.def_line, 17);
	expect_sym(s, d, exe, &m, "_ZN2ns1fEd", 0, "ns::f", &r);
	assert_int_equal(r.def_line, 18);
	symbols__delete(s);
}

static void test_aliases_and_sizes(void **state)
{
	static const char *const al_c[] = {
		"void impl_fn(void) { for (volatile long i = 0; i < 3; i++) ; }",
		"void weak_alias(void) __attribute__((weak, alias(\"impl_fn\")));",
		"void __under_alias(void) __attribute__((alias(\"impl_fn\")));",
		"void longer_alias_name(void) __attribute__((alias(\"impl_fn\")));",
		"static void loc_impl(void) { for (volatile long i = 0; i < 3; i++) ; }",
		"void glob_of_loc(void) __attribute__((alias(\"loc_impl\")));",
		"int tiny(int x) { return x + 1; }",
		"int after_tiny(int x) { return x * 5; }",
		"int main(void) { impl_fn(); loc_impl(); return tiny(1) + after_tiny(2); }",
		NULL
	};
	struct symbols *s;
	struct dso *d;
	struct mapping m;
	struct sym_result r;
	uint64_t addr, size, addr2, size2;
	char *exe = tpath("alias");

	(void)state;
	if (!have_tools())
		skip();
	write_file(tpath("al.c"), al_c);
	assert_int_equal(run("cc -O1 -g -falign-functions=64 -o '%s' '%s'", exe, tpath("al.c")), 0);
	exec_mapping(exe, 0x555555554000ULL, &m);
	s = new_symbols(NULL);
	d = symbols__dso_for_map(s, exe, 1, 0);
	/*
	 * perf's choose_best_symbol: non-weak over weak, global over local,
	 * fewer leading '_', then the longer name.  perf report 6.1 on this
	 * program (with longer loops) printed longer_alias_name and glob_of_loc.
	 */
	expect_sym(s, d, exe, &m, "impl_fn", 1, "longer_alias_name", &r);
	expect_sym(s, d, exe, &m, "loc_impl", 1, "glob_of_loc", &r);
	/*
	 * A sized symbol keeps its size (perf's symbols__fixup_end only grows
	 * zero-sized ones): the alignment padding after tiny is unresolved.
	 */
	assert_int_equal(nm_lookup(exe, "tiny", &addr, &size), 0);
	assert_int_equal(nm_lookup(exe, "after_tiny", &addr2, &size2), 0);
	assert_true(addr2 > addr + size);
	assert_int_equal(symbols__resolve(s, d, m.start, m.pgoff, ip_of(&m, addr + size - 1), &r), 0);
	assert_string_equal(r.function, "tiny");
	assert_int_equal(symbols__resolve(s, d, m.start, m.pgoff, ip_of(&m, addr + size), &r), -ENOENT);
	assert_null(r.function);
	assert_int_equal(symbols__resolve(s, d, m.start, m.pgoff, ip_of(&m, addr2), &r), 0);
	assert_string_equal(r.function, "after_tiny");
	symbols__delete(s);
}

/* perf 6.1 synthesizes "name@plt" for each .rela.plt entry: `perf script` printed getenv@plt in /usr/bin/ls */
static void test_plt_symbols(void **state)
{
	static const char *const plt_c[] = {
		"#include <stdlib.h>",
		"#include <string.h>",
		"int main(int argc, char **argv) { return (int)strlen(argv[0]) + (getenv(\"X\") != 0) + argc; }",
		NULL
	};
	struct symbols *s;
	struct dso *d;
	struct mapping m;
	struct sym_result r;
	char *exe = tpath("plt");
	char cmd[1024], line[512];
	unsigned long long addr, size;
	char name[256];
	int seen = 0;
	FILE *p;

	(void)state;
	if (!have_tools())
		skip();
	write_file(tpath("plt.c"), plt_c);
	assert_int_equal(run("cc -O1 -fno-plt -fplt -o '%s' '%s' || cc -O1 -o '%s' '%s'", exe, tpath("plt.c"),
			     exe, tpath("plt.c")), 0);
	exec_mapping(exe, 0x555555554000ULL, &m);
	s = new_symbols(NULL);
	d = symbols__dso_for_map(s, exe, 1, 0);
	/* objdump -d labels PLT entries "<getenv@plt>": the same addresses */
	snprintf(cmd, sizeof(cmd), "objdump -d '%s' | grep -E '^[0-9a-f]+ <[a-z]+@plt>:'", exe);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		char *lt = strchr(line, '<'), *gt = strchr(line, '>');

		if (!lt || !gt || gt - lt - 1 >= (long)sizeof(name))
			continue;
		memcpy(name, lt + 1, (size_t)(gt - lt - 1));
		name[gt - lt - 1] = '\0';
		addr = strtoull(line, NULL, 16);
		assert_int_equal(symbols__resolve(s, d, m.start, m.pgoff, ip_of(&m, addr + 4), &r), 0);
		assert_string_equal(r.function, name);
		assert_int_equal(r.sym_addr, addr);
		seen++;
	}
	pclose(p);
	(void)size;
	symbols__delete(s);
	if (!seen)
		skip();
}

static void test_corrupt_elf(void **state)
{
	struct logcount lc = { 0 };
	struct log lg = { count_log, &lc };
	struct symbols_opts o = { 0 };
	struct symbols *s;
	struct dso *d;
	struct sym_result r;
	char *bad = tpath("bad.so");
	char *trunc = tpath("trunc.so");
	FILE *f;
	int i;

	(void)state;
	f = fopen(bad, "wb");
	assert_non_null(f);
	fwrite("\177ELF\002\001\001", 1, 7, f);
	for (i = 0; i < 4000; i++)
		fputc((i * 7919) & 0xff, f);
	fclose(f);
	o.log = &lg;
	s = new_symbols(&o);
	d = symbols__dso_for_map(s, bad, 1, 0);
	assert_int_equal(symbols__resolve(s, d, 0x1000, 0, 0x1234, &r), -ENOENT);
	assert_int_equal(symbols__resolve(s, d, 0x1000, 0, 0x1238, &r), -ENOENT);
	/* one warning for the unreadable file, naming it */
	assert_int_equal(lc.warnings, 1);
	assert_non_null(strstr(lc.last, bad));
	if (!run("cc --version")) {
		write_file(tpath("prog.c"), prog_c);
		assert_int_equal(run("cc -O0 -g -o '%s.full' '%s' && head -c 9000 '%s.full' > '%s'", trunc,
				     tpath("prog.c"), trunc, trunc), 0);
		d = symbols__dso_for_map(s, trunc, 1, 0);
		for (i = 0; i < 64; i++)
			symbols__resolve(s, d, 0x1000, 0x1000, 0x1000 + (uint64_t)i * 16, &r);
	}
	assert_int_equal(symbols__resolve(s, NULL, 0, 0, 0, &r), -EINVAL);
	/* a bad file or a missing one is no error: nothing kept, resolving goes on */
	d = symbols__dso_for_map(s, tpath("no-such-file.so"), 1, 0);
	assert_int_equal(symbols__resolve(s, d, 0x1000, 0, 0x1234, &r), -ENOENT);
	assert_int_equal(symbols__status(s), 0);
	symbols__delete(s);
}

/*
 * perf's build-id cache ($PERF_BUILDID_DIR, default ~/.debug): [vdso]/<id>/vdso,
 * .build-id/xx/<rest>/elf for a binary gone from its path, and
 * [kernel.kallsyms]/<id>/kallsyms for the recorded kernel.
 */
static void test_build_id_cache(void **state)
{
	static const char *const ks[] = {
		"ffffffff81000000 T cached_kernel_fn",
		"ffffffff81000100 T next_fn",
		NULL
	};
	struct symbols_opts o = { 0 };
	struct symbols *s;
	struct dso *d;
	struct mapping m;
	struct sym_result r;
	uint8_t id[20], kid[20];
	size_t idsz, i;
	char hex[41], *old = getenv("PERF_BUILDID_DIR");
	char *saved = old ? strdup(old) : NULL;
	char *so = tpath("bc/libvdso.so");

	(void)state;
	if (!have_tools())
		skip();
	write_file(tpath("vdso.c"), (const char *const[]){ "int __vdso_clock_gettime(int c) { return c + 1; }", NULL });
	assert_int_equal(run("mkdir -p '%s/bc' && cc -O1 -fPIC -shared -Wl,--build-id=sha1 -o '%s' '%s'", tmpdir, so,
			     tpath("vdso.c")), 0);
	idsz = read_build_id(so, id);
	assert_int_equal(idsz, 20);
	for (i = 0; i < idsz; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	assert_int_equal(run("cd '%s/bc' && mkdir -p '[vdso]/%s' .build-id/%.2s/%s && cp libvdso.so '[vdso]/%s/vdso' && "
			     "cp libvdso.so .build-id/%.2s/%s/elf", tmpdir, hex, hex, hex + 2, hex, hex, hex + 2), 0);
	memset(kid, 0x5a, sizeof(kid));
	assert_int_equal(run("mkdir -p '%s/bc/[kernel.kallsyms]/5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a'", tmpdir), 0);
	write_file(tpath("bc/[kernel.kallsyms]/5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a/kallsyms"), ks);
	exec_mapping(so, 0x7ffff7fc1000ULL, &m);
	setenv("PERF_BUILDID_DIR", tpath("bc"), 1);
	o.recorded_kernel_build_id = kid;
	o.recorded_kernel_build_id_size = sizeof(kid);
	s = new_symbols(&o);
	assert_int_equal(symbols__set_build_id(s, "[vdso]", id, idsz), 0);
	d = symbols__dso_for_map(s, "[vdso]", 9, 0);
	expect_sym(s, d, so, &m, "__vdso_clock_gettime", 1, "__vdso_clock_gettime", &r);
	/* a binary no longer at its recorded path, found by its build id */
	assert_int_equal(symbols__set_build_id(s, "/gone/libvdso.so", id, idsz), 0);
	d = symbols__dso_for_map(s, "/gone/libvdso.so", 9, 0);
	expect_sym(s, d, so, &m, "__vdso_clock_gettime", 0, "__vdso_clock_gettime", &r);
	/* the recorded kernel's kallsyms from the cache, not /proc/kallsyms */
	assert_int_equal(symbols__resolve(s, symbols__kernel_dso(s), 0, 0, 0xffffffff81000010ULL, &r), 0);
	assert_string_equal(r.function, "cached_kernel_fn");
	symbols__delete(s);
	if (saved) {
		setenv("PERF_BUILDID_DIR", saved, 1);
		free(saved);
	} else {
		unsetenv("PERF_BUILDID_DIR");
	}
}

/* ---------------------------------------------------------------- kernel and maps */

static void test_kallsyms(void **state)
{
	static const char *const ks[] = {
		"ffffffff81000000 T _stext",
		"ffffffff81000100 t local_fn",
		"ffffffff81000100 T global_fn",
		"ffffffff81000200 W weak_fn",
		"ffffffff81000280 r some_rodata",	/* 'r' is not loaded: weak_fn spans it */
		"ffffffff81000300 D some_data",
		"ffffffff81000400 T last_core",
		"ffffffffc0000000 t mod_fn\t[ext4]",
		"ffffffffc0000080 T mod_fn2\t[ext4]",
		"ffffffffc0001000 T other\t[snd_hda_intel]",
		"garbage line",
		NULL
	};
	struct symbols_opts o = { 0 };
	struct symbols *s;
	struct dso *k, *mod, *snd;
	struct sym_result r;

	(void)state;
	write_file(tpath("kallsyms"), ks);
	o.kallsyms = tpath("kallsyms");
	s = new_symbols(&o);
	k = symbols__kernel_dso(s);
	assert_non_null(k);
	assert_ptr_equal(symbols__dso_for_map(s, "[kernel.kallsyms]_text", 0, 1), k);
	assert_string_equal(dso__name(k), "[kernel.kallsyms]");

	/* global over local at the same address */
	assert_int_equal(symbols__resolve(s, k, 0, 0, 0xffffffff81000150ULL, &r), 0);
	assert_string_equal(r.function, "global_fn");
	assert_int_equal(r.sym_addr, 0xffffffff81000100ULL);
	assert_null(r.src_file);
	assert_int_equal(symbols__resolve(s, k, 0, 0, 0xffffffff810002f0ULL, &r), 0);
	assert_string_equal(r.function, "weak_fn");
	assert_int_equal(symbols__resolve(s, k, 0, 0, 0xffffffff81000000ULL, &r), 0);
	assert_string_equal(r.function, "_stext");
	/*
	 * last_core is followed by a module symbol: perf ends it at
	 * roundup(0xffffffff81000400 + 4096, 4096) = 0xffffffff81002000.
	 */
	assert_int_equal(symbols__resolve(s, k, 0, 0, 0xffffffff81001fffULL, &r), 0);
	assert_string_equal(r.function, "last_core");
	assert_int_equal(symbols__resolve(s, k, 0, 0, 0xffffffff81002000ULL, &r), -ENOENT);
	/* module symbols belong to the module dso, not to [kernel.kallsyms] */
	assert_int_equal(symbols__resolve(s, k, 0, 0, 0xffffffffc0000010ULL, &r), -ENOENT);

	mod = symbols__dso_for_map(s, "/lib/modules/6.1.0/kernel/fs/ext4/ext4.ko", 0, 1);
	assert_string_equal(dso__name(mod), "[ext4]");
	assert_ptr_equal(symbols__dso_for_map(s, "[ext4]", 0, 1), mod);
	assert_int_equal(symbols__resolve(s, mod, 0xffffffffc0000000ULL, 0, 0xffffffffc0000010ULL, &r), 0);
	assert_string_equal(r.function, "mod_fn");
	assert_int_equal(symbols__resolve(s, mod, 0xffffffffc0000000ULL, 0, 0xffffffffc00000a0ULL, &r), 0);
	assert_string_equal(r.function, "mod_fn2");
	assert_int_equal(r.sym_addr, 0xffffffffc0000080ULL);
	/* mod_fn2 ends where the next module symbol starts; that one is not ext4's */
	assert_int_equal(symbols__resolve(s, mod, 0xffffffffc0000000ULL, 0, 0xffffffffc0001000ULL, &r), -ENOENT);

	snd = symbols__dso_for_map(s, "/lib/modules/6.1.0/sound/snd-hda-intel.ko.zst", 0, 1);
	assert_string_equal(dso__name(snd), "[snd_hda_intel]");
	assert_int_equal(symbols__resolve(s, snd, 0, 0, 0xffffffffc0001004ULL, &r), 0);
	assert_string_equal(r.function, "other");
	symbols__delete(s);
}

/*
 * A damaged kallsyms file: CR line ends, a NUL in a name (a '[' after it is
 * not a module's), addresses of 17 digits, lines too short or misspaced, a
 * '$' name, empty lines and no newline at the end.  Bad lines are skipped;
 * the symbols around them still resolve.
 */
static void test_kallsyms_damaged(void **state)
{
	static const char text[] =
		"ffffffff81000000 T first\r\n"
		"ffffffff81000100 T nul\0[mod]\n"
		"ffffffff81000200 T x\n"
		"fffffffff81000300 T toolong\n"
		"ffffffff81000400 T\n"
		"ffffffff81000500  T misspaced\n"
		"ffffffff81000600 T $x\n"
		"\n\n"
		"ffffffff81000700 T last";
	struct symbols_opts o = { 0 };
	struct sym_result r;
	struct symbols *s;
	struct dso *k;
	FILE *f;

	(void)state;
	f = fopen(tpath("kallsyms-damaged"), "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, sizeof(text) - 1, f), sizeof(text) - 1);
	fclose(f);
	o.kallsyms = tpath("kallsyms-damaged");
	s = new_symbols(&o);
	k = symbols__kernel_dso(s);
	assert_non_null(k);
	assert_int_equal(symbols__resolve(s, k, 0, 0, 0xffffffff81000050ULL, &r), 0);
	assert_string_equal(r.function, "first");
	assert_int_equal(symbols__resolve(s, k, 0, 0, 0xffffffff81000150ULL, &r), 0);
	assert_string_equal(r.function, "nul");
	/* the skipped lines make no symbols: x reaches last */
	assert_int_equal(symbols__resolve(s, k, 0, 0, 0xffffffff81000650ULL, &r), 0);
	assert_string_equal(r.function, "x");
	assert_int_equal(r.sym_addr, 0xffffffff81000200ULL);
	assert_int_equal(symbols__resolve(s, k, 0, 0, 0xffffffff81000710ULL, &r), 0);
	assert_string_equal(r.function, "last");
	assert_int_equal(symbols__status(s), 0);
	symbols__delete(s);
}

static void test_kallsyms_restricted(void **state)
{
	static const char *const ks[] = {
		"0000000000000000 T _stext",
		"0000000000000000 T schedule",
		NULL
	};
	struct logcount lc = { 0 };
	struct log lg = { count_log, &lc };
	struct symbols_opts o = { 0 };
	struct symbols *s;
	struct sym_result r;

	(void)state;
	write_file(tpath("kallsyms0"), ks);
	o.kallsyms = tpath("kallsyms0");
	o.log = &lg;
	s = new_symbols(&o);
	assert_int_equal(symbols__resolve(s, symbols__kernel_dso(s), 0, 0, 0, &r), -ENOENT);
	assert_int_equal(symbols__resolve(s, symbols__kernel_dso(s), 0, 0, 0x10, &r), -ENOENT);
	assert_int_equal(lc.warnings, 1);
	/* all zeros (kptr_restrict) is a warning, not an error */
	assert_int_equal(symbols__status(s), 0);
	symbols__delete(s);

	/* a recorded os release that is not the running one: /proc/kallsyms is not used */
	memset(&o, 0, sizeof(o));
	lc.warnings = 0;
	o.log = &lg;
	o.recorded_osrelease = "0.0.0-not-this-kernel";
	s = new_symbols(&o);
	assert_int_equal(symbols__resolve(s, symbols__kernel_dso(s), 0, 0, 0xffffffff81000000ULL, &r), -ENOENT);
	assert_int_equal(lc.warnings, 1);
	assert_non_null(strstr(lc.last, "not the recorded one"));
	symbols__delete(s);
}

static void test_perf_map(void **state)
{
	struct symbols *s;
	struct dso *d, *d2;
	struct sym_result r;
	char path[64], want[64];
	uint32_t pid = 3000000000u + (uint32_t)(getpid() % 100000);
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/perf-%u.map", pid);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "7f0000001000 100 jitted_fn\n");
	fprintf(f, "7f0000001100 80 LazyCompile:*other one\n");
	fprintf(f, "not a line\n");
	fprintf(f, "0x7f0000002000 10 with_prefix\n");
	fclose(f);

	s = new_symbols(NULL);
	d = symbols__dso_for_map(s, "//anon", pid, 0);
	d2 = symbols__dso_for_map(s, "/dev/zero (deleted)", pid, 0);
	/* perf report 6.1 --sort dso on a JIT test program printed "[JIT] tid 20193" */
	snprintf(want, sizeof(want), "[JIT] tid %u", pid);
	assert_string_equal(dso__name(d), want);
	assert_string_equal(dso__path(d), path);
	assert_ptr_equal(d, d2);
	/* perf 6.1's is_anon_memory() does not know named anon memory */
	d2 = symbols__dso_for_map(s, "[anon:v8]", pid, 0);
	assert_string_equal(dso__name(d2), "[anon:v8]");
	assert_int_equal(symbols__resolve(s, d2, 0x7f0000000000ULL, 0, 0x7f0000001050ULL, &r), -ENOENT);
	assert_int_equal(symbols__resolve(s, d, 0x7f0000000000ULL, 0, 0x7f0000001050ULL, &r), 0);
	assert_string_equal(r.function, "jitted_fn");
	assert_int_equal(r.sym_addr, 0x7f0000001000ULL);
	assert_int_equal(symbols__resolve(s, d, 0x7f0000000000ULL, 0, 0x7f000000117fULL, &r), 0);
	assert_string_equal(r.function, "LazyCompile:*other one");
	/* sizes are as given: 0x7f0000001180 is past "other one" */
	assert_int_equal(symbols__resolve(s, d, 0x7f0000000000ULL, 0, 0x7f0000001180ULL, &r), -ENOENT);
	assert_int_equal(symbols__resolve(s, d, 0x7f0000000000ULL, 0, 0x7f0000002008ULL, &r), 0);
	assert_string_equal(r.function, "with_prefix");
	symbols__delete(s);
	unlink(path);
}

static void test_dso_names(void **state)
{
	struct symbols *s;
	struct dso *d;
	struct sym_result r;

	(void)state;
	s = new_symbols(NULL);
	assert_string_equal(dso__name(symbols__dso_for_map(s, "/usr/lib/x86_64-linux-gnu/libc.so.6", 5, 0)),
			    "libc.so.6");
	assert_ptr_equal(symbols__dso_for_map(s, "/usr/lib/x86_64-linux-gnu/libc.so.6", 5, 0),
			 symbols__dso_for_map(s, "/usr/lib/x86_64-linux-gnu/libc.so.6", 6, 0));
	assert_string_equal(dso__name(symbols__dso_for_map(s, "//anon", 42, 0)), "[JIT] tid 42");
	assert_string_equal(dso__path(symbols__dso_for_map(s, "//anon", 42, 0)), "/tmp/perf-42.map");
	assert_ptr_not_equal(symbols__dso_for_map(s, "//anon", 42, 0), symbols__dso_for_map(s, "//anon", 43, 0));
	d = symbols__dso_for_map(s, "[vdso]", 42, 0);
	assert_string_equal(dso__name(d), "[vdso]");
	/* no build id recorded: the vdso is not resolved */
	assert_int_equal(symbols__resolve(s, d, 0x7fff0000, 0, 0x7fff0100, &r), -ENOENT);
	d = symbols__dso_for_map(s, "[vsyscall]", 42, 0);
	assert_string_equal(dso__name(d), "[vsyscall]");
	assert_int_equal(symbols__resolve(s, d, 0, 0, 0x10, &r), -ENOENT);
	assert_string_equal(dso__name(symbols__dso_for_map(s, "[kernel.kallsyms]", 0, 1)), "[kernel.kallsyms]");
	assert_string_equal(dso__name(symbols__dso_for_map(s, "/memfd:jit (deleted)", 1, 0)), "memfd:jit (deleted)");
	assert_null(symbols__dso_for_map(NULL, "x", 0, 0));
	assert_null(dso__name(NULL));
	symbols__delete(s);
	symbols__delete(NULL);
}

/* ---------------------------------------------------------------- real binary, speed */

struct nm_ent {
	uint64_t addr;
	uint64_t size;
	char type;
	char name[128];
};

/*
 * perfparser's static gcc 9.1 binary: every sized text symbol that nm lists
 * alone at its address resolves to itself in its middle (no alias choice
 * involved), and main's line agrees with addr2line.
 */
static void test_perfparser_static(void **state)
{
	char *exe = external__path("perfparser/vector_static_gcc_v9.1.0");
	char cmd[1024], line[1024];
	struct nm_ent *v = NULL;
	size_t n = 0, cap = 0, i;
	struct symbols *s;
	struct dso *d;
	struct mapping m;
	struct sym_result r;
	struct a2l want;
	uint64_t a, sz;
	int checked = 0;
	FILE *p;

	(void)state;
	if (!exe || run("nm --version") || run("addr2line --version"))
		skip();
	snprintf(cmd, sizeof(cmd), "nm -n -S --defined-only '%s'", exe);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		unsigned long long aa, ss;
		char type[8], name[512];

		if (sscanf(line, "%llx %llx %7s %511s", &aa, &ss, type, name) != 4 || strlen(name) >= 128)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			v = realloc(v, cap * sizeof(*v));
			assert_non_null(v);
		}
		v[n].addr = aa;
		v[n].size = ss;
		v[n].type = type[0];
		snprintf(v[n].name, sizeof(v[n].name), "%s", name);
		n++;
	}
	pclose(p);
	exec_mapping(exe, 0, &m);
	s = new_symbols(NULL);
	d = symbols__dso_for_map(s, exe, 1, 0);
	for (i = 0; i < n; i++) {
		if ((v[i].type != 'T' && v[i].type != 't') || !v[i].size || v[i].size > 0x100000)
			continue;
		if ((i > 0 && v[i - 1].addr == v[i].addr) || (i + 1 < n && v[i + 1].addr == v[i].addr))
			continue;
		assert_int_equal(symbols__resolve(s, d, m.start, m.pgoff, ip_of(&m, v[i].addr + v[i].size / 2), &r), 0);
		if (!strncmp(v[i].name, "_Z", 2))
			assert_int_equal(r.sym_addr, v[i].addr);
		else
			assert_string_equal(r.function, v[i].name);
		checked++;
	}
	assert_true(checked >= 100);
	assert_int_equal(nm_lookup(exe, "main", &a, &sz), 0);
	assert_int_equal(symbols__resolve(s, d, m.start, m.pgoff, ip_of(&m, a + 8), &r), 0);
	assert_string_equal(r.function, "main");
	addr2line(exe, a + 8, &want);
	assert_true(want.line > 0);
	assert_string_equal(r.src_file, want.file);
	assert_int_equal(r.src_line, want.line);
	symbols__delete(s);
	free(v);
	free(exe);
}

static void test_cached_lookup_speed(void **state)
{
	static const char *const ks[] = {
		"ffffffff81000000 T a", "ffffffff81000100 T b", "ffffffff81000200 T c",
		"ffffffff81000300 T d", NULL
	};
	struct symbols_opts o = { 0 };
	struct symbols *s;
	struct dso *k;
	struct sym_result r;
	struct timespec t0, t1;
	double secs;
	uint64_t i, found = 0;
	const uint64_t n = 2000000;

	(void)state;
	write_file(tpath("kspeed"), ks);
	o.kallsyms = tpath("kspeed");
	s = new_symbols(&o);
	k = symbols__kernel_dso(s);
	for (i = 0; i < 4096; i++)
		symbols__resolve(s, k, 0, 0, 0xffffffff81000000ULL + i % 1024, &r);
	assert_int_equal(symbols__nr_cached(s), 1024);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++)
		found += !symbols__resolve(s, k, 0, 0, 0xffffffff81000000ULL + (i * 7) % 1024, &r);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	assert_int_equal(found, n);
	assert_int_equal(symbols__nr_cached(s), 1024);
	/* > 1M cached lookups/s even under sanitizers (about 30M/s in a -O2 build) */
	assert_true(secs < 2.0);
	symbols__delete(s);
}

/*
 * A zero-size label inside a sized function (labelled [0x1170, 0x11be),
 * label_mid at 0x119e, as testdata/src/label.c's symbol table): addresses in
 * the function's extent are the function's; the label keeps only what lies
 * past the function's end, up to the next symbol (perf's symbols__fixup_end).
 * The table stays right after symtab__sort (a PLT entry added later).
 */
static void test_label_inside_sized(void **state)
{
	struct sym v[5];

	(void)state;
	memset(v, 0, sizeof(v));
	v[0] = (struct sym){ .start = 0x1170, .end = 0x11be, .name = "labelled", .idx = 0, .bind = STB_GLOBAL };
	v[1] = (struct sym){ .start = 0x119e, .end = 0x119e, .name = "label_mid", .idx = 1, .bind = STB_GLOBAL };
	v[2] = (struct sym){ .start = 0x1200, .end = 0x1210, .name = "other", .idx = 2, .bind = STB_GLOBAL };
	assert_int_equal(symtab__finish(v, 3, 0), 3);
	assert_string_equal(symtab__find(v, 3, 0x1170)->name, "labelled");
	assert_string_equal(symtab__find(v, 3, 0x119d)->name, "labelled");
	assert_string_equal(symtab__find(v, 3, 0x119e)->name, "labelled");
	assert_string_equal(symtab__find(v, 3, 0x11bd)->name, "labelled");
	/* past labelled's end: the label's, up to other's start */
	assert_string_equal(symtab__find(v, 3, 0x11be)->name, "label_mid");
	assert_string_equal(symtab__find(v, 3, 0x11ff)->name, "label_mid");
	assert_string_equal(symtab__find(v, 3, 0x1200)->name, "other");
	assert_null(symtab__find(v, 3, 0x1210));
	/* an entry sorted in before them (as a synthesized PLT symbol) */
	v[3] = (struct sym){ .start = 0x1030, .end = 0x1040, .name = "puts@plt", .idx = UINT32_MAX };
	symtab__sort(v, 4);
	assert_string_equal(v[0].name, "puts@plt");
	assert_string_equal(symtab__find(v, 4, 0x11a0)->name, "labelled");
	assert_string_equal(symtab__find(v, 4, 0x11c0)->name, "label_mid");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_label_inside_sized),
		cmocka_unit_test(test_c_pie),
		cmocka_unit_test(test_c_nopie_and_no_source),
		cmocka_unit_test(test_no_aranges_relative_comp_dir),
		cmocka_unit_test(test_shared_object),
		cmocka_unit_test(test_stripped_debuglink),
		cmocka_unit_test(test_build_id_debug_dir_and_mismatch),
		cmocka_unit_test(test_symfs),
		cmocka_unit_test(test_cxx_demangle),
		cmocka_unit_test(test_aliases_and_sizes),
		cmocka_unit_test(test_plt_symbols),
		cmocka_unit_test(test_corrupt_elf),
		cmocka_unit_test(test_build_id_cache),
		cmocka_unit_test(test_kallsyms),
		cmocka_unit_test(test_kallsyms_damaged),
		cmocka_unit_test(test_kallsyms_restricted),
		cmocka_unit_test(test_perf_map),
		cmocka_unit_test(test_dso_names),
		cmocka_unit_test(test_perfparser_static),
		cmocka_unit_test(test_cached_lookup_speed),
	};

	return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}

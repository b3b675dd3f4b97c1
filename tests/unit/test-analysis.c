/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests of decode/analysis.c and decode/report.c: a small program is
 * compiled at test time (skipped without cc), a perf.data file is built in
 * memory (perfemit.h) with a COMM, an MMAP of that program's text as the
 * loader maps it, samples of two events with callchains, and one sample in
 * no map; it is replayed through the ordered queue and the reports are
 * compared with sums worked out by hand (comments next to each).
 */
#include <elf.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "decode/analysis.h"
#include "perffile/ordered.h"
#include "perffile/perffile.h"
#include "tests/unit/perfemit.h"

/* alpha is defined on line 2, beta on line 3 */
static const char prog_src[] =
	"volatile int sink;\n"
	"__attribute__((noinline)) int alpha(int x) { return x * 3 + sink; }\n"
	"__attribute__((noinline)) int beta(int x) { return alpha(x) + alpha(x + 1); }\n"
	"int main(void) { return beta(1) & 1; }\n";

struct prog {
	char dir[40];
	char path[64];
	uint64_t text_vaddr, text_off, text_size;	/* the executable PT_LOAD */
	uint64_t alpha, beta;				/* symbol vaddrs */
};

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	long n;

	if (!fp)
		return NULL;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, fp) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(fp);
	if (len)
		*len = (size_t)n;
	return buf;
}

/* the executable segment and two symbols, read from the ELF file */
static int read_elf(struct prog *p)
{
	size_t len, i;
	char *buf = slurp(p->path, &len);
	const Elf64_Ehdr *eh = (const void *)buf;
	int ok = 0;

	if (!buf || len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64)
		goto out;
	for (i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const void *)(buf + eh->e_phoff + i * eh->e_phentsize);

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			p->text_vaddr = ph->p_vaddr;
			p->text_off = ph->p_offset;
			p->text_size = ph->p_memsz;
		}
	}
	for (i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *sh = (const void *)(buf + eh->e_shoff + i * eh->e_shentsize);
		const Elf64_Shdr *str;
		size_t j;

		if (sh->sh_type != SHT_SYMTAB)
			continue;
		str = (const void *)(buf + eh->e_shoff + sh->sh_link * eh->e_shentsize);
		for (j = 0; j < sh->sh_size / sizeof(Elf64_Sym); j++) {
			const Elf64_Sym *s = (const void *)(buf + sh->sh_offset + j * sizeof(Elf64_Sym));
			const char *name = buf + str->sh_offset + s->st_name;

			if (!strcmp(name, "alpha"))
				p->alpha = s->st_value;
			else if (!strcmp(name, "beta"))
				p->beta = s->st_value;
		}
	}
	ok = p->text_size && p->alpha && p->beta;
out:
	free(buf);
	return ok;
}

static int prog_setup(void **state)
{
	struct prog *p = calloc(1, sizeof(*p));
	char src[64], cmd[256];
	FILE *fp;

	if (!p)
		return -1;
	snprintf(p->dir, sizeof(p->dir), "/tmp/readperf-test-analysis.XXXXXX");
	if (!mkdtemp(p->dir))
		return -1;
	snprintf(src, sizeof(src), "%s/prog.c", p->dir);
	snprintf(p->path, sizeof(p->path), "%s/prog", p->dir);
	fp = fopen(src, "w");
	if (!fp)
		return -1;
	fputs(prog_src, fp);
	fclose(fp);
	snprintf(cmd, sizeof(cmd), "cc -g -O0 -o %s %s >/dev/null 2>&1", p->path, src);
	if (system(cmd) != 0 || !read_elf(p))
		p->path[0] = '\0';	/* no compiler: tests skip */
	*state = p;
	return 0;
}

static int prog_teardown(void **state)
{
	struct prog *p = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", p->dir);
	if (system(cmd) != 0)
		return -1;
	free(p);
	return 0;
}

#define BASE 0x555500000000ULL
#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | \
	    PERF_SAMPLE_CALLCHAIN)

/*
 * The stream (pid 10, comm "prog"):
 *   cpu-clock  3 x alpha, period 100, chain USER alpha, beta+4 (return address)
 *   cpu-clock  1 x beta, period 200, chain USER beta
 *   cpu-clock  1 x ip 0x1234 (in no map), period 50, chain USER 0x1234
 *   task-clock 1 x alpha, period 7, no chain entries
 * written out of time order inside one round.
 */
static uint8_t *make_stream(const struct prog *p, size_t *len)
{
	struct pe e = { 0 };
	uint64_t map_start = BASE + (p->text_vaddr & ~0xfffULL);
	uint64_t a_ip = BASE + p->alpha, b_ip = BASE + p->beta;
	uint64_t chain_a[] = { PERF_CONTEXT_USER, a_ip, b_ip + 4 };
	uint64_t chain_b[] = { PERF_CONTEXT_USER, b_ip };
	uint64_t chain_u[] = { PERF_CONTEXT_USER, 0x1234 };
	uint8_t *buf;

	pe_attr(&e, ST, 100);		/* cpu-clock */
	pe_attr(&e, ST, 7);		/* task-clock */
	pe_comm(&e, 0, 10, 10, "prog", 1, 1000);
	pe_mmap(&e, 0, PERF_RECORD_MISC_USER, 10, 10, map_start,
		(p->text_size + (p->text_vaddr & 0xfff) + 0xfff) & ~0xfffULL,
		p->text_off & ~0xfffULL, p->path, 1001);
	pe_sample(&e, 0, PERF_RECORD_MISC_USER, a_ip, 10, 10, 2003, 100, chain_a, 3);
	pe_sample(&e, 0, PERF_RECORD_MISC_USER, a_ip, 10, 10, 2001, 100, chain_a, 3);
	pe_sample(&e, 1, PERF_RECORD_MISC_USER, a_ip, 10, 10, 2002, 7, NULL, 0);
	pe_sample(&e, 0, PERF_RECORD_MISC_USER, a_ip, 10, 10, 2004, 100, chain_a, 3);
	pe_sample(&e, 0, PERF_RECORD_MISC_USER, b_ip, 10, 10, 2005, 200, chain_b, 2);
	pe_sample(&e, 0, PERF_RECORD_MISC_USER, 0x1234, 10, 10, 2006, 50, chain_u, 2);
	pe_round(&e);
	buf = pe_file(&e, len);
	pe_release(&e);
	return buf;
}

static void run(const struct prog *p, const struct analysis_opts *opts, const char *outdir,
		struct analysis_stats *st)
{
	struct perf_file *f;
	struct ordered_queue *q;
	struct analysis *a;
	struct perf_record rec;
	uint8_t *buf;
	size_t len;
	int ret;

	buf = make_stream(p, &len);
	assert_int_equal(perf_file__open_mem(&f, buf, len, NULL), 0);
	assert_int_equal(analysis__new(&a, f, opts), 0);
	assert_int_equal(ordered_queue__new(&q, f, analysis__deliver, a), 0);
	while ((ret = perf_file__next(f, &rec)) == 1)
		assert_int_equal(ordered_queue__push(q, &rec), 0);
	assert_int_equal(ret, 0);
	assert_int_equal(ordered_queue__flush(q), 0);
	assert_int_equal(analysis__write(a, outdir), 0);
	if (st)
		analysis__stats(a, st);
	ordered_queue__delete(q);
	analysis__delete(a);
	perf_file__delete(f);
	free(buf);
}

static char *report(const char *dir, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return slurp(path, NULL);
}

/*
 * cpu-clock total period 3*100 + 200 + 50 = 550:
 *   alpha 300/550 = 54.5455%, beta 200/550 = 36.3636%, [unknown] 50/550 = 9.0909%
 *   children: beta is in the chain of the 3 alpha samples and is the beta
 *   sample: 4 samples, 500 = 90.9091%; alpha 3, 300; [unknown] 1, 50.
 * task-clock: alpha 1 sample, 7 = 100%.
 */
static void test_reports(void **state)
{
	const struct prog *p = *state;
	struct analysis_opts o;
	struct symbols_opts so;
	struct analysis_stats st;
	char dir[96], *s;

	if (!p->path[0])
		skip();
	memset(&o, 0, sizeof(o));
	memset(&so, 0, sizeof(so));
	o.reports = REPORT_OVERVIEW | REPORT_PROCESSES | REPORT_RESULTS | REPORT_LINES | REPORT_CALLERS;
	o.symbols = &so;
	snprintf(dir, sizeof(dir), "%s/out", p->dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	run(p, &o, dir, &st);
	assert_int_equal(st.samples, 6);
	assert_int_equal(st.unresolved, 1);

	s = report(dir, "results.csv");
	assert_non_null(s);
	assert_string_equal(s,
		"event,dso,function,source_file,line,samples,period,percent,"
		"children_samples,children_period,children_percent\n"
		"cpu-clock,prog,alpha,prog.c,2,3,300,54.5455,3,300,54.5455\n"
		"cpu-clock,prog,beta,prog.c,3,1,200,36.3636,4,500,90.9091\n"
		"cpu-clock,[unknown],[unknown],,,1,50,9.0909,1,50,9.0909\n"
		"task-clock,prog,alpha,prog.c,2,1,7,100.0000,1,7,100.0000\n");
	free(s);

	s = report(dir, "lines.csv");
	assert_non_null(s);
	assert_string_equal(s,
		"event,dso,function,source_file,line,samples,period,percent\n"
		"cpu-clock,prog,alpha,prog.c,2,3,300,54.5455\n"
		"cpu-clock,prog,beta,prog.c,3,1,200,36.3636\n"
		"cpu-clock,[unknown],[unknown],,,1,50,9.0909\n"
		"task-clock,prog,alpha,prog.c,2,1,7,100.0000\n");
	free(s);

	/* one edge: beta -> alpha in the 3 alpha samples */
	s = report(dir, "callers.csv");
	assert_non_null(s);
	assert_string_equal(s,
		"event,caller_dso,caller,callee_dso,callee,samples,period\n"
		"cpu-clock,prog,beta,prog,alpha,3,300\n");
	free(s);

	/* 6 samples, period 300 + 7 + 200 + 50 = 557; one thread, one mmap */
	s = report(dir, "processes.csv");
	assert_non_null(s);
	assert_string_equal(s,
		"pid,ppid,comm,threads,mmaps,start_time,exit_time,samples,period\n"
		"10,,prog,1,1,,,6,557\n");
	free(s);

	/*
	 * time order: 2001 2002 2003 ...; the one FINISHED_ROUND flushes nothing
	 * (nothing was seen before the previous round) and comes first, then
	 * everything at the end of the file
	 */
	s = report(dir, "overview.csv");
	assert_non_null(s);
	assert_non_null(strstr(s, "nr,time,type,pid,tid,cpu,event,ip,period,dso,symbol,info\n"
				  "8,,FINISHED_ROUND,,,,,,,,,\n"
				  "0,1000,COMM,10,10,,cpu-clock,,,,,prog (exec)\n"
				  "1,1001,MMAP,10,10,,cpu-clock,,,,,"));
	assert_non_null(strstr(s, "\n3,2001,SAMPLE,10,10,,cpu-clock,"));
	assert_true(strstr(s, "\n3,2001,SAMPLE") < strstr(s, "\n4,2002,SAMPLE,10,10,,task-clock,"));
	assert_true(strstr(s, "\n4,2002,SAMPLE") < strstr(s, "\n2,2003,SAMPLE"));
	assert_non_null(strstr(s, ",50,[unknown],[unknown],\n"));
	free(s);
}

/* filters: -e, --pid, --time; percentages stay shares of the event's samples in --time */
static void test_filters(void **state)
{
	const struct prog *p = *state;
	struct analysis_opts o;
	struct analysis_stats st;
	static const uint32_t other_pid = 11;
	char dir[96], *s;

	if (!p->path[0])
		skip();
	snprintf(dir, sizeof(dir), "%s/filt", p->dir);
	assert_int_equal(mkdir(dir, 0755), 0);

	memset(&o, 0, sizeof(o));
	o.reports = REPORT_RESULTS;
	o.event = "task-clock";
	run(p, &o, dir, &st);
	assert_int_equal(st.samples, 1);
	assert_int_equal(st.filtered, 5);

	o.event = NULL;
	o.pids = &other_pid;
	o.nr_pids = 1;
	run(p, &o, dir, &st);
	assert_int_equal(st.samples, 0);

	/* 2003..2005: alpha 2 x 100 and beta 200 of cpu-clock: 50% each */
	o.nr_pids = 0;
	o.has_time = 1;
	o.time_start = 2003;
	o.time_end = 2005;
	run(p, &o, dir, &st);
	assert_int_equal(st.samples, 3);
	s = report(dir, "results.csv");
	assert_non_null(s);
	assert_non_null(strstr(s, "\ncpu-clock,prog,alpha,prog.c,2,2,200,50.0000,"));
	assert_non_null(strstr(s, "\ncpu-clock,prog,beta,prog.c,3,1,200,50.0000,3,400,100.0000\n"));
	assert_null(strstr(s, "task-clock"));
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reports),
		cmocka_unit_test(test_filters),
	};

	return cmocka_run_group_tests(tests, prog_setup, prog_teardown);
}

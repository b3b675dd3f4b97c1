/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests of decode/analysis.c and decode/report.c: a small program is
 * compiled at test time (skipped without cc), a perf.data file is built in
 * memory (tests/lib/perfemit.h) with a COMM, an MMAP of that program's text as the
 * loader maps it, samples of two events with callchains, and one sample in
 * no map; it is replayed through the ordered queue and the reports are
 * compared with sums worked out by hand (comments next to each).  The same
 * stream gives the folded stacks, the flame graph and diff.csv (decode/diff.c)
 * of two differently filtered analyses.
 */
#include <elf.h>
#include <inttypes.h>
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
#include "decode/report.h"
#include "decode/reports/diff.h"
#include "decode/reports/stacks.h"
#include "perffile/ordered.h"
#include "perffile/perffile.h"
#include "tests/lib/perfemit.h"

/* alpha is defined on line 2, beta on line 3 */
/* the outputs named in a comma-separated list (a leading '+': a path output) as an analysis_opts mask */
static uint64_t outputs_of(const char *list)
{
	char buf[256], *tok, *save = NULL;
	uint64_t mask = 0;
	int id;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		id = tok[0] == '+' ? report_outputs__find(tok + 1, 1) : report_outputs__find(tok, 0);
		assert_true(id >= 0);
		mask |= (uint64_t)1 << id;
	}
	return mask;
}

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

/* assert that s equals want with every '@' replaced by dir */
static void expect_report(const char *s, const char *dir, const char *want)
{
	char buf[4096];
	size_t n = 0, dl = strlen(dir);

	for (; *want && n + dl + 1 < sizeof(buf); want++) {
		if (*want == '@') {
			memcpy(buf + n, dir, dl);
			n += dl;
		} else {
			buf[n++] = *want;
		}
	}
	buf[n] = '\0';
	assert_string_equal(s, buf);
}

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

/* p's directory NAME, made for one test */
static void make_dir(const struct prog *p, const char *name, char *dir, size_t size)
{
	snprintf(dir, size, "%s/%s", p->dir, name);
	assert_int_equal(mkdir(dir, 0755), 0);
}

/* the program of the group setup, with o zeroed; skips the test when it was not built */
static const struct prog *prog_of(void **state, struct analysis_opts *o)
{
	const struct prog *p = *state;

	if (!p->path[0])
		skip();
	memset(o, 0, sizeof(*o));
	return p;
}

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

	pe__attr(&e, ST, 100);		/* cpu-clock */
	pe__attr(&e, ST, 7);		/* task-clock */
	pe__comm(&e, 0, 10, 10, "prog", 1, 1000);
	pe__mmap(&e, 0, PERF_RECORD_MISC_USER, 10, 10, map_start,
		(p->text_size + (p->text_vaddr & 0xfff) + 0xfff) & ~0xfffULL,
		p->text_off & ~0xfffULL, p->path, 1001);
	pe__sample(&e, 0, PERF_RECORD_MISC_USER, a_ip, 10, 10, 2003, 100, chain_a, 3);
	pe__sample(&e, 0, PERF_RECORD_MISC_USER, a_ip, 10, 10, 2001, 100, chain_a, 3);
	pe__sample(&e, 1, PERF_RECORD_MISC_USER, a_ip, 10, 10, 2002, 7, NULL, 0);
	pe__sample(&e, 0, PERF_RECORD_MISC_USER, a_ip, 10, 10, 2004, 100, chain_a, 3);
	pe__sample(&e, 0, PERF_RECORD_MISC_USER, b_ip, 10, 10, 2005, 200, chain_b, 2);
	pe__sample(&e, 0, PERF_RECORD_MISC_USER, 0x1234, 10, 10, 2006, 50, chain_u, 2);
	pe__round(&e);
	buf = pe__file(&e, len);
	pe__release(&e);
	return buf;
}

/* the stream replayed through an analysis that stays alive until replay_close */
struct replay {
	uint8_t *buf;
	struct perf_file *f;
	struct analysis *a;
};

static void replay_open(struct replay *r, const struct prog *p, const struct analysis_opts *opts)
{
	struct ordered_queue *q;
	struct perf_record rec = { 0 };
	size_t len;
	int ret;

	r->buf = make_stream(p, &len);
	assert_int_equal(perf_file__open_mem(&r->f, r->buf, len, NULL), 0);
	assert_int_equal(analysis__new(&r->a, r->f, opts), 0);
	assert_int_equal(ordered_queue__new(&q, r->f, analysis__deliver, r->a), 0);
	while ((ret = perf_file__next(r->f, &rec)) == 1)
		assert_int_equal(ordered_queue__push(q, &rec), 0);
	assert_int_equal(ret, 0);
	assert_int_equal(ordered_queue__flush(q), 0);
	ordered_queue__delete(q);
}

static void replay_close(struct replay *r)
{
	analysis__delete(r->a);
	perf_file__delete(r->f);
	free(r->buf);
}

static void run(const struct prog *p, const struct analysis_opts *opts, const char *outdir,
		struct analysis_stats *st)
{
	struct replay r;

	replay_open(&r, p, opts);
	assert_int_equal(analysis__write(r.a, outdir), 0);
	if (st)
		analysis__stats(r.a, st);
	replay_close(&r);
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
	struct analysis_opts o;
	const struct prog *p = prog_of(state, &o);
	struct symbols_opts so;
	struct analysis_stats st;
	char dir[96], *s;

	memset(&so, 0, sizeof(so));
	o.outputs = outputs_of("overview,processes,results,lines,callers");
	o.symbols = &so;
	make_dir(p, "out", dir, sizeof(dir));
	run(p, &o, dir, &st);
	assert_int_equal(st.samples, 6);
	assert_int_equal(st.unresolved, 1);

	s = report(dir, "results.csv");
	assert_non_null(s);
	/* source_file: the path the debug info names ("@" below: the directory prog.c was compiled in); line 0 unknown */
	expect_report(s, p->dir,
		"event,dso,function,source_file,line,samples,period,percent,"
		"children_samples,children_period,children_percent\n"
		"cpu-clock,prog,alpha,@/prog.c,2,3,300,54.5455,3,300,54.5455\n"
		"cpu-clock,prog,beta,@/prog.c,3,1,200,36.3636,4,500,90.9091\n"
		"cpu-clock,[unknown],[unknown],,0,1,50,9.0909,1,50,9.0909\n"
		"task-clock,prog,alpha,@/prog.c,2,1,7,100.0000,1,7,100.0000\n");
	free(s);

	s = report(dir, "lines.csv");
	assert_non_null(s);
	expect_report(s, p->dir,
		"event,dso,function,source_file,line,samples,period,percent\n"
		"cpu-clock,prog,alpha,@/prog.c,2,3,300,54.5455\n"
		"cpu-clock,prog,beta,@/prog.c,3,1,200,36.3636\n"
		"cpu-clock,[unknown],[unknown],,0,1,50,9.0909\n"
		"task-clock,prog,alpha,@/prog.c,2,1,7,100.0000\n");
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
		"10,-1,prog,1,1,0,0,6,557\n");
	free(s);

	/*
	 * time order: 2001 2002 2003 ...; the one FINISHED_ROUND flushes nothing
	 * (nothing was seen before the previous round) and comes first, then
	 * everything at the end of the file
	 */
	s = report(dir, "overview.csv");
	assert_non_null(s);
	assert_non_null(strstr(s, "nr,time,type,pid,tid,cpu,event,ip,period,dso,symbol,info\n"
				  "8,0,FINISHED_ROUND,-1,-1,-1,,,0,,,\n"
				  "0,1000,COMM,10,10,-1,cpu-clock,,0,,,prog (exec)\n"
				  "1,1001,MMAP,10,10,-1,cpu-clock,,0,,,"));
	assert_non_null(strstr(s, "\n3,2001,SAMPLE,10,10,-1,cpu-clock,"));
	assert_true(strstr(s, "\n3,2001,SAMPLE") < strstr(s, "\n4,2002,SAMPLE,10,10,-1,task-clock,"));
	assert_true(strstr(s, "\n4,2002,SAMPLE") < strstr(s, "\n2,2003,SAMPLE"));
	assert_non_null(strstr(s, ",50,[unknown],[unknown],\n"));
	free(s);
}

/* filters: -e, --pid, --time; percentages stay shares of the event's samples in --time */
static void test_filters(void **state)
{
	struct analysis_opts o;
	const struct prog *p = prog_of(state, &o);
	struct analysis_stats st;
	static const uint32_t other_pid = 11;
	char dir[96], *s;

	make_dir(p, "filt", dir, sizeof(dir));

	o.outputs = outputs_of("results");
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
	assert_non_null(strstr(s, "/prog.c,2,2,200,50.0000,"));
	assert_non_null(strstr(s, "\ncpu-clock,prog,alpha,"));
	assert_non_null(strstr(s, "/prog.c,3,1,200,50.0000,3,400,100.0000\n"));
	assert_null(strstr(s, "task-clock"));
	free(s);
}

/*
 * Folded stacks, outermost first, sorted bytewise ('[' < 'b'), cpu-clock
 * only (the first event with samples):
 *   3 alpha samples: chain alpha (the sample ip again, skipped), beta+4
 *   1 beta sample: chain beta (skipped); 1 sample at 0x1234 in no map
 * -e task-clock: its one alpha sample, no chain entries: a one-frame stack.
 */
static char *folded_of(const struct prog *p, struct analysis *a)
{
	char path[96];

	snprintf(path, sizeof(path), "%s/stacks.folded", p->dir);
	assert_int_equal(analysis__write_output(a, (size_t)report_outputs__find("folded", 1), path), 0);
	return slurp(path, NULL);
}

/*
 * A report of the caller's (analysis_opts.consumer): the stacks counted by
 * stack_count_ops with no output enabled, as readperf diff counts them;
 * the same stacks as test_folded's, by period (alpha 3 x 100, beta 200,
 * [unknown] 50); the registry's stacks report is not there; the state is
 * the caller's after analysis__delete (freed once, by stack_count__delete).
 */
static void test_consumer(void **state)
{
	struct analysis_opts o;
	const struct prog *p = prog_of(state, &o);
	struct stack_count *sc;
	struct replay r;
	struct folded fd;
	struct strbuf sb = STRBUF_INIT;
	size_t i, k;

	assert_int_equal(stack_count__new(&sc), 0);
	o.consumer = &stack_count_ops;
	o.consumer_state = sc;
	replay_open(&r, p, &o);
	assert_int_equal(analysis__write_output(r.a, (size_t)report_outputs__find("folded", 1), "-"), -EINVAL);
	assert_int_equal(stack_count__folded(sc, r.a, &fd), 0);
	assert_int_equal(folded__sort(&fd), 0);
	for (i = 0; i < fd.nr; i++) {
		for (k = 0; k < fd.v[i].nr; k++) {
			const struct fold_name *n = fold_names__at(&fd.names, fd.v[i].names[k]);

			assert_int_equal(strbuf__addf(&sb, "%s%.*s", k ? ";" : "", (int)n->len, n->s), 0);
		}
		assert_int_equal(strbuf__addf(&sb, " %" PRIu64 "\n", fd.v[i].samples), 0);
	}
	assert_string_equal(sb.buf, "prog;[unknown] 50\nprog;beta 200\nprog;beta;alpha 300\n");
	assert_string_equal(fd.event, "cpu-clock");
	folded__release(&fd);
	replay_close(&r);
	stack_count__delete(sc);
	strbuf__release(&sb);
}

static void test_folded(void **state)
{
	struct analysis_opts o;
	const struct prog *p = prog_of(state, &o);
	struct replay r;
	char path[96], *s;

	o.outputs = outputs_of("+folded,+flamegraph");
	replay_open(&r, p, &o);
	s = folded_of(p, r.a);
	assert_non_null(s);
	assert_string_equal(s, "prog;[unknown] 1\nprog;beta 1\nprog;beta;alpha 3\n");
	free(s);

	/*
	 * flame graph, widths by period (results.csv's shares): cpu-clock's
	 * stacks weigh 550 (alpha 3 x 100, beta 200, [unknown] 50) over 1180 px
	 * (10 px margins), x = 10 + floor(118000 * t / 550) / 100; flow order
	 * [unknown] [0,50), beta [50,550) (its own 200, then alpha's 300),
	 * alpha [250,550): [unknown] width 107.27; beta x 117.27, width 1072.73;
	 * alpha x 546.36, width 643.64.  Shares: alpha 300/550 = 54.55 %, beta
	 * 500/550 = 90.91 %, [unknown] 50/550 = 9.09 %.  Depth: all 0,
	 * prog 1, beta 2, alpha 3; height = 60 (titles) + (3 + 1) * 16 + 34
	 * (bottom) = 158; alpha's y = 158 - 34 - (3 + 1) * 16 = 60, all's y =
	 * 158 - 34 - 16 = 108.
	 */
	snprintf(path, sizeof(path), "%s/flame.svg", p->dir);
	assert_int_equal(analysis__write_output(r.a, (size_t)report_outputs__find("flamegraph", 1), path), 0);
	s = slurp(path, NULL);
	assert_non_null(s);
	assert_non_null(strstr(s, "height=\"158\" viewBox=\"0 0 1200 158\""));
	assert_non_null(strstr(s, "<title>alpha (period 300, 54.55%)</title>\n"
				  "<rect x=\"546.36\" y=\"60\" width=\"643.64\" height=\"15\""));
	assert_non_null(strstr(s, "<title>beta (period 500, 90.91%)</title>\n"
				  "<rect x=\"117.27\" y=\"76\" width=\"1072.73\" "));
	assert_non_null(strstr(s, "<title>[unknown] (period 50, 9.09%)</title>\n"
				  "<rect x=\"10.00\" y=\"76\" width=\"107.27\" "));
	assert_non_null(strstr(s, "<title>prog (period 550, 100.00%)</title>\n"));
	assert_non_null(strstr(s, "<title>all (period 550, 100.00%)</title>\n"
				  "<rect x=\"10.00\" y=\"108\" width=\"1180.00\" "));
	assert_non_null(strstr(s, ">cpu-clock: 5 samples, period 550</text>"));
	assert_non_null(strstr(s, "</svg>\n"));
	free(s);
	replay_close(&r);

	o.event = "task-clock";
	replay_open(&r, p, &o);
	s = folded_of(p, r.a);
	assert_non_null(s);
	assert_string_equal(s, "prog;alpha 1\n");
	free(s);
	replay_close(&r);
}

/*
 * diff.csv, old: everything (test_reports: cpu-clock alpha 300/550 =
 * 54.5455 %, beta 200/550 = 36.3636 %, [unknown] 50/550 = 9.0909 %;
 * task-clock alpha 7/7 = 100 %), new: --time 2003,2005 (test_filters: alpha
 * 2 x 100 and beta 200 of cpu-clock, 50 % each; no task-clock sample, so
 * task-clock is paired with nothing and its rows have no children share).
 * Children: beta is in the chains of the alpha samples: old 300 + 200 =
 * 500/550 = 90.9091 %, new 200 + 200 = 400/400 = 100 %.  Ratio = new period /
 * old period: alpha 200/300 = 0.6667, beta 1, [unknown] 0.  Rows by event
 * pair (attr order), then |new - old period|: alpha 100, [unknown] 50, beta 0.
 */
/*
 * ratio_low, ratio_high (and children_*): the 0.99 Wilson interval of
 * p = new / (old + new samples) as odds, times the mean periods' ratio,
 * computed apart in Python (statistics.NormalDist().inv_cdf(0.995) = z):
 * alpha 3 vs 2 samples of 100: 0.0902..4.9292; [unknown] 1 vs 0 (50; NEW's
 * event mean 400/3): 0..17.6931; beta 1 vs 1 of 200: 0.0658..15.2040; beta's
 * children 4 vs 3 samples (500/4, 400/3): 0.1405..4.5558; task-clock alpha
 * 1 vs 0 of 7 (NEW has no task-clock sample: OLD's mean): 0..6.6349, its
 * children 0 vs 0: 0..unbounded (-1.0000) and children_ratio 1.0000 (no
 * children period on either side, the function in OLD).  Against itself:
 * 3 vs 3 samples 0.1597..6.2636, 4 vs 4 (beta's children) 0.1952..5.1222.
 */
#define DIFF_CSV_HEADER \
	"event,dso,function,old_samples,new_samples,old_period,new_period,old_percent,new_percent," \
	"delta_percent,ratio,old_children_percent,new_children_percent,delta_children_percent," \
	"ratio_low,ratio_high,children_ratio,children_ratio_low,children_ratio_high,old_dso,old_function\n"

/* d written to dir (and deleted): diff.csv must be want */
static void expect_diff(struct diff *d, const char *dir, const char *want)
{
	char *s;

	assert_int_equal(diff__write(d, dir, 0), 0);
	diff__delete(d);
	s = report(dir, "diff.csv");
	assert_non_null(s);
	assert_string_equal(s, want);
	free(s);
}

/* one run a side, sorted by period, pairs by dso and function, 0.99 intervals */
static int new_diff(struct diff **d, struct analysis *old, struct analysis *new)
{
	struct analysis *runs[2] = { old, new };
	const struct diff_config cfg = { DIFF_SORT_PERIOD, DIFF_BY_DSO_FUNCTION, 0.99 };

	return diff__new(d, (struct analysis *const *[2]){ &runs[0], &runs[1] }, (const size_t[2]){ 1, 1 }, &cfg);
}

static void test_diff(void **state)
{
	struct analysis_opts o;
	const struct prog *p = prog_of(state, &o);
	const struct func_stat *fn;
	struct replay old, new;
	struct diff *d;
	char dir[96];

	make_dir(p, "diff", dir, sizeof(dir));
	replay_open(&old, p, &o);
	o.has_time = 1;
	o.time_start = 2003;
	o.time_end = 2005;
	replay_open(&new, p, &o);

	/* the accessor: the first aggregate made is cpu-clock's alpha (first sample in time) */
	/* cpu-clock alpha, beta (also the chain's beta+4), [unknown]; task-clock alpha */
	assert_int_equal(analysis__nr_funcs(old.a), 4);
	fn = analysis__func(old.a, 0);
	assert_string_equal(analysis__event_name(old.a, fn->event), "cpu-clock");
	assert_string_equal(fn->function, "alpha");
	assert_int_equal(fn->samples, 3);
	assert_int_equal(fn->period, 300);
	assert_int_equal(analysis__event_period(old.a, fn->event), 550);

	assert_int_equal(new_diff(&d, old.a, new.a), 0);
	assert_int_equal(diff__nr_pairs(d), 2);
	assert_int_equal(diff__pair(d, 0)->how, DIFF_PAIR_NAME);
	assert_int_equal(diff__pair(d, 1)->how, DIFF_PAIR_OLD_ONLY);
	expect_diff(d, dir, DIFF_CSV_HEADER
		"cpu-clock,prog,alpha,3,2,300,200,54.5455,50.0000,-4.5455,0.6667,54.5455,50.0000,-4.5455,"
		"0.0902,4.9292,0.6667,0.0902,4.9292,prog,alpha\n"
		"cpu-clock,[unknown],[unknown],1,0,50,0,9.0909,0.0000,-9.0909,0.0000,9.0909,0.0000,-9.0909,"
		"0.0000,17.6931,0.0000,0.0000,17.6931,[unknown],[unknown]\n"
		"cpu-clock,prog,beta,1,1,200,200,36.3636,50.0000,13.6364,1.0000,90.9091,100.0000,9.0909,"
		"0.0658,15.2040,0.8000,0.1405,4.5558,prog,beta\n"
		"task-clock,prog,alpha,1,0,7,0,100.0000,0.0000,-100.0000,0.0000,0.0000,0.0000,0.0000,"
		"0.0000,6.6349,1.0000,0.0000,-1.0000,prog,alpha\n");

	/* against itself: no change; ties by dso, function within the event */
	assert_int_equal(new_diff(&d, old.a, old.a), 0);
	expect_diff(d, dir, DIFF_CSV_HEADER
		"cpu-clock,[unknown],[unknown],1,1,50,50,9.0909,9.0909,0.0000,1.0000,9.0909,9.0909,0.0000,"
		"0.0658,15.2040,1.0000,0.0658,15.2040,[unknown],[unknown]\n"
		"cpu-clock,prog,alpha,3,3,300,300,54.5455,54.5455,0.0000,1.0000,54.5455,54.5455,0.0000,"
		"0.1597,6.2636,1.0000,0.1597,6.2636,prog,alpha\n"
		"cpu-clock,prog,beta,1,1,200,200,36.3636,36.3636,0.0000,1.0000,90.9091,90.9091,0.0000,"
		"0.0658,15.2040,1.0000,0.1952,5.1222,prog,beta\n"
		"task-clock,prog,alpha,1,1,7,7,100.0000,100.0000,0.0000,1.0000,100.0000,100.0000,0.0000,"
		"0.0658,15.2040,1.0000,0.0658,15.2040,prog,alpha\n");

	/* clone suffixes (GCC, LLVM, the demangler's), and names that only look like one */
	assert_int_equal(diff__clone_base_len("hot.constprop.0"), 3);
	assert_int_equal(diff__clone_base_len("f.isra.12.cold"), 1);
	assert_int_equal(diff__clone_base_len("g.part.0.lto_priv.3"), 1);
	assert_int_equal(diff__clone_base_len("h.llvm.1234567"), 1);
	assert_int_equal(diff__clone_base_len("k(int) [clone .constprop.0]"), 6);
	assert_int_equal(diff__clone_base_len("v1.2"), 4);
	assert_int_equal(diff__clone_base_len(".constprop.0"), 12);
	assert_int_equal(diff__clone_base_len("cold"), 4);
	replay_close(&new);
	replay_close(&old);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reports),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_folded),
		cmocka_unit_test(test_consumer),
		cmocka_unit_test(test_diff),
	};

	return cmocka_run_group_tests(tests, prog_setup, prog_teardown);
}

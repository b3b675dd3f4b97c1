/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gen-perf: writes synthetic perf.data files that `perf record` cannot make
 * here, to test the reader independently of it: every kernel and user record
 * type, every PERF_SAMPLE_* field and read_format, several attrs matched by
 * IDENTIFIER and by ID, both byte orders, file and pipe mode, attr sizes 64,
 * 96, 128 and 136, zstd COMPRESSED/COMPRESSED2 chunks with a record split
 * across two chunks, and corrupt variants.  OUTDIR/MANIFEST says what each
 * file must give (line formats above manifest_good()).
 *
 *   gen-perf OUTDIR
 *   gen-perf --mutate SEED N IN OUTDIR     N deterministic mutations of IN
 *   gen-perf --procs OUT N (and others)    one large or hostile file for tests/cli
 *                                          (above big_command())
 *
 * It writes through tests/lib/perfemit (either byte order) and does not use
 * the reader or the writer.  A big-endian file is what a big-endian machine's perf would
 * write: every field in big-endian order at its struct offset, and the attr
 * (and branch entry) bitfield words in big-endian bit order, which is the
 * little-endian word with the bits of each byte reversed (the inverse of
 * swap_bitfield() in tools/perf/util/session.c).  Layouts follow
 * include/uapi/linux/perf_event.h, tools/lib/perf/include/perf/event.h and
 * tools/perf/util/header.c (Linux 6.1; COMPRESSED2 as newer perf writes it: header, u64 data_size, data, padded to 8).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <linux/perf_event.h>
#include <zstd.h>

#include "perffile/record.h"	/* the user record type numbers only */
#include "tests/lib/perfemit.h"

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("gen-perf: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

/* ------------------------------------------------------------ model */

#define MAX_ATTRS	40
#define NR_TYPES	128
#define MISC_BUILD_ID_SIZE	(1 << 15)

struct gattr {
	struct perf_event_attr attr;	/* host values */
	uint64_t ids[4];
	int nr_ids;
	char name[32];
	unsigned long samples;
};

struct gen {
	int be, pipe;
	uint32_t attr_size;		/* on-disk perf_event_attr size */
	struct gattr attrs[MAX_ATTRS];
	int nr_attrs;
	struct perfemit data;		/* the records (pipe: everything after the header) */
	struct perfemit stage;		/* records to be compressed */
	int staging;
	unsigned long counts[NR_TYPES];
	uint64_t serial;		/* drives sample values */
	int compressed_feat;
	uint64_t first_time, last_time;
	size_t rec_start;		/* in cur(): where the open record began */
};

static struct perfemit *cur(struct gen *g)
{
	return g->staging ? &g->stage : &g->data;
}

static struct gattr *add_attr(struct gen *g, const char *name, uint32_t type, uint64_t config,
			      uint64_t sample_type, uint64_t read_format, int nr_ids, uint64_t id0)
{
	struct gattr *a;
	int i;

	if (g->nr_attrs >= MAX_ATTRS)
		die("too many attrs");
	a = &g->attrs[g->nr_attrs++];
	memset(a, 0, sizeof(*a));
	a->attr.type = type;
	a->attr.config = config;
	a->attr.sample_period = 4000;
	a->attr.sample_type = sample_type;
	a->attr.read_format = read_format;
	a->attr.sample_id_all = 1;
	a->attr.disabled = 1;
	a->attr.inherit = 1;
	a->attr.exclude_kernel = (g->nr_attrs & 1);
	a->attr.mmap = a->attr.comm = (g->nr_attrs == 1);
	a->attr.freq = 0;
	a->nr_ids = nr_ids;
	for (i = 0; i < nr_ids; i++)
		a->ids[i] = id0 + (uint64_t)i;
	snprintf(a->name, sizeof(a->name), "%s", name);
	return a;
}

static size_t rec_begin(struct gen *g, uint32_t type, uint16_t misc)
{
	g->rec_start = perfemit__rec_begin(cur(g), type, misc);
	return g->rec_start;
}

/* pad the open record to a multiple of 8 bytes (records may start unaligned) */
static void rec_pad(struct gen *g)
{
	perfemit__pad(cur(g), g->rec_start, 8);
}

/* close a record: pad to 8 unless unpadded, set header.size, count it */
static size_t rec_end_pad(struct gen *g, size_t start, int pad)
{
	uint32_t type;

	perfemit__rec_end(cur(g), start, pad);
	type = perfemit__rec_type(cur(g), start);
	if (type < NR_TYPES)
		g->counts[type]++;
	return start;
}

static size_t rec_end(struct gen *g, size_t start)
{
	return rec_end_pad(g, start, 1);
}

static void note_time(struct gen *g, uint64_t t)
{
	if (!g->first_time || t < g->first_time)
		g->first_time = t;
	if (t > g->last_time)
		g->last_time = t;
}

/* the sample_id_all trailer of attr a */
static void o_trailer(struct gen *g, const struct gattr *a, uint32_t pid, uint32_t tid, uint64_t time)
{
	const struct perfemit_sample_id sid = {
		.pid = pid, .tid = tid, .time = time, .id = a->ids[0], .stream_id = a->ids[0] + 0x1000, .cpu = 1,
	};

	if (a->attr.sample_id_all)
		perfemit__sample_id(cur(g), a->attr.sample_type, &sid);
}

static size_t krec_end(struct gen *g, size_t start, int ai, uint32_t pid, uint32_t tid, uint64_t time)
{
	rec_pad(g);
	o_trailer(g, &g->attrs[ai], pid, tid, time);
	return rec_end(g, start);
}

/* the read_format values (sample READ and PERF_RECORD_READ) */
static void o_read_values(struct perfemit *o, const struct gattr *a, uint64_t n)
{
	uint64_t rf = a->attr.read_format;
	uint64_t i, nr = 2;

	if (rf & PERF_FORMAT_GROUP) {
		perfemit__u64(o, nr);
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			perfemit__u64(o, 5000 + n);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			perfemit__u64(o, 4000 + n);
		for (i = 0; i < nr; i++) {
			perfemit__u64(o, 100 * (i + 1) + n);
			if (rf & PERF_FORMAT_ID)
				perfemit__u64(o, a->ids[0] + 0x500 + i);
			if (rf & PERF_FORMAT_LOST)
				perfemit__u64(o, i);
		}
	} else {
		perfemit__u64(o, 100 + n);
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			perfemit__u64(o, 5000 + n);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			perfemit__u64(o, 4000 + n);
		if (rf & PERF_FORMAT_ID)
			perfemit__u64(o, a->ids[0]);
		if (rf & PERF_FORMAT_LOST)
			perfemit__u64(o, 3);
	}
}

struct sample_opts {
	uint64_t ip;
	uint64_t id;		/* 0: the attr's first id */
	uint64_t callchain_nr;	/* 0: the usual 4 */
};

/* one PERF_RECORD_SAMPLE of attr ai, every field of its sample_type, in evsel__parse_sample() order */
static size_t emit_sample(struct gen *g, int ai, uint32_t pid, uint32_t tid, uint64_t time,
			  const struct sample_opts *so)
{
	struct gattr *a = &g->attrs[ai];
	uint64_t st = a->attr.sample_type;
	uint64_t n = g->serial++;
	uint64_t id = so && so->id ? so->id : a->ids[a->nr_ids ? n % (uint64_t)a->nr_ids : 0];
	uint64_t ip = so && so->ip ? so->ip : 0x401000 + 16 * (n % 64);
	size_t start = rec_begin(g, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	struct perfemit *o = cur(g);
	uint64_t i;

	if (st & PERF_SAMPLE_IDENTIFIER)
		perfemit__u64(o, id);
	if (st & PERF_SAMPLE_IP)
		perfemit__u64(o, ip);
	if (st & PERF_SAMPLE_TID) {
		perfemit__u32(o, pid);
		perfemit__u32(o, tid);
	}
	if (st & PERF_SAMPLE_TIME)
		perfemit__u64(o, time);
	if (st & PERF_SAMPLE_ADDR)
		perfemit__u64(o, 0x7f0000001000ULL + n * 8);
	if (st & PERF_SAMPLE_ID)
		perfemit__u64(o, id);
	if (st & PERF_SAMPLE_STREAM_ID)
		perfemit__u64(o, id + 0x1000);
	if (st & PERF_SAMPLE_CPU) {
		perfemit__u32(o, (uint32_t)(n % 2));
		perfemit__u32(o, 0);
	}
	if (st & PERF_SAMPLE_PERIOD)
		perfemit__u64(o, 4000 + n % 7);
	if (st & PERF_SAMPLE_READ)
		o_read_values(o, a, n);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		uint64_t nr = so && so->callchain_nr ? so->callchain_nr : 4;

		perfemit__u64(o, nr);
		if (so && so->callchain_nr) {
			perfemit__u64(o, ip);	/* the record ends here: nr does not fit */
		} else {
			perfemit__u64(o, PERF_CONTEXT_USER);
			perfemit__u64(o, ip);
			perfemit__u64(o, 0x402000 + 16 * (n % 5));
			perfemit__u64(o, 0x403000);
		}
	}
	if (st & PERF_SAMPLE_RAW) {
		static const uint8_t raw[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };

		perfemit__u32(o, sizeof(raw));
		perfemit__bytes(o, raw, sizeof(raw));
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		perfemit__u64(o, 2);
		if (a->attr.branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			perfemit__u64(o, 7);
		for (i = 0; i < 2; i++) {
			perfemit__u64(o, 0x401100 + i * 0x10);
			perfemit__u64(o, 0x401200 + i * 0x10);
			/* mispred for the first; predicted, cycles 5 and type 3 for the second */
			perfemit__bitfield(o, i ? 2 | (5 << 4) | (3ULL << 20) : 1, perfemit_branch_flag_widths);
		}
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		perfemit__u64(o, PERF_SAMPLE_REGS_ABI_64);
		for (i = 0; i < (uint64_t)__builtin_popcountll(a->attr.sample_regs_user); i++)
			perfemit__u64(o, 0x1000 + i);
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		perfemit__u64(o, a->attr.sample_stack_user);
		for (i = 0; i < a->attr.sample_stack_user; i++)
			perfemit__u8(o, i);
		if (a->attr.sample_stack_user)
			perfemit__u64(o, 8);
	}
	if (st & PERF_SAMPLE_WEIGHT)
		perfemit__u64(o, 30 + n);
	if (st & PERF_SAMPLE_WEIGHT_STRUCT)	/* var1_dw 30+n, var2_w 2, var3_w 3, as one u64 */
		perfemit__u64(o, (30 + n) | (2ULL << 32) | (3ULL << 48));
	if (st & PERF_SAMPLE_DATA_SRC)
		perfemit__u64(o, 0x68100142ULL);
	if (st & PERF_SAMPLE_TRANSACTION)
		perfemit__u64(o, 0x1);
	if (st & PERF_SAMPLE_REGS_INTR) {
		perfemit__u64(o, PERF_SAMPLE_REGS_ABI_64);
		for (i = 0; i < (uint64_t)__builtin_popcountll(a->attr.sample_regs_intr); i++)
			perfemit__u64(o, 0x2000 + i);
	}
	if (st & PERF_SAMPLE_PHYS_ADDR)
		perfemit__u64(o, 0x12345000);
	if (st & PERF_SAMPLE_CGROUP)
		perfemit__u64(o, 77);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		perfemit__u64(o, 4096);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		perfemit__u64(o, 4096);
	if (st & PERF_SAMPLE_AUX) {
		perfemit__u64(o, 16);
		for (i = 0; i < 16; i++)
			perfemit__u8(o, 0xc0 + i);
	}
	a->samples++;
	note_time(g, time);
	return rec_end(g, start);
}

/* ------------------------------------------------------------ kernel records */

static size_t emit_comm(struct gen *g, int ai, uint32_t pid, uint32_t tid, const char *comm,
			int exec, uint64_t time)
{
	size_t s = rec_begin(g, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0);

	perfemit__u32(cur(g), pid);
	perfemit__u32(cur(g), tid);
	perfemit__str(cur(g), comm, 8);
	return krec_end(g, s, ai, pid, tid, time);
}

static size_t emit_mmap2(struct gen *g, int ai, uint32_t pid, uint64_t start, const char *file,
			 int build_id, uint64_t time)
{
	size_t s = rec_begin(g, PERF_RECORD_MMAP2,
			     PERF_RECORD_MISC_USER | (build_id ? PERF_RECORD_MISC_MMAP_BUILD_ID : 0));
	struct perfemit *o = cur(g);
	int i;

	perfemit__u32(o, pid);
	perfemit__u32(o, pid);
	perfemit__u64(o, start);
	perfemit__u64(o, 0x3000);
	perfemit__u64(o, 0x1000);
	if (build_id) {
		perfemit__u8(o, 20);
		perfemit__u8(o, 0);
		perfemit__u16(o, 0);
		for (i = 0; i < 20; i++)
			perfemit__u8(o, 0xb0 + i);
	} else {
		perfemit__u32(o, 8);
		perfemit__u32(o, 1);
		perfemit__u64(o, 123456);
		perfemit__u64(o, 1);
	}
	perfemit__u32(o, 5);		/* PROT_READ | PROT_EXEC */
	perfemit__u32(o, 2);		/* MAP_PRIVATE */
	perfemit__str(o, file, 8);
	return krec_end(g, s, ai, pid, pid, time);
}

/* one of every kernel record type (but SAMPLE), each with its trailer */
static void emit_kernel_records(struct gen *g, int ai, uint32_t pid, uint64_t t)
{
	struct perfemit *o;
	size_t s;
	int i;

	s = rec_begin(g, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER);
	o = cur(g);
	perfemit__u32(o, pid); perfemit__u32(o, pid);
	perfemit__u64(o, 0x7f0000000000ULL); perfemit__u64(o, 0x20000); perfemit__u64(o, 0);
	perfemit__str(o, "/usr/lib/libgen.so", 8);
	krec_end(g, s, ai, pid, pid, t + 1);

	s = rec_begin(g, PERF_RECORD_LOST, 0);
	perfemit__u64(cur(g), g->attrs[ai].ids[0]); perfemit__u64(cur(g), 17);
	krec_end(g, s, ai, pid, pid, t + 2);

	emit_comm(g, ai, pid + 1, pid + 1, "child", 0, t + 3);

	s = rec_begin(g, PERF_RECORD_FORK, 0);
	o = cur(g);
	perfemit__u32(o, pid + 1); perfemit__u32(o, pid); perfemit__u32(o, pid + 1); perfemit__u32(o, pid); perfemit__u64(o, t + 4);
	krec_end(g, s, ai, pid + 1, pid + 1, t + 4);

	s = rec_begin(g, PERF_RECORD_THROTTLE, 0);
	o = cur(g);
	perfemit__u64(o, t + 5); perfemit__u64(o, g->attrs[ai].ids[0]); perfemit__u64(o, g->attrs[ai].ids[0] + 0x1000);
	krec_end(g, s, ai, pid, pid, t + 5);

	s = rec_begin(g, PERF_RECORD_UNTHROTTLE, 0);
	o = cur(g);
	perfemit__u64(o, t + 6); perfemit__u64(o, g->attrs[ai].ids[0]); perfemit__u64(o, g->attrs[ai].ids[0] + 0x1000);
	krec_end(g, s, ai, pid, pid, t + 6);

	s = rec_begin(g, PERF_RECORD_READ, 0);
	perfemit__u32(cur(g), pid); perfemit__u32(cur(g), pid);
	o_read_values(cur(g), &g->attrs[ai], 1);
	krec_end(g, s, ai, pid, pid, t + 7);

	emit_mmap2(g, ai, pid, 0x400000, "/usr/bin/gen-inode", 0, t + 8);
	emit_mmap2(g, ai, pid, 0x500000, "/usr/bin/gen-buildid", 1, t + 9);

	s = rec_begin(g, PERF_RECORD_AUX, 0);
	o = cur(g);
	perfemit__u64(o, 0x1000); perfemit__u64(o, 0x800); perfemit__u64(o, PERF_AUX_FLAG_TRUNCATED);
	krec_end(g, s, ai, pid, pid, t + 10);

	s = rec_begin(g, PERF_RECORD_ITRACE_START, 0);
	perfemit__u32(cur(g), pid); perfemit__u32(cur(g), pid);
	krec_end(g, s, ai, pid, pid, t + 11);

	s = rec_begin(g, PERF_RECORD_LOST_SAMPLES, 0);
	perfemit__u64(cur(g), 4);
	krec_end(g, s, ai, pid, pid, t + 12);

	s = rec_begin(g, PERF_RECORD_SWITCH, PERF_RECORD_MISC_SWITCH_OUT | PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
	krec_end(g, s, ai, pid, pid, t + 13);

	s = rec_begin(g, PERF_RECORD_SWITCH_CPU_WIDE, 0);
	perfemit__u32(cur(g), pid + 1); perfemit__u32(cur(g), pid + 1);
	krec_end(g, s, ai, pid, pid, t + 14);

	s = rec_begin(g, PERF_RECORD_NAMESPACES, 0);
	o = cur(g);
	perfemit__u32(o, pid); perfemit__u32(o, pid); perfemit__u64(o, 7);
	for (i = 0; i < 7; i++) {
		perfemit__u64(o, 4);
		perfemit__u64(o, 0xf0000000ULL + (uint64_t)i);
	}
	krec_end(g, s, ai, pid, pid, t + 15);

	s = rec_begin(g, PERF_RECORD_KSYMBOL, 0);
	o = cur(g);
	perfemit__u64(o, 0xffffffffc0001000ULL); perfemit__u32(o, 0x100);
	perfemit__u16(o, PERF_RECORD_KSYMBOL_TYPE_BPF); perfemit__u16(o, 0);
	perfemit__str(o, "bpf_prog_0123456789abcdef_gen", 8);
	krec_end(g, s, ai, pid, pid, t + 16);

	s = rec_begin(g, PERF_RECORD_BPF_EVENT, 0);
	o = cur(g);
	perfemit__u16(o, PERF_BPF_EVENT_PROG_LOAD); perfemit__u16(o, 0); perfemit__u32(o, 42);
	for (i = 0; i < 8; i++)
		perfemit__u8(o, 0x10 + i);
	krec_end(g, s, ai, pid, pid, t + 17);

	s = rec_begin(g, PERF_RECORD_CGROUP, 0);
	perfemit__u64(cur(g), 77);
	perfemit__str(cur(g), "/system.slice/gen.service", 8);
	krec_end(g, s, ai, pid, pid, t + 18);

	s = rec_begin(g, PERF_RECORD_TEXT_POKE, PERF_RECORD_MISC_KERNEL);
	o = cur(g);
	perfemit__u64(o, 0xffffffff81000000ULL); perfemit__u16(o, 5); perfemit__u16(o, 5);
	for (i = 0; i < 10; i++)
		perfemit__u8(o, i < 5 ? 0x90 : 0xe8);
	krec_end(g, s, ai, pid, pid, t + 19);

	s = rec_begin(g, PERF_RECORD_AUX_OUTPUT_HW_ID, 0);
	perfemit__u64(cur(g), 3);
	krec_end(g, s, ai, pid, pid, t + 20);

	s = rec_begin(g, PERF_RECORD_EXIT, 0);
	o = cur(g);
	perfemit__u32(o, pid + 1); perfemit__u32(o, pid); perfemit__u32(o, pid + 1); perfemit__u32(o, pid); perfemit__u64(o, t + 21);
	krec_end(g, s, ai, pid + 1, pid + 1, t + 21);
}

/* ------------------------------------------------------------ user records */

static void emit_finished_round(struct gen *g)
{
	rec_end(g, rec_begin(g, PERF_RECORD_FINISHED_ROUND, 0));
}

static void emit_build_id_rec(struct perfemit *o, uint16_t misc, int32_t pid, uint8_t seed, const char *file)
{
	uint8_t id[20];
	int i;

	for (i = 0; i < 20; i++)
		id[i] = (uint8_t)(seed + i);
	perfemit__build_id(o, misc | MISC_BUILD_ID_SIZE, pid, id, sizeof(id), file,
			   (strlen(file) + 1 + 63) / 64 * 64, 0);
}

/* a record of constant fields (perfemit__spec()) */
static void spec_rec(struct gen *g, uint32_t type, const char *spec)
{
	size_t s = rec_begin(g, type, 0);

	if (perfemit__spec(cur(g), spec))
		die("bad spec %s", spec);
	rec_end(g, s);
}

/* every user record type that may stand in the data (not ATTR/FEATURE/COMPRESSED) */
static void emit_user_records(struct gen *g, int ai, uint64_t t)
{
	struct perfemit *o;
	size_t s;
	int i;

	s = rec_begin(g, PERF_RECORD_HEADER_EVENT_TYPE, 0);
	perfemit__u64(cur(g), g->attrs[ai].ids[0]);
	o = cur(g);
	{
		char name[64] = "gen:event_type";

		perfemit__bytes(o, name, sizeof(name));
	}
	rec_end(g, s);

	/* HEADER_TRACING_DATA: 12-byte record, then size bytes (8-aligned) of payload */
	s = rec_begin(g, PERF_RECORD_HEADER_TRACING_DATA, 0);
	o = cur(g);
	perfemit__u32(o, 24);
	rec_end_pad(g, s, 0);
	perfemit__bytes(o, "\x17\x08\x44tracing0.5\0\0\0\0\0\0\0\0\0\0", 24);

	s = o->len;
	emit_build_id_rec(o, PERF_RECORD_MISC_USER, 1000, 0x40, "/usr/bin/gen-pipe-bid");
	{
		uint32_t type = PERF_RECORD_HEADER_BUILD_ID;

		(void)s;
		g->counts[type]++;
	}

	s = rec_begin(g, PERF_RECORD_ID_INDEX, 0);
	o = cur(g);
	perfemit__u64(o, (uint64_t)g->attrs[ai].nr_ids);
	for (i = 0; i < g->attrs[ai].nr_ids; i++) {
		perfemit__u64(o, g->attrs[ai].ids[i]);
		perfemit__u64(o, (uint64_t)i);
		perfemit__u64(o, (uint64_t)i);
		perfemit__u64(o, (uint64_t)-1);
	}
	rec_end(g, s);

	s = rec_begin(g, PERF_RECORD_AUXTRACE_INFO, 0);
	o = cur(g);
	perfemit__u32(o, 4); perfemit__u32(o, 0); perfemit__u64(o, 0x11); perfemit__u64(o, 0x22);
	rec_end(g, s);

	s = rec_begin(g, PERF_RECORD_AUXTRACE, 0);
	o = cur(g);
	perfemit__u64(o, 32); perfemit__u64(o, 0); perfemit__u64(o, 0xabcdef); perfemit__u32(o, 0); perfemit__u32(o, 1000); perfemit__u32(o, 0); perfemit__u32(o, 0);
	rec_end(g, s);
	for (i = 0; i < 32; i++)
		perfemit__u8(o, 0x55);

	s = rec_begin(g, PERF_RECORD_AUXTRACE_ERROR, 0);
	o = cur(g);
	perfemit__u32(o, 1); perfemit__u32(o, 2); perfemit__u32(o, 0); perfemit__u32(o, 1000); perfemit__u32(o, 1000); perfemit__u32(o, 1);
	perfemit__u64(o, 0x401000); perfemit__u64(o, t);
	{
		char msg[64] = "gen auxtrace error";

		perfemit__bytes(o, msg, sizeof(msg));
	}
	perfemit__u32(o, 0); perfemit__u32(o, 0);
	rec_end(g, s);

	s = rec_begin(g, PERF_RECORD_THREAD_MAP, 0);
	o = cur(g);
	perfemit__u64(o, 2);
	for (i = 0; i < 2; i++) {
		char comm[16] = "gen-thread";

		perfemit__u64(o, 1000 + (uint64_t)i);
		perfemit__bytes(o, comm, sizeof(comm));
	}
	rec_end(g, s);

	/* CPU_MAP in its three forms (struct perf_record_cpu_map_data is packed) */
	spec_rec(g, PERF_RECORD_CPU_MAP, "u16:0 u16:3 u16:0 u16:1 u16:3");	/* CPUS: 0 1 3 */
	spec_rec(g, PERF_RECORD_CPU_MAP, "u16:1 u16:1 u16:8 z:4 u64:0xb");	/* MASK */
	spec_rec(g, PERF_RECORD_CPU_MAP, "u16:2 u8:0 u8:0 u16:0 u16:3");	/* RANGE 0-3 */
	spec_rec(g, PERF_RECORD_STAT_CONFIG, "u64:2 u64:0 u64:1 u64:1 u64:1");

	s = rec_begin(g, PERF_RECORD_STAT, 0);
	o = cur(g);
	perfemit__u64(o, g->attrs[ai].ids[0]); perfemit__u32(o, 0); perfemit__u32(o, 0); perfemit__u64(o, 1234); perfemit__u64(o, 2000); perfemit__u64(o, 1000);
	rec_end(g, s);

	s = rec_begin(g, PERF_RECORD_STAT_ROUND, 0);
	perfemit__u64(cur(g), 1); perfemit__u64(cur(g), t);
	rec_end(g, s);

	s = rec_begin(g, PERF_RECORD_EVENT_UPDATE, 0);
	o = cur(g);
	perfemit__u64(o, 0);	/* PERF_EVENT_UPDATE__UNIT */
	perfemit__u64(o, g->attrs[ai].ids[0]);
	perfemit__str(o, "msec", 8);
	rec_end(g, s);

	s = rec_begin(g, PERF_RECORD_TIME_CONV, 0);
	o = cur(g);
	perfemit__u64(o, 10); perfemit__u64(o, 1000); perfemit__u64(o, 5000); perfemit__u64(o, 100); perfemit__u64(o, ~0ULL);
	perfemit__u8(o, 1); perfemit__u8(o, 1); perfemit__zero(o, 6);
	rec_end(g, s);

	rec_end(g, rec_begin(g, PERF_RECORD_FINISHED_INIT, 0));
}

/* ------------------------------------------------------------ compression */

static void stage_begin(struct gen *g)
{
	g->stage.be = g->be;
	g->stage.len = 0;
	g->staging = 1;
}

/*
 * Compress the staged records into two chunks split at a byte that is not a
 * record boundary, so one record spans both (perf keeps the rest of a chunk
 * for the next one: perf_session__process_compressed_event()).
 */
static void stage_flush(struct gen *g, uint32_t type)
{
	size_t split = g->stage.len / 2 + 4, parts[2][2];
	int i;

	g->staging = 0;
	parts[0][0] = 0;
	parts[0][1] = split;
	parts[1][0] = split;
	parts[1][1] = g->stage.len - split;
	for (i = 0; i < 2; i++) {
		size_t bound = ZSTD_compressBound(parts[i][1]);
		void *z = malloc(bound);
		size_t zs, s;

		if (!z)
			die("out of memory");
		zs = ZSTD_compress(z, bound, g->stage.p + parts[i][0], parts[i][1], 3);
		if (ZSTD_isError(zs))
			die("zstd: %s", ZSTD_getErrorName(zs));
		s = rec_begin(g, type, 0);
		if (type == PERF_RECORD_COMPRESSED2) {
			/* struct perf_record_compressed2 { header; u64 data_size; data[] }, padded */
			perfemit__u64(cur(g), zs);
			perfemit__bytes(cur(g), z, zs);
			rec_end_pad(g, s, 1);
		} else {
			/* header + data, unpadded, as perf record -z writes it */
			perfemit__bytes(cur(g), z, zs);
			rec_end_pad(g, s, 0);
		}
		free(z);
	}
}

/* ------------------------------------------------------------ features */

/* encode feature feat into o; returns 0 when the file has no such section */
static int feature_bytes(struct gen *g, unsigned feat, struct perfemit *o)
{
	int i, j;

	switch (feat) {
	case 2:		/* BUILD_ID */
		emit_build_id_rec(o, PERF_RECORD_MISC_USER, -1, 0x20, "/usr/bin/gen-inode");
		emit_build_id_rec(o, PERF_RECORD_MISC_KERNEL, -1, 0x60, "[kernel.kallsyms]");
		return 1;
	case 3: perfemit__feat_string(o, "gen-host"); return 1;
	case 4: perfemit__feat_string(o, "6.1.0-gen"); return 1;
	case 5: perfemit__feat_string(o, "6.1.gen"); return 1;
	case 6: perfemit__feat_string(o, "x86_64"); return 1;
	case 7: perfemit__u32(o, 4); perfemit__u32(o, 2); return 1;	/* avail, online */
	case 8: perfemit__feat_string(o, "Gen CPU @ 2.00GHz"); return 1;
	case 9: perfemit__feat_string(o, "GenuineIntel,6,85,4"); return 1;
	case 10: perfemit__u64(o, 16384000); return 1;
	case 11:
		perfemit__u32(o, 3);
		perfemit__feat_string(o, "/usr/bin/perf");
		perfemit__feat_string(o, "record");
		perfemit__feat_string(o, "-a");
		return 1;
	case 12:	/* EVENT_DESC */
		perfemit__u32(o, (uint32_t)g->nr_attrs);
		perfemit__u32(o, g->attr_size);
		for (i = 0; i < g->nr_attrs; i++) {
			perfemit__attr(o, &g->attrs[i].attr, g->attr_size);
			perfemit__u32(o, (uint32_t)g->attrs[i].nr_ids);
			perfemit__feat_string(o, g->attrs[i].name);
			for (j = 0; j < g->attrs[i].nr_ids; j++)
				perfemit__u64(o, g->attrs[i].ids[j]);
		}
		return 1;
	case 21:	/* SAMPLE_TIME */
		if (!g->last_time)
			return 0;
		perfemit__u64(o, g->first_time);
		perfemit__u64(o, g->last_time);
		return 1;
	case 27:	/* COMPRESSED: ver, type (1 = zstd), level, ratio, mmap_len */
		if (!g->compressed_feat)
			return 0;
		perfemit__u32(o, 1); perfemit__u32(o, 1); perfemit__u32(o, 3); perfemit__u32(o, 4); perfemit__u32(o, 528384);
		return 1;
	}
	return 0;
}

/* the file's attrs and feature sections as perfemit wants them; release with files_release() */
struct files {
	struct perfemit_attr attrs[MAX_ATTRS];
	struct perfemit secs[PERFEMIT_MAX_FEAT];
	struct perfemit_file f;
};

static void files_init(struct gen *g, struct files *fs)
{
	unsigned i;
	int a;

	memset(fs, 0, sizeof(*fs));
	for (a = 0; a < g->nr_attrs; a++) {
		fs->attrs[a].attr = &g->attrs[a].attr;
		fs->attrs[a].ids = g->attrs[a].ids;
		fs->attrs[a].nr_ids = (size_t)g->attrs[a].nr_ids;
	}
	fs->f.attr_size = g->attr_size;
	fs->f.attrs = fs->attrs;
	fs->f.nr_attrs = (size_t)g->nr_attrs;
	fs->f.data = &g->data;
	for (i = 1; i < PERFEMIT_MAX_FEAT; i++) {
		perfemit__init(&fs->secs[i], g->be);
		if (feature_bytes(g, i, &fs->secs[i]))
			fs->f.feat[i] = &fs->secs[i];
	}
}

static void files_release(struct files *fs)
{
	unsigned i;

	for (i = 1; i < PERFEMIT_MAX_FEAT; i++)
		perfemit__release(&fs->secs[i]);
}

/* PERFILE2 file: header, attrs, ids, data, feature table, sections */
static void build_file(struct gen *g, struct perfemit *f, struct perfemit_layout *lay)
{
	struct files fs;

	files_init(g, &fs);
	perfemit__init(f, g->be);
	perfemit__file(f, &fs.f, lay);
	files_release(&fs);
}

/* pipe mode: 16-byte header, HEADER_ATTR and HEADER_FEATURE records, then the data */
static void build_pipe(struct gen *g, struct perfemit *f)
{
	struct files fs;

	files_init(g, &fs);
	perfemit__init(f, g->be);
	g->counts[PERF_RECORD_HEADER_FEATURE] += perfemit__pipe(f, &fs.f);
	g->counts[PERF_RECORD_HEADER_ATTR] += (unsigned long)g->nr_attrs;
	files_release(&fs);
}

/* ------------------------------------------------------------ files and manifest */

struct gen_out {
	const char *dir;
	FILE *manifest;
};

static const char *type_name(unsigned t)
{
	static const char *const names[] = {
		[PERF_RECORD_MMAP] = "MMAP", [PERF_RECORD_LOST] = "LOST", [PERF_RECORD_COMM] = "COMM",
		[PERF_RECORD_EXIT] = "EXIT", [PERF_RECORD_THROTTLE] = "THROTTLE",
		[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE", [PERF_RECORD_FORK] = "FORK",
		[PERF_RECORD_READ] = "READ", [PERF_RECORD_SAMPLE] = "SAMPLE", [PERF_RECORD_MMAP2] = "MMAP2",
		[PERF_RECORD_AUX] = "AUX", [PERF_RECORD_ITRACE_START] = "ITRACE_START",
		[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES", [PERF_RECORD_SWITCH] = "SWITCH",
		[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE", [PERF_RECORD_NAMESPACES] = "NAMESPACES",
		[PERF_RECORD_KSYMBOL] = "KSYMBOL", [PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
		[PERF_RECORD_CGROUP] = "CGROUP", [PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
		[PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
		[64] = "ATTR", [65] = "EVENT_TYPE", [66] = "TRACING_DATA", [67] = "BUILD_ID",
		[68] = "FINISHED_ROUND", [69] = "ID_INDEX", [70] = "AUXTRACE_INFO", [71] = "AUXTRACE",
		[72] = "AUXTRACE_ERROR", [73] = "THREAD_MAP", [74] = "CPU_MAP", [75] = "STAT_CONFIG",
		[76] = "STAT", [77] = "STAT_ROUND", [78] = "EVENT_UPDATE", [79] = "TIME_CONV",
		[80] = "FEATURE", [81] = "COMPRESSED", [82] = "FINISHED_INIT", [83] = "COMPRESSED2",
	};

	return t < sizeof(names) / sizeof(names[0]) && names[t] ? names[t] : NULL;
}

/* path "-" is stdout */
static FILE *open_out(const char *path)
{
	FILE *fp = strcmp(path, "-") ? fopen(path, "wb") : stdout;

	if (!fp)
		die("%s: %s", path, strerror(errno));
	return fp;
}

static void write_out(FILE *fp, const char *path, const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, fp) != n)
		die("%s: %s", path, strerror(errno));
}

static void close_out(FILE *fp, const char *path)
{
	if (fclose(fp))
		die("%s: %s", path, strerror(errno));
}

static void write_path(const char *path, const void *p, size_t n)
{
	FILE *fp = open_out(path);

	write_out(fp, path, p, n);
	close_out(fp, path);
}

static void write_bytes(const struct gen_out *go, const char *name, const void *p, size_t n)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", go->dir, name);
	write_path(path, p, n);
}

/*
 * MANIFEST lines:
 *   file NAME EXIT                 expected exit code of `readperf -q -o DIR NAME`
 *   count NAME TYPE N              stat.csv count of TYPE (every type present is listed)
 *   samples NAME EVENT N           events.csv samples of EVENT
 *   fault NAME OFFSET...           corrupt: stderr names one of these offsets ("offset 0x...")
 *   same NAME OTHER                NAME must give the same reports as OTHER
 */
static void manifest_good(const struct gen_out *go, const char *name, const struct gen *g)
{
	unsigned t;
	int a;

	fprintf(go->manifest, "file %s 0\n", name);
	for (t = 0; t < NR_TYPES; t++)
		if (g->counts[t])
			fprintf(go->manifest, "count %s %s %lu\n", name, type_name(t), g->counts[t]);
	for (a = 0; a < g->nr_attrs; a++)
		fprintf(go->manifest, "samples %s %s %lu\n", name, g->attrs[a].name, g->attrs[a].samples);
}

typedef void (*build_fn)(struct gen *g);

static void gen_init(struct gen *g, int be, int pipe, uint32_t attr_size)
{
	memset(g, 0, sizeof(*g));
	g->be = be;
	g->pipe = pipe;
	g->attr_size = attr_size;
	g->data.be = be;
	g->stage.be = be;
}

static void gen_free(struct gen *g)
{
	perfemit__release(&g->data);
	perfemit__release(&g->stage);
}

/* build the file in both byte orders and list them */
static void make_pair(const struct gen_out *go, const char *base, build_fn fn, int pipe, uint32_t attr_size)
{
	char le_name[256], be_name[256];
	int be;

	snprintf(le_name, sizeof(le_name), "%s-le.data", base);
	snprintf(be_name, sizeof(be_name), "%s-be.data", base);
	for (be = 0; be <= 1; be++) {
		struct gen g;
		struct perfemit f;
		struct perfemit_layout lay;

		gen_init(&g, be, pipe, attr_size);
		fn(&g);
		if (pipe)
			build_pipe(&g, &f);
		else
			build_file(&g, &f, &lay);
		write_bytes(go, be ? be_name : le_name, f.p, f.len);
		manifest_good(go, be ? be_name : le_name, &g);
		perfemit__release(&f);
		gen_free(&g);
	}
	fprintf(go->manifest, "same %s %s\n", be_name, le_name);
}

/* ------------------------------------------------------------ the files */

#define ST_BASE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)

/* every kernel record type, two attrs matched by IDENTIFIER */
static void build_kernel(struct gen *g)
{
	int i;

	add_attr(g, "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, ST_BASE | PERF_SAMPLE_CPU, 0, 2, 10);
	add_attr(g, "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
		 ST_BASE | PERF_SAMPLE_CPU, 0, 2, 20);
	emit_comm(g, 0, 1000, 1000, "gen", 1, 1000000);
	emit_kernel_records(g, 0, 1000, 1000010);
	emit_kernel_records(g, 1, 1000, 1000100);
	for (i = 0; i < 12; i++)
		emit_sample(g, i % 3 ? 0 : 1, 1000, 1000, 1000200 + (uint64_t)i * 10, NULL);
	emit_finished_round(g);
}

/* every PERF_SAMPLE_* field; three attrs with different sample_type, matched by IDENTIFIER */
static void build_samples(struct gen *g)
{
	const uint64_t all = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
		PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |
		PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |
		PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR |
		PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE |
		PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_AUX;
	struct gattr *a;
	int i;

	a = add_attr(g, "all-weight", PERF_TYPE_RAW, 0x1cd, all | PERF_SAMPLE_WEIGHT,
		     PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED, 1, 100);
	a->attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	a->attr.sample_regs_user = 0xff0fULL;
	a->attr.sample_stack_user = 24;
	a->attr.sample_regs_intr = 0x3ULL;
	a->attr.aux_sample_size = 16;
	a->attr.precise_ip = 3;		/* the 2-bit field: 3 reads the same in either bit order */
	a->attr.mmap2 = 1;
	a->attr.use_clockid = 1;
	a->attr.clockid = 1;		/* CLOCK_MONOTONIC */
	a = add_attr(g, "all-weight-struct", PERF_TYPE_RAW, 0x1ce, all | PERF_SAMPLE_WEIGHT_STRUCT,
		     PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST, 1, 200);
	a->attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX;
	a->attr.sample_regs_user = 0x7ULL;
	a->attr.sample_stack_user = 0;
	a->attr.sample_regs_intr = 0x1ULL << 40;
	a->attr.aux_sample_size = 16;
	add_attr(g, "minimal", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_BASE, 0, 1, 300);
	emit_comm(g, 2, 2000, 2000, "samples", 1, 2000000);
	emit_mmap2(g, 2, 2000, 0x400000, "/usr/bin/gen-samples", 0, 2000001);
	for (i = 0; i < 9; i++)
		emit_sample(g, i % 3, 2000, 2000 + (uint32_t)(i % 2), 2000010 + (uint64_t)i, NULL);
}

/* every read_format combination: 32 attrs, a sample and a READ record each */
static void build_readfmt(struct gen *g)
{
	int i;

	for (i = 0; i < 32; i++) {
		char name[32];

		snprintf(name, sizeof(name), "rf%d", i);
		add_attr(g, name, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK,
			 PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_READ,
			 (uint64_t)i, 1, 1000 + (uint64_t)i);
	}
	emit_comm(g, 0, 3000, 3000, "readfmt", 0, 3000000);
	for (i = 0; i < 32; i++) {
		size_t s = rec_begin(g, PERF_RECORD_READ, 0);

		perfemit__u32(cur(g), 3000);
		perfemit__u32(cur(g), 3000);
		o_read_values(cur(g), &g->attrs[i], (uint64_t)i);
		krec_end(g, s, i, 3000, 3000, 3000010 + (uint64_t)i);
		emit_sample(g, i, 3000, 3000, 3000100 + (uint64_t)i, NULL);
	}
}

/* attrs told apart by PERF_SAMPLE_ID at a common position, two ids each */
static void build_byid(struct gen *g)
{
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_PERIOD;
	int i;

	add_attr(g, "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, st, 0, 2, 500);
	add_attr(g, "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, st | PERF_SAMPLE_CALLCHAIN, 0, 2, 600);
	add_attr(g, "raw-event", PERF_TYPE_RAW, 0x3c, st | PERF_SAMPLE_RAW, 0, 2, 700);
	emit_comm(g, 0, 4000, 4000, "byid", 1, 4000000);
	emit_mmap2(g, 1, 4000, 0x400000, "/usr/bin/gen-byid", 0, 4000001);
	for (i = 0; i < 14; i++) {
		emit_sample(g, i % 3, 4000, 4000, 4000010 + (uint64_t)i, NULL);
		if (i % 5 == 4)
			emit_finished_round(g);
	}
}

/* pipe mode with every user record type */
static void build_pipefile(struct gen *g)
{
	int i;

	add_attr(g, "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, ST_BASE, 0, 2, 800);
	add_attr(g, "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, ST_BASE, 0, 1, 900);
	emit_user_records(g, 0, 5000000);
	emit_comm(g, 0, 5000, 5000, "piped", 1, 5000001);
	emit_kernel_records(g, 1, 5000, 5000010);
	for (i = 0; i < 10; i++)
		emit_sample(g, i % 4 == 3, 5000, 5000, 5000100 + (uint64_t)i, NULL);
	emit_finished_round(g);
}

/* user records in a PERFILE2 data section too */
static void build_userfile(struct gen *g)
{
	int i;

	add_attr(g, "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, ST_BASE, 0, 1, 810);
	emit_user_records(g, 0, 5500000);
	emit_comm(g, 0, 5500, 5500, "user", 1, 5500001);
	for (i = 0; i < 5; i++)
		emit_sample(g, 0, 5500, 5500, 5500100 + (uint64_t)i, NULL);
	emit_finished_round(g);
}

static void build_compressed_type(struct gen *g, uint32_t type)
{
	int i;

	g->compressed_feat = 1;
	add_attr(g, "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, ST_BASE | PERF_SAMPLE_CALLCHAIN, 0, 1, 1100);
	emit_comm(g, 0, 6000, 6000, "zstd", 1, 6000000);	/* outside: before the chunks */
	stage_begin(g);
	emit_mmap2(g, 0, 6000, 0x400000, "/usr/bin/gen-zstd", 0, 6000001);
	for (i = 0; i < 40; i++)
		emit_sample(g, 0, 6000, 6000, 6000010 + (uint64_t)i, NULL);
	emit_finished_round(g);
	stage_flush(g, type);
	stage_begin(g);
	for (i = 0; i < 20; i++)
		emit_sample(g, 0, 6000, 6001, 6000100 + (uint64_t)i, NULL);
	stage_flush(g, type);
	emit_finished_round(g);
}

static void build_compressed(struct gen *g)
{
	build_compressed_type(g, PERF_RECORD_COMPRESSED);
}

static void build_compressed2(struct gen *g)
{
	build_compressed_type(g, PERF_RECORD_COMPRESSED2);
}

static void build_attrsize(struct gen *g)
{
	int i;

	add_attr(g, "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, ST_BASE, 0, 1, 1200);
	add_attr(g, "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, ST_BASE, 0, 1, 1300);
	emit_comm(g, 0, 7000, 7000, "attrsize", 1, 7000000);
	emit_mmap2(g, 0, 7000, 0x400000, "/usr/bin/gen-attrsize", 0, 7000001);
	for (i = 0; i < 6; i++)
		emit_sample(g, i % 2, 7000, 7000, 7000010 + (uint64_t)i, NULL);
}

/* ------------------------------------------------------------ corrupt files */

enum corrupt {
	C_SIZE0, C_SMALL, C_PAST_END, C_SECTION, C_FEAT_NR, C_CALLCHAIN, C_SAMPLE_ID, C_TRUNCATED,
};

static void make_corrupt(const struct gen_out *go, const char *name, enum corrupt kind, int be)
{
	struct gen g;
	struct perfemit f;
	struct perfemit_layout lay;
	size_t victim = 0, len;
	uint64_t voff;
	int i;

	gen_init(&g, be, 0, sizeof(struct perf_event_attr));
	add_attr(&g, "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, ST_BASE | PERF_SAMPLE_CALLCHAIN, 0, 1, 1400);
	add_attr(&g, "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
		 ST_BASE | PERF_SAMPLE_CALLCHAIN, 0, 1, 1500);
	emit_comm(&g, 0, 8000, 8000, "corrupt", 1, 8000000);
	emit_mmap2(&g, 0, 8000, 0x400000, "/usr/bin/gen-corrupt", 0, 8000001);
	for (i = 0; i < 8; i++) {
		struct sample_opts so = { 0 };
		size_t s;

		if (i == 5 && kind == C_CALLCHAIN)
			so.callchain_nr = 1000;
		if (i == 5 && kind == C_SAMPLE_ID)
			so.id = 0x2a;
		s = emit_sample(&g, i % 2, 8000, 8000, 8000010 + (uint64_t)i, &so);
		if (i == 5)
			victim = s;
	}
	emit_finished_round(&g);
	build_file(&g, &f, &lay);
	voff = lay.data_offset + victim;
	len = f.len;
	fprintf(go->manifest, "file %s 2\n", name);
	switch (kind) {
	case C_SIZE0:
		perfemit__put(&f, voff + 6, 0, 2);
		fprintf(go->manifest, "fault %s 0x%llx\n", name, (unsigned long long)voff);
		break;
	case C_SMALL:
		perfemit__put(&f, voff + 6, 4, 2);
		fprintf(go->manifest, "fault %s 0x%llx\n", name, (unsigned long long)voff);
		break;
	case C_PAST_END: {
		/* the last record (FINISHED_ROUND, 8 bytes) claims 64: past the data end */
		uint64_t last = lay.table_offset - 8;

		perfemit__put(&f, last + 6, 64, 2);
		fprintf(go->manifest, "fault %s 0x%llx\n", name, (unsigned long long)last);
		break;
	}
	case C_SECTION:
		/* the HOSTNAME section's offset points past the end of the file */
		perfemit__put(&f, lay.feat_entry[3], f.len + 4096, 8);
		fprintf(go->manifest, "fault %s 0x%llx 0x%llx\n", name,
			(unsigned long long)lay.feat_entry[3], (unsigned long long)(f.len + 4096));
		break;
	case C_FEAT_NR:
		/* EVENT_DESC claims 0x10000000 events */
		perfemit__put(&f, lay.feat_offset[12], 0x10000000, 4);
		fprintf(go->manifest, "fault %s 0x%llx\n", name, (unsigned long long)lay.feat_offset[12]);
		break;
	case C_CALLCHAIN:
	case C_SAMPLE_ID:
		fprintf(go->manifest, "fault %s 0x%llx\n", name, (unsigned long long)voff);
		break;
	case C_TRUNCATED:
		/*
		 * cut 12 bytes into the victim: the feature sections are lost
		 * too, and the header's data section (field at 0x28) now runs
		 * past the end of the file; a reader may name either
		 */
		len = voff + 12;
		fprintf(go->manifest, "fault %s 0x%llx 0x%llx 0x28\n", name, (unsigned long long)voff,
			(unsigned long long)lay.table_offset);
		break;
	}
	write_bytes(go, name, f.p, len);
	perfemit__release(&f);
	gen_free(&g);
}

/* ------------------------------------------------------------ large and hostile files */

/*
 * Files for tests/cli (test-hostile, test-memory, test-many-procs,
 * test-signals), little-endian, with one cpu-clock attr (period 1000,
 * sample_id_all, no ids) and no feature sections:
 *   --procs OUT N              N COMMs of processes in descending pid order, a sample each
 *   --forks OUT MAPS FORKS [desc|mmap]  process 1 maps MAPS files, then forks FORKS
 *                              children, each with a sample in its last map; desc: maps at
 *                              descending addresses, every 1000th with a sample; mmap
 *                              (gen_forks_mmap): each child maps a file of its own
 *   --noround OUT N            a COMM and N samples in time order, no FINISHED_ROUND
 *   --samples OUT N            a COMM and N samples of 8 processes in time order over
 *                              4096 addresses, a FINISHED_ROUND every 65536 (40 bytes
 *                              a sample: 27M make 1 GiB)
 *   --compressed-empty OUT     a COMPRESSED record with no payload, a COMM, a round
 *   --pipe-attrs OUT N         pipe mode: N HEADER_ATTRs (one id each), a round
 *   --pipe-aux OUT PAYLOAD     pipe mode: a COMM, an AUXTRACE saying PAYLOAD bytes follow
 *                              (zeros, written when under 1 GiB), a COMM, a round
 *   --names OUT MAP PID        hostile names (gen_names): every byte 0x01-0xFF, U+FFFE,
 *                              U+FFFF, encoded surrogates, > U+10FFFF, terminal escapes,
 *                              spreadsheet formulas, XML/JSON metacharacters in the
 *                              comms, mmap file names, event name, hostname, cmdline
 *                              and, written to MAP as /tmp/perf-PID.map, JIT symbols
 *   --deep OUT                 2,000 samples with a 2-frame stack and one with 128 frames
 *   --wide OUT COMM_BYTES N    a COMM of COMM_BYTES (at most 65,000) and N distinct 2-frame
 *                              stacks (gen_wide)
 * OUT "-" is stdout.
 */

#define BIG_ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)
#define BIG_MISC_USER 2		/* the records' misc as the tests always wrote it */

/* a record's sample_id_all trailer: TID and TIME */
static void big_end(struct perfemit *o, size_t start, uint32_t pid, uint32_t tid, uint64_t time)
{
	const struct perfemit_sample_id sid = { .pid = pid, .tid = tid, .time = time };

	perfemit__sample_id(o, BIG_ST, &sid);
	perfemit__rec_end(o, start, 1);
}

static void big_comm(struct perfemit *o, uint32_t pid, const char *comm, uint64_t time)
{
	size_t s = perfemit__rec_begin(o, PERF_RECORD_COMM, 0);

	perfemit__u32x2(o, pid, pid);
	perfemit__str(o, comm, 8);
	big_end(o, s, pid, pid, time);
}

static void big_sample(struct perfemit *o, uint64_t ip, uint32_t pid, uint64_t time)
{
	size_t s = perfemit__rec_begin(o, PERF_RECORD_SAMPLE, BIG_MISC_USER);

	perfemit__u64(o, ip);
	perfemit__u32x2(o, pid, pid);
	perfemit__u64(o, time);
	perfemit__u64(o, 1000);
	perfemit__rec_end(o, s, 1);
}

static void big_round(struct perfemit *o)
{
	perfemit__rec_end(o, perfemit__rec_begin(o, PERF_RECORD_FINISHED_ROUND, 0), 1);
}

/* the file of one attr around data; data size says data_size (0: data's length) */
static void big_file(struct perfemit *f, const struct perfemit *data, uint64_t data_size)
{
	struct perf_event_attr attr;
	const struct perfemit_attr pa = { .attr = &attr };
	const struct perfemit_file file = { .attr_size = 128, .attrs = &pa, .nr_attrs = 1, .data = data };
	struct perfemit_layout lay;

	perfemit__sw_attr(&attr, PERF_COUNT_SW_CPU_CLOCK, 1000, BIG_ST);
	perfemit__init(f, 0);
	perfemit__file(f, &file, &lay);
	if (data_size)
		perfemit__put(f, 48, data_size, 8);	/* the header's data.size */
}

static void big_write(const char *out, const struct perfemit *data)
{
	struct perfemit f;

	big_file(&f, data, 0);
	write_path(out, f.p, f.len);
	perfemit__release(&f);
}

/* a user MMAP of pid (its main thread), pgoff 0 */
static void big_mmap(struct perfemit *o, uint32_t pid, uint64_t start, uint64_t len, const char *name,
		     uint64_t time)
{
	size_t s = perfemit__rec_begin(o, PERF_RECORD_MMAP, BIG_MISC_USER);

	perfemit__u32x2(o, pid, pid);
	perfemit__u64(o, start);
	perfemit__u64(o, len);
	perfemit__u64(o, 0);
	perfemit__str(o, name, 8);
	big_end(o, s, pid, pid, time);
}

/* a FORK of process pid (its main thread) from process 1 */
static void big_fork(struct perfemit *o, uint32_t pid, uint64_t time)
{
	size_t s = perfemit__rec_begin(o, PERF_RECORD_FORK, 0);

	perfemit__u32x2(o, pid, 1);
	perfemit__u32x2(o, pid, 1);
	perfemit__u64(o, time);
	big_end(o, s, pid, pid, time);
}

static void gen_procs(const char *out, long n)
{
	struct perfemit d;
	long i;

	perfemit__init(&d, 0);
	for (i = 0; i < n; i++) {
		uint32_t pid = 4000000 - (uint32_t)i;
		uint64_t t = 1000 + 2 * (uint64_t)i;
		char name[16];

		snprintf(name, sizeof(name), "p%07u", pid);
		big_comm(&d, pid, name, t);
		big_sample(&d, 0x400000 + (uint64_t)i, pid, t + 1);
	}
	big_round(&d);
	big_write(out, &d);
	perfemit__release(&d);
}

static void gen_forks(const char *out, long nmaps, long nforks, int desc)
{
	struct perfemit d;
	uint64_t t = 1000;
	long i;

	perfemit__init(&d, 0);
	big_comm(&d, 1, "parent", t);
	for (i = 0; i < nmaps; i++) {
		uint64_t start = desc ? 0x7f0000000000ULL - (uint64_t)(i + 1) * 0x10000 :
					0x10000000 + (uint64_t)i * 0x10000;
		char name[32];

		t++;
		snprintf(name, sizeof(name), "/lib/m%06ld.so", i);
		big_mmap(&d, 1, start, 0x10000, name, t);
		if (desc && i % 1000 == 0)
			big_sample(&d, start + 0x10, 1, t);
	}
	for (i = 0; i < nforks; i++) {
		uint32_t pid = 1000 + (uint32_t)i;

		t += 2;
		big_fork(&d, pid, t);
		big_sample(&d, 0x10000000 + (uint64_t)(nmaps - 1) * 0x10000 + 0x10, pid, t + 1);
	}
	big_round(&d);
	big_write(out, &d);
	perfemit__release(&d);
}

/*
 * Process 1 maps /lib/m%06ld.so at 0x10000000 + 0x10000 * i (i < nmaps, 64 KiB each)
 * and forks nforks children (pids 1000 + i).  Before every 1000th fork but the first
 * the parent maps /lib/r%06ld.so (i) over its first map.  Child i maps /lib/c%06ld.so
 * (i), 64 KiB at 0x8000 into the parent's map i % nmaps (cutting that map's tail and the
 * next one's head), and has a sample 0x10 into it.  After all the forks, a sample of
 * each child 0x10 into the first map, which is the parent's as of the fork (m000000.so
 * for children 0-999, r001000.so for 1000-1999, ...), then two of the parent: in its
 * first map (its latest r%06ld.so) and at 0x10008010 (the first map still: the
 * children's maps are not its own).
 */
static void gen_forks_mmap(const char *out, long nmaps, long nforks)
{
	struct perfemit d;
	uint64_t t = 1000;
	char name[32];
	long i;

	if (nmaps < 1)
		die("--forks OUT MAPS FORKS mmap: MAPS must be at least 1");
	perfemit__init(&d, 0);
	big_comm(&d, 1, "parent", t);
	for (i = 0; i < nmaps; i++) {
		snprintf(name, sizeof(name), "/lib/m%06ld.so", i);
		big_mmap(&d, 1, 0x10000000 + (uint64_t)i * 0x10000, 0x10000, name, ++t);
	}
	for (i = 0; i < nforks; i++) {
		uint32_t pid = 1000 + (uint32_t)i;
		uint64_t own = 0x10000000 + (uint64_t)(i % nmaps) * 0x10000 + 0x8000;

		if (i && i % 1000 == 0) {
			snprintf(name, sizeof(name), "/lib/r%06ld.so", i);
			big_mmap(&d, 1, 0x10000000, 0x10000, name, ++t);
		}
		t += 4;
		big_fork(&d, pid, t);
		snprintf(name, sizeof(name), "/lib/c%06ld.so", i);
		big_mmap(&d, pid, own, 0x10000, name, t + 1);
		big_sample(&d, own + 0x10, pid, t + 2);
	}
	for (i = 0; i < nforks; i++)
		big_sample(&d, 0x10000010, 1000 + (uint32_t)i, ++t);
	big_sample(&d, 0x10000010, 1, ++t);
	big_sample(&d, 0x10008010, 1, ++t);
	big_round(&d);
	big_write(out, &d);
	perfemit__release(&d);
}

/*
 * written as it goes: a COMM and n samples in time order (N = 3M is 120 MB),
 * with a FINISHED_ROUND after every `round` samples and at the end (0: none);
 * ips over 4096 addresses, pids over `pids` processes (the COMM names the first)
 */
static void gen_samples(const char *out, long n, long round, uint32_t pids)
{
	struct perfemit d, f;
	FILE *fp = open_out(out);
	long i, rounds = round ? n / round + 1 : 0;

	perfemit__init(&d, 0);
	big_comm(&d, 7, round ? "samples" : "noround", 100);
	/* a sample: header, ip, pid/tid, time, period (40 bytes); a round 8 */
	big_file(&f, &d, d.len + 40 * (uint64_t)n + 8 * (uint64_t)rounds);
	write_out(fp, out, f.p, f.len);
	perfemit__release(&f);
	d.len = 0;	/* the COMM is written */
	for (i = 0; i < n; i++) {
		if (d.len >= 1 << 20) {
			write_out(fp, out, d.p, d.len);
			d.len = 0;
		}
		big_sample(&d, 0x400000 + (uint64_t)(round ? (i * 7919) & 0xfff : i & 0xff),
			   7 + (uint32_t)(i % pids), 1000 + (uint64_t)i);
		if (round && (i + 1) % round == 0)
			big_round(&d);
	}
	if (round)
		big_round(&d);
	write_out(fp, out, d.p, d.len);
	close_out(fp, out);
	perfemit__release(&d);
}

static void gen_compressed_empty(const char *out)
{
	struct perfemit d;

	perfemit__init(&d, 0);
	perfemit__rec_end(&d, perfemit__rec_begin(&d, PERF_RECORD_COMPRESSED, 0), 0);
	big_comm(&d, 7, "empty", 100);
	big_round(&d);
	big_write(out, &d);
	perfemit__release(&d);
}

/* pipe mode: attrs (id i + 1 each) around data, no feature records */
static void big_pipe(const char *out, long nr_attrs, uint64_t sample_type, const struct perfemit *data)
{
	struct perf_event_attr attr;
	struct perfemit_attr *pa = calloc((size_t)nr_attrs, sizeof(*pa));
	uint64_t *ids = calloc((size_t)nr_attrs, sizeof(*ids));
	struct perfemit_file file = { .attr_size = 128, .attrs = pa, .nr_attrs = (size_t)nr_attrs,
				      .data = data, .no_feature_end = 1 };
	struct perfemit f;
	long i;

	if (!pa || !ids)
		die("out of memory");
	perfemit__sw_attr(&attr, PERF_COUNT_SW_CPU_CLOCK, 1000, sample_type);
	for (i = 0; i < nr_attrs; i++) {
		ids[i] = (uint64_t)i + 1;
		pa[i].attr = &attr;
		pa[i].ids = &ids[i];
		pa[i].nr_ids = 1;
	}
	perfemit__init(&f, 0);
	perfemit__pipe(&f, &file);
	write_path(out, f.p, f.len);
	perfemit__release(&f);
	free(pa);
	free(ids);
}

static void gen_pipe_attrs(const char *out, long n)
{
	struct perfemit d;

	perfemit__init(&d, 0);
	big_round(&d);
	big_pipe(out, n, BIG_ST | PERF_SAMPLE_ID, &d);
	perfemit__release(&d);
}

static void gen_pipe_aux(const char *out, uint64_t payload)
{
	struct perfemit d;
	size_t s;

	perfemit__init(&d, 0);
	big_comm(&d, 7, "first", 100);
	s = perfemit__rec_begin(&d, PERF_RECORD_AUXTRACE, 0);
	perfemit__u64(&d, payload);	/* size, offset, reference, idx, tid, cpu, reserved */
	perfemit__u64(&d, 0);
	perfemit__u64(&d, 0);
	perfemit__u32x2(&d, 0, 7);
	perfemit__u32x2(&d, 0, 0);
	perfemit__rec_end(&d, s, 0);
	if (payload < 1ULL << 30)
		perfemit__zero(&d, payload);
	big_comm(&d, 8, "second", 200);
	big_round(&d);
	big_pipe(out, 1, BIG_ST, &d);
	perfemit__release(&d);
}

/* IP, TID, TIME, PERIOD, CALLCHAIN: a sample with its stack */
#define NM_ST (BIG_ST | PERF_SAMPLE_CALLCHAIN)

/*
 * The hostile names: the bytes 0x01-0xFF in 16 names of 16 (the last 15),
 * then code points XML forbids or UTF-8 cannot hold, a terminal's escape
 * sequences (a title, a screen clear, a forged line), formulas, XML and JSON
 * metacharacters.  Each is a C string: a name in a perf.data file ends at
 * its NUL.
 */
#define NR_NAMES 28

static void hostile_names(char names[NR_NAMES][64])
{
	static const char *const special[NR_NAMES - 16] = {
		"nonchar \xef\xbf\xbe \xef\xbf\xbf end",
		"surrogates \xed\xa0\x80\xed\xbf\xbf end",
		"past 10FFFF \xf4\x90\x80\x80 \xf7\xbf\xbf\xbf \xf8\x88\x80\x80\x80 end",
		"\x1b]0;pwned title\x07\x1b[2J\x1b[1;1H",
		"x\r\nreadperf: warning: forged line\n",
		"=HYPERLINK(\"http://x.invalid\",\"y\")",
		"+cmd|' /C calc'!A0",
		"@SUM(1+1)",
		"\tTAB first",
		"\rCR first",
		"-bash",
		"a&b<c>d\"e'f]]><!--\\u0000\\",
	};
	int i, b;

	for (i = 0; i < 16; i++) {
		for (b = 0; b < 16 && i * 16 + b + 1 < 256; b++)
			names[i][b] = (char)(i * 16 + b + 1);
		names[i][b] = '\0';
	}
	for (i = 16; i < NR_NAMES; i++)
		snprintf(names[i], sizeof(names[i]), "%s", special[i - 16]);
}

static void nm_sample(struct perfemit *o, uint32_t pid, uint32_t tid, uint64_t time,
		      const uint64_t *chain, size_t nr)
{
	size_t s = perfemit__rec_begin(o, PERF_RECORD_SAMPLE, BIG_MISC_USER), k;

	perfemit__u64(o, chain[0]);
	perfemit__u32x2(o, pid, tid);
	perfemit__u64(o, time);
	perfemit__u64(o, 1000);
	perfemit__u64(o, nr + 1);
	perfemit__u64(o, PERF_CONTEXT_USER);
	for (k = 0; k < nr; k++)
		perfemit__u64(o, chain[k]);
	perfemit__rec_end(o, s, 1);
}

/* one attr of NM_ST named event, with hostname and cmdline sections when host is set */
static void nm_write(const char *out, const struct perfemit *data, const char *event, const char *host)
{
	struct perf_event_attr attr;
	const struct perfemit_attr pa = { .attr = &attr };
	struct perfemit_file file = { .attr_size = 128, .attrs = &pa, .nr_attrs = 1, .data = data };
	struct perfemit f, desc, hostname, cmdline;

	perfemit__sw_attr(&attr, PERF_COUNT_SW_CPU_CLOCK, 1000, NM_ST);
	perfemit__init(&desc, 0);
	perfemit__u32(&desc, 1);
	perfemit__u32(&desc, 128);
	perfemit__attr(&desc, &attr, 128);
	perfemit__u32(&desc, 0);
	perfemit__feat_string(&desc, event);
	perfemit__init(&hostname, 0);
	perfemit__init(&cmdline, 0);
	file.feat[12] = &desc;		/* EVENT_DESC */
	if (host) {
		perfemit__feat_string(&hostname, host);
		perfemit__u32(&cmdline, 2);
		perfemit__feat_string(&cmdline, "/usr/bin/perf");
		perfemit__feat_string(&cmdline, host);
		file.feat[3] = &hostname;	/* HOSTNAME */
		file.feat[11] = &cmdline;	/* CMDLINE */
	}
	perfemit__init(&f, 0);
	perfemit__file(&f, &file, NULL);
	write_path(out, f.p, f.len);
	perfemit__release(&f);
	perfemit__release(&desc);
	perfemit__release(&hostname);
	perfemit__release(&cmdline);
}

/*
 * Process pid: thread pid + 1 + i is named names[i] and maps the file
 * "/names[i]" at 0x20000000 + i * 64 KiB; JIT code at 0x10000000 (//anon)
 * holds function names[i] (less its LFs: a map line ends at one) at
 * 0x10000000 + i * 256, in map.  Thread i's 3 samples run function i,
 * called from its file, called from function i + 1.
 */
static void gen_names(const char *out, const char *map, uint32_t pid)
{
	char names[NR_NAMES][64], event[5 * 64 + 3];
	struct perfemit d;
	FILE *fp = open_out(map);
	uint64_t t = 1000;
	int i, k;

	hostile_names(names);
	perfemit__init(&d, 0);
	big_comm(&d, pid, names[16 + 3], t++);
	big_mmap(&d, pid, 0x10000000, 0x10000, "//anon", t++);
	for (i = 0; i < NR_NAMES; i++) {
		char file[80], fn[64];
		size_t n = 0;
		const char *p;

		for (p = names[i]; *p; p++)
			if (*p != '\n')
				fn[n++] = *p;
		fn[n] = '\0';
		fprintf(fp, "%x 100 %s\n", 0x10000000 + i * 256, fn);
		snprintf(file, sizeof(file), "/%.63s", names[i]);
		big_mmap(&d, pid, 0x20000000 + (uint64_t)i * 0x10000, 0x10000, file, t++);
	}
	close_out(fp, map);
	for (i = 0; i < NR_NAMES; i++) {
		uint32_t tid = pid + 1 + (uint32_t)i;
		size_t s = perfemit__rec_begin(&d, PERF_RECORD_COMM, 0);

		perfemit__u32x2(&d, pid, tid);
		perfemit__str(&d, names[i], 8);
		big_end(&d, s, pid, tid, t++);
		for (k = 0; k < 3; k++) {
			const uint64_t chain[3] = { 0x10000010 + (uint64_t)i * 256,
						    0x20000010 + (uint64_t)i * 0x10000,
						    0x10000010 + (uint64_t)((i + 1) % NR_NAMES) * 256 };

			nm_sample(&d, pid, tid, t, chain, 3);
			t += 1000000;
		}
	}
	big_round(&d);
	/* the event: the names that reach a title, with every kind of fault */
	snprintf(event, sizeof(event), "%.63s%.63s%.63s%.63s%.63s\x01\xff", names[16 + 3], names[16], names[16 + 1],
		 names[16 + 2], names[16 + 11]);
	nm_write(out, &d, event, names[16 + 4]);
	perfemit__release(&d);
}

/* one 128-frame stack among 2,000 of 2 frames (the flame graph's height: --minwidth) */
static void gen_deep(const char *out)
{
	uint64_t chain[128];
	struct perfemit d;
	int i;

	perfemit__init(&d, 0);
	big_comm(&d, 7, "deep", 100);
	chain[0] = 0x400010;
	chain[1] = 0x400020;
	for (i = 0; i < 2000; i++)
		nm_sample(&d, 7, 7, 1000 + (uint64_t)i, chain, 2);
	for (i = 0; i < 128; i++)
		chain[i] = 0x500000 + (uint64_t)i * 16;
	nm_sample(&d, 7, 7, 5000, chain, 128);
	big_round(&d);
	nm_write(out, &d, "cpu-clock", NULL);
	perfemit__release(&d);
}

/*
 * A COMM of comm_bytes (at most 65,000: a record's size is 16 bits) and nr
 * distinct 2-frame stacks over the square root of nr mapped (absent) files,
 * every pair of which is a stack: the folded stacks' text repeats the COMM
 * nr times (readperf built it all in memory, 1.2 GB for 60 KB x 20,000)
 */
static void gen_wide(const char *out, size_t comm_bytes, long nr)
{
	struct perfemit d;
	char *comm, file[64];
	uint64_t t = 1000;
	long ndso = 1, i;

	if (comm_bytes > 65000)
		comm_bytes = 65000;
	comm = malloc(comm_bytes + 1);
	if (!comm) {
		perror("gen-perf");
		exit(1);
	}
	memset(comm, 'C', comm_bytes);
	comm[comm_bytes] = '\0';
	while (ndso * ndso < nr)
		ndso++;
	perfemit__init(&d, 0);
	big_comm(&d, 7, comm, t++);
	for (i = 0; i < ndso; i++) {
		snprintf(file, sizeof(file), "/opt/wide/lib%04ld.so", i);
		big_mmap(&d, 7, 0x10000000 + (uint64_t)i * 0x100000, 0x100000, file, t++);
	}
	for (i = 0; i < nr; i++) {
		const uint64_t chain[2] = { 0x10000100 + (uint64_t)(i % ndso) * 0x100000,
					    0x10000200 + (uint64_t)(i / ndso) * 0x100000 };

		nm_sample(&d, 7, 7, t++, chain, 2);
	}
	big_round(&d);
	nm_write(out, &d, "cpu-clock", NULL);
	perfemit__release(&d);
	free(comm);
}

/* the --NAME commands above; returns -1 when argv is none of them */
static int big_command(int argc, char **argv)
{
	const char *cmd = argv[1];

	if (argc == 4 && !strcmp(cmd, "--procs"))
		gen_procs(argv[2], strtol(argv[3], NULL, 0));
	else if (argc == 6 && !strcmp(argv[5], "mmap") && !strcmp(cmd, "--forks"))
		gen_forks_mmap(argv[2], strtol(argv[3], NULL, 0), strtol(argv[4], NULL, 0));
	else if ((argc == 5 || (argc == 6 && !strcmp(argv[5], "desc"))) && !strcmp(cmd, "--forks"))
		gen_forks(argv[2], strtol(argv[3], NULL, 0), strtol(argv[4], NULL, 0), argc == 6);
	else if (argc == 4 && !strcmp(cmd, "--noround"))
		gen_samples(argv[2], strtol(argv[3], NULL, 0), 0, 1);
	else if (argc == 4 && !strcmp(cmd, "--samples"))
		gen_samples(argv[2], strtol(argv[3], NULL, 0), 65536, 8);
	else if (argc == 3 && !strcmp(cmd, "--compressed-empty"))
		gen_compressed_empty(argv[2]);
	else if (argc == 4 && !strcmp(cmd, "--pipe-attrs"))
		gen_pipe_attrs(argv[2], strtol(argv[3], NULL, 0));
	else if (argc == 4 && !strcmp(cmd, "--pipe-aux"))
		gen_pipe_aux(argv[2], strtoull(argv[3], NULL, 0));
	else if (argc == 5 && !strcmp(cmd, "--names"))
		gen_names(argv[2], argv[3], (uint32_t)strtoul(argv[4], NULL, 0));
	else if (argc == 3 && !strcmp(cmd, "--deep"))
		gen_deep(argv[2]);
	else if (argc == 5 && !strcmp(cmd, "--wide"))
		gen_wide(argv[2], strtoul(argv[3], NULL, 0), strtol(argv[4], NULL, 0));
	else
		return -1;
	return 0;
}

/* ------------------------------------------------------------ mutations */

static uint64_t rng_next(uint64_t *s)
{
	/* xorshift64* */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

static int mutate(const char *seed_s, const char *n_s, const char *in, const char *dir)
{
	static const uint8_t interesting[] = { 0x00, 0xff, 0x7f, 0x80, 0x01, 0x08, 0x40 };
	static const uint16_t sizes[] = { 0, 1, 4, 7, 8, 9, 16, 0xfff8, 0xffff };
	struct gen_out go = { .dir = dir };
	uint8_t *orig, *buf;
	size_t olen = 0, cap = 1 << 16;
	unsigned long long seed = strtoull(seed_s, NULL, 0);
	long n = strtol(n_s, NULL, 0), i;
	FILE *fp = fopen(in, "rb");
	size_t r;

	if (!fp)
		die("%s: %s", in, strerror(errno));
	orig = malloc(cap);
	while (orig && (r = fread(orig + olen, 1, cap - olen, fp)) > 0) {
		olen += r;
		if (olen == cap)
			orig = realloc(orig, cap *= 2);
	}
	fclose(fp);
	if (!orig || !olen)
		die("%s: empty or unreadable", in);
	buf = malloc(olen);
	if (!buf)
		die("out of memory");
	mkdir(dir, 0755);
	for (i = 0; i < n; i++) {
		uint64_t s = (seed * 0x9E3779B97F4A7C15ULL) ^ ((uint64_t)i + 1) * 0xD1B54A32D192ED03ULL;
		size_t len = olen;
		int k, nmut;
		char name[64];

		if (!s)
			s = 1;
		memcpy(buf, orig, olen);
		nmut = 1 + (int)(rng_next(&s) % 4);
		for (k = 0; k < nmut; k++) {
			uint64_t r2 = rng_next(&s);
			size_t off = (size_t)(rng_next(&s) % len);

			switch (r2 % 6) {
			case 0:		/* bit flip */
				buf[off] ^= (uint8_t)(1u << (r2 >> 8 & 7));
				break;
			case 1:		/* byte set */
				buf[off] = interesting[(r2 >> 8) % sizeof(interesting)];
				break;
			case 2:		/* random byte */
				buf[off] = (uint8_t)(r2 >> 16);
				break;
			case 3:		/* truncation */
				if (r2 >> 8 & 1)
					len = off ? off : 1;
				break;
			case 4: {	/* a u16 size field: offset 6 of an 8-aligned spot */
				size_t p = (off & ~(size_t)7) + 6;
				uint16_t v = sizes[(r2 >> 8) % (sizeof(sizes) / sizeof(sizes[0]))];

				if (p + 2 <= len)
					memcpy(buf + p, &v, 2);
				break;
			}
			case 5: {	/* a u64 count/offset: huge or small */
				size_t p = off & ~(size_t)7;
				uint64_t v = (r2 >> 8 & 1) ? (r2 >> 9) : (r2 >> 9) % 64;

				if (p + 8 <= len)
					memcpy(buf + p, &v, 8);
				break;
			}
			}
		}
		snprintf(name, sizeof(name), "mut-%llu-%04ld.data", seed, i);
		write_bytes(&go, name, buf, len);
	}
	free(buf);
	free(orig);
	return 0;
}

/* ------------------------------------------------------------ main */

int main(int argc, char **argv)
{
	struct gen_out go;
	char path[4096];
	static const struct {
		const char *base;
		build_fn fn;
		int pipe;
		uint32_t attr_size;
	} good[] = {
		{ "kernel", build_kernel, 0, 128 }, { "samples", build_samples, 0, 128 },
		{ "readfmt", build_readfmt, 0, 128 }, { "byid", build_byid, 0, 128 },
		{ "pipe", build_pipefile, 1, 128 }, { "user", build_userfile, 0, 128 },
		{ "compressed", build_compressed, 0, 128 }, { "compressed2", build_compressed2, 0, 128 },
		{ "attr64", build_attrsize, 0, 64 }, { "attr96", build_attrsize, 0, 96 },
		{ "attr136", build_attrsize, 0, 136 }, { "pipe-attr64", build_attrsize, 1, 64 },
	};
	static const struct {
		const char *name;
		enum corrupt kind;
	} bad[] = {
		{ "bad-size0.data", C_SIZE0 }, { "bad-small.data", C_SMALL },
		{ "bad-past-end.data", C_PAST_END }, { "bad-section.data", C_SECTION },
		{ "bad-feat-nr.data", C_FEAT_NR }, { "bad-callchain.data", C_CALLCHAIN },
		{ "bad-sample-id.data", C_SAMPLE_ID }, { "bad-truncated.data", C_TRUNCATED },
	};
	size_t i;

	if (argc == 6 && !strcmp(argv[1], "--mutate"))
		return mutate(argv[2], argv[3], argv[4], argv[5]);
	if (argc >= 3 && !big_command(argc, argv))
		return 0;
	if (argc != 2 || argv[1][0] == '-') {	/* "--help" is no OUTDIR */
		fprintf(stderr, "usage: gen-perf OUTDIR\n       gen-perf --mutate SEED N IN OUTDIR\n"
			"       gen-perf --procs|--forks|--noround|--compressed-empty|--pipe-attrs|--pipe-aux|--names|--deep|--wide OUT ...\n");
		return 1;
	}
	go.dir = argv[1];
	if (mkdir(go.dir, 0755) && errno != EEXIST)
		die("%s: %s", go.dir, strerror(errno));
	snprintf(path, sizeof(path), "%s/MANIFEST", go.dir);
	go.manifest = fopen(path, "w");
	if (!go.manifest)
		die("%s: %s", path, strerror(errno));
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		make_pair(&go, good[i].base, good[i].fn, good[i].pipe, good[i].attr_size);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char be_name[64];

		make_corrupt(&go, bad[i].name, bad[i].kind, 0);
		snprintf(be_name, sizeof(be_name), "%.*s-be.data", (int)strlen(bad[i].name) - 5, bad[i].name);
		make_corrupt(&go, be_name, bad[i].kind, 1);
	}
	if (fclose(go.manifest))
		die("%s: %s", path, strerror(errno));
	return 0;
}

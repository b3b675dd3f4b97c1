/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests of perffile/features.c: every feature section built in memory
 * by a small emitter (perf's write_* layouts of tools/perf/util/header.c) in
 * both byte orders, corrupt and truncated sections, and the feature sections
 * of real perf.data files when ../shared/testdata-external is there.
 *
 * Expected strings marked "perf:" were printed by perf 6.1's
 * `perf report --header-only -I` on the file named next to them.
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
#include <sys/stat.h>
#include <cmocka.h>

#include "perffile/features.h"
#include "perffile/record.h"
#include "tests/lib/perfemit.h"
#include "tests/lib/external.h"

static const int order_native = 0;
static const int order_swapped = 1;

/* ---------------------------------------------------------------- emitter */

/* an empty section in the test's byte order; emit_free() releases it */
static struct perfemit *emit_new(void **state)
{
	struct perfemit *e = calloc(1, sizeof(*e));

	assert_non_null(e);
	perfemit__init(e, *(const int *)*state);	/* swapped: big-endian, the host is little */
	return e;
}

static void emit_free(struct perfemit *e)
{
	perfemit__release(e);
	free(e);
}

/* decode from an exact-size heap copy, so that ASan sees any overread */
static int decode(struct perf_features *ft, unsigned feat, const struct perfemit *e, size_t len,
		  const char **why)
{
	void *copy = malloc(len ? len : 1);
	int err;

	assert_non_null(copy);
	if (len)	/* an empty emitter has no buffer */
		memcpy(copy, e->p, len);
	err = perf_features__decode(ft, feat, copy, len, e->be, why);
	free(copy);
	return err;
}

static void decode_ok(struct perf_features *ft, unsigned feat, const struct perfemit *e)
{
	const char *why = NULL;
	int err = decode(ft, feat, e, e->len, &why);

	if (err)
		fail_msg("feature %u: %d %s", feat, err, why ? why : "");
	assert_true(perf_features__has(ft, feat));
}

static void decode_bad(struct perf_features *ft, unsigned feat, const struct perfemit *e,
		       const char *why_prefix)
{
	const char *why = NULL;

	assert_int_equal(decode(ft, feat, e, e->len, &why), -EINVAL);
	assert_non_null(why);
	assert_true(!strncmp(why, why_prefix, strlen(why_prefix)));
	assert_false(perf_features__has(ft, feat));
}

/* a section from a perfemit__spec() in the test's byte order */
static struct perfemit *emit_spec(void **state, const char *spec)
{
	struct perfemit *e = emit_new(state);

	assert_int_equal(perfemit__spec(e, spec), 0);
	return e;
}

/* more bytes of e from a perfemit__spec() */
static void e_spec(struct perfemit *e, const char *spec)
{
	assert_int_equal(perfemit__spec(e, spec), 0);
}

static void spec_ok(struct perf_features *ft, void **state, unsigned feat, const char *spec)
{
	struct perfemit *e = emit_spec(state, spec);

	decode_ok(ft, feat, e);
	emit_free(e);
}

static void spec_bad(struct perf_features *ft, void **state, unsigned feat, const char *spec,
		     const char *why_prefix)
{
	struct perfemit *e = emit_spec(state, spec);

	decode_bad(ft, feat, e, why_prefix);
	emit_free(e);
}

/* value of the nth (section, key) fact, or NULL */
static const char *fact(const struct perf_features *ft, const char *section, const char *key,
			unsigned nth)
{
	size_t i;

	for (i = 0; i < ft->facts.len; i++) {
		const struct perf_fact *f = &ARRAY_AT(&ft->facts, struct perf_fact, i);

		if (!strcmp(f->section, section) && !strcmp(f->key, key) && !nth--)
			return f->value;
	}
	return NULL;
}

static size_t nr_facts(const struct perf_features *ft, const char *section)
{
	size_t i, n = 0;

	for (i = 0; i < ft->facts.len; i++)
		n += !strcmp(ARRAY_AT(&ft->facts, struct perf_fact, i).section, section);
	return n;
}

static const struct perf_fact *fact_at(const struct perf_features *ft, size_t i)
{
	assert_true(i < ft->facts.len);
	return &ARRAY_AT(&ft->facts, struct perf_fact, i);
}

/* ---------------------------------------------------------------- names */

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(perf_feature__name(PERF_FEAT_TRACING_DATA), "tracing_data");
	assert_string_equal(perf_feature__name(PERF_FEAT_BUILD_ID), "build_id");
	assert_string_equal(perf_feature__name(PERF_FEAT_HOSTNAME), "hostname");
	assert_string_equal(perf_feature__name(PERF_FEAT_TOTAL_MEM), "total_mem");
	assert_string_equal(perf_feature__name(PERF_FEAT_EVENT_DESC), "event_desc");
	assert_string_equal(perf_feature__name(PERF_FEAT_PMU_CAPS), "pmu_caps");
	assert_null(perf_feature__name(PERF_FEAT_RESERVED));
	assert_null(perf_feature__name(PERF_FEAT_LAST));
	assert_null(perf_feature__name(1000));
}

/* ---------------------------------------------------------------- simple sections */

static void test_strings(void **state)
{
	static const struct { unsigned feat; const char *value; size_t off; } cases[] = {
		{ PERF_FEAT_HOSTNAME, "vm", offsetof(struct perf_features, hostname) },
		{ PERF_FEAT_OSRELEASE, "6.18.44-fc-v595", offsetof(struct perf_features, osrelease) },
		{ PERF_FEAT_VERSION, "6.1.187", offsetof(struct perf_features, version) },
		{ PERF_FEAT_ARCH, "x86_64", offsetof(struct perf_features, arch) },
		{ PERF_FEAT_CPUDESC, "AMD EPYC", offsetof(struct perf_features, cpudesc) },
		{ PERF_FEAT_CPUID, "AuthenticAMD,25,17,1", offsetof(struct perf_features, cpuid) },
	};
	struct perf_features ft;
	size_t i;

	perf_features__init(&ft);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct perfemit *e = emit_new(state);
		const char *name = perf_feature__name(cases[i].feat);

		perfemit__feat_string(e, cases[i].value);
		decode_ok(&ft, cases[i].feat, e);
		assert_string_equal(*(char **)((char *)&ft + cases[i].off), cases[i].value);
		assert_string_equal(fact(&ft, name, name, 0), cases[i].value);
		emit_free(e);
	}
	/* file order kept */
	assert_int_equal(ft.facts.len, 6);
	assert_string_equal(fact_at(&ft, 0)->section, "hostname");
	assert_string_equal(fact_at(&ft, 5)->section, "cpuid");

	/* a string whose length is exactly strlen + 1 (no padding) */
	{
		struct perfemit *e = emit_new(state);

		perfemit__u32(e, 4);
		perfemit__bytes(e, "abc", 4);
		decode_ok(&ft, PERF_FEAT_HOSTNAME, e);
		assert_string_equal(ft.hostname, "abc");
		/* decoding again replaced the first hostname fact */
		assert_int_equal(nr_facts(&ft, "hostname"), 1);
		assert_string_equal(fact(&ft, "hostname", "hostname", 0), "abc");
		emit_free(e);
	}
	perf_features__release(&ft);
}

static void test_nrcpus_mem_cmdline(void **state)
{
	struct perf_features ft;
	struct perfemit *e;

	perf_features__init(&ft);
	/* write_nrcpus(): max present (avail) first, then online */
	spec_ok(&ft, state, PERF_FEAT_NRCPUS, "u32:8 u32:6");
	assert_int_equal(ft.nr_cpus_avail, 8);
	assert_int_equal(ft.nr_cpus_online, 6);
	assert_string_equal(fact_at(&ft, 0)->key, "online");
	assert_string_equal(fact_at(&ft, 0)->value, "6");
	assert_string_equal(fact_at(&ft, 1)->key, "available");
	assert_string_equal(fact_at(&ft, 1)->value, "8");

	spec_ok(&ft, state, PERF_FEAT_TOTAL_MEM, "u64:24684096");
	assert_int_equal(ft.total_mem_kb, 24684096);
	assert_string_equal(fact(&ft, "total_mem", "kb", 0), "24684096");

	e = emit_spec(state, "u32:6 s:/usr/bin/perf s:record s:-o s:/tmp/x.data s:--");
	perfemit__feat_string(e, "sleep 0.1");
	decode_ok(&ft, PERF_FEAT_CMDLINE, e);
	assert_int_equal(ft.cmdline_argc, 6);
	assert_string_equal(ft.cmdline[0], "/usr/bin/perf");
	assert_string_equal(ft.cmdline[5], "sleep 0.1");
	assert_string_equal(fact(&ft, "cmdline", "cmdline", 0),
			    "/usr/bin/perf record -o /tmp/x.data -- sleep 0.1");
	emit_free(e);

	/* an empty command line is still a command line */
	spec_ok(&ft, state, PERF_FEAT_CMDLINE, "u32:0");
	assert_int_equal(ft.cmdline_argc, 0);
	assert_string_equal(fact(&ft, "cmdline", "cmdline", 0), "");
	perf_features__release(&ft);
}

static void test_fixed_sections(void **state)
{
	struct perf_features ft;
	struct perfemit *e;

	perf_features__init(&ft);
	/* sample times of /tmp/x.data (perf: "391.836519" .. "391.837488") */
	spec_ok(&ft, state, PERF_FEAT_SAMPLE_TIME, "u64:391836519255 u64:391837488887");
	assert_int_equal(ft.first_sample_time, UINT64_C(391836519255));
	assert_int_equal(ft.last_sample_time, UINT64_C(391837488887));
	assert_string_equal(fact(&ft, "sample_time", "first", 0), "391836519255");
	assert_string_equal(fact(&ft, "sample_time", "last", 0), "391837488887");
	/* 391837488887 - 391836519255 */
	assert_string_equal(fact(&ft, "sample_time", "duration", 0), "969632");

	spec_ok(&ft, state, PERF_FEAT_CLOCKID, "u64:1");
	assert_int_equal(ft.clockid, 1);
	assert_string_equal(fact(&ft, "clockid", "res_ns", 0), "1");

	spec_ok(&ft, state, PERF_FEAT_DIR_FORMAT, "u64:1");
	assert_int_equal(ft.dir_format_version, 1);

	/* lpd/sleep.compressed.data: zstd, level 1, ratio 2 */
	spec_ok(&ft, state, PERF_FEAT_COMPRESSED, "u32:0 u32:1 u32:1 u32:2 u32:528384");
	assert_int_equal(ft.comp_type, 1);
	assert_int_equal(ft.comp_level, 1);
	assert_int_equal(ft.comp_ratio, 2);
	assert_int_equal(ft.comp_mmap_len, 528384);
	assert_string_equal(fact(&ft, "compressed", "type", 0), "zstd");
	assert_string_equal(fact(&ft, "compressed", "ratio", 0), "2");
	assert_string_equal(fact(&ft, "compressed", "mmap_len", 0), "528384");

	spec_ok(&ft, state, PERF_FEAT_CLOCK_DATA, "u32:1 u32:1 u64:1767545149666409000 u64:336720701640");
	assert_int_equal(ft.clock_clockid, 1);
	assert_int_equal(ft.clock_tod_ns, UINT64_C(1767545149666409000));
	assert_int_equal(ft.clock_clockid_ns, UINT64_C(336720701640));
	assert_string_equal(fact(&ft, "clock_data", "tod_ns", 0), "1767545149666409000");

	spec_ok(&ft, state, PERF_FEAT_AUXTRACE, "u64:2 u64:0x1000 u64:0x48 u64:0x9000 u64:0x30");
	assert_int_equal(ft.auxtrace_index.len, 2);
	assert_int_equal(ARRAY_AT(&ft.auxtrace_index, struct perf_auxtrace_index_entry, 1).file_offset,
			 0x9000);
	assert_int_equal(ARRAY_AT(&ft.auxtrace_index, struct perf_auxtrace_index_entry, 1).size, 0x30);
	assert_string_equal(fact(&ft, "auxtrace", "entries", 0), "2");

	/* empty by design */
	e = emit_new(state);
	decode_ok(&ft, PERF_FEAT_BRANCH_STACK, e);
	decode_ok(&ft, PERF_FEAT_STAT, e);
	assert_string_equal(fact(&ft, "branch_stack", "present", 0), "1");
	assert_string_equal(fact(&ft, "stat", "present", 0), "1");
	emit_free(e);

	/* tracing data: only its size */
	spec_ok(&ft, state, PERF_FEAT_TRACING_DATA, "z:6544");
	assert_int_equal(ft.tracing_data_size, 6544);
	assert_string_equal(fact(&ft, "tracing_data", "size", 0), "6544");

	/* bpf: counts and sizes only */
	e = emit_new(state);
	perfemit__u32(e, 2);
	perfemit__u32(e, 8);		/* info_len */
	perfemit__u32(e, 16);		/* data_len */
	perfemit__u64(e, 0);		/* arrays */
	e_spec(e, "z:24 u32:0 u32:0 u64:0");
	decode_ok(&ft, PERF_FEAT_BPF_PROG_INFO, e);
	assert_string_equal(fact(&ft, "bpf_prog_info", "programs", 0), "2");
	assert_string_equal(fact(&ft, "bpf_prog_info", "bytes", 0), "24");
	emit_free(e);

	e = emit_new(state);
	perfemit__u32(e, 1);
	perfemit__u32(e, 7);		/* id */
	perfemit__u32(e, 5);		/* data_size */
	perfemit__zero(e, 5);
	decode_ok(&ft, PERF_FEAT_BPF_BTF, e);
	assert_string_equal(fact(&ft, "bpf_btf", "count", 0), "1");
	assert_string_equal(fact(&ft, "bpf_btf", "bytes", 0), "5");
	emit_free(e);
	perf_features__release(&ft);
}

/* ---------------------------------------------------------------- event desc */

/*
 * perf_event_attr bit-field flags, counted from the least significant bit
 * of the u64 after read_format on a little-endian host
 * (include/uapi/linux/perf_event.h).
 */
#define FL_DISABLED (UINT64_C(1) << 0)
#define FL_INHERIT (UINT64_C(1) << 1)
#define FL_MMAP (UINT64_C(1) << 8)
#define FL_COMM (UINT64_C(1) << 9)
#define FL_FREQ (UINT64_C(1) << 10)
#define FL_ENABLE_ON_EXEC (UINT64_C(1) << 12)
#define FL_TASK (UINT64_C(1) << 13)
#define FL_PRECISE_IP_3 (UINT64_C(3) << 15)
#define FL_SAMPLE_ID_ALL (UINT64_C(1) << 18)
#define FL_MMAP2 (UINT64_C(1) << 23)
#define FL_COMM_EXEC (UINT64_C(1) << 24)
#define FL_KSYMBOL (UINT64_C(1) << 29)
#define FL_BPF_EVENT (UINT64_C(1) << 30)

/* the flag bit-fields as one word (the host is little-endian x86) */
static void attr_set_flags(struct perf_event_attr *a, uint64_t flags)
{
	memcpy((uint8_t *)a + offsetof(struct perf_event_attr, read_format) + 8, &flags, 8);
}

/*
 * The attr as a writer of e's byte order stores it, cut or padded to sz,
 * with a->size in its size field.  A big-endian writer lays the flag
 * bit-fields out from the most significant bit (what perf_event__attr_swap()
 * undoes).
 */
static void e_attr(struct perfemit *e, const struct perf_event_attr *a, size_t sz)
{
	struct perfemit full;
	size_t i;

	perfemit__init(&full, e->be);
	perfemit__attr(&full, a, 128);
	perfemit__put(&full, 4, a->size, 4);
	/* bytes past 128 belong to a newer ABI (config3, ...): junk to us */
	for (i = 128; i < sz; i++)
		perfemit__u8(&full, 0xab);
	perfemit__bytes(e, full.p, sz);
	perfemit__release(&full);
}

/* the cpu-clock:ppp event of /tmp/x.data (perf record -o /tmp/x.data -- sleep 0.1, perf 6.1) */
static struct perf_event_attr cpu_clock_attr(uint32_t size)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = size;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = 4000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	a.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	attr_set_flags(&a, FL_DISABLED | FL_INHERIT | FL_MMAP | FL_COMM | FL_FREQ | FL_ENABLE_ON_EXEC |
			   FL_TASK | FL_PRECISE_IP_3 | FL_SAMPLE_ID_ALL | FL_MMAP2 | FL_COMM_EXEC |
			   FL_KSYMBOL | FL_BPF_EVENT);
	/* fields that perf's line does not show because they are zero there */
	a.config1 = 0x40;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	a.sample_max_stack = 127;
	return a;
}

static void check_cpu_clock(const struct perf_event_desc *d, uint32_t sz)
{
	const struct perf_event_attr *a = &d->attr;

	assert_int_equal(a->type, PERF_TYPE_SOFTWARE);
	assert_int_equal(a->size, sz);
	assert_int_equal(a->config, 0);
	assert_int_equal(a->sample_period, 4000);
	assert_int_equal(a->sample_type, 0x107);
	assert_int_equal(a->read_format, PERF_FORMAT_ID | PERF_FORMAT_LOST);
	assert_int_equal(a->disabled, 1);
	assert_int_equal(a->inherit, 1);
	assert_int_equal(a->pinned, 0);
	assert_int_equal(a->freq, 1);
	assert_int_equal(a->precise_ip, 3);
	assert_int_equal(a->sample_id_all, 1);
	assert_int_equal(a->mmap2, 1);
	assert_int_equal(a->bpf_event, 1);
	assert_int_equal(a->exclude_kernel, 0);
	assert_int_equal(a->config1, 0x40);
	/* fields past the file's attr size stay zero */
	if (sz >= 80)
		assert_int_equal(a->branch_sample_type, PERF_SAMPLE_BRANCH_ANY);
	else
		assert_int_equal(a->branch_sample_type, 0);
	if (sz >= 112)
		assert_int_equal(a->sample_max_stack, 127);
	else
		assert_int_equal(a->sample_max_stack, 0);
}

static void test_event_desc(void **state)
{
	static const uint32_t sizes[] = { 64, 80, 128, 136 };
	size_t s;

	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		struct perf_features ft;
		struct perfemit *e = emit_new(state);
		struct perf_event_attr a = cpu_clock_attr(sizes[s]);
		const struct perf_event_desc *d;
		char expect[1024];

		perf_features__init(&ft);
		perfemit__u32(e, 2);
		perfemit__u32(e, sizes[s]);
		e_attr(e, &a, sizes[s]);
		e_spec(e, "u32:2 s:cpu-clock:ppp u64:12 u64:13");
		a.config = 5;
		attr_set_flags(&a, FL_INHERIT);
		e_attr(e, &a, sizes[s]);
		e_spec(e, "u32:0 s:dummy:u");
		decode_ok(&ft, PERF_FEAT_EVENT_DESC, e);

		assert_int_equal(ft.event_descs.len, 2);
		d = &ARRAY_AT(&ft.event_descs, struct perf_event_desc, 0);
		assert_string_equal(d->name, "cpu-clock:ppp");
		assert_int_equal(d->nr_ids, 2);
		assert_int_equal(d->ids[0], 12);
		assert_int_equal(d->ids[1], 13);
		check_cpu_clock(d, sizes[s]);
		d = &ARRAY_AT(&ft.event_descs, struct perf_event_desc, 1);
		assert_string_equal(d->name, "dummy:u");
		assert_int_equal(d->nr_ids, 0);
		assert_int_equal(d->attr.config, 5);
		assert_int_equal(d->attr.inherit, 1);
		assert_int_equal(d->attr.disabled, 0);

		if (sizes[s] == 128) {
			/*
			 * perf: /tmp/x.data, less the config1/branch/max_stack
			 * fields this test adds
			 */
			assert_string_equal(fact(&ft, "event_desc", "cpu-clock:ppp", 0),
				"id = { 12, 13 }, type = 1, size = 128, { sample_period, sample_freq } = 4000, "
				"sample_type = IP|TID|TIME|PERIOD, read_format = ID|LOST, disabled = 1, "
				"inherit = 1, mmap = 1, comm = 1, freq = 1, enable_on_exec = 1, task = 1, "
				"precise_ip = 3, sample_id_all = 1, mmap2 = 1, comm_exec = 1, ksymbol = 1, "
				"bpf_event = 1, { bp_addr, config1 } = 0x40, branch_sample_type = ANY, "
				"sample_max_stack = 127");
		}
		snprintf(expect, sizeof(expect),
			 "type = 1, size = %u, config = 0x5, { sample_period, sample_freq } = 4000, "
			 "sample_type = IP|TID|TIME|PERIOD, read_format = ID|LOST, inherit = 1, "
			 "{ bp_addr, config1 } = 0x40%s%s", sizes[s],
			 sizes[s] >= 80 ? ", branch_sample_type = ANY" : "",
			 sizes[s] >= 112 ? ", sample_max_stack = 127" : "");
		assert_string_equal(fact(&ft, "event_desc", "dummy:u", 0), expect);
		perf_features__release(&ft);
		emit_free(e);
	}
}

/* ---------------------------------------------------------------- build ids */

/* the name padded to keep the record 8-aligned (with the pid) */
static void e_build_id(struct perfemit *e, uint16_t misc, int32_t pid, const uint8_t *id,
		       uint8_t size, const char *name, int old_abi)
{
	perfemit__build_id(e, misc, pid, id, size, name, (strlen(name) + 1 + 7) / 8 * 8 + 4, old_abi);
}

static void test_build_id(void **state)
{
	static const uint8_t kernel[20] = {
		0xe4, 0xf1, 0x8d, 0x9d, 0xc1, 0xd0, 0xe6, 0xfc, 0x2b, 0x17,
		0xe9, 0x3e, 0x88, 0x5a, 0x64, 0x7b, 0x3c, 0x0a, 0x6f, 0xc1,
	};
	struct perf_features ft;
	struct perfemit *e = emit_new(state);
	const struct perf_build_id *b;

	perf_features__init(&ft);
	/* the kernel entry of /tmp/x.data (perf buildid-list) */
	e_build_id(e, PERF_RECORD_MISC_KERNEL, -1, kernel, 20, "[kernel.kallsyms]", 0);
	/* a 16-byte id (MD5-style), the real size in the size byte */
	e_build_id(e, PERF_RECORD_MISC_USER | (1 << 15), 1234, kernel + 4, 16, "/usr/bin/sleep", 0);
	decode_ok(&ft, PERF_FEAT_BUILD_ID, e);

	assert_int_equal(ft.build_ids.len, 2);
	b = &ARRAY_AT(&ft.build_ids, struct perf_build_id, 0);
	assert_int_equal(b->pid, -1);
	assert_int_equal(b->misc, PERF_RECORD_MISC_KERNEL);
	assert_int_equal(b->size, 20);
	assert_memory_equal(b->build_id, kernel, 20);
	assert_string_equal(b->filename, "[kernel.kallsyms]");
	b = &ARRAY_AT(&ft.build_ids, struct perf_build_id, 1);
	assert_int_equal(b->pid, 1234);
	assert_int_equal(b->misc, PERF_RECORD_MISC_USER);
	assert_int_equal(b->size, 16);
	assert_memory_equal(b->build_id, kernel + 4, 16);
	assert_string_equal(b->filename, "/usr/bin/sleep");
	assert_string_equal(fact(&ft, "build_id", "[kernel.kallsyms]", 0),
			    "e4f18d9dc1d0e6fc2b17e93e885a647b3c0a6fc1");
	assert_string_equal(fact(&ft, "build_id", "/usr/bin/sleep", 0),
			    "c1d0e6fc2b17e93e885a647b3c0a6fc1");
	emit_free(e);

	/* before the pid field (perf_header__read_build_ids_abi_quirk) */
	e = emit_new(state);
	e_build_id(e, PERF_RECORD_MISC_KERNEL, 0, kernel, 20, "[kernel.kallsyms]", 1);
	e_build_id(e, PERF_RECORD_MISC_GUEST_KERNEL, 0, kernel, 20, "[guest.kernel]", 1);
	decode_ok(&ft, PERF_FEAT_BUILD_ID, e);
	assert_int_equal(ft.build_ids.len, 2);
	b = &ARRAY_AT(&ft.build_ids, struct perf_build_id, 0);
	assert_int_equal(b->pid, -1);
	assert_string_equal(b->filename, "[kernel.kallsyms]");
	assert_memory_equal(b->build_id, kernel, 20);
	b = &ARRAY_AT(&ft.build_ids, struct perf_build_id, 1);
	assert_int_equal(b->pid, 0);
	assert_string_equal(b->filename, "[guest.kernel]");
	assert_int_equal(nr_facts(&ft, "build_id"), 2);
	emit_free(e);
	perf_features__release(&ft);
}

/* ---------------------------------------------------------------- topology */

static void e_nrcpus(struct perf_features *ft, void **state, uint32_t nr)
{
	struct perfemit *e = emit_new(state);

	perfemit__u32(e, nr);
	perfemit__u32(e, nr);
	decode_ok(ft, PERF_FEAT_NRCPUS, e);
	emit_free(e);
}

static void test_cpu_topology(void **state)
{
	struct perf_features ft;
	struct perfemit *e;

	/* /tmp/x.data: 2 cpus with dies; perf printed these lines */
	perf_features__init(&ft);
	e_nrcpus(&ft, state, 2);
	e = emit_spec(state, "u32:1 s:0-1 u32:2 s:0 s:1");
	perfemit__u32(e, 0);		/* cpu 0: core 0, socket 0 */
	perfemit__u32(e, 0);
	perfemit__u32(e, 1);		/* cpu 1: core 1, socket 0 */
	e_spec(e, "u32:0 u32:1 s:0-1");
	perfemit__u32(e, 0);		/* die ids */
	perfemit__u32(e, 0);
	decode_ok(&ft, PERF_FEAT_CPU_TOPOLOGY, e);
	assert_int_equal(nr_facts(&ft, "cpu_topology"), 6);
	/* print_cpu_topology() order: sockets, dies, threads, cpus */
	assert_string_equal(fact_at(&ft, 2)->key, "sibling sockets");
	assert_string_equal(fact_at(&ft, 2)->value, "0-1");
	assert_string_equal(fact_at(&ft, 3)->key, "sibling dies");
	assert_string_equal(fact_at(&ft, 4)->key, "sibling threads");
	assert_string_equal(fact_at(&ft, 4)->value, "0");
	assert_string_equal(fact_at(&ft, 5)->value, "1");
	assert_string_equal(fact(&ft, "cpu_topology", "cpu 0", 0), "Core ID 0, Die ID 0, Socket ID 0");
	assert_string_equal(fact(&ft, "cpu_topology", "cpu 1", 0), "Core ID 1, Die ID 0, Socket ID 0");
	emit_free(e);

	/* without die information (quipper group_desc-4.14 style) */
	spec_ok(&ft, state, PERF_FEAT_CPU_TOPOLOGY, "u32:1 s:0-1 u32:1 s:0-1 u32:0 u32:0 u32:0 u32:0");
	assert_int_equal(nr_facts(&ft, "cpu_topology"), 4);
	assert_null(fact(&ft, "cpu_topology", "sibling dies", 0));
	assert_string_equal(fact(&ft, "cpu_topology", "cpu 1", 0), "Core ID 0, Socket ID 0");

	/* old perf: the sibling lists only */
	spec_ok(&ft, state, PERF_FEAT_CPU_TOPOLOGY, "u32:2 s:0-7,16-23 s:8-15,24-31 u32:0");
	assert_int_equal(nr_facts(&ft, "cpu_topology"), 2);
	assert_string_equal(fact(&ft, "cpu_topology", "sibling sockets", 1), "8-15,24-31");

	/* NRCPUS says 4 cpus, the ids of only 2 follow */
	e_nrcpus(&ft, state, 4);
	spec_bad(&ft, state, PERF_FEAT_CPU_TOPOLOGY, "u32:1 s:0-3 u32:0 u32:0 u32:0 u32:1 u32:0",
		 "cpu_topology: cpus of core and socket ids 4 exceeds");
	assert_int_equal(nr_facts(&ft, "cpu_topology"), 0);
	perf_features__release(&ft);

	/* without NRCPUS the per-cpu part cannot be sized and is left alone */
	perf_features__init(&ft);
	spec_ok(&ft, state, PERF_FEAT_CPU_TOPOLOGY, "u32:1 s:0-1 u32:0 u32:0 u32:0");
	assert_int_equal(nr_facts(&ft, "cpu_topology"), 1);
	perf_features__release(&ft);
}

static void test_numa_hybrid(void **state)
{
	struct perf_features ft;

	perf_features__init(&ft);
	/* quipper/perf.data.numatopology-3.2 */
	spec_ok(&ft, state, PERF_FEAT_NUMA_TOPOLOGY, "u32:2 "
		"u32:0 u64:33479172 u64:13471416 s:0-7,16-23 "
		"u32:1 u64:33554432 u64:21360316 s:8-15,24-31");
	/* perf: "# node0 meminfo  : total = 33479172 kB, free = 13471416 kB" */
	assert_string_equal(fact(&ft, "numa_topology", "node0 meminfo", 0),
			    "total = 33479172 kB, free = 13471416 kB");
	assert_string_equal(fact(&ft, "numa_topology", "node1 cpu list", 0), "8-15,24-31");
	assert_int_equal(nr_facts(&ft, "numa_topology"), 4);

	/* quipper/perf.data.hybrid_topology */
	spec_ok(&ft, state, PERF_FEAT_HYBRID_TOPOLOGY, "u32:2 s:cpu_core s:0-3 s:cpu_atom s:4-11");
	assert_string_equal(fact(&ft, "hybrid_topology", "cpu_core", 0), "0-3");
	assert_string_equal(fact(&ft, "hybrid_topology", "cpu_atom", 0), "4-11");
	perf_features__release(&ft);
}

static void test_cache_mem(void **state)
{
	struct perf_features ft;
	struct perfemit *e;
	uint64_t words[4];
	int i;

	perf_features__init(&ft);
	e = emit_new(state);
	perfemit__u32(e, 1);		/* version */
	e_spec(e, "u32:2 "
	       "u32:1 u32:64 u32:64 u32:8 s:Data s:32K s:0 "
	       "u32:3 u32:64 u32:32768 u32:16 s:Unified s:32768K s:0-1");
	decode_ok(&ft, PERF_FEAT_CACHE, e);
	/* perf: "#  L1 Data                 32K [0]", "#  L3 Unified           32768K [0-1]" */
	assert_string_equal(fact(&ft, "cache", "L1 Data", 0), "32K [0]");
	assert_string_equal(fact(&ft, "cache", "L3 Unified", 0), "32768K [0-1]");
	emit_free(e);

	/*
	 * /tmp/x.data: perf printed "memory nodes (nr 1, block size 0x8000000)"
	 * and "0 [24G]: 0-23,32-199".  Blocks 0-23 and 32-199 are 24 + 168 = 192
	 * blocks of 128 MiB = 24 GiB.
	 */
	e = emit_spec(state, "u64:1 u64:0x8000000 u64:1");
	perfemit__u64(e, 0);		/* node */
	perfemit__u64(e, 200);		/* size */
	perfemit__u64(e, 200);		/* bitmap bits: 4 words */
	words[0] = UINT64_C(0xffffffff00ffffff);	/* 0-23, 32-63 */
	words[1] = ~UINT64_C(0);			/* 64-127 */
	words[2] = ~UINT64_C(0);			/* 128-191 */
	words[3] = 0xff;				/* 192-199 */
	for (i = 0; i < 4; i++)
		perfemit__u64(e, words[i]);
	decode_ok(&ft, PERF_FEAT_MEM_TOPOLOGY, e);
	assert_string_equal(fact(&ft, "mem_topology", "nodes", 0), "1");
	assert_string_equal(fact(&ft, "mem_topology", "block_size", 0), "0x8000000");
	assert_string_equal(fact(&ft, "mem_topology", "node 0", 0), "[24G]: 0-23,32-199");
	emit_free(e);

	/* single bits and a run at the very end */
	e = emit_spec(state, "u64:1 u64:1024 u64:1 u64:3 u64:70 u64:70");
	perfemit__u64(e, UINT64_C(1) << 5 | UINT64_C(1) << 63);
	perfemit__u64(e, 0x3f);		/* 64-69 */
	decode_ok(&ft, PERF_FEAT_MEM_TOPOLOGY, e);
	/* 8 blocks of 1 KiB = 8192 bytes: "8K" */
	assert_string_equal(fact(&ft, "mem_topology", "node 3", 0), "[8K]: 5,63-69");
	emit_free(e);
	perf_features__release(&ft);
}

static void test_pmus_groups(void **state)
{
	struct perf_features ft;
	struct perfemit *e;
	struct perf_event_attr a;

	perf_features__init(&ft);
	spec_ok(&ft, state, PERF_FEAT_PMU_MAPPINGS, "u32:2 u32:1 s:software u32:9 s:msr");
	assert_int_equal(ft.pmu_mappings.len, 2);
	assert_int_equal(ARRAY_AT(&ft.pmu_mappings, struct perf_pmu_mapping, 1).type, 9);
	assert_string_equal(ARRAY_AT(&ft.pmu_mappings, struct perf_pmu_mapping, 1).name, "msr");
	assert_string_equal(fact(&ft, "pmu_mappings", "software", 0), "1");
	assert_string_equal(fact(&ft, "pmu_mappings", "msr", 0), "9");

	/* group without EVENT_DESC: no names to show */
	e = emit_spec(state, "u32:1 s:{anon_group} u32:0 u32:2");
	decode_ok(&ft, PERF_FEAT_GROUP_DESC, e);
	assert_string_equal(fact(&ft, "group_desc", "group", 0),
			    "{anon_group}, leader_idx = 0, nr_members = 2");

	/* quipper/perf.data.group_desc-4.14: perf: "# group: {cache-references,branch-misses}" */
	{
		struct perfemit *ev = emit_new(state);

		a = cpu_clock_attr(112);
		e_spec(ev, "u32:2 u32:112");
		e_attr(ev, &a, 112);
		e_spec(ev, "u32:0 s:cache-references");
		e_attr(ev, &a, 112);
		e_spec(ev, "u32:0 s:branch-misses");
		decode_ok(&ft, PERF_FEAT_EVENT_DESC, ev);
		emit_free(ev);
	}
	decode_ok(&ft, PERF_FEAT_GROUP_DESC, e);
	assert_int_equal(nr_facts(&ft, "group_desc"), 1);
	assert_string_equal(fact(&ft, "group_desc", "group", 0), "{cache-references,branch-misses}");
	assert_int_equal(ft.groups.len, 1);
	assert_string_equal(ARRAY_AT(&ft.groups, struct perf_group_desc, 0).name, "{anon_group}");
	assert_int_equal(ARRAY_AT(&ft.groups, struct perf_group_desc, 0).nr_members, 2);
	emit_free(e);

	spec_ok(&ft, state, PERF_FEAT_GROUP_DESC, "u32:1 s:g1 u32:1 u32:1");
	assert_string_equal(fact(&ft, "group_desc", "group", 0), "g1{branch-misses}");

	/* quipper/perf.data.hybrid_topology: perf:
	 * "# cpu_core pmu capabilities: branches=32, max_precise=3, pmu_name=alderlake_hybrid" */
	spec_ok(&ft, state, PERF_FEAT_PMU_CAPS, "u32:2 "
		"u32:3 s:branches s:32 s:max_precise s:3 s:pmu_name s:alderlake_hybrid s:cpu_core "
		"u32:0 s:cpu_atom");
	assert_string_equal(fact(&ft, "pmu_caps", "cpu_core", 0),
			    "branches=32, max_precise=3, pmu_name=alderlake_hybrid");
	assert_string_equal(fact(&ft, "pmu_caps", "cpu_atom", 0), "");

	spec_ok(&ft, state, PERF_FEAT_CPU_PMU_CAPS, "u32:1 s:max_precise s:0");
	assert_string_equal(fact(&ft, "cpu_pmu_caps", "cpu", 0), "max_precise=0");
	perf_features__release(&ft);
}

/* ---------------------------------------------------------------- bad input */

static void test_corrupt(void **state)
{
	struct perf_features ft;
	struct perfemit *e;
	struct perf_event_attr a = cpu_clock_attr(128);
	char expect[128];

	perf_features__init(&ft);

	/* string length past the end */
	spec_bad(&ft, state, PERF_FEAT_HOSTNAME, "u32:100 c:vm z:6",
		 "hostname: string length 100 exceeds the section (8 bytes left)");
	assert_null(ft.hostname);

	/* no NUL within the length */
	spec_bad(&ft, state, PERF_FEAT_OSRELEASE, "u32:8 c:abcdefgh",
		 "osrelease: string of 8 bytes has no NUL");

	/* a good cmdline, then a bad one: nothing of either is left */
	spec_ok(&ft, state, PERF_FEAT_CMDLINE, "u32:1 s:perf");
	spec_bad(&ft, state, PERF_FEAT_CMDLINE, "u32:1000000 s:perf",
		 "cmdline: nr 1000000 exceeds the section");
	assert_int_equal(ft.cmdline_argc, 0);
	assert_null(ft.cmdline);
	assert_int_equal(nr_facts(&ft, "cmdline"), 0);

	/* second argument truncated */
	spec_bad(&ft, state, PERF_FEAT_CMDLINE, "u32:2 s:perf u32:64",
		 "cmdline: argument length 64 exceeds the section (0 bytes left)");
	assert_null(ft.cmdline);

	/* nr_ids far beyond the section: the id array is never allocated */
	e = emit_spec(state, "u32:1 u32:128");
	e_attr(e, &a, 128);
	e_spec(e, "u32:4000000 s:cycles u64:1 u64:2");
	decode_bad(&ft, PERF_FEAT_EVENT_DESC, e, "event_desc: nr_ids 4000000 exceeds the section");
	snprintf(expect, sizeof(expect), "event_desc: nr_ids 4000000 exceeds the section (16 bytes left)");
	assert_string_equal(ft.why_buf, expect);
	assert_int_equal(ft.event_descs.len, 0);
	emit_free(e);

	/* attr cut short: nr says 1 event of 128 bytes, 100 bytes follow */
	e = emit_spec(state, "u32:1 u32:128");
	e_attr(e, &a, 100);
	decode_bad(&ft, PERF_FEAT_EVENT_DESC, e, "event_desc: nr 1 exceeds the section");
	emit_free(e);

	/* second event's attr truncated */
	e = emit_spec(state, "u32:2 u32:128");
	e_attr(e, &a, 128);
	e_spec(e, "u32:0 s:a");
	e_attr(e, &a, 80);
	perfemit__zero(e, 8);
	decode_bad(&ft, PERF_FEAT_EVENT_DESC, e, "event_desc: attr (128 bytes) runs past");
	assert_int_equal(ft.event_descs.len, 0);
	assert_int_equal(nr_facts(&ft, "event_desc"), 0);
	emit_free(e);

	/* attr smaller than ABI 0 */
	spec_bad(&ft, state, PERF_FEAT_EVENT_DESC, "u32:1 u32:32 z:64",
		 "event_desc: attr size 32 is smaller than 64");

	/* a build id record (67: HEADER_BUILD_ID) of size 0 cannot stall the loop */
	spec_bad(&ft, state, PERF_FEAT_BUILD_ID, "u32:67 u16:0 u16:0 z:64",
		 "build_id: record size 0 is smaller than 36");

	/* record size past the section */
	spec_bad(&ft, state, PERF_FEAT_BUILD_ID, "u32:67 u16:0 u16:4000 z:64",
		 "build_id: build id record (4000 bytes) runs past");

	/* build id size byte larger than 20 */
	spec_bad(&ft, state, PERF_FEAT_BUILD_ID,	/* 67: HEADER_BUILD_ID, 32768: MISC_BUILD_ID_SIZE */
		 "u32:67 u16:32768 u16:48 u32:1 z:20 c:0 z:3 c:/bin/ls z:5",
		          "build_id: build id size 48 exceeds 20");
	assert_int_equal(ft.build_ids.len, 0);

	/* fixed-size sections cut short */
	e = emit_new(state);
	perfemit__u32(e, 2);
	decode_bad(&ft, PERF_FEAT_NRCPUS, e, "nrcpus: nr_cpus_online (4 bytes) runs past");
	decode_bad(&ft, PERF_FEAT_TOTAL_MEM, e, "total_mem: total_mem (8 bytes) runs past");
	decode_bad(&ft, PERF_FEAT_SAMPLE_TIME, e, "sample_time: first_sample_time");
	decode_bad(&ft, PERF_FEAT_COMPRESSED, e, "compressed: comp_type");
	emit_free(e);

	/* counts that could ask for huge allocations */
	e = emit_spec(state, "u32:0xffffffff z:40");
	decode_bad(&ft, PERF_FEAT_NUMA_TOPOLOGY, e, "numa_topology: nr nodes 4294967295 exceeds");
	decode_bad(&ft, PERF_FEAT_PMU_MAPPINGS, e, "pmu_mappings: nr pmus 4294967295 exceeds");
	decode_bad(&ft, PERF_FEAT_GROUP_DESC, e, "group_desc: nr groups 4294967295 exceeds");
	decode_bad(&ft, PERF_FEAT_HYBRID_TOPOLOGY, e, "hybrid_topology: nr nodes 4294967295 exceeds");
	decode_bad(&ft, PERF_FEAT_PMU_CAPS, e, "pmu_caps: nr pmus 4294967295 exceeds");
	decode_bad(&ft, PERF_FEAT_CPU_PMU_CAPS, e, "cpu_pmu_caps: nr caps 4294967295 exceeds");
	decode_bad(&ft, PERF_FEAT_BPF_PROG_INFO, e, "bpf_prog_info: count 4294967295 exceeds");
	decode_bad(&ft, PERF_FEAT_BPF_BTF, e, "bpf_btf: count 4294967295 exceeds");
	decode_bad(&ft, PERF_FEAT_CPU_TOPOLOGY, e, "cpu_topology: nr sibling sockets 4294967295");
	emit_free(e);

	spec_bad(&ft, state, PERF_FEAT_AUXTRACE, "u64:0x1000000000000000 z:32",
		 "auxtrace: nr entries 1152921504606846976 exceeds");

	/* versions this code does not know */
	e = emit_spec(state, "u32:2 u32:0 z:16");
	decode_bad(&ft, PERF_FEAT_CACHE, e, "cache: version 2 is not 1");
	decode_bad(&ft, PERF_FEAT_CLOCK_DATA, e, "clock_data: version 2 is not 1");
	emit_free(e);

	/* a memory bitmap of 2^64 - 1 bits */
	spec_bad(&ft, state, PERF_FEAT_MEM_TOPOLOGY, "u64:1 u64:0x8000000 u64:1 u64:0 u64:64 u64:-1 u64:0",
		 "mem_topology: bitmap words 288230376151711744 exceeds");

	/* nothing was left behind by any of these */
	assert_int_equal(ft.facts.len, 0);
	perf_features__release(&ft);
}

/*
 * A section of every kind, decoded at every length short of its own: each
 * prefix gives 0 or -EINVAL, never an overread (run under ASan).
 */
static const struct {
	unsigned feat;
	const char *spec;
} trunc_specs[] = {
	{ PERF_FEAT_HOSTNAME, "s:host" },
	{ PERF_FEAT_NRCPUS, "u32:2 u32:2" },
	{ PERF_FEAT_CMDLINE, "u32:2 s:perf s:record" },
	{ PERF_FEAT_EVENT_DESC, "u32:1 u32:136" },	/* then an attr, its ids and name below */
	{ PERF_FEAT_CPU_TOPOLOGY, "u32:1 s:0-1 u32:1 s:0-1 z:16 u32:1 s:0-1 z:8" },
	{ PERF_FEAT_NUMA_TOPOLOGY, "u32:1 z:20 s:0-1" },
	{ PERF_FEAT_PMU_MAPPINGS, "u32:1 u32:1 s:software" },
	{ PERF_FEAT_GROUP_DESC, "u32:1 s:{anon_group} u32:0 u32:1" },
	{ PERF_FEAT_AUXTRACE, "u64:1 z:16" },
	{ PERF_FEAT_CACHE, "u32:1 u32:1 z:16 s:Data s:32K s:0" },
	{ PERF_FEAT_SAMPLE_TIME, "z:16" },
	{ PERF_FEAT_MEM_TOPOLOGY, "u64:1 u64:4096 u64:1 u64:0 u64:65 u64:65 u64:0xf0 u64:1" },
	{ PERF_FEAT_CLOCKID, "z:8" },
	{ PERF_FEAT_DIR_FORMAT, "z:8" },
	{ PERF_FEAT_BPF_PROG_INFO, "u32:1 u32:4 u32:4 z:16" },
	{ PERF_FEAT_BPF_BTF, "u32:1 u32:1 u32:4 z:4" },
	{ PERF_FEAT_COMPRESSED, "z:20" },
	{ PERF_FEAT_CPU_PMU_CAPS, "u32:1 s:branches s:32" },
	{ PERF_FEAT_CLOCK_DATA, "u32:1 z:20" },
	{ PERF_FEAT_HYBRID_TOPOLOGY, "u32:1 s:cpu_core s:0-3" },
	{ PERF_FEAT_PMU_CAPS, "u32:1 u32:1 s:branches s:32 s:cpu_core" },
};

static void test_truncations(void **state)
{
	struct perfemit *sections[PERF_FEAT_LAST];
	struct perf_event_attr a = cpu_clock_attr(136);
	unsigned feat;
	size_t i;
	uint8_t id[20];

	memset(sections, 0, sizeof(sections));
	memset(id, 0x5a, sizeof(id));
	for (feat = 0; feat < PERF_FEAT_LAST; feat++)
		sections[feat] = emit_new(state);
	for (i = 0; i < sizeof(trunc_specs) / sizeof(trunc_specs[0]); i++)
		assert_int_equal(perfemit__spec(sections[trunc_specs[i].feat], trunc_specs[i].spec), 0);
	e_build_id(sections[PERF_FEAT_BUILD_ID], PERF_RECORD_MISC_USER, 7, id, 20, "/bin/true", 0);
	e_build_id(sections[PERF_FEAT_BUILD_ID], PERF_RECORD_MISC_USER | (1 << 15), 7, id, 8,
		   "/bin/false", 0);
	e_attr(sections[PERF_FEAT_EVENT_DESC], &a, 136);
	assert_int_equal(perfemit__spec(sections[PERF_FEAT_EVENT_DESC], "u32:2 s:cycles u64:1 u64:2"), 0);

	for (feat = 1; feat < PERF_FEAT_LAST; feat++) {
		struct perf_features ft;
		const struct perfemit *e = sections[feat];
		size_t len;

		perf_features__init(&ft);
		e_nrcpus(&ft, state, 2);	/* sizes CPU_TOPOLOGY's per-cpu part */
		for (len = 0; len < e->len; len++) {
			const char *why = NULL;
			int err = decode(&ft, feat, e, len, &why);

			if (err) {
				assert_int_equal(err, -EINVAL);
				assert_non_null(why);
				assert_true(!strncmp(why, perf_feature__name(feat),
						     strlen(perf_feature__name(feat))));
				assert_int_equal(nr_facts(&ft, perf_feature__name(feat)), 0);
			}
		}
		if (e->len)
			decode_ok(&ft, feat, e);
		perf_features__release(&ft);
	}
	for (feat = 0; feat < PERF_FEAT_LAST; feat++)
		emit_free(sections[feat]);
}

static void test_misc(void **state)
{
	struct perf_features ft;
	struct perfemit *e = emit_new(state);

	perf_features__init(&ft);
	/* unknown or reserved features are skipped */
	perfemit__u64(e, 42);
	assert_int_equal(decode(&ft, PERF_FEAT_RESERVED, e, e->len, NULL), 0);
	assert_int_equal(decode(&ft, PERF_FEAT_LAST, e, e->len, NULL), 0);
	assert_int_equal(decode(&ft, 200, e, e->len, NULL), 0);
	assert_false(perf_features__has(&ft, 200));
	assert_false(perf_features__has(&ft, 100000));
	assert_int_equal(ft.facts.len, 0);
	/* an empty section of a feature that needs data: absent, not an error */
	assert_int_equal(decode(&ft, PERF_FEAT_CPUDESC, e, 0, NULL), 0);
	assert_false(perf_features__has(&ft, PERF_FEAT_CPUDESC));
	assert_null(ft.cpudesc);
	emit_free(e);

	assert_int_equal(perf_features__add_fact(&ft, "header", "data size", "%d", 1032), 0);
	assert_string_equal(fact(&ft, "header", "data size", 0), "1032");
	perf_features__release(&ft);
	assert_int_equal(ft.facts.len, 0);
	perf_features__release(&ft);	/* twice is fine */
}

/* ---------------------------------------------------------------- real files */

static uint64_t file_u64(const uint8_t *p, int swapped)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swapped ? bswap_64(v) : v;
}

/*
 * Decode every feature section of a PERFILE2 file, located the way
 * perf_header__process_sections() does: after the data section one
 * { u64 offset, u64 size } per set bit of the 256-bit feature bitmap.
 */
static int decode_file(const char *path, struct perf_features *ft)
{
	uint8_t hdr[104];
	uint64_t bits[4], feat_off;
	int swapped = 0, err = 0;
	unsigned feat, i;
	FILE *f = fopen(path, "rb");

	assert_non_null(f);
	assert_int_equal(fread(hdr, 1, sizeof(hdr), f), sizeof(hdr));
	if (!memcmp(hdr, "PERFILE2", 8))
		swapped = 0;
	else if (!memcmp(hdr, "2ELIFREP", 8))
		swapped = 1;
	else
		fail_msg("%s is not PERFILE2", path);
	assert_int_equal(file_u64(hdr + 8, swapped), 104);	/* header size: not pipe mode */
	feat_off = file_u64(hdr + 40, swapped) + file_u64(hdr + 48, swapped);	/* data end */
	for (i = 0; i < 4; i++)
		bits[i] = file_u64(hdr + 72 + 8 * i, swapped);

	for (feat = 0; feat < 256 && !err; feat++) {
		uint8_t sec[16];
		uint64_t off, size;
		void *buf;
		const char *why = NULL;

		if (!((bits[feat / 64] >> (feat % 64)) & 1))
			continue;
		assert_int_equal(fseek(f, (long)feat_off, SEEK_SET), 0);
		assert_int_equal(fread(sec, 1, 16, f), 16);
		feat_off += 16;
		off = file_u64(sec, swapped);
		size = file_u64(sec + 8, swapped);
		assert_true(size < (64 << 20));
		buf = malloc(size ? size : 1);
		assert_non_null(buf);
		assert_int_equal(fseek(f, (long)off, SEEK_SET), 0);
		assert_int_equal(fread(buf, 1, size, f), size);
		err = perf_features__decode(ft, feat, buf, size, swapped, &why);
		if (err)
			print_error("%s: feature %u: %s\n", path, feat, why);
		free(buf);
	}
	fclose(f);
	return err;
}

static void test_real_files(void **state)
{
	char *path;
	struct perf_features ft;

	(void)state;
	path = external__path("perfparser/vector_static_gcc__perf.data");
	if (!path)
		skip();
	perf_features__init(&ft);
	assert_int_equal(decode_file(path, &ft), 0);
	/* perf report --header-only -I -i vector_static_gcc__perf.data */
	assert_string_equal(ft.hostname, "agathebauer");
	assert_string_equal(ft.osrelease, "5.3.0-arch1-1-ARCH");
	assert_string_equal(ft.version, "4.18.rc3.g3469fa84c163");
	assert_string_equal(ft.arch, "x86_64");
	assert_int_equal(ft.nr_cpus_online, 4);
	assert_int_equal(ft.nr_cpus_avail, 4);
	assert_string_equal(ft.cpudesc, "Intel(R) Core(TM) i7-5600U CPU @ 2.60GHz");
	assert_int_equal(ft.total_mem_kb, 11964120);
	assert_string_equal(fact(&ft, "cmdline", "cmdline", 0),
			    "/home/milian/projects/src/linux/tools/perf/perf record --call-graph dwarf "
			    "-e cycles ./vector_static_gcc_v9.1.0");
	assert_string_equal(fact(&ft, "event_desc", "cycles", 0),
			    "id = { 2181, 2182, 2183, 2184 }, size = 112, { sample_period, sample_freq } = 4000, "
			    "sample_type = IP|TID|TIME|ADDR|CALLCHAIN|PERIOD|REGS_USER|STACK_USER|DATA_SRC, "
			    "read_format = ID, disabled = 1, inherit = 1, mmap = 1, comm = 1, freq = 1, "
			    "enable_on_exec = 1, task = 1, mmap_data = 1, sample_id_all = 1, exclude_guest = 1, "
			    "exclude_callchain_user = 1, mmap2 = 1, comm_exec = 1, ksymbol = 1, bpf_event = 1, "
			    "sample_regs_user = 0xff0fff, sample_stack_user = 8192");
	assert_string_equal(fact(&ft, "cpu_topology", "cpu 2", 0), "Core ID 1, Die ID 0, Socket ID 0");
	assert_string_equal(fact(&ft, "mem_topology", "node 0", 0), "[11G]: 0-19,32-105");
	assert_string_equal(fact(&ft, "cache", "L3 Unified", 0), "4096K [0-3]");
	perf_features__release(&ft);
	free(path);

	path = external__path("quipper/perf.data.group_desc-4.14");
	if (path) {
		perf_features__init(&ft);
		assert_int_equal(decode_file(path, &ft), 0);
		assert_string_equal(ft.hostname, "localhost");
		assert_string_equal(ft.osrelease, "4.14.18");
		assert_string_equal(ft.version, "");
		assert_int_equal(ft.nr_cpus_online, 4);
		assert_string_equal(fact(&ft, "group_desc", "group", 0),
				    "{cache-references,branch-misses}");
		assert_string_equal(fact(&ft, "cmdline", "cmdline", 0),
				    "/usr/bin/perf record -e {cache-references,branch-misses} "
				    "-o /tmp/perf.data.group_desc-4.14 -- echo Hello, World!");
		perf_features__release(&ft);
		free(path);
	}

	path = external__path("quipper/perf.data.numatopology-3.2");
	if (path) {
		perf_features__init(&ft);
		assert_int_equal(decode_file(path, &ft), 0);
		assert_string_equal(ft.hostname, "sq.mtv.corp.google.com");
		assert_string_equal(ft.osrelease, "3.2.5-gg1236");
		assert_int_equal(ft.nr_cpus_online, 32);
		assert_int_equal(ft.nr_cpus_avail, 32);
		assert_string_equal(fact(&ft, "numa_topology", "node1 meminfo", 0),
				    "total = 33554432 kB, free = 21360316 kB");
		assert_string_equal(fact(&ft, "cmdline", "cmdline", 0),
				    "/google/data/ro/projects/goprofiled/perf.3.3.0-7 record -a -- sleep 0");
		/* "Core ID and Socket ID information is not available" */
		assert_null(fact(&ft, "cpu_topology", "cpu 0", 0));
		assert_string_equal(fact(&ft, "cpu_topology", "sibling threads", 15), "15,31");
		perf_features__release(&ft);
		free(path);
	}

	/* perf 6.1 refuses this one (attr size 136); its sections are fine */
	path = external__path("lpd/sleep.compressed.data");
	if (path) {
		perf_features__init(&ft);
		assert_int_equal(decode_file(path, &ft), 0);
		assert_int_equal(ft.comp_type, 1);
		assert_int_equal(ft.comp_level, 1);
		assert_string_equal(fact(&ft, "cmdline", "cmdline", 0),
				    "/usr/bin/perf record -z -o sleep.compressed.data -k monotonic sleep 1");
		assert_int_equal(ARRAY_AT(&ft.event_descs, struct perf_event_desc, 0).attr.size, 136);
		assert_string_equal(ARRAY_AT(&ft.event_descs, struct perf_event_desc, 0).name, "cycles:P");
		perf_features__release(&ft);
		free(path);
	}
}

#define BOTH(fn) \
	cmocka_unit_test_prestate(fn, (void *)&order_native), \
	cmocka_unit_test_prestate(fn, (void *)&order_swapped)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		BOTH(test_strings),
		BOTH(test_nrcpus_mem_cmdline),
		BOTH(test_fixed_sections),
		BOTH(test_event_desc),
		BOTH(test_build_id),
		BOTH(test_cpu_topology),
		BOTH(test_numa_hybrid),
		BOTH(test_cache_mem),
		BOTH(test_pmus_groups),
		BOTH(test_corrupt),
		BOTH(test_truncations),
		BOTH(test_misc),
		cmocka_unit_test(test_real_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

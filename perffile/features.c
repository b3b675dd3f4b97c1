/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Feature sections of perf.data: the HEADER_* sections after the data
 * section (or PERF_RECORD_HEADER_FEATURE payloads in pipe mode), decoded into
 * typed fields and (section, key, value) facts.
 *
 * Layouts follow the write_* / process_* pairs of tools/perf/util/header.c,
 * perf_event__attr_swap() of tools/perf/util/session.c and
 * auxtrace_index__process() of tools/perf/util/auxtrace.c; event facts are
 * worded like perf_event_attr__fprintf() (perf 6.1).  Every section comes
 * from an untrusted file: each count and length is checked against the bytes
 * left before it is used, and a count can never ask for more memory than the
 * section could describe.
 */
#include <byteswap.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perffile/features.h"
#include "perffile/record.h"
#include "util/strbuf.h"

#ifndef PERF_RECORD_MISC_BUILD_ID_SIZE
#define PERF_RECORD_MISC_BUILD_ID_SIZE (1 << 15)	/* tools/lib/perf/include/perf/event.h */
#endif

#define BUILD_ID_SIZE 20
#define BUILD_ID_RECORD_SIZE 36		/* header, pid, build_id[24] */
#define BUILD_ID_RECORD_SIZE_OLD 32	/* before pid was added (a1645ce1) */
#define HOST_KERNEL_ID (-1)
#define DEFAULT_GUEST_KERNEL_ID 0
#define PERF_COMP_NONE 0
#define PERF_COMP_ZSTD 1

static const char *const feature_names[PERF_FEAT_LAST] = {
	[PERF_FEAT_TRACING_DATA] = "tracing_data",
	[PERF_FEAT_BUILD_ID] = "build_id",
	[PERF_FEAT_HOSTNAME] = "hostname",
	[PERF_FEAT_OSRELEASE] = "osrelease",
	[PERF_FEAT_VERSION] = "version",
	[PERF_FEAT_ARCH] = "arch",
	[PERF_FEAT_NRCPUS] = "nrcpus",
	[PERF_FEAT_CPUDESC] = "cpudesc",
	[PERF_FEAT_CPUID] = "cpuid",
	[PERF_FEAT_TOTAL_MEM] = "total_mem",
	[PERF_FEAT_CMDLINE] = "cmdline",
	[PERF_FEAT_EVENT_DESC] = "event_desc",
	[PERF_FEAT_CPU_TOPOLOGY] = "cpu_topology",
	[PERF_FEAT_NUMA_TOPOLOGY] = "numa_topology",
	[PERF_FEAT_BRANCH_STACK] = "branch_stack",
	[PERF_FEAT_PMU_MAPPINGS] = "pmu_mappings",
	[PERF_FEAT_GROUP_DESC] = "group_desc",
	[PERF_FEAT_AUXTRACE] = "auxtrace",
	[PERF_FEAT_STAT] = "stat",
	[PERF_FEAT_CACHE] = "cache",
	[PERF_FEAT_SAMPLE_TIME] = "sample_time",
	[PERF_FEAT_MEM_TOPOLOGY] = "mem_topology",
	[PERF_FEAT_CLOCKID] = "clockid",
	[PERF_FEAT_DIR_FORMAT] = "dir_format",
	[PERF_FEAT_BPF_PROG_INFO] = "bpf_prog_info",
	[PERF_FEAT_BPF_BTF] = "bpf_btf",
	[PERF_FEAT_COMPRESSED] = "compressed",
	[PERF_FEAT_CPU_PMU_CAPS] = "cpu_pmu_caps",
	[PERF_FEAT_CLOCK_DATA] = "clock_data",
	[PERF_FEAT_HYBRID_TOPOLOGY] = "hybrid_topology",
	[PERF_FEAT_PMU_CAPS] = "pmu_caps",
};

const char *perf_feature__name(unsigned feat)
{
	if (feat >= PERF_FEAT_LAST)
		return NULL;
	return feature_names[feat];
}

void perf_features__init(struct perf_features *ft)
{
	memset(ft, 0, sizeof(*ft));
	array__init(&ft->build_ids, sizeof(struct perf_build_id));
	array__init(&ft->event_descs, sizeof(struct perf_event_desc));
	array__init(&ft->facts, sizeof(struct perf_fact));
	array__init(&ft->pmu_mappings, sizeof(struct perf_pmu_mapping));
	array__init(&ft->groups, sizeof(struct perf_group_desc));
	array__init(&ft->auxtrace_index, sizeof(struct perf_auxtrace_index_entry));
}

static void free_cmdline(struct perf_features *ft)
{
	uint32_t i;

	for (i = 0; i < ft->cmdline_argc; i++)
		free(ft->cmdline[i]);
	free(ft->cmdline);
	ft->cmdline = NULL;
	ft->cmdline_argc = 0;
}

static void free_build_ids(struct array *a)
{
	size_t i;

	for (i = 0; i < a->len; i++)
		free(ARRAY_AT(a, struct perf_build_id, i).filename);
	array__release(a);
}

static void free_event_descs(struct array *a)
{
	size_t i;

	for (i = 0; i < a->len; i++) {
		free(ARRAY_AT(a, struct perf_event_desc, i).name);
		free(ARRAY_AT(a, struct perf_event_desc, i).ids);
	}
	array__release(a);
}

static void free_pmu_mappings(struct array *a)
{
	size_t i;

	for (i = 0; i < a->len; i++)
		free(ARRAY_AT(a, struct perf_pmu_mapping, i).name);
	array__release(a);
}

static void free_groups(struct array *a)
{
	size_t i;

	for (i = 0; i < a->len; i++)
		free(ARRAY_AT(a, struct perf_group_desc, i).name);
	array__release(a);
}

static void free_fact(struct perf_fact *f)
{
	free(f->section);
	free(f->key);
	free(f->value);
}

void perf_features__release(struct perf_features *ft)
{
	size_t i;

	free(ft->hostname);
	free(ft->osrelease);
	free(ft->version);
	free(ft->arch);
	free(ft->cpudesc);
	free(ft->cpuid);
	free_cmdline(ft);
	free_build_ids(&ft->build_ids);
	free_event_descs(&ft->event_descs);
	free_pmu_mappings(&ft->pmu_mappings);
	tp_formats__release(&ft->tp_formats);
	free_groups(&ft->groups);
	array__release(&ft->auxtrace_index);
	for (i = 0; i < ft->facts.len; i++)
		free_fact(&ARRAY_AT(&ft->facts, struct perf_fact, i));
	array__release(&ft->facts);
	perf_features__init(ft);
}

int perf_features__has(const struct perf_features *ft, unsigned feat)
{
	if (feat >= PERF_FEAT_BITS)
		return 0;
	return (ft->present[feat / 64] >> (feat % 64)) & 1;
}

static int add_fact_v(struct perf_features *ft, const char *section, const char *key,
		      const char *fmt, va_list ap) __attribute__((format(printf, 4, 0)));

static int add_fact_v(struct perf_features *ft, const char *section, const char *key,
		      const char *fmt, va_list ap)
{
	struct perf_fact f = { NULL, NULL, NULL };

	f.section = strdup(section);
	f.key = strdup(key);
	if (vasprintf(&f.value, fmt, ap) < 0)
		f.value = NULL;
	if (!f.section || !f.key || !f.value || array__append(&ft->facts, &f, 1)) {
		free_fact(&f);
		return -ENOMEM;
	}
	return 0;
}

int perf_features__add_fact(struct perf_features *ft, const char *section, const char *key,
			    const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = add_fact_v(ft, section, key, fmt, ap);
	va_end(ap);
	return err;
}

/* Forget what an earlier decode of feat left: typed values and facts. */
static void clear_feature(struct perf_features *ft, unsigned feat)
{
	const char *name = perf_feature__name(feat);
	size_t i, j;

	switch (feat) {
	case PERF_FEAT_TRACING_DATA:
		ft->tracing_data_size = 0;
		tp_formats__release(&ft->tp_formats);
		break;
	case PERF_FEAT_BUILD_ID: free_build_ids(&ft->build_ids); break;
	case PERF_FEAT_HOSTNAME: free(ft->hostname); ft->hostname = NULL; break;
	case PERF_FEAT_OSRELEASE: free(ft->osrelease); ft->osrelease = NULL; break;
	case PERF_FEAT_VERSION: free(ft->version); ft->version = NULL; break;
	case PERF_FEAT_ARCH: free(ft->arch); ft->arch = NULL; break;
	case PERF_FEAT_CPUDESC: free(ft->cpudesc); ft->cpudesc = NULL; break;
	case PERF_FEAT_CPUID: free(ft->cpuid); ft->cpuid = NULL; break;
	case PERF_FEAT_NRCPUS: ft->nr_cpus_online = ft->nr_cpus_avail = 0; break;
	case PERF_FEAT_TOTAL_MEM: ft->total_mem_kb = 0; break;
	case PERF_FEAT_CMDLINE: free_cmdline(ft); break;
	case PERF_FEAT_EVENT_DESC: free_event_descs(&ft->event_descs); break;
	case PERF_FEAT_PMU_MAPPINGS: free_pmu_mappings(&ft->pmu_mappings); break;
	case PERF_FEAT_GROUP_DESC: free_groups(&ft->groups); break;
	case PERF_FEAT_AUXTRACE: array__release(&ft->auxtrace_index); break;
	case PERF_FEAT_SAMPLE_TIME: ft->first_sample_time = ft->last_sample_time = 0; break;
	case PERF_FEAT_CLOCKID: ft->clockid = 0; break;
	case PERF_FEAT_DIR_FORMAT: ft->dir_format_version = 0; break;
	case PERF_FEAT_COMPRESSED:
		ft->comp_ver = ft->comp_type = ft->comp_level = 0;
		ft->comp_ratio = ft->comp_mmap_len = 0;
		break;
	case PERF_FEAT_CLOCK_DATA:
		ft->clock_clockid = 0;
		ft->clock_tod_ns = ft->clock_clockid_ns = 0;
		break;
	default:
		break;
	}
	ft->present[feat / 64] &= ~(UINT64_C(1) << (feat % 64));

	for (i = j = 0; i < ft->facts.len; i++) {
		struct perf_fact *f = &ARRAY_AT(&ft->facts, struct perf_fact, i);

		if (name && !strcmp(f->section, name)) {
			free_fact(f);
			continue;
		}
		if (i != j)
			ARRAY_AT(&ft->facts, struct perf_fact, j) = *f;
		j++;
	}
	ft->facts.len = j;
}

/* ---------------------------------------------------------------- reading */

/* A bounded, byte-order-aware reader over one section. */
struct cursor {
	const uint8_t *p;
	uint64_t left;
	int swapped;
	struct perf_features *ft;
	const char *sec;
};

static int fail(struct cursor *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct cursor *c, const char *fmt, ...)
{
	char *buf = c->ft->why_buf;
	size_t size = sizeof(c->ft->why_buf);
	int n;
	va_list ap;

	n = snprintf(buf, size, "%s: ", c->sec);
	if (n < 0 || (size_t)n >= size)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(buf + n, size - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int fact(struct cursor *c, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fact(struct cursor *c, const char *key, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = add_fact_v(c->ft, c->sec, key, fmt, ap);
	va_end(ap);
	return err;
}

static int take(struct cursor *c, uint64_t n, const uint8_t **out, const char *what)
{
	if (n > c->left)
		return fail(c, "%s (%" PRIu64 " bytes) runs past the end of the section (%" PRIu64
			    " bytes left)", what, n, c->left);
	*out = c->p;
	if (n) {	/* no arithmetic on a NULL pointer for empty sections */
		c->p += n;
		c->left -= n;
	}
	return 0;
}

/* an n-byte word (2, 4 or 8) into *v, in host byte order */
static int get_word(struct cursor *c, void *v, size_t n, const char *what)
{
	const uint8_t *p = NULL;
	uint8_t *b = v;
	int err = take(c, n, &p, what);

	if (err)
		return err;
	memcpy(v, p, n);
	for (size_t i = 0; c->swapped && i < n / 2; i++) {
		uint8_t t = b[i];

		b[i] = b[n - 1 - i];
		b[n - 1 - i] = t;
	}
	return 0;
}

static int get_u16(struct cursor *c, uint16_t *v, const char *what)
{
	return get_word(c, v, sizeof(*v), what);
}

static int get_u32(struct cursor *c, uint32_t *v, const char *what)
{
	return get_word(c, v, sizeof(*v), what);
}

static int get_u64(struct cursor *c, uint64_t *v, const char *what)
{
	return get_word(c, v, sizeof(*v), what);
}

/*
 * A perf string (do_write_string): u32 len, then len bytes holding the
 * string, its NUL and zero padding.  *s points into the section and is
 * NUL-terminated there.  len 0 is read as "".
 */
static int get_string(struct cursor *c, const char **s, const char *what)
{
	const uint8_t *p = NULL;
	uint32_t len;
	int err;

	err = get_u32(c, &len, what);
	if (err)
		return err;
	if (len > c->left)
		return fail(c, "%s length %" PRIu32 " exceeds the section (%" PRIu64 " bytes left)",
			    what, len, c->left);
	err = take(c, len, &p, what);
	if (err)
		return err;
	if (!len) {
		*s = "";
		return 0;
	}
	if (!memchr(p, '\0', len))
		return fail(c, "%s of %" PRIu32 " bytes has no NUL", what, len);
	*s = (const char *)p;
	return 0;
}

static int dup_string(struct cursor *c, char **out, const char *what)
{
	const char *s;
	int err = get_string(c, &s, what);

	if (err)
		return err;
	*out = strdup(s);
	return *out ? 0 : -ENOMEM;
}

/* nr entries of at least min_entry bytes each must fit in what is left */
static int check_count(struct cursor *c, uint64_t nr, uint64_t min_entry, const char *what)
{
	if (nr > c->left / min_entry)
		return fail(c, "%s %" PRIu64 " exceeds the section (%" PRIu64 " bytes left)",
			    what, nr, c->left);
	return 0;
}

/* a u32 count of entries of at least min bytes each, checked against what is left */
static int get_count(struct cursor *c, uint32_t *nr, size_t min, const char *what)
{
	int err = get_u32(c, nr, what);

	return err ? err : check_count(c, *nr, min, what);
}

/* ---------------------------------------------------------------- simple sections */

static int decode_tracing_data(struct cursor *c)
{
	size_t bad = 0;
	int err;

	c->ft->tracing_data_size = c->left;
	c->ft->tp_malformed = 0;	/* a pipe may send it again */
	err = fact(c, "size", "%" PRIu64, c->left);
	if (err)
		return err;
	/* the formats a tracepoint sample's fields are read by; what does not parse is left out */
	err = c->left > SIZE_MAX ? -EINVAL : tp_formats__parse(&c->ft->tp_formats, c->p, (size_t)c->left, &bad);
	if (err == -ENOMEM)
		return err;
	if (err) {
		c->ft->tp_malformed = 1;
		c->ft->tp_bad_at = bad;
		return fact(c, "formats", "%zu (the rest malformed at byte %zu of the section)",
			    c->ft->tp_formats.nr, bad);
	}
	return 0;
}

static int decode_string_feature(struct cursor *c, char **field)
{
	int err = dup_string(c, field, "string");

	if (err)
		return err;
	return fact(c, c->sec, "%s", *field);
}

static int decode_nrcpus(struct cursor *c)
{
	struct perf_features *ft = c->ft;
	int err;

	/* write_nrcpus(): max present cpu (avail) first, then online */
	err = get_u32(c, &ft->nr_cpus_avail, "nr_cpus_avail");
	if (!err)
		err = get_u32(c, &ft->nr_cpus_online, "nr_cpus_online");
	if (!err)
		err = fact(c, "online", "%" PRIu32, ft->nr_cpus_online);
	if (!err)
		err = fact(c, "available", "%" PRIu32, ft->nr_cpus_avail);
	return err;
}

/* a section that is one u64: read it into *v (what names it in errors) and state it as key */
static int one_u64(struct cursor *c, uint64_t *v, const char *what, const char *key)
{
	int err = get_u64(c, v, what);

	if (err)
		return err;
	return fact(c, key, "%" PRIu64, *v);
}

static int decode_total_mem(struct cursor *c)
{
	return one_u64(c, &c->ft->total_mem_kb, "total_mem", "kb");
}

static int decode_cmdline(struct cursor *c)
{
	struct perf_features *ft = c->ft;
	struct strbuf sb = STRBUF_INIT;
	uint32_t nr, i;
	int err;

	err = get_count(c, &nr, sizeof(uint32_t), "nr");
	if (err)
		return err;
	ft->cmdline = calloc(nr ? nr : 1, sizeof(*ft->cmdline));
	if (!ft->cmdline)
		return -ENOMEM;
	for (i = 0; i < nr && !err; i++) {
		err = dup_string(c, &ft->cmdline[i], "argument");
		if (err)
			break;
		ft->cmdline_argc++;
		if ((i && strbuf__addch(&sb, ' ')) || strbuf__addstr(&sb, ft->cmdline[i]))
			err = -ENOMEM;
	}
	if (!err)
		err = fact(c, "cmdline", "%s", sb.buf);
	strbuf__release(&sb);
	return err;
}

static int decode_sample_time(struct cursor *c)
{
	struct perf_features *ft = c->ft;
	int err;

	err = get_u64(c, &ft->first_sample_time, "first_sample_time");
	if (!err)
		err = get_u64(c, &ft->last_sample_time, "last_sample_time");
	if (!err)
		err = fact(c, "first", "%" PRIu64, ft->first_sample_time);
	if (!err)
		err = fact(c, "last", "%" PRIu64, ft->last_sample_time);
	if (!err && ft->last_sample_time >= ft->first_sample_time)
		err = fact(c, "duration", "%" PRIu64, ft->last_sample_time - ft->first_sample_time);
	return err;
}

static int decode_clockid(struct cursor *c)
{
	return one_u64(c, &c->ft->clockid, "clockid_res_ns", "res_ns");
}

static int decode_dir_format(struct cursor *c)
{
	return one_u64(c, &c->ft->dir_format_version, "version", "version");
}

static int decode_compressed(struct cursor *c)
{
	struct perf_features *ft = c->ft;
	int err;

	err = get_u32(c, &ft->comp_ver, "comp_ver");
	if (!err)
		err = get_u32(c, &ft->comp_type, "comp_type");
	if (!err)
		err = get_u32(c, &ft->comp_level, "comp_level");
	if (!err)
		err = get_u32(c, &ft->comp_ratio, "comp_ratio");
	if (!err)
		err = get_u32(c, &ft->comp_mmap_len, "comp_mmap_len");
	if (!err)
		err = fact(c, "version", "%" PRIu32, ft->comp_ver);
	if (!err) {
		if (ft->comp_type == PERF_COMP_ZSTD)
			err = fact(c, "type", "zstd");
		else if (ft->comp_type == PERF_COMP_NONE)
			err = fact(c, "type", "none");
		else
			err = fact(c, "type", "%" PRIu32, ft->comp_type);
	}
	if (!err)
		err = fact(c, "level", "%" PRIu32, ft->comp_level);
	if (!err)
		err = fact(c, "ratio", "%" PRIu32, ft->comp_ratio);
	if (!err)
		err = fact(c, "mmap_len", "%" PRIu32, ft->comp_mmap_len);
	return err;
}

static int decode_clock_data(struct cursor *c)
{
	struct perf_features *ft = c->ft;
	uint32_t version;
	int err;

	err = get_u32(c, &version, "version");
	if (err)
		return err;
	if (version != 1)
		return fail(c, "version %" PRIu32 " is not 1", version);
	err = get_u32(c, &ft->clock_clockid, "clockid");
	if (!err)
		err = get_u64(c, &ft->clock_tod_ns, "tod_ns");
	if (!err)
		err = get_u64(c, &ft->clock_clockid_ns, "clockid_ns");
	if (!err)
		err = fact(c, "version", "%" PRIu32, version);
	if (!err)
		err = fact(c, "clockid", "%" PRIu32, ft->clock_clockid);
	if (!err)
		err = fact(c, "tod_ns", "%" PRIu64, ft->clock_tod_ns);
	if (!err)
		err = fact(c, "clockid_ns", "%" PRIu64, ft->clock_clockid_ns);
	return err;
}

static int decode_present(struct cursor *c)
{
	return fact(c, "present", "1");
}

/* ---------------------------------------------------------------- build ids */

static int decode_build_id(struct cursor *c)
{
	struct perf_features *ft = c->ft;
	uint64_t hdr_size = BUILD_ID_RECORD_SIZE;
	int old_abi = 0;

	/*
	 * perf_header__read_build_ids(): files from before the pid field was
	 * added have "[kernel.kallsyms]" first, which the new layout reads with
	 * its first 4 characters cut off.
	 */
	if (c->left >= BUILD_ID_RECORD_SIZE + 13 &&
	    !memcmp(c->p + BUILD_ID_RECORD_SIZE, "nel.kallsyms]", 13)) {
		old_abi = 1;
		hdr_size = BUILD_ID_RECORD_SIZE_OLD;
	}

	while (c->left) {
		struct perf_build_id bid;
		struct cursor rec;
		const uint8_t *raw = NULL, *bytes, *name;
		uint32_t type;
		uint16_t misc, size;
		uint64_t name_len;
		int err;

		rec = *c;
		err = get_u32(&rec, &type, "record type");
		if (!err)
			err = get_u16(&rec, &misc, "record misc");
		if (!err)
			err = get_u16(&rec, &size, "record size");
		if (err)
			return err;
		if (size < hdr_size)
			return fail(c, "record size %" PRIu16 " is smaller than %" PRIu64,
				    size, hdr_size);
		err = take(c, size, &raw, "build id record");
		if (err)
			return err;

		memset(&bid, 0, sizeof(bid));
		bid.misc = misc & PERF_RECORD_MISC_CPUMODE_MASK;
		if (old_abi) {
			bid.pid = HOST_KERNEL_ID;
			if (bid.misc == PERF_RECORD_MISC_GUEST_USER ||
			    bid.misc == PERF_RECORD_MISC_GUEST_KERNEL)
				bid.pid = DEFAULT_GUEST_KERNEL_ID;
			bytes = raw + 8;
		} else {
			uint32_t pid;

			memcpy(&pid, raw + 8, sizeof(pid));
			if (c->swapped)
				pid = bswap_32(pid);
			bid.pid = (int32_t)pid;
			bytes = raw + 12;
		}
		bid.size = BUILD_ID_SIZE;
		if (misc & PERF_RECORD_MISC_BUILD_ID_SIZE) {
			bid.size = bytes[BUILD_ID_SIZE];
			if (bid.size > BUILD_ID_SIZE)
				return fail(c, "build id size %u exceeds %u", bid.size,
					    BUILD_ID_SIZE);
		}
		memcpy(bid.build_id, bytes, bid.size);

		name = raw + hdr_size;
		name_len = strnlen((const char *)name, size - hdr_size);
		bid.filename = strndup((const char *)name, name_len);
		if (!bid.filename || array__append(&ft->build_ids, &bid, 1)) {
			free(bid.filename);
			return -ENOMEM;
		}

		{
			char hex[2 * BUILD_ID_SIZE + 1];
			unsigned i;

			for (i = 0; i < bid.size; i++)
				snprintf(hex + 2 * i, 3, "%02x", bid.build_id[i]);
			hex[2 * bid.size] = '\0';
			err = fact(c, bid.filename, "%s", hex);
			if (err)
				return err;
		}
	}
	return 0;
}

/* ---------------------------------------------------------------- event desc */

struct bit_name {
	uint64_t bit;
	const char *name;
};

static int add_bits(struct strbuf *sb, uint64_t value, const struct bit_name *bits)
{
	const char *sep = "";
	int err = 0;

	for (; bits->name && !err; bits++) {
		if (value & bits->bit) {
			err = strbuf__addf(sb, "%s%s", sep, bits->name);
			sep = "|";
		}
	}
	return err;
}

static const struct bit_name read_format_bits[] = {
	{ PERF_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED" },
	{ PERF_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING" },
	{ PERF_FORMAT_ID, "ID" },
	{ PERF_FORMAT_GROUP, "GROUP" },
	{ PERF_FORMAT_LOST, "LOST" },
	{ 0, NULL },
};

static const struct bit_name branch_bits[] = {
#define B(n) { PERF_SAMPLE_BRANCH_##n, #n }
	B(USER), B(KERNEL), B(HV), B(ANY), B(ANY_CALL), B(ANY_RETURN), B(IND_CALL),
	B(ABORT_TX), B(IN_TX), B(NO_TX), B(COND), B(CALL_STACK), B(IND_JUMP), B(CALL),
	B(NO_FLAGS), B(NO_CYCLES), B(TYPE_SAVE), B(HW_INDEX), B(PRIV_SAVE),
#undef B
	{ 0, NULL },
};

/* ", name = value" pieces of perf_event_attr__fprintf(): only non-zero fields */
static int format_attr(struct strbuf *sb, const struct perf_event_attr *a)
{
	int err = 0;

#define U(label, v) \
	do { \
		if (!err && (v)) \
			err = strbuf__addf(sb, ", %s = %" PRIu64, label, (uint64_t)(v)); \
	} while (0)
#define X(label, v) \
	do { \
		if (!err && (v)) \
			err = strbuf__addf(sb, ", %s = %#" PRIx64, label, (uint64_t)(v)); \
	} while (0)
#define S(label, v) \
	do { \
		if (!err && (v)) \
			err = strbuf__addf(sb, ", %s = %" PRId64, label, (int64_t)(v)); \
	} while (0)
#define BITS(label, v, fmt) \
	do { \
		if (!err && (v)) { \
			err = strbuf__addf(sb, ", %s = ", label); \
			if (!err) \
				err = fmt; \
		} \
	} while (0)
#define FLAG(f) U(#f, a->f)
	U("type", a->type);
	U("size", a->size);
	X("config", a->config);
	U("{ sample_period, sample_freq }", a->sample_period);
	BITS("sample_type", a->sample_type, perf_sample_type__format(a->sample_type, sb));
	BITS("read_format", a->read_format, add_bits(sb, a->read_format, read_format_bits));
	FLAG(disabled); FLAG(inherit); FLAG(pinned); FLAG(exclusive);
	FLAG(exclude_user); FLAG(exclude_kernel); FLAG(exclude_hv); FLAG(exclude_idle);
	FLAG(mmap); FLAG(comm); FLAG(freq); FLAG(inherit_stat); FLAG(enable_on_exec);
	FLAG(task); FLAG(watermark); FLAG(precise_ip); FLAG(mmap_data); FLAG(sample_id_all);
	FLAG(exclude_host); FLAG(exclude_guest); FLAG(exclude_callchain_kernel);
	FLAG(exclude_callchain_user); FLAG(mmap2); FLAG(comm_exec); FLAG(use_clockid);
	FLAG(context_switch); FLAG(write_backward); FLAG(namespaces); FLAG(ksymbol);
	FLAG(bpf_event); FLAG(aux_output); FLAG(cgroup); FLAG(text_poke); FLAG(build_id);
	FLAG(inherit_thread); FLAG(remove_on_exec); FLAG(sigtrap);
	U("{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	U("bp_type", a->bp_type);
	X("{ bp_addr, config1 }", a->bp_addr);
	X("{ bp_len, config2 }", a->bp_len);
	BITS("branch_sample_type", a->branch_sample_type,
	     add_bits(sb, a->branch_sample_type, branch_bits));
	X("sample_regs_user", a->sample_regs_user);
	U("sample_stack_user", a->sample_stack_user);
	S("clockid", a->clockid);
	X("sample_regs_intr", a->sample_regs_intr);
	U("aux_watermark", a->aux_watermark);
	U("sample_max_stack", a->sample_max_stack);
	U("aux_sample_size", a->aux_sample_size);
	U("sig_data", a->sig_data);
#undef FLAG
#undef BITS
#undef S
#undef X
#undef U
	return err;
}

static int event_desc_fact(struct cursor *c, const struct perf_event_desc *d)
{
	struct strbuf sb = STRBUF_INIT;
	const char *value;
	uint32_t i;
	int err = 0;

	if (d->nr_ids) {
		err = strbuf__addstr(&sb, ", id = {");
		for (i = 0; i < d->nr_ids && !err; i++)
			err = strbuf__addf(&sb, "%s %" PRIu64, i ? "," : "", d->ids[i]);
		if (!err)
			err = strbuf__addstr(&sb, " }");
	}
	if (!err)
		err = format_attr(&sb, &d->attr);
	if (err) {
		strbuf__release(&sb);
		return -ENOMEM;
	}
	value = sb.len >= 2 ? sb.buf + 2 : sb.buf;	/* drop the leading ", " */
	err = fact(c, d->name, "%s", value);
	strbuf__release(&sb);
	return err;
}

static int decode_event_desc(struct cursor *c)
{
	struct perf_features *ft = c->ft;
	uint32_t nre, sz, i, j;
	int err;

	err = get_u32(c, &nre, "nr");
	if (!err)
		err = get_u32(c, &sz, "attr size");
	if (err)
		return err;
	if (sz < PERF_ATTR_SIZE_VER0)
		return fail(c, "attr size %" PRIu32 " is smaller than %d", sz, PERF_ATTR_SIZE_VER0);
	/* each event: attr, u32 nr_ids, u32 name length at least */
	err = check_count(c, nre, (uint64_t)sz + 8, "nr");
	if (err)
		return err;
	err = array__reserve(&ft->event_descs, nre);
	if (err)
		return err;

	for (i = 0; i < nre; i++) {
		struct perf_event_desc d;
		const uint8_t *raw = NULL;
		const char *name = NULL;
		size_t msz = sz < sizeof(d.attr) ? sz : sizeof(d.attr);

		memset(&d, 0, sizeof(d));
		err = take(c, sz, &raw, "attr");
		if (err)
			return err;
		memcpy(&d.attr, raw, msz);
		if (c->swapped)
			perf_event_attr__swap(&d.attr, msz);
		err = get_u32(c, &d.nr_ids, "nr_ids");
		if (!err)
			err = get_string(c, &name, "name");
		if (!err)
			err = check_count(c, d.nr_ids, sizeof(uint64_t), "nr_ids");
		if (err)
			return err;
		d.name = strdup(name);
		d.ids = malloc(d.nr_ids ? (size_t)d.nr_ids * sizeof(uint64_t) : 1);
		if (!d.name || !d.ids) {
			free(d.name);
			free(d.ids);
			return -ENOMEM;
		}
		for (j = 0; j < d.nr_ids; j++)
			get_u64(c, &d.ids[j], "id");	/* cannot fail: checked above */
		if (array__append(&ft->event_descs, &d, 1)) {
			free(d.name);
			free(d.ids);
			return -ENOMEM;
		}
		err = event_desc_fact(c, &d);
		if (err)
			return err;
	}
	return 0;
}

/* ---------------------------------------------------------------- topology */

/* read nr strings into a (const char *) array that points into the section */
static int get_string_list(struct cursor *c, struct array *list, const char *what)
{
	uint32_t nr, i;
	int err;

	err = get_u32(c, &nr, what);
	if (!err)
		err = check_count(c, nr, sizeof(uint32_t), what);
	if (!err)
		err = array__reserve(list, nr);
	for (i = 0; i < nr && !err; i++) {
		const char *s;

		err = get_string(c, &s, what);
		if (!err)
			err = array__append(list, &s, 1);
	}
	return err;
}

static int string_list_facts(struct cursor *c, const struct array *list, const char *key)
{
	size_t i;
	int err = 0;

	for (i = 0; i < list->len && !err; i++)
		err = fact(c, key, "%s", ARRAY_AT(list, const char *, i));
	return err;
}

static int decode_cpu_topology(struct cursor *c)
{
	struct array sockets, threads, dies;
	uint32_t *ids = NULL;		/* core, socket, die per cpu */
	uint32_t cpu_nr = 0, i;
	int has_ids = 0, has_dies = 0;
	int err;

	array__init(&sockets, sizeof(const char *));
	array__init(&threads, sizeof(const char *));
	array__init(&dies, sizeof(const char *));

	err = get_string_list(c, &sockets, "nr sibling sockets");
	if (!err)
		err = get_string_list(c, &threads, "nr sibling threads");
	if (err)
		goto out;

	/*
	 * Older perf stopped here; later ones add core and socket ids for
	 * NRCPUS' nr_cpus_avail cpus, then die lists and die ids.  Without
	 * NRCPUS the count is unknown and the rest is left alone.
	 */
	if (c->left && perf_features__has(c->ft, PERF_FEAT_NRCPUS)) {
		cpu_nr = c->ft->nr_cpus_avail;
		err = check_count(c, cpu_nr, 2 * sizeof(uint32_t), "cpus of core and socket ids");
		if (err)
			goto out;
		ids = calloc(cpu_nr ? cpu_nr : 1, 3 * sizeof(uint32_t));
		if (!ids) {
			err = -ENOMEM;
			goto out;
		}
		for (i = 0; i < cpu_nr; i++) {
			get_u32(c, &ids[3 * i], "core id");	/* checked above */
			get_u32(c, &ids[3 * i + 1], "socket id");
		}
		has_ids = 1;
		if (c->left) {
			err = get_string_list(c, &dies, "nr sibling dies");
			if (!err)
				err = check_count(c, cpu_nr, sizeof(uint32_t), "cpus of die ids");
			if (err)
				goto out;
			for (i = 0; i < cpu_nr; i++)
				get_u32(c, &ids[3 * i + 2], "die id");
			has_dies = dies.len != 0;
		}
	}

	/* print_cpu_topology() order */
	err = string_list_facts(c, &sockets, "sibling sockets");
	if (!err)
		err = string_list_facts(c, &dies, "sibling dies");
	if (!err)
		err = string_list_facts(c, &threads, "sibling threads");
	for (i = 0; has_ids && i < cpu_nr && !err; i++) {
		char key[32];

		snprintf(key, sizeof(key), "cpu %" PRIu32, i);
		if (has_dies)
			err = fact(c, key, "Core ID %" PRIu32 ", Die ID %" PRIu32 ", Socket ID %" PRIu32,
				   ids[3 * i], ids[3 * i + 2], ids[3 * i + 1]);
		else
			err = fact(c, key, "Core ID %" PRIu32 ", Socket ID %" PRIu32,
				   ids[3 * i], ids[3 * i + 1]);
	}
out:
	free(ids);
	array__release(&sockets);
	array__release(&threads);
	array__release(&dies);
	return err;
}

static int decode_numa_topology(struct cursor *c)
{
	uint32_t nr, i;
	int err;

	err = get_count(c, &nr, 24, "nr nodes");
	for (i = 0; i < nr && !err; i++) {
		uint32_t node;
		uint64_t total, free_kb;
		const char *cpus;
		char key[48];

		err = get_u32(c, &node, "node");
		if (!err)
			err = get_u64(c, &total, "mem_total");
		if (!err)
			err = get_u64(c, &free_kb, "mem_free");
		if (!err)
			err = get_string(c, &cpus, "cpus");
		if (err)
			break;
		snprintf(key, sizeof(key), "node%" PRIu32 " meminfo", node);
		err = fact(c, key, "total = %" PRIu64 " kB, free = %" PRIu64 " kB", total, free_kb);
		snprintf(key, sizeof(key), "node%" PRIu32 " cpu list", node);
		if (!err)
			err = fact(c, key, "%s", cpus);
	}
	return err;
}

static int decode_hybrid_topology(struct cursor *c)
{
	uint32_t nr, i;
	int err;

	err = get_count(c, &nr, 8, "nr nodes");
	for (i = 0; i < nr && !err; i++) {
		const char *pmu, *cpus;

		err = get_string(c, &pmu, "pmu name");
		if (!err)
			err = get_string(c, &cpus, "cpus");
		if (!err)
			err = fact(c, pmu, "%s", cpus);
	}
	return err;
}

/* ---------------------------------------------------------------- pmus, groups */

static int decode_pmu_mappings(struct cursor *c)
{
	struct perf_features *ft = c->ft;
	uint32_t nr, i;
	int err;

	err = get_count(c, &nr, 8, "nr pmus");
	for (i = 0; i < nr && !err; i++) {
		struct perf_pmu_mapping m = { 0, NULL };

		err = get_u32(c, &m.type, "type");
		if (!err)
			err = dup_string(c, &m.name, "name");
		if (err)
			break;
		if (array__append(&ft->pmu_mappings, &m, 1)) {
			free(m.name);
			return -ENOMEM;
		}
		err = fact(c, m.name, "%" PRIu32, m.type);
	}
	return err;
}

static int group_fact(struct cursor *c, const struct perf_group_desc *g)
{
	const struct array *evs = &c->ft->event_descs;
	struct strbuf sb = STRBUF_INIT;
	uint32_t i;
	int err;

	if ((uint64_t)g->leader_idx + g->nr_members <= evs->len && g->nr_members) {
		err = strbuf__addf(&sb, "%s{", strcmp(g->name, "{anon_group}") ? g->name : "");
		for (i = 0; i < g->nr_members && !err; i++)
			err = strbuf__addf(&sb, "%s%s", i ? "," : "",
					   ARRAY_AT(evs, struct perf_event_desc, g->leader_idx + i).name);
		if (!err)
			err = strbuf__addch(&sb, '}');
	} else {
		err = strbuf__addf(&sb, "%s, leader_idx = %" PRIu32 ", nr_members = %" PRIu32,
				   g->name, g->leader_idx, g->nr_members);
	}
	if (!err)
		err = fact(c, "group", "%s", sb.buf);
	strbuf__release(&sb);
	return err;
}

static int decode_group_desc(struct cursor *c)
{
	struct perf_features *ft = c->ft;
	uint32_t nr, i;
	int err;

	err = get_count(c, &nr, 12, "nr groups");
	for (i = 0; i < nr && !err; i++) {
		struct perf_group_desc g = { NULL, 0, 0 };

		err = dup_string(c, &g.name, "name");
		if (!err)
			err = get_u32(c, &g.leader_idx, "leader_idx");
		if (!err)
			err = get_u32(c, &g.nr_members, "nr_members");
		if (!err && array__append(&ft->groups, &g, 1))
			err = -ENOMEM;
		if (err) {
			free(g.name);
			break;
		}
		err = group_fact(c, &g);
	}
	return err;
}

static int join_caps(struct cursor *c, struct strbuf *sb, const char *what)
{
	uint32_t nr, i;
	int err;

	err = get_u32(c, &nr, what);
	if (!err)
		err = check_count(c, nr, 8, what);
	for (i = 0; i < nr && !err; i++) {
		const char *name, *value;

		err = get_string(c, &name, "capability name");
		if (!err)
			err = get_string(c, &value, "capability value");
		if (!err && strbuf__addf(sb, "%s%s=%s", i ? ", " : "", name, value))
			err = -ENOMEM;
	}
	return err;
}

static int decode_cpu_pmu_caps(struct cursor *c)
{
	struct strbuf sb = STRBUF_INIT;
	int err = join_caps(c, &sb, "nr caps");

	if (!err)
		err = fact(c, "cpu", "%s", sb.buf);
	strbuf__release(&sb);
	return err;
}

static int decode_pmu_caps(struct cursor *c)
{
	uint32_t nr, i;
	int err;

	err = get_count(c, &nr, 8, "nr pmus");
	for (i = 0; i < nr && !err; i++) {
		struct strbuf sb = STRBUF_INIT;
		const char *pmu;

		err = join_caps(c, &sb, "nr caps");
		if (!err)
			err = get_string(c, &pmu, "pmu name");
		if (!err)
			err = fact(c, pmu, "%s", sb.buf);
		strbuf__release(&sb);
	}
	return err;
}

/* ---------------------------------------------------------------- the rest */

static int decode_auxtrace(struct cursor *c)
{
	struct perf_features *ft = c->ft;
	uint64_t nr, i;
	int err;

	err = get_u64(c, &nr, "nr entries");
	if (!err)
		err = check_count(c, nr, 16, "nr entries");
	if (!err)
		err = array__reserve(&ft->auxtrace_index, (size_t)nr);
	for (i = 0; i < nr && !err; i++) {
		struct perf_auxtrace_index_entry e;

		get_u64(c, &e.file_offset, "file_offset");	/* checked above */
		get_u64(c, &e.size, "size");
		err = array__append(&ft->auxtrace_index, &e, 1);
	}
	if (!err)
		err = fact(c, "entries", "%" PRIu64, nr);
	return err;
}

static int decode_cache(struct cursor *c)
{
	uint32_t version, cnt, i;
	int err;

	err = get_u32(c, &version, "version");
	if (err)
		return err;
	if (version != 1)
		return fail(c, "version %" PRIu32 " is not 1", version);
	err = get_count(c, &cnt, 28, "nr caches");
	for (i = 0; i < cnt && !err; i++) {
		uint32_t level, line_size, sets, ways;
		const char *type, *size, *map;
		char key[64];

		err = get_u32(c, &level, "level");
		if (!err)
			err = get_u32(c, &line_size, "line_size");
		if (!err)
			err = get_u32(c, &sets, "sets");
		if (!err)
			err = get_u32(c, &ways, "ways");
		if (!err)
			err = get_string(c, &type, "type");
		if (!err)
			err = get_string(c, &size, "size");
		if (!err)
			err = get_string(c, &map, "map");
		if (err)
			break;
		snprintf(key, sizeof(key), "L%" PRIu32 " %.48s", level, type);
		err = fact(c, key, "%s [%s]", size, map);
	}
	return err;
}

/* unit_number__scnprintf() of tools/perf/util/units.c */
static void unit_number(char *buf, size_t size, uint64_t n)
{
	static const char unit[] = "BKMGTPE";
	int i = 0;

	while (n / 1024 > 1 && i < 6) {
		n /= 1024;
		i++;
	}
	snprintf(buf, size, "%" PRIu64 "%c", n, unit[i]);
}

static int decode_mem_topology(struct cursor *c)
{
	uint64_t version, bsize = 0, nr = 0, i;
	int err;

	err = get_u64(c, &version, "version");
	if (err)
		return err;
	if (version != 1)
		return fail(c, "version %" PRIu64 " is not 1", version);
	err = get_u64(c, &bsize, "block size");
	if (!err)
		err = get_u64(c, &nr, "nr nodes");
	if (!err)
		err = check_count(c, nr, 24, "nr nodes");
	if (!err)
		err = fact(c, "nodes", "%" PRIu64, nr);
	if (!err)
		err = fact(c, "block_size", "%#" PRIx64, bsize);
	for (i = 0; i < nr && !err; i++) {
		struct strbuf sb = STRBUF_INIT;
		uint64_t node, size, bits, words, w, bit, weight = 0, start = 0;
		const uint8_t *set = NULL;
		int in_run = 0;
		char key[48], unit[32];

		err = get_u64(c, &node, "node");
		if (!err)
			err = get_u64(c, &size, "size");
		if (!err)
			err = get_u64(c, &bits, "bitmap size");
		if (err)
			break;
		words = bits / 64 + (bits % 64 != 0);
		err = check_count(c, words, sizeof(uint64_t), "bitmap words");
		if (!err)
			err = take(c, words * sizeof(uint64_t), &set, "bitmap");
		if (err)
			break;
		/* bitmap_scnprintf(): ranges of set bits, "0-23,32-199" */
		for (bit = 0; bit <= bits && !err; bit++) {
			int on = 0;

			if (bit < bits) {
				memcpy(&w, set + (bit / 64) * sizeof(uint64_t), sizeof(w));
				if (c->swapped)
					w = bswap_64(w);
				on = (w >> (bit % 64)) & 1;
			}
			if (on) {
				weight++;
				if (!in_run)
					start = bit;
				in_run = 1;
			} else if (in_run) {
				in_run = 0;
				if (start == bit - 1)
					err = strbuf__addf(&sb, "%s%" PRIu64, sb.len ? "," : "", start);
				else
					err = strbuf__addf(&sb, "%s%" PRIu64 "-%" PRIu64,
							   sb.len ? "," : "", start, bit - 1);
			}
		}
		if (!err) {
			unit_number(unit, sizeof(unit), bsize * weight);
			snprintf(key, sizeof(key), "node %" PRIu64, node);
			err = fact(c, key, "[%s]: %s", unit, sb.buf);
		}
		strbuf__release(&sb);
	}
	return err;
}

static int decode_bpf_prog_info(struct cursor *c)
{
	uint32_t count, i;
	uint64_t bytes = 0;
	int err;

	err = get_count(c, &count, 16, "count");
	for (i = 0; i < count && !err; i++) {
		uint32_t info_len = 0, data_len = 0;
		uint64_t arrays;
		const uint8_t *p;

		err = get_u32(c, &info_len, "info_len");
		if (!err)
			err = get_u32(c, &data_len, "data_len");
		if (!err)
			err = get_u64(c, &arrays, "arrays");
		if (!err)
			err = take(c, (uint64_t)info_len + data_len, &p, "bpf_prog_info");
		bytes += (uint64_t)info_len + data_len;
	}
	if (!err)
		err = fact(c, "programs", "%" PRIu32, count);
	if (!err)
		err = fact(c, "bytes", "%" PRIu64, bytes);
	return err;
}

static int decode_bpf_btf(struct cursor *c)
{
	uint32_t count, i;
	uint64_t bytes = 0;
	int err;

	err = get_count(c, &count, 8, "count");
	for (i = 0; i < count && !err; i++) {
		uint32_t id, data_size = 0;
		const uint8_t *p;

		err = get_u32(c, &id, "id");
		if (!err)
			err = get_u32(c, &data_size, "data_size");
		if (!err)
			err = take(c, data_size, &p, "btf data");
		bytes += data_size;
	}
	if (!err)
		err = fact(c, "count", "%" PRIu32, count);
	if (!err)
		err = fact(c, "bytes", "%" PRIu64, bytes);
	return err;
}

/* ---------------------------------------------------------------- dispatch */

static int decode_one(struct cursor *c, unsigned feat)
{
	struct perf_features *ft = c->ft;

	switch (feat) {
	case PERF_FEAT_TRACING_DATA: return decode_tracing_data(c);
	case PERF_FEAT_BUILD_ID: return decode_build_id(c);
	case PERF_FEAT_HOSTNAME: return decode_string_feature(c, &ft->hostname);
	case PERF_FEAT_OSRELEASE: return decode_string_feature(c, &ft->osrelease);
	case PERF_FEAT_VERSION: return decode_string_feature(c, &ft->version);
	case PERF_FEAT_ARCH: return decode_string_feature(c, &ft->arch);
	case PERF_FEAT_NRCPUS: return decode_nrcpus(c);
	case PERF_FEAT_CPUDESC: return decode_string_feature(c, &ft->cpudesc);
	case PERF_FEAT_CPUID: return decode_string_feature(c, &ft->cpuid);
	case PERF_FEAT_TOTAL_MEM: return decode_total_mem(c);
	case PERF_FEAT_CMDLINE: return decode_cmdline(c);
	case PERF_FEAT_EVENT_DESC: return decode_event_desc(c);
	case PERF_FEAT_CPU_TOPOLOGY: return decode_cpu_topology(c);
	case PERF_FEAT_NUMA_TOPOLOGY: return decode_numa_topology(c);
	case PERF_FEAT_BRANCH_STACK: return decode_present(c);
	case PERF_FEAT_PMU_MAPPINGS: return decode_pmu_mappings(c);
	case PERF_FEAT_GROUP_DESC: return decode_group_desc(c);
	case PERF_FEAT_AUXTRACE: return decode_auxtrace(c);
	case PERF_FEAT_STAT: return decode_present(c);
	case PERF_FEAT_CACHE: return decode_cache(c);
	case PERF_FEAT_SAMPLE_TIME: return decode_sample_time(c);
	case PERF_FEAT_MEM_TOPOLOGY: return decode_mem_topology(c);
	case PERF_FEAT_CLOCKID: return decode_clockid(c);
	case PERF_FEAT_DIR_FORMAT: return decode_dir_format(c);
	case PERF_FEAT_BPF_PROG_INFO: return decode_bpf_prog_info(c);
	case PERF_FEAT_BPF_BTF: return decode_bpf_btf(c);
	case PERF_FEAT_COMPRESSED: return decode_compressed(c);
	case PERF_FEAT_CPU_PMU_CAPS: return decode_cpu_pmu_caps(c);
	case PERF_FEAT_CLOCK_DATA: return decode_clock_data(c);
	case PERF_FEAT_HYBRID_TOPOLOGY: return decode_hybrid_topology(c);
	case PERF_FEAT_PMU_CAPS: return decode_pmu_caps(c);
	default: return 0;
	}
}

int perf_features__decode(struct perf_features *ft, unsigned feat, const void *data,
			  uint64_t size, int swapped, const char **why)
{
	struct cursor c;
	int err;

	if (feat == PERF_FEAT_RESERVED || feat >= PERF_FEAT_LAST)
		return 0;
	if (!data)
		size = 0;
	clear_feature(ft, feat);
	/*
	 * A set bit with an empty section: the writer gave up on the feature
	 * (seen in real files, e.g. CPUDESC of perf 3.14 on ARM).  Nothing to
	 * decode, so the feature stays absent.  Only these are empty by design.
	 */
	if (!size && feat != PERF_FEAT_TRACING_DATA && feat != PERF_FEAT_BRANCH_STACK &&
	    feat != PERF_FEAT_STAT)
		return 0;
	c.p = data;
	c.left = size;
	c.swapped = swapped;
	c.ft = ft;
	c.sec = perf_feature__name(feat);
	ft->why_buf[0] = '\0';

	err = decode_one(&c, feat);
	if (err) {
		clear_feature(ft, feat);
		if (err == -ENOMEM)
			snprintf(ft->why_buf, sizeof(ft->why_buf), "%s: out of memory", c.sec);
		if (why)
			*why = ft->why_buf;
		return err;
	}
	ft->present[feat / 64] |= UINT64_C(1) << (feat % 64);
	return 0;
}

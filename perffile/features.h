/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Feature sections (HEADER_* bits of the perf.data header, or
 * PERF_RECORD_HEADER_FEATURE records in pipe mode), decoded.
 *
 * Each section decodes into typed fields that other modules use (build ids,
 * event names, cpu count, os release, compression parameters, ...) and into
 * a list of (section, key, value) facts in file order, which is what
 * header.csv and `readperf header` print.  Everything here is owned by
 * struct perf_features and freed by perf_features__release().
 *
 * Follows tools/perf/util/header.c (write_* / process_* / print_*).
 */
#ifndef PERFFILE_FEATURES_H
#define PERFFILE_FEATURES_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "perffile/tracing.h"
#include "util/array.h"
#include "util/log.h"

/* feature bits (header.h's HEADER_*) */
enum perf_feature {
	PERF_FEAT_RESERVED = 0,	/* HEADER_TRACING_DATA is 1 */
	PERF_FEAT_TRACING_DATA = 1,
	PERF_FEAT_BUILD_ID,
	PERF_FEAT_HOSTNAME,
	PERF_FEAT_OSRELEASE,
	PERF_FEAT_VERSION,
	PERF_FEAT_ARCH,
	PERF_FEAT_NRCPUS,
	PERF_FEAT_CPUDESC,
	PERF_FEAT_CPUID,
	PERF_FEAT_TOTAL_MEM,
	PERF_FEAT_CMDLINE,
	PERF_FEAT_EVENT_DESC,
	PERF_FEAT_CPU_TOPOLOGY,
	PERF_FEAT_NUMA_TOPOLOGY,
	PERF_FEAT_BRANCH_STACK,
	PERF_FEAT_PMU_MAPPINGS,
	PERF_FEAT_GROUP_DESC,
	PERF_FEAT_AUXTRACE,
	PERF_FEAT_STAT,
	PERF_FEAT_CACHE,
	PERF_FEAT_SAMPLE_TIME,
	PERF_FEAT_MEM_TOPOLOGY,
	PERF_FEAT_CLOCKID,
	PERF_FEAT_DIR_FORMAT,
	PERF_FEAT_BPF_PROG_INFO,
	PERF_FEAT_BPF_BTF,
	PERF_FEAT_COMPRESSED,
	PERF_FEAT_CPU_PMU_CAPS,
	PERF_FEAT_CLOCK_DATA,
	PERF_FEAT_HYBRID_TOPOLOGY,
	PERF_FEAT_PMU_CAPS,
	PERF_FEAT_LAST,
	PERF_FEAT_BITS = 256,
};

/* "hostname", "build_id", ... (lower-case, as header.csv's section column); NULL when unknown */
const char *perf_feature__name(unsigned feat);

struct perf_build_id {
	int32_t pid;
	uint16_t misc;			/* PERF_RECORD_MISC_KERNEL / _USER / _GUEST_*  */
	uint8_t size;			/* bytes of build_id used (20 for SHA-1) */
	uint8_t build_id[20];
	char *filename;
};

struct perf_event_desc {		/* one EVENT_DESC entry */
	struct perf_event_attr attr;	/* known prefix, host order */
	char *name;
	uint64_t *ids;
	uint32_t nr_ids;
};

struct perf_pmu_mapping {		/* one PMU_MAPPINGS entry */
	uint32_t type;			/* perf_event_attr.type of the PMU */
	char *name;
};

struct perf_group_desc {		/* one GROUP_DESC entry */
	char *name;			/* "{anon_group}" when perf had no name */
	uint32_t leader_idx;		/* index of the leader in the attrs */
	uint32_t nr_members;
};

struct perf_auxtrace_index_entry {	/* one AUXTRACE index entry */
	uint64_t file_offset;		/* of the PERF_RECORD_AUXTRACE record */
	uint64_t size;			/* its header.size */
};

struct perf_fact {
	char *section;			/* feature name, or "header" / "event" for file facts */
	char *key;
	char *value;
};

struct perf_features {
	uint64_t present[PERF_FEAT_BITS / 64];	/* sections successfully decoded */
	char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid;
	uint32_t nr_cpus_online, nr_cpus_avail;
	uint64_t total_mem_kb;
	char **cmdline;			/* argc strings */
	uint32_t cmdline_argc;
	struct array build_ids;		/* struct perf_build_id */
	struct array event_descs;	/* struct perf_event_desc */
	uint64_t first_sample_time, last_sample_time;	/* SAMPLE_TIME */
	uint64_t clockid;		/* CLOCKID */
	uint32_t comp_ver, comp_type, comp_level, comp_ratio, comp_mmap_len;	/* COMPRESSED */
	struct array facts;		/* struct perf_fact, in the order decoded */
	uint64_t tracing_data_size;	/* TRACING_DATA: bytes of the section */
	struct tp_formats tp_formats;	/* TRACING_DATA: the tracepoint formats in it */
	int tp_malformed;		/* TRACING_DATA: the formats end at a fault, at byte tp_bad_at */
	uint64_t tp_bad_at;
	struct array pmu_mappings;	/* struct perf_pmu_mapping, file order */
	struct array groups;		/* struct perf_group_desc, file order */
	struct array auxtrace_index;	/* struct perf_auxtrace_index_entry */
	uint32_t clock_clockid;		/* CLOCK_DATA */
	uint64_t clock_tod_ns, clock_clockid_ns;
	uint64_t dir_format_version;	/* DIR_FORMAT */
	char why_buf[192];		/* *why of perf_features__decode() points here */
};

void perf_features__init(struct perf_features *ft);
void perf_features__release(struct perf_features *ft);
int perf_features__has(const struct perf_features *ft, unsigned feat);

/*
 * Decode one section's bytes (file order; swapped says the file's byte order
 * differs from the host's).  Every length inside is checked against size.
 * Returns 0, -ENOMEM, or -EINVAL with *why set (the caller adds file name and
 * offset); *why points into ft->why_buf and is valid until the next decode.
 * An unknown feature is skipped (0), and so is an empty section of a feature
 * that needs data (the feature stays absent).  EVENT_DESC carries its own
 * attr size.  *why already starts with the section name ("cmdline: ...").
 * Decoding a feature again replaces its earlier values and facts; a section
 * that fails leaves no partial values or facts behind.
 *
 * Facts (section = perf_feature__name(feat)), in this order per section:
 *   tracing_data: size;  build_id: <filename> = <hex build id>, one per entry;
 *   hostname/osrelease/version/arch/cpudesc/cpuid: key = section name;
 *   nrcpus: online, available;  total_mem: kb;  cmdline: cmdline (joined by spaces);
 *   event_desc: <event name> = "id = { 1, 2 }, type = 1, size = 128, ..." as perf prints it;
 *   cpu_topology: sibling sockets, sibling dies, sibling threads (one fact per
 *     list), then "cpu N" = "Core ID C, Die ID D, Socket ID S" (Die only when the
 *     file has dies; no cpu facts without NRCPUS or in files of old perf);
 *   numa_topology: "nodeN meminfo" = "total = T kB, free = F kB", "nodeN cpu list";
 *   branch_stack, stat: present = 1;  pmu_mappings: <pmu name> = <type>;
 *   group_desc: group = "name{ev1,ev2}" as perf prints it (name empty for
 *     {anon_group}; needs EVENT_DESC decoded first, else "<name>, leader_idx = L,
 *     nr_members = N");
 *   auxtrace: entries;  cache: "L<level> <type>" = "<size> [<cpus>]";
 *   sample_time: first, last, duration (ns);  mem_topology: nodes, block_size
 *   (hex), "node N" = "[<size>]: <memory blocks>";  clockid: res_ns;
 *   dir_format: version;  bpf_prog_info: programs, bytes;  bpf_btf: count, bytes;
 *   compressed: version, type ("zstd"/"none"/number), level, ratio, mmap_len;
 *   cpu_pmu_caps: cpu = "name=value, ..." ;  pmu_caps: <pmu> = "name=value, ..."
 *     ("" when the PMU has none);
 *   clock_data: version, clockid, tod_ns, clockid_ns;  hybrid_topology: <pmu> = <cpus>.
 */
int perf_features__decode(struct perf_features *ft, unsigned feat, const void *data,
			  uint64_t size, int swapped, const char **why);

/* append a fact (section, key, value are copied); used for file-level facts too */
int perf_features__add_fact(struct perf_features *ft, const char *section, const char *key,
			    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif

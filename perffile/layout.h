/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The bytes of every record body, as include/uapi/linux/perf_event.h
 * (records the kernel writes) and tools/lib/perf/include/perf/event.h
 * (records perf writes) lay them out.  Offsets count from the start of the
 * record, its 8-byte header included.  Packed: nothing here is ever
 * dereferenced in place (the record bytes have no alignment guarantee); the
 * structs only name offsets and sizes for REC_LD() and the field tables of
 * rectypes.c.  Where a layout is ABI its offsets are checked below.
 */
#ifndef READPERF_PERFFILE_LAYOUT_H
#define READPERF_PERFFILE_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#define PACKED __attribute__((packed))

struct perf_record_mmap {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	char filename[];
} PACKED;

struct perf_record_mmap2 {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	union {
		struct {
			uint32_t maj, min;
			uint64_t ino, ino_generation;
		} PACKED dev;
		struct {			/* PERF_RECORD_MISC_MMAP_BUILD_ID */
			uint8_t build_id_size;
			uint8_t reserved_1;
			uint16_t reserved_2;
			uint8_t build_id[20];
		} PACKED bid;
	} PACKED;
	uint32_t prot, flags;
	char filename[];
} PACKED;

struct perf_record_comm {
	struct perf_event_header header;
	uint32_t pid, tid;
	char comm[];
} PACKED;

struct perf_record_fork {		/* FORK and EXIT */
	struct perf_event_header header;
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
} PACKED;

struct perf_record_lost {
	struct perf_event_header header;
	uint64_t id, lost;
} PACKED;

struct perf_record_lost_samples {
	struct perf_event_header header;
	uint64_t lost;
} PACKED;

struct perf_record_throttle {		/* THROTTLE and UNTHROTTLE */
	struct perf_event_header header;
	uint64_t time, id, stream_id;
} PACKED;

struct perf_record_read {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t values[];		/* struct read_format of the attr's read_format */
} PACKED;

struct perf_record_aux {
	struct perf_event_header header;
	uint64_t aux_offset, aux_size, flags;
} PACKED;

struct perf_record_itrace_start {
	struct perf_event_header header;
	uint32_t pid, tid;
} PACKED;

struct perf_record_switch_cpu_wide {
	struct perf_event_header header;
	uint32_t next_prev_pid, next_prev_tid;
} PACKED;

struct perf_record_namespaces {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t nr_namespaces;
	struct perf_ns_link_info link_info[];	/* <linux/perf_event.h> */
} PACKED;

struct perf_record_ksymbol {
	struct perf_event_header header;
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type, flags;
	char name[];
} PACKED;

struct perf_record_bpf_event {
	struct perf_event_header header;
	uint16_t type, flags;
	uint32_t id;
	uint8_t tag[8];			/* BPF_TAG_SIZE */
} PACKED;

struct perf_record_cgroup {
	struct perf_event_header header;
	uint64_t id;
	char path[];
} PACKED;

struct perf_record_text_poke {
	struct perf_event_header header;
	uint64_t addr;
	uint16_t old_len, new_len;
	uint8_t bytes[];
} PACKED;

struct perf_record_aux_output_hw_id {
	struct perf_event_header header;
	uint64_t hw_id;
} PACKED;

struct perf_record_callchain_deferred {	/* Linux 6.19 */
	struct perf_event_header header;
	uint64_t cookie, nr;
	uint64_t ips[];			/* the user part of the callchains of earlier samples */
} PACKED;

struct perf_record_header_attr {	/* pipe mode */
	struct perf_event_header header;
	struct perf_event_attr attr;	/* attr.size bytes, then the ids (u64) */
} PACKED;

struct perf_record_header_event_type {
	struct perf_event_header header;
	uint64_t event_id;
	char name[];
} PACKED;

struct perf_record_header_tracing_data {
	struct perf_event_header header;
	uint32_t size;
} PACKED;

struct perf_record_header_build_id {
	struct perf_event_header header;
	int32_t pid;
	union {
		uint8_t build_id[24];
		struct {			/* RP_RECORD_MISC_BUILD_ID_SIZE */
			uint8_t data[20];
			uint8_t size;
			uint8_t reserved1;
			uint16_t reserved2;
		} PACKED sized;
	} PACKED;
	char filename[];
} PACKED;

struct perf_record_id_index_entry {
	uint64_t id, idx, cpu, tid;
} PACKED;

struct perf_record_id_index_entry_2 {	/* after all the entries, when there is room */
	uint64_t machine_pid, vcpu;
} PACKED;

struct perf_record_id_index {
	struct perf_event_header header;
	uint64_t nr;
	struct perf_record_id_index_entry entries[];
} PACKED;

struct perf_record_auxtrace_info {
	struct perf_event_header header;
	uint32_t type, reserved;
	uint64_t priv[];
} PACKED;

struct perf_record_auxtrace {		/* the payload (size bytes) follows the record */
	struct perf_event_header header;
	uint64_t size, offset, reference;
	uint32_t idx, tid, cpu, reserved;
} PACKED;

struct perf_record_auxtrace_error {
	struct perf_event_header header;
	uint32_t type, code, cpu, pid, tid, fmt;
	uint64_t ip;
	uint64_t time;			/* fmt >= 1 */
	char msg[64];
	uint32_t machine_pid, vcpu;	/* fmt >= 2 */
} PACKED;

struct perf_record_thread_map_entry {
	uint64_t pid;
	char comm[16];
} PACKED;

struct perf_record_thread_map {
	struct perf_event_header header;
	uint64_t nr;
	struct perf_record_thread_map_entry entries[];
} PACKED;

/* struct perf_record_cpu_map_data: CPU_MAP and EVENT_UPDATE's CPUS, by type */
enum { CPU_MAP_CPUS, CPU_MAP_MASK, CPU_MAP_RANGE };

struct perf_cpu_map_cpus {		/* PERF_CPU_MAP__CPUS */
	uint16_t type, nr;
	uint16_t cpu[];
} PACKED;

struct perf_cpu_map_mask32 {		/* PERF_CPU_MAP__MASK, long_size 4 */
	uint16_t type, nr, long_size;
	uint32_t mask[];
} PACKED;

struct perf_cpu_map_mask64 {		/* PERF_CPU_MAP__MASK, long_size 8 */
	uint16_t type, nr, long_size;
	char pad[4];
	uint64_t mask[];
} PACKED;

struct perf_cpu_map_range {		/* PERF_CPU_MAP__RANGE_CPUS */
	uint16_t type;
	uint8_t any_cpu, pad;
	uint16_t start_cpu, end_cpu;
} PACKED;

struct perf_record_cpu_map {
	struct perf_event_header header;
	uint16_t data[];		/* one of the perf_cpu_map_* above */
} PACKED;

struct perf_record_stat_config_entry {
	uint64_t tag, val;
} PACKED;

struct perf_record_stat_config {
	struct perf_event_header header;
	uint64_t nr;
	struct perf_record_stat_config_entry data[];
} PACKED;

struct perf_record_stat {
	struct perf_event_header header;
	uint64_t id;
	uint32_t cpu, thread;
	uint64_t val, ena, run;
} PACKED;

struct perf_record_stat_round {
	struct perf_event_header header;
	uint64_t type, time;
} PACKED;

enum { EVENT_UPDATE_UNIT, EVENT_UPDATE_SCALE, EVENT_UPDATE_NAME, EVENT_UPDATE_CPUS };

struct perf_record_event_update {
	struct perf_event_header header;
	uint64_t type, id;
	union {
		char str[1];		/* UNIT, NAME */
		double scale;		/* SCALE */
		uint16_t cpus[1];	/* CPUS: a perf_cpu_map_* */
	} PACKED data;
} PACKED;

struct perf_record_time_conv {
	struct perf_event_header header;
	uint64_t time_shift, time_mult, time_zero;
	/* since perf 5.11: */
	uint64_t time_cycles, time_mask;
	uint8_t cap_user_time_zero, cap_user_time_short;
	uint8_t reserved[6];
} PACKED;

struct perf_record_header_feature {
	struct perf_event_header header;
	uint64_t feat_id;
	char data[];
} PACKED;

struct perf_record_compressed {
	struct perf_event_header header;
	char data[];
} PACKED;

struct perf_record_compressed2 {
	struct perf_event_header header;
	uint64_t data_size;
	char data[];
} PACKED;

/* struct perf_branch_entry of a SAMPLE's branch stack, its bit-fields as one word */
struct perf_record_branch_entry {
	uint64_t from, to, flags;
} PACKED;

/* the file header (tools/perf/util/header.h): PERFILE2, and v1 without adds_features */
struct perf_file_section {
	uint64_t offset, size;
} PACKED;

struct perf_file_header {
	uint64_t magic, size, attr_size;
	struct perf_file_section attrs, data, event_types;
	uint64_t adds_features[4];	/* the feature bitmap */
} PACKED;

struct perf_pipe_file_header {
	uint64_t magic, size;
} PACKED;

#undef PACKED

/* the value of field f of layout T in the bytes at p (any alignment) */
#define REC_LD(p, T, f) rec_load((const uint8_t *)(p) + offsetof(T, f), sizeof(((T *)0)->f))

static inline uint64_t rec_load(const uint8_t *p, size_t size)
{
	uint64_t v64;
	uint32_t v32;
	uint16_t v16;

	switch (size) {
	case 1:
		return *p;
	case 2:
		__builtin_memcpy(&v16, p, 2);
		return v16;
	case 4:
		__builtin_memcpy(&v32, p, 4);
		return v32;
	default:
		__builtin_memcpy(&v64, p, 8);
		return v64;
	}
}

/* the ABI: offsets a file written by any perf must have */
#define LAYOUT_AT(T, f, off) _Static_assert(offsetof(T, f) == (off), #T "." #f " at " #off)
LAYOUT_AT(struct perf_record_mmap, filename, 40);
LAYOUT_AT(struct perf_record_mmap2, dev.maj, 40);
LAYOUT_AT(struct perf_record_mmap2, dev.ino_generation, 56);
LAYOUT_AT(struct perf_record_mmap2, bid.build_id, 44);
LAYOUT_AT(struct perf_record_mmap2, prot, 64);
LAYOUT_AT(struct perf_record_mmap2, filename, 72);
LAYOUT_AT(struct perf_record_comm, comm, 16);
LAYOUT_AT(struct perf_record_fork, time, 24);
LAYOUT_AT(struct perf_record_read, values, 16);
LAYOUT_AT(struct perf_record_namespaces, link_info, 24);
LAYOUT_AT(struct perf_record_ksymbol, name, 24);
LAYOUT_AT(struct perf_record_bpf_event, tag, 16);
LAYOUT_AT(struct perf_record_cgroup, path, 16);
LAYOUT_AT(struct perf_record_text_poke, bytes, 20);
LAYOUT_AT(struct perf_record_callchain_deferred, ips, 24);
LAYOUT_AT(struct perf_record_header_attr, attr, 8);
LAYOUT_AT(struct perf_record_header_event_type, name, 16);
LAYOUT_AT(struct perf_record_header_build_id, sized.size, 32);
LAYOUT_AT(struct perf_record_header_build_id, filename, 36);
LAYOUT_AT(struct perf_record_id_index, entries, 16);
_Static_assert(sizeof(struct perf_record_id_index_entry) == 32, "id_index entry");
LAYOUT_AT(struct perf_record_auxtrace_info, priv, 16);
_Static_assert(sizeof(struct perf_record_auxtrace) == 48, "auxtrace");
LAYOUT_AT(struct perf_record_auxtrace_error, msg, 48);
LAYOUT_AT(struct perf_record_auxtrace_error, machine_pid, 112);
_Static_assert(sizeof(struct perf_record_thread_map_entry) == 24, "thread_map entry");
LAYOUT_AT(struct perf_cpu_map_cpus, cpu, 4);
LAYOUT_AT(struct perf_cpu_map_mask32, mask, 6);
LAYOUT_AT(struct perf_cpu_map_mask64, mask, 10);
LAYOUT_AT(struct perf_cpu_map_range, start_cpu, 4);
_Static_assert(sizeof(struct perf_record_stat) == 48, "stat");
LAYOUT_AT(struct perf_record_event_update, data, 24);
LAYOUT_AT(struct perf_record_time_conv, cap_user_time_zero, 48);
_Static_assert(sizeof(struct perf_record_time_conv) == 56, "time_conv");
LAYOUT_AT(struct perf_record_compressed2, data, 16);
_Static_assert(sizeof(struct perf_record_branch_entry) == sizeof(struct perf_branch_entry), "branch entry");
LAYOUT_AT(struct perf_file_header, adds_features, 72);	/* v1 headers end here */
_Static_assert(sizeof(struct perf_file_header) == 104, "file header");
_Static_assert(sizeof(struct perf_pipe_file_header) == 16, "pipe header");
#undef LAYOUT_AT

#endif

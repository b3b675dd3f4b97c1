/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Decoded records: struct perf_record is a borrowed, host-order view of one
 * record.  Pointers in it point into the record bytes (rec->data) and live as
 * long as those bytes.  Nothing here allocates.
 *
 * Record and sample layouts follow include/uapi/linux/perf_event.h and
 * tools/lib/perf/include/perf/event.h; sample parsing follows
 * evsel__parse_sample() in tools/perf/util/evsel.c.
 */
#ifndef PERFFILE_RECORD_H
#define PERFFILE_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

/* user record types written by perf, not the kernel (perf/event.h) */
enum perf_user_record_type {
	PERF_RECORD_USER_TYPE_START = 64,
	PERF_RECORD_HEADER_ATTR = 64,
	PERF_RECORD_HEADER_EVENT_TYPE = 65,
	PERF_RECORD_HEADER_TRACING_DATA = 66,
	PERF_RECORD_HEADER_BUILD_ID = 67,
	PERF_RECORD_FINISHED_ROUND = 68,
	PERF_RECORD_ID_INDEX = 69,
	PERF_RECORD_AUXTRACE_INFO = 70,
	PERF_RECORD_AUXTRACE = 71,
	PERF_RECORD_AUXTRACE_ERROR = 72,
	PERF_RECORD_THREAD_MAP = 73,
	PERF_RECORD_CPU_MAP = 74,
	PERF_RECORD_STAT_CONFIG = 75,
	PERF_RECORD_STAT = 76,
	PERF_RECORD_STAT_ROUND = 77,
	PERF_RECORD_EVENT_UPDATE = 78,
	PERF_RECORD_TIME_CONV = 79,
	PERF_RECORD_HEADER_FEATURE = 80,
	PERF_RECORD_COMPRESSED = 81,
	PERF_RECORD_FINISHED_INIT = 82,
	PERF_RECORD_COMPRESSED2 = 83,
	PERF_RECORD_USER_TYPE_END
};

/* the name `perf report --stats` uses ("MMAP", "SAMPLE", "FINISHED_ROUND", ...); NULL if unknown */
const char *perf_record_type__name(uint32_t type);

struct perf_evlist;
struct perf_evattr;

struct perf_sample_read_value {
	uint64_t value;
	uint64_t id;		/* valid with PERF_FORMAT_ID */
	uint64_t lost;		/* valid with PERF_FORMAT_LOST */
};

struct perf_sample_read {
	uint64_t time_enabled;	/* with PERF_FORMAT_TOTAL_TIME_ENABLED */
	uint64_t time_running;	/* with PERF_FORMAT_TOTAL_TIME_RUNNING */
	uint64_t nr;		/* 1 without PERF_FORMAT_GROUP */
	struct perf_sample_read_value one;	/* the value without PERF_FORMAT_GROUP */
	const uint64_t *group;	/* with PERF_FORMAT_GROUP: nr entries of group_stride u64 each (value, [id], [lost]) */
	unsigned group_stride;
};

struct perf_sample_regs {
	uint64_t abi;		/* PERF_SAMPLE_REGS_ABI_*; 0: none */
	uint64_t mask;		/* attr.sample_regs_user / _intr */
	const uint64_t *regs;	/* popcount(mask) values when abi != 0 */
	unsigned nr;
};

/* every PERF_SAMPLE_* field; sample_type says which are valid */
struct perf_sample {
	uint64_t sample_type;	/* of the attr, for SAMPLE; the trailer fields for others */
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu, cpu_res;
	uint64_t period;
	struct perf_sample_read read;
	uint64_t callchain_nr;
	const uint64_t *callchain;	/* includes PERF_CONTEXT_* markers */
	uint32_t raw_size;
	const void *raw;
	uint64_t branch_nr;
	uint64_t branch_hw_idx;		/* valid when attr.branch_sample_type has PERF_SAMPLE_BRANCH_HW_INDEX */
	int has_branch_hw_idx;
	const struct perf_branch_entry *branches;
	const uint64_t *branch_counters;	/* branch_nr values with PERF_SAMPLE_BRANCH_COUNTERS (bit 19), else NULL */
	struct perf_sample_regs user_regs;
	uint64_t user_stack_size;	/* bytes at user_stack (0 when none) */
	const void *user_stack;
	uint64_t user_stack_dyn_size;
	uint64_t weight;		/* PERF_SAMPLE_WEIGHT, or WEIGHT_STRUCT's var1_dw */
	uint16_t weight_var2, weight_var3;	/* WEIGHT_STRUCT */
	uint64_t data_src;
	uint64_t transaction;
	struct perf_sample_regs intr_regs;
	uint64_t phys_addr;
	uint64_t cgroup;
	uint64_t data_page_size;
	uint64_t code_page_size;
	uint64_t aux_size;
	const void *aux;
};

/* typed views of the record bodies (only the one matching rec->type is valid; a sample's is not even zeroed) */
struct perf_rec_mmap {		/* MMAP and MMAP2 */
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	/* MMAP2 only: */
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint8_t build_id_size;		/* with PERF_RECORD_MISC_MMAP_BUILD_ID */
	const uint8_t *build_id;	/* NULL unless MISC_MMAP_BUILD_ID */
	uint32_t prot, flags;
	const char *filename;		/* NUL-terminated within the record */
};

struct perf_rec_comm {
	uint32_t pid, tid;
	const char *comm;
	int exec;			/* PERF_RECORD_MISC_COMM_EXEC */
};

struct perf_rec_fork {		/* FORK and EXIT */
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct perf_rec_lost {		/* LOST (id, lost), LOST_SAMPLES (lost) */
	uint64_t id;
	uint64_t lost;
};

struct perf_rec_throttle {	/* THROTTLE and UNTHROTTLE */
	uint64_t time, id, stream_id;
};

struct perf_rec_read {
	uint32_t pid, tid;
	struct perf_sample_read values;
};

struct perf_rec_aux {
	uint64_t aux_offset, aux_size, flags;
};

struct perf_rec_itrace_start {
	uint32_t pid, tid;
};

struct perf_rec_switch {	/* SWITCH (no fields) and SWITCH_CPU_WIDE */
	int out;			/* PERF_RECORD_MISC_SWITCH_OUT */
	int preempt;			/* PERF_RECORD_MISC_SWITCH_OUT_PREEMPT */
	uint32_t next_prev_pid, next_prev_tid;	/* CPU_WIDE only */
};

struct perf_rec_namespaces {
	uint32_t pid, tid;
	uint64_t nr;
	const uint64_t *link_info;	/* nr pairs (dev, ino) */
};

struct perf_rec_ksymbol {
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type, flags;
	const char *name;
};

struct perf_rec_bpf_event {
	uint16_t type, flags;
	uint32_t id;
	const uint8_t *tag;		/* BPF_TAG_SIZE (8) bytes */
};

struct perf_rec_cgroup {
	uint64_t id;
	const char *path;
};

struct perf_rec_text_poke {
	uint64_t addr;
	uint16_t old_len, new_len;
	const uint8_t *bytes;		/* old_len + new_len bytes */
};

struct perf_rec_aux_output_hw_id {
	uint64_t hw_id;
};

#define RP_RECORD_CALLCHAIN_DEFERRED 22	/* newer than the 6.1 uapi header */

struct perf_rec_callchain_deferred {	/* the user stack of the samples with this cookie */
	uint64_t cookie, nr;
	const uint64_t *ips;		/* nr addresses */
};

struct perf_rec_header_attr {	/* pipe mode: attr + ids */
	const void *attr;		/* host order, attr_size bytes */
	uint32_t attr_size;
	const uint64_t *ids;
	uint64_t nr_ids;
};

struct perf_rec_event_type {	/* HEADER_EVENT_TYPE: id -> name */
	uint64_t event_id;
	const char *name;		/* in the record, or in name_buf when perf left out the NUL */
	char name_buf[65];		/* MAX_EVENT_NAME (64) + NUL */
};

struct perf_rec_tracing_data {	/* HEADER_TRACING_DATA: the payload follows the record */
	uint32_t size;
};

struct perf_rec_build_id {	/* HEADER_BUILD_ID */
	int32_t pid;
	uint8_t size;			/* 20 unless PERF_RECORD_MISC_BUILD_ID_SIZE */
	const uint8_t *build_id;
	const char *filename;
};

struct perf_rec_id_index_entry {
	uint64_t id, idx, cpu, tid;
};

struct perf_rec_id_index {
	uint64_t nr;
	const struct perf_rec_id_index_entry *entries;
	const uint64_t *ext;		/* nr (machine_pid, vcpu) pairs after entries when the record has room, else NULL */
};

struct perf_rec_auxtrace_info {
	uint32_t type;
	uint64_t nr_priv;
	const uint64_t *priv;
};

struct perf_rec_auxtrace {	/* the payload (size bytes) follows the record */
	uint64_t size, offset, reference;
	uint32_t idx, tid, cpu;
};

struct perf_rec_auxtrace_error {
	uint32_t type, code, cpu, pid, tid, fmt;
	uint64_t ip, time;		/* time valid when fmt >= 1 */
	const char *msg;
	uint32_t machine_pid, vcpu;	/* valid when fmt >= 2 */
};

struct perf_rec_thread_map {
	uint64_t nr;
	const void *entries;		/* nr x { u64 pid; char comm[16]; } */
};

struct perf_rec_cpu_map {
	uint16_t type;			/* PERF_CPU_MAP__CPUS / __MASK / __RANGE_CPUS */
	uint64_t nr;			/* cpus (CPUS) or mask words (MASK) */
	const void *data;
	unsigned long_size;		/* MASK: 4 or 8 */
	uint16_t start_cpu, end_cpu;	/* RANGE_CPUS */
	uint8_t any_cpu;
};

struct perf_rec_stat_config {
	uint64_t nr;
	const uint64_t *data;		/* nr (tag, val) pairs */
};

struct perf_rec_stat {
	uint64_t id;
	uint32_t cpu, thread;
	uint64_t val, ena, run;
};

struct perf_rec_stat_round {
	uint64_t type, time;
};

struct perf_rec_event_update {
	uint64_t type, id;
	const void *data;
	uint64_t data_size;
	const char *str;		/* type UNIT (0) and NAME (2) */
	double scale;			/* type SCALE (1) */
	struct perf_rec_cpu_map cpus;	/* type CPUS (3) */
};

struct perf_rec_time_conv {
	uint64_t time_shift, time_mult, time_zero;
	uint64_t time_cycles, time_mask;	/* valid when has_ext */
	int has_ext;
	uint8_t cap_user_time_zero, cap_user_time_short;
};

struct perf_rec_feature {	/* HEADER_FEATURE: a feature section as a record */
	uint64_t feat_id;
	const void *data;
	uint64_t size;
};

struct perf_rec_compressed {	/* COMPRESSED and COMPRESSED2 */
	const void *data;
	uint64_t size;			/* compressed bytes */
};

struct perf_record {
	uint32_t type;
	uint16_t misc;
	uint16_t size;			/* header.size */
	const void *data;		/* the whole record, size bytes, host order */
	uint64_t offset;		/* byte offset in the file (of the COMPRESSED record for inner ones) */
	uint64_t nr;			/* index in file order, counting records inside COMPRESSED */
	int compressed;			/* came out of a COMPRESSED chunk */
	int undecoded;			/* a SAMPLE of an unknown id: only the header is valid (counted, not analysed) */
	const struct perf_evattr *evattr;	/* the record's attr, NULL when none applies */
	struct perf_sample sample;	/* SAMPLE: every field; other kernel records: the sample_id_all trailer */
	const void *payload;		/* AUXTRACE / pipe TRACING_DATA bytes after the record, or NULL */
	uint64_t payload_size;		/* bytes after the record that belong to it (payload may be NULL when large) */
	union {
		struct perf_rec_mmap mmap;
		struct perf_rec_comm comm;
		struct perf_rec_fork fork;
		struct perf_rec_lost lost;
		struct perf_rec_throttle throttle;
		struct perf_rec_read read;
		struct perf_rec_aux aux;
		struct perf_rec_itrace_start itrace_start;
		struct perf_rec_switch sw;
		struct perf_rec_namespaces namespaces;
		struct perf_rec_ksymbol ksymbol;
		struct perf_rec_bpf_event bpf_event;
		struct perf_rec_cgroup cgroup;
		struct perf_rec_text_poke text_poke;
		struct perf_rec_aux_output_hw_id aux_output_hw_id;
		struct perf_rec_callchain_deferred callchain_deferred;
		struct perf_rec_header_attr header_attr;
		struct perf_rec_event_type event_type;
		struct perf_rec_tracing_data tracing_data;
		struct perf_rec_build_id build_id;
		struct perf_rec_id_index id_index;
		struct perf_rec_auxtrace_info auxtrace_info;
		struct perf_rec_auxtrace auxtrace;
		struct perf_rec_auxtrace_error auxtrace_error;
		struct perf_rec_thread_map thread_map;
		struct perf_rec_cpu_map cpu_map;
		struct perf_rec_stat_config stat_config;
		struct perf_rec_stat stat;
		struct perf_rec_stat_round stat_round;
		struct perf_rec_event_update event_update;
		struct perf_rec_time_conv time_conv;
		struct perf_rec_feature feature;
		struct perf_rec_compressed compressed;
	} u;
	char why_buf[96];		/* storage for the *why message of perf_record__decode() */
	/*
	 * &sample while sample's fields after period are all zero (left so by
	 * perf_record__decode(), which then clears only the fields before them);
	 * anything else: not known.  A copy (*rec) points at another record's
	 * sample, so it is not known either.
	 */
	const struct perf_sample *zero_tail;
};

/*
 * Swap one record in place from the other byte order to the host's (the
 * header first, then every field by its type and, for samples and trailers,
 * by the attr the record belongs to).  evlist gives the attrs (already in host
 * order).  data holds size bytes; the record is its (swapped) header.size
 * bytes, which must lie within size.  Byte arrays stay as they are: strings,
 * RAW and AUX sample data, the user stack dump, HEADER_FEATURE section data
 * (the feature parser swaps it), COMPRESSED payloads.  A record too short
 * for its fields is swapped as far as it goes, and a SAMPLE whose attr is
 * unknown only in its id, so that perf_record__decode() then rejects them
 * with the same message as in a native file.  Returns 0, or -EINVAL with
 * *why set (a constant string) when the header size is below 8 or beyond
 * size, or a HEADER_ATTR's attr.size is invalid.
 */
int perf_record__swap(void *data, size_t size, const struct perf_evlist *evlist, const char **why);

/*
 * Swap the first size bytes of a perf_event_attr written in the other byte
 * order (the on-disk attr size; fields not wholly inside are left alone).
 * The flag bitfield after read_format is converted as perf does (bits of each
 * byte reversed), with the 2-bit precise_ip put back in order.
 */
void perf_event_attr__swap(void *attr, size_t size);

/*
 * Fill in the attr, the sample (or sample_id_all trailer) and the typed view
 * of rec, whose type/misc/size/data are set and in host order; payload,
 * offset, nr and compressed are left alone.  rec->sample and rec->u are
 * cleared first, so fields outside sample_type read 0.  Validates every
 * count against the record size.  0, or -EINVAL with *why pointing into
 * rec->why_buf ("callchain nr 4096 exceeds the record", "unknown sample id
 * 0x2a").  rec must start zeroed (= { 0 } or calloc) and be decoded into
 * again as it is: it keeps what lets the next decode clear less (zero_tail).  A non-SAMPLE record whose attr is unknown still gets its typed
 * view (evattr NULL, no trailer).  Pointer fields point into rec->data at
 * the offsets the format gives: u64 arrays are 8-byte aligned when data is
 * (cpu map masks are not); the decoder itself only uses memcpy loads.
 */
int perf_record__decode(struct perf_record *rec, const struct perf_evlist *evlist, const char **why);

/*
 * The attr a record belongs to, as evlist__event2evsel(): the only attr; the
 * first for non-samples without sample_id_all; else the id at id_pos (SAMPLE)
 * or is_pos from the end (others; IDENTIFIER puts it first/last), id 0 (a
 * synthesized record) giving the first attr.  When attrs disagree on the
 * position (perf refuses such files) each attr's position is tried.  User
 * records (type >= 64) and unknown ids give NULL.  Reads only [data, data+size).
 */
const struct perf_evattr *perf_evlist__find(const struct perf_evlist *evlist, uint32_t type,
					    const void *data, size_t size);

/* compute id_pos/is_pos/trailer_size of every attr and of the list; call after attrs change */
void perf_evlist__prepare(struct perf_evlist *evlist);
/* the same after one attr was appended (pipe mode's HEADER_ATTR): O(1) */
void perf_evlist__prepare_last(struct perf_evlist *evlist);

/*
 * sample_type as perf prints it: "IP|TID|TIME|CALLCHAIN|PERIOD", names in the
 * order of perf's table (__p_sample_type()); like perf, TRANSACTION and bits
 * unknown to perf 6.1 are not printed.  "" for 0.
 */
struct strbuf;
int perf_sample_type__format(uint64_t sample_type, struct strbuf *sb);

/*
 * Every decoded field of a successfully decoded rec as one line of text
 * (readperf dump, tests): "SAMPLE nr=12 offset=0x1a0 misc=0x2 size=48 attr=0
 * ip=0x... pid=1 tid=1 time=... callchain=[0x..,0x..] ...\n".  Byte arrays
 * print as hex up to 256 bytes, longer ones as "#LEN:fnv1a64:0xHASH";
 * HEADER_FEATURE prints the section size only (its bytes stay in file
 * order).  0 or -ENOMEM.
 */
int perf_record__dump(const struct perf_record *rec, struct strbuf *sb);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The one writer of synthetic perf.data bytes for the tests: the generator
 * (tests/gen) and the unit tests build records, attrs, feature sections and
 * whole files (PERFILE2 or pipe mode) with it, in either byte order.
 *
 * It does not use the reader or the writer.  A big-endian buffer holds what a
 * big-endian machine's perf would write: every field in big-endian order at
 * its struct offset, and bitfield words (attr flags, branch flags) in
 * big-endian bit order (the inverse of swap_bitfield() in
 * tools/perf/util/session.c).  Layouts follow include/uapi/linux/perf_event.h,
 * tools/lib/perf/include/perf/event.h and tools/perf/util/header.c (Linux 6.1).
 *
 * struct perfemit is a growable byte buffer: p holds len bytes, owned by the
 * buffer until perfemit__release() frees them (a zeroed struct is an empty
 * little-endian buffer).  Running out of memory aborts: this is test code.
 */
#ifndef TESTS_LIB_PERFEMIT_H
#define TESTS_LIB_PERFEMIT_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct perfemit {
	uint8_t *p;
	size_t len, cap;
	int be;			/* write big-endian */
};

void perfemit__init(struct perfemit *o, int be);
void perfemit__release(struct perfemit *o);

void perfemit__bytes(struct perfemit *o, const void *d, size_t n);
void perfemit__zero(struct perfemit *o, size_t n);
/* the low n bytes of v in o's byte order */
void perfemit__uint(struct perfemit *o, uint64_t v, unsigned n);
/* overwrite n bytes at off (already written) with v in o's byte order */
void perfemit__put(struct perfemit *o, size_t off, uint64_t v, unsigned n);

static inline void perfemit__u8(struct perfemit *o, uint64_t v) { perfemit__uint(o, v, 1); }
static inline void perfemit__u16(struct perfemit *o, uint64_t v) { perfemit__uint(o, v, 2); }
static inline void perfemit__u32(struct perfemit *o, uint64_t v) { perfemit__uint(o, v, 4); }
static inline void perfemit__u64(struct perfemit *o, uint64_t v) { perfemit__uint(o, v, 8); }

static inline void perfemit__u32x2(struct perfemit *o, uint64_t a, uint64_t b)
{
	perfemit__u32(o, a);
	perfemit__u32(o, b);
}

/* NULs until the bytes from start on are a multiple of align */
void perfemit__pad(struct perfemit *o, size_t start, size_t align);
/* s with its NUL, then NULs up to a multiple of align bytes of string */
void perfemit__str(struct perfemit *o, const char *s, size_t align);
/* do_write_string() of header.c: u32 length (NUL included, aligned to 64), string, zeros */
void perfemit__feat_string(struct perfemit *o, const char *s);

/*
 * A C bitfield word: v as this (little-endian) host holds it, widths the
 * field widths from bit 0 up, ending with 0.  Big-endian: the first field at
 * the most significant bit, each value keeping its own bit order.
 */
void perfemit__bitfield(struct perfemit *o, uint64_t v, const unsigned char *widths);
extern const unsigned char perfemit_attr_flag_widths[];
extern const unsigned char perfemit_branch_flag_widths[];

/* a software event (config a PERF_COUNT_SW_*), sample_id_all, all else zero */
void perfemit__sw_attr(struct perf_event_attr *a, uint64_t config, uint64_t period, uint64_t sample_type);

/*
 * struct perf_event_attr, size bytes, with size in its size field (a->size
 * is not used): 64, 96, 128, or more, the bytes past 128 nonzero filler
 * for fields this perf does not know.
 */
void perfemit__attr(struct perfemit *o, const struct perf_event_attr *a, uint32_t size);

/* a record header with size 0; returns where the record starts */
size_t perfemit__rec_begin(struct perfemit *o, uint32_t type, uint16_t misc);
/* pad to a multiple of 8 from start when pad, then set header.size; returns start */
size_t perfemit__rec_end(struct perfemit *o, size_t start, int pad);
/* a record's type, read back in o's byte order */
uint32_t perfemit__rec_type(const struct perfemit *o, size_t start);

/* the values of a sample_id_all trailer (also used for sample fields) */
struct perfemit_sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;		/* ID and IDENTIFIER */
	uint64_t stream_id;
	uint32_t cpu;
};

/* the sample_id_all trailer: TID TIME ID STREAM_ID CPU IDENTIFIER as sample_type says */
void perfemit__sample_id(struct perfemit *o, uint64_t sample_type, const struct perfemit_sample_id *s);

/*
 * A PERF_RECORD_HEADER_BUILD_ID (also the BUILD_ID feature's entries): pid
 * (left out when old_abi, the pre-4.x layout), id of size bytes in a 20-byte
 * area followed by u8 size and 3 zeros, name with NULs to name_len bytes.
 */
void perfemit__build_id(struct perfemit *o, uint16_t misc, int32_t pid, const uint8_t *id, uint8_t size,
			const char *name, size_t name_len, int old_abi);

/*
 * Bytes from a spec, for tables of test cases: words separated by spaces,
 *   u8:N u16:N u32:N u64:N   N (strtoull, base 0; -1 is all ones) in o's byte order
 *   z:N                      N zero bytes
 *   a:N                      zero bytes until o holds a multiple of N
 *   c:TEXT                   TEXT's bytes, no NUL
 *   s:TEXT                   TEXT as perfemit__feat_string() writes it
 * Returns 0, or -EINVAL at a word it does not know (the words before it stay written).
 */
int perfemit__spec(struct perfemit *o, const char *spec);

/* ------------------------------------------------------------- whole files */

#define PERFEMIT_MAX_FEAT 32	/* HEADER_LAST_FEATURE */

struct perfemit_attr {
	const struct perf_event_attr *attr;
	const uint64_t *ids;
	size_t nr_ids;
};

/* what a file holds; all borrowed */
struct perfemit_file {
	uint32_t attr_size;			/* on-disk perf_event_attr size */
	const struct perfemit_attr *attrs;
	size_t nr_attrs;
	const struct perfemit *data;		/* the records */
	const struct perfemit *feat[PERFEMIT_MAX_FEAT];	/* NULL: no such section */
	int no_feature_end;			/* pipe: no HEADER_FEATURE end mark */
};

/* where things landed in a PERFILE2 file, for corrupt variants */
struct perfemit_layout {
	uint64_t data_offset;
	uint64_t table_offset;
	uint64_t feat_entry[PERFEMIT_MAX_FEAT];	/* offset of a feature's table entry */
	uint64_t feat_offset[PERFEMIT_MAX_FEAT];	/* offset of its section */
};

/*
 * A PERFILE2 file appended to o (in o's byte order): header, attrs (each
 * followed by its ids' offset and size, both 0 for an attr without ids),
 * ids, data, feature table, sections.  lay may be NULL.
 */
void perfemit__file(struct perfemit *o, const struct perfemit_file *f, struct perfemit_layout *lay);

/*
 * Pipe mode appended to o: the 16-byte header, one HEADER_ATTR record per
 * attr (with its ids), one HEADER_FEATURE record per section that is not
 * BUILD_ID (perf does not send that one), the end mark unless
 * f->no_feature_end, then the data.
 * Returns the number of HEADER_FEATURE records (the end mark included).
 */
size_t perfemit__pipe(struct perfemit *o, const struct perfemit_file *f);

/* ------------------------------------------- a small file in one call each */

/*
 * For tests that want a few records in a little-endian PERFILE2 file with no
 * feature sections (test-ordered, test-analysis): every attr gets one id
 * (100 + index) and sample_id_all; samples and trailers carry
 * PERF_SAMPLE_IDENTIFIER so several attrs can be mixed.  A zeroed struct is
 * empty; pe__release() frees it.
 */
#define PE_MAX_ATTRS 4

struct pe {
	struct perf_event_attr attrs[PE_MAX_ATTRS];
	uint64_t ids[PE_MAX_ATTRS];
	size_t nr_attrs;
	struct perfemit data;
};

/* add a software event (cpu-clock, task-clock, ...); returns its index */
size_t pe__attr(struct pe *e, uint64_t sample_type, uint64_t period);
/* a SAMPLE of attr ev: IDENTIFIER IP TID TIME CPU PERIOD CALLCHAIN as its sample_type says */
void pe__sample(struct pe *e, size_t ev, uint16_t misc, uint64_t ip, uint32_t pid, uint32_t tid,
		uint64_t time, uint64_t period, const uint64_t *chain, uint64_t nr_chain);
void pe__comm(struct pe *e, size_t ev, uint32_t pid, uint32_t tid, const char *comm, int exec,
	      uint64_t time);
void pe__mmap(struct pe *e, size_t ev, uint16_t misc, uint32_t pid, uint32_t tid, uint64_t start,
	      uint64_t len, uint64_t pgoff, const char *file, uint64_t time);
void pe__round(struct pe *e);
/* the whole file, malloc'd: the caller frees it */
uint8_t *pe__file(struct pe *e, size_t *size);
void pe__release(struct pe *e);

#endif

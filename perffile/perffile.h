/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * perffile: the perf.data format.
 *
 * A struct perf_file reads one perf.data file (PERFILE2 in either byte
 * order, the old PERFFILE v1 layout, pipe mode, gzip-compressed, from a path,
 * an fd or memory) and yields its records one at a time in file order, each
 * validated, swapped to host order and decoded (struct perf_record).  Records
 * inside PERF_RECORD_COMPRESSED/COMPRESSED2 are decompressed (zstd,
 * streaming) and yielded as if they stood in the file.
 *
 * Memory stays bounded by the largest record (plus one compressed chunk), not
 * by the file: the reader never loads the whole file.
 *
 * Follows tools/perf/util/header.c, session.c and evsel.c of Linux.
 */
#ifndef PERFFILE_PERFFILE_H
#define PERFFILE_PERFFILE_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "util/hashmap.h"
#include "util/log.h"
#include "perffile/record.h"
#include "perffile/features.h"

/*
 * One attr (event) of the file.  attr is in host order; fields past the
 * size the file wrote (file_attr_size) are zero, fields the file has beyond
 * sizeof(struct perf_event_attr) are ignored (the known prefix is read).
 */
struct perf_evattr {
	struct perf_event_attr attr;
	uint32_t file_attr_size;
	uint64_t *ids;		/* owned */
	size_t nr_ids;
	char *name;		/* owned: EVENT_DESC / event_types / HEADER_EVENT_TYPE, else made up from type/config */
	int idx;		/* position in perf_evlist.attrs */
	/* derived by perf_evlist__prepare() (record.c): */
	int id_pos;		/* u64 index of the sample id counted from the start of a SAMPLE, or -1 */
	int is_pos;		/* u64 index of the id counted from the end of a sample_id_all trailer, or -1 */
	size_t trailer_size;	/* bytes of the sample_id_all trailer of non-sample records */
	/*
	 * A sample whose fields all come before PERF_SAMPLE_READ has them at
	 * fixed places: fixed_size bytes (0: the type has later fields, or
	 * both ids), the k-th u64 after the header going to byte fixed_dst[k]
	 * of struct perf_sample
	 */
	uint16_t fixed_size;
	uint8_t nr_fixed;
	uint8_t fixed_dst[8];
};

/* The attrs of a file, with the id -> attr map. */
struct perf_evlist {
	struct perf_evattr *attrs;	/* owned array */
	size_t nr;
	struct hashmap id_map;		/* key: u64 id; value: (void *)(uintptr_t)(attr index + 1) */
	/* derived by perf_evlist__prepare() */
	int id_pos, is_pos;		/* common to all attrs, or -1 */
	int sample_id_all;		/* of the first attr */
};

/* file-level facts of the header */
enum perf_file_format {
	PERF_FORMAT_FILE_V2,	/* PERFILE2 */
	PERF_FORMAT_FILE_V1,	/* PERFFILE (v1, with event_types) */
	PERF_FORMAT_PIPE,	/* PERFILE2 with a 16-byte header, records follow */
};

struct perf_file_info {
	enum perf_file_format format;
	int swapped;			/* file byte order differs from the host's */
	int gzip;			/* the input was gzip-compressed */
	int zstd;			/* the whole input was zstd-compressed (perf.data.zst) */
	uint64_t file_size;		/* 0 when unknown (pipe, gzip, zstd) */
	uint64_t header_size;
	uint64_t attr_size;		/* on-disk size of one attr entry (attr + ids section) */
	uint64_t attrs_offset, attrs_size;
	uint64_t data_offset, data_size;
	uint64_t event_types_offset, event_types_size;
	uint64_t features[4];		/* feature bitmap, host order */
};

struct perf_file;

struct perf_file_opts {
	const struct log *log;	/* messages (may be NULL) */
	const char *name;	/* file name used in messages ("-" for stdin) */
};

/*
 * Open and validate the header, attrs, ids and feature sections.  On
 * failure returns a negative errno and logs "NAME: ... at offset 0x...".
 * -EINVAL: malformed input; -ENOMEM; other: I/O errors.  A signal handler
 * installed without SA_RESTART that interrupts a blocked open or read (a FIFO
 * waiting for its writer, a stalled pipe) ends it with -EINTR, not logged,
 * here and in perf_file__next: the caller says why it stopped.
 */
int perf_file__open(struct perf_file **out, const char *path, const struct perf_file_opts *opts);
int perf_file__open_fd(struct perf_file **out, int fd, const struct perf_file_opts *opts);	/* fd is not closed */
int perf_file__open_mem(struct perf_file **out, const void *buf, size_t len, const struct perf_file_opts *opts);	/* buf borrowed until delete */
void perf_file__delete(struct perf_file *f);

/*
 * The next record in file order.  Returns 1 and fills *rec (a view valid
 * until the next call), 0 at the end, or a negative errno after logging the
 * fault with its byte offset.  After an error the file is finished: further
 * calls return the same error.
 *
 * User records that shape the stream (HEADER_ATTR, HEADER_FEATURE,
 * HEADER_EVENT_TYPE, ID_INDEX, COMPRESSED, ...) are applied to the file's
 * state and still yielded, so callers can count them.  Records that came out
 * of a COMPRESSED chunk have rec->compressed set.  A SAMPLE whose id matches
 * no attr is reported once, yielded with rec->undecoded set (count it, don't
 * analyse it), and makes the stream end with -EINVAL after its last record.
 */
int perf_file__next(struct perf_file *f, struct perf_record *rec);

/*
 * fn(ctx) is called before the file changes its attrs or features (records
 * of a pipe) and before it logs a message: the caller can have another
 * thread that reads them, or logs too, come to rest first.
 */
void perf_file__set_barrier(struct perf_file *f, void (*fn)(void *ctx), void *ctx);

const struct perf_file_info *perf_file__info(const struct perf_file *f);
const struct perf_evlist *perf_file__evlist(const struct perf_file *f);
/* feature sections; in pipe mode they fill in as HEADER_FEATURE records arrive */
const struct perf_features *perf_file__features(const struct perf_file *f);
/* the name used in messages ("stdin" for '-') */
const char *perf_file__name(const struct perf_file *f);
/* 0, or the fault the file has shown so far (also one that did not stop reading) */
int perf_file__status(const struct perf_file *f);
/* bytes consumed so far (for progress) and the total when known */
uint64_t perf_file__pos(const struct perf_file *f);

/*
 * Decode a record that the caller copied out of a previous perf_file__next()
 * view (host order already): used by the ordered queue to re-decode.
 * rec->nr, rec->offset and rec->compressed are kept as the caller set them;
 * everything else is filled in.  data must stay valid while rec is used.
 * 0 or -EINVAL (with *why set).
 */
int perf_file__decode(const struct perf_file *f, const void *data, size_t size,
		      struct perf_record *rec, const char **why);

/* say "NAME: record at offset 0x..: WHY" of a record the caller found malformed; -EINVAL */
int perf_file__fault(struct perf_file *f, uint64_t off, const char *why);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * perf.data writer: what `readperf record` uses to store what it captured,
 * in the layout Linux perf 6.1 writes and reads (tools/perf/util/header.c:
 * perf_session__write_header(), write_* feature functions; synthetic-events.c
 * for pipe mode).
 *
 * File mode (PERFILE2, seekable fd):
 *   0            struct perf_file_header (104 bytes), complete at finish()
 *   104          the ids of every attr (u64 each)
 *   ...          the attrs section: per attr { struct perf_event_attr (host
 *                size, 128 with 6.1 headers); struct perf_file_section ids }
 *   data_offset  the records given to perf_writer__write()
 *   data end     feature section table (one {offset,size} per set bit), then
 *                the feature sections themselves
 * From start() the header is valid without feature sections, its data size
 * the whole records on disk (rewritten at each flush of the 256 KiB buffer),
 * so a capture killed before finish() leaves a file perf and readperf read
 * up to its last flushed record; finish() writes the features and the
 * complete header.
 *
 * Pipe mode: the 16-byte header {PERFILE2, 16}, then at start() one
 * PERF_RECORD_HEADER_ATTR per attr, one PERF_RECORD_HEADER_FEATURE per
 * feature set so far (EVENT_DESC included; build ids as
 * PERF_RECORD_HEADER_BUILD_ID records, as perf does) and the HEADER_LAST_FEATURE
 * mark, then the records.  Features set after start() are sent at once.
 *
 * Everything is host byte order.  Functions return 0 or a negative errno and
 * log details through opts->log; after a write error the writer stays failed
 * and every later call returns the same error.
 */
#ifndef PERFFILE_WRITER_H
#define PERFFILE_WRITER_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "util/log.h"
#include "perffile/features.h"

struct perf_writer;

struct perf_writer_opts {
	int pipe;		/* write pipe mode (stream) instead of a PERFILE2 file */
	const struct log *log;	/* borrowed for the writer's lifetime; may be NULL */
	const char *name;	/* the output's name in messages (default "perf.data"); borrowed likewise */
	/*
	 * perf record -z: > 0 sends the kernel's records (types below
	 * PERF_RECORD_USER_TYPE_START) through one zstd stream at this level
	 * into PERF_RECORD_COMPRESSED records, as perf does, and sets the
	 * COMPRESSED feature.  A user record (FINISHED_ROUND, ...) or a flush
	 * first puts out what is pending, so the order stays.
	 */
	int zstd_level;
	/*
	 * The reader's bound for what one COMPRESSED record expands to (perf
	 * allocates this per record: its ring's size, pages + 1); runs of
	 * records are compressed in pieces no larger.  >= 8192 with zstd_level.
	 */
	uint32_t zstd_mmap_len;
};

/*
 * fd is borrowed (not closed by delete).  File mode needs a seekable fd
 * positioned anywhere (offsets are absolute, from 0); -ESPIPE otherwise.
 */
int perf_writer__new(struct perf_writer **out, int fd, const struct perf_writer_opts *opts);

/*
 * One event, before start().  attr is copied and its size field set to
 * sizeof(struct perf_event_attr); ids (nr_ids of them, may be 0 for a single
 * attr) are copied; name (may be NULL: then one is made from type/config)
 * is what EVENT_DESC carries and `perf report` shows.  EVENT_DESC names are
 * matched to attrs by id: without ids perf 6.1 keeps them in file mode (one
 * attr) but not in pipe mode, where it falls back to a name of its own.
 */
int perf_writer__add_attr(struct perf_writer *w, const struct perf_event_attr *attr,
			  const uint64_t *ids, size_t nr_ids, const char *name);

/* PERF_FEAT_HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID; -EINVAL for others */
int perf_writer__set_string(struct perf_writer *w, unsigned feat, const char *s);
int perf_writer__set_nrcpus(struct perf_writer *w, uint32_t online, uint32_t avail);
int perf_writer__set_total_mem(struct perf_writer *w, uint64_t kb);
/* argv as given (perf itself stores the perf binary path first) */
int perf_writer__set_cmdline(struct perf_writer *w, int argc, const char *const *argv);
/* size <= 20; misc is PERF_RECORD_MISC_KERNEL / _USER / _GUEST_* */
int perf_writer__add_build_id(struct perf_writer *w, int32_t pid, uint16_t misc,
			      const uint8_t *id, size_t size, const char *filename);
int perf_writer__set_sample_time(struct perf_writer *w, uint64_t first, uint64_t last);
/*
 * Any other section, already encoded (host order) as header.c's write_*
 * would.  Replaces what was set for feat before.  EVENT_DESC is built by the
 * writer unless set here.  feat < PERF_FEAT_LAST.
 */
int perf_writer__set_feature_raw(struct perf_writer *w, unsigned feat, const void *data, size_t size);

/* file: place ids and attrs, reserve the header; pipe: header, attrs, features */
int perf_writer__start(struct perf_writer *w);

/*
 * One record, host order; size must equal its header.size, be >= 8 and a
 * multiple of 8.  Buffered.  0 or -errno (-EINVAL for a bad size).
 */
int perf_writer__write(struct perf_writer *w, const void *rec, size_t size);

/*
 * Write out what is buffered; in file mode the header then says how much
 * of the data is whole records on disk.  For a capture that must stay
 * readable when killed.  0 or -errno.
 */
int perf_writer__flush(struct perf_writer *w);

/* bytes of records written so far (data section size once flushed) */
uint64_t perf_writer__data_size(const struct perf_writer *w);

/* with zstd_level: bytes of records given and bytes of COMPRESSED records made from them */
void perf_writer__zstd_bytes(const struct perf_writer *w, uint64_t *in, uint64_t *out);

/*
 * File: flush, write the feature sections after the data, then the header
 * at offset 0.  Pipe: send features added late, flush.  The writer can only
 * be deleted afterwards.
 */
int perf_writer__finish(struct perf_writer *w);

/* frees everything; NULL is a no-op; does not close the fd */
void perf_writer__delete(struct perf_writer *w);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * perf.data writer (see writer.h for the layout).
 *
 * Follows tools/perf/util/header.c of Linux 6.1: perf_session__write_header()
 * and perf_header__adds_write() for the file layout, do_write_string() (u32
 * length including the NUL, padded to NAME_ALIGN 64), write_nrcpus() (avail
 * then online), write_event_desc(), write_cmdline(), write_buildid(); and
 * synthetic-events.c (perf_event__synthesize_attr / _features) for pipe mode.
 * Feature sections are encoded when set and kept as bytes until written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <zstd.h>

#include "perffile/writer.h"
#include "perffile/record.h"
#include "util/array.h"

#define PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" read as a little-endian u64 */
#define FILE_HEADER_SIZE	104
#define PIPE_HEADER_SIZE	16
#define NAME_ALIGN		64
#define WBUF_SIZE		(256 * 1024)
#define BUILD_ID_REC_SIZE	36	/* header 8, pid 4, build_id[24] (data[20], size, pad) */
#define MISC_BUILD_ID_SIZE	(1 << 15)	/* PERF_RECORD_MISC_BUILD_ID_SIZE */

struct writer_attr {
	struct perf_event_attr attr;
	uint64_t *ids;
	size_t nr_ids;
	char *name;
};

struct writer_feat {
	int set;
	int sent;		/* pipe: already sent as a record */
	struct array bytes;	/* uint8_t */
};

struct perf_writer {
	int fd;
	int pipe;
	const struct log *log;
	const char *name;	/* for messages */
	int started, finished;
	int finishing;		/* writing what follows the data: the header is left alone */
	int error;		/* sticky negative errno */
	struct writer_attr *attrs;
	size_t nr_attrs;
	struct writer_feat feats[PERF_FEAT_LAST];
	struct array build_ids;	/* uint8_t: build id records as written in the BUILD_ID section */
	size_t build_ids_sent;	/* pipe: bytes of build_ids already sent */
	uint64_t pos;		/* file mode: offset where the next buffered byte goes */
	uint64_t data_offset;
	uint64_t data_size;	/* bytes passed to write() */
	uint8_t *buf;
	size_t buf_len;
	/* -z: kernel records wait in zin, then go through zcs into COMPRESSED records */
	ZSTD_CStream *zcs;
	struct array zin;	/* uint8_t */
	size_t zchunk;		/* the most bytes compressed in one piece (the reader's mmap_len) */
	int zlevel;
	uint32_t zmmap_len;
	uint64_t zbytes_in, zbytes_out;
};

static int fail(struct perf_writer *w, int err, const char *what)
{
	if (!w->error) {
		w->error = err;
		log_msg(w->log, LOG_ERR, "%s: %s: %s", w->name, what, strerror(-err));
	}
	return w->error;
}

/* all size bytes to fd at off (pwrite), or at its position when off is -1 (write) */
static int fd_write(int fd, const void *data, size_t size, int64_t off)
{
	const char *p = data;

	while (size) {
		ssize_t n = off < 0 ? write(fd, p, size) : pwrite(fd, p, size, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		p += n;
		size -= (size_t)n;
		if (off >= 0)
			off += n;
	}
	return 0;
}


static void put_u64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* struct perf_file_header for data_size bytes of data and the features bitmap */
static void file_header(const struct perf_writer *w, uint8_t hdr[FILE_HEADER_SIZE], uint64_t data_size,
			const uint64_t features[4])
{
	uint64_t nids = 0;
	size_t j;

	for (j = 0; j < w->nr_attrs; j++)
		nids += w->attrs[j].nr_ids;
	memset(hdr, 0, FILE_HEADER_SIZE);
	put_u64(hdr + 0, PERF_MAGIC2);
	put_u64(hdr + 8, FILE_HEADER_SIZE);
	put_u64(hdr + 16, sizeof(struct perf_event_attr) + 16);
	put_u64(hdr + 24, FILE_HEADER_SIZE + nids * 8);		/* attrs after the ids */
	put_u64(hdr + 32, w->nr_attrs * (sizeof(struct perf_event_attr) + 16));
	put_u64(hdr + 40, w->data_offset);
	put_u64(hdr + 48, data_size);
	/* event_types (56, 64) stays zero, as perf writes it */
	memcpy(hdr + 72, features, 4 * sizeof(uint64_t));
}

static int flush(struct perf_writer *w)
{
	int err;

	if (!w->buf_len)
		return 0;
	if (w->pipe)
		err = fd_write(w->fd, w->buf, w->buf_len, -1);
	else
		err = fd_write(w->fd, w->buf, w->buf_len, (int64_t)w->pos);
	if (err)
		return fail(w, err, "write");
	w->pos += w->buf_len;
	w->buf_len = 0;
	/*
	 * While the data grows the header says how much of it is whole records
	 * on disk (perf writes its header at the start too and rewrites it at
	 * the end): a capture killed here leaves a file perf and readperf read
	 * up to its last complete record, without feature sections.
	 */
	if (!w->pipe && w->started && !w->finishing) {
		static const uint64_t no_features[4];
		uint8_t hdr[FILE_HEADER_SIZE];
		uint64_t on_disk = w->pos > w->data_offset ? w->pos - w->data_offset : 0;

		file_header(w, hdr, w->data_size < on_disk ? w->data_size : on_disk, no_features);
		err = fd_write(w->fd, hdr, sizeof(hdr), 0);
		if (err)
			return fail(w, err, "write header");
	}
	return 0;
}

/* append bytes to the output stream (buffered) */
static int emit(struct perf_writer *w, const void *data, size_t size)
{
	const uint8_t *p = data;

	while (size) {
		size_t n = WBUF_SIZE - w->buf_len;

		if (n > size)
			n = size;
		memcpy(w->buf + w->buf_len, p, n);
		w->buf_len += n;
		p += n;
		size -= n;
		if (w->buf_len == WBUF_SIZE) {
			int err = flush(w);

			if (err)
				return err;
		}
	}
	return 0;
}

int perf_writer__new(struct perf_writer **out, int fd, const struct perf_writer_opts *opts)
{
	struct perf_writer *w;
	unsigned i;

	*out = NULL;
	if (fd < 0)
		return -EBADF;
	if (!(opts && opts->pipe) && lseek(fd, 0, SEEK_CUR) < 0) {
		int err = -errno;

		log_msg(opts ? opts->log : NULL, LOG_ERR,
			"%s: file mode needs a seekable output: %s", opts && opts->name ? opts->name : "perf.data", strerror(errno));
		return err;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->buf = malloc(WBUF_SIZE);
	if (!w->buf) {
		free(w);
		return -ENOMEM;
	}
	w->fd = fd;
	w->pipe = opts ? opts->pipe : 0;
	w->log = opts ? opts->log : NULL;
	w->name = opts && opts->name ? opts->name : "perf.data";
	for (i = 0; i < PERF_FEAT_LAST; i++)
		array__init(&w->feats[i].bytes, 1);
	array__init(&w->build_ids, 1);
	array__init(&w->zin, 1);
	if (opts && opts->zstd_level > 0) {
		w->zlevel = opts->zstd_level;
		w->zmmap_len = opts->zstd_mmap_len;
		w->zchunk = opts->zstd_mmap_len;
		w->zcs = ZSTD_createCStream();
		if (w->zchunk < 8192 || !w->zcs ||
		    ZSTD_isError(ZSTD_CCtx_setParameter(w->zcs, ZSTD_c_compressionLevel, w->zlevel))) {
			int err = w->zchunk < 8192 ? -EINVAL : -ENOMEM;

			perf_writer__delete(w);
			return err;
		}
	}
	*out = w;
	return 0;
}

void perf_writer__delete(struct perf_writer *w)
{
	size_t i;

	if (!w)
		return;
	for (i = 0; i < w->nr_attrs; i++) {
		free(w->attrs[i].ids);
		free(w->attrs[i].name);
	}
	free(w->attrs);
	for (i = 0; i < PERF_FEAT_LAST; i++)
		array__release(&w->feats[i].bytes);
	array__release(&w->build_ids);
	array__release(&w->zin);
	ZSTD_freeCStream(w->zcs);
	free(w->buf);
	free(w);
}

static int check_usable(struct perf_writer *w)
{
	if (w->error)
		return w->error;
	if (w->finished)
		return -EINVAL;
	return 0;
}

int perf_writer__add_attr(struct perf_writer *w, const struct perf_event_attr *attr,
			  const uint64_t *ids, size_t nr_ids, const char *name)
{
	struct writer_attr *a, *n;
	int err = check_usable(w);

	if (err)
		return err;
	if (w->started || !attr || (nr_ids && !ids) || nr_ids > UINT32_MAX)
		return -EINVAL;
	n = realloc(w->attrs, (w->nr_attrs + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	w->attrs = n;
	a = &w->attrs[w->nr_attrs];
	memset(a, 0, sizeof(*a));
	a->attr = *attr;
	a->attr.size = sizeof(struct perf_event_attr);
	if (nr_ids) {
		a->ids = malloc(nr_ids * sizeof(uint64_t));
		if (!a->ids)
			return -ENOMEM;
		memcpy(a->ids, ids, nr_ids * sizeof(uint64_t));
		a->nr_ids = nr_ids;
	}
	if (name) {
		a->name = strdup(name);
	} else {
		char tmp[64];

		snprintf(tmp, sizeof(tmp), "type%u:0x%llx", (unsigned)attr->type,
			 (unsigned long long)attr->config);
		a->name = strdup(tmp);
	}
	if (!a->name) {
		free(a->ids);
		return -ENOMEM;
	}
	w->nr_attrs++;
	return 0;
}

/* header.c do_write_string(): u32 len (incl. NUL, aligned to 64), bytes, zero padding */
static int put_string(struct array *b, const char *s)
{
	static const char zeros[NAME_ALIGN];
	size_t slen = strlen(s) + 1;
	size_t len = (slen + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;
	uint32_t l32 = (uint32_t)len;
	int err;

	if (len > UINT32_MAX)
		return -EINVAL;
	err = array__append(b, &l32, sizeof(l32));
	if (!err)
		err = array__append(b, s, slen);
	if (!err)
		err = array__append(b, zeros, len - slen);
	return err;
}

static int send_feature(struct perf_writer *w, unsigned feat);
static int set_compressed_feature(struct perf_writer *w);

/* the section is now complete: in pipe mode after start, send it */
static int feature_done(struct perf_writer *w, unsigned feat)
{
	w->feats[feat].set = 1;
	w->feats[feat].sent = 0;
	if (w->pipe && w->started)
		return send_feature(w, feat);
	return 0;
}

static struct array *feature_reset(struct perf_writer *w, unsigned feat)
{
	w->feats[feat].bytes.len = 0;
	w->feats[feat].set = 0;
	return &w->feats[feat].bytes;
}

int perf_writer__set_string(struct perf_writer *w, unsigned feat, const char *s)
{
	int err = check_usable(w);

	if (err)
		return err;
	switch (feat) {
	case PERF_FEAT_HOSTNAME: case PERF_FEAT_OSRELEASE: case PERF_FEAT_VERSION:
	case PERF_FEAT_ARCH: case PERF_FEAT_CPUDESC: case PERF_FEAT_CPUID:
		break;
	default:
		return -EINVAL;
	}
	if (!s)
		return -EINVAL;
	err = put_string(feature_reset(w, feat), s);
	return err ? err : feature_done(w, feat);
}

/* a feature of two values, as perf writes NRCPUS and SAMPLE_TIME */
static int set_pair(struct perf_writer *w, unsigned feat, const void *a, const void *b, size_t size)
{
	struct array *buf;
	int err = check_usable(w);

	if (err)
		return err;
	buf = feature_reset(w, feat);
	err = array__append(buf, a, size);
	if (!err)
		err = array__append(buf, b, size);
	return err ? err : feature_done(w, feat);
}

int perf_writer__set_nrcpus(struct perf_writer *w, uint32_t online, uint32_t avail)
{
	/* write_nrcpus(): nr_cpus_avail first, then nr_cpus_online */
	return set_pair(w, PERF_FEAT_NRCPUS, &avail, &online, sizeof(avail));
}

int perf_writer__set_total_mem(struct perf_writer *w, uint64_t kb)
{
	int err = check_usable(w);

	if (err)
		return err;
	err = array__append(feature_reset(w, PERF_FEAT_TOTAL_MEM), &kb, sizeof(kb));
	return err ? err : feature_done(w, PERF_FEAT_TOTAL_MEM);
}

int perf_writer__set_cmdline(struct perf_writer *w, int argc, const char *const *argv)
{
	struct array *b;
	uint32_t n = (uint32_t)argc;
	int i, err = check_usable(w);

	if (err)
		return err;
	if (argc < 0 || (argc && !argv))
		return -EINVAL;
	b = feature_reset(w, PERF_FEAT_CMDLINE);
	err = array__append(b, &n, sizeof(n));
	for (i = 0; !err && i < argc; i++)
		err = put_string(b, argv[i] ? argv[i] : "");
	return err ? err : feature_done(w, PERF_FEAT_CMDLINE);
}

int perf_writer__add_build_id(struct perf_writer *w, int32_t pid, uint16_t misc,
			      const uint8_t *id, size_t size, const char *filename)
{
	static const char zeros[NAME_ALIGN];
	uint8_t rec[BUILD_ID_REC_SIZE];
	size_t nlen, len;
	uint32_t type = PERF_RECORD_HEADER_BUILD_ID;
	uint16_t rmisc = misc | MISC_BUILD_ID_SIZE, rsize;
	size_t start;
	int err = check_usable(w);

	if (err)
		return err;
	if (!id || size > 20 || !filename)
		return -EINVAL;
	nlen = strlen(filename) + 1;
	len = (nlen + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;
	if (BUILD_ID_REC_SIZE + len > UINT16_MAX)
		return -EINVAL;
	rsize = (uint16_t)(BUILD_ID_REC_SIZE + len);
	/* write_buildid(): struct perf_record_header_build_id, filename padded to 64 */
	memset(rec, 0, sizeof(rec));
	memcpy(rec, &type, 4);
	memcpy(rec + 4, &rmisc, 2);
	memcpy(rec + 6, &rsize, 2);
	memcpy(rec + 8, &pid, 4);
	memcpy(rec + 12, id, size);
	rec[32] = (uint8_t)size;
	start = w->build_ids.len;
	err = array__append(&w->build_ids, rec, sizeof(rec));
	if (!err)
		err = array__append(&w->build_ids, filename, nlen);
	if (!err)
		err = array__append(&w->build_ids, zeros, len - nlen);
	if (err) {
		w->build_ids.len = start;
		return err;
	}
	if (w->pipe && w->started) {
		err = emit(w, (uint8_t *)w->build_ids.data + start, w->build_ids.len - start);
		if (err)
			return err;
		w->build_ids_sent = w->build_ids.len;
	}
	return 0;
}

int perf_writer__set_sample_time(struct perf_writer *w, uint64_t first, uint64_t last)
{
	return set_pair(w, PERF_FEAT_SAMPLE_TIME, &first, &last, sizeof(first));
}

int perf_writer__set_feature_raw(struct perf_writer *w, unsigned feat, const void *data, size_t size)
{
	int err = check_usable(w);

	if (err)
		return err;
	if (feat == PERF_FEAT_RESERVED || feat >= PERF_FEAT_LAST || feat == PERF_FEAT_BUILD_ID ||
	    (size && !data))
		return -EINVAL;
	err = array__append(feature_reset(w, feat), data, size);
	return err ? err : feature_done(w, feat);
}

/* write_event_desc(): nr, attr size, then per attr: attr, nr_ids, name, ids */
static int build_event_desc(struct perf_writer *w)
{
	struct array *b;
	uint32_t nre = (uint32_t)w->nr_attrs, sz = sizeof(struct perf_event_attr);
	size_t i;
	int err;

	if (w->feats[PERF_FEAT_EVENT_DESC].set || !w->nr_attrs)
		return 0;
	b = feature_reset(w, PERF_FEAT_EVENT_DESC);
	err = array__append(b, &nre, sizeof(nre));
	if (!err)
		err = array__append(b, &sz, sizeof(sz));
	for (i = 0; !err && i < w->nr_attrs; i++) {
		const struct writer_attr *a = &w->attrs[i];
		uint32_t nri = (uint32_t)a->nr_ids;

		err = array__append(b, &a->attr, sz);
		if (!err)
			err = array__append(b, &nri, sizeof(nri));
		if (!err)
			err = put_string(b, a->name);
		if (!err)
			err = array__append(b, a->ids, a->nr_ids * sizeof(uint64_t));
	}
	if (err)
		return err;
	w->feats[PERF_FEAT_EVENT_DESC].set = 1;
	return 0;
}

/* pipe mode: PERF_RECORD_HEADER_FEATURE { header; u64 feat_id; data } (unpadded, as perf) */
/*
 * Pipe mode's tracepoint formats: PERF_RECORD_HEADER_TRACING_DATA { header,
 * u32 size, u32 pad } and the section's bytes after the record, padded to 8,
 * as perf_event__synthesize_tracing_data() sends them (perf reads no
 * TRACING_DATA from a HEADER_FEATURE record)
 */
static int send_tracing_data(struct perf_writer *w, struct writer_feat *f)
{
	static const uint8_t zeros[8];
	struct perf_event_header h = { PERF_RECORD_HEADER_TRACING_DATA, 0, 16 };
	size_t aligned = (f->bytes.len + 7) & ~(size_t)7;
	uint32_t sz[2] = { (uint32_t)aligned, 0 };
	int err;

	if (aligned > UINT32_MAX)
		return fail(w, -E2BIG, "tracing data too large");
	err = emit(w, &h, sizeof(h));
	if (!err)
		err = emit(w, sz, sizeof(sz));
	if (!err)
		err = emit(w, f->bytes.data, f->bytes.len);
	if (!err)
		err = emit(w, zeros, aligned - f->bytes.len);
	if (!err)
		f->sent = 1;
	return err;
}

static int send_feature(struct perf_writer *w, unsigned feat)
{
	struct writer_feat *f = &w->feats[feat];
	struct perf_event_header h;
	uint64_t id = feat;
	int err;

	if (feat == PERF_FEAT_TRACING_DATA)
		return send_tracing_data(w, f);
	if (16 + f->bytes.len > UINT16_MAX)
		return fail(w, -E2BIG, "feature section too large for a pipe record");
	h.type = PERF_RECORD_HEADER_FEATURE;
	h.misc = 0;
	h.size = (uint16_t)(16 + f->bytes.len);
	err = emit(w, &h, sizeof(h));
	if (!err)
		err = emit(w, &id, sizeof(id));
	if (!err)
		err = emit(w, f->bytes.data, f->bytes.len);
	if (!err)
		f->sent = 1;
	return err;
}

static int start_pipe(struct perf_writer *w)
{
	uint64_t hdr[2] = { PERF_MAGIC2, PIPE_HEADER_SIZE };
	struct perf_event_header h;
	uint64_t last = PERF_FEAT_LAST;
	size_t i;
	int err;

	err = emit(w, hdr, sizeof(hdr));
	/* perf_event__synthesize_attr(): header, attr (aligned to 8), ids */
	for (i = 0; !err && i < w->nr_attrs; i++) {
		const struct writer_attr *a = &w->attrs[i];
		size_t size = 8 + sizeof(a->attr) + a->nr_ids * 8;

		if (size > UINT16_MAX)
			return fail(w, -E2BIG, "too many ids for a HEADER_ATTR record");
		h.type = PERF_RECORD_HEADER_ATTR;
		h.misc = 0;
		h.size = (uint16_t)size;
		err = emit(w, &h, sizeof(h));
		if (!err)
			err = emit(w, &a->attr, sizeof(a->attr));
		if (!err)
			err = emit(w, a->ids, a->nr_ids * 8);
	}
	if (!err)
		err = build_event_desc(w);
	for (i = 0; !err && i < PERF_FEAT_LAST; i++)
		if (w->feats[i].set && !w->feats[i].sent && i != PERF_FEAT_TRACING_DATA)
			err = send_feature(w, (unsigned)i);
	if (err)
		return err;
	/* the HEADER_LAST_FEATURE mark, as perf_event__synthesize_features() sends it */
	h.type = PERF_RECORD_HEADER_FEATURE;
	h.misc = 0;
	h.size = 16;
	err = emit(w, &h, sizeof(h));
	if (!err)
		err = emit(w, &last, sizeof(last));
	if (!err && w->feats[PERF_FEAT_TRACING_DATA].set)
		err = send_feature(w, PERF_FEAT_TRACING_DATA);
	if (!err && w->build_ids.len) {
		err = emit(w, w->build_ids.data, w->build_ids.len);
		w->build_ids_sent = w->build_ids.len;
	}
	return err;
}

/* file mode: a header without data or features yet, ids, attrs; data starts after them */
static int start_file(struct perf_writer *w)
{
	static const uint64_t no_features[4];
	uint8_t hdr[FILE_HEADER_SIZE];
	uint64_t off, nids = 0;
	size_t i;
	int err;

	for (i = 0; i < w->nr_attrs; i++)
		nids += w->attrs[i].nr_ids;
	w->data_offset = FILE_HEADER_SIZE + nids * 8 + w->nr_attrs * (sizeof(struct perf_event_attr) + 16);
	file_header(w, hdr, 0, no_features);
	w->pos = 0;
	err = emit(w, hdr, sizeof(hdr));
	off = FILE_HEADER_SIZE;
	for (i = 0; !err && i < w->nr_attrs; i++) {
		err = emit(w, w->attrs[i].ids, w->attrs[i].nr_ids * 8);
		off += w->attrs[i].nr_ids * 8;
	}
	/* struct perf_file_attr { attr; struct perf_file_section ids; } */
	{
		uint64_t id_off = FILE_HEADER_SIZE;

		for (i = 0; !err && i < w->nr_attrs; i++) {
			uint64_t sec[2] = { id_off, w->attrs[i].nr_ids * 8 };

			err = emit(w, &w->attrs[i].attr, sizeof(w->attrs[i].attr));
			if (!err)
				err = emit(w, sec, sizeof(sec));
			id_off += sec[1];
		}
	}
	w->data_offset = off + w->nr_attrs * (sizeof(struct perf_event_attr) + 16);
	/* the header and attrs on disk at once: a capture killed before any record leaves a file perf reads */
	return err ? err : flush(w);
}

int perf_writer__start(struct perf_writer *w)
{
	int err = check_usable(w);

	if (err)
		return err;
	if (w->started)
		return -EINVAL;
	if (w->zcs)
		err = set_compressed_feature(w);
	if (err)
		return err;
	if (w->pipe)
		err = start_pipe(w);
	else
		err = start_file(w);
	if (err)
		return fail(w, err, "start");
	w->started = 1;
	return 0;
}

/*
 * The pending kernel records through the zstd stream, flushed so that
 * what is out decodes to all of them; each piece of output becomes one
 * PERF_RECORD_COMPRESSED (header.size is not a multiple of 8 then, as in
 * perf's files)
 */
static int compress_pending(struct perf_writer *w)
{
	ZSTD_inBuffer in = { w->zin.data, w->zin.len, 0 };
	uint8_t rec[65535];
	size_t left;

	if (!w->zin.len)
		return 0;
	do {
		ZSTD_outBuffer out = { rec + 8, sizeof(rec) - 8, 0 };
		struct perf_event_header h = { PERF_RECORD_COMPRESSED, 0, 0 };
		int err;

		left = ZSTD_compressStream2(w->zcs, &out, &in, ZSTD_e_flush);
		if (ZSTD_isError(left)) {
			log_msg(w->log, LOG_ERR, "%s: zstd: %s", w->name, ZSTD_getErrorName(left));
			return fail(w, -EIO, "compress");
		}
		if (!out.pos)
			continue;
		h.size = (uint16_t)(8 + out.pos);
		memcpy(rec, &h, sizeof(h));
		err = emit(w, rec, h.size);
		if (err)
			return err;
		w->data_size += h.size;
		w->zbytes_out += h.size;
	} while (left || in.pos < in.size);
	w->zbytes_in += w->zin.len;
	w->zin.len = 0;
	return 0;
}

int perf_writer__write(struct perf_writer *w, const void *rec, size_t size)
{
	const struct perf_event_header *h = rec;
	int err = check_usable(w);

	if (err)
		return err;
	if (!w->started || !rec || size < sizeof(*h) || size % 8 || size != h->size)
		return -EINVAL;
	if (w->zcs && h->type < PERF_RECORD_USER_TYPE_START) {
		if (w->zin.len + size > w->zchunk)
			err = compress_pending(w);
		return err ? err : array__append(&w->zin, rec, size);
	}
	if (w->zcs)
		err = compress_pending(w);
	if (!err)
		err = emit(w, rec, size);
	if (err)
		return err;
	w->data_size += size;
	return 0;
}

void perf_writer__zstd_bytes(const struct perf_writer *w, uint64_t *in, uint64_t *out)
{
	*in = w->zbytes_in;
	*out = w->zbytes_out;
}

/* HEADER_COMPRESSED (header.c write_compressed): version 0, type zstd (1), level, ratio, mmap_len */
static int set_compressed_feature(struct perf_writer *w)
{
	uint32_t v[5] = { 0, 1, (uint32_t)w->zlevel, 0, w->zmmap_len };
	struct array *b = feature_reset(w, PERF_FEAT_COMPRESSED);

	if (w->zbytes_out)
		v[3] = (uint32_t)((w->zbytes_in + w->zbytes_out / 2) / w->zbytes_out);
	w->feats[PERF_FEAT_COMPRESSED].set = 1;
	return array__append(b, v, sizeof(v));
}

/* usable and started: 0, the sticky error, or -EINVAL */
static int check_started(struct perf_writer *w)
{
	int err = check_usable(w);

	return err ? err : w->started ? 0 : -EINVAL;
}

int perf_writer__flush(struct perf_writer *w)
{
	int err = check_started(w);

	if (!err && w->zcs)
		err = compress_pending(w);
	return err ? err : flush(w);
}

uint64_t perf_writer__data_size(const struct perf_writer *w)
{
	return w->data_size;
}


/* perf_header__adds_write(): section table right after the data, then the sections */
static int finish_file(struct perf_writer *w)
{
	uint8_t hdr[FILE_HEADER_SIZE];
	uint64_t features[4] = { 0 };
	struct array *bid = &w->feats[PERF_FEAT_BUILD_ID].bytes;
	uint64_t table_off, off, *table;
	unsigned nr = 0, i, k;
	struct stat st;
	int err;

	err = build_event_desc(w);
	if (!err && w->zcs)
		err = compress_pending(w);
	if (!err && w->zcs)
		err = set_compressed_feature(w);	/* now with the ratio */
	if (err)
		return err;
	err = flush(w);		/* the data, the header following it */
	if (err)
		return err;
	w->finishing = 1;
	if (w->build_ids.len) {
		bid->len = 0;
		err = array__append(bid, w->build_ids.data, w->build_ids.len);
		if (err)
			return err;
		w->feats[PERF_FEAT_BUILD_ID].set = 1;
	}
	err = flush(w);
	if (err)
		return err;
	for (i = 1; i < PERF_FEAT_LAST; i++)
		if (w->feats[i].set) {
			features[i / 64] |= 1ULL << (i % 64);
			nr++;
		}
	table_off = w->data_offset + w->data_size;
	table = calloc(nr ? nr * 2 : 1, sizeof(uint64_t));
	if (!table)
		return -ENOMEM;
	off = table_off + (uint64_t)nr * 16;
	w->pos = off;
	for (i = 1, k = 0; i < PERF_FEAT_LAST; i++) {
		if (!w->feats[i].set)
			continue;
		table[2 * k] = off;
		table[2 * k + 1] = w->feats[i].bytes.len;
		off += w->feats[i].bytes.len;
		k++;
		err = emit(w, w->feats[i].bytes.data, w->feats[i].bytes.len);
		if (err)
			break;
	}
	if (!err)
		err = flush(w);
	if (!err && nr)
		err = fd_write(w->fd, table, (size_t)nr * 16, (int64_t)table_off);
	free(table);
	if (err)
		return fail(w, err, "write feature sections");

	/* struct perf_file_header, complete */
	file_header(w, hdr, w->data_size, features);
	if (fstat(w->fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size > off) {
		if (ftruncate(w->fd, (off_t)off) < 0)
			return fail(w, -errno, "truncate");
	}
	err = fd_write(w->fd, hdr, sizeof(hdr), 0);
	if (err)
		return fail(w, err, "write header");
	if (lseek(w->fd, (off_t)off, SEEK_SET) < 0)
		return fail(w, -errno, "seek");
	return 0;
}

static int finish_pipe(struct perf_writer *w)
{
	unsigned i;
	int err = 0;

	if (w->zcs)
		err = compress_pending(w);
	for (i = 1; !err && i < PERF_FEAT_LAST; i++)
		if (w->feats[i].set && !w->feats[i].sent)
			err = send_feature(w, i);
	if (!err && w->build_ids.len > w->build_ids_sent) {
		err = emit(w, (uint8_t *)w->build_ids.data + w->build_ids_sent,
			   w->build_ids.len - w->build_ids_sent);
		w->build_ids_sent = w->build_ids.len;
	}
	if (!err)
		err = flush(w);
	return err;
}

int perf_writer__finish(struct perf_writer *w)
{
	int err = check_started(w);

	if (err)
		return err;
	err = w->pipe ? finish_pipe(w) : finish_file(w);
	if (err)
		return w->error ? w->error : err;
	w->finished = 1;
	return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The perf.data reader: header, attrs, ids, feature sections, and the record
 * stream of every variant (PERFILE2 either byte order, PERFFILE v1, pipe mode,
 * gzip or zstd whole-file input, zstd COMPRESSED/COMPRESSED2 records).
 *
 * Follows perf_session__read_header(), perf_file_header__read(),
 * perf_header__process_sections() (tools/perf/util/header.c) and
 * reader__read_event() / perf_session__process_compressed_event()
 * (tools/perf/util/session.c).
 *
 * Input is read through a window: the data section is never loaded whole.
 * A record handed out is a view into the window (or into a scratch copy when
 * it had to be swapped or re-aligned), valid until the next call.
 */
#include <byteswap.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "perffile/attr.h"
#include "perffile/layout.h"
#include "perffile/perffile.h"
#include "util/strbuf.h"

#define PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" little-endian */
#define PERF_MAGIC2_SW		0x50455246494c4532ULL	/* "PERFILE2" big-endian */
#define PERF_MAGIC1		0x454c494646524550ULL	/* "PERFFILE" */
#define FILE_HEADER_SIZE	((int)sizeof(struct perf_file_header))
#define FILE_HEADER_V1_SIZE	((int)offsetof(struct perf_file_header, adds_features))
#define PIPE_HEADER_SIZE	((int)sizeof(struct perf_pipe_file_header))
#define FILE_SECTION_SIZE	sizeof(struct perf_file_section)
/* a header field at its offset, in the file's byte order */
#define HDR64(h, f, swapped) get64((h) + offsetof(struct perf_file_header, f), swapped)
#define EVENT_TYPE_SIZE		72	/* u64 event_id; char name[64] */

#define WINDOW_MIN		(1u << 20)
#define PAYLOAD_INLINE_MAX	(16u << 20)	/* larger payloads are skipped, not exposed */
#define FEATURE_MAX		(256ull << 20)	/* a feature section larger than this is skipped */
#define MAX_ATTRS		65536
#define ATTRS_AT_ONCE		(16u << 20)	/* an attrs section up to this is read in one go */
#define IDS_SECTION_MAX		(64ull << 20)	/* one attr's ids */
#define MAX_IDS			(1u << 24)	/* attr ids in all (one per event and CPU or thread) */
#define AHEAD_MAX		(256u << 20)	/* bytes of the header's sections read ahead */
#define ZSTD_WINDOW		(1u << 20)
#define ZREC_MAX_UNSAID		(64u << 20)	/* a COMPRESSED record's expansion, no HEADER_COMPRESSED */

enum input_kind { INPUT_MEM, INPUT_FD, INPUT_GZ, INPUT_ZST };

struct perf_file {
	struct perf_file_opts opts;
	void (*barrier)(void *ctx);	/* perf_file__set_barrier() */
	void *barrier_ctx;
	char *name;
	struct perf_file_info info;
	struct perf_evlist evlist;
	struct perf_features ft;

	/* input */
	enum input_kind kind;
	int fd, own_fd;
	int seekable;
	struct gz_input *gz;	/* INPUT_GZ: a gzip file, or a pipe (gzip or plain) */
	struct zst_input *zst;	/* INPUT_ZST: a whole-file zstd stream */
	const uint8_t *mem;
	uint64_t mem_len;
	uint64_t in_pos;	/* next byte a sequential source delivers */

	/* the record window: bytes [win_off, win_off + win_len) of the input */
	uint8_t *win;
	size_t win_cap, win_len;
	uint64_t win_off;
	uint64_t pos;		/* offset of the next outer record */
	uint64_t payload_from;	/* where the last record's skipped (unread) payload began, or 0 */
	uint64_t payload_rec;	/* and that record's offset */
	size_t attrs_cap;	/* evlist.attrs allocated */
	uint64_t end;		/* end of the data, UINT64_MAX when unknown */
	int at_eof;		/* the input returned a short read */

	uint64_t nr;
	int err;		/* the stream is finished with this error */
	int deferred;		/* a fault that did not stop reading: returned at the end */

	uint8_t *scratch;	/* swapped or re-aligned record copies */
	size_t scratch_cap;

	/* zstd: compressed records' content, decompressed into zout */
	ZSTD_DStream *zds;
	int plain_ok;		/* host order, read through the window, no zstd stream: next_plain() may take records */
	uint8_t *zin;
	size_t zin_len, zin_pos, zin_cap;
	uint8_t *zout;
	size_t zout_start, zout_len, zout_cap;
	uint64_t zoffset;	/* offset of the COMPRESSED record being expanded */
	uint64_t zrec_out;	/* the bytes it expanded to so far (zrec_max) */

	uint64_t nr_unknown_id;
	uint64_t nr_ids;	/* attr ids in all (MAX_IDS) */
	int hush;		/* read_ahead(): a fault is not said (the reader that needs the bytes says it) */
};

/* before a message or a change of the attrs or features: perf_file__set_barrier()'s callback */
static void barrier(const struct perf_file *f)
{
	if (f->barrier)
		f->barrier(f->barrier_ctx);
}

/* the log, for a message now */
static const struct log *flog(const struct perf_file *f)
{
	barrier(f);
	return f->opts.log;
}

void perf_file__set_barrier(struct perf_file *f, void (*fn)(void *ctx), void *ctx)
{
	f->barrier = fn;
	f->barrier_ctx = ctx;
}

static int fault(struct perf_file *f, const char *what, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * "NAME: WHAT at offset 0x1a2b0 (107184): DETAIL": every malformed-input
 * message goes through here, so each names the file and the byte offset.
 */
static int fault(struct perf_file *f, const char *what, uint64_t off, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (f->hush)
		return -EINVAL;
	log_msg(flog(f), LOG_ERR, "%s: %s at offset 0x%" PRIx64 " (%" PRIu64 "): %s",
		f->name, what, off, off, buf);
	return -EINVAL;
}

int perf_file__fault(struct perf_file *f, uint64_t off, const char *why)
{
	return fault(f, "record", off, "%s", why);
}

static uint64_t get64(const void *p, int swapped)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return swapped ? bswap_64(v) : v;
}

static uint32_t get32(const void *p, int swapped)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swapped ? bswap_32(v) : v;
}

/* ---------------------------------------------------------------- input */

/*
 * A gzip input, inflated here rather than through gzread(): gzread drops
 * what it inflated in the call that meets a fault (a wrong CRC or length in
 * the trailer, a corrupt or cut tail), so a file smaller than its buffer lost
 * every record.  Every byte inflate() made before the fault is handed out.
 * Read as gzread reads: members one after another, what follows a member
 * that is not one ignored; a pipe that is not gzip passes through as it is.
 */
enum gz_how { GZ_LOOK, GZ_INFLATE, GZ_COPY, GZ_END };

struct gz_input {
	z_stream zs;
	uint8_t in[1 << 18];
	uint64_t file_pos;	/* compressed bytes read from the fd */
	int eof;		/* the fd has no more */
	enum gz_how how;	/* GZ_LOOK: at the start of the input or after a member */
	int member;		/* a member began: what follows one that is not one is ignored */
	const char *msg;	/* the fault met at f->in_pos: nothing after it is handed out */
	/* the file's, kept over restarts */
	int said;		/* its fault was said (each pass meets it again) */
	int checked;		/* gz_check_end() has run */
};

/* back to the start of the input (a pipe only at its opening) */
static int gz_restart(struct perf_file *f)
{
	struct gz_input *g = f->gz;

	if (!g) {
		g = f->gz = calloc(1, sizeof(*g));
		if (!g)
			return -ENOMEM;
		if (inflateInit2(&g->zs, 16 + MAX_WBITS) != Z_OK) {
			free(g);
			f->gz = NULL;
			return -ENOMEM;
		}
	}
	g->zs.next_in = g->in;
	g->zs.avail_in = 0;
	g->file_pos = 0;
	g->eof = 0;
	g->how = GZ_LOOK;
	g->member = 0;
	g->msg = NULL;
	f->in_pos = 0;
	return 0;
}

/* at least need bytes of input at zs.next_in, fewer only at its end: 0, -EINTR (a signal stops the read) or -EIO */
static int gz_load(struct perf_file *f, unsigned need)
{
	struct gz_input *g = f->gz;

	while (g->zs.avail_in < need && !g->eof) {
		unsigned have = g->zs.avail_in;
		ssize_t n;

		memmove(g->in, g->zs.next_in, have);
		g->zs.next_in = g->in;
		n = f->seekable ? pread(f->fd, g->in + have, sizeof(g->in) - have, (off_t)g->file_pos) :
				  read(f->fd, g->in + have, sizeof(g->in) - have);
		if (n < 0)
			return errno == EINTR ? -EINTR : -EIO;
		g->eof = n == 0;
		g->file_pos += (uint64_t)n;
		g->zs.avail_in += (unsigned)n;
	}
	return 0;
}

/* the stream's fault, at f->in_pos: said once a file, -EINVAL */
static int gz_fault(struct perf_file *f)
{
	struct gz_input *g = f->gz;

	if (g->said)
		return -EINVAL;
	g->said = !f->hush;
	return fault(f, "gzip stream", f->in_pos, "%s (offset in the uncompressed data)", g->msg);
}

/* up to len bytes into buf (NULL: dropped); bytes, fewer only at the end or a fault, or negative errno */
static int64_t gz_read(struct perf_file *f, void *buf, size_t len)
{
	struct gz_input *g = f->gz;
	uint8_t sink[1 << 14];
	size_t done = 0;
	int err;

	while (done < len && !g->msg && g->how != GZ_END) {
		size_t want = len - done > (1u << 30) ? 1u << 30 : len - done;
		uint8_t *out = buf ? (uint8_t *)buf + done : sink;
		unsigned n;
		int ret;

		if (!buf && want > sizeof(sink))
			want = sizeof(sink);
		err = gz_load(f, g->how == GZ_LOOK ? 2 : 1);
		if (err)
			return err;
		if (g->how == GZ_LOOK) {
			if (g->zs.avail_in >= 2 && g->zs.next_in[0] == 0x1f && g->zs.next_in[1] == 0x8b) {
				inflateReset(&g->zs);
				g->how = GZ_INFLATE;
				g->member = 1;
			} else {
				/* after a member: trailing garbage, ignored as gzread ignores it */
				g->how = g->member || !g->zs.avail_in ? GZ_END : GZ_COPY;
			}
			continue;
		}
		if (g->how == GZ_COPY && !g->zs.avail_in) {
			g->how = GZ_END;
			continue;
		}
		if (g->how == GZ_COPY) {
			n = g->zs.avail_in < want ? g->zs.avail_in : (unsigned)want;
			if (buf)
				memcpy(out, g->zs.next_in, n);
			g->zs.next_in += n;
			g->zs.avail_in -= n;
		} else {
			g->zs.next_out = out;
			g->zs.avail_out = (unsigned)want;
			ret = inflate(&g->zs, Z_NO_FLUSH);
			n = (unsigned)want - g->zs.avail_out;
			/* at the end of the input too: what inflate holds back is handed out */
			if (ret == Z_STREAM_END)
				g->how = GZ_LOOK;
			else if (ret == Z_BUF_ERROR && !g->zs.avail_in)
				g->msg = "unexpected end of file";
			else if (ret == Z_DATA_ERROR)
				g->msg = g->zs.msg ? g->zs.msg : "compressed data error";
			else if (ret == Z_MEM_ERROR)
				return -ENOMEM;
			else if (ret != Z_OK)	/* Z_BUF_ERROR with input and room: no progress */
				g->msg = "internal error: inflate stream corrupt";
		}
		done += n;
		f->in_pos += n;
	}
	if (!done && g->msg)
		return gz_fault(f);
	return (int64_t)done;
}

/*
 * A gzip input inflated to its end, on from where the reads stopped: a
 * fault in the bytes no reader asked for (a wrong CRC or length in the
 * trailer, a cut or corrupt tail) is bad input too.  Said once, the records
 * before it read, -EINVAL at the end.  Once a file; 0 or a negative errno.
 */
static int gz_check_end(struct perf_file *f)
{
	struct gz_input *g = f->gz;
	int64_t n = 0;

	if (f->kind != INPUT_GZ || g->checked)
		return 0;
	g->checked = 1;
	while (!g->msg && (n = gz_read(f, NULL, 1u << 30)) > 0)
		;
	if (!g->msg)
		return (int)n;
	gz_fault(f);
	f->deferred = -EINVAL;
	return 0;
}

/*
 * A whole file compressed with zstd (perf.data.zst): decompressed forward
 * from the start, like a gzip file; a read before the current position
 * starts over (the reader goes back only for the feature sections).
 */
struct zst_input {
	ZSTD_DStream *ds;
	uint8_t in[1 << 17];
	ZSTD_inBuffer ib;
	uint64_t file_pos;	/* compressed bytes consumed from the fd */
	int eof;
	int in_frame;		/* the last call left a frame unfinished */
};

static int zst_restart(struct perf_file *f)
{
	struct zst_input *z = f->zst;

	if (!z) {
		z = f->zst = calloc(1, sizeof(*z));
		if (!z)
			return -ENOMEM;
		z->ds = ZSTD_createDStream();
		if (!z->ds)
			return -ENOMEM;
	}
	ZSTD_initDStream(z->ds);
	z->ib = (ZSTD_inBuffer){ z->in, 0, 0 };
	z->file_pos = 0;
	z->eof = 0;
	z->in_frame = 0;
	f->in_pos = 0;
	return 0;
}

/* up to len decompressed bytes into buf (NULL: discard them); bytes or negative errno */
static int64_t zst_read(struct perf_file *f, void *buf, size_t len)
{
	struct zst_input *z = f->zst;
	uint8_t sink[1 << 14];
	size_t done = 0;

	while (done < len) {
		size_t want = len - done;
		ZSTD_outBuffer ob = { sink, want < sizeof(sink) ? want : sizeof(sink), 0 };
		size_t r;

		if (buf) {
			ob.dst = (uint8_t *)buf + done;
			ob.size = want;
		}
		if (z->ib.pos == z->ib.size && !z->eof) {
			ssize_t n = pread(f->fd, z->in, sizeof(z->in), (off_t)z->file_pos);

			if (n < 0)
				return -errno;
			z->eof = n == 0;
			z->file_pos += (uint64_t)n;
			z->ib = (ZSTD_inBuffer){ z->in, (size_t)n, 0 };
		}
		r = ZSTD_decompressStream(z->ds, &ob, &z->ib);
		if (ZSTD_isError(r)) {
			if (done)
				break;	/* hand out what came before the fault; the next read reports it */
			return fault(f, "zstd stream", f->in_pos, "%s (offset in the uncompressed data)",
				     ZSTD_getErrorName(r));
		}
		done += ob.pos;
		f->in_pos += ob.pos;
		z->in_frame = r != 0;
		if (!ob.pos && z->eof && z->ib.pos == z->ib.size) {
			if (z->in_frame && !done)
				return fault(f, "zstd stream", f->in_pos,
					     "unexpected end of file (offset in the uncompressed data)");
			break;
		}
	}
	return (int64_t)done;
}

/* a read behind a compressed input's position: said at -v (each costs a pass over the input) */
static void note_restart(struct perf_file *f, uint64_t off)
{
	log_msg(flog(f), LOG_DEBUG, "%s: offset %#" PRIx64 " is behind the decompressed position %#" PRIx64
		": the input is decompressed again from its start", f->name, off, f->in_pos);
}

/*
 * A decompressed input at off: a read behind the position starts it over (a
 * pipe cannot: -ESPIPE), one ahead drops the bytes between
 */
static int64_t stream_read_at(struct perf_file *f, uint64_t off, void *buf, size_t len,
			      int (*restart)(struct perf_file *f),
			      int64_t (*rd)(struct perf_file *f, void *buf, size_t len))
{
	if (off < f->in_pos) {
		int err;

		if (!f->seekable)
			return -ESPIPE;
		note_restart(f, off);
		err = restart(f);
		if (err)
			return err;
	}
	while (f->in_pos < off) {
		uint64_t skip = off - f->in_pos;
		int64_t n = rd(f, NULL, skip > (1u << 30) ? 1u << 30 : (size_t)skip);

		if (n <= 0)
			return n;
	}
	return rd(f, buf, len);
}

/*
 * Up to len bytes of fd at off (pread), or from its current position when
 * off is -1 (read): fewer only at the end; -errno.  EINTR is not retried: a
 * handler installed without SA_RESTART asked to stop a blocked read (readperf's
 * SIGINT on a pipe that waits for its writer).
 */
static int64_t fd_read(int fd, void *buf, size_t len, int64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = off < 0 ? read(fd, (char *)buf + done, len - done) :
				      pread(fd, (char *)buf + done, len - done, (off_t)(off + (int64_t)done));

		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (int64_t)done;
}

/*
 * Read up to len bytes at off.  Returns the bytes read (short at EOF) or a
 * negative errno.  Sequential sources (pipes, gzip streams that cannot seek
 * back cheaply) read forward, discarding what lies before off.
 */
static int64_t input_read(struct perf_file *f, uint64_t off, void *buf, size_t len)
{
	int64_t got;

	if (f->kind == INPUT_MEM) {
		if (off >= f->mem_len)
			return 0;
		if (len > f->mem_len - off)
			len = (size_t)(f->mem_len - off);
		memcpy(buf, f->mem + off, len);
		return (int64_t)len;
	}
	if (f->kind == INPUT_ZST)
		return stream_read_at(f, off, buf, len, zst_restart, zst_read);
	if (f->kind == INPUT_GZ) {
		/* past 2^63: beyond any real input, so its end (without inflating the input to it) */
		if (off > (uint64_t)INT64_MAX || len > (uint64_t)INT64_MAX - off)
			return 0;
		return stream_read_at(f, off, buf, len, gz_restart, gz_read);
	}
	if (f->seekable)
		return fd_read(f->fd, buf, len, (int64_t)off);
	/* a pipe: forward only */
	if (off < f->in_pos)
		return -ESPIPE;
	while (f->in_pos < off) {
		char skip[4096];
		uint64_t want = off - f->in_pos;

		got = fd_read(f->fd, skip, want < sizeof(skip) ? (size_t)want : sizeof(skip), -1);
		if (got <= 0)
			return got;
		f->in_pos += (uint64_t)got;
	}
	got = fd_read(f->fd, buf, len, -1);
	if (got > 0)
		f->in_pos += (uint64_t)got;
	return got;
}

/* read exactly len bytes at off: 0, -errno on I/O error, 1 when the input ends first */
static int input_read_full(struct perf_file *f, uint64_t off, void *buf, size_t len)
{
	int64_t n = input_read(f, off, buf, len);

	if (n < 0)
		return (int)n;
	return (size_t)n == len ? 0 : 1;
}

/*
 * Make bytes [f->pos, f->pos + n) contiguous in the window.  Returns how many
 * of them are available (fewer than n only at the end of the input) or a
 * negative errno; *p points at f->pos.
 */
static int64_t window_fill(struct perf_file *f, size_t n, const uint8_t **p);

/* the common case, inline: the bytes are in the window already */
static inline int64_t window_need(struct perf_file *f, size_t n, const uint8_t **p)
{
	if (f->kind != INPUT_MEM && f->pos >= f->win_off &&
	    f->pos - f->win_off + n <= f->win_len) {
		*p = f->win + (f->pos - f->win_off);
		return (int64_t)n;
	}
	return window_fill(f, n, p);
}

static int64_t window_fill(struct perf_file *f, size_t n, const uint8_t **p)
{
	uint64_t have;

	if (f->kind == INPUT_MEM) {
		have = f->pos < f->mem_len ? f->mem_len - f->pos : 0;
		*p = f->mem + (f->pos < f->mem_len ? f->pos : f->mem_len);
		return (int64_t)(have < n ? have : n);
	}
	if (f->pos >= f->win_off && f->pos - f->win_off <= f->win_len) {
		have = f->win_off + f->win_len - f->pos;
		if (have >= n || f->at_eof) {
			*p = f->win + (f->pos - f->win_off);
			return (int64_t)(have < n ? have : n);
		}
	} else {
		have = 0;
		f->win_off = f->pos;
		f->win_len = 0;
	}
	/* keep the bytes from pos on, then fill the rest of the window */
	if (have && f->pos != f->win_off)
		memmove(f->win, f->win + (f->pos - f->win_off), (size_t)have);
	f->win_off = f->pos;
	f->win_len = (size_t)have;
	if (n > f->win_cap) {
		size_t cap = f->win_cap;
		uint8_t *w;

		while (cap < n)
			cap *= 2;
		w = realloc(f->win, cap);
		if (!w)
			return -ENOMEM;
		f->win = w;
		f->win_cap = cap;
	}
	{
		size_t want = f->win_cap - f->win_len;
		int64_t got;

		if (f->end != UINT64_MAX) {
			uint64_t left = f->end - (f->win_off + f->win_len);

			if (want > left)
				want = (size_t)left;
			/* never less than what was asked for: a record may claim past the end */
			if (want < n - f->win_len)
				want = n - f->win_len;
		}
		got = input_read(f, f->win_off + f->win_len, f->win + f->win_len, want);
		if (got < 0)
			return got;
		if ((size_t)got < want)
			f->at_eof = 1;
		f->win_len += (size_t)got;
	}
	*p = f->win;
	return (int64_t)(f->win_len < n ? f->win_len : n);
}

/* ---------------------------------------------------------------- attrs */

static int evlist_add(struct perf_file *f, const struct perf_event_attr *attr,
		      const uint64_t *ids, size_t nr_ids, int ids_swapped)
{
	struct perf_evlist *el = &f->evlist;
	struct perf_evattr *a, *attrs;
	size_t i;

	if (el->nr >= MAX_ATTRS)
		return -EINVAL;
	if (nr_ids > MAX_IDS - f->nr_ids)
		return -E2BIG;
	if (el->nr == f->attrs_cap) {	/* doubling: pipe mode adds them one record at a time */
		size_t cap = f->attrs_cap ? f->attrs_cap * 2 : 8;

		attrs = realloc(el->attrs, cap * sizeof(*attrs));
		if (!attrs)
			return -ENOMEM;
		el->attrs = attrs;
		f->attrs_cap = cap;
	}
	attrs = el->attrs;
	/* the id map stores indexes, so moved attrs stay reachable */
	a = &attrs[el->nr];
	memset(a, 0, sizeof(*a));
	a->attr = *attr;
	a->file_attr_size = attr->size;
	a->idx = (int)el->nr;
	if (nr_ids) {
		a->ids = malloc(nr_ids * sizeof(uint64_t));
		if (!a->ids)
			return -ENOMEM;
		for (i = 0; i < nr_ids; i++) {
			void **slot;
			int r;

			a->ids[i] = ids_swapped ? bswap_64(ids[i]) : ids[i];
			r = hashmap__insert(&el->id_map, &a->ids[i], 8, &slot);
			if (r < 0) {
				free(a->ids);
				return r;
			}
			*slot = (void *)(uintptr_t)(el->nr + 1);
		}
		a->nr_ids = nr_ids;
		f->nr_ids += nr_ids;
	}
	el->nr++;
	perf_evlist__prepare_last(el);
	return 0;
}

/* evlist_add's refusals, said for the record or the attr at off */
static int add_fault(struct perf_file *f, const char *what, uint64_t off, int err)
{
	if (err == -E2BIG)
		return fault(f, what, off, "more than %u attr ids in all", MAX_IDS);
	if (err == -EINVAL)
		return fault(f, what, off, "too many attrs");
	return err;
}

static int set_name(struct perf_evattr *a, const char *name, size_t len)
{
	char *n = strndup(name, len);

	if (!n)
		return -ENOMEM;
	free(a->name);
	a->name = n;
	return 0;
}

/*
 * Names from EVENT_DESC, entry i naming attr i, as process_event_desc()
 * does; in pipe mode it names the attrs that arrived before it.  (perf's
 * --stats and evlist print attr-made names for pipes, its reports and
 * script these: we follow the reports.)
 */
static int apply_event_desc(struct perf_file *f)
{
	size_t i;
	int err;

	for (i = 0; i < f->ft.event_descs.len && i < f->evlist.nr; i++) {
		const struct perf_event_desc *d = &ARRAY_AT(&f->ft.event_descs, struct perf_event_desc, i);

		if (!d->name)
			continue;
		err = set_name(&f->evlist.attrs[i], d->name, strlen(d->name));
		if (err)
			return err;
	}
	return 0;
}

/* old files: tracepoint names by config (the v1 event_types section, HEADER_EVENT_TYPE) */
static int apply_event_type(struct perf_file *f, uint64_t event_id, const char *name, size_t len)
{
	size_t i;
	int err;

	for (i = 0; i < f->evlist.nr; i++) {
		struct perf_evattr *a = &f->evlist.attrs[i];

		/* perf 6.1 names only tracepoints this way; other attrs by their type and config */
		if (a->attr.config != event_id || a->attr.type != PERF_TYPE_TRACEPOINT)
			continue;
		err = set_name(a, name, strnlen(name, len));
		if (err)
			return err;
	}
	return 0;
}

/* attr i's name: from EVENT_DESC when it has one, else made from its type and config */
static int name_attr(struct perf_file *f, size_t i)
{
	struct perf_evattr *a = &f->evlist.attrs[i];
	struct strbuf sb = STRBUF_INIT;

	if (i < f->ft.event_descs.len) {
		const struct perf_event_desc *d = &ARRAY_AT(&f->ft.event_descs, struct perf_event_desc, i);

		if (d->name)
			return set_name(a, d->name, strlen(d->name));
	}
	if (a->name)
		return 0;
	if (perf_attr__name(&a->attr, &sb)) {
		strbuf__release(&sb);
		return -ENOMEM;
	}
	a->name = strbuf__detach(&sb, NULL);
	return a->name ? 0 : -ENOMEM;
}

static int default_names(struct perf_file *f)
{
	size_t i;

	for (i = 0; i < f->evlist.nr; i++) {
		struct perf_evattr *a = &f->evlist.attrs[i];
		struct strbuf sb = STRBUF_INIT;

		if (a->name)
			continue;
		if (perf_attr__name(&a->attr, &sb)) {
			strbuf__release(&sb);
			return -ENOMEM;
		}
		a->name = strbuf__detach(&sb, NULL);
		if (!a->name)
			return -ENOMEM;
	}
	return 0;
}

/* ---------------------------------------------------------------- header */

/* whether [off, off + size) is in the file (its size unknown: only that it does not wrap) */
static int section_fits(const struct perf_file *f, uint64_t off, uint64_t size)
{
	return off <= UINT64_MAX - size && (!f->info.file_size || off + size <= f->info.file_size);
}

static int check_section(struct perf_file *f, const char *what, uint64_t hdr_off,
			 uint64_t off, uint64_t size)
{
	if (section_fits(f, off, size))
		return 0;
	if (off > UINT64_MAX - size)
		return fault(f, "header", hdr_off, "%s section offset %#" PRIx64 " size %" PRIu64 " overflows",
			     what, off, size);
	return fault(f, "header", hdr_off, "%s section [%#" PRIx64 ", +%" PRIu64 ") lies past the end of the file (%" PRIu64 " bytes)",
		     what, off, size, f->info.file_size);
}

/*
 * The sections the header points to, read ahead in ascending order of
 * offset.  A gzip or zstd input reads forward: each read behind
 * its position decompresses it again from its start, so sections in another
 * order than perf writes them cost a pass each (hours for a hostile file).
 * Overlapping sections are read once; past AHEAD_MAX bytes, or at a fault
 * (unsaid: the reader of those bytes says it), the rest are read where asked.
 */
struct ahead {
	struct ahead_sec {
		uint64_t off, size;	/* the caller's, in its order; size 0: none */
		const uint8_t *at;	/* its bytes, or NULL: not read ahead */
	} *sec;
	size_t nr;
	uint8_t **buf;		/* the runs of overlapping sections, each read once */
	size_t nr_buf;
};

static int input_forward_only(const struct perf_file *f)
{
	return f->kind == INPUT_GZ || f->kind == INPUT_ZST;
}

static int by_offset(const void *a, const void *b)
{
	const struct ahead_sec *x = *(const struct ahead_sec *const *)a, *y = *(const struct ahead_sec *const *)b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* a->sec[0..nr) asked: read the ones in reach; 0 or -ENOMEM */
static int read_ahead(struct perf_file *f, struct ahead *a)
{
	struct ahead_sec **order;
	uint64_t budget = AHEAD_MAX;
	size_t i, j, n = 0;
	int err = 0;

	if (!input_forward_only(f))
		return 0;
	order = malloc((a->nr ? a->nr : 1) * sizeof(*order));
	a->buf = malloc((a->nr ? a->nr : 1) * sizeof(*a->buf));
	if (!order || !a->buf) {
		free(order);
		return -ENOMEM;
	}
	for (i = 0; i < a->nr; i++)
		if (a->sec[i].size && a->sec[i].size <= budget)
			order[n++] = &a->sec[i];
	qsort(order, n, sizeof(*order), by_offset);
	f->hush = 1;
	for (i = 0; i < n; i = j) {
		uint64_t from = order[i]->off, to = from + order[i]->size;
		uint8_t *buf;
		int64_t got;

		for (j = i + 1; j < n && order[j]->off <= to; j++)
			if (order[j]->off + order[j]->size > to)
				to = order[j]->off + order[j]->size;
		if (to - from > budget)
			break;
		budget -= to - from;
		buf = malloc((size_t)(to - from));
		if (!buf) {
			err = -ENOMEM;
			break;
		}
		a->buf[a->nr_buf++] = buf;
		got = input_read(f, from, buf, (size_t)(to - from));
		for (; i < j && got > 0 && order[i]->off + order[i]->size <= from + (uint64_t)got; i++)
			order[i]->at = buf + (order[i]->off - from);
		if (got != (int64_t)(to - from))
			break;
	}
	f->hush = 0;
	free(order);
	return err;
}

static void ahead_free(struct ahead *a)
{
	while (a->nr_buf)
		free(a->buf[--a->nr_buf]);
	free(a->buf);
	free(a->sec);
}

static int read_ids(struct perf_file *f, uint64_t ent_off, uint64_t ids_off, uint64_t ids_size,
		    const uint8_t *ahead, uint64_t **ids, size_t *nr)
{
	int err;

	*ids = NULL;
	*nr = 0;
	if (!ids_size)
		return 0;
	if (ids_size % 8)
		return fault(f, "attr ids", ent_off, "attr ids size %" PRIu64 " is not a multiple of 8", ids_size);
	err = check_section(f, "attr ids", ent_off, ids_off, ids_size);
	if (err)
		return err;
	if (ids_size > IDS_SECTION_MAX)
		return fault(f, "attr ids", ent_off, "attr ids size %" PRIu64 " is implausible", ids_size);
	*ids = malloc((size_t)ids_size);
	if (!*ids)
		return -ENOMEM;
	if (ahead)
		memcpy(*ids, ahead, (size_t)ids_size);
	err = ahead ? 0 : input_read_full(f, ids_off, *ids, (size_t)ids_size);
	if (err) {
		free(*ids);
		*ids = NULL;
		return err < 0 ? err : fault(f, "attr ids", ids_off, "attr ids section truncated");
	}
	*nr = (size_t)(ids_size / 8);
	return 0;
}

/*
 * The nr attrs' ids sections read ahead (a forward-only input): where the
 * entries are not in all, their ids fields are read first, in order.  A
 * plausible section only (read_ids says the others, in the attrs' order).
 */
static int ids_ahead(struct perf_file *f, const uint8_t *all, uint64_t have, uint64_t nr,
		     struct ahead *a)
{
	const struct perf_file_info *in = &f->info;
	uint64_t tail = in->attr_size - FILE_SECTION_SIZE, i;

	if (!input_forward_only(f))
		return 0;
	a->sec = calloc((size_t)nr, sizeof(*a->sec));
	if (!a->sec)
		return -ENOMEM;
	a->nr = (size_t)nr;
	f->hush = 1;
	for (i = 0; i < nr; i++) {
		uint8_t fld[FILE_SECTION_SIZE];
		const uint8_t *p = fld;
		uint64_t off, size;

		if (i < have)
			p = all + i * in->attr_size + tail;
		else if (input_read_full(f, in->attrs_offset + i * in->attr_size + tail, fld, sizeof(fld)))
			break;
		off = get64(p, in->swapped);
		size = get64(p + 8, in->swapped);
		if (size % 8 || size > IDS_SECTION_MAX || !section_fits(f, off, size))
			continue;
		a->sec[i] = (struct ahead_sec){ off, size, NULL };
	}
	f->hush = 0;
	return read_ahead(f, a);
}

static int read_attrs(struct perf_file *f)
{
	struct perf_file_info *in = &f->info;
	uint64_t nr, i, attr_bytes, have = 0;
	uint8_t *buf, *all = NULL;
	struct ahead ahead = { 0 };
	int err = 0;

	if (!in->attrs_size)
		return 0;
	if (in->attr_size < PERF_ATTR_SIZE_VER0 + FILE_SECTION_SIZE || in->attr_size > (1u << 16))
		return fault(f, "header", 16, "attr size %" PRIu64 " is not valid", in->attr_size);
	if (in->attrs_size % in->attr_size)
		return fault(f, "header", 32, "attrs section size %" PRIu64 " is not a multiple of the attr size %" PRIu64,
			     in->attrs_size, in->attr_size);
	err = check_section(f, "attrs", 24, in->attrs_offset, in->attrs_size);
	if (err)
		return err;
	nr = in->attrs_size / in->attr_size;
	if (nr > MAX_ATTRS)
		return fault(f, "header", 32, "%" PRIu64 " attrs is implausible", nr);
	attr_bytes = in->attr_size - FILE_SECTION_SIZE;
	buf = malloc((size_t)in->attr_size);
	if (!buf)
		return -ENOMEM;
	/*
	 * the section at once (unless a hostile size): its entries alternate
	 * with reads of their ids elsewhere, and each went back for the next
	 * entry (a gzip or zstd input decompressed again from its start, once per attr)
	 */
	if (in->attrs_size <= ATTRS_AT_ONCE && (all = malloc((size_t)in->attrs_size))) {
		int64_t got = input_read(f, in->attrs_offset, all, (size_t)in->attrs_size);

		have = got > 0 ? (uint64_t)got / in->attr_size : 0;
		if (got < 0)
			err = (int)got;	/* said (a stream's fault), as the first entry's read would */
	}
	if (!err)
		err = ids_ahead(f, all, have, nr, &ahead);
	for (i = 0; i < nr && !err; i++) {
		uint64_t off = in->attrs_offset + i * in->attr_size;
		struct perf_event_attr attr;
		const uint8_t *ent = i < have ? all + i * in->attr_size : buf;
		uint64_t *ids;
		size_t nr_ids;
		uint32_t declared;

		err = i < have ? 0 : input_read_full(f, off, buf, (size_t)in->attr_size);
		if (err) {
			if (err > 0)
				err = fault(f, "attr", off, "attr %" PRIu64 " truncated", i);
			break;
		}
		err = perf_attr__read(&attr, ent, (size_t)attr_bytes, in->swapped);
		if (err) {
			err = fault(f, "attr", off, "attr %" PRIu64 " is too small", i);
			break;
		}
		declared = get32(ent + offsetof(struct perf_event_attr, size), in->swapped);
		if (declared > attr_bytes) {
			err = fault(f, "attr", off, "attr %" PRIu64 " declares size %u, the file holds %" PRIu64,
				    i, declared, attr_bytes);
			break;
		}
		err = read_ids(f, off, get64(ent + attr_bytes, in->swapped),
			       get64(ent + attr_bytes + 8, in->swapped),
			       ahead.sec ? ahead.sec[i].at : NULL, &ids, &nr_ids);
		if (err)
			break;
		err = evlist_add(f, &attr, ids, nr_ids, in->swapped);
		free(ids);
		if (err) {
			err = add_fault(f, "attr", off, err);
			break;
		}
	}
	ahead_free(&ahead);
	free(all);
	free(buf);
	return err;
}

static int read_event_types(struct perf_file *f)
{
	uint64_t off = f->info.event_types_offset, size = f->info.event_types_size, i;
	uint8_t ent[EVENT_TYPE_SIZE];
	int err;

	if (!size || !f->evlist.nr)
		return 0;
	if (check_section(f, "event_types", 56, off, size)) {
		/* the section only names events: read the records, exit 2 at the end */
		f->deferred = -EINVAL;
		return 0;
	}
	for (i = 0; i + EVENT_TYPE_SIZE <= size && i < 1024 * EVENT_TYPE_SIZE; i += EVENT_TYPE_SIZE) {
		err = input_read_full(f, off + i, ent, sizeof(ent));
		if (err)
			return err < 0 ? err : 0;
		err = apply_event_type(f, get64(ent, f->info.swapped), (const char *)ent + 8, 64);
		if (err)
			return err;
	}
	return 0;
}

static int decode_feature(struct perf_file *f, unsigned feat, const void *data, uint64_t size,
			  uint64_t off)
{
	const char *why = NULL;
	int err = perf_features__decode(&f->ft, feat, data, size, f->info.swapped, &why);

	if (err == -EINVAL)
		return fault(f, "feature section", off, "%s", why ? why : "malformed");
	/* the formats before the fault are kept (perf refuses the file): said, not silent */
	if (!err && feat == PERF_FEAT_TRACING_DATA && f->ft.tp_malformed)
		log_msg(flog(f), LOG_WARN, "%s: TRACING_DATA at offset %#" PRIx64 " is malformed at byte %" PRIu64
			" of it: %zu tracepoint formats read, the fields of the other tracepoints are unknown",
			f->name, off, f->ft.tp_bad_at, f->ft.tp_formats.nr);
	return err;
}

/* the feature sections of the table's first have entries read ahead (a forward-only input) */
static int features_ahead(struct perf_file *f, const uint8_t *tab, uint64_t have, struct ahead *a)
{
	uint64_t k = 0;
	unsigned feat;

	if (!input_forward_only(f) || !have)
		return 0;
	a->sec = calloc((size_t)have, sizeof(*a->sec));
	if (!a->sec)
		return -ENOMEM;
	a->nr = (size_t)have;
	for (feat = 0; feat < PERF_FEAT_BITS && k < have; feat++) {
		uint64_t off, size;

		if (!(f->info.features[feat / 64] & (1ull << (feat % 64))))
			continue;
		off = get64(tab + k * FILE_SECTION_SIZE, f->info.swapped);
		size = get64(tab + k * FILE_SECTION_SIZE + 8, f->info.swapped);
		k++;
		if (feat < PERF_FEAT_LAST && feat != PERF_FEAT_RESERVED && size <= FEATURE_MAX &&
		    section_fits(f, off, size))
			a->sec[k - 1] = (struct ahead_sec){ off, size, NULL };
	}
	return read_ahead(f, a);
}

static int read_features(struct perf_file *f)
{
	struct perf_file_info *in = &f->info;
	uint64_t table, nr = 0, i, off, size, have;
	unsigned feat, k = 0;
	uint8_t tab[PERF_FEAT_BITS * FILE_SECTION_SIZE];
	const uint8_t *sec;
	struct ahead ahead = { 0 };
	int64_t got;
	int err;

	for (feat = 0; feat < PERF_FEAT_BITS; feat++)
		if (in->features[feat / 64] & (1ull << (feat % 64)))
			nr++;
	if (!nr)
		return 0;
	table = in->data_offset + in->data_size;
	if (table < in->data_offset)
		return fault(f, "header", 40, "data section overflows");
	err = check_section(f, "feature table", 40, table, nr * FILE_SECTION_SIZE);
	if (err)
		goto out_deferred;
	/*
	 * the table at once: the sections follow it, and reading its entries
	 * between them went back for each (a gzip or zstd input decompressed
	 * again from its start, once per feature)
	 */
	got = input_read(f, table, tab, (size_t)(nr * FILE_SECTION_SIZE));
	if (got < 0 && got != -EINVAL)
		return (int)got;
	have = got < 0 ? 0 : (uint64_t)got / FILE_SECTION_SIZE;
	err = features_ahead(f, tab, have, &ahead);
	for (feat = 0; feat < PERF_FEAT_BITS && !err; feat++) {
		const uint8_t *at;
		void *buf;

		if (!(in->features[feat / 64] & (1ull << (feat % 64))))
			continue;
		i = table + (uint64_t)k * FILE_SECTION_SIZE;
		sec = tab + (size_t)k * FILE_SECTION_SIZE;
		if (k++ >= have) {
			if (got >= 0)
				fault(f, "feature section", i, "feature table truncated");
			goto out_deferred;
		}
		off = get64(sec, in->swapped);
		size = get64(sec + 8, in->swapped);
		if (feat >= PERF_FEAT_LAST || feat == PERF_FEAT_RESERVED)
			continue;	/* newer than us: skipped by its size */
		err = check_section(f, perf_feature__name(feat) ? perf_feature__name(feat) : "feature", i, off, size);
		if (err)
			goto out_deferred;
		if (size > FEATURE_MAX) {
			err = perf_features__add_fact(&f->ft, perf_feature__name(feat), "size", "%" PRIu64, size);
			continue;
		}
		at = ahead.sec ? ahead.sec[k - 1].at : NULL;
		buf = at ? NULL : malloc(size ? (size_t)size : 1);
		if (!at && !buf) {
			err = -ENOMEM;
			break;
		}
		err = at || !size ? 0 : input_read_full(f, off, buf, (size_t)size);
		if (err) {
			free(buf);
			if (err < 0 && err != -EINVAL)
				break;
			if (err > 0)
				fault(f, "feature section", off, "truncated");
			goto out_deferred;
		}
		err = decode_feature(f, feat, at ? at : buf, size, off);
		free(buf);
		if (err == -EINVAL)
			goto out_deferred;
	}
	ahead_free(&ahead);
	return err;

out_deferred:
	/* like perf, stop at a broken section but keep the records: exit 2 at the end */
	ahead_free(&ahead);
	f->deferred = -EINVAL;
	return 0;
}

static int file_facts(struct perf_file *f)
{
	const struct perf_file_info *in = &f->info;
	static const char *const formats[] = { "PERFILE2", "PERFFILE (v1)", "PERFILE2 pipe" };
	int err = 0;

	err |= perf_features__add_fact(&f->ft, "header", "format", "%s", formats[in->format]);
	err |= perf_features__add_fact(&f->ft, "header", "byte_order", "%s",
				       in->swapped == (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) ?
				       "big-endian" : "little-endian");
	if (in->gzip || in->zstd)
		err |= perf_features__add_fact(&f->ft, "header", "compression", in->gzip ? "gzip" : "zstd");
	if (in->format != PERF_FORMAT_PIPE) {
		err |= perf_features__add_fact(&f->ft, "header", "attr_size", "%" PRIu64, in->attr_size);
		err |= perf_features__add_fact(&f->ft, "header", "data_offset", "%" PRIu64, in->data_offset);
		err |= perf_features__add_fact(&f->ft, "header", "data_size", "%" PRIu64, in->data_size);
	}
	return err ? -ENOMEM : 0;
}

/* a v1 file says its byte order through attr_size, not the magic (try_all_file_abis) */
static int v1_byte_order(struct perf_file *f, const uint8_t *h)
{
	static const uint64_t abi[] = { PERF_ATTR_SIZE_VER0, PERF_ATTR_SIZE_VER1,
					PERF_ATTR_SIZE_VER2, PERF_ATTR_SIZE_VER3,
					PERF_ATTR_SIZE_VER4 };
	uint64_t as = HDR64(h, attr_size, 0);
	int i;

	for (i = 0; i < 5; i++) {
		if (as == abi[i] + FILE_SECTION_SIZE)
			return 0;
		if (bswap_64(as) == abi[i] + FILE_SECTION_SIZE) {
			f->info.swapped = 1;
			return 0;
		}
	}
	return fault(f, "header", 16, "v1 file with unknown attr size %" PRIu64, as);
}

/* the adds_features bitmap of a header of FILE_HEADER_SIZE bytes at h */
static void read_feature_bits(struct perf_file_info *in, const uint8_t *h)
{
	int i;

	for (i = 0; i < 4; i++)
		in->features[i] = HDR64(h, adds_features[i], in->swapped);
	/*
	 * perf wrote the bitmap as unsigned longs: a 32-bit big-endian
	 * writer needs a 32-bit swap.  HOSTNAME is always set by perf
	 * since 2012; use it to tell, as perf_file_header__read() does.
	 */
	if (in->swapped && !(in->features[0] & (1ull << PERF_FEAT_HOSTNAME))) {
		for (i = 0; i < 4; i++) {
			uint64_t v = HDR64(h, adds_features[i], 0);
			uint32_t lo = bswap_32((uint32_t)v), hi = bswap_32((uint32_t)(v >> 32));

			in->features[i] = (uint64_t)hi << 32 | lo;
		}
		if (!(in->features[0] & (1ull << PERF_FEAT_HOSTNAME))) {
			memset(in->features, 0, sizeof(in->features));
			in->features[0] = 1ull << PERF_FEAT_BUILD_ID;
		}
	}
}

/* where the records are (f->pos, f->end) from the header's data section, checked */
static int set_data_section(struct perf_file *f)
{
	struct perf_file_info *in = &f->info;

	if (in->data_offset > UINT64_MAX - in->data_size)
		return fault(f, "header", 40, "data section offset %#" PRIx64 " size %" PRIu64 " overflows",
			     in->data_offset, in->data_size);
	if (in->data_offset < in->header_size)
		return fault(f, "header", 40, "data section starts inside the header (%#" PRIx64 ")", in->data_offset);
	f->pos = in->data_offset;
	f->end = in->data_offset + in->data_size;
	if (in->file_size && f->end > in->file_size) {
		/* a cut file: read the records that are there, then fail */
		fault(f, "data section", in->file_size, "the file ends %" PRIu64 " bytes before the end of the data section",
		      f->end - in->file_size);
		f->deferred = -EINVAL;
		f->end = in->file_size;
	}
	if (!in->data_size && in->file_size > in->data_offset) {
		log_msg(flog(f), LOG_WARN, "%s: data size is 0 (was perf record interrupted?): reading to the end of the file",
			f->name);
		f->end = in->file_size;
	}
	return 0;
}

static int read_file_header(struct perf_file *f)
{
	struct perf_file_info *in = &f->info;
	uint8_t h[FILE_HEADER_SIZE];
	uint64_t magic, hsize;
	int64_t n;
	int err;

	/* 16 bytes first: a pipe's header is no longer, and a pipe cannot seek back */
	n = input_read(f, 0, h, PIPE_HEADER_SIZE);
	if (n < 0)
		return (int)n;
	if (n < PIPE_HEADER_SIZE)
		return fault(f, "header", 0, "file too short for a perf.data header (%" PRId64 " bytes)", n);
	memcpy(&magic, h, 8);
	if (magic == PERF_MAGIC2) {
		in->swapped = 0;
	} else if (magic == PERF_MAGIC2_SW) {
		in->swapped = 1;
	} else if (magic == PERF_MAGIC1) {
		in->format = PERF_FORMAT_FILE_V1;
	} else {
		return fault(f, "header", 0, "not a perf.data file (bad magic)");
	}
	hsize = HDR64(h, size, in->swapped);
	if (in->format != PERF_FORMAT_FILE_V1 && hsize == PIPE_HEADER_SIZE) {
		in->format = PERF_FORMAT_PIPE;
		in->header_size = hsize;
		f->pos = PIPE_HEADER_SIZE;
		/* a stream ends where the bytes end; a cut last record ends it (perf: "unexpected end of event stream") */
		f->end = UINT64_MAX;
		return 0;
	}
	if (!f->seekable)
		return fault(f, "header", 0, "a perf.data file (not a pipe-mode stream) cannot be read from a pipe: "
			     "give its name instead of '-'");
	n = input_read(f, PIPE_HEADER_SIZE, h + PIPE_HEADER_SIZE, sizeof(h) - PIPE_HEADER_SIZE);
	if (n < 0)
		return (int)n;
	n += PIPE_HEADER_SIZE;
	if (n < FILE_HEADER_V1_SIZE)
		return fault(f, "header", 0, "file too short for a perf.data header (%" PRId64 " bytes)", n);
	if (in->format == PERF_FORMAT_FILE_V1) {
		err = v1_byte_order(f, h);
		if (err)
			return err;
		hsize = HDR64(h, size, in->swapped);
	}
	if (hsize != FILE_HEADER_SIZE && hsize != FILE_HEADER_V1_SIZE)
		return fault(f, "header", 8, "header size %" PRIu64 " is neither %d nor %d", hsize,
			     FILE_HEADER_SIZE, FILE_HEADER_V1_SIZE);
	if (n < (int64_t)hsize)
		return fault(f, "header", 0, "header truncated (%" PRId64 " of %" PRIu64 " bytes)", n, hsize);
	in->header_size = hsize;
	in->attr_size = HDR64(h, attr_size, in->swapped);
	in->attrs_offset = HDR64(h, attrs.offset, in->swapped);
	in->attrs_size = HDR64(h, attrs.size, in->swapped);
	in->data_offset = HDR64(h, data.offset, in->swapped);
	in->data_size = HDR64(h, data.size, in->swapped);
	in->event_types_offset = HDR64(h, event_types.offset, in->swapped);
	in->event_types_size = HDR64(h, event_types.size, in->swapped);
	memset(in->features, 0, sizeof(in->features));
	if (hsize == FILE_HEADER_SIZE)
		read_feature_bits(in, h);
	err = set_data_section(f);
	if (err)
		return err;
	err = read_attrs(f);
	if (err)
		return err;
	/*
	 * A recording killed before its end has its header's data size still 0:
	 * the feature sections (written after the data at the end) are not
	 * there, and the bytes where their table would be are records.
	 */
	err = in->data_size || in->file_size <= in->data_offset ? read_features(f) : 0;
	if (err)
		return err;
	err = read_event_types(f);
	if (err)
		return err;
	return apply_event_desc(f);
}

/* ---------------------------------------------------------------- open */

static int file_init(struct perf_file **out, const struct perf_file_opts *opts)
{
	struct perf_file *f = calloc(1, sizeof(*f));

	*out = NULL;
	if (!f)
		return -ENOMEM;
	if (opts)
		f->opts = *opts;
	f->name = strdup(f->opts.name ? f->opts.name : "perf.data");
	f->win_cap = WINDOW_MIN;
	f->win = malloc(f->win_cap);
	if (!f->name || !f->win) {
		free(f->name);
		free(f->win);
		free(f);
		return -ENOMEM;
	}
	f->fd = -1;
	f->end = UINT64_MAX;
	hashmap__init(&f->evlist.id_map);
	perf_features__init(&f->ft);
	*out = f;
	return 0;
}

static int file_start(struct perf_file *f)
{
	int err = read_file_header(f);

	if (!err)
		err = default_names(f);
	if (!err)
		err = file_facts(f);
	/*
	 * a gzip file's sections read up to its data's end: the little left is
	 * checked now (also for readperf header), else after the records
	 */
	if (!err && f->kind == INPUT_GZ && f->seekable && f->info.format != PERF_FORMAT_PIPE &&
	    f->in_pos >= f->info.data_offset && f->in_pos - f->info.data_offset >= f->info.data_size)
		err = gz_check_end(f);
	/* next_plain() from here on, until a compressed record opens a zstd stream */
	f->plain_ok = !f->info.swapped && f->kind != INPUT_MEM && !f->zds;
	return err;
}

static int open_input_fd(struct perf_file *f, int fd)
{
	struct stat st;
	uint8_t magic[4];

	f->fd = fd;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		log_msg(flog(f), LOG_ERR, "%s: is a directory, not a perf.data file", f->name);
		return -EINVAL;
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		f->seekable = 1;
		f->info.file_size = (uint64_t)st.st_size;
		if (pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
			int err = gz_restart(f);

			if (err)
				return err;
			f->kind = INPUT_GZ;
			f->info.gzip = 1;
			f->info.file_size = 0;
		} else if (pread(fd, magic, 4, 0) == 4 && magic[0] == 0x28 && magic[1] == 0xb5 &&
			   magic[2] == 0x2f && magic[3] == 0xfd) {
			int err = zst_restart(f);

			if (err)
				return err;
			f->kind = INPUT_ZST;
			f->info.zstd = 1;
			f->info.file_size = 0;
		} else {
			f->kind = INPUT_FD;
		}
		return 0;
	}
	/* a pipe: gzip inflated or plain bytes passed through, forward only */
	f->kind = INPUT_GZ;
	return gz_restart(f);
}

int perf_file__open_fd(struct perf_file **out, int fd, const struct perf_file_opts *opts)
{
	struct perf_file *f;
	int err = file_init(&f, opts);

	if (err)
		return err;
	err = open_input_fd(f, fd);
	if (!err)
		err = file_start(f);
	if (err) {
		if (err != -EINVAL && err != -ENOMEM && err != -EINTR)
			log_msg(flog(f), LOG_ERR, "%s: %s", f->name, strerror(-err));
		perf_file__delete(f);
		return err;
	}
	*out = f;
	return 0;
}

int perf_file__open(struct perf_file **out, const char *path, const struct perf_file_opts *opts)
{
	struct perf_file_opts o = opts ? *opts : (struct perf_file_opts){ 0 };
	int fd, err;

	if (!o.name)
		o.name = path;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		/* EINTR: a signal while a FIFO waited for its writer, the caller's to say */
		if (err != -EINTR)
			log_msg(o.log, LOG_ERR, "%s: cannot open: %s", o.name, strerror(errno));
		return err;
	}
	err = perf_file__open_fd(out, fd, &o);
	if (err) {
		close(fd);
		return err;
	}
	(*out)->own_fd = 1;
	return 0;
}

int perf_file__open_mem(struct perf_file **out, const void *buf, size_t len,
			const struct perf_file_opts *opts)
{
	struct perf_file *f;
	int err = file_init(&f, opts);

	if (err)
		return err;
	f->kind = INPUT_MEM;
	f->mem = buf;
	f->mem_len = len;
	f->seekable = 1;
	f->info.file_size = len;
	err = file_start(f);
	if (err) {
		perf_file__delete(f);
		return err;
	}
	*out = f;
	return 0;
}

void perf_file__delete(struct perf_file *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->evlist.nr; i++) {
		free(f->evlist.attrs[i].ids);
		free(f->evlist.attrs[i].name);
	}
	free(f->evlist.attrs);
	hashmap__release(&f->evlist.id_map, NULL);
	perf_features__release(&f->ft);
	if (f->gz)
		inflateEnd(&f->gz->zs);
	free(f->gz);
	if (f->zst)
		ZSTD_freeDStream(f->zst->ds);
	free(f->zst);
	if (f->own_fd && f->fd >= 0)
		close(f->fd);
	ZSTD_freeDStream(f->zds);
	free(f->zin);
	free(f->zout);
	free(f->win);
	free(f->scratch);
	free(f->name);
	free(f);
}

const struct perf_file_info *perf_file__info(const struct perf_file *f)
{
	return &f->info;
}

const struct perf_evlist *perf_file__evlist(const struct perf_file *f)
{
	return &f->evlist;
}

const struct perf_features *perf_file__features(const struct perf_file *f)
{
	return &f->ft;
}

const char *perf_file__name(const struct perf_file *f)
{
	return f->name;
}

int perf_file__status(const struct perf_file *f)
{
	return f->err ? f->err : f->deferred;
}

uint64_t perf_file__pos(const struct perf_file *f)
{
	return f->kind == INPUT_GZ || f->kind == INPUT_ZST ? f->in_pos : f->pos;
}

/* ---------------------------------------------------------------- records */

/* an aligned, writable copy of a record when it must be swapped or is misaligned */
static const uint8_t *own_copy(struct perf_file *f, const uint8_t *p, size_t size)
{
	if (!f->info.swapped && !((uintptr_t)p & 7))
		return p;
	if (size > f->scratch_cap) {
		size_t cap = size < 65536 ? 65536 : size;
		uint8_t *s = realloc(f->scratch, cap);

		if (!s)
			return NULL;
		f->scratch = s;
		f->scratch_cap = cap;
	}
	memcpy(f->scratch, p, size);
	return f->scratch;
}

static int decode_failed(struct perf_file *f, struct perf_record *rec, const char *what, int err,
			 const char *why);

static int decode_record(struct perf_file *f, struct perf_record *rec, const char *what)
{
	const char *why = NULL;
	int err;

	if (f->info.swapped) {
		err = perf_record__swap((void *)rec->data, rec->size, &f->evlist, &why);
		if (err)
			return fault(f, what, rec->offset, "%s", why ? why : "cannot swap");
	}
	err = perf_record__decode(rec, &f->evlist, &why);
	return err ? decode_failed(f, rec, what, err, why) : 0;
}

/* a decode's error: a fault, or 0 for a sample of an unknown id (skipped: rec->undecoded) */
static int decode_failed(struct perf_file *f, struct perf_record *rec, const char *what, int err, const char *why)
{
	if (err != -EINVAL)
		return err;
	if (rec->type == PERF_RECORD_SAMPLE && !rec->evattr) {
		/* perf stops here ("Can't parse sample"); we skip it, read on, and fail at the end */
		if (!f->nr_unknown_id++)
			fault(f, what, rec->offset, "%s (this and later such records are skipped)",
			      why ? why : "unknown sample id");
		f->deferred = -EINVAL;
		rec->undecoded = 1;
		return 0;
	}
	return fault(f, what, rec->offset, "%s %s", perf_record_type__name(rec->type) ?
		     perf_record_type__name(rec->type) : "record", why ? why : "is malformed");
}

static void fill_header(struct perf_record *rec, const uint8_t *p)
{
	uint32_t type;
	uint16_t misc, size;

	memcpy(&type, p, 4);
	memcpy(&misc, p + offsetof(struct perf_event_header, misc), 2);
	memcpy(&size, p + offsetof(struct perf_event_header, size), 2);
	rec->type = type;
	rec->misc = misc;
	rec->size = size;
}

static int zstd_feed(struct perf_file *f, const struct perf_record *rec)
{
	const void *data = rec->u.compressed.data;
	size_t size = (size_t)rec->u.compressed.size;

	if (!f->zds) {
		f->zds = ZSTD_createDStream();
		f->plain_ok = 0;
		if (!f->zds)
			return -ENOMEM;
		ZSTD_initDStream(f->zds);
		f->zout_cap = ZSTD_WINDOW;
		f->zout = malloc(f->zout_cap);
		if (!f->zout)
			return -ENOMEM;
	}
	if (size > f->zin_cap) {
		uint8_t *z = realloc(f->zin, size);

		if (!z)
			return -ENOMEM;
		f->zin = z;
		f->zin_cap = size;
	}
	if (size)	/* an empty record: zin may still be NULL */
		memcpy(f->zin, data, size);
	f->zin_len = size;
	f->zin_pos = 0;
	f->zoffset = rec->offset;
	f->zrec_out = 0;
	return 0;
}

/*
 * What one COMPRESSED record may expand to: perf decompresses it into a
 * buffer of the ring buffer's size (HEADER_COMPRESSED's mmap_len) and refuses
 * more; here with room for a record left over from the one before.  A
 * hostile file's 1.4 KB record of 16 MB of FINISHED_ROUNDs took seconds each.
 */
static uint64_t zrec_max(const struct perf_file *f)
{
	return (f->ft.comp_mmap_len ? f->ft.comp_mmap_len : ZREC_MAX_UNSAID) + 65536;
}

/* make n decompressed bytes contiguous at zout + zout_start; returns how many are there */
static int64_t zneed(struct perf_file *f, size_t n, const uint8_t **p)
{
	while (f->zout_len - f->zout_start < n && f->zin_pos < f->zin_len) {
		ZSTD_inBuffer in = { f->zin, f->zin_len, f->zin_pos };
		ZSTD_outBuffer out;
		size_t r;

		if (f->zout_start) {
			memmove(f->zout, f->zout + f->zout_start, f->zout_len - f->zout_start);
			f->zout_len -= f->zout_start;
			f->zout_start = 0;
		}
		out = (ZSTD_outBuffer){ f->zout, f->zout_cap, f->zout_len };
		r = ZSTD_decompressStream(f->zds, &out, &in);
		if (ZSTD_isError(r))
			return fault(f, "compressed record", f->zoffset, "zstd: %s", ZSTD_getErrorName(r));
		if (out.pos == f->zout_len && in.pos == f->zin_pos)
			break;
		f->zrec_out += out.pos - f->zout_len;
		if (f->zrec_out > zrec_max(f))
			return fault(f, "compressed record", f->zoffset, "expands to more than %" PRIu64
				     " bytes (%s%" PRIu32 "; perf refuses it too)", zrec_max(f),
				     f->ft.comp_mmap_len ? "the recording's mmap_len " : "no mmap_len recorded: 64 MiB, not ",
				     f->ft.comp_mmap_len);
		f->zout_len = out.pos;
		f->zin_pos = in.pos;
	}
	*p = f->zout + f->zout_start;
	return (int64_t)(f->zout_len - f->zout_start < n ? f->zout_len - f->zout_start : n);
}

/* the next record decompressed from COMPRESSED chunks: 1, 0 when none is complete yet */
static int next_inner(struct perf_file *f, struct perf_record *rec)
{
	const uint8_t *p;
	int64_t n;

	if (!f->zds)
		return 0;
	n = zneed(f, 8, &p);
	if (n < 8)
		return n < 0 ? (int)n : 0;
	fill_header(rec, p);
	if (f->info.swapped) {
		rec->type = bswap_32(rec->type);
		rec->misc = bswap_16(rec->misc);
		rec->size = bswap_16(rec->size);
	}
	if (rec->size < 8)
		return fault(f, "compressed record", f->zoffset, "inner record size %u is smaller than its header",
			     rec->size);
	n = zneed(f, rec->size, &p);
	if (n < rec->size)
		return n < 0 ? (int)n : 0;	/* it continues in the next chunk */
	rec->data = own_copy(f, p, rec->size);
	if (!rec->data)
		return -ENOMEM;
	f->zout_start += rec->size;
	rec->offset = f->zoffset;
	rec->compressed = 1;
	return 1;
}

static uint64_t payload_size(struct perf_file *f, const uint8_t *p, uint32_t type, uint16_t size)
{
	if (type == PERF_RECORD_AUXTRACE && size >= offsetof(struct perf_record_auxtrace, offset))
		return get64(p + offsetof(struct perf_record_auxtrace, size), f->info.swapped);
	/*
	 * perf writes a 16-byte record with the tracing data after it;
	 * simpleperf puts the data inside (header.size covers it): nothing follows
	 */
	if (type == PERF_RECORD_HEADER_TRACING_DATA && size >= 12 && size <= 16)
		return get32(p + 8, f->info.swapped);
	return 0;
}

static int next_outer(struct perf_file *f, struct perf_record *rec)
{
	const int pipe = f->info.format == PERF_FORMAT_PIPE;
	const uint8_t *p;
	uint64_t psize;
	int64_t n;

	if (f->pos >= f->end)
		return 0;
	n = window_need(f, 8, &p);
	if (n < 0)
		return (int)n;
	if (n == 0) {
		/* a stream that ended inside the payload skipped after the last record */
		if (f->payload_from && f->kind != INPUT_MEM && !f->seekable && f->in_pos < f->pos)
			return fault(f, "record", f->payload_rec, "the stream ends %" PRIu64 " bytes into its "
				     "payload of %" PRIu64 " bytes", f->in_pos - f->payload_from, f->pos - f->payload_from);
		if (pipe || f->end == UINT64_MAX)
			return 0;
		return fault(f, "data section", f->pos, "the file ends %" PRIu64 " bytes early",
			     f->end - f->pos);
	}
	if (n < 8) {
		if (pipe) {
			log_msg(flog(f), LOG_WARN, "%s: unexpected end of event stream at offset 0x%" PRIx64 " (%" PRIu64 ")",
				f->name, f->pos, f->pos);
			return 0;
		}
		return fault(f, "record", f->pos, "header truncated (%" PRId64 " bytes left)", n);
	}
	fill_header(rec, p);
	if (f->info.swapped) {
		rec->type = bswap_32(rec->type);
		rec->misc = bswap_16(rec->misc);
		rec->size = bswap_16(rec->size);
	}
	rec->offset = f->pos;
	if (rec->size < 8)
		return fault(f, "record", f->pos, "size %u is smaller than its header", rec->size);
	if (f->end != UINT64_MAX && rec->size > f->end - f->pos)
		return fault(f, "record", f->pos, "size %u runs past the end of the data section at %#" PRIx64,
			     rec->size, f->end);
	n = window_need(f, rec->size, &p);
	if (n < 0)
		return (int)n;
	if (n < rec->size) {
		if (pipe) {
			log_msg(flog(f), LOG_WARN, "%s: unexpected end of event stream at offset 0x%" PRIx64 " (%" PRIu64 ")",
				f->name, f->pos, f->pos);
			return 0;
		}
		return fault(f, "record", f->pos, "truncated: %" PRId64 " of %u bytes", n, rec->size);
	}
	psize = payload_size(f, p, rec->type, rec->size);
	if (psize) {
		uint64_t total = rec->size + psize;

		if (psize > UINT64_MAX - rec->size ||
		    (f->end != UINT64_MAX && total > f->end - f->pos) ||
		    (f->info.file_size && (f->pos > f->info.file_size || total > f->info.file_size - f->pos)))
			return fault(f, "record", f->pos, "payload of %" PRIu64 " bytes runs past the end of the data",
				     psize);
		rec->payload_size = psize;
		if (psize <= PAYLOAD_INLINE_MAX) {
			n = window_need(f, (size_t)total, &p);
			if (n < 0)
				return (int)n;
			if ((uint64_t)n < total)
				return fault(f, "record", f->pos, "payload truncated: %" PRIu64 " of %" PRIu64 " bytes",
					     n - (uint64_t)rec->size, psize);
			rec->payload = p + rec->size;
		}
	}
	rec->data = own_copy(f, p, rec->size);
	if (!rec->data)
		return -ENOMEM;
	f->payload_from = psize > PAYLOAD_INLINE_MAX ? f->pos + rec->size : 0;
	f->payload_rec = f->pos;
	f->pos += rec->size + psize;
	return 1;
}

/*
 * next_outer()'s common case in a few tests: no compressed chunk open, host
 * order, the whole record in the window at an 8-byte boundary (so it is used
 * in place), inside the data section, no payload after it.  1 with rec's
 * header, offset and data set; 0: next_outer() takes it (and every fault).
 */
static inline int next_plain(struct perf_file *f, struct perf_record *rec)
{
	const uint8_t *p;
	uint64_t off;
	uint16_t size;

	if (!f->plain_ok || f->pos >= f->end || f->pos < f->win_off)
		return 0;
	off = f->pos - f->win_off;
	if (off + 8 > f->win_len)
		return 0;
	p = f->win + off;
	memcpy(&size, p + offsetof(struct perf_event_header, size), 2);
	if (size < 8 || off + size > f->win_len || size > f->end - f->pos || ((uintptr_t)p & 7))
		return 0;
	fill_header(rec, p);
	if (rec->type == PERF_RECORD_AUXTRACE || rec->type == PERF_RECORD_HEADER_TRACING_DATA)
		return 0;
	rec->offset = f->pos;
	rec->data = p;
	f->payload_from = 0;
	f->payload_rec = f->pos;
	f->pos += size;
	return 1;
}

/* what a record means for the stream itself: attrs, names, features, compression */
static int apply_user_record(struct perf_file *f, const struct perf_record *rec)
{
	struct perf_event_attr attr;
	int err;

	switch (rec->type) {
	case PERF_RECORD_HEADER_ATTR:
		barrier(f);
		if (perf_attr__read(&attr, rec->u.header_attr.attr, rec->u.header_attr.attr_size, 0))
			return fault(f, "record", rec->offset, "HEADER_ATTR attr size %u is too small",
				     rec->u.header_attr.attr_size);
		err = evlist_add(f, &attr, rec->u.header_attr.ids, (size_t)rec->u.header_attr.nr_ids, 0);
		if (err)
			return add_fault(f, "record", rec->offset, err);
		/* only the new attr: each HEADER_ATTR naming them all was quadratic */
		if (!err)
			err = name_attr(f, f->evlist.nr - 1);
		return err;
	case PERF_RECORD_HEADER_FEATURE:
		if (rec->u.feature.feat_id >= PERF_FEAT_LAST || rec->u.feature.feat_id == PERF_FEAT_RESERVED)
			return 0;
		barrier(f);
		err = decode_feature(f, (unsigned)rec->u.feature.feat_id, rec->u.feature.data,
				     rec->u.feature.size, rec->offset);
		if (!err && rec->u.feature.feat_id == PERF_FEAT_EVENT_DESC)
			err = apply_event_desc(f);
		return err;
	case PERF_RECORD_HEADER_EVENT_TYPE:
		barrier(f);
		return apply_event_type(f, rec->u.event_type.event_id, rec->u.event_type.name,
					rec->size - 16);
	case PERF_RECORD_COMPRESSED:
	case PERF_RECORD_COMPRESSED2:
		return zstd_feed(f, rec);
	default:
		return 0;
	}
}

/* perf_file__next()'s end with r < 0 (a fault) or 0 (the end) */
static int next_failed(struct perf_file *f, int r)
{
	if (r < 0)
		f->err = r;
	if (r < 0 && r != -EINVAL && r != -ENOMEM && r != -EINTR)
		log_msg(flog(f), LOG_ERR, "%s: read error at offset %#" PRIx64 ": %s", f->name, f->pos,
			strerror(-r));
	return r;
}

/* perf_file__next()'s end for a record decoded with r: what it means for the stream, or its fault */
static int __attribute__((noinline)) next_done(struct perf_file *f, struct perf_record *rec, int r)
{
	if (!r && rec->type >= PERF_RECORD_USER_TYPE_START)
		r = apply_user_record(f, rec);
	return r ? next_failed(f, r) : 1;
}

/* every record next_plain() does not take, and the end.  Out of line, as next_done() */
static int __attribute__((noinline)) next_slow(struct perf_file *f, struct perf_record *rec)
{
	int r = next_inner(f, rec);

	if (r == 0)
		r = next_outer(f, rec);
	if (r == 0 && f->zout_len > f->zout_start)
		log_msg(flog(f), LOG_WARN, "%s: %zu bytes of compressed data at the end do not form a record",
			f->name, f->zout_len - f->zout_start);
	if (r == 0)
		r = gz_check_end(f);
	if (r == 0 && f->deferred)
		r = f->deferred;
	if (r <= 0)
		return next_failed(f, r);
	rec->nr = f->nr++;
	return next_done(f, rec, decode_record(f, rec, rec->compressed ? "compressed record" : "record"));
}

int perf_file__next(struct perf_file *f, struct perf_record *rec)
{
	const char *why = NULL;
	int err;

	if (f->err)
		return f->err;
	/* the rest of *rec is filled by perf_record__decode() */
	rec->compressed = 0;
	rec->undecoded = 0;
	rec->payload = NULL;
	rec->payload_size = 0;
	rec->evattr = NULL;
	if (!next_plain(f, rec))
		return next_slow(f, rec);
	/* in host order (next_plain()): decode_record() without the swap */
	rec->nr = f->nr++;
	err = perf_record__decode(rec, &f->evlist, &why);
	if (!err && rec->type < PERF_RECORD_USER_TYPE_START)
		return 1;
	return next_done(f, rec, err ? decode_failed(f, rec, "record", err, why) : 0);
}

int perf_file__decode(const struct perf_file *f, const void *data, size_t size,
		      struct perf_record *rec, const char **why)
{
	uint64_t nr = rec->nr, offset = rec->offset;
	int compressed = rec->compressed;

	rec->evattr = NULL;
	rec->payload = NULL;
	rec->payload_size = 0;
	if (size < 8) {
		*why = "record shorter than its header";
		return -EINVAL;
	}
	fill_header(rec, data);
	if (rec->size != size) {
		*why = "record size does not match its header";
		return -EINVAL;
	}
	rec->data = data;
	rec->nr = nr;
	rec->offset = offset;
	rec->compressed = compressed;
	rec->undecoded = 0;
	return perf_record__decode(rec, &f->evlist, why);
}

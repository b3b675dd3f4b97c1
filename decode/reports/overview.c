/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * overview.csv: one row per record in replay (time) order, streamed while
 * the records arrive (README "Reports"): samples with their event, ip,
 * period, dso and function, other records with what they say in "info".
 * Rows go straight into the report directory when the hub stages the
 * reports there (opts.out_dir), else into a temporary file copied in at the
 * end.  Records outside --time/--pid/--tid/--comm are left out.
 *
 * With opts.helper_threads the analysis thread only notes each row's fields
 * (struct ov_row, names copied) in a spool: a thread of the report's own
 * formats and writes them, the most of a default analysis's output work
 * (a third of the analysis thread's instructions on a -g recording).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decode/report.h"
#include "util/array.h"
#include "util/csv.h"
#include "util/pool.h"
#include "util/stream.h"
#include "util/spool.h"
#include "util/strbuf.h"

/* a function's event name and ",dso,function," as CSV text, escaped once */
struct ov_text {
	const char *text;		/* NULL until needed */
	uint32_t event_len, len;
};

struct overview {
	int open;
	struct csv ov;
	FILE *tmp;			/* when not streaming into opts.out_dir */
	const char *profile;
	struct strbuf info;		/* scratch for the info field */
	struct pool pool;		/* the texts */
	struct array texts;		/* struct ov_text by func_stat id */
	/* "type,pid,tid,cpu" of the last row of each thread (slot tid % 64) as text: mostly the same from row to row */
	struct ov_seg {
		int64_t pid, tid, cpu;
		uint32_t type;
		uint32_t len;		/* 0: empty */
		char text[112];
	} seg[64];
	struct spool *spool;		/* opts.helper_threads: the rows are formatted there */
};

/* A row's fields, formatted by put_row; each name field NULL when empty: event, dso, function, info. */
struct ov_row {
	uint32_t size;			/* in the spool: this and the names copied after it */
	uint32_t kind;			/* OV_ROW */
	uint32_t type;
	int64_t pid, tid, cpu;
	uint64_t nr, time, ip, period;
	int has_ip;
	const char *name[4];
	size_t len[4];
};

/*
 * The row of a sample whose function has its text (most rows), 80 bytes in
 * the spool where an ov_row takes 152: filled where it goes, no names after it
 */
struct ov_srow {
	uint32_t size;			/* sizeof(struct ov_srow) */
	uint32_t kind;			/* OV_SROW */
	int32_t pid, tid;		/* -1: none (common_fields) */
	int64_t cpu;
	uint64_t nr, time, ip, period;
	const char *text;		/* event_len bytes of event, then ",dso,function," (text_len in all) */
	uint32_t event_len, text_len;
	uint32_t has_ip;
};

_Static_assert(sizeof(struct ov_srow) == 80 && sizeof(struct ov_srow) % 8 == 0, "a sample row, 8-byte aligned");

enum { OV_ROW = 1, OV_SROW };

static const struct report_column overview_cols[] = {
	{ "nr", "BIGINT" }, { "time", "BIGINT" }, { "type", "TEXT" }, { "pid", "BIGINT" }, { "tid", "BIGINT" },
	{ "cpu", "BIGINT" }, { "event", "TEXT" }, { "ip", "TEXT" }, { "period", "BIGINT" }, { "dso", "TEXT" },
	{ "symbol", "TEXT" }, { "info", "TEXT" }, { NULL, NULL }
};

static void consume_rows(void *ctx, const unsigned char *data, size_t len);

static int overview_begin(void *state, struct analysis *a)
{
	struct overview *o = state;
	const struct analysis_opts *opts = analysis__opts(a);
	size_t i;
	int err;

	strbuf__init(&o->info);
	array__init(&o->texts, sizeof(struct ov_text));
	o->profile = opts->profile;
	if (opts->out_dir) {
		err = csv__open(&o->ov, opts->out_dir, "overview.csv");
		if (err)
			return err;
		csv__set_raw_text(&o->ov, opts->raw_csv);
	} else {
		o->tmp = tmpfile();
		if (!o->tmp)
			return -errno;
		csv__open_fd(&o->ov, fileno(o->tmp));
		csv__set_raw_text(&o->ov, opts->raw_csv);
	}
	csv__prefix(&o->ov, "profile", o->profile);
	for (i = 0; overview_cols[i].name; i++)
		csv__str(&o->ov, overview_cols[i].name);
	csv__end_row(&o->ov);
	o->open = 1;
	/* no thread (ENOMEM, a thread refused): the rows are formatted here, the same bytes */
	if (opts->helper_threads)
		spool__new(&o->spool, consume_rows, o);
	return 0;
}

static void overview_release(void *state)
{
	struct overview *o = state;

	spool__delete(o->spool);
	if (o->open && !o->tmp)
		csv__abort(&o->ov);
	if (o->tmp)
		fclose(o->tmp);
	strbuf__release(&o->info);
	array__release(&o->texts);
	pool__release(&o->pool);
}

/*
 * type, pid, tid and cpu: from the text of the thread's previous row when they
 * are the same (csv__text writes it as the four fields it holds); the type
 * names are perf's identifiers (at most 18 bytes), nothing in them to quote
 */
static void type_pid_cpu(struct overview *o, uint32_t type, int64_t pid, int64_t tid, int64_t cpu)
{
	struct ov_seg *g = &o->seg[(uint64_t)tid & 63];
	const int64_t nums[3] = { pid, tid, cpu };
	const char *name;
	size_t n, i;

	if (!g->len || g->type != type || g->pid != pid || g->tid != tid || g->cpu != cpu) {
		name = perf_record_type__name(type);
		if (name && strlen(name) <= 32) {
			n = strlen(name);
			memcpy(g->text, name, n);
		} else {
			n = csv__format_i64(g->text, type);
		}
		for (i = 0; i < 3; i++) {
			g->text[n++] = ',';
			n += csv__format_i64(g->text + n, nums[i]);
		}
		g->type = type;
		g->pid = pid;
		g->tid = tid;
		g->cpu = cpu;
		g->len = (uint32_t)n;
	}
	csv__text(&o->ov, g->text, g->len);
}

/* a row of overview.csv from its fields */
static void put_row(struct overview *o, const struct ov_row *r)
{
	struct csv *c = &o->ov;

	csv__u64(c, r->nr);
	csv__u64(c, r->time);
	type_pid_cpu(o, r->type, r->pid, r->tid, r->cpu);
	csv__strn(c, r->name[0] ? r->name[0] : "", r->len[0]);
	if (r->has_ip)
		csv__hex(c, r->ip);
	else
		csv__empty(c);
	csv__u64(c, r->period);
	csv__strn(c, r->name[1] ? r->name[1] : "", r->len[1]);
	csv__strn(c, r->name[2] ? r->name[2] : "", r->len[2]);
	csv__strn(c, r->name[3] ? r->name[3] : "", r->len[3]);
	csv__end_row(c);
}

/* a sample's row: as put_row with the function's text */
static void put_srow(struct overview *o, const struct ov_srow *r)
{
	struct csv *c = &o->ov;

	csv__u64(c, r->nr);
	csv__u64(c, r->time);
	type_pid_cpu(o, PERF_RECORD_SAMPLE, r->pid, r->tid, r->cpu);
	csv__text(c, r->text, r->event_len);
	if (r->has_ip)
		csv__hex(c, r->ip);
	else
		csv__empty(c);
	csv__u64(c, r->period);
	csv__raw(c, r->text + r->event_len, r->text_len - r->event_len);
	csv__end_row(c);
}

/* the spool's thread: a block of rows, each ov_row followed by its names */
static void consume_rows(void *ctx, const unsigned char *data, size_t len)
{
	size_t off = 0;

	while (off < len) {
		const struct ov_row *r = (const struct ov_row *)(const void *)(data + off);

		if (r->kind == OV_SROW)
			put_srow(ctx, (const struct ov_srow *)(const void *)r);
		else
			put_row(ctx, r);
		off += r->size;
	}
}

/*
 * The row into the spool, its names copied after it; formatted here when
 * there is no spool, and (the spool drained first, so the rows stay in
 * order) when it does not fit a spool block.
 */
static void emit_row(struct overview *o, struct ov_row *r)
{
	size_t need = sizeof(*r), i;
	unsigned char *p = NULL;
	struct ov_row *copy;

	if (!o->spool) {
		put_row(o, r);
		return;
	}
	for (i = 0; i < 4; i++)
		need += r->len[i];
	if (need <= SPOOL_BLOCK)
		p = spool__alloc(o->spool, need);
	if (!p) {
		spool__drain(o->spool);
		put_row(o, r);
		return;
	}
	r->size = (uint32_t)((need + 7) & ~(size_t)7);
	r->kind = OV_ROW;
	copy = memcpy(p, r, sizeof(*r));
	p += sizeof(*r);
	for (i = 0; i < 4; i++) {
		if (!r->name[i])
			continue;
		memcpy(p, r->name[i], r->len[i]);
		copy->name[i] = (const char *)p;
		p += r->len[i];
	}
}

/* nr, time, type, pid, tid, cpu of the row */
static void common_fields(struct ov_row *r, const struct perf_record *rec, int has_pid, uint32_t pid, uint32_t tid)
{
	const struct perf_sample *s = &rec->sample;
	int kernel = rec->type < PERF_RECORD_USER_TYPE_START;

	/* numbers the record does not carry: time 0, pid/tid/cpu -1 (README "Reports") */
	r->nr = rec->nr;
	r->time = kernel && (s->sample_type & PERF_SAMPLE_TIME) ? s->time : 0;
	r->type = rec->type;
	r->pid = has_pid ? (int32_t)pid : -1;
	r->tid = has_pid ? (int32_t)tid : -1;
	r->cpu = kernel && (s->sample_type & PERF_SAMPLE_CPU) ? (int64_t)s->cpu : -1;
}

/* a name field of the row (NULL: empty) */
static void set_name(struct ov_row *r, int i, const char *s)
{
	r->name[i] = s;
	r->len[i] = s ? strlen(s) : 0;
}

/*
 * f's event name and ",dso,function," as CSV text, escaped once into the
 * pool: most rows of overview.csv are samples of a few thousand functions.
 * The text, or NULL on ENOMEM (the row is then written field by field).
 */
static const struct ov_text *sample_text(struct overview *o, const struct func_stat *f, const char *event)
{
	size_t le, ld, lf, n;
	struct ov_text *tx;
	char *t;

	if (f->id < o->texts.len) {
		tx = &ARRAY_AT(&o->texts, struct ov_text, f->id);
		if (tx->text)
			return tx;
	}
	while (o->texts.len <= f->id)
		if (!array__push(&o->texts))
			return NULL;
	tx = &ARRAY_AT(&o->texts, struct ov_text, f->id);
	le = strlen(event);
	ld = strlen(f->dso);
	lf = strlen(f->function);
	n = 2 * (le + ld + lf) + 12;	/* three fields quoted with a leading ', three commas */
	if (n > UINT32_MAX)
		return NULL;
	t = pool__alloc(&o->pool, n);
	if (!t)
		return NULL;
	tx->event_len = (uint32_t)csv__escape(&o->ov, t, event, le);
	n = tx->event_len;
	t[n++] = ',';
	n += csv__escape(&o->ov, t + n, f->dso, ld);
	t[n++] = ',';
	n += csv__escape(&o->ov, t + n, f->function, lf);
	t[n++] = ',';		/* info: empty */
	tx->len = (uint32_t)n;
	tx->text = t;
	return tx;
}

/* a sample's row from the function's text: into the spool, else formatted here */
static void emit_srow(struct overview *o, const struct rsample *rs, const struct ov_text *tx)
{
	const struct perf_record *rec = rs->rec;
	const struct perf_sample *s = &rec->sample;
	struct ov_srow here, *r = &here, *to = o->spool ? spool__alloc(o->spool, sizeof(*r)) : NULL;
	struct ov_row common;

	if (o->spool && !to)
		spool__drain(o->spool);
	common_fields(&common, rec, !!(s->sample_type & PERF_SAMPLE_TID), s->pid, s->tid);
	r->size = sizeof(*r);
	r->kind = OV_SROW;
	r->pid = (int32_t)common.pid;	/* an int32_t's value or -1 */
	r->tid = (int32_t)common.tid;
	r->cpu = common.cpu;
	r->nr = common.nr;
	r->time = common.time;
	r->has_ip = !!(s->sample_type & PERF_SAMPLE_IP);
	r->ip = s->ip;
	r->period = rs->period;
	r->text = tx->text;
	r->event_len = tx->event_len;
	r->text_len = tx->len;
	/* streamed: the spool's blocks go round between this thread and the writer's (util/stream.h) */
	if (to)
		stream__copy(to, r, sizeof(*r));
	else
		put_srow(o, r);
}

static int overview_sample(void *state, struct analysis *a, const struct rsample *rs)
{
	struct overview *o = state;
	const struct perf_record *rec = rs->rec;
	const struct perf_sample *s = &rec->sample;
	const struct func_stat *f = rs->func;
	const struct ov_text *tx = sample_text(o, f, rs->event_name);
	struct ov_row r;

	(void)a;
	if (tx) {
		emit_srow(o, rs, tx);
		return 0;
	}
	memset(&r, 0, sizeof(r));
	common_fields(&r, rec, !!(s->sample_type & PERF_SAMPLE_TID), s->pid, s->tid);
	r.has_ip = !!(s->sample_type & PERF_SAMPLE_IP);
	r.ip = s->ip;
	r.period = rs->period;
	set_name(&r, 0, rs->event_name);
	set_name(&r, 1, f->dso);
	set_name(&r, 2, f->function);
	emit_row(o, &r);
	return 0;
}

/* the info field of a record into sb; 0 or -ENOMEM */
static int info_of(struct strbuf *sb, const struct perf_record *rec)
{
	int err = 0;

	strbuf__reset(sb);
	switch (rec->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		err = strbuf__addf(sb, "%s start=0x%" PRIx64 " len=0x%" PRIx64 " pgoff=0x%" PRIx64,
			     rec->u.mmap.filename, rec->u.mmap.start, rec->u.mmap.len,
			     rec->u.mmap.pgoff);
		break;
	case PERF_RECORD_COMM:
		err = strbuf__addstr(sb, rec->u.comm.comm);
		if (!err && rec->u.comm.exec)
			err = strbuf__addstr(sb, " (exec)");
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		err = strbuf__addf(sb, "ppid=%" PRIi32 " ptid=%" PRIi32, (int32_t)rec->u.fork.ppid,
			     (int32_t)rec->u.fork.ptid);
		break;
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		err = strbuf__addf(sb, "lost=%" PRIu64, rec->u.lost.lost);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		err = strbuf__addstr(sb, rec->u.sw.out ? (rec->u.sw.preempt ? "out preempt" : "out") : "in");
		if (!err && rec->type == PERF_RECORD_SWITCH_CPU_WIDE)
			err = strbuf__addf(sb, " %s_pid=%" PRIi32 " %s_tid=%" PRIi32,
				     rec->u.sw.out ? "next" : "prev", (int32_t)rec->u.sw.next_prev_pid,
				     rec->u.sw.out ? "next" : "prev", (int32_t)rec->u.sw.next_prev_tid);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		err = strbuf__addf(sb, "id=%" PRIu64, rec->u.throttle.id);
		break;
	case PERF_RECORD_KSYMBOL:
		err = strbuf__addf(sb, "%s addr=0x%" PRIx64 " len=%" PRIu32 "%s",
			     rec->u.ksymbol.name ? rec->u.ksymbol.name : "", rec->u.ksymbol.addr,
			     rec->u.ksymbol.len,
			     (rec->u.ksymbol.flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER) ? " unregister" : "");
		break;
	case PERF_RECORD_CGROUP:
		err = strbuf__addf(sb, "id=%" PRIu64 " %s", rec->u.cgroup.id,
			     rec->u.cgroup.path ? rec->u.cgroup.path : "");
		break;
	case PERF_RECORD_HEADER_BUILD_ID:
		if (rec->u.build_id.filename)
			err = strbuf__addstr(sb, rec->u.build_id.filename);
		break;
	default:
		break;
	}
	return err ? -ENOMEM : 0;
}

static int overview_record(void *state, struct analysis *a, const struct rrecord *rr)
{
	struct overview *o = state;
	const struct perf_record *rec = rr->rec;
	uint32_t pid = 0, tid = 0;
	struct ov_row r;
	int has_pid;

	(void)a;
	if (rr->filtered)
		return 0;
	/* out of memory: a row without its info would be a wrong report, the run ends */
	if (info_of(&o->info, rec))
		return -ENOMEM;
	memset(&r, 0, sizeof(r));
	has_pid = analysis__record_pid_tid(rec, &pid, &tid);
	common_fields(&r, rec, has_pid, pid, tid);
	if (rec->evattr && rec->type < PERF_RECORD_USER_TYPE_START && rec->evattr->name)
		set_name(&r, 0, rec->evattr->name);
	r.name[3] = o->info.buf;
	r.len[3] = o->info.len;
	emit_row(o, &r);
	return 0;
}

/* the temporary file's rows into dir/overview.csv; later rows keep appending to the temporary file */
static int copy_tmp(struct overview *o, const char *dir)
{
	struct csv c;
	char buf[1 << 16];
	ssize_t n;
	int fd = o->ov.fd, raw = o->ov.raw_text, err;

	/* what the writer still buffers goes to the file */
	err = csv__commit(&o->ov);
	csv__open_fd(&o->ov, fd);
	csv__set_raw_text(&o->ov, raw);
	csv__prefix(&o->ov, NULL, o->profile);
	if (err)
		return err;
	err = csv__open(&c, dir, "overview.csv");
	if (err)
		return err;
	if (lseek(fd, 0, SEEK_SET) < 0) {
		csv__abort(&c);
		return -EIO;
	}
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			csv__abort(&c);
			return -EIO;
		}
		csv__raw(&c, buf, (size_t)n);
	}
	if (lseek(fd, 0, SEEK_END) < 0) {
		csv__abort(&c);
		return -EIO;
	}
	return csv__commit(&c);
}

static int overview_write(void *state, struct analysis *a, const char *dir)
{
	struct overview *o = state;

	(void)a;
	if (!o->open)
		return 0;
	if (o->spool)
		spool__drain(o->spool);
	if (!o->tmp) {
		o->open = 0;
		return csv__commit(&o->ov);
	}
	return copy_tmp(o, dir);
}

static const struct report_output overview_outputs[] = {
	{ .name = "overview", .columns = overview_cols, .write = overview_write },
	{ .name = NULL }
};

const struct report_ops overview_report = {
	.name = "overview",
	.source = REPORT_FROM_ANALYSIS,
	.state_size = sizeof(struct overview),
	.write_last = 1,		/* the spool's thread writes its rows meanwhile */
	.needs = REPORT_NEEDS_RECORD_FILTER,
	.outputs = overview_outputs,
	.begin = overview_begin,
	.sample = overview_sample,
	.record = overview_record,
	.release = overview_release,
};

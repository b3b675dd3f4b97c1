/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stat.csv, events.csv and header.csv.  Counting follows
 * perf_session__process_event() and events_stats__fprintf() in
 * tools/perf/util/session.c: every record counts under its type, records
 * inside COMPRESSED too (the COMPRESSED record itself as well).
 */
#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/reports/filestat.h"
#include "decode/reports/common.h"
#include "decode/group.h"
#include "perffile/perffile.h"
#include "util/array.h"
#include "util/csv.h"
#include "util/strbuf.h"

static const struct report_column stat_cols[] = {
	{ "type", "TEXT" }, { "count", "BIGINT" }, { "bytes", "BIGINT" }, { NULL, NULL }
};

static const struct report_column events_cols[] = {
	{ "event", "TEXT" }, { "type", "BIGINT" }, { "config", "TEXT" }, { "sample_type", "TEXT" },
	{ "sample_period", "BIGINT" }, { "sample_freq", "BIGINT" }, { "samples", "BIGINT" }, { "period", "BIGINT" },
	{ "lost", "BIGINT" }, { NULL, NULL }
};

static const struct report_column header_cols[] = {
	{ "section", "TEXT" }, { "key", "TEXT" }, { "value", "TEXT" }, { NULL, NULL }
};

#define NR_TYPES 128

struct type_count {
	uint64_t count, bytes;
};

struct event_count {
	uint64_t samples, period, lost;
};

struct filestat {
	const struct perf_file *file;
	struct type_count types[NR_TYPES];
	struct array other;		/* struct other_type: types >= NR_TYPES */
	struct array events;		/* struct event_count, by attr index */
	uint64_t unknown_samples;
	uint64_t first_time, last_time;
	int have_time;
	const char *profile;		/* filestat__set_profile: borrowed */
	int raw_csv;			/* filestat__set_raw_csv */
	uint64_t lost_total;		/* the lost fields of the LOST records */
	struct group group;		/* read-group samples (group.h) */
};

struct other_type {
	uint32_t type;
	struct type_count c;
};

int filestat__new(struct filestat **out, const struct perf_file *f)
{
	struct filestat *fs = calloc(1, sizeof(*fs));

	*out = NULL;
	if (!fs)
		return -ENOMEM;
	fs->file = f;
	fs->first_time = UINT64_MAX;
	array__init(&fs->other, sizeof(struct other_type));
	array__init(&fs->events, sizeof(struct event_count));
	group__init(&fs->group);
	*out = fs;
	return 0;
}

void filestat__delete(struct filestat *fs)
{
	if (!fs)
		return;
	array__release(&fs->other);
	array__release(&fs->events);
	group__release(&fs->group);
	free(fs);
}

static struct event_count *event_of(struct filestat *fs, const struct perf_evattr *a)
{
	if ((size_t)a->idx < fs->events.len)
		return &ARRAY_AT(&fs->events, struct event_count, a->idx);
	while (fs->events.len <= (size_t)a->idx) {
		if (!array__push(&fs->events))
			return NULL;
	}
	return &ARRAY_AT(&fs->events, struct event_count, a->idx);
}

static struct type_count *type_of(struct filestat *fs, uint32_t type)
{
	struct other_type *o;
	size_t i;

	if (type < NR_TYPES)
		return &fs->types[type];
	for (i = 0; i < fs->other.len; i++) {
		o = &ARRAY_AT(&fs->other, struct other_type, i);
		if (o->type == type)
			return &o->c;
	}
	o = array__push(&fs->other);
	if (!o)
		return NULL;
	o->type = type;
	return &o->c;
}

static const struct perf_evattr *attr_by_id(const struct perf_file *f, uint64_t id)
{
	const struct perf_evlist *el = perf_file__evlist(f);
	void **slot;

	if (el->nr == 1)
		return &el->attrs[0];
	slot = hashmap__find(&el->id_map, &id, 8);
	return slot ? &el->attrs[(uintptr_t)*slot - 1] : NULL;
}

/*
 * The event of a LOST_SAMPLES record the reader could not place by id, as
 * perf's evlist__id2evsel(): the first event when there is one, or the id is
 * 0 (or absent), or the file has no sample_id_all; else none
 */
static const struct perf_evattr *lost_samples_attr(const struct perf_file *f, const struct perf_record *rec)
{
	const struct perf_evlist *el = perf_file__evlist(f);
	uint64_t id = (rec->sample.sample_type & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)) ? rec->sample.id : 0;

	if (!el->nr)
		return NULL;
	if (el->nr == 1 || !id || !el->sample_id_all)
		return &el->attrs[0];
	return attr_by_id(f, id);
}

/* a sample into its event's counts */
static void count_into(struct event_count *e, const struct perf_evattr *a, const struct perf_record *rec)
{
	e->samples++;
	e->period += (rec->sample.sample_type & PERF_SAMPLE_PERIOD) ? rec->sample.period :
		     a->attr.freq ? 1 : a->attr.sample_period;
}

/* one sample as perf delivers it (group.h) into its event's counts */
static int count_sample(void *ctx, struct perf_record *rec)
{
	struct filestat *fs = ctx;
	struct event_count *e = event_of(fs, rec->evattr);

	if (!e)
		return -ENOMEM;
	count_into(e, rec->evattr, rec);
	return 0;
}

static void count_type(struct type_count *t, const struct perf_record *rec)
{
	t->count++;
	t->bytes += rec->size + rec->payload_size;
}

/* first_time starts at UINT64_MAX and last_time at 0: the first time is both */
static void note_time(struct filestat *fs, const struct perf_record *rec)
{
	if (rec->sample.sample_type & PERF_SAMPLE_TIME) {
		if (rec->sample.time < fs->first_time)
			fs->first_time = rec->sample.time;
		if (rec->sample.time > fs->last_time)
			fs->last_time = rec->sample.time;
		fs->have_time = 1;
	}
}

/* every record but filestat__add()'s common sample.  Out of line, so that that one saves no registers */
static int __attribute__((noinline)) add_record(struct filestat *fs, const struct perf_record *rec)
{
	struct type_count *t = rec->type < NR_TYPES ? &fs->types[rec->type] : type_of(fs, rec->type);
	const struct perf_evattr *a = rec->evattr;
	struct event_count *e;

	if (!t)
		return -ENOMEM;
	count_type(t, rec);
	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		if (!a) {
			fs->unknown_samples++;
			return 0;
		}
		note_time(fs, rec);
		/* a read group's values are samples of their own events, as perf delivers them */
		return group__deliver(&fs->group, fs->file, (struct perf_record *)rec, count_sample, fs);
	case PERF_RECORD_LOST:
		/*
		 * The ring buffer's losses, all its events together: perf counts
		 * them as chunks (its "lost N chunks" warning), not per event
		 */
		fs->lost_total += rec->u.lost.lost;
		break;
	case PERF_RECORD_LOST_SAMPLES:
		/* per event, as perf report's "Total Lost Samples" (evlist__id2evsel) */
		if (!a)
			a = lost_samples_attr(fs->file, rec);
		if (a && (e = event_of(fs, a)))
			e->lost += rec->u.lost.lost;
		break;
	default:
		break;
	}
	return 0;
}

int filestat__add(struct filestat *fs, const struct perf_record *rec)
{
	const struct perf_evattr *a = rec->evattr;

	/* a sample of an event counted before, without read values */
	if (rec->type == PERF_RECORD_SAMPLE && a && !(rec->sample.sample_type & PERF_SAMPLE_READ) &&
	    (size_t)a->idx < fs->events.len) {
		count_type(&fs->types[PERF_RECORD_SAMPLE], rec);
		note_time(fs, rec);
		count_into(&ARRAY_AT(&fs->events, struct event_count, a->idx), a, rec);
		return 0;
	}
	return add_record(fs, rec);
}

static void stat_row(struct csv *c, uint32_t type, const struct type_count *t)
{
	const char *name = perf_record_type__name(type);
	char buf[32];

	if (!name) {
		snprintf(buf, sizeof(buf), "UNKNOWN(%u)", type);
		name = buf;
	}
	csv__str(c, name);
	csv__u64(c, t->count);
	csv__u64(c, t->bytes);
	csv__end_row(c);
}

static int cmp_other(const void *a, const void *b)
{
	const struct other_type *x = a, *y = b;

	return x->type < y->type ? -1 : x->type > y->type;
}

int filestat__write_stat(const struct filestat *fs, const char *dir)
{
	struct csv c;
	uint32_t i;
	int err = csv__open(&c, dir, "stat.csv");

	if (err)
		return err;
	csv__prefix(&c, "profile", fs->profile);
	csv__set_raw_text(&c, fs->raw_csv);
	report__header(&c, stat_cols);
	for (i = 0; i < NR_TYPES; i++)
		if (fs->types[i].count)
			stat_row(&c, i, &fs->types[i]);
	if (fs->other.len)
		qsort(fs->other.data, fs->other.len, sizeof(struct other_type), cmp_other);
	for (i = 0; i < fs->other.len; i++) {
		const struct other_type *o = &ARRAY_AT(&fs->other, struct other_type, i);

		stat_row(&c, o->type, &o->c);
	}
	return csv__commit(&c);
}

void filestat__set_profile(struct filestat *fs, const char *profile)
{
	fs->profile = profile;
}

void filestat__set_raw_csv(struct filestat *fs, int raw)
{
	fs->raw_csv = raw;
}

uint64_t filestat__duration(const struct filestat *fs)
{
	return fs->have_time && fs->last_time > fs->first_time ? fs->last_time - fs->first_time : 0;
}

/* one column of events.csv summed over the events: offsetof a uint64_t field of struct event_count */
static uint64_t events_sum(const struct filestat *fs, size_t field)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < fs->events.len; i++)
		n += *(const uint64_t *)((const char *)&ARRAY_AT(&fs->events, struct event_count, i) + field);
	return n;
}

uint64_t filestat__samples(const struct filestat *fs)
{
	return events_sum(fs, offsetof(struct event_count, samples));
}

void filestat__losses(const struct filestat *fs, struct filestat_losses *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < NR_TYPES; i++)
		out->records += fs->types[i].count;
	for (i = 0; i < fs->other.len; i++)
		out->records += ARRAY_AT(&fs->other, struct other_type, i).c.count;
	out->chunks = fs->types[PERF_RECORD_LOST].count;
	out->chunk_samples = fs->lost_total;
	out->samples = fs->types[PERF_RECORD_SAMPLE].count;
	out->lost_samples = filestat__lost(fs);
}

uint64_t filestat__lost(const struct filestat *fs)
{
	return events_sum(fs, offsetof(struct event_count, lost));
}

int filestat__write_events(const struct filestat *fs, const char *dir)
{
	const struct perf_evlist *el = perf_file__evlist(fs->file);
	struct strbuf sb = STRBUF_INIT;
	struct csv c;
	size_t i;
	int err = csv__open(&c, dir, "events.csv");

	if (err)
		return err;
	csv__prefix(&c, "profile", fs->profile);
	csv__set_raw_text(&c, fs->raw_csv);
	report__header(&c, events_cols);
	for (i = 0; i < el->nr; i++) {
		const struct perf_evattr *a = &el->attrs[i];
		static const struct event_count zero;
		const struct event_count *e = i < fs->events.len ?
			&ARRAY_AT(&fs->events, struct event_count, i) : &zero;

		csv__str(&c, a->name);
		csv__u64(&c, a->attr.type);
		csv__hex(&c, a->attr.config);
		strbuf__reset(&sb);
		if (perf_sample_type__format(a->attr.sample_type, &sb))
			err = -ENOMEM;
		csv__str(&c, sb.buf);
		/* attr.sample_period and sample_freq share a field: the one not in use is 0 */
		csv__u64(&c, a->attr.freq ? 0 : a->attr.sample_period);
		csv__u64(&c, a->attr.freq ? a->attr.sample_period : 0);
		csv__u64(&c, e->samples);
		csv__u64(&c, e->period);
		csv__u64(&c, e->lost);
		csv__end_row(&c);
	}
	strbuf__release(&sb);
	if (err) {
		csv__abort(&c);
		return err;
	}
	return csv__commit(&c);
}

int filestat__write_header(const struct filestat *fs, const char *dir)
{
	const struct perf_features *ft = perf_file__features(fs->file);
	const struct perf_evlist *el = perf_file__evlist(fs->file);
	struct strbuf sb = STRBUF_INIT;
	struct csv c;
	size_t i;
	int err = csv__open(&c, dir, "header.csv");

	if (err)
		return err;
	csv__prefix(&c, "profile", fs->profile);
	csv__set_raw_text(&c, fs->raw_csv);
	report__header(&c, header_cols);
	for (i = 0; i < ft->facts.len; i++) {
		const struct perf_fact *fact = &ARRAY_AT(&ft->facts, struct perf_fact, i);

		csv__row(&c, (const char *const[]){ fact->section, fact->key, fact->value, NULL });
	}
	for (i = 0; i < el->nr; i++) {
		const struct perf_evattr *a = &el->attrs[i];

		strbuf__reset(&sb);
		err |= strbuf__addf(&sb, "type=%u config=%#llx size=%u sample_type=",
				    a->attr.type, (unsigned long long)a->attr.config, a->file_attr_size);
		err |= perf_sample_type__format(a->attr.sample_type, &sb);
		err |= strbuf__addf(&sb, " %s=%llu ids=%zu", a->attr.freq ? "sample_freq" : "sample_period",
				    (unsigned long long)a->attr.sample_period, a->nr_ids);
		csv__row(&c, (const char *const[]){ "event", a->name, sb.buf, NULL });
	}
	if (fs->have_time) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%" PRIu64, fs->first_time);
		csv__row(&c, (const char *const[]){ "samples", "first_time", buf, NULL });
		snprintf(buf, sizeof(buf), "%" PRIu64, fs->last_time);
		csv__row(&c, (const char *const[]){ "samples", "last_time", buf, NULL });
	}
	if (fs->unknown_samples) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%" PRIu64, fs->unknown_samples);
		csv__row(&c, (const char *const[]){ "samples", "unknown_id", buf, NULL });
	}
	strbuf__release(&sb);
	if (err) {
		csv__abort(&c);
		return -ENOMEM;
	}
	return csv__commit(&c);
}

/* ------------------------------------------------------------ registry */

static int stat_write(void *state, struct analysis *a, const char *dir)
{
	(void)a;
	return filestat__write_stat(state, dir);
}

static int events_write(void *state, struct analysis *a, const char *dir)
{
	(void)a;
	return filestat__write_events(state, dir);
}

static int header_write(void *state, struct analysis *a, const char *dir)
{
	(void)a;
	return filestat__write_header(state, dir);
}

static const struct report_output filestat_outputs[] = {
	{ .name = "stat", .columns = stat_cols, .write = stat_write },
	{ .name = "events", .columns = events_cols, .write = events_write },
	{ .name = "header", .columns = header_cols, .write = header_write },
	{ .name = NULL }
};

/* the reader's count of the file: its state is the struct filestat */
const struct report_ops filestat_report = {
	.name = "filestat",
	.source = REPORT_FROM_FILE,
	.outputs = filestat_outputs,
};

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The tests' perf.data emitter (see perfemit.h): bytes in either order,
 * records, attrs, build ids and PERFILE2 or pipe-mode files, laid out as
 * tools/perf/util/header.c writes them (Linux 6.1).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perffile/record.h"	/* the user record type numbers only */
#include "tests/lib/perfemit.h"

#define PERFILE2_MAGIC 0x32454c4946524550ULL	/* "PERFILE2" */
#define HEADER_SIZE 104
#define PIPE_HEADER_SIZE 16

void perfemit__init(struct perfemit *o, int be)
{
	memset(o, 0, sizeof(*o));
	o->be = be;
}

void perfemit__release(struct perfemit *o)
{
	int be = o->be;

	free(o->p);
	perfemit__init(o, be);
}

static void reserve(struct perfemit *o, size_t n)
{
	if (o->cap - o->len >= n)
		return;
	while (o->cap - o->len < n)
		o->cap = o->cap ? o->cap * 2 : 4096;
	o->p = realloc(o->p, o->cap);
	if (!o->p) {
		fputs("perfemit: out of memory\n", stderr);
		abort();
	}
}

void perfemit__bytes(struct perfemit *o, const void *d, size_t n)
{
	reserve(o, n);
	if (n)
		memcpy(o->p + o->len, d, n);
	o->len += n;
}

void perfemit__zero(struct perfemit *o, size_t n)
{
	reserve(o, n);
	if (n)
		memset(o->p + o->len, 0, n);
	o->len += n;
}

void perfemit__uint(struct perfemit *o, uint64_t v, unsigned n)
{
	uint8_t b[8];
	unsigned i;

	for (i = 0; i < n; i++)
		b[o->be ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
	perfemit__bytes(o, b, n);
}

void perfemit__put(struct perfemit *o, size_t off, uint64_t v, unsigned n)
{
	size_t save = o->len;

	o->len = off;
	perfemit__uint(o, v, n);
	o->len = save;
}

void perfemit__pad(struct perfemit *o, size_t start, size_t align)
{
	perfemit__zero(o, (align - (o->len - start) % align) % align);
}

void perfemit__str(struct perfemit *o, const char *s, size_t align)
{
	size_t n = strlen(s) + 1;

	perfemit__bytes(o, s, n);
	perfemit__zero(o, (align - n % align) % align);
}

void perfemit__feat_string(struct perfemit *o, const char *s)
{
	size_t n = strlen(s) + 1, len = (n + 63) / 64 * 64;

	perfemit__u32(o, len);
	perfemit__bytes(o, s, n);
	perfemit__zero(o, len - n);
}

/*
 * For 1-bit fields the big-endian word is the per-byte bit reversal that
 * perf's swap_bitfield() undoes (session.c); multi-bit fields are what
 * evsel__bitfield_swap_branch_flags() (evsel.c) undoes.
 */
void perfemit__bitfield(struct perfemit *o, uint64_t v, const unsigned char *widths)
{
	uint64_t w = 0;
	unsigned pos = 0, i;

	if (!o->be) {
		perfemit__u64(o, v);
		return;
	}
	for (i = 0; pos < 64 && widths[i]; i++) {
		unsigned n = widths[i];
		uint64_t mask = n == 64 ? ~0ULL : (1ULL << n) - 1;
		uint64_t field = (v >> pos) & mask;

		w |= field << (64 - pos - n);
		pos += n;
	}
	perfemit__u64(o, w);
}

/* struct perf_event_attr's flags: 15 one-bit fields, precise_ip:2, 21 one-bit fields, __reserved_1:26 */
const unsigned char perfemit_attr_flag_widths[] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 26, 0
};

/* struct perf_branch_flags: mispred, predicted, in_tx, abort, cycles:16, type:4, spec:2, new_type:4, priv:3, reserved:31 */
const unsigned char perfemit_branch_flag_widths[] = { 1, 1, 1, 1, 16, 4, 2, 4, 3, 31, 0 };

static uint64_t attr_flags(const struct perf_event_attr *attr)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)attr + offsetof(struct perf_event_attr, read_format) + 8, 8);
	return v;
}

void perfemit__sw_attr(struct perf_event_attr *a, uint64_t config, uint64_t period, uint64_t sample_type)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_SOFTWARE;
	a->config = config;
	a->sample_period = period;
	a->sample_type = sample_type;
	a->sample_id_all = 1;
}

void perfemit__attr(struct perfemit *o, const struct perf_event_attr *a, uint32_t size)
{
	struct perfemit t;
	uint32_t i;

	perfemit__init(&t, o->be);
	perfemit__u32(&t, a->type);
	perfemit__u32(&t, size);
	perfemit__u64(&t, a->config);
	perfemit__u64(&t, a->sample_period);
	perfemit__u64(&t, a->sample_type);
	perfemit__u64(&t, a->read_format);
	perfemit__bitfield(&t, attr_flags(a), perfemit_attr_flag_widths);
	perfemit__u32(&t, a->wakeup_events);
	perfemit__u32(&t, a->bp_type);
	perfemit__u64(&t, a->config1);
	perfemit__u64(&t, a->config2);			/* 64 */
	perfemit__u64(&t, a->branch_sample_type);
	perfemit__u64(&t, a->sample_regs_user);
	perfemit__u32(&t, a->sample_stack_user);
	perfemit__u32(&t, (uint32_t)a->clockid);
	perfemit__u64(&t, a->sample_regs_intr);		/* 96 */
	perfemit__u32(&t, a->aux_watermark);
	perfemit__u16(&t, a->sample_max_stack);
	perfemit__u16(&t, 0);
	perfemit__u32(&t, a->aux_sample_size);
	perfemit__u32(&t, 0);
	perfemit__u64(&t, a->sig_data);			/* 128 */
	for (i = 128; i < size; i++)		/* fields this perf does not know */
		perfemit__u8(&t, 0xa0 + (i & 0xf));
	perfemit__bytes(o, t.p, size);
	perfemit__release(&t);
}

size_t perfemit__rec_begin(struct perfemit *o, uint32_t type, uint16_t misc)
{
	size_t start = o->len;

	perfemit__u32(o, type);
	perfemit__u16(o, misc);
	perfemit__u16(o, 0);
	return start;
}

size_t perfemit__rec_end(struct perfemit *o, size_t start, int pad)
{
	if (pad)
		perfemit__pad(o, start, 8);
	if (o->len - start > 0xffff) {
		fputs("perfemit: record too large\n", stderr);
		abort();
	}
	perfemit__put(o, start + 6, o->len - start, 2);
	return start;
}

uint32_t perfemit__rec_type(const struct perfemit *o, size_t start)
{
	uint32_t type;

	memcpy(&type, o->p + start, 4);
	return o->be ? __builtin_bswap32(type) : type;
}

void perfemit__sample_id(struct perfemit *o, uint64_t sample_type, const struct perfemit_sample_id *s)
{
	if (sample_type & PERF_SAMPLE_TID)
		perfemit__u32x2(o, s->pid, s->tid);
	if (sample_type & PERF_SAMPLE_TIME)
		perfemit__u64(o, s->time);
	if (sample_type & PERF_SAMPLE_ID)
		perfemit__u64(o, s->id);
	if (sample_type & PERF_SAMPLE_STREAM_ID)
		perfemit__u64(o, s->stream_id);
	if (sample_type & PERF_SAMPLE_CPU)
		perfemit__u32x2(o, s->cpu, 0);
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		perfemit__u64(o, s->id);
}

void perfemit__build_id(struct perfemit *o, uint16_t misc, int32_t pid, const uint8_t *id, uint8_t size,
			const char *name, size_t name_len, int old_abi)
{
	size_t start = perfemit__rec_begin(o, PERF_RECORD_HEADER_BUILD_ID, misc);
	uint8_t area[24];

	memset(area, 0, sizeof(area));
	memcpy(area, id, size);
	area[20] = size;
	if (!old_abi)
		perfemit__u32(o, (uint32_t)pid);
	perfemit__bytes(o, area, sizeof(area));
	perfemit__bytes(o, name, strlen(name) + 1);
	perfemit__zero(o, name_len - strlen(name) - 1);
	perfemit__rec_end(o, start, 0);
}

int perfemit__spec(struct perfemit *o, const char *spec)
{
	while (*spec) {
		size_t n = strcspn(spec, " "), klen;
		const char *colon = memchr(spec, ':', n), *val;
		char text[256], *end;
		uint64_t v;

		if (!n) {
			spec++;
			continue;
		}
		if (!colon || (size_t)(spec + n - colon - 1) >= sizeof(text))
			return -EINVAL;
		klen = (size_t)(colon - spec);
		val = colon + 1;
		memcpy(text, val, (size_t)(spec + n - val));
		text[spec + n - val] = 0;
		if (klen == 1 && *spec == 'c') {
			perfemit__bytes(o, text, strlen(text));
		} else if (klen == 1 && *spec == 's') {
			perfemit__feat_string(o, text);
		} else {
			v = strtoull(text, &end, 0);
			if (!*text || *end)
				return -EINVAL;
			if (klen == 1 && *spec == 'z')
				perfemit__zero(o, v);
			else if (klen == 1 && *spec == 'a' && v)
				perfemit__pad(o, 0, v);
			else if (klen == 2 && !memcmp(spec, "u8", 2))
				perfemit__u8(o, v);
			else if (klen == 3 && !memcmp(spec, "u16", 3))
				perfemit__u16(o, v);
			else if (klen == 3 && !memcmp(spec, "u32", 3))
				perfemit__u32(o, v);
			else if (klen == 3 && !memcmp(spec, "u64", 3))
				perfemit__u64(o, v);
			else
				return -EINVAL;
		}
		spec += n;
	}
	return 0;
}

void perfemit__file(struct perfemit *o, const struct perfemit_file *f, struct perfemit_layout *lay)
{
	struct perfemit_layout local;
	uint64_t feats = 0, base = o->len, attr_sz = f->attr_size + 16, ids_off, off;
	size_t a, j;
	unsigned i, nr = 0;

	if (!lay)
		lay = &local;
	memset(lay, 0, sizeof(*lay));
	for (i = 1; i < PERFEMIT_MAX_FEAT; i++) {
		if (f->feat[i]) {
			feats |= 1ULL << i;
			nr++;
		}
	}
	ids_off = HEADER_SIZE + f->nr_attrs * attr_sz;
	off = ids_off;
	for (a = 0; a < f->nr_attrs; a++)
		off += 8 * (uint64_t)f->attrs[a].nr_ids;
	lay->data_offset = off;
	lay->table_offset = off + f->data->len;

	perfemit__u64(o, PERFILE2_MAGIC);
	perfemit__u64(o, HEADER_SIZE);
	perfemit__u64(o, attr_sz);
	perfemit__u64(o, HEADER_SIZE);			/* attrs */
	perfemit__u64(o, f->nr_attrs * attr_sz);
	perfemit__u64(o, lay->data_offset);		/* data */
	perfemit__u64(o, f->data->len);
	perfemit__u64(o, 0);				/* event_types */
	perfemit__u64(o, 0);
	perfemit__u64(o, feats);			/* the feature bitmap, 256 bits */
	perfemit__zero(o, 24);
	off = ids_off;
	for (a = 0; a < f->nr_attrs; a++) {
		perfemit__attr(o, f->attrs[a].attr, f->attr_size);
		perfemit__u64(o, f->attrs[a].nr_ids ? off : 0);
		perfemit__u64(o, 8 * (uint64_t)f->attrs[a].nr_ids);
		off += 8 * (uint64_t)f->attrs[a].nr_ids;
	}
	for (a = 0; a < f->nr_attrs; a++)
		for (j = 0; j < f->attrs[a].nr_ids; j++)
			perfemit__u64(o, f->attrs[a].ids[j]);
	perfemit__bytes(o, f->data->p, f->data->len);
	off = lay->table_offset + 16ULL * nr;
	for (i = 1; i < PERFEMIT_MAX_FEAT; i++) {
		if (!f->feat[i])
			continue;
		lay->feat_entry[i] = o->len - base;
		lay->feat_offset[i] = off;
		perfemit__u64(o, off);
		perfemit__u64(o, f->feat[i]->len);
		off += f->feat[i]->len;
	}
	for (i = 1; i < PERFEMIT_MAX_FEAT; i++)
		if (f->feat[i])
			perfemit__bytes(o, f->feat[i]->p, f->feat[i]->len);
}

size_t perfemit__pipe(struct perfemit *o, const struct perfemit_file *f)
{
	size_t a, j, nr = 0, s;
	unsigned i;

	perfemit__u64(o, PERFILE2_MAGIC);
	perfemit__u64(o, PIPE_HEADER_SIZE);
	for (a = 0; a < f->nr_attrs; a++) {
		s = perfemit__rec_begin(o, PERF_RECORD_HEADER_ATTR, 0);
		perfemit__attr(o, f->attrs[a].attr, f->attr_size);
		for (j = 0; j < f->attrs[a].nr_ids; j++)
			perfemit__u64(o, f->attrs[a].ids[j]);
		perfemit__rec_end(o, s, 0);
	}
	for (i = 1; i <= PERFEMIT_MAX_FEAT; i++) {
		const struct perfemit *sec = i < PERFEMIT_MAX_FEAT ? f->feat[i] : NULL;

		if (i != PERFEMIT_MAX_FEAT && (i == 2 /* BUILD_ID */ || !sec))
			continue;
		if (i == PERFEMIT_MAX_FEAT && f->no_feature_end)
			break;
		s = perfemit__rec_begin(o, PERF_RECORD_HEADER_FEATURE, 0);
		perfemit__u64(o, i);	/* PERFEMIT_MAX_FEAT: the end mark */
		if (sec)
			perfemit__bytes(o, sec->p, sec->len);
		perfemit__rec_end(o, s, 0);
		nr++;
	}
	perfemit__bytes(o, f->data->p, f->data->len);
	return nr;
}

/* ------------------------------------------- a small file in one call each */

size_t pe__attr(struct pe *e, uint64_t sample_type, uint64_t period)
{
	struct perf_event_attr *a = &e->attrs[e->nr_attrs];

	if (e->nr_attrs >= PE_MAX_ATTRS)
		abort();
	/* cpu-clock, task-clock */
	perfemit__sw_attr(a, PERF_COUNT_SW_CPU_CLOCK + e->nr_attrs, period, sample_type | PERF_SAMPLE_IDENTIFIER);
	a->exclude_guest = 1;	/* as perf record sets it: the name has no ":HG" */
	e->ids[e->nr_attrs] = 100 + e->nr_attrs;
	return e->nr_attrs++;
}

/* the record's sample_id_all trailer, then its size */
static void pe_end(struct pe *e, size_t start, size_t ev, uint32_t pid, uint32_t tid, uint64_t time)
{
	const struct perfemit_sample_id sid = { .pid = pid, .tid = tid, .time = time, .id = e->ids[ev] };

	perfemit__sample_id(&e->data, e->attrs[ev].sample_type & ~(uint64_t)(PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID),
			    &sid);
	perfemit__rec_end(&e->data, start, 1);
}

void pe__sample(struct pe *e, size_t ev, uint16_t misc, uint64_t ip, uint32_t pid, uint32_t tid,
		uint64_t time, uint64_t period, const uint64_t *chain, uint64_t nr_chain)
{
	struct perfemit *o = &e->data;
	uint64_t st = e->attrs[ev].sample_type, i;
	size_t start = perfemit__rec_begin(o, PERF_RECORD_SAMPLE, misc);

	perfemit__u64(o, e->ids[ev]);
	if (st & PERF_SAMPLE_IP)
		perfemit__u64(o, ip);
	if (st & PERF_SAMPLE_TID)
		perfemit__u32x2(o, pid, tid);
	if (st & PERF_SAMPLE_TIME)
		perfemit__u64(o, time);
	if (st & PERF_SAMPLE_CPU)
		perfemit__u32x2(o, 0, 0);
	if (st & PERF_SAMPLE_PERIOD)
		perfemit__u64(o, period);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		perfemit__u64(o, nr_chain);
		for (i = 0; i < nr_chain; i++)
			perfemit__u64(o, chain[i]);
	}
	perfemit__rec_end(o, start, 1);
}

void pe__comm(struct pe *e, size_t ev, uint32_t pid, uint32_t tid, const char *comm, int exec,
	      uint64_t time)
{
	size_t start = perfemit__rec_begin(&e->data, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0);

	perfemit__u32x2(&e->data, pid, tid);
	perfemit__str(&e->data, comm, 8);
	pe_end(e, start, ev, pid, tid, time);
}

void pe__mmap(struct pe *e, size_t ev, uint16_t misc, uint32_t pid, uint32_t tid, uint64_t start,
	      uint64_t len, uint64_t pgoff, const char *file, uint64_t time)
{
	size_t at = perfemit__rec_begin(&e->data, PERF_RECORD_MMAP, misc);

	perfemit__u32x2(&e->data, pid, tid);
	perfemit__u64(&e->data, start);
	perfemit__u64(&e->data, len);
	perfemit__u64(&e->data, pgoff);
	perfemit__str(&e->data, file, 8);
	pe_end(e, at, ev, pid, tid, time);
}

void pe__round(struct pe *e)
{
	perfemit__rec_end(&e->data, perfemit__rec_begin(&e->data, PERF_RECORD_FINISHED_ROUND, 0), 1);
}

uint8_t *pe__file(struct pe *e, size_t *size)
{
	struct perfemit_attr attrs[PE_MAX_ATTRS];
	struct perfemit_file f = {
		.attr_size = 128,	/* PERF_ATTR_SIZE_VER7: no bytes this reader does not know */
		.attrs = attrs,
		.nr_attrs = e->nr_attrs,
		.data = &e->data,
	};
	struct perfemit out;
	size_t i;

	for (i = 0; i < e->nr_attrs; i++) {
		attrs[i].attr = &e->attrs[i];
		attrs[i].ids = &e->ids[i];
		attrs[i].nr_ids = 1;
	}
	perfemit__init(&out, 0);
	perfemit__file(&out, &f, NULL);
	*size = out.len;
	return out.p;
}

void pe__release(struct pe *e)
{
	perfemit__release(&e->data);
	memset(e, 0, sizeof(*e));
}

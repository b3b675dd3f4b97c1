/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Test-local perf.data emitter for test-ordered and test-analysis: a PERFILE2
 * file in memory (header, ids, attrs, data; no feature sections), host byte
 * order, with records laid out as include/uapi/linux/perf_event.h says.
 * Every attr gets one id (100 + index) and sample_id_all; samples and
 * trailers carry PERF_SAMPLE_IDENTIFIER so several attrs can be mixed.
 */
#ifndef TESTS_UNIT_PERFEMIT_H
#define TESTS_UNIT_PERFEMIT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#define PE_MAX_ATTRS 4

struct pe {
	struct perf_event_attr attrs[PE_MAX_ATTRS];
	size_t nr_attrs;
	uint8_t *data;
	size_t len, cap;
};

static inline void pe_bytes(struct pe *e, const void *p, size_t n)
{
	if (e->len + n > e->cap) {
		size_t cap = e->cap ? e->cap : 4096;

		while (cap < e->len + n)
			cap *= 2;
		e->data = realloc(e->data, cap);
		if (!e->data)
			abort();
		e->cap = cap;
	}
	memcpy(e->data + e->len, p, n);
	e->len += n;
}

static inline void pe_u64(struct pe *e, uint64_t v) { pe_bytes(e, &v, 8); }

static inline void pe_u32x2(struct pe *e, uint32_t a, uint32_t b)
{
	pe_bytes(e, &a, 4);
	pe_bytes(e, &b, 4);
}

/* add an event; returns its index */
static inline size_t pe_attr(struct pe *e, uint64_t sample_type, uint64_t period)
{
	struct perf_event_attr *a = &e->attrs[e->nr_attrs];

	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK + e->nr_attrs;	/* cpu-clock, task-clock */
	a->size = sizeof(*a);
	a->sample_period = period;
	a->sample_type = sample_type | PERF_SAMPLE_IDENTIFIER;
	a->sample_id_all = 1;
	a->exclude_guest = 1;	/* as perf record sets it: the name has no ":HG" */
	return e->nr_attrs++;
}

static inline size_t pe_begin(struct pe *e, uint32_t type, uint16_t misc)
{
	size_t at = e->len;
	struct perf_event_header h = { type, misc, 0 };

	pe_bytes(e, &h, sizeof(h));
	return at;
}

static inline void pe_end(struct pe *e, size_t at)
{
	struct perf_event_header *h = (void *)(e->data + at);

	while ((e->len - at) % 8)
		pe_bytes(e, "", 1);
	h->size = (uint16_t)(e->len - at);
}

static inline void pe_str(struct pe *e, const char *s)
{
	pe_bytes(e, s, strlen(s) + 1);
	while (e->len % 8)
		pe_bytes(e, "", 1);
}

/* sample_id_all trailer of attr ev: TID TIME ID STREAM_ID CPU IDENTIFIER */
static inline void pe_trailer(struct pe *e, size_t ev, uint32_t pid, uint32_t tid, uint64_t time)
{
	uint64_t st = e->attrs[ev].sample_type;

	if (st & PERF_SAMPLE_TID)
		pe_u32x2(e, pid, tid);
	if (st & PERF_SAMPLE_TIME)
		pe_u64(e, time);
	if (st & PERF_SAMPLE_CPU)
		pe_u32x2(e, 0, 0);
	pe_u64(e, 100 + ev);
}

/* a SAMPLE: IDENTIFIER IP TID TIME CPU PERIOD CALLCHAIN as sample_type says */
static inline void pe_sample(struct pe *e, size_t ev, uint16_t misc, uint64_t ip, uint32_t pid,
			     uint32_t tid, uint64_t time, uint64_t period, const uint64_t *chain,
			     uint64_t nr_chain)
{
	uint64_t st = e->attrs[ev].sample_type, i;
	size_t at = pe_begin(e, PERF_RECORD_SAMPLE, misc);

	pe_u64(e, 100 + ev);
	if (st & PERF_SAMPLE_IP)
		pe_u64(e, ip);
	if (st & PERF_SAMPLE_TID)
		pe_u32x2(e, pid, tid);
	if (st & PERF_SAMPLE_TIME)
		pe_u64(e, time);
	if (st & PERF_SAMPLE_CPU)
		pe_u32x2(e, 0, 0);
	if (st & PERF_SAMPLE_PERIOD)
		pe_u64(e, period);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		pe_u64(e, nr_chain);
		for (i = 0; i < nr_chain; i++)
			pe_u64(e, chain[i]);
	}
	pe_end(e, at);
}

static inline void pe_comm(struct pe *e, size_t ev, uint32_t pid, uint32_t tid, const char *comm,
			   int exec, uint64_t time)
{
	size_t at = pe_begin(e, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0);

	pe_u32x2(e, pid, tid);
	pe_str(e, comm);
	pe_trailer(e, ev, pid, tid, time);
	pe_end(e, at);
}

static inline void pe_fork(struct pe *e, size_t ev, uint32_t type, uint32_t pid, uint32_t ppid,
			   uint32_t tid, uint32_t ptid, uint64_t time)
{
	size_t at = pe_begin(e, type, 0);

	pe_u32x2(e, pid, ppid);
	pe_u32x2(e, tid, ptid);
	pe_u64(e, time);
	pe_trailer(e, ev, pid, tid, time);
	pe_end(e, at);
}

static inline void pe_mmap(struct pe *e, size_t ev, uint16_t misc, uint32_t pid, uint32_t tid,
			   uint64_t start, uint64_t len, uint64_t pgoff, const char *file, uint64_t time)
{
	size_t at = pe_begin(e, PERF_RECORD_MMAP, misc);

	pe_u32x2(e, pid, tid);
	pe_u64(e, start);
	pe_u64(e, len);
	pe_u64(e, pgoff);
	pe_str(e, file);
	pe_trailer(e, ev, pid, tid, time);
	pe_end(e, at);
}

static inline void pe_round(struct pe *e)
{
	pe_end(e, pe_begin(e, 68 /* PERF_RECORD_FINISHED_ROUND */, 0));
}

/* the whole file (malloc'd) */
static inline uint8_t *pe_file(struct pe *e, size_t *size)
{
	const size_t hdr = 104, ids = 8 * e->nr_attrs;
	const size_t attr_sz = sizeof(struct perf_event_attr) + 16;
	size_t attrs_off = hdr + ids, data_off = attrs_off + attr_sz * e->nr_attrs, i;
	uint8_t *f = calloc(1, data_off + e->len);
	uint64_t v;

	if (!f)
		abort();
	memcpy(f, "PERFILE2", 8);
	v = hdr;		memcpy(f + 8, &v, 8);
	v = attr_sz;		memcpy(f + 16, &v, 8);
	v = attrs_off;		memcpy(f + 24, &v, 8);
	v = attr_sz * e->nr_attrs; memcpy(f + 32, &v, 8);
	v = data_off;		memcpy(f + 40, &v, 8);
	v = e->len;		memcpy(f + 48, &v, 8);
	/* event_types {0,0} and the feature bitmap stay zero */
	for (i = 0; i < e->nr_attrs; i++) {
		uint8_t *p = f + attrs_off + i * attr_sz;

		v = 100 + i;
		memcpy(f + hdr + 8 * i, &v, 8);
		memcpy(p, &e->attrs[i], sizeof(e->attrs[i]));
		v = hdr + 8 * i;
		memcpy(p + sizeof(e->attrs[i]), &v, 8);
		v = 8;
		memcpy(p + sizeof(e->attrs[i]) + 8, &v, 8);
	}
	memcpy(f + data_off, e->data, e->len);
	*size = data_off + e->len;
	return f;
}

static inline void pe_release(struct pe *e)
{
	free(e->data);
	memset(e, 0, sizeof(*e));
}

#endif

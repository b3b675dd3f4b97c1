/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Record decoding: the attr a record belongs to, every PERF_SAMPLE_* field,
 * the sample_id_all trailer, a typed view of every record type, byte
 * swapping of records written in the other byte order, and a text dump.
 *
 * Layouts: include/uapi/linux/perf_event.h (kernel records) and
 * tools/lib/perf/include/perf/event.h (records perf writes).  Sample parsing
 * follows evsel__parse_sample() and perf_evsel__parse_id_sample() in
 * tools/perf/util/evsel.c; attr lookup follows evlist__event2evsel(); the
 * swap follows the perf_event__*_swap() functions of tools/perf/util/session.c
 * (fields perf forgets to swap, such as MMAP2 prot/flags or KSYMBOL, are
 * swapped here too).
 *
 * Every load is a memcpy from the record bytes and every count is checked
 * against the bytes that remain, in 64 bits, before it is used.
 */
#include <byteswap.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "perffile/perffile.h"
#include "perffile/record.h"
#include "util/hashmap.h"
#include "util/strbuf.h"

/* newer than the 6.1 uapi header */
#define RP_SAMPLE_BRANCH_COUNTERS	(1ULL << 19)
#define RP_SAMPLE_KNOWN			(PERF_SAMPLE_MAX - 1)
#define RP_RECORD_MISC_BUILD_ID_SIZE	(1 << 15)	/* perf/event.h */

#define TRAILER_MASK (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
		      PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

#define HDR 8	/* sizeof(struct perf_event_header) */

/* ------------------------------------------------------------------ names */

static const char *const record_names[] = {
	[PERF_RECORD_MMAP]			= "MMAP",
	[PERF_RECORD_LOST]			= "LOST",
	[PERF_RECORD_COMM]			= "COMM",
	[PERF_RECORD_EXIT]			= "EXIT",
	[PERF_RECORD_THROTTLE]			= "THROTTLE",
	[PERF_RECORD_UNTHROTTLE]		= "UNTHROTTLE",
	[PERF_RECORD_FORK]			= "FORK",
	[PERF_RECORD_READ]			= "READ",
	[PERF_RECORD_SAMPLE]			= "SAMPLE",
	[PERF_RECORD_MMAP2]			= "MMAP2",
	[PERF_RECORD_AUX]			= "AUX",
	[PERF_RECORD_ITRACE_START]		= "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES]		= "LOST_SAMPLES",
	[PERF_RECORD_SWITCH]			= "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE]		= "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES]		= "NAMESPACES",
	[PERF_RECORD_KSYMBOL]			= "KSYMBOL",
	[PERF_RECORD_BPF_EVENT]			= "BPF_EVENT",
	[PERF_RECORD_CGROUP]			= "CGROUP",
	[PERF_RECORD_TEXT_POKE]			= "TEXT_POKE",
	[PERF_RECORD_AUX_OUTPUT_HW_ID]		= "AUX_OUTPUT_HW_ID",
	[22]					= "CALLCHAIN_DEFERRED",	/* newer perf */
	[PERF_RECORD_HEADER_ATTR]		= "ATTR",
	[PERF_RECORD_HEADER_EVENT_TYPE]		= "EVENT_TYPE",
	[PERF_RECORD_HEADER_TRACING_DATA]	= "TRACING_DATA",
	[PERF_RECORD_HEADER_BUILD_ID]		= "BUILD_ID",
	[PERF_RECORD_FINISHED_ROUND]		= "FINISHED_ROUND",
	[PERF_RECORD_ID_INDEX]			= "ID_INDEX",
	[PERF_RECORD_AUXTRACE_INFO]		= "AUXTRACE_INFO",
	[PERF_RECORD_AUXTRACE]			= "AUXTRACE",
	[PERF_RECORD_AUXTRACE_ERROR]		= "AUXTRACE_ERROR",
	[PERF_RECORD_THREAD_MAP]		= "THREAD_MAP",
	[PERF_RECORD_CPU_MAP]			= "CPU_MAP",
	[PERF_RECORD_STAT_CONFIG]		= "STAT_CONFIG",
	[PERF_RECORD_STAT]			= "STAT",
	[PERF_RECORD_STAT_ROUND]		= "STAT_ROUND",
	[PERF_RECORD_EVENT_UPDATE]		= "EVENT_UPDATE",
	[PERF_RECORD_TIME_CONV]			= "TIME_CONV",
	[PERF_RECORD_HEADER_FEATURE]		= "FEATURE",
	[PERF_RECORD_COMPRESSED]		= "COMPRESSED",
	[PERF_RECORD_FINISHED_INIT]		= "FINISHED_INIT",
	[PERF_RECORD_COMPRESSED2]		= "COMPRESSED2",
	[84]					= "BPF_METADATA",	/* newer perf */
	[85]					= "SCHEDSTAT_CPU",
	[86]					= "SCHEDSTAT_DOMAIN",
};

const char *perf_record_type__name(uint32_t type)
{
	if (type >= sizeof(record_names) / sizeof(record_names[0]))
		return NULL;
	return record_names[type];
}

/* ------------------------------------------------------------------ loads */

static inline uint64_t ld64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t ld32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint16_t ld16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline int take64(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	if (end - *p < 8)
		return -1;
	*v = ld64(*p);
	*p += 8;
	return 0;
}

static inline int take_pair(const uint8_t **p, const uint8_t *end, uint32_t *a, uint32_t *b)
{
	if (end - *p < 8)
		return -1;
	*a = ld32(*p);
	*b = ld32(*p + 4);
	*p += 8;
	return 0;
}

/* the string at p if a NUL ends it before end, else NULL */
static const char *str_within(const uint8_t *p, const uint8_t *end)
{
	if (p >= end || !memchr(p, 0, (size_t)(end - p)))
		return NULL;
	return (const char *)p;
}

static int fail(struct perf_record *rec, const char **why, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct perf_record *rec, const char **why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rec->why_buf, sizeof(rec->why_buf), fmt, ap);
	va_end(ap);
	if (why)
		*why = rec->why_buf;
	return -EINVAL;
}

static int short_field(struct perf_record *rec, const char **why, const char *field)
{
	return fail(rec, why, "%s exceeds the record", field);
}

/* ------------------------------------------------------------ attr lookup */

static int calc_id_pos(uint64_t t)
{
	int idx = 0;

	if (t & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(t & PERF_SAMPLE_ID))
		return -1;
	idx += !!(t & PERF_SAMPLE_IP);
	idx += !!(t & PERF_SAMPLE_TID);
	idx += !!(t & PERF_SAMPLE_TIME);
	idx += !!(t & PERF_SAMPLE_ADDR);
	return idx;
}

static int calc_is_pos(uint64_t t)
{
	int idx = 1;

	if (t & PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(t & PERF_SAMPLE_ID))
		return -1;
	idx += !!(t & PERF_SAMPLE_CPU);
	idx += !!(t & PERF_SAMPLE_STREAM_ID);
	return idx;
}

static void prepare_attr(struct perf_evattr *a)
{
	uint64_t t = a->attr.sample_type;

	a->id_pos = calc_id_pos(t);
	a->is_pos = calc_is_pos(t);
	a->trailer_size = a->attr.sample_id_all ? 8 * (size_t)__builtin_popcountll(t & TRAILER_MASK) : 0;
}

void perf_evlist__prepare_last(struct perf_evlist *evlist)
{
	struct perf_evattr *a;

	if (evlist->nr <= 1) {
		perf_evlist__prepare(evlist);
		return;
	}
	/* the others are as they were: only the new one can make a position differ */
	a = &evlist->attrs[evlist->nr - 1];
	prepare_attr(a);
	if (a->id_pos != evlist->id_pos)
		evlist->id_pos = -1;
	if (a->is_pos != evlist->is_pos)
		evlist->is_pos = -1;
}

void perf_evlist__prepare(struct perf_evlist *evlist)
{
	size_t i;

	evlist->id_pos = -1;
	evlist->is_pos = -1;
	evlist->sample_id_all = 0;
	for (i = 0; i < evlist->nr; i++)
		prepare_attr(&evlist->attrs[i]);
	if (!evlist->nr)
		return;
	evlist->id_pos = evlist->attrs[0].id_pos;
	evlist->is_pos = evlist->attrs[0].is_pos;
	evlist->sample_id_all = evlist->attrs[0].attr.sample_id_all;
	for (i = 1; i < evlist->nr; i++) {
		if (evlist->attrs[i].id_pos != evlist->id_pos)
			evlist->id_pos = -1;
		if (evlist->attrs[i].is_pos != evlist->is_pos)
			evlist->is_pos = -1;
	}
}

static const struct perf_evattr *attr_by_id(const struct perf_evlist *el, uint64_t id)
{
	void **slot = hashmap__find(&el->id_map, &id, sizeof(id));
	uintptr_t idx;

	if (!slot)
		return NULL;
	idx = (uintptr_t)*slot;
	if (!idx || idx > el->nr)
		return NULL;
	return &el->attrs[idx - 1];
}

/* byte offset of the u64 at position pos (from the start for SAMPLE, from the end otherwise), or 0 */
static size_t id_offset(int sample, int pos, size_t size)
{
	size_t n = (size - HDR) / 8;

	if (pos < 0)
		return 0;
	if (sample)
		return (size_t)pos < n ? HDR + 8 * (size_t)pos : 0;
	return (size_t)pos <= n && pos > 0 ? HDR + 8 * (n - (size_t)pos) : 0;
}

/*
 * Attrs disagree on where the id is (perf refuses such files): take the
 * first attr whose position holds an id that maps back to an attr with that
 * same position.
 */
static const struct perf_evattr *guess_attr(const struct perf_evlist *el, int sample,
					    const uint8_t *data, size_t size, int foreign,
					    uint64_t *idp)
{
	int any = 0, zero = 0;
	size_t i;

	for (i = 0; i < el->nr; i++) {
		int pos = sample ? el->attrs[i].id_pos : el->attrs[i].is_pos;
		const struct perf_evattr *hit;
		size_t off;
		uint64_t id;

		if (pos < 0)
			continue;
		any = 1;
		off = id_offset(sample, pos, size);
		if (!off)
			continue;
		id = ld64(data + off);
		if (foreign)
			id = bswap_64(id);
		*idp = id;
		if (!id) {
			zero = 1;
			continue;
		}
		hit = attr_by_id(el, id);
		if (hit && (sample ? hit->id_pos : hit->is_pos) == pos)
			return hit;
	}
	/*
	 * No attr records an id, so a non-sample record cannot be told apart;
	 * or a zero id and no match: synthesized, as with one position.
	 */
	if ((!any && !sample) || zero) {
		*idp = 0;
		return &el->attrs[0];
	}
	return NULL;
}

static const struct perf_evattr *find_attr(const struct perf_evlist *el, uint32_t type,
					   const uint8_t *data, size_t size, int foreign,
					   uint64_t *idp)
{
	int sample = type == PERF_RECORD_SAMPLE;
	int pos;
	size_t off;
	uint64_t id;

	*idp = 0;
	if (!el || !el->nr || type >= PERF_RECORD_USER_TYPE_START || size < HDR)
		return NULL;
	if (el->nr == 1)
		return &el->attrs[0];
	if (!sample && !el->sample_id_all)
		return &el->attrs[0];
	pos = sample ? el->id_pos : el->is_pos;
	if (pos < 0)
		return guess_attr(el, sample, data, size, foreign, idp);
	off = id_offset(sample, pos, size);
	if (!off)
		return NULL;
	id = ld64(data + off);
	if (foreign)
		id = bswap_64(id);
	*idp = id;
	/* synthesized records carry id 0 */
	if (!id)
		return &el->attrs[0];
	return attr_by_id(el, id);
}

const struct perf_evattr *perf_evlist__find(const struct perf_evlist *evlist, uint32_t type,
					    const void *data, size_t size)
{
	uint64_t id;

	return find_attr(evlist, type, data, size, 0, &id);
}

/* ------------------------------------------------------------ sample decode */

static int decode_read_values(struct perf_record *rec, const uint8_t **pp, const uint8_t *end,
			      uint64_t fmt, struct perf_sample_read *r, const char **why)
{
	const uint8_t *p = *pp;
	uint64_t first;

	if (take64(&p, end, &first))
		return short_field(rec, why, "read value");
	if ((fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) && take64(&p, end, &r->time_enabled))
		return short_field(rec, why, "read time_enabled");
	if ((fmt & PERF_FORMAT_TOTAL_TIME_RUNNING) && take64(&p, end, &r->time_running))
		return short_field(rec, why, "read time_running");
	if (fmt & PERF_FORMAT_GROUP) {
		unsigned stride = 1 + !!(fmt & PERF_FORMAT_ID) + !!(fmt & PERF_FORMAT_LOST);

		if (first > (uint64_t)(end - p) / (8 * stride))
			return fail(rec, why, "read group nr %" PRIu64 " exceeds the record", first);
		r->nr = first;
		r->group = (const uint64_t *)(const void *)p;
		r->group_stride = stride;
		p += first * 8 * stride;
	} else {
		r->nr = 1;
		r->one.value = first;
		if ((fmt & PERF_FORMAT_ID) && take64(&p, end, &r->one.id))
			return short_field(rec, why, "read id");
		if ((fmt & PERF_FORMAT_LOST) && take64(&p, end, &r->one.lost))
			return short_field(rec, why, "read lost");
	}
	*pp = p;
	return 0;
}

static int decode_regs(struct perf_record *rec, const uint8_t **pp, const uint8_t *end,
		       uint64_t mask, struct perf_sample_regs *r, const char *what, const char **why)
{
	const uint8_t *p = *pp;
	uint64_t nr;

	if (take64(&p, end, &r->abi))
		return short_field(rec, why, what);
	r->mask = mask;
	if (r->abi) {
		nr = (uint64_t)__builtin_popcountll(mask);
		if (nr > (uint64_t)(end - p) / 8)
			return fail(rec, why, "%s: %" PRIu64 " registers exceed the record", what, nr);
		r->regs = (const uint64_t *)(const void *)p;
		r->nr = (unsigned)nr;
		p += nr * 8;
	}
	*pp = p;
	return 0;
}

static int decode_sample(struct perf_record *rec, const struct perf_evattr *ea, const char **why)
{
	const struct perf_event_attr *attr = &ea->attr;
	const uint8_t *base = rec->data;
	const uint8_t *p = base + HDR, *end = base + rec->size;
	struct perf_sample *s = &rec->sample;
	uint64_t type = attr->sample_type;
	uint64_t v;
	int err;

	s->sample_type = type;
	if (type & ~(uint64_t)RP_SAMPLE_KNOWN)
		return fail(rec, why, "sample_type 0x%" PRIx64 " has unknown bits", type);
	if ((type & PERF_SAMPLE_IDENTIFIER) && take64(&p, end, &s->id))
		return short_field(rec, why, "identifier");
	if ((type & PERF_SAMPLE_IP) && take64(&p, end, &s->ip))
		return short_field(rec, why, "ip");
	if ((type & PERF_SAMPLE_TID) && take_pair(&p, end, &s->pid, &s->tid))
		return short_field(rec, why, "tid");
	if ((type & PERF_SAMPLE_TIME) && take64(&p, end, &s->time))
		return short_field(rec, why, "time");
	if ((type & PERF_SAMPLE_ADDR) && take64(&p, end, &s->addr))
		return short_field(rec, why, "addr");
	if ((type & PERF_SAMPLE_ID) && take64(&p, end, &s->id))
		return short_field(rec, why, "id");
	if ((type & PERF_SAMPLE_STREAM_ID) && take64(&p, end, &s->stream_id))
		return short_field(rec, why, "stream_id");
	if ((type & PERF_SAMPLE_CPU) && take_pair(&p, end, &s->cpu, &s->cpu_res))
		return short_field(rec, why, "cpu");
	if ((type & PERF_SAMPLE_PERIOD) && take64(&p, end, &s->period))
		return short_field(rec, why, "period");
	if (type & PERF_SAMPLE_READ) {
		err = decode_read_values(rec, &p, end, attr->read_format, &s->read, why);
		if (err)
			return err;
	}
	if (type & PERF_SAMPLE_CALLCHAIN) {
		if (take64(&p, end, &v))
			return short_field(rec, why, "callchain nr");
		if (v > (uint64_t)(end - p) / 8)
			return fail(rec, why, "callchain nr %" PRIu64 " exceeds the record", v);
		s->callchain_nr = v;
		s->callchain = (const uint64_t *)(const void *)p;
		p += v * 8;
	}
	if (type & PERF_SAMPLE_RAW) {
		size_t off;

		if (end - p < 4)
			return short_field(rec, why, "raw size");
		s->raw_size = ld32(p);
		p += 4;
		if (s->raw_size > (uint64_t)(end - p))
			return fail(rec, why, "raw size %" PRIu32 " exceeds the record", s->raw_size);
		s->raw = p;
		p += s->raw_size;
		/* the kernel pads u32 size + data to a multiple of 8 */
		off = (size_t)(p - base);
		off = (off + 7) & ~(size_t)7;
		p = off < rec->size ? base + off : end;
	}
	if (type & PERF_SAMPLE_BRANCH_STACK) {
		if (take64(&p, end, &v))
			return short_field(rec, why, "branch nr");
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) {
			if (take64(&p, end, &s->branch_hw_idx))
				return short_field(rec, why, "branch hw_idx");
			s->has_branch_hw_idx = 1;
		}
		if (v > (uint64_t)(end - p) / sizeof(struct perf_branch_entry))
			return fail(rec, why, "branch nr %" PRIu64 " exceeds the record", v);
		s->branch_nr = v;
		s->branches = (const struct perf_branch_entry *)(const void *)p;
		p += v * sizeof(struct perf_branch_entry);
		if (attr->branch_sample_type & RP_SAMPLE_BRANCH_COUNTERS) {
			if (v > (uint64_t)(end - p) / 8)
				return fail(rec, why, "branch counters nr %" PRIu64 " exceed the record", v);
			s->branch_counters = (const uint64_t *)(const void *)p;
			p += v * 8;
		}
	}
	if (type & PERF_SAMPLE_REGS_USER) {
		err = decode_regs(rec, &p, end, attr->sample_regs_user, &s->user_regs, "user regs", why);
		if (err)
			return err;
	}
	if (type & PERF_SAMPLE_STACK_USER) {
		if (take64(&p, end, &v))
			return short_field(rec, why, "user stack size");
		if (v) {
			if (v > (uint64_t)(end - p))
				return fail(rec, why, "user stack size %" PRIu64 " exceeds the record", v);
			s->user_stack_size = v;
			s->user_stack = p;
			p += v;
			if (take64(&p, end, &s->user_stack_dyn_size))
				return short_field(rec, why, "user stack dyn_size");
			if (s->user_stack_dyn_size > v)
				return fail(rec, why, "user stack dyn_size %" PRIu64 " exceeds its size %" PRIu64,
					    s->user_stack_dyn_size, v);
		}
	}
	if (type & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		if (take64(&p, end, &v))
			return short_field(rec, why, "weight");
		if (type & PERF_SAMPLE_WEIGHT) {
			s->weight = v;
		} else {
			s->weight = (uint32_t)v;
			s->weight_var2 = (uint16_t)(v >> 32);
			s->weight_var3 = (uint16_t)(v >> 48);
		}
	}
	if ((type & PERF_SAMPLE_DATA_SRC) && take64(&p, end, &s->data_src))
		return short_field(rec, why, "data_src");
	if ((type & PERF_SAMPLE_TRANSACTION) && take64(&p, end, &s->transaction))
		return short_field(rec, why, "transaction");
	if (type & PERF_SAMPLE_REGS_INTR) {
		err = decode_regs(rec, &p, end, attr->sample_regs_intr, &s->intr_regs, "intr regs", why);
		if (err)
			return err;
	}
	if ((type & PERF_SAMPLE_PHYS_ADDR) && take64(&p, end, &s->phys_addr))
		return short_field(rec, why, "phys_addr");
	if ((type & PERF_SAMPLE_CGROUP) && take64(&p, end, &s->cgroup))
		return short_field(rec, why, "cgroup");
	if ((type & PERF_SAMPLE_DATA_PAGE_SIZE) && take64(&p, end, &s->data_page_size))
		return short_field(rec, why, "data_page_size");
	if ((type & PERF_SAMPLE_CODE_PAGE_SIZE) && take64(&p, end, &s->code_page_size))
		return short_field(rec, why, "code_page_size");
	if (type & PERF_SAMPLE_AUX) {
		if (take64(&p, end, &v))
			return short_field(rec, why, "aux size");
		if (v > (uint64_t)(end - p))
			return fail(rec, why, "aux size %" PRIu64 " exceeds the record", v);
		s->aux_size = v;
		s->aux = p;
	}
	return 0;
}

/* the sample_id_all trailer; *body_end gets where the record body stops */
static int decode_trailer(struct perf_record *rec, const struct perf_evattr *ea,
			  size_t *body_end, const char **why)
{
	const uint8_t *base = rec->data;
	struct perf_sample *s = &rec->sample;
	uint64_t type = ea->attr.sample_type;
	size_t n = ((size_t)rec->size - HDR) / 8, k = ea->trailer_size / 8;
	const uint8_t *p, *end;

	if (k > n)
		return fail(rec, why, "sample_id_all trailer of %zu bytes exceeds the record",
			    ea->trailer_size);
	*body_end = HDR + (n - k) * 8;
	p = base + *body_end;
	end = p + ea->trailer_size;
	s->sample_type = type & TRAILER_MASK;
	/* k slots hold exactly these fields, so none of the takes can fail */
	if (type & PERF_SAMPLE_TID)
		take_pair(&p, end, &s->pid, &s->tid);
	if (type & PERF_SAMPLE_TIME)
		take64(&p, end, &s->time);
	if (type & PERF_SAMPLE_ID)
		take64(&p, end, &s->id);
	if (type & PERF_SAMPLE_STREAM_ID)
		take64(&p, end, &s->stream_id);
	if (type & PERF_SAMPLE_CPU)
		take_pair(&p, end, &s->cpu, &s->cpu_res);
	if (type & PERF_SAMPLE_IDENTIFIER)
		take64(&p, end, &s->id);
	return 0;
}

/* ------------------------------------------------------------ typed views */

/* have: the body without the sample_id_all trailer, which need does not count either */
static int too_short(struct perf_record *rec, const char **why, size_t need, size_t have)
{
	size_t trailer = rec->size - have;

	return fail(rec, why, "record of %u bytes is shorter than %zu", rec->size, need + trailer);
}

static int no_nul(struct perf_record *rec, const char **why, const char *field)
{
	return fail(rec, why, "%s is not terminated inside the record", field);
}

/* PERF_RECORD_CPU_MAP data (also inside EVENT_UPDATE) at p, len bytes */
static int decode_cpu_map(struct perf_record *rec, const uint8_t *p, size_t len,
			  struct perf_rec_cpu_map *m, const char **why)
{
	uint64_t nr;

	if (len < 2)
		return fail(rec, why, "cpu map of %zu bytes has no type", len);
	m->type = ld16(p);
	switch (m->type) {
	case 0:	/* PERF_CPU_MAP__CPUS: u16 nr, u16 cpu[nr] */
		if (len < 4)
			return fail(rec, why, "cpu map nr exceeds the record");
		nr = ld16(p + 2);
		if (nr > (len - 4) / 2)
			return fail(rec, why, "cpu map nr %" PRIu64 " exceeds the record", nr);
		m->nr = nr;
		m->data = p + 4;
		break;
	case 1:	/* PERF_CPU_MAP__MASK: u16 nr, u16 long_size, [pad], mask[nr] */
		if (len < 6)
			return fail(rec, why, "cpu map mask exceeds the record");
		nr = ld16(p + 2);
		m->long_size = ld16(p + 4);
		if (m->long_size == 4) {
			if (nr > (len - 6) / 4)
				return fail(rec, why, "cpu map mask nr %" PRIu64 " exceeds the record", nr);
			m->data = p + 6;
		} else if (m->long_size == 8) {
			if (len < 10 || nr > (len - 10) / 8)
				return fail(rec, why, "cpu map mask nr %" PRIu64 " exceeds the record", nr);
			m->data = p + 10;
		} else {
			return fail(rec, why, "cpu map long_size %u is neither 4 nor 8", m->long_size);
		}
		m->nr = nr;
		break;
	case 2:	/* PERF_CPU_MAP__RANGE_CPUS: u8 any_cpu, pad, u16 start, u16 end */
		if (len < 8)
			return fail(rec, why, "cpu map range exceeds the record");
		m->any_cpu = p[2];
		m->start_cpu = ld16(p + 4);
		m->end_cpu = ld16(p + 6);
		break;
	default:
		/* a newer encoding: keep the type only */
		break;
	}
	return 0;
}

/*
 * MMAP2 as first merged (Linux 3.12, and RHEL 7's 3.10) had no prot and
 * flags: the file name starts at byte 64.  Take that layout when the name
 * there fills the body exactly (the kernel pads it to 8 bytes) and the
 * would-be prot is no PROT_* value or no name fits at byte 72.  prot is in
 * host order.
 */
static int mmap2_without_prot(const uint8_t *b, size_t body_end, uint16_t misc, uint32_t prot)
{
	const uint8_t *nul;
	size_t len;

	if ((misc & PERF_RECORD_MISC_MMAP_BUILD_ID) || body_end <= 64)
		return 0;
	nul = memchr(b + 64, 0, body_end - 64);
	if (!nul)
		return 0;
	len = (size_t)(nul - (b + 64)) + 1;
	if (64 + ((len + 7) & ~(size_t)7) != body_end)
		return 0;
	return prot > 7 || body_end <= 72 || !memchr(b + 72, 0, body_end - 72);
}

static int decode_body(struct perf_record *rec, size_t body_end, const struct perf_evattr *ea,
		       const char **why)
{
	const uint8_t *b = rec->data;
	const uint8_t *end = b + body_end;
	size_t size = body_end;
	uint16_t misc = rec->misc;

	switch (rec->type) {
	case PERF_RECORD_MMAP: {
		struct perf_rec_mmap *m = &rec->u.mmap;

		if (size < 40)
			return too_short(rec, why, 40, size);
		m->pid = ld32(b + 8);
		m->tid = ld32(b + 12);
		m->start = ld64(b + 16);
		m->len = ld64(b + 24);
		m->pgoff = ld64(b + 32);
		m->filename = str_within(b + 40, end);
		if (!m->filename)
			return no_nul(rec, why, "filename");
		break;
	}
	case PERF_RECORD_MMAP2: {
		struct perf_rec_mmap *m = &rec->u.mmap;
		int old;

		if (size < 64)
			return too_short(rec, why, 72, size);
		old = mmap2_without_prot(b, size, misc, size >= 68 ? ld32(b + 64) : 0);
		if (!old && size < 72)
			return too_short(rec, why, 72, size);
		m->pid = ld32(b + 8);
		m->tid = ld32(b + 12);
		m->start = ld64(b + 16);
		m->len = ld64(b + 24);
		m->pgoff = ld64(b + 32);
		if (misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			m->build_id_size = b[40];
			if (m->build_id_size > 20)
				return fail(rec, why, "build_id_size %u exceeds 20", m->build_id_size);
			m->build_id = b + 44;
		} else {
			m->maj = ld32(b + 40);
			m->min = ld32(b + 44);
			m->ino = ld64(b + 48);
			m->ino_generation = ld64(b + 56);
		}
		if (old) {
			m->filename = (const char *)(b + 64);
			break;
		}
		m->prot = ld32(b + 64);
		m->flags = ld32(b + 68);
		m->filename = str_within(b + 72, end);
		if (!m->filename)
			return no_nul(rec, why, "filename");
		break;
	}
	case PERF_RECORD_COMM: {
		struct perf_rec_comm *c = &rec->u.comm;

		if (size < 16)
			return too_short(rec, why, 16, size);
		c->pid = ld32(b + 8);
		c->tid = ld32(b + 12);
		c->exec = !!(misc & PERF_RECORD_MISC_COMM_EXEC);
		c->comm = str_within(b + 16, end);
		if (!c->comm)
			return no_nul(rec, why, "comm");
		break;
	}
	case PERF_RECORD_EXIT:
	case PERF_RECORD_FORK: {
		struct perf_rec_fork *f = &rec->u.fork;

		if (size < 32)
			return too_short(rec, why, 32, size);
		f->pid = ld32(b + 8);
		f->ppid = ld32(b + 12);
		f->tid = ld32(b + 16);
		f->ptid = ld32(b + 20);
		f->time = ld64(b + 24);
		break;
	}
	case PERF_RECORD_LOST:
		if (size < 24)
			return too_short(rec, why, 24, size);
		rec->u.lost.id = ld64(b + 8);
		rec->u.lost.lost = ld64(b + 16);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (size < 16)
			return too_short(rec, why, 16, size);
		rec->u.lost.lost = ld64(b + 8);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		if (size < 32)
			return too_short(rec, why, 32, size);
		rec->u.throttle.time = ld64(b + 8);
		rec->u.throttle.id = ld64(b + 16);
		rec->u.throttle.stream_id = ld64(b + 24);
		break;
	case PERF_RECORD_READ: {
		const uint8_t *p = b + 16;

		if (size < 24)
			return too_short(rec, why, 24, size);
		rec->u.read.pid = ld32(b + 8);
		rec->u.read.tid = ld32(b + 12);
		/* without the attr the read_format is unknown: take the value alone */
		return decode_read_values(rec, &p, end, ea ? ea->attr.read_format : 0,
					  &rec->u.read.values, why);
	}
	case PERF_RECORD_AUX:
		if (size < 32)
			return too_short(rec, why, 32, size);
		rec->u.aux.aux_offset = ld64(b + 8);
		rec->u.aux.aux_size = ld64(b + 16);
		rec->u.aux.flags = ld64(b + 24);
		break;
	case PERF_RECORD_ITRACE_START:
		if (size < 16)
			return too_short(rec, why, 16, size);
		rec->u.itrace_start.pid = ld32(b + 8);
		rec->u.itrace_start.tid = ld32(b + 12);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		rec->u.sw.out = !!(misc & PERF_RECORD_MISC_SWITCH_OUT);
		rec->u.sw.preempt = !!(misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
		if (rec->type == PERF_RECORD_SWITCH_CPU_WIDE) {
			if (size < 16)
				return too_short(rec, why, 16, size);
			rec->u.sw.next_prev_pid = ld32(b + 8);
			rec->u.sw.next_prev_tid = ld32(b + 12);
		}
		break;
	case PERF_RECORD_NAMESPACES: {
		struct perf_rec_namespaces *ns = &rec->u.namespaces;

		if (size < 24)
			return too_short(rec, why, 24, size);
		ns->pid = ld32(b + 8);
		ns->tid = ld32(b + 12);
		ns->nr = ld64(b + 16);
		if (ns->nr > (uint64_t)(size - 24) / 16)
			return fail(rec, why, "namespaces nr %" PRIu64 " exceeds the record", ns->nr);
		ns->link_info = (const uint64_t *)(const void *)(b + 24);
		break;
	}
	case PERF_RECORD_KSYMBOL: {
		struct perf_rec_ksymbol *k = &rec->u.ksymbol;

		if (size < 24)
			return too_short(rec, why, 24, size);
		k->addr = ld64(b + 8);
		k->len = ld32(b + 16);
		k->ksym_type = ld16(b + 20);
		k->flags = ld16(b + 22);
		k->name = str_within(b + 24, end);
		if (!k->name)
			return no_nul(rec, why, "name");
		break;
	}
	case PERF_RECORD_BPF_EVENT:
		if (size < 24)
			return too_short(rec, why, 24, size);
		rec->u.bpf_event.type = ld16(b + 8);
		rec->u.bpf_event.flags = ld16(b + 10);
		rec->u.bpf_event.id = ld32(b + 12);
		rec->u.bpf_event.tag = b + 16;
		break;
	case PERF_RECORD_CGROUP:
		if (size < 16)
			return too_short(rec, why, 16, size);
		rec->u.cgroup.id = ld64(b + 8);
		rec->u.cgroup.path = str_within(b + 16, end);
		if (!rec->u.cgroup.path)
			return no_nul(rec, why, "path");
		break;
	case PERF_RECORD_TEXT_POKE: {
		struct perf_rec_text_poke *t = &rec->u.text_poke;

		if (size < 20)
			return too_short(rec, why, 20, size);
		t->addr = ld64(b + 8);
		t->old_len = ld16(b + 16);
		t->new_len = ld16(b + 18);
		if ((uint64_t)t->old_len + t->new_len > size - 20)
			return fail(rec, why, "text_poke lengths %u + %u exceed the record",
				    t->old_len, t->new_len);
		t->bytes = b + 20;
		break;
	}
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		if (size < 16)
			return too_short(rec, why, 16, size);
		rec->u.aux_output_hw_id.hw_id = ld64(b + 8);
		break;

	case PERF_RECORD_HEADER_ATTR: {
		struct perf_rec_header_attr *h = &rec->u.header_attr;
		uint32_t asz;

		if (size < HDR + PERF_ATTR_SIZE_VER0)
			return too_short(rec, why, HDR + PERF_ATTR_SIZE_VER0, size);
		asz = ld32(b + 12);
		if (!asz)
			asz = PERF_ATTR_SIZE_VER0;
		if (asz < PERF_ATTR_SIZE_VER0 || asz % 8 || asz > size - HDR)
			return fail(rec, why, "attr.size %" PRIu32 " is invalid", asz);
		h->attr = b + HDR;
		h->attr_size = asz;
		h->ids = (const uint64_t *)(const void *)(b + HDR + asz);
		h->nr_ids = (size - HDR - asz) / 8;
		break;
	}
	case PERF_RECORD_HEADER_EVENT_TYPE: {
		struct perf_rec_event_type *et = &rec->u.event_type;

		if (size < 16)
			return too_short(rec, why, 16, size);
		et->event_id = ld64(b + 8);
		et->name = str_within(b + 16, end);
		if (!et->name) {
			/*
			 * perf_event__synthesize_event_type() sizes the record
			 * as PERF_ALIGN(strlen(name), 8): a name whose length
			 * is a multiple of 8 comes without its NUL.
			 */
			size_t n = size - 16 < sizeof(et->name_buf) - 1 ? size - 16 : sizeof(et->name_buf) - 1;

			memcpy(et->name_buf, b + 16, n);
			et->name_buf[n] = '\0';
			et->name = et->name_buf;
		}
		break;
	}
	case PERF_RECORD_HEADER_TRACING_DATA:
		if (size < 12)
			return too_short(rec, why, 12, size);
		rec->u.tracing_data.size = ld32(b + 8);
		break;
	case PERF_RECORD_HEADER_BUILD_ID: {
		struct perf_rec_build_id *bi = &rec->u.build_id;

		if (size < 36)
			return too_short(rec, why, 36, size);
		bi->pid = (int32_t)ld32(b + 8);
		bi->build_id = b + 12;
		bi->size = 20;
		if (misc & RP_RECORD_MISC_BUILD_ID_SIZE) {
			bi->size = b[32];
			if (bi->size > 20)
				return fail(rec, why, "build id size %u exceeds 20", bi->size);
		}
		bi->filename = str_within(b + 36, end);
		if (!bi->filename)
			return no_nul(rec, why, "filename");
		break;
	}
	case PERF_RECORD_FINISHED_ROUND:
	case PERF_RECORD_FINISHED_INIT:
		break;
	case PERF_RECORD_ID_INDEX: {
		struct perf_rec_id_index *ix = &rec->u.id_index;
		uint64_t room;

		if (size < 16)
			return too_short(rec, why, 16, size);
		ix->nr = ld64(b + 8);
		room = size - 16;
		if (ix->nr > room / 32)
			return fail(rec, why, "id_index nr %" PRIu64 " exceeds the record", ix->nr);
		ix->entries = (const struct perf_rec_id_index_entry *)(const void *)(b + 16);
		/* perf_event__process_id_index(): id_index_entry_2 follow when there is room */
		if (ix->nr && ix->nr <= room / 48)
			ix->ext = (const uint64_t *)(const void *)(b + 16 + ix->nr * 32);
		break;
	}
	case PERF_RECORD_AUXTRACE_INFO:
		if (size < 16)
			return too_short(rec, why, 16, size);
		rec->u.auxtrace_info.type = ld32(b + 8);
		rec->u.auxtrace_info.nr_priv = (size - 16) / 8;
		rec->u.auxtrace_info.priv = (const uint64_t *)(const void *)(b + 16);
		break;
	case PERF_RECORD_AUXTRACE: {
		struct perf_rec_auxtrace *a = &rec->u.auxtrace;

		if (size < 48)
			return too_short(rec, why, 48, size);
		a->size = ld64(b + 8);
		a->offset = ld64(b + 16);
		a->reference = ld64(b + 24);
		a->idx = ld32(b + 32);
		a->tid = ld32(b + 36);
		a->cpu = ld32(b + 40);
		break;
	}
	case PERF_RECORD_AUXTRACE_ERROR: {
		struct perf_rec_auxtrace_error *e = &rec->u.auxtrace_error;
		size_t msg_end = size < 112 ? size : 112;

		if (size < 49)
			return too_short(rec, why, 49, size);
		e->type = ld32(b + 8);
		e->code = ld32(b + 12);
		e->cpu = ld32(b + 16);
		e->pid = ld32(b + 20);
		e->tid = ld32(b + 24);
		e->fmt = ld32(b + 28);
		e->ip = ld64(b + 32);
		if (e->fmt >= 1)
			e->time = ld64(b + 40);
		e->msg = str_within(b + 48, b + msg_end);
		if (!e->msg)
			return no_nul(rec, why, "msg");
		if (e->fmt >= 2 && size >= 120) {
			e->machine_pid = ld32(b + 112);
			e->vcpu = ld32(b + 116);
		}
		break;
	}
	case PERF_RECORD_THREAD_MAP:
		if (size < 16)
			return too_short(rec, why, 16, size);
		rec->u.thread_map.nr = ld64(b + 8);
		if (rec->u.thread_map.nr > (uint64_t)(size - 16) / 24)
			return fail(rec, why, "thread_map nr %" PRIu64 " exceeds the record",
				    rec->u.thread_map.nr);
		rec->u.thread_map.entries = b + 16;
		break;
	case PERF_RECORD_CPU_MAP:
		return decode_cpu_map(rec, b + 8, size - 8, &rec->u.cpu_map, why);
	case PERF_RECORD_STAT_CONFIG:
		if (size < 16)
			return too_short(rec, why, 16, size);
		rec->u.stat_config.nr = ld64(b + 8);
		if (rec->u.stat_config.nr > (uint64_t)(size - 16) / 16)
			return fail(rec, why, "stat_config nr %" PRIu64 " exceeds the record",
				    rec->u.stat_config.nr);
		rec->u.stat_config.data = (const uint64_t *)(const void *)(b + 16);
		break;
	case PERF_RECORD_STAT: {
		struct perf_rec_stat *st = &rec->u.stat;

		if (size < 48)
			return too_short(rec, why, 48, size);
		st->id = ld64(b + 8);
		st->cpu = ld32(b + 16);
		st->thread = ld32(b + 20);
		st->val = ld64(b + 24);
		st->ena = ld64(b + 32);
		st->run = ld64(b + 40);
		break;
	}
	case PERF_RECORD_STAT_ROUND:
		if (size < 24)
			return too_short(rec, why, 24, size);
		rec->u.stat_round.type = ld64(b + 8);
		rec->u.stat_round.time = ld64(b + 16);
		break;
	case PERF_RECORD_EVENT_UPDATE: {
		struct perf_rec_event_update *ev = &rec->u.event_update;

		if (size < 24)
			return too_short(rec, why, 24, size);
		ev->type = ld64(b + 8);
		ev->id = ld64(b + 16);
		ev->data = b + 24;
		ev->data_size = size - 24;
		switch (ev->type) {
		case 0:	/* PERF_EVENT_UPDATE__UNIT */
		case 2:	/* PERF_EVENT_UPDATE__NAME */
			ev->str = str_within(b + 24, end);
			if (!ev->str)
				return no_nul(rec, why, ev->type ? "name" : "unit");
			break;
		case 1:	/* PERF_EVENT_UPDATE__SCALE */
			if (size < 32)
				return too_short(rec, why, 32, size);
			memcpy(&ev->scale, b + 24, sizeof(ev->scale));
			break;
		case 3:	/* PERF_EVENT_UPDATE__CPUS */
			return decode_cpu_map(rec, b + 24, size - 24, &ev->cpus, why);
		default:
			break;
		}
		break;
	}
	case PERF_RECORD_TIME_CONV: {
		struct perf_rec_time_conv *tc = &rec->u.time_conv;

		if (size < 32)
			return too_short(rec, why, 32, size);
		tc->time_shift = ld64(b + 8);
		tc->time_mult = ld64(b + 16);
		tc->time_zero = ld64(b + 24);
		if (size >= 56) {
			tc->has_ext = 1;
			tc->time_cycles = ld64(b + 32);
			tc->time_mask = ld64(b + 40);
			tc->cap_user_time_zero = b[48];
			tc->cap_user_time_short = b[49];
		}
		break;
	}
	case PERF_RECORD_HEADER_FEATURE:
		if (size < 16)
			return too_short(rec, why, 16, size);
		rec->u.feature.feat_id = ld64(b + 8);
		rec->u.feature.data = b + 16;
		rec->u.feature.size = size - 16;
		break;
	case PERF_RECORD_COMPRESSED:
		rec->u.compressed.data = b + 8;
		rec->u.compressed.size = size - 8;
		break;
	case PERF_RECORD_COMPRESSED2:
		if (size < 16)
			return too_short(rec, why, 16, size);
		rec->u.compressed.size = ld64(b + 8);
		if (rec->u.compressed.size > size - 16)
			return fail(rec, why, "data_size %" PRIu64 " exceeds the record",
				    rec->u.compressed.size);
		rec->u.compressed.data = b + 16;
		break;
	default:
		/* unknown type: header (and trailer) only */
		break;
	}
	return 0;
}

int perf_record__decode(struct perf_record *rec, const struct perf_evlist *evlist, const char **why)
{
	const struct perf_evattr *ea;
	size_t body_end;
	uint64_t id;
	int err;

	/*
	 * gcc expands a constant-size memset of this size inline as `rep stos`,
	 * which costs more than the rest of the decode; the C library's memset
	 * is several times faster, so call it through a pointer gcc cannot see
	 * through.
	 */
	void *(*volatile zero)(void *, int, size_t) = memset;

	zero(&rec->sample, 0, sizeof(rec->sample));
	zero(&rec->u, 0, sizeof(rec->u));
	rec->evattr = NULL;
	if (rec->size < HDR)
		return fail(rec, why, "size %u is smaller than the header", rec->size);

	if (rec->type >= PERF_RECORD_USER_TYPE_START)
		return decode_body(rec, rec->size, NULL, why);

	ea = find_attr(evlist, rec->type, rec->data, rec->size, 0, &id);
	rec->evattr = ea;
	if (rec->type == PERF_RECORD_SAMPLE) {
		if (!ea) {
			if (!evlist || !evlist->nr)
				return fail(rec, why, "sample without any attr");
			if (!id)
				return fail(rec, why, "sample id cannot be located");
			return fail(rec, why, "unknown sample id 0x%" PRIx64, id);
		}
		return decode_sample(rec, ea, why);
	}
	body_end = rec->size;
	if (ea && ea->attr.sample_id_all && ea->trailer_size) {
		err = decode_trailer(rec, ea, &body_end, why);
		if (err)
			return err;
	}
	return decode_body(rec, body_end, ea, why);
}

/* ------------------------------------------------------------------- swap */

/*
 * Fields are swapped only where they lie wholly inside the record; a record
 * too short for its fields is swapped as far as it goes and then rejected,
 * with a precise message, by perf_record__decode().
 */

static inline uint64_t sw64(uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	v = bswap_64(v);
	memcpy(p, &v, sizeof(v));
	return v;
}

static inline uint32_t sw32(uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	v = bswap_32(v);
	memcpy(p, &v, sizeof(v));
	return v;
}

static inline uint16_t sw16(uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	v = bswap_16(v);
	memcpy(p, &v, sizeof(v));
	return v;
}

/* swap the field at off if it fits below end; the swapped value, or 0 */
static uint64_t at64(uint8_t *b, size_t end, size_t off)
{
	return off + 8 <= end ? sw64(b + off) : 0;
}

static uint32_t at32(uint8_t *b, size_t end, size_t off)
{
	return off + 4 <= end ? sw32(b + off) : 0;
}

static uint16_t at16(uint8_t *b, size_t end, size_t off)
{
	return off + 2 <= end ? sw16(b + off) : 0;
}

/* at most n u64 from off, stopping at end */
static void array64(uint8_t *b, size_t end, size_t off, uint64_t n)
{
	while (n-- && off + 8 <= end) {
		sw64(b + off);
		off += 8;
	}
}

/*
 * The flags word of struct perf_branch_entry is a bitfield: after the u64
 * swap each field sits mirrored (bit-field allocation starts at the least
 * significant bit on little-endian ABIs, at the most significant on
 * big-endian ones).  Move each field back, keeping its bit order, as
 * evsel__bitfield_swap_branch_flags() does.  Fields of the 6.1 uapi header:
 * mispred:1 predicted:1 in_tx:1 abort:1 cycles:16 type:4 spec:2 new_type:4
 * priv:3 reserved:31.
 */
static uint64_t branch_flags_swap(uint64_t v)
{
	static const uint8_t fields[][2] = {
		{ 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 16 }, { 20, 4 },
		{ 24, 2 }, { 26, 4 }, { 30, 3 }, { 33, 31 },
	};
	uint64_t out = 0;
	size_t i;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		unsigned pos = fields[i][0], sz = fields[i][1];
		uint64_t mask = (1ULL << sz) - 1;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		out |= ((v >> (64 - pos - sz)) & mask) << pos;
#else
		out |= ((v >> pos) & mask) << (64 - pos - sz);
#endif
	}
	return out;
}

static uint8_t revbyte(uint8_t b)
{
	b = (uint8_t)((b >> 4) | (b << 4));
	b = (uint8_t)(((b & 0xcc) >> 2) | ((b & 0x33) << 2));
	b = (uint8_t)(((b & 0xaa) >> 1) | ((b & 0x55) << 1));
	return b;
}

void perf_event_attr__swap(void *attr, size_t size)
{
	/* offset and width of every scalar of struct perf_event_attr (VER8) */
	static const uint8_t fields[][2] = {
		{ 0, 4 },	/* type */
		{ 4, 4 },	/* size */
		{ 8, 8 },	/* config */
		{ 16, 8 },	/* sample_period / sample_freq */
		{ 24, 8 },	/* sample_type */
		{ 32, 8 },	/* read_format */
		{ 48, 4 },	/* wakeup_events / wakeup_watermark */
		{ 52, 4 },	/* bp_type */
		{ 56, 8 },	/* bp_addr / config1 */
		{ 64, 8 },	/* bp_len / config2 */
		{ 72, 8 },	/* branch_sample_type */
		{ 80, 8 },	/* sample_regs_user */
		{ 88, 4 },	/* sample_stack_user */
		{ 92, 4 },	/* clockid */
		{ 96, 8 },	/* sample_regs_intr */
		{ 104, 4 },	/* aux_watermark */
		{ 108, 2 },	/* sample_max_stack */
		{ 110, 2 },	/* __reserved_2 */
		{ 112, 4 },	/* aux_sample_size */
		{ 116, 4 },	/* __reserved_3 */
		{ 120, 8 },	/* sig_data */
		{ 128, 8 },	/* config3 */
	};
	uint8_t *a = attr;
	size_t i;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		size_t off = fields[i][0];

		if (off + fields[i][1] > size)
			break;
		switch (fields[i][1]) {
		case 8:
			sw64(a + off);
			break;
		case 4:
			sw32(a + off);
			break;
		default:
			sw16(a + off);
			break;
		}
	}
	/*
	 * The flag bits after read_format: perf's swap_bitfield() reverses the
	 * bits of each byte, which is right for 1-bit fields; precise_ip (2
	 * bits at 15..16) then has its two bits in the wrong order.
	 */
	if (size >= 48) {
		uint8_t lo, hi;

		for (i = 40; i < 48; i++)
			a[i] = revbyte(a[i]);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		lo = (a[41] >> 7) & 1;
		hi = a[42] & 1;
		a[41] = (uint8_t)((a[41] & 0x7f) | (hi << 7));
		a[42] = (uint8_t)((a[42] & 0xfe) | lo);
#else
		lo = a[41] & 1;
		hi = (a[42] >> 7) & 1;
		a[41] = (uint8_t)((a[41] & 0xfe) | hi);
		a[42] = (uint8_t)((a[42] & 0x7f) | (lo << 7));
#endif
	}
}

static void swap_read_values(uint8_t **pp, uint8_t *end, uint64_t fmt)
{
	uint8_t *p = *pp;
	uint64_t first, n;

	if (end - p < 8)
		goto out;
	first = sw64(p);
	p += 8;
	n = !!(fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(fmt & PERF_FORMAT_TOTAL_TIME_RUNNING);
	if (fmt & PERF_FORMAT_GROUP) {
		unsigned stride = 1 + !!(fmt & PERF_FORMAT_ID) + !!(fmt & PERF_FORMAT_LOST);

		if (first > (uint64_t)(end - p) / (8 * stride))
			first = (uint64_t)(end - p) / (8 * stride);
		n += first * stride;
	} else {
		n += !!(fmt & PERF_FORMAT_ID) + !!(fmt & PERF_FORMAT_LOST);
	}
	if (n > (uint64_t)(end - p) / 8)
		n = (uint64_t)(end - p) / 8;
	array64(p, (size_t)(end - p), 0, n);
	p += n * 8;
out:
	*pp = p;
}

static int swap_regs(uint8_t **pp, uint8_t *end, uint64_t mask)
{
	uint8_t *p = *pp;
	uint64_t nr;

	if (end - p < 8)
		return -1;
	if (sw64(p)) {
		p += 8;
		nr = (uint64_t)__builtin_popcountll(mask);
		if (nr > (uint64_t)(end - p) / 8)
			return -1;
		array64(p, (size_t)(end - p), 0, nr);
		p += nr * 8;
	} else {
		p += 8;
	}
	*pp = p;
	return 0;
}

/* swap a SAMPLE body; stops quietly where the record is too short */
static void swap_sample(uint8_t *b, size_t len, const struct perf_event_attr *attr)
{
	static const uint64_t fixed_before_read[] = {
		PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME,
		PERF_SAMPLE_ADDR, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
		PERF_SAMPLE_PERIOD,
	};
	static const uint64_t fixed_after_intr[] = {
		PERF_SAMPLE_PHYS_ADDR, PERF_SAMPLE_CGROUP, PERF_SAMPLE_DATA_PAGE_SIZE,
		PERF_SAMPLE_CODE_PAGE_SIZE,
	};
	uint64_t type = attr->sample_type, v, i;
	uint8_t *p = b + HDR, *end = b + len;

	if (type & ~(uint64_t)RP_SAMPLE_KNOWN)
		return;
	for (i = 0; i < sizeof(fixed_before_read) / sizeof(fixed_before_read[0]); i++) {
		uint64_t bit = fixed_before_read[i];

		if (!(type & bit))
			continue;
		if (end - p < 8)
			return;
		if (bit == PERF_SAMPLE_TID || bit == PERF_SAMPLE_CPU) {
			sw32(p);
			sw32(p + 4);
		} else {
			sw64(p);
		}
		p += 8;
	}
	if (type & PERF_SAMPLE_READ)
		swap_read_values(&p, end, attr->read_format);
	if (type & PERF_SAMPLE_CALLCHAIN) {
		if (end - p < 8)
			return;
		v = sw64(p);
		p += 8;
		if (v > (uint64_t)(end - p) / 8)
			return;
		array64(p, (size_t)(end - p), 0, v);
		p += v * 8;
	}
	if (type & PERF_SAMPLE_RAW) {
		size_t off;

		if (end - p < 4)
			return;
		v = sw32(p);
		p += 4;
		if (v > (uint64_t)(end - p))
			return;
		p += v;
		off = ((size_t)(p - b) + 7) & ~(size_t)7;
		p = off < len ? b + off : end;
	}
	if (type & PERF_SAMPLE_BRANCH_STACK) {
		if (end - p < 8)
			return;
		v = sw64(p);
		p += 8;
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) {
			if (end - p < 8)
				return;
			sw64(p);
			p += 8;
		}
		if (v > (uint64_t)(end - p) / 24)
			return;
		for (i = 0; i < v; i++, p += 24) {
			uint64_t flags;

			sw64(p);
			sw64(p + 8);
			flags = branch_flags_swap(sw64(p + 16));
			memcpy(p + 16, &flags, sizeof(flags));
		}
		if (attr->branch_sample_type & RP_SAMPLE_BRANCH_COUNTERS) {
			if (v > (uint64_t)(end - p) / 8)
				return;
			array64(p, (size_t)(end - p), 0, v);
			p += v * 8;
		}
	}
	if ((type & PERF_SAMPLE_REGS_USER) && swap_regs(&p, end, attr->sample_regs_user))
		return;
	if (type & PERF_SAMPLE_STACK_USER) {
		if (end - p < 8)
			return;
		v = sw64(p);
		p += 8;
		if (v) {
			/* the stack dump is memory: bytes stay as they are */
			if (v > (uint64_t)(end - p))
				return;
			p += v;
			if (end - p < 8)
				return;
			sw64(p);
			p += 8;
		}
	}
	for (i = 0; i < 3; i++) {
		static const uint64_t bits[3] = {
			PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT,
			PERF_SAMPLE_DATA_SRC, PERF_SAMPLE_TRANSACTION,
		};

		if (!(type & bits[i]))
			continue;
		if (end - p < 8)
			return;
		sw64(p);
		p += 8;
	}
	if ((type & PERF_SAMPLE_REGS_INTR) && swap_regs(&p, end, attr->sample_regs_intr))
		return;
	for (i = 0; i < sizeof(fixed_after_intr) / sizeof(fixed_after_intr[0]); i++) {
		if (!(type & fixed_after_intr[i]))
			continue;
		if (end - p < 8)
			return;
		sw64(p);
		p += 8;
	}
	if ((type & PERF_SAMPLE_AUX) && end - p >= 8)
		sw64(p);	/* the aux data stays as bytes */
}

/* swap the sample_id_all trailer; returns where the body ends */
static size_t swap_trailer(uint8_t *b, size_t len, const struct perf_evattr *ea)
{
	uint64_t type = ea->attr.sample_type;
	size_t n = (len - HDR) / 8, k = ea->trailer_size / 8;
	uint8_t *p;

	if (!ea->attr.sample_id_all || !k || k > n)
		return len;
	p = b + HDR + (n - k) * 8;
	if (type & PERF_SAMPLE_TID) {
		sw32(p);
		sw32(p + 4);
		p += 8;
	}
	if (type & PERF_SAMPLE_TIME) {
		sw64(p);
		p += 8;
	}
	if (type & PERF_SAMPLE_ID) {
		sw64(p);
		p += 8;
	}
	if (type & PERF_SAMPLE_STREAM_ID) {
		sw64(p);
		p += 8;
	}
	if (type & PERF_SAMPLE_CPU) {
		sw32(p);
		sw32(p + 4);
		p += 8;
	}
	if (type & PERF_SAMPLE_IDENTIFIER)
		sw64(p);
	return HDR + (n - k) * 8;
}

/* struct perf_record_cpu_map_data at off (CPU_MAP, EVENT_UPDATE CPUS) */
static void swap_cpu_map(uint8_t *b, size_t end, size_t off)
{
	uint16_t type = at16(b, end, off), nr, i;

	switch (type) {
	case 0:
		nr = at16(b, end, off + 2);
		for (i = 0; i < nr; i++)
			at16(b, end, off + 4 + 2 * (size_t)i);
		break;
	case 1:
		nr = at16(b, end, off + 2);
		switch (at16(b, end, off + 4)) {
		case 4:
			for (i = 0; i < nr; i++)
				at32(b, end, off + 6 + 4 * (size_t)i);
			break;
		case 8:
			for (i = 0; i < nr; i++)
				at64(b, end, off + 10 + 8 * (size_t)i);
			break;
		default:
			break;
		}
		break;
	case 2:
		at16(b, end, off + 4);
		at16(b, end, off + 6);
		break;
	default:
		break;
	}
}

static void swap_body(uint8_t *b, size_t end, uint32_t type, uint16_t misc)
{
	size_t off;
	uint64_t n, i;

	switch (type) {
	case PERF_RECORD_MMAP:
		at32(b, end, 8);
		at32(b, end, 12);
		array64(b, end, 16, 3);
		break;
	case PERF_RECORD_MMAP2:
		at32(b, end, 8);
		at32(b, end, 12);
		array64(b, end, 16, 3);
		if (!(misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
			at32(b, end, 40);
			at32(b, end, 44);
			array64(b, end, 48, 2);
		}
		if (mmap2_without_prot(b, end, misc, end >= 68 ? bswap_32(ld32(b + 64)) : 0))
			break;
		at32(b, end, 64);
		at32(b, end, 68);
		break;
	case PERF_RECORD_COMM:
	case PERF_RECORD_ITRACE_START:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		at32(b, end, 8);
		at32(b, end, 12);
		break;
	case PERF_RECORD_EXIT:
	case PERF_RECORD_FORK:
		for (off = 8; off < 24; off += 4)
			at32(b, end, off);
		at64(b, end, 24);
		break;
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
	case PERF_RECORD_AUX:
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		array64(b, end, 8, UINT64_MAX);
		break;
	case PERF_RECORD_READ:
		at32(b, end, 8);
		at32(b, end, 12);
		array64(b, end, 16, UINT64_MAX);
		break;
	case PERF_RECORD_NAMESPACES:
		at32(b, end, 8);
		at32(b, end, 12);
		n = at64(b, end, 16);
		if (n <= UINT64_MAX / 2)
			array64(b, end, 24, 2 * n);
		break;
	case PERF_RECORD_KSYMBOL:
		at64(b, end, 8);
		at32(b, end, 16);
		at16(b, end, 20);
		at16(b, end, 22);
		break;
	case PERF_RECORD_BPF_EVENT:
		at16(b, end, 8);
		at16(b, end, 10);
		at32(b, end, 12);
		break;
	case PERF_RECORD_CGROUP:
	case PERF_RECORD_HEADER_EVENT_TYPE:
	case PERF_RECORD_HEADER_FEATURE:
	case PERF_RECORD_COMPRESSED2:
		at64(b, end, 8);
		break;
	case PERF_RECORD_TEXT_POKE:
		at64(b, end, 8);
		at16(b, end, 16);
		at16(b, end, 18);
		break;
	case PERF_RECORD_HEADER_TRACING_DATA:
	case PERF_RECORD_HEADER_BUILD_ID:
		at32(b, end, 8);
		break;
	case PERF_RECORD_ID_INDEX:
	case PERF_RECORD_STAT_CONFIG:
	case PERF_RECORD_STAT_ROUND:
		array64(b, end, 8, UINT64_MAX);
		break;
	case PERF_RECORD_AUXTRACE_INFO:
		at32(b, end, 8);
		at32(b, end, 12);
		array64(b, end, 16, UINT64_MAX);
		break;
	case PERF_RECORD_AUXTRACE:
		array64(b, end, 8, 3);
		for (off = 32; off < 48; off += 4)
			at32(b, end, off);
		break;
	case PERF_RECORD_AUXTRACE_ERROR:
		for (off = 8; off < 32; off += 4)
			at32(b, end, off);
		array64(b, end, 32, 2);
		at32(b, end, 112);
		at32(b, end, 116);
		break;
	case PERF_RECORD_THREAD_MAP:
		n = at64(b, end, 8);
		for (i = 0, off = 16; i < n && off + 8 <= end; i++, off += 24)
			sw64(b + off);
		break;
	case PERF_RECORD_CPU_MAP:
		swap_cpu_map(b, end, 8);
		break;
	case PERF_RECORD_STAT:
		at64(b, end, 8);
		at32(b, end, 16);
		at32(b, end, 20);
		array64(b, end, 24, 3);
		break;
	case PERF_RECORD_EVENT_UPDATE:
		n = at64(b, end, 8);
		at64(b, end, 16);
		if (n == 1)
			at64(b, end, 24);
		else if (n == 3)
			swap_cpu_map(b, end, 24);
		break;
	case PERF_RECORD_TIME_CONV:
		array64(b, end, 8, 3);
		if (end >= 56)
			array64(b, end, 32, 2);
		break;
	default:
		/* no fields, byte payloads, or a type we do not know */
		break;
	}
}

int perf_record__swap(void *data, size_t size, const struct perf_evlist *evlist, const char **why)
{
	uint8_t *b = data;
	const struct perf_evattr *ea;
	uint32_t type;
	uint16_t misc, len;
	size_t body_end;
	uint64_t id;

	if (size < HDR) {
		*why = "record shorter than its header";
		return -EINVAL;
	}
	type = sw32(b);
	misc = sw16(b + 4);
	len = sw16(b + 6);
	if (len < HDR) {
		*why = "record size is smaller than its header";
		return -EINVAL;
	}
	if (len > size) {
		*why = "record size exceeds the bytes given";
		return -EINVAL;
	}

	if (type == PERF_RECORD_HEADER_ATTR) {
		uint32_t asz;

		if (len < HDR + PERF_ATTR_SIZE_VER0)
			return 0;
		asz = bswap_32(ld32(b + 12));
		if (!asz)
			asz = PERF_ATTR_SIZE_VER0;
		if (asz < PERF_ATTR_SIZE_VER0 || asz % 8 || asz > (uint32_t)len - HDR) {
			*why = "ATTR attr.size is invalid";
			return -EINVAL;
		}
		perf_event_attr__swap(b + HDR, asz);
		array64(b, len, HDR + asz, UINT64_MAX);
		return 0;
	}
	if (type >= PERF_RECORD_USER_TYPE_START) {
		swap_body(b, len, type, misc);
		return 0;
	}

	ea = find_attr(evlist, type, b, len, 1, &id);
	if (type == PERF_RECORD_SAMPLE) {
		if (ea) {
			swap_sample(b, len, &ea->attr);
		} else if (evlist && evlist->id_pos >= 0) {
			/* only the id, so that decoding names it as in a native file */
			size_t off = id_offset(1, evlist->id_pos, len);

			if (off)
				sw64(b + off);
		}
		return 0;
	}
	body_end = ea ? swap_trailer(b, len, ea) : len;
	swap_body(b, body_end, type, misc);
	return 0;
}

/* ------------------------------------------------------- sample_type names */

int perf_sample_type__format(uint64_t sample_type, struct strbuf *sb)
{
	/* the order of __p_sample_type() in tools/perf/util/perf_event_attr_fprintf.c */
	static const struct {
		uint64_t bit;
		const char *name;
	} bits[] = {
		{ PERF_SAMPLE_IP, "IP" }, { PERF_SAMPLE_TID, "TID" },
		{ PERF_SAMPLE_TIME, "TIME" }, { PERF_SAMPLE_ADDR, "ADDR" },
		{ PERF_SAMPLE_READ, "READ" }, { PERF_SAMPLE_CALLCHAIN, "CALLCHAIN" },
		{ PERF_SAMPLE_ID, "ID" }, { PERF_SAMPLE_CPU, "CPU" },
		{ PERF_SAMPLE_PERIOD, "PERIOD" }, { PERF_SAMPLE_STREAM_ID, "STREAM_ID" },
		{ PERF_SAMPLE_RAW, "RAW" }, { PERF_SAMPLE_BRANCH_STACK, "BRANCH_STACK" },
		{ PERF_SAMPLE_REGS_USER, "REGS_USER" }, { PERF_SAMPLE_STACK_USER, "STACK_USER" },
		{ PERF_SAMPLE_IDENTIFIER, "IDENTIFIER" }, { PERF_SAMPLE_REGS_INTR, "REGS_INTR" },
		{ PERF_SAMPLE_DATA_SRC, "DATA_SRC" }, { PERF_SAMPLE_WEIGHT, "WEIGHT" },
		{ PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR" }, { PERF_SAMPLE_AUX, "AUX" },
		{ PERF_SAMPLE_CGROUP, "CGROUP" }, { PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
		{ PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
		{ PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" },
	};
	size_t i;
	int first = 1;

	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		if (!(sample_type & bits[i].bit))
			continue;
		if (!first && strbuf__addch(sb, '|'))
			return -ENOMEM;
		if (strbuf__addstr(sb, bits[i].name))
			return -ENOMEM;
		first = 0;
	}
	return 0;
}

/* ------------------------------------------------------------------- dump */

struct dump {
	struct strbuf *sb;
	int err;
};

static void out(struct dump *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void out(struct dump *d, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	if (d->err)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0 || strbuf__add(d->sb, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1))
		d->err = -ENOMEM;
}

static void out_u(struct dump *d, const char *key, uint64_t v)
{
	out(d, " %s=%" PRIu64, key, v);
}

static void out_x(struct dump *d, const char *key, uint64_t v)
{
	out(d, " %s=0x%" PRIx64, key, v);
}

/* a string quoted, with ", \ and bytes outside printable ASCII escaped */
static void out_str(struct dump *d, const char *key, const char *s, size_t max)
{
	size_t i;

	if (!s)
		s = "";
	out(d, " %s=\"", key);
	for (i = 0; i < max && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			out(d, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			out(d, "\\x%02x", c);
		else
			out(d, "%c", c);
	}
	out(d, "\"");
}

/* bytes as hex; longer runs as their length and FNV-1a hash */
static void out_bytes(struct dump *d, const char *key, const void *data, uint64_t n)
{
	const uint8_t *p = data;
	uint64_t i, h = 0xcbf29ce484222325ULL;

	if (n > 256) {
		for (i = 0; i < n; i++)
			h = (h ^ p[i]) * 0x100000001b3ULL;
		out(d, " %s=#%" PRIu64 ":fnv1a64:0x%016" PRIx64, key, n, h);
		return;
	}
	out(d, " %s=", key);
	for (i = 0; i < n; i++)
		out(d, "%02x", p[i]);
}

static void out_u64s(struct dump *d, const char *key, const uint64_t *v, uint64_t n)
{
	const uint8_t *p = (const void *)v;
	uint64_t i;

	out(d, " %s=[", key);
	for (i = 0; i < n; i++)
		out(d, "%s0x%" PRIx64, i ? "," : "", ld64(p + 8 * i));
	out(d, "]");
}

static void out_read(struct dump *d, const char *key, const struct perf_sample_read *r, uint64_t fmt)
{
	out(d, " %s={", key);
	out(d, "nr=%" PRIu64, r->nr);
	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
		out_u(d, "enabled", r->time_enabled);
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
		out_u(d, "running", r->time_running);
	if (fmt & PERF_FORMAT_GROUP) {
		const uint8_t *g = (const void *)r->group;
		uint64_t i;

		out(d, " values=[");
		for (i = 0; i < r->nr; i++) {
			const uint8_t *e = g + 8 * r->group_stride * i;
			unsigned k = 1;

			out(d, "%s%" PRIu64, i ? "," : "", ld64(e));
			if (fmt & PERF_FORMAT_ID)
				out(d, "/id=0x%" PRIx64, ld64(e + 8 * k++));
			if (fmt & PERF_FORMAT_LOST)
				out(d, "/lost=%" PRIu64, ld64(e + 8 * k));
		}
		out(d, "]");
	} else {
		out_u(d, "value", r->one.value);
		if (fmt & PERF_FORMAT_ID)
			out_x(d, "id", r->one.id);
		if (fmt & PERF_FORMAT_LOST)
			out_u(d, "lost", r->one.lost);
	}
	out(d, "}");
}

static void out_regs(struct dump *d, const char *key, const struct perf_sample_regs *r)
{
	out(d, " %s={abi=%" PRIu64 " mask=0x%" PRIx64, key, r->abi, r->mask);
	if (r->abi)
		out_u64s(d, "regs", r->regs, r->nr);
	out(d, "}");
}

static void out_sample(struct dump *d, const struct perf_sample *s, const struct perf_evattr *ea)
{
	uint64_t t = s->sample_type;
	uint64_t fmt = ea ? ea->attr.read_format : 0;

	if (t & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID))
		out_x(d, "id", s->id);
	if (t & PERF_SAMPLE_IP)
		out_x(d, "ip", s->ip);
	if (t & PERF_SAMPLE_TID)
		out(d, " pid=%" PRIu32 " tid=%" PRIu32, s->pid, s->tid);
	if (t & PERF_SAMPLE_TIME)
		out_u(d, "time", s->time);
	if (t & PERF_SAMPLE_ADDR)
		out_x(d, "addr", s->addr);
	if (t & PERF_SAMPLE_STREAM_ID)
		out_x(d, "stream_id", s->stream_id);
	if (t & PERF_SAMPLE_CPU)
		out(d, " cpu=%" PRIu32 " cpu_res=%" PRIu32, s->cpu, s->cpu_res);
	if (t & PERF_SAMPLE_PERIOD)
		out_u(d, "period", s->period);
	if (t & PERF_SAMPLE_READ)
		out_read(d, "read", &s->read, fmt);
	if (t & PERF_SAMPLE_CALLCHAIN)
		out_u64s(d, "callchain", s->callchain, s->callchain_nr);
	if (t & PERF_SAMPLE_RAW)
		out_bytes(d, "raw", s->raw, s->raw_size);
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		const uint8_t *e = (const void *)s->branches;
		uint64_t i;

		out_u(d, "branch_nr", s->branch_nr);
		if (s->has_branch_hw_idx)
			out_x(d, "branch_hw_idx", s->branch_hw_idx);
		out(d, " branches=[");
		for (i = 0; i < s->branch_nr; i++, e += 24)
			out(d, "%s0x%" PRIx64 "->0x%" PRIx64 "/0x%" PRIx64, i ? "," : "",
			    ld64(e), ld64(e + 8), ld64(e + 16));
		out(d, "]");
		if (s->branch_counters)
			out_u64s(d, "branch_counters", s->branch_counters, s->branch_nr);
	}
	if (t & PERF_SAMPLE_REGS_USER)
		out_regs(d, "user_regs", &s->user_regs);
	if (t & PERF_SAMPLE_STACK_USER) {
		out_u(d, "user_stack_size", s->user_stack_size);
		if (s->user_stack_size) {
			out_bytes(d, "user_stack", s->user_stack, s->user_stack_size);
			out_u(d, "user_stack_dyn_size", s->user_stack_dyn_size);
		}
	}
	if (t & PERF_SAMPLE_WEIGHT)
		out_u(d, "weight", s->weight);
	else if (t & PERF_SAMPLE_WEIGHT_STRUCT)
		out(d, " weight=%" PRIu64 " weight_var2=%u weight_var3=%u", s->weight,
		    s->weight_var2, s->weight_var3);
	if (t & PERF_SAMPLE_DATA_SRC)
		out_x(d, "data_src", s->data_src);
	if (t & PERF_SAMPLE_TRANSACTION)
		out_x(d, "transaction", s->transaction);
	if (t & PERF_SAMPLE_REGS_INTR)
		out_regs(d, "intr_regs", &s->intr_regs);
	if (t & PERF_SAMPLE_PHYS_ADDR)
		out_x(d, "phys_addr", s->phys_addr);
	if (t & PERF_SAMPLE_CGROUP)
		out_u(d, "cgroup", s->cgroup);
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE)
		out_u(d, "data_page_size", s->data_page_size);
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE)
		out_u(d, "code_page_size", s->code_page_size);
	if (t & PERF_SAMPLE_AUX) {
		out_u(d, "aux_size", s->aux_size);
		out_bytes(d, "aux", s->aux, s->aux_size);
	}
}

static void out_cpu_map(struct dump *d, const struct perf_rec_cpu_map *m)
{
	const uint8_t *p = m->data;
	uint64_t i;

	out(d, " map_type=%u", m->type);
	switch (m->type) {
	case 0:
		out(d, " cpus=[");
		for (i = 0; i < m->nr; i++)
			out(d, "%s%u", i ? "," : "", ld16(p + 2 * i));
		out(d, "]");
		break;
	case 1:
		out(d, " long_size=%u mask=[", m->long_size);
		for (i = 0; i < m->nr; i++) {
			if (m->long_size == 4)
				out(d, "%s0x%" PRIx32, i ? "," : "", ld32(p + 4 * i));
			else
				out(d, "%s0x%" PRIx64, i ? "," : "", ld64(p + 8 * i));
		}
		out(d, "]");
		break;
	case 2:
		out(d, " any_cpu=%u start_cpu=%u end_cpu=%u", m->any_cpu, m->start_cpu, m->end_cpu);
		break;
	default:
		break;
	}
}

static void out_body(struct dump *d, const struct perf_record *rec)
{
	const uint8_t *b = rec->data;
	uint64_t i;

	switch (rec->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		const struct perf_rec_mmap *m = &rec->u.mmap;

		out(d, " pid=%" PRIu32 " tid=%" PRIu32, m->pid, m->tid);
		out_x(d, "start", m->start);
		out_x(d, "len", m->len);
		out_x(d, "pgoff", m->pgoff);
		if (rec->type == PERF_RECORD_MMAP2) {
			if (m->build_id) {
				out_bytes(d, "build_id", m->build_id, m->build_id_size);
			} else {
				out(d, " maj=%" PRIu32 " min=%" PRIu32, m->maj, m->min);
				out_u(d, "ino", m->ino);
				out_u(d, "ino_generation", m->ino_generation);
			}
			out(d, " prot=0x%" PRIx32 " flags=0x%" PRIx32, m->prot, m->flags);
		}
		out_str(d, "filename", m->filename, SIZE_MAX);
		break;
	}
	case PERF_RECORD_COMM:
		out(d, " pid=%" PRIu32 " tid=%" PRIu32 " exec=%d", rec->u.comm.pid, rec->u.comm.tid,
		    rec->u.comm.exec);
		out_str(d, "comm", rec->u.comm.comm, SIZE_MAX);
		break;
	case PERF_RECORD_EXIT:
	case PERF_RECORD_FORK: {
		const struct perf_rec_fork *f = &rec->u.fork;

		out(d, " pid=%" PRIu32 " ppid=%" PRIu32 " tid=%" PRIu32 " ptid=%" PRIu32,
		    f->pid, f->ppid, f->tid, f->ptid);
		out_u(d, "time", f->time);
		break;
	}
	case PERF_RECORD_LOST:
		out_x(d, "lost_id", rec->u.lost.id);
		out_u(d, "lost", rec->u.lost.lost);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		out_u(d, "lost", rec->u.lost.lost);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		out_u(d, "throttle_time", rec->u.throttle.time);
		out_x(d, "throttle_id", rec->u.throttle.id);
		out_x(d, "throttle_stream_id", rec->u.throttle.stream_id);
		break;
	case PERF_RECORD_READ:
		out(d, " pid=%" PRIu32 " tid=%" PRIu32, rec->u.read.pid, rec->u.read.tid);
		out_read(d, "values", &rec->u.read.values,
			 rec->evattr ? rec->evattr->attr.read_format : 0);
		break;
	case PERF_RECORD_AUX:
		out_x(d, "aux_offset", rec->u.aux.aux_offset);
		out_x(d, "aux_size", rec->u.aux.aux_size);
		out_x(d, "flags", rec->u.aux.flags);
		break;
	case PERF_RECORD_ITRACE_START:
		out(d, " pid=%" PRIu32 " tid=%" PRIu32, rec->u.itrace_start.pid,
		    rec->u.itrace_start.tid);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		out(d, " out=%d preempt=%d", rec->u.sw.out, rec->u.sw.preempt);
		if (rec->type == PERF_RECORD_SWITCH_CPU_WIDE)
			out(d, " next_prev_pid=%" PRIu32 " next_prev_tid=%" PRIu32,
			    rec->u.sw.next_prev_pid, rec->u.sw.next_prev_tid);
		break;
	case PERF_RECORD_NAMESPACES:
		out(d, " pid=%" PRIu32 " tid=%" PRIu32, rec->u.namespaces.pid, rec->u.namespaces.tid);
		out_u(d, "nr_namespaces", rec->u.namespaces.nr);
		out(d, " link_info=[");
		for (i = 0; i < rec->u.namespaces.nr; i++) {
			const uint8_t *l = (const void *)(rec->u.namespaces.link_info + 2 * i);

			out(d, "%s0x%" PRIx64 "/%" PRIu64, i ? "," : "", ld64(l), ld64(l + 8));
		}
		out(d, "]");
		break;
	case PERF_RECORD_KSYMBOL:
		out_x(d, "addr", rec->u.ksymbol.addr);
		out(d, " len=%" PRIu32 " ksym_type=%u flags=0x%x", rec->u.ksymbol.len,
		    rec->u.ksymbol.ksym_type, rec->u.ksymbol.flags);
		out_str(d, "name", rec->u.ksymbol.name, SIZE_MAX);
		break;
	case PERF_RECORD_BPF_EVENT:
		out(d, " bpf_type=%u flags=0x%x bpf_id=%" PRIu32, rec->u.bpf_event.type,
		    rec->u.bpf_event.flags, rec->u.bpf_event.id);
		out_bytes(d, "tag", rec->u.bpf_event.tag, 8);
		break;
	case PERF_RECORD_CGROUP:
		out_u(d, "cgroup_id", rec->u.cgroup.id);
		out_str(d, "path", rec->u.cgroup.path, SIZE_MAX);
		break;
	case PERF_RECORD_TEXT_POKE:
		out_x(d, "addr", rec->u.text_poke.addr);
		out(d, " old_len=%u new_len=%u", rec->u.text_poke.old_len, rec->u.text_poke.new_len);
		out_bytes(d, "bytes", rec->u.text_poke.bytes,
			  (uint64_t)rec->u.text_poke.old_len + rec->u.text_poke.new_len);
		break;
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		out_x(d, "hw_id", rec->u.aux_output_hw_id.hw_id);
		break;
	case PERF_RECORD_HEADER_ATTR: {
		const struct perf_rec_header_attr *h = &rec->u.header_attr;
		const uint8_t *a = h->attr;

		out(d, " attr_size=%" PRIu32 " attr_type=%" PRIu32, h->attr_size, ld32(a));
		out_x(d, "config", ld64(a + 8));
		out_u(d, "sample_period", ld64(a + 16));
		out_x(d, "sample_type", ld64(a + 24));
		out_x(d, "read_format", ld64(a + 32));
		out_x(d, "flags", ld64(a + 40));
		out_bytes(d, "attr", a + 48, h->attr_size - 48);
		out_u64s(d, "ids", h->ids, h->nr_ids);
		break;
	}
	case PERF_RECORD_HEADER_EVENT_TYPE:
		out_u(d, "event_id", rec->u.event_type.event_id);
		out_str(d, "name", rec->u.event_type.name, SIZE_MAX);
		break;
	case PERF_RECORD_HEADER_TRACING_DATA:
		out_u(d, "tracing_data_size", rec->u.tracing_data.size);
		break;
	case PERF_RECORD_HEADER_BUILD_ID:
		out(d, " pid=%" PRId32, rec->u.build_id.pid);
		out_bytes(d, "build_id", rec->u.build_id.build_id, rec->u.build_id.size);
		out_str(d, "filename", rec->u.build_id.filename, SIZE_MAX);
		break;
	case PERF_RECORD_ID_INDEX: {
		const struct perf_rec_id_index *ix = &rec->u.id_index;

		out_u(d, "nr", ix->nr);
		out(d, " entries=[");
		for (i = 0; i < ix->nr; i++) {
			const uint8_t *e = (const void *)(ix->entries + i);

			out(d, "%sid=0x%" PRIx64 "/idx=%" PRIu64 "/cpu=%" PRId64 "/tid=%" PRId64,
			    i ? "," : "", ld64(e), ld64(e + 8), (int64_t)ld64(e + 16),
			    (int64_t)ld64(e + 24));
			if (ix->ext) {
				const uint8_t *x = (const void *)(ix->ext + 2 * i);

				out(d, "/machine_pid=%" PRIu64 "/vcpu=%" PRIu64, ld64(x), ld64(x + 8));
			}
		}
		out(d, "]");
		break;
	}
	case PERF_RECORD_AUXTRACE_INFO:
		out(d, " auxtrace_type=%" PRIu32, rec->u.auxtrace_info.type);
		out_u64s(d, "priv", rec->u.auxtrace_info.priv, rec->u.auxtrace_info.nr_priv);
		break;
	case PERF_RECORD_AUXTRACE: {
		const struct perf_rec_auxtrace *a = &rec->u.auxtrace;

		out_u(d, "aux_size", a->size);
		out_x(d, "aux_offset", a->offset);
		out_x(d, "reference", a->reference);
		out(d, " idx=%" PRIu32 " tid=%" PRId32 " cpu=%" PRId32, a->idx, (int32_t)a->tid,
		    (int32_t)a->cpu);
		break;
	}
	case PERF_RECORD_AUXTRACE_ERROR: {
		const struct perf_rec_auxtrace_error *e = &rec->u.auxtrace_error;

		out(d, " error_type=%" PRIu32 " code=%" PRIu32 " cpu=%" PRId32 " pid=%" PRId32
		    " tid=%" PRId32 " fmt=%" PRIu32, e->type, e->code, (int32_t)e->cpu,
		    (int32_t)e->pid, (int32_t)e->tid, e->fmt);
		out_x(d, "ip", e->ip);
		if (e->fmt >= 1)
			out_u(d, "time", e->time);
		out_str(d, "msg", e->msg, SIZE_MAX);
		if (e->fmt >= 2)
			out(d, " machine_pid=%" PRIu32 " vcpu=%" PRIu32, e->machine_pid, e->vcpu);
		break;
	}
	case PERF_RECORD_THREAD_MAP: {
		const uint8_t *e = rec->u.thread_map.entries;

		out_u(d, "nr", rec->u.thread_map.nr);
		out(d, " threads=[");
		for (i = 0; i < rec->u.thread_map.nr; i++, e += 24) {
			out(d, "%s%" PRId64, i ? "," : "", (int64_t)ld64(e));
			out_str(d, "/comm", (const char *)e + 8, 16);
		}
		out(d, "]");
		break;
	}
	case PERF_RECORD_CPU_MAP:
		out_cpu_map(d, &rec->u.cpu_map);
		break;
	case PERF_RECORD_STAT_CONFIG: {
		const uint8_t *e = (const void *)rec->u.stat_config.data;

		out_u(d, "nr", rec->u.stat_config.nr);
		out(d, " config=[");
		for (i = 0; i < rec->u.stat_config.nr; i++, e += 16)
			out(d, "%s%" PRIu64 ":%" PRIu64, i ? "," : "", ld64(e), ld64(e + 8));
		out(d, "]");
		break;
	}
	case PERF_RECORD_STAT: {
		const struct perf_rec_stat *st = &rec->u.stat;

		out_x(d, "stat_id", st->id);
		out(d, " cpu=%" PRId32 " thread=%" PRId32, (int32_t)st->cpu, (int32_t)st->thread);
		out_u(d, "val", st->val);
		out_u(d, "ena", st->ena);
		out_u(d, "run", st->run);
		break;
	}
	case PERF_RECORD_STAT_ROUND:
		out_u(d, "round_type", rec->u.stat_round.type);
		out_u(d, "time", rec->u.stat_round.time);
		break;
	case PERF_RECORD_EVENT_UPDATE: {
		const struct perf_rec_event_update *ev = &rec->u.event_update;

		out_u(d, "update_type", ev->type);
		out_x(d, "update_id", ev->id);
		if (ev->str)
			out_str(d, ev->type ? "name" : "unit", ev->str, SIZE_MAX);
		else if (ev->type == 1)
			out(d, " scale=%.17g", ev->scale);
		else if (ev->type == 3)
			out_cpu_map(d, &ev->cpus);
		else
			out_bytes(d, "data", ev->data, ev->data_size);
		break;
	}
	case PERF_RECORD_TIME_CONV: {
		const struct perf_rec_time_conv *tc = &rec->u.time_conv;

		out_u(d, "time_shift", tc->time_shift);
		out_u(d, "time_mult", tc->time_mult);
		out_u(d, "time_zero", tc->time_zero);
		if (tc->has_ext) {
			out_u(d, "time_cycles", tc->time_cycles);
			out_x(d, "time_mask", tc->time_mask);
			out(d, " cap_user_time_zero=%u cap_user_time_short=%u",
			    tc->cap_user_time_zero, tc->cap_user_time_short);
		}
		break;
	}
	case PERF_RECORD_HEADER_FEATURE:
		/* the section stays in file byte order: its size only, so both orders dump alike */
		out_u(d, "feat_id", rec->u.feature.feat_id);
		out_u(d, "data_size", rec->u.feature.size);
		break;
	case PERF_RECORD_COMPRESSED:
	case PERF_RECORD_COMPRESSED2:
		out_u(d, "data_size", rec->u.compressed.size);
		out_bytes(d, "data", rec->u.compressed.data, rec->u.compressed.size);
		break;
	case PERF_RECORD_FINISHED_ROUND:
	case PERF_RECORD_FINISHED_INIT:
	case PERF_RECORD_SAMPLE:
		break;
	default:
		/* an unknown type: its bytes after the header */
		out_bytes(d, "body", b + HDR, rec->size - HDR);
		break;
	}
}

int perf_record__dump(const struct perf_record *rec, struct strbuf *sb)
{
	struct dump d = { sb, 0 };
	const char *name = perf_record_type__name(rec->type);

	if (name)
		out(&d, "%s", name);
	else
		out(&d, "TYPE_%" PRIu32, rec->type);
	out(&d, " nr=%" PRIu64 " offset=0x%" PRIx64 " misc=0x%x size=%u", rec->nr, rec->offset,
	    rec->misc, rec->size);
	if (rec->compressed)
		out(&d, " compressed=1");
	if (rec->evattr)
		out(&d, " attr=%d", rec->evattr->idx);
	if (rec->payload_size)
		out_u(&d, "payload_size", rec->payload_size);
	if (rec->size >= HDR) {
		out_body(&d, rec);
		if (rec->sample.sample_type)
			out_sample(&d, &rec->sample, rec->evattr);
	}
	out(&d, "\n");
	return d.err;
}

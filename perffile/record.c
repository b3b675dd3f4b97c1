/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Record decoding: the attr a record belongs to, every PERF_SAMPLE_* field,
 * the sample_id_all trailer, and the drivers that decode, byte-swap and dump
 * a record body through its entry in the table of rectypes.c (layouts in
 * layout.h).
 *
 * Sample parsing follows evsel__parse_sample() and
 * perf_evsel__parse_id_sample() in tools/perf/util/evsel.c; attr lookup
 * follows evlist__event2evsel(); the sample swap follows
 * perf_event__all64_swap() and evsel__bitfield_swap_branch_flags().
 *
 * Every load is a memcpy from the record bytes and every count is checked
 * against the bytes that remain, in 64 bits, before it is used.
 */
#include <byteswap.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "perffile/perffile.h"
#include "perffile/record-internal.h"
#include "util/hashmap.h"
#include "util/strbuf.h"

/* newer than the 6.1 uapi header */
#define RP_SAMPLE_BRANCH_COUNTERS	(1ULL << 19)
#define RP_SAMPLE_KNOWN			(PERF_SAMPLE_MAX - 1)

#define TRAILER_MASK (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
		      PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)


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

int rec_fail(struct perf_record *rec, const char **why, const char *fmt, ...)
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
	return rec_fail(rec, why, "%s exceeds the record", field);
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

static void prepare_fixed(struct perf_evattr *a);

static void prepare_attr(struct perf_evattr *a)
{
	uint64_t t = a->attr.sample_type;

	a->id_pos = calc_id_pos(t);
	a->is_pos = calc_is_pos(t);
	a->trailer_size = a->attr.sample_id_all ? 8 * (size_t)__builtin_popcountll(t & TRAILER_MASK) : 0;
	prepare_fixed(a);
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

/* find_attr() in a file of several attrs whose records carry ids */
static const struct perf_evattr *find_attr_by_id(const struct perf_evlist *el, int sample,
						 const uint8_t *data, size_t size, int foreign,
						 uint64_t *idp)
{
	int pos = sample ? el->id_pos : el->is_pos;
	size_t off;
	uint64_t id;

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

/* inline: the one-attr answer, most recordings', is taken on every record */
static inline const struct perf_evattr *find_attr(const struct perf_evlist *el, uint32_t type,
						  const uint8_t *data, size_t size, int foreign,
						  uint64_t *idp)
{
	int sample = type == PERF_RECORD_SAMPLE;

	*idp = 0;
	if (!el || !el->nr || type >= PERF_RECORD_USER_TYPE_START || size < HDR)
		return NULL;
	if (el->nr == 1)
		return &el->attrs[0];
	if (!sample && !el->sample_id_all)
		return &el->attrs[0];
	return find_attr_by_id(el, sample, data, size, foreign, idp);
}

const struct perf_evattr *perf_evlist__find(const struct perf_evlist *evlist, uint32_t type,
					    const void *data, size_t size)
{
	uint64_t id;

	return find_attr(evlist, type, data, size, 0, &id);
}

/* ------------------------------------------------------------ sample decode */

int rec_read_values(struct perf_record *rec, const uint8_t **pp, const uint8_t *end,
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
			return rec_fail(rec, why, "read group nr %" PRIu64 " exceeds the record", first);
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
			return rec_fail(rec, why, "%s: %" PRIu64 " registers exceed the record", what, nr);
		r->regs = (const uint64_t *)(const void *)p;
		r->nr = (unsigned)nr;
		p += nr * 8;
	}
	*pp = p;
	return 0;
}

/* inline: most recordings' samples carry a callchain */
static inline int decode_callchain(struct perf_record *rec, const uint8_t **pp, const uint8_t *end,
				   const char **why)
{
	struct perf_sample *s = &rec->sample;
	const uint8_t *p = *pp;
	uint64_t v;

	if (take64(&p, end, &v))
		return short_field(rec, why, "callchain nr");
	if (v > (uint64_t)(end - p) / 8)
		return rec_fail(rec, why, "callchain nr %" PRIu64 " exceeds the record", v);
	s->callchain_nr = v;
	s->callchain = (const uint64_t *)(const void *)p;
	*pp = p + v * 8;
	return 0;
}

static int decode_raw(struct perf_record *rec, const uint8_t **pp, const uint8_t *end, const char **why)
{
	const uint8_t *base = rec->data, *p = *pp;
	struct perf_sample *s = &rec->sample;
	size_t off;

	if (end - p < 4)
		return short_field(rec, why, "raw size");
	s->raw_size = ld32(p);
	p += 4;
	if (s->raw_size > (uint64_t)(end - p))
		return rec_fail(rec, why, "raw size %" PRIu32 " exceeds the record", s->raw_size);
	s->raw = p;
	p += s->raw_size;
	/* the kernel pads u32 size + data to a multiple of 8 */
	off = (size_t)(p - base);
	off = (off + 7) & ~(size_t)7;
	*pp = off < rec->size ? base + off : end;
	return 0;
}

/* bst: the attr's branch_sample_type, which says what comes beside the entries */
static int decode_branch_stack(struct perf_record *rec, const uint8_t **pp, const uint8_t *end,
			       uint64_t bst, const char **why)
{
	struct perf_sample *s = &rec->sample;
	const uint8_t *p = *pp;
	uint64_t v;

	if (take64(&p, end, &v))
		return short_field(rec, why, "branch nr");
	if (bst & PERF_SAMPLE_BRANCH_HW_INDEX) {
		if (take64(&p, end, &s->branch_hw_idx))
			return short_field(rec, why, "branch hw_idx");
		s->has_branch_hw_idx = 1;
	}
	if (v > (uint64_t)(end - p) / sizeof(struct perf_branch_entry))
		return rec_fail(rec, why, "branch nr %" PRIu64 " exceeds the record", v);
	s->branch_nr = v;
	s->branches = (const struct perf_branch_entry *)(const void *)p;
	p += v * sizeof(struct perf_branch_entry);
	if (bst & RP_SAMPLE_BRANCH_COUNTERS) {
		if (v > (uint64_t)(end - p) / 8)
			return rec_fail(rec, why, "branch counters nr %" PRIu64 " exceed the record", v);
		s->branch_counters = (const uint64_t *)(const void *)p;
		p += v * 8;
	}
	*pp = p;
	return 0;
}

static int decode_user_stack(struct perf_record *rec, const uint8_t **pp, const uint8_t *end,
			     const char **why)
{
	struct perf_sample *s = &rec->sample;
	const uint8_t *p = *pp;
	uint64_t v;

	if (take64(&p, end, &v))
		return short_field(rec, why, "user stack size");
	if (v) {
		if (v > (uint64_t)(end - p))
			return rec_fail(rec, why, "user stack size %" PRIu64 " exceeds the record", v);
		s->user_stack_size = v;
		s->user_stack = p;
		p += v;
		if (take64(&p, end, &s->user_stack_dyn_size))
			return short_field(rec, why, "user stack dyn_size");
		if (s->user_stack_dyn_size > v)
			return rec_fail(rec, why, "user stack dyn_size %" PRIu64 " exceeds its size %" PRIu64,
				    s->user_stack_dyn_size, v);
	}
	*pp = p;
	return 0;
}

/* PERF_SAMPLE_WEIGHT_STRUCT packs var1 (u32), var2 and var3 (u16 each) in the u64 */
static void set_weight(struct perf_sample *s, uint64_t type, uint64_t v)
{
	if (type & PERF_SAMPLE_WEIGHT) {
		s->weight = v;
	} else {
		s->weight = (uint32_t)v;
		s->weight_var2 = (uint16_t)(v >> 32);
		s->weight_var3 = (uint16_t)(v >> 48);
	}
}

#define SAMPLE_AFTER_PERIOD (PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK | \
			     PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT | \
			     PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION | \
			     PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP | \
			     PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_AUX)
_Static_assert((SAMPLE_AFTER_PERIOD | PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD) ==
	       RP_SAMPLE_KNOWN, "every known field is decoded before the period or after it");

static int decode_sample_rest(struct perf_record *rec, const struct perf_event_attr *attr,
			      const uint8_t *p, const uint8_t *end, const char **why);

/* the fields before the period's end, in the order a sample has them, and where each goes */
static const struct {
	uint64_t bit;
	uint8_t dst;
} fixed_fields[] = {
	{ PERF_SAMPLE_IDENTIFIER, offsetof(struct perf_sample, id) },
	{ PERF_SAMPLE_IP, offsetof(struct perf_sample, ip) },
	{ PERF_SAMPLE_TID, offsetof(struct perf_sample, pid) },	/* pid and tid: two u32 */
	{ PERF_SAMPLE_TIME, offsetof(struct perf_sample, time) },
	{ PERF_SAMPLE_ADDR, offsetof(struct perf_sample, addr) },
	{ PERF_SAMPLE_ID, offsetof(struct perf_sample, id) },
	{ PERF_SAMPLE_STREAM_ID, offsetof(struct perf_sample, stream_id) },
	{ PERF_SAMPLE_CPU, offsetof(struct perf_sample, cpu) },	/* cpu and res: two u32 */
	{ PERF_SAMPLE_PERIOD, offsetof(struct perf_sample, period) },
};

_Static_assert(offsetof(struct perf_sample, tid) == offsetof(struct perf_sample, pid) + 4 &&
	       offsetof(struct perf_sample, cpu_res) == offsetof(struct perf_sample, cpu) + 4,
	       "a u32 pair of a sample is one u64 of struct perf_sample");

/* nine fields, of which the two ids not both: eight places at most */
_Static_assert(sizeof(fixed_fields) / sizeof(fixed_fields[0]) == 9 &&
	       sizeof(((struct perf_evattr *)0)->fixed_dst) == 8, "a fixed layout has at most eight u64");

static void prepare_fixed(struct perf_evattr *a)
{
	uint64_t t = a->attr.sample_type;
	size_t i;

	a->fixed_size = 0;
	a->nr_fixed = 0;
	/* the identifier and the id both (perf sets one or the other) go to one field: the long way */
	if ((t & (SAMPLE_AFTER_PERIOD | ~(uint64_t)RP_SAMPLE_KNOWN)) ||
	    (t & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID)) == (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID))
		return;
	for (i = 0; i < sizeof(fixed_fields) / sizeof(fixed_fields[0]); i++)
		if (t & fixed_fields[i].bit)
			a->fixed_dst[a->nr_fixed++] = fixed_fields[i].dst;
	a->fixed_size = (uint16_t)(HDR + 8 * a->nr_fixed);
}

/* a sample of an attr with fixed_size, at least that long */
static inline void decode_fixed(struct perf_record *rec, const struct perf_evattr *ea)
{
	const uint8_t *p = rec->data + HDR, *dst = ea->fixed_dst;
	char *s = (char *)&rec->sample;

	rec->sample.sample_type = ea->attr.sample_type;
	/* no two fields go to one place (prepare_fixed()): in any order, without a loop */
#define FIXED(k) case (k) + 1: memcpy(s + dst[k], p + 8 * (k), 8); __attribute__((fallthrough))
	switch (ea->nr_fixed) {
	FIXED(7);
	FIXED(6);
	FIXED(5);
	FIXED(4);
	FIXED(3);
	FIXED(2);
	FIXED(1);
	FIXED(0);
	default:
		break;
	}
#undef FIXED
}

static int decode_sample(struct perf_record *rec, const struct perf_evattr *ea, const char **why)
{
	const struct perf_event_attr *attr = &ea->attr;
	const uint8_t *p = rec->data + HDR, *end = rec->data + rec->size;
	struct perf_sample *s = &rec->sample;
	uint64_t type = attr->sample_type;

	s->sample_type = type;
	/*
	 * Most samples (ip, tid, time, period): a copy of each u64 to its
	 * field, without a test for each field and its bound: 14 instructions
	 * a sample fewer in each thread, of about 520 and 560 (callgrind, 1.6M
	 * samples of gen-perf --samples, --reports stat,events,results)
	 */
	if (ea->fixed_size && rec->size >= ea->fixed_size) {
		decode_fixed(rec, ea);
		return 0;
	}
	if (type & ~(uint64_t)RP_SAMPLE_KNOWN)
		return rec_fail(rec, why, "sample_type 0x%" PRIx64 " has unknown bits", type);
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
	/* most samples end here (ip, tid, time, period): a test instead of one per field below */
	if (!(type & SAMPLE_AFTER_PERIOD))
		return 0;
	rec->zero_tail = NULL;
	return decode_sample_rest(rec, attr, p, end, why);
}

/* the fields after the period, from p on */
static int decode_sample_rest(struct perf_record *rec, const struct perf_event_attr *attr,
			      const uint8_t *p, const uint8_t *end, const char **why)
{
	struct perf_sample *s = &rec->sample;
	uint64_t type = attr->sample_type;
	uint64_t v;
	int err;

	if (type & PERF_SAMPLE_READ) {
		err = rec_read_values(rec, &p, end, attr->read_format, &s->read, why);
		if (err)
			return err;
	}
	if (type & PERF_SAMPLE_CALLCHAIN) {
		err = decode_callchain(rec, &p, end, why);
		if (err)
			return err;
	}
	if (type & PERF_SAMPLE_RAW) {
		err = decode_raw(rec, &p, end, why);
		if (err)
			return err;
	}
	if (type & PERF_SAMPLE_BRANCH_STACK) {
		err = decode_branch_stack(rec, &p, end, attr->branch_sample_type, why);
		if (err)
			return err;
	}
	if (type & PERF_SAMPLE_REGS_USER) {
		err = decode_regs(rec, &p, end, attr->sample_regs_user, &s->user_regs, "user regs", why);
		if (err)
			return err;
	}
	if (type & PERF_SAMPLE_STACK_USER) {
		err = decode_user_stack(rec, &p, end, why);
		if (err)
			return err;
	}
	if (type & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		if (take64(&p, end, &v))
			return short_field(rec, why, "weight");
		set_weight(s, type, v);
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
			return rec_fail(rec, why, "aux size %" PRIu64 " exceeds the record", v);
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
		return rec_fail(rec, why, "sample_id_all trailer of %zu bytes exceeds the record",
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

/* ------------------------------------------------------------ record bodies */

int rec_too_short(struct perf_record *rec, const char **why, size_t need, size_t have)
{
	size_t trailer = rec->size - have;

	return rec_fail(rec, why, "record of %u bytes is shorter than %zu", rec->size, need + trailer);
}

int rec_no_nul(struct perf_record *rec, const char **why, const char *field)
{
	return rec_fail(rec, why, "%s is not terminated inside the record", field);
}

/* the body (size bytes, the sample_id_all trailer left out) through its type's entry */
static int decode_body(struct perf_record *rec, size_t size, const struct perf_evattr *ea,
		       const char **why)
{
	const struct rec_type *t = rec_type__get(rec->type);
	const uint8_t *b = rec->data;
	uint16_t i;

	if (!t)
		return 0;	/* unknown type: header (and trailer) only */
	if (size < t->min_size)
		return rec_too_short(rec, why, t->min_size, size);
	/* the record is in host order and a view field is as wide as its layout field */
	for (i = 0; i < t->nr_fields; i++) {
		const struct rec_field *f = &t->fields[i];

		if (f->view != REC_NO_VIEW && f->off + f->size <= size)
			memcpy((char *)&rec->u + f->view, b + f->off, f->size);
	}
	return t->decode ? t->decode(rec, b, size, ea, why) : 0;
}

/* perf_record__decode() of any record.  Out of line, so that the common sample saves no registers */
static int __attribute__((noinline)) decode_any(struct perf_record *rec, const struct perf_evlist *evlist,
						const char **why)
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

	/*
	 * Only the fields up to the period when the rest is still zero: a
	 * sample without SAMPLE_AFTER_PERIOD's fields, and every trailer,
	 * writes none of the rest.  Clearing all 376 bytes was 3.7 ns of a
	 * ~32 ns sample in each thread (the 1 GiB bench file).
	 */
	if (rec->zero_tail == &rec->sample)
		memset(&rec->sample, 0, offsetof(struct perf_sample, read));
	else
		zero(&rec->sample, 0, sizeof(rec->sample));
	rec->zero_tail = &rec->sample;
	/* the typed views are the other records' (a sample's u is never read) */
	if (rec->type != PERF_RECORD_SAMPLE)
		zero(&rec->u, 0, sizeof(rec->u));
	rec->evattr = NULL;
	if (rec->size < HDR)
		return rec_fail(rec, why, "size %u is smaller than the header", rec->size);

	if (rec->type >= PERF_RECORD_USER_TYPE_START)
		return decode_body(rec, rec->size, NULL, why);

	ea = find_attr(evlist, rec->type, rec->data, rec->size, 0, &id);
	rec->evattr = ea;
	if (rec->type == PERF_RECORD_SAMPLE) {
		if (!ea) {
			if (!evlist || !evlist->nr)
				return rec_fail(rec, why, "sample without any attr");
			if (!id)
				return rec_fail(rec, why, "sample id cannot be located");
			return rec_fail(rec, why, "unknown sample id 0x%" PRIx64, id);
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

int perf_record__decode(struct perf_record *rec, const struct perf_evlist *evlist, const char **why)
{
	const struct perf_evattr *ea;

	/* the common sample: of the one attr, of fixed_size, the record's tail still zero */
	if (rec->type == PERF_RECORD_SAMPLE && evlist && evlist->nr == 1 && rec->zero_tail == &rec->sample &&
	    (ea = &evlist->attrs[0])->fixed_size && rec->size >= ea->fixed_size) {
		memset(&rec->sample, 0, offsetof(struct perf_sample, read));
		rec->evattr = ea;
		decode_fixed(rec, ea);
		return 0;
	}
	return decode_any(rec, evlist, why);
}

/* ------------------------------------------------------------------- swap */

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
	swap_u64s(p, (size_t)(end - p), 0, n);
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
		swap_u64s(p, (size_t)(end - p), 0, nr);
		p += nr * 8;
	} else {
		p += 8;
	}
	*pp = p;
	return 0;
}

/*
 * The swap of one variable-size sample field at *pp: 0 with *pp past it, or
 * -1 where the record is too short (the caller stops there).
 */
static inline int swap_callchain(uint8_t **pp, uint8_t *end)
{
	uint8_t *p = *pp;
	uint64_t v;

	if (end - p < 8)
		return -1;
	v = sw64(p);
	p += 8;
	if (v > (uint64_t)(end - p) / 8)
		return -1;
	swap_u64s(p, (size_t)(end - p), 0, v);
	*pp = p + v * 8;
	return 0;
}

/* b, len: the record, as the padding after the data counts from its start */
static int swap_raw(uint8_t *b, size_t len, uint8_t **pp, uint8_t *end)
{
	uint8_t *p = *pp;
	uint64_t v;
	size_t off;

	if (end - p < 4)
		return -1;
	v = sw32(p);
	p += 4;
	if (v > (uint64_t)(end - p))
		return -1;
	p += v;
	off = ((size_t)(p - b) + 7) & ~(size_t)7;
	*pp = off < len ? b + off : end;
	return 0;
}

static int swap_branch_stack(uint8_t **pp, uint8_t *end, uint64_t bst)
{
	uint8_t *p = *pp;
	uint64_t v, i;

	if (end - p < 8)
		return -1;
	v = sw64(p);
	p += 8;
	if (bst & PERF_SAMPLE_BRANCH_HW_INDEX) {
		if (end - p < 8)
			return -1;
		sw64(p);
		p += 8;
	}
	if (v > (uint64_t)(end - p) / sizeof(struct perf_record_branch_entry))
		return -1;
	for (i = 0; i < v; i++, p += sizeof(struct perf_record_branch_entry)) {
		const size_t at = offsetof(struct perf_record_branch_entry, flags);
		uint64_t flags;

		SWAP_AT(p, end - p, struct perf_record_branch_entry, from);
		SWAP_AT(p, end - p, struct perf_record_branch_entry, to);
		flags = branch_flags_swap(sw64(p + at));
		memcpy(p + at, &flags, sizeof(flags));
	}
	if (bst & RP_SAMPLE_BRANCH_COUNTERS) {
		if (v > (uint64_t)(end - p) / 8)
			return -1;
		swap_u64s(p, (size_t)(end - p), 0, v);
		p += v * 8;
	}
	*pp = p;
	return 0;
}

static int swap_user_stack(uint8_t **pp, uint8_t *end)
{
	uint8_t *p = *pp;
	uint64_t v;

	if (end - p < 8)
		return -1;
	v = sw64(p);
	p += 8;
	if (v) {
		/* the stack dump is memory: bytes stay as they are */
		if (v > (uint64_t)(end - p))
			return -1;
		p += v;
		if (end - p < 8)
			return -1;
		sw64(p);
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
	uint64_t type = attr->sample_type, i;
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
	if ((type & PERF_SAMPLE_CALLCHAIN) && swap_callchain(&p, end))
		return;
	if ((type & PERF_SAMPLE_RAW) && swap_raw(b, len, &p, end))
		return;
	if ((type & PERF_SAMPLE_BRANCH_STACK) && swap_branch_stack(&p, end, attr->branch_sample_type))
		return;
	if ((type & PERF_SAMPLE_REGS_USER) && swap_regs(&p, end, attr->sample_regs_user))
		return;
	if ((type & PERF_SAMPLE_STACK_USER) && swap_user_stack(&p, end))
		return;
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

/* the body (end bytes, the sample_id_all trailer left out) through its type's entry */
static int swap_body(uint8_t *b, size_t end, uint32_t type, uint16_t misc, const char **why)
{
	const struct rec_type *t = rec_type__get(type);
	uint16_t i;

	if (!t)
		return 0;	/* a type we do not know: left as it is */
	for (i = 0; i < t->nr_fields; i++)
		swap_at(b, end, t->fields[i].off, t->fields[i].size);
	if (t->u64_from)
		swap_u64s(b, end, t->u64_from, UINT64_MAX);
	return t->swap ? t->swap(b, end, misc, why) : 0;
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
	type = (uint32_t)SWAP_AT(b, HDR, struct perf_event_header, type);
	misc = (uint16_t)SWAP_AT(b, HDR, struct perf_event_header, misc);
	len = (uint16_t)SWAP_AT(b, HDR, struct perf_event_header, size);
	if (len < HDR) {
		*why = "record size is smaller than its header";
		return -EINVAL;
	}
	if (len > size) {
		*why = "record size exceeds the bytes given";
		return -EINVAL;
	}

	if (type >= PERF_RECORD_USER_TYPE_START)
		return swap_body(b, len, type, misc, why);

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
	return swap_body(b, body_end, type, misc, why);
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

void out(struct dump *d, const char *fmt, ...)
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

void out_u(struct dump *d, const char *key, uint64_t v)
{
	out(d, " %s=%" PRIu64, key, v);
}

void out_x(struct dump *d, const char *key, uint64_t v)
{
	out(d, " %s=0x%" PRIx64, key, v);
}

/* a string quoted, with ", \ and bytes outside printable ASCII escaped */
void out_str(struct dump *d, const char *key, const char *s, size_t max)
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
void out_bytes(struct dump *d, const char *key, const void *data, uint64_t n)
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

void out_u64s(struct dump *d, const char *key, const uint64_t *v, uint64_t n)
{
	const uint8_t *p = (const void *)v;
	uint64_t i;

	out(d, " %s=[", key);
	for (i = 0; i < n; i++)
		out(d, "%s0x%" PRIx64, i ? "," : "", ld64(p + 8 * i));
	out(d, "]");
}

void out_read(struct dump *d, const char *key, const struct perf_sample_read *r, uint64_t fmt)
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
		for (i = 0; i < s->branch_nr; i++, e += sizeof(struct perf_record_branch_entry))
			out(d, "%s0x%" PRIx64 "->0x%" PRIx64 "/0x%" PRIx64, i ? "," : "",
			    REC_LD(e, struct perf_record_branch_entry, from),
			    REC_LD(e, struct perf_record_branch_entry, to),
			    REC_LD(e, struct perf_record_branch_entry, flags));
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

/* the fields of the record's type with a key, then what its dump function adds */
static void out_body(struct dump *d, const struct perf_record *rec, const struct rec_type *t)
{
	uint16_t i;

	if (!t || (!t->nr_fields && !t->decode && !t->dump)) {
		/* a type known by name only, or not at all: its bytes after the header */
		out_bytes(d, "body", (const uint8_t *)rec->data + HDR, rec->size - HDR);
		return;
	}
	for (i = 0; i < t->nr_fields; i++) {
		const struct rec_field *f = &t->fields[i];
		uint64_t v;

		if (!f->key)
			continue;
		v = rec_load((const uint8_t *)&rec->u + f->view, f->size);
		if (f->fmt == 'x')
			out_x(d, f->key, v);
		else if (f->fmt == 'd')
			out(d, " %s=%" PRId64, f->key, f->size == 4 ? (int64_t)(int32_t)v : (int64_t)v);
		else
			out_u(d, f->key, v);
	}
	if (t->dump)
		t->dump(d, rec);
}

int perf_record__dump(const struct perf_record *rec, struct strbuf *sb)
{
	struct dump d = { sb, 0 };
	const struct rec_type *t = rec_type__get(rec->type);

	if (t)
		out(&d, "%s", t->name);
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
		out_body(&d, rec, t);
		if (rec->sample.sample_type)
			out_sample(&d, &rec->sample, rec->evattr);
	}
	out(&d, "\n");
	return d.err;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests for perffile/record.c: attr lookup, every sample field, the
 * sample_id_all trailer, the typed view of every record type, byte swapping
 * and malformed records.
 *
 * Records are built byte by byte with tests/lib/perfemit in either byte
 * order, from the layouts in include/uapi/linux/perf_event.h and
 * tools/lib/perf/include/perf/event.h, independent of the decoder.  Every
 * record is decoded from an exactly sized heap copy so that AddressSanitizer
 * sees any read past its end.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perffile/perffile.h"
#include "perffile/record.h"
#include "util/hashmap.h"
#include "util/strbuf.h"
#include "tests/lib/external.h"
#include "tests/lib/perfemit.h"

/* ---------------------------------------------------------------- emitter */

/* one record at the start of e, in byte order be */
static void em_begin(struct perfemit *e, int be, uint32_t type, uint16_t misc)
{
	e->len = 0;
	e->be = be;
	perfemit__rec_begin(e, type, misc);
}

static void em_end(struct perfemit *e)
{
	perfemit__rec_end(e, 0, 0);
}

/* a string with its NUL, zero-padded to a multiple of 8 of the record */
static void em_str(struct perfemit *e, const char *s)
{
	perfemit__str(e, s, 1);
	perfemit__pad(e, 0, 8);
}

/* ------------------------------------------------------------------ attrs */

struct fixture {
	struct perf_evattr attrs[4];
	uint64_t ids[4][4];
	struct perf_evlist evlist;
};

static void fx_attr(struct fixture *fx, size_t i, uint64_t sample_type, uint64_t read_format,
		    int sample_id_all, uint64_t id0, uint64_t id1)
{
	struct perf_evattr *a = &fx->attrs[i];

	memset(a, 0, sizeof(*a));
	a->attr.size = sizeof(a->attr);
	a->attr.sample_type = sample_type;
	a->attr.read_format = read_format;
	a->attr.sample_id_all = sample_id_all ? 1 : 0;
	a->idx = (int)i;
	fx->ids[i][0] = id0;
	fx->ids[i][1] = id1;
	a->ids = fx->ids[i];
	a->nr_ids = id1 ? 2 : id0 ? 1 : 0;
}

static void fx_done(struct fixture *fx, size_t nr)
{
	size_t i, j;

	memset(&fx->evlist, 0, sizeof(fx->evlist));
	fx->evlist.attrs = fx->attrs;
	fx->evlist.nr = nr;
	hashmap__init(&fx->evlist.id_map);
	for (i = 0; i < nr; i++) {
		for (j = 0; j < fx->attrs[i].nr_ids; j++) {
			void **slot;

			assert_int_equal(hashmap__insert(&fx->evlist.id_map, &fx->attrs[i].ids[j], 8,
							 &slot), 1);
			*slot = (void *)(uintptr_t)(i + 1);
		}
	}
	perf_evlist__prepare(&fx->evlist);
}

static void fx_release(struct fixture *fx)
{
	hashmap__release(&fx->evlist.id_map, NULL);
}

/* ----------------------------------------------------------------- decode */

struct decoded {
	struct perf_record rec;
	uint64_t *copy;		/* exactly the record's bytes */
	int err;
	const char *why;
};

/*
 * Decode the record in e: a heap copy of exactly its bytes, swapped first
 * when e was written big-endian.
 */
static void dec(struct decoded *d, const struct perfemit *e, const struct perf_evlist *el)
{
	uint8_t *p;

	memset(d, 0, sizeof(*d));
	d->copy = malloc(e->len ? e->len : 1);
	assert_non_null(d->copy);
	p = (uint8_t *)d->copy;
	memcpy(p, e->p, e->len);
	if (e->be) {
		d->err = perf_record__swap(p, e->len, el, &d->why);
		if (d->err)
			return;
	}
	memcpy(&d->rec.type, p, 4);
	memcpy(&d->rec.misc, p + 4, 2);
	memcpy(&d->rec.size, p + 6, 2);
	d->rec.data = p;
	d->rec.nr = 7;
	d->rec.offset = 0x1a0;
	d->err = perf_record__decode(&d->rec, el, &d->why);
}

static void dec_free(struct decoded *d)
{
	free(d->copy);
	d->copy = NULL;
}

/* dec() that must succeed */
static void dec_ok(struct decoded *d, const struct perfemit *e, const struct perf_evlist *el)
{
	dec(d, e, el);
	assert_int_equal(d->err, 0);
}

/* a test run in one byte order (cmocka prestate &order_le or &order_be) */
struct run {
	int be;
	struct fixture fx;
	struct perfemit e;
	struct decoded d;
};

static const int order_le = 0;
static const int order_be = 1;

static int run_setup(void **state)
{
	struct run *r = calloc(1, sizeof(*r));

	if (!r)
		return -1;
	r->be = *(const int *)*state;
	fx_done(&r->fx, 0);	/* no attrs until a test adds some and prepares again */
	*state = r;
	return 0;
}

static int run_teardown(void **state)
{
	struct run *r = *state;

	fx_release(&r->fx);
	perfemit__release(&r->e);
	free(r);
	return 0;
}

/* one record at the start of e from a perfemit__spec(), decoded against fx */
static void dec_spec(struct decoded *d, struct perfemit *e, int be, uint32_t type, uint16_t misc,
		     const char *spec, const struct fixture *fx)
{
	em_begin(e, be, type, misc);
	assert_int_equal(perfemit__spec(e, spec), 0);
	em_end(e);
	dec(d, e, &fx->evlist);
}

/* dec_spec() that must succeed */
static void spec_ok(struct decoded *d, struct perfemit *e, int be, uint32_t type, uint16_t misc,
		    const char *spec, const struct fixture *fx)
{
	dec_spec(d, e, be, type, misc, spec, fx);
	assert_int_equal(d->err, 0);
}

static uint64_t u64_at(const void *p, size_t i)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)p + 8 * i, 8);
	return v;
}

static char *dump(const struct perf_record *rec)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(perf_record__dump(rec, &sb), 0);
	return strbuf__detach(&sb, NULL);
}

/* ------------------------------------------------------------ names/format */

static void test_names(void **state)
{
	(void)state;
	/* as printed by `perf report --stats` (perf 6.1) on the quipper fixtures */
	assert_string_equal(perf_record_type__name(PERF_RECORD_MMAP), "MMAP");
	assert_string_equal(perf_record_type__name(PERF_RECORD_COMM), "COMM");
	assert_string_equal(perf_record_type__name(PERF_RECORD_EXIT), "EXIT");
	assert_string_equal(perf_record_type__name(PERF_RECORD_SAMPLE), "SAMPLE");
	assert_string_equal(perf_record_type__name(PERF_RECORD_MMAP2), "MMAP2");
	assert_string_equal(perf_record_type__name(PERF_RECORD_SWITCH), "SWITCH");
	assert_string_equal(perf_record_type__name(PERF_RECORD_NAMESPACES), "NAMESPACES");
	assert_string_equal(perf_record_type__name(PERF_RECORD_FINISHED_ROUND), "FINISHED_ROUND");
	assert_string_equal(perf_record_type__name(PERF_RECORD_TIME_CONV), "TIME_CONV");
	/* perf_event__names[] in tools/perf/util/event.c (6.1, and master for 83) */
	assert_string_equal(perf_record_type__name(PERF_RECORD_HEADER_ATTR), "ATTR");
	assert_string_equal(perf_record_type__name(PERF_RECORD_HEADER_BUILD_ID), "BUILD_ID");
	assert_string_equal(perf_record_type__name(PERF_RECORD_HEADER_FEATURE), "FEATURE");
	assert_string_equal(perf_record_type__name(PERF_RECORD_COMPRESSED), "COMPRESSED");
	assert_string_equal(perf_record_type__name(PERF_RECORD_FINISHED_INIT), "FINISHED_INIT");
	assert_string_equal(perf_record_type__name(PERF_RECORD_COMPRESSED2), "COMPRESSED2");
	assert_string_equal(perf_record_type__name(PERF_RECORD_AUX_OUTPUT_HW_ID), "AUX_OUTPUT_HW_ID");
	assert_null(perf_record_type__name(0));
	assert_null(perf_record_type__name(23));
	assert_null(perf_record_type__name(63));
	assert_null(perf_record_type__name(1000));
	assert_null(perf_record_type__name(UINT32_MAX));
}

static void check_format(uint64_t t, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(perf_sample_type__format(t, &sb), 0);
	assert_string_equal(sb.buf, want);
	strbuf__release(&sb);
}

static void test_sample_type_format(void **state)
{
	(void)state;
	/* perf report --header-only on quipper/perf.data.callgraph_and_branch-3.8 */
	check_format(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN |
		     PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_BRANCH_STACK,
		     "IP|TID|TIME|CALLCHAIN|CPU|PERIOD|BRANCH_STACK");
	/* table order of __p_sample_type(): READ before CALLCHAIN, ID after it */
	check_format(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID | PERF_SAMPLE_READ | PERF_SAMPLE_IP,
		     "IP|READ|ID|IDENTIFIER");
	check_format(PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_CODE_PAGE_SIZE |
		     PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER,
		     "REGS_USER|STACK_USER|DATA_PAGE_SIZE|CODE_PAGE_SIZE|WEIGHT_STRUCT");
	/* perf's table has no TRANSACTION */
	check_format(PERF_SAMPLE_TRANSACTION, "");
	check_format(0, "");
}

/* ---------------------------------------------------------------- prepare */

static void test_prepare(void **state)
{
	struct fixture fx;

	(void)state;
	/* IP TID TIME ID: id is u64 #3 of a sample; trailer TID TIME ID CPU: from the end ID is #2 */
	fx_attr(&fx, 0, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
		PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD, 0, 1, 5, 0);
	fx_done(&fx, 1);
	assert_int_equal(fx.attrs[0].id_pos, 3);
	assert_int_equal(fx.attrs[0].is_pos, 2);
	assert_int_equal(fx.attrs[0].trailer_size, 32);	/* TID TIME ID CPU */
	assert_int_equal(fx.evlist.id_pos, 3);
	assert_int_equal(fx.evlist.is_pos, 2);
	assert_int_equal(fx.evlist.sample_id_all, 1);
	fx_release(&fx);

	/* IDENTIFIER: first and last u64; ID + STREAM_ID + CPU: 3rd from the end */
	fx_attr(&fx, 0, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP, 0, 0, 5, 0);
	fx_attr(&fx, 1, PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU,
		0, 1, 6, 0);
	fx_attr(&fx, 2, PERF_SAMPLE_IP, 0, 1, 7, 0);
	fx_done(&fx, 3);
	assert_int_equal(fx.attrs[0].id_pos, 0);
	assert_int_equal(fx.attrs[0].is_pos, 1);
	assert_int_equal(fx.attrs[0].trailer_size, 0);	/* no sample_id_all */
	assert_int_equal(fx.attrs[1].id_pos, 1);
	assert_int_equal(fx.attrs[1].is_pos, 3);
	assert_int_equal(fx.attrs[1].trailer_size, 24);	/* ID STREAM_ID CPU */
	assert_int_equal(fx.attrs[2].id_pos, -1);
	assert_int_equal(fx.attrs[2].is_pos, -1);
	assert_int_equal(fx.attrs[2].trailer_size, 0);
	assert_int_equal(fx.evlist.id_pos, -1);
	assert_int_equal(fx.evlist.is_pos, -1);
	assert_int_equal(fx.evlist.sample_id_all, 0);
	fx_release(&fx);

	fx_done(&fx, 0);
	assert_int_equal(fx.evlist.id_pos, -1);
	assert_int_equal(fx.evlist.is_pos, -1);
	fx_release(&fx);
}

/* ------------------------------------------------------- the full sample */

#define ALL_SAMPLE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
		    PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | \
		    PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW | \
		    PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | \
		    PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION | \
		    PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP | \
		    PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_AUX)
#define ALL_READ (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | \
		  PERF_FORMAT_ID | PERF_FORMAT_GROUP | PERF_FORMAT_LOST)

/*
 * perf_branch_entry flags: mispred=1 cycles=0x1234 type=5.  Little-endian
 * bitfields start at bit 0 (mispred 0, predicted 1, in_tx 2, abort 3,
 * cycles 4..19, type 20..23); big-endian ones at bit 63 (mispred 63,
 * cycles 59..44, type 43..40).
 */
#define BR_FLAGS_LE (1ULL | (0x1234ULL << 4) | (5ULL << 20))
#define BR_FLAGS_BE ((1ULL << 63) | (0x1234ULL << 44) | (5ULL << 40))

static void fx_all(struct fixture *fx)
{
	fx_attr(fx, 0, ALL_SAMPLE, ALL_READ, 1, 0x42, 0x43);
	fx->attrs[0].attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX;
	fx->attrs[0].attr.sample_regs_user = 0x7;	/* 3 registers */
	fx->attrs[0].attr.sample_regs_intr = 0x30;	/* 2 registers */
	fx_attr(fx, 1, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP, 0, 1, 0x99, 0);
	fx_done(fx, 2);
}

static void emit_all_sample(struct perfemit *e, int be)
{
	static const uint8_t raw[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
	static const uint8_t stack[16] = "stack-bytes-16b";
	static const uint8_t aux[8] = { 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7 };

	em_begin(e, be, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	perfemit__u64(e, 0x43);				/* IDENTIFIER */
	perfemit__u64(e, 0x401000);			/* IP */
	perfemit__u32(e, 100); perfemit__u32(e, 101);		/* TID */
	perfemit__u64(e, 123456789);			/* TIME */
	perfemit__u64(e, 0xdead0000);			/* ADDR */
	perfemit__u64(e, 0x43);				/* ID */
	perfemit__u64(e, 0x77);				/* STREAM_ID */
	perfemit__u32(e, 3); perfemit__u32(e, 0);			/* CPU */
	perfemit__u64(e, 4000);				/* PERIOD */
	perfemit__u64(e, 2);				/* READ: nr */
	perfemit__u64(e, 1000);				/* time_enabled */
	perfemit__u64(e, 900);				/* time_running */
	perfemit__u64(e, 11); perfemit__u64(e, 0x42); perfemit__u64(e, 1);	/* value, id, lost */
	perfemit__u64(e, 22); perfemit__u64(e, 0x43); perfemit__u64(e, 2);
	perfemit__u64(e, 3);				/* CALLCHAIN */
	perfemit__u64(e, (uint64_t)PERF_CONTEXT_USER);
	perfemit__u64(e, 0x401000);
	perfemit__u64(e, 0x402000);
	perfemit__u32(e, 12);				/* RAW: u32 size (incl. padding) + 12 bytes */
	perfemit__bytes(e, raw, sizeof(raw));
	perfemit__u64(e, 2);				/* BRANCH_STACK nr */
	perfemit__u64(e, 5);				/* hw_idx */
	perfemit__u64(e, 0x1000); perfemit__u64(e, 0x2000); perfemit__u64(e, be ? BR_FLAGS_BE : BR_FLAGS_LE);
	perfemit__u64(e, 0x3000); perfemit__u64(e, 0x4000); perfemit__u64(e, 0);
	perfemit__u64(e, PERF_SAMPLE_REGS_ABI_64);	/* REGS_USER */
	perfemit__u64(e, 0x11); perfemit__u64(e, 0x12); perfemit__u64(e, 0x13);
	perfemit__u64(e, 16);				/* STACK_USER size */
	perfemit__bytes(e, stack, sizeof(stack));
	perfemit__u64(e, 10);				/* dyn_size */
	perfemit__u64(e, 1000 | (7ULL << 32) | (9ULL << 48));	/* WEIGHT_STRUCT */
	perfemit__u64(e, 0x5080021);			/* DATA_SRC */
	perfemit__u64(e, 0x6);				/* TRANSACTION */
	perfemit__u64(e, PERF_SAMPLE_REGS_ABI_64);	/* REGS_INTR */
	perfemit__u64(e, 0x21); perfemit__u64(e, 0x22);
	perfemit__u64(e, 0x7f000000);			/* PHYS_ADDR */
	perfemit__u64(e, 55);				/* CGROUP */
	perfemit__u64(e, 4096);				/* DATA_PAGE_SIZE */
	perfemit__u64(e, 2097152);			/* CODE_PAGE_SIZE */
	perfemit__u64(e, 8);				/* AUX size */
	perfemit__bytes(e, aux, sizeof(aux));
	em_end(e);
}

static void check_all_sample(const struct decoded *d, const struct fixture *fx)
{
	const struct perf_sample *s = &d->rec.sample;
	const uint8_t *raw = s->raw, *aux = s->aux;

	assert_int_equal(d->err, 0);
	assert_ptr_equal(d->rec.evattr, &fx->attrs[0]);
	assert_int_equal(s->sample_type, ALL_SAMPLE);
	assert_int_equal(s->id, 0x43);
	assert_int_equal(s->ip, 0x401000);
	assert_int_equal(s->pid, 100);
	assert_int_equal(s->tid, 101);
	assert_int_equal(s->time, 123456789);
	assert_int_equal(s->addr, 0xdead0000);
	assert_int_equal(s->stream_id, 0x77);
	assert_int_equal(s->cpu, 3);
	assert_int_equal(s->period, 4000);
	assert_int_equal(s->read.nr, 2);
	assert_int_equal(s->read.time_enabled, 1000);
	assert_int_equal(s->read.time_running, 900);
	assert_int_equal(s->read.group_stride, 3);
	assert_int_equal(u64_at(s->read.group, 0), 11);
	assert_int_equal(u64_at(s->read.group, 1), 0x42);
	assert_int_equal(u64_at(s->read.group, 2), 1);
	assert_int_equal(u64_at(s->read.group, 3), 22);
	assert_int_equal(u64_at(s->read.group, 5), 2);
	assert_int_equal(s->callchain_nr, 3);
	assert_int_equal(u64_at(s->callchain, 0), (uint64_t)PERF_CONTEXT_USER);
	assert_int_equal(u64_at(s->callchain, 2), 0x402000);
	assert_int_equal(s->raw_size, 12);
	assert_int_equal(raw[0], 1);
	assert_int_equal(raw[11], 12);
	assert_int_equal(s->branch_nr, 2);
	assert_true(s->has_branch_hw_idx);
	assert_int_equal(s->branch_hw_idx, 5);
	assert_int_equal(u64_at(s->branches, 0), 0x1000);
	assert_int_equal(u64_at(s->branches, 1), 0x2000);
	assert_int_equal(u64_at(s->branches, 2), BR_FLAGS_LE);
	assert_int_equal(s->branches[0].mispred, 1);
	assert_int_equal(s->branches[0].cycles, 0x1234);
	assert_int_equal(s->branches[0].type, 5);
	assert_int_equal(u64_at(s->branches, 4), 0x4000);
	assert_null(s->branch_counters);
	assert_int_equal(s->user_regs.abi, PERF_SAMPLE_REGS_ABI_64);
	assert_int_equal(s->user_regs.mask, 0x7);
	assert_int_equal(s->user_regs.nr, 3);
	assert_int_equal(u64_at(s->user_regs.regs, 2), 0x13);
	assert_int_equal(s->user_stack_size, 16);
	assert_memory_equal(s->user_stack, "stack-bytes-16b", 16);
	assert_int_equal(s->user_stack_dyn_size, 10);
	assert_int_equal(s->weight, 1000);
	assert_int_equal(s->weight_var2, 7);
	assert_int_equal(s->weight_var3, 9);
	assert_int_equal(s->data_src, 0x5080021);
	assert_int_equal(s->transaction, 6);
	assert_int_equal(s->intr_regs.nr, 2);
	assert_int_equal(s->intr_regs.mask, 0x30);
	assert_int_equal(u64_at(s->intr_regs.regs, 1), 0x22);
	assert_int_equal(s->phys_addr, 0x7f000000);
	assert_int_equal(s->cgroup, 55);
	assert_int_equal(s->data_page_size, 4096);
	assert_int_equal(s->code_page_size, 2097152);
	assert_int_equal(s->aux_size, 8);
	assert_int_equal(aux[0], 0xa0);
	assert_int_equal(aux[7], 0xa7);
}

static void test_sample_all_fields(void **state)
{
	struct fixture fx;
	struct perfemit e = { 0 };
	struct decoded le, be;
	char *a, *b;

	(void)state;
	fx_all(&fx);
	emit_all_sample(&e, 0);
	dec(&le, &e, &fx.evlist);
	check_all_sample(&le, &fx);
	emit_all_sample(&e, 1);
	dec(&be, &e, &fx.evlist);
	check_all_sample(&be, &fx);
	a = dump(&le.rec);
	b = dump(&be.rec);
	assert_string_equal(a, b);
	assert_non_null(strstr(a, "SAMPLE nr=7 offset=0x1a0 misc=0x2 size="));
	assert_non_null(strstr(a, " callchain=[0xfffffffffffffe00,0x401000,0x402000]"));
	assert_non_null(strstr(a, " raw=0102030405060708090a0b0c"));
	assert_non_null(strstr(a, " weight=1000 weight_var2=7 weight_var3=9"));
	free(a);
	free(b);
	dec_free(&le);
	dec_free(&be);
	fx_release(&fx);
	perfemit__release(&e);
}

/* WEIGHT (plain), branch counters, no hw_idx, regs abi 0, empty stack */
static void test_sample_variants(void **state)
{
	struct run *r = *state;

	fx_attr(&r->fx, 0, PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |
		PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT, 0, 0, 0, 0);
	r->fx.attrs[0].attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | (1ULL << 19);	/* COUNTERS */
	r->fx.attrs[0].attr.sample_regs_user = 0xff;
	fx_done(&r->fx, 1);
	em_begin(&r->e, r->be, PERF_RECORD_SAMPLE, 0);
	perfemit__u64(&r->e, 0x1234);
	perfemit__u64(&r->e, 1);					/* branch nr, no hw_idx */
	perfemit__u64(&r->e, 0x10); perfemit__u64(&r->e, 0x20); perfemit__u64(&r->e, 0);
	perfemit__u64(&r->e, 0x99);					/* one counter */
	perfemit__u64(&r->e, PERF_SAMPLE_REGS_ABI_NONE);		/* no registers follow */
	perfemit__u64(&r->e, 0);					/* stack size 0: no data, no dyn_size */
	perfemit__u64(&r->e, 0x123456789aULL);			/* WEIGHT: the whole u64 */
	em_end(&r->e);
	dec_ok(&r->d, &r->e, &r->fx.evlist);
	assert_int_equal(r->d.rec.sample.ip, 0x1234);
	assert_int_equal(r->d.rec.sample.branch_nr, 1);
	assert_false(r->d.rec.sample.has_branch_hw_idx);
	assert_int_equal(u64_at(r->d.rec.sample.branches, 1), 0x20);
	assert_non_null(r->d.rec.sample.branch_counters);
	assert_int_equal(u64_at(r->d.rec.sample.branch_counters, 0), 0x99);
	assert_int_equal(r->d.rec.sample.user_regs.abi, 0);
	assert_int_equal(r->d.rec.sample.user_regs.nr, 0);
	assert_int_equal(r->d.rec.sample.user_stack_size, 0);
	assert_null(r->d.rec.sample.user_stack);
	assert_int_equal(r->d.rec.sample.weight, 0x123456789aULL);
	assert_int_equal(r->d.rec.sample.weight_var2, 0);
	dec_free(&r->d);
}

/* read_format without GROUP: value, then enabled/running, id, lost as set */
static void test_read_formats(void **state)
{
	static const uint64_t fmts[] = {
		0, PERF_FORMAT_ID, PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_LOST,
		PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID |
		PERF_FORMAT_LOST, PERF_FORMAT_GROUP, PERF_FORMAT_GROUP | PERF_FORMAT_LOST,
	};
	struct fixture fx;
	struct perfemit e = { 0 };
	struct decoded d;
	size_t i;
	int be;

	(void)state;
	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		uint64_t f = fmts[i];

		fx_attr(&fx, 0, PERF_SAMPLE_READ | PERF_SAMPLE_PERIOD, f, 0, 0, 0);
		fx_done(&fx, 1);
		for (be = 0; be < 2; be++) {
			em_begin(&e, be, PERF_RECORD_SAMPLE, 0);
			perfemit__u64(&e, 50);				/* PERIOD */
			perfemit__u64(&e, f & PERF_FORMAT_GROUP ? 2 : 500);	/* nr or value */
			if (f & PERF_FORMAT_TOTAL_TIME_ENABLED)
				perfemit__u64(&e, 600);
			if (f & PERF_FORMAT_TOTAL_TIME_RUNNING)
				perfemit__u64(&e, 700);
			if (f & PERF_FORMAT_GROUP) {
				perfemit__u64(&e, 31);
				if (f & PERF_FORMAT_LOST)
					perfemit__u64(&e, 1);
				perfemit__u64(&e, 32);
				if (f & PERF_FORMAT_LOST)
					perfemit__u64(&e, 2);
			} else {
				if (f & PERF_FORMAT_ID)
					perfemit__u64(&e, 0x800);
				if (f & PERF_FORMAT_LOST)
					perfemit__u64(&e, 900);
			}
			em_end(&e);
			dec_ok(&d, &e, &fx.evlist);
			assert_int_equal(d.rec.sample.period, 50);
			if (f & PERF_FORMAT_GROUP) {
				unsigned stride = f & PERF_FORMAT_LOST ? 2 : 1;

				assert_int_equal(d.rec.sample.read.nr, 2);
				assert_int_equal(d.rec.sample.read.group_stride, stride);
				assert_int_equal(u64_at(d.rec.sample.read.group, stride), 32);
			} else {
				assert_int_equal(d.rec.sample.read.nr, 1);
				assert_int_equal(d.rec.sample.read.one.value, 500);
				assert_int_equal(d.rec.sample.read.one.id, f & PERF_FORMAT_ID ? 0x800 : 0);
				assert_int_equal(d.rec.sample.read.one.lost, f & PERF_FORMAT_LOST ? 900 : 0);
			}
			assert_int_equal(d.rec.sample.read.time_enabled,
					 f & PERF_FORMAT_TOTAL_TIME_ENABLED ? 600 : 0);
			assert_int_equal(d.rec.sample.read.time_running,
					 f & PERF_FORMAT_TOTAL_TIME_RUNNING ? 700 : 0);
			dec_free(&d);
		}
		fx_release(&fx);
	}
	perfemit__release(&e);
}

/* ------------------------------------------------------------- attr lookup */

static void emit_ident_sample(struct perfemit *e, int be, uint64_t id, int with_time)
{
	em_begin(e, be, PERF_RECORD_SAMPLE, 0);
	perfemit__u64(e, id);
	perfemit__u64(e, 0xabc);
	perfemit__u32(e, 1); perfemit__u32(e, 2);
	if (with_time) {
		perfemit__u64(e, 777);
		perfemit__u64(e, 1);		/* callchain nr */
		perfemit__u64(e, 0xfff);
	}
	em_end(e);
}

static void test_find_identifier(void **state)
{
	struct run *r = *state;

	fx_attr(&r->fx, 0, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID, 0, 1, 100, 0);
	fx_attr(&r->fx, 1, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
		PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN, 0, 1, 200, 201);
	fx_done(&r->fx, 2);
	assert_int_equal(r->fx.evlist.id_pos, 0);
	assert_int_equal(r->fx.evlist.is_pos, 1);
	emit_ident_sample(&r->e, r->be, 201, 1);
	dec_ok(&r->d, &r->e, &r->fx.evlist);
	assert_ptr_equal(r->d.rec.evattr, &r->fx.attrs[1]);
	assert_int_equal(r->d.rec.sample.time, 777);
	assert_int_equal(u64_at(r->d.rec.sample.callchain, 0), 0xfff);
	dec_free(&r->d);

	emit_ident_sample(&r->e, r->be, 100, 0);
	dec_ok(&r->d, &r->e, &r->fx.evlist);
	assert_ptr_equal(r->d.rec.evattr, &r->fx.attrs[0]);
	assert_int_equal(r->d.rec.sample.tid, 2);
	dec_free(&r->d);

	/* id 0 (synthesized) goes to the first attr */
	emit_ident_sample(&r->e, r->be, 0, 0);
	dec_ok(&r->d, &r->e, &r->fx.evlist);
	assert_ptr_equal(r->d.rec.evattr, &r->fx.attrs[0]);
	dec_free(&r->d);

	emit_ident_sample(&r->e, r->be, 999, 0);
	dec(&r->d, &r->e, &r->fx.evlist);
	assert_int_equal(r->d.err, -EINVAL);
	assert_string_equal(r->d.why, "unknown sample id 0x3e7");
	dec_free(&r->d);
	/* a COMM's IDENTIFIER is its last u64; attr 1's trailer is TID TIME IDENTIFIER */
	spec_ok(&r->d, &r->e, r->be, PERF_RECORD_COMM, 0,
		"u32:5 u32:6 c:comm z:1 a:8 u32:5 u32:7 u64:888 u64:200", &r->fx);
	assert_ptr_equal(r->d.rec.evattr, &r->fx.attrs[1]);
	assert_int_equal(r->d.rec.sample.sample_type,
			 PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_IDENTIFIER);
	assert_int_equal(r->d.rec.sample.tid, 7);
	assert_int_equal(r->d.rec.sample.time, 888);
	assert_int_equal(r->d.rec.sample.id, 200);
	assert_string_equal(r->d.rec.u.comm.comm, "comm");
	dec_free(&r->d);
}

static void test_find_id_pos(void **state)
{
	struct run *r = *state;

	/* ID is u64 #2 of both samples; in trailers 1st (A) or 2nd (B) from the end */
	fx_attr(&r->fx, 0, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID | PERF_SAMPLE_PERIOD,
		0, 1, 10, 11);
	fx_attr(&r->fx, 1, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID | PERF_SAMPLE_CPU,
		0, 1, 20, 0);
	fx_done(&r->fx, 2);
	assert_int_equal(r->fx.evlist.id_pos, 2);
	assert_int_equal(r->fx.evlist.is_pos, -1);
	spec_ok(&r->d, &r->e, r->be, PERF_RECORD_SAMPLE, 0,
		"u64:0x500 u32:1 u32:1 u64:20 u32:7 u32:0", &r->fx);
	assert_ptr_equal(r->d.rec.evattr, &r->fx.attrs[1]);
	assert_int_equal(r->d.rec.sample.cpu, 7);
	dec_free(&r->d);

	spec_ok(&r->d, &r->e, r->be, PERF_RECORD_SAMPLE, 0,
		"u64:0x500 u32:1 u32:1 u64:11 u64:12345", &r->fx);
	assert_ptr_equal(r->d.rec.evattr, &r->fx.attrs[0]);
	assert_int_equal(r->d.rec.sample.period, 12345);
	dec_free(&r->d);

	/* trailers differ in length: each attr's position is tried */
	em_begin(&r->e, r->be, PERF_RECORD_EXIT, 0);
	perfemit__u32(&r->e, 1); perfemit__u32(&r->e, 2); perfemit__u32(&r->e, 3); perfemit__u32(&r->e, 4);
	perfemit__u64(&r->e, 99);
	perfemit__u32(&r->e, 8); perfemit__u32(&r->e, 9);	/* TID */
	perfemit__u64(&r->e, 20);			/* ID */
	perfemit__u32(&r->e, 6); perfemit__u32(&r->e, 0);	/* CPU */
	em_end(&r->e);
	dec_ok(&r->d, &r->e, &r->fx.evlist);
	assert_ptr_equal(r->d.rec.evattr, &r->fx.attrs[1]);
	assert_int_equal(r->d.rec.sample.pid, 8);
	assert_int_equal(r->d.rec.sample.id, 20);
	assert_int_equal(r->d.rec.sample.cpu, 6);
	assert_int_equal(r->d.rec.u.fork.ptid, 4);
	assert_int_equal(r->d.rec.u.fork.time, 99);
	dec_free(&r->d);

	spec_ok(&r->d, &r->e, r->be, PERF_RECORD_EXIT, 0,
		"u32:1 u32:2 u32:3 u32:4 u64:99 u32:8 u32:9 u64:10", &r->fx);
	assert_ptr_equal(r->d.rec.evattr, &r->fx.attrs[0]);
	assert_int_equal(r->d.rec.sample.tid, 9);
	assert_int_equal(r->d.rec.sample.id, 10);
	dec_free(&r->d);

	/* synthesized by perf: a zeroed trailer the size of the first attr's */
	spec_ok(&r->d, &r->e, r->be, PERF_RECORD_COMM, 0,
		"u32:1 u32:1 c:synth z:1 a:8 u64:0 u64:0", &r->fx);
	assert_ptr_equal(r->d.rec.evattr, &r->fx.attrs[0]);
	assert_string_equal(r->d.rec.u.comm.comm, "synth");
	dec_free(&r->d);
	fx_release(&r->fx);

	/* one attr: whatever the id says */
	fx_attr(&r->fx, 0, PERF_SAMPLE_IP | PERF_SAMPLE_ID, 0, 0, 10, 0);
	fx_done(&r->fx, 1);
	em_begin(&r->e, 0, PERF_RECORD_SAMPLE, 0);
	perfemit__u64(&r->e, 0x500);
	perfemit__u64(&r->e, 12345);
	em_end(&r->e);
	dec_ok(&r->d, &r->e, &r->fx.evlist);
	assert_ptr_equal(r->d.rec.evattr, &r->fx.attrs[0]);
	dec_free(&r->d);
}

static void test_find_bounds(void **state)
{
	struct fixture fx;
	uint8_t *rec;

	(void)state;
	fx_attr(&fx, 0, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID, 0, 1, 10, 0);
	fx_attr(&fx, 1, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID, 0, 1, 20, 0);
	fx_done(&fx, 2);
	/* a header-only SAMPLE and MMAP: the id would lie past the end */
	rec = calloc(1, 8);
	assert_non_null(rec);
	assert_null(perf_evlist__find(&fx.evlist, PERF_RECORD_SAMPLE, rec, 8));
	assert_null(perf_evlist__find(&fx.evlist, PERF_RECORD_MMAP, rec, 8));
	assert_null(perf_evlist__find(&fx.evlist, PERF_RECORD_SAMPLE, rec, 4));
	/* user records belong to no attr */
	assert_null(perf_evlist__find(&fx.evlist, PERF_RECORD_FINISHED_ROUND, rec, 8));
	free(rec);
	fx_release(&fx);
}

/* ------------------------------------------------------------ typed views */

#define TRAILER_ALL (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | \
		     PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

/* the trailer every kernel record here carries: pid 41, tid 42, time 5550, id 0x42, cpu 2 */
static const struct perfemit_sample_id trailer = {
	.pid = 41, .tid = 42, .time = 5550, .id = 0x42, .stream_id = 0x4242, .cpu = 2,
};

/* emit one kernel record of type t, body and the full trailer */
static void emit_kernel(struct perfemit *e, int be, uint32_t t)
{
	static const uint8_t bid[20] = { 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba,
					 0xbb, 0xbc, 0xbd, 0xbe, 0xbf, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4 };
	uint16_t misc = 0;

	if (t == PERF_RECORD_COMM)
		misc = PERF_RECORD_MISC_COMM_EXEC;
	else if (t == PERF_RECORD_SWITCH || t == PERF_RECORD_SWITCH_CPU_WIDE)
		misc = PERF_RECORD_MISC_SWITCH_OUT | PERF_RECORD_MISC_SWITCH_OUT_PREEMPT;
	em_begin(e, be, t, misc);
	switch (t) {
	case PERF_RECORD_MMAP:
		perfemit__u32(e, 10); perfemit__u32(e, 11);
		perfemit__u64(e, 0x400000); perfemit__u64(e, 0x1000); perfemit__u64(e, 0x200);
		em_str(e, "/bin/true");
		break;
	case PERF_RECORD_MMAP2:
		perfemit__u32(e, 10); perfemit__u32(e, 11);
		perfemit__u64(e, 0x400000); perfemit__u64(e, 0x1000); perfemit__u64(e, 0x200);
		perfemit__u32(e, 8); perfemit__u32(e, 1); perfemit__u64(e, 12345); perfemit__u64(e, 6);
		perfemit__u32(e, 5); perfemit__u32(e, 2);
		em_str(e, "/usr/lib/libc.so.6");
		break;
	case PERF_RECORD_COMM:
		perfemit__u32(e, 10); perfemit__u32(e, 11);
		em_str(e, "true");
		break;
	case PERF_RECORD_EXIT:
	case PERF_RECORD_FORK:
		perfemit__u32(e, 10); perfemit__u32(e, 9); perfemit__u32(e, 11); perfemit__u32(e, 8);
		perfemit__u64(e, 31337);
		break;
	case PERF_RECORD_LOST:
		perfemit__u64(e, 0x42); perfemit__u64(e, 17);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		perfemit__u64(e, 999); perfemit__u64(e, 0x42); perfemit__u64(e, 0x4242);
		break;
	case PERF_RECORD_READ:
		perfemit__u32(e, 10); perfemit__u32(e, 11);
		perfemit__u64(e, 1234);		/* read_format of attr 0 in fx_kernel: value, ID */
		perfemit__u64(e, 0x42);
		break;
	case PERF_RECORD_AUX:
		perfemit__u64(e, 0x10000); perfemit__u64(e, 0x800); perfemit__u64(e, PERF_AUX_FLAG_TRUNCATED);
		break;
	case PERF_RECORD_ITRACE_START:
		perfemit__u32(e, 10); perfemit__u32(e, 11);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		perfemit__u64(e, 23);
		break;
	case PERF_RECORD_SWITCH:
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		perfemit__u32(e, 12); perfemit__u32(e, 13);
		break;
	case PERF_RECORD_NAMESPACES:
		perfemit__u32(e, 10); perfemit__u32(e, 11);
		perfemit__u64(e, 2);
		perfemit__u64(e, 4); perfemit__u64(e, 0xf0000001);
		perfemit__u64(e, 4); perfemit__u64(e, 0xf0000002);
		break;
	case PERF_RECORD_KSYMBOL:
		perfemit__u64(e, 0xffffffffc0000000ULL); perfemit__u32(e, 0x100);
		perfemit__u16(e, PERF_RECORD_KSYMBOL_TYPE_BPF); perfemit__u16(e, 0);
		em_str(e, "bpf_prog_abc");
		break;
	case PERF_RECORD_BPF_EVENT:
		perfemit__u16(e, PERF_BPF_EVENT_PROG_LOAD); perfemit__u16(e, 0); perfemit__u32(e, 77);
		perfemit__bytes(e, bid, 8);
		break;
	case PERF_RECORD_CGROUP:
		perfemit__u64(e, 4242);
		em_str(e, "/sys/fs/cgroup/a");
		break;
	case PERF_RECORD_TEXT_POKE:
		perfemit__u64(e, 0xffffffff81000000ULL); perfemit__u16(e, 2); perfemit__u16(e, 3);
		perfemit__bytes(e, bid, 5);
		perfemit__pad(e, 0, 8);
		break;
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		perfemit__u64(e, 0x77);
		break;
	default:
		fail();
	}
	perfemit__sample_id(e, TRAILER_ALL, &trailer);
	em_end(e);
}

static void fx_kernel(struct fixture *fx)
{
	fx_attr(fx, 0, TRAILER_ALL | PERF_SAMPLE_IP, PERF_FORMAT_ID, 1, 0x42, 0);
	fx_attr(fx, 1, TRAILER_ALL | PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD, 0, 1, 0x43, 0);
	fx_done(fx, 2);
}

/*
 * An integer field of struct perf_record and the value it must have,
 * compared as assert_int_equal() compares (sign-extended when signed).
 */
struct field_want {
	uint32_t type;
	const char *name;
	size_t off, size;
	int is_signed;
	uint64_t want;
};

#define IS_SIGNED(x) _Generic((x), signed char: 1, short: 1, int: 1, long: 1, long long: 1, default: 0)
#define FIELD(path, want) #path, offsetof(struct perf_record, path), \
	sizeof(((struct perf_record *)0)->path), IS_SIGNED(((struct perf_record *)0)->path), (uint64_t)(want)

static uint64_t field_value(const struct perf_record *r, const struct field_want *f)
{
	const uint8_t *p = (const uint8_t *)r + f->off;
	uint64_t v = 0;

	memcpy(&v, p, f->size);		/* little-endian host */
	if (f->is_signed && f->size < 8 && (v >> (8 * f->size - 1)) & 1)
		v |= ~UINT64_C(0) << (8 * f->size);
	return v;
}

/* every field of table whose type is t has its value */
static void check_fields(const struct perf_record *r, uint32_t t, const struct field_want *table, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (table[i].type != t)
			continue;
		if (field_value(r, &table[i]) != table[i].want)
			print_error("type %u: %s\n", t, table[i].name);
		assert_int_equal(field_value(r, &table[i]), table[i].want);
	}
}

/* the integer fields check_kernel() checks, by record type */
static const struct field_want kernel_fields[] = {
	{ PERF_RECORD_MMAP, FIELD(u.mmap.pid, 10) },
	{ PERF_RECORD_MMAP, FIELD(u.mmap.tid, 11) },
	{ PERF_RECORD_MMAP, FIELD(u.mmap.start, 0x400000) },
	{ PERF_RECORD_MMAP, FIELD(u.mmap.len, 0x1000) },
	{ PERF_RECORD_MMAP, FIELD(u.mmap.pgoff, 0x200) },
	{ PERF_RECORD_MMAP2, FIELD(u.mmap.start, 0x400000) },
	{ PERF_RECORD_MMAP2, FIELD(u.mmap.maj, 8) },
	{ PERF_RECORD_MMAP2, FIELD(u.mmap.min, 1) },
	{ PERF_RECORD_MMAP2, FIELD(u.mmap.ino, 12345) },
	{ PERF_RECORD_MMAP2, FIELD(u.mmap.ino_generation, 6) },
	{ PERF_RECORD_MMAP2, FIELD(u.mmap.prot, 5) },
	{ PERF_RECORD_MMAP2, FIELD(u.mmap.flags, 2) },
	{ PERF_RECORD_COMM, FIELD(u.comm.pid, 10) },
	{ PERF_RECORD_EXIT, FIELD(u.fork.pid, 10) },
	{ PERF_RECORD_FORK, FIELD(u.fork.pid, 10) },
	{ PERF_RECORD_EXIT, FIELD(u.fork.ppid, 9) },
	{ PERF_RECORD_FORK, FIELD(u.fork.ppid, 9) },
	{ PERF_RECORD_EXIT, FIELD(u.fork.tid, 11) },
	{ PERF_RECORD_FORK, FIELD(u.fork.tid, 11) },
	{ PERF_RECORD_EXIT, FIELD(u.fork.ptid, 8) },
	{ PERF_RECORD_FORK, FIELD(u.fork.ptid, 8) },
	{ PERF_RECORD_EXIT, FIELD(u.fork.time, 31337) },
	{ PERF_RECORD_FORK, FIELD(u.fork.time, 31337) },
	{ PERF_RECORD_LOST, FIELD(u.lost.id, 0x42) },
	{ PERF_RECORD_LOST, FIELD(u.lost.lost, 17) },
	{ PERF_RECORD_THROTTLE, FIELD(u.throttle.time, 999) },
	{ PERF_RECORD_UNTHROTTLE, FIELD(u.throttle.time, 999) },
	{ PERF_RECORD_THROTTLE, FIELD(u.throttle.id, 0x42) },
	{ PERF_RECORD_UNTHROTTLE, FIELD(u.throttle.id, 0x42) },
	{ PERF_RECORD_THROTTLE, FIELD(u.throttle.stream_id, 0x4242) },
	{ PERF_RECORD_UNTHROTTLE, FIELD(u.throttle.stream_id, 0x4242) },
	{ PERF_RECORD_READ, FIELD(u.read.pid, 10) },
	{ PERF_RECORD_READ, FIELD(u.read.values.nr, 1) },
	{ PERF_RECORD_READ, FIELD(u.read.values.one.value, 1234) },
	{ PERF_RECORD_READ, FIELD(u.read.values.one.id, 0x42) },
	{ PERF_RECORD_AUX, FIELD(u.aux.aux_offset, 0x10000) },
	{ PERF_RECORD_AUX, FIELD(u.aux.aux_size, 0x800) },
	{ PERF_RECORD_AUX, FIELD(u.aux.flags, PERF_AUX_FLAG_TRUNCATED) },
	{ PERF_RECORD_ITRACE_START, FIELD(u.itrace_start.pid, 10) },
	{ PERF_RECORD_ITRACE_START, FIELD(u.itrace_start.tid, 11) },
	{ PERF_RECORD_LOST_SAMPLES, FIELD(u.lost.lost, 23) },
	{ PERF_RECORD_SWITCH_CPU_WIDE, FIELD(u.sw.next_prev_pid, 12) },
	{ PERF_RECORD_SWITCH_CPU_WIDE, FIELD(u.sw.next_prev_tid, 13) },
	{ PERF_RECORD_NAMESPACES, FIELD(u.namespaces.nr, 2) },
	{ PERF_RECORD_KSYMBOL, FIELD(u.ksymbol.addr, 0xffffffffc0000000ULL) },
	{ PERF_RECORD_KSYMBOL, FIELD(u.ksymbol.len, 0x100) },
	{ PERF_RECORD_KSYMBOL, FIELD(u.ksymbol.ksym_type, PERF_RECORD_KSYMBOL_TYPE_BPF) },
	{ PERF_RECORD_BPF_EVENT, FIELD(u.bpf_event.type, PERF_BPF_EVENT_PROG_LOAD) },
	{ PERF_RECORD_BPF_EVENT, FIELD(u.bpf_event.id, 77) },
	{ PERF_RECORD_CGROUP, FIELD(u.cgroup.id, 4242) },
	{ PERF_RECORD_TEXT_POKE, FIELD(u.text_poke.addr, 0xffffffff81000000ULL) },
	{ PERF_RECORD_TEXT_POKE, FIELD(u.text_poke.old_len, 2) },
	{ PERF_RECORD_TEXT_POKE, FIELD(u.text_poke.new_len, 3) },
	{ PERF_RECORD_AUX_OUTPUT_HW_ID, FIELD(u.aux_output_hw_id.hw_id, 0x77) },
};

static void check_kernel(const struct decoded *d, const struct fixture *fx, uint32_t t)
{
	const struct perf_record *r = &d->rec;
	const struct perf_sample *s = &r->sample;

	assert_int_equal(d->err, 0);
	assert_ptr_equal(r->evattr, &fx->attrs[0]);
	assert_int_equal(s->sample_type, TRAILER_ALL);
	assert_int_equal(s->pid, 41);
	assert_int_equal(s->tid, 42);
	assert_int_equal(s->time, 5550);
	assert_int_equal(s->id, 0x42);
	assert_int_equal(s->stream_id, 0x4242);
	assert_int_equal(s->cpu, 2);
	check_fields(r, t, kernel_fields, sizeof(kernel_fields) / sizeof(kernel_fields[0]));
	switch (t) {
	case PERF_RECORD_MMAP:
		assert_string_equal(r->u.mmap.filename, "/bin/true");
		break;
	case PERF_RECORD_MMAP2:
		assert_null(r->u.mmap.build_id);
		assert_string_equal(r->u.mmap.filename, "/usr/lib/libc.so.6");
		break;
	case PERF_RECORD_COMM:
		assert_true(r->u.comm.exec);
		assert_string_equal(r->u.comm.comm, "true");
		break;
	case PERF_RECORD_EXIT:
	case PERF_RECORD_FORK:
	case PERF_RECORD_LOST:
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
	case PERF_RECORD_READ:
	case PERF_RECORD_AUX:
	case PERF_RECORD_ITRACE_START:
	case PERF_RECORD_LOST_SAMPLES:
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		break;	/* integer fields (or none) only */
	case PERF_RECORD_SWITCH:
		assert_true(r->u.sw.out);
		assert_true(r->u.sw.preempt);
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		assert_true(r->u.sw.out);
		break;
	case PERF_RECORD_NAMESPACES:
		assert_int_equal(u64_at(r->u.namespaces.link_info, 0), 4);
		assert_int_equal(u64_at(r->u.namespaces.link_info, 3), 0xf0000002);
		break;
	case PERF_RECORD_KSYMBOL:
		assert_string_equal(r->u.ksymbol.name, "bpf_prog_abc");
		break;
	case PERF_RECORD_BPF_EVENT:
		assert_int_equal(r->u.bpf_event.tag[0], 0xb1);
		assert_int_equal(r->u.bpf_event.tag[7], 0xb8);
		break;
	case PERF_RECORD_CGROUP:
		assert_string_equal(r->u.cgroup.path, "/sys/fs/cgroup/a");
		break;
	case PERF_RECORD_TEXT_POKE:
		assert_int_equal(r->u.text_poke.bytes[4], 0xb5);
		break;
	default:
		fail();
	}
}

typedef void (*emit_fn)(struct perfemit *e, int be, uint32_t t);
typedef void (*check_fn)(const struct decoded *d, const struct fixture *fx, uint32_t t);

/*
 * Record type t as emit writes it in either byte order: both decode to what
 * check wants and dump alike; returns the dump (the caller frees it).
 */
static char *both_orders(struct perfemit *e, const struct fixture *fx, uint32_t t, emit_fn emit, check_fn check)
{
	struct decoded le, be;
	char *a, *b;

	emit(e, 0, t);
	dec(&le, e, &fx->evlist);
	if (le.err)
		print_error("type %u: %s\n", t, le.why ? le.why : "");
	check(&le, fx, t);
	emit(e, 1, t);
	dec(&be, e, &fx->evlist);
	check(&be, fx, t);
	a = dump(&le.rec);
	b = dump(&be.rec);
	assert_string_equal(a, b);
	free(b);
	dec_free(&le);
	dec_free(&be);
	return a;
}

static void test_kernel_records(void **state)
{
	struct fixture fx;
	struct perfemit e = { 0 };
	uint32_t t;

	(void)state;
	fx_kernel(&fx);
	for (t = PERF_RECORD_MMAP; t <= PERF_RECORD_AUX_OUTPUT_HW_ID; t++) {
		char *a;

		if (t == PERF_RECORD_SAMPLE)
			continue;
		a = both_orders(&e, &fx, t, emit_kernel, check_kernel);
		assert_non_null(strstr(a, perf_record_type__name(t)));
		assert_non_null(strstr(a, " pid=41 tid=42 time=5550"));
		free(a);
	}
	fx_release(&fx);
	perfemit__release(&e);
}

/* MMAP2 with a build id instead of device/inode */
static void test_mmap2_build_id(void **state)
{
	struct run *r = *state;

	fx_attr(&r->fx, 0, PERF_SAMPLE_IP, 0, 0, 0, 0);
	fx_done(&r->fx, 1);
	em_begin(&r->e, r->be, PERF_RECORD_MMAP2, PERF_RECORD_MISC_MMAP_BUILD_ID);
	perfemit__u32(&r->e, 1); perfemit__u32(&r->e, 1);
	perfemit__u64(&r->e, 0x1000); perfemit__u64(&r->e, 0x2000); perfemit__u64(&r->e, 0);
	perfemit__u8(&r->e, 3); perfemit__u8(&r->e, 0); perfemit__u16(&r->e, 0);
	perfemit__u8(&r->e, 0xaa); perfemit__u8(&r->e, 0xbb); perfemit__u8(&r->e, 0xcc);
	while (r->e.len < 64)
		perfemit__u8(&r->e, 0);
	perfemit__u32(&r->e, 5); perfemit__u32(&r->e, 2);
	em_str(&r->e, "x");
	em_end(&r->e);
	dec_ok(&r->d, &r->e, &r->fx.evlist);
	assert_int_equal(r->d.rec.u.mmap.build_id_size, 3);
	assert_non_null(r->d.rec.u.mmap.build_id);
	assert_int_equal(r->d.rec.u.mmap.build_id[2], 0xcc);
	assert_int_equal(r->d.rec.u.mmap.prot, 5);
	assert_int_equal(r->d.rec.u.mmap.ino, 0);
	assert_string_equal(r->d.rec.u.mmap.filename, "x");
	/* no sample_id_all: no trailer */
	assert_int_equal(r->d.rec.sample.sample_type, 0);
	dec_free(&r->d);
}

/* MMAP2 as in Linux 3.12..3.15 (and RHEL 7): no prot/flags, name at byte 64 */
static void test_mmap2_old_layout(void **state)
{
	struct run *r = *state;

	fx_attr(&r->fx, 0, PERF_SAMPLE_TID | PERF_SAMPLE_TIME, 0, 1, 0, 0);
	fx_done(&r->fx, 1);
	spec_ok(&r->d, &r->e, r->be, PERF_RECORD_MMAP2, 0,
		"u32:7 u32:7 u64:0x400000 u64:0x6000 u64:0 u32:253 u32:1 "
		"u64:134986833 u64:489497562 c:/usr/bin/true z:1 a:8 u32:7 "
		"u32:8 u64:1000", &r->fx);
	assert_string_equal(r->d.rec.u.mmap.filename, "/usr/bin/true");
	assert_int_equal(r->d.rec.u.mmap.prot, 0);
	assert_int_equal(r->d.rec.u.mmap.ino, 134986833);
	assert_int_equal(r->d.rec.sample.tid, 8);
	assert_int_equal(r->d.rec.sample.time, 1000);
	dec_free(&r->d);

	/* a short name: no name would fit at byte 72 */
	spec_ok(&r->d, &r->e, r->be, PERF_RECORD_MMAP2, 0,
		"u32:7 u32:7 u64:0x400000 u64:0x6000 u64:0 u32:0 u32:0 u64:0 "
		"u64:0 c:[stack] z:1 a:8 u32:7 u32:8 u64:1000", &r->fx);
	assert_string_equal(r->d.rec.u.mmap.filename, "[stack]");
	dec_free(&r->d);
}

/* --------------------------------------------------------- user records */

static void emit_user(struct perfemit *e, int be, uint32_t t)
{
	em_begin(e, be, t, 0);
	switch (t) {
	case PERF_RECORD_HEADER_ATTR:
		perfemit__u32(e, PERF_TYPE_SOFTWARE);	/* type */
		perfemit__u32(e, 64);			/* size: VER0 */
		perfemit__u64(e, PERF_COUNT_SW_CPU_CLOCK);	/* config */
		perfemit__u64(e, 4000);			/* sample_period */
		perfemit__u64(e, PERF_SAMPLE_IP | PERF_SAMPLE_TID);	/* sample_type */
		perfemit__u64(e, PERF_FORMAT_ID);	/* read_format */
		/*
		 * flags: disabled (bit 0), precise_ip = 2 (bits 15..16), sample_id_all
		 * (bit 18); big-endian bitfields count from bit 63: 63, 48..47, 45
		 */
		perfemit__u64(e, be ? (1ULL << 63) | (1ULL << 48) | (1ULL << 45)
			   : 1ULL | (2ULL << 15) | (1ULL << 18));
		perfemit__u32(e, 1);			/* wakeup_events */
		perfemit__u32(e, 0);			/* bp_type */
		perfemit__u64(e, 0x1111);		/* config1 */
		perfemit__u64(e, 101); perfemit__u64(e, 102);	/* ids */
		break;
	case PERF_RECORD_HEADER_EVENT_TYPE:
		perfemit__u64(e, 33);
		em_str(e, "sched:sched_switch");
		break;
	case PERF_RECORD_HEADER_TRACING_DATA:
		perfemit__u32(e, 4096);
		break;
	case PERF_RECORD_HEADER_BUILD_ID: {
		int i;

		perfemit__u32(e, (uint32_t)-1);
		for (i = 0; i < 20; i++)
			perfemit__u8(e, (uint8_t)(0x10 + i));
		perfemit__u8(e, 0); perfemit__u8(e, 0); perfemit__u16(e, 0);
		em_str(e, "[kernel.kallsyms]");
		break;
	}
	case PERF_RECORD_FINISHED_ROUND:
	case PERF_RECORD_FINISHED_INIT:
		break;
	case PERF_RECORD_ID_INDEX:
		perfemit__u64(e, 2);
		perfemit__u64(e, 101); perfemit__u64(e, 0); perfemit__u64(e, 0); perfemit__u64(e, (uint64_t)-1);
		perfemit__u64(e, 102); perfemit__u64(e, 0); perfemit__u64(e, 1); perfemit__u64(e, (uint64_t)-1);
		perfemit__u64(e, 55); perfemit__u64(e, 1);	/* id_index_entry_2 */
		perfemit__u64(e, 55); perfemit__u64(e, 2);
		break;
	case PERF_RECORD_AUXTRACE_INFO:
		perfemit__u32(e, 8); perfemit__u32(e, 0);		/* PERF_AUXTRACE_INTEL_PT */
		perfemit__u64(e, 0x1001); perfemit__u64(e, 0x1002); perfemit__u64(e, 0x1003);
		break;
	case PERF_RECORD_AUXTRACE:
		perfemit__u64(e, 0x4000); perfemit__u64(e, 0x100); perfemit__u64(e, 0xabcdef);
		perfemit__u32(e, 1); perfemit__u32(e, 300); perfemit__u32(e, 2); perfemit__u32(e, 0);
		break;
	case PERF_RECORD_AUXTRACE_ERROR: {
		size_t start;

		perfemit__u32(e, 1); perfemit__u32(e, 6); perfemit__u32(e, 3); perfemit__u32(e, 400); perfemit__u32(e, 401); perfemit__u32(e, 2);
		perfemit__u64(e, 0xffffffff81000000ULL); perfemit__u64(e, 8888);
		start = e->len;
		perfemit__bytes(e, "decoder error", 14);
		while (e->len < start + 64)
			perfemit__u8(e, 0);
		perfemit__u32(e, 7); perfemit__u32(e, 1);
		break;
	}
	case PERF_RECORD_THREAD_MAP: {
		char comm[16] = "worker";

		perfemit__u64(e, 2);
		perfemit__u64(e, 500); perfemit__bytes(e, comm, 16);
		perfemit__u64(e, 501); perfemit__bytes(e, comm, 16);
		break;
	}
	case PERF_RECORD_CPU_MAP:
		perfemit__u16(e, 0);		/* PERF_CPU_MAP__CPUS */
		perfemit__u16(e, 3);
		perfemit__u16(e, 0); perfemit__u16(e, 2); perfemit__u16(e, 5);
		perfemit__u16(e, 0);
		break;
	case PERF_RECORD_STAT_CONFIG:
		perfemit__u64(e, 2);
		perfemit__u64(e, 0); perfemit__u64(e, 1);	/* AGGR_MODE = 1 */
		perfemit__u64(e, 1); perfemit__u64(e, 100);	/* INTERVAL = 100 */
		break;
	case PERF_RECORD_STAT:
		perfemit__u64(e, 101); perfemit__u32(e, 3); perfemit__u32(e, (uint32_t)-1);
		perfemit__u64(e, 1000); perfemit__u64(e, 2000); perfemit__u64(e, 1500);
		break;
	case PERF_RECORD_STAT_ROUND:
		perfemit__u64(e, 1); perfemit__u64(e, 123456);
		break;
	case PERF_RECORD_EVENT_UPDATE:
		perfemit__u64(e, 2); perfemit__u64(e, 101);	/* NAME */
		em_str(e, "cycles:u");
		break;
	case PERF_RECORD_TIME_CONV:
		perfemit__u64(e, 31); perfemit__u64(e, 1000); perfemit__u64(e, 5000);
		perfemit__u64(e, 77); perfemit__u64(e, 0xffffffff);
		perfemit__u8(e, 1); perfemit__u8(e, 0);
		perfemit__u16(e, 0); perfemit__u32(e, 0);
		break;
	case PERF_RECORD_HEADER_FEATURE:
		perfemit__u64(e, 2);	/* HEADER_HOSTNAME: bytes stay in file order */
		perfemit__bytes(e, "\0\0\0\x08hostnam\0", 12);
		perfemit__u32(e, 0);
		break;
	case PERF_RECORD_COMPRESSED:
		perfemit__bytes(e, "\x28\xb5\x2f\xfd\x00\x01\x02\x03", 8);
		break;
	case PERF_RECORD_COMPRESSED2:
		perfemit__u64(e, 5);
		perfemit__bytes(e, "\x28\xb5\x2f\xfd\x00\x00\x00\x00", 8);
		break;
	default:
		fail();
	}
	em_end(e);
}

/* the integer fields check_user() checks, by record type */
static const struct field_want user_fields[] = {
	{ PERF_RECORD_HEADER_ATTR, FIELD(u.header_attr.attr_size, 64) },
	{ PERF_RECORD_HEADER_ATTR, FIELD(u.header_attr.nr_ids, 2) },
	{ PERF_RECORD_HEADER_EVENT_TYPE, FIELD(u.event_type.event_id, 33) },
	{ PERF_RECORD_HEADER_TRACING_DATA, FIELD(u.tracing_data.size, 4096) },
	{ PERF_RECORD_HEADER_BUILD_ID, FIELD(u.build_id.pid, -1) },
	{ PERF_RECORD_HEADER_BUILD_ID, FIELD(u.build_id.size, 20) },
	{ PERF_RECORD_ID_INDEX, FIELD(u.id_index.nr, 2) },
	{ PERF_RECORD_AUXTRACE_INFO, FIELD(u.auxtrace_info.type, 8) },
	{ PERF_RECORD_AUXTRACE_INFO, FIELD(u.auxtrace_info.nr_priv, 3) },
	{ PERF_RECORD_AUXTRACE, FIELD(u.auxtrace.size, 0x4000) },
	{ PERF_RECORD_AUXTRACE, FIELD(u.auxtrace.offset, 0x100) },
	{ PERF_RECORD_AUXTRACE, FIELD(u.auxtrace.reference, 0xabcdef) },
	{ PERF_RECORD_AUXTRACE, FIELD(u.auxtrace.idx, 1) },
	{ PERF_RECORD_AUXTRACE, FIELD(u.auxtrace.tid, 300) },
	{ PERF_RECORD_AUXTRACE, FIELD(u.auxtrace.cpu, 2) },
	{ PERF_RECORD_AUXTRACE_ERROR, FIELD(u.auxtrace_error.code, 6) },
	{ PERF_RECORD_AUXTRACE_ERROR, FIELD(u.auxtrace_error.tid, 401) },
	{ PERF_RECORD_AUXTRACE_ERROR, FIELD(u.auxtrace_error.fmt, 2) },
	{ PERF_RECORD_AUXTRACE_ERROR, FIELD(u.auxtrace_error.time, 8888) },
	{ PERF_RECORD_AUXTRACE_ERROR, FIELD(u.auxtrace_error.machine_pid, 7) },
	{ PERF_RECORD_AUXTRACE_ERROR, FIELD(u.auxtrace_error.vcpu, 1) },
	{ PERF_RECORD_THREAD_MAP, FIELD(u.thread_map.nr, 2) },
	{ PERF_RECORD_CPU_MAP, FIELD(u.cpu_map.type, 0) },
	{ PERF_RECORD_CPU_MAP, FIELD(u.cpu_map.nr, 3) },
	{ PERF_RECORD_STAT_CONFIG, FIELD(u.stat_config.nr, 2) },
	{ PERF_RECORD_STAT, FIELD(u.stat.id, 101) },
	{ PERF_RECORD_STAT, FIELD(u.stat.cpu, 3) },
	{ PERF_RECORD_STAT, FIELD(u.stat.thread, (uint32_t)-1) },
	{ PERF_RECORD_STAT, FIELD(u.stat.ena, 2000) },
	{ PERF_RECORD_STAT, FIELD(u.stat.run, 1500) },
	{ PERF_RECORD_STAT_ROUND, FIELD(u.stat_round.type, 1) },
	{ PERF_RECORD_STAT_ROUND, FIELD(u.stat_round.time, 123456) },
	{ PERF_RECORD_EVENT_UPDATE, FIELD(u.event_update.type, 2) },
	{ PERF_RECORD_EVENT_UPDATE, FIELD(u.event_update.id, 101) },
	{ PERF_RECORD_TIME_CONV, FIELD(u.time_conv.time_shift, 31) },
	{ PERF_RECORD_TIME_CONV, FIELD(u.time_conv.time_zero, 5000) },
	{ PERF_RECORD_TIME_CONV, FIELD(u.time_conv.time_cycles, 77) },
	{ PERF_RECORD_TIME_CONV, FIELD(u.time_conv.time_mask, 0xffffffff) },
	{ PERF_RECORD_TIME_CONV, FIELD(u.time_conv.cap_user_time_zero, 1) },
	{ PERF_RECORD_HEADER_FEATURE, FIELD(u.feature.feat_id, 2) },
	{ PERF_RECORD_HEADER_FEATURE, FIELD(u.feature.size, 16) },
	{ PERF_RECORD_COMPRESSED, FIELD(u.compressed.size, 8) },
	{ PERF_RECORD_COMPRESSED2, FIELD(u.compressed.size, 5) },
};

static void check_user(const struct decoded *d, const struct fixture *fx, uint32_t t)
{
	const struct perf_record *r = &d->rec;

	(void)fx;

	assert_int_equal(d->err, 0);
	assert_null(r->evattr);
	assert_int_equal(r->sample.sample_type, 0);
	check_fields(r, t, user_fields, sizeof(user_fields) / sizeof(user_fields[0]));
	switch (t) {
	case PERF_RECORD_HEADER_ATTR: {
		struct perf_event_attr a;

		memset(&a, 0, sizeof(a));
		memcpy(&a, r->u.header_attr.attr, 64);
		assert_int_equal(a.type, PERF_TYPE_SOFTWARE);
		assert_int_equal(a.size, 64);
		assert_int_equal(a.sample_period, 4000);
		assert_int_equal(a.sample_type, PERF_SAMPLE_IP | PERF_SAMPLE_TID);
		assert_int_equal(a.read_format, PERF_FORMAT_ID);
		assert_int_equal(a.disabled, 1);
		assert_int_equal(a.precise_ip, 2);
		assert_int_equal(a.sample_id_all, 1);
		assert_int_equal(a.inherit, 0);
		assert_int_equal(a.wakeup_events, 1);
		assert_int_equal(a.config1, 0x1111);
		assert_int_equal(u64_at(r->u.header_attr.ids, 1), 102);
		break;
	}
	case PERF_RECORD_HEADER_EVENT_TYPE:
		assert_string_equal(r->u.event_type.name, "sched:sched_switch");
		break;
	case PERF_RECORD_HEADER_TRACING_DATA:
	case PERF_RECORD_FINISHED_ROUND:
	case PERF_RECORD_FINISHED_INIT:
	case PERF_RECORD_AUXTRACE:
	case PERF_RECORD_STAT:
	case PERF_RECORD_STAT_ROUND:
		break;	/* integer fields (or none) only */
	case PERF_RECORD_HEADER_BUILD_ID:
		assert_int_equal(r->u.build_id.build_id[19], 0x23);
		assert_string_equal(r->u.build_id.filename, "[kernel.kallsyms]");
		break;
	case PERF_RECORD_ID_INDEX:
		assert_int_equal(r->u.id_index.entries[1].id, 102);
		assert_int_equal(r->u.id_index.entries[1].cpu, 1);
		assert_int_equal(r->u.id_index.entries[1].tid, (uint64_t)-1);
		assert_non_null(r->u.id_index.ext);
		assert_int_equal(u64_at(r->u.id_index.ext, 3), 2);
		break;
	case PERF_RECORD_AUXTRACE_INFO:
		assert_int_equal(u64_at(r->u.auxtrace_info.priv, 2), 0x1003);
		break;
	case PERF_RECORD_AUXTRACE_ERROR:
		assert_string_equal(r->u.auxtrace_error.msg, "decoder error");
		break;
	case PERF_RECORD_THREAD_MAP:
		assert_int_equal(u64_at(r->u.thread_map.entries, 3), 501);
		break;
	case PERF_RECORD_CPU_MAP:
		assert_int_equal(((const uint8_t *)r->u.cpu_map.data)[4], 5);
		break;
	case PERF_RECORD_STAT_CONFIG:
		assert_int_equal(u64_at(r->u.stat_config.data, 3), 100);
		break;
	case PERF_RECORD_EVENT_UPDATE:
		assert_string_equal(r->u.event_update.str, "cycles:u");
		break;
	case PERF_RECORD_TIME_CONV:
		assert_true(r->u.time_conv.has_ext);
		break;
	case PERF_RECORD_HEADER_FEATURE:
		assert_memory_equal(r->u.feature.data, "\0\0\0\x08hostnam", 12);
		break;
	case PERF_RECORD_COMPRESSED:
		assert_memory_equal(r->u.compressed.data, "\x28\xb5\x2f\xfd", 4);
		break;
	case PERF_RECORD_COMPRESSED2:
		assert_memory_equal(r->u.compressed.data, "\x28\xb5\x2f\xfd", 4);
		break;
	default:
		fail();
	}
}

static void test_user_records(void **state)
{
	struct fixture fx;
	struct perfemit e = { 0 };
	uint32_t t;

	(void)state;
	fx_kernel(&fx);
	for (t = PERF_RECORD_HEADER_ATTR; t <= PERF_RECORD_COMPRESSED2; t++)
		free(both_orders(&e, &fx, t, emit_user, check_user));
	fx_release(&fx);
	perfemit__release(&e);
}

static void test_cpu_map_encodings(void **state)
{
	struct run *r = *state;

	/* MASK, long_size 8: type, nr, long_size, 4 bytes pad, u64 mask (unaligned) */
	spec_ok(&r->d, &r->e, r->be, PERF_RECORD_CPU_MAP, 0,
		"u16:1 u16:1 u16:8 u32:0 u64:0x8000000000000005 u16:0 u32:0", &r->fx);
	assert_int_equal(r->d.rec.u.cpu_map.type, 1);
	assert_int_equal(r->d.rec.u.cpu_map.long_size, 8);
	assert_int_equal(r->d.rec.u.cpu_map.nr, 1);
	assert_int_equal(u64_at(r->d.rec.u.cpu_map.data, 0), 0x8000000000000005ULL);
	dec_free(&r->d);

	/* MASK, long_size 4: u32 masks right after long_size */
	spec_ok(&r->d, &r->e, r->be, PERF_RECORD_CPU_MAP, 0,
		"u16:1 u16:2 u16:4 u32:0xf0 u32:0x1 u16:0", &r->fx);
	assert_int_equal(r->d.rec.u.cpu_map.long_size, 4);
	assert_int_equal(r->d.rec.u.cpu_map.nr, 2);
	{
		uint32_t m;

		memcpy(&m, (const uint8_t *)r->d.rec.u.cpu_map.data + 4, 4);
		assert_int_equal(m, 1);
	}
	dec_free(&r->d);

	/* RANGE_CPUS (perf 6.2+): any_cpu, pad, start, end */
	spec_ok(&r->d, &r->e, r->be, PERF_RECORD_CPU_MAP, 0, "u16:2 u8:1 u8:0 u16:4 u16:11", &r->fx);
	assert_int_equal(r->d.rec.u.cpu_map.type, 2);
	assert_int_equal(r->d.rec.u.cpu_map.any_cpu, 1);
	assert_int_equal(r->d.rec.u.cpu_map.start_cpu, 4);
	assert_int_equal(r->d.rec.u.cpu_map.end_cpu, 11);
	dec_free(&r->d);

	/* EVENT_UPDATE CPUS and SCALE */
	spec_ok(&r->d, &r->e, r->be, PERF_RECORD_EVENT_UPDATE, 0,
		"u64:3 u64:9 u16:0 u16:2 u16:1 u16:3", &r->fx);
	assert_int_equal(r->d.rec.u.event_update.cpus.nr, 2);
	assert_int_equal(((const uint8_t *)r->d.rec.u.event_update.cpus.data)[2], 3);
	dec_free(&r->d);

	em_begin(&r->e, r->be, PERF_RECORD_EVENT_UPDATE, 0);
	perfemit__u64(&r->e, 1); perfemit__u64(&r->e, 9);
	perfemit__u64(&r->e, 0x3ff8000000000000ULL);	/* 1.5 as an IEEE double */
	em_end(&r->e);
	dec_ok(&r->d, &r->e, &r->fx.evlist);
	assert_true(r->d.rec.u.event_update.scale == 1.5);
	dec_free(&r->d);

	/* TIME_CONV without the extension */
	spec_ok(&r->d, &r->e, r->be, PERF_RECORD_TIME_CONV, 0, "u64:10 u64:20 u64:30", &r->fx);
	assert_false(r->d.rec.u.time_conv.has_ext);
	assert_int_equal(r->d.rec.u.time_conv.time_mult, 20);
	dec_free(&r->d);
}

/* ------------------------------------------------------------ corruption */

static void expect_einval(const struct perfemit *e, const struct perf_evlist *el, const char *needle)
{
	struct decoded d;

	dec(&d, e, el);
	assert_int_equal(d.err, -EINVAL);
	assert_non_null(d.why);
	if (needle && !strstr(d.why, needle)) {
		print_error("why \"%s\" lacks \"%s\"\n", d.why, needle);
		fail();
	}
	dec_free(&d);
}

/* one record from a perfemit__spec() must be refused, why containing needle */
static void einval_spec(struct perfemit *e, int be, uint32_t type, uint16_t misc, const char *spec,
			const struct fixture *fx, const char *needle)
{
	em_begin(e, be, type, misc);
	assert_int_equal(perfemit__spec(e, spec), 0);
	em_end(e);
	expect_einval(e, &fx->evlist, needle);
}

static void test_corrupt(void **state)
{
	struct run *r = *state;
	int what;

	fx_attr(&r->fx, 0, PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK |
		PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID, 0, 1, 5, 0);
	fx_attr(&r->fx, 1, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
		PERF_SAMPLE_RAW | PERF_SAMPLE_READ | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER,
		PERF_FORMAT_GROUP | PERF_FORMAT_ID, 1, 6, 0);
	r->fx.attrs[1].attr.sample_regs_user = 0xffff;
	fx_done(&r->fx, 2);

	/* callchain nr far beyond the record */
	em_begin(&r->e, r->be, PERF_RECORD_SAMPLE, 0);
	perfemit__u64(&r->e, 1); perfemit__u32(&r->e, 1); perfemit__u32(&r->e, 1); perfemit__u64(&r->e, 2); perfemit__u64(&r->e, 5);
	perfemit__u64(&r->e, 4096); perfemit__u64(&r->e, 0x1);
	em_end(&r->e);
	expect_einval(&r->e, &r->fx.evlist, r->be ? "callchain nr" : "callchain nr 4096 exceeds the record");

	/* callchain nr whose byte count overflows 64 bits */
	em_begin(&r->e, r->be, PERF_RECORD_SAMPLE, 0);
	perfemit__u64(&r->e, 1); perfemit__u32(&r->e, 1); perfemit__u32(&r->e, 1); perfemit__u64(&r->e, 2); perfemit__u64(&r->e, 5);
	perfemit__u64(&r->e, 1ULL << 61);
	em_end(&r->e);
	expect_einval(&r->e, &r->fx.evlist, "callchain nr");

	/* branch nr huge */
	em_begin(&r->e, r->be, PERF_RECORD_SAMPLE, 0);
	perfemit__u64(&r->e, 1); perfemit__u32(&r->e, 1); perfemit__u32(&r->e, 1); perfemit__u64(&r->e, 2); perfemit__u64(&r->e, 5);
	perfemit__u64(&r->e, 0);
	perfemit__u64(&r->e, 0x0aaaaaaaaaaaaaabULL);	/* nr * 24 wraps to 8 in 64 bits */
	perfemit__u64(&r->e, 0);
	em_end(&r->e);
	expect_einval(&r->e, &r->fx.evlist, "branch nr");

	/* sample cut inside the fixed fields */
	einval_spec(&r->e, r->be, PERF_RECORD_SAMPLE, 0,
		"u64:1 u32:1 u32:1 u64:2 u64:5", &r->fx, "callchain");

	/* attr 1: read group nr, raw size, regs, stack size */
	for (what = 0; what < 4; what++) {
		em_begin(&r->e, r->be, PERF_RECORD_SAMPLE, 0);
		perfemit__u64(&r->e, 1); perfemit__u32(&r->e, 1); perfemit__u32(&r->e, 1); perfemit__u64(&r->e, 2); perfemit__u64(&r->e, 6);
		perfemit__u64(&r->e, what == 0 ? 1000000 : 1);	/* READ group nr */
		perfemit__u64(&r->e, 7); perfemit__u64(&r->e, 6);
		perfemit__u32(&r->e, what == 1 ? 0xfffffff0 : 4);	/* RAW */
		perfemit__u32(&r->e, 0);
		perfemit__u64(&r->e, PERF_SAMPLE_REGS_ABI_64);	/* 16 registers */
		if (what != 2) {
			int i;

			for (i = 0; i < 16; i++)
				perfemit__u64(&r->e, (uint64_t)i);
		}
		perfemit__u64(&r->e, what == 3 ? UINT64_MAX : 8);	/* stack size */
		if (what != 3) {
			perfemit__u64(&r->e, 0);
			perfemit__u64(&r->e, 9);	/* dyn_size 9 > size 8 */
		}
		em_end(&r->e);
		expect_einval(&r->e, &r->fx.evlist, what == 0 ? "read group nr" :
			      what == 1 ? "raw size" : what == 2 ? "user regs" : "user stack size");
	}
	em_begin(&r->e, r->be, PERF_RECORD_SAMPLE, 0);
	perfemit__u64(&r->e, 1); perfemit__u32(&r->e, 1); perfemit__u32(&r->e, 1); perfemit__u64(&r->e, 2); perfemit__u64(&r->e, 6);
	perfemit__u64(&r->e, 0);				/* READ group nr 0 */
	perfemit__u32(&r->e, 4); perfemit__u32(&r->e, 0);		/* RAW */
	perfemit__u64(&r->e, 0);				/* REGS_USER abi none */
	perfemit__u64(&r->e, 8); perfemit__u64(&r->e, 0); perfemit__u64(&r->e, 9);	/* STACK_USER */
	em_end(&r->e);
	expect_einval(&r->e, &r->fx.evlist, "dyn_size");

	/* unknown id */
	einval_spec(&r->e, r->be, PERF_RECORD_SAMPLE, 0,
		"u64:1 u32:1 u32:1 u64:2 u64:0x2a", &r->fx, "unknown sample id");

	/* trailer (TID TIME ID: 24 bytes) longer than a 16-byte record body */
	em_begin(&r->e, r->be, PERF_RECORD_LOST_SAMPLES, 0);
	perfemit__u64(&r->e, 5);
	em_end(&r->e);
	{
		struct fixture one;

		fx_attr(&one, 0, PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID, 0, 1, 5, 0);
		fx_done(&one, 1);
		expect_einval(&r->e, &one.evlist, "trailer");
		fx_release(&one);
	}

	/* COMM whose name runs into the trailer without a NUL */
	einval_spec(&r->e, r->be, PERF_RECORD_COMM, 0,
		"u32:1 u32:1 c:abcdefgh u32:1 u32:1 u64:2 u64:5", &r->fx, "comm");

	/* MMAP too short for its fixed fields */
	em_begin(&r->e, r->be, PERF_RECORD_MMAP, 0);
	perfemit__u32(&r->e, 1); perfemit__u32(&r->e, 1);
	perfemit__u32(&r->e, 1); perfemit__u32(&r->e, 1); perfemit__u64(&r->e, 2); perfemit__u64(&r->e, 5);
	em_end(&r->e);
	expect_einval(&r->e, &r->fx.evlist, "record of 40 bytes is shorter than 64");	/* 40 + 24-byte trailer */

	/* user records: counts past the end, strings without NUL */
	einval_spec(&r->e, r->be, PERF_RECORD_ID_INDEX, 0,
		"u64:3 u64:1 u64:0 u64:0 u64:0", &r->fx, "id_index nr 3");

	em_begin(&r->e, r->be, PERF_RECORD_THREAD_MAP, 0);
	perfemit__u64(&r->e, UINT64_MAX);
	em_end(&r->e);
	expect_einval(&r->e, &r->fx.evlist, "thread_map nr");

	em_begin(&r->e, r->be, PERF_RECORD_STAT_CONFIG, 0);
	perfemit__u64(&r->e, 1ULL << 60);
	perfemit__u64(&r->e, 0); perfemit__u64(&r->e, 0);
	em_end(&r->e);
	expect_einval(&r->e, &r->fx.evlist, "stat_config nr");

	einval_spec(&r->e, r->be, PERF_RECORD_NAMESPACES, 0,
		"u32:1 u32:1 u64:7 u64:1 u64:2 u32:1 u32:1 u64:2 u64:5", &r->fx, "namespaces nr 7");

	einval_spec(&r->e, r->be, PERF_RECORD_HEADER_BUILD_ID, 0,
		"u32:1 c:01234567890123456789012345678901", &r->fx, "filename");

	einval_spec(&r->e, r->be, PERF_RECORD_CPU_MAP, 0,
		"u16:0 u16:200 u32:0", &r->fx, "cpu map nr 200");

	einval_spec(&r->e, r->be, PERF_RECORD_COMPRESSED2, 0, "u64:9 u64:0", &r->fx, "data_size 9");

	einval_spec(&r->e, r->be, PERF_RECORD_AUXTRACE, 0,
		"u64:1 u64:2", &r->fx, "record of 24 bytes is shorter than 48");

	em_begin(&r->e, r->be, PERF_RECORD_HEADER_ATTR, 0);
	perfemit__u32(&r->e, 1); perfemit__u32(&r->e, 200);
	{
		int i;

		for (i = 0; i < 7; i++)
			perfemit__u64(&r->e, 0);
	}
	em_end(&r->e);
	expect_einval(&r->e, &r->fx.evlist, "attr");

	/* MMAP2 build id longer than 20 bytes */
	em_begin(&r->e, r->be, PERF_RECORD_MMAP2, PERF_RECORD_MISC_MMAP_BUILD_ID);
	perfemit__u32(&r->e, 1); perfemit__u32(&r->e, 1); perfemit__u64(&r->e, 1); perfemit__u64(&r->e, 1); perfemit__u64(&r->e, 0);
	perfemit__u8(&r->e, 21); perfemit__u8(&r->e, 0); perfemit__u16(&r->e, 0);
	while (r->e.len < 72)
		perfemit__u8(&r->e, 0);
	em_str(&r->e, "x");
	perfemit__u32(&r->e, 1); perfemit__u32(&r->e, 1); perfemit__u64(&r->e, 2); perfemit__u64(&r->e, 5);
	em_end(&r->e);
	expect_einval(&r->e, &r->fx.evlist, "build_id_size 21");

	einval_spec(&r->e, r->be, PERF_RECORD_TEXT_POKE, 0,
		"u64:1 u16:100 u16:100 u32:0", &r->fx, "text_poke");
}

/*
 * CALLCHAIN_DEFERRED (Linux 6.19: cookie, nr, ips[nr], then the
 * sample_id_all trailer), in both byte orders, and one whose nr runs past
 * the record.
 */
static const uint64_t deferred_ips[] = { 0x401000, 0x401100, 0x7f0000001000ULL };

/* the record with cookie and nr; its 3 ips whatever nr says */
static void emit_deferred_nr(struct perfemit *e, int be, uint64_t cookie, uint64_t nr)
{
	size_t i;

	em_begin(e, be, RP_RECORD_CALLCHAIN_DEFERRED, 0);
	perfemit__u64(e, cookie);
	perfemit__u64(e, nr);
	for (i = 0; i < 3; i++)
		perfemit__u64(e, deferred_ips[i]);
	perfemit__sample_id(e, TRAILER_ALL, &trailer);
	em_end(e);
}

static void emit_deferred(struct perfemit *e, int be, uint32_t t)
{
	(void)t;
	emit_deferred_nr(e, be, 0xc00c1e, 3);
}

static void check_deferred(const struct decoded *d, const struct fixture *fx, uint32_t t)
{
	(void)fx;
	(void)t;
	assert_int_equal(d->err, 0);
	assert_int_equal(d->rec.u.callchain_deferred.cookie, 0xc00c1e);
	assert_int_equal(d->rec.u.callchain_deferred.nr, 3);
	assert_memory_equal(d->rec.u.callchain_deferred.ips, deferred_ips, sizeof(deferred_ips));
	assert_int_equal(d->rec.sample.tid, 42);
}

static void test_callchain_deferred(void **state)
{
	struct fixture fx;
	struct perfemit e = { 0 };
	char *a;

	(void)state;
	fx_kernel(&fx);
	a = both_orders(&e, &fx, RP_RECORD_CALLCHAIN_DEFERRED, emit_deferred, check_deferred);
	assert_non_null(strstr(a, "CALLCHAIN_DEFERRED "));
	assert_non_null(strstr(a, " cookie=0xc00c1e nr=3 ips=[0x401000,0x401100,0x7f0000001000]"));
	free(a);

	emit_deferred_nr(&e, 0, 1, 4);	/* one more than the record holds */
	expect_einval(&e, &fx.evlist, "callchain nr 4 exceeds the record");
	fx_release(&fx);
	perfemit__release(&e);
}

/* HEADER_EVENT_TYPE as perf wrote it: a 16-character name in 16 bytes, no NUL */
static void test_event_type_no_nul(void **state)
{
	struct run *r = *state;

	spec_ok(&r->d, &r->e, r->be, PERF_RECORD_HEADER_EVENT_TYPE, 0,
		"u64:12 c:cache-references", &r->fx);
	assert_int_equal(r->d.rec.u.event_type.event_id, 12);
	assert_string_equal(r->d.rec.u.event_type.name, "cache-references");
	dec_free(&r->d);
}

/* pid 42, id bytes 0..19 and a size byte, "/lib/x.so" */
static void emit_build_id_size(struct run *r, uint8_t size)
{
	uint8_t i;

	em_begin(&r->e, r->be, PERF_RECORD_HEADER_BUILD_ID, 1 << 15);
	perfemit__u32(&r->e, 42);
	for (i = 0; i < 20; i++)
		perfemit__u8(&r->e, i);
	perfemit__u8(&r->e, size); perfemit__u8(&r->e, 0); perfemit__u16(&r->e, 0);
	em_str(&r->e, "/lib/x.so");
	em_end(&r->e);
}

/* HEADER_BUILD_ID with PERF_RECORD_MISC_BUILD_ID_SIZE (1 << 15): the size byte follows the 20 */
static void test_build_id_size(void **state)
{
	struct run *r = *state;

	emit_build_id_size(r, 16);
	dec_ok(&r->d, &r->e, &r->fx.evlist);
	assert_int_equal(r->d.rec.u.build_id.pid, 42);
	assert_int_equal(r->d.rec.u.build_id.size, 16);
	assert_string_equal(r->d.rec.u.build_id.filename, "/lib/x.so");
	dec_free(&r->d);

	emit_build_id_size(r, 24);
	expect_einval(&r->e, &r->fx.evlist, "build id size 24");
	fx_release(&r->fx);

	/* sample_type bits this decoder does not know */
	fx_attr(&r->fx, 0, PERF_SAMPLE_IP | (1ULL << 40), 0, 0, 0, 0);
	fx_done(&r->fx, 1);
	em_begin(&r->e, 0, PERF_RECORD_SAMPLE, 0);
	perfemit__u64(&r->e, 1); perfemit__u64(&r->e, 2);
	em_end(&r->e);
	expect_einval(&r->e, &r->fx.evlist, "unknown bits");
}

static void test_size_smaller_than_header(void **state)
{
	struct perf_record rec = { 0 };
	const char *why = NULL;
	uint8_t *b = calloc(1, 8);

	(void)state;
	assert_non_null(b);
	memset(&rec, 0, sizeof(rec));
	rec.type = PERF_RECORD_MMAP;
	rec.size = 4;
	rec.data = b;
	assert_int_equal(perf_record__decode(&rec, NULL, &why), -EINVAL);
	assert_string_equal(why, "size 4 is smaller than the header");

	/* big-endian header claiming 4 bytes, and one claiming more than given */
	b[3] = PERF_RECORD_MMAP;
	b[7] = 4;
	assert_int_equal(perf_record__swap(b, 8, NULL, &why), -EINVAL);
	memset(b, 0, 8);
	b[3] = PERF_RECORD_MMAP;
	b[7] = 16;
	assert_int_equal(perf_record__swap(b, 8, NULL, &why), -EINVAL);
	assert_int_equal(perf_record__swap(b, 4, NULL, &why), -EINVAL);
	free(b);
}

/* a sample without any attr, and a non-sample with an unknown id */
static void test_no_attr(void **state)
{
	struct fixture fx;
	struct perfemit e = { 0 };
	struct decoded d;

	(void)state;
	fx_done(&fx, 0);
	em_begin(&e, 0, PERF_RECORD_SAMPLE, 0);
	perfemit__u64(&e, 1);
	em_end(&e);
	dec(&d, &e, &fx.evlist);
	assert_int_equal(d.err, -EINVAL);
	dec_free(&d);
	fx_release(&fx);

	fx_attr(&fx, 0, PERF_SAMPLE_IDENTIFIER, 0, 1, 5, 0);
	fx_attr(&fx, 1, PERF_SAMPLE_IDENTIFIER, 0, 1, 6, 0);
	fx_done(&fx, 2);
	em_begin(&e, 0, PERF_RECORD_COMM, 0);
	perfemit__u32(&e, 3); perfemit__u32(&e, 4);
	em_str(&e, "x");
	perfemit__u64(&e, 77);
	em_end(&e);
	dec_ok(&d, &e, &fx.evlist);
	assert_null(d.rec.evattr);
	assert_int_equal(d.rec.u.comm.pid, 3);
	assert_string_equal(d.rec.u.comm.comm, "x");
	dec_free(&d);
	fx_release(&fx);
	perfemit__release(&e);
}

/* ------------------------------------------------------ random bytes */

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Random records against the attrs of the tests above, decoded and swapped
 * from exactly sized buffers: only 0 or -EINVAL may come back, and the
 * sanitizer build checks that nothing is read outside.
 */
static void test_random_records(void **state)
{
	struct fixture fx[2];
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	int i;

	(void)state;
	fx_all(&fx[0]);
	fx_kernel(&fx[1]);
	for (i = 0; i < 60000; i++) {
		const struct perf_evlist *el = &fx[i & 1].evlist;
		size_t len = 8 + 8 * (rnd(&seed) % 40) + (rnd(&seed) % 4 == 0 ? rnd(&seed) % 8 : 0);
		uint8_t *b = malloc(len);
		struct perf_record rec = { 0 };
		const char *why = NULL;
		uint32_t type;
		size_t j;
		int err;

		assert_non_null(b);
		for (j = 0; j < len; j++)
			b[j] = (uint8_t)(rnd(&seed) % 5 == 0 ? 0 : rnd(&seed) % 3 ? rnd(&seed) % 4 : rnd(&seed));
		type = (uint32_t)(rnd(&seed) % 90);
		if (i & 2) {
			b[0] = (uint8_t)type; b[1] = 0; b[2] = 0; b[3] = 0;
			b[6] = (uint8_t)len; b[7] = (uint8_t)(len >> 8);
			if (type == PERF_RECORD_SAMPLE && len >= 16)
				memcpy(b + 8, &fx[i & 1].ids[0][0], 8);
		} else {
			b[0] = 0; b[1] = 0; b[2] = 0; b[3] = (uint8_t)type;
			b[6] = (uint8_t)(len >> 8); b[7] = (uint8_t)len;
			err = perf_record__swap(b, len, el, &why);
			assert_true(err == 0 || err == -EINVAL);
			if (err) {
				free(b);
				continue;
			}
		}
		memset(&rec, 0, sizeof(rec));
		memcpy(&rec.type, b, 4);
		memcpy(&rec.misc, b + 4, 2);
		memcpy(&rec.size, b + 6, 2);
		rec.data = b;
		err = perf_record__decode(&rec, el, &why);
		assert_true(err == 0 || err == -EINVAL);
		if (!err) {
			struct strbuf sb = STRBUF_INIT;

			assert_int_equal(perf_record__dump(&rec, &sb), 0);
			strbuf__release(&sb);
		}
		free(b);
	}
	fx_release(&fx[0]);
	fx_release(&fx[1]);
}

/*
 * A record decoded into again clears only the fields up to the period when
 * the rest is still zero (perf_record__decode's zero_tail): one record
 * reused for 60,000 random records of both fx_all attrs (one with every
 * field after the period, one with none) and of other types, half of them
 * well-formed samples, holds after each decode exactly what a zeroed record
 * holds after the same decode, faults included.
 */
static void test_decode_reused_record(void **state)
{
	struct fixture fx;
	struct perf_record kept = { 0 };
	uint64_t seed = 0x2545f4914f6cdd1dULL;
	int i;

	(void)state;
	fx_all(&fx);
	for (i = 0; i < 60000; i++) {
		struct perf_record fresh = { 0 };
		struct perfemit e = { 0 };
		const char *why1 = NULL, *why2 = NULL;
		size_t len = 8 + 8 * (rnd(&seed) % 40), j;
		uint32_t type = rnd(&seed) % 3 ? PERF_RECORD_SAMPLE : (uint32_t)(rnd(&seed) % 20);
		uint64_t id = rnd(&seed) % 2 ? 0x43 : 0x99;
		uint8_t *b;
		int err1, err2;

		if (type == PERF_RECORD_SAMPLE && rnd(&seed) % 2) {
			if (id == 0x43) {
				emit_all_sample(&e, 0);
			} else {
				em_begin(&e, 0, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
				perfemit__u64(&e, 0x99);
				perfemit__u64(&e, rnd(&seed));
				em_end(&e);
			}
			len = e.len;
		}
		b = malloc(len);
		assert_non_null(b);
		if (e.len) {
			memcpy(b, e.p, len);
		} else {
			for (j = 0; j < len; j++)
				b[j] = (uint8_t)(rnd(&seed) % 3 ? rnd(&seed) % 4 : rnd(&seed));
			memcpy(b, &type, 4);
			b[4] = 0; b[5] = 0;
			b[6] = (uint8_t)len; b[7] = (uint8_t)(len >> 8);
			if (type == PERF_RECORD_SAMPLE && len >= 16)
				memcpy(b + 8, &id, 8);
		}
		memcpy(&kept.type, b, 4);
		memcpy(&kept.misc, b + 4, 2);
		memcpy(&kept.size, b + 6, 2);
		kept.data = b;
		fresh.type = kept.type;
		fresh.misc = kept.misc;
		fresh.size = kept.size;
		fresh.data = b;
		err1 = perf_record__decode(&kept, &fx.evlist, &why1);
		err2 = perf_record__decode(&fresh, &fx.evlist, &why2);
		assert_int_equal(err1, err2);
		assert_ptr_equal(kept.evattr, fresh.evattr);
		assert_memory_equal(&kept.sample, &fresh.sample, sizeof(kept.sample));
		free(b);
		perfemit__release(&e);
	}
	fx_release(&fx);
}

/*
 * A sample whose fields all come before the read values is decoded by a copy
 * of each u64 to its place (perf_evattr.fixed_dst): for every one of the 512
 * sets of those nine fields, and records from the header alone to two u64
 * past the fields, the copy gives what the field-by-field decode gives (the
 * attr with fixed_size 0 takes that path), faults and their words included,
 * into a new record and into one decoded into before.
 */
static void test_decode_fixed_layout(void **state)
{
	static const uint64_t bits[] = {
		PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ADDR,
		PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_PERIOD,
	};
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	unsigned mask;

	(void)state;
	for (mask = 0; mask < 512; mask++) {
		struct fixture fx, slow;
		uint64_t type = 0;
		size_t nr = 0, k, len;

		for (k = 0; k < 9; k++) {
			if (mask & (1u << k)) {
				type |= bits[k];
				nr++;
			}
		}
		fx_attr(&fx, 0, type, 0, 0, 0, 0);
		fx_done(&fx, 1);
		/* the identifier and the id both: the long way (perf sets one or the other) */
		assert_int_equal(fx.attrs[0].fixed_size,
				 (type & PERF_SAMPLE_IDENTIFIER) && (type & PERF_SAMPLE_ID) ? 0 : 8 + 8 * nr);
		slow = fx;
		slow.evlist.attrs = slow.attrs;
		slow.attrs[0].fixed_size = 0;
		for (len = 8; len <= 8 + 8 * (nr + 2); len += 8) {
			uint8_t b[8 + 8 * 11];
			struct perf_record r1 = { 0 }, r2 = { 0 };
			const char *why1 = NULL, *why2 = NULL;
			uint32_t rt = PERF_RECORD_SAMPLE;
			int err1, err2;

			for (k = 8; k < len; k++)
				b[k] = (uint8_t)rnd(&seed);
			memcpy(b, &rt, 4);
			b[4] = 0; b[5] = 0;
			b[6] = (uint8_t)len; b[7] = 0;
			r1.type = r2.type = rt;
			r1.size = r2.size = (uint16_t)len;
			r1.data = r2.data = b;
			err1 = perf_record__decode(&r1, &fx.evlist, &why1);
			err2 = perf_record__decode(&r2, &slow.evlist, &why2);
			assert_int_equal(err1, err2);
			assert_int_equal(err1, len < 8 + 8 * nr ? -EINVAL : 0);
			if (err1)
				assert_string_equal(why1, why2);
			assert_memory_equal(&r1.sample, &r2.sample, sizeof(r1.sample));
			/* again into r1, its tail now known zero: perf_record__decode()'s own path for one attr */
			assert_ptr_equal(r1.zero_tail, &r1.sample);
			assert_int_equal(perf_record__decode(&r1, &fx.evlist, &why1), err2);
			assert_true(r1.evattr == fx.attrs && r2.evattr == slow.attrs);
			assert_memory_equal(&r1.sample, &r2.sample, sizeof(r1.sample));
			/* by hand: the time is the u64 after the identifier, ip and tid that come before it */
			if (!err1 && (type & PERF_SAMPLE_TIME)) {
				uint64_t t;

				memcpy(&t, b + 8 + 8 * (size_t)__builtin_popcountll(type & (PERF_SAMPLE_IDENTIFIER |
						PERF_SAMPLE_IP | PERF_SAMPLE_TID)), 8);
				assert_int_equal(r1.sample.time, t);
			}
		}
		fx_release(&fx);
	}
}

/* ------------------------------------------------------------ real files */

/*
 * Every record of a few real perf.data files (../shared/testdata-external)
 * decodes; record counts per type are those `perf report --stats` (perf
 * 6.1) prints for the same files.  A minimal PERFILE2 reader (host byte
 * order only) stands in for perffile/file.c here.
 */
struct real_case {
	const char *path;
	uint64_t total;
	struct {
		uint32_t type;
		uint64_t count;
	} want[4];
};

static const struct real_case real_cases[] = {
	{ "quipper/perf.data.callgraph_and_branch-3.8", 3883,
	  { { PERF_RECORD_MMAP, 1793 }, { PERF_RECORD_SAMPLE, 1856 }, { PERF_RECORD_FORK, 1 } } },
	{ "perfparser/vector_static_gcc__perf.data", 209,
	  { { PERF_RECORD_SAMPLE, 45 }, { PERF_RECORD_MMAP2, 13 }, { PERF_RECORD_CPU_MAP, 1 },
	    { PERF_RECORD_TIME_CONV, 1 } } },
	{ "perfparser/vector_static_gcc__perf.lbr.data", 38,
	  { { PERF_RECORD_SAMPLE, 29 }, { PERF_RECORD_THREAD_MAP, 1 } } },
	{ "quipper/perf.data.ctx_switch_namespaces-4.14", 42,
	  { { PERF_RECORD_SWITCH, 2 }, { PERF_RECORD_NAMESPACES, 1 }, { PERF_RECORD_MMAP2, 10 } } },
	{ "quipper/perf.data.intel_pt-4.14", 257,
	  { { PERF_RECORD_AUX, 10 }, { PERF_RECORD_SWITCH_CPU_WIDE, 152 },
	    { PERF_RECORD_AUXTRACE, 2 }, { PERF_RECORD_ITRACE_START, 2 } } },
	{ "quipper/perf.data.lost_samples-4.4", 243,
	  { { PERF_RECORD_SAMPLE, 191 }, { PERF_RECORD_LOST_SAMPLES, 2 } } },
	{ "quipper/perf.data.piped.target-3.4", 3016,
	  { { PERF_RECORD_SAMPLE, 1414 }, { PERF_RECORD_HEADER_ATTR, 1 },
	    { PERF_RECORD_HEADER_EVENT_TYPE, 1 } } },
	{ "quipper/perf.data.piped.header_features_aligned-6.12", 45,
	  { { PERF_RECORD_HEADER_FEATURE, 20 }, { PERF_RECORD_EVENT_UPDATE, 2 },
	    { PERF_RECORD_ID_INDEX, 1 }, { PERF_RECORD_SAMPLE, 9 } } },
	{ "quipper/perf.data.piped.no_attr_ids-4.14", 57,
	  { { PERF_RECORD_SAMPLE, 7 }, { PERF_RECORD_HEADER_FEATURE, 12 } } },
	/* HEADER_EVENT_TYPE names without NUL (16-character "cache-references") */
	{ "quipper/perf.data.piped.target-3.8", 8089,
	  { { PERF_RECORD_SAMPLE, 5218 }, { PERF_RECORD_HEADER_EVENT_TYPE, 6 },
	    { PERF_RECORD_MMAP, 2591 } } },
	{ "perfparser/contentsize.data", 219,
	  { { PERF_RECORD_SAMPLE, 69 }, { PERF_RECORD_MMAP2, 34 } } },
	/* RHEL 7 kernel: MMAP2 records without prot/flags, REGS_USER and STACK_USER samples */
	{ "hotspot/perf.data.true.v2", 94,
	  { { PERF_RECORD_MMAP2, 17 }, { PERF_RECORD_SAMPLE, 1 }, { PERF_RECORD_EXIT, 2 } } },
	{ "quipper/perf.data.throttle-3.8", 17001,
	  { { PERF_RECORD_THROTTLE, 68 }, { PERF_RECORD_UNTHROTTLE, 64 },
	    { PERF_RECORD_SAMPLE, 14980 } } },
};

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*len = (size_t)n;
	}
	fclose(f);
	return buf;
}

static void run_real_case(const struct real_case *rc)
{
	struct perf_evattr attrs[16];
	struct perf_evlist el;
	uint64_t counts[128] = { 0 }, total = 0;
	uint64_t attr_size, attrs_off, attrs_len, data_off, data_len, pos, end;
	char *path = external__path(rc->path);
	size_t len, nattrs, i, j;
	uint8_t *f;

	assert_non_null(path);
	f = slurp(path, &len);
	free(path);
	assert_non_null(f);
	assert_true(len >= 104);
	assert_memory_equal(f, "PERFILE2", 8);
	memset(&el, 0, sizeof(el));
	memset(attrs, 0, sizeof(attrs));
	hashmap__init(&el.id_map);
	el.attrs = attrs;
	if (u64_at(f, 1) == 16) {
		/* pipe mode: attrs come as HEADER_ATTR records */
		pos = 16;
		end = len;
		perf_evlist__prepare(&el);
		goto records;
	}
	attr_size = u64_at(f, 2);
	attrs_off = u64_at(f, 3);
	attrs_len = u64_at(f, 4);
	data_off = u64_at(f, 5);
	data_len = u64_at(f, 6);
	nattrs = attrs_len / attr_size;
	assert_true(nattrs >= 1 && nattrs <= 16);
	for (i = 0; i < nattrs; i++) {
		const uint8_t *a = f + attrs_off + i * attr_size;
		size_t asz = attr_size - 16 < sizeof(attrs[i].attr) ? attr_size - 16 : sizeof(attrs[i].attr);
		uint64_t ids_off = u64_at(a + attr_size - 16, 0), ids_len = u64_at(a + attr_size - 16, 1);

		memcpy(&attrs[i].attr, a, asz);
		attrs[i].idx = (int)i;
		for (j = 0; j < ids_len / 8; j++) {
			uint64_t id = u64_at(f + ids_off, j);
			void **slot;

			assert_true(hashmap__insert(&el.id_map, &id, 8, &slot) >= 0);
			*slot = (void *)(uintptr_t)(i + 1);
		}
	}
	el.nr = nattrs;
	perf_evlist__prepare(&el);

	pos = data_off;
	end = data_off + data_len;
	assert_true(end <= len);
records:
	while (pos < end) {
		struct perf_record rec = { 0 };
		const char *why = NULL;
		uint16_t size;
		uint64_t *copy;
		int err;

		assert_true(end - pos >= 8);
		memset(&rec, 0, sizeof(rec));
		memcpy(&rec.type, f + pos, 4);
		memcpy(&rec.misc, f + pos + 4, 2);
		memcpy(&size, f + pos + 6, 2);
		assert_true(size >= 8 && size <= end - pos);
		copy = malloc(size);
		assert_non_null(copy);
		memcpy(copy, f + pos, size);
		rec.size = size;
		rec.data = copy;
		rec.offset = pos;
		err = perf_record__decode(&rec, &el, &why);
		if (err)
			print_error("%s: record at 0x%llx: %s\n", rc->path, (unsigned long long)pos, why);
		assert_int_equal(err, 0);
		if (rec.type == PERF_RECORD_SAMPLE || (rec.type < 64 && el.sample_id_all))
			assert_non_null(rec.evattr);
		pos += size;
		if (rec.type == PERF_RECORD_AUXTRACE) {
			assert_true(rec.u.auxtrace.size <= end - pos);
			pos += rec.u.auxtrace.size;
		}
		if (rec.type == PERF_RECORD_HEADER_TRACING_DATA) {
			assert_true(rec.u.tracing_data.size <= end - pos);
			pos += rec.u.tracing_data.size;
		}
		if (rec.type == PERF_RECORD_HEADER_ATTR) {
			const struct perf_rec_header_attr *h = &rec.u.header_attr;
			size_t n = el.nr;

			assert_true(n < 16);
			memcpy(&attrs[n].attr, h->attr,
			       h->attr_size < sizeof(attrs[n].attr) ? h->attr_size : sizeof(attrs[n].attr));
			attrs[n].idx = (int)n;
			for (j = 0; j < h->nr_ids; j++) {
				uint64_t id = u64_at(h->ids, j);
				void **slot;

				assert_true(hashmap__insert(&el.id_map, &id, 8, &slot) >= 0);
				*slot = (void *)(uintptr_t)(n + 1);
			}
			el.nr = n + 1;
			perf_evlist__prepare(&el);
		}
		if (rec.type < 128)
			counts[rec.type]++;
		total++;
		free(copy);
	}
	assert_int_equal(total, rc->total);
	for (i = 0; i < 4 && rc->want[i].type; i++)
		assert_int_equal(counts[rc->want[i].type], rc->want[i].count);
	hashmap__release(&el.id_map, NULL);
	free(f);
}

static void test_real_files(void **state)
{
	char *probe = external__path("SOURCES.md");
	size_t i;

	(void)state;
	if (!probe) {
		print_message("skipping: testdata-external/SOURCES.md not found\n");
		skip();
	}
	free(probe);
	for (i = 0; i < sizeof(real_cases) / sizeof(real_cases[0]); i++)
		run_real_case(&real_cases[i]);
}

/* test fn once per byte order, on a fresh struct run */
#define BOTH_ORDERS(fn) \
	cmocka_unit_test_prestate_setup_teardown(fn, run_setup, run_teardown, (void *)&order_le), \
	cmocka_unit_test_prestate_setup_teardown(fn, run_setup, run_teardown, (void *)&order_be)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_sample_type_format),
		cmocka_unit_test(test_prepare),
		cmocka_unit_test(test_sample_all_fields),
		BOTH_ORDERS(test_sample_variants),
		cmocka_unit_test(test_read_formats),
		BOTH_ORDERS(test_find_identifier),
		BOTH_ORDERS(test_find_id_pos),
		cmocka_unit_test(test_find_bounds),
		cmocka_unit_test(test_kernel_records),
		cmocka_unit_test(test_callchain_deferred),
		BOTH_ORDERS(test_mmap2_build_id),
		BOTH_ORDERS(test_mmap2_old_layout),
		cmocka_unit_test(test_user_records),
		BOTH_ORDERS(test_cpu_map_encodings),
		BOTH_ORDERS(test_corrupt),
		BOTH_ORDERS(test_event_type_no_nul),
		BOTH_ORDERS(test_build_id_size),
		cmocka_unit_test(test_size_smaller_than_header),
		cmocka_unit_test(test_no_attr),
		cmocka_unit_test(test_random_records),
		cmocka_unit_test(test_decode_reused_record),
		cmocka_unit_test(test_decode_fixed_layout),
		cmocka_unit_test(test_real_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests for perffile/tracing: a TRACING_DATA section built here in
 * perf's layout (trace-event-read.c) around the kernel's sched_switch format
 * text (as /sys/kernel/tracing/events/sched/sched_switch/format prints it on
 * 6.x), the fields found by name, a raw sample read through them, and a
 * section cut short at each byte.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perffile/tracing.h"
#include "tests/lib/perfemit.h"

static const char sched_switch[] =
	"name: sched_switch\n"
	"ID: 372\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"prev_comm=%s prev_pid=%d\", REC->prev_comm, REC->prev_pid\n";

/* the section perf writes: magic, "0.6", little-endian, long 8, page 4096, headers, no ftrace, sched */
static void build(struct perfemit *b)
{
	static const uint8_t magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	static const char hp[] = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n";

	perfemit__init(b, 0);
	perfemit__bytes(b, magic, sizeof(magic));
	perfemit__bytes(b, "0.6", 4);
	perfemit__uint(b, 0, 1);
	perfemit__uint(b, 8, 1);
	perfemit__uint(b, 4096, 4);
	perfemit__bytes(b, "header_page", 12);
	perfemit__uint(b, sizeof(hp) - 1, 8);
	perfemit__bytes(b, hp, sizeof(hp) - 1);
	perfemit__bytes(b, "header_event", 13);
	perfemit__uint(b, 3, 8);
	perfemit__bytes(b, "x\ny", 3);
	perfemit__uint(b, 0, 4);		/* ftrace formats */
	perfemit__uint(b, 1, 4);		/* systems */
	perfemit__bytes(b, "sched", 6);
	perfemit__uint(b, 1, 4);
	perfemit__uint(b, sizeof(sched_switch) - 1, 8);
	perfemit__bytes(b, sched_switch, sizeof(sched_switch) - 1);
}

static void test_parse_and_read(void **state)
{
	struct tp_formats f;
	const struct tp_format *fmt;
	const struct tp_field *fl;
	struct perfemit b;
	uint8_t raw[64];
	int64_t v;

	(void)state;
	build(&b);
	assert_int_equal(tp_formats__parse(&f, b.p, b.len, NULL), 0);
	assert_int_equal(f.nr, 1);
	assert_int_equal(f.big_endian, 0);
	assert_null(tp_formats__find(&f, 371));
	fmt = tp_formats__find(&f, 372);
	assert_non_null(fmt);
	assert_string_equal(fmt->system, "sched");
	assert_string_equal(fmt->name, "sched_switch");
	assert_int_equal(fmt->nr_fields, 11);
	fl = tp_format__field(fmt, "prev_comm");
	assert_non_null(fl);
	assert_int_equal(fl->offset, 8);
	assert_int_equal(fl->size, 16);
	fl = tp_format__field(fmt, "next_pid");
	assert_non_null(fl);
	assert_int_equal(fl->offset, 56);
	assert_int_equal(fl->size, 4);
	assert_int_equal(fl->is_signed, 1);
	assert_null(tp_format__field(fmt, "next"));

	/* a raw sample: prev_pid 4242, prev_state 1 (S), next_pid -1 (sign-extended) */
	memset(raw, 0, sizeof(raw));
	raw[24] = 0x92;
	raw[25] = 0x10;
	raw[32] = 1;
	memset(raw + 56, 0xff, 4);
	assert_int_equal(tp_field__read(tp_format__field(fmt, "prev_pid"), &f, raw, sizeof(raw), &v), 0);
	assert_int_equal(v, 4242);
	assert_int_equal(tp_field__read(tp_format__field(fmt, "prev_state"), &f, raw, sizeof(raw), &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(tp_field__read(tp_format__field(fmt, "next_pid"), &f, raw, sizeof(raw), &v), 0);
	assert_int_equal(v, -1);
	/* outside the raw data, or not an integer */
	assert_int_equal(tp_field__read(tp_format__field(fmt, "next_pid"), &f, raw, 58, &v), -EINVAL);
	assert_int_equal(tp_field__read(tp_format__field(fmt, "next_comm"), &f, raw, sizeof(raw), &v), -EINVAL);
	assert_int_equal(tp_field__read(NULL, &f, raw, sizeof(raw), &v), -EINVAL);
	/* a big-endian recording's raw data */
	f.big_endian = 1;
	memset(raw + 24, 0, 4);
	raw[26] = 0x10;
	raw[27] = 0x92;
	assert_int_equal(tp_field__read(tp_format__field(fmt, "prev_pid"), &f, raw, sizeof(raw), &v), 0);
	assert_int_equal(v, 4242);
	tp_formats__release(&f);
	perfemit__release(&b);
}

/* every truncation fails cleanly (-EINVAL, an offset within the section), never reads past it */
static void test_truncated(void **state)
{
	struct tp_formats f;
	struct perfemit b;
	size_t n, bad;
	uint8_t *copy;

	(void)state;
	build(&b);
	for (n = 0; n < b.len; n++) {
		copy = malloc(n ? n : 1);
		assert_non_null(copy);
		memcpy(copy, b.p, n);
		bad = SIZE_MAX;
		assert_int_equal(tp_formats__parse(&f, copy, n, &bad), -EINVAL);
		assert_true(bad <= n);
		assert_int_equal(f.nr, 0);
		tp_formats__release(&f);
		free(copy);
	}
	/* not the magic */
	b.p[3] = 'T';
	assert_int_equal(tp_formats__parse(&f, b.p, b.len, &bad), -EINVAL);
	assert_int_equal(bad, 10);
	tp_formats__release(&f);
	perfemit__release(&b);
}

/* a format text without an ID is skipped; the others stay */
static void test_bad_format_skipped(void **state)
{
	static const char bad_text[] = "name: nothing\nformat:\n";
	struct tp_formats f;
	struct perfemit b;

	(void)state;
	build(&b);
	/* a second system with one format without ID */
	b.p[b.len - (sizeof(sched_switch) - 1) - 8 - 4 - 6 - 4] = 2;	/* systems = 2 */
	perfemit__bytes(&b, "other", 6);
	perfemit__uint(&b, 1, 4);
	perfemit__uint(&b, sizeof(bad_text) - 1, 8);
	perfemit__bytes(&b, bad_text, sizeof(bad_text) - 1);
	assert_int_equal(tp_formats__parse(&f, b.p, b.len, NULL), 0);
	assert_int_equal(f.nr, 1);
	assert_non_null(tp_formats__find(&f, 372));
	tp_formats__release(&f);
	perfemit__release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_and_read),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_bad_format_skipped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

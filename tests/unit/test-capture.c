/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests for the capture core: event list -> perf_event_attr (values from
 * perf_event_open(2) and include/uapi/linux/perf_event.h), attr
 * configuration, cpu lists, counter scaling, sample parsing, the ring
 * buffer wrap logic on a buffer in memory, ELF note parsing, the libelf
 * walker (perffile/elf.h) on this test's own binary, on every prefix of it
 * and on a hand-made big-endian ELF32, and /proc synthesis of this very
 * process.
 */
#include <elf.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "perffile/buildid.h"
#include "perffile/elf.h"
#include "perffile/capture/capture.h"
#include "perffile/capture/synth.h"
#include "perffile/capture/ringbuf.h"
#include "tests/lib/perfemit.h"

/* the last message logged (errors must be one line) */
struct msgbuf {
	char text[512];
};

static void collect_msg(void *ctx, enum log_level level, const char *msg)
{
	struct msgbuf *mb = ctx;

	(void)level;
	snprintf(mb->text, sizeof(mb->text), "%s", msg);
}

static struct capture_evlist parse_ok(const char *spec)
{
	struct capture_evlist el;

	capture_evlist__init(&el);
	assert_int_equal(capture_evlist__parse(&el, spec, NULL), 0);
	return el;
}

static void check_event(const char *spec, uint32_t type, uint64_t config)
{
	struct capture_evlist el = parse_ok(spec);

	assert_int_equal(el.nr, 1);
	assert_int_equal(el.events[0].attr.type, type);
	assert_int_equal(el.events[0].attr.config, config);
	assert_string_equal(el.events[0].name, spec);
	capture_evlist__release(&el);
}

static void test_parse_symbolic(void **state)
{
	(void)state;
	/* PERF_TYPE_SOFTWARE = 1, PERF_COUNT_SW_* as in perf_event_open(2) */
	check_event("cpu-clock", 1, 0);
	check_event("task-clock", 1, 1);
	check_event("page-faults", 1, 2);
	check_event("faults", 1, 2);
	check_event("context-switches", 1, 3);
	check_event("cs", 1, 3);
	check_event("cpu-migrations", 1, 4);
	check_event("minor-faults", 1, 5);
	check_event("major-faults", 1, 6);
	check_event("dummy", 1, 9);
	/* PERF_TYPE_HARDWARE = 0 */
	check_event("cycles", 0, 0);
	check_event("instructions", 0, 1);
	check_event("cache-misses", 0, 3);
	check_event("branch-misses", 0, 5);
	check_event("ref-cycles", 0, 9);
	/* PERF_TYPE_RAW = 4 */
	check_event("r1a8", 4, 0x1a8);
}

static void test_parse_cache(void **state)
{
	(void)state;
	/* PERF_TYPE_HW_CACHE = 3; config = id | op << 8 | result << 16 (perf_event_open(2)) */
	check_event("L1-dcache-loads", 3, 0x0);			/* L1D, READ, ACCESS */
	check_event("L1-dcache-load-misses", 3, 0x10000);	/* L1D, READ, MISS */
	check_event("L1-icache-loads", 3, 0x1);			/* L1I */
	check_event("LLC-loads", 3, 0x2);
	check_event("LLC-store-misses", 3, 0x10102);		/* LL, WRITE, MISS */
	check_event("dTLB-store-misses", 3, 0x10103);
	check_event("iTLB-load-misses", 3, 0x10004);
	check_event("branch-load-misses", 3, 0x10005);		/* BPU */
	check_event("node-prefetches", 3, 0x206);		/* NODE, PREFETCH, ACCESS */
}

static void test_parse_modifiers(void **state)
{
	struct capture_evlist el;

	(void)state;
	el = parse_ok("cpu-clock:u,task-clock:k,page-faults");
	assert_int_equal(el.nr, 3);
	assert_string_equal(el.events[0].name, "cpu-clock:u");
	assert_int_equal(el.events[0].attr.exclude_user, 0);
	assert_int_equal(el.events[0].attr.exclude_kernel, 1);
	assert_int_equal(el.events[0].attr.exclude_hv, 1);
	assert_string_equal(el.events[1].name, "task-clock:k");
	assert_int_equal(el.events[1].attr.exclude_user, 1);
	assert_int_equal(el.events[1].attr.exclude_kernel, 0);
	assert_int_equal(el.events[1].attr.exclude_hv, 1);
	assert_int_equal(el.events[2].attr.exclude_user, 0);
	assert_int_equal(el.events[2].attr.exclude_kernel, 0);
	capture_evlist__release(&el);

	el = parse_ok("cycles:pp");
	assert_int_equal(el.events[0].attr.precise_ip, 2);
	capture_evlist__release(&el);
}

static void test_parse_groups(void **state)
{
	struct capture_evlist el;

	(void)state;
	el = parse_ok("cpu-clock,{task-clock,page-faults},cs");
	assert_int_equal(el.nr, 4);
	assert_int_equal(el.events[0].leader, 0);
	assert_int_equal(el.events[1].leader, 1);
	assert_int_equal(el.events[2].leader, 1);
	assert_int_equal(el.events[3].leader, 3);
	assert_int_equal(el.events[1].nr_members, 2);
	assert_int_equal(el.events[0].nr_members, 1);
	capture_evlist__release(&el);

	el = parse_ok("{cpu-clock,task-clock}:u");
	assert_int_equal(el.nr, 2);
	assert_int_equal(el.events[1].leader, 0);
	assert_int_equal(el.events[0].attr.exclude_kernel, 1);
	assert_int_equal(el.events[1].attr.exclude_kernel, 1);
	assert_string_equal(el.events[1].name, "task-clock:u");
	capture_evlist__release(&el);
}

static void test_parse_pmu_terms(void **state)
{
	struct capture_evlist el;

	(void)state;
	if (access("/sys/bus/event_source/devices/software/type", R_OK) != 0) {
		skip();
		return;
	}
	el = parse_ok("software/config=2,name=pf/");
	assert_int_equal(el.events[0].attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(el.events[0].attr.config, 2);
	assert_string_equal(el.events[0].name, "pf");
	capture_evlist__release(&el);

	el = parse_ok("software/config=0x1,period=1000/:u");
	assert_int_equal(el.events[0].attr.config, 1);
	assert_int_equal(el.events[0].attr.sample_period, 1000);
	assert_int_equal(el.events[0].attr.exclude_kernel, 1);
	assert_string_equal(el.events[0].name, "software/config=0x1,period=1000/");
	capture_evlist__release(&el);
}

static void test_parse_errors(void **state)
{
	static const char *const bad[] = {
		"bogus", "", "{cpu-clock", "cpu-clock:z", "software/config/", "software/config=1",
		"cpu-clock,,task-clock", "L1-dcache-bogus", "rxyz",
	};
	struct capture_evlist el;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		capture_evlist__init(&el);
		assert_int_equal(capture_evlist__parse(&el, bad[i], NULL), -EINVAL);
		capture_evlist__release(&el);
	}
	capture_evlist__init(&el);
	assert_int_equal(capture_evlist__parse(&el, "nosuchpmu/config=1/", NULL), -EOPNOTSUPP);
	capture_evlist__release(&el);
}

static void test_config_record(void **state)
{
	struct capture_evlist el = parse_ok("cpu-clock,page-faults");
	struct capture_opts o;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.mode = CAPTURE_RECORD;
	o.target = CAPTURE_TARGET_SYSTEM;
	o.freq = 999;
	o.callchain = 1;
	capture_evlist__config(&el, &o);
	for (int i = 0; i < 2; i++) {
		const struct perf_event_attr *a = &el.events[i].attr;

		assert_int_equal(a->sample_type, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
				 PERF_SAMPLE_PERIOD | PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_CALLCHAIN);
		assert_int_equal(a->freq, 1);
		assert_int_equal(a->sample_freq, 999);
		assert_int_equal(a->sample_id_all, 1);
		assert_int_equal(a->inherit, 0);
		assert_int_equal(a->disabled, 1);
		assert_int_equal(a->enable_on_exec, 0);
		assert_int_equal(a->size, 128);
	}
	assert_int_equal(el.events[0].attr.mmap, 1);
	assert_int_equal(el.events[0].attr.comm, 1);
	assert_int_equal(el.events[0].attr.task, 1);
	assert_int_equal(el.events[1].attr.mmap, 0);
	/* trailer: TID + TIME + CPU + IDENTIFIER, 8 bytes each */
	assert_int_equal(capture_evlist__id_hdr_size(&el), 32);
	capture_evlist__release(&el);

	/* a command, one event, -c: no IDENTIFIER, no CPU; inherit and enable_on_exec */
	el = parse_ok("{task-clock,page-faults}");
	memset(&o, 0, sizeof(o));
	o.mode = CAPTURE_RECORD;
	o.target = CAPTURE_TARGET_CMD;
	o.period = 12345;
	capture_evlist__config(&el, &o);
	assert_int_equal(el.events[0].attr.freq, 0);
	assert_int_equal(el.events[0].attr.sample_period, 12345);
	assert_int_equal(el.events[0].attr.inherit, 1);
	assert_int_equal(el.events[0].attr.enable_on_exec, 1);
	assert_int_equal(el.events[1].attr.disabled, 0);	/* members follow their leader */
	assert_int_equal(el.events[1].attr.enable_on_exec, 0);
	capture_evlist__release(&el);

	/*
	 * -c: no PERIOD (perf evlist -v of perf record -e cpu-clock -c 1000000:
	 * IP|TID|TIME); with it the kernel samples a software event at every
	 * event (perf record -e page-faults -c 100000 -P: 177 samples of period
	 * 1, without -P none)
	 */
	el = parse_ok("cpu-clock");
	capture_evlist__config(&el, &o);
	assert_int_equal(el.events[0].attr.sample_type, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME);
	assert_int_equal(capture_evlist__id_hdr_size(&el), 16);
	capture_evlist__release(&el);
	/* a period= term likewise (page-faults/period=1000/: IP|TID|TIME|IDENTIFIER), freq= keeps it */
	memset(&o, 0, sizeof(o));
	o.mode = CAPTURE_RECORD;
	o.target = CAPTURE_TARGET_CMD;
	el = parse_ok("page-faults/period=1000/,cpu-clock/freq=100/");
	capture_evlist__config(&el, &o);
	assert_int_equal(el.events[0].attr.sample_type, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_IDENTIFIER);
	assert_int_equal(el.events[1].attr.sample_type, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_PERIOD | PERF_SAMPLE_IDENTIFIER);
	capture_evlist__release(&el);
}

static void test_config_stat(void **state)
{
	struct capture_evlist el = parse_ok("task-clock,page-faults");
	struct capture_opts o;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.mode = CAPTURE_STAT;
	o.target = CAPTURE_TARGET_CMD;
	capture_evlist__config(&el, &o);
	for (int i = 0; i < 2; i++) {
		const struct perf_event_attr *a = &el.events[i].attr;

		/* PERF_FORMAT_TOTAL_TIME_ENABLED (1) | PERF_FORMAT_TOTAL_TIME_RUNNING (2) */
		assert_int_equal(a->read_format, 3);
		assert_int_equal(a->sample_type, 0);
		assert_int_equal(a->sample_period, 0);
		assert_int_equal(a->inherit, 1);
		assert_int_equal(a->disabled, 1);
		assert_int_equal(a->enable_on_exec, 1);
	}
	capture_evlist__release(&el);
}

static void test_cpu_list(void **state)
{
	int *cpus;
	size_t nr;

	(void)state;
	assert_int_equal(capture__parse_cpu_list("7,0-3,2", &cpus, &nr), 0);
	assert_int_equal(nr, 5);
	assert_int_equal(cpus[0], 0);
	assert_int_equal(cpus[3], 3);
	assert_int_equal(cpus[4], 7);
	free(cpus);
	assert_int_equal(capture__parse_cpu_list("3-1", &cpus, &nr), -EINVAL);
	assert_int_equal(capture__parse_cpu_list("a", &cpus, &nr), -EINVAL);
	assert_int_equal(capture__parse_cpu_list("", &cpus, &nr), -EINVAL);
	assert_int_equal(capture__parse_cpu_list("1,", &cpus, &nr), 0);
	assert_int_equal(nr, 1);
	free(cpus);
}

static void test_scale(void **state)
{
	double v;

	(void)state;
	/* perf_event_open(2): scaled = value * time_enabled / time_running */
	assert_int_equal(capture__scale(1000, 200, 100, &v), 1);
	assert_true(v == 2000.0);
	/* 3 counters on 2 slots: each runs 2/3 of the time, 600 counted -> 900 */
	assert_int_equal(capture__scale(600, 300, 200, &v), 1);
	assert_true(v == 900.0);
	assert_int_equal(capture__scale(1000, 100, 100, &v), 1);
	assert_true(v == 1000.0);
	assert_int_equal(capture__scale(1000, 100, 0, &v), 0);	/* never ran: not counted */
}

/* put a record of size bytes (filled with a pattern) at free-running position pos of a ring */
static void ring_put(unsigned char *data, uint64_t mask, uint64_t pos, uint16_t size, uint8_t fill)
{
	unsigned char rec[256];
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, size };

	uint16_t n = size < sizeof(h) ? sizeof(h) : size;	/* the header is written even when it lies */

	memset(rec, fill, n);
	memcpy(rec, &h, sizeof(h));
	for (uint16_t i = 0; i < n; i++)
		data[(pos + i) & mask] = rec[i];
}

static void test_ringbuf_wrap(void **state)
{
	unsigned char data[64], *copy = malloc(65536);
	const uint64_t mask = 63;
	const void *rec;
	const struct perf_event_header *h;
	uint64_t pos;
	long n;

	(void)state;
	assert_non_null(copy);
	memset(data, 0, sizeof(data));
	/* A: 24 bytes at 1000 (1000 & 63 = 40) fits before the end (40 + 24 = 64) */
	ring_put(data, mask, 1000, 24, 0xaa);
	/* B: 48 bytes at 1024 (offset 0) in place */
	ring_put(data, mask, 1024, 40, 0xbb);
	pos = 1000;
	n = ringbuf__next(data, mask, &pos, 1064, copy, &rec);
	assert_int_equal(n, 24);
	assert_ptr_equal(rec, data + 40);
	assert_int_equal(pos, 1024);
	n = ringbuf__next(data, mask, &pos, 1064, copy, &rec);
	assert_int_equal(n, 40);
	assert_ptr_equal(rec, data);
	n = ringbuf__next(data, mask, &pos, 1064, copy, &rec);
	assert_int_equal(n, 0);	/* nothing left */

	/* C: 48 bytes at 2088 (offset 40): 24 bytes before the end, 24 after: copied out */
	memset(data, 0, sizeof(data));
	ring_put(data, mask, 2088, 48, 0xcc);
	pos = 2088;
	n = ringbuf__next(data, mask, &pos, 2136, copy, &rec);
	assert_int_equal(n, 48);
	assert_ptr_equal(rec, copy);
	h = rec;
	assert_int_equal(h->size, 48);
	assert_int_equal(h->type, PERF_RECORD_SAMPLE);
	for (int i = 8; i < 48; i++)
		assert_int_equal(copy[i], 0xcc);
	assert_int_equal(pos, 2136);

	/* header itself split (offset 60: 4 bytes, then 4 at the start) */
	memset(data, 0, sizeof(data));
	ring_put(data, mask, 60, 16, 0xdd);
	pos = 60;
	n = ringbuf__next(data, mask, &pos, 76, copy, &rec);
	assert_int_equal(n, 16);
	assert_int_equal(((const struct perf_event_header *)rec)->size, 16);
	assert_int_equal(copy[15], 0xdd);

	/* incomplete: the head covers only part of the record */
	ring_put(data, mask, 128, 32, 0xee);
	pos = 128;
	assert_int_equal(ringbuf__next(data, mask, &pos, 150, copy, &rec), 0);
	assert_int_equal(pos, 128);
	assert_int_equal(ringbuf__next(data, mask, &pos, 132, copy, &rec), 0);	/* not even a header */

	/* corrupt: size below a header */
	ring_put(data, mask, 192, 4, 0);
	pos = 192;
	assert_int_equal(ringbuf__next(data, mask, &pos, 256, copy, &rec), -EINVAL);
	free(copy);
}

static void test_parse_sample(void **state)
{
	struct capture_evlist el = parse_ok("cpu-clock");
	struct capture_opts o;
	struct capture_sample s;
	struct perfemit rec, comm;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.mode = CAPTURE_RECORD;
	o.target = CAPTURE_TARGET_CMD;
	o.callchain = 1;
	capture_evlist__config(&el, &o);
	/* IP, TID, TIME, PERIOD, CALLCHAIN (nr 3) */
	perfemit__init(&rec, 0);
	perfemit__rec_begin(&rec, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	perfemit__u64(&rec, 0x401000);
	perfemit__u32x2(&rec, 42, 43);
	perfemit__u64(&rec, 123456789);
	perfemit__u64(&rec, 1000000);
	perfemit__u64(&rec, 3);
	perfemit__u64(&rec, PERF_CONTEXT_USER);
	perfemit__u64(&rec, 0x401000);
	perfemit__u64(&rec, 0x402000);
	perfemit__rec_end(&rec, 0, 0);
	assert_int_equal(rec.len, 9 * 8);
	assert_int_equal(capture__parse_sample(&el, rec.p, rec.len, &s), 0);
	assert_int_equal(s.ip, 0x401000);
	assert_int_equal(s.pid, 42);
	assert_int_equal(s.tid, 43);
	assert_int_equal(s.time, 123456789);
	assert_int_equal(s.cpumode, PERF_RECORD_MISC_USER);
	assert_int_equal(s.nr_chain, 3);
	assert_int_equal(s.chain[2], 0x402000);
	assert_int_equal(capture__record_time(&el, rec.p, rec.len), 123456789);
	/* nr says 4 but only 3 entries follow */
	perfemit__put(&rec, 5 * 8, 4, 8);
	assert_int_equal(capture__parse_sample(&el, rec.p, rec.len, &s), -EINVAL);
	/* too short for the fixed fields */
	assert_int_equal(capture__parse_sample(&el, rec.p, 24, &s), -EINVAL);
	perfemit__release(&rec);

	/* a COMM with a trailer TID, TIME: the time is 16 bytes from the end */
	perfemit__init(&comm, 0);
	perfemit__rec_begin(&comm, PERF_RECORD_COMM, 0);
	perfemit__zero(&comm, 24);
	perfemit__u64(&comm, 777);
	perfemit__rec_end(&comm, 0, 0);
	assert_int_equal(capture__record_time(&el, comm.p, 40), 777);
	perfemit__release(&comm);
	capture_evlist__release(&el);
}

/* record options for a command, nothing else set */
static struct capture_opts cmd_opts(void)
{
	struct capture_opts o;

	memset(&o, 0, sizeof(o));
	o.mode = CAPTURE_RECORD;
	o.target = CAPTURE_TARGET_CMD;
	return o;
}

/* freq flag and sample_freq / sample_period (one union) */
static void check_rate(const struct perf_event_attr *a, int freq, uint64_t value)
{
	assert_int_equal(a->freq, freq);
	assert_int_equal(a->sample_period, value);
}

/* the events' names, in order */
static void check_names(const struct capture_evlist *el, const char *const *names, size_t nr)
{
	assert_int_equal(el->nr, nr);
	for (size_t i = 0; i < nr; i++)
		assert_string_equal(el->events[i].name, names[i]);
}

/* perf's NAME/TERMS/ form on an event name (not a PMU): the terms stay through the configuration */
static void test_parse_event_terms(void **state)
{
	struct capture_evlist el;
	struct capture_opts o;
	static const char *const names[] = { "context-switches/period=1/", "cpu-clock/freq=1000/", "clk" };

	el = parse_ok("context-switches/period=1/,cpu-clock/freq=1000/,task-clock/name=clk,no-inherit/:u");
	(void)state;
	check_names(&el, names, 3);
	assert_int_equal(el.events[0].attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(el.events[0].attr.config, PERF_COUNT_SW_CONTEXT_SWITCHES);
	assert_int_equal(el.events[2].attr.exclude_kernel, 1);
	o = cmd_opts();
	o.freq = 4000;
	capture_evlist__config(&el, &o);
	/* as perf record's evlist -v of the same -e: period 1, no freq; freq 1000 */
	check_rate(&el.events[0].attr, 0, 1);
	check_rate(&el.events[1].attr, 1, 1000);
	check_rate(&el.events[2].attr, 1, 4000);
	assert_int_equal(el.events[0].attr.inherit, 1);
	assert_int_equal(el.events[2].attr.inherit, 0);
	capture_evlist__release(&el);

	/* modifiers right after the closing slash, as perf takes them */
	el = parse_ok("cpu-clock/freq=99/uS");
	assert_string_equal(el.events[0].name, "cpu-clock/freq=99/");
	assert_int_equal(el.events[0].attr.exclude_kernel, 1);
	assert_int_equal(el.events[0].sample_read, 1);
	capture_evlist__release(&el);

	/* -c overrides no term; a later term wins over an earlier one */
	el = parse_ok("cpu-clock/freq=10,period=777/");
	o.freq = 0;
	o.period = 5;
	capture_evlist__config(&el, &o);
	check_rate(&el.events[0].attr, 0, 777);
	capture_evlist__release(&el);
}

static void test_parse_tracepoint(void **state)
{
	static const char idpath[] = "/sys/kernel/tracing/events/sched/sched_switch/id";
	static const char *const names[] = { "sched:sched_switch", "cpu-clock:u", "sched:sched_wakeup" };
	struct capture_evlist el;
	struct capture_opts o;
	unsigned long long id = 0;
	FILE *f = fopen(idpath, "r");

	(void)state;
	if (!f) {
		skip();
		return;
	}
	assert_int_equal(fscanf(f, "%llu", &id), 1);
	fclose(f);
	el = parse_ok("sched:sched_switch,cpu-clock:u,sched:sched_wakeup:k");
	check_names(&el, names, 3);
	assert_int_equal(el.events[0].attr.type, PERF_TYPE_TRACEPOINT);
	assert_int_equal(el.events[0].attr.config, id);
	assert_int_equal(el.events[2].attr.exclude_user, 1);
	o = cmd_opts();
	capture_evlist__config(&el, &o);
	/* perf record -e sched:sched_switch: period 1, RAW and CPU; PERIOD as well (perf evlist -v) */
	check_rate(&el.events[0].attr, 0, 1);
	assert_true(el.events[0].attr.sample_type & PERF_SAMPLE_RAW);
	assert_true(el.events[0].attr.sample_type & PERF_SAMPLE_PERIOD);
	assert_true(el.events[0].attr.sample_type & PERF_SAMPLE_CPU);
	/* the cpu-clock beside it: 4000 Hz, no RAW, CPU for one trailer layout */
	check_rate(&el.events[1].attr, 1, 4000);
	assert_false(el.events[1].attr.sample_type & PERF_SAMPLE_RAW);
	assert_true(el.events[1].attr.sample_type & PERF_SAMPLE_CPU);
	capture_evlist__release(&el);

	/* a glob: every match (sched_wakeup, sched_waking, ...) in tracefs' order; in a group the first leads */
	el = parse_ok("{sched:sched_w*,sched:sched_switch}:k");
	assert_true(el.nr >= 3);
	assert_string_equal(el.events[el.nr - 1].name, "sched:sched_switch:k");
	for (size_t i = 0; i < el.nr; i++) {
		assert_int_equal(strncmp(el.events[i].name, i + 1 < el.nr ? "sched:sched_w" : "sched:sched_s", 13), 0);
		assert_int_equal(el.events[i].leader, 0);
		assert_int_equal(el.events[i].attr.type, PERF_TYPE_TRACEPOINT);
		assert_int_equal(el.events[i].attr.exclude_user, 1);
	}
	assert_int_equal(el.events[0].nr_members, (int)el.nr);
	capture_evlist__release(&el);
}

/* one-line errors name the part that cannot be read */
static void test_parse_error_messages(void **state)
{
	static const struct { const char *spec, *msg; } cases[] = {
		{ "cpu-clock/bogus=1/", "event 'cpu-clock/bogus=1/': cannot read term 'bogus=1' (known: " },
		{ "cpu-clock/period=x/", "event 'cpu-clock/period=x/': cannot read term 'period=x' (known: " },
		{ "cpu-clock/period=0/", "event 'cpu-clock/period=0/': cannot read term 'period=0' (known: " },
		{ "cpu-clock/freq=9/x", "event 'cpu-clock/freq=9/x': unexpected text after the closing '/'" },
		{ "cpu-clock/freq=9", "event 'cpu-clock/freq=9': missing closing '/'" },
		{ "cpu-clock:uq", "event 'cpu-clock:uq': cannot read modifier 'uq' (known: " },
		{ "{cpu-clock,page-faults}:Sz", "event 'cpu-clock': cannot read modifier 'Sz' (known: " },
		{ "cpu-clok", "event 'cpu-clok' is not known (try " },
		{ "sched:no_such_tracepoint", "event 'sched:no_such_tracepoint' is not known: no such tracepoint" },
		{ "sched:nomatch*", "event 'sched:nomatch*': no tracepoint in /sys/kernel/tracing/events matches" },
		{ "sch$ed:x", "event 'sch$ed:x' is not known (not NAME:MODIFIERS nor SUBSYS:TRACEPOINT)" },
	};
	struct capture_evlist el;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct msgbuf mb = { "" };
		struct log log = { collect_msg, &mb };

		capture_evlist__init(&el);
		assert_int_equal(capture_evlist__parse(&el, cases[i].spec, &log), -EINVAL);
		if (strncmp(mb.text, cases[i].msg, strlen(cases[i].msg))) {
			print_error("%s: got '%s'\n", cases[i].spec, mb.text);
			fail();
		}
		assert_null(strchr(mb.text, '\n'));
		capture_evlist__release(&el);
	}
}

/* '{a,b}:S': the leader samples and reads the group, the member only counts (perf evlist -v of the same) */
static void test_config_leader_sampling(void **state)
{
	struct capture_evlist el = parse_ok("{cpu-clock,page-faults}:S");
	struct capture_opts o;
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ |
		      PERF_SAMPLE_IDENTIFIER;

	(void)state;
	o = cmd_opts();
	capture_evlist__config(&el, &o);
	assert_string_equal(el.events[0].name, "cpu-clock");
	assert_string_equal(el.events[1].name, "page-faults");
	for (int i = 0; i < 2; i++) {
		assert_int_equal(el.events[i].attr.sample_type, st);
		assert_int_equal(el.events[i].attr.read_format, PERF_FORMAT_ID | PERF_FORMAT_GROUP);
		assert_int_equal(el.events[i].attr.inherit, 0);
	}
	check_rate(&el.events[0].attr, 1, 4000);
	check_rate(&el.events[1].attr, 0, 0);
	capture_evlist__release(&el);

	/* one event with S: READ of its own count, with ID to name it */
	el = parse_ok("{cpu-clock}:uS");
	assert_string_equal(el.events[0].name, "cpu-clock:u");
	capture_evlist__release(&el);
	el = parse_ok("cpu-clock:S");
	capture_evlist__config(&el, &o);
	assert_int_equal(el.events[0].attr.sample_type, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_ID);
	assert_int_equal(el.events[0].attr.read_format, PERF_FORMAT_ID);
	capture_evlist__release(&el);
}

/* the record options, each with the attr fields perf record 6.1 sets for it (perf evlist -v) */
static void test_config_record_options(void **state)
{
	struct capture_evlist el = parse_ok("cpu-clock,page-faults");
	struct capture_opts o;
	const struct perf_event_attr *a = &el.events[0].attr, *b = &el.events[1].attr;
	uint64_t base = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD |
			PERF_SAMPLE_IDENTIFIER;

	(void)state;
	o = cmd_opts();
	o.switch_events = 1;
	o.use_clockid = 1;
	o.clockid = 1;
	o.sample_cpu = 1;
	o.sample_addr = 1;
	o.user_regs = 0x3;
	o.inherit_stat = 1;
	capture_evlist__config(&el, &o);
	/* --switch-events: context_switch on the tracking event only; -d: mmap_data likewise */
	assert_int_equal(a->context_switch, 1);
	assert_int_equal(b->context_switch, 0);
	assert_int_equal(a->mmap_data, 1);
	assert_int_equal(b->mmap_data, 0);
	for (int i = 0; i < 2; i++) {
		const struct perf_event_attr *x = i ? b : a;

		/* -k 1 */
		assert_int_equal(x->use_clockid, 1);
		assert_int_equal(x->clockid, 1);
		/* --sample-cpu: CPU; -d: ADDR|DATA_SRC; --user-regs: REGS_USER */
		assert_int_equal(x->sample_type, base | PERF_SAMPLE_CPU | PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC |
				 PERF_SAMPLE_REGS_USER);
		assert_int_equal(x->sample_regs_user, 0x3);
		/* -s: inherit_stat, TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING|ID */
		assert_int_equal(x->inherit_stat, 1);
		assert_int_equal(x->read_format, PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
				 PERF_FORMAT_ID);
	}
	/* TID TIME CPU IDENTIFIER */
	assert_int_equal(capture_evlist__id_hdr_size(&el), 32);
	capture_evlist__release(&el);
}

static void test_parse_clockid_regs(void **state)
{
	int id = -1;
	uint64_t m = 0;

	(void)state;
	assert_int_equal(capture__parse_clockid("1", &id), 0);
	assert_int_equal(id, 1);
	/* CLOCK_MONOTONIC_RAW is 4, CLOCK_BOOTTIME 7, CLOCK_TAI 11 (clock_gettime(2)) */
	assert_int_equal(capture__parse_clockid("monotonic_raw", &id), 0);
	assert_int_equal(id, 4);
	assert_int_equal(capture__parse_clockid("CLOCK_BOOTTIME", &id), 0);
	assert_int_equal(id, 7);
	assert_int_equal(capture__parse_clockid("tai", &id), 0);
	assert_int_equal(id, 11);
	assert_int_equal(capture__parse_clockid("mono", &id), 0);
	assert_int_equal(id, 1);
	assert_int_equal(capture__parse_clockid("sundial", &id), -EINVAL);
	assert_int_equal(capture__parse_clockid("", &id), -EINVAL);
	/* perf's default --user-regs set: 0xff0fff (perf evlist -v of perf record --user-regs) */
	assert_int_equal(capture__parse_user_regs("", &m), 0);
	assert_int_equal(m, 0xff0fff);
	/* ip is bit 8, sp 7, bp 6, r15 23 (asm/perf_regs.h) */
	assert_int_equal(capture__parse_user_regs("ip,sp,BP,r15", &m), 0);
	assert_int_equal(m, (1u << 8) | (1u << 7) | (1u << 6) | (1u << 23));
	assert_int_equal(capture__parse_user_regs("ip,", &m), -EINVAL);
	assert_int_equal(capture__parse_user_regs("xmm0", &m), -EINVAL);
}

/* a sample record begun in rec: IDENTIFIER id, IP 0x401000, pid 42 tid 43, TIME 5555, PERIOD 250000 */
static void sample_head(struct perfemit *rec, uint64_t id)
{
	perfemit__init(rec, 0);
	perfemit__rec_begin(rec, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	perfemit__u64(rec, id);
	perfemit__u64(rec, 0x401000);
	perfemit__u32x2(rec, 42, 43);
	perfemit__u64(rec, 5555);
	perfemit__u64(rec, 250000);
}

/* a leader-sampled group's sample: IDENTIFIER IP TID TIME PERIOD READ{nr, (value id) x nr} CALLCHAIN */
static void test_parse_sample_read(void **state)
{
	struct capture_evlist el = parse_ok("{cpu-clock,page-faults}:S");
	struct capture_opts o;
	struct capture_sample s;
	struct perfemit rec;

	(void)state;
	o = cmd_opts();
	o.callchain = 1;
	capture_evlist__config(&el, &o);
	sample_head(&rec, 77);
	perfemit__u64(&rec, 2);			/* READ: nr */
	perfemit__u64(&rec, 1000);
	perfemit__u64(&rec, 77);
	perfemit__u64(&rec, 12);
	perfemit__u64(&rec, 78);
	perfemit__u64(&rec, 1);			/* CALLCHAIN: nr 1 */
	perfemit__u64(&rec, 0x401000);
	perfemit__rec_end(&rec, 0, 0);
	assert_int_equal(capture__parse_sample(&el, rec.p, rec.len, &s), 0);
	assert_int_equal(s.pid, 42);
	assert_int_equal(s.time, 5555);
	assert_int_equal(s.nr_chain, 1);
	assert_int_equal(s.chain[0], 0x401000);
	/* a read nr that runs past the record */
	perfemit__put(&rec, 6 * 8, 3, 8);
	assert_int_equal(capture__parse_sample(&el, rec.p, rec.len, &s), -EINVAL);
	perfemit__put(&rec, 6 * 8, UINT64_MAX / 2, 8);
	assert_int_equal(capture__parse_sample(&el, rec.p, rec.len, &s), -EINVAL);
	perfemit__release(&rec);
	capture_evlist__release(&el);

	/*
	 * beside the group an event without READ: its samples are read by their
	 * IDENTIFIER (20: task-clock), the group's with the read block (10)
	 */
	el = parse_ok("{cpu-clock,page-faults}:S,task-clock");
	capture_evlist__config(&el, &o);
	assert_int_equal(el.events[2].attr.sample_type & PERF_SAMPLE_READ, 0);
	el.ids = calloc(3, sizeof(*el.ids));
	assert_non_null(el.ids);
	el.ids[0] = (struct capture_id){ 10, 0 };
	el.ids[1] = (struct capture_id){ 11, 1 };
	el.ids[2] = (struct capture_id){ 20, 2 };
	el.nr_ids = 3;
	sample_head(&rec, 20);
	perfemit__u64(&rec, 2);			/* CALLCHAIN: nr 2 */
	perfemit__u64(&rec, 0x401000);
	perfemit__u64(&rec, 0x402000);
	perfemit__rec_end(&rec, 0, 0);
	assert_int_equal(capture__parse_sample(&el, rec.p, rec.len, &s), 0);
	assert_int_equal(s.nr_chain, 2);
	assert_int_equal(s.chain[1], 0x402000);
	perfemit__put(&rec, 8, 10, 8);		/* the leader's id: a read block expected, nr 2 past the end */
	assert_int_equal(capture__parse_sample(&el, rec.p, rec.len, &s), -EINVAL);
	perfemit__release(&rec);
	capture_evlist__release(&el);
}

static void test_notes_build_id(void **state)
{
	unsigned char notes[128];
	uint32_t hdr[3];
	uint8_t id[20];
	size_t size = 0;

	(void)state;
	memset(notes, 0, sizeof(notes));
	/* an unrelated note first (name "XY\0" padded to 4, desc 2 padded to 4), then GNU build id */
	hdr[0] = 3; hdr[1] = 2; hdr[2] = 1;
	memcpy(notes, hdr, 12);
	memcpy(notes + 12, "XY", 3);
	hdr[0] = 4; hdr[1] = 20; hdr[2] = 3;	/* NT_GNU_BUILD_ID */
	memcpy(notes + 20, hdr, 12);
	memcpy(notes + 32, "GNU", 4);
	for (int i = 0; i < 20; i++)
		notes[36 + i] = (unsigned char)(i + 1);
	assert_int_equal(build_id__from_notes(notes, 56, 0, id, &size), 0);
	assert_int_equal(size, 20);
	assert_int_equal(id[0], 1);
	assert_int_equal(id[19], 20);
	/* cut inside the descriptor */
	assert_int_equal(build_id__from_notes(notes, 50, 0, id, &size), -EINVAL);
	/* only the unrelated note */
	assert_int_equal(build_id__from_notes(notes, 20, 0, id, &size), -ENOENT);
	/* a descriptor size that would overflow */
	hdr[0] = 4; hdr[1] = 0xfffffff0u; hdr[2] = 3;
	memcpy(notes + 20, hdr, 12);
	assert_int_equal(build_id__from_notes(notes, 56, 0, id, &size), -EINVAL);
}

struct synth_seen {
	int comm, fork, mmap2_exe, bad;
	size_t id_hdr_size;
	char exe[4096];
};

static int synth_collect(void *ctx, const void *rec, size_t size)
{
	struct synth_seen *s = ctx;
	const struct perf_event_header *h = rec;
	const unsigned char *b = rec;

	if (size % 8 || h->size != size)
		s->bad++;
	for (size_t i = size - s->id_hdr_size; i < size; i++)
		if (b[i])
			s->bad++;	/* trailer must be zero */
	if (h->type == PERF_RECORD_COMM && *(const uint32_t *)(b + 8) == (uint32_t)getpid())
		s->comm++;
	if (h->type == PERF_RECORD_FORK && *(const uint32_t *)(b + 8) == (uint32_t)getpid())
		s->fork++;
	if (h->type == PERF_RECORD_MMAP2 && strcmp((const char *)b + 72, s->exe) == 0)
		s->mmap2_exe++;
	return 0;
}

static void test_synth_self(void **state)
{
	struct synth_seen seen;
	struct synth_ctx sc = { synth_collect, &seen, 24, NULL };
	ssize_t n;

	(void)state;
	memset(&seen, 0, sizeof(seen));
	seen.id_hdr_size = 24;
	n = readlink("/proc/self/exe", seen.exe, sizeof(seen.exe) - 1);
	assert_true(n > 0);
	seen.exe[n] = '\0';
	assert_int_equal(synth__process(&sc, getpid()), 0);
	assert_int_equal(seen.bad, 0);
	assert_int_equal(seen.comm, 1);	/* one thread */
	assert_int_equal(seen.fork, 1);
	assert_true(seen.mmap2_exe >= 1);	/* the executable text of this test */
}

static void test_file_build_id(void **state)
{
	uint8_t id[20];
	size_t size = 0;
	int err;

	(void)state;
	/* gcc links with --build-id on Debian; a missing note is -ENOENT, not a crash */
	err = synth__file_build_id("/proc/self/exe", id, &size);
	assert_true(err == 0 || err == -ENOENT);
	if (!err)
		assert_int_equal(size, 20);
	assert_int_equal(synth__file_build_id("/nonexistent/file", id, &size), -ENOENT);
	assert_int_equal(synth__file_build_id("/proc/self/status", id, &size), -EINVAL);
}

/* big-endian 16/32-bit words into b */
static void put_be(unsigned char *b, uint32_t v, int n)
{
	for (int i = 0; i < n; i++)
		b[i] = (unsigned char)(v >> (8 * (n - 1 - i)));
}

/* this test's binary, read whole; malloc'd */
static unsigned char *read_self(size_t *len)
{
	FILE *f = fopen("/proc/self/exe", "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0;

	assert_non_null(f);
	for (;;) {
		if (n == cap) {
			cap = cap ? 2 * cap : 1 << 20;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
		size_t got = fread(buf + n, 1, cap - n, f);

		if (!got)
			break;
		n += got;
	}
	fclose(f);
	*len = n;
	return buf;
}

static void test_elf_file(void **state)
{
	unsigned char be[152], *self;
	uint8_t id[BUILD_ID_SIZE_MAX], id2[BUILD_ID_SIZE_MAX];
	size_t size = 0, size2 = 0, len, nr, cut;
	struct elf_load_seg *segs;
	struct elf_file *ef;
	char path[] = "/tmp/readperf-test-elf-XXXXXX";
	int fd, err;

	(void)state;
	/* this binary: from the file and from a copy in memory, the same answers */
	assert_int_equal(elf_file__open(&ef, "/proc/self/exe"), 0);
	assert_int_equal(elf_file__load_segs(ef, &segs, &nr), 0);
	assert_true(nr >= 1);
	free(segs);
	assert_int_equal(elf_file__section_entsize(ef, ".dynsym"), sizeof(void *) == 8 ? 24 : 16);
	assert_int_equal(elf_file__section_entsize(ef, ".no-such-section"), 0);
	err = elf_file__build_id(ef, id, &size);
	elf_file__delete(ef);
	self = read_self(&len);
	assert_int_equal(elf_file__open_mem(&ef, self, len), 0);
	assert_int_equal(elf_file__build_id(ef, id2, &size2), err);
	if (!err)
		assert_memory_equal(id, id2, size);
	elf_file__delete(ef);
	/* every prefix up to 4 KiB, then every 4093rd: refused or read within bounds */
	for (cut = 0; cut < len; cut += cut < 4096 ? 1 : 4093) {
		if (elf_file__open_mem(&ef, self, cut))
			continue;
		if (!elf_file__load_segs(ef, &segs, &nr))
			free(segs);
		elf_file__section_entsize(ef, ".plt");
		elf_file__build_id(ef, id2, &size2);
		elf_file__delete(ef);
	}
	/* the other byte order is not converted in memory */
	self[EI_DATA] = self[EI_DATA] == ELFDATA2LSB ? ELFDATA2MSB : ELFDATA2LSB;
	assert_int_equal(elf_file__open_mem(&ef, self, len), -ENOTSUP);
	free(self);
	assert_int_equal(elf_file__open_mem(&ef, "not elf", 8), -EINVAL);
	assert_int_equal(elf_file__open(&ef, "/proc/self/status"), -EINVAL);
	assert_int_equal(elf_file__open(&ef, "/nonexistent/file"), -ENOENT);
	elf_file__delete(NULL);

	/* big-endian ELF32: header, PT_LOAD and PT_NOTE at 52, the build-id note at 116 */
	memset(be, 0, sizeof(be));
	memcpy(be, ELFMAG, SELFMAG);
	be[EI_CLASS] = ELFCLASS32;
	be[EI_DATA] = ELFDATA2MSB;
	be[EI_VERSION] = EV_CURRENT;
	put_be(be + 16, ET_EXEC, 2);
	put_be(be + 18, EM_MIPS, 2);
	put_be(be + 20, EV_CURRENT, 4);
	put_be(be + 28, 52, 4);		/* e_phoff */
	put_be(be + 40, 52, 2);		/* e_ehsize */
	put_be(be + 42, 32, 2);		/* e_phentsize */
	put_be(be + 44, 2, 2);		/* e_phnum */
	put_be(be + 46, 40, 2);		/* e_shentsize */
	put_be(be + 52, PT_LOAD, 4);
	put_be(be + 60, 0x10000, 4);	/* p_vaddr */
	put_be(be + 68, 152, 4);	/* p_filesz */
	put_be(be + 72, 152, 4);
	put_be(be + 80, 0x1000, 4);
	put_be(be + 84, PT_NOTE, 4);
	put_be(be + 88, 116, 4);	/* p_offset */
	put_be(be + 92, 0x10074, 4);
	put_be(be + 100, 36, 4);	/* p_filesz */
	put_be(be + 104, 36, 4);
	put_be(be + 112, 4, 4);
	put_be(be + 116, 4, 4);		/* namesz */
	put_be(be + 120, 20, 4);	/* descsz */
	put_be(be + 124, NT_GNU_BUILD_ID, 4);
	memcpy(be + 128, "GNU", 4);
	for (int i = 0; i < 20; i++)
		be[132 + i] = (unsigned char)(0xa0 + i);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, be, sizeof(be)), sizeof(be));
	close(fd);
	assert_int_equal(elf_file__open(&ef, path), 0);
	assert_int_equal(elf_file__big_endian(ef), 1);
	assert_int_equal(elf_file__load_segs(ef, &segs, &nr), 0);
	assert_int_equal(nr, 1);
	assert_int_equal(segs[0].offset, 0);
	assert_int_equal(segs[0].vaddr, 0x10000);
	assert_int_equal(segs[0].filesz, 152);
	free(segs);
	assert_int_equal(elf_file__build_id(ef, id, &size), 0);
	assert_int_equal(size, 20);
	assert_int_equal(id[0], 0xa0);
	assert_int_equal(id[19], 0xb3);
	elf_file__delete(ef);
	/* the recorder reads only files of this host's byte order */
	if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
		assert_int_equal(synth__file_build_id(path, id, &size), -ENOTSUP);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_symbolic),
		cmocka_unit_test(test_parse_cache),
		cmocka_unit_test(test_parse_modifiers),
		cmocka_unit_test(test_parse_groups),
		cmocka_unit_test(test_parse_pmu_terms),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_config_record),
		cmocka_unit_test(test_config_stat),
		cmocka_unit_test(test_cpu_list),
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_ringbuf_wrap),
		cmocka_unit_test(test_parse_sample),
		cmocka_unit_test(test_parse_event_terms),
		cmocka_unit_test(test_parse_tracepoint),
		cmocka_unit_test(test_parse_error_messages),
		cmocka_unit_test(test_config_leader_sampling),
		cmocka_unit_test(test_config_record_options),
		cmocka_unit_test(test_parse_clockid_regs),
		cmocka_unit_test(test_parse_sample_read),
		cmocka_unit_test(test_notes_build_id),
		cmocka_unit_test(test_synth_self),
		cmocka_unit_test(test_file_build_id),
		cmocka_unit_test(test_elf_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Unit tests of perffile/writer.c: files written by perf_writer (file and
 * pipe mode) read back with the reader (perffile/perffile.h) field by field;
 * an unfinished file has no header; API misuse is refused.  When `perf` is on
 * PATH, `perf report --stats` and `--header-only` must read the files and
 * agree with what was written (skipped otherwise).
 *
 * Every expected value is what the test itself wrote.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "perffile/perffile.h"
#include "perffile/writer.h"
#include "tests/lib/perfemit.h"

#define ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)
#define NR_SAMPLES 5

static const uint64_t ids_a[] = { 101, 102 };
static const uint64_t ids_b[] = { 201 };
static const uint8_t bid1[20] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 };
static const uint8_t bid2[16] = { 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
static const char *const argv_rec[] = { "/usr/bin/readperf", "record", "--", "./work" };

struct tmpf {
	char path[64];
	int fd;
};

static int tmpf_open(struct tmpf *t)
{
	snprintf(t->path, sizeof(t->path), "/tmp/test-writer-XXXXXX");
	t->fd = mkstemp(t->path);
	return t->fd;
}

static void tmpf_close(struct tmpf *t)
{
	close(t->fd);
	unlink(t->path);
}

static void make_attr(struct perf_event_attr *a, uint64_t config)
{
	perfemit__sw_attr(a, config, 10000, ST);
	a->exclude_kernel = 1;
	a->disabled = 1;
	a->mmap = a->comm = a->mmap2 = a->comm_exec = (config == PERF_COUNT_SW_CPU_CLOCK);
}

/* records (host order) from the start of o; the sample_id_all trailer is TID, TIME, IDENTIFIER */
static size_t rec_end(struct perfemit *o, uint32_t pid, uint32_t tid, uint64_t time)
{
	const struct perfemit_sample_id sid = { .pid = pid, .tid = tid, .time = time, .id = 101 };

	perfemit__sample_id(o, PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_IDENTIFIER, &sid);
	perfemit__rec_end(o, 0, 1);
	return o->len;
}

static size_t rec_comm(struct perfemit *o)
{
	o->len = 0;
	perfemit__rec_begin(o, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
	perfemit__u32x2(o, 42, 43);
	perfemit__str(o, "work", 8);
	return rec_end(o, 42, 43, 900);
}

static size_t rec_mmap2(struct perfemit *o)
{
	o->len = 0;
	perfemit__rec_begin(o, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	perfemit__u32x2(o, 42, 42);
	perfemit__u64(o, 0x400000);
	perfemit__u64(o, 0x2000);
	perfemit__u64(o, 0x1000);
	perfemit__u32x2(o, 8, 1);	/* maj, min */
	perfemit__u64(o, 1234);		/* ino */
	perfemit__u64(o, 5);		/* ino_generation */
	perfemit__u32x2(o, 5, 2);	/* prot, flags */
	perfemit__str(o, "/usr/bin/work", 8);
	return rec_end(o, 42, 42, 950);
}

/* sample i: attr a (ids 101/102) for i < 3, attr b (201) after */
static size_t rec_sample(struct perfemit *o, int i)
{
	o->len = 0;
	perfemit__rec_begin(o, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	perfemit__u64(o, i < 3 ? ids_a[i % 2] : ids_b[0]);
	perfemit__u64(o, 0x400100 + 16 * (uint64_t)i);
	perfemit__u32x2(o, 42, 42);
	perfemit__u64(o, 1000 + 100 * (uint64_t)i);
	perfemit__u64(o, 10000 + (uint64_t)i);
	perfemit__rec_end(o, 0, 1);
	return o->len;
}

/* write the record at the start of o, n bytes */
static int write_rec(struct perf_writer *w, const struct perfemit *o, size_t n)
{
	return perf_writer__write(w, o->p, n);
}

/* the whole test file; returns the data bytes written */
static uint64_t write_test_file(int fd, int pipe)
{
	struct perf_writer_opts opts = { .pipe = pipe };
	struct perf_writer *w;
	struct perf_event_attr a;
	struct perfemit o = { 0 };
	uint64_t data = 0, clockid = 1;
	size_t n;
	int i;

	assert_int_equal(perf_writer__new(&w, fd, &opts), 0);
	make_attr(&a, PERF_COUNT_SW_CPU_CLOCK);
	assert_int_equal(perf_writer__add_attr(w, &a, ids_a, 2, "cpu-clock:u"), 0);
	make_attr(&a, PERF_COUNT_SW_PAGE_FAULTS);
	assert_int_equal(perf_writer__add_attr(w, &a, ids_b, 1, "page-faults:u"), 0);
	assert_int_equal(perf_writer__set_string(w, PERF_FEAT_HOSTNAME, "testhost"), 0);
	assert_int_equal(perf_writer__set_string(w, PERF_FEAT_OSRELEASE, "6.18.0-test"), 0);
	assert_int_equal(perf_writer__set_string(w, PERF_FEAT_VERSION, "6.1.0"), 0);
	assert_int_equal(perf_writer__set_string(w, PERF_FEAT_ARCH, "x86_64"), 0);
	/* 70 characters: the string needs two 64-byte units */
	assert_int_equal(perf_writer__set_string(w, PERF_FEAT_CPUDESC,
		"Test CPU with a rather long model name that needs 2 units @ 3.00GHz!!"), 0);
	assert_int_equal(perf_writer__set_string(w, PERF_FEAT_CPUID, "GenuineIntel,6,85,7"), 0);
	assert_int_equal(perf_writer__set_nrcpus(w, 2, 4), 0);
	assert_int_equal(perf_writer__set_total_mem(w, 16384000), 0);
	assert_int_equal(perf_writer__set_cmdline(w, 4, argv_rec), 0);
	assert_int_equal(perf_writer__add_build_id(w, -1, PERF_RECORD_MISC_USER, bid1, 20, "/usr/bin/work"), 0);
	assert_int_equal(perf_writer__set_feature_raw(w, PERF_FEAT_CLOCKID, &clockid, sizeof(clockid)), 0);
	assert_int_equal(perf_writer__start(w), 0);
	/* added after start: pipe mode sends these at once */
	assert_int_equal(perf_writer__add_build_id(w, -1, PERF_RECORD_MISC_KERNEL, bid2, 16, "[kernel.kallsyms]"), 0);
	n = rec_comm(&o);
	data += n;
	assert_int_equal(write_rec(w, &o, n), 0);
	n = rec_mmap2(&o);
	data += n;
	assert_int_equal(write_rec(w, &o, n), 0);
	for (i = 0; i < NR_SAMPLES; i++) {
		n = rec_sample(&o, i);
		data += n;
		assert_int_equal(write_rec(w, &o, n), 0);
	}
	perfemit__release(&o);
	assert_int_equal(perf_writer__set_sample_time(w, 1000, 1000 + 100 * (NR_SAMPLES - 1)), 0);
	assert_int_equal(perf_writer__data_size(w), data);
	assert_int_equal(perf_writer__finish(w), 0);
	perf_writer__delete(w);
	return data;
}

/* build ids: the BUILD_ID section (file), or HEADER_BUILD_ID records (pipe, checked in check_records) */
static void check_features(const struct perf_features *ft, int build_ids)
{
	const struct perf_build_id *b;

	assert_non_null(ft->hostname);
	assert_string_equal(ft->hostname, "testhost");
	assert_string_equal(ft->osrelease, "6.18.0-test");
	assert_string_equal(ft->version, "6.1.0");
	assert_string_equal(ft->arch, "x86_64");
	assert_string_equal(ft->cpudesc, "Test CPU with a rather long model name that needs 2 units @ 3.00GHz!!");
	assert_string_equal(ft->cpuid, "GenuineIntel,6,85,7");
	assert_int_equal(ft->nr_cpus_online, 2);
	assert_int_equal(ft->nr_cpus_avail, 4);
	assert_int_equal(ft->total_mem_kb, 16384000);
	assert_int_equal(ft->cmdline_argc, 4);
	assert_string_equal(ft->cmdline[0], "/usr/bin/readperf");
	assert_string_equal(ft->cmdline[3], "./work");
	assert_int_equal(ft->clockid, 1);
	assert_int_equal(ft->event_descs.len, 2);
	if (!build_ids)
		return;
	assert_int_equal(ft->build_ids.len, 2);
	b = &ARRAY_AT(&ft->build_ids, struct perf_build_id, 0);
	assert_int_equal(b->pid, -1);
	assert_int_equal(b->misc & 7, PERF_RECORD_MISC_USER);
	assert_int_equal(b->size, 20);
	assert_memory_equal(b->build_id, bid1, 20);
	assert_string_equal(b->filename, "/usr/bin/work");
	b = &ARRAY_AT(&ft->build_ids, struct perf_build_id, 1);
	assert_int_equal(b->misc & 7, PERF_RECORD_MISC_KERNEL);
	assert_int_equal(b->size, 16);
	assert_memory_equal(b->build_id, bid2, 16);
	assert_string_equal(b->filename, "[kernel.kallsyms]");
}

static void check_evlist(const struct perf_evlist *el)
{
	assert_int_equal(el->nr, 2);
	assert_string_equal(el->attrs[0].name, "cpu-clock:u");
	assert_string_equal(el->attrs[1].name, "page-faults:u");
	assert_int_equal(el->attrs[0].nr_ids, 2);
	assert_int_equal(el->attrs[0].ids[0], 101);
	assert_int_equal(el->attrs[0].ids[1], 102);
	assert_int_equal(el->attrs[1].nr_ids, 1);
	assert_int_equal(el->attrs[1].ids[0], 201);
	assert_int_equal(el->attrs[0].attr.size, sizeof(struct perf_event_attr));
	assert_int_equal(el->attrs[0].attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(el->attrs[1].attr.config, PERF_COUNT_SW_PAGE_FAULTS);
	assert_int_equal(el->attrs[0].attr.sample_type, ST);
	assert_int_equal(el->attrs[0].attr.sample_period, 10000);
	assert_int_equal(el->attrs[0].attr.sample_id_all, 1);
	assert_int_equal(el->attrs[0].attr.exclude_kernel, 1);
	assert_int_equal(el->attrs[0].attr.comm_exec, 1);
	assert_int_equal(el->attrs[1].attr.comm_exec, 0);
}

/* the data records, in order; user records (pipe mode) are skipped but counted */
static void check_records(struct perf_file *f, int *nr_user, int *nr_build_id)
{
	struct perf_record rec = { 0 };
	int n = 0, users = 0, nr_bid = 0, r;

	while ((r = perf_file__next(f, &rec)) == 1) {
		if (rec.type == PERF_RECORD_HEADER_BUILD_ID) {
			int k = nr_bid++;

			assert_true(k < 2);
			assert_int_equal(rec.u.build_id.pid, -1);
			assert_int_equal(rec.misc & 7, k ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER);
			assert_int_equal(rec.u.build_id.size, k ? 16 : 20);
			assert_memory_equal(rec.u.build_id.build_id, k ? bid2 : bid1, k ? 16 : 20);
			assert_string_equal(rec.u.build_id.filename, k ? "[kernel.kallsyms]" : "/usr/bin/work");
		}
		if (rec.type >= PERF_RECORD_USER_TYPE_START) {
			users++;
			continue;
		}
		if (n == 0) {
			assert_int_equal(rec.type, PERF_RECORD_COMM);
			assert_int_equal(rec.u.comm.pid, 42);
			assert_int_equal(rec.u.comm.tid, 43);
			assert_string_equal(rec.u.comm.comm, "work");
			assert_true(rec.u.comm.exec);
			assert_int_equal(rec.sample.time, 900);
			assert_int_equal(rec.sample.id, 101);
			assert_non_null(rec.evattr);
			assert_int_equal(rec.evattr->idx, 0);
		} else if (n == 1) {
			assert_int_equal(rec.type, PERF_RECORD_MMAP2);
			assert_int_equal(rec.u.mmap.pid, 42);
			assert_int_equal(rec.u.mmap.start, 0x400000);
			assert_int_equal(rec.u.mmap.len, 0x2000);
			assert_int_equal(rec.u.mmap.pgoff, 0x1000);
			assert_int_equal(rec.u.mmap.maj, 8);
			assert_int_equal(rec.u.mmap.min, 1);
			assert_int_equal(rec.u.mmap.ino, 1234);
			assert_int_equal(rec.u.mmap.ino_generation, 5);
			assert_int_equal(rec.u.mmap.prot, 5);
			assert_int_equal(rec.u.mmap.flags, 2);
			assert_string_equal(rec.u.mmap.filename, "/usr/bin/work");
			assert_int_equal(rec.sample.time, 950);
		} else {
			int i = n - 2;

			assert_true(i < NR_SAMPLES);
			assert_int_equal(rec.type, PERF_RECORD_SAMPLE);
			assert_non_null(rec.evattr);
			assert_int_equal(rec.evattr->idx, i < 3 ? 0 : 1);
			assert_int_equal(rec.sample.id, i < 3 ? ids_a[i % 2] : ids_b[0]);
			assert_int_equal(rec.sample.ip, 0x400100 + 16 * i);
			assert_int_equal(rec.sample.pid, 42);
			assert_int_equal(rec.sample.tid, 42);
			assert_int_equal(rec.sample.time, 1000 + 100 * i);
			assert_int_equal(rec.sample.period, 10000 + i);
		}
		n++;
	}
	assert_int_equal(r, 0);
	assert_int_equal(n, 2 + NR_SAMPLES);
	*nr_user = users;
	*nr_build_id = nr_bid;
}

static void test_file_roundtrip(void **state)
{
	const struct perf_file_info *info;
	const struct perf_features *ft;
	struct perf_file *f;
	struct tmpf t;
	uint64_t data;
	int users, bids;

	(void)state;
	assert_true(tmpf_open(&t) >= 0);
	data = write_test_file(t.fd, 0);
	assert_int_equal(perf_file__open(&f, t.path, NULL), 0);
	info = perf_file__info(f);
	assert_int_equal(info->format, PERF_FORMAT_FILE_V2);
	assert_int_equal(info->swapped, 0);
	assert_int_equal(info->header_size, 104);
	assert_int_equal(info->attr_size, sizeof(struct perf_event_attr) + 16);
	/* header 104, then 3 ids (24 bytes), then 2 attrs of 144 */
	assert_int_equal(info->attrs_offset, 104 + 24);
	assert_int_equal(info->data_offset, 104 + 24 + 2 * 144);
	assert_int_equal(info->data_size, data);
	/* BUILD_ID 2, HOSTNAME..TOTAL_MEM 3..10, CMDLINE 11, EVENT_DESC 12, SAMPLE_TIME 21, CLOCKID 23 */
	assert_int_equal(info->features[0], 0x7fcULL | 1ULL << 11 | 1ULL << 12 | 1ULL << 21 | 1ULL << 23);
	check_evlist(perf_file__evlist(f));
	ft = perf_file__features(f);
	check_features(ft, 1);
	assert_int_equal(ft->first_sample_time, 1000);
	assert_int_equal(ft->last_sample_time, 1400);
	check_records(f, &users, &bids);
	assert_int_equal(users, 0);
	assert_int_equal(bids, 0);
	perf_file__delete(f);
	tmpf_close(&t);
}

static void test_pipe_roundtrip(void **state)
{
	const struct perf_file_info *info;
	struct perf_file *f;
	struct tmpf t;
	int users, bids;

	(void)state;
	assert_true(tmpf_open(&t) >= 0);
	write_test_file(t.fd, 1);
	assert_int_equal(perf_file__open(&f, t.path, NULL), 0);
	info = perf_file__info(f);
	assert_int_equal(info->format, PERF_FORMAT_PIPE);
	check_records(f, &users, &bids);
	assert_int_equal(bids, 2);
	/*
	 * 2 HEADER_ATTR, 12 HEADER_FEATURE (HOSTNAME..CMDLINE 9, EVENT_DESC,
	 * CLOCKID, the LAST mark) and the first HEADER_BUILD_ID before the
	 * data; the second build id right after start; SAMPLE_TIME at finish
	 */
	assert_int_equal(users, 2 + 12 + 2 + 1);
	check_evlist(perf_file__evlist(f));
	check_features(perf_file__features(f), 0);
	assert_int_equal(perf_file__features(f)->last_sample_time, 1400);
	perf_file__delete(f);
	tmpf_close(&t);
}

/* records of type in the file at path, read to the end; -1 when it does not open */
static int count_type(const char *path, uint32_t type)
{
	struct perf_file *f = NULL;
	struct perf_record rec = { 0 };
	int n = 0;

	if (perf_file__open(&f, path, NULL))
		return -1;
	while (perf_file__next(f, &rec) == 1)
		n += rec.type == type;
	perf_file__delete(f);
	return n;
}

/*
 * Without finish() (a capture killed): the header and attrs are on disk
 * from start() on, the records from each flush, with the header's data
 * size following them
 */
static void test_unfinished(void **state)
{
	struct perf_writer_opts opts = { 0 };
	struct perf_writer *w;
	struct perf_event_attr a;
	struct tmpf t;
	struct perfemit o = { 0 };

	(void)state;
	assert_true(tmpf_open(&t) >= 0);
	assert_int_equal(perf_writer__new(&w, t.fd, &opts), 0);
	make_attr(&a, PERF_COUNT_SW_CPU_CLOCK);
	assert_int_equal(perf_writer__add_attr(w, &a, ids_a, 2, NULL), 0);
	assert_int_equal(perf_writer__flush(w), -EINVAL);	/* before start() */
	assert_int_equal(perf_writer__start(w), 0);
	assert_int_equal(count_type(t.path, PERF_RECORD_SAMPLE), 0);
	assert_int_equal(write_rec(w, &o, rec_sample(&o, 0)), 0);
	assert_int_equal(count_type(t.path, PERF_RECORD_SAMPLE), 0);	/* still buffered */
	assert_int_equal(perf_writer__flush(w), 0);
	assert_int_equal(count_type(t.path, PERF_RECORD_SAMPLE), 1);
	perfemit__release(&o);
	perf_writer__delete(w);		/* interrupted: no finish */
	assert_int_equal(count_type(t.path, PERF_RECORD_SAMPLE), 1);
	tmpf_close(&t);
}

/*
 * -z: 2000 samples (48 bytes each) and a FINISHED_ROUND after every 100, in
 * pieces of at most 8192 bytes: read back in order, every sample from a
 * COMPRESSED record, the rounds plain, the COMPRESSED feature as perf
 * writes it
 */
static void test_zstd(void **state)
{
	struct perf_writer_opts opts = { .zstd_level = 1, .zstd_mmap_len = 8192 };
	struct perf_writer *w;
	struct perf_event_attr a;
	struct perf_file *f = NULL;
	struct perf_record rec = { 0 };
	struct perfemit o = { 0 };
	struct tmpf t;
	const struct perf_event_header round = { PERF_RECORD_FINISHED_ROUND, 0, 8 };
	uint64_t in, out;
	int n = 0, rounds = 0;

	(void)state;
	assert_true(tmpf_open(&t) >= 0);
	opts.zstd_mmap_len = 4096;
	assert_int_equal(perf_writer__new(&w, t.fd, &opts), -EINVAL);	/* below two pages */
	opts.zstd_mmap_len = 8192;
	assert_int_equal(perf_writer__new(&w, t.fd, &opts), 0);
	make_attr(&a, PERF_COUNT_SW_CPU_CLOCK);
	assert_int_equal(perf_writer__add_attr(w, &a, ids_a, 2, NULL), 0);
	assert_int_equal(perf_writer__start(w), 0);
	for (int i = 0; i < 2000; i++) {
		size_t len = rec_sample(&o, i % 2);

		perfemit__put(&o, 32, 1000000 + (uint64_t)i, 8);	/* TIME */
		assert_int_equal(write_rec(w, &o, len), 0);
		if (i % 100 == 99)
			assert_int_equal(perf_writer__write(w, &round, sizeof(round)), 0);
	}
	perfemit__release(&o);
	assert_int_equal(perf_writer__finish(w), 0);
	perf_writer__zstd_bytes(w, &in, &out);
	assert_int_equal(in, 2000 * 48);
	assert_true(out > 0 && out < in / 2);
	perf_writer__delete(w);
	assert_int_equal(perf_file__open(&f, t.path, NULL), 0);
	while (perf_file__next(f, &rec) == 1) {
		if (rec.type == PERF_RECORD_FINISHED_ROUND) {
			assert_false(rec.compressed);
			assert_int_equal(n, 100 * ++rounds);
		} else if (rec.type == PERF_RECORD_SAMPLE) {
			assert_true(rec.compressed);
			assert_int_equal(rec.sample.time, 1000000 + n);
			n++;
		}
	}
	assert_int_equal(n, 2000);
	assert_int_equal(rounds, 20);
	assert_int_equal(perf_file__features(f)->comp_type, 1);
	assert_int_equal(perf_file__features(f)->comp_level, 1);
	assert_int_equal(perf_file__features(f)->comp_mmap_len, 8192);
	assert_int_equal(perf_file__features(f)->comp_ratio, (in + out / 2) / out);
	perf_file__delete(f);
	tmpf_close(&t);
}

static void test_misuse(void **state)
{
	struct perf_writer_opts opts = { 0 };
	struct perf_writer *w;
	struct perf_event_attr a;
	struct perfemit o = { 0 };
	int p[2];
	struct tmpf t;

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(perf_writer__new(&w, p[1], &opts), -ESPIPE);
	assert_null(w);
	close(p[0]);
	close(p[1]);

	assert_true(tmpf_open(&t) >= 0);
	assert_int_equal(perf_writer__new(&w, t.fd, &opts), 0);
	make_attr(&a, PERF_COUNT_SW_CPU_CLOCK);
	assert_int_equal(perf_writer__set_string(w, PERF_FEAT_NRCPUS, "x"), -EINVAL);
	assert_int_equal(perf_writer__set_feature_raw(w, PERF_FEAT_LAST, "x", 1), -EINVAL);
	assert_int_equal(perf_writer__add_build_id(w, 0, 0, bid1, 21, "x"), -EINVAL);
	assert_int_equal(write_rec(w, &o, rec_sample(&o, 0)), -EINVAL);	/* before start */
	assert_int_equal(perf_writer__finish(w), -EINVAL);				/* before start */
	assert_int_equal(perf_writer__add_attr(w, &a, ids_a, 2, "x"), 0);
	assert_int_equal(perf_writer__start(w), 0);
	assert_int_equal(perf_writer__add_attr(w, &a, ids_b, 1, "y"), -EINVAL);	/* after start */
	rec_sample(&o, 0);
	assert_int_equal(write_rec(w, &o, 40), -EINVAL);	/* size != header.size */
	perfemit__put(&o, 6, 44, 2);
	assert_int_equal(write_rec(w, &o, 44), -EINVAL);	/* not a multiple of 8 */
	perfemit__put(&o, 6, 4, 2);
	assert_int_equal(write_rec(w, &o, 4), -EINVAL);	/* smaller than a header */
	assert_int_equal(perf_writer__data_size(w), 0);
	assert_int_equal(perf_writer__finish(w), 0);
	assert_int_equal(perf_writer__finish(w), -EINVAL);		/* twice */
	perf_writer__delete(w);
	perf_writer__delete(NULL);
	perfemit__release(&o);
	tmpf_close(&t);
}

/* ---------------------------------------------------------------- perf as the oracle */

static int have_perf(void)
{
	return system("perf version >/dev/null 2>&1") == 0;
}

/* run cmd, return its stdout (malloc'd) and exit status */
static char *run(const char *cmd, int *status)
{
	FILE *p = popen(cmd, "r");
	size_t len = 0, cap = 65536;
	char *out = malloc(cap);
	size_t n;

	assert_non_null(p);
	assert_non_null(out);
	while ((n = fread(out + len, 1, cap - 1 - len, p)) > 0) {
		len += n;
		if (len == cap - 1)
			break;
	}
	out[len] = 0;
	*status = pclose(p);
	return out;
}

/* the number perf's --stats prints for "NAME events:" in the aggregated part */
static long stats_count(const char *out, const char *name)
{
	char key[64];
	const char *p;

	snprintf(key, sizeof(key), " %s events:", name);
	p = strstr(out, key);
	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

static void perf_checks(const char *path, int pipe)
{
	char cmd[512];
	const char *p;
	char *out;
	int st;

	snprintf(cmd, sizeof(cmd), "perf report --stats %s %s 2>&1", pipe ? "-i - <" : "-i", path);
	out = run(cmd, &st);
	assert_int_equal(st, 0);
	assert_int_equal(stats_count(out, "SAMPLE"), NR_SAMPLES);
	assert_int_equal(stats_count(out, "COMM"), 1);
	assert_int_equal(stats_count(out, "MMAP2"), 1);
	if (pipe) {
		assert_int_equal(stats_count(out, "ATTR"), 2);
		assert_int_equal(stats_count(out, "BUILD_ID"), 2);
	}
	free(out);

	snprintf(cmd, sizeof(cmd), "perf report --header-only %s %s 2>&1", pipe ? "-i - <" : "-i", path);
	out = run(cmd, &st);
	assert_int_equal(st, 0);
	assert_non_null(strstr(out, "# hostname : testhost\n"));
	assert_non_null(strstr(out, "# os release : 6.18.0-test\n"));
	assert_non_null(strstr(out, "# perf version : 6.1.0\n"));
	assert_non_null(strstr(out, "# arch : x86_64\n"));
	assert_non_null(strstr(out, "# nrcpus online : 2\n"));
	assert_non_null(strstr(out, "# nrcpus avail : 4\n"));
	assert_non_null(strstr(out, "# cpuid : GenuineIntel,6,85,7\n"));
	assert_non_null(strstr(out, "# total memory : 16384000 kB\n"));
	assert_non_null(strstr(out, "# cmdline : /usr/bin/readperf record -- ./work \n"));
	assert_non_null(strstr(out, "# event : name = cpu-clock:u, , id = { 101, 102 }, type = 1"));
	assert_non_null(strstr(out, "# event : name = page-faults:u, , id = { 201 }, type = 1"));
	free(out);

	if (!pipe) {
		snprintf(cmd, sizeof(cmd), "perf buildid-list -i %s 2>&1", path);
		out = run(cmd, &st);
		assert_int_equal(st, 0);
		assert_non_null(strstr(out, "0102030405060708090a0b0c0d0e0f1011121314 /usr/bin/work"));
		/* perf pads a shorter build id to the 40-column width */
		p = strstr(out, "aabbccddeeff00010203040506070809 ");
		assert_non_null(p);
		p += strspn(p + 32, " ") + 32;
		assert_memory_equal(p, "[kernel.kallsyms]\n", 18);
		free(out);
	}
}

static void test_perf_reads_file(void **state)
{
	struct tmpf t;

	(void)state;
	if (!have_perf())
		skip();
	assert_true(tmpf_open(&t) >= 0);
	write_test_file(t.fd, 0);
	perf_checks(t.path, 0);
	tmpf_close(&t);
}

static void test_perf_reads_pipe(void **state)
{
	struct tmpf t;

	(void)state;
	if (!have_perf())
		skip();
	assert_true(tmpf_open(&t) >= 0);
	write_test_file(t.fd, 1);
	perf_checks(t.path, 1);
	tmpf_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_roundtrip),
		cmocka_unit_test(test_pipe_roundtrip),
		cmocka_unit_test(test_unfinished),
		cmocka_unit_test(test_zstd),
		cmocka_unit_test(test_misuse),
		cmocka_unit_test(test_perf_reads_file),
		cmocka_unit_test(test_perf_reads_pipe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

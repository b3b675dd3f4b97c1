/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit tests for util/: array, hashmap, strbuf, csv. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/array.h"
#include "util/csv.h"
#include "util/fs.h"
#include "util/hashmap.h"
#include "util/heap.h"
#include "util/log.h"
#include "util/stats.h"
#include "util/pathname.h"
#include "util/spool.h"
#include "util/strbuf.h"
#include "util/stream.h"

static void test_array_push_and_grow(void **state)
{
	struct array a = ARRAY_INIT(uint32_t);
	size_t i;

	(void)state;
	for (i = 0; i < 1000; i++) {
		uint32_t *p = array__push(&a);

		assert_non_null(p);
		assert_int_equal(*p, 0);
		*p = (uint32_t)i * 3;
	}
	assert_int_equal(a.len, 1000);
	for (i = 0; i < 1000; i++)
		assert_int_equal(ARRAY_AT(&a, uint32_t, i), i * 3);
	array__release(&a);
	assert_null(a.data);
	assert_int_equal(a.len, 0);
}

static void test_array_overflow(void **state)
{
	struct array a = ARRAY_INIT(uint64_t);

	(void)state;
	assert_int_equal(array__reserve(&a, SIZE_MAX / 4), -ENOMEM);
	assert_int_equal(a.len, 0);
	assert_int_equal(array__append(&a, "12345678", 1), 0);
	assert_int_equal(array__reserve(&a, SIZE_MAX), -ENOMEM);
	array__release(&a);
}

/* stable_array: elements keep their addresses as chunks are added, come zeroed, and are found by index */
static void test_stable_array(void **state)
{
	struct stable_array a;
	uint64_t *first, *p;
	size_t i;

	(void)state;
	stable_array__init(&a, 3 * sizeof(uint64_t), 4);	/* 16 elements a chunk */
	first = stable_array__push(&a);
	assert_non_null(first);
	first[0] = 7;
	for (i = 1; i < 1000; i++) {
		p = stable_array__push(&a);
		assert_non_null(p);
		assert_int_equal(p[0] | p[1] | p[2], 0);
		p[0] = i;
		p[2] = i * 3;
	}
	assert_int_equal(a.len, 1000);
	assert_int_equal(a.nr_chunks, (1000 + 15) / 16);
	assert_ptr_equal(stable_array__at(&a, 0), first);
	assert_int_equal(first[0], 7);
	for (i = 1; i < 1000; i++) {
		p = stable_array__at(&a, i);
		assert_int_equal(p[0], i);
		assert_int_equal(p[2], i * 3);
	}
	/* neighbours within a chunk are elem bytes apart */
	assert_ptr_equal((char *)stable_array__at(&a, 17) + 3 * sizeof(uint64_t), stable_array__at(&a, 18));
	stable_array__release(&a);
	assert_int_equal(a.len, 0);
	assert_null(a.chunks);
}

/* u32map's elements: key i * 7919, the 20001st UINT32_MAX */
static uint32_t u32_key(const void *ctx, uint32_t i)
{
	(void)ctx;
	return i == 20000 ? UINT32_MAX : i * 7919u;
}

/* pid/tid keys: 0 and UINT32_MAX are keys like any other, indexes stay after growing */
static void test_u32map(void **state)
{
	struct u32map m;
	uint32_t k, *slot;

	(void)state;
	u32map__init(&m, u32_key, NULL);
	assert_null(u32map__find(&m, 0));
	for (k = 0; k < 20000; k++) {
		assert_int_equal(u32map__insert(&m, k * 7919u, &slot), 1);
		assert_int_equal(*slot, 0);
		*slot = k + 1;
	}
	assert_int_equal(u32map__insert(&m, UINT32_MAX, &slot), 1);
	*slot = 20001;
	assert_int_equal(u32map__insert(&m, 42u * 7919u, &slot), 0);
	assert_int_equal(*slot, 43);
	for (k = 0; k < 20000; k++) {
		slot = u32map__find(&m, k * 7919u);
		assert_non_null(slot);
		assert_int_equal(*slot, k + 1);
	}
	assert_int_equal(*u32map__find(&m, UINT32_MAX), 20001);
	assert_null(u32map__find(&m, 1));
	assert_int_equal(m.len, 20001);
	assert_true(m.len * 2 <= m.cap);
	u32map__release(&m);
	assert_null(u32map__find(&m, 0));
}

/* strset: equal strings give one copy, prefixes and empty strings stay apart, copies outlive growing; a long one */
static void test_strset(void **state)
{
	struct strset s;
	const char *first[3000], *c;
	char buf[32], *big;
	size_t i;

	(void)state;
	strset__init(&s);
	for (i = 0; i < 3000; i++) {
		snprintf(buf, sizeof(buf), "p%07zu", i);
		first[i] = strset__intern(&s, buf, strlen(buf));
		assert_non_null(first[i]);
		assert_string_equal(first[i], buf);
	}
	for (i = 0; i < 3000; i++) {
		snprintf(buf, sizeof(buf), "p%07zu", i);
		assert_ptr_equal(strset__intern(&s, buf, strlen(buf)), first[i]);
	}
	c = strset__intern(&s, "p000000", 7);	/* a prefix of p0000000 */
	assert_string_equal(c, "p000000");
	assert_ptr_not_equal(c, first[0]);
	assert_string_equal(strset__intern(&s, "p0000001x", 8), "p0000001");
	assert_ptr_equal(strset__intern(&s, "p0000001x", 8), first[1]);
	c = strset__intern(&s, "", 0);
	assert_string_equal(c, "");
	assert_ptr_equal(strset__intern(&s, "", 0), c);
	assert_int_equal(s.len, 3002);
	assert_true(s.len * 2 <= s.cap);
	/* longer than a chunk: a chunk of its own, and later strings still fill the current one */
	big = malloc(100000);
	assert_non_null(big);
	memset(big, 'x', 99999);
	big[99999] = 0;
	c = strset__intern(&s, big, 99999);
	assert_string_equal(c, big);
	assert_ptr_equal(strset__intern(&s, big, 99999), c);
	assert_ptr_equal(strset__intern(&s, "p0002999", 8), first[2999]);
	assert_string_equal(strset__intern(&s, "after", 5), "after");
	free(big);
	strset__release(&s);
	assert_int_equal(s.len, 0);
}

static void test_hashmap_insert_find(void **state)
{
	struct hashmap m;
	uint64_t k;
	void **slot;
	size_t it = 0, seen = 0;
	struct hashmap_entry *e;

	(void)state;
	hashmap__init(&m);
	assert_null(hashmap__find(&m, "x", 1));
	for (k = 0; k < 5000; k++) {
		assert_int_equal(hashmap__insert(&m, &k, sizeof(k), &slot), 1);
		*slot = (void *)(uintptr_t)(k + 1);
	}
	k = 42;
	assert_int_equal(hashmap__insert(&m, &k, sizeof(k), &slot), 0);
	assert_ptr_equal(*slot, (void *)(uintptr_t)43);
	for (k = 0; k < 5000; k++) {
		slot = hashmap__find(&m, &k, sizeof(k));
		assert_non_null(slot);
		assert_ptr_equal(*slot, (void *)(uintptr_t)(k + 1));
	}
	k = 5000;
	assert_null(hashmap__find(&m, &k, sizeof(k)));
	while ((e = hashmap__next(&m, &it)))
		seen++;
	assert_int_equal(seen, 5000);
	assert_int_equal(m.len, 5000);
	/* string keys of different lengths sharing a prefix stay apart */
	assert_int_equal(hashmap__insert(&m, "abc", 3, &slot), 1);
	assert_int_equal(hashmap__insert(&m, "abcd", 4, &slot), 1);
	assert_int_equal(hashmap__insert(&m, "abc", 3, &slot), 0);
	/* an entry keeps a 32-bit key length: a longer key is refused before it is read */
	assert_int_equal(hashmap__insert(&m, "abc", (size_t)UINT32_MAX + 1, &slot), -ENOMEM);
	assert_null(hashmap__find(&m, "abc", (size_t)UINT32_MAX + 1));
	assert_int_equal(m.len, 5002);
	hashmap__release(&m, NULL);
}

/*
 * fs__read_fd: a regular file whole, a pipe (no size) growing past the first
 * buffer, a bound exceeded by one byte, a directory's error
 */
static void test_fs_read_fd(void **state)
{
	char dir[] = "/tmp/readperf-test-fs-XXXXXX", path[256], *data;
	size_t len, n = (3u << 20) + 5, i;
	char *big = malloc(n);
	int fd, p[2];
	pid_t pid;
	FILE *f;

	(void)state;
	assert_non_null(big);
	for (i = 0; i < n; i++)
		big[i] = (char)('a' + i % 26);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(big, 1, 1000, f), 1000);
	fclose(f);
	fd = open(path, O_RDONLY);
	assert_int_equal(fs__read_fd(fd, 1000, &data, &len), 0);
	assert_int_equal(len, 1000);
	assert_memory_equal(data, big, 1000);
	assert_int_equal(data[1000], '\0');
	free(data);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_int_equal(fs__read_fd(fd, 999, &data, &len), -EFBIG);
	assert_null(data);
	close(fd);

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(p[0]);
		for (i = 0; i < n; ) {
			ssize_t w = write(p[1], big + i, n - i);

			if (w <= 0)
				_exit(1);
			i += (size_t)w;
		}
		_exit(0);
	}
	close(p[1]);
	assert_int_equal(fs__read_fd(p[0], SIZE_MAX, &data, &len), 0);
	close(p[0]);
	waitpid(pid, NULL, 0);
	assert_int_equal(len, n);
	assert_memory_equal(data, big, n);
	assert_int_equal(data[n], '\0');
	free(data);

	fd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_int_equal(fs__read_fd(fd, SIZE_MAX, &data, &len), -EISDIR);
	close(fd);
	unlink(path);
	rmdir(dir);
	free(big);
}

/* the front cache: empty when zeroed, a hit only on both words, the last set wins its slot */
static void test_hashfront(void **state)
{
	struct hashfront *f = calloc(1, sizeof(*f));
	struct hashfront_entry *e, *e2;
	int a, b;
	uint64_t k;

	(void)state;
	assert_non_null(f);
	e = hashfront__slot(f, 1, 2);
	assert_null(hashfront__get(e, 1, 2));
	hashfront__set(e, 1, 2, &a);
	assert_ptr_equal(hashfront__get(hashfront__slot(f, 1, 2), 1, 2), &a);
	assert_null(hashfront__get(e, 2, 1));
	assert_null(hashfront__get(e, 1, 3));
	/* a key sharing the slot replaces the first */
	for (k = 3; (e2 = hashfront__slot(f, k, 2)) != e; k++)
		;
	hashfront__set(e2, k, 2, &b);
	assert_null(hashfront__get(hashfront__slot(f, 1, 2), 1, 2));
	assert_ptr_equal(hashfront__get(hashfront__slot(f, k, 2), k, 2), &b);
	free(f);
}

/*
 * The span heap__prefer_huge_pages() marks is one VMA of the heap with the
 * "hg" (MADV_HUGEPAGE) flag in /proc/self/smaps; skipped where malloc is not
 * glibc's brk heap (sanitizers) or the kernel has no transparent huge pages.
 */
static void test_heap_huge_pages(void **state)
{
	size_t marked = heap__prefer_huge_pages(8u << 20), len = 0;
	unsigned long lo = 0, hi = 0;
	char line[512];
	int found = 0;
	FILE *f;

	(void)state;
	if (!marked) {
		skip();
		return;
	}
	assert_true(marked >= (2u << 20) && marked % (2u << 20) == 0);
	f = fopen("/proc/self/smaps", "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '/') == NULL)
			len = hi - lo;
		else if (!strncmp(line, "VmFlags:", 8) && strstr(line, " hg") && len == marked)
			found = 1;
	}
	fclose(f);
	assert_true(found);
}

static void test_strbuf(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char *s;
	size_t len;

	(void)state;
	assert_string_equal(sb.buf, "");
	assert_int_equal(strbuf__addstr(&sb, "perf"), 0);
	assert_int_equal(strbuf__addch(&sb, '.'), 0);
	assert_int_equal(strbuf__addf(&sb, "%s-%d", "data", 42), 0);
	assert_string_equal(sb.buf, "perf.data-42");
	assert_int_equal(sb.len, 12);
	strbuf__reset(&sb);
	assert_string_equal(sb.buf, "");
	assert_int_equal(strbuf__addf(&sb, "%0300d", 7), 0);
	assert_int_equal(sb.len, 300);
	s = strbuf__detach(&sb, &len);
	assert_int_equal(len, 300);
	assert_int_equal(s[299], '7');
	free(s);
	assert_string_equal(sb.buf, "");
	strbuf__release(&sb);
}

static char *read_all(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf = calloc(1, 4096);

	assert_non_null(fp);
	assert_non_null(buf);
	assert_true(fread(buf, 1, 4095, fp) < 4095);
	fclose(fp);
	return buf;
}

/* exactly n bytes of path, and nothing after them */
static char *read_file(const char *path, size_t n)
{
	FILE *fp = fopen(path, "r");
	char *buf = malloc(n + 1);

	assert_non_null(fp);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, n + 1, fp), n);
	fclose(fp);
	return buf;
}

static void test_csv_quoting_and_numbers(void **state)
{
	char dir[] = "/tmp/readperf-test-csv-XXXXXX";
	char path[256];
	struct csv c;
	char *text;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(csv__open(&c, dir, "t.csv"), 0);
	csv__str(&c, "plain");
	csv__str(&c, "a,b");
	csv__str(&c, "say \"hi\"");
	csv__str(&c, "two\nlines");
	csv__str(&c, NULL);
	csv__end_row(&c);
	csv__u64(&c, 0);
	csv__u64(&c, UINT64_MAX);
	csv__i64(&c, -42);
	csv__hex(&c, 0xABCDEFULL);
	/* 1/3 = 33.33333.. -> 33.3333; 2/3 -> 66.6667 (half up); 0/0 -> 0.0000 */
	csv__pct(&c, 1, 3);
	csv__pct(&c, 2, 3);
	csv__pct(&c, 0, 0);
	csv__pct(&c, 5, 5);
	csv__end_row(&c);
	snprintf(path, sizeof(path), "%s/t.csv", dir);
	assert_int_equal(access(path, F_OK), -1);	/* not visible before commit */
	assert_int_equal(csv__commit(&c), 0);
	text = read_all(path);
	assert_string_equal(text,
			    "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\n"
			    "0,18446744073709551615,-42,0xabcdef,33.3333,66.6667,0.0000,100.0000\n");
	free(text);
	unlink(path);
	rmdir(dir);
}

static void test_csv_abort_leaves_nothing(void **state)
{
	char dir[] = "/tmp/readperf-test-csv-XXXXXX";
	struct csv c;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(csv__open(&c, dir, "t.csv"), 0);
	csv__str(&c, "x");
	csv__abort(&c);
	assert_int_equal(rmdir(dir), 0);	/* empty: the temporary file is gone */
	assert_int_equal(csv__open(&c, "/nonexistent/dir", "t.csv"), -ENOENT);
}

/* the test's set: *.csv but mine.csv */
static int txn_owns(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && !strcmp(name + n - 4, ".csv") && strcmp(name, "mine.csv");
}

static void put_file(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

static int file_is(const char *dir, const char *name, const char *text)
{
	char path[256], buf[64] = "";
	FILE *fp;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "r");
	if (!fp)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	return !strcmp(buf, text);
}

/*
 * csv_txn's commit with last and owns: the stage's files moved in (last
 * too), then the owned regular files of dir the stage did not hold removed;
 * a file not owned and a directory of an owned name stay; abort removes nothing
 */
static void test_csv_txn_replaces(void **state)
{
	char dir[] = "/tmp/readperf-test-txn-XXXXXX", path[256];
	struct csv_txn t = { 0 };
	struct csv c;

	(void)state;
	assert_non_null(mkdtemp(dir));
	put_file(dir, "old.csv", "old\n");
	put_file(dir, "keep.csv", "before\n");
	put_file(dir, "mine.csv", "mine\n");
	put_file(dir, "notes.txt", "notes\n");
	snprintf(path, sizeof(path), "%s/sub.csv", dir);
	assert_int_equal(mkdir(path, 0777), 0);
	/* an aborted transaction removes nothing */
	assert_int_equal(csv_txn__begin(&t, dir), 0);
	t.owns = txn_owns;
	csv_txn__abort(&t);
	assert_true(file_is(dir, "old.csv", "old\n"));
	assert_int_equal(csv_txn__begin(&t, dir), 0);
	put_file(t.stage, "keep.csv", "after\n");
	assert_int_equal(csv__open(&c, t.stage, "m.csv"), 0);
	csv__str(&c, "manifest");
	csv__end_row(&c);
	assert_int_equal(csv__commit(&c), 0);
	t.last = "m.csv";
	t.owns = txn_owns;
	assert_int_equal(csv_txn__commit(&t), 0);
	assert_null(t.stage);
	assert_false(file_is(dir, "old.csv", "old\n"));
	snprintf(path, sizeof(path), "%s/old.csv", dir);
	assert_int_equal(access(path, F_OK), -1);
	assert_true(file_is(dir, "keep.csv", "after\n"));
	assert_true(file_is(dir, "m.csv", "manifest\n"));
	assert_true(file_is(dir, "mine.csv", "mine\n"));
	assert_true(file_is(dir, "notes.txt", "notes\n"));
	snprintf(path, sizeof(path), "%s/sub.csv", dir);
	assert_int_equal(rmdir(path), 0);
	for (const char *const *n = (const char *const[]){ "keep.csv", "m.csv", "mine.csv", "notes.txt", NULL }; *n; n++) {
		snprintf(path, sizeof(path), "%s/%s", dir, *n);
		assert_int_equal(unlink(path), 0);
	}
	assert_int_equal(rmdir(dir), 0);	/* nothing else: no stage left */
}

/* digits at every power of ten, pre-escaped text, raw output across buffer flushes */
static void test_csv_digits_text_raw(void **state)
{
	char dir[] = "/tmp/readperf-test-csv-XXXXXX";
	char path[256], esc[64], *text, *big;
	struct strbuf want = STRBUF_INIT;
	struct csv *c = malloc(sizeof(*c));
	uint64_t p = 1;
	size_t n, i;

	(void)state;
	assert_non_null(c);
	assert_non_null(mkdtemp(dir));
	assert_int_equal(csv__open(c, dir, "t.csv"), 0);
	for (i = 0; i < 20; i++, p *= 10) {
		csv__u64(c, p - 1);
		csv__u64(c, p);
		csv__i64(c, -(int64_t)(p - 1));
		strbuf__addf(&want, "%s%" PRIu64 ",%" PRIu64 ",%" PRId64, i ? "," : "", p - 1, p,
			     -(int64_t)(p - 1));
	}
	csv__i64(c, INT64_MIN);
	csv__hex(c, 0);
	csv__hex(c, UINT64_MAX);
	csv__end_row(c);
	strbuf__addf(&want, ",-9223372036854775808,0x0,0xffffffffffffffff\n");
	/* against printf: every bit length, its neighbours, and 20,000 numbers of every magnitude */
	for (i = 0; i < 64; i++) {
		uint64_t b = (uint64_t)1 << i;

		csv__u64(c, b - 1);
		csv__u64(c, b);
		csv__u64(c, b + 1);
		csv__hex(c, b - 1);
		csv__hex(c, b);
		csv__hex(c, b | (b >> 1));
		csv__end_row(c);
		strbuf__addf(&want, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",0x%" PRIx64 ",0x%" PRIx64 ",0x%" PRIx64 "\n",
			     b - 1, b, b + 1, b - 1, b, b | (b >> 1));
	}
	for (i = 0, p = 88172645463325252ULL; i < 20000; i++) {
		uint64_t v;

		p ^= p << 13;	/* xorshift64 */
		p ^= p >> 7;
		p ^= p << 17;
		v = p >> (i % 64);
		csv__u64(c, v);
		csv__i64(c, (int64_t)v);
		csv__hex(c, v);
		csv__end_row(c);
		strbuf__addf(&want, "%" PRIu64 ",%" PRId64 ",0x%" PRIx64 "\n", v, (int64_t)v, v);
	}
	n = csv__escape(c, esc, "x", 1);
	n += csv__escape(c, esc + n, "a\"b,c", 5);
	csv__text(c, esc, n);
	csv__text(c, "t", 1);
	csv__end_row(c);
	strbuf__addstr(&want, "x\"a\"\"b,c\",t\n");
	big = malloc(100000);
	assert_non_null(big);
	memset(big, 'y', 99999);
	big[99999] = 0;
	for (i = 0; i < 3; i++) {		/* the buffer fills, flushes, and one printf exceeds it */
		csv__puts(c, "<");
		csv__raw(c, big, 40000);
		csv__printf(c, "%s>%d\n", big, (int)i);
		strbuf__addstr(&want, "<");
		strbuf__add(&want, big, 40000);
		strbuf__addf(&want, "%s>%d\n", big, (int)i);
	}
	assert_int_equal(csv__commit(c), 0);
	snprintf(path, sizeof(path), "%s/t.csv", dir);
	text = read_file(path, want.len);
	assert_memory_equal(text, want.buf, want.len);
	free(text);
	free(big);
	unlink(path);
	rmdir(dir);

	/* a write error is kept and reported by csv__commit, as the kernel said */
	i = (size_t)open("/dev/full", O_WRONLY);
	assert_true((int)i >= 0);
	csv__open_fd(c, (int)i);
	for (n = 0; n < 100000; n++)
		csv__u64(c, n);
	assert_int_equal(csv__commit(c), -ENOSPC);
	close((int)i);
	strbuf__release(&want);
	free(c);
}

static void collect(void *ctx, enum log_level level, const char *msg)
{
	struct strbuf *sb = ctx;

	strbuf__addf(sb, "%d:%s;", (int)level, msg);
}

static void test_log_callback(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct log log = { collect, &sb };

	(void)state;
	log_msg(&log, LOG_WARN, "file %s at offset %#x", "perf.data", 0x10);
	log_msg(NULL, LOG_ERR, "dropped");
	assert_string_equal(sb.buf, "1:file perf.data at offset 0x10;");
	strbuf__release(&sb);
}

/*
 * perf stat -r's figures by hand: 1 2 3 4 5 have mean 3, M2 = 4+1+0+1+4 =
 * 10, variance 10/4 = 2.5, of the mean 2.5/5 = 0.5, sd sqrt(0.5) =
 * 0.70711, 23.570 % of the mean
 */
static void test_stats(void **state)
{
	struct stats s;

	(void)state;
	stats__init(&s);
	assert_true(stats__stddev_mean(&s) == 0);
	stats__update(&s, 4);
	assert_true(s.mean == 4);
	assert_true(stats__stddev_mean(&s) == 0);	/* one value: no spread */
	stats__init(&s);
	for (int v = 1; v <= 5; v++)
		stats__update(&s, v);
	assert_true(fabs(s.mean - 3) < 1e-12);
	assert_true(fabs(stats__stddev_mean(&s) - 0.70710678) < 1e-8);
	assert_true(fabs(stats__rel_pct(stats__stddev_mean(&s), s.mean) - 23.5702260) < 1e-6);
	assert_true(stats__rel_pct(1, 0) == 0);
}

static const char *const data_exts[] = { ".gz", ".zst", ".data", NULL };

/* names of paths[0..n) compared with want[] (and numbered[] with the names a number was given) */
static void expect_names(const char *const *paths, size_t n, const char *const *want, const char *numbered_want)
{
	char *names[16];
	unsigned char numbered[16];
	size_t i;

	assert_int_equal(pathname__unique(paths, n, data_exts, NULL, names, numbered, NULL), 0);
	for (i = 0; i < n; i++) {
		assert_string_equal(names[i], want[i]);
		assert_int_equal(numbered[i], numbered_want[i] == '1');
		free(names[i]);
	}
}

static void test_pathname_shortest_suffix(void **state)
{
	(void)state;
	/* distinct bases keep them; a fleet's perf.data named by its directory; one more level where needed */
	expect_names((const char *const[]){ "a/work.data", "b/cxx.data.gz", "/x/d1/perf.data", "d2/perf.data",
					    "h/s1/x/perf.data", "h/s2/x/perf.data" }, 6,
		     (const char *const[]){ "work", "cxx", "d1-perf", "d2-perf", "s1-x-perf", "s2-x-perf" }, "000000");
	/* a path that ends another keeps what it has; "." and "//" are no component */
	expect_names((const char *const[]){ "perf.data", "./d1//perf.data" }, 2,
		     (const char *const[]){ "perf", "d1-perf" }, "00");
	/* the same file twice, and a name NAME-2 that exists: numbers in input order, none taken twice */
	expect_names((const char *const[]){ "w/work.data", "w/work.data", "work-2.data", "./w/work.data" }, 4,
		     (const char *const[]){ "work", "work-3", "work-2", "work-4" }, "0101");
	/* sanitised: bytes outside [A-Za-z0-9._-] as '_', so "a b" and "a_b" are the same name */
	expect_names((const char *const[]){ "x y/p\xff$.data", "x_y/p__.data", "..", "/", "" }, 5,
		     (const char *const[]){ "p__", "p__-2", "profile", "profile-2", "profile-3" }, "01011");
}

/* 254-byte base names that collide: the names stay within a directory entry's 255 bytes */
static void test_pathname_long_names(void **state)
{
	char base[300], a[320], b[320];
	const char *paths[3] = { a, b, a };
	char *names[3];
	unsigned char numbered[3];
	size_t i;

	(void)state;
	memset(base, 'n', 254);
	base[254] = '\0';
	snprintf(a, sizeof(a), "d1/%s", base);
	snprintf(b, sizeof(b), "d2/%s", base);
	assert_int_equal(pathname__unique(paths, 3, data_exts, NULL, names, numbered, NULL), 0);
	for (i = 0; i < 3; i++) {
		assert_true(strlen(names[i]) <= PATHNAME_MAX);
		assert_true(strlen(names[i]) == PATHNAME_MAX);
	}
	/* d1-nnn... cut to 255; the same again numbered within 255 */
	assert_memory_equal(names[0], "d1-nnn", 6);
	assert_memory_equal(names[1], "d2-nnn", 6);
	assert_string_equal(names[2] + PATHNAME_MAX - 2, "-2");
	assert_true(numbered[2] && !numbered[0] && !numbered[1]);
	for (i = 0; i < 3; i++)
		free(names[i]);
}

/* 100,000 paths, a fleet of 50,000 hosts' perf.data and 50,000 copies of one path: named in under a second */
static void test_pathname_100k(void **state)
{
	enum { N = 100000 };
	char **paths = calloc(N, sizeof(*paths)), **names = calloc(N, sizeof(*names)), want[64];
	unsigned char *numbered = calloc(N, 1);
	struct timespec t0, t1;
	double ms;
	size_t i;

	(void)state;
	assert_true(paths && names && numbered);
	for (i = 0; i < N; i++) {
		paths[i] = malloc(64);
		if (i % 2)
			snprintf(paths[i], 64, "/fleet/d%zu/perf.data", i);
		else
			snprintf(paths[i], 64, "/same/perf.data");
	}
	/* CPU time: the machine may be loaded */
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	assert_int_equal(pathname__unique((const char *const *)paths, N, data_exts, NULL, names, numbered, NULL), 0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	printf("# 100,000 paths named in %.0f ms of CPU time\n", ms);
	assert_true(ms < 1000);
	for (i = 0; i < N; i++) {
		if (i % 2)
			snprintf(want, sizeof(want), "d%zu-perf", i);
		else if (i)
			snprintf(want, sizeof(want), "same-perf-%zu", i / 2 + 1);
		else
			snprintf(want, sizeof(want), "same-perf");
		assert_string_equal(names[i], want);
		free(names[i]);
		free(paths[i]);
	}
	free(paths);
	free(names);
	free(numbered);
}

/* names the caller's own files have (batch mode's index.csv, manifest.csv) are numbered */
static void test_pathname_reserved(void **state)
{
	static const char *const reserved[] = { "index.csv", "manifest.csv", NULL };
	const char *paths[3] = { "x/index.csv.data", "y/manifest.csv.data", "z/index.csv-2.data" };
	char *names[3];
	unsigned char numbered[3];
	int i;

	(void)state;
	assert_int_equal(pathname__unique(paths, 3, data_exts, reserved, names, numbered, NULL), 0);
	assert_string_equal(names[0], "index.csv-3");
	assert_string_equal(names[1], "manifest.csv-2");
	assert_string_equal(names[2], "index.csv-2");
	assert_true(numbered[0] && numbered[1] && !numbered[2]);
	for (i = 0; i < 3; i++)
		free(names[i]);
}

static int stop_now(void)
{
	return 1;
}

static void test_pathname_stop(void **state)
{
	const char *paths[2] = { "a/perf.data", "b/perf.data" };
	char *names[2];
	unsigned char numbered[2];

	(void)state;
	assert_int_equal(pathname__unique(paths, 2, data_exts, NULL, names, numbered, stop_now), -EINTR);
	assert_null(names[0]);
	assert_null(names[1]);
}

/* the spool's consumer: records (u32 size, u32 sequence number, bytes of it) checked in order */
struct spool_check {
	pthread_t appender;
	uint32_t next;		/* the sequence number expected */
	uint64_t bytes;		/* consumed */
	int bad;		/* a record out of order, damaged, or consumed in the appending thread */
};

static void spool_consume(void *ctx, const unsigned char *data, size_t len)
{
	struct spool_check *c = ctx;
	size_t off = 0, i;

	if (pthread_equal(pthread_self(), c->appender) || len > SPOOL_BLOCK)
		c->bad = 1;
	while (off + 8 <= len) {
		uint32_t size, seq;

		memcpy(&size, data + off, 4);
		memcpy(&seq, data + off + 4, 4);
		if (seq != c->next++ || size < 8 || off + size > len)
			c->bad = 1;
		for (i = 8; i < size && !c->bad; i++)
			if (data[off + i] != (unsigned char)(seq + i))
				c->bad = 1;
		off += (size + 7) & ~(size_t)7;
	}
	if (off != len)
		c->bad = 1;
	c->bytes += len;
}

/* 20 MB through 4 blocks of 256 KiB: the appender waits for the consumer; order and bytes kept */
static void test_spool(void **state)
{
	struct spool_check c = { .appender = pthread_self() };
	struct spool *s;
	uint64_t bytes = 0;
	uint32_t seq;
	size_t i;

	(void)state;
	assert_int_equal(spool__new(&s, spool_consume, &c), 0);
	assert_null(spool__alloc(s, SPOOL_BLOCK + 1));
	for (seq = 0; seq < 40000; seq++) {
		/* 8 to 1,007 bytes, and now and then a whole block */
		uint32_t size = seq % 5000 == 4999 ? (uint32_t)SPOOL_BLOCK : 8 + seq * 7919 % 1000;
		unsigned char *p = spool__alloc(s, size);

		assert_non_null(p);
		memcpy(p, &size, 4);
		memcpy(p + 4, &seq, 4);
		for (i = 8; i < size; i++)
			p[i] = (unsigned char)(seq + i);
		bytes += (size + 7) & ~(size_t)7;
		if (seq == 20000) {
			spool__drain(s);
			assert_int_equal(c.next, seq + 1);
			assert_int_equal(c.bytes, bytes);
		}
	}
	spool__drain(s);
	assert_int_equal(c.bad, 0);
	assert_int_equal(c.next, 40000);
	assert_int_equal(c.bytes, bytes);
	spool__delete(s);
	spool__delete(NULL);
}

/*
 * fs__rename_over: over a regular file (the exchange: the old file is gone,
 * not left at from), to a new name, over a symlink (replaced, its target
 * untouched, as rename does), and a directory at to refused with from kept
 */
static void test_fs_rename_over(void **state)
{
	char dir[] = "/tmp/readperf-test-fs-XXXXXX", a[256], b[256], t[256];
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	snprintf(t, sizeof(t), "%s/t", dir);
	put_file(dir, "a", "new");
	put_file(dir, "b", "old");
	assert_int_equal(fs__rename_over(a, b), 0);
	assert_true(file_is(dir, "b", "new"));
	assert_int_equal(lstat(a, &st), -1);
	assert_int_equal(errno, ENOENT);

	put_file(dir, "a", "newer");
	assert_int_equal(unlink(b), 0);
	assert_int_equal(fs__rename_over(a, b), 0);	/* b absent */
	assert_true(file_is(dir, "b", "newer"));
	assert_int_equal(lstat(a, &st), -1);

	put_file(dir, "t", "target");
	assert_int_equal(unlink(b), 0);
	assert_int_equal(symlink(t, b), 0);
	put_file(dir, "a", "over the link");
	assert_int_equal(fs__rename_over(a, b), 0);
	assert_int_equal(lstat(b, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_true(file_is(dir, "b", "over the link"));
	assert_true(file_is(dir, "t", "target"));

	assert_int_equal(unlink(b), 0);
	assert_int_equal(mkdir(b, 0777), 0);
	put_file(dir, "a", "kept");
	assert_int_equal(fs__rename_over(a, b), -EISDIR);
	assert_true(file_is(dir, "a", "kept"));
	assert_int_equal(lstat(b, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	rmdir(b);
	unlink(a);
	unlink(t);
	rmdir(dir);
}

/*
 * stream__copy(): every length from 0 to 80 bytes, from every source
 * alignment mod 8, lands byte for byte; the bytes up to the next multiple of
 * 8 are zero (the streamed version writes whole words) or untouched (memcpy),
 * and nothing after them is written.
 */
static void test_stream_copy(void **state)
{
	_Alignas(8) unsigned char dst[104];
	unsigned char src[96];
	size_t n, a, i;

	(void)state;
	for (i = 0; i < sizeof(src); i++)
		src[i] = (unsigned char)(i * 37 + 11);
	for (n = 0; n <= 80; n++) {
		for (a = 0; a < 8; a++) {
			memset(dst, 0xa5, sizeof(dst));
			stream__copy(dst, src + a, n);
			stream__fence();
			assert_memory_equal(dst, src + a, n);
			for (i = n; i < ((n + 7) & ~(size_t)7); i++)
				assert_true(dst[i] == 0 || dst[i] == 0xa5);
			for (i = (n + 7) & ~(size_t)7; i < sizeof(dst); i++)
				assert_int_equal(dst[i], 0xa5);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_array_push_and_grow),
		cmocka_unit_test(test_array_overflow),
		cmocka_unit_test(test_hashmap_insert_find),
		cmocka_unit_test(test_stable_array),
		cmocka_unit_test(test_u32map),
		cmocka_unit_test(test_strset),
		cmocka_unit_test(test_fs_read_fd),
		cmocka_unit_test(test_fs_rename_over),
		cmocka_unit_test(test_hashfront),
		cmocka_unit_test(test_heap_huge_pages),
		cmocka_unit_test(test_strbuf),
		cmocka_unit_test(test_csv_quoting_and_numbers),
		cmocka_unit_test(test_csv_abort_leaves_nothing),
		cmocka_unit_test(test_csv_txn_replaces),
		cmocka_unit_test(test_csv_digits_text_raw),
		cmocka_unit_test(test_log_callback),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_pathname_shortest_suffix),
		cmocka_unit_test(test_pathname_long_names),
		cmocka_unit_test(test_pathname_100k),
		cmocka_unit_test(test_pathname_reserved),
		cmocka_unit_test(test_pathname_stop),
		cmocka_unit_test(test_spool),
		cmocka_unit_test(test_stream_copy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

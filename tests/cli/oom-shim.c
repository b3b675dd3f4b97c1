/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * LD_PRELOAD shim for tests/cli/test-oom.sh: makes allocations fail.
 * Built by the test with $CC -shared -fPIC; not part of readperf.
 *
 *   OOM_FAIL_AFTER=N   malloc, calloc, realloc, strdup, strndup, asprintf
 *                      and vasprintf (and what libc builds on malloc:
 *                      getline, fopen ...) succeed N times, then every one
 *                      fails with ENOMEM
 *   OOM_ONCE=1         only the (N+1)th fails, the later ones succeed: a
 *                      failure that is swallowed shows as a wrong report
 *   OOM_OWN_ONLY=1     count and fail only the calls made straight from
 *                      the main program (readperf's own code), never those
 *                      of the libraries: libdw's __libdw_oom() and
 *                      libiberty's xmalloc_failed() exit(1) on failure,
 *                      which readperf cannot turn into exit 3
 *   OOM_COUNT=FILE     write the number of counted calls to FILE at exit
 *   OOM_MARK=FILE      create FILE at load: the shim took effect
 *
 * The real allocator is the next one (dlsym RTLD_NEXT): glibc's, or a
 * sanitizer's when the binary is built with one (then run with
 * ASAN_OPTIONS=verify_asan_link_order=0, as the shim comes first).  What
 * dlsym itself allocates comes from a static arena.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static int resolving;
static char arena[1 << 14] __attribute__((aligned(16)));
static size_t arena_used;

static long fail_after = -1;	/* -1: never */
static int own_only, once;
static long calls;
static uintptr_t main_lo, main_hi;	/* the main program's mapped range */
static const char *count_file;

static int find_main(struct dl_phdr_info *info, size_t size, void *data)
{
	int i;

	(void)size;
	(void)data;
	/* the first object is the main program */
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;

		if (ph->p_type != PT_LOAD)
			continue;
		if (!main_lo || lo < main_lo)
			main_lo = lo;
		if (hi > main_hi)
			main_hi = hi;
	}
	return 1;
}

__attribute__((constructor))
static void shim_init(void)
{
	const char *v = getenv("OOM_FAIL_AFTER"), *mark = getenv("OOM_MARK");

	if (v && *v)
		fail_after = strtol(v, NULL, 10);
	own_only = getenv("OOM_OWN_ONLY") != NULL;
	once = getenv("OOM_ONCE") != NULL;
	count_file = getenv("OOM_COUNT");
	if (own_only)
		dl_iterate_phdr(find_main, NULL);
	if (mark) {
		int fd = open(mark, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

		if (fd >= 0)
			close(fd);
	}
}

__attribute__((destructor))
static void shim_fini(void)
{
	char buf[32];
	int fd, n;

	if (!count_file)
		return;
	fd = open(count_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	n = snprintf(buf, sizeof(buf), "%ld\n", __atomic_load_n(&calls, __ATOMIC_RELAXED));
	if (n > 0 && write(fd, buf, (size_t)n) < 0)
		n = 0;
	close(fd);
}

static void resolve(void)
{
	if (real_malloc || resolving)
		return;
	resolving = 1;
	real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
	real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
	real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
	resolving = 0;
}

/* while dlsym runs: zeroed static memory, never freed */
static void *arena_alloc(size_t size)
{
	void *p;

	size = (size + 15) & ~(size_t)15;
	if (size > sizeof(arena) - arena_used)
		return NULL;
	p = arena + arena_used;
	arena_used += size;
	return p;
}

static void *do_malloc(size_t size)
{
	resolve();
	return real_malloc ? real_malloc(size) : arena_alloc(size);
}

/* 1: this call fails */
static int should_fail(void *caller)
{
	uintptr_t c = (uintptr_t)caller;
	long n;

	if (own_only && (c < main_lo || c >= main_hi))
		return 0;
	/* the reading, analysis and writing threads allocate at once: no count lost */
	n = __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
	if (once)
		return fail_after >= 0 && n == fail_after + 1;
	return fail_after >= 0 && n > fail_after;
}

void *malloc(size_t size)
{
	if (should_fail(__builtin_return_address(0))) {
		errno = ENOMEM;
		return NULL;
	}
	return do_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	if (should_fail(__builtin_return_address(0))) {
		errno = ENOMEM;
		return NULL;
	}
	resolve();
	if (!real_calloc)
		return n && size > SIZE_MAX / n ? NULL : arena_alloc(n * size);
	return real_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	/* realloc(p, 0) frees: not an allocation that can fail */
	if (size && should_fail(__builtin_return_address(0))) {
		errno = ENOMEM;
		return NULL;
	}
	resolve();
	return real_realloc(p, size);
}

/* the string functions too: called from readperf, their malloc's caller would be libc */
char *strdup(const char *str)
{
	size_t n = strlen(str) + 1;
	char *p;

	if (should_fail(__builtin_return_address(0))) {
		errno = ENOMEM;
		return NULL;
	}
	p = do_malloc(n);
	return p ? memcpy(p, str, n) : NULL;
}

char *strndup(const char *str, size_t max)
{
	size_t n = strnlen(str, max);
	char *p;

	if (should_fail(__builtin_return_address(0))) {
		errno = ENOMEM;
		return NULL;
	}
	p = do_malloc(n + 1);
	if (!p)
		return NULL;
	memcpy(p, str, n);
	p[n] = '\0';
	return p;
}

static int shim_vasprintf(void *caller, char **out, const char *fmt, va_list ap)
{
	va_list aq;
	char *p;
	int n;

	if (should_fail(caller)) {
		errno = ENOMEM;
		return -1;
	}
	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return -1;
	p = do_malloc((size_t)n + 1);
	if (!p)
		return -1;
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	*out = p;
	return n;
}

int vasprintf(char **out, const char *fmt, va_list ap)
{
	return shim_vasprintf(__builtin_return_address(0), out, fmt, ap);
}

int asprintf(char **out, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = shim_vasprintf(__builtin_return_address(0), out, fmt, ap);
	va_end(ap);
	return n;
}

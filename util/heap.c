/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * glibc's malloc serves small allocations from the brk heap and extends it by
 * the request plus M_TOP_PAD; one early extension by `reserve` bytes makes a
 * span that the kernel can back with huge pages once it is marked.
 */
#include "util/heap.h"

#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define HUGE_PAGE ((uintptr_t)2 << 20)

size_t heap__prefer_huge_pages(size_t reserve)
{
	void *held[64];
	uintptr_t lo, hi;
	size_t n = 0;

	if (reserve > INT32_MAX / 2)
		reserve = INT32_MAX / 2;
	/* one arena: a second thread's blocks come from this heap too, not from 4 KiB pages of its own */
	mallopt(M_ARENA_MAX, 1);
	mallopt(M_TOP_PAD, (int)reserve);
	mallopt(M_TRIM_THRESHOLD, (int)reserve * 2);
	lo = (uintptr_t)sbrk(0);
	hi = lo;
	/*
	 * allocations below the mmap threshold (128 KiB) until one does not fit
	 * the heap's top and extends it by itself and the pad
	 */
	while (hi == lo && n < sizeof(held) / sizeof(held[0])) {
		held[n] = malloc(64 << 10);
		if (!held[n])
			break;
		*(volatile char *)held[n++] = 0;	/* not optimised away with the free below */
		hi = (uintptr_t)sbrk(0);
	}
	while (n)
		free(held[--n]);
	if (lo == (uintptr_t)-1 || hi == (uintptr_t)-1 || hi <= lo)
		return 0;
	lo = (lo + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	hi &= ~(HUGE_PAGE - 1);
	if (hi <= lo || madvise((void *)lo, hi - lo, MADV_HUGEPAGE))
		return 0;
	return hi - lo;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The heap on transparent huge pages.  Each first touch of a 4 KiB page is a
 * page fault, and in a virtual machine with nested paging one costs ~15 us:
 * the 5,000 pages an analysis of a 46 MiB recording touches (kallsyms' table,
 * the queue's blocks, the hash tables) took a quarter of its run time.  A
 * 2 MiB huge page is one fault.
 */
#ifndef UTIL_HEAP_H
#define UTIL_HEAP_H

#include <stddef.h>

/*
 * Called once at startup, before any thread: malloc grows the brk heap
 * `reserve` bytes ahead of need (and does not give it back below
 * 2 * reserve), and that first span is marked MADV_HUGEPAGE (effective when
 * /sys/kernel/mm/transparent_hugepage/enabled is "always" or "madvise").
 * Allocations glibc maps on their own (128 KiB and more, at first) and the
 * heap beyond the span keep 4 KiB pages: a huge page is resident whole, and
 * the largest tables (160k paths interned) would cost ~10% more memory.  A
 * hint only: where the C library's malloc is replaced (sanitizers) or the
 * kernel refuses, nothing changes.  Returns the bytes marked (0: none).
 */
size_t heap__prefer_huge_pages(size_t reserve);

#endif

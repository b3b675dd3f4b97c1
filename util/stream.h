/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Streaming stores: memory one thread fills and a thread on another core
 * reads, written past the writer's cache.  A plain store into a line the
 * other core read before waits until that core gives the line up; where
 * blocks go round between two threads (the ordered queue's copies and
 * batches, the spool's blocks) that wait was most of the writer's time.
 * Streamed bytes go to memory, where the reader finds them.  stream__fence()
 * orders them before the store that hands them over (a mutex's lock then
 * publishes them).  x86-64 only; elsewhere, and in sanitizer builds (which
 * check memcpy and not the intrinsics), a memcpy.
 */
#ifndef UTIL_STREAM_H
#define UTIL_STREAM_H

#include <stddef.h>
#include <string.h>

#if defined(__x86_64__) && !defined(READPERF_SANITIZE)
#include <immintrin.h>

/*
 * n bytes from src to dst a word at a time: dst 8-byte aligned with room for
 * n rounded up to 8 (the last word's bytes past n are written as zeros)
 */
static inline void stream__copy(void *dst, const void *src, size_t n)
{
	long long *out = dst, w, v;
	const unsigned char *in = src, *end = in + (n & ~(size_t)15);

	/* two words a turn: a sample of the 1 GiB bench file is 5 */
	for (; in < end; in += 16, out += 2) {
		memcpy(&w, in, 8);
		memcpy(&v, in + 8, 8);
		_mm_stream_si64(out, w);
		_mm_stream_si64(out + 1, v);
	}
	if (n & 8) {
		memcpy(&w, in, 8);
		_mm_stream_si64(out++, w);
		in += 8;
	}
	if (n & 7) {
		w = 0;
		memcpy(&w, in, n & 7);
		_mm_stream_si64(out, w);
	}
}

static inline void stream__fence(void)
{
	_mm_sfence();
}
#else
static inline void stream__copy(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
}

static inline void stream__fence(void)
{
}
#endif

#endif

// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * A caller's inlined functions for --inline: main calls work() from
 * around(), inlined into main; the instruction after the call stores
 * work's result in after(), inlined into around().  So the call site
 * (return address - 1) is main -> around (inlined), while the return
 * address itself reads main -> around (inlined) -> after (inlined), which
 * is not where the call is.
 */
#include <stdio.h>
#include <stdlib.h>

static volatile long sink, calls;

__attribute__((noinline)) void report(long x)
{
	printf("%ld\n", x);
}

/* not a leaf and no tail call (it calls report, then counts), so that it has a frame for -g */
__attribute__((noinline)) long work(long n)
{
	long i, x = 1;

	for (i = 0; i < n; i++)
		x = x * 6364136223846793005L + (x >> 7) + i;
	report(x);
	calls++;
	return x;
}

static inline __attribute__((always_inline)) long after(long v)
{
	sink = v;
	return v & 1;
}

static inline __attribute__((always_inline)) long around(long n)
{
	return after(work(n));
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 300000000;

	printf("%ld\n", around(n));
	return 0;
}

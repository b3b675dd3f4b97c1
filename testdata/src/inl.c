// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Inlined frames for --inline: outer() (not inlined) calls middle(), which
 * calls inner_math(); both are always_inline, so at -O2 every sample in the
 * loop is at an address of outer() whose debug info says
 * outer -> middle (inlined) -> inner_math (inlined).
 */
#include <stdio.h>
#include <stdlib.h>

static inline __attribute__((always_inline)) double inner_math(double x, long n)
{
	long i;

	for (i = 0; i < n; i++)
		x = x * 1.0000001 + 0.5 / (x + 1.0);
	return x;
}

static inline __attribute__((always_inline)) double middle(double x, long n)
{
	return inner_math(x, n) * 0.5 + 1.0;
}

__attribute__((noinline)) void report(double x)
{
	printf("%f\n", x);
}

static volatile int calls;

/* not a leaf and no tail call (it calls report, then counts), so that it has a frame for -g */
__attribute__((noinline)) void outer(double x, long n)
{
	report(middle(x, n) + 2.0);
	calls++;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 60000000;

	outer(1.0, n);
	return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * regress: the before/after pair for readperf diff.  compute_a and compute_b
 * do the same loop; `regress 2` makes compute_b do twice the work of
 * `regress 1` while compute_a is unchanged, so compute_b takes twice as long
 * and compute_a the same time (diff: compute_b ratio ~2, compute_a ~1).
 * Usage: regress [B_FACTOR]   (default 1)
 */
#include <stdio.h>
#include <stdlib.h>

static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
	x ^= x >> 13;
	x *= 0x9e3779b97f4a7c15UL;
	return x ^ (x >> 29);
}

__attribute__((noipa)) unsigned long compute_a(unsigned long n)
{
	unsigned long acc = 1;

	for (unsigned long i = 0; i < n; i++)
		acc = mix(acc + i);
	return acc;
}

__attribute__((noipa)) unsigned long compute_b(unsigned long n)
{
	unsigned long acc = 7;

	for (unsigned long i = 0; i < n; i++)
		acc = mix(acc + i);
	return acc;
}

int main(int argc, char **argv)
{
	unsigned long factor = argc > 1 ? strtoul(argv[1], NULL, 10) : 1;
	unsigned long unit = 2000000UL;
	unsigned long r = 0;

	for (int round = 0; round < 20; round++) {
		r += compute_a(3 * unit);
		r += compute_b(2 * unit * factor);
	}
	printf("%lu\n", r & 1);
	return 0;
}

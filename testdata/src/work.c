/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * work: single-threaded test program for readperf recordings.
 * Three hot functions with clearly different shares of the run time
 * (about 50 %, 30 %, 20 %: iteration counts 5:3:2 of the same loop body),
 * each calling small always-inline helpers so that source lines of inlined
 * code show up in the samples. Deterministic: no input, no randomness.
 * Usage: work [SCALE]   (SCALE in percent of the default length, default 100)
 */
#include <stdio.h>
#include <stdlib.h>

static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
	x ^= x >> 13;
	x *= 0x9e3779b97f4a7c15UL;
	return x ^ (x >> 29);
}

static inline __attribute__((always_inline)) unsigned long rotate(unsigned long x, int r)
{
	return (x << r) | (x >> (64 - r));
}

__attribute__((noipa)) unsigned long hot_big(unsigned long n)
{
	unsigned long acc = 1;

	for (unsigned long i = 0; i < n; i++)
		acc = mix(acc + i);
	return acc;
}

__attribute__((noipa)) unsigned long hot_medium(unsigned long n)
{
	unsigned long acc = 3;

	for (unsigned long i = 0; i < n; i++)
		acc = rotate(mix(acc ^ i), 7);
	return acc;
}

__attribute__((noipa)) unsigned long hot_small(unsigned long n)
{
	unsigned long acc = 5;

	for (unsigned long i = 0; i < n; i++)
		acc = mix(acc) + rotate(i, 11);
	return acc;
}

int main(int argc, char **argv)
{
	unsigned long scale = argc > 1 ? strtoul(argv[1], NULL, 10) : 100;
	unsigned long unit = 1000000UL * scale / 100;
	unsigned long r = 0;

	for (int round = 0; round < 25; round++) {
		r += hot_big(5 * unit);
		r += hot_medium(3 * unit);
		r += hot_small(2 * unit);
	}
	printf("work %lu\n", r);
	return 0;
}

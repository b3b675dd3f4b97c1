/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * diffbuild: the two builds of tests/cli/test-diff-builds.sh and of
 * tests/bench/diff-noise.sh.  hot and leaf take a constant GCC specialises
 * (hot.constprop.0, leaf.constprop.0 at -O2).  -DRENUMBER adds calls of hot
 * with another constant after the others in main's loop, taken only with
 * two arguments: built with -fipa-cp-clone (GCC 12) hot gets two clones,
 * numbered in the order GCC meets them, hot.constprop.0 for the new
 * constant (never run) and hot.constprop.1 for the one that does the work,
 * so the two builds name the same function with different clone numbers.
 * -DHOT=2 gives hot twice the iterations, -DDEEP=3 gives deep (called from
 * mid only) three times the iterations, leaf stays the same; small does
 * SMALL/1000 of a unit per round (100: about 19% of the samples; the noise
 * script's 10 and 13: about 2%, and 1.3 times that work).
 * Usage: diffbuild [UNIT]   (iterations per unit of work, default 4000000)
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef HOT
#define HOT 1
#endif
#ifndef DEEP
#define DEEP 1
#endif
#ifndef SMALL
#define SMALL 100
#endif
/*
 * -DROUNDS=N: N rounds, each doing all its work (u opaque to the compiler).  Without
 * it GCC calls hot and leaf (whose results it can tell depend on their arguments
 * only) once for main's 10 rounds, while mid and small (noipa) run in each: hot runs
 * as one block and leaf as another, and a change of the machine's speed between the
 * two moves their ratio.  With ROUNDS, mid and small do 10 times a round's work, so
 * the shares stay those of the build without (test-diff-builds: -DROUNDS=1000).
 */
#ifdef ROUNDS
#define OPAQUE(x) __asm__ volatile("" : "+r"(x))
#define REPEATED 10
#else
#define ROUNDS 10
#define OPAQUE(x) ((void)0)
#define REPEATED 1
#endif

static unsigned long mix(unsigned long x)
{
	x ^= x >> 13;
	x *= 0x9e3779b97f4a7c15UL;
	return x ^ (x >> 29);
}

__attribute__((noinline)) static unsigned long hot(unsigned long n, unsigned long k)
{
	unsigned long a = k;

	for (unsigned long i = 0; i < n; i++)
		a = mix(a + i * k);
	return a;
}

__attribute__((noinline)) static unsigned long leaf(unsigned long n, unsigned long k)
{
	unsigned long a = k;

	for (unsigned long i = 0; i < n; i++)
		a = mix(a + i + k);
	return a;
}

/* a call in deep's loop: deep is no leaf, so it keeps its frame pointer (mid shows in -g stacks) */
__attribute__((noipa)) unsigned long tick(unsigned long a)
{
	return a + 1;
}

__attribute__((noipa)) unsigned long small(unsigned long n)
{
	unsigned long a = 5;

	for (unsigned long i = 0; i < n; i++)
		a = mix(a - i);
	return a;
}

__attribute__((noipa)) unsigned long deep(unsigned long n)
{
	unsigned long a = 11;

	for (unsigned long i = 0; i < n; i++) {
		a = mix(a ^ i);
		if (!(i & 4095))
			a = tick(a);
	}
	return a;
}

__attribute__((noipa)) unsigned long mid(unsigned long n)
{
	return deep(n * DEEP) + 1;
}

int main(int argc, char **argv)
{
	unsigned long u = argc > 1 ? strtoul(argv[1], NULL, 10) : 4000000, r = 0;

	for (int round = 0; round < ROUNDS; round++) {
		OPAQUE(u);
		r += hot(u * HOT, 3) + hot(u * HOT + 1, 3);
		r += leaf(u, 7) + leaf(u + 1, 7);
		r += mid(u / 32 * REPEATED);
		r += small(u * SMALL / 1000 * REPEATED);
#ifdef RENUMBER
		if (argc > 2)
			r += hot(u, 5) + hot(u + 1, 5);
#endif
	}
	printf("%lu\n", r & 1);
	return 0;
}

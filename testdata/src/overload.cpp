/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * overload: three C++ overloads of one name, ns::simplify(int),
 * ns::simplify(double) and ns::simplify(long, long), for
 * tests/cli/test-overloads.sh.  perf and readperf demangle them without the
 * parameter list (perf does unless -v), so all three are "ns::simplify":
 * perf report --sort sym keys a row by the symbol's address (three rows),
 * readperf by (dso, name) (one row, their sums).  noipa: GCC neither
 * inlines nor merges them.  Work per round 5:3:2.
 * Usage: overload [ROUNDS]   (default 2000)
 */
#include <cstdio>
#include <cstdlib>

namespace ns {

__attribute__((noipa)) unsigned long simplify(int n)
{
	unsigned long a = (unsigned long)n;

	for (int i = 0; i < 5 * 20000; i++)
		a = a * 6364136223846793005UL + 1442695040888963407UL;
	return a;
}

__attribute__((noipa)) unsigned long simplify(double x)
{
	unsigned long a = (unsigned long)x;

	for (int i = 0; i < 3 * 20000; i++)
		a = (a ^ (a >> 7)) * 0x9e3779b97f4a7c15UL;
	return a;
}

__attribute__((noipa)) unsigned long simplify(long p, long q)
{
	unsigned long a = (unsigned long)(p ^ q);

	for (int i = 0; i < 2 * 20000; i++)
		a = (a + 0x632be59bd9b4e019UL) * 3;
	return a;
}

}	/* namespace ns */

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 2000;
	unsigned long s = 0;

	for (long r = 0; r < rounds; r++)
		s += ns::simplify((int)r) + ns::simplify((double)r) + ns::simplify(r, 7L);
	printf("%lu\n", s & 1);
	return 0;
}

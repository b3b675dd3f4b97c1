/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * static: statically linked test program (ET_EXEC, no shared objects, no
 * dynamic loader). Two hot functions, static_hot about 70 % and
 * static_warm about 27 %.
 * Usage: static [SCALE]
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noipa)) unsigned long static_hot(unsigned long n)
{
	unsigned long acc = 23;

	for (unsigned long i = 0; i < n; i++)
		acc = (acc + i) * 2862933555777941757UL;
	return acc;
}

__attribute__((noipa)) unsigned long static_warm(unsigned long n)
{
	unsigned long acc = 29;

	for (unsigned long i = 0; i < n; i++)
		acc ^= (acc >> 7) + i * 3;
	return acc;
}

int main(int argc, char **argv)
{
	unsigned long scale = argc > 1 ? strtoul(argv[1], NULL, 10) : 100;
	unsigned long n = 100000000UL * scale / 100;
	unsigned long r;

	r = static_hot(2 * n);
	r += static_warm(n);
	printf("static %lu\n", r);
	return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * shlib: test program whose hot code is in libhot.so (lib_hash about 80 %,
 * lib_sum about 10 %) with a small share in the executable (main_spin).
 * Usage: shlib [SCALE]
 */
#include <stdio.h>
#include <stdlib.h>

unsigned long lib_hash(unsigned long n);
unsigned long lib_sum(unsigned long n);

__attribute__((noipa)) unsigned long main_spin(unsigned long n)
{
	unsigned long acc = 19;

	for (unsigned long i = 0; i < n; i++)
		acc = acc * 31 + i;
	return acc;
}

int main(int argc, char **argv)
{
	unsigned long scale = argc > 1 ? strtoul(argv[1], NULL, 10) : 100;
	unsigned long n = 100000000UL * scale / 100;
	unsigned long r;

	r = lib_hash(2 * n);
	r += lib_sum(n);
	r += main_spin(n / 4);
	printf("shlib %lu\n", r);
	return 0;
}

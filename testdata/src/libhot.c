/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libhot.so: shared library for the shlib test program. Its hot code runs
 * in a mapping with a non-zero load address, found through the ELF program
 * headers of a shared object.
 */
unsigned long lib_hash(unsigned long n);
unsigned long lib_sum(unsigned long n);

unsigned long lib_hash(unsigned long n)
{
	unsigned long h = 0xcbf29ce484222325UL;

	for (unsigned long i = 0; i < n; i++)
		h = (h ^ (i & 0xff)) * 0x100000001b3UL;
	return h;
}

unsigned long lib_sum(unsigned long n)
{
	unsigned long s = 0;

	for (unsigned long i = 0; i < n; i++)
		s += (i * i) >> 3;
	return s;
}

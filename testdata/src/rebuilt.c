/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * rebuilt: a program recorded, then rebuilt (VERSION 2) so that the binary at
 * its path no longer has the recorded build id; the recorded one (VERSION 1)
 * is kept in testdata/buildid-cache as perf record keeps it in ~/.debug.
 */
#include <stdio.h>

#ifndef VERSION
#define VERSION 1
#endif

__attribute__((noipa)) unsigned long rebuilt_hot(unsigned long n)
{
	unsigned long acc = VERSION;

	for (unsigned long i = 0; i < n; i++)
		acc = (acc ^ (acc >> 13)) * 0x9e3779b97f4a7c15UL + i;
	return acc;
}

__attribute__((noipa)) unsigned long rebuilt_cold(unsigned long n)
{
	return rebuilt_hot(n / 4) + VERSION;
}

int main(void)
{
	printf("%lu\n", (rebuilt_hot(200000000UL) + rebuilt_cold(200000000UL)) & 1);
	return 0;
}

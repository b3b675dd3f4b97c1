/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * nofp: built -O2 -fomit-frame-pointer, so only DWARF unwinding (perf record
 * --call-graph dwarf) finds its stacks: main -> outer -> middle -> leaf_a/leaf_b,
 * two threads (worker runs leaf_b through a shared library call, libnofp.so's
 * lib_spin), to be compared with perf report --children.
 */
#include <pthread.h>
#include <stdio.h>

unsigned long lib_spin(unsigned long n);

__attribute__((noinline)) unsigned long leaf_a(unsigned long n)
{
	unsigned long acc = 3;

	for (unsigned long i = 0; i < n; i++)
		acc = (acc ^ (acc >> 11)) * 0x9e3779b97f4a7c15UL + i;
	return acc;
}

__attribute__((noinline)) unsigned long leaf_b(unsigned long n)
{
	return lib_spin(n) + 1;
}

__attribute__((noinline)) unsigned long middle(unsigned long n, int which)
{
	return which ? leaf_b(n) : leaf_a(n);
}

__attribute__((noinline)) unsigned long outer(unsigned long n, int which)
{
	return middle(n, which) ^ n;
}

static void *worker(void *arg)
{
	unsigned long *r = arg;

	*r = outer(120000000UL, 1);
	return NULL;
}

int main(void)
{
	pthread_t t;
	unsigned long r = 0, s;

	pthread_create(&t, NULL, worker, &r);
	s = outer(200000000UL, 0);
	pthread_join(t, NULL);
	printf("%lu\n", (r ^ s) & 1);
	return 0;
}

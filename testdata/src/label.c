/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * label: a zero-size global label (label_mid) in the middle of a sized
 * function's hot loop, as JIT builtins carry them (node's
 * construct_stub_create_deopt_addr inside Builtins_JSConstructStubGeneric).
 * perf attributes the samples after the label to the sized function.
 */
#include <stdio.h>

__attribute__((noipa)) unsigned long labelled(unsigned long n)
{
	unsigned long acc = 1;

	for (unsigned long i = 0; i < n; i++) {
		acc ^= acc >> 13;
		acc *= 0x9e3779b97f4a7c15UL;
		__asm__ volatile(".globl label_mid\nlabel_mid:" ::: "memory");
		acc ^= acc >> 29;
		acc += i;
	}
	return acc;
}

int main(void)
{
	printf("%lu\n", labelled(300000000UL) & 1);
	return 0;
}

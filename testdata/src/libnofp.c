/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libnofp.so: nofp's shared library, also without frame pointers */
__attribute__((noinline)) static unsigned long lib_step(unsigned long acc, unsigned long i)
{
	return (acc ^ (acc >> 7)) * 0xff51afd7ed558ccdUL + i;
}

unsigned long lib_spin(unsigned long n)
{
	unsigned long acc = 5;

	for (unsigned long i = 0; i < n; i++)
		acc = lib_step(acc, i);
	return acc;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * deep: stacks of many depths for quality.csv.  Round i recurses to depth
 * 1 + (i * 7) % 48 through descend(), each frame with 64 bytes of locals,
 * and spins at the bottom; built without frame pointers and recorded with
 * --call-graph dwarf,1024 the 1 KiB stack copy holds only the shallow stacks
 * whole, so the deeper ones do not unwind to main and the thread root.
 */
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noipa)) static unsigned long spin(unsigned long n)
{
	unsigned long x = n, i;

	for (i = 0; i < n; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

__attribute__((noipa)) static unsigned long descend(int depth)
{
	volatile char pad[64];
	unsigned long r;

	pad[0] = (char)depth;
	if (depth <= 0)
		return spin(20000);
	r = descend(depth - 1);
	return r + (unsigned long)pad[0];	/* no tail call: every level keeps its frame */
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 30000, i;

	for (i = 0; i < rounds; i++)
		sink += descend(1 + (i * 7) % 48);
	return 0;
}

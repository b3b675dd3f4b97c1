/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * forkexec: fork + exec test program for readperf recordings. The parent
 * forks; the child runs parent_spin briefly (maps inherited through FORK),
 * then execs /readperf-testdata/bin/work 30 (exec replaces the maps, COMM
 * changes); the parent runs parent_spin and waits for the child.
 * Usage: forkexec [SCALE]
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noipa)) unsigned long parent_spin(unsigned long n)
{
	unsigned long acc = 17;

	for (unsigned long i = 0; i < n; i++)
		acc = (acc ^ i) * 0x100000001b3UL;
	return acc;
}

int main(int argc, char **argv)
{
	unsigned long scale = argc > 1 ? strtoul(argv[1], NULL, 10) : 100;
	unsigned long n = 200000000UL * scale / 100;
	unsigned long r;
	int status = 0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		r = parent_spin(n / 8);
		if (r == 42)
			puts("unlikely");
		execl("/readperf-testdata/bin/work", "work", "30", (char *)NULL);
		_exit(127);
	}
	r = parent_spin(n);
	waitpid(pid, &status, 0);
	printf("forkexec %lu %d\n", r, WEXITSTATUS(status));
	return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * execloop: fork and exec test program for --call-graph dwarf recordings.
 * `execloop N` forks N children one after the other, each execs
 * /readperf-testdata/bin/execloop 0 (which returns at once), and waits for
 * it.  Most of the time goes to execve, and a sample taken there after the
 * kernel switched to the new program's memory has the old program's user
 * registers but no user stack copy (dyn_size 0: the old stack pointer is not
 * mapped any more); so has a fault that grows the stack.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long i, n = argc > 1 ? strtol(argv[1], NULL, 10) : 0;

	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("execloop: fork");
			return 1;
		}
		if (pid == 0) {
			execl("/readperf-testdata/bin/execloop", "execloop", "0", (char *)NULL);
			perror("execloop: exec");
			_exit(127);
		}
		if (waitpid(pid, NULL, 0) != pid)
			return 1;
	}
	return 0;
}

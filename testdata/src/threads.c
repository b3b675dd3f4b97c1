/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * threads: pthreads test program for readperf recordings. The main thread
 * starts three workers (two run spin_a, one runs spin_b with half the work),
 * then does a little work itself (spin_main) and joins them. Every thread has
 * its own tid in the samples; all share the process's maps.
 * Usage: threads [SCALE]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct job {
	unsigned long n;
	unsigned long result;
};

__attribute__((noipa)) unsigned long spin_a(unsigned long n)
{
	unsigned long acc = 7;

	for (unsigned long i = 0; i < n; i++)
		acc = acc * 6364136223846793005UL + i;
	return acc;
}

__attribute__((noipa)) unsigned long spin_b(unsigned long n)
{
	unsigned long acc = 11;

	for (unsigned long i = 0; i < n; i++)
		acc ^= (acc << 5) + (acc >> 3) + i;
	return acc;
}

__attribute__((noipa)) unsigned long spin_main(unsigned long n)
{
	unsigned long acc = 13;

	for (unsigned long i = 0; i < n; i++)
		acc += (acc * i) >> 7;
	return acc;
}

static void *run_a(void *arg)
{
	struct job *j = arg;

	j->result = spin_a(j->n);
	return NULL;
}

static void *run_b(void *arg)
{
	struct job *j = arg;

	j->result = spin_b(j->n);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long scale = argc > 1 ? strtoul(argv[1], NULL, 10) : 100;
	unsigned long n = 200000000UL * scale / 100;
	struct job jobs[3] = { { n, 0 }, { n, 0 }, { n / 2, 0 } };
	pthread_t tids[3];
	unsigned long r;

	pthread_create(&tids[0], NULL, run_a, &jobs[0]);
	pthread_create(&tids[1], NULL, run_a, &jobs[1]);
	pthread_create(&tids[2], NULL, run_b, &jobs[2]);
	r = spin_main(n / 4);
	for (int i = 0; i < 3; i++) {
		pthread_join(tids[i], NULL);
		r += jobs[i].result;
	}
	printf("threads %lu\n", r);
	return 0;
}

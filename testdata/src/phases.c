// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * Alternates a CPU phase and a sleeping phase for the time/off-CPU reports:
 * a thread named "phases" runs 5 rounds of 300 ms of arithmetic in
 * compute_phase() then 300 ms of nanosleep() in sleep_phase(); the main
 * thread waits for it in pthread_join. At the end the program prints the
 * time it measured itself asleep (CLOCK_MONOTONIC around each nanosleep):
 * "phases: slept N ns in M sleeps".
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ROUNDS 5
#define PHASE_NS 300000000LL

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static volatile double sink;

__attribute__((noinline)) static void compute_phase(void)
{
	int64_t end = now_ns() + PHASE_NS;
	double x = 1.0;

	while (now_ns() < end) {
		int i;

		for (i = 0; i < 10000; i++)
			x = x * 1.0000001 + 0.5 / (x + 1.0);
	}
	sink = x;
}

__attribute__((noinline)) static int64_t sleep_phase(void)
{
	struct timespec ts = { 0, PHASE_NS };
	int64_t t0 = now_ns();

	nanosleep(&ts, NULL);
	return now_ns() - t0;
}

static void *phases(void *arg)
{
	int64_t *slept = arg;
	int r;

	pthread_setname_np(pthread_self(), "phases");
	for (r = 0; r < ROUNDS; r++) {
		compute_phase();
		*slept += sleep_phase();
	}
	return NULL;
}

int main(void)
{
	pthread_t t;
	int64_t slept = 0;

	if (pthread_create(&t, NULL, phases, &slept))
		return 1;
	pthread_join(t, NULL);
	printf("phases: slept %lld ns in %d sleeps\n", (long long)slept, ROUNDS);
	return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helper threads that give way to the analysis thread. */
#ifndef UTIL_THREAD_H
#define UTIL_THREAD_H

#include <pthread.h>
#include <sched.h>

/*
 * The calling thread named name (at most 15 bytes: top -H, perf's comm)
 * and (Linux schedules threads, not processes) as
 * SCHED_BATCH: the scheduler does not let it preempt a running thread when
 * it wakes up.  For the threads that feed or drain the analysis (the
 * reader, the overview writer, the kallsyms parser): on two CPUs their
 * wake-ups preempted the analysis thread, the run's critical path, some
 * 300 times a run.  Scheduling only: the work and its order are unchanged.
 * A refusal (a seccomp filter, say) changes nothing but the speed.
 */
static inline void thread__give_way(const char *name)
{
	struct sched_param p = { .sched_priority = 0 };

	(void)pthread_setname_np(pthread_self(), name);
	(void)sched_setscheduler(0, SCHED_BATCH, &p);
}

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The two capture runs behind `readperf record` and `readperf stat`.
 *
 * recorder__run(): start the command stopped on a pipe (or watch cpus / an
 * existing process), open the events, mmap one ring per cpu, write attrs
 * and features through perffile/writer.h, synthesize COMM/FORK/MMAP2 of
 * tasks that already run, then poll the rings and copy every record into the
 * output with a FINISHED_ROUND after each pass.  At the end the DSOs that
 * got samples (or callchain entries) get their BUILD_ID entries.  SIGINT,
 * SIGTERM, SIGHUP and SIGCHLD are blocked for the run and read from a
 * signalfd in the same poll, so no global flag is needed.
 *
 * counter__run(): start the command, count the events while it runs and
 * read the sums when it exits; with an interval, also what each interval
 * counted (perf stat -I), the last one ending at the exit.  SIGINT and SIGQUIT are blocked for the run,
 * so Ctrl-C reaches only the command (as with perf stat).
 *
 * Follows tools/perf/builtin-record.c (record__mmap_read_all,
 * record__synthesize, perf_evlist__prepare_workload) and builtin-stat.c.
 * Both return 0 or a negative errno and explain failures through the log;
 * they never print.
 */
#ifndef PERFFILE_RECORDER_H
#define PERFFILE_RECORDER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>

#include "util/log.h"
#include "perffile/capture/capture.h"

struct record_opts {
	/*
	 * Borrowed for the run; recorder__run() configures its attrs for
	 * sampling (capture_evlist__config), so it must hold at least one event.
	 */
	struct capture_evlist *events;
	/* target, pid, cpu_list, period/freq, callchain, mmap_pages; mode is ignored */
	struct capture_opts capture;
	/*
	 * NULL-terminated command to start and record (borrowed), or NULL.
	 * With target CAPTURE_TARGET_CMD it is required and is what is
	 * recorded; with -a/-C/-p/-t it only bounds the run: the capture ends
	 * when it exits.
	 */
	char *const *argv;
	int out_fd;		/* borrowed: a seekable file, or a pipe when pipe is set */
	int pipe;		/* write perf's pipe format (stream) instead of a PERFILE2 file */
	const char *out_name;	/* for messages ("perf.data", "stdout") */
	const char *version;	/* VERSION feature, or NULL */
	int cmdline_argc;	/* CMDLINE feature: the words as given (program name first) */
	const char *const *cmdline;
	/*
	 * The build-id cache to save the binaries with samples into, at the
	 * end, in perf's layout (DIR/PATH/BUILDID/elf and DIR/.build-id/xx/rest
	 * -> ../../PATH/BUILDID), or NULL for none.  A failure is a warning.
	 */
	const char *buildid_dir;
	/* -z: zstd level of PERF_RECORD_COMPRESSED records (perf's default is 1), 0: none */
	int zstd_level;
};

struct record_result {
	uint64_t samples;	/* PERF_RECORD_SAMPLE records written */
	uint64_t records;	/* every record written from the rings and /proc */
	uint64_t lost;		/* records the kernel dropped (PERF_RECORD_LOST) */
	uint64_t data_size;	/* bytes of the data section */
	unsigned mmap_pages;	/* data pages per ring that were used */
	int interrupted;	/* a SIGINT/SIGTERM/SIGHUP ended the run */
	int status;		/* the command's wait status, when it ended by itself (0 otherwise) */
};

/*
 * Record until the command exits, every watched task is gone, or a signal
 * arrives; then finish the file so `perf report` and readperf read it.
 * res is filled also on failure (as far as the run got).  Errors:
 * -EOPNOTSUPP (an event the machine lacks), -EACCES (perf_event_paranoid),
 * -EMFILE, -ESRCH, -ENOENT (no such command), -errno of a write; each
 * explained through log.
 */
int recorder__run(const struct record_opts *o, const struct log *log, struct record_result *res);

/* what perf's -F max means: /proc/sys/kernel/perf_event_max_sample_rate, 1000 when unreadable */
uint64_t recorder__max_freq(void);

/*
 * One -I interval: t is the seconds from the start of counting to now,
 * span the seconds the interval lasted (the last one ends early when the
 * command exits), counts[i] what event i counted in it (scaled).
 */
typedef void (*count_interval_fn)(void *ctx, double t, double span, const struct capture_count *counts,
				  size_t nr);

struct count_opts {
	struct capture_evlist *events;	/* borrowed; configured for counting by counter__run() */
	struct capture_opts capture;	/* target (CMD: the command itself), pid, cpu_list; mode ignored */
	char *const *argv;		/* NULL-terminated command (borrowed); required */
	unsigned interval_ms;		/* -I: interval_fn every interval_ms while the command runs (0: none) */
	count_interval_fn interval_fn;
	void *interval_ctx;
};

struct count_result {
	struct capture_count *counts;	/* owned: one per event; count_result__release() frees */
	size_t nr;
	double elapsed;			/* seconds from the exec to the exit (CLOCK_MONOTONIC) */
	struct timeval utime, stime;	/* user and system time of the command (wait4) */
	int status;			/* wait status of the command */
};

/*
 * Run the command and count the events while it runs.  res->counts is set
 * only when 0 is returned; count_result__release() is safe either way.
 */
int counter__run(const struct count_opts *o, const struct log *log, struct count_result *res);
void count_result__release(struct count_result *res);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The syscall core of `readperf record` and `readperf stat`.
 *
 *   event list text  --capture_evlist__parse-->  perf_event_attr per event
 *   capture_evlist__config()                      sampling or counting fields
 *   capture__open()                               perf_event_open per (event, cpu, thread)
 *   capture__mmap() / capture__read_pass()        one ring buffer per cpu (ringbuf.h)
 *   capture__read_counts()                        counting values, scaled
 *
 * Event syntax follows perf's (tools/perf/util/parse-events.c,
 * parse-events.l): generalized hardware, software and cache event names,
 * rNNN raw codes, PMU/config=..,config1=..,period=..,name=../ terms, :ukhp
 * modifiers and {a,b}:mod groups.  Numbers come from
 * include/uapi/linux/perf_event.h and perf_event_open(2).
 *
 * Also here: the /proc synthesis of COMM/FORK/MMAP2 records and the ELF
 * build-id reader (synth.c), which only build records and hand them to a
 * callback; the caller writes them through perffile/writer.h.
 *
 * recorder.h builds the two runs (record into a file, count while a
 * command runs) on top of this.
 *
 * Everything returns 0 or a negative errno and logs details through the log.
 */
#ifndef PERFFILE_CAPTURE_H
#define PERFFILE_CAPTURE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#include "util/array.h"
#include "util/log.h"

struct ringbuf;
struct pollfd;

/* what a /term=v/ set on an event, so that capture_evlist__config() keeps it */
enum capture_term {
	CAPTURE_TERM_PERIOD = 1 << 0,	/* period= */
	CAPTURE_TERM_FREQ = 1 << 1,	/* freq= */
	CAPTURE_TERM_TIME = 1 << 2,	/* time=0|1: PERF_SAMPLE_TIME */
	CAPTURE_TERM_INHERIT = 1 << 3,	/* inherit=, no-inherit */
	CAPTURE_TERM_PRIV = 1 << 4,	/* a u/k/h modifier: the user chose the privilege levels */
};

struct capture_event {
	struct perf_event_attr attr;
	char *name;		/* owned: as perf shows it ("cpu-clock", "page-faults:u", name= term) */
	int leader;		/* index of the group leader; itself for leaders and lone events */
	int nr_members;		/* for leaders: events in the group, itself included */
	unsigned terms;		/* enum capture_term bits */
	int sample_read;	/* 'S' modifier: the leader's samples carry every member's count */
	int time_term;		/* value of time= when CAPTURE_TERM_TIME is set */
	int inherit_term;	/* value of inherit= / no-inherit when CAPTURE_TERM_INHERIT is set */
};

struct capture_id {
	uint64_t id;		/* PERF_EVENT_IOC_ID of one fd */
	int ev;			/* its event */
};

struct capture_evlist {
	struct capture_event *events;	/* owned */
	size_t nr;
	/* owned: set by capture__open(), sorted by id, for capture__parse_sample() */
	struct capture_id *ids;
	size_t nr_ids;
};

void capture_evlist__init(struct capture_evlist *el);
void capture_evlist__release(struct capture_evlist *el);

/*
 * Append the events of one -e argument, in perf's forms: NAME[:MODS]
 * ("cpu-clock", "page-faults:u", "L1-dcache-load-misses", "r1a8"),
 * NAME/TERM=V,.../[:MODS] with NAME an event or a PMU
 * ("context-switches/period=1/", "cpu-clock/freq=1000,name=clk/",
 * "software/config=2/"), SUBSYS:NAME[:MODS] tracepoints from tracefs
 * ("sched:sched_switch"; with * and ? every match in tracefs' order:
 * "sched:sched_wak*"), and groups {A,B,...}[:MODS] ("{cpu-clock,
 * page-faults}:S" samples the leader and reads every member).  Terms:
 * config, config1, config2, name, period, freq, time, inherit, no-inherit.
 * Modifiers: u k h G H p P S D I e.  -EINVAL with a one-line message naming
 * the part that cannot be read; -EOPNOTSUPP for a PMU or tracepoint this
 * machine lacks; -ENOMEM.
 */
int capture_evlist__parse(struct capture_evlist *el, const char *spec, const struct log *log);

/* where tracefs is mounted (/sys/kernel/tracing, else /sys/kernel/debug/tracing), or NULL */
const char *capture__tracefs(void);

/* PERF_COUNT_HW_CACHE_* config of a generalized cache event name; -EINVAL if it is none */
int capture__parse_cache_event(const char *name, uint64_t *config);

enum capture_mode {
	CAPTURE_RECORD,		/* sampling into ring buffers */
	CAPTURE_STAT,		/* counting */
};

enum capture_target {
	CAPTURE_TARGET_CMD,	/* a command started by the caller (pid known after fork) */
	CAPTURE_TARGET_SYSTEM,	/* -a */
	CAPTURE_TARGET_CPUS,	/* -C LIST */
	CAPTURE_TARGET_PID,	/* -p PID: every thread of the process, inherit */
	CAPTURE_TARGET_TID,	/* -t TID: that thread only */
};

struct capture_opts {
	enum capture_mode mode;
	enum capture_target target;
	pid_t pid;		/* CMD, PID, TID */
	const char *cpu_list;	/* CPUS: "0-3,7" */
	uint64_t period;	/* -c N (0: use freq) */
	uint64_t freq;		/* -F HZ (0 with period 0: 4000, perf's default) */
	int callchain;		/* -g, --call-graph fp|dwarf */
	uint32_t dwarf_stack;	/* --call-graph dwarf[,SIZE]: bytes of user stack per sample (0: fp) */
	unsigned mmap_pages;	/* data pages per ring, a power of two (0: 128 pages as perf for root) */
	/* record options, as perf record sets them (tools/perf/util/evsel.c evsel__config) */
	int switch_events;	/* --switch-events: context_switch on the tracking event (SWITCH records) */
	int use_clockid;	/* -k: use_clockid and clockid on every event */
	int clockid;
	int sample_cpu;		/* --sample-cpu: PERF_SAMPLE_CPU also for a command */
	int sample_addr;	/* -d: PERF_SAMPLE_ADDR|DATA_SRC, mmap_data on the tracking event */
	uint64_t user_regs;	/* --user-regs: PERF_SAMPLE_REGS_USER with this sample_regs_user mask */
	int inherit_stat;	/* -s: inherit_stat and read_format TOTAL_TIME_*|ID (READ records at exit) */
};

/* -k NAME|NUMBER as perf takes it (monotonic, monotonic_raw, realtime, boottime, tai, mono, raw, real, boot) */
int capture__parse_clockid(const char *s, int *clockid);

/* --user-regs LIST ("ip,sp,bp", or "" for perf's whole user set) into a sample_regs_user mask */
int capture__parse_user_regs(const char *list, uint64_t *mask);

/* Fill sampling/counting fields of every attr (sample_type, read_format, tracking bits, disabled/enable_on_exec, inherit). */
void capture_evlist__config(struct capture_evlist *el, const struct capture_opts *opts);

/* bytes of the sample_id_all trailer the attrs produce (what synthesized records must append as zeros) */
size_t capture_evlist__id_hdr_size(const struct capture_evlist *el);

/* Parse a cpu list "0-3,7" into a sorted, deduplicated array of ints.  0, -EINVAL, -ENOMEM. */
int capture__parse_cpu_list(const char *list, int **cpus, size_t *nr);

/* Online cpus from /sys/devices/system/cpu/online. */
int capture__online_cpus(int **cpus, size_t *nr);

struct capture_fd {
	int fd;
	int ev;			/* index in the evlist */
	int cpu;		/* -1: any */
	pid_t tid;		/* -1: all (per-cpu) */
	uint64_t id;		/* PERF_EVENT_IOC_ID */
	int ring;		/* index of the ring buffer its records go to, or -1 */
};

struct capture {
	struct capture_evlist *el;	/* borrowed */
	struct capture_opts opts;
	const struct log *log;
	int *cpus;		/* owned; one entry -1 for "any cpu" */
	size_t nr_cpus;
	pid_t *tids;		/* owned; one entry -1 for "all tasks" */
	size_t nr_tids;
	struct capture_fd *fds;	/* owned: [ev][cpu][tid] */
	size_t nr_fds;
	struct ringbuf *rings;	/* owned: one per cpu after capture__mmap */
	size_t nr_rings;
	uint64_t lost;		/* records lost, from LOST records seen */
};

/*
 * Decide cpus and threads from opts and open every (event, cpu, thread),
 * group members with their leader's fd.  el must have been configured.
 * Errors are explained through the log: an event the machine does not
 * support (-EOPNOTSUPP), permission and perf_event_paranoid (-EACCES),
 * too many open files (-EMFILE), no such process (-ESRCH).
 */
int capture__open(struct capture *c, struct capture_evlist *el, const struct capture_opts *opts,
		  const struct log *log);
void capture__close(struct capture *c);

/* enable / disable every event (PERF_EVENT_IOC_ENABLE / _DISABLE on leaders) */
int capture__enable(struct capture *c);
int capture__disable(struct capture *c);

/* ids of event ev (caller frees *ids); used for the file's attr section */
int capture__event_ids(const struct capture *c, int ev, uint64_t **ids, size_t *nr);

/*
 * mmap one ring buffer per cpu (pages data pages each) and redirect every
 * other fd of that cpu into it with PERF_EVENT_IOC_SET_OUTPUT.
 */
int capture__mmap(struct capture *c, unsigned pages);

/*
 * poll(2) descriptors of every fd that feeds a ring (caller frees *fds).
 * When all of them report POLLHUP the tasks they watched are gone.
 */
int capture__pollfds(const struct capture *c, struct pollfd **fds, size_t *nr);

/*
 * One pass over every ring buffer: every complete record is handed to fn
 * (which returns 0 or a negative errno to stop) and then consumed.  Records
 * that wrap the buffer end arrive as a contiguous copy.  Returns the number
 * of records, or a negative errno.
 */
typedef int (*capture_record_fn)(void *ctx, const void *rec, size_t size);
long capture__read_pass(struct capture *c, capture_record_fn fn, void *ctx);

/* counting results */
struct capture_count {
	uint64_t val;		/* raw sum over cpus/threads */
	uint64_t ena, run;	/* time enabled / running, summed */
	double scaled;		/* val * ena / run when run < ena (perf_event_open(2) "multiplexing") */
	int counted;		/* run > 0 */
};

/* scale one reading as perf_event_open(2) describes; returns 0 when run == 0 (not counted) */
int capture__scale(uint64_t val, uint64_t ena, uint64_t run, double *scaled);

/* read every fd of event ev (read_format TOTAL_TIME_ENABLED|RUNNING) and sum */
int capture__read_count(const struct capture *c, int ev, struct capture_count *out);

/*
 * Sample fields that the recorder needs from its own samples (layout fixed
 * by capture_evlist__config): pid, ip, cpumode, callchain.  Returns 0 or
 * -EINVAL if the record is too short.
 */
struct capture_sample {
	uint32_t pid, tid;
	uint64_t ip, time;
	uint16_t cpumode;
	uint64_t nr_chain;
	const uint64_t *chain;
};
int capture__parse_sample(const struct capture_evlist *el, const void *rec, size_t size,
			  struct capture_sample *s);
/* time of any kernel record from its sample_id_all trailer (0 when none) */
uint64_t capture__record_time(const struct capture_evlist *el, const void *rec, size_t size);

#endif

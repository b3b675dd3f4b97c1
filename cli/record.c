/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * readperf record [OPTIONS] [CMD] and readperf stat [OPTIONS] CMD: the
 * capture side (perffile/capture/) on the command line, as perf record and
 * perf stat: a perf.data file of samples, or counts printed as perf stat
 * prints them.  The command's exit status is theirs when it failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "perffile/capture/recorder.h"
#include "util/stats.h"

enum { OPT_CALL_GRAPH = CLI_OPT_LONG_ONLY, OPT_BUILDID_DIR, OPT_SWITCH_EVENTS, OPT_SAMPLE_CPU, OPT_USER_REGS };

static const struct cli_option record_options[] = {
	{ 'e', "event", "EVENT,...", "events to sample (default cpu-clock): cpu-clock, task-clock,\n"
	  "page-faults, context-switches, ..., tracepoints SUBSYS:NAME", 'e', NULL },
	{ 'c', "count", "N", "sample every N events (a fixed period)", 'c', NULL },
	{ 'F', "freq", "HZ", "sample HZ times a second (default 4000), or 'max'", 'F', NULL },
	{ 'g', NULL, NULL, "record callchains (frame pointers)", 'g', NULL },
	{ 0, "call-graph", "MODE", "fp (as -g), or dwarf[,SIZE]: the kernel chain, the user registers\n"
	  "and SIZE bytes of user stack (default 8192) to unwind with DWARF CFI", OPT_CALL_GRAPH, NULL },
	{ 'a', "all-cpus", NULL, "every process on every CPU (system-wide)", 'a', NULL },
	{ 'C', "cpu", "LIST", "these CPUs only (1,3 or 0-2)", 'C', NULL },
	{ 'p', "pid", "PID", "an existing process", 'p', NULL },
	{ 't', "tid", "TID", "an existing thread", 't', NULL },
	{ 'o', "output", "FILE", "the output file (default perf.data, kept as perf.data.old; '-': a pipe\n"
	  "on stdout)", 'o', NULL },
	{ 'm', "mmap-pages", "N", "ring buffer pages per CPU, a power of two", 'm', NULL },
	{ 'N', "no-buildid-cache", NULL, "do not save the binaries with samples into the build-id cache", 'N', NULL },
	{ 0, "buildid-dir", "DIR", "the build-id cache (default $PERF_BUILDID_DIR, else ~/.debug), where\n"
	  "the binaries with samples are kept so a rebuilt one still resolves", OPT_BUILDID_DIR, NULL },
	{ 0, "switch-events", NULL, "a SWITCH record at every context switch (off-CPU time; with\n"
	  "-e context-switches/period=1/ also the blocking stacks)", OPT_SWITCH_EVENTS, NULL },
	{ 'k', "clockid", "CLOCK", "timestamps from this clock: monotonic, monotonic_raw, realtime,\n"
	  "boottime, tai or a number (-k 1 for jitdump)", 'k', NULL },
	{ 'z', "compression-level", "[=N]", "zstd-compressed records (COMPRESSED), level N (default 1)", 'z', NULL },
	{ 0, "sample-cpu", NULL, "the CPU of each sample", OPT_SAMPLE_CPU, NULL },
	{ 'd', "data", NULL, "the data address of each sample (and data mmaps)", 'd', NULL },
	{ 0, "user-regs", "[=REGS]", "the user registers of each sample (ip,sp,bp,...; default all)", OPT_USER_REGS,
	  NULL },
	{ 's', "stat", NULL, "per-thread counts (READ records as each thread exits)", 's', NULL },
	{ 'T', "timestamp", NULL, "the time of each sample (always recorded)", 'T', NULL },
	{ 'q', "quiet", NULL, "no messages but errors", 'q', NULL },
	{ 'h', "help", NULL, "this text", 'h', NULL },
	CLI_OPT_END,
};

static const struct cli_option stat_options[] = {
	{ 'e', "event", "EVENT,...", "events to count (default task-clock,context-switches,\n"
	  "cpu-migrations,page-faults)", 'e', NULL },
	{ 'a', "all-cpus", NULL, "every CPU while CMD runs", 'a', NULL },
	{ 'C', "cpu", "LIST", "these CPUs only", 'C', NULL },
	{ 'p', "pid", "PID", "an existing process (with CMD as the duration)", 'p', NULL },
	{ 't', "tid", "TID", "an existing thread", 't', NULL },
	{ 'x', "field-separator", "SEP", "CSV-like output with SEP between the fields, as perf stat -x", 'x', NULL },
	{ 'r', "repeat", "N", "run CMD N times: the means and their spread (+- %)", 'r', NULL },
	{ 'I', "interval-print", "MS", "the counts of every MS milliseconds (at least 10) while CMD runs", 'I', NULL },
	{ 'q', "quiet", NULL, "no messages but errors", 'q', NULL },
	{ 'h', "help", NULL, "this text", 'h', NULL },
	CLI_OPT_END,
};

static const struct cli_option_group record_groups[] = {
	{ NULL, record_options, NULL, 0 },
	{ NULL, NULL, NULL, 0 },
};

static const struct cli_option_group stat_groups[] = {
	{ NULL, stat_options, NULL, 0 },
	{ NULL, NULL, NULL, 0 },
};

static const struct cli_command record_cmd = {
	.name = "readperf record",
	.usage_head = "usage: readperf record [OPTIONS] [--] [CMD ARGS...]\n"
		"record samples of CMD (or of -a, -C, -p, -t) into a perf.data file perf and readperf read\n"
		"\n",
	.usage_tail = "events: NAME[:MODS] (u k h ...), NAME/TERM=V,.../ (period, freq, name, time, inherit),\n"
		"SUBSYS:TRACEPOINT (with * and ?), {A,B,...}[:MODS] groups ({A,B}:S: A samples and reads the group)\n"
		"the command's exit status is readperf record's when the command fails, as perf does\n",
	.groups = record_groups,
	.help_col = 25,
	.stop_at_command = 1,
};

static const struct cli_command stat_cmd = {
	.name = "readperf stat",
	.usage_head = "usage: readperf stat [OPTIONS] [--] CMD ARGS...\n"
		"count events while CMD runs, as perf stat (scaled when the kernel multiplexed them)\n"
		"\n",
	.groups = stat_groups,
	.help_col = 25,
	.stop_at_command = 1,
};

struct capture_args {
	struct capture_evlist el;
	struct capture_opts opts;	/* mode is chosen by the run */
	const char *output;		/* record -o ("-": stdout, pipe format) */
	const char *sep;		/* stat -x */
	const char *buildid_dir;	/* record --buildid-dir */
	int no_buildid_cache;		/* record -N, --no-buildid-cache */
	int zstd_level;			/* record -z */
	unsigned repeat;		/* stat -r (0: once) */
	unsigned interval_ms;		/* stat -I */
	int quiet;
	char **cmd;			/* NULL-terminated (the tail of main's argv), or NULL */
	int cmd_argc;
};

static int parse_num(const char *s, uint64_t max, uint64_t *out)
{
	char *end;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	*out = strtoull(s, &end, 0);
	if (errno || *end || *out > max)
		return -EINVAL;
	return 0;
}

/* --call-graph fp|dwarf[,SIZE] as perf spells it; 0, or -EINVAL after a message */
static int parse_call_graph(struct capture_args *a, const char *val, const struct log *log)
{
	uint64_t v = 8192;

	if (!strcmp(val, "fp")) {
		a->opts.callchain = 1;
		a->opts.dwarf_stack = 0;
		return 0;
	}
	if (strncmp(val, "dwarf", 5) || (val[5] && (val[5] != ',' || parse_num(val + 6, 65528, &v) || !v || v % 8))) {
		log_msg(log, LOG_ERR, "--call-graph wants fp, dwarf or dwarf,SIZE (SIZE a multiple of 8 up to 65528), "
			"not '%s'", val);
		return -EINVAL;
	}
	a->opts.callchain = 1;
	a->opts.dwarf_stack = (uint32_t)v;
	return 0;
}

/* an option of perf record's that only sets attr fields (record_opts in capture.h); 1 when c is none */
static int record_attr_opt(struct capture_args *a, int c, const char *val, const struct log *log)
{
	uint64_t v;

	switch (c) {
	case OPT_SWITCH_EVENTS:
		a->opts.switch_events = 1;
		return 0;
	case OPT_SAMPLE_CPU:
		a->opts.sample_cpu = 1;
		return 0;
	case 'd':
		a->opts.sample_addr = 1;
		return 0;
	case 's':
		a->opts.inherit_stat = 1;
		return 0;
	case 'T':	/* samples always carry their time */
		return 0;
	case 'k':
		if (capture__parse_clockid(val, &a->opts.clockid)) {
			log_msg(log, LOG_ERR, "-k needs a clock: monotonic, monotonic_raw, realtime, boottime, tai or a "
				"number, not '%s'", val);
			return -EINVAL;
		}
		a->opts.use_clockid = 1;
		return 0;
	case OPT_USER_REGS:
		if (capture__parse_user_regs(val ? val : "", &a->opts.user_regs)) {
			log_msg(log, LOG_ERR, "--user-regs wants registers from ax bx cx dx si di bp sp ip flags cs ss "
				"ds es fs gs r8-r15, separated by commas, not '%s'", val);
			return -EINVAL;
		}
		return 0;
	case 'z':
		if (!val) {
			v = 1;
		} else if (parse_num(val, 22, &v) || v == 0) {
			log_msg(log, LOG_ERR, "-z takes a zstd level from 1 to 22, not '%s'", val);
			return -EINVAL;
		}
		a->zstd_level = (int)v;
		return 0;
	}
	return 1;
}

/* stat -r N, -I MS */
static int stat_opt(struct capture_args *a, int c, const char *val, const struct log *log)
{
	uint64_t v;

	if (c == 'r' && (parse_num(val, 100000, &v) || v == 0)) {
		log_msg(log, LOG_ERR, "-r needs a number of runs from 1 to 100000, not '%s'", val);
		return -EINVAL;
	}
	if (c == 'I' && (parse_num(val, 86400000, &v) || v < 10)) {
		log_msg(log, LOG_ERR, "-I needs an interval of at least 10 ms, not '%s'", val);
		return -EINVAL;
	}
	if (c == 'r')
		a->repeat = (unsigned)v;
	else
		a->interval_ms = (unsigned)v;
	return 0;
}

/* one capture option (its row's id) into a; 0, or -EINVAL after a message */
static int capture_opt(struct capture_args *a, int c, const char *val, int *targets, const struct log *log)
{
	uint64_t v;
	int r = record_attr_opt(a, c, val, log);

	if (r <= 0)
		return r;
	switch (c) {
	case 'r':
	case 'I':
		return stat_opt(a, c, val, log);
	case 'e':
		return capture_evlist__parse(&a->el, val, log) ? -EINVAL : 0;
	case 'g':
		a->opts.callchain = 1;
		return 0;
	case 'a':
		a->opts.target = CAPTURE_TARGET_SYSTEM;
		break;
	case 'q':
		a->quiet = 1;
		return 0;
	case 'C':
		a->opts.target = CAPTURE_TARGET_CPUS;
		a->opts.cpu_list = val;
		break;
	case 'p':
	case 't':
		if (parse_num(val, INT_MAX, &v) || v == 0) {
			log_msg(log, LOG_ERR, "-%c needs a process id, not '%s'", c, val);
			return -EINVAL;
		}
		a->opts.target = c == 't' ? CAPTURE_TARGET_TID : CAPTURE_TARGET_PID;
		a->opts.pid = (pid_t)v;
		break;
	case 'c':
		if (parse_num(val, UINT64_MAX, &v) || v == 0) {
			log_msg(log, LOG_ERR, "-c needs a positive sample period, not '%s'", val);
			return -EINVAL;
		}
		a->opts.period = v;
		return 0;
	case 'F':
		if (!strcmp(val, "max")) {
			v = recorder__max_freq();
		} else if (parse_num(val, UINT32_MAX, &v) || v == 0) {
			log_msg(log, LOG_ERR, "-F needs a positive frequency in Hz, not '%s'", val);
			return -EINVAL;
		}
		a->opts.freq = v;
		return 0;
	case 'o':
		if (!*val) {
			log_msg(log, LOG_ERR, "-o needs a file name");
			return -EINVAL;
		}
		a->output = val;
		return 0;
	case 'm':
		if (parse_num(val, 1u << 20, &v) || v == 0 || (v & (v - 1))) {
			log_msg(log, LOG_ERR, "--mmap-pages needs a power of two, not '%s'", val);
			return -EINVAL;
		}
		a->opts.mmap_pages = (unsigned)v;
		return 0;
	case OPT_CALL_GRAPH:
		return parse_call_graph(a, val, log);
	case 'N':
		a->no_buildid_cache = 1;
		return 0;
	case OPT_BUILDID_DIR:
		a->buildid_dir = val;
		return 0;
	case 'x':
		if (!*val) {
			log_msg(log, LOG_ERR, "-x needs a separator: one or more characters");
			return -EINVAL;
		}
		a->sep = val;
		return 0;
	}
	(*targets)++;
	return 0;
}

/*
 * Options of record (is_stat 0) or stat, with getopt_long; argv[0] is the
 * subcommand and the command to run follows the options (after "--" or the
 * first non-option: "+" stops there, so the command's own options are its).
 * 0: go on; 1: -h printed the usage; -EINVAL: a message was printed.
 */
struct capture_ctx {
	struct capture_args *a;
	int targets;			/* how many of -a, -C, -p, -t */
	const struct log *log;
};

/* cli_command__parse's handler: -1 to go on, else the exit code */
static int capture_handle(void *ctx, int id, const char *arg)
{
	struct capture_ctx *c = ctx;

	return capture_opt(c->a, id, arg, &c->targets, c->log) ? EXIT_USAGE : -1;
}

/* after the options: the target and the command, the default events; 0 or -EINVAL (said) */
static int capture_check(struct capture_args *a, int targets, int is_stat, const struct log *log)
{
	if (targets > 1) {
		log_msg(log, LOG_ERR, "-a, -C, -p and -t exclude each other");
		return -EINVAL;
	}
	if (a->opts.target == CAPTURE_TARGET_CMD && !a->cmd) {
		log_msg(log, LOG_ERR, "no command given (and none of -a, -C, -p, -t)");
		return -EINVAL;
	}
	if (is_stat && !a->cmd) {
		log_msg(log, LOG_ERR, "readperf stat needs a command to run (it counts while the command runs)");
		return -EINVAL;
	}
	if (a->opts.period && a->opts.freq) {
		log_msg(log, LOG_ERR, "-c and -F exclude each other");
		return -EINVAL;
	}
	if (a->repeat > 1 && a->interval_ms) {
		log_msg(log, LOG_ERR, "-r and -I exclude each other");
		return -EINVAL;
	}
	if (!a->el.nr) {
		static const char *const stat_default = "task-clock,context-switches,cpu-migrations,page-faults";

		/* perf falls back from cycles to cpu-clock where there is no PMU; start there */
		if (capture_evlist__parse(&a->el, is_stat ? stat_default : "cpu-clock", log))
			return -EINVAL;
	}
	return 0;
}

/*
 * Options of record (is_stat 0) or stat; argv[0] is the subcommand and the
 * command to run follows the options (after "--" or the first non-option,
 * so the command's own options are its).  -1: go on; else the exit code
 * (0 after -h printed the usage), a->el released.
 */
static int parse_capture_args(struct capture_args *a, int argc, char **argv, int is_stat, const struct log *log)
{
	struct capture_ctx c = { a, 0, log };
	int code, next;

	memset(a, 0, sizeof(*a));
	capture_evlist__init(&a->el);
	a->opts.target = CAPTURE_TARGET_CMD;
	a->output = "perf.data";
	code = cli_command__parse(is_stat ? &stat_cmd : &record_cmd, argc, argv, capture_handle, &c, &next);
	if (code < 0 && next < argc) {
		a->cmd = argv + next;
		a->cmd_argc = argc - next;
	}
	if (code < 0 && capture_check(a, c.targets, is_stat, log))
		code = EXIT_USAGE;
	if (code >= 0)
		capture_evlist__release(&a->el);
	return code;
}

/* the output file; perf keeps the previous one as NAME.old */
/* record and stat end as the command did, as perf does: its exit status when it failed */
static int command_status(int status, const char *cmd, const struct log *log)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status)) {
		/* as perf: the profile is complete, the exit status says how the command ended */
		log_msg(log, LOG_WARN, "%s was killed by signal %d (%s)", cmd ? cmd : "the command", WTERMSIG(status),
			strsignal(WTERMSIG(status)));
		return 128 + WTERMSIG(status);
	}
	return EXIT_OK;
}

/* whether CMD can be started: a path that is executable, or a name found in $PATH (execvp's search) */
static int command_exists(const char *cmd)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (strchr(cmd, '/'))
		return access(cmd, X_OK) == 0;
	for (path = path ? path : "/usr/bin:/bin"; *path; path += *path == ':') {
		size_t len = strcspn(path, ":");

		if (snprintf(buf, sizeof(buf), "%.*s%s%s", (int)len, path, len ? "/" : "", cmd) < (int)sizeof(buf) &&
		    access(buf, X_OK) == 0)
			return 1;
		path += len;
	}
	return 0;
}

static int open_record_output(const char *path, int *fd)
{
	struct stat st;
	char old[PATH_MAX];

	if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    snprintf(old, sizeof(old), "%s.old", path) < (int)sizeof(old))
		rename(path, old);
	*fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	return *fd < 0 ? -errno : 0;
}

/* perf's build-id cache: $PERF_BUILDID_DIR, else ~/.debug; NULL without a home */
static const char *default_buildid_dir(char *buf, size_t size)
{
	const char *env = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");

	if (env && *env)
		return env;
	if (!home || !*home || snprintf(buf, size, "%s/.debug", home) >= (int)size)
		return NULL;
	return buf;
}

int cmd_record(int argc, char **argv, struct cli *cli)
{
	const struct log *log = &cli->log;
	struct capture_args a;
	struct record_opts ro;
	struct record_result res;
	const char **cmdline;
	char bdir[PATH_MAX];
	int fd, err;

	err = parse_capture_args(&a, argc, argv, 0, log);
	if (err >= 0)
		return err;
	/* a command that cannot start leaves the previous output as it was */
	if (a.cmd && !command_exists(a.cmd[0])) {
		log_msg(log, LOG_ERR, "%s: command not found", a.cmd[0]);
		capture_evlist__release(&a.el);
		return 127;
	}
	memset(&ro, 0, sizeof(ro));
	ro.pipe = strcmp(a.output, "-") == 0;
	if (ro.pipe) {
		fd = STDOUT_FILENO;
		ro.out_name = "stdout";
	} else {
		err = open_record_output(a.output, &fd);
		if (err) {
			log_msg(log, LOG_ERR, "%s: %s", a.output, strerror(-err));
			capture_evlist__release(&a.el);
			return EXIT_SYSTEM;
		}
		ro.out_name = a.output;
	}
	/* CMDLINE as perf stores it, the program first: "readperf record ..." */
	cmdline = calloc((size_t)argc + 1, sizeof(*cmdline));
	if (!cmdline) {
		err = -ENOMEM;
		goto out;
	}
	cmdline[0] = "readperf";
	for (int i = 0; i < argc; i++)
		cmdline[i + 1] = argv[i];
	ro.events = &a.el;
	ro.capture = a.opts;
	ro.argv = a.cmd;
	ro.out_fd = fd;
	ro.version = "readperf " READPERF_VERSION;
	ro.cmdline_argc = argc + 1;
	ro.cmdline = cmdline;
	if (!a.no_buildid_cache)
		ro.buildid_dir = a.buildid_dir ? a.buildid_dir : default_buildid_dir(bdir, sizeof(bdir));
	ro.zstd_level = a.zstd_level;
	err = recorder__run(&ro, log, &res);
	free(cmdline);
	if (err)
		goto out;
	if (res.lost)
		log_msg(log, LOG_WARN, "%" PRIu64 " records lost (the rings overflowed): try --mmap-pages %u or a lower -F",
			res.lost, res.mmap_pages * 4);
	if (!a.quiet)
		fprintf(stderr, "[ readperf record: wrote %.3f MB %s (%" PRIu64 " samples) ]\n",
			(double)res.data_size / (1024.0 * 1024.0), ro.pipe ? "to stdout" : a.output, res.samples);
out:
	if (err == -ENOMEM)
		log_msg(log, LOG_ERR, "out of memory");
	if (!ro.pipe)
		close(fd);
	capture_evlist__release(&a.el);
	if (err)
		return EXIT_SYSTEM;
	return command_status(res.status, a.cmd ? a.cmd[0] : NULL, log);
}

static int is_clock_event(const struct capture_event *e)
{
	return e->attr.type == PERF_TYPE_SOFTWARE &&
	       (e->attr.config == PERF_COUNT_SW_TASK_CLOCK || e->attr.config == PERF_COUNT_SW_CPU_CLOCK);
}

/*
 * What one stat printout shows: one run, the means of -r runs (noise set:
 * per event, and wall for the elapsed time), or one -I interval (prefix).
 */
struct stat_view {
	const struct capture_count *counts;
	size_t nr;
	double elapsed;			/* seconds the counts took (the mean for -r; the interval for -I) */
	const struct stats *noise;	/* -r: each event's runs; NULL otherwise */
	const char *prefix;		/* -I: the time column, NULL otherwise */
};

/* the metric perf prints after '#': CPUs utilized for task-clock, a rate per second for counts */
static void stat_metric(const struct capture_event *e, const struct capture_count *c, double task_ms, double elapsed,
			char *metric, size_t msize, const char **munit)
{
	double rate;

	*metric = '\0';
	*munit = "";
	if (!c->counted)
		return;
	if (is_clock_event(e)) {
		if (e->attr.config == PERF_COUNT_SW_TASK_CLOCK && elapsed > 0) {
			snprintf(metric, msize, "%.3f", c->scaled / 1e9 / elapsed);
			*munit = "CPUs utilized";
		}
		return;
	}
	if (task_ms <= 0)
		return;
	rate = c->scaled / (task_ms / 1e3);
	*munit = "/sec";
	if (rate >= 1e9) {
		rate /= 1e9;
		*munit = "G/sec";
	} else if (rate >= 1e6) {
		rate /= 1e6;
		*munit = "M/sec";
	} else if (rate >= 1e3) {
		rate /= 1e3;
		*munit = "K/sec";
	}
	snprintf(metric, msize, "%.3f", rate);
}

/* one event's line, perf stat's layout (stat-display.c) or with -x its CSV */
static void stat_line(FILE *out, const struct capture_args *a, const struct stat_view *v, size_t i, double task_ms)
{
	const struct capture_event *e = &a->el.events[i];
	const struct capture_count *c = &v->counts[i];
	const char *unit = is_clock_event(e) ? "msec" : "", *munit;
	double pct = c->ena ? 100.0 * (double)c->run / (double)c->ena : 100.0;
	double noise = v->noise ? stats__rel_pct(stats__stddev_mean(&v->noise[i]), v->noise[i].mean) : 0;
	char val[64], metric[64];

	if (!c->counted)
		snprintf(val, sizeof(val), "<not counted>");
	else
		snprintf(val, sizeof(val), is_clock_event(e) ? "%.2f" : "%.0f", is_clock_event(e) ? c->scaled / 1e6 : c->scaled);
	stat_metric(e, c, task_ms, v->elapsed, metric, sizeof(metric), &munit);
	if (v->prefix)
		fprintf(out, "%s%s", v->prefix, a->sep ? a->sep : " ");
	if (a->sep) {
		fprintf(out, "%s%s%s%s%s", val, a->sep, unit, a->sep, e->name);
		if (v->noise)
			fprintf(out, "%s%.2f%%", a->sep, noise);
		fprintf(out, "%s%" PRIu64 "%s%.2f%s%s%s%s\n", a->sep, c->run, a->sep, pct, a->sep, metric, a->sep, munit);
		return;
	}
	fprintf(out, "%18s %-4s %-32s", val, unit, e->name);
	if (*metric)
		fprintf(out, " # %8s %-23s", metric, munit);
	else
		fprintf(out, "%35s", "");
	if (noise)
		fprintf(out, "  ( +-%6.2f%% )", noise);
	if (c->counted && c->run < c->ena)
		fprintf(out, "  (%.2f%%)", pct);
	fprintf(out, "\n");
}

static void stat_lines(FILE *out, const struct capture_args *a, const struct stat_view *v)
{
	double task_ms = 0;

	for (size_t i = 0; i < v->nr; i++) {
		const struct capture_event *e = &a->el.events[i];

		if (e->attr.type == PERF_TYPE_SOFTWARE && e->attr.config == PERF_COUNT_SW_TASK_CLOCK &&
		    v->counts[i].counted)
			task_ms = v->counts[i].scaled / 1e6;
	}
	for (size_t i = 0; i < v->nr; i++)
		stat_line(out, a, v, i, task_ms);
}

/* perf's get_precision(): the elapsed time of -r shows 2 digits beyond the first of its spread */
static int stat_precision(double sd)
{
	if (sd > 1 || sd <= 0)
		return 0;
	return (int)lround(ceil(-log10(sd))) + 2;
}

/* perf stat's summary on stderr; runs > 1: the means with wall, the elapsed times' stats */
static void print_stat(const struct capture_args *a, const struct stat_view *v, const struct count_result *last,
		       unsigned runs, const struct stats *wall)
{
	FILE *out = stderr;

	if (!a->sep) {
		fprintf(out, "\n Performance counter stats for '");
		for (int i = 0; i < a->cmd_argc; i++)
			fprintf(out, "%s%s", i ? " " : "", a->cmd[i]);
		if (runs > 1)
			fprintf(out, "' (%u runs):\n\n", runs);
		else
			fprintf(out, "':\n\n");
	}
	stat_lines(out, a, v);
	if (a->sep)
		return;
	if (runs > 1) {
		double sd = stats__stddev_mean(wall);
		int prec = stat_precision(sd);

		fprintf(out, "\n %17.*f +- %.*f seconds time elapsed", prec, wall->mean, prec, sd);
		if (stats__rel_pct(sd, wall->mean))
			fprintf(out, "  ( +-%6.2f%% )", stats__rel_pct(sd, wall->mean));
		fprintf(out, "\n\n");
		return;
	}
	fprintf(out, "\n %17.9f seconds time elapsed\n\n", v->elapsed);
	fprintf(out, " %17.9f seconds user\n", (double)last->utime.tv_sec + (double)last->utime.tv_usec / 1e6);
	fprintf(out, " %17.9f seconds sys\n\n", (double)last->stime.tv_sec + (double)last->stime.tv_usec / 1e6);
}

/* -I: perf stat's interval lines, the time since the start first; the column header once */
struct interval_printer {
	const struct capture_args *a;
	int lines;
};

static void print_interval(void *ctx, double t, double span, const struct capture_count *counts, size_t nr)
{
	struct interval_printer *ip = ctx;
	char prefix[32];
	struct stat_view v = { counts, nr, span, NULL, prefix };

	snprintf(prefix, sizeof(prefix), "%6lu.%09lu", (unsigned long)t, (unsigned long)((t - floor(t)) * 1e9));
	if (!ip->a->sep && !ip->lines++)
		fprintf(stderr, "#           time             counts unit events\n");
	stat_lines(stderr, ip->a, &v);
}

/* the means of runs into mean (scaled and the raw sums), for print_stat */
static void stat_means(const struct stats *noise, const struct capture_count *sums, unsigned runs, size_t nr,
		       struct capture_count *mean)
{
	for (size_t i = 0; i < nr; i++) {
		mean[i].scaled = noise[i].mean;
		mean[i].val = sums[i].val / runs;
		mean[i].ena = sums[i].ena / runs;
		mean[i].run = sums[i].run / runs;
		mean[i].counted = sums[i].counted == (int)runs;
	}
}

int cmd_stat(int argc, char **argv, struct cli *cli)
{
	const struct log *log = &cli->log;
	struct capture_args a;
	struct count_opts co;
	struct count_result res = { 0 };
	struct interval_printer ip;
	struct capture_count *sums = NULL, *mean = NULL;
	struct stats *noise = NULL, wall;
	unsigned runs, r;
	int err, code = EXIT_OK;

	err = parse_capture_args(&a, argc, argv, 1, log);
	if (err >= 0)
		return err;
	runs = a.repeat ? a.repeat : 1;
	memset(&co, 0, sizeof(co));
	co.events = &a.el;
	co.capture = a.opts;
	co.argv = a.cmd;
	ip.a = &a;
	ip.lines = 0;
	co.interval_ms = a.interval_ms;
	co.interval_fn = print_interval;
	co.interval_ctx = &ip;
	sums = calloc(a.el.nr, sizeof(*sums));
	mean = calloc(a.el.nr, sizeof(*mean));
	noise = calloc(a.el.nr, sizeof(*noise));
	err = !sums || !mean || !noise ? -ENOMEM : 0;
	for (size_t i = 0; !err && i < a.el.nr; i++)
		stats__init(&noise[i]);
	stats__init(&wall);
	for (r = 0; !err && r < runs; r++) {
		count_result__release(&res);
		err = counter__run(&co, log, &res);
		for (size_t i = 0; !err && i < res.nr; i++) {
			stats__update(&noise[i], res.counts[i].scaled);
			sums[i].val += res.counts[i].val;
			sums[i].ena += res.counts[i].ena;
			sums[i].run += res.counts[i].run;
			sums[i].counted += res.counts[i].counted;
		}
		if (!err)
			stats__update(&wall, res.elapsed);
		if (!err && WIFSIGNALED(res.status) && WTERMSIG(res.status) == SIGINT)
			runs = r + 1;	/* Ctrl-C ends the repeats, as in perf */
	}
	if (!err && !a.interval_ms) {
		struct stat_view v = { mean, a.el.nr, wall.mean, runs > 1 ? noise : NULL, NULL };

		stat_means(noise, sums, runs, a.el.nr, mean);
		if (runs == 1)
			v.counts = res.counts;
		print_stat(&a, &v, &res, runs, &wall);
	}
	if (!err && WIFSIGNALED(res.status) && WTERMSIG(res.status) != SIGINT)
		log_msg(log, LOG_WARN, "'%s' was killed by signal %d", a.cmd[0], WTERMSIG(res.status));
	if (err == -ENOMEM)
		log_msg(log, LOG_ERR, "out of memory");
	if (!err)
		code = command_status(res.status, a.cmd ? a.cmd[0] : NULL, log);
	count_result__release(&res);
	capture_evlist__release(&a.el);
	free(sums);
	free(mean);
	free(noise);
	return err ? EXIT_SYSTEM : code;
}

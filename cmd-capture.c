/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * `readperf record` and `readperf stat`: command line and the capture loop.
 *
 * record: parse the events, start the command stopped on a pipe (or pick
 * cpus / an existing process), open the events, mmap one ring per cpu,
 * write attrs and features through perffile/writer.h, synthesize
 * COMM/FORK/MMAP2 of tasks that already run, then poll the rings and copy
 * every record into the file with a FINISHED_ROUND after each pass.  At the
 * end the DSOs that got samples get their build ids.  SIGINT/SIGTERM/SIGCHLD
 * arrive through a signalfd in the same poll, so no global flag is needed.
 * Follows tools/perf/builtin-record.c (record__mmap_read_all, record__synthesize,
 * perf_evlist__prepare_workload) and builtin-stat.c (print_counter, CSV).
 *
 * argv[0] is the subcommand ("record" / "stat"); options follow.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/log.h"
#include "perffile/capture.h"
#include "perffile/features.h"
#include "perffile/record.h"
#include "perffile/writer.h"

int cmd_record(int argc, char **argv, const struct log *log);
int cmd_stat(int argc, char **argv, const struct log *log);

enum {
	EXIT_OK = 0,
	EXIT_USAGE = 1,
	EXIT_BAD_INPUT = 2,
	EXIT_SYSTEM = 3,
};

#define READPERF_CAPTURE_VERSION "readperf 0.1"

static const char record_usage[] =
	"usage: readperf record [-e EVENT,...] [-c N | -F HZ] [-g] [-a | -C CPUS | -p PID | -t TID]\n"
	"                       [-o FILE] [--mmap-pages N] [-q] [-- CMD ARGS...]";
static const char stat_usage[] =
	"usage: readperf stat [-e EVENT,...] [-x SEP] [-a | -C CPUS | -p PID | -t TID] -- CMD ARGS...";

struct capture_args {
	struct capture_evlist el;
	struct capture_opts opts;
	const char *output;
	const char *sep;	/* stat -x */
	int quiet;
	char **cmd;		/* NULL when no command */
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

/* the value of an option: "-eX", "-e X", "--opt=X", "--opt X" */
static const char *opt_value(int argc, char **argv, int *i, const char *arg, size_t prefix_len)
{
	if (arg[prefix_len] == '=')
		return arg + prefix_len + 1;
	if (arg[prefix_len])
		return arg + prefix_len;
	if (*i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

static int parse_args(struct capture_args *a, int argc, char **argv, int is_stat, const struct log *log)
{
	int i;
	int targets = 0;
	uint64_t v;

	memset(a, 0, sizeof(*a));
	capture_evlist__init(&a->el);
	a->opts.mode = is_stat ? CAPTURE_STAT : CAPTURE_RECORD;
	a->opts.target = CAPTURE_TARGET_CMD;
	a->output = "perf.data";
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const char *val;

		if (strcmp(arg, "--") == 0) {
			i++;
			break;
		}
		if (arg[0] != '-' || !arg[1])
			break;
		if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
			log_msg(log, LOG_ERR, "%s", is_stat ? stat_usage : record_usage);
			return -EINVAL;
		} else if (strncmp(arg, "-e", 2) == 0 || strncmp(arg, "--event", 7) == 0) {
			val = opt_value(argc, argv, &i, arg, arg[1] == '-' ? 7 : 2);
			if (!val || capture_evlist__parse(&a->el, val, log))
				goto bad;
		} else if (strcmp(arg, "-g") == 0 && !is_stat) {
			a->opts.callchain = 1;
		} else if (strcmp(arg, "-a") == 0 || strcmp(arg, "--all-cpus") == 0) {
			a->opts.target = CAPTURE_TARGET_SYSTEM;
			targets++;
		} else if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) {
			a->quiet = 1;
		} else if (strncmp(arg, "-C", 2) == 0 || strncmp(arg, "--cpu", 5) == 0) {
			val = opt_value(argc, argv, &i, arg, arg[1] == '-' ? 5 : 2);
			if (!val)
				goto bad;
			a->opts.target = CAPTURE_TARGET_CPUS;
			a->opts.cpu_list = val;
			targets++;
		} else if (strncmp(arg, "-p", 2) == 0 || strncmp(arg, "--pid", 5) == 0 ||
			   strncmp(arg, "-t", 2) == 0 || strncmp(arg, "--tid", 5) == 0) {
			int tid = arg[1] == 't' || (arg[1] == '-' && arg[2] == 't');

			val = opt_value(argc, argv, &i, arg, arg[1] == '-' ? 5 : 2);
			if (parse_num(val, INT_MAX, &v) || v == 0) {
				log_msg(log, LOG_ERR, "%s needs a process id", tid ? "-t" : "-p");
				goto bad;
			}
			a->opts.target = tid ? CAPTURE_TARGET_TID : CAPTURE_TARGET_PID;
			a->opts.pid = (pid_t)v;
			targets++;
		} else if (!is_stat && (strncmp(arg, "-c", 2) == 0 || strncmp(arg, "--count", 7) == 0)) {
			val = opt_value(argc, argv, &i, arg, arg[1] == '-' ? 7 : 2);
			if (parse_num(val, UINT64_MAX, &v) || v == 0) {
				log_msg(log, LOG_ERR, "-c needs a positive sample period");
				goto bad;
			}
			a->opts.period = v;
		} else if (!is_stat && (strncmp(arg, "-F", 2) == 0 || strncmp(arg, "--freq", 6) == 0)) {
			val = opt_value(argc, argv, &i, arg, arg[1] == '-' ? 6 : 2);
			if (val && strcmp(val, "max") == 0) {
				v = 0;
				FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "re");

				if (!f || fscanf(f, "%" SCNu64, &v) != 1)
					v = 1000;
				if (f)
					fclose(f);
			} else if (parse_num(val, UINT32_MAX, &v) || v == 0) {
				log_msg(log, LOG_ERR, "-F needs a positive frequency in Hz");
				goto bad;
			}
			a->opts.freq = v;
		} else if (!is_stat && (strncmp(arg, "-o", 2) == 0 || strncmp(arg, "--output", 8) == 0)) {
			val = opt_value(argc, argv, &i, arg, arg[1] == '-' ? 8 : 2);
			if (!val || !*val)
				goto bad;
			a->output = val;
		} else if (!is_stat && (strncmp(arg, "-m", 2) == 0 || strncmp(arg, "--mmap-pages", 12) == 0)) {
			val = opt_value(argc, argv, &i, arg, arg[1] == '-' ? 12 : 2);
			if (parse_num(val, 1u << 20, &v) || v == 0 || (v & (v - 1))) {
				log_msg(log, LOG_ERR, "--mmap-pages needs a power of two");
				goto bad;
			}
			a->opts.mmap_pages = (unsigned)v;
		} else if (is_stat && (strncmp(arg, "-x", 2) == 0 || strncmp(arg, "--field-separator", 17) == 0)) {
			val = opt_value(argc, argv, &i, arg, arg[1] == '-' ? 17 : 2);
			if (!val || !*val)
				goto bad;
			a->sep = val;
		} else {
			log_msg(log, LOG_ERR, "unknown option '%s'", arg);
			goto bad;
		}
	}
	if (targets > 1) {
		log_msg(log, LOG_ERR, "-a, -C, -p and -t exclude each other");
		goto bad;
	}
	if (i < argc) {
		a->cmd = argv + i;
		a->cmd_argc = argc - i;
	}
	if (a->opts.target == CAPTURE_TARGET_CMD && !a->cmd) {
		log_msg(log, LOG_ERR, "no command given (and none of -a, -C, -p, -t)");
		goto bad;
	}
	if (is_stat && !a->cmd && a->opts.target != CAPTURE_TARGET_CMD) {
		log_msg(log, LOG_ERR, "readperf stat needs a command to run (it counts while the command runs)");
		goto bad;
	}
	if (a->opts.period && a->opts.freq) {
		log_msg(log, LOG_ERR, "-c and -F exclude each other");
		goto bad;
	}
	if (!a->el.nr) {
		static const char *const stat_default = "task-clock,context-switches,cpu-migrations,page-faults";

		/* perf falls back from cycles to cpu-clock where there is no PMU; start there */
		if (capture_evlist__parse(&a->el, is_stat ? stat_default : "cpu-clock", log))
			goto bad;
	}
	return 0;
bad:
	if (i >= argc || argv[i][0] == '-')
		log_msg(log, LOG_ERR, "%s", is_stat ? stat_usage : record_usage);
	capture_evlist__release(&a->el);
	return -EINVAL;
}

/* ---- the workload: forked, held on a pipe until the events are open ---- */

struct workload {
	pid_t pid;
	int go_fd;		/* write end: one byte starts the command */
	int err_fd;		/* read end: errno of a failed exec */
	int status;
	int exited;
};

static int workload__start(struct workload *wl, char **cmd, const sigset_t *orig_mask, const struct log *log)
{
	int go[2], errp[2];

	wl->pid = -1;
	wl->exited = 0;
	if (pipe2(go, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(errp, O_CLOEXEC) < 0) {
		close(go[0]);
		close(go[1]);
		return -errno;
	}
	wl->pid = fork();
	if (wl->pid < 0) {
		int err = -errno;

		log_msg(log, LOG_ERR, "fork: %s", strerror(errno));
		close(go[0]);
		close(go[1]);
		close(errp[0]);
		close(errp[1]);
		return err;
	}
	if (wl->pid == 0) {
		char c;
		int e;

		close(go[1]);
		close(errp[0]);
		sigprocmask(SIG_SETMASK, orig_mask, NULL);
		if (read(go[0], &c, 1) != 1)
			_exit(127);	/* the parent gave up */
		execvp(cmd[0], cmd);
		e = errno;
		if (write(errp[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(errp[1]);
	wl->go_fd = go[1];
	wl->err_fd = errp[0];
	return 0;
}

/* let the command run; -errno of a failed exec */
static int workload__go(struct workload *wl, char **cmd, const struct log *log)
{
	char c = 1;
	int e = 0;
	ssize_t n;

	if (write(wl->go_fd, &c, 1) != 1)
		return -errno;
	close(wl->go_fd);
	wl->go_fd = -1;
	n = read(wl->err_fd, &e, sizeof(e));	/* EOF once exec succeeded (CLOEXEC) */
	close(wl->err_fd);
	wl->err_fd = -1;
	if (n == (ssize_t)sizeof(e)) {
		log_msg(log, LOG_ERR, "cannot run '%s': %s", cmd[0], strerror(e));
		return -e;
	}
	return 0;
}

static void workload__abort(struct workload *wl)
{
	if (wl->pid <= 0)
		return;
	if (wl->go_fd >= 0)
		close(wl->go_fd);	/* the child reads EOF and exits */
	if (wl->err_fd >= 0)
		close(wl->err_fd);
	wl->go_fd = wl->err_fd = -1;
	if (!wl->exited) {
		kill(wl->pid, SIGTERM);
		waitpid(wl->pid, &wl->status, 0);
		wl->exited = 1;
	}
}

/* ---- record ---- */

struct dso_map {
	int32_t pid;
	uint64_t start, end;
	uint32_t name;		/* offset in names */
};

struct hit {
	int32_t pid;
	int kernel;
	uint64_t ip;
};

struct recorder {
	struct perf_writer *w;
	struct capture_evlist *el;
	const struct log *log;
	uint64_t samples, records, lost;
	uint64_t first_time, last_time;
	struct array maps;	/* struct dso_map */
	struct array names;	/* char: NUL-separated filenames */
	struct array forks;	/* int32_t pairs (pid, ppid) */
	struct array hits;	/* struct hit */
	int err;
};

static int recorder__add_map(struct recorder *r, int32_t pid, uint64_t start, uint64_t len, const char *name,
			     size_t max)
{
	size_t n = strnlen(name, max);
	struct dso_map *m;
	size_t off = r->names.len;

	if (n == max || off > UINT32_MAX)
		return 0;	/* unterminated name: ignore for build ids */
	if (array__append(&r->names, name, n + 1))
		return -ENOMEM;
	m = array__push(&r->maps);
	if (!m)
		return -ENOMEM;
	m->pid = pid;
	m->start = start;
	m->end = start + len < start ? UINT64_MAX : start + len;
	m->name = (uint32_t)off;
	return 0;
}

static int recorder__add_hit(struct recorder *r, int32_t pid, int kernel, uint64_t ip)
{
	struct hit *h = array__push(&r->hits);

	if (!h)
		return -ENOMEM;
	h->pid = pid;
	h->kernel = kernel;
	h->ip = ip;
	return 0;
}

/* what the file needs besides the record itself: samples, maps, forks */
static int recorder__note(struct recorder *r, const void *rec, size_t size)
{
	const struct perf_event_header *h = rec;
	const unsigned char *b = rec;

	switch (h->type) {
	case PERF_RECORD_SAMPLE: {
		struct capture_sample s;
		int kernel;

		if (capture__parse_sample(r->el, rec, size, &s))
			return 0;
		r->samples++;
		if (s.time && (!r->first_time || s.time < r->first_time))
			r->first_time = s.time;
		if (s.time > r->last_time)
			r->last_time = s.time;
		kernel = s.cpumode == PERF_RECORD_MISC_KERNEL;
		if (recorder__add_hit(r, (int32_t)s.pid, kernel, s.ip))
			return -ENOMEM;
		/* callchain entries: PERF_CONTEXT_* markers switch between kernel and user */
		for (uint64_t i = 0; i < s.nr_chain; i++) {
			uint64_t ip = s.chain[i];

			if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
				kernel = ip == (uint64_t)PERF_CONTEXT_KERNEL;
				continue;
			}
			if (i == 0 || ip == s.ip)
				continue;
			if (recorder__add_hit(r, (int32_t)s.pid, kernel, ip))
				return -ENOMEM;
		}
		return 0;
	}
	case PERF_RECORD_MMAP:
		/* pid, tid, start, len, pgoff, filename */
		if (size < 8 + 32 + 1)
			return 0;
		{
			uint32_t pid;
			uint64_t start, len;

			memcpy(&pid, b + 8, 4);
			memcpy(&start, b + 16, 8);
			memcpy(&len, b + 24, 8);
			return recorder__add_map(r, (int32_t)pid, start, len, (const char *)b + 40, size - 40);
		}
	case PERF_RECORD_MMAP2:
		/* pid, tid, start, len, pgoff, maj/min or build id (24), prot, flags, filename */
		if (size < 8 + 64 + 1)
			return 0;
		{
			uint32_t pid;
			uint64_t start, len;

			memcpy(&pid, b + 8, 4);
			memcpy(&start, b + 16, 8);
			memcpy(&len, b + 24, 8);
			return recorder__add_map(r, (int32_t)pid, start, len, (const char *)b + 72, size - 72);
		}
	case PERF_RECORD_FORK:
		if (size >= 8 + 16) {
			int32_t pp[2];

			memcpy(&pp[0], b + 8, 4);
			memcpy(&pp[1], b + 12, 4);
			if (pp[0] != pp[1] && array__append(&r->forks, pp, 1))
				return -ENOMEM;
		}
		return 0;
	case PERF_RECORD_LOST:
		if (size >= 24) {
			uint64_t lost;

			memcpy(&lost, b + 16, 8);
			r->lost += lost;
		}
		return 0;
	default:
		return 0;
	}
}

static int recorder__record(void *ctx, const void *rec, size_t size)
{
	struct recorder *r = ctx;
	int err = perf_writer__write(r->w, rec, size);

	if (err)
		return err;
	r->records++;
	return recorder__note(r, rec, size);
}

static int cmp_map(const void *a, const void *b)
{
	const struct dso_map *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->start > y->start) - (x->start < y->start);
}

static int cmp_hit(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;

	if (x->kernel != y->kernel)
		return x->kernel - y->kernel;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->ip > y->ip) - (x->ip < y->ip);
}

/* the last map of pid starting at or below ip that contains it */
static const struct dso_map *find_map(const struct array *maps, int32_t pid, uint64_t ip)
{
	const struct dso_map *m = maps->data;
	size_t lo = 0, hi = maps->len;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m[mid].pid < pid || (m[mid].pid == pid && m[mid].start <= ip))
			lo = mid + 1;
		else
			hi = mid;
	}
	/* lo: first map after (pid, ip); the latest-starting maps of pid below ip come first (bounded walk) */
	for (int steps = 0; lo > 0 && m[lo - 1].pid == pid && steps < 64; steps++, lo--)
		if (ip < m[lo - 1].end)
			return &m[lo - 1];
	return NULL;
}

static int32_t parent_of(const struct array *forks, int32_t pid)
{
	const int32_t *pp = forks->data;

	for (size_t i = forks->len; i-- > 0;)	/* the latest fork of pid */
		if (pp[2 * i] == pid)
			return pp[2 * i + 1];
	return -1;
}

/* BUILD_ID entries for every DSO with a sample (or a callchain entry) in it */
static int recorder__build_ids(struct recorder *r)
{
	struct hit *hits = r->hits.data;
	const char *names;
	unsigned char *done;
	size_t nr_hits = 0;
	int kernel_hit = 0, err = 0;

	qsort(r->hits.data, r->hits.len, sizeof(struct hit), cmp_hit);
	qsort(r->maps.data, r->maps.len, sizeof(struct dso_map), cmp_map);
	names = r->names.data;
	done = calloc(r->names.len + 1, 1);	/* by name offset: 1 = handled */
	if (!done)
		return -ENOMEM;
	for (size_t i = 0; i < r->hits.len; i++) {
		const struct dso_map *m = NULL;
		int32_t pid;

		if (i && !cmp_hit(&hits[i - 1], &hits[i]))
			continue;
		nr_hits++;
		if (hits[i].kernel) {
			kernel_hit = 1;
			continue;
		}
		pid = hits[i].pid;
		for (int depth = 0; depth < 16 && pid > 0 && !m; depth++) {
			m = find_map(&r->maps, pid, hits[i].ip);
			if (!m)
				pid = parent_of(&r->forks, pid);
		}
		if (m && !done[m->name]) {
			const char *name = names + m->name;
			uint8_t id[20];
			size_t idsz = 0;
			int e = -ENOENT;

			done[m->name] = 1;
			/* one entry per file name: mark every copy of that name */
			for (size_t k = 0; k < r->maps.len; k++) {
				const struct dso_map *o = &ARRAY_AT(&r->maps, struct dso_map, k);

				if (!done[o->name] && strcmp(names + o->name, name) == 0)
					done[o->name] = 1;
			}
			if (strcmp(name, "[vdso]") == 0)
				e = synth__vdso_build_id(id, &idsz);
			else if (name[0] == '/')
				e = synth__file_build_id(name, id, &idsz);
			if (!e)
				err = perf_writer__add_build_id(r->w, -1, PERF_RECORD_MISC_USER, id, idsz, name);
			if (err)
				break;
		}
	}
	if (!err && kernel_hit) {
		uint8_t id[20];
		size_t idsz = 0;

		if (!synth__kernel_build_id(id, &idsz))
			err = perf_writer__add_build_id(r->w, -1, PERF_RECORD_MISC_KERNEL, id, idsz, "[kernel.kallsyms]");
	}
	free(done);
	(void)nr_hits;
	return err;
}

/* PERF_RECORD_ID_INDEX: { id, idx (ring), cpu, tid } per id, split to fit 64 KiB records */
static int write_id_index(struct perf_writer *w, const struct capture *c)
{
	const size_t max_per = (65528 - 16) / 32;
	uint64_t *buf = malloc(65536);
	size_t done = 0;
	int err = 0;

	if (!buf)
		return -ENOMEM;
	while (done < c->nr_fds && !err) {
		struct perf_event_header h;
		size_t n = 0;

		for (; done < c->nr_fds && n < max_per; done++) {
			const struct capture_fd *f = &c->fds[done];
			uint64_t *e;

			if (f->fd < 0)
				continue;
			e = buf + 2 + 4 * n;
			e[0] = f->id;
			e[1] = f->ring >= 0 ? (uint64_t)f->ring : 0;
			e[2] = (uint64_t)(int64_t)f->cpu;
			e[3] = (uint64_t)(int64_t)f->tid;
			n++;
		}
		if (!n)
			break;
		h.type = PERF_RECORD_ID_INDEX;
		h.misc = 0;
		h.size = (uint16_t)(16 + 32 * n);
		memcpy(buf, &h, sizeof(h));
		buf[1] = n;
		err = perf_writer__write(w, buf, h.size);
	}
	free(buf);
	return err;
}

static int write_user_record(struct perf_writer *w, uint32_t type)
{
	struct perf_event_header h = { type, 0, sizeof(h) };

	return perf_writer__write(w, &h, sizeof(h));
}

static int set_features(struct perf_writer *w, int argc, char **argv)
{
	struct utsname u;
	char host[256];
	long online = sysconf(_SC_NPROCESSORS_ONLN), conf = sysconf(_SC_NPROCESSORS_CONF);
	char *s;
	int err = 0;

	if (uname(&u) == 0) {
		err = perf_writer__set_string(w, PERF_FEAT_OSRELEASE, u.release);
		if (!err)
			err = perf_writer__set_string(w, PERF_FEAT_ARCH, u.machine);
	}
	if (!err && gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = '\0';
		err = perf_writer__set_string(w, PERF_FEAT_HOSTNAME, host);
	}
	if (!err)
		err = perf_writer__set_string(w, PERF_FEAT_VERSION, READPERF_CAPTURE_VERSION);
	if (!err && online > 0)
		err = perf_writer__set_nrcpus(w, (uint32_t)online, (uint32_t)(conf > 0 ? conf : online));
	if (!err && (s = synth__cpudesc())) {
		err = perf_writer__set_string(w, PERF_FEAT_CPUDESC, s);
		free(s);
	}
	if (!err && (s = synth__cpuid())) {
		err = perf_writer__set_string(w, PERF_FEAT_CPUID, s);
		free(s);
	}
	if (!err && synth__total_mem_kb())
		err = perf_writer__set_total_mem(w, synth__total_mem_kb());
	if (!err) {
		/* perf stores its own path first: "readperf record ..." */
		const char **v = calloc((size_t)argc + 1, sizeof(*v));

		if (!v)
			return -ENOMEM;
		v[0] = "readperf";
		for (int i = 0; i < argc; i++)
			v[i + 1] = argv[i];
		err = perf_writer__set_cmdline(w, argc + 1, v);
		free(v);
	}
	return err;
}

static pid_t tgid_of(pid_t tid)
{
	char path[64], line[256];
	FILE *f;
	pid_t tgid = tid;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return tid;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

/* handle pending signals; returns 1 when recording should stop */
static int handle_signals(int sfd, struct workload *wl, int *interrupted)
{
	struct signalfd_siginfo si;
	int stop = 0;

	while (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGCHLD) {
			if (wl && wl->pid > 0 && !wl->exited && waitpid(wl->pid, &wl->status, WNOHANG) == wl->pid) {
				wl->exited = 1;
				stop = 1;
			}
		} else {
			*interrupted = 1;
			stop = 1;
		}
	}
	return stop;
}

int cmd_record(int argc, char **argv, const struct log *log)
{
	struct capture_args a;
	struct capture cap;
	struct recorder r;
	struct workload wl = { -1, -1, -1, 0, 0 };
	struct perf_writer_opts wopts;
	struct pollfd *pfds = NULL;
	size_t nr_pfds = 0;
	sigset_t mask, orig_mask;
	int sfd = -1, out_fd = -1, pipe_out, interrupted = 0, opened = 0;
	int ret = EXIT_SYSTEM, err;
	unsigned pages;
	struct synth_ctx sc;

	if (parse_args(&a, argc, argv, 0, log))
		return EXIT_USAGE;
	capture_evlist__config(&a.el, &a.opts);
	memset(&r, 0, sizeof(r));
	array__init(&r.maps, sizeof(struct dso_map));
	array__init(&r.names, 1);
	array__init(&r.forks, 2 * sizeof(int32_t));
	array__init(&r.hits, sizeof(struct hit));
	r.el = &a.el;
	r.log = log;

	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, &orig_mask);
	sfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (sfd < 0) {
		log_msg(log, LOG_ERR, "signalfd: %s", strerror(errno));
		goto out;
	}

	pipe_out = strcmp(a.output, "-") == 0;
	if (pipe_out) {
		out_fd = STDOUT_FILENO;
	} else {
		struct stat st;
		char old[PATH_MAX];

		/* perf keeps the previous perf.data as perf.data.old */
		if (stat(a.output, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
		    snprintf(old, sizeof(old), "%s.old", a.output) < (int)sizeof(old))
			rename(a.output, old);
		out_fd = open(a.output, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (out_fd < 0) {
			log_msg(log, LOG_ERR, "%s: %s", a.output, strerror(errno));
			goto out;
		}
	}

	if (a.opts.target == CAPTURE_TARGET_CMD) {
		if (workload__start(&wl, a.cmd, &orig_mask, log))
			goto out;
		a.opts.pid = wl.pid;
	}
	err = capture__open(&cap, &a.el, &a.opts, log);
	if (err)
		goto out;
	opened = 1;
	pages = a.opts.mmap_pages ? a.opts.mmap_pages : 128;
	if (capture__mmap(&cap, pages) || capture__pollfds(&cap, &pfds, &nr_pfds))
		goto out;

	wopts.pipe = pipe_out;
	wopts.log = log;
	if (perf_writer__new(&r.w, out_fd, &wopts))
		goto out;
	for (size_t i = 0; i < a.el.nr; i++) {
		uint64_t *ids;
		size_t nr;

		if (capture__event_ids(&cap, (int)i, &ids, &nr))
			goto out;
		err = perf_writer__add_attr(r.w, &a.el.events[i].attr, ids, nr, a.el.events[i].name);
		free(ids);
		if (err)
			goto out;
	}
	if (set_features(r.w, argc, argv) || perf_writer__start(r.w) || write_id_index(r.w, &cap))
		goto out;

	sc.emit = recorder__record;
	sc.ctx = &r;
	sc.id_hdr_size = capture_evlist__id_hdr_size(&a.el);
	sc.log = log;
	err = synth__kernel_mmap(&sc);
	if (!err && (a.opts.target == CAPTURE_TARGET_SYSTEM || a.opts.target == CAPTURE_TARGET_CPUS))
		err = synth__all(&sc);
	else if (!err && (a.opts.target == CAPTURE_TARGET_PID || a.opts.target == CAPTURE_TARGET_TID))
		err = synth__process(&sc, tgid_of(a.opts.pid));
	if (err && err != -ESRCH) {
		log_msg(log, LOG_ERR, "synthesizing records from /proc: %s", strerror(-err));
		goto out;
	}
	if (write_user_record(r.w, PERF_RECORD_FINISHED_INIT))
		goto out;

	if (a.opts.target == CAPTURE_TARGET_CMD) {
		if (workload__go(&wl, a.cmd, log)) {
			waitpid(wl.pid, &wl.status, 0);
			wl.exited = 1;
			goto out;
		}
	} else if (capture__enable(&cap)) {
		log_msg(log, LOG_ERR, "enabling the events: %s", strerror(errno));
		goto out;
	}

	{
		struct pollfd *all = calloc(nr_pfds + 1, sizeof(*all));
		int stop = 0;

		if (!all)
			goto out;
		memcpy(all, pfds, nr_pfds * sizeof(*all));
		all[nr_pfds].fd = sfd;
		all[nr_pfds].events = POLLIN;
		for (;;) {
			long n = capture__read_pass(&cap, recorder__record, &r);

			if (n < 0) {
				log_msg(log, LOG_ERR, "%s: writing records: %s", a.output, strerror((int)-n));
				free(all);
				goto out;
			}
			if (n > 0 && write_user_record(r.w, PERF_RECORD_FINISHED_ROUND)) {
				free(all);
				goto out;
			}
			if (stop)
				break;
			/* the rings wake us at their watermark; the timeout bounds the latency of a stop */
			if (poll(all, nr_pfds + 1, n > 0 ? 0 : 100) < 0 && errno != EINTR) {
				log_msg(log, LOG_ERR, "poll: %s", strerror(errno));
				free(all);
				goto out;
			}
			if (handle_signals(sfd, &wl, &interrupted)) {
				/* stop the events, then one last pass drains the rings */
				capture__disable(&cap);
				stop = 1;
			}
		}
		free(all);
	}
	if (wl.pid > 0 && !wl.exited) {
		kill(wl.pid, SIGTERM);
		waitpid(wl.pid, &wl.status, 0);
		wl.exited = 1;
	}
	if (recorder__build_ids(&r))
		goto out;
	if (r.samples && perf_writer__set_sample_time(r.w, r.first_time, r.last_time))
		goto out;
	if (perf_writer__finish(r.w))
		goto out;
	if (r.lost)
		log_msg(log, LOG_WARN, "%" PRIu64 " records lost (the rings overflowed): try --mmap-pages %u or a lower -F",
			r.lost, pages * 4);
	if (!a.quiet)
		log_msg(log, LOG_INFO, "[ readperf record: wrote %.3f MB %s (%" PRIu64 " samples) ]",
			(double)perf_writer__data_size(r.w) / (1024.0 * 1024.0), pipe_out ? "to stdout" : a.output,
			r.samples);
	ret = EXIT_OK;
out:
	free(pfds);
	perf_writer__delete(r.w);
	if (opened)
		capture__close(&cap);
	workload__abort(&wl);
	if (out_fd >= 0 && !pipe_out)
		close(out_fd);
	if (sfd >= 0)
		close(sfd);
	sigprocmask(SIG_SETMASK, &orig_mask, NULL);
	array__release(&r.maps);
	array__release(&r.names);
	array__release(&r.forks);
	array__release(&r.hits);
	capture_evlist__release(&a.el);
	return ret;
}

/* ---- stat ---- */

static double timespec_diff(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static int is_clock_event(const struct capture_event *e)
{
	return e->attr.type == PERF_TYPE_SOFTWARE &&
	       (e->attr.config == PERF_COUNT_SW_TASK_CLOCK || e->attr.config == PERF_COUNT_SW_CPU_CLOCK);
}

static void print_stat(const struct capture_args *a, const struct capture_count *counts, double elapsed,
		       const struct rusage *ru)
{
	FILE *out = stderr;
	double task_ms = 0;
	int have_task = 0;

	for (size_t i = 0; i < a->el.nr; i++) {
		const struct capture_event *e = &a->el.events[i];

		if (e->attr.type == PERF_TYPE_SOFTWARE && e->attr.config == PERF_COUNT_SW_TASK_CLOCK &&
		    counts[i].counted) {
			task_ms = counts[i].scaled / 1e6;
			have_task = 1;
		}
	}
	if (!a->sep) {
		fprintf(out, "\n Performance counter stats for '");
		for (int i = 0; i < a->cmd_argc; i++)
			fprintf(out, "%s%s", i ? " " : "", a->cmd[i]);
		fprintf(out, "':\n\n");
	}
	for (size_t i = 0; i < a->el.nr; i++) {
		const struct capture_event *e = &a->el.events[i];
		const struct capture_count *c = &counts[i];
		char val[64], metric[64] = "", munit[32] = "";
		const char *unit = "";
		double pct = c->ena ? 100.0 * (double)c->run / (double)c->ena : 0;

		if (!c->counted) {
			snprintf(val, sizeof(val), "<not counted>");
		} else if (is_clock_event(e)) {
			snprintf(val, sizeof(val), "%.2f", c->scaled / 1e6);
			unit = "msec";
			if (e->attr.config == PERF_COUNT_SW_TASK_CLOCK && elapsed > 0) {
				snprintf(metric, sizeof(metric), "%.3f", c->scaled / 1e9 / elapsed);
				snprintf(munit, sizeof(munit), "CPUs utilized");
			}
		} else {
			snprintf(val, sizeof(val), "%.0f", c->scaled);
			if (have_task && task_ms > 0) {
				double rate = c->scaled / (task_ms / 1e3);
				const char *u = "/sec";

				if (rate >= 1e9) {
					rate /= 1e9;
					u = "G/sec";
				} else if (rate >= 1e6) {
					rate /= 1e6;
					u = "M/sec";
				} else if (rate >= 1e3) {
					rate /= 1e3;
					u = "K/sec";
				}
				snprintf(metric, sizeof(metric), "%.3f", rate);
				snprintf(munit, sizeof(munit), "%s", u);
			}
		}
		if (a->sep) {
			/* perf stat -x: value,unit,event,run time,percent running,metric,metric unit */
			fprintf(out, "%s%s%s%s%s%s%" PRIu64 "%s%.2f%s%s%s%s\n", val, a->sep, unit, a->sep, e->name, a->sep,
				c->run, a->sep, pct, a->sep, metric, a->sep, munit);
			continue;
		}
		fprintf(out, "%18s %-4s %-32s", val, unit, e->name);
		if (*metric)
			fprintf(out, " # %8s %-20s", metric, munit);
		if (c->counted && c->run < c->ena)
			fprintf(out, "  (%.2f%%)", pct);
		fprintf(out, "\n");
	}
	if (!a->sep) {
		fprintf(out, "\n %16.9f seconds time elapsed\n\n", elapsed);
		fprintf(out, " %16.9f seconds user\n", (double)ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6);
		fprintf(out, " %16.9f seconds sys\n\n", (double)ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6);
	}
}

int cmd_stat(int argc, char **argv, const struct log *log)
{
	struct capture_args a;
	struct capture cap;
	struct capture_count *counts = NULL;
	struct workload wl = { -1, -1, -1, 0, 0 };
	struct rusage ru;
	struct timespec t0, t1;
	sigset_t mask, orig_mask;
	int ret = EXIT_SYSTEM, opened = 0;

	if (parse_args(&a, argc, argv, 1, log))
		return EXIT_USAGE;
	/* the command is always ours; -a/-C/-p choose what is counted while it runs */
	capture_evlist__config(&a.el, &a.opts);
	memset(&ru, 0, sizeof(ru));
	/* like perf stat: Ctrl-C reaches the command; we print the counts after it exits */
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGQUIT);
	sigprocmask(SIG_BLOCK, &mask, &orig_mask);
	if (workload__start(&wl, a.cmd, &orig_mask, log))
		goto out;
	if (a.opts.target == CAPTURE_TARGET_CMD)
		a.opts.pid = wl.pid;
	if (capture__open(&cap, &a.el, &a.opts, log))
		goto out;
	opened = 1;
	counts = calloc(a.el.nr, sizeof(*counts));
	if (!counts)
		goto out;
	if (a.opts.target != CAPTURE_TARGET_CMD && capture__enable(&cap))
		goto out;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (workload__go(&wl, a.cmd, log)) {
		waitpid(wl.pid, &wl.status, 0);
		wl.exited = 1;
		goto out;
	}
	while (wait4(wl.pid, &wl.status, 0, &ru) < 0) {
		if (errno != EINTR) {
			log_msg(log, LOG_ERR, "waiting for '%s': %s", a.cmd[0], strerror(errno));
			goto out;
		}
	}
	wl.exited = 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (a.opts.target != CAPTURE_TARGET_CMD)
		capture__disable(&cap);
	for (size_t i = 0; i < a.el.nr; i++) {
		int err = capture__read_count(&cap, (int)i, &counts[i]);

		if (err) {
			log_msg(log, LOG_ERR, "reading event '%s': %s", a.el.events[i].name, strerror(-err));
			goto out;
		}
	}
	print_stat(&a, counts, timespec_diff(&t0, &t1), &ru);
	if (WIFSIGNALED(wl.status) && WTERMSIG(wl.status) != SIGINT)
		log_msg(log, LOG_WARN, "'%s' was killed by signal %d", a.cmd[0], WTERMSIG(wl.status));
	ret = EXIT_OK;
out:
	free(counts);
	if (opened)
		capture__close(&cap);
	workload__abort(&wl);
	{
		/* drop a Ctrl-C that was meant for the command */
		struct timespec zero = { 0, 0 };

		while (sigtimedwait(&mask, NULL, &zero) > 0)
			;
	}
	sigprocmask(SIG_SETMASK, &orig_mask, NULL);
	capture_evlist__release(&a.el);
	return ret;
}

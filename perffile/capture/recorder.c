/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * recorder__run() and counter__run(): the capture loops behind `readperf
 * record` and `readperf stat` (contract in recorder.h).
 *
 * The command is forked at once and held on a pipe until its events are
 * open (enable_on_exec then starts them at the exec); a second pipe with
 * O_CLOEXEC brings back the errno of a failed exec.  While recording, the
 * recorder notes MMAP/MMAP2/FORK records and the addresses of samples and
 * callchains, so that at the end only DSOs that were hit get BUILD_ID
 * entries, as perf's build-id collection does.  Follows
 * tools/perf/builtin-record.c (record__mmap_read_all, record__synthesize,
 * perf_evlist__prepare_workload, write_finished_init) and
 * tools/perf/builtin-stat.c (the fork/wait around the counters).
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
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/array.h"
#include "util/fs.h"
#include "util/hashmap.h"
#include "util/log.h"
#include "perffile/capture/capture.h"
#include "perffile/capture/synth.h"
#include "perffile/features.h"
#include "perffile/layout.h"
#include "perffile/record.h"
#include "perffile/capture/recorder.h"
#include "perffile/writer.h"

/* ---- the workload: forked, held on a pipe until the events are open ---- */

struct workload {
	pid_t pid;
	int go_fd;		/* write end: one byte starts the command */
	int err_fd;		/* read end: errno of a failed exec */
	int status;
	int exited;
	int stdout_to_stderr;	/* the data goes to our stdout: keep the command's output out of it */
};

static int workload__start(struct workload *wl, char *const *cmd, const sigset_t *orig_mask,
			   const struct log *log)
{
	int go[2], errp[2];

	wl->pid = -1;
	wl->exited = 0;
	if (pipe2(go, O_CLOEXEC) < 0) {
		int err = -errno;

		log_msg(log, LOG_ERR, "cannot start '%s': pipe: %s", cmd[0], strerror(-err));
		return err;
	}
	if (pipe2(errp, O_CLOEXEC) < 0) {
		int err = -errno;

		log_msg(log, LOG_ERR, "cannot start '%s': pipe: %s", cmd[0], strerror(errno));
		close(go[0]);
		close(go[1]);
		return err;
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
		if (wl->stdout_to_stderr && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(127);
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
static int workload__go(struct workload *wl, char *const *cmd, const struct log *log)
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
	struct array names;	/* char: NUL-separated filenames, each once */
	struct hashmap name_ids;	/* filename -> its offset in names + 1 */
	struct array forks;	/* int32_t pairs (pid, ppid) */
	struct array hits;	/* struct hit */
	size_t compact_at;	/* compact hits when they reach this many */
	const char *buildid_dir;	/* record_opts.buildid_dir */
	int64_t flushed_ns;	/* CLOCK_MONOTONIC of the last flush to disk, 0 before the first */
};

#define HITS_COMPACT_MIN ((size_t)1 << 20)

static int recorder__add_map(struct recorder *r, int32_t pid, uint64_t start, uint64_t len, const char *name,
			     size_t max)
{
	size_t n = strnlen(name, max);
	struct dso_map *m;
	size_t off = r->names.len;
	void **slot;
	int added;

	if (n == max || off > UINT32_MAX - n - 1)
		return 0;	/* unterminated name: ignore for build ids */
	/* one copy of each name: a long -a run maps the same libraries again and again */
	added = hashmap__insert(&r->name_ids, name, n, &slot);
	if (added < 0)
		return -ENOMEM;
	if (added) {
		if (array__append(&r->names, name, n + 1))
			return -ENOMEM;
		*slot = (void *)(uintptr_t)(off + 1);
	} else {
		off = (uintptr_t)*slot - 1;
	}
	m = array__push(&r->maps);
	if (!m)
		return -ENOMEM;
	m->pid = pid;
	m->start = start;
	m->end = start + len < start ? UINT64_MAX : start + len;
	m->name = (uint32_t)off;
	return 0;
}

static int cmp_hit(const void *a, const void *b);

/* sort and drop duplicate hits so memory follows distinct addresses, not samples */
static void recorder__compact_hits(struct recorder *r)
{
	struct hit *h = r->hits.data;
	size_t w = 0;

	if (r->hits.len)
		qsort(h, r->hits.len, sizeof(*h), cmp_hit);
	for (size_t i = 0; i < r->hits.len; i++)
		if (!w || cmp_hit(&h[w - 1], &h[i]))
			h[w++] = h[i];
	r->hits.len = w;
	r->compact_at = w * 2 > HITS_COMPACT_MIN ? w * 2 : HITS_COMPACT_MIN;
}

static int recorder__add_hit(struct recorder *r, int32_t pid, int kernel, uint64_t ip)
{
	struct hit *h;

	if (r->hits.len >= r->compact_at)
		recorder__compact_hits(r);
	h = array__push(&r->hits);
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
	case PERF_RECORD_MMAP2: {
		/*
		 * pid, tid, start, len, pgoff; MMAP2 then has maj/min or a build id
		 * (24 bytes), prot and flags; the filename follows
		 */
		size_t name_at = h->type == PERF_RECORD_MMAP ? offsetof(struct perf_record_mmap, filename) :
				 offsetof(struct perf_record_mmap2, filename);

		if (size < name_at + 1)
			return 0;
		return recorder__add_map(r, (int32_t)REC_LD(b, struct perf_record_mmap, pid),
					 REC_LD(b, struct perf_record_mmap, start),
					 REC_LD(b, struct perf_record_mmap, len),
					 (const char *)b + name_at, size - name_at);
	}
	case PERF_RECORD_FORK:
		if (size >= offsetof(struct perf_record_fork, time)) {
			int32_t pp[2];

			pp[0] = (int32_t)REC_LD(b, struct perf_record_fork, pid);
			pp[1] = (int32_t)REC_LD(b, struct perf_record_fork, ppid);
			if (pp[0] != pp[1] && array__append(&r->forks, pp, 1))
				return -ENOMEM;
		}
		return 0;
	case PERF_RECORD_LOST:
		if (size >= sizeof(struct perf_record_lost))
			r->lost += REC_LD(b, struct perf_record_lost, lost);
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

static int cmp_fork(const void *a, const void *b)
{
	const int32_t *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

/* the parent of pid from the FORK records (forks sorted by pid), or -1 */
static int32_t parent_of(const struct array *forks, int32_t pid)
{
	const int32_t *pp = forks->data;
	size_t lo = 0, hi = forks->len;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pp[2 * mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < forks->len && pp[2 * lo] == pid ? pp[2 * lo + 1] : -1;
}

/* one binary into the build-id cache, as perf record does (build-id.c build_id_cache__add) */
static int cache_binary(const char *dir, const char *path, const uint8_t *id, size_t idsz)
{
	char hex[2 * 20 + 1], file[PATH_MAX], link[PATH_MAX], target[PATH_MAX];
	struct stat st;
	size_t i;
	int err;

	for (i = 0; i < idsz && i < 20; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	hex[2 * i] = '\0';
	if (snprintf(file, sizeof(file), "%s%s/%s", dir, path, hex) >= (int)sizeof(file) ||
	    snprintf(link, sizeof(link), "%s/.build-id/%.2s", dir, hex) >= (int)sizeof(link) ||
	    snprintf(target, sizeof(target), "../..%s/%s", path, hex) >= (int)sizeof(target))
		return -ENAMETOOLONG;
	err = fs__mkdir_p(file);
	if (!err)
		err = fs__mkdir_p(link);
	if (err)
		return err;
	strcat(file, "/elf");
	if (stat(file, &st) && (err = fs__copy_file(path, file)))
		return err;
	if (snprintf(link + strlen(link), sizeof(link) - strlen(link), "/%s", hex + 2) >= (int)(sizeof(link) - strlen(link)))
		return -ENAMETOOLONG;
	if (symlink(target, link) && errno != EEXIST)
		return -errno;
	return 0;
}

/* BUILD_ID entries for every DSO with a sample (or a callchain entry) in it */
static int recorder__build_ids(struct recorder *r)
{
	struct hit *hits;
	const char *names;
	unsigned char *done;
	int kernel_hit = 0, err = 0;

	recorder__compact_hits(r);
	hits = r->hits.data;
	if (r->maps.len)
		qsort(r->maps.data, r->maps.len, sizeof(struct dso_map), cmp_map);
	if (r->forks.len)
		qsort(r->forks.data, r->forks.len, r->forks.elem, cmp_fork);
	names = r->names.data;
	done = calloc(r->names.len + 1, 1);	/* by name offset: 1 = handled */
	if (!done)
		return -ENOMEM;
	for (size_t i = 0; i < r->hits.len; i++) {
		const struct dso_map *m = NULL;
		int32_t pid;

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

			done[m->name] = 1;	/* names are unique: one BUILD_ID entry per file */
			if (strcmp(name, "[vdso]") == 0)
				e = synth__vdso_build_id(id, &idsz);
			else if (name[0] == '/')
				e = synth__file_build_id(name, id, &idsz);
			if (!e)
				err = perf_writer__add_build_id(r->w, -1, PERF_RECORD_MISC_USER, id, idsz, name);
			if (err)
				break;
			if (!e && r->buildid_dir && name[0] == '/' && (e = cache_binary(r->buildid_dir, name, id, idsz)))
				log_msg(r->log, LOG_WARN, "%s: cannot save %s into the build-id cache: %s",
					r->buildid_dir, name, strerror(-e));
		}
	}
	if (!err && kernel_hit) {
		uint8_t id[20];
		size_t idsz = 0;

		if (!synth__kernel_build_id(id, &idsz))
			err = perf_writer__add_build_id(r->w, -1, PERF_RECORD_MISC_KERNEL, id, idsz, "[kernel.kallsyms]");
	}
	free(done);
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

/*
 * -k: CLOCKID (the clock's resolution in ns) and CLOCK_DATA (version 1,
 * the clock, a wall-clock time and the clock's time read together), as
 * perf record writes them (header.c write_clockid, write_clock_data), so
 * sample times convert to the time of day
 */
static int set_clock_features(struct perf_writer *w, int clockid)
{
	struct timespec res, tod, clk;
	uint64_t res_ns, data[3];
	uint32_t head[2] = { 1, (uint32_t)clockid };
	int err;

	if (clock_getres(clockid, &res) || clock_gettime(CLOCK_REALTIME, &tod) || clock_gettime(clockid, &clk))
		return 0;	/* a clock the kernel took but libc cannot read: the times stay, the reference not */
	res_ns = (uint64_t)res.tv_sec * 1000000000ULL + (uint64_t)res.tv_nsec;
	err = perf_writer__set_feature_raw(w, PERF_FEAT_CLOCKID, &res_ns, sizeof(res_ns));
	memcpy(data, head, sizeof(head));
	data[1] = (uint64_t)tod.tv_sec * 1000000000ULL + (uint64_t)tod.tv_nsec;
	data[2] = (uint64_t)clk.tv_sec * 1000000000ULL + (uint64_t)clk.tv_nsec;
	if (!err)
		err = perf_writer__set_feature_raw(w, PERF_FEAT_CLOCK_DATA, data, sizeof(data));
	return err;
}

static int set_features(struct perf_writer *w, const struct record_opts *o)
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
	if (!err && o->version)
		err = perf_writer__set_string(w, PERF_FEAT_VERSION, o->version);
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
	if (!err && o->cmdline_argc > 0 && o->cmdline)
		err = perf_writer__set_cmdline(w, o->cmdline_argc, o->cmdline);
	if (!err && o->capture.use_clockid)
		err = set_clock_features(w, o->capture.clockid);
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

/* every event fd reports POLLHUP: the watched tasks exited (-p, -t) */
static int all_hung_up(const struct pollfd *fds, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (!(fds[i].revents & (POLLHUP | POLLERR)))
			return 0;
	return nr > 0;
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

static void recorder__init(struct recorder *r, struct capture_evlist *el, const struct log *log)
{
	memset(r, 0, sizeof(*r));
	array__init(&r->maps, sizeof(struct dso_map));
	array__init(&r->names, 1);
	array__init(&r->forks, 2 * sizeof(int32_t));
	array__init(&r->hits, sizeof(struct hit));
	hashmap__init(&r->name_ids);
	r->el = el;
	r->log = log;
	r->compact_at = HITS_COMPACT_MIN;
}

static void recorder__release(struct recorder *r)
{
	perf_writer__delete(r->w);
	r->w = NULL;
	array__release(&r->maps);
	array__release(&r->names);
	hashmap__release(&r->name_ids, NULL);
	array__release(&r->forks);
	array__release(&r->hits);
}

/* the tracepoints' formats (the TRACING_DATA section), without which perf reads no tracepoint sample */
static int set_tracing_data(struct perf_writer *w, const struct capture_evlist *el, const struct log *log)
{
	struct array data;
	size_t i;
	int err;

	for (i = 0; i < el->nr && el->events[i].attr.type != PERF_TYPE_TRACEPOINT; i++)
		;
	if (i == el->nr)
		return 0;
	array__init(&data, 1);
	err = synth__tracing_data(el, &data);
	if (err)
		log_msg(log, LOG_ERR, "the formats of the tracepoints (tracefs): %s", strerror(-err));
	else
		err = perf_writer__set_feature_raw(w, PERF_FEAT_TRACING_DATA, data.data, data.len);
	array__release(&data);
	return err;
}

/* the writer with every attr (and its ids) and the features known at the start; then ID_INDEX */
static int recorder__start_file(struct recorder *r, const struct capture *cap, const struct record_opts *o)
{
	struct perf_writer_opts wopts = { .pipe = o->pipe, .log = r->log, .name = o->out_name,
					  .zstd_level = o->zstd_level };
	unsigned pages = o->capture.mmap_pages ? o->capture.mmap_pages : 128;
	int err;

	/* what perf puts in the COMPRESSED feature: the ring's size with its header page */
	wopts.zstd_mmap_len = (uint32_t)((pages + 1) * (unsigned)sysconf(_SC_PAGESIZE));

	err = perf_writer__new(&r->w, o->out_fd, &wopts);
	for (size_t i = 0; !err && i < r->el->nr; i++) {
		uint64_t *ids;
		size_t nr;

		err = capture__event_ids(cap, (int)i, &ids, &nr);
		if (err)
			break;
		err = perf_writer__add_attr(r->w, &r->el->events[i].attr, ids, nr, r->el->events[i].name);
		free(ids);
	}
	if (!err)
		err = set_features(r->w, o);
	if (!err)
		err = set_tracing_data(r->w, r->el, r->log);
	if (!err)
		err = perf_writer__start(r->w);
	if (!err)
		err = write_id_index(r->w, cap);
	return err;
}

/* kernel MMAP, and COMM/FORK/MMAP2 of the tasks that run already; FINISHED_INIT after them */
static int recorder__synthesize(struct recorder *r, const struct capture_opts *co)
{
	struct synth_ctx sc = {
		.emit = recorder__record,
		.ctx = r,
		.id_hdr_size = capture_evlist__id_hdr_size(r->el),
		.log = r->log,
	};
	int err = synth__kernel_mmap(&sc);

	if (!err && (co->target == CAPTURE_TARGET_SYSTEM || co->target == CAPTURE_TARGET_CPUS))
		err = synth__all(&sc);
	else if (!err && (co->target == CAPTURE_TARGET_PID || co->target == CAPTURE_TARGET_TID))
		err = synth__process(&sc, tgid_of(co->pid));
	if (err && err != -ESRCH) {
		log_msg(r->log, LOG_ERR, "synthesizing records from /proc: %s", strerror(-err));
		return err;
	}
	return write_user_record(r->w, PERF_RECORD_FINISHED_INIT);
}

/*
 * Put the rounds on disk every FLUSH_NS, so that a recording killed
 * (SIGKILL, a crash) keeps what it had as perf's does: perf writes every
 * pass, the 256 KiB buffer alone would hold seconds of a -F 999 run.
 */
#define FLUSH_NS 500000000LL

static int recorder__flush_often(struct recorder *r)
{
	struct timespec now;
	int64_t ns;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ns = (int64_t)now.tv_sec * 1000000000LL + now.tv_nsec;
	if (r->flushed_ns && ns - r->flushed_ns < FLUSH_NS)
		return 0;
	r->flushed_ns = ns;
	return perf_writer__flush(r->w);
}

/*
 * Copy the rings into the file until a stop: a signal, the command's exit
 * (SIGCHLD), or every watched task gone (POLLHUP on all event fds).  After a
 * stop the events are disabled and one last pass drains the rings.
 */
static int recorder__loop(struct recorder *r, struct capture *cap, const struct record_opts *o, int sfd,
			  struct workload *wl, int *interrupted)
{
	struct pollfd *pfds = NULL, *all;
	size_t nr_pfds = 0;
	int stop = 0, err;

	err = capture__pollfds(cap, &pfds, &nr_pfds);
	if (err)
		return err;
	all = calloc(nr_pfds + 1, sizeof(*all));
	if (!all) {
		free(pfds);
		return -ENOMEM;
	}
	if (nr_pfds)
		memcpy(all, pfds, nr_pfds * sizeof(*all));
	free(pfds);
	all[nr_pfds].fd = sfd;
	all[nr_pfds].events = POLLIN;
	for (;;) {
		long n = capture__read_pass(cap, recorder__record, r);

		if (n < 0) {
			err = (int)n;
			log_msg(r->log, LOG_ERR, "%s: writing records: %s", o->out_name, strerror(-err));
			break;
		}
		if (n > 0) {
			err = write_user_record(r->w, PERF_RECORD_FINISHED_ROUND);
			if (!err)
				err = recorder__flush_often(r);
			if (err)
				break;
		}
		if (stop)
			break;
		/* the rings wake us at their watermark; the timeout bounds the latency of a stop */
		if (poll(all, nr_pfds + 1, n > 0 ? 0 : 100) < 0 && errno != EINTR) {
			err = -errno;
			log_msg(r->log, LOG_ERR, "poll: %s", strerror(errno));
			break;
		}
		if (handle_signals(sfd, wl, interrupted) || all_hung_up(all, nr_pfds)) {
			capture__disable(cap);
			stop = 1;
		}
	}
	free(all);
	return err;
}

uint64_t recorder__max_freq(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "re");
	uint64_t v = 0;

	if (!f || fscanf(f, "%" SCNu64, &v) != 1 || !v)
		v = 1000;
	if (f)
		fclose(f);
	return v;
}

/* drop signals still pending in mask (a second Ctrl-C during the final steps), then restore the mask */
static void restore_signals(const sigset_t *mask, const sigset_t *orig_mask)
{
	struct timespec zero = { 0, 0 };

	while (sigtimedwait(mask, NULL, &zero) > 0)
		;
	sigprocmask(SIG_SETMASK, orig_mask, NULL);
}

/*
 * Start the command (when there is one) held before its exec, then open the
 * events: on that command when the target is CAPTURE_TARGET_CMD.  After a
 * failure workload__abort() ends the command.
 */
static int open_events(struct capture *cap, struct capture_evlist *el, struct capture_opts *co, char *const *argv,
		       struct workload *wl, const sigset_t *orig_mask, const struct log *log)
{
	int err;

	if (argv) {
		err = workload__start(wl, argv, orig_mask, log);
		if (err)
			return err;
		if (co->target == CAPTURE_TARGET_CMD)
			co->pid = wl->pid;
	}
	return capture__open(cap, el, co, log);
}

/* enable the events (a command's own events start at its exec: enable_on_exec), then let the command run */
static int start_events(struct capture *cap, const struct capture_opts *co, char *const *argv, struct workload *wl,
			const struct log *log)
{
	int err;

	if (co->target != CAPTURE_TARGET_CMD) {
		err = capture__enable(cap);
		if (err) {
			log_msg(log, LOG_ERR, "enabling the events: %s", strerror(-err));
			return err;
		}
	}
	if (argv) {
		err = workload__go(wl, argv, log);
		if (err) {
			waitpid(wl->pid, &wl->status, 0);
			wl->exited = 1;
			return err;
		}
	}
	return 0;
}

int recorder__run(const struct record_opts *o, const struct log *log, struct record_result *res)
{
	struct capture_opts co = o->capture;
	struct capture cap;
	struct recorder r;
	struct workload wl = { -1, -1, -1, 0, 0, 0 };
	sigset_t mask, orig_mask;
	int sfd, opened = 0, err;

	memset(res, 0, sizeof(*res));
	wl.stdout_to_stderr = o->out_fd == STDOUT_FILENO;
	if (!o->events || !o->events->nr || (co.target == CAPTURE_TARGET_CMD && !o->argv))
		return -EINVAL;
	co.mode = CAPTURE_RECORD;
	res->mmap_pages = co.mmap_pages ? co.mmap_pages : 128;
	capture_evlist__config(o->events, &co);
	recorder__init(&r, o->events, log);
	r.buildid_dir = o->buildid_dir;

	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, &orig_mask);
	sfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (sfd < 0) {
		err = -errno;
		log_msg(log, LOG_ERR, "signalfd: %s", strerror(errno));
		goto out_signals;
	}

	/* with -a, -C, -p or -t a command still runs, and the capture ends with it */
	err = open_events(&cap, o->events, &co, o->argv, &wl, &orig_mask, log);
	if (err)
		goto out_workload;
	opened = 1;
	err = capture__mmap(&cap, res->mmap_pages);
	if (!err)
		err = recorder__start_file(&r, &cap, o);
	if (!err)
		err = recorder__synthesize(&r, &co);
	if (err)
		goto out_workload;

	err = start_events(&cap, &co, o->argv, &wl, log);
	if (!err)
		err = recorder__loop(&r, &cap, o, sfd, &wl, &res->interrupted);
	if (err)
		goto out_workload;
	if (wl.pid > 0 && !wl.exited) {
		kill(wl.pid, SIGTERM);
		waitpid(wl.pid, &wl.status, 0);
		wl.exited = 1;
	}
	err = recorder__build_ids(&r);
	if (!err && r.samples)
		err = perf_writer__set_sample_time(r.w, r.first_time, r.last_time);
	if (!err)
		err = perf_writer__finish(r.w);
out_workload:
	res->samples = r.samples;
	res->records = r.records;
	res->lost = r.lost;
	res->data_size = r.w ? perf_writer__data_size(r.w) : 0;
	res->status = wl.exited ? wl.status : 0;
	if (opened)
		capture__close(&cap);
	workload__abort(&wl);
	close(sfd);
out_signals:
	restore_signals(&mask, &orig_mask);
	recorder__release(&r);
	return err;
}

/* ---- counting ---- */

static double timespec_diff(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static int wait_command(struct workload *wl, struct rusage *ru)
{
	while (wait4(wl->pid, &wl->status, 0, ru) < 0)
		if (errno != EINTR)
			return -errno;
	wl->exited = 1;
	return 0;
}

static int64_t ns_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)(now.tv_sec - t0->tv_sec) * 1000000000LL + (now.tv_nsec - t0->tv_nsec);
}

/* what every event counted since prev (which becomes the current sums); 0 or -errno */
static int read_interval(const struct capture *cap, size_t nr, struct capture_count *prev,
			 struct capture_count *delta)
{
	for (size_t i = 0; i < nr; i++) {
		struct capture_count cur;
		int err = capture__read_count(cap, (int)i, &cur);

		if (err)
			return err;
		delta[i].val = cur.val - prev[i].val;
		delta[i].ena = cur.ena - prev[i].ena;
		delta[i].run = cur.run - prev[i].run;
		delta[i].counted = capture__scale(delta[i].val, delta[i].ena, delta[i].run, &delta[i].scaled);
		prev[i] = cur;
	}
	return 0;
}

/*
 * perf stat -I: wake at every multiple of the interval from t0 (a pidfd
 * says when the command exits), read the counts and hand over what each
 * event counted since the last wake-up; the last interval ends at the exit
 */
static int wait_intervals(const struct capture *cap, const struct count_opts *o, struct workload *wl,
			  struct rusage *ru, const struct timespec *t0)
{
	size_t nr = o->events->nr;
	struct capture_count *prev = calloc(nr, sizeof(*prev)), *delta = calloc(nr, sizeof(*delta));
	int64_t step = (int64_t)o->interval_ms * 1000000LL, next = step, last = 0;
	struct pollfd pfd = { (int)syscall(SYS_pidfd_open, wl->pid, 0), POLLIN, 0 };
	int err = 0, done = 0;

	if (!prev || !delta || pfd.fd < 0)
		err = !prev || !delta ? -ENOMEM : -errno;
	while (!err && !done) {
		int64_t now = ns_since(t0);

		if (now < next && poll(&pfd, 1, (int)((next - now + 999999) / 1000000)) < 0 && errno != EINTR) {
			err = -errno;
			break;
		}
		if (pfd.revents & POLLIN) {
			err = wait_command(wl, ru);
			done = 1;
		} else if (ns_since(t0) < next) {
			continue;	/* woken early */
		}
		now = ns_since(t0);
		if (!err)
			err = read_interval(cap, nr, prev, delta);
		if (!err)
			o->interval_fn(o->interval_ctx, (double)now / 1e9, (double)(now - last) / 1e9, delta, nr);
		last = now;
		while (next <= now)
			next += step;
	}
	if (pfd.fd >= 0)
		close(pfd.fd);
	free(prev);
	free(delta);
	return err;
}

int counter__run(const struct count_opts *o, const struct log *log, struct count_result *res)
{
	struct capture_opts co = o->capture;
	struct capture_count *counts = NULL;
	struct capture cap;
	struct workload wl = { -1, -1, -1, 0, 0, 0 };
	struct rusage ru;
	struct timespec t0, t1;
	sigset_t mask, orig_mask;
	int opened = 0, err;

	memset(res, 0, sizeof(*res));
	if (!o->events || !o->events->nr || !o->argv)
		return -EINVAL;
	/* the command is always ours; -a/-C/-p choose what is counted while it runs */
	co.mode = CAPTURE_STAT;
	capture_evlist__config(o->events, &co);
	memset(&ru, 0, sizeof(ru));
	/* like perf stat: Ctrl-C reaches the command; the counts are read after it exits */
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGQUIT);
	sigprocmask(SIG_BLOCK, &mask, &orig_mask);
	err = open_events(&cap, o->events, &co, o->argv, &wl, &orig_mask, log);
	if (err)
		goto out_workload;
	opened = 1;
	counts = calloc(o->events->nr, sizeof(*counts));
	if (!counts) {
		err = -ENOMEM;
		goto out_workload;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = start_events(&cap, &co, o->argv, &wl, log);
	if (err)
		goto out_workload;
	err = o->interval_ms ? wait_intervals(&cap, o, &wl, &ru, &t0) : wait_command(&wl, &ru);
	if (err) {
		log_msg(log, LOG_ERR, "waiting for '%s': %s", o->argv[0], strerror(-err));
		goto out_workload;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (co.target != CAPTURE_TARGET_CMD)
		capture__disable(&cap);
	for (size_t i = 0; i < o->events->nr; i++) {
		err = capture__read_count(&cap, (int)i, &counts[i]);
		if (err) {
			log_msg(log, LOG_ERR, "reading event '%s': %s", o->events->events[i].name, strerror(-err));
			goto out_workload;
		}
	}
	res->counts = counts;
	res->nr = o->events->nr;
	counts = NULL;
	res->elapsed = timespec_diff(&t0, &t1);
	res->utime = ru.ru_utime;
	res->stime = ru.ru_stime;
	res->status = wl.status;
out_workload:
	free(counts);
	if (opened)
		capture__close(&cap);
	workload__abort(&wl);
	/* drop a Ctrl-C that was meant for the command */
	restore_signals(&mask, &orig_mask);
	return err;
}

void count_result__release(struct count_result *res)
{
	free(res->counts);
	res->counts = NULL;
	res->nr = 0;
}

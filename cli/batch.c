/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * readperf -o DIR FILE FILE... and --files-from LIST: each file analysed
 * (cli/analyse.c) by a child process into DIR/NAME/, -j at once, and
 * DIR/index.csv listing them; the exit status is the worst of the files'.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/analyse.h"
#include "util/array.h"
#include "util/csv.h"
#include "util/fs.h"
#include "util/pathname.h"
#include "util/strbuf.h"

static const char *const profile_exts[] = { ".gz", ".zst", ".data", NULL };
/* the batch's own files beside the profiles' directories: a profile of that name is numbered */
static const char *const top_files[] = { "index.csv", "manifest.csv", NULL };

/* a profile's name from its path: the base name without .gz, .zst and .data; malloc'd */
char *profile_base(const char *path)
{
	return pathname__base(path, profile_exts);
}

struct batch_item {
	const char *path;
	char *name;		/* DIR/name/ */
	pid_t pid;
	int fd;			/* the child's result pipe */
	int status;
	int started;
	struct strbuf res;	/* samples \0 duration \0 hostname \0 version \0 message \0 */
};

static int add_path(void *arg, const char *line)
{
	char **slot = array__push(arg);

	return slot && (*slot = strdup(line)) ? 0 : -ENOMEM;
}

/*
 * --files-from LIST: one path a line ('-': stdin) appended to paths, a line
 * bounded by PATH_MAX; 0 or -errno, said
 */
static int read_list(const char *list, struct array *paths, const struct log *log)
{
	FILE *fp = strcmp(list, "-") ? fopen(list, "r") : stdin;
	unsigned long line = 0;
	int err;

	if (!fp) {
		err = -errno;
		log_msg(log, LOG_ERR, "%s: %s", list, strerror(-err));
		return err;
	}
	err = fs__read_lines(fp, PATH_MAX, add_path, paths, stop_signal, &line);
	if (fp != stdin)
		fclose(fp);
	if (err == -EINVAL)
		log_msg(log, LOG_ERR, "%s: line %lu holds a NUL byte: the list is one path a line", list, line);
	else if (err == -ENAMETOOLONG)
		log_msg(log, LOG_ERR, "%s: line %lu is longer than a path (%d bytes): the list is one path a line",
			list, line, PATH_MAX - 1);
	else if (err && err != -EINTR && err != -ENOMEM)
		log_msg(log, LOG_ERR, "%s: %s", list, strerror(-err));
	return err == -ENAMETOOLONG ? -EINVAL : err;
}

/* a batch reads files: a FIFO without a writer would stop it in open(2), a device would not end */
static int regular_input(const char *path, const struct log *log)
{
	struct stat st;

	if (stat(path, &st) || S_ISREG(st.st_mode))
		return 0;	/* a missing file is the analysis' to say */
	log_msg(log, LOG_ERR, "%s: not a regular file (%s): batch mode reads recordings from files", path,
		S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISDIR(st.st_mode) ? "a directory" : "a device or socket");
	return -EINVAL;
}

/* in batch mode a path output (--flamegraph F...) goes into each profile's directory: DIR/NAME/F's base name */
static int batch_paths(struct analyse_opts *o, const char *dir, struct strbuf *bufs)
{
	size_t id;

	for (id = 0; id < REPORT_MAX_OUTPUTS; id++) {
		const char *p = o->paths[id], *b;

		if (!p)
			continue;
		b = strrchr(p, '/');
		if (strbuf__addf(&bufs[id], "%s/%s", dir, b ? b + 1 : p))
			return -ENOMEM;
		o->paths[id] = bufs[id].buf;
	}
	return 0;
}

/* the child: analyse one file into DIR/name/, the result down the pipe, exit with analyse's code */
static void batch_child(struct analyse_opts *o, const struct batch_item *it, int fd, struct cli *cli, pid_t parent)
{
	struct analyse_result r;
	struct strbuf dir = STRBUF_INIT, out = STRBUF_INIT, paths[REPORT_MAX_OUTPUTS];
	int code;
	size_t i;

	for (i = 0; i < REPORT_MAX_OUTPUTS; i++)
		strbuf__init(&paths[i]);

	memset(&r, 0, sizeof(r));
	cli->first_err[0] = '\0';
	/* the parent gone (SIGKILL), its children stop: nothing else waits for them */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent)
		_exit(128 + SIGTERM);
	if (strbuf__addf(&dir, "%s/%s", o->outdir, it->name) || batch_paths(o, dir.buf, paths))
		_exit(EXIT_SYSTEM);
	o->input = it->path;
	o->outdir = dir.buf;
	o->an.profile = o->profile_col == 0 ? NULL : it->name;
	o->no_summary = 1;
	o->result = &r;
	o->jobs = 1;	/* -j files at once, each in one thread */
	code = regular_input(it->path, &cli->log) ? EXIT_BAD_INPUT : analyse(o, &cli->log);
	strbuf__addf(&out, "%" PRIu64 "%c%" PRIu64 "%c%s%c%s%c%s%c", r.samples, 0, r.duration_ns, 0,
		     r.hostname, 0, r.perf_version, 0, cli->first_err, 0);
	if (write(fd, out.buf, out.len) != (ssize_t)out.len)
		code = code ? code : EXIT_SYSTEM;
	fflush(NULL);
	_exit(code);
}

static int batch_start(struct analyse_opts *o, struct batch_item *it, struct cli *cli)
{
	int p[2];

	if (pipe(p))
		return -errno;
	pid_t parent = getpid();

	fflush(NULL);
	it->pid = fork();
	if (it->pid < 0) {
		int err = -errno;

		close(p[0]);
		close(p[1]);
		return err;
	}
	if (it->pid == 0) {
		close(p[0]);
		batch_child(o, it, p[1], cli, parent);
	}
	close(p[1]);
	it->fd = p[0];
	return 0;
}

/*
 * wait for one child, read its result: 1, or 0 when a signal came first (it
 * is polled: SIGINT/SIGTERM reach the parent while it waits), or -errno
 */
static int batch_reap(struct batch_item *items, size_t n)
{
	static const struct timespec tick = { 0, 20 * 1000 * 1000 };
	char buf[4096];
	ssize_t r;
	size_t i;
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) == 0 && !stop_signal())
		nanosleep(&tick, NULL);
	if (pid < 0)
		return errno == EINTR ? 0 : -errno;
	if (!pid)
		return 0;
	for (i = 0; i < n && items[i].pid != pid; i++)
		;
	if (i == n)
		return 0;
	while ((r = read(items[i].fd, buf, sizeof(buf))) > 0 || (r < 0 && errno == EINTR))
		if (r > 0)
			strbuf__add(&items[i].res, buf, (size_t)r);
	close(items[i].fd);
	items[i].pid = 0;
	items[i].status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	return 1;
}

/* a signal: passed on to the running children (they stop, their previous reports kept), once */
static void batch_forward(struct batch_item *items, size_t n, int sig)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (items[i].pid > 0)
			kill(items[i].pid, sig);
}

/* the i-th \0-terminated field of a child's result, "" when missing */
static const char *res_field(const struct strbuf *res, int i)
{
	const char *p = res->buf, *end = res->buf + res->len;

	for (; i > 0 && p < end; i--)
		p += strlen(p) + 1;
	return p < end ? p : "";
}

static int write_index(const struct analyse_opts *o, const char *dir, const struct batch_item *items, size_t n)
{
	static const char *const cols[] = { "profile", "path", "status", "samples", "duration_ns", "hostname",
					    "perf_version", "message", NULL };
	struct csv c;
	size_t i;
	int err = csv__open(&c, dir, "index.csv");

	if (err)
		return err;
	csv__set_raw_text(&c, o->an.raw_csv);
	csv__row(&c, cols);
	for (i = 0; i < n; i++) {
		const struct strbuf *r = &items[i].res;

		csv__str(&c, items[i].name);
		csv__str(&c, items[i].path);
		csv__u64(&c, (uint64_t)items[i].status);
		csv__u64(&c, strtoull(res_field(r, 0), NULL, 10));
		csv__u64(&c, strtoull(res_field(r, 1), NULL, 10));
		csv__str(&c, res_field(r, 2));
		csv__str(&c, res_field(r, 3));
		csv__str(&c, items[i].status && !*res_field(r, 4) ? (items[i].started ?
			 "no result (the analysis was killed)" : "not analysed: interrupted") : res_field(r, 4));
		csv__end_row(&c);
	}
	return csv__commit(&c);
}

/*
 * DIR/index.csv and DIR's manifest (the command, index.csv) as one
 * transaction, which removes the reports an earlier run left in DIR itself
 * (DIR/NAME/ has its own); 0 or -errno (said, but ENOMEM)
 */
static int commit_index(const struct analyse_opts *o, const struct batch_item *items, size_t n,
			const struct log *log)
{
	struct csv_txn txn = { 0 };
	int err;

	csv__remove_stale(o->outdir);
	err = csv_txn__begin(&txn, o->outdir);
	if (!err)
		err = write_index(o, txn.stage, items, n);
	if (err)
		log_msg(log, LOG_ERR, "%s/index.csv: cannot write: %s", o->outdir, strerror(-err));
	if (!err)
		err = commit_manifest(o, &txn, NULL, 0, log);
	if (!err) {
		err = csv_txn__commit(&txn);
		if (err)
			log_msg(log, LOG_ERR, "%s: cannot move index.csv in: %s", o->outdir, strerror(-err));
	}
	csv_txn__abort(&txn);
	return err;
}

/*
 * names for DIR/NAME/: the shortest path suffix that tells a file apart
 * (util/pathname.h), a number for the same path twice (said); 0, -ENOMEM or
 * -EINTR (a signal)
 */
static int batch_names(struct batch_item *items, size_t n, const char *outdir, const struct log *log)
{
	const char **paths = malloc((n ? n : 1) * sizeof(*paths));
	char **names = malloc((n ? n : 1) * sizeof(*names));
	unsigned char *numbered = malloc(n ? n : 1);
	size_t i;
	int err = paths && names && numbered ? 0 : -ENOMEM;

	/* standard input as "stdin", as messages call it: a directory "-" reads as an option */
	for (i = 0; !err && i < n; i++)
		paths[i] = strcmp(items[i].path, "-") ? items[i].path : "stdin";
	if (!err)
		err = pathname__unique(paths, n, profile_exts, top_files, names, numbered, stop_signal);
	for (i = 0; !err && i < n; i++) {
		items[i].name = names[i];
		if (numbered[i])
			log_msg(log, LOG_INFO, "%s: its name is taken: reports in %s/%s/", items[i].path, outdir,
				items[i].name);
	}
	free(paths);
	free(names);
	free(numbered);
	return err;
}

/*
 * readperf -o DIR FILE FILE... / --files-from LIST: each file analysed by a
 * child process into DIR/NAME/ (-j at once), DIR/index.csv listing them;
 * the exit status is the worst of the files'.
 */
/* -j children at once until all ran, or a signal: passed on, the running ones waited for; 0 or -errno */
static int batch_run(struct analyse_opts *o, struct batch_item *items, size_t n, struct cli *cli)
{
	long jobs = o->jobs > 0 ? o->jobs : sysconf(_SC_NPROCESSORS_ONLN);
	size_t running = 0, next = 0;
	int err = 0, forwarded = 0, r;

	while (!err && ((next < n && !stop_signal()) || running)) {
		if (stop_signal() && !forwarded) {
			batch_forward(items, n, stop_signal());
			forwarded = 1;
		}
		if (!stop_signal() && next < n && (long)running < (jobs > 0 ? jobs : 1)) {
			items[next].started = 1;
			err = batch_start(o, &items[next++], cli);
			running += !err;
			continue;
		}
		r = batch_reap(items, n);
		if (r < 0)
			err = r;
		running -= r > 0;
	}
	for (; next < n; next++)
		items[next].status = 128 + stop_signal();
	return err;
}

/* the command line's files, then --files-from's; 0 or -errno (said) */
static int batch_inputs(const struct analyse_opts *o, char **files, size_t nr_files, struct array *paths,
			const struct log *log)
{
	size_t i;
	int err = 0;

	for (i = 0; i < nr_files && !err; i++)
		err = add_path(paths, files[i]);
	if (!err && o->files_from)
		err = read_list(o->files_from, paths, log);
	if (!err && !paths->len) {
		log_msg(log, LOG_ERR, "%s: no file to analyse", o->files_from);
		err = -EINVAL;
	}
	/* standard input once: the list's '-' entries, and the list itself when it comes from there */
	if (!err && count_dashes((const char *const *)paths->data, paths->len) +
		    (o->files_from && !strcmp(o->files_from, "-")) > 1) {
		log_msg(log, LOG_ERR, "'-' (standard input) given twice, with --files-from: a stream is read once");
		err = -EINVAL;
	}
	for (i = 0; !err && i < REPORT_MAX_OUTPUTS; i++) {
		if (o->paths[i] && !strcmp(o->paths[i], "-")) {
			log_msg(log, LOG_ERR, "'-' (standard output) for an output of many files would mix their "
				"profiles: give a file name, written into each DIR/NAME/");
			err = -EINVAL;
		}
	}
	return err;
}

/*
 * readperf -o DIR FILE FILE... / --files-from LIST: each file analysed by a
 * child process into DIR/NAME/ (-j at once), DIR/index.csv listing them;
 * the exit status is the worst of the files', 128 + a signal that stopped it.
 */
int batch(struct analyse_opts *o, char **files, size_t nr_files, struct cli *cli)
{
	const struct log *log = &cli->log;
	struct array paths;
	struct batch_item *items = NULL;
	size_t n, i, failed = 0;
	int err, code = EXIT_OK;

	array__init(&paths, sizeof(char *));
	err = batch_inputs(o, files, nr_files, &paths, log);
	n = paths.len;
	if (!err && !(items = calloc(n, sizeof(*items))))
		err = -ENOMEM;
	for (i = 0; !err && i < n; i++)
		items[i].path = ARRAY_AT(&paths, char *, i);
	if (!err)
		err = batch_names(items, n, o->outdir, log);
	if (!err && (err = fs__mkdir_p(o->outdir)))
		log_msg(log, LOG_ERR, "%s: cannot create: %s", o->outdir, strerror(-err));
	if (!err)
		err = batch_run(o, items, n, cli);
	for (i = 0; items && i < n; i++) {
		if (items[i].status > code)
			code = items[i].status;
		failed += items[i].status != 0;
	}
	if (!err && items)
		err = commit_index(o, items, n, log);
	if (!err && !o->quiet && !stop_signal())
		printf("readperf: %zu profiles in %s/ (index.csv): %zu ok, %zu failed\n", n, o->outdir, n - failed,
		       failed);
	for (i = 0; items && i < n; i++) {
		free(items[i].name);
		strbuf__release(&items[i].res);
	}
	for (i = 0; i < paths.len; i++)
		free(ARRAY_AT(&paths, char *, i));
	array__release(&paths);
	free(items);
	if (stop_signal()) {
		log_msg(log, LOG_ERR, "%s: interrupted: %zu of %zu files analysed%s", o->outdir, n - failed, n,
			items && !err ? ", index.csv says which" : "");
		return 128 + stop_signal();
	}
	if (err == -ENOMEM)
		log_msg(log, LOG_ERR, "out of memory");
	if (err && err != -EINVAL && code < EXIT_SYSTEM)
		code = EXIT_SYSTEM;
	return err == -EINVAL && code == EXIT_OK ? EXIT_USAGE : code;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * readperf -o DIR FILE FILE... and --files-from LIST: each file analysed
 * (cli/analyse.c) by a child process into DIR/NAME/, -j at once, and
 * DIR/index.csv listing them; the exit status is the worst of the files'.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/analyse.h"
#include "util/array.h"
#include "util/csv.h"
#include "util/fs.h"
#include "util/pathname.h"
#include "util/strbuf.h"

static const char *const profile_exts[] = { ".gz", ".zst", ".data", NULL };

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
	struct strbuf res;	/* samples \0 duration \0 hostname \0 version \0 message \0 */
};

/* --files-from LIST: one path a line ('-': stdin) appended to paths; 0 or -errno */
static int read_list(const char *list, struct array *paths)
{
	FILE *fp = strcmp(list, "-") ? fopen(list, "r") : stdin;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int err = 0;

	if (!fp)
		return -errno;
	while (!err && (n = getline(&line, &cap, fp)) >= 0) {
		char **slot;

		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (!n)
			continue;
		slot = array__push(paths);
		if (!slot || !(*slot = strdup(line)))
			err = -ENOMEM;
	}
	if (!err && ferror(fp))
		err = -EIO;
	free(line);
	if (fp != stdin)
		fclose(fp);
	return err;
}

/* the child: analyse one file into DIR/name/, the result down the pipe, exit with analyse's code */
static void batch_child(struct analyse_opts *o, const struct batch_item *it, int fd, struct cli *cli)
{
	struct analyse_result r;
	struct strbuf dir = STRBUF_INIT, out = STRBUF_INIT;
	int code;

	memset(&r, 0, sizeof(r));
	cli->first_err[0] = '\0';
	if (strbuf__addf(&dir, "%s/%s", o->outdir, it->name))
		_exit(EXIT_SYSTEM);
	o->input = it->path;
	o->outdir = dir.buf;
	o->an.profile = o->profile_col == 0 ? NULL : it->name;
	o->no_summary = 1;
	o->result = &r;
	o->jobs = 1;	/* -j files at once, each in one thread */
	code = analyse(o, &cli->log);
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
		batch_child(o, it, p[1], cli);
	}
	close(p[1]);
	it->fd = p[0];
	return 0;
}

/* wait for one child, read its result; 0 or -errno */
static int batch_reap(struct batch_item *items, size_t n)
{
	char buf[4096];
	ssize_t r;
	size_t i;
	int status;
	pid_t pid = waitpid(-1, &status, 0);

	if (pid < 0)
		return -errno;
	for (i = 0; i < n && items[i].pid != pid; i++)
		;
	if (i == n)
		return 0;
	while ((r = read(items[i].fd, buf, sizeof(buf))) > 0)
		strbuf__add(&items[i].res, buf, (size_t)r);
	close(items[i].fd);
	items[i].pid = 0;
	items[i].status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	return 0;
}

/* the i-th \0-terminated field of a child's result, "" when missing */
static const char *res_field(const struct strbuf *res, int i)
{
	const char *p = res->buf, *end = res->buf + res->len;

	for (; i > 0 && p < end; i--)
		p += strlen(p) + 1;
	return p < end ? p : "";
}

static int write_index(const struct analyse_opts *o, const struct batch_item *items, size_t n)
{
	static const char *const cols[] = { "profile", "path", "status", "samples", "duration_ns", "hostname",
					    "perf_version", "message", NULL };
	struct csv c;
	size_t i;
	int err = csv__open(&c, o->outdir, "index.csv");

	if (err)
		return err;
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
		csv__str(&c, items[i].status && !*res_field(r, 4) ? "no result (the analysis was killed)" :
			 res_field(r, 4));
		csv__end_row(&c);
	}
	return csv__commit(&c);
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

	for (i = 0; !err && i < n; i++)
		paths[i] = items[i].path;
	if (!err)
		err = pathname__unique(paths, n, profile_exts, names, numbered, stop_signal);
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
int batch(struct analyse_opts *o, char **files, size_t nr_files, struct cli *cli)
{
	const struct log *log = &cli->log;
	struct array paths;
	struct batch_item *items = NULL;
	size_t n, i, running = 0, next = 0, failed = 0;
	long jobs = o->jobs > 0 ? o->jobs : sysconf(_SC_NPROCESSORS_ONLN);
	int err = 0, code = EXIT_OK;

	array__init(&paths, sizeof(char *));
	for (i = 0; i < nr_files && !err; i++) {
		char **slot = array__push(&paths);

		if (!slot || !(*slot = strdup(files[i])))
			err = -ENOMEM;
	}
	if (!err && o->files_from) {
		err = read_list(o->files_from, &paths);
		if (err)
			log_msg(log, LOG_ERR, "%s: %s", o->files_from, strerror(-err));
	}
	n = paths.len;
	if (!err && !n) {
		log_msg(log, LOG_ERR, "%s: no file to analyse", o->files_from);
		err = -EINVAL;
	}
	if (!err && !(items = calloc(n, sizeof(*items))))
		err = -ENOMEM;
	for (i = 0; !err && i < n; i++)
		items[i].path = ARRAY_AT(&paths, char *, i);
	if (!err)
		err = batch_names(items, n, o->outdir, log);
	if (!err && (err = fs__mkdir_p(o->outdir)))
		log_msg(log, LOG_ERR, "%s: cannot create: %s", o->outdir, strerror(-err));
	while (!err && (next < n || running)) {
		if (next < n && (long)running < (jobs > 0 ? jobs : 1)) {
			err = batch_start(o, &items[next++], cli);
			running += !err;
			continue;
		}
		err = batch_reap(items, n);
		running--;
	}
	for (i = 0; items && i < n; i++) {
		if (items[i].status > code)
			code = items[i].status;
		failed += items[i].status != 0;
	}
	if (!err) {
		err = write_index(o, items, n);
		if (err)
			log_msg(log, LOG_ERR, "%s/index.csv: cannot write: %s", o->outdir, strerror(-err));
	}
	if (!err && !o->quiet)
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
	if (err && err != -EINVAL && code < EXIT_SYSTEM)
		code = EXIT_SYSTEM;
	return err == -EINVAL && code == EXIT_OK ? EXIT_USAGE : code;
}


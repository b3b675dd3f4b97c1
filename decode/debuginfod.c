/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Binaries and separate debug files by build id from the servers of
 * $DEBUGINFOD_URLS, through elfutils' libdebuginfod (the client perf and
 * Hotspot use): its cache ($DEBUGINFOD_CACHE_PATH, else
 * ~/.cache/debuginfod_client), its timeouts ($DEBUGINFOD_TIMEOUT) and its
 * negative cache of files no server has.  dso.c asks here only after every
 * local place (symfs, the plain path, the build-id cache, the debug roots)
 * found nothing, and only while loading a dso, which happens at its first
 * sample (symbols.h: loading is lazy).
 *
 * The client is made at the first question and never prints: no verbose
 * fd, our own progress callback (which also stops a download when the
 * caller's stop callback says so: SIGINT).  A download is said once at
 * info level with its size; a file already in libdebuginfod's cache at
 * debug level.  The first failure that is not "no server has it" (refused,
 * unreachable, timed out) is warned once, and no server is asked again in
 * this run: the dsos it would have given stay unresolved as without it.
 *
 * libdebuginfod is opened with dlopen at the first question, as elfutils'
 * own libdwfl does: linked in, it and what it pulls (libcurl, GnuTLS,
 * Kerberos, LDAP: 27 libraries) took 22 ms of every run's start here
 * (`perf stat -r 30` of a program that only links readperf's libraries:
 * 26.5 ms with -ldebuginfod, 3.9 ms without; AMD EPYC VM), a seventh of
 * a 400k-sample analysis.  A run that asks no server never loads it.
 */
#include <dlfcn.h>
#include <elfutils/debuginfod.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/dl.h"
#include "util/log.h"
#include "decode/symbols_internal.h"

/* the functions of libdebuginfod.so.1 readperf calls, typed by its header */
static struct {
	__typeof__(debuginfod_begin) *begin;
	__typeof__(debuginfod_end) *end;
	__typeof__(debuginfod_find_debuginfo) *find_debuginfo;
	__typeof__(debuginfod_find_executable) *find_executable;
	__typeof__(debuginfod_get_user_data) *get_user_data;
	__typeof__(debuginfod_set_user_data) *set_user_data;
	__typeof__(debuginfod_set_progressfn) *set_progressfn;
	__typeof__(debuginfod_set_verbose_fd) *set_verbose_fd;
	__typeof__(debuginfod_get_url) *get_url;
} lib;

static int lib_loaded;		/* set once by open_lib */
static pthread_once_t lib_once = PTHREAD_ONCE_INIT;

/* libdebuginfod and its functions into lib (kept open: dlclose at exit is the OS's work) */
static void open_lib(void)
{
	void *so = dlopen("libdebuginfod.so.1", RTLD_LAZY | RTLD_LOCAL);

	lib_loaded = so && !dl__sym(so, "debuginfod_begin", &lib.begin) && !dl__sym(so, "debuginfod_end", &lib.end) &&
		     !dl__sym(so, "debuginfod_find_debuginfo", &lib.find_debuginfo) &&
		     !dl__sym(so, "debuginfod_find_executable", &lib.find_executable) &&
		     !dl__sym(so, "debuginfod_get_user_data", &lib.get_user_data) &&
		     !dl__sym(so, "debuginfod_set_user_data", &lib.set_user_data) &&
		     !dl__sym(so, "debuginfod_set_progressfn", &lib.set_progressfn) &&
		     !dl__sym(so, "debuginfod_set_verbose_fd", &lib.set_verbose_fd) &&
		     !dl__sym(so, "debuginfod_get_url", &lib.get_url);
}

/*
 * libdebuginfod, opened once (pthread_once: a batch analyses files in
 * threads of their own); 0, or -ENOENT when it is not installed or lacks a
 * function
 */
static int load(void)
{
	pthread_once(&lib_once, open_lib);
	return lib_loaded ? 0 : -ENOENT;
}

/* libdebuginfod's progress callback: non-zero stops the transfer */
static int progress(debuginfod_client *c, long done, long total)
{
	struct symbols *s = lib.get_user_data(c);

	(void)done;
	(void)total;
	return s && s->stop && s->stop();
}

/* the client, made at the first question; NULL when libdebuginfod cannot make one */
static debuginfod_client *client(struct symbols *s)
{
	if (s->dbgd)
		return s->dbgd;
	s->dbgd = lib.begin();
	if (!s->dbgd)
		return NULL;
	lib.set_user_data(s->dbgd, s);
	lib.set_progressfn(s->dbgd, progress);
	lib.set_verbose_fd(s->dbgd, -1);
	return s->dbgd;
}

/* a question that failed with err (not "none has it"): warned once, and no server is asked again */
static void servers_down(struct symbols *s, int err)
{
	const char *urls = getenv("DEBUGINFOD_URLS");

	s->dbgd_down = 1;
	if (s->stop && s->stop())
		return;
	log_msg(s->log, LOG_WARN, "debuginfod: %s: %s: binaries not found here stay without symbols",
		urls ? urls : "", strerror(err));
}

int debuginfod__find(struct symbols *s, struct dso *d, int debuginfo, const uint8_t *id, size_t idsz,
		     char **path)
{
	const char *what = debuginfo ? "debug info" : "executable";
	char *got = NULL;
	struct stat st;
	int fd, missed;

	*path = NULL;
	missed = d->dbgd_missed;
	if (!s->debuginfod || !id || !idsz || idsz > BUILD_ID_MAX)
		return -ENOENT;
	/* until a file comes: the symbol cache must not keep an absence a later run may fill */
	d->dbgd_missed = 1;
	if (s->dbgd_down)
		return -ENOENT;
	if (load()) {
		servers_down(s, ELIBACC);	/* "Can not access a needed shared library" */
		return -ENOENT;
	}
	if (!client(s)) {
		servers_down(s, ENOMEM);
		return -ENOENT;
	}
	fd = debuginfo ? lib.find_debuginfo(s->dbgd, id, (int)idsz, &got)
		       : lib.find_executable(s->dbgd, id, (int)idsz, &got);
	if (fd < 0) {
		free(got);
		if (fd == -ENOMEM)
			return symbols__fail(s, -ENOMEM);
		/* -ENOENT: no server has it; -EFBIG: over $DEBUGINFOD_MAXSIZE, this file only */
		if (fd != -ENOENT && fd != -EFBIG)
			servers_down(s, -fd);
		log_msg(s->log, LOG_DEBUG, "%s: %s not from debuginfod: %s", d->path, what, strerror(-fd));
		return -ENOENT;
	}
	if (fstat(fd, &st))
		st.st_size = 0;
	close(fd);
	if (!got)
		return symbols__fail(s, -ENOMEM);
	d->dbgd_missed = missed;
	if (lib.get_url(s->dbgd))
		log_msg(s->log, LOG_INFO, "%s: %s fetched from %s (%" PRIu64 " bytes)", d->path, what,
			lib.get_url(s->dbgd), (uint64_t)st.st_size);
	else
		log_msg(s->log, LOG_DEBUG, "%s: %s from the debuginfod cache %s", d->path, what, got);
	*path = got;
	return 0;
}

void debuginfod__release(struct symbols *s)
{
	if (s->dbgd)
		lib.end(s->dbgd);
	s->dbgd = NULL;
}

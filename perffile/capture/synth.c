/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Records for tasks that run before the capture starts, made from /proc the
 * way tools/perf/util/synthetic-events.c does (perf_event__synthesize_comm,
 * _fork, _mmap_events, _kernel_mmap): COMM and FORK per thread, MMAP2 per
 * executable mapping, MMAP of [kernel.kallsyms]_text.  Each record gets a
 * zeroed sample_id_all trailer (synthesized records carry id 0, which perf
 * maps to the first event).
 *
 * Also the build ids of mapped files and of the vdso in memory (through
 * perffile/elf.h), of the running kernel (/sys/kernel/notes), and the
 * system facts of the feature sections (header.c write_cpudesc, write_cpuid,
 * write_total_mem).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/array.h"
#include "util/fs.h"
#include "perffile/buildid.h"
#include "perffile/elf.h"
#include "perffile/capture/capture.h"
#include "perffile/capture/synth.h"

#define SYNTH_MAX_RECORD 65528	/* header.size is a u16; keep 8-byte alignment */

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* read a small /proc file into buf (NUL-terminated); bytes read or -errno */
static ssize_t read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;

	if (fd < 0)
		return -errno;
	while (got < size - 1) {
		ssize_t n = read(fd, buf + got, size - 1 - got);

		if (n < 0) {
			int err = -errno;

			close(fd);
			return err;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	return (ssize_t)got;
}

/* header + body (body_len bytes) + padding + zeroed trailer, to emit */
static int emit_record(const struct synth_ctx *sc, uint32_t type, uint16_t misc, const void *body, size_t body_len)
{
	unsigned char buf[SYNTH_MAX_RECORD + 64];
	struct perf_event_header h;
	size_t size = sizeof(h) + align8(body_len) + sc->id_hdr_size;

	if (size > SYNTH_MAX_RECORD)
		return -E2BIG;
	memset(buf, 0, size);
	h.type = type;
	h.misc = misc;
	h.size = (uint16_t)size;
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), body, body_len);
	return sc->emit(sc->ctx, buf, size);
}

static int emit_comm(const struct synth_ctx *sc, pid_t pid, pid_t tid, const char *comm)
{
	struct {
		uint32_t pid, tid;
		char comm[16];
	} body;

	memset(&body, 0, sizeof(body));
	body.pid = (uint32_t)pid;
	body.tid = (uint32_t)tid;
	memcpy(body.comm, comm, strnlen(comm, sizeof(body.comm) - 1));	/* the kernel's TASK_COMM_LEN */
	return emit_record(sc, PERF_RECORD_COMM, 0, &body, 8 + strlen(body.comm) + 1);
}

static int emit_fork(const struct synth_ctx *sc, pid_t pid, pid_t ppid, pid_t tid, pid_t ptid)
{
	struct {
		uint32_t pid, ppid, tid, ptid;
		uint64_t time;
	} body = { (uint32_t)pid, (uint32_t)ppid, (uint32_t)tid, (uint32_t)ptid, 0 };

	return emit_record(sc, PERF_RECORD_FORK, 0, &body, sizeof(body));
}

/* the value of "Key:\t..." in a /proc/PID/status text */
static int status_field(const char *status, const char *key, char *out, size_t out_size)
{
	size_t klen = strlen(key);
	const char *p = status;

	while (p && *p) {
		if (strncmp(p, key, klen) == 0 && p[klen] == ':') {
			const char *v = p + klen + 1;
			size_t n;

			while (*v == ' ' || *v == '\t')
				v++;
			n = strcspn(v, "\n");
			if (n >= out_size)
				n = out_size - 1;
			memcpy(out, v, n);
			out[n] = '\0';
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -ENOENT;
}

static int emit_mmaps(const struct synth_ctx *sc, pid_t pid)
{
	char path[64];
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		unsigned long long start, end, pgoff, ino;
		unsigned maj, min;
		char perms[8];
		int name_at = 0;
		const char *name;
		size_t nlen;
		struct {
			uint32_t pid, tid;
			uint64_t start, len, pgoff;
			uint32_t maj, min;
			uint64_t ino, ino_generation;
			uint32_t prot, flags;
			char filename[4096];
		} body;

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff, &maj, &min, &ino,
			   &name_at) < 7 || end < start)
			continue;
		if (perms[2] != 'x')	/* perf records executable maps unless --data */
			continue;
		name = line + name_at;
		nlen = strcspn(name, "\n");
		memset(&body, 0, offsetof(__typeof__(body), filename));
		body.pid = (uint32_t)pid;
		body.tid = (uint32_t)pid;
		body.start = start;
		body.len = end - start;
		body.pgoff = pgoff;
		body.maj = maj;
		body.min = min;
		body.ino = ino;
		body.prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) | PROT_EXEC;
		body.flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
		if (nlen == 0) {
			name = "//anon";
			nlen = 6;
		}
		if (nlen >= sizeof(body.filename))
			nlen = sizeof(body.filename) - 1;
		memcpy(body.filename, name, nlen);
		body.filename[nlen] = '\0';
		err = emit_record(sc, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, &body,
				  offsetof(__typeof__(body), filename) + nlen + 1);
		if (err)
			break;
	}
	free(line);
	fclose(f);
	return err;
}

int synth__process(const struct synth_ctx *sc, pid_t pid)
{
	char path[64], status[4096], comm[64], ppid_s[32];
	DIR *d;
	struct dirent *de;
	pid_t ppid = 0;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (read_small(path, status, sizeof(status)) < 0)
		return -ESRCH;	/* gone meanwhile */
	if (status_field(status, "PPid", ppid_s, sizeof(ppid_s)) == 0)
		ppid = (pid_t)atoi(ppid_s);
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return -ESRCH;
	while ((de = readdir(d))) {
		char *end;
		long tid = strtol(de->d_name, &end, 10);
		char tstatus[4096];

		if (*end || tid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%ld/status", (int)pid, tid);
		if (read_small(path, tstatus, sizeof(tstatus)) < 0 ||
		    status_field(tstatus, "Name", comm, sizeof(comm)))
			continue;
		/* synthesize_fork: the main thread's parent is the parent process, other threads' is the process */
		if ((pid_t)tid == pid)
			err = emit_fork(sc, pid, ppid, pid, ppid);
		else
			err = emit_fork(sc, pid, pid, (pid_t)tid, pid);
		if (!err)
			err = emit_comm(sc, pid, (pid_t)tid, comm);
		if (err)
			break;
	}
	closedir(d);
	if (err)
		return err;
	err = emit_mmaps(sc, pid);
	/* a process that exited or that we may not look at (another namespace, ptrace rules) loses its maps only */
	if (err == -ENOENT || err == -ESRCH || err == -EACCES || err == -EPERM) {
		log_msg(sc->log, LOG_DEBUG, "/proc/%d/maps: %s", (int)pid, strerror(-err));
		err = 0;
	}
	return err;
}

int synth__all(const struct synth_ctx *sc)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int err = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (*end || pid <= 0)
			continue;
		err = synth__process(sc, (pid_t)pid);
		if (err == -ESRCH)
			err = 0;
		if (err)
			break;
	}
	closedir(d);
	return err;
}

int synth__kernel_mmap(const struct synth_ctx *sc)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512];
	unsigned long long text = 0;
	int found = 0;
	struct {
		uint32_t pid, tid;
		uint64_t start, len, pgoff;
		char filename[32];
	} body;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[256];

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) == 3 && strcmp(name, "_text") == 0) {
			text = addr;
			found = 1;
			break;
		}
	}
	fclose(f);
	if (!found || !text)	/* kptr_restrict hides addresses */
		return 0;
	memset(&body, 0, sizeof(body));
	body.pid = (uint32_t)-1;
	body.tid = 0;
	body.start = text;
	body.len = ~0ULL - text;
	body.pgoff = text;
	strcpy(body.filename, "[kernel.kallsyms]_text");
	return emit_record(sc, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, &body,
			   offsetof(__typeof__(body), filename) + strlen(body.filename) + 1);
}

/* ---- build ids ---- */

int synth__file_build_id(const char *path, uint8_t id[20], size_t *size)
{
	struct elf_file *ef;
	int err = elf_file__open(&ef, path);

	if (err)
		return err;
	if (elf_file__big_endian(ef) != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__))
		err = -ENOTSUP;	/* foreign byte order: not something this host maps */
	else
		err = elf_file__build_id(ef, id, size);
	elf_file__delete(ef);
	return err;
}

int synth__kernel_build_id(uint8_t id[20], size_t *size)
{
	return build_id__running_kernel(id, size);
}

int synth__vdso_build_id(uint8_t id[20], size_t *size)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	struct elf_file *ef;
	int err;
	FILE *f;
	char line[512];
	uint64_t len = 0;

	if (!base)
		return -ENOENT;
	/* the mapping's length bounds every read of the image */
	f = fopen("/proc/self/maps", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e;

		if (sscanf(line, "%llx-%llx", &s, &e) == 2 && s == base && e > s) {
			len = e - s;
			break;
		}
	}
	fclose(f);
	if (!len)
		return -ENOENT;
	err = elf_file__open_mem(&ef, (const void *)(uintptr_t)base, len);
	if (!err)
		err = elf_file__build_id(ef, id, size);
	elf_file__delete(ef);
	return err;
}

/* ---- system facts ---- */

static char *cpuinfo_field(const char *key)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[1024];
	char *out = NULL;
	size_t klen = strlen(key);

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		char *colon;

		if (strncmp(line, key, klen) != 0 || !(colon = strchr(line, ':')))
			continue;
		colon++;
		while (*colon == ' ' || *colon == '\t')
			colon++;
		colon[strcspn(colon, "\n")] = '\0';
		out = strdup(colon);
		break;
	}
	fclose(f);
	return out;
}

char *synth__cpudesc(void)
{
	char *s = cpuinfo_field("model name");
	char *w, *r;

	if (!s)
		return NULL;
	/* header.c __write_cpudesc: squeeze runs of blanks */
	for (w = r = s; *r; r++) {
		if (isspace((unsigned char)*r)) {
			if (w > s && w[-1] != ' ')
				*w++ = ' ';
		} else {
			*w++ = *r;
		}
	}
	while (w > s && w[-1] == ' ')
		w--;
	*w = '\0';
	return s;
}

char *synth__cpuid(void)
{
	char *vendor = cpuinfo_field("vendor_id");
	char *family = cpuinfo_field("cpu family");
	char *model = cpuinfo_field("model\t");
	char *step = cpuinfo_field("stepping");
	char *out = NULL;

	if (vendor && family && model && step) {
		size_t n = strlen(vendor) + strlen(family) + strlen(model) + strlen(step) + 4;

		out = malloc(n);
		if (out)
			snprintf(out, n, "%s,%s,%s,%s", vendor, family, model, step);
	}
	free(vendor);
	free(family);
	free(model);
	free(step);
	return out;
}

uint64_t synth__total_mem_kb(void)
{
	char buf[4096], val[64];

	if (read_small("/proc/meminfo", buf, sizeof(buf)) <= 0 || status_field(buf, "MemTotal", val, sizeof(val)))
		return 0;
	return strtoull(val, NULL, 10);
}

/* a tracefs file (or NULL: none) appended as an 8- or 4-byte host-order length and its bytes */
static int put_tracefs_file(struct array *out, const char *root, const char *rel, unsigned len_size)
{
	char path[512];
	char *data = NULL;
	size_t len = 0;
	int err = 0;

	if (rel) {
		int fd;

		if (snprintf(path, sizeof(path), "%s/%s", root, rel) >= (int)sizeof(path))
			return -ENAMETOOLONG;
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		err = fs__read_fd(fd, 1u << 20, &data, &len);
		close(fd);
		if (err)
			return err;
	}
	if (len_size == 8) {
		uint64_t n = len;

		err = array__append(out, &n, 8);
	} else {
		uint32_t n = (uint32_t)len;

		err = array__append(out, &n, 4);
	}
	if (!err && len)
		err = array__append(out, data, len);
	free(data);
	return err;
}

static int put_bytes(struct array *out, const void *p, size_t n)
{
	return array__append(out, p, n);
}

/* the format files of the events of el in system sys (each once), with their count first */
static int put_system(struct array *out, const char *root, const struct capture_evlist *el, const char *sys,
		      size_t syslen)
{
	uint32_t n = 0;
	size_t count_at = out->len;
	int err = put_bytes(out, &n, 4);

	for (size_t i = 0; !err && i < el->nr; i++) {
		const char *name = el->events[i].name, *colon = strchr(name, ':');
		char rel[300];
		size_t j;

		if (el->events[i].attr.type != PERF_TYPE_TRACEPOINT || (size_t)(colon - name) != syslen ||
		    strncmp(name, sys, syslen))
			continue;
		for (j = 0; j < i; j++)	/* the same tracepoint twice: one format */
			if (el->events[j].attr.type == PERF_TYPE_TRACEPOINT && !strcmp(el->events[j].name, name))
				break;
		if (j < i)
			continue;
		snprintf(rel, sizeof(rel), "events/%.*s/%s/format", (int)syslen, sys, colon + 1);
		err = put_tracefs_file(out, root, rel, 8);
		n++;
	}
	if (!err)
		memcpy((char *)out->data + count_at, &n, 4);
	return err;
}

int synth__tracing_data(const struct capture_evlist *el, struct array *out)
{
	static const uint8_t magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const char *root = capture__tracefs();
	const uint8_t host[2] = { __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__, (uint8_t)sizeof(long) };
	uint32_t page = (uint32_t)sysconf(_SC_PAGESIZE), nsys = 0, zero = 0;
	size_t nsys_at;
	int err;

	if (!root)
		return -ENOENT;
	err = put_bytes(out, magic, sizeof(magic));
	if (!err)
		err = put_bytes(out, "0.6", 4);
	if (!err)
		err = put_bytes(out, host, 2);
	if (!err)
		err = put_bytes(out, &page, 4);
	if (!err)
		err = put_bytes(out, "header_page", 12);
	if (!err)
		err = put_tracefs_file(out, root, "events/header_page", 8);
	if (!err)
		err = put_bytes(out, "header_event", 13);
	if (!err)
		err = put_tracefs_file(out, root, "events/header_event", 8);
	if (!err)	/* no ftrace-internal formats */
		err = put_bytes(out, &zero, 4);
	nsys_at = out->len;
	if (!err)
		err = put_bytes(out, &nsys, 4);
	for (size_t i = 0; !err && i < el->nr; i++) {
		const char *name = el->events[i].name, *colon = strchr(name, ':');
		size_t j;

		if (el->events[i].attr.type != PERF_TYPE_TRACEPOINT || !colon)
			continue;
		for (j = 0; j < i; j++)	/* systems in order of first use */
			if (el->events[j].attr.type == PERF_TYPE_TRACEPOINT &&
			    !strncmp(el->events[j].name, name, (size_t)(colon - name) + 1))
				break;
		if (j < i)
			continue;
		err = put_bytes(out, name, (size_t)(colon - name));
		if (!err)
			err = put_bytes(out, "", 1);
		if (!err)
			err = put_system(out, root, el, name, (size_t)(colon - name));
		nsys++;
	}
	if (!err)
		memcpy((char *)out->data + nsys_at, &nsys, 4);
	/* kallsyms and printk formats empty (4-byte sizes), saved cmdlines empty (8) */
	for (int k = 0; !err && k < 3; k++)
		err = put_tracefs_file(out, root, NULL, k < 2 ? 4 : 8);
	return err;
}

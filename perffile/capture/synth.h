/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Records for what already runs when a capture starts, read from /proc and
 * /sys as perf's synthetic-events.c does: COMM, FORK and MMAP2 per task, the
 * kernel's MMAP, build ids of files, the kernel and the vdso, and the facts
 * the feature sections carry (cpu description, cpuid, memory).
 */
#ifndef PERFFILE_CAPTURE_SYNTH_H
#define PERFFILE_CAPTURE_SYNTH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "perffile/capture/capture.h"

struct synth_ctx {
	capture_record_fn emit;		/* gets each synthesized record (with a zeroed id trailer) */
	void *ctx;
	size_t id_hdr_size;
	const struct log *log;
};

/* COMM, FORK (for every thread), MMAP2 (executable maps) of process pid */
int synth__process(const struct synth_ctx *sc, pid_t pid);
/* every process in /proc */
int synth__all(const struct synth_ctx *sc);
/* MMAP of [kernel.kallsyms]_text (pid -1) as perf synthesizes it; no-op when _text is not readable */
int synth__kernel_mmap(const struct synth_ctx *sc);

/* NT_GNU_BUILD_ID of an ELF file (perffile/buildid.h parses the notes); 0, -ENOENT (no note), -errno */
int synth__file_build_id(const char *path, uint8_t id[20], size_t *size);
/* build id of the running kernel (/sys/kernel/notes) and of the vdso (in this process) */
int synth__kernel_build_id(uint8_t id[20], size_t *size);
int synth__vdso_build_id(uint8_t id[20], size_t *size);

/*
 * The TRACING_DATA section perf writes for tracepoint events
 * (trace-event-info.c tracing_data_get, version 0.6): the header_page and
 * header_event texts and the format file of each tracepoint of el (named
 * "SUBSYS:NAME"), grouped by subsystem; kallsyms, printk formats and saved
 * command lines left empty.  Appended to out (bytes).  -ENOENT without
 * tracefs, -errno of a format that cannot be read, -ENOMEM.
 */
int synth__tracing_data(const struct capture_evlist *el, struct array *out);

/* facts for the feature sections; each returns a malloc'd string or NULL */
char *synth__cpudesc(void);	/* "AMD EPYC" */
char *synth__cpuid(void);	/* perf's x86 form "AuthenticAMD,25,17,1" */
uint64_t synth__total_mem_kb(void);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Tracepoint formats from a TRACING_DATA section (perf's
 * trace-event-read.c layout): the "\027\010Dtracing" magic, a version
 * string, the byte order and long size of the recording machine, the page
 * size, header_page and header_event, the ftrace formats, then per system
 * its event formats as the kernel's tracefs "format" files print them:
 *
 *	name: sched_switch
 *	ID: 316
 *	format:
 *		field:unsigned short common_type;	offset:0;	size:2;	signed:0;
 *		field:pid_t prev_pid;	offset:24;	size:4;	signed:1;
 *		...
 *
 * so that a tracepoint sample's raw data is read by field name, never by a
 * fixed offset.  The kallsyms, printk and saved-cmdline parts that follow are
 * not needed here and not read.
 */
#ifndef PERFFILE_TRACING_H
#define PERFFILE_TRACING_H

#include <stddef.h>
#include <stdint.h>

struct tp_field {
	char *name;
	uint32_t offset, size;
	int is_signed;
};

struct tp_format {
	char *system, *name;
	uint64_t id;			/* the attr's config for this tracepoint */
	struct tp_field *fields;
	size_t nr_fields;
};

struct tp_formats {
	struct tp_format *v;
	size_t nr;
	int big_endian;			/* of the recording machine (the raw data's order) */
};

/*
 * Parse the section (size bytes at data) into *out (initialised here).
 * 0; -ENOMEM; -EINVAL when malformed, with *bad_offset the offset in the
 * section where it stopped (the formats read before it are kept).
 */
int tp_formats__parse(struct tp_formats *out, const uint8_t *data, size_t size, size_t *bad_offset);
void tp_formats__release(struct tp_formats *f);

const struct tp_format *tp_formats__find(const struct tp_formats *f, uint64_t id);
const struct tp_field *tp_format__field(const struct tp_format *fmt, const char *name);

/*
 * The value of an integer field (1, 2, 4 or 8 bytes) of a sample's raw
 * data, sign-extended when signed: 0, or -EINVAL when the field lies outside
 * raw or is not an integer.
 */
int tp_field__read(const struct tp_field *fl, const struct tp_formats *f, const void *raw,
		   uint32_t raw_size, int64_t *out);

#endif

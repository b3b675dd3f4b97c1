/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * perf_event_attr as stored in files: reading the known prefix of an attr of
 * any size, and the event name perf gives an attr when the file carries none
 * (evsel__name()).
 */
#ifndef PERFFILE_ATTR_H
#define PERFFILE_ATTR_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct strbuf;

/*
 * Copy an attr of file_size bytes (file byte order) into *attr (host order):
 * the known prefix is kept, the rest ignored, missing fields are zero.
 * attr->size is set to the file's size.  0, or -EINVAL when file_size is
 * smaller than PERF_ATTR_SIZE_VER0.
 */
int perf_attr__read(struct perf_event_attr *attr, const void *data, size_t file_size, int swapped);

/* the name perf gives an attr without EVENT_DESC: "cpu-clock", "cycles:u", "raw 0x1a"... */
int perf_attr__name(const struct perf_event_attr *attr, struct strbuf *sb);

/*
 * The length of an event name's base, without perf's ":modifiers" and
 * "/terms/": 9 for "cpu-clock:ppp" and for "cpu-clock/call-graph=fp/".
 */
size_t perf_event_name__base_len(const char *name);

#endif

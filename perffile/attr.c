/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * perf_event_attr in files: known prefix (swapped by perf_event_attr__swap()
 * of record.c) and default names
 * (after evsel__name() and evsel__add_modifiers() in tools/perf/util/evsel.c).
 */
#include <byteswap.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "perffile/attr.h"
#include "perffile/record.h"
#include "util/strbuf.h"

int perf_attr__read(struct perf_event_attr *attr, const void *data, size_t file_size, int swapped)
{
	size_t n = file_size < sizeof(*attr) ? file_size : sizeof(*attr);

	if (file_size < PERF_ATTR_SIZE_VER0)
		return -EINVAL;
	memset(attr, 0, sizeof(*attr));
	memcpy(attr, data, n);
	if (swapped)
		perf_event_attr__swap(attr, n);
	attr->size = (uint32_t)file_size;
	return 0;
}

static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
	"stalled-cycles-backend", "ref-cycles",
};

static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
};

static const char *const cache_names[] = {
	"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node",
};

static const char *const cache_ops[] = { "load", "store", "prefetch" };
static const char *const cache_results[] = { "refs", "misses" };

/* evsel__add_modifiers(): only what differs from the defaults shows, as ":ukhppHG" */
static int add_modifiers(const struct perf_event_attr *attr, struct strbuf *sb)
{
	char mods[16];
	size_t n = 0;
	int exclude_guest_default = 0;

	if (attr->exclude_kernel || attr->exclude_user || attr->exclude_hv) {
		if (!attr->exclude_kernel)
			mods[n++] = 'k';
		if (!attr->exclude_user)
			mods[n++] = 'u';
		if (!attr->exclude_hv)
			mods[n++] = 'h';
		exclude_guest_default = 1;
	}
	if (attr->precise_ip) {
		for (unsigned i = 0; i < attr->precise_ip && i < 3; i++)
			mods[n++] = 'p';
		exclude_guest_default = 1;
	}
	if (attr->exclude_host || attr->exclude_guest == (unsigned)exclude_guest_default) {
		if (!attr->exclude_host)
			mods[n++] = 'H';
		if (!attr->exclude_guest)
			mods[n++] = 'G';
	}
	if (!n)
		return 0;
	if (strbuf__addch(sb, ':') || strbuf__add(sb, mods, n))
		return -ENOMEM;
	return 0;
}

int perf_attr__name(const struct perf_event_attr *attr, struct strbuf *sb)
{
	uint64_t c = attr->config;
	int err;

	switch (attr->type) {
	case PERF_TYPE_HARDWARE:
		if (c < sizeof(hw_names) / sizeof(hw_names[0]))
			err = strbuf__addstr(sb, hw_names[c]);
		else
			err = strbuf__addf(sb, "unknown-hardware:%#llx", (unsigned long long)c);
		break;
	case PERF_TYPE_SOFTWARE:
		if (c < sizeof(sw_names) / sizeof(sw_names[0]))
			err = strbuf__addstr(sb, sw_names[c]);
		else
			err = strbuf__addf(sb, "unknown-software:%#llx", (unsigned long long)c);
		break;
	case PERF_TYPE_HW_CACHE: {
		uint64_t id = c & 0xff, op = (c >> 8) & 0xff, res = (c >> 16) & 0xff;

		if (id < 7 && op < 3 && res < 2)
			err = strbuf__addf(sb, "%s-%s%s%s", cache_names[id], cache_ops[op],
					   res ? "-" : "s", res ? cache_results[res] : "");
		else
			err = strbuf__addf(sb, "unknown-cache:%#llx", (unsigned long long)c);
		break;
	}
	case PERF_TYPE_TRACEPOINT:
		return strbuf__addf(sb, "unknown tracepoint:%llu", (unsigned long long)c);
	case PERF_TYPE_RAW:
		err = strbuf__addf(sb, "raw %#llx", (unsigned long long)c);
		break;
	case PERF_TYPE_BREAKPOINT:
		err = strbuf__addf(sb, "mem:%#llx", (unsigned long long)attr->bp_addr);
		break;
	default:
		err = strbuf__addf(sb, "unknown attr type: %u", attr->type);
		break;
	}
	return err ? err : add_modifiers(attr, sb);
}

size_t perf_event_name__base_len(const char *name)
{
	return strcspn(name, ":/");
}

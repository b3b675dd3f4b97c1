/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * --speedscope FILE.json: the samples in speedscope's file format
 * (https://www.speedscope.app/file-format-schema.json): shared frames, one
 * function each (name as results.csv's function, file and line where it is
 * defined, else the dso as the file), and one "sampled" profile per thread,
 * named "comm (tid)", whose samples are the stacks (root first, as frame
 * indices) in time order, weighted by their period, so speedscope's Time
 * Order, Left Heavy and Sandwich views work and a function's self weight is
 * its period in results.csv.  One event: the first with samples, as the
 * flame graph (-e chooses another).
 *
 * While the samples arrive each thread keeps, per event, its samples'
 * weights and stacks (frame indices in one growing array), so memory grows
 * with samples times depth: the export is asked for, not a default.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/analysis_internal.h"

/* one thread's samples of one event */
struct ss_profile {
	const struct mthread *th;
	uint32_t event;
	size_t seq;			/* creation order */
	struct array weights;		/* uint64_t */
	struct array stacks;		/* uint32_t: depth, then frame indices root first */
	int unit_ns;			/* weights are nanoseconds (cpu-clock, task-clock) */
};

static struct ss_profile *get_profile(struct analysis *a, const struct mthread *th, uint32_t event)
{
	struct { const struct mthread *th; uint32_t event, pad; } key;
	struct ss_profile *p;
	void **slot;
	int ret;

	memset(&key, 0, sizeof(key));
	key.th = th;
	key.event = event;
	ret = hashmap__insert(&a->ss_profiles, &key, sizeof(key), &slot);
	if (ret < 0)
		return NULL;
	if (ret == 0)
		return *slot;
	p = pool__alloc(&a->pool, sizeof(*p));
	*slot = p;
	if (!p || analysis__push_ptr(&a->ss_list, p))
		return NULL;
	p->th = th;
	p->event = event;
	p->seq = a->ss_list.len - 1;
	array__init(&p->weights, sizeof(uint64_t));
	array__init(&p->stacks, sizeof(uint32_t));
	return p;
}

/* the shared frame of a function: its index */
static int frame_index(struct analysis *a, const struct fstat *f, uint32_t *idx)
{
	void **slot;
	int ret = hashmap__insert(&a->ss_frames, &f, sizeof(f), &slot);

	if (ret < 0)
		return -ENOMEM;
	if (ret == 1) {
		*slot = (void *)(uintptr_t)a->ss_frame_list.len;
		if (analysis__push_ptr(&a->ss_frame_list, (void *)f))
			return -ENOMEM;
	}
	*idx = (uint32_t)(uintptr_t)*slot;
	return 0;
}

int speedscope__sample(struct analysis *a, const struct mthread *th, uint32_t event, uint64_t period)
{
	const uintptr_t *frames = a->frames.data;
	struct ss_profile *p = get_profile(a, th, event);
	uint32_t *depth, idx;
	uint64_t *w;
	size_t i, start;

	if (!p)
		return -ENOMEM;
	w = array__push(&p->weights);
	if (!w)
		return -ENOMEM;
	*w = period;
	start = p->stacks.len;
	depth = array__push(&p->stacks);
	if (!depth)
		return -ENOMEM;
	*depth = (uint32_t)a->frames.len;
	for (i = a->frames.len; i-- > 0;) {	/* root first */
		uint32_t *slot;

		if (frame_index(a, (const struct fstat *)(frames[i] & ~FRAME_KERNEL), &idx))
			return -ENOMEM;
		slot = array__push(&p->stacks);
		if (!slot)
			return -ENOMEM;
		*slot = idx;
	}
	(void)start;
	return 0;
}

void speedscope__release(struct analysis *a)
{
	struct ss_profile **v = a->ss_list.data;
	size_t i;

	for (i = 0; i < a->ss_list.len; i++) {
		array__release(&v[i]->weights);
		array__release(&v[i]->stacks);
	}
	array__release(&a->ss_list);
	array__release(&a->ss_frame_list);
	hashmap__release(&a->ss_profiles, NULL);
	hashmap__release(&a->ss_frames, NULL);
}

/* a JSON string: quotes, backslashes and control characters escaped; bytes >= 0x80 as they are */
static void json_str(struct csv *c, const char *s)
{
	const char *run = s;

	csv__puts(c, "\"");
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch != '"' && ch != '\\' && ch >= 0x20)
			continue;
		csv__raw(c, run, (size_t)(s - run));
		run = s + 1;
		if (ch == '"' || ch == '\\')
			csv__printf(c, "\\%c", ch);
		else
			csv__printf(c, "\\u%04x", ch);
	}
	csv__raw(c, run, (size_t)(s - run));
	csv__puts(c, "\"");
}

static int profile_cmp(const void *pa, const void *pb)
{
	const struct ss_profile *a = *(struct ss_profile *const *)pa, *b = *(struct ss_profile *const *)pb;

	if (a->th->proc->pid != b->th->proc->pid)
		return a->th->proc->pid < b->th->proc->pid ? -1 : 1;
	if (a->th->tid != b->th->tid)
		return a->th->tid < b->th->tid ? -1 : 1;
	return a->seq < b->seq ? -1 : (a->seq > b->seq);
}

/* the event exported: -e's, else the first with samples (as stacks.c) */
static int chosen_event(const struct analysis *a, uint32_t *event)
{
	size_t i;

	for (i = 0; i < a->nr_events; i++) {
		if (a->events[i].samples) {
			*event = (uint32_t)i;
			return 1;
		}
	}
	return 0;
}

static uint64_t profile_weight(const struct ss_profile *p)
{
	const uint64_t *w = p->weights.data;
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < p->weights.len; i++)
		total += w[i];
	return total;
}

static void write_profile(struct csv *c, const struct ss_profile *p)
{
	const uint64_t *w = p->weights.data;
	const uint32_t *st = p->stacks.data;
	uint64_t total = profile_weight(p);
	size_t i, k, pos = 0;
	char name[64];

	csv__puts(c, "{\"type\":\"sampled\",\"name\":");
	snprintf(name, sizeof(name), " (%" PRIu32 ")", p->th->tid);
	{
		struct strbuf sb = STRBUF_INIT;

		if (!strbuf__addstr(&sb, p->th->comm ? p->th->comm : UNKNOWN) && !strbuf__addstr(&sb, name))
			json_str(c, sb.buf);
		else
			json_str(c, name);
		strbuf__release(&sb);
	}
	csv__printf(c, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%" PRIu64 ",\"samples\":[",
		p->unit_ns ? "nanoseconds" : "none", total);
	for (i = 0; i < p->weights.len; i++) {
		uint32_t depth = st[pos++];

		csv__puts(c, i ? ",[" : "[");
		for (k = 0; k < depth; k++)
			csv__printf(c, k ? ",%" PRIu32 : "%" PRIu32, st[pos++]);
		csv__puts(c, "]");
	}
	csv__puts(c, "],\"weights\":[");
	for (i = 0; i < p->weights.len; i++)
		csv__printf(c, i ? ",%" PRIu64 : "%" PRIu64, w[i]);
	csv__puts(c, "]}");
}

int speedscope__write(struct analysis *a, const char *path, const char *name)
{
	struct ss_profile **v = a->ss_list.data;
	const struct fstat *const *frames = a->ss_frame_list.data;
	size_t i, n = a->ss_list.len, first = 1, written = 0, heaviest = 0;
	uint64_t heaviest_w = 0;
	uint32_t event = 0;
	int have = chosen_event(a, &event);
	struct csv c;
	int err;

	if (n)
		qsort(v, n, sizeof(*v), profile_cmp);
	err = analysis__open_path(&c, path);
	if (err)
		return err;
	csv__puts(&c, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"shared\":{\"frames\":[");
	for (i = 0; i < a->ss_frame_list.len; i++) {
		const struct fstat *f = frames[i];

		csv__puts(&c, i ? ",{\"name\":" : "{\"name\":");
		json_str(&c, f->function);
		csv__puts(&c, ",\"file\":");
		json_str(&c, f->def_file ? f->def_file : f->dso);
		if (f->def_file && f->def_line)
			csv__printf(&c, ",\"line\":%u", f->def_line);
		csv__puts(&c, "}");
	}
	csv__puts(&c, "]},\"profiles\":[");
	for (i = 0; have && i < n; i++) {
		uint64_t w = profile_weight(v[i]);

		if (v[i]->event != event)
			continue;
		v[i]->unit_ns = a->events[event].time_unit;
		if (!first)
			csv__puts(&c, ",");
		first = 0;
		if (w > heaviest_w) {	/* speedscope opens on the busiest thread */
			heaviest_w = w;
			heaviest = written;
		}
		written++;
		write_profile(&c, v[i]);
	}
	csv__puts(&c, "],\"name\":");
	json_str(&c, name ? name : "readperf");
	csv__printf(&c, ",\"activeProfileIndex\":%zu,\"exporter\":\"readperf\"}\n", heaviest);
	return csv__commit(&c);
}

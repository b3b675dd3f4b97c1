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

#include "decode/report.h"
#include "util/array.h"
#include "util/csv.h"
#include "util/hashmap.h"
#include "util/pool.h"
#include "util/strbuf.h"

/* one thread's samples of one event */
struct ss_profile {
	const struct mthread *th;
	uint32_t event;
	size_t seq;			/* creation order */
	struct array weights;		/* uint64_t */
	struct array stacks;		/* uint32_t: depth, then frame indices root first */
	int unit_ns;			/* weights are nanoseconds (cpu-clock, task-clock) */
};

struct speedscope {
	struct pool pool;		/* the profiles */
	struct hashmap profiles;	/* (thread, event) -> struct ss_profile */
	struct hashmap frames;		/* struct func_stat * -> frame index */
	struct array list;		/* profiles in creation order */
	struct array frame_list;	/* struct func_stat *, by frame index */
};

static int push_ptr(struct array *a, const void *p)
{
	const void **slot = array__push(a);

	if (!slot)
		return -ENOMEM;
	*slot = p;
	return 0;
}

static int speedscope_begin(void *state, struct analysis *a)
{
	struct speedscope *ss = state;

	(void)a;
	hashmap__init(&ss->profiles);
	hashmap__init(&ss->frames);
	array__init(&ss->list, sizeof(void *));
	array__init(&ss->frame_list, sizeof(void *));
	return 0;
}

static struct ss_profile *get_profile(struct speedscope *ss, const struct mthread *th, uint32_t event)
{
	struct { const struct mthread *th; uint32_t event, pad; } key;
	struct ss_profile *p;
	void **slot;
	int ret;

	memset(&key, 0, sizeof(key));
	key.th = th;
	key.event = event;
	ret = hashmap__insert(&ss->profiles, &key, sizeof(key), &slot);
	if (ret < 0)
		return NULL;
	if (ret == 0)
		return *slot;
	p = pool__alloc(&ss->pool, sizeof(*p));
	*slot = p;
	if (!p || push_ptr(&ss->list, p))
		return NULL;
	p->th = th;
	p->event = event;
	p->seq = ss->list.len - 1;
	array__init(&p->weights, sizeof(uint64_t));
	array__init(&p->stacks, sizeof(uint32_t));
	return p;
}

/* the shared frame of a function: its index */
static int frame_index(struct speedscope *ss, const struct func_stat *f, uint32_t *idx)
{
	void **slot;
	int ret = hashmap__insert(&ss->frames, &f, sizeof(f), &slot);

	if (ret < 0)
		return -ENOMEM;
	if (ret == 1) {
		*slot = (void *)(uintptr_t)ss->frame_list.len;
		if (push_ptr(&ss->frame_list, f))
			return -ENOMEM;
	}
	*idx = (uint32_t)(uintptr_t)*slot;
	return 0;
}

static int speedscope_sample(void *state, struct analysis *a, const struct rsample *s)
{
	struct speedscope *ss = state;
	struct ss_profile *p = get_profile(ss, s->th, s->event);
	uint32_t *depth, idx;
	uint64_t *w;
	size_t i;

	(void)a;
	if (!p)
		return -ENOMEM;
	w = array__push(&p->weights);
	if (!w)
		return -ENOMEM;
	*w = s->period;
	depth = array__push(&p->stacks);
	if (!depth)
		return -ENOMEM;
	*depth = (uint32_t)s->nr_frames;
	for (i = s->nr_frames; i-- > 0;) {	/* root first */
		uint32_t *slot;

		if (frame_index(ss, frame__func(s->frames[i]), &idx))
			return -ENOMEM;
		slot = array__push(&p->stacks);
		if (!slot)
			return -ENOMEM;
		*slot = idx;
	}
	return 0;
}

static void speedscope_release(void *state)
{
	struct speedscope *ss = state;
	struct ss_profile **v = ss->list.data;
	size_t i;

	for (i = 0; i < ss->list.len; i++) {
		array__release(&v[i]->weights);
		array__release(&v[i]->stacks);
	}
	array__release(&ss->list);
	array__release(&ss->frame_list);
	hashmap__release(&ss->profiles, NULL);
	hashmap__release(&ss->frames, NULL);
	pool__release(&ss->pool);
}

/* a name as a JSON string (util/escape.h: invalid UTF-8 as U+FFFD) */
static void json_str(struct csv *c, const char *s)
{
	csv__json(c, s, strlen(s));
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
static int chosen_event(const struct analysis *a, uint32_t *event, int *time_unit)
{
	struct analysis_event ev;
	size_t i;

	for (i = 0; i < analysis__nr_events(a); i++) {
		analysis__event(a, i, &ev);
		if (ev.samples) {
			*event = (uint32_t)i;
			*time_unit = ev.time_unit;
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

static int speedscope_write(void *state, struct analysis *a, const char *path)
{
	struct speedscope *ss = state;
	const char *name = analysis__opts(a)->input_name;
	struct ss_profile **v = ss->list.data;
	const struct func_stat *const *frames = ss->frame_list.data;
	size_t i, n = ss->list.len, first = 1, written = 0, heaviest = 0;
	uint64_t heaviest_w = 0;
	uint32_t event = 0;
	int time_unit = 0, have = chosen_event(a, &event, &time_unit);
	struct csv c;
	int err;

	if (n)
		qsort(v, n, sizeof(*v), profile_cmp);
	err = csv__open_path(&c, path);
	if (err)
		return err;
	csv__puts(&c, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"shared\":{\"frames\":[");
	for (i = 0; i < ss->frame_list.len; i++) {
		const struct func_stat *f = frames[i];

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
		v[i]->unit_ns = time_unit;
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

static const struct report_output speedscope_outputs[] = {
	{ .name = "speedscope", .is_path = 1, .write = speedscope_write,
	  .help = "the samples as speedscope's JSON (a profile per thread, in time order)" },
	{ .name = NULL }
};

const struct report_ops speedscope_report = {
	.name = "speedscope",
	.source = REPORT_FROM_ANALYSIS,
	.state_size = sizeof(struct speedscope),
	.needs = REPORT_NEEDS_FRAMES,
	.outputs = speedscope_outputs,
	.begin = speedscope_begin,
	.sample = speedscope_sample,
	.release = speedscope_release,
};

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * --folded FILE and --flamegraph FILE.svg: one counter (samples, period)
 * per distinct (event, comm, frames) while samples arrive, then the
 * collapsed stacks and the flame graph of flame.h.  One event only: the
 * first (attr order) with samples; a warning names it when others have
 * samples too (-e chooses another).  A sample without a callchain is a
 * one-frame stack; a thread without a COMM is ":TID", as perf names it.
 * With --focus-root no comm: a stack starts at the --focus function.
 * The same counters serve a report of the caller's (stack_count_ops,
 * readperf diff's differential stacks).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decode/reports/common.h"
#include "decode/reports/flame.h"
#include "decode/reports/stacks.h"
#include "util/pool.h"

struct stack_count {
	struct pool pool;		/* the counters */
	struct hashmap stacks;		/* struct stack_key + frames -> uint64_t[2] samples, period */
	struct strbuf key;		/* scratch */
	int warned;
};

static int stacks_begin(void *state, struct analysis *a)
{
	struct stack_count *st = state;

	(void)a;
	hashmap__init(&st->stacks);
	strbuf__init(&st->key);
	return 0;
}

static void stacks_release(void *state)
{
	struct stack_count *st = state;

	hashmap__release(&st->stacks, NULL);	/* counters are pool memory */
	strbuf__release(&st->key);
	pool__release(&st->pool);
}

int stacks__key(struct strbuf *k, struct analysis *a, const struct rsample *s)
{
	struct stack_key key;

	memset(&key, 0, sizeof(key));
	key.event = s->event;
	key.nr = (uint32_t)s->nr_frames;
	if (analysis__opts(a)->focus_root) {
		key.comm = NULL;	/* the stacks start at the --focus function */
	} else {
		key.comm = report__comm(a, s->th);
		if (!key.comm)
			return -ENOMEM;
	}
	strbuf__reset(k);
	if (strbuf__add(k, &key, sizeof(key)) || strbuf__add(k, s->frames, s->nr_frames * sizeof(uintptr_t)))
		return -ENOMEM;
	return 0;
}

static int stacks_sample(void *state, struct analysis *a, const struct rsample *s)
{
	struct stack_count *st = state;
	struct strbuf *k = &st->key;
	uint64_t *count;
	void **slot;
	int ret = stacks__key(k, a, s);

	if (ret)
		return ret;
	ret = hashmap__insert(&st->stacks, k->buf, k->len, &slot);
	if (ret < 0)
		return -ENOMEM;
	if (ret == 1)
		*slot = pool__alloc(&st->pool, 2 * sizeof(uint64_t));
	count = *slot;
	if (!count)
		return -ENOMEM;
	count[0]++;
	count[1] += s->period;
	return 0;
}

/* the event the stacks show: the first with samples; warn once when there are more */
static int stacks_event(struct stack_count *st, struct analysis *a, uint32_t *event, const char **name)
{
	struct analysis_event ev;
	size_t i, with_samples = 0;
	int found = 0;

	for (i = 0; i < analysis__nr_events(a); i++) {
		analysis__event(a, i, &ev);
		if (!ev.samples)
			continue;
		if (!found) {
			*event = (uint32_t)i;
			*name = ev.name;
			found = 1;
		}
		with_samples++;
	}
	if (with_samples > 1 && !st->warned) {
		st->warned = 1;
		log_msg(analysis__log(a), LOG_WARN,
			"folded stacks and flame graph show %s only (%zu events have samples; choose one with -e)",
			*name, with_samples);
	}
	return found;
}

/* the stacks of the chosen event, weighted by period or samples */
static int collapse(struct stack_count *st, struct analysis *a, struct folded *fd, int by_period)
{
	uint32_t event = 0;
	const char *name = NULL;

	memset(fd, 0, sizeof(*fd));
	fd->by_period = by_period;
	if (!stacks_event(st, a, &event, &name)) {
		folded__init(fd);
		return 0;
	}
	fd->event = name;
	return folded__collapse(&st->stacks, event, by_period ? 1 : 0, fd);
}

int stack_count__new(struct stack_count **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? stacks_begin(*out, NULL) : -ENOMEM;
}

int stack_count__folded(struct stack_count *sc, struct analysis *a, struct folded *fd)
{
	return collapse(sc, a, fd, 1);
}

void stack_count__delete(struct stack_count *sc)
{
	if (!sc)
		return;
	stacks_release(sc);
	free(sc);
}

static int folded_write(void *state, struct analysis *a, const char *path)
{
	struct folded fd;
	int err = collapse(state, a, &fd, analysis__opts(a)->fold_period);

	return err ? err : folded__write(&fd, path);
}

static int flamegraph_write(void *state, struct analysis *a, const char *path)
{
	const struct analysis_opts *o = analysis__opts(a);
	struct folded fd;
	/* widths and shares by period, as results.csv's percent */
	int err = collapse(state, a, &fd, 1);

	return err ? err : flame__write_svg(&fd, path, 0, o->fg_minwidth_set ? o->fg_minwidth : FLAME_MIN_CPX);
}

static const struct report_output stacks_outputs[] = {
	{ .name = "folded", .is_path = 1, .write = folded_write,
	  .help = "collapsed call stacks (stackcollapse-perf.pl format) into FILE" },
	{ .name = "flamegraph", .is_path = 1, .write = flamegraph_write,
	  .help = "a flame graph SVG of the same stacks into FILE; widths and shares\n"
		  "by period, as results.csv's percent" },
	{ .name = NULL }
};

const struct report_ops stacks_report = {
	.name = "stacks",
	.source = REPORT_FROM_ANALYSIS,
	.state_size = sizeof(struct stack_count),
	.needs = REPORT_NEEDS_FRAMES,
	.outputs = stacks_outputs,
	.begin = stacks_begin,
	.sample = stacks_sample,
	.release = stacks_release,
};

/* the counters alone, for analysis_opts.consumer: no outputs, the caller owns the state */
static const struct report_output no_outputs[] = { { .name = NULL } };

const struct report_ops stack_count_ops = {
	.name = "stack_count",
	.source = REPORT_FROM_ANALYSIS,
	.needs = REPORT_NEEDS_FRAMES,
	.outputs = no_outputs,
	.sample = stacks_sample,
};

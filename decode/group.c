/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Read-group samples delivered one per counter, as perf's session.c does (group.h). */
#include <errno.h>
#include <linux/perf_event.h>

#include "decode/group.h"
#include "perffile/perffile.h"

void group__init(struct group *g)
{
	hashmap__init(&g->last);
	g->unknown_ids = 0;
}

void group__release(struct group *g)
{
	hashmap__release(&g->last, NULL);
}

/* perf's deliver_sample_value: one counter value; 0, -ENOMEM or fn's error */
static int deliver_value(struct group *g, const struct perf_evlist *el, const struct perf_record *rec,
			 uint64_t value, uint64_t id, int (*fn)(void *, struct perf_record *), void *ctx)
{
	struct perf_record copy;
	void **slot = hashmap__find(&el->id_map, &id, sizeof(id));
	uint64_t prev;
	int ret;

	if (!slot) {
		g->unknown_ids++;
		return 0;
	}
	ret = hashmap__insert(&g->last, &id, sizeof(id), &slot);
	if (ret < 0)
		return -ENOMEM;
	prev = (uint64_t)(uintptr_t)*slot;
	*slot = (void *)(uintptr_t)value;
	if (value == prev)
		return 0;
	copy = *rec;
	copy.evattr = &el->attrs[(uintptr_t)*hashmap__find(&el->id_map, &id, sizeof(id)) - 1];
	copy.sample.id = id;
	copy.sample.period = value - prev;
	copy.sample.sample_type |= PERF_SAMPLE_PERIOD;
	return fn(ctx, &copy);
}

/*
 * Whether the read values carry ids of the file's events.  perf drops a
 * sample whose values it cannot place; files perf writes always have the
 * ids (it sets PERF_FORMAT_ID with PERF_SAMPLE_READ), so a sample without
 * them (other writers, synthetic files) stays the one sample of its event.
 */
static int known_ids(const struct perf_evlist *el, const struct perf_record *rec)
{
	const struct perf_sample_read *rd = &rec->sample.read;
	uint64_t i;

	if (!(rec->evattr->attr.read_format & PERF_FORMAT_ID))
		return 0;
	if (!(rec->evattr->attr.read_format & PERF_FORMAT_GROUP))
		return hashmap__find(&el->id_map, &rd->one.id, sizeof(rd->one.id)) != NULL;
	for (i = 0; i < rd->nr; i++)
		if (hashmap__find(&el->id_map, &rd->group[i * rd->group_stride + 1], sizeof(uint64_t)))
			return 1;
	return 0;
}

int group__deliver_read(struct group *g, const struct perf_file *f, struct perf_record *rec,
			int (*fn)(void *ctx, struct perf_record *rec), void *ctx)
{
	const struct perf_evlist *el = perf_file__evlist(f);
	const struct perf_sample_read *rd = &rec->sample.read;
	uint64_t i;
	int err = 0;

	if (rec->type != PERF_RECORD_SAMPLE || !rec->evattr || !(rec->sample.sample_type & PERF_SAMPLE_READ) ||
	    !known_ids(el, rec))
		return fn(ctx, rec);
	if (!(rec->evattr->attr.read_format & PERF_FORMAT_GROUP))
		return deliver_value(g, el, rec, rd->one.value, rd->one.id, fn, ctx);
	for (i = 0; i < rd->nr && !err; i++)
		err = deliver_value(g, el, rec, rd->group[i * rd->group_stride], rd->group[i * rd->group_stride + 1],
				    fn, ctx);
	return err;
}

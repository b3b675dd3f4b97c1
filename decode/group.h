/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Samples that carry counter values (PERF_SAMPLE_READ), as perf delivers
 * them (util/session.c evlist__deliver_sample, deliver_sample_group): a
 * leader-sampled group (perf record -e '{a,b,c}:S') gives, for every value
 * of the sample's read group, one sample of that value's event whose period
 * is how much the counter grew since the previous sample with the same id;
 * no growth, no sample.  Without PERF_FORMAT_GROUP the one value does the
 * same for the sample's own event.  Other samples pass through as they are,
 * and so does a sample whose values carry no id of the file's events (perf
 * drops those; perf's own files always have the ids).
 */
#ifndef DECODE_GROUP_H
#define DECODE_GROUP_H

#include <linux/perf_event.h>

#include "perffile/perffile.h"
#include "util/hashmap.h"

struct group {
	struct hashmap last;	/* u64 id -> the counter value of its previous sample */
	uint64_t unknown_ids;	/* values whose id names no event (perf: nr_unknown_id) */
};

void group__init(struct group *g);
void group__release(struct group *g);

/*
 * Call fn for every sample perf delivers for rec (rec itself for any other
 * record or sample): a copy of rec with evattr, sample.id and sample.period
 * set and PERF_SAMPLE_PERIOD in sample.sample_type.  Returns fn's first
 * error, -ENOMEM, or 0.
 */
int group__deliver_read(struct group *g, const struct perf_file *f, struct perf_record *rec,
			int (*fn)(void *ctx, struct perf_record *rec), void *ctx);

/* what is not a sample with values goes to fn here, without a call (every record, in both threads) */
static inline int group__deliver(struct group *g, const struct perf_file *f, struct perf_record *rec,
				 int (*fn)(void *ctx, struct perf_record *rec), void *ctx)
{
	if (rec->type != PERF_RECORD_SAMPLE || !(rec->sample.sample_type & PERF_SAMPLE_READ))
		return fn(ctx, rec);
	return group__deliver_read(g, f, rec, fn, ctx);
}

#endif

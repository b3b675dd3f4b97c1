/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * readperf diff --html FILE.html: the diff as one self-contained page
 * (page.h): the files of each side, the event pairs, diff.csv's rows with
 * their ratios and confidence intervals, the gates asked and which rows
 * crossed them, and the differential flame graph of diff__folded (the
 * stacks of --folded: NEW's widths, each frame coloured by its change of
 * share against OLD).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "decode/reports/diff.h"
#include "decode/reports/flame.h"
#include "decode/reports/page.h"
#include "util/pool.h"

static void put_files(struct page *p, const char *key, const char *const *files, size_t nr)
{
	size_t i;

	csv__printf(&p->c, ",\"%s\":[", key);
	for (i = 0; i < nr; i++) {
		csv__puts(&p->c, i ? "," : "");
		page__str(p, files[i]);
	}
	csv__puts(&p->c, "]");
}

/* "pairs": [old event, new event, how (enum diff_pairing), children, samples old, new, period old, new] */
static void put_pairs(struct page *p, const struct diff *d)
{
	size_t i;

	csv__puts(&p->c, ",\"pairs\":[");
	for (i = 0; i < diff__nr_pairs(d); i++) {
		const struct diff_pair *e = diff__pair(d, i);

		csv__puts(&p->c, i ? ",[" : "[");
		page__str(p, e->old_name);
		csv__puts(&p->c, ",");
		page__str(p, e->new_name);
		csv__printf(&p->c, ",%d,%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "]", (int)e->how, e->children,
			    e->samples[0], e->samples[1], e->period[0], e->period[1]);
	}
	csv__puts(&p->c, "]");
}

/*
 * "r": diff.csv's rows in its order: [pair, dso, function, old dso, old
 * function, samples old, new, period old, new, percent old, new, delta,
 * children percent old, new, delta, ratio, children ratio, ratio low, high,
 * children ratio low, high, crossed] (strings as indices into "s", values
 * in 1/10000 as diff.csv prints them, -10000 an unbounded end; crossed: bit
 * 0 the self gate, bit 1 the children gate)
 */
static void put_rows(struct page *p, const struct diff *d, const unsigned char *crossed)
{
	size_t i;

	csv__puts(&p->c, ",\"r\":[");
	for (i = 0; i < diff__nr_rows(d); i++) {
		const struct diff_row *r = diff__row(d, i);

		csv__printf(&p->c, "%s[%zu,%ld,%ld,%ld,%ld,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, i ? "," : "",
			    r->pair, page__ref(p, r->dso), page__ref(p, r->function), page__ref(p, r->old_dso),
			    page__ref(p, r->old_function), r->samples[0], r->samples[1], r->period[0], r->period[1]);
		csv__printf(&p->c, ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64
			    ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%d]", r->pct[0], r->pct[1], r->delta,
			    r->ch_pct[0], r->ch_pct[1], r->ch_delta, r->ratio, r->ch_ratio, diff__fixed(r->ratio_lo[0]),
			    diff__fixed(r->ratio_hi[0]), diff__fixed(r->ratio_lo[1]), diff__fixed(r->ratio_hi[1]),
			    crossed ? crossed[i] : 0);
	}
	csv__puts(&p->c, "]");
}

/* "fe": the event of the stacks; "fd": the differential stacks, [[names, outer first], old, new]; null without */
static int put_stacks(struct page *p, const struct diff *d, struct stack_count *const *const stacks[2],
		      struct pool *names)
{
	struct folded fd;
	long *refs;
	size_t i;
	int err = stacks[0] && stacks[1] ? diff__folded(d, (struct stack_count *const *[2]){ stacks[0], stacks[1] }, &fd) : -EINVAL;

	if (err == -EINVAL) {
		csv__puts(&p->c, ",\"fe\":null,\"fd\":null");
		return 0;
	}
	if (err)
		return err;
	csv__puts(&p->c, ",\"fe\":");
	page__str(p, fd.event);
	csv__puts(&p->c, ",\"fd\":[");
	refs = calloc(fd.names.v.len ? fd.names.v.len : 1, sizeof(*refs));
	if (!refs)
		err = -ENOMEM;
	for (i = 0; i < fd.nr && !err; i++) {
		csv__puts(&p->c, i ? ",[[" : "[[");
		err = page__fold_line(p, &fd, i, refs, names);
		csv__printf(&p->c, "],%" PRIu64 ",%" PRIu64 "]", fd.v[i].old, fd.v[i].samples);
	}
	csv__puts(&p->c, "]");
	free(refs);
	folded__release(&fd);
	return err;
}

int diff__write_html(const struct diff *d, const char *path, const struct diff_page *info)
{
	struct page p;
	struct pool names = { 0 };
	int err = page__open(&p, path, PAGE_DIFF);

	if (err)
		return err;
	put_files(&p, "old", info->files[0], info->nr[0]);
	put_files(&p, "new", info->files[1], info->nr[1]);
	csv__printf(&p.c, ",\"conf\":%g,\"children\":%d,\"failed\":%d,\"gate\":", info->confidence,
		    diff__has_children(d), info->failed);
	page__str(&p, info->gate);
	put_pairs(&p, d);
	put_rows(&p, d, info->crossed);
	page__err(&p, put_stacks(&p, d, info->stacks, &names));
	err = page__close(&p);
	pool__release(&names);
	return err;
}

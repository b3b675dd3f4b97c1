/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * diff.csv (see diff.h): the events of two analyses paired as perf diff
 * pairs them (builtin-diff.c: by name, else by position), the function
 * aggregates read through analysis__function() joined on (event pair, dso,
 * function) in a hash map, and sorted by the size of the change.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/reports/common.h"
#include "decode/reports/diff.h"
#include "decode/report.h"
#include "decode/reports/stacks.h"
#include "perffile/attr.h"
#include "util/array.h"
#include "util/csv.h"
#include "util/hashmap.h"
#include "util/strbuf.h"

struct diff {
	struct analysis *const *run[2];
	size_t nr_runs[2];
	const struct analysis *an[2];	/* the first run of each side: its events are paired */
	struct diff_config cfg;
	struct array pairs;		/* struct diff_pair */
	size_t *pair_of[2];		/* event index of an[s] -> pair index + 1, 0: not paired */
	size_t nr_events[2];
	struct array rows;		/* struct diff_row */
	struct array dso_pairs;		/* struct diff_dso_pair */
	struct hashmap dso_map;		/* NEW's dso name -> OLD's (const char *), paired by role */
	int children;			/* some pair has callchains on both sides */
};

/* 100 * num / den in 1/10000 %, half up (csv__pct's rounding) */
static int64_t share(uint64_t num, uint64_t den)
{
	if (!den)
		return 0;
	return (int64_t)(((unsigned __int128)num * 2000000 + den) / ((unsigned __int128)den * 2));
}

void diff__format(char *buf, size_t size, int64_t v)
{
	uint64_t m = (uint64_t)(v < 0 ? -v : v);

	snprintf(buf, size, "%s%" PRIu64 ".%04" PRIu64, v < 0 ? "-" : "", m / 10000, m % 10000);
}

/* ---------------------------------------------------------------- events */

static int add_pair(struct diff *d, const struct analysis_event ev[2], const size_t idx[2],
		    enum diff_pairing how)
{
	struct diff_pair *p = array__push(&d->pairs);
	int s;

	if (!p)
		return -ENOMEM;
	p->old_name = how == DIFF_PAIR_NEW_ONLY ? NULL : ev[0].name;
	p->new_name = how == DIFF_PAIR_OLD_ONLY ? NULL : ev[1].name;
	p->how = how;
	p->children = how < DIFF_PAIR_OLD_ONLY && ev[0].callchain && ev[1].callchain;
	d->children |= p->children;
	for (s = 0; s < 2; s++) {
		if ((s == 0 && how == DIFF_PAIR_NEW_ONLY) || (s == 1 && how == DIFF_PAIR_OLD_ONLY))
			continue;
		d->pair_of[s][idx[s]] = d->pairs.len;
	}
	return 0;
}

/* an event of side s that has samples and no pair yet */
static int open_event(const struct diff *d, int s, size_t i, struct analysis_event *ev)
{
	analysis__event(d->an[s], i, ev);
	return ev->name && ev->samples && !d->pair_of[s][i];
}

/* how many open events of side s have this base name; *at gets the last */
static size_t count_base(const struct diff *d, int s, const char *name, size_t len, size_t *at)
{
	struct analysis_event ev;
	size_t i, n = 0;

	for (i = 0; i < d->nr_events[s]; i++) {
		if (open_event(d, s, i, &ev) && perf_event_name__base_len(ev.name) == len &&
		    !memcmp(ev.name, name, len)) {
			*at = i;
			n++;
		}
	}
	return n;
}

/* one pass over OLD's open events: pair each with NEW's event chosen by how */
static int pair_pass(struct diff *d, enum diff_pairing how)
{
	struct analysis_event ev[2];
	size_t idx[2], next_new = 0;
	int err;

	for (idx[0] = 0; idx[0] < d->nr_events[0]; idx[0]++) {
		size_t len, at = 0;
		int found = 0;

		if (!open_event(d, 0, idx[0], &ev[0]))
			continue;
		if (how == DIFF_PAIR_BASE) {
			len = perf_event_name__base_len(ev[0].name);
			found = count_base(d, 0, ev[0].name, len, &at) == 1 &&
				count_base(d, 1, ev[0].name, len, &at) == 1;
			idx[1] = at;
		}
		for (idx[1] = found ? idx[1] : next_new; !found && idx[1] < d->nr_events[1]; idx[1]++) {
			if (!open_event(d, 1, idx[1], &ev[1]))
				continue;
			if (how == DIFF_PAIR_POSITION || !strcmp(ev[0].name, ev[1].name))
				found = 1;
			if (found)
				break;
		}
		if (!found)
			continue;
		next_new = how == DIFF_PAIR_POSITION ? idx[1] + 1 : 0;
		analysis__event(d->an[1], idx[1], &ev[1]);
		err = add_pair(d, ev, idx, how);
		if (err)
			return err;
	}
	return 0;
}

static int pair_events(struct diff *d)
{
	struct analysis_event ev[2];
	size_t idx[2];
	int s, err = 0;

	for (s = 0; s < 2; s++) {
		d->nr_events[s] = analysis__nr_events(d->an[s]);
		d->pair_of[s] = calloc(d->nr_events[s] + 1, sizeof(size_t));
		if (!d->pair_of[s])
			return -ENOMEM;
	}
	err = pair_pass(d, DIFF_PAIR_NAME);
	if (!err)
		err = pair_pass(d, DIFF_PAIR_BASE);
	if (!err)
		err = pair_pass(d, DIFF_PAIR_POSITION);
	for (s = 0; s < 2 && !err; s++) {
		for (idx[s] = 0; idx[s] < d->nr_events[s] && !err; idx[s]++) {
			if (!open_event(d, s, idx[s], &ev[s]))
				continue;
			ev[!s] = ev[s];
			idx[!s] = idx[s];
			err = add_pair(d, ev, idx, s ? DIFF_PAIR_NEW_ONLY : DIFF_PAIR_OLD_ONLY);
		}
	}
	return err;
}

/* ---------------------------------------------------------------- names */

/* the length of name[0..len) without its clone suffixes */
static size_t clone_base(const char *name, size_t len)
{
	static const char *const clones[] = { ".constprop.", ".isra.", ".part.", ".lto_priv.", ".llvm.", ".cold." };
	size_t d, i, cl;
	int again = 1;

	while (again) {
		again = 0;
		if (len > 1 && name[len - 1] == ']') {	/* the demangler's "f(int) [clone .constprop.0]" */
			for (d = len - 1; d > 0 && name[d] != '['; d--)
				;
			if (d > 1 && len - d > 8 && !memcmp(name + d, "[clone .", 8) && name[d - 1] == ' ') {
				len = d - 1;
				again = 1;
				continue;
			}
		}
		if (len > 5 && !memcmp(name + len - 5, ".cold", 5)) {
			len -= 5;
			again = 1;
			continue;
		}
		for (d = len; d > 0 && name[d - 1] >= '0' && name[d - 1] <= '9'; d--)
			;
		for (i = 0; d < len && i < sizeof(clones) / sizeof(clones[0]) && !again; i++) {
			cl = strlen(clones[i]);
			if (d > cl && !memcmp(name + d - cl, clones[i], cl)) {
				len = d - cl;
				again = 1;
			}
		}
	}
	return len;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* the soname stem's length in base ("libfoo.so" of libfoo.so.1.2), 0 when it is no library */
static size_t soname_stem(const char *base)
{
	const char *so = strstr(base, ".so");

	while (so && so[3] && so[3] != '.')
		so = strstr(so + 1, ".so");
	return so ? (size_t)(so - base) + 3 : 0;
}

size_t diff__clone_base_len(const char *name)
{
	return clone_base(name, strlen(name));
}

/* ---------------------------------------------------------------- dsos */

struct dso_seen {
	const char *name;	/* borrowed from the first analysis that has it */
	unsigned sides;		/* bit s: side s has samples in it */
};

/* the dsos with samples of side s, each once, into seen (struct dso_seen; map: name -> index + 1) */
static int collect_dsos(struct diff *d, struct hashmap *map, struct array *seen, int s)
{
	size_t k, i;

	for (k = 0; k < d->nr_runs[s]; k++) {
		const struct analysis *a = d->run[s][k];

		for (i = 0; i < analysis__nr_funcs(a); i++) {
			const struct func_stat *fn = analysis__func(a, i);
			struct dso_seen *e;
			void **slot;
			int ret;

			if (!fn->samples && !fn->ch_samples)
				continue;
			ret = hashmap__insert(map, fn->dso, strlen(fn->dso), &slot);
			if (ret < 0)
				return -ENOMEM;
			if (ret == 1) {
				e = array__push(seen);
				if (!e)
					return -ENOMEM;
				e->name = fn->dso;
				e->sides = 0;
				*slot = (void *)(uintptr_t)seen->len;
			}
			ARRAY_AT(seen, struct dso_seen, (size_t)(uintptr_t)*slot - 1).sides |= 1u << s;
		}
	}
	return 0;
}

/* the dso of side s's main executable: named as its busiest process */
static int is_main(const struct diff *d, int s, const char *dso)
{
	return report__is_main_dso(report__main_comm(d->an[s]), dso);
}

/* does s begin with prefix, then digits up to the end or to suffix, which ends it? */
static int pid_name(const char *s, const char *prefix, const char *suffix)
{
	size_t n = strlen(prefix), k = 0;

	if (strncmp(s, prefix, n))
		return 0;
	for (s += n; s[k] >= '0' && s[k] <= '9'; k++)
		;
	return k && !strcmp(s + k, suffix);
}

/*
 * A process's JIT code, named by its pid: a jitdump (jit-PID.dump) or perf
 * map (perf report's "[JIT] tid PID"); the key without the pid, or NULL
 */
static const char *jit_key(const char *dso, const char *base)
{
	if (pid_name(base, "jit-", ".dump"))
		return "jit-.dump";
	if (pid_name(dso, "[JIT] tid ", ""))
		return "[JIT] tid";
	return NULL;
}

/* the role key of a dso: main executable, file name, soname stem, JIT code; len 0: none */
static const char *role_key(const struct diff *d, int s, const char *dso, int role, size_t *len)
{
	const char *base = base_name(dso), *jit;

	*len = 0;
	switch (role) {
	case DIFF_DSO_MAIN:
		*len = is_main(d, s, dso) ? 1 : 0;
		return "";
	case DIFF_DSO_FILE_NAME:
		*len = strlen(base);
		return base;
	case DIFF_DSO_SONAME:
		*len = soname_stem(base);
		return base;
	default:
		jit = jit_key(dso, base);
		*len = jit ? strlen(jit) : 0;
		return jit ? jit : "";
	}
}

/* the only open dso of side s with this role key, or NULL */
static const char *only_match(const struct diff *d, const struct array *open, int s, int role,
			      const char *key, size_t len)
{
	const char *found = NULL;
	size_t i, l;

	for (i = 0; i < open->len; i++) {
		const char *dso = ARRAY_AT(open, const char *, i), *k;

		if (!dso)
			continue;
		k = role_key(d, s, dso, role, &l);
		if (l == len && !memcmp(k, key, len)) {
			if (found)
				return NULL;
			found = dso;
		}
	}
	return found;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * side s's functions of dso with a name, without their clone suffix, into
 * names (value: the sides' bits); nr[s] counts them, nr[2] those both sides name
 */
static int named_functions(const struct diff *d, int s, const char *dso, struct hashmap *names, size_t nr[3])
{
	size_t k, i;
	void **slot;
	int ret;

	for (k = 0; k < d->nr_runs[s]; k++) {
		const struct analysis *a = d->run[s][k];

		for (i = 0; i < analysis__nr_funcs(a); i++) {
			const struct func_stat *fn = analysis__func(a, i);

			if ((!fn->samples && !fn->ch_samples) || strcmp(fn->dso, dso) ||
			    !strncmp(fn->function, UNKNOWN, strlen(UNKNOWN)))
				continue;
			ret = hashmap__insert(names, fn->function, clone_base(fn->function, strlen(fn->function)), &slot);
			if (ret < 0)
				return -ENOMEM;
			if ((uintptr_t)*slot & (1u << s))
				continue;
			nr[s]++;
			nr[2] += (uintptr_t)*slot != 0;
			*slot = (void *)((uintptr_t)*slot | (1u << s));
		}
	}
	return 0;
}

/*
 * Are OLD's main executable o and NEW's n one program: do they name at
 * least half of the functions of the one with fewer alike (without clone
 * suffixes)?  A renamed or rebuilt program keeps its functions; the
 * busiest processes of two system-wide recordings may be unrelated
 * programs (that share main at most).  Without names (stripped) it cannot
 * be told: no.  1, 0 or -ENOMEM.
 */
static int one_program(const struct diff *d, const char *o, const char *n)
{
	struct hashmap names;
	size_t nr[3] = { 0, 0, 0 };
	int err;

	hashmap__init(&names);
	err = named_functions(d, 0, o, &names, nr);
	err = err ? err : named_functions(d, 1, n, &names, nr);
	hashmap__release(&names, NULL);
	if (err)
		return err;
	return nr[0] && nr[1] && 2 * nr[2] >= (nr[0] < nr[1] ? nr[0] : nr[1]);
}

/* pair the dsos found on one side only by their role, one role after the other */
static int pair_dsos(struct diff *d, struct array open[2])
{
	size_t i, j, len;
	int role, s;

	for (role = DIFF_DSO_MAIN; role <= DIFF_DSO_JIT; role++) {
		for (i = 0; i < open[0].len; i++) {
			const char *o = ARRAY_AT(&open[0], const char *, i), *key, *n;
			struct diff_dso_pair *p;
			void **slot;

			if (!o)
				continue;
			key = role_key(d, 0, o, role, &len);
			if (!len || only_match(d, &open[0], 0, role, key, len) != o)
				continue;
			n = only_match(d, &open[1], 1, role, key, len);
			if (!n)
				continue;
			if (role == DIFF_DSO_MAIN) {
				int one = one_program(d, o, n);

				if (one < 0)
					return one;
				if (!one)
					continue;
			}
			p = array__push(&d->dso_pairs);
			if (!p || hashmap__insert(&d->dso_map, n, strlen(n), &slot) < 0)
				return -ENOMEM;
			*slot = (void *)o;
			p->old_dso = o;
			p->new_dso = n;
			p->how = (enum diff_dso_how)role;
			for (s = 0; s < 2; s++)
				for (j = 0; j < open[s].len; j++)
					if (ARRAY_AT(&open[s], const char *, j) == (s ? n : o))
						ARRAY_AT(&open[s], const char *, j) = NULL;
		}
	}
	return 0;
}

static int map_dsos(struct diff *d)
{
	struct hashmap map;
	struct array seen, open[2];
	size_t i;
	int s, err;

	hashmap__init(&map);
	array__init(&seen, sizeof(struct dso_seen));
	array__init(&open[0], sizeof(const char *));
	array__init(&open[1], sizeof(const char *));
	err = collect_dsos(d, &map, &seen, 0);
	if (!err)
		err = collect_dsos(d, &map, &seen, 1);
	for (i = 0; !err && i < seen.len; i++) {
		const struct dso_seen *e = &ARRAY_AT(&seen, struct dso_seen, i);
		const char **slot;

		if (e->sides == 3)
			continue;
		slot = array__push(&open[e->sides == 2]);
		if (!slot)
			err = -ENOMEM;
		else
			*slot = e->name;
	}
	for (s = 0; s < 2 && !err; s++)
		if (open[s].len)
			qsort(open[s].data, open[s].len, sizeof(const char *), str_cmp);
	if (!err)
		err = pair_dsos(d, open);
	array__release(&open[0]);
	array__release(&open[1]);
	array__release(&seen);
	hashmap__release(&map, NULL);
	return err;
}

/* ---------------------------------------------------------------- rows */

/* run k of side s: its event index -> pair + 1 (run 0: pair_of; the others join by event name) */
static int run_pairs(const struct diff *d, int s, size_t k, size_t **out)
{
	const struct analysis *a = d->run[s][k];
	size_t i, j, n = analysis__nr_events(a);
	size_t *map = calloc(n + 1, sizeof(size_t));
	struct analysis_event ev, ev0;

	*out = map;
	if (!map)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (!k) {
			map[i] = d->pair_of[s][i];
			continue;
		}
		analysis__event(a, i, &ev);
		for (j = 0; ev.name && j < d->nr_events[s] && !map[i]; j++) {
			analysis__event(d->an[s], j, &ev0);
			if (ev0.name && !strcmp(ev0.name, ev.name))
				map[i] = d->pair_of[s][j];
		}
	}
	return 0;
}

/* key: pair \0 dso (OLD's name for a dso paired by role; none with --pair function) \0 function base */
static int row_key(const struct diff *d, struct strbuf *key, size_t pair, int side, const struct func_stat *fn)
{
	const char *dso = fn->dso;
	void **mapped;

	if (d->cfg.by == DIFF_BY_FUNCTION)
		dso = "";
	else if (side && (mapped = hashmap__find(&d->dso_map, dso, strlen(dso))))
		dso = *mapped;
	strbuf__reset(key);
	if (strbuf__addf(key, "%zu", pair) || strbuf__addch(key, '\0') || strbuf__addstr(key, dso) ||
	    strbuf__addch(key, '\0') || strbuf__add(key, fn->function, diff__clone_base_len(fn->function)))
		return -ENOMEM;
	return 0;
}

static struct diff_row *find_row(struct diff *d, struct hashmap *map, const struct strbuf *key,
				 const struct diff_pair *p, size_t pair)
{
	struct diff_row *r;
	void **slot;
	int ret = hashmap__insert(map, key->buf, key->len, &slot);

	if (ret < 0)
		return NULL;
	if (ret == 1) {
		r = array__push(&d->rows);
		if (!r)
			return NULL;
		memset(r, 0, sizeof(*r));
		r->event = p->new_name ? p->new_name : p->old_name;
		r->pair = pair;
		*slot = (void *)(uintptr_t)(d->rows.len - 1);	/* rows move as they grow */
	}
	return &ARRAY_AT(&d->rows, struct diff_row, (size_t)(uintptr_t)*slot);
}

/* the events' totals of run k of side s into their pairs */
static void add_event_totals(struct diff *d, int s, size_t k, const size_t *pairs)
{
	const struct analysis *a = d->run[s][k];
	struct analysis_event ev;
	size_t i;

	for (i = 0; i < analysis__nr_events(a); i++) {
		struct diff_pair *p;

		if (!pairs[i])
			continue;
		analysis__event(a, i, &ev);
		p = &ARRAY_AT(&d->pairs, struct diff_pair, pairs[i] - 1);
		p->samples[s] += ev.samples;
		p->period[s] += analysis__event_period(a, (uint32_t)i);
	}
}

/* run k of side s into the rows; then each row's share of it into the spread sums */
static int add_run(struct diff *d, struct hashmap *map, struct strbuf *key, int side, size_t k)
{
	const struct analysis *a = d->run[side][k];
	size_t i, n = analysis__nr_funcs(a), *pairs;
	int err = run_pairs(d, side, k, &pairs), t;

	for (i = 0; !err && i < n; i++) {
		const struct func_stat *fn = analysis__func(a, i);
		size_t pair = fn->event < analysis__nr_events(a) ? pairs[fn->event] : 0;
		const struct diff_pair *p;
		struct diff_row *r;

		if (!pair--)
			continue;
		p = diff__pair(d, pair);
		if (!fn->samples && !(p->children && fn->ch_samples))
			continue;
		err = row_key(d, key, pair, side, fn);
		r = err ? NULL : find_row(d, map, key, p, pair);
		if (!r) {
			err = -ENOMEM;
			break;
		}
		if (side && !r->samples[1] && !r->ch_samples[1]) {
			r->dso = fn->dso;
			r->function = fn->function;
		} else if (!side && !r->old_function) {
			r->dso = r->old_dso = fn->dso;
			r->function = r->old_function = fn->function;
		}
		r->samples[side] += fn->samples;
		r->period[side] += fn->period;
		if (p->children) {
			r->ch_samples[side] += fn->ch_samples;
			r->ch_period[side] += fn->ch_period;
		}
	}
	if (!err)
		add_event_totals(d, side, k, pairs);
	free(pairs);
	for (i = 0; !err && i < d->rows.len; i++) {
		struct diff_row *r = &ARRAY_AT(&d->rows, struct diff_row, i);

		for (t = 0; t < 2; t++) {
			uint64_t now = t ? r->ch_period[side] : r->period[side];
			double x = (double)(now - r->run_mark[side][t]);

			r->run_sum[side][t] += x;
			r->run_sq[side][t] += x * x;
			r->run_mark[side][t] = now;
		}
	}
	return err;
}

static uint64_t abs_diff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* |log(new/old)| of the means per run; infinite when the function is on one side only */
static double log_ratio(const struct diff *d, const struct diff_row *r)
{
	if (!r->period[0] || !r->period[1])
		return INFINITY;
	return fabs(log((double)r->period[1] * (double)d->nr_runs[0] /
			((double)r->period[0] * (double)d->nr_runs[1])));
}

static int row_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct diff_row *a = pa, *b = pb;
	const struct diff *d = ctx;
	uint64_t ka, kb;
	int r;

	if (a->pair != b->pair)
		return a->pair < b->pair ? -1 : 1;
	if (d->cfg.sort == DIFF_SORT_RATIO) {
		double la = log_ratio(d, a), lb = log_ratio(d, b);

		if (la != lb)
			return la > lb ? -1 : 1;
	}
	if (d->cfg.sort == DIFF_SORT_DELTA) {
		ka = (uint64_t)(a->delta < 0 ? -a->delta : a->delta);
		kb = (uint64_t)(b->delta < 0 ? -b->delta : b->delta);
	} else {
		ka = abs_diff(a->period[0], a->period[1]);
		kb = abs_diff(b->period[0], b->period[1]);
	}
	if (ka != kb)
		return ka > kb ? -1 : 1;
	r = strcmp(a->dso, b->dso);
	if (r)
		return r;
	return strcmp(a->function, b->function);
}

/* ---------------------------------------------------------------- noise */

#define DIFF_PI 3.14159265358979323846

/* the two-sided standard normal quantile: z with P(|Z| <= z) = conf */
static double normal_quantile(double conf)
{
	double lo = 0, hi = 40;
	int i;

	for (i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (1 - erfc(mid / sqrt(2)) < conf)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* P(|T| <= t) for Student's t with nu degrees of freedom (Abramowitz & Stegun 26.7.3, 26.7.4) */
static double student_two_sided(double t, unsigned nu)
{
	double th = atan(t / sqrt((double)nu)), c2 = cos(th) * cos(th), term, sum;
	unsigned j;

	if (nu % 2) {
		term = sum = cos(th);
		for (j = 3; nu > 1 && j + 2 <= nu; j += 2) {
			term *= (double)(j - 1) / (double)j * c2;
			sum += term;
		}
		return 2 / DIFF_PI * (th + (nu > 1 ? sin(th) * sum : 0));
	}
	term = sum = 1;
	for (j = 2; j + 2 <= nu; j += 2) {
		term *= (double)(j - 1) / (double)j * c2;
		sum += term;
	}
	return sin(th) * sum;
}

static double student_quantile(double conf, unsigned nu)
{
	double lo = 0, hi = 1e6;
	int i;

	for (i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (student_two_sided(mid, nu) < conf)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* p / (1 - p), infinite at 1 */
static double odds(double p)
{
	return p >= 1 ? INFINITY : p / (1 - p);
}

/*
 * The Poisson interval of new/old (DIFF_NOISE in diff.h): Wilson's score
 * interval of p = n1 / (n0 + n1) at z, as odds, scaled by the mean period
 * per sample of each side (row's, else the event's) and the run counts.
 */
static void poisson_interval(const struct diff *d, const struct diff_pair *p, const uint64_t n[2],
			     const uint64_t period[2], double z, double out[2])
{
	double nn = (double)n[0] + (double)n[1], mp[2], ph, den, c, h;
	int s;

	out[0] = 0;
	out[1] = INFINITY;
	if (!n[0] && !n[1])
		return;
	/* the row's mean period per sample, else its event's, else the other side's */
	for (s = 0; s < 2; s++) {
		if (n[s])
			mp[s] = (double)period[s] / (double)n[s];
		else if (p->samples[s])
			mp[s] = (double)p->period[s] / (double)p->samples[s];
		else
			mp[s] = 0;
	}
	for (s = 0; s < 2; s++)
		if (mp[s] <= 0)
			mp[s] = mp[!s] > 0 ? mp[!s] : 1;
	ph = (double)n[1] / nn;
	den = 1 + z * z / nn;
	c = (ph + z * z / (2 * nn)) / den;
	h = z * sqrt(ph * (1 - ph) / nn + z * z / (4 * nn * nn)) / den;
	for (s = 0; s < 2; s++) {
		double q = s ? fmin(1, c + h) : fmax(0, c - h), o = odds(q);

		out[s] = isinf(o) ? o : o * mp[1] / mp[0] * (double)d->nr_runs[0] / (double)d->nr_runs[1];
	}
}

/* with >= 3 runs per side: widen out by the run-to-run spread of t (0 self, 1 children) */
static void spread_interval(const struct diff *d, const struct diff_row *r, int t, double q, double out[2])
{
	double m[2], v = 0, half;
	int s;

	for (s = 0; s < 2; s++) {
		double k = (double)d->nr_runs[s], var;

		m[s] = r->run_sum[s][t] / k;
		if (m[s] <= 0)
			return;
		var = (r->run_sq[s][t] - k * m[s] * m[s]) / (k - 1);
		v += fmax(var, 0) / (k * m[s] * m[s]);
	}
	half = q * sqrt(v);
	out[0] = fmin(out[0], m[1] / m[0] * exp(-half));
	out[1] = fmax(out[1], m[1] / m[0] * exp(half));
}

/* new/old of the means per run in 1/10000, with diff.csv's sentinels */
static int64_t fixed_ratio(const struct diff *d, uint64_t p0, uint64_t p1, int in_old)
{
	unsigned __int128 k0 = d->nr_runs[0], k1 = d->nr_runs[1];

	if (!in_old)
		return -10000;
	if (!p0)
		return p1 ? -20000 : 10000;
	return (int64_t)(((unsigned __int128)p1 * k0 * 20000 + p0 * k1) / ((unsigned __int128)p0 * k1 * 2));
}

int64_t diff__fixed(double v)
{
	if (isinf(v) || v * 10000 > (double)(INT64_MAX / 2))
		return -10000;
	return (int64_t)llround(v * 10000);
}

static void finish_rows(struct diff *d)
{
	double z = normal_quantile(d->cfg.confidence), q = 0;
	int spread = d->nr_runs[0] >= 3 && d->nr_runs[1] >= 3;
	size_t i;

	if (spread)
		q = student_quantile(d->cfg.confidence, (unsigned)(d->nr_runs[0] + d->nr_runs[1] - 2));
	for (i = 0; i < d->rows.len; i++) {
		struct diff_row *r = &ARRAY_AT(&d->rows, struct diff_row, i);
		const struct diff_pair *p = diff__pair(d, r->pair);
		int s, t;

		for (s = 0; s < 2; s++) {
			r->pct[s] = share(r->period[s], p->period[s]);
			r->ch_pct[s] = share(r->ch_period[s], p->period[s]);
		}
		r->delta = r->pct[1] - r->pct[0];
		r->ch_delta = r->ch_pct[1] - r->ch_pct[0];
		r->ratio = fixed_ratio(d, r->period[0], r->period[1], r->old_function != NULL);
		r->ch_ratio = fixed_ratio(d, r->ch_period[0], r->ch_period[1], r->old_function != NULL);
		for (t = 0; t < 2; t++) {
			double iv[2];

			poisson_interval(d, p, t ? r->ch_samples : r->samples, t ? r->ch_period : r->period, z, iv);
			if (spread)
				spread_interval(d, r, t, q, iv);
			r->ratio_lo[t] = iv[0];
			r->ratio_hi[t] = iv[1];
		}
	}
	if (d->rows.len)
		qsort_r(d->rows.data, d->rows.len, sizeof(struct diff_row), row_cmp, d);
}

int diff__new(struct diff **out, struct analysis *const *run[2], const size_t nr[2],
	      const struct diff_config *cfg)
{
	struct diff *d = calloc(1, sizeof(*d));
	struct hashmap map;
	struct strbuf key = STRBUF_INIT;
	size_t k;
	int err, s;

	*out = NULL;
	if (!d)
		return -ENOMEM;
	for (s = 0; s < 2; s++) {
		d->run[s] = run[s];
		d->nr_runs[s] = nr[s];
		d->an[s] = run[s][0];
	}
	d->cfg = *cfg;
	array__init(&d->pairs, sizeof(struct diff_pair));
	array__init(&d->rows, sizeof(struct diff_row));
	array__init(&d->dso_pairs, sizeof(struct diff_dso_pair));
	hashmap__init(&d->dso_map);
	hashmap__init(&map);
	err = pair_events(d);
	if (!err && cfg->by == DIFF_BY_DSO_FUNCTION)
		err = map_dsos(d);
	for (s = 0; s < 2; s++)
		for (k = 0; !err && k < nr[s]; k++)
			err = add_run(d, &map, &key, s, k);
	hashmap__release(&map, NULL);
	strbuf__release(&key);
	if (err) {
		diff__delete(d);
		return err;
	}
	finish_rows(d);
	*out = d;
	return 0;
}

void diff__delete(struct diff *d)
{
	if (!d)
		return;
	array__release(&d->pairs);
	array__release(&d->rows);
	array__release(&d->dso_pairs);
	hashmap__release(&d->dso_map, NULL);
	free(d->pair_of[0]);
	free(d->pair_of[1]);
	free(d);
}

size_t diff__nr_pairs(const struct diff *d)
{
	return d->pairs.len;
}

const struct diff_pair *diff__pair(const struct diff *d, size_t i)
{
	return &ARRAY_AT(&d->pairs, struct diff_pair, i);
}

size_t diff__nr_dso_pairs(const struct diff *d)
{
	return d->dso_pairs.len;
}

const struct diff_dso_pair *diff__dso_pair(const struct diff *d, size_t i)
{
	return &ARRAY_AT(&d->dso_pairs, struct diff_dso_pair, i);
}

int diff__has_children(const struct diff *d)
{
	return d->children;
}

size_t diff__nr_rows(const struct diff *d)
{
	return d->rows.len;
}

const struct diff_row *diff__row(const struct diff *d, size_t i)
{
	return &ARRAY_AT(&d->rows, struct diff_row, i);
}

/* ---------------------------------------------------------------- stacks */

/*
 * The merged lines of diff__folded, paired by a key: the line's names with
 * OLD's main comm as NEW's and every frame without its clone suffix, each
 * key name an id in keys (names hold no ';', so equal id arrays are equal
 * texts)
 */
struct fold_merge {
	const char *comm[2];		/* OLD's and NEW's main comm; comm[0] NULL: no renaming */
	struct fold_names keys;		/* the keys' names */
	struct hashmap map;		/* a key's ids -> its line's index in lines + 1 */
	struct array key;		/* uint32_t: scratch, a line's key */
	struct array lines;		/* struct fold, names as offsets into out->parts */
	struct array comm1_out, comm1_key;	/* uint32_t: NEW's main comm as it prints (its ';' split it) */
};

/* what a run's name is among the merged lines, found once (ids + 1; 0: not yet) */
struct fold_tr {
	uint32_t out;			/* its id in out */
	uint32_t key;			/* its key name as a frame: clone suffixes dropped */
	uint32_t first;			/* its key name as a line's first name: verbatim */
	int comm0;			/* 1: OLD's main comm, 2: not, 0: not yet */
};

/* the id cached + 1 (the caches' 0 is "not yet") appended to a */
static int push_id(struct array *a, uint32_t cached)
{
	uint32_t id = cached - 1;

	return array__append(a, &id, 1);
}

/* name's text in names as name id + 1 into *cached, once */
static int cached_id(struct fold_names *names, const char *s, size_t len, uint32_t *cached)
{
	uint32_t id;

	if (*cached)
		return 0;
	if (fold_names__intern(names, s, len, &id))
		return -ENOMEM;
	*cached = id + 1;
	return 0;
}

/* the key name of a frame: "name_[k]", "name_[i]" keep flame.h's kernel and inline marks */
static int frame_key(struct fold_names *keys, struct strbuf *sb, const struct fold_name *n, uint32_t *cached)
{
	size_t tag = 0;

	if (*cached)
		return 0;
	if (n->len > 4 && n->s[n->len - 4] == '_' && n->s[n->len - 3] == '[' && n->s[n->len - 1] == ']')
		tag = 4;
	strbuf__reset(sb);
	if (strbuf__add(sb, n->s, clone_base(n->s, n->len - tag)) || strbuf__add(sb, n->s + n->len - tag, tag))
		return -ENOMEM;
	return cached_id(keys, sb->buf, sb->len, cached);
}

/* NEW's main comm as OLD's lines print it in its place: split where it holds ';' */
static int comm1_names(struct fold_merge *m, struct folded *out)
{
	const char *p = m->comm[1];

	for (;;) {
		const char *semi = strchr(p, ';');
		size_t len = semi ? (size_t)(semi - p) : strlen(p);
		uint32_t o = 0, k = 0;

		if (cached_id(&out->names, p, len, &o) || cached_id(&m->keys, p, len, &k) ||
		    push_id(&m->comm1_out, o) || push_id(&m->comm1_key, k))
			return -ENOMEM;
		if (!semi)
			return 0;
		p = semi + 1;
	}
}

/* one run's stacks into the merged lines */
static int merge_folded(struct fold_merge *m, int side, const struct folded *fd, struct folded *out)
{
	struct fold_tr *tr = calloc(fd->names.v.len ? fd->names.v.len : 1, sizeof(*tr));
	struct strbuf sb = STRBUF_INIT;
	size_t i, k;
	int err = tr ? 0 : -ENOMEM;

	for (i = 0; i < fd->nr && !err; i++) {
		const struct fold *f = &fd->v[i];
		struct fold_tr *first = &tr[f->names[0]];
		struct fold *o;
		void **slot;
		int renamed, ret;

		if (!first->comm0) {
			const struct fold_name *n = fold_names__at(&fd->names, f->names[0]);

			first->comm0 = m->comm[0] && m->comm[1] && n->len == strlen(m->comm[0]) &&
				       !memcmp(n->s, m->comm[0], n->len) ? 1 : 2;
		}
		renamed = !side && first->comm0 == 1;
		m->key.len = 0;
		if (renamed) {
			err = array__append(&m->key, m->comm1_key.data, m->comm1_key.len);
		} else {
			const struct fold_name *n = fold_names__at(&fd->names, f->names[0]);

			err = cached_id(&m->keys, n->s, n->len, &first->first);
			err = err ? err : push_id(&m->key, first->first);
		}
		for (k = 1; k < f->nr && !err; k++) {
			struct fold_tr *t = &tr[f->names[k]];

			err = frame_key(&m->keys, &sb, fold_names__at(&fd->names, f->names[k]), &t->key);
			err = err ? err : push_id(&m->key, t->key);
		}
		if (err)
			break;
		ret = hashmap__insert(&m->map, m->key.data, m->key.len * sizeof(uint32_t), &slot);
		if (ret < 0 || (ret == 1 && !(o = array__push(&m->lines)))) {
			err = -ENOMEM;
			break;
		}
		if (ret == 1)
			*slot = (void *)(uintptr_t)m->lines.len;
		o = &ARRAY_AT(&m->lines, struct fold, (size_t)(uintptr_t)*slot - 1);
		/* NEW's names where NEW has the stack; OLD's main process under NEW's name */
		if (ret == 1 || (side && !o->samples)) {
			size_t start = out->parts.len;

			if (renamed)
				err = array__append(&out->parts, m->comm1_out.data, m->comm1_out.len);
			for (k = renamed ? 1 : 0; k < f->nr && !err; k++) {
				struct fold_tr *t = &tr[f->names[k]];
				const struct fold_name *n = fold_names__at(&fd->names, f->names[k]);

				err = cached_id(&out->names, n->s, n->len, &t->out);
				err = err ? err : push_id(&out->parts, t->out);
			}
			o->names = (const uint32_t *)(uintptr_t)start;
			o->nr = out->parts.len - start;
		}
		if (side)
			o->samples += f->samples;
		else
			o->old += f->samples;
	}
	strbuf__release(&sb);
	free(tr);
	return err;
}

/* were the main executables paired by their role (a renamed or rebuilt program)? */
static int main_paired(const struct diff *d)
{
	size_t i;

	for (i = 0; i < d->dso_pairs.len; i++)
		if (ARRAY_AT(&d->dso_pairs, struct diff_dso_pair, i).how == (enum diff_dso_how)DIFF_DSO_MAIN)
			return 1;
	return 0;
}

int diff__folded(const struct diff *d, struct stack_count *const *stacks[2], struct folded *out)
{
	struct fold_merge m;
	size_t k, i;
	int s, err = 0;

	memset(&m, 0, sizeof(m));
	m.comm[0] = report__main_comm(d->an[0]);
	m.comm[1] = report__main_comm(d->an[1]);
	/* OLD's main process stands for NEW's only as diff.csv pairs them: not two unrelated programs */
	if (m.comm[0] && m.comm[1] && strcmp(m.comm[0], m.comm[1]) && !main_paired(d))
		m.comm[0] = NULL;
	memset(out, 0, sizeof(*out));
	folded__init(out);
	out->diff = out->by_period = 1;
	fold_names__init(&m.keys);
	hashmap__init(&m.map);
	array__init(&m.key, sizeof(uint32_t));
	array__init(&m.lines, sizeof(struct fold));
	array__init(&m.comm1_out, sizeof(uint32_t));
	array__init(&m.comm1_key, sizeof(uint32_t));
	if (m.comm[0] && m.comm[1])
		err = comm1_names(&m, out);
	for (s = 1; s >= 0 && !err; s--) {
		for (k = 0; k < d->nr_runs[s] && !err; k++) {
			struct folded fd;

			err = stack_count__folded(stacks[s][k], d->run[s][k], &fd);
			if (err)
				break;
			if (!out->event)
				out->event = fd.event;
			if (s)
				out->nr_samples += fd.nr_samples;
			err = merge_folded(&m, s, &fd, out);
			folded__release(&fd);
		}
	}
	fold_names__release(&m.keys);
	hashmap__release(&m.map, NULL);
	array__release(&m.key);
	array__release(&m.comm1_out);
	array__release(&m.comm1_key);
	out->v = array__detach(&m.lines, &out->nr);
	if (!err && out->nr && !out->v)
		err = -ENOMEM;
	if (!err) {
		for (i = 0; i < out->nr; i++) {
			struct fold *f = &out->v[i];

			/* offsets until the parts stopped growing */
			f->names = (const uint32_t *)out->parts.data + (size_t)(uintptr_t)f->names;
			f->samples /= d->nr_runs[1];	/* the mean per run of each side */
			f->old /= d->nr_runs[0];
			out->total += f->samples;
			out->old_total += f->old;
		}
		err = folded__sort(out);
	}
	if (err)
		folded__release(out);
	return err;
}

/* ---------------------------------------------------------------- diff.csv */

static void fixed_field(struct csv *c, int64_t v)
{
	char buf[32];

	diff__format(buf, sizeof(buf), v);
	csv__str(c, buf);
}

static const struct report_column diff_cols[] = {
	{ "event", "TEXT" }, { "dso", "TEXT" }, { "function", "TEXT" }, { "old_samples", "BIGINT" },
	{ "new_samples", "BIGINT" }, { "old_period", "BIGINT" }, { "new_period", "BIGINT" },
	{ "old_percent", "DOUBLE" }, { "new_percent", "DOUBLE" }, { "delta_percent", "DOUBLE" },
	{ "ratio", "DOUBLE" }, { "old_children_percent", "DOUBLE" }, { "new_children_percent", "DOUBLE" },
	{ "delta_children_percent", "DOUBLE" }, { "ratio_low", "DOUBLE" }, { "ratio_high", "DOUBLE" },
	{ "children_ratio", "DOUBLE" }, { "children_ratio_low", "DOUBLE" }, { "children_ratio_high", "DOUBLE" },
	{ "old_dso", "TEXT" }, { "old_function", "TEXT" }, { NULL, NULL }
};

/* the columns written only when both profiles have callchains */
static int children_col(int k)
{
	return (k >= 11 && k <= 13) || (k >= 16 && k <= 18);
}

int diff__write(const struct diff *d, const char *dir, int raw_csv)
{
	struct csv c;
	size_t i;
	int err, k;

	err = csv__open(&c, dir, "diff.csv");
	if (err)
		return err;
	csv__set_raw_text(&c, raw_csv);
	for (k = 0; diff_cols[k].name; k++)
		if (d->children || !children_col(k))
			csv__str(&c, diff_cols[k].name);
	csv__end_row(&c);
	for (i = 0; i < d->rows.len; i++) {
		const struct diff_row *r = diff__row(d, i);

		csv__str(&c, r->event);
		csv__str(&c, r->dso);
		csv__str(&c, r->function);
		csv__u64(&c, r->samples[0]);
		csv__u64(&c, r->samples[1]);
		csv__u64(&c, r->period[0]);
		csv__u64(&c, r->period[1]);
		fixed_field(&c, r->pct[0]);
		fixed_field(&c, r->pct[1]);
		fixed_field(&c, r->delta);
		fixed_field(&c, r->ratio);
		if (d->children) {
			fixed_field(&c, r->ch_pct[0]);
			fixed_field(&c, r->ch_pct[1]);
			fixed_field(&c, r->ch_delta);
		}
		fixed_field(&c, diff__fixed(r->ratio_lo[0]));
		fixed_field(&c, diff__fixed(r->ratio_hi[0]));
		if (d->children) {
			fixed_field(&c, r->ch_ratio);
			fixed_field(&c, diff__fixed(r->ratio_lo[1]));
			fixed_field(&c, diff__fixed(r->ratio_hi[1]));
		}
		csv__str(&c, r->old_dso ? r->old_dso : "");
		csv__str(&c, r->old_function ? r->old_function : "");
		csv__end_row(&c);
	}
	return csv__commit(&c);
}

static int diff_write(void *state, struct analysis *a, const char *dir)
{
	return diff__write(state, dir, a ? analysis__opts(a)->raw_csv : 0);
}

static const struct report_output diff_outputs[] = {
	{ .name = "diff", .columns = diff_cols, .write = diff_write },
	{ .name = NULL }
};

/* readperf diff's report: its state is the struct diff */
const struct report_ops diff_report = {
	.name = "diff",
	.source = REPORT_FROM_DIFF,
	.outputs = diff_outputs,
};

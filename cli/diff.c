/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * readperf diff [OPTIONS] OLD NEW, or OLD... -- NEW...: every file read
 * through an analysis of its own with the same options (the rows shared
 * with the analysis, cli/common.c), the runs of a side summed and compared
 * function by function by decode/reports/diff.c into DIR/diff.csv;
 * --fail-above and --fail-above-ratio make a regression exit 4 when the
 * whole confidence interval of the change is beyond them (--gate picks self,
 * children or both).  The analysis' own options are refused: diff would not
 * use them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/analyse.h"
#include "decode/reports/diff.h"
#include "decode/reports/flame.h"
#include "decode/reports/stacks.h"
#include "perffile/ordered.h"
#include "perffile/perffile.h"
#include "util/csv.h"
#include "util/fs.h"
#include "util/strbuf.h"

const struct cli_option diff_options[] = {
	{ 0, "sort", "KEY", "period (|change of period|, default), ratio (relative change)\n"
	  "or delta (|change of percent|)", OPT_SORT, NULL },
	{ 0, "fail-above", "PCT", "exit 4 when a function's self percent grows by more than PCT points",
	  OPT_FAIL_ABOVE, NULL },
	{ 0, "fail-above-ratio", "R", "exit 4 when a function's period grows more than R times\n"
	  "(new functions count as growing without bound)", OPT_FAIL_RATIO, NULL },
	{ 0, "fail-min-percent", "P", "the ratio gate looks at functions with P% or more on either\n"
	  "side only (default 1)", OPT_FAIL_MIN, NULL },
	{ 0, "fail-confidence", "P", "a gate fires only when the whole P confidence interval of the\n"
	  "ratio is beyond it (default 0.99; 0: the point estimate)", OPT_FAIL_CONF, NULL },
	{ 0, "gate", "WHAT", "self, children (inclusive time) or both: what the gates look at\n"
	  "(default both when both profiles have callchains, else self)", OPT_GATE, NULL },
	{ 0, "flamegraph", "FILE", "a differential flame graph SVG into FILE: NEW's stacks, red grew,\n"
	  "blue shrank against OLD (difffolded.pl + flamegraph.pl)", OPT_DIFF_FLAME, NULL },
	{ 0, "folded", "FILE", "the stacks as \"STACK OLD NEW\" lines (difffolded.pl, inferno) into FILE",
	  OPT_DIFF_FOLDED, NULL },
	{ 0, "html", "FILE", "the diff as one self-contained HTML page into FILE: the table with\n"
	  "ratios, intervals and the gates' result, the differential flame graph", OPT_DIFF_HTML, NULL },
	{ 0, "pair", "BY", "dso (dso and function, default) or function (the name alone,\n"
	  "as perf diff -s sym)", OPT_PAIR, NULL },
	CLI_OPT_END,
};

static const struct cli_option_group diff_groups[] = {
	{ NULL, analyse_shared_options, NULL, 0 },
	{ "\nits own options:", diff_options, NULL, 0 },
	{ NULL, analyse_only_options, "the analysis only", 1 },
	{ NULL, NULL, NULL, 0 },
};

static const struct cli_command diff_cmd = {
	.name = "readperf diff",
	.usage_head = "usage: readperf diff [OPTIONS] OLD NEW\n"
		"   or: readperf diff [OPTIONS] OLD... -- NEW...\n"
		"compare two profiles function by function into DIR/diff.csv (the recordings of a\n"
		"side summed); the options below apply to every file\n"
		"\n"
		"options:\n",
	.usage_tail = "\n"
		"exit codes: 0 ok, 1 usage, 2 bad input, 3 I/O or system error,\n"
		"            4 a function crossed --fail-above or --fail-above-ratio\n",
	.groups = diff_groups,
	.help_col = 22,
};

struct diff_opts {
	struct analyse_opts o;		/* the options shared with the analysis */
	struct cli *cli;
	enum diff_sort sort;		/* --sort */
	int64_t fail_above;		/* --fail-above PCT in 1/10000 points, or -1 */
	int64_t fail_ratio;		/* --fail-above-ratio R in 1/10000, or -1 */
	int64_t fail_min;		/* --fail-min-percent in 1/10000 % (default 1%) */
	struct diff_config cfg;		/* --sort, --pair, --fail-confidence */
	int gate;			/* --gate: bit 0 self, bit 1 children; 0: the default */
	const char *flamegraph, *folded;	/* --flamegraph, --folded, or NULL */
	const char *html;			/* --html, or NULL */
};

/* a word of words[0..n) into *out; else a usage message */
static int pick_word(const char *opt, const char *arg, const char *const *words, int n, const char *want, int *out)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(arg, words[i])) {
			*out = i;
			return -1;
		}
	fprintf(stderr, "readperf diff: %s wants %s, not '%s'\n", opt, want, arg);
	return EXIT_USAGE;
}

/* --fail-confidence P: 0 <= P < 1 */
static int confidence_opt(struct diff_opts *d, const char *arg)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end || !(v >= 0 && v < 1)) {
		fprintf(stderr, "readperf diff: --fail-confidence wants a number from 0 up to 1 (0.99), not '%s'\n", arg);
		return EXIT_USAGE;
	}
	d->cfg.confidence = v;
	return -1;
}

/* one option of readperf diff (cli_command__parse's handler); -1 to go on, else the exit code */
static int diff_opt(void *ctx, int id, const char *arg)
{
	static const char *const sorts[] = { "period", "ratio", "delta" };
	static const char *const pairs[] = { "dso", "function" };
	static const char *const gates[] = { "self", "children", "both" };
	static const char *const names[] = { "--sort", "--fail-above", "--fail-above-ratio", "--fail-min-percent" };
	struct diff_opts *d = ctx;
	int64_t v;
	int w = 0, code;

	if (id == OPT_PAIR) {
		code = pick_word("--pair", arg, pairs, 2, "dso or function", &w);
		d->cfg.by = (enum diff_by)w;
		return code;
	}
	if (id == OPT_GATE) {
		code = pick_word("--gate", arg, gates, 3, "self, children or both", &w);
		d->gate = w + 1;	/* bit 0 self, bit 1 children */
		return code;
	}
	if (id == OPT_FAIL_CONF)
		return confidence_opt(d, arg);
	if (id == OPT_DIFF_FLAME || id == OPT_DIFF_FOLDED || id == OPT_DIFF_HTML) {
		*(id == OPT_DIFF_FLAME ? &d->flamegraph : id == OPT_DIFF_FOLDED ? &d->folded : &d->html) = arg;
		return -1;
	}
	if (id < OPT_SORT || id > OPT_FAIL_MIN)
		return analyse_opts__shared(&d->o, d->cli, id, arg);
	if (id == OPT_SORT) {
		code = pick_word("--sort", arg, sorts, 3, "period, ratio or delta", &w);
		d->cfg.sort = (enum diff_sort)w;
		return code;
	}
	v = parse_fixed4(arg);
	if (v < 0 || (id == OPT_FAIL_RATIO && v == 0)) {
		fprintf(stderr, "readperf diff: %s wants a positive number, not '%s'\n", names[id - OPT_SORT], arg);
		return EXIT_USAGE;
	}
	if (id == OPT_FAIL_ABOVE)
		d->fail_above = v;
	else if (id == OPT_FAIL_RATIO)
		d->fail_ratio = v;
	else
		d->fail_min = v;
	return -1;
}

/* one side of readperf diff: the file read through an analysis of its own */
struct diff_side {
	struct perf_file *f;
	struct analysis *an;
	struct stack_count *stacks;	/* --folded, --flamegraph: its stacks (stack_count_ops, an's consumer), or NULL */
	struct symbols_opts sym;	/* borrowed by an */
	struct analysis_opts opts;	/* borrowed by an */
};

/* open and replay path; 0 or a negative errno (-EINVAL: a fault, the records before it count) */
static int diff_load(struct diff_side *d, const char *path, const struct analyse_opts *o, int want_stacks,
		     const struct log *log)
{
	struct ordered_queue *q = NULL;
	int err, read_err = 0;

	err = open_input(path, log, &d->f);
	if (err)
		return err;
	d->sym = o->sym;
	d->opts = o->an;
	if (o->event_arg && find_event(d->f, o->event_arg, &d->opts.event, log))
		return -EINVAL;
	if (resolve_time(&o->time, d->f, &d->opts, log))
		return -EINVAL;
	recorded_kernel(d->f, &d->sym);
	d->sym.log = log;
	d->opts.symbols = &d->sym;
	d->opts.log = log;
	d->opts.outputs = 0;		/* the hub's aggregates only */
	d->opts.out_dir = NULL;
	if (want_stacks) {		/* and the stacks for --flamegraph/--folded, counted here */
		err = stack_count__new(&d->stacks);
		if (err)
			return err;
		d->opts.consumer = &stack_count_ops;
		d->opts.consumer_state = d->stacks;
	}
	err = analysis__new(&d->an, d->f, &d->opts);
	if (!err)
		err = ordered_queue__new(&q, d->f, deliver, d->an);
	if (!err)
		err = replay(d->f, NULL, q, o->quiet, &read_err);
	if (err && d->an && err == analysis__status(d->an))
		analysis_error(path, err, log);
	ordered_queue__delete(q);
	if (!err && !read_err)
		err = check_filters(o, d->f, d->an, log);
	return err ? err : read_err;
}

static const char *const pairing_how[] = {
	[DIFF_PAIR_NAME] = "by name",
	[DIFF_PAIR_BASE] = "by name without modifiers",
	[DIFF_PAIR_POSITION] = "by position",
};

static const char *const dso_how[] = {
	[DIFF_DSO_MAIN] = "both the main executable",
	[DIFF_DSO_FILE_NAME] = "the same file name",
	[DIFF_DSO_SONAME] = "the same soname stem",
	[DIFF_DSO_JIT] = "both a process's JIT code",
};

/* " compute_b x2.0100 (+16.8200 points)" for the summary and the gate */
static void diff_row_text(struct strbuf *sb, const struct diff_row *r)
{
	char ratio[32], delta[32];

	diff__format(ratio, sizeof(ratio), r->ratio);
	diff__format(delta, sizeof(delta), r->delta);
	if (r->ratio == -10000)
		strbuf__addf(sb, "%s (new, %s points)", r->function, delta);
	else if (r->ratio < 0)
		strbuf__addf(sb, "%s (new self time, %s points)", r->function, delta);
	else
		strbuf__addf(sb, "%s x%s (%s%s points)", r->function, ratio, r->delta >= 0 ? "+" : "", delta);
}

/* the rows of the first event pair whose self interval holds 1 */
static size_t within_noise(const struct diff *d, size_t *total)
{
	size_t i, n = 0;

	for (i = *total = 0; i < diff__nr_rows(d) && !diff__row(d, i)->pair; i++, ++*total)
		n += diff__row(d, i)->ratio_lo[0] <= 1 && diff__row(d, i)->ratio_hi[0] >= 1;
	return n;
}

/* the functions paired without their clone suffix or (--pair function) across dsos, in one line */
static void clone_notes(const struct diff *d, const struct log *log)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, n = 0;

	for (i = 0; i < diff__nr_rows(d); i++) {
		const struct diff_row *r = diff__row(d, i);

		if (!r->old_function || (!r->samples[1] && !r->ch_samples[1]) || !strcmp(r->old_function, r->function))
			continue;
		if (n++ < 5)
			strbuf__addf(&sb, "%s%s %s (OLD) with %s %s (NEW)", n > 1 ? ", " : "", r->old_dso,
				     r->old_function, r->dso, r->function);
	}
	if (n)
		log_msg(log, LOG_INFO, "diff: %zu functions paired without their clone suffix: %s%s", n, sb.buf,
			n > 5 ? ", ..." : "");
	strbuf__release(&sb);
}

/* how the events and dsos were paired, when not all by name; then the top changes in one line */
static void diff_notes(const struct diff *d, const struct diff_opts *o, const struct log *log)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, n, total, quiet;

	for (i = 0; i < diff__nr_pairs(d); i++) {
		const struct diff_pair *p = diff__pair(d, i);

		if (p->how == DIFF_PAIR_OLD_ONLY || p->how == DIFF_PAIR_NEW_ONLY)
			log_msg(log, LOG_WARN, "diff: event %s is only in %s", p->old_name ? p->old_name : p->new_name,
				p->old_name ? "OLD" : "NEW");
		else if (p->how != DIFF_PAIR_NAME)
			log_msg(log, LOG_INFO, "diff: event %s (OLD) paired with %s (NEW) %s", p->old_name,
				p->new_name, pairing_how[p->how]);
	}
	for (i = 0; i < diff__nr_dso_pairs(d); i++) {
		const struct diff_dso_pair *p = diff__dso_pair(d, i);

		log_msg(log, LOG_INFO, "diff: dso %s (OLD) paired with %s (NEW): %s", p->old_dso, p->new_dso,
			dso_how[p->how]);
	}
	clone_notes(d, log);
	for (i = n = 0; i < diff__nr_rows(d) && n < 3; i++) {
		const struct diff_row *r = diff__row(d, i);

		if (r->pair)	/* the first event pair only */
			break;
		if (r->ratio == 10000 && !r->delta)	/* no change to name */
			continue;
		strbuf__addstr(&sb, n++ ? ", " : "");
		diff_row_text(&sb, r);
	}
	quiet = within_noise(d, &total);
	if (diff__nr_rows(d) && !diff__row(d, 0)->pair)
		log_msg(log, LOG_INFO, "diff: %s: %s; %zu of %zu functions within noise (%g confidence)",
			diff__row(d, 0)->event, n ? sb.buf : "no function's self time or share changed", quiet,
			total, o->cfg.confidence);
	strbuf__release(&sb);
}

/* does row r cross a gate on t (0 self, 1 children)? */
static int row_over(const struct diff_row *r, const struct diff_opts *o, int t)
{
	int64_t pct0 = t ? r->ch_pct[0] : r->pct[0], pct1 = t ? r->ch_pct[1] : r->pct[1];
	int64_t delta = t ? r->ch_delta : r->delta, ratio = t ? r->ch_ratio : r->ratio;
	int64_t low = diff__fixed(r->ratio_lo[t]);
	uint64_t new_period = t ? r->ch_period[1] : r->period[1];
	int sure = o->cfg.confidence <= 0;

	/* the points gate: the growth itself must be beyond the noise */
	if (o->fail_above >= 0 && delta > o->fail_above && (sure || low < 0 || low > 10000))
		return 1;
	if (o->fail_ratio < 0 || !new_period || (pct0 < o->fail_min && pct1 < o->fail_min))
		return 0;
	if (sure)
		return ratio < 0 || ratio > o->fail_ratio;
	return low < 0 || low > o->fail_ratio;
}

/* the gates row r crosses: bit 0 self, bit 1 children */
static unsigned row_crossed(const struct diff *d, const struct diff_row *r, const struct diff_opts *o)
{
	unsigned bits = 0;
	int t;

	for (t = 0; t < 2; t++)
		if ((o->gate & (1 << t)) && (!t || diff__pair(d, r->pair)->children) && row_over(r, o, t))
			bits |= 1u << t;
	return bits;
}

/* a ratio or a bound of its interval for a message: prefix and the figure, or the sentinel's word (diff.csv's -1, -2) */
static void gate_figure(char *buf, size_t size, const char *prefix, int64_t v, const char *sentinel)
{
	char num[32];

	diff__format(num, sizeof(num), v);
	snprintf(buf, size, "%s%s", v < 0 ? "" : prefix, v < 0 ? sentinel : num);
}

/* --fail-above / --fail-above-ratio: say every function that crosses; 1 when any does */
static int diff_gate(const struct diff *d, const struct diff_opts *o, const struct log *log)
{
	static const char *const what[] = { "self", "children" };
	struct strbuf sb = STRBUF_INIT;
	char ratio[48], lo[48], hi[48], delta[32], change[48];
	size_t i;
	int failed = 0, t;

	for (i = 0; i < diff__nr_rows(d); i++) {
		const struct diff_row *r = diff__row(d, i);
		unsigned bits = row_crossed(d, r, o);

		for (t = 0; t < 2; t++) {
			if (!(bits & (1u << t)))
				continue;
			strbuf__reset(&sb);
			diff_row_text(&sb, r);
			/* OLD without the function: 'new', an interval without an upper bound: 'inf' */
			gate_figure(ratio, sizeof(ratio), "x", t ? r->ch_ratio : r->ratio, "new");
			gate_figure(lo, sizeof(lo), "", diff__fixed(r->ratio_lo[t]), "0");
			gate_figure(hi, sizeof(hi), "", diff__fixed(r->ratio_hi[t]), "inf");
			/* the children gate's own change of share (the row's text gives self's) */
			diff__format(delta, sizeof(delta), r->ch_delta);
			snprintf(change, sizeof(change), t ? " (%s%s points)" : "", r->ch_delta >= 0 ? "+" : "", delta);
			log_msg(log, LOG_ERR, "diff: regression: %s %s %s, %s %s%s in %s..%s", r->event, r->dso, sb.buf,
				what[t], ratio, change, lo, hi);
			failed = 1;
			break;
		}
	}
	strbuf__release(&sb);
	return failed;
}

/* the files of each side: OLD NEW, or OLD... -- NEW... (the last "--" of argv, found before the parse) */
static int split_sides(int argc, char **argv, int next, int dashes, char **files[2], size_t nr[2])
{
	if (dashes < 0) {
		if (argc - next != 2)
			return -1;
		dashes = next + 1;
		files[1] = argv + dashes;
		nr[1] = 1;
	} else {
		files[1] = argv + dashes + 1;
		nr[1] = (size_t)(argc - dashes - 1);
	}
	files[0] = argv + next;
	nr[0] = (size_t)(dashes - next);
	return nr[0] && nr[1] ? 0 : -1;
}

/*
 * load every file of both sides; 0 (with *fault -EINVAL for a damaged file
 * read up to its fault) or a negative errno: -EINVAL then for a file that
 * has no analysis (its -e event or --time does not fit it)
 */
static int load_sides(struct diff_side *side[2], char **files[2], const size_t nr[2], struct analysis **an[2],
		      struct stack_count **st[2], const struct diff_opts *o, int *fault, const struct log *log)
{
	size_t k;
	int s, err = 0;

	for (s = 0; s < 2 && !err; s++) {
		for (k = 0; k < nr[s] && !err; k++) {
			err = diff_load(&side[s][k], files[s][k], &o->o, o->flamegraph || o->folded || o->html, log);
			/* a damaged file still compares by what was read before the fault */
			if (err == -EINVAL && side[s][k].an) {
				*fault = err;
				err = 0;
			}
			an[s][k] = side[s][k].an;
			st[s][k] = side[s][k].stacks;
		}
	}
	return err;
}

/* --folded and --flamegraph: the differential stacks; 0 or a negative errno (said, but -ENOMEM) */
static int diff_stacks(const struct diff *d, struct stack_count *const *st[2], const struct diff_opts *o,
		       const struct log *log)
{
	const char *path[2] = { o->folded, o->flamegraph };
	struct folded fd;
	int err = 0, i;

	for (i = 0; i < 2 && !err; i++) {
		if (!path[i])
			continue;
		err = diff__folded(d, st, &fd);
		if (!err)
			err = i ? flame__write_svg(&fd, path[i], FLAME_DIFF, FLAME_MIN_CPX) : folded__write(&fd, path[i]);
		if (err && err != -ENOMEM)
			log_msg(log, LOG_ERR, "%s: cannot write: %s", path[i], strerror(-err));
	}
	return err;
}

/*
 * diff.csv and the manifest of both sides' files as one transaction (the
 * reports of an earlier run in the directory removed); 0 or -errno (said, but ENOMEM)
 */
static int diff_commit(const struct diff *d, const struct diff_opts *o, struct diff_side *side[2], char **files[2],
		       const size_t nr[2], const struct log *log)
{
	struct manifest_input *in = calloc(nr[0] + nr[1], sizeof(*in));
	struct csv_txn txn = { 0 };
	size_t k, n = 0;
	int err, s;

	if (!in)
		return -ENOMEM;
	for (s = 0; s < 2; s++)
		for (k = 0; k < nr[s]; k++)
			in[n++] = (struct manifest_input){ s ? "new_" : "old_", files[s][k], side[s][k].f };
	csv__remove_stale(o->o.outdir);
	err = csv_txn__begin(&txn, o->o.outdir);
	if (!err)
		err = diff__write(d, txn.stage, o->o.an.raw_csv);
	if (err)
		log_msg(log, LOG_ERR, "%s/diff.csv: cannot write: %s", o->o.outdir, strerror(-err));
	if (!err)
		err = commit_manifest(&o->o, &txn, in, n, log);
	if (!err) {
		err = csv_txn__commit(&txn);
		if (err)
			log_msg(log, LOG_ERR, "%s: cannot move the reports in: %s", o->o.outdir, strerror(-err));
	}
	csv_txn__abort(&txn);
	free(in);
	return err;
}

/* the gates asked, in words, into sb (empty: none) */
static void gate_words(struct strbuf *sb, const struct diff_opts *o)
{
	static const char *const what[] = { "", "self", "children", "self and children" };
	char v[32], m[32];

	if (o->fail_above >= 0) {
		diff__format(v, sizeof(v), o->fail_above);
		strbuf__addf(sb, "--fail-above %s points", v);
	}
	if (o->fail_ratio >= 0) {
		diff__format(v, sizeof(v), o->fail_ratio);
		diff__format(m, sizeof(m), o->fail_min);
		strbuf__addf(sb, "%s--fail-above-ratio %s (functions with %s%% or more)", sb->len ? ", " : "", v, m);
	}
	if (sb->len)
		strbuf__addf(sb, "; on %s; %g confidence", what[o->gate & 3], o->cfg.confidence);
}

/* --html: the page, with the rows that cross the gates */
static int diff_page(const struct diff *d, struct stack_count *const *st[2], const struct diff_opts *o,
		     char **files[2], const size_t nr[2], const struct log *log)
{
	unsigned char *crossed = calloc(diff__nr_rows(d) + 1, 1);
	struct strbuf words = STRBUF_INIT;
	struct diff_page info = { { (const char *const *)files[0], (const char *const *)files[1] }, { nr[0], nr[1] },
				  o->cfg.confidence, NULL, 0, crossed, { st[0], st[1] } };
	size_t i;
	int err;

	if (!crossed)
		return -ENOMEM;
	for (i = 0; i < diff__nr_rows(d); i++) {
		crossed[i] = (unsigned char)row_crossed(d, diff__row(d, i), o);
		info.failed |= crossed[i] != 0;
	}
	gate_words(&words, o);
	info.gate = words.len ? words.buf : NULL;
	err = diff__write_html(d, o->html, &info);
	if (err && err != -ENOMEM)
		log_msg(log, LOG_ERR, "%s: cannot write: %s", o->html, strerror(-err));
	strbuf__release(&words);
	free(crossed);
	return err;
}

static int diff_run(struct diff_opts *o, struct diff_side *side[2], char **files[2], const size_t nr[2],
		    const struct log *log)
{
	struct analysis **an[2] = { calloc(nr[0], sizeof(*an[0])), calloc(nr[1], sizeof(*an[1])) };
	struct stack_count **st[2] = { calloc(nr[0], sizeof(*st[0])), calloc(nr[1], sizeof(*st[1])) };
	struct diff *d = NULL;
	size_t k;
	int err, fault = 0, code, s;

	err = an[0] && an[1] && st[0] && st[1] ? load_sides(side, files, nr, an, st, o, &fault, log) : -ENOMEM;
	if (!err)
		err = diff__new(&d, (struct analysis *const *[2]){ an[0], an[1] }, nr, &o->cfg);
	if (!err && o->gate & 2 && !diff__has_children(d)) {
		log_msg(log, LOG_ERR, "diff: --gate %s needs callchains in both profiles (perf record -g)",
			o->gate == 2 ? "children" : "both");
		code = EXIT_USAGE;
		goto out;
	}
	if (!err && !o->gate)
		o->gate = diff__has_children(d) ? 3 : 1;
	if (!err) {
		diff_notes(d, o, log);
		err = diff_commit(d, o, side, files, nr, log);
		if (!err)
			err = diff_stacks(d, (struct stack_count *const *[2]){ st[0], st[1] }, o, log);
		if (!err && o->html)
			err = diff_page(d, (struct stack_count *const *[2]){ st[0], st[1] }, o, files, nr, log);
	}
	if (err == -ENOMEM)
		log_msg(log, LOG_ERR, "out of memory");
	code = exit_for(err ? err : fault);
	for (s = 0; s < 2 && !err; s++)
		for (k = 0; k < nr[s]; k++)
			analysis__save_symbol_cache(side[s][k].an);
	if (!err && diff_gate(d, o, log) && code == EXIT_OK)
		code = EXIT_REGRESSION;
out:
	diff__delete(d);
	for (s = 0; s < 2; s++) {
		free(an[s]);
		free(st[s]);
	}
	return code;
}

/* diff's own --folded, --flamegraph and --html out of the analysis' path rows it refuses */
static void diff_own_paths(struct cli_option *rows)
{
	size_t i, n = 0;

	for (i = 0; rows[i].long_name; i++)
		if (strcmp(rows[i].long_name, "folded") && strcmp(rows[i].long_name, "flamegraph") &&
		    strcmp(rows[i].long_name, "html"))
			rows[n++] = rows[i];
	rows[n] = rows[i];
}

int cmd_diff(int argc, char **argv, struct cli *cli)
{
	const struct log *log = &cli->log;
	struct diff_opts o = { .cli = cli, .fail_above = -1, .fail_ratio = -1, .fail_min = 10000,
			       .cfg = { .confidence = 0.99 } };
	struct diff_side *side[2] = { NULL, NULL };
	struct cli_option paths[REPORT_MAX_OUTPUTS + 1];
	struct cli_option_group groups[] = {
		diff_groups[0], diff_groups[1], diff_groups[2], { NULL, NULL, "the analysis only", 1 }, diff_groups[3],
	};
	struct cli_command cmd = diff_cmd;
	char **files[2];
	size_t nr[2] = { 0, 0 }, k;
	int code, err, i, next, dashes = -1, s;

	for (i = argc - 1; i > 0 && dashes < 0; i--)
		if (!strcmp(argv[i], "--"))
			dashes = i;
	analyse_opts__init(&o.o);
	if (analyse_opts__args(&o.o, argc, argv)) {
		fputs("readperf: out of memory\n", stderr);
		return EXIT_SYSTEM;
	}
	analyse_path_options(paths);
	diff_own_paths(paths);
	groups[3].rows = paths;
	cmd.groups = groups;
	code = cli_command__parse(&cmd, dashes < 0 ? argc : dashes, argv, diff_opt, &o, &next);
	if (code < 0)
		code = analyse_opts__finish(&o.o);
	if (code >= 0)
		goto out;
	if (split_sides(argc, argv, next, dashes, files, nr)) {
		fputs("usage: readperf diff [OPTIONS] OLD NEW   (readperf -h lists the options)\n"
		      "   or: readperf diff [OPTIONS] OLD... -- NEW...\n", stderr);
		code = EXIT_USAGE;
		goto out;
	}
	if (count_dashes((const char *const *)files[0], nr[0]) + count_dashes((const char *const *)files[1], nr[1]) > 1) {
		code = dash_twice("inputs");
		goto out;
	}
	{
		const char *own[3] = { o.folded, o.flamegraph, o.html };

		if (count_dashes(own, 3) > 1) {
			code = dash_twice("outputs");
			goto out;
		}
	}
	err = fs__mkdir_p(o.o.outdir);
	if (err) {
		log_msg(log, LOG_ERR, "%s: cannot create: %s", o.o.outdir, strerror(-err));
		code = EXIT_SYSTEM;
		goto out;
	}
	side[0] = calloc(nr[0], sizeof(*side[0]));
	side[1] = calloc(nr[1], sizeof(*side[1]));
	if (!side[0] || !side[1]) {
		log_msg(log, LOG_ERR, "out of memory");
		code = EXIT_SYSTEM;
		goto out;
	}
	code = diff_run(&o, side, files, nr, log);
out:
	for (s = 0; s < 2; s++) {
		for (k = 0; side[s] && k < nr[s]; k++) {
			analysis__delete(side[s][k].an);
			stack_count__delete(side[s][k].stacks);
			perf_file__delete(side[s][k].f);
		}
		free(side[s]);
	}
	analyse_opts__release(&o.o);
	return code;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * readperf [OPTIONS] [FILE]: the analysis of one file into the reports of
 * --reports, the extra outputs (--folded, --flamegraph, --timeline,
 * --speedscope, off-CPU) and a summary; with many files it hands over to
 * cli/batch.c.  Its option table: the rows shared with readperf diff
 * (cli/common.c), its own, and diff's, which it refuses.
 */
#include <errno.h>
#include <signal.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/analyse.h"
#include "decode/reports/common.h"
#include "decode/reports/filestat.h"
#include "decode/reports/results.h"
#include "perffile/ordered.h"
#include "perffile/perffile.h"
#include "util/csv.h"
#include "util/escape.h"
#include "util/fs.h"
#include "util/strbuf.h"
#include "util/thread.h"

/* ---------------------------------------------------------------- reports */

/* is output id a CSV report of the analysis (of the hub or of the file's count, not diff's)? */
static int analyse_csv(size_t id)
{
	const struct report_ops *owner;
	const struct report_output *r = report_outputs__get(id, &owner);

	return r && !r->is_path && owner->source != REPORT_FROM_DIFF;
}

/* the CSV reports of --reports default: every one of the analysis but the opt_in ones */
uint64_t analyse_default_reports(void)
{
	uint64_t mask = 0;
	size_t id;

	for (id = 0; id < report_outputs__count(); id++)
		if (analyse_csv(id) && !report_outputs__get(id, NULL)->opt_in)
			mask |= (uint64_t)1 << id;
	return mask;
}

/* --reports' help: the names from the registry, a line at most 60 wide */
static int reports_help(struct strbuf *sb)
{
	const char *sep = "";
	size_t id, col = 0;

	strbuf__addstr(sb, "reports to write, comma-separated (default all):\n");
	for (id = 0; id < report_outputs__count(); id++) {
		const struct report_output *r = report_outputs__get(id, NULL);
		size_t len = strlen(r->name) + 1;

		if (!analyse_csv(id) || r->opt_in)
			continue;
		strbuf__addstr(sb, sep);
		if (col && col + len > 60) {
			strbuf__addch(sb, '\n');
			col = 0;
		}
		strbuf__addstr(sb, r->name);
		sep = ",";
		col += len;
	}
	strbuf__addstr(sb, ";\n'default' is all of them, 'none' none (with --folded, --flamegraph);\nalso:");
	for (id = 0; id < report_outputs__count(); id++)
		if (analyse_csv(id) && report_outputs__get(id, NULL)->opt_in)
			strbuf__addf(sb, " %s", report_outputs__get(id, NULL)->name);
	return strbuf__addstr(sb, " (not in default)");
}

/* "none, default (all), stat, events, ..." for the message of an unknown report */
static void list_reports(FILE *fp)
{
	size_t id;

	fputs("none, default (all)", fp);
	for (id = 0; id < report_outputs__count(); id++)
		if (analyse_csv(id))
			fprintf(fp, ", %s", report_outputs__get(id, NULL)->name);
}

/* --reports LIST into *mask; 0, or -EINVAL / -ENOMEM after a message */
static int parse_reports(const char *list, uint64_t *mask)
{
	char *copy = strdup(list), *tok, *save = NULL;
	int id;

	if (!copy)
		return -ENOMEM;
	*mask = 0;
	if (!strtok_r(copy, ",", &save)) {
		fputs("readperf: --reports names no report ('none' for none)\n", stderr);
		free(copy);
		return -EINVAL;
	}
	strcpy(copy, list);
	save = NULL;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t len = strlen(tok);

		if (len > 4 && !strcmp(tok + len - 4, ".csv"))
			tok[len - 4] = '\0';
		if (!strcmp(tok, "none"))
			continue;
		if (!strcmp(tok, "default") || !strcmp(tok, "all")) {
			*mask |= analyse_default_reports();
			continue;
		}
		id = report_outputs__find(tok, 0);
		if (id < 0 || !analyse_csv((size_t)id)) {
			fprintf(stderr, "readperf: unknown report '%s'; reports: ", tok);
			list_reports(stderr);
			fputc('\n', stderr);
			free(copy);
			return -EINVAL;
		}
		*mask |= (uint64_t)1 << id;
	}
	free(copy);
	return 0;
}

/* " stat.csv events.csv ..." of the reports in mask */
static void print_report_names(FILE *fp, uint64_t mask)
{
	size_t id;

	for (id = 0; id < report_outputs__count(); id++)
		if (mask >> id & 1)
			fprintf(fp, " %s.csv", report_outputs__get(id, NULL)->name);
}

void analyse_path_options(struct cli_option *rows)
{
	size_t id, n = 0;

	for (id = 0; id < report_outputs__count() && id < REPORT_MAX_OUTPUTS; id++) {
		const struct report_output *r = report_outputs__get(id, NULL);
		struct cli_option row = { 0, NULL, "FILE", NULL, 0, NULL };

		if (!r->is_path)
			continue;
		row.long_name = r->name;
		row.help = r->help;
		row.id = OPT_PATH + (int)id;
		rows[n++] = row;
	}
	rows[n] = (struct cli_option)CLI_OPT_END;
}

/* ---------------------------------------------------------------- options */

const struct cli_option analyse_only_options[] = {
	{ 'i', "input", "FILE", "the file to analyse (as perf report -i; or give it after the options)", 'i', NULL },
	{ 0, "reports", "LIST", NULL, OPT_REPORTS, reports_help },
	{ 0, "percent-limit", "PCT", "leave out rows of results, lines and callers below PCT% of the event",
	  OPT_PERCENT_LIMIT, NULL },
	{ 0, "weight", "W", "--folded counts samples (default) or period", OPT_WEIGHT, NULL },
	{ 0, "inline", NULL, "--folded, --flamegraph and callers.csv show inlined functions as frames\n"
	  "of their own ('NAME (inlined)'; '_[i]' in folded stacks), from the\n"
	  "debug info; results.csv and the rest stay as perf report --no-inline", OPT_INLINE, NULL },
	{ 0, "sort", "KEYS", "results.csv's rows and leading columns, perf report's keys: comm, pid,\n"
	  "tid, cpu, dso, sym, srcline, symoff (default dso,sym: the columns as\n"
	  "always)", OPT_RESULTS_SORT, NULL },
	{ 0, "focus-root", NULL, "--folded, --flamegraph (and the other stacks: speedscope, calltree,\n"
	  "callers) start at the outermost --focus function, without the comm", OPT_FOCUS_ROOT, NULL },
	{ 0, "inverted", NULL, "calltree.csv bottom-up: its roots are the sampled functions, each\n"
	  "level their callers (default top-down, from the outermost frame)", OPT_INVERTED, NULL },
	{ 0, "minwidth", "PX", "flame graph: leave out frames narrower than PX pixels (default 0.1)",
	  OPT_MINWIDTH, NULL },
	{ 0, "interval", "DURATION", "timeline.csv's interval (10ms, 0.5s, ...); default the recording's\n"
	  "span / 100, rounded up to 1, 2 or 5 x 10^n ns", OPT_INTERVAL, NULL },
	{ 0, "fail-unknown", "PCT", "exit 4 when more than PCT% of the samples have an [unknown] frame\n"
	  "(their own function or a caller's): a CI gate for missing symbols", OPT_FAIL_UNKNOWN, NULL },
	{ 0, "files-from", "LIST", "analyse the files LIST names, one a line ('-': stdin), as FILE FILE...",
	  OPT_FILES_FROM, NULL },
	{ 'j', "jobs", "N", "analyse N files at once (default: the number of CPUs); one file with\n"
	  "N > 1: the analysis in a second thread, same reports; -j 1: one thread", 'j', NULL },
	{ 0, "profile-column", NULL, "a leading 'profile' column in every report (the default with many files)",
	  OPT_PROFILE_COL, NULL },
	{ 0, "no-profile-column", NULL, "none, also with many files", OPT_NO_PROFILE_COL, NULL },
	CLI_OPT_END,
};

static const struct cli_option_group analyse_groups[] = {
	{ NULL, analyse_shared_options, NULL, 0 },
	{ "\nthe analysis only (readperf diff refuses them):", analyse_only_options, NULL, 0 },
	{ "\nreadperf diff takes the options above 'the analysis only', applies them to both\n"
	  "files and writes DIR/diff.csv; its own options:", diff_options, "readperf diff", 0 },
	{ NULL, NULL, NULL, 0 },
};

static const struct cli_command analyse_cmd = {
	.name = "readperf",
	.synopsis = readperf_synopsis,
	.usage_head = "\noptions:\n",
	.usage_tail = "\n"
		"exit codes: 0 ok, 1 usage, 2 bad input, 3 I/O or system error,\n"
		"            4 readperf diff: a function crossed --fail-above or --fail-above-ratio;\n"
		"              readperf: more samples with [unknown] frames than --fail-unknown\n",
	.groups = analyse_groups,
	.help_col = 22,
};

struct analyse_ctx {
	struct analyse_opts *o;
	struct cli *cli;
};

/* "10ms", "0.5s", "250us", "100ns", "2m" -> ns, more than 0; 0 or -EINVAL */
static int parse_duration(const char *s, uint64_t *ns)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = { { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "m", 60e9 }, { "min", 60e9 } };
	char *end;
	double v;
	size_t i;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !(v > 0))
		return -EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcmp(end, units[i].unit)) {
			double r = v * units[i].ns + 0.5;

			if (r < 1 || r > 1e19)
				return -EINVAL;
			*ns = (uint64_t)r;
			return 0;
		}
	}
	return -EINVAL;
}

/* the extra outputs and their settings; -1 to go on, else the exit code */
static int output_opt(struct analyse_opts *o, int id, const char *arg)
{
	switch (id) {
	case OPT_WEIGHT:
		if (strcmp(arg, "samples") && strcmp(arg, "period")) {
			fprintf(stderr, "readperf: --weight wants samples or period, not '%s'\n", arg);
			return EXIT_USAGE;
		}
		o->an.fold_period = !strcmp(arg, "period");
		break;
	case OPT_INLINE:
		o->an.inline_frames = 1;
		break;
	case OPT_INVERTED:
		o->an.inverted = 1;
		break;
	case OPT_FOCUS_ROOT:
		o->an.focus_root = 1;
		break;
	case OPT_RESULTS_SORT: {
		const char *bad = arg;
		int n = results__parse_sort(arg, o->sort_keys, &bad);

		if (n == -EEXIST) {
			int len = (int)strcspn(bad, ",");

			fprintf(stderr, "readperf: --sort: '%.*s' repeats a key%s\n", len, bad,
				len == 3 && (!strncmp(bad, "pid", 3) || !strncmp(bad, "tid", 3)) ?
				" (pid and tid are one key, the thread, as perf's pid)" : "");
			return EXIT_USAGE;
		}
		if (n < 0) {
			fprintf(stderr, "readperf: --sort: '%.*s' is not a key (comm, pid, tid, cpu, dso, sym, srcline, "
				"symoff)\n", (int)strcspn(bad, ","), bad);
			return EXIT_USAGE;
		}
		/* dso,sym is results.csv as always, with the definitions and children */
		o->an.nr_sort_keys = n == 2 && o->sort_keys[0] == RESULTS_KEY_DSO &&
				     o->sort_keys[1] == RESULTS_KEY_SYM ? 0 : (size_t)n;
		o->an.sort_keys = o->sort_keys;
		break;
	}
	case OPT_MINWIDTH: {
		char *end;
		double px = strtod(arg, &end);

		if (end == arg || *end || !(px >= 0 && px <= 1200)) {
			fprintf(stderr, "readperf: --minwidth wants pixels from 0 to 1200, not '%s'\n", arg);
			return EXIT_USAGE;
		}
		o->an.fg_minwidth = (unsigned)(px * 100 + 0.5);
		o->an.fg_minwidth_set = 1;
		break;
	}
	case OPT_INTERVAL:
		if (parse_duration(arg, &o->an.interval_ns)) {
			fprintf(stderr, "readperf: --interval wants a duration (10ms, 0.5s, 250us, 1000000ns), "
				"not '%s'\n", arg);
			return EXIT_USAGE;
		}
		break;
	}
	return -1;
}

/* one option of the analysis (cli_command__parse's handler); -1 to go on, else the exit code */
static int analyse_opt(void *ctx, int id, const char *arg)
{
	struct analyse_ctx *c = ctx;
	struct analyse_opts *o = c->o;
	char *end;

	switch (id) {
	case 'i':
		o->input_opt = arg;
		return -1;
	case OPT_REPORTS:
		return parse_reports(arg, &o->reports) ? EXIT_USAGE : -1;
	case OPT_PERCENT_LIMIT:
		o->an.percent_limit = (uint64_t)parse_fixed4(arg);
		if (parse_fixed4(arg) < 0 || o->an.percent_limit > 1000000) {
			fprintf(stderr, "readperf: --percent-limit wants a percentage, not '%s'\n", arg);
			return EXIT_USAGE;
		}
		return -1;
	case OPT_FAIL_UNKNOWN:
		o->fail_unknown = parse_fixed4(arg);
		if (o->fail_unknown < 0 || o->fail_unknown > 1000000) {
			fprintf(stderr, "readperf: --fail-unknown wants a percentage, not '%s'\n", arg);
			return EXIT_USAGE;
		}
		return -1;
	case OPT_FILES_FROM:
		o->files_from = arg;
		return -1;
	case 'j':
		o->jobs = strtol(arg, &end, 10);
		if (*end || o->jobs < 1 || o->jobs > 1024) {
			fprintf(stderr, "readperf: -j wants a number of parallel analyses (1-1024), not '%s'\n", arg);
			return EXIT_USAGE;
		}
		return -1;
	case OPT_PROFILE_COL:
	case OPT_NO_PROFILE_COL:
		o->profile_col = id == OPT_PROFILE_COL;
		return -1;
	case OPT_WEIGHT:
	case OPT_INLINE:
	case OPT_INVERTED:
	case OPT_FOCUS_ROOT:
	case OPT_RESULTS_SORT:
	case OPT_MINWIDTH:
	case OPT_INTERVAL:
		return output_opt(o, id, arg);
	}
	if (id >= OPT_PATH && id < OPT_PATH + REPORT_MAX_OUTPUTS) {
		o->paths[id - OPT_PATH] = arg;
		return -1;
	}
	return analyse_opts__shared(o, c->cli, id, arg);
}

/* ---------------------------------------------------------------- the analysis */

/* the reports of the file's count (stat, events, header) into dir (the staging directory of o->outdir) */
static int write_reports(const struct analyse_opts *o, const struct filestat *fs, const char *dir,
			 const struct log *log)
{
	const struct report_ops *owner;
	size_t id;
	int err = 0, e;

	for (id = 0; id < report_outputs__count(); id++) {
		const struct report_output *r = report_outputs__get(id, &owner);

		if (owner->source != REPORT_FROM_FILE || !(o->reports >> id & 1))
			continue;
		e = r->write((void *)fs, NULL, dir);
		if (e)
			log_msg(log, LOG_ERR, "%s/%s.csv: %s", o->outdir, r->name, strerror(-e));
		err = err ? err : e;
	}
	return err;
}

/* what the analysis cannot do for this file, said once */
static void warn_limits(const struct perf_file *f, const struct log *log)
{
	const struct perf_evlist *el = perf_file__evlist(f);
	const char *arch = perf_file__features(f)->arch;
	size_t i;

	if (!arch || !strcmp(arch, "x86_64"))
		return;
	for (i = 0; i < el->nr; i++) {
		if (el->attrs[i].attr.sample_type & PERF_SAMPLE_STACK_USER) {
			log_msg(log, LOG_WARN, "%s: %s carries user stack dumps (--call-graph dwarf) of %s, whose "
				"registers readperf does not know (x86_64 only): they are not unwound; children and "
				"callers see the sampled function and kernel frames only",
				perf_file__name(f), el->attrs[i].name, arch);
			return;
		}
	}
}

/* -j: a second thread for one file's analysis unless one thread is asked for or there is one CPU */
static int second_thread(const struct analyse_opts *o)
{
	return o->jobs > 1 || (o->jobs == 0 && sysconf(_SC_NPROCESSORS_ONLN) > 1);
}

/* perf_file's barrier: the analysis thread through what was handed to it */
static void sync_queue(void *q)
{
	ordered_queue__sync(q);
}

/* the outputs the hub makes: its CSV reports of --reports and the path outputs given */
static uint64_t analysis_outputs(const struct analyse_opts *o)
{
	const struct report_ops *owner;
	uint64_t mask = 0;
	size_t id;

	for (id = 0; id < report_outputs__count() && id < REPORT_MAX_OUTPUTS; id++) {
		const struct report_output *r = report_outputs__get(id, &owner);

		if (owner->source != REPORT_FROM_ANALYSIS)
			continue;
		if (r->is_path ? o->paths[id] != NULL : (o->reports >> id & 1))
			mask |= (uint64_t)1 << id;
	}
	return mask;
}

/* --folded, --flamegraph and the other path outputs, after the reports */
static int write_paths(const struct analyse_opts *o, struct analysis *an, const struct log *log)
{
	int err = 0, e;
	size_t id;

	for (id = 0; id < REPORT_MAX_OUTPUTS; id++) {
		const char *path = o->paths[id];

		if (!path)
			continue;
		e = analysis__write_output(an, id, path);
		if (e == -ENODATA)	/* nothing to show: the report said why */
			continue;
		if (e == -EPIPE && !strcmp(path, "-")) {	/* its reader went away (| head): not an error to say */
			err = err ? err : e;
			continue;
		}
		if (e)
			log_msg(log, LOG_ERR, "%s: cannot write: %s", path, strerror(-e));
		err = err ? err : e;
	}
	return err;
}

/* ---------------------------------------------------------------- after the analysis */

/* one of the extra outputs goes to standard output ('-'): the summary goes to stderr then */
static int to_stdout(const struct analyse_opts *o)
{
	size_t id;

	for (id = 0; id < REPORT_MAX_OUTPUTS; id++)
		if (o->paths[id] && !strcmp(o->paths[id], "-"))
			return 1;
	return 0;
}

/* the head of each event's results.csv, as perf report --stdio shows it */
static void print_top(FILE *fp, const struct analysis *an)
{
	size_t nf = analysis__nr_funcs(an), ne = analysis__nr_events(an), e, i, n;
	const struct func_stat **v = calloc(nf ? nf : 1, sizeof(*v));
	struct term_text s1 = TERM_TEXT_INIT, s2 = TERM_TEXT_INIT;

	if (!v)
		return;
	for (e = 0; e < ne; e++) {
		struct analysis_event ev;

		analysis__event(an, e, &ev);
		if (!ev.name || !ev.samples)
			continue;
		for (i = n = 0; i < nf; i++) {
			v[n] = analysis__func(an, i);
			if (v[n]->event == e && v[n]->samples)
				n++;
		}
		qsort(v, n, sizeof(*v), report__top_cmp);
		/* names from the file as terminal text (util/escape.h) */
		fprintf(fp, "%s: %" PRIu64 " samples, period %" PRIu64 "\n", escape__term_str(&s1, ev.name),
			ev.samples, ev.period);
		for (i = 0; i < n && i < 10; i++)
			fprintf(fp, "  %6.2f%%  %-24s %s\n", ev.period ? 100.0 * (double)v[i]->period / (double)ev.period : 0.0,
				escape__term_str(&s1, v[i]->dso), escape__term_str(&s2, v[i]->function));
	}
	term_text__release(&s1);
	term_text__release(&s2);
	free(v);
}

/* where the reports went, the top functions, and what to know about them; -q: nothing */
static void print_summary(const struct analyse_opts *o, const struct filestat *fs, const struct analysis *an,
			  const struct log *log)
{
	FILE *fp = to_stdout(o) ? stderr : stdout;
	struct analysis_stats st;
	struct stat sb;
	char path[4096];
	uint64_t lost = fs ? filestat__lost(fs) : 0;

	if (o->quiet)
		return;
	snprintf(path, sizeof(path), "%s/overview.csv", o->outdir);
	if ((o->reports >> report_outputs__find("overview", 0) & 1) && !stat(path, &sb) &&
	    sb.st_size > 100 * 1024 * 1024)
		log_msg(log, LOG_WARN, "%s is %.1f MB; --reports default without overview leaves it out", path,
			(double)sb.st_size / (1024 * 1024));
	{
		struct term_text s1 = TERM_TEXT_INIT, s2 = TERM_TEXT_INIT;

		fprintf(fp, "readperf: %s: reports in %s/:", escape__term_str(&s1, o->input),
			escape__term_str(&s2, o->outdir));
		term_text__release(&s1);
		term_text__release(&s2);
	}
	print_report_names(fp, o->reports);
	fputc('\n', fp);
	if (!an)
		return;
	print_top(fp, an);
	analysis__stats(an, &st);
	if (st.unresolved)
		fprintf(fp, "note: %" PRIu64 " of %" PRIu64 " samples (%.2f%%) have no symbol: the [unknown] rows\n",
			st.unresolved, st.samples, 100.0 * (double)st.unresolved / (double)(st.samples ? st.samples : 1));
	if (lost)
		fprintf(fp, "note: %" PRIu64 " samples were lost while recording (events.csv lost)\n", lost);
	/* a recording of nothing (an event that never fired, a capture refused part-way) says so */
	if (fs && !filestat__samples(fs)) {
		struct term_text t = TERM_TEXT_INIT;

		fprintf(fp, "note: %s holds no samples: no function rows\n", escape__term_str(&t, o->input));
		term_text__release(&t);
	}
}

/* perf's warnings about lost data (perf_session__warn_about_errors) */
static void warn_losses(const struct perf_file *f, const struct filestat *fs, const struct log *log)
{
	struct filestat_losses l;

	filestat__losses(fs, &l);
	if (l.chunks)
		log_msg(log, LOG_WARN, "%s: processed %" PRIu64 " events and lost %" PRIu64 " chunks (%" PRIu64
			" records the kernel dropped when the ring buffer was full: record with more --mmap-pages "
			"or a lower frequency)", perf_file__name(f), l.records, l.chunks, l.chunk_samples);
	if (l.lost_samples && (double)l.lost_samples / (double)(l.samples + l.lost_samples) > 0.05)
		log_msg(log, LOG_WARN, "%s: processed %" PRIu64 " samples and lost %.2f%% samples (events.csv lost)",
			perf_file__name(f), l.samples, 100.0 * (double)l.lost_samples / (double)(l.samples + l.lost_samples));
}

static void note_losses(struct analysis_notes *n, const struct filestat *fs)
{
	struct filestat_losses l;

	filestat__losses(fs, &l);
	n->have_losses = 1;
	n->lost_chunks = l.chunks;
	n->lost_records = l.chunk_samples;
	n->lost_samples = l.lost_samples;
	n->samples = l.samples;
}

static void fill_result(struct analyse_result *r, const struct perf_file *f, const struct filestat *fs)
{
	const struct perf_features *ft = perf_file__features(f);

	r->samples = filestat__samples(fs);
	r->duration_ns = ft->last_sample_time > ft->first_sample_time ?
			 ft->last_sample_time - ft->first_sample_time : filestat__duration(fs);
	snprintf(r->hostname, sizeof(r->hostname), "%s", ft->hostname ? ft->hostname : "");
	snprintf(r->perf_version, sizeof(r->perf_version), "%s", ft->version ? ft->version : "");
}

/*
 * The analysis of the records (the reports of --reports beyond stat, events
 * and header, and the extra outputs) into *an and its queue *q; none needed:
 * 0 and both NULL.  0, -EINVAL when -e matches no event of the file (bad
 * input, said), or -errno (said unless ENOMEM).
 */
static int start_analysis(struct analyse_opts *o, struct perf_file *f, const char *stage, struct analysis **an,
			  struct ordered_queue **q, const struct log *log)
{
	int err;

	o->an.outputs = analysis_outputs(o);
	if (!o->an.outputs)
		return 0;
	if (o->event_arg && (err = find_event(f, o->event_arg, &o->an.event, log)))
		return err;
	warn_limits(f, log);
	recorded_kernel(f, &o->sym);
	o->sym.log = log;
	o->an.symbols = &o->sym;
	o->an.log = log;
	o->an.input_name = o->input;
	o->an.out_dir = stage;
	o->an.report_dir = o->outdir;
	o->an.helper_threads = second_thread(o);
	err = analysis__new(an, f, &o->an);
	if (err && err != -ENOMEM)
		log_msg(log, LOG_ERR, "%s: cannot write the reports: %s", o->outdir, strerror(-err));
	if (!err)
		err = ordered_queue__new(q, f, deliver, *an);
	if (err)
		return err;
	/* the analysis in a second thread; without one (-j 1, one CPU) it runs in this one */
	if (second_thread(o) && !ordered_queue__start_worker(*q)) {
		thread__give_way("readperf-read");	/* this thread reads on, the worker (made above) analyses */
		perf_file__set_barrier(f, sync_queue, *q);
		log_msg(log, LOG_DEBUG, "%s: the analysis in a second thread", perf_file__name(f));
	}
	return 0;
}

int commit_manifest(const struct analyse_opts *o, struct csv_txn *txn, const struct manifest_input *in, size_t nr,
		    const struct log *log)
{
	int err = manifest__write(txn->stage, o, in, nr);

	if (err && err != -ENOMEM)
		log_msg(log, LOG_ERR, "%s/%s: cannot write: %s", o->outdir, MANIFEST_NAME, strerror(-err));
	txn->last = MANIFEST_NAME;
	txn->owns = manifest__owns;
	return err;
}

/* the reports moved in when all are whole (else the previous ones stay), then the extra outputs */
static int finish_analysis(struct analyse_opts *o, const struct perf_file *f, struct analysis *an,
			   struct csv_txn *txn, int err, const struct log *log)
{
	if (err && an && err == analysis__status(an))
		analysis_error(o->input, err, log);
	if (!err && an)
		err = analysis__write(an, txn->stage);	/* it names the report that failed */
	if (!err && !stop_signal() && o->reports)
		err = commit_manifest(o, txn, &(struct manifest_input){ "", o->input, f }, 1, log);
	if (err || stop_signal()) {
		csv_txn__abort(txn);
		if (err && err != -EINTR && err != -ENOMEM)
			log_msg(log, LOG_ERR, "%s: no report written, the previous ones are as they were", o->outdir);
	} else {
		err = csv_txn__commit(txn);
		if (err)
			log_msg(log, LOG_ERR, "%s: cannot move the reports in: %s", o->outdir, strerror(-err));
	}
	if (!err && an)
		err = write_paths(o, an, log);
	if (!err && an)
		analysis__save_symbol_cache(an);
	return err;
}

/* the exit code of a run that ended with err, said when a signal stopped it */
/* --fail-unknown: 1 (said) when more than PCT% of the samples have an [unknown] frame */
static int unknown_gate(const struct analyse_opts *o, const struct analysis *an, const struct log *log)
{
	struct analysis_stats st;

	if (o->fail_unknown < 0 || !an)
		return 0;
	analysis__stats(an, &st);
	/* percent in 1/10000: unknown / samples > PCT / 1000000, without division */
	if (!st.samples || (double)st.unknown_frames * 1000000.0 <= (double)o->fail_unknown * (double)st.samples)
		return 0;
	log_msg(log, LOG_ERR, "%s: %" PRIu64 " of %" PRIu64 " samples (%.2f%%) have an [unknown] frame, more than "
		"--fail-unknown %.4g%%", o->input, st.unknown_frames, st.samples,
		100.0 * (double)st.unknown_frames / (double)st.samples, (double)o->fail_unknown / 10000.0);
	return 1;
}

static int analyse_exit(const struct analyse_opts *o, int err, const struct log *log)
{
	if (err == -ENOMEM)
		log_msg(log, LOG_ERR, "out of memory");
	if (stop_signal()) {
		/* SIGPIPE from a write to standard output's closed reader: as quiet as the default death */
		if (stop_signal() != SIGPIPE || err == -EINTR)
			log_msg(log, LOG_ERR, "%s: %s", o->input, err == -EINTR ?
				"interrupted: no report written, the previous ones are as they were" :
				"interrupted after the reports were written");
		return 128 + stop_signal();
	}
	return exit_for(err);
}

static int exit_code(const struct analyse_opts *o, int err, int gate, const struct log *log)
{
	err = analyse_exit(o, err, log);
	return err == EXIT_OK && gate ? EXIT_REGRESSION : err;
}

static int analyse_run(struct analyse_opts *o, const struct log *log)
{
	struct perf_file *f;
	struct filestat *fs = NULL;
	struct analysis *an = NULL;
	struct ordered_queue *q = NULL;
	struct csv_txn txn = { 0 };
	int err, read_err = 0, gate = 0;

	/* the input first: one that cannot be opened leaves no output directory behind */
	err = open_input(o->input, log, &f);
	if (err)
		return analyse_exit(o, err, log);
	err = fs__mkdir_p(o->outdir);
	if (!err) {
		csv__remove_stale(o->outdir);
		/* every report goes to a staging directory first, moved in when all are whole */
		err = csv_txn__begin(&txn, o->outdir);
	}
	if (err) {
		log_msg(log, LOG_ERR, "%s: cannot create: %s", o->outdir, strerror(-err));
		perf_file__delete(f);
		return EXIT_SYSTEM;
	}
	err = resolve_time(&o->time, f, &o->an, log);
	if (!err)
		err = filestat__new(&fs, f);
	if (err)
		goto out_close;
	filestat__set_profile(fs, o->an.profile);
	filestat__set_raw_csv(fs, o->an.raw_csv);
	err = start_analysis(o, f, txn.stage, &an, &q, log);
	if (err)
		goto out_delete;
	/* the reports cover what was read, also after a fault */
	err = replay(f, fs, q, o->quiet, &read_err);
	warn_losses(f, fs, log);
	note_losses(&o->notes, fs);
	if (!err)
		err = write_reports(o, fs, txn.stage, log);
	/* after an error the dsos without symbols may only be the ones it stopped */
	if (!err && an)
		err = analysis__warn_unresolved(an);
	err = finish_analysis(o, f, an, &txn, err, log);
	if (!err && !read_err)
		err = check_filters(o, f, an, log);
	if (!err && !o->no_summary)
		print_summary(o, fs, an, log);
	if (!err && !read_err)
		gate = unknown_gate(o, an, log);
	if (o->result)
		fill_result(o->result, f, fs);
	if (read_err)
		err = read_err;
out_delete:
	perf_file__set_barrier(f, NULL, NULL);
	ordered_queue__delete(q);	/* stops the analysis thread */
	if (o->exits_after) {	/* exit() gives it all back at once: freeing it piece by piece only costs time */
		csv_txn__abort(&txn);
		return exit_code(o, err, gate, log);
	}
	analysis__delete(an);
	filestat__delete(fs);
out_close:
	perf_file__delete(f);
	csv_txn__abort(&txn);
	return exit_code(o, err, gate, log);
}

/* the analysis of o->input with the warnings kept for the --html page */
int analyse(struct analyse_opts *o, const struct log *log)
{
	struct log_keep keep;
	int code;

	log_keep__init(&keep, log);
	memset(&o->notes, 0, sizeof(o->notes));
	o->notes.warnings = &keep;
	o->an.notes = &o->notes;
	code = analyse_run(o, &keep.log);
	o->an.notes = NULL;
	o->notes.warnings = NULL;
	log_keep__release(&keep);
	return code;
}

int cmd_analyse(int argc, char **argv, struct cli *cli)
{
	struct analyse_opts o;
	struct analyse_ctx ctx = { &o, cli };
	struct cli_option paths[REPORT_MAX_OUTPUTS + 1];
	struct cli_option_group groups[] = {
		analyse_groups[0], analyse_groups[1],
		{ "\nfiles of the analysis ('-': standard output; readperf diff refuses them):", NULL, NULL, 0 },
		analyse_groups[2], analyse_groups[3],
	};
	struct cli_command cmd = analyse_cmd;
	int code, next, i;

	analyse_opts__init(&o);
	analyse_path_options(paths);
	groups[2].rows = paths;
	cmd.groups = groups;
	if (analyse_opts__args(&o, argc, argv)) {
		fputs("readperf: out of memory\n", stderr);
		return EXIT_SYSTEM;
	}
	code = cli_command__parse(&cmd, argc, argv, analyse_opt, &ctx, &next);
	if (code < 0)
		code = analyse_opts__finish(&o);
	/* a command's option: the command given after the analysis' options?  (not an option's value) */
	for (i = 1; code == EXIT_USAGE && i < argc && !misplaced_command(argv[i], 0); i++)
		if (!strcmp(argv[i], "--"))
			break;
		else if (cli_command__value_next(&cmd, argv[i]))
			i++;
	if (code >= 0)
		goto out;
	for (i = next, code = 0; i < argc && !code; i++)
		code = misplaced_command(argv[i], i == next);
	if (code)
		goto out;
	catch_stop_signals();
	if (o.input_opt)
		o.input = o.input_opt;
	if (next < argc && o.input_opt) {
		fprintf(stderr, "readperf: -i %s and '%s': one input file at a time\nTry 'readperf --help'\n",
			o.input_opt, argv[next]);
		code = EXIT_USAGE;
		goto out;
	}
	if (count_dashes((const char *const *)argv + next, (size_t)(argc - next)) > 1) {
		code = dash_twice("inputs");
		goto out;
	}
	if (next + 1 < argc || o.files_from) {
		code = batch(&o, argv + next, (size_t)(argc - next), cli);
		goto out;
	}
	if (next < argc)
		o.input = argv[next++];
	if (o.profile_col == 1)
		o.an.profile = profile_base(o.input);
#ifndef READPERF_SANITIZE
	o.exits_after = 1;
#endif
	code = analyse(&o, &cli->log);
	free((char *)(o.profile_col == 1 ? o.an.profile : NULL));
out:
	analyse_opts__release(&o);
	return code;
}

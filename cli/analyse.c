/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * readperf [OPTIONS] [FILE]: the analysis of one file into the reports of
 * --reports, the extra outputs (--folded, --flamegraph, --timeline,
 * --speedscope, off-CPU) and a summary; with many files it hands over to
 * cli/batch.c.  Its option table: the rows shared with readperf diff
 * (cli/common.c), its own, and diff's, which it refuses.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/analyse.h"
#include "decode/filestat.h"
#include "perffile/ordered.h"
#include "perffile/perffile.h"
#include "util/csv.h"
#include "util/fs.h"
#include "util/strbuf.h"

/* ---------------------------------------------------------------- reports */

enum report_bit {
	R_OVERVIEW = REPORT_OVERVIEW,
	R_PROCESSES = REPORT_PROCESSES,
	R_RESULTS = REPORT_RESULTS,
	R_LINES = REPORT_LINES,
	R_CALLERS = REPORT_CALLERS,
	R_THREADS = REPORT_THREADS,
	R_OFFCPU = REPORT_OFFCPU,
	R_TIMELINE = REPORT_TIMELINE,
	R_ANALYSIS = R_OVERVIEW | R_PROCESSES | R_RESULTS | R_LINES | R_CALLERS | R_THREADS | R_OFFCPU | R_TIMELINE,
	R_STAT = 1 << 8,
	R_EVENTS = 1 << 9,
	R_HEADER = 1 << 10,
};

/* the reports --reports names, in the order of the summary */
static const struct {
	const char *name;
	unsigned bit;
} report_names[] = {
	{ "stat", R_STAT },
	{ "events", R_EVENTS },
	{ "header", R_HEADER },
	{ "overview", R_OVERVIEW },
	{ "processes", R_PROCESSES },
	{ "results", R_RESULTS },
	{ "lines", R_LINES },
	{ "callers", R_CALLERS },
	{ "threads", R_THREADS },
	{ "offcpu", R_OFFCPU },
	{ "timeline", R_TIMELINE },
};

#define NR_REPORTS (sizeof(report_names) / sizeof(report_names[0]))

/* --reports' help: the names from report_names, a line at most 60 wide */
static int reports_help(struct strbuf *sb)
{
	size_t i, col = 0;

	strbuf__addstr(sb, "reports to write, comma-separated (default all):\n");
	for (i = 0; i < NR_REPORTS; i++) {
		size_t len = strlen(report_names[i].name) + 1;

		if (col && col + len > 60) {
			strbuf__addch(sb, '\n');
			col = 0;
		}
		strbuf__addf(sb, "%s%c", report_names[i].name, i + 1 < NR_REPORTS ? ',' : ';');
		col += len;
	}
	return strbuf__addstr(sb, "\n'default' is all of them, 'none' none (with --folded, --flamegraph)");
}

/* --reports LIST into *mask; 0, or -EINVAL / -ENOMEM after a message */
static int parse_reports(const char *list, unsigned *mask)
{
	char *copy = strdup(list), *tok, *save = NULL;
	size_t i;

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
			*mask = ~0u;
			continue;
		}
		for (i = 0; i < NR_REPORTS; i++)
			if (!strcmp(tok, report_names[i].name))
				break;
		if (i == NR_REPORTS) {
			fprintf(stderr, "readperf: unknown report '%s'; reports: none, default (all)", tok);
			for (i = 0; i < NR_REPORTS; i++)
				fprintf(stderr, ", %s", report_names[i].name);
			fputc('\n', stderr);
			free(copy);
			return -EINVAL;
		}
		*mask |= report_names[i].bit;
	}
	free(copy);
	return 0;
}

/* " stat.csv events.csv ..." of the reports in mask */
static void print_report_names(FILE *fp, unsigned mask)
{
	size_t i;

	for (i = 0; i < NR_REPORTS; i++)
		if (mask & report_names[i].bit)
			fprintf(fp, " %s.csv", report_names[i].name);
}

/* ---------------------------------------------------------------- options */

const struct cli_option analyse_only_options[] = {
	{ 'i', "input", "FILE", "the file to analyse (as perf report -i; or give it after the options)", 'i', NULL },
	{ 0, "reports", "LIST", NULL, OPT_REPORTS, reports_help },
	{ 0, "percent-limit", "PCT", "leave out rows of results, lines and callers below PCT% of the event",
	  OPT_PERCENT_LIMIT, NULL },
	{ 0, "folded", "FILE", "collapsed call stacks (stackcollapse-perf.pl format) into FILE ('-': stdout)",
	  OPT_FOLDED, NULL },
	{ 0, "flamegraph", "FILE", "a flame graph SVG of the same stacks into FILE ('-': stdout); widths and\n"
	  "shares by period, as results.csv's percent", OPT_FLAMEGRAPH, NULL },
	{ 0, "weight", "W", "--folded counts samples (default) or period", OPT_WEIGHT, NULL },
	{ 0, "inline", NULL, "--folded, --flamegraph and callers.csv show inlined functions as frames\n"
	  "of their own ('NAME (inlined)'; '_[i]' in folded stacks), from the\n"
	  "debug info; results.csv and the rest stay as perf report --no-inline", OPT_INLINE, NULL },
	{ 0, "minwidth", "PX", "flame graph: leave out frames narrower than PX pixels (default 0.1)",
	  OPT_MINWIDTH, NULL },
	{ 0, "interval", "DURATION", "timeline.csv's interval (10ms, 0.5s, ...); default the recording's\n"
	  "span / 100, rounded up to 1, 2 or 5 x 10^n ns", OPT_INTERVAL, NULL },
	{ 0, "timeline", "FILE", "the timeline as a stacked-area SVG (top 10 functions of the first event)",
	  OPT_TIMELINE, NULL },
	{ 0, "speedscope", "FILE", "the samples as speedscope's JSON (a profile per thread, in time order)",
	  OPT_SPEEDSCOPE, NULL },
	{ 0, "folded-offcpu", "FILE", "time off the CPU per blocking stack (ns), folded, into FILE\n"
	  "(needs perf record --switch-events with -e context-switches -g,\n"
	  "or -e sched:sched_switch -g)", OPT_FOLDED_OFFCPU, NULL },
	{ 0, "flamegraph-offcpu", "FILE", "its flame graph (blue)", OPT_FLAMEGRAPH_OFFCPU, NULL },
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
		"            4 readperf diff: a function crossed --fail-above or --fail-above-ratio\n",
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
	case OPT_FOLDED:
		o->folded = arg;
		o->an.stacks = 1;
		break;
	case OPT_FLAMEGRAPH:
		o->flamegraph = arg;
		o->an.stacks = 1;
		break;
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
	case OPT_SPEEDSCOPE:
		o->speedscope = arg;
		o->an.speedscope = 1;
		break;
	case OPT_TIMELINE:
		o->timeline = arg;
		o->an.timeline = 1;
		break;
	case OPT_FOLDED_OFFCPU:
		o->folded_offcpu = arg;
		o->an.offcpu_stacks = 1;
		break;
	case OPT_FLAMEGRAPH_OFFCPU:
		o->flamegraph_offcpu = arg;
		o->an.offcpu_stacks = 1;
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
	case OPT_FOLDED:
	case OPT_FLAMEGRAPH:
	case OPT_WEIGHT:
	case OPT_INLINE:
	case OPT_MINWIDTH:
	case OPT_INTERVAL:
	case OPT_SPEEDSCOPE:
	case OPT_TIMELINE:
	case OPT_FOLDED_OFFCPU:
	case OPT_FLAMEGRAPH_OFFCPU:
		return output_opt(o, id, arg);
	}
	return analyse_opts__shared(o, c->cli, id, arg);
}

/* ---------------------------------------------------------------- the analysis */

/* stat, events, header into dir (the staging directory of o->outdir) */
static int write_reports(const struct analyse_opts *o, const struct filestat *fs, const char *dir,
			 const struct log *log)
{
	int err = 0, e;

	if (o->reports & R_STAT) {
		e = filestat__write_stat(fs, dir);
		if (e)
			log_msg(log, LOG_ERR, "%s/stat.csv: %s", o->outdir, strerror(-e));
		err = err ? err : e;
	}
	if (o->reports & R_EVENTS) {
		e = filestat__write_events(fs, dir);
		if (e)
			log_msg(log, LOG_ERR, "%s/events.csv: %s", o->outdir, strerror(-e));
		err = err ? err : e;
	}
	if (o->reports & R_HEADER) {
		e = filestat__write_header(fs, dir);
		if (e)
			log_msg(log, LOG_ERR, "%s/header.csv: %s", o->outdir, strerror(-e));
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

/* --folded and --flamegraph */
static int write_stacks(const struct analyse_opts *o, struct analysis *an, const struct log *log)
{
	int err = 0, e;

	if (o->folded) {
		e = analysis__write_folded(an, o->folded);
		if (e)
			log_msg(log, LOG_ERR, "%s: cannot write: %s", o->folded, strerror(-e));
		err = e;
	}
	if (o->flamegraph) {
		e = analysis__write_flamegraph(an, o->flamegraph);
		if (e)
			log_msg(log, LOG_ERR, "%s: cannot write: %s", o->flamegraph, strerror(-e));
		err = err ? err : e;
	}
	if (o->speedscope) {
		e = speedscope__write(an, o->speedscope, o->input);
		if (e)
			log_msg(log, LOG_ERR, "%s: cannot write: %s", o->speedscope, strerror(-e));
		err = err ? err : e;
	}
	if (o->timeline) {
		e = timeline__write_svg(an, o->timeline);
		if (e)
			log_msg(log, LOG_ERR, "%s: cannot write: %s", o->timeline, strerror(-e));
		err = err ? err : e;
	}
	if ((o->folded_offcpu || o->flamegraph_offcpu) && !analysis__has_switch_data(an)) {
		log_msg(log, LOG_WARN, "%s: no context switches in the file (perf record --switch-events, or "
			"-e sched:sched_switch): no off-CPU time, %s not written", o->input,
			o->folded_offcpu ? o->folded_offcpu : o->flamegraph_offcpu);
		return err;
	}
	if (o->folded_offcpu) {
		e = analysis__write_folded_offcpu(an, o->folded_offcpu);
		if (e)
			log_msg(log, LOG_ERR, "%s: cannot write: %s", o->folded_offcpu, strerror(-e));
		err = err ? err : e;
	}
	if (o->flamegraph_offcpu) {
		e = analysis__write_flamegraph_offcpu(an, o->flamegraph_offcpu);
		if (e)
			log_msg(log, LOG_ERR, "%s: cannot write: %s", o->flamegraph_offcpu, strerror(-e));
		err = err ? err : e;
	}
	return err;
}

/* ---------------------------------------------------------------- after the analysis */

/* one of the extra outputs goes to standard output ('-'): the summary goes to stderr then */
static int to_stdout(const struct analyse_opts *o)
{
	const char *const outs[] = { o->folded, o->flamegraph, o->folded_offcpu, o->flamegraph_offcpu,
				     o->timeline, o->speedscope };
	size_t i;

	for (i = 0; i < sizeof(outs) / sizeof(outs[0]); i++)
		if (outs[i] && !strcmp(outs[i], "-"))
			return 1;
	return 0;
}

static int fn_cmp(const void *pa, const void *pb)
{
	const struct analysis_function *a = pa, *b = pb;
	int r;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	r = strcmp(a->dso, b->dso);
	return r ? r : strcmp(a->function, b->function);
}

/* the head of each event's results.csv, as perf report --stdio shows it */
static void print_top(FILE *fp, const struct analysis *an)
{
	size_t nf = analysis__nr_functions(an), ne = analysis__nr_events(an), e, i, n;
	struct analysis_function *v = calloc(nf ? nf : 1, sizeof(*v));

	if (!v)
		return;
	for (e = 0; e < ne; e++) {
		struct analysis_event ev;

		analysis__event(an, e, &ev);
		if (!ev.name || !ev.samples)
			continue;
		for (i = n = 0; i < nf; i++) {
			analysis__function(an, i, &v[n]);
			if (v[n].event_idx == e && v[n].samples)
				n++;
		}
		qsort(v, n, sizeof(*v), fn_cmp);
		fprintf(fp, "%s: %" PRIu64 " samples, period %" PRIu64 "\n", ev.name, ev.samples, ev.period);
		for (i = 0; i < n && i < 10; i++)
			fprintf(fp, "  %6.2f%%  %-24s %s\n", ev.period ? 100.0 * (double)v[i].period / (double)ev.period : 0.0,
				v[i].dso, v[i].function);
	}
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
	if ((o->reports & R_OVERVIEW) && !stat(path, &sb) && sb.st_size > 100 * 1024 * 1024)
		log_msg(log, LOG_WARN, "%s is %.1f MB; --reports default without overview leaves it out", path,
			(double)sb.st_size / (1024 * 1024));
	fprintf(fp, "readperf: %s: reports in %s/:", o->input, o->outdir);
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
 * 0 and both NULL.  0, 1 when -e matches no event (a usage error, said), or
 * -errno (said unless ENOMEM).
 */
static int start_analysis(struct analyse_opts *o, struct perf_file *f, const char *stage, struct analysis **an,
			  struct ordered_queue **q, const struct log *log)
{
	int err;

	if (!((o->reports & R_ANALYSIS) || o->an.stacks || o->an.offcpu_stacks || o->an.timeline ||
	      o->an.speedscope))
		return 0;
	if (o->event_arg && find_event(f, o->event_arg, &o->an.event, log))
		return 1;
	warn_limits(f, log);
	recorded_kernel(f, &o->sym);
	o->sym.log = log;
	o->an.symbols = &o->sym;
	o->an.log = log;
	o->an.reports = o->reports & R_ANALYSIS;
	o->an.out_dir = stage;
	o->an.report_dir = o->outdir;
	err = analysis__new(an, f, &o->an);
	if (err && err != -ENOMEM)
		log_msg(log, LOG_ERR, "%s: cannot write the reports: %s", o->outdir, strerror(-err));
	if (!err)
		err = ordered_queue__new(q, f, deliver, *an);
	if (err)
		return err;
	/* the analysis in a second thread; without one (-j 1, one CPU) it runs in this one */
	if (second_thread(o) && !ordered_queue__start_worker(*q)) {
		perf_file__set_barrier(f, sync_queue, *q);
		log_msg(log, LOG_DEBUG, "%s: the analysis in a second thread", perf_file__name(f));
	}
	return 0;
}

/* the reports moved in when all are whole (else the previous ones stay), then the extra outputs */
static int finish_analysis(struct analyse_opts *o, struct analysis *an, struct csv_txn *txn, int err,
			   const struct log *log)
{
	if (err && an && err == analysis__status(an))
		analysis_error(o->input, err, log);
	if (!err && an)
		err = analysis__write(an, txn->stage);	/* it names the report that failed */
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
		err = write_stacks(o, an, log);
	if (!err && an)
		analysis__save_symbol_cache(an);
	return err;
}

/* the exit code of a run that ended with err, said when a signal stopped it */
static int analyse_exit(const struct analyse_opts *o, int err, const struct log *log)
{
	if (err == -ENOMEM)
		log_msg(log, LOG_ERR, "out of memory");
	if (stop_signal()) {
		log_msg(log, LOG_ERR, "%s: %s", o->input, err == -EINTR ?
			"interrupted: no report written, the previous ones are as they were" :
			"interrupted after the reports were written");
		return 128 + stop_signal();
	}
	return exit_for(err);
}

int analyse(struct analyse_opts *o, const struct log *log)
{
	struct perf_file *f;
	struct filestat *fs = NULL;
	struct analysis *an = NULL;
	struct ordered_queue *q = NULL;
	struct csv_txn txn = { 0 };
	int err, read_err = 0;

	err = fs__mkdir_p(o->outdir);
	if (!err) {
		csv__remove_stale(o->outdir);
		/* every report goes to a staging directory first, moved in when all are whole */
		err = csv_txn__begin(&txn, o->outdir);
	}
	if (err) {
		log_msg(log, LOG_ERR, "%s: cannot create: %s", o->outdir, strerror(-err));
		return EXIT_SYSTEM;
	}
	err = open_input(o->input, log, &f);
	if (err) {
		csv_txn__abort(&txn);
		if (err == -ENOMEM)
			log_msg(log, LOG_ERR, "out of memory");
		return exit_for(err);
	}
	err = resolve_time(&o->time, f, &o->an, log);
	if (!err)
		err = filestat__new(&fs, f);
	if (err)
		goto out_close;
	filestat__set_profile(fs, o->an.profile);
	err = start_analysis(o, f, txn.stage, &an, &q, log);
	if (err > 0) {
		filestat__delete(fs);
		perf_file__delete(f);
		csv_txn__abort(&txn);
		return EXIT_USAGE;
	}
	if (err)
		goto out_delete;
	/* the reports cover what was read, also after a fault */
	err = replay(f, fs, q, o->quiet, &read_err);
	warn_losses(f, fs, log);
	if (!err)
		err = write_reports(o, fs, txn.stage, log);
	/* after an error the dsos without symbols may only be the ones it stopped */
	if (!err && an)
		err = analysis__warn_unresolved(an);
	err = finish_analysis(o, an, &txn, err, log);
	if (!err && !read_err)
		err = check_filters(o, f, an, log);
	if (!err && !o->no_summary)
		print_summary(o, fs, an, log);
	if (o->result)
		fill_result(o->result, f, fs);
	if (read_err)
		err = read_err;
out_delete:
	perf_file__set_barrier(f, NULL, NULL);
	ordered_queue__delete(q);
	analysis__delete(an);
	filestat__delete(fs);
out_close:
	perf_file__delete(f);
	csv_txn__abort(&txn);
	return analyse_exit(o, err, log);
}

int cmd_analyse(int argc, char **argv, struct cli *cli)
{
	struct analyse_opts o;
	struct analyse_ctx ctx = { &o, cli };
	int code, next;

	analyse_opts__init(&o);
	code = cli_command__parse(&analyse_cmd, argc, argv, analyse_opt, &ctx, &next);
	if (code < 0)
		code = analyse_opts__finish(&o);
	if (code >= 0)
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
	if (next + 1 < argc || o.files_from) {
		code = batch(&o, argv + next, (size_t)(argc - next), cli);
		goto out;
	}
	if (next < argc)
		o.input = argv[next++];
	if (o.profile_col == 1)
		o.an.profile = profile_base(o.input);
	code = analyse(&o, &cli->log);
	free((char *)(o.profile_col == 1 ? o.an.profile : NULL));
out:
	analyse_opts__release(&o);
	return code;
}

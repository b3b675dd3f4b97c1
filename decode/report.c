/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The CSV reports of the analysis (DESIGN.md "Reports"): overview.csv,
 * streamed while records arrive, and processes.csv, results.csv, lines.csv,
 * callers.csv, written from the aggregates at the end.  Every report is
 * sorted so that the same input gives byte-identical output.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decode/analysis_internal.h"

/* --------------------------------------------------------------- overview */

static const char *const overview_cols[] = {
	"nr", "time", "type", "pid", "tid", "cpu", "event", "ip", "period", "dso", "symbol", "info", NULL
};

int overview__open(struct analysis *a)
{
	int err;

	if (a->opts.out_dir) {
		err = csv__open(&a->ov, a->opts.out_dir, "overview.csv");
		if (err)
			return err;
	} else {
		a->ov_tmp = tmpfile();
		if (!a->ov_tmp)
			return -errno;
		csv__open_fd(&a->ov, fileno(a->ov_tmp));
	}
	csv__prefix(&a->ov, "profile", a->opts.profile);
	csv__row(&a->ov, overview_cols);
	a->overview_open = 1;
	return 0;
}

void overview__close(struct analysis *a)
{
	if (a->overview_open && !a->ov_tmp)
		csv__abort(&a->ov);
	if (a->ov_tmp)
		fclose(a->ov_tmp);
	a->ov_tmp = NULL;
	a->overview_open = 0;
}

/*
 * type, pid, tid and cpu: from the text of the thread's previous row when they
 * are the same (csv__text writes it as the four fields it holds); the type
 * names are perf's identifiers (at most 18 bytes), nothing in them to quote
 */
static void type_pid_cpu(struct analysis *a, uint32_t type, int64_t pid, int64_t tid, int64_t cpu)
{
	struct ov_seg *g = &a->ov_seg[(uint64_t)tid & 63];
	const int64_t nums[3] = { pid, tid, cpu };
	const char *name;
	size_t n, i;

	if (!g->len || g->type != type || g->pid != pid || g->tid != tid || g->cpu != cpu) {
		name = perf_record_type__name(type);
		if (name && strlen(name) <= 32) {
			n = strlen(name);
			memcpy(g->text, name, n);
		} else {
			n = csv__format_i64(g->text, type);
		}
		for (i = 0; i < 3; i++) {
			g->text[n++] = ',';
			n += csv__format_i64(g->text + n, nums[i]);
		}
		g->type = type;
		g->pid = pid;
		g->tid = tid;
		g->cpu = cpu;
		g->len = (uint32_t)n;
	}
	csv__text(&a->ov, g->text, g->len);
}

/* nr, time, type, pid, tid, cpu */
static void common_fields(struct analysis *a, const struct perf_record *rec, int has_pid,
			  uint32_t pid, uint32_t tid)
{
	const struct perf_sample *s = &rec->sample;
	int kernel = rec->type < PERF_RECORD_USER_TYPE_START;

	/* numbers the record does not carry: time 0, pid/tid/cpu -1 (README "Reports") */
	csv__u64(&a->ov, rec->nr);
	csv__u64(&a->ov, kernel && (s->sample_type & PERF_SAMPLE_TIME) ? s->time : 0);
	type_pid_cpu(a, rec->type, has_pid ? (int32_t)pid : -1, has_pid ? (int32_t)tid : -1,
		     kernel && (s->sample_type & PERF_SAMPLE_CPU) ? (int64_t)s->cpu : -1);
}

/*
 * f's event name and ",dso,function," as CSV text, escaped once into the
 * pool: most rows of overview.csv are samples of a few thousand functions.
 * 0, or -ENOMEM (the row is then written field by field).
 */
static int sample_text(struct analysis *a, struct fstat *f, const char *event)
{
	size_t le = strlen(event), ld = strlen(f->dso), lf = strlen(f->function);
	size_t n = 2 * (le + ld + lf) + 9;	/* three fields quoted, three commas */
	char *t;

	if (n > UINT32_MAX)
		return -ENOMEM;
	t = pool__alloc(&a->pool, n);
	if (!t)
		return -ENOMEM;
	f->ov_event_len = (uint32_t)csv__escape(t, event, le);
	n = f->ov_event_len;
	t[n++] = ',';
	n += csv__escape(t + n, f->dso, ld);
	t[n++] = ',';
	n += csv__escape(t + n, f->function, lf);
	t[n++] = ',';		/* info: empty */
	f->ov_len = (uint32_t)n;
	f->ov_text = t;
	f->ov_event = event;
	return 0;
}

void overview__sample(struct analysis *a, const struct perf_record *rec, const char *event,
		      uint64_t period, struct fstat *f)
{
	struct csv *c = &a->ov;
	const struct perf_sample *s = &rec->sample;
	int has_tid = !!(s->sample_type & PERF_SAMPLE_TID);
	int cached = f->ov_event == event || !sample_text(a, f, event);

	common_fields(a, rec, has_tid, s->pid, s->tid);
	if (cached)
		csv__text(c, f->ov_text, f->ov_event_len);
	else
		csv__str(c, event);
	if (s->sample_type & PERF_SAMPLE_IP)
		csv__hex(c, s->ip);
	else
		csv__empty(c);
	csv__u64(c, period);
	if (cached) {
		/* ",dso,function," after the period: dso, symbol and the empty info */
		csv__raw(c, f->ov_text + f->ov_event_len, f->ov_len - f->ov_event_len);
	} else {
		csv__str(c, f->dso);
		csv__str(c, f->function);
		csv__empty(c);
	}
	csv__end_row(c);
}

static void info_of(struct strbuf *sb, const struct perf_record *rec)
{
	strbuf__reset(sb);
	switch (rec->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		strbuf__addf(sb, "%s start=0x%" PRIx64 " len=0x%" PRIx64 " pgoff=0x%" PRIx64,
			     rec->u.mmap.filename, rec->u.mmap.start, rec->u.mmap.len,
			     rec->u.mmap.pgoff);
		break;
	case PERF_RECORD_COMM:
		strbuf__addstr(sb, rec->u.comm.comm);
		if (rec->u.comm.exec)
			strbuf__addstr(sb, " (exec)");
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		strbuf__addf(sb, "ppid=%" PRIi32 " ptid=%" PRIi32, (int32_t)rec->u.fork.ppid,
			     (int32_t)rec->u.fork.ptid);
		break;
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		strbuf__addf(sb, "lost=%" PRIu64, rec->u.lost.lost);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		strbuf__addstr(sb, rec->u.sw.out ? (rec->u.sw.preempt ? "out preempt" : "out") : "in");
		if (rec->type == PERF_RECORD_SWITCH_CPU_WIDE)
			strbuf__addf(sb, " %s_pid=%" PRIi32 " %s_tid=%" PRIi32,
				     rec->u.sw.out ? "next" : "prev", (int32_t)rec->u.sw.next_prev_pid,
				     rec->u.sw.out ? "next" : "prev", (int32_t)rec->u.sw.next_prev_tid);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		strbuf__addf(sb, "id=%" PRIu64, rec->u.throttle.id);
		break;
	case PERF_RECORD_KSYMBOL:
		strbuf__addf(sb, "%s addr=0x%" PRIx64 " len=%" PRIu32 "%s",
			     rec->u.ksymbol.name ? rec->u.ksymbol.name : "", rec->u.ksymbol.addr,
			     rec->u.ksymbol.len,
			     (rec->u.ksymbol.flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER) ? " unregister" : "");
		break;
	case PERF_RECORD_CGROUP:
		strbuf__addf(sb, "id=%" PRIu64 " %s", rec->u.cgroup.id,
			     rec->u.cgroup.path ? rec->u.cgroup.path : "");
		break;
	case PERF_RECORD_HEADER_BUILD_ID:
		if (rec->u.build_id.filename)
			strbuf__addstr(sb, rec->u.build_id.filename);
		break;
	default:
		break;
	}
}

void overview__record(struct analysis *a, const struct perf_record *rec)
{
	struct csv *c = &a->ov;
	uint32_t pid = 0, tid = 0;
	int has_pid = 0;

	switch (rec->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		pid = rec->u.mmap.pid;
		tid = rec->u.mmap.tid;
		has_pid = 1;
		break;
	case PERF_RECORD_COMM:
		pid = rec->u.comm.pid;
		tid = rec->u.comm.tid;
		has_pid = 1;
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		pid = rec->u.fork.pid;
		tid = rec->u.fork.tid;
		has_pid = 1;
		break;
	default:
		if (rec->type < PERF_RECORD_USER_TYPE_START &&
		    (rec->sample.sample_type & PERF_SAMPLE_TID)) {
			pid = rec->sample.pid;
			tid = rec->sample.tid;
			has_pid = 1;
		}
		break;
	}
	common_fields(a, rec, has_pid, pid, tid);
	if (rec->evattr && rec->type < PERF_RECORD_USER_TYPE_START && rec->evattr->name)
		csv__str(c, rec->evattr->name);
	else
		csv__empty(c);
	csv__empty(c);		/* ip */
	csv__u64(c, 0);		/* period */
	csv__empty(c);		/* dso */
	csv__empty(c);		/* symbol */
	info_of(&a->info, rec);
	csv__strn(c, a->info.buf, a->info.len);
	csv__end_row(c);
}

static int overview_write(struct analysis *a, const char *dir)
{
	struct csv c;
	char buf[1 << 16];
	ssize_t n;
	int fd, err;

	if (!a->overview_open)
		return 0;
	if (!a->ov_tmp) {
		a->overview_open = 0;
		return csv__commit(&a->ov);
	}
	fd = a->ov.fd;
	/* what the writer still buffers goes to the file; later rows append to it */
	err = csv__commit(&a->ov);
	csv__open_fd(&a->ov, fd);
	csv__prefix(&a->ov, NULL, a->opts.profile);
	if (err)
		return err;
	err = csv__open(&c, dir, "overview.csv");
	if (err)
		return err;
	if (lseek(fd, 0, SEEK_SET) < 0) {
		csv__abort(&c);
		return -EIO;
	}
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			csv__abort(&c);
			return -EIO;
		}
		csv__raw(&c, buf, (size_t)n);
	}
	/* keep appending after the copy if more records come */
	if (lseek(fd, 0, SEEK_END) < 0) {
		csv__abort(&c);
		return -EIO;
	}
	return csv__commit(&c);
}

/* -------------------------------------------------------------- processes */

static int proc_cmp(const void *pa, const void *pb)
{
	const struct process *a = *(struct process *const *)pa, *b = *(struct process *const *)pb;

	if (a->pid != b->pid)
		return (int32_t)a->pid < (int32_t)b->pid ? -1 : 1;
	return 0;
}

/* proc_cmp, then the place in the creation-ordered array: O(n log n) and stable (n may be a million) */
static int proc_cmp_stable(const void *pa, const void *pb, void *base)
{
	int r = proc_cmp(pa, pb);

	(void)base;
	if (r)
		return r;
	return (*(struct process *const *)pa)->seq < (*(struct process *const *)pb)->seq ? -1 : 1;
}

static int processes_write(struct analysis *a, const char *dir)
{
	static const char *const cols[] = {
		"pid", "ppid", "comm", "threads", "mmaps", "start_time", "exit_time", "samples", "period", NULL
	};
	struct process *const *all;
	struct process **v;
	size_t nr, i, n = 0;
	struct csv c;
	int err;

	all = machine__processes(a->m, &nr);
	v = malloc((nr ? nr : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		const struct process *p = all[i];

		/* placeholders that never got a name, a map, a sample or a time */
		if (!p->comm && !p->samples && !p->nr_mmaps && !p->has_start && !p->has_exit)
			continue;
		v[n++] = all[i];
	}
	/* lifetimes of one pid stay in creation order: v is in it, and qsort_r ties on the position */
	if (n)
		qsort_r(v, n, sizeof(*v), proc_cmp_stable, v);
	err = csv__open(&c, dir, "processes.csv");
	if (err) {
		free(v);
		return err;
	}
	csv__prefix(&c, "profile", a->opts.profile);
	csv__row(&c, cols);
	for (i = 0; i < n; i++) {
		const struct process *p = v[i];

		csv__i64(&c, (int32_t)p->pid);
		csv__i64(&c, p->has_ppid ? (int32_t)p->ppid : -1);
		if (p->comm) {
			csv__str(&c, p->comm);
		} else {
			char name[16];

			snprintf(name, sizeof(name), ":%" PRIi32, (int32_t)p->pid);
			csv__str(&c, name);
		}
		csv__u64(&c, p->nr_threads);
		csv__u64(&c, p->nr_mmaps);
		csv__u64(&c, p->has_start ? p->start_time : 0);
		csv__u64(&c, p->has_exit ? p->exit_time : 0);
		csv__u64(&c, p->samples);
		csv__u64(&c, p->period);
		csv__end_row(&c);
	}
	free(v);
	return csv__commit(&c);
}

/* ------------------------------------------------- results, lines, callers */

static int cmp_str(const char *a, const char *b)
{
	if (a == b)
		return 0;
	if (!a)
		return -1;
	if (!b)
		return 1;
	return strcmp(a, b);
}

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a == b ? 0 : (a > b ? -1 : 1);
}

static int fstat_cmp(const void *pa, const void *pb)
{
	const struct fstat *a = *(struct fstat *const *)pa, *b = *(struct fstat *const *)pb;
	int r;

	if (a->event != b->event)
		return a->event < b->event ? -1 : 1;
	r = cmp_u64_desc(a->period, b->period);
	if (r)
		return r;
	/* children-only rows: by children period */
	r = cmp_u64_desc(a->ch_period, b->ch_period);
	if (r)
		return r;
	r = cmp_str(a->dso, b->dso);
	if (r)
		return r;
	return cmp_str(a->function, b->function);
}

static int lstat_cmp(const void *pa, const void *pb)
{
	const struct lstat *a = *(struct lstat *const *)pa, *b = *(struct lstat *const *)pb;
	int r;

	if (a->f->event != b->f->event)
		return a->f->event < b->f->event ? -1 : 1;
	r = cmp_u64_desc(a->period, b->period);
	if (r)
		return r;
	r = cmp_str(a->f->dso, b->f->dso);
	if (r)
		return r;
	r = cmp_str(a->f->function, b->f->function);
	if (r)
		return r;
	r = cmp_str(a->src_file, b->src_file);
	if (r)
		return r;
	return a->line == b->line ? 0 : (a->line < b->line ? -1 : 1);
}

static int estat_cmp(const void *pa, const void *pb)
{
	const struct estat *a = *(struct estat *const *)pa, *b = *(struct estat *const *)pb;
	int r;

	if (a->callee->event != b->callee->event)
		return a->callee->event < b->callee->event ? -1 : 1;
	r = cmp_u64_desc(a->period, b->period);
	if (r)
		return r;
	r = cmp_str(a->caller->dso, b->caller->dso);
	if (r)
		return r;
	r = cmp_str(a->caller->function, b->caller->function);
	if (r)
		return r;
	r = cmp_str(a->callee->dso, b->callee->dso);
	if (r)
		return r;
	return cmp_str(a->callee->function, b->callee->function);
}

/* do the samples of the reported events carry callchains? */
static int have_callchains(const struct analysis *a)
{
	const struct perf_evlist *el = a->f ? perf_file__evlist(a->f) : NULL;
	size_t i;

	if (!el)
		return 0;
	for (i = 0; i < el->nr; i++) {
		const struct perf_evattr *ev = &el->attrs[i];

		if (a->opts.event && cmp_str(a->opts.event, ev->name))
			continue;
		if (ev->attr.sample_type & PERF_SAMPLE_CALLCHAIN)
			return 1;
	}
	return 0;
}

static uint64_t event_period(const struct analysis *a, uint32_t event)
{
	return event < a->nr_events ? a->events[event].period : 0;
}

static const char *event_name(const struct analysis *a, uint32_t event)
{
	return event < a->nr_events && a->events[event].name ? a->events[event].name : UNKNOWN;
}

/* --percent-limit: period / total below the limit (in 1/10000 %, csv__pct's rounding) */
static int below_limit(const struct analysis *a, uint64_t period, uint64_t total)
{
	uint64_t limit = a->opts.percent_limit;

	if (!limit)
		return 0;
	return !total || ((unsigned __int128)period * 2000000 + total) / ((unsigned __int128)total * 2) < limit;
}

static int results_write(struct analysis *a, const char *dir, int children)
{
	static const char *const cols[] = {
		"event", "dso", "function", "source_file", "line", "samples", "period", "percent", NULL
	};
	struct fstat **v = a->fstat_list.data;
	size_t n = a->fstat_list.len, i;
	struct csv c;
	int err;

	if (n)
		qsort(v, n, sizeof(*v), fstat_cmp);
	err = csv__open(&c, dir, "results.csv");
	if (err)
		return err;
	csv__prefix(&c, "profile", a->opts.profile);
	for (i = 0; cols[i]; i++)
		csv__str(&c, cols[i]);
	if (children) {
		csv__str(&c, "children_samples");
		csv__str(&c, "children_period");
		csv__str(&c, "children_percent");
	}
	csv__end_row(&c);
	for (i = 0; i < n; i++) {
		const struct fstat *f = v[i];
		uint64_t total = event_period(a, f->event);

		if (!f->samples && !f->ch_samples)
			continue;
		if (below_limit(a, f->period, total) && (!children || below_limit(a, f->ch_period, total)))
			continue;
		csv__str(&c, event_name(a, f->event));
		csv__str(&c, f->dso);
		csv__str(&c, f->function);
		csv__str(&c, f->def_file);
		csv__u64(&c, f->def_file ? f->def_line : 0);
		csv__u64(&c, f->samples);
		csv__u64(&c, f->period);
		csv__pct(&c, f->period, total);
		if (children) {
			csv__u64(&c, f->ch_samples);
			csv__u64(&c, f->ch_period);
			csv__pct(&c, f->ch_period, total);
		}
		csv__end_row(&c);
	}
	return csv__commit(&c);
}

static int lines_write(struct analysis *a, const char *dir)
{
	static const char *const cols[] = {
		"event", "dso", "function", "source_file", "line", "samples", "period", "percent", NULL
	};
	struct lstat **v = a->lstat_list.data;
	size_t n = a->lstat_list.len, i;
	struct csv c;
	int err;

	if (n)
		qsort(v, n, sizeof(*v), lstat_cmp);
	err = csv__open(&c, dir, "lines.csv");
	if (err)
		return err;
	csv__prefix(&c, "profile", a->opts.profile);
	csv__row(&c, cols);
	for (i = 0; i < n; i++) {
		const struct lstat *l = v[i];

		if (!l->samples || below_limit(a, l->period, event_period(a, l->f->event)))
			continue;
		csv__str(&c, event_name(a, l->f->event));
		csv__str(&c, l->f->dso);
		csv__str(&c, l->f->function);
		csv__str(&c, l->src_file);
		csv__u64(&c, l->src_file ? l->line : 0);
		csv__u64(&c, l->samples);
		csv__u64(&c, l->period);
		csv__pct(&c, l->period, event_period(a, l->f->event));
		csv__end_row(&c);
	}
	return csv__commit(&c);
}

static int callers_write(struct analysis *a, const char *dir)
{
	static const char *const cols[] = {
		"event", "caller_dso", "caller", "callee_dso", "callee", "samples", "period", NULL
	};
	struct estat **v = a->estat_list.data;
	size_t n = a->estat_list.len, i;
	struct csv c;
	int err;

	if (n)
		qsort(v, n, sizeof(*v), estat_cmp);
	err = csv__open(&c, dir, "callers.csv");
	if (err)
		return err;
	csv__prefix(&c, "profile", a->opts.profile);
	csv__row(&c, cols);
	for (i = 0; i < n; i++) {
		const struct estat *e = v[i];

		if (below_limit(a, e->period, event_period(a, e->callee->event)))
			continue;
		csv__str(&c, event_name(a, e->callee->event));
		csv__str(&c, e->caller->dso);
		csv__str(&c, e->caller->function);
		csv__str(&c, e->callee->dso);
		csv__str(&c, e->callee->function);
		csv__u64(&c, e->samples);
		csv__u64(&c, e->period);
		csv__end_row(&c);
	}
	return csv__commit(&c);
}

static int results_write_cc(struct analysis *a, const char *dir)
{
	return results_write(a, dir, have_callchains(a));
}

/* the reports of the analysis, in the order they are written */
static const struct {
	unsigned bit;
	const char *file;
	int (*write)(struct analysis *a, const char *dir);
} writers[] = {
	{ REPORT_OVERVIEW, "overview.csv", overview_write },
	{ REPORT_PROCESSES, "processes.csv", processes_write },
	{ REPORT_RESULTS, "results.csv", results_write_cc },
	{ REPORT_LINES, "lines.csv", lines_write },
	/* always written, so scripts find every report: header only without callchains */
	{ REPORT_CALLERS, "callers.csv", callers_write },
	{ REPORT_THREADS, "threads.csv", threads__write },
	{ REPORT_TIMELINE, "timeline.csv", timeline__write },
	/* header only without context-switch data */
	{ REPORT_OFFCPU, "offcpu.csv", offcpu__write },
};

int analysis__write(struct analysis *a, const char *dir)
{
	size_t i;
	int err;

	if (a->err)
		return a->err;
	for (i = 0; i < sizeof(writers) / sizeof(writers[0]); i++) {
		if (!(a->opts.reports & writers[i].bit))
			continue;
		err = writers[i].write(a, dir);
		if (err) {
			/* the first failure ends it: the reports are one transaction */
			log_msg(a->log, LOG_ERR, "%s/%s: cannot write: %s",
				a->opts.report_dir ? a->opts.report_dir : dir, writers[i].file, strerror(-err));
			return err;
		}
	}
	return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * --html FILE.html: one self-contained page of the analysis (issue 26): a
 * header (command, host, perf version, duration, events), the function table
 * of results.csv (sortable, filterable, per event) and, on a click, the
 * function's callers and callees (callers.csv's edges) and its source lines
 * (lines.csv).  Every style and script is inline and the data is one compact
 * JSON object in <script type="application/json">, so the page makes no
 * request; the page script builds the view with textContent only.
 *
 * The data is what the CSVs hold: the hub's func_stat and line_stat in
 * results.csv's and lines.csv's order and filters, and the caller -> callee
 * edges counted from rsample.frames as callers.c counts them (once per
 * sample).  Strings go into one table ("s") that rows index.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "decode/reports/common.h"
#include "util/array.h"
#include "util/hashmap.h"
#include "util/strbuf.h"

struct html_edge {
	uint32_t caller, callee;	/* func_stat ids */
	uint64_t samples, period;
	uint64_t seen;			/* the sample that counted it last */
};

struct html {
	struct hashmap edges;		/* (caller id, callee id) -> index + 1 in list */
	struct array list;		/* struct html_edge, creation order */
	uint64_t first_time, last_time;	/* of the samples, when the file has no SAMPLE_TIME */
	int have_time;
};

/* what the writer carries: the output, a scratch buffer, the string table */
struct html_out {
	struct csv c;
	struct strbuf sb;
	struct hashmap strs;		/* interned pointer -> index + 1 */
	struct array str_list;		/* const char *, in index order */
	uint32_t *func_index;		/* func id -> row + 1 in "f", 0: not written */
};

static int html_begin(void *state, struct analysis *a)
{
	struct html *h = state;

	(void)a;
	hashmap__init(&h->edges);
	array__init(&h->list, sizeof(struct html_edge));
	return 0;
}

static void html_release(void *state)
{
	struct html *h = state;

	hashmap__release(&h->edges, NULL);
	array__release(&h->list);
}

static int count_edge(struct html *h, uint32_t caller, uint32_t callee, const struct rsample *s)
{
	uint64_t key = (uint64_t)caller << 32 | callee;
	struct html_edge *e;
	void **slot;
	int ret = hashmap__insert(&h->edges, &key, sizeof(key), &slot);

	if (ret < 0)
		return ret;
	if (ret == 1) {
		e = array__push(&h->list);
		if (!e)
			return -ENOMEM;
		memset(e, 0, sizeof(*e));
		e->caller = caller;
		e->callee = callee;
		e->seen = UINT64_MAX;
		*slot = (void *)(uintptr_t)h->list.len;
	}
	e = &ARRAY_AT(&h->list, struct html_edge, (uintptr_t)*slot - 1);
	if (e->seen != s->seq) {
		e->seen = s->seq;
		e->samples++;
		e->period += s->period;
	}
	return 0;
}

static int html_sample(void *state, struct analysis *a, const struct rsample *s)
{
	struct html *h = state;
	size_t i;
	int err;

	(void)a;
	if (s->has_time) {
		if (!h->have_time || s->time < h->first_time)
			h->first_time = s->time;
		if (!h->have_time || s->time > h->last_time)
			h->last_time = s->time;
		h->have_time = 1;
	}
	if (!s->callchain)
		return 0;
	for (i = 0; i + 1 < s->nr_frames; i++) {
		err = count_edge(h, frame__func(s->frames[i + 1])->id, frame__func(s->frames[i])->id, s);
		if (err)
			return err;
	}
	return 0;
}

/*
 * s (n bytes) as a JSON string literal for a <script> block: the one place
 * this page escapes a name.  UTF-8 is read as the Unicode standard's table
 * 3-7 says; a byte that begins no well-formed sequence becomes U+FFFD.  " and
 * \ are backslash-escaped, the C0 controls written \u00xx, and '<' is \u003c
 * so that no "</script" nor "<!--" can end or bend the script element.
 */
static int html_json_str(struct strbuf *sb, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, len;
	int err = strbuf__addch(sb, '"');

	while (!err && i < n) {
		unsigned c = p[i], lo = 0x80, hi = 0xbf, k;

		len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 :
		      c >= 0xf0 && c <= 0xf4 ? 4 : 0;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
		else if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
		for (k = 1; len > 1 && k < len; k++) {
			if (i + k >= n || p[i + k] < (k == 1 ? lo : 0x80) || p[i + k] > (k == 1 ? hi : 0xbf)) {
				len = 0;
				break;
			}
		}
		if (!len) {
			err = strbuf__addstr(sb, "\xef\xbf\xbd");
			i++;
			continue;
		}
		if (c == '"' || c == '\\')
			err = strbuf__addch(sb, '\\') ?: strbuf__addch(sb, (char)c);
		else if (c < 0x20 || c == '<')
			err = strbuf__addf(sb, "\\u%04x", c);
		else
			err = strbuf__add(sb, p + i, len);
		i += len;
	}
	return err ?: strbuf__addch(sb, '"');
}

/* a JSON string of s (NULL: null) into the page */
static void put_str(struct html_out *o, const char *s)
{
	strbuf__reset(&o->sb);
	if (!s)
		csv__puts(&o->c, "null");
	else if (html_json_str(&o->sb, s, strlen(s)))
		o->c.err = -ENOMEM;
	else
		csv__puts(&o->c, o->sb.buf);
}

/* the index of interned string s in "s" (added when new), -1 for NULL; -ENOMEM is kept in the output */
static long str_index(struct html_out *o, const char *s)
{
	void **slot;
	const char **p;
	int ret;

	if (!s)
		return -1;
	ret = hashmap__insert(&o->strs, &s, sizeof(s), &slot);
	if (ret < 0 || (ret == 1 && !(p = array__push(&o->str_list)))) {
		o->c.err = -ENOMEM;
		return -1;
	}
	if (ret == 1) {
		*p = s;
		*slot = (void *)(uintptr_t)o->str_list.len;
	}
	return (long)(uintptr_t)*slot - 1;
}

static void keep_err(struct html_out *o, int err)
{
	if (err && !o->c.err)
		o->c.err = err;
}

/* the recording: file, host, perf version, command line, duration, events */
static void put_header(struct html_out *o, const struct html *h, struct analysis *a)
{
	const struct perf_features *ft = perf_file__features(analysis__file(a));
	const char *input = analysis__opts(a)->input_name;
	uint64_t dur = 0;
	struct analysis_event ev;
	struct strbuf cmd;
	size_t i, n = analysis__nr_events(a);
	uint32_t k;

	if (ft && perf_features__has(ft, PERF_FEAT_SAMPLE_TIME) && ft->last_sample_time > ft->first_sample_time)
		dur = ft->last_sample_time - ft->first_sample_time;
	else if (h->have_time)
		dur = h->last_time - h->first_time;
	csv__puts(&o->c, "{\"file\":");
	put_str(o, input);
	csv__puts(&o->c, ",\"host\":");
	put_str(o, ft ? ft->hostname : NULL);
	csv__puts(&o->c, ",\"perf\":");
	put_str(o, ft ? ft->version : NULL);
	csv__puts(&o->c, ",\"cmd\":");
	strbuf__init(&cmd);
	for (k = 0; ft && k < ft->cmdline_argc; k++)
		keep_err(o, (k ? strbuf__addch(&cmd, ' ') : 0) ?: strbuf__addstr(&cmd, ft->cmdline[k]));
	put_str(o, ft && ft->cmdline_argc ? cmd.buf : NULL);
	strbuf__release(&cmd);
	csv__printf(&o->c, ",\"dur\":%" PRIu64 ",\"ev\":[", dur);
	for (i = 0; i < n; i++) {
		analysis__event(a, i, &ev);
		csv__puts(&o->c, i ? ",[" : "[");
		put_str(o, analysis__event_name(a, (uint32_t)i));
		csv__printf(&o->c, ",%" PRIu64 ",%" PRIu64 ",%d,%d]", ev.samples, ev.period, ev.time_unit ? 1 : 0,
			    ev.callchain ? 1 : 0);
	}
	csv__puts(&o->c, "]");
}

/*
 * "f": every function with samples or children, in results.csv's order:
 * [event, dso, function, file, line, samples, period, children samples,
 * children period, shown] (strings as indices into "s"; shown: 0 when
 * --percent-limit leaves it out of results.csv)
 */
static int put_funcs(struct html_out *o, struct analysis *a)
{
	size_t n = analysis__nr_funcs(a), i, row = 0;
	const struct func_stat **v = calloc(n + 1, sizeof(*v));
	int children = analysis__have_callchains(a);

	o->func_index = calloc(n + 1, sizeof(*o->func_index));
	if (!v || !o->func_index) {
		free(v);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		v[i] = analysis__func(a, i);
	qsort(v, n, sizeof(*v), report__func_cmp);
	csv__puts(&o->c, ",\"f\":[");
	for (i = 0; i < n; i++) {
		const struct func_stat *f = v[i];
		uint64_t total = analysis__event_period(a, f->event);
		long dso, fn, file;
		int shown;

		if (!f->samples && !f->ch_samples)
			continue;
		shown = !analysis__below_limit(a, f->period, total) ||
			(children && !analysis__below_limit(a, f->ch_period, total));
		o->func_index[f->id] = (uint32_t)++row;
		dso = str_index(o, f->dso);	/* in this order: the table is deterministic */
		fn = str_index(o, f->function);
		file = str_index(o, f->def_file);
		csv__printf(&o->c, "%s[%" PRIu32 ",%ld,%ld,%ld,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%d]",
			    row > 1 ? "," : "", f->event, dso, fn, file, f->def_file ? f->def_line : 0, f->samples, f->period,
			    f->ch_samples, f->ch_period, shown);
	}
	csv__puts(&o->c, "]");
	free(v);
	return 0;
}

/* "e": callers.csv's edges that pass --percent-limit: [caller row, callee row, samples, period] */
static void put_edges(struct html_out *o, const struct html *h, struct analysis *a)
{
	const struct html_edge *e = h->list.data;
	size_t i, first = 1;

	csv__puts(&o->c, ",\"e\":[");
	for (i = 0; i < h->list.len; i++) {
		const struct func_stat *callee = analysis__func(a, e[i].callee);

		if (analysis__below_limit(a, e[i].period, analysis__event_period(a, callee->event)))
			continue;
		if (!o->func_index[e[i].caller] || !o->func_index[callee->id])
			continue;
		csv__printf(&o->c, "%s[%" PRIu32 ",%" PRIu32 ",%" PRIu64 ",%" PRIu64 "]", first ? "" : ",",
			    o->func_index[e[i].caller] - 1, o->func_index[callee->id] - 1, e[i].samples, e[i].period);
		first = 0;
	}
	csv__puts(&o->c, "]");
}

/* "l": lines.csv's rows in its order: [function row, file, line, samples, period] */
static int put_lines(struct html_out *o, struct analysis *a)
{
	size_t n = analysis__nr_lines(a), i, first = 1;
	const struct line_stat **v = calloc(n + 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		v[i] = analysis__line(a, i);
	qsort(v, n, sizeof(*v), report__line_cmp);
	csv__puts(&o->c, ",\"l\":[");
	for (i = 0; i < n; i++) {
		const struct line_stat *l = v[i];

		if (!l->samples || analysis__below_limit(a, l->period, analysis__event_period(a, l->f->event)))
			continue;
		if (!o->func_index[l->f->id])
			continue;
		csv__printf(&o->c, "%s[%" PRIu32 ",%ld,%u,%" PRIu64 ",%" PRIu64 "]", first ? "" : ",",
			    o->func_index[l->f->id] - 1, str_index(o, l->src_file), l->src_file ? l->line : 0,
			    l->samples, l->period);
		first = 0;
	}
	csv__puts(&o->c, "]");
	free(v);
	return 0;
}

static void put_strs(struct html_out *o)
{
	const char *const *s = o->str_list.data;
	size_t i;

	csv__puts(&o->c, ",\"s\":[");
	for (i = 0; i < o->str_list.len; i++) {
		if (i)
			csv__puts(&o->c, ",");
		put_str(o, s[i]);
	}
	csv__puts(&o->c, "]}");
}

/* the page around the data: styles and markup, then the script that builds the view */
static const char html_head[] =
	"<!DOCTYPE html>\n"
	"<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
	"<title>readperf</title>\n"
	"<style>\n"
	"body{font:14px/1.4 system-ui,sans-serif;margin:0;padding:12px;color:#111;background:#fff}\n"
	"h1{font-size:18px;margin:0 0 8px}h2{font-size:16px;margin:16px 0 6px}h3{font-size:14px;margin:12px 0 4px}\n"
	"dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0 0 10px}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}\n"
	".bar{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:8px 0}\n"
	"input,select,button{font:inherit}input[type=search]{min-width:14em;flex:1;max-width:30em}\n"
	".wrap{overflow-x:auto;max-width:100%}\n"
	"caption{text-align:left}table{border-collapse:collapse;width:100%}th,td{padding:2px 6px;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}\n"
	"td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	"th button{background:none;border:0;padding:0;font-weight:600;cursor:pointer;color:inherit;text-align:inherit}\n"
	"th[aria-sort=descending] button::after{content:\" \\25BC\"}th[aria-sort=ascending] button::after{content:\" \\25B2\"}\n"
	"td.fn button{background:none;border:0;padding:0;color:#0645ad;cursor:pointer;text-align:left;overflow-wrap:anywhere}\n"
	"tr.sel{background:#fff3c4}td.src,td.dso{color:#555;overflow-wrap:anywhere}\n"
	"button:focus-visible,input:focus-visible,select:focus-visible{outline:2px solid #0645ad;outline-offset:1px}\n"
	"#detail{border-top:2px solid #888;margin-top:12px}\n"
	".cols{display:grid;grid-template-columns:1fr 1fr;gap:12px}\n"
	".note{color:#555}\n"
	"@media (max-width:700px){body{padding:6px;font-size:13px}.cols{grid-template-columns:1fr}td.dso,th.dso,td.src,th.src,.smp{display:none}}\n"
	"</style></head><body>\n"
	"<header><h1>readperf profile</h1><dl id=\"info\"></dl></header>\n"
	"<main>\n"
	"<div class=\"bar\"><label for=\"event\">Event</label><select id=\"event\"></select>\n"
	"<input type=\"search\" id=\"filter\" placeholder=\"Filter functions\" aria-label=\"Filter functions by name or DSO\"></div>\n"
	"<p class=\"note\" id=\"count\" aria-live=\"polite\"></p>\n"
	"<div class=\"wrap\"><table id=\"funcs\"><caption class=\"note\">Functions: self and children share of the event's period. Click a column header to sort, a function for its callers, callees and lines.</caption>\n"
	"<thead><tr><th scope=\"col\"><button data-k=\"name\">Function</button></th><th scope=\"col\" class=\"dso\"><button data-k=\"dso\">DSO</button></th>\n"
	"<th scope=\"col\" class=\"n\" aria-sort=\"descending\"><button data-k=\"self\">Self %</button></th><th scope=\"col\" class=\"n\"><button data-k=\"children\">Children %</button></th>\n"
	"<th scope=\"col\" class=\"n smp\"><button data-k=\"samples\">Samples</button></th><th scope=\"col\" class=\"n\"><button data-k=\"period\">Period</button></th>\n"
	"<th scope=\"col\" class=\"src\"><button data-k=\"src\">Source</button></th></tr></thead><tbody></tbody></table></div>\n"
	"<section id=\"detail\" hidden aria-live=\"polite\"><h2 id=\"dname\"></h2><p class=\"note\" id=\"dinfo\"></p>\n"
	"<div class=\"cols\"><div><h3>Callers</h3><div class=\"wrap\"><table id=\"callers\"></table></div></div>\n"
	"<div><h3>Callees</h3><div class=\"wrap\"><table id=\"callees\"></table></div></div></div>\n"
	"<h3>Source lines</h3><div class=\"wrap\"><table id=\"lines\"></table></div></section>\n"
	"</main>\n"
	"<script type=\"application/json\" id=\"data\">\n";

static const char html_tail[] =
	"</script>\n"
	"<script>\n"
	"\"use strict\";\n"
	"(function () {\n"
	"const D = JSON.parse(document.getElementById(\"data\").textContent), S = D.s, $ = (id) => document.getElementById(id);\n"
	"const F = D.f.map((r, i) => ({ i: i, ev: r[0], dso: S[r[1]], name: S[r[2]], file: r[3] < 0 ? null : S[r[3]], line: r[4],\n"
	"\tsamples: r[5], period: r[6], chs: r[7], chp: r[8], shown: r[9], callers: [], callees: [], lines: [] }));\n"
	"D.e.forEach((e) => { const x = { caller: e[0], callee: e[1], samples: e[2], period: e[3] };\n"
	"\tF[e[1]].callers.push(x); F[e[0]].callees.push(x); });\n"
	"D.l.forEach((l) => F[l[0]].lines.push({ file: l[1] < 0 ? null : S[l[1]], line: l[2], samples: l[3], period: l[4] }));\n"
	"const EV = D.ev.map((e) => ({ name: e[0], samples: e[1], period: e[2], time: e[3], cc: e[4] }));\n"
	"let ev = 0, key = null, dir = -1, sel = -1;\n"
	"const LIMIT = 1000;\n"
	"function el(tag, text, cls) { const x = document.createElement(tag); if (text !== undefined) x.textContent = text; if (cls) x.className = cls; return x; }\n"
	"function note(text) { const tr = el(\"tr\"), td = el(\"td\", text, \"note\"); td.colSpan = 4; tr.append(td); return tr; }\n"
	"function pct(p, t) { return t ? (100 * p / t).toFixed(2) : \"0.00\"; }\n"
	"function per(p, e) { return EV[e].time ? (p / 1e6).toFixed(2) + \" ms\" : String(p); }\n"
	"function src(f) { return f.file ? f.file + \":\" + f.line : \"\"; }\n"
	"function dur(ns) { return ns >= 1e9 ? (ns / 1e9).toFixed(3) + \" s\" : (ns / 1e6).toFixed(3) + \" ms\"; }\n"
	"function info() {\n"
	"\tconst dl = $(\"info\"), add = (k, v) => { if (v === null || v === undefined || v === \"\") return; dl.append(el(\"dt\", k), el(\"dd\", v)); };\n"
	"\tlet n = 0; EV.forEach((e) => { n += e.samples; });\n"
	"\tadd(\"File\", D.file); add(\"Command\", D.cmd); add(\"Host\", D.host); add(\"perf\", D.perf);\n"
	"\tadd(\"Duration\", D.dur ? dur(D.dur) : null); add(\"Samples\", String(n));\n"
	"\tadd(\"Events\", EV.map((e) => e.name + \": \" + e.samples + \" samples, period \" + per(e.period, EV.indexOf(e))).join(\"; \"));\n"
	"}\n"
	"const VAL = { name: (f) => f.name, dso: (f) => f.dso, self: (f) => f.period, children: (f) => f.chp,\n"
	"\tsamples: (f) => f.samples, period: (f) => f.period, src: (f) => src(f) };\n"
	"function rows() {\n"
	"\tconst q = $(\"filter\").value.toLowerCase();\n"
	"\tlet v = F.filter((f) => f.ev === ev && f.shown && (!q || f.name.toLowerCase().includes(q) || f.dso.toLowerCase().includes(q)));\n"
	"\tif (key) {\n"
	"\t\tconst g = VAL[key];\n"
	"\t\tv = v.map((f, k) => [f, k]).sort((a, b) => { const x = g(a[0]), y = g(b[0]);\n"
	"\t\t\treturn x < y ? -dir : x > y ? dir : a[1] - b[1]; }).map((p) => p[0]);\n"
	"\t}\n"
	"\treturn v;\n"
	"}\n"
	"function render() {\n"
	"\tconst tb = $(\"funcs\").tBodies[0], v = rows(), t = EV[ev] ? EV[ev].period : 0, frag = document.createDocumentFragment();\n"
	"\tv.slice(0, LIMIT).forEach((f) => {\n"
	"\t\tconst tr = el(\"tr\"), fn = el(\"td\", undefined, \"fn\"), b = el(\"button\", f.name);\n"
	"\t\tb.dataset.i = f.i; fn.append(b); tr.dataset.i = f.i; if (f.i === sel) tr.className = \"sel\";\n"
	"\t\ttr.append(fn, el(\"td\", f.dso, \"dso\"), el(\"td\", pct(f.period, t), \"n self\"), el(\"td\", pct(f.chp, t), \"n children\"),\n"
	"\t\t\tel(\"td\", String(f.samples), \"n smp\"), el(\"td\", per(f.period, f.ev), \"n\"), el(\"td\", src(f), \"src\"));\n"
	"\t\tfrag.append(tr);\n"
	"\t});\n"
	"\ttb.replaceChildren(frag);\n"
	"\t$(\"count\").textContent = v.length > LIMIT ? \"Showing \" + LIMIT + \" of \" + v.length + \" functions; filter to narrow.\" :\n"
	"\t\tv.length + \" functions\";\n"
	"}\n"
	"function edgeTable(tab, list, other, f, word) {\n"
	"\tconst t = f.chp, head = el(\"tr\");\n"
	"\t[\"Function\", \"Samples\", \"Period\", \"Share %\"].forEach((h, k) => { const th = el(\"th\", h, k ? \"n\" : \"\"); th.scope = \"col\"; head.append(th); });\n"
	"\tconst body = el(\"tbody\");\n"
	"\tlist.slice().sort((a, b) => b.period - a.period || a[other] - b[other]).forEach((e) => {\n"
	"\t\tconst g = F[e[other]], tr = el(\"tr\"), fn = el(\"td\", undefined, \"fn\"), b = el(\"button\", g.name);\n"
	"\t\tb.dataset.i = g.i; b.title = g.dso; fn.append(b); tr.dataset.i = g.i;\n"
	"\t\ttr.append(fn, el(\"td\", String(e.samples), \"n samples\"), el(\"td\", per(e.period, f.ev), \"n\"), el(\"td\", pct(e.period, t), \"n\"));\n"
	"\t\tbody.append(tr);\n"
	"\t});\n"
	"\tif (!list.length) body.append(note(\"no \" + word));\n"
	"\ttab.replaceChildren(el(\"thead\"), body); tab.tHead.append(head);\n"
	"}\n"
	"function lineTable(f) {\n"
	"\tconst tab = $(\"lines\"), head = el(\"tr\"), body = el(\"tbody\");\n"
	"\t[\"Source line\", \"Samples\", \"Period\", \"% of self\"].forEach((h, k) => { const th = el(\"th\", h, k ? \"n\" : \"\"); th.scope = \"col\"; head.append(th); });\n"
	"\tf.lines.forEach((l) => { const tr = el(\"tr\");\n"
	"\t\ttr.append(el(\"td\", l.file ? l.file + \":\" + l.line : \"[unknown]\", \"src\"), el(\"td\", String(l.samples), \"n\"),\n"
	"\t\t\tel(\"td\", per(l.period, f.ev), \"n\"), el(\"td\", pct(l.period, f.period), \"n\")); body.append(tr); });\n"
	"\tif (!f.lines.length) body.append(note(\"no samples in the function itself\"));\n"
	"\ttab.replaceChildren(el(\"thead\"), body); tab.tHead.append(head);\n"
	"}\n"
	"function show(i) {\n"
	"\tconst f = F[i], t = EV[f.ev].period;\n"
	"\tsel = i; $(\"detail\").hidden = false; $(\"dname\").textContent = f.name;\n"
	"\t$(\"dinfo\").textContent = f.dso + (f.file ? \" \\u2014 \" + src(f) : \"\") + \" \\u2014 self \" + pct(f.period, t) + \"%, children \" +\n"
	"\t\tpct(f.chp, t) + \"%, \" + f.samples + \" samples\";\n"
	"\tedgeTable($(\"callers\"), f.callers, \"caller\", f, \"callers\");\n"
	"\tedgeTable($(\"callees\"), f.callees, \"callee\", f, \"callees\");\n"
	"\tlineTable(f);\n"
	"\tdocument.querySelectorAll(\"#funcs tbody tr\").forEach((tr) => { tr.className = +tr.dataset.i === i ? \"sel\" : \"\"; });\n"
	"}\n"
	"document.addEventListener(\"click\", (e) => {\n"
	"\tconst b = e.target.closest(\"button\");\n"
	"\tif (!b) return;\n"
	"\tif (b.dataset.i !== undefined) { show(+b.dataset.i); if (!b.closest(\"#funcs\")) $(\"detail\").scrollIntoView(); return; }\n"
	"\tif (b.dataset.k) {\n"
	"\t\tconst k = b.dataset.k, num = k !== \"name\" && k !== \"dso\" && k !== \"src\";\n"
	"\t\tdir = key === k ? -dir : (num ? -1 : 1); key = k;\n"
	"\t\tdocument.querySelectorAll(\"#funcs th\").forEach((th) => th.removeAttribute(\"aria-sort\"));\n"
	"\t\tb.parentNode.setAttribute(\"aria-sort\", dir < 0 ? \"descending\" : \"ascending\");\n"
	"\t\trender();\n"
	"\t}\n"
	"});\n"
	"const es = $(\"event\");\n"
	"EV.forEach((e, k) => { const o = el(\"option\", e.name + \" (\" + e.samples + \" samples)\"); o.value = k; es.append(o); });\n"
	"ev = Math.max(0, EV.findIndex((e) => e.samples > 0));\n"
	"es.value = ev;\n"
	"es.addEventListener(\"change\", () => { ev = +es.value; render(); });\n"
	"$(\"filter\").addEventListener(\"input\", render);\n"
	"info();\n"
	"render();\n"
	"})();\n"
	"</script>\n"
	"</body></html>\n";

static int html_write(void *state, struct analysis *a, const char *path)
{
	const struct html *h = state;
	struct html_out o;
	int err;

	memset(&o, 0, sizeof(o));
	err = csv__open_path(&o.c, path);
	if (err)
		return err;
	strbuf__init(&o.sb);
	hashmap__init(&o.strs);
	array__init(&o.str_list, sizeof(const char *));
	csv__puts(&o.c, html_head);
	put_header(&o, h, a);
	err = put_funcs(&o, a);
	if (!err) {
		put_edges(&o, h, a);
		err = put_lines(&o, a);
	}
	put_strs(&o);
	csv__puts(&o.c, html_tail);
	keep_err(&o, err);
	free(o.func_index);
	strbuf__release(&o.sb);
	hashmap__release(&o.strs, NULL);
	array__release(&o.str_list);
	return csv__commit(&o.c);
}

static const struct report_output html_outputs[] = {
	{ .name = "html", .is_path = 1, .write = html_write,
	  .help = "one self-contained HTML page: the function table (sortable, per event), callers, callees, lines" },
	{ .name = NULL }
};

const struct report_ops html_report = {
	.name = "html",
	.source = REPORT_FROM_ANALYSIS,
	.state_size = sizeof(struct html),
	.needs = REPORT_NEEDS_FRAMES,
	.outputs = html_outputs,
	.begin = html_begin,
	.sample = html_sample,
	.release = html_release,
};

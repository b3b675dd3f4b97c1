/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Collapsed ("folded") stacks and flame graphs (flame.h), shared by the
 * on-CPU stacks (stacks.c) and the off-CPU ones (threads.c): the folded
 * lines of Brendan Gregg's FlameGraph stackcollapse-perf.pl and a flame
 * graph drawn from them as flamegraph.pl lays it out: the root "all" at the
 * bottom, children above their parent in the order of the sorted stacks,
 * widths proportional to the weight (the share results.csv prints).
 *
 * The SVG is computed in integers (positions in hundredths of a pixel) so
 * the same stacks always give the same bytes; labels are cut to what fits
 * and every frame carries a <title> tooltip; an embedded script (no external
 * resource) zooms on click and searches, as flamegraph.pl's does.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decode/reports/flame.h"
#include "util/array.h"
#include "util/csv.h"

/* ------------------------------------------------------------- collapse */

void fold_names__init(struct fold_names *n)
{
	hashmap__init(&n->ids);
	array__init(&n->v, sizeof(struct fold_name));
	n->text.head = NULL;
}

void fold_names__release(struct fold_names *n)
{
	hashmap__release(&n->ids, NULL);
	array__release(&n->v);
	pool__release(&n->text);
}

int fold_names__intern(struct fold_names *n, const char *name, size_t len, uint32_t *id)
{
	void **slot = hashmap__find(&n->ids, name, len);
	struct fold_name *fn;
	char *copy;

	if (slot) {
		*id = (uint32_t)((uintptr_t)*slot - 1);
		return 0;
	}
	/* the name first: a failed insert leaves no slot without its id */
	if (n->v.len >= UINT32_MAX - 1 || !(copy = pool__alloc(&n->text, len + 1)))
		return -ENOMEM;
	memcpy(copy, name, len);
	fn = array__push(&n->v);
	if (!fn || hashmap__insert(&n->ids, name, len, &slot) < 0)
		return -ENOMEM;
	fn->s = copy;
	fn->len = len;
	*id = (uint32_t)(n->v.len - 1);
	*slot = (void *)(uintptr_t)n->v.len;
	return 0;
}

void folded__init(struct folded *fd)
{
	fold_names__init(&fd->names);
	array__init(&fd->parts, sizeof(uint32_t));
	fd->v = NULL;
	fd->nr = 0;
}

void folded__release(struct folded *fd)
{
	fold_names__release(&fd->names);
	array__release(&fd->parts);
	free(fd->v);
	fd->v = NULL;
	fd->nr = 0;
}

/* stackcollapse's tidy_generic on sb->buf[start..]: ';' -> ':', args and quotes dropped */
static void tidy(struct strbuf *sb, size_t start)
{
	char *s = sb->buf + start, *go, *p, *w;

	for (p = s; *p; p++) {
		if (*p == ';')
			*p = ':';
		else if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';	/* keeps one stack per line */
	}
	/* a Go method "pkg.(*T).M" keeps its parentheses */
	go = strstr(s, ".(");
	if (!go || !strstr(go + 2, ").")) {
		for (p = s; (p = strchr(p, '(')); p++) {
			if (strncmp(p + 1, "anonymous namespace)", 20)) {
				*p = '\0';
				break;
			}
		}
	}
	for (p = w = s; *p; p++)
		if (*p != '"' && *p != '\'')
			*w++ = *p;
	*w = '\0';
	sb->len = (size_t)(w - sb->buf);
}

static int add_frame(struct strbuf *sb, uintptr_t frame)
{
	const struct func_stat *f = frame__func(frame);
	int no_map = !strcmp(f->dso, UNKNOWN);
	size_t start = sb->len, fn_len = strlen(f->function), sfx = strlen(INLINED_SUFFIX);
	int inlined = fn_len > sfx && !strcmp(f->function + fn_len - sfx, INLINED_SUFFIX);
	int err;

	if (!strcmp(f->function, UNKNOWN) && !no_map) {
		/* no symbol in a known object: "[object]", as stackcollapse names it */
		const char *base = strrchr(f->dso, '/');

		err = strbuf__addch(sb, '[') || strbuf__addstr(sb, base ? base + 1 : f->dso) ||
		      strbuf__addch(sb, ']');
	} else {
		err = strbuf__add(sb, f->function, inlined ? fn_len - sfx : fn_len);
	}
	if (err)
		return -ENOMEM;
	tidy(sb, start);
	if (frame__is_kernel(frame) && !no_map && strbuf__addstr(sb, "_[k]"))
		return -ENOMEM;
	/* --inline: stackcollapse-perf.pl's annotation of an inlined function */
	if (inlined && strbuf__addstr(sb, "_[i]"))
		return -ENOMEM;
	return 0;
}

static int add_comm(struct strbuf *sb, const char *comm)
{
	size_t start = sb->len, i;

	if (strbuf__addstr(sb, comm))
		return -ENOMEM;
	for (i = start; i < sb->len; i++) {
		char *c = &sb->buf[i];

		if (*c == ' ')
			*c = '_';
		else if (*c == ';')
			*c = ':';
		else if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	}
	return 0;
}

/*
 * The order of the lines' texts from their names: name id's rank in
 * rank[2 * id + more], more 1 when ';' and another name follow it, 0 when
 * the line ends there (a prefix sorts first).  Names hold no ';', so the
 * first name that differs between two lines decides their order, as the
 * texts' first differing byte, which lies in that name or at its end.
 */
struct rank_ent {
	const struct fold_name *n;
	uint32_t id;
	int more;
};

static int rank_cmp(const void *pa, const void *pb)
{
	const struct rank_ent *a = pa, *b = pb;
	size_t m = a->n->len < b->n->len ? a->n->len : b->n->len;
	int r = memcmp(a->n->s, b->n->s, m), ca, cb;

	if (r)
		return r;
	ca = a->n->len > m ? (unsigned char)a->n->s[m] : a->more ? ';' : -1;
	cb = b->n->len > m ? (unsigned char)b->n->s[m] : b->more ? ';' : -1;
	return ca == cb ? 0 : ca < cb ? -1 : 1;
}

static uint32_t *name_ranks(const struct fold_names *names)
{
	size_t n = names->v.len, i;
	struct rank_ent *e = n ? calloc(n, 2 * sizeof(*e)) : NULL;
	uint32_t *rank = n ? calloc(n, 2 * sizeof(*rank)) : NULL;

	if (!e || !rank) {
		free(e);
		free(rank);
		return NULL;
	}
	for (i = 0; i < 2 * n; i++) {
		e[i].n = fold_names__at(names, (uint32_t)(i / 2));
		e[i].id = (uint32_t)(i / 2);
		e[i].more = (int)(i % 2);
	}
	qsort(e, 2 * n, sizeof(*e), rank_cmp);
	for (i = 0; i < 2 * n; i++)
		rank[2 * (size_t)e[i].id + (size_t)e[i].more] = (uint32_t)i;
	free(e);
	return rank;
}

static int fold_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct fold *a = pa, *b = pb;
	const uint32_t *rank = ctx;
	size_t n = a->nr < b->nr ? a->nr : b->nr, k;

	for (k = 0; k < n; k++) {
		uint32_t ra = rank[2 * (size_t)a->names[k] + (k + 1 < a->nr)];
		uint32_t rb = rank[2 * (size_t)b->names[k] + (k + 1 < b->nr)];

		if (ra != rb)
			return ra < rb ? -1 : 1;
	}
	return a->nr == b->nr ? 0 : (a->nr < b->nr ? -1 : 1);
}

static int fold_same(const struct fold *a, const struct fold *b)
{
	return a->nr == b->nr && !memcmp(a->names, b->names, a->nr * sizeof(*a->names));
}

int folded__sort(struct folded *fd)
{
	uint32_t *rank;

	if (fd->nr < 2)
		return 0;
	rank = name_ranks(&fd->names);
	if (!rank)
		return -ENOMEM;
	qsort_r(fd->v, fd->nr, sizeof(*fd->v), fold_cmp, rank);
	free(rank);
	return 0;
}

/* the name id of a frame, or of a comm (as the key's interned pointer), made on first sight */
static int name_of(struct folded *fd, struct hashmap *seen, struct strbuf *sb, uintptr_t frame, int comm,
		   uint32_t *id)
{
	void **slot = hashmap__find(seen, &frame, sizeof(frame));
	int err;

	if (slot) {
		*id = (uint32_t)((uintptr_t)*slot - 1);
		return 0;
	}
	strbuf__reset(sb);
	err = comm ? add_comm(sb, (const char *)frame) : add_frame(sb, frame);
	err = err ? err : fold_names__intern(&fd->names, sb->buf, sb->len, id);
	if (err || hashmap__insert(seen, &frame, sizeof(frame), &slot) < 0)
		return -ENOMEM;
	*slot = (void *)(uintptr_t)(*id + 1);
	return 0;
}

/*
 * The stacks of map (keys: struct stack_key, then the frames; values: counters, the
 * weight at index weight) of one event (UINT32_MAX: every key) as sorted, merged
 * folded lines; fd->nr_samples sums counter 0
 */
int folded__collapse(const struct hashmap *map, uint32_t event, unsigned weight, struct folded *fd)
{
	const struct hashmap_entry *e;
	struct hashmap frames, comms;	/* a frame's, a comm's name id + 1 */
	struct strbuf sb = STRBUF_INIT;
	struct array lines;
	size_t it = 0, i, n;
	int err = -ENOMEM;

	folded__init(fd);
	hashmap__init(&frames);
	hashmap__init(&comms);
	array__init(&lines, sizeof(struct fold));
	while ((e = hashmap__next(map, &it))) {
		struct stack_key key;
		const uintptr_t *frames_of = (const uintptr_t *)((const char *)e->key + sizeof(key));
		struct fold *fo;
		size_t start = fd->parts.len;
		uint32_t id;

		memcpy(&key, e->key, sizeof(key));
		if (event != UINT32_MAX && key.event != event)
			continue;
		if (key.comm && (name_of(fd, &comms, &sb, (uintptr_t)key.comm, 1, &id) || array__append(&fd->parts, &id, 1)))
			goto out;
		for (i = key.nr; i-- > 0;) {
			uintptr_t frame;

			memcpy(&frame, frames_of + i, sizeof(frame));
			if (name_of(fd, &frames, &sb, frame, 0, &id) || array__append(&fd->parts, &id, 1))
				goto out;
		}
		/* no comm and no frame: the empty line, one empty name as its text splits */
		if (fd->parts.len == start &&
		    (fold_names__intern(&fd->names, "", 0, &id) || array__append(&fd->parts, &id, 1)))
			goto out;
		fo = array__push(&lines);
		if (!fo)
			goto out;
		fo->names = (const uint32_t *)(uintptr_t)start;
		fo->nr = fd->parts.len - start;
		fo->samples = ((const uint64_t *)e->value)[weight];
		fd->nr_samples += ((const uint64_t *)e->value)[0];
	}
	fd->v = array__detach(&lines, &n);
	fd->nr = n;
	/* offsets until the parts stopped growing */
	for (i = 0; i < n; i++)
		fd->v[i].names = (const uint32_t *)fd->parts.data + (size_t)(uintptr_t)fd->v[i].names;
	if (folded__sort(fd))
		goto out;
	/* different frames can print the same (a name in two objects): one line */
	fd->nr = 0;
	for (i = 0; i < n; i++) {
		fd->total += fd->v[i].samples;
		if (fd->nr && fold_same(&fd->v[fd->nr - 1], &fd->v[i]))
			fd->v[fd->nr - 1].samples += fd->v[i].samples;
		else
			fd->v[fd->nr++] = fd->v[i];
	}
	if (!fd->total)		/* stacks were not collected (opts.stacks unset) */
		fd->event = NULL;
	err = 0;
out:
	array__release(&lines);
	hashmap__release(&frames, NULL);
	hashmap__release(&comms, NULL);
	strbuf__release(&sb);
	if (err)
		folded__release(fd);
	return err;
}

/* line i's text into c: its names joined by ';' */
static void put_line(struct csv *c, const struct folded *fd, size_t i)
{
	const struct fold *f = &fd->v[i];
	size_t k;

	for (k = 0; k < f->nr; k++) {
		const struct fold_name *n = fold_names__at(&fd->names, f->names[k]);

		if (k)
			csv__raw(c, ";", 1);
		csv__raw(c, n->s, n->len);
	}
}

/* fd's lines into path; fd is released */
int folded__write(struct folded *fdp, const char *path)
{
	struct folded fd = *fdp;
	struct csv c;
	size_t i;
	int err;

	err = csv__open_path(&c, path);
	if (err) {
		folded__release(&fd);
		return err;
	}
	/* raw lines, not CSV fields: names with ',' stay unquoted */
	for (i = 0; i < fd.nr; i++) {
		put_line(&c, &fd, i);
		if (fd.diff)	/* difffolded.pl's lines: STACK OLD NEW */
			csv__printf(&c, " %" PRIu64, fd.v[i].old);
		csv__printf(&c, " %" PRIu64 "\n", fd.v[i].samples);
	}
	folded__release(&fd);
	return csv__commit(&c);
}

/* ----------------------------------------------------------- flame graph */

/* flamegraph.pl's defaults */
#define FG_WIDTH 1200
#define FG_XPAD 10
#define FG_FRAME 16
#define FG_FONT 12
#define FG_CHAR_CPX 708		/* 0.59 em of a 12 px font, in 1/100 px */
#define FG_TOP 60		/* title and subtitle */
#define FG_BOTTOM (FG_FONT * 2 + 10)

struct flame {
	struct csv *c;
	uint64_t total;
	unsigned height;
	unsigned min_cpx;
	int offcpu;		/* blocked time: blue, "off-CPU N ns" */
	int diff;		/* differential: colour by new - old */
	uint64_t max_delta;	/* diff: the largest |new - old| of a frame drawn (the measuring pass) */
	int measure;		/* a pass that only finds depth, drawing nothing */
	size_t depth;		/* the deepest frame drawn (the root "all" is 0) */
};

/* x of a sample position, in 1/100 px */
static uint64_t fg_x(const struct flame *fl, uint64_t t)
{
	unsigned __int128 w = (unsigned __int128)t * ((FG_WIDTH - 2 * FG_XPAD) * 100);

	return FG_XPAD * 100 + (uint64_t)(w / fl->total);
}

static void put_cpx(struct csv *c, uint64_t v)
{
	csv__printf(c, "%" PRIu64 ".%02" PRIu64, v / 100, v % 100);
}

static int has_suffix(const char *s, size_t n, const char *sfx)
{
	size_t k = strlen(sfx);

	return n >= k && !memcmp(s + n - k, sfx, k);
}

/*
 * Colours from the name, so that they are stable: flamegraph.pl's "hot"
 * palette for user frames, "aqua" for kernel frames ("_[k]") and "yellow"
 * for inlined ones ("_[i]"), so the three families do not overlap in hue;
 * an off-CPU graph is all "blue".
 */
static void fg_colour(const char *name, size_t n, int offcpu, unsigned rgb[3])
{
	uint64_t h = hash_bytes(name, n);
	unsigned v1 = (unsigned)(h & 0xff), v2 = (unsigned)((h >> 8) & 0xff), v3 = (unsigned)((h >> 16) & 0xff);

	if (offcpu) {
		/* flamegraph.pl's "blue" (--colors=io), as Brendan Gregg's off-CPU graphs */
		rgb[0] = 80 + v1 * 60 / 255;
		rgb[1] = rgb[0];
		rgb[2] = 190 + v2 * 55 / 255;
	} else if (has_suffix(name, n, "_[k]")) {
		rgb[0] = 50 + v1 * 60 / 255;
		rgb[1] = 165 + v2 * 55 / 255;
		rgb[2] = 165 + v2 * 55 / 255;
	} else if (has_suffix(name, n, "_[i]")) {
		rgb[0] = 175 + v1 * 55 / 255;
		rgb[1] = rgb[0];
		rgb[2] = 50 + v3 * 20 / 255;
	} else {
		rgb[0] = 205 + v1 * 50 / 255;
		rgb[1] = v2 * 230 / 255;
		rgb[2] = v3 * 55 / 255;
	}
}

/* flamegraph.pl's color_scale: red grew, blue shrank, white unchanged, saturation by |delta| / max */
static void diff_colour(const struct flame *fl, uint64_t now, uint64_t then, unsigned rgb[3])
{
	uint64_t d = now > then ? now - then : then - now;
	unsigned fade = fl->max_delta ? (unsigned)((unsigned __int128)210 * (fl->max_delta - d) / fl->max_delta) : 255;

	rgb[0] = rgb[1] = rgb[2] = 255;
	if (now > then)
		rgb[1] = rgb[2] = fade;
	else if (now < then)
		rgb[0] = rgb[1] = fade;
}

/* the tooltip's tail of a differential frame: "; OLD period N, ratio R" (-1.0000: none in OLD) */
static void diff_title(struct csv *c, uint64_t now, uint64_t then)
{
	uint64_t r = then ? (uint64_t)(((unsigned __int128)now * 20000 + then) / ((unsigned __int128)then * 2)) : 0;

	csv__printf(c, "; OLD period %" PRIu64 ", ratio %s%" PRIu64 ".%04" PRIu64, then, then ? "" : "-",
		    then ? r / 10000 : 1, then ? r % 10000 : 0);
}

/*
 * A frame over [span[0], span[1]) of the weights (and ospan of OLD's in a
 * differential graph), when at least min_cpx wide: its title (the name and
 * the weight), rectangle and label (what fits: the script redraws it when
 * zoomed); the measuring pass only notes its depth and change
 */
static void fg_frame(struct flame *fl, const char *name, size_t n, size_t depth,
		     const uint64_t span[2], const uint64_t ospan[2])
{
	uint64_t x1 = fg_x(fl, span[0]), x2 = fg_x(fl, span[1]), samples = span[1] - span[0];
	uint64_t old = ospan[1] - ospan[0], delta = samples > old ? samples - old : old - samples;
	/* share in 1/100 %, rounded half up */
	uint64_t pct = (uint64_t)(((unsigned __int128)samples * 20000 + fl->total) /
				  ((unsigned __int128)fl->total * 2));
	size_t fit = (size_t)((x2 - x1) / FG_CHAR_CPX);
	unsigned rgb[3], y;

	if (x2 - x1 < fl->min_cpx || x2 == x1)
		return;
	if (fl->measure) {
		if (depth > fl->depth)
			fl->depth = depth;
		if (fl->diff && delta > fl->max_delta)
			fl->max_delta = delta;
		return;
	}
	y = fl->height - FG_BOTTOM - (unsigned)(depth + 1) * FG_FRAME;
	if (fl->diff)
		diff_colour(fl, samples, old, rgb);
	else
		fg_colour(name, n, fl->offcpu, rgb);
	csv__puts(fl->c, "<g>\n<title>");
	csv__xml(fl->c, name, n, SIZE_MAX);
	csv__printf(fl->c, " (%s %" PRIu64 "%s, %" PRIu64 ".%02" PRIu64 "%%",
		fl->offcpu ? "off-CPU" : "period", samples, fl->offcpu ? " ns" : "", pct / 100, pct % 100);
	if (fl->diff)
		diff_title(fl->c, samples, old);
	csv__puts(fl->c, ")</title>\n");
	csv__puts(fl->c, "<rect x=\"");
	put_cpx(fl->c, x1);
	csv__printf(fl->c, "\" y=\"%u\" width=\"", y);
	put_cpx(fl->c, x2 - x1);
	csv__printf(fl->c, "\" height=\"%u\" fill=\"rgb(%u,%u,%u)\" rx=\"2\" ry=\"2\"/>\n",
		FG_FRAME - 1, rgb[0], rgb[1], rgb[2]);
	csv__puts(fl->c, "<text x=\"");
	put_cpx(fl->c, x1 + 300);
	csv__printf(fl->c, "\" y=\"%u\">", y + FG_FRAME - 5);
	if (fit >= 3)
		csv__xml(fl->c, name, n, fit);
	csv__puts(fl->c, "</text>\n</g>\n");
}

/* the open frames of the flow: one per depth */
struct fg_open {
	uint32_t id;			/* its name */
	uint64_t start, ostart;		/* the weight's and OLD's position where it opened */
};

/*
 * flamegraph.pl's flow(): walk the sorted stacks; frames a stack shares
 * with the previous one stay open, the others close at the current
 * position (and are drawn) or open there
 */
static void fg_flow(struct flame *fl, const struct folded *fd, struct fg_open *open)
{
	size_t nopen = 0, i, depth, k;
	uint64_t x = 0, xo = 0;

	for (i = 0; i <= fd->nr; i++) {
		const struct fold *f = i < fd->nr ? &fd->v[i] : NULL;

		/* the prefix shared with the open frames */
		for (depth = 0; f && depth < nopen && depth < f->nr && f->names[depth] == open[depth].id; depth++)
			;
		while (nopen > depth) {
			const struct fold_name *n = fold_names__at(&fd->names, open[--nopen].id);

			fg_frame(fl, n->s, n->len, nopen + 1, (const uint64_t[2]){ open[nopen].start, x },
				 (const uint64_t[2]){ open[nopen].ostart, xo });
		}
		if (!f)
			break;
		for (k = depth; k < f->nr; k++, nopen++) {
			open[nopen].id = f->names[k];
			open[nopen].start = x;
			open[nopen].ostart = xo;
		}
		x += f->samples;
		xo += f->old;
	}
	fg_frame(fl, "all", 3, 0, (const uint64_t[2]){ 0, fl->total }, (const uint64_t[2]){ 0, xo });
}

/*
 * The script that makes the graph interactive, as flamegraph.pl's: a click
 * on a frame zooms to it (its width becomes the graph's, its ancestors are
 * faded, frames outside it hidden, labels redrawn to fit), "Reset Zoom",
 * Escape or a click on the root goes back; "Search" (or Ctrl-F) asks for a
 * regular expression, colours the matching frames magenta and prints the
 * share of the graph they cover (nested matches counted once) as
 * "Matched: P%"; a second click on "Search" clears it.  fg_search(re) and
 * fg_zoom(name) are the same for scripts.  No external resource.
 */
static const char fg_script[] =
	"<script type=\"text/ecmascript\"><![CDATA[\n"
	"'use strict';\n"
	"var fg = { frames: [], zoomed: null, searching: false };\n"
	"function fg_init() {\n"
	"\tvar svg = document.documentElement, list = document.getElementById('frames').children;\n"
	"\tfg.width = +svg.getAttribute('width');\n"
	"\tfor (var i = 0; i < list.length; i++) {\n"
	"\t\tvar g = list[i], r = g.querySelector('rect'), t = g.querySelector('text');\n"
	"\t\tvar title = g.querySelector('title').textContent, cut = title.search(";
/* the title's tail after the name: the period and share, and a differential graph's OLD period and ratio */
#define FG_TITLE_TAIL "/ \\((period|off-CPU) [0-9]+( ns)?, [0-9.]+%\\)$/"
#define FG_DIFF_TITLE_TAIL "/ \\(period [0-9]+, [0-9.]+%; OLD period [0-9]+, ratio -?[0-9.]+\\)$/"
static const char fg_script_tail[] = ");\n"
	"\t\tvar f = { g: g, rect: r, text: t, title: title, name: cut < 0 ? title : title.slice(0, cut),\n"
	"\t\t\tx: +r.getAttribute('x'), w: +r.getAttribute('width'), y: +r.getAttribute('y'),\n"
	"\t\t\tfill: r.getAttribute('fill') };\n"
	"\t\tfg.frames.push(f);\n"
	"\t\tg.addEventListener('click', fg_clicked.bind(null, f));\n"
	"\t\tg.addEventListener('mouseover', fg_details.bind(null, f.title));\n"
	"\t\tg.addEventListener('mouseout', fg_details.bind(null, ' '));\n"
	"\t}\n"
	"\tfg.root = fg.frames[fg.frames.length - 1];\n"
	"\tif (!fg.root) return;\n"
	"\tdocument.getElementById('reset').addEventListener('click', fg_reset);\n"
	"\tdocument.getElementById('search').addEventListener('click', fg_search_prompt);\n"
	"\twindow.addEventListener('keydown', function (e) {\n"
	"\t\tif ((e.ctrlKey || e.metaKey) && e.key === 'f') { e.preventDefault(); fg_search_prompt(); }\n"
	"\t\telse if (e.key === 'Escape') fg_reset();\n"
	"\t});\n"
	"}\n"
	"function fg_details(s) { document.getElementById('details').textContent = s; }\n"
	"function fg_label(f, x, w) {\n"
	"\tvar fit = Math.floor((w - 3) / 7.08), s = f.name;\n"
	"\tf.text.setAttribute('x', (x + 3).toFixed(2));\n"
	"\tf.text.textContent = fit < 3 ? '' : (s.length <= fit ? s : s.slice(0, fit - 2) + '..');\n"
	"}\n"
	"function fg_place(f, x, w, cls) {\n"
	"\tf.rect.setAttribute('x', x.toFixed(2));\n"
	"\tf.rect.setAttribute('width', w.toFixed(2));\n"
	"\tf.g.setAttribute('class', cls);\n"
	"\tfg_label(f, x, w);\n"
	"}\n"
	"function fg_clicked(f) { if (f === fg.root) fg_reset(); else fg_zoom_to(f); }\n"
	"function fg_zoom_to(z) {\n"
	"\tvar pad = fg.root.x, full = fg.root.w, scale = full / z.w, eps = 0.005;\n"
	"\tfg.frames.forEach(function (f) {\n"
	"\t\tif (f.y >= z.y) {\n"
	"\t\t\tvar under = f.x <= z.x + eps && f.x + f.w >= z.x + z.w - eps;\n"
	"\t\t\tif (under) fg_place(f, pad, full, f === z ? '' : 'parent');\n"
	"\t\t\telse f.g.setAttribute('class', 'hidden');\n"
	"\t\t} else if (f.x >= z.x - eps && f.x + f.w <= z.x + z.w + eps) {\n"
	"\t\t\tfg_place(f, pad + (f.x - z.x) * scale, f.w * scale, '');\n"
	"\t\t} else {\n"
	"\t\t\tf.g.setAttribute('class', 'hidden');\n"
	"\t\t}\n"
	"\t});\n"
	"\tfg.zoomed = z;\n"
	"\tdocument.getElementById('reset').setAttribute('class', '');\n"
	"}\n"
	"function fg_zoom(name) {\n"
	"\tvar best = null;\n"
	"\tfg.frames.forEach(function (f) { if (f.name === name && (!best || f.w > best.w)) best = f; });\n"
	"\tif (best) fg_clicked(best);\n"
	"\treturn best !== null;\n"
	"}\n"
	"function fg_reset() {\n"
	"\tfg.frames.forEach(function (f) { fg_place(f, f.x, f.w, ''); });\n"
	"\tfg.zoomed = null;\n"
	"\tdocument.getElementById('reset').setAttribute('class', 'hidden');\n"
	"}\n"
	"function fg_search_prompt() {\n"
	"\tif (fg.searching) { fg_search(null); return; }\n"
	"\tvar re = window.prompt('Search for (regular expression):', '');\n"
	"\tif (re) fg_search(re);\n"
	"}\n"
	"function fg_search(term) {\n"
	"\tvar re = null, spans = [], covered = 0, end = -1;\n"
	"\tif (term) { try { re = new RegExp(term); } catch (e) { return -1; } }\n"
	"\tfg.frames.forEach(function (f) {\n"
	"\t\tvar hit = re !== null && f !== fg.root && re.test(f.name);\n"
	"\t\tf.rect.setAttribute('fill', hit ? 'rgb(230,0,230)' : f.fill);\n"
	"\t\tif (hit) spans.push([f.x, f.x + f.w]);\n"
	"\t});\n"
	"\tspans.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });\n"
	"\tspans.forEach(function (s) {\n"
	"\t\tif (s[0] >= end) { covered += s[1] - s[0]; end = s[1]; }\n"
	"\t\telse if (s[1] > end) { covered += s[1] - end; end = s[1]; }\n"
	"\t});\n"
	"\tvar pct = re ? 100 * covered / fg.root.w : 0;\n"
	"\tfg.searching = re !== null;\n"
	"\tdocument.getElementById('search').textContent = re ? 'Reset Search' : 'Search';\n"
	"\tdocument.getElementById('matched').textContent = re ? 'Matched: ' + pct.toFixed(2) + '%' : ' ';\n"
	"\treturn pct;\n"
	"}\n"
	"]]></script>\n";

/* the SVG up to the script: declaration, description, gradient, style */
static void fg_head(struct flame *fl)
{
	struct csv *cp = fl->c;

	csv__printf(cp,
		"<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" onload=\"fg_init()\">\n"
		"<desc>Flame graph written by readperf: one rectangle per frame, width proportional to the period; "
		"hover for it and the share, click to zoom, Search (Ctrl-F) to highlight</desc>\n"
		"<defs>\n<linearGradient id=\"background\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">\n"
		"<stop stop-color=\"#eeeeee\" offset=\"5%%\"/>\n<stop stop-color=\"#eeeeb0\" offset=\"95%%\"/>\n"
		"</linearGradient>\n</defs>\n"
		"<style type=\"text/css\">\n"
		"text { font-family: Verdana, sans-serif; font-size: %upx; fill: rgb(0,0,0); }\n"
		".title { font-size: 17px; text-anchor: middle; }\n"
		".subtitle { text-anchor: middle; fill: rgb(110,110,110); }\n"
		".button { cursor: pointer; }\n"
		".hidden { display: none; }\n"
		".parent { opacity: 0.5; }\n"
		"#frames > g { cursor: pointer; }\n"
		"#frames > g:hover > rect { stroke: black; stroke-width: 0.5; }\n"
		"</style>\n",
		FG_WIDTH, fl->height, FG_WIDTH, fl->height, FG_FONT);
}

/* the flame graph of fd (released here) into path */
int flame__write_svg(struct folded *fdp, const char *path, int offcpu, unsigned min_cpx)
{
	struct folded fd = *fdp;
	struct flame fl;
	struct fg_open *open = NULL;
	size_t i, depth = 1;
	struct csv c;
	int err;
	/* nothing to draw: no sample, or a differential graph's NEW side has none (its widths are NEW's) */
	const int empty = !fd.event || !fd.total;

	for (i = 0; i < fd.nr; i++)
		if (fd.v[i].nr > depth)
			depth = fd.v[i].nr;
	open = calloc(depth, sizeof(*open));
	if (!open) {
		folded__release(&fd);
		return -ENOMEM;
	}
	err = csv__open_path(&c, path);
	if (err)
		goto out;
	memset(&fl, 0, sizeof(fl));
	fl.c = &c;
	fl.total = fd.total;
	fl.min_cpx = min_cpx;
	fl.offcpu = offcpu == 1;
	fl.diff = offcpu == FLAME_DIFF;
	/*
	 * as tall as the frames drawn, as flamegraph.pl (its depthmax after
	 * --minwidth): a narrow deep stack must not leave the page blank above
	 * the graph; an empty graph keeps its one row
	 */
	fl.depth = empty ? 1 : 0;
	if (!empty) {
		fl.measure = 1;
		fg_flow(&fl, &fd, open);
		fl.measure = 0;
	}
	fl.height = FG_TOP + (unsigned)(fl.depth + 1) * FG_FRAME + FG_BOTTOM;
	fg_head(&fl);
	csv__puts(&c, fg_script);
	csv__puts(&c, fl.diff ? FG_DIFF_TITLE_TAIL : FG_TITLE_TAIL);
	csv__puts(&c, fg_script_tail);
	csv__printf(&c,
		"<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" fill=\"url(#background)\"/>\n"
		"<text class=\"title\" x=\"%u\" y=\"24\">%s</text>\n"
		"<text id=\"reset\" class=\"hidden\" x=\"%u\" y=\"24\">Reset Zoom</text>\n"
		"<text id=\"search\" class=\"button\" x=\"%u\" y=\"24\" text-anchor=\"end\">Search</text>\n"
		"<text id=\"details\" x=\"%u\" y=\"%u\"> </text>\n"
		"<text id=\"matched\" x=\"%u\" y=\"%u\" text-anchor=\"end\"> </text>\n",
		FG_WIDTH, fl.height, FG_WIDTH / 2,
		fl.diff ? "Differential Flame Graph" : fl.offcpu ? "Off-CPU Flame Graph" : "Flame Graph", FG_XPAD,
		FG_WIDTH - FG_XPAD, FG_XPAD, fl.height - 17,
		FG_WIDTH - FG_XPAD, fl.height - 17);
	if (empty && fd.event && fl.diff) {
		csv__printf(&c, "<text class=\"subtitle\" x=\"%u\" y=\"44\">no samples in NEW (OLD period %" PRIu64
			")</text>\n<g id=\"frames\">\n", FG_WIDTH / 2, fd.old_total);
	} else if (empty) {
		csv__printf(&c, "<text class=\"subtitle\" x=\"%u\" y=\"44\">%s</text>\n<g id=\"frames\">\n",
			FG_WIDTH / 2, fl.offcpu ? "no time off the CPU (no context-switch data)" : "no samples");
	} else {
		csv__printf(&c, "<text class=\"subtitle\" x=\"%u\" y=\"44\">", FG_WIDTH / 2);
		if (fl.offcpu) {
			csv__printf(&c, "time off the CPU: %" PRIu64 " interval%s, %" PRIu64 " ns", fd.nr_samples,
				fd.nr_samples == 1 ? "" : "s", fd.total);
		} else {
			csv__xml(&c, fd.event, strlen(fd.event), SIZE_MAX);
			if (fl.diff)
				csv__printf(&c, ": NEW period %" PRIu64 ", OLD period %" PRIu64 "; red grew, blue shrank",
					fd.total, fd.old_total);
			else
				csv__printf(&c, ": %" PRIu64 " sample%s, period %" PRIu64, fd.nr_samples,
					fd.nr_samples == 1 ? "" : "s", fd.total);
		}
		csv__puts(&c, "</text>\n<g id=\"frames\">\n");
		fg_flow(&fl, &fd, open);
	}
	csv__puts(&c, "</g>\n</svg>\n");
	err = csv__commit(&c);
out:
	free(open);
	folded__release(&fd);
	return err;
}

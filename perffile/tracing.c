/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * TRACING_DATA: the tracepoint formats (see tracing.h).  Every length is
 * checked against the bytes left; a format text that does not parse is
 * skipped, a section that ends early keeps what came before.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perffile/tracing.h"

struct tcur {
	const uint8_t *p;
	size_t left, size;
	int big;		/* the section's numbers are big-endian */
};

static int take(struct tcur *c, size_t n, const uint8_t **out)
{
	if (n > c->left)
		return -EINVAL;
	*out = c->p;
	c->p += n;
	c->left -= n;
	return 0;
}

static int get_num(struct tcur *c, size_t n, uint64_t *v)
{
	const uint8_t *b;
	size_t i;

	if (take(c, n, &b))
		return -EINVAL;
	*v = 0;
	for (i = 0; i < n; i++)
		*v = *v << 8 | b[c->big ? i : n - 1 - i];
	return 0;
}

/* a NUL-terminated string at the cursor */
static int get_str(struct tcur *c, const char **s)
{
	const uint8_t *nul = memchr(c->p, '\0', c->left);
	const uint8_t *b;

	if (!nul)
		return -EINVAL;
	*s = (const char *)c->p;
	return take(c, (size_t)(nul - c->p) + 1, &b);
}

/* a block with an 8-byte (or 4-byte) length */
static int skip_block(struct tcur *c, size_t len_size)
{
	const uint8_t *b;
	uint64_t n;

	if (get_num(c, len_size, &n) || n > c->left)
		return -EINVAL;
	return take(c, (size_t)n, &b);
}

/* the value after "key:" up to ';' or the end of the line, in [*vs, *ve) */
static int find_value(const char *line, const char *end, const char *key, const char **vs, const char **ve)
{
	size_t kl = strlen(key);
	const char *p;

	for (p = line; p + kl <= end; p++) {
		if (!memcmp(p, key, kl)) {
			*vs = p + kl;
			for (*ve = *vs; *ve < end && **ve != ';' && **ve != '\n'; (*ve)++)
				;
			return 0;
		}
	}
	return -1;
}

static int to_u64(const char *s, const char *e, uint64_t *v)
{
	*v = 0;
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	if (s == e)
		return -1;
	for (; s < e && *s >= '0' && *s <= '9'; s++) {
		if (*v > (UINT64_MAX - 9) / 10)
			return -1;
		*v = *v * 10 + (uint64_t)(*s - '0');
	}
	return 0;
}

static void format_release(struct tp_format *f)
{
	size_t i;

	for (i = 0; i < f->nr_fields; i++)
		free(f->fields[i].name);
	free(f->fields);
	free(f->system);
	free(f->name);
}

/* "field:TYPE NAME[N];	offset:O;	size:S;	signed:G;" -> fl; 1 parsed, 0 not a field line, -ENOMEM */
static int parse_field(const char *line, const char *end, struct tp_field *fl)
{
	const char *vs, *ve, *ns;
	uint64_t off, size, sgn = 0;

	if (find_value(line, end, "field:", &vs, &ve) || find_value(line, end, "offset:", &vs, &ve) ||
	    to_u64(vs, ve, &off) || find_value(line, end, "size:", &vs, &ve) || to_u64(vs, ve, &size) ||
	    off > UINT32_MAX || size > UINT32_MAX)
		return 0;
	if (!find_value(line, end, "signed:", &vs, &ve))
		to_u64(vs, ve, &sgn);
	/* the name: the last word of "field:...", before any [N] */
	find_value(line, end, "field:", &vs, &ve);
	while (ve > vs && (ve[-1] == ' ' || ve[-1] == '\t'))
		ve--;
	if (ve > vs && ve[-1] == ']') {
		while (ve > vs && *ve != '[')
			ve--;
	}
	for (ns = ve; ns > vs && ns[-1] != ' ' && ns[-1] != '\t' && ns[-1] != '*'; ns--)
		;
	if (ns == ve)
		return 0;
	fl->name = strndup(ns, (size_t)(ve - ns));
	if (!fl->name)
		return -ENOMEM;
	fl->offset = (uint32_t)off;
	fl->size = (uint32_t)size;
	fl->is_signed = sgn != 0;
	return 1;
}

/* one event's format text; 0 (also when it does not parse: nothing added), -ENOMEM */
static int parse_format(struct tp_formats *out, const char *system, const char *text, size_t n)
{
	const char *end = text + n, *line, *eol, *vs, *ve;
	struct tp_format f, *v;
	uint64_t id;
	int ret;

	memset(&f, 0, sizeof(f));
	if (find_value(text, end, "name:", &vs, &ve) || find_value(text, end, "ID:", &vs, &ve) ||
	    to_u64(vs, ve, &id))
		return 0;
	find_value(text, end, "name:", &vs, &ve);
	while (vs < ve && *vs == ' ')
		vs++;
	f.id = id;
	f.name = strndup(vs, (size_t)(ve - vs));
	f.system = strdup(system);
	if (!f.name || !f.system)
		goto nomem;
	for (line = text; line < end; line = eol + 1) {
		struct tp_field fl, *nf;

		eol = memchr(line, '\n', (size_t)(end - line));
		if (!eol)
			eol = end;
		memset(&fl, 0, sizeof(fl));
		ret = parse_field(line, eol, &fl);
		if (ret < 0)
			goto nomem;
		if (!ret)
			continue;
		nf = realloc(f.fields, (f.nr_fields + 1) * sizeof(*nf));
		if (!nf) {
			free(fl.name);
			goto nomem;
		}
		f.fields = nf;
		f.fields[f.nr_fields++] = fl;
	}
	v = realloc(out->v, (out->nr + 1) * sizeof(*v));
	if (!v)
		goto nomem;
	out->v = v;
	out->v[out->nr++] = f;
	return 0;
nomem:
	format_release(&f);
	return -ENOMEM;
}

int tp_formats__parse(struct tp_formats *out, const uint8_t *data, size_t size, size_t *bad_offset)
{
	static const uint8_t magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct tcur c = { data, size, size, 0 };
	const uint8_t *b;
	const char *s, *sys;
	uint64_t n, nsys, i, j;
	int err = -EINVAL;

	memset(out, 0, sizeof(*out));
	if (take(&c, sizeof(magic), &b) || memcmp(b, magic, sizeof(magic)) || get_str(&c, &s))
		goto bad;
	if (take(&c, 1, &b))
		goto bad;
	out->big_endian = b[0] != 0;
	c.big = out->big_endian;
	/* long size, page size */
	if (take(&c, 1, &b) || take(&c, 4, &b))
		goto bad;
	/* "header_page", "header_event": a name, an 8-byte size, the text */
	for (i = 0; i < 2; i++)
		if (get_str(&c, &s) || skip_block(&c, 8))
			goto bad;
	/* ftrace formats */
	if (get_num(&c, 4, &n))
		goto bad;
	for (i = 0; i < n; i++)
		if (skip_block(&c, 8))
			goto bad;
	/* event formats per system */
	if (get_num(&c, 4, &nsys))
		goto bad;
	for (i = 0; i < nsys; i++) {
		if (get_str(&c, &sys) || get_num(&c, 4, &n))
			goto bad;
		for (j = 0; j < n; j++) {
			uint64_t len;

			if (get_num(&c, 8, &len) || len > c.left || take(&c, (size_t)len, &b))
				goto bad;
			err = parse_format(out, sys, (const char *)b, (size_t)len);
			if (err)
				return err;
			err = -EINVAL;
		}
	}
	return 0;
bad:
	if (bad_offset)
		*bad_offset = c.size - c.left;
	return err;
}

void tp_formats__release(struct tp_formats *f)
{
	size_t i;

	for (i = 0; i < f->nr; i++)
		format_release(&f->v[i]);
	free(f->v);
	memset(f, 0, sizeof(*f));
}

const struct tp_format *tp_formats__find(const struct tp_formats *f, uint64_t id)
{
	size_t i;

	for (i = 0; f && i < f->nr; i++)
		if (f->v[i].id == id)
			return &f->v[i];
	return NULL;
}

const struct tp_field *tp_format__field(const struct tp_format *fmt, const char *name)
{
	size_t i;

	for (i = 0; fmt && i < fmt->nr_fields; i++)
		if (!strcmp(fmt->fields[i].name, name))
			return &fmt->fields[i];
	return NULL;
}

int tp_field__read(const struct tp_field *fl, const struct tp_formats *f, const void *raw,
		   uint32_t raw_size, int64_t *out)
{
	const uint8_t *b = raw;
	uint64_t v = 0;
	uint32_t i;
	int big;

	if (!fl || !raw || (fl->size != 1 && fl->size != 2 && fl->size != 4 && fl->size != 8) ||
	    fl->offset > raw_size || raw_size - fl->offset < fl->size)
		return -EINVAL;
	big = f ? f->big_endian : 0;
	for (i = 0; i < fl->size; i++)
		v = v << 8 | b[fl->offset + (big ? i : fl->size - 1 - i)];
	if (fl->is_signed && fl->size < 8 && (v >> (fl->size * 8 - 1)) & 1)
		v |= ~0ULL << (fl->size * 8);
	*out = (int64_t)v;
	return 0;
}

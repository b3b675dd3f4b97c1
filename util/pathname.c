/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Short unique names for paths (pathname.h).  Each path becomes a key of its
 * sanitised components in reverse order, separated by '\1' (below every byte
 * a component keeps, so a path sorts before the longer paths it ends).  Once
 * the keys are sorted, the paths sharing the most trailing components with a
 * path are its neighbours: one component more than it shares with either is
 * the shortest suffix that tells it apart.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/hashmap.h"
#include "util/pathname.h"

#define SEP '\1'

struct pn_item {
	char *rkey;		/* components last first, SEP between */
	size_t idx;		/* in the input */
	size_t ncomp;
};

static char clean(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '-' ? c : '_';
}

/* the base name of b[0..len) into out (room for len + 1 bytes): extensions cut, sanitised */
static void base_into(char *out, const char *b, size_t len, const char *const *exts)
{
	size_t i;

	for (; exts && *exts; exts++) {
		size_t el = strlen(*exts);

		if (len > el && !memcmp(b + len - el, *exts, el))
			len -= el;
	}
	for (i = 0; i < len; i++)
		out[i] = clean(b[i]);
	out[len] = '\0';
	if (!len || !strcmp(out, ".") || !strcmp(out, ".."))
		strcpy(out, "profile");
}

char *pathname__base(const char *path, const char *const *exts)
{
	const char *b = strrchr(path, '/');
	size_t len;
	char *name;

	b = b ? b + 1 : path;
	len = strlen(b);
	name = malloc(len + sizeof("profile"));
	if (name)
		base_into(name, b, len, exts);
	return name;
}

/* a path's reverse key: the base, then the directories from the nearest; "" and "." skipped */
static int make_key(struct pn_item *it, const char *path, const char *const *exts)
{
	size_t len = strlen(path), end = len, o;
	char *k = malloc(len + sizeof("profile") + 1);

	if (!k)
		return -ENOMEM;
	while (end && path[end - 1] == '/')
		end--;
	o = end;
	while (o && path[o - 1] != '/')
		o--;
	base_into(k, path + o, end - o, exts);
	it->ncomp = 1;
	len = strlen(k);
	while (o) {
		size_t s;

		end = o - 1;	/* the '/' */
		o = end;
		while (o && path[o - 1] != '/')
			o--;
		if (end == o || (end - o == 1 && path[o] == '.'))
			continue;
		k[len++] = SEP;
		for (s = o; s < end; s++)
			k[len++] = clean(path[s]);
		it->ncomp++;
	}
	k[len] = '\0';
	it->rkey = k;
	return 0;
}

static int cmp_items(const void *a, const void *b)
{
	const struct pn_item *x = a, *y = b;
	int c = strcmp(x->rkey, y->rkey);

	return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

/* the number of trailing components two keys share */
static size_t shared(const char *a, const char *b)
{
	size_t n = 0;

	for (; *a && *a == *b; a++, b++)
		n += *a == SEP;
	return n + ((*a == SEP || !*a) && (*b == SEP || !*b));
}

/* the first depth components of a reverse key, in path order, joined by '-', cut to PATHNAME_MAX */
static char *suffix_name(const char *rkey, size_t depth)
{
	const char *start[64], *p = rkey;
	size_t lens[64], d = 0, i, len = 0;
	char *name;

	if (depth > 64)
		depth = 64;	/* beyond the length anyway: 64 components and separators */
	while (d < depth) {
		const char *e = strchr(p, SEP);

		start[d] = p;
		lens[d] = e ? (size_t)(e - p) : strlen(p);
		d++;
		if (!e)
			break;
		p = e + 1;
	}
	name = malloc(PATHNAME_MAX + 1);
	if (!name)
		return NULL;
	for (i = d; i-- > 0 && len < PATHNAME_MAX;) {
		size_t l = lens[i] < PATHNAME_MAX - len ? lens[i] : PATHNAME_MAX - len;

		memcpy(name + len, start[i], l);
		len += l;
		if (i && len < PATHNAME_MAX)
			name[len++] = '-';
	}
	name[len] = '\0';
	return name;
}

/* names that another path took first get a number: NAME-2, NAME-3... unused by every other name */
static int number_names(char **names, size_t n, const char *const *reserved, unsigned char *numbered,
			int (*stop)(void))
{
	struct hashmap taken, next;
	size_t i;
	int err = 0;

	hashmap__init(&taken);
	hashmap__init(&next);
	for (i = 0; reserved && reserved[i] && !err; i++) {
		void **slot;

		err = hashmap__insert(&taken, reserved[i], strlen(reserved[i]), &slot);
		err = err < 0 ? err : 0;
	}
	for (i = 0; i < n && !err; i++) {
		void **slot;
		int r = hashmap__insert(&taken, names[i], strlen(names[i]), &slot);

		if (r < 0)
			err = r;
		numbered[i] = r == 0;
	}
	for (i = 0; i < n && !err; i++) {
		char cand[PATHNAME_MAX + 1], num[24];
		uintptr_t k;
		void **ks, **slot;
		int r = 0;

		if (!numbered[i])
			continue;
		if (stop && !(i & 1023) && stop()) {
			err = -EINTR;
			break;
		}
		err = hashmap__insert(&next, names[i], strlen(names[i]), &ks);
		if (err < 0)
			break;
		err = 0;
		for (k = *ks ? (uintptr_t)*ks : 2; r == 0; k++) {
			size_t nl = (size_t)snprintf(num, sizeof(num), "-%ju", (uintmax_t)k);
			size_t sl = strlen(names[i]);

			if (sl > PATHNAME_MAX - nl)
				sl = PATHNAME_MAX - nl;
			memcpy(cand, names[i], sl);
			memcpy(cand + sl, num, nl + 1);
			r = hashmap__insert(&taken, cand, strlen(cand), &slot);
		}
		*ks = (void *)k;
		if (r < 0 || !(names[i] = realloc(names[i], strlen(cand) + 1)))
			err = r < 0 ? r : -ENOMEM;
		else
			strcpy(names[i], cand);
	}
	hashmap__release(&taken, NULL);
	hashmap__release(&next, NULL);
	return err;
}

int pathname__unique(const char *const *paths, size_t n, const char *const *exts, const char *const *reserved,
		     char **names, unsigned char *numbered, int (*stop)(void))
{
	struct pn_item *items = calloc(n ? n : 1, sizeof(*items));
	size_t i, j;
	int err = items ? 0 : -ENOMEM;

	for (i = 0; i < n; i++)
		names[i] = NULL;
	for (i = 0; i < n && !err; i++) {
		items[i].idx = i;
		err = make_key(&items[i], paths[i], exts);
		if (!err && stop && !(i & 4095) && stop())
			err = -EINTR;
	}
	if (!err)
		qsort(items, n, sizeof(*items), cmp_items);
	/* a run of equal keys (the same path) is told apart from its neighbours, then numbered */
	for (i = 0; i < n && !err; i = j) {
		size_t lcp = 0, s;

		for (j = i + 1; j < n && !strcmp(items[j].rkey, items[i].rkey); j++)
			;
		if (i > 0)
			lcp = shared(items[i - 1].rkey, items[i].rkey);
		if (j < n && (s = shared(items[j - 1].rkey, items[j].rkey)) > lcp)
			lcp = s;
		for (s = i; s < j && !err; s++) {
			names[items[s].idx] = s == i ? suffix_name(items[i].rkey, lcp + 1 < items[i].ncomp ?
								   lcp + 1 : items[i].ncomp) :
				strdup(names[items[i].idx]);
			if (!names[items[s].idx])
				err = -ENOMEM;
		}
		if (!err && stop && stop())
			err = -EINTR;
	}
	for (i = 0; items && i < n; i++)
		free(items[i].rkey);
	free(items);
	if (!err)
		err = number_names(names, n, reserved, numbered, stop);
	for (i = 0; err && i < n; i++) {
		free(names[i]);
		names[i] = NULL;
	}
	return err;
}

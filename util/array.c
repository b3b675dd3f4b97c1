/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Growable array: doubling growth, overflow-checked sizes. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"

void array__init(struct array *a, size_t elem)
{
	a->data = NULL;
	a->len = 0;
	a->cap = 0;
	a->elem = elem;
}

void array__release(struct array *a)
{
	free(a->data);
	array__init(a, a->elem);
}

int array__reserve(struct array *a, size_t n)
{
	size_t want, cap;
	void *p;

	if (n > SIZE_MAX - a->len)
		return -ENOMEM;
	want = a->len + n;
	if (want <= a->cap)
		return 0;
	cap = a->cap ? a->cap : 8;
	while (cap < want) {
		if (cap > SIZE_MAX / 2)
			return -ENOMEM;
		cap *= 2;
	}
	if (a->elem && cap > SIZE_MAX / a->elem)
		return -ENOMEM;
	p = realloc(a->data, cap * a->elem);
	if (!p)
		return -ENOMEM;
	a->data = p;
	a->cap = cap;
	return 0;
}

void *array__push(struct array *a)
{
	void *p;

	if (array__reserve(a, 1))
		return NULL;
	p = (char *)a->data + a->len * a->elem;
	memset(p, 0, a->elem);
	a->len++;
	return p;
}

int array__append(struct array *a, const void *src, size_t n)
{
	int err;

	if (!n)
		return 0;
	err = array__reserve(a, n);
	if (err)
		return err;
	memcpy((char *)a->data + a->len * a->elem, src, n * a->elem);
	a->len += n;
	return 0;
}

void *array__detach(struct array *a, size_t *len)
{
	void *p = a->data;

	if (len)
		*len = a->len;
	array__init(a, a->elem);
	return p;
}

void stable_array__init(struct stable_array *a, size_t elem, unsigned shift)
{
	*a = (struct stable_array){ .elem = elem, .shift = shift };
}

void stable_array__release(struct stable_array *a)
{
	size_t i;

	for (i = 0; i < a->nr_chunks; i++)
		free(a->chunks[i]);
	free(a->chunks);
	stable_array__init(a, a->elem, a->shift);
}

void *stable_array__push(struct stable_array *a)
{
	size_t per = (size_t)1 << a->shift, i = a->len & (per - 1);
	unsigned char *c;

	if (a->len >> a->shift == a->nr_chunks) {
		unsigned char **nc;

		/* the chunk table grows a chunk at a time: it is small beside them */
		if (a->elem > SIZE_MAX / per || a->nr_chunks >= SIZE_MAX / sizeof(*nc) - 1)
			return NULL;
		nc = realloc(a->chunks, (a->nr_chunks + 1) * sizeof(*nc));
		if (!nc)
			return NULL;
		a->chunks = nc;
		c = calloc(per, a->elem);
		if (!c)
			return NULL;
		a->chunks[a->nr_chunks++] = c;
	}
	c = a->chunks[a->len >> a->shift] + i * a->elem;
	a->len++;
	return c;
}

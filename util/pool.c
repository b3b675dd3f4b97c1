/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The bump allocator of util/pool.h. */
#include <stdlib.h>
#include <string.h>

#include "util/pool.h"

struct pool_chunk {
	struct pool_chunk *next;
	size_t cap, used;
	unsigned char data[];
};

#define POOL_CHUNK (64u * 1024)
#define POOL_FIRST 256u		/* chunks double from here to POOL_CHUNK: a pool for a few bytes stays small */

void *pool__alloc(struct pool *p, size_t size)
{
	struct pool_chunk *c = p->head;
	void *r;

	size = (size + 15) & ~(size_t)15;
	if (!c || c->used + size > c->cap) {
		size_t cap = c && c->cap < POOL_CHUNK ? c->cap * 2 : c ? POOL_CHUNK : POOL_FIRST;

		if (cap < size)
			cap = size;
		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->cap = cap;
		c->used = 0;
		c->next = p->head;
		p->head = c;
	}
	r = c->data + c->used;
	c->used += size;
	memset(r, 0, size);
	return r;
}

char *pool__strdup(struct pool *p, const char *s)
{
	size_t n = strlen(s) + 1;
	char *r = pool__alloc(p, n);

	if (r)
		memcpy(r, s, n);
	return r;
}

void pool__release(struct pool *p)
{
	struct pool_chunk *c = p->head, *next;

	for (; c; c = next) {
		next = c->next;
		free(c);
	}
	p->head = NULL;
}

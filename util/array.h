/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A growable array of fixed-size elements.
 *
 * Invariants: len <= cap; data holds cap elements of elem bytes (NULL when
 * cap == 0).  Pointers into data are invalidated by any call that grows the
 * array.  Every size computation is overflow-checked: growing past SIZE_MAX
 * bytes fails with -ENOMEM instead of wrapping.
 */
#ifndef UTIL_ARRAY_H
#define UTIL_ARRAY_H

#include <stddef.h>

struct array {
	void *data;
	size_t len;
	size_t cap;
	size_t elem;
};

#define ARRAY_INIT(type) { NULL, 0, 0, sizeof(type) }
#define ARRAY_AT(a, type, i) (((type *)(a)->data)[i])

void array__init(struct array *a, size_t elem);
void array__release(struct array *a);
/* make room for n more elements; 0 or -ENOMEM */
int array__reserve(struct array *a, size_t n);
/* append one zeroed element and return it, or NULL when out of memory */
void *array__push(struct array *a);
/* append n elements copied from src; 0 or -ENOMEM */
int array__append(struct array *a, const void *src, size_t n);
/* hand the buffer to the caller (who frees it) and leave the array empty */
void *array__detach(struct array *a, size_t *len);

/*
 * A stable array: elements of elem bytes in chunks of 2^shift elements that
 * never move, so pointers to them last until release and element i is
 * found from its index (a million 56-byte elements take 56 MB, where one
 * allocation each and a pointer array took 72).  Elements come zeroed.
 */
struct stable_array {
	unsigned char **chunks;
	size_t nr_chunks;	/* allocated, each 2^shift elements */
	size_t len;
	size_t elem;
	unsigned shift;
};

void stable_array__init(struct stable_array *a, size_t elem, unsigned shift);
void stable_array__release(struct stable_array *a);
/* append one zeroed element and return it, or NULL when out of memory */
void *stable_array__push(struct stable_array *a);

/* element i < len */
static inline void *stable_array__at(const struct stable_array *a, size_t i)
{
	return a->chunks[i >> a->shift] + (i & (((size_t)1 << a->shift) - 1)) * a->elem;
}

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A bump allocator for what lives as long as its owner: blocks of 256 bytes
 * doubling up to 64 KiB (larger requests get a block of their own), 16-byte
 * aligned, zeroed,
 * freed all at once by pool__release.  Zero-initialise a struct pool.
 */
#ifndef UTIL_POOL_H
#define UTIL_POOL_H

#include <stddef.h>

struct pool {
	struct pool_chunk *head;
};

void *pool__alloc(struct pool *p, size_t size);	/* zeroed; NULL on ENOMEM */
char *pool__strdup(struct pool *p, const char *s);
void pool__release(struct pool *p);

#endif

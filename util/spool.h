/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A spool: what one thread appends, a thread of the spool's own consumes,
 * in the order appended, while the first goes on.  The bytes go in blocks
 * of SPOOL_BLOCK; a full block is handed over and an empty one taken (the
 * SPOOL_BLOCKS of them allocated at the start: the appending thread waits
 * for the consumer when none is empty, so memory stays bounded).  One thread appends; the consumer
 * callback runs in the spool's thread only, and until spool__drain() or
 * spool__delete() returns nothing else may touch what it uses.
 */
#ifndef UTIL_SPOOL_H
#define UTIL_SPOOL_H

#include <stddef.h>

#define SPOOL_BLOCK ((size_t)1 << 20)
#define SPOOL_BLOCKS 4

/* the bytes of one block, in the order they were appended: as many as spool__alloc gave out */
typedef void (*spool_consume_fn)(void *ctx, const unsigned char *data, size_t len);

struct spool;

/* the blocks and the consumer thread; 0, -ENOMEM or the error of pthread_create */
int spool__new(struct spool **out, spool_consume_fn consume, void *ctx);

/*
 * n bytes to fill, 8-byte aligned, consumed after the ones given out before
 * (n is rounded up to 8: the consumer sees the rounded size); NULL when n is
 * over SPOOL_BLOCK.  The bytes are the caller's until the next
 * spool__alloc, spool__drain or spool__delete.
 */
void *spool__alloc(struct spool *s, size_t n);

/* return when every byte appended so far was consumed (the consumer is idle) */
void spool__drain(struct spool *s);

/* drain, stop the thread and free; NULL is a no-op */
void spool__delete(struct spool *s);

#endif

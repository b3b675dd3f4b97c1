/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The spool (see spool.h): blocks go from the appending thread to the
 * consumer through a list under one mutex, and come back through another;
 * the block being filled is the appender's alone.  A hand-over per MiB
 * keeps the lock and the wake-ups rare (overview.csv of a 437k-sample
 * recording, 40 MB of text from ~35 MB of rows: ~35 of them; with 256 KiB
 * blocks ~140, each waking the consumer into the analysis thread's CPU).
 */
#include "util/spool.h"
#include "util/stream.h"
#include "util/thread.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

struct spool_block {
	struct spool_block *next;
	size_t used;
	_Alignas(8) unsigned char data[];
};

struct spool {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t work;		/* a block was handed over, or quit */
	pthread_cond_t room;		/* the consumer is through a block */
	spool_consume_fn consume;
	void *ctx;
	struct spool_block *cur;	/* the appender's: being filled */
	/* under mu */
	struct spool_block *full, **full_tail;	/* handed over, in order */
	struct spool_block *free_blocks;
	int busy;			/* the consumer is in a block */
	int quit;
};

static void *consumer_main(void *arg)
{
	struct spool *s = arg;
	struct spool_block *b;

	thread__give_way("readperf-write");
	pthread_mutex_lock(&s->mu);
	for (;;) {
		while (!s->full && !s->quit)
			pthread_cond_wait(&s->work, &s->mu);
		b = s->full;
		if (!b)
			break;
		s->full = b->next;
		if (!s->full)
			s->full_tail = &s->full;
		s->busy = 1;
		pthread_mutex_unlock(&s->mu);
		s->consume(s->ctx, b->data, b->used);
		pthread_mutex_lock(&s->mu);
		b->used = 0;
		b->next = s->free_blocks;
		s->free_blocks = b;
		s->busy = 0;
		pthread_cond_broadcast(&s->room);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

static void free_blocks(struct spool_block *b)
{
	struct spool_block *next;

	for (; b; b = next) {
		next = b->next;
		free(b);
	}
}

int spool__new(struct spool **out, spool_consume_fn consume, void *ctx)
{
	struct spool *s = calloc(1, sizeof(*s));
	struct spool_block *b;
	int err, i;

	*out = NULL;
	if (!s)
		return -ENOMEM;
	/* every block now: as many allocations whatever the threads' timing (tests/cli/test-oom.sh counts them) */
	for (i = 0; i < SPOOL_BLOCKS; i++) {
		b = malloc(sizeof(*b) + SPOOL_BLOCK);
		if (!b) {
			free_blocks(s->free_blocks);
			free(s);
			return -ENOMEM;
		}
		b->used = 0;
		b->next = s->free_blocks;
		s->free_blocks = b;
	}
	s->consume = consume;
	s->ctx = ctx;
	s->full_tail = &s->full;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->work, NULL);
	pthread_cond_init(&s->room, NULL);
	err = pthread_create(&s->thread, NULL, consumer_main, s);
	if (err) {
		pthread_cond_destroy(&s->room);
		pthread_cond_destroy(&s->work);
		pthread_mutex_destroy(&s->mu);
		free_blocks(s->free_blocks);
		free(s);
		return -err;
	}
	*out = s;
	return 0;
}

/* the block being filled to the consumer, when it holds anything */
static void hand_over(struct spool *s)
{
	struct spool_block *b = s->cur;

	if (!b || !b->used)
		return;
	s->cur = NULL;
	b->next = NULL;
	stream__fence();	/* what the appender streamed into the block, in memory first */
	pthread_mutex_lock(&s->mu);
	*s->full_tail = b;
	s->full_tail = &b->next;
	pthread_cond_signal(&s->work);
	pthread_mutex_unlock(&s->mu);
}

/* an empty block, once the consumer is through one if need be */
static struct spool_block *take_block(struct spool *s)
{
	struct spool_block *b;

	pthread_mutex_lock(&s->mu);
	while (!s->free_blocks)
		pthread_cond_wait(&s->room, &s->mu);
	b = s->free_blocks;
	s->free_blocks = b->next;
	pthread_mutex_unlock(&s->mu);
	return b;
}

void *spool__alloc(struct spool *s, size_t n)
{
	void *p;

	if (n > SPOOL_BLOCK)
		return NULL;
	n = (n + 7) & ~(size_t)7;
	if (s->cur && s->cur->used + n > SPOOL_BLOCK)
		hand_over(s);
	if (!s->cur)
		s->cur = take_block(s);
	p = s->cur->data + s->cur->used;
	s->cur->used += n;
	return p;
}

void spool__drain(struct spool *s)
{
	hand_over(s);
	pthread_mutex_lock(&s->mu);
	while (s->full || s->busy)
		pthread_cond_wait(&s->room, &s->mu);
	pthread_mutex_unlock(&s->mu);
}

void spool__delete(struct spool *s)
{
	if (!s)
		return;
	spool__drain(s);
	pthread_mutex_lock(&s->mu);
	s->quit = 1;
	pthread_cond_signal(&s->work);
	pthread_mutex_unlock(&s->mu);
	pthread_join(s->thread, NULL);
	free(s->cur);
	free_blocks(s->free_blocks);
	pthread_cond_destroy(&s->room);
	pthread_cond_destroy(&s->work);
	pthread_mutex_destroy(&s->mu);
	free(s);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A hash map from byte-string keys to void * values (open addressing,
 * linear probing, power-of-two table, load factor <= 1/2).
 *
 * The map copies keys on insert and owns the copies; values are the caller's.
 * Lookups never allocate.  The hash has no random seed, so the same inserts in
 * the same order give the same iteration order (reports must be
 * deterministic; still, sort before printing).
 *
 * Slot pointers returned by find/insert stay valid until the next insert.
 */
#ifndef UTIL_HASHMAP_H
#define UTIL_HASHMAP_H

#include <stddef.h>
#include <stdint.h>

#include "util/pool.h"

struct hashmap_entry {
	void *key;		/* NULL: empty slot */
	void *value;
	uint32_t hash;		/* hash_bytes' low 32 bits: the slot index and a quick compare */
	uint32_t keylen;	/* keys are shorter than 4 GiB (insert refuses longer ones) */
};

struct hashmap {
	struct hashmap_entry *slots;
	size_t cap;		/* 0 or a power of two */
	size_t len;
	struct pool keys;	/* the key copies (16 bytes for a short key; malloc took 32) */
};

void hashmap__init(struct hashmap *m);
/* free_value (may be NULL) is called on every value */
void hashmap__release(struct hashmap *m, void (*free_value)(void *value));

/* the value slot for key, or NULL when absent */
void **hashmap__find(const struct hashmap *m, const void *key, size_t keylen);
/*
 * Find or add key.  *slot points at the value (NULL for a new key).
 * Returns 1 when the key was added, 0 when it existed, -ENOMEM (also for a
 * key of 4 GiB or more).
 */
int hashmap__insert(struct hashmap *m, const void *key, size_t keylen, void ***slot);

/* iterate: size_t it = 0; while ((e = hashmap__next(m, &it))) ... */
struct hashmap_entry *hashmap__next(const struct hashmap *m, size_t *it);

/*
 * A direct-mapped cache of two-word keys in front of a map whose values do
 * not move (pool-allocated): a hit skips hashing and probing.  Zeroed memory
 * is an empty cache.  hashfront__slot() gives the one entry key (k0, k1) may
 * sit in; it holds the key when entry->value is non-NULL and the words match.
 */
#define HASHFRONT_BITS 12
struct hashfront_entry {
	uint64_t k0, k1;
	void *value;
};
struct hashfront {
	struct hashfront_entry e[1 << HASHFRONT_BITS];
};

static inline struct hashfront_entry *hashfront__slot(struct hashfront *f, uint64_t k0, uint64_t k1)
{
	uint64_t h = (k0 ^ (k1 * 0xff51afd7ed558ccdULL)) * 0x9e3779b97f4a7c15ULL;

	return &f->e[h >> (64 - HASHFRONT_BITS)];
}

static inline void *hashfront__get(const struct hashfront_entry *e, uint64_t k0, uint64_t k1)
{
	return e->value && e->k0 == k0 && e->k1 == k1 ? e->value : NULL;
}

static inline void hashfront__set(struct hashfront_entry *e, uint64_t k0, uint64_t k1, void *value)
{
	e->k0 = k0;
	e->k1 = k1;
	e->value = value;
}

/* the hash function, exported for callers that shard or pre-hash */
uint64_t hash_bytes(const void *key, size_t len);

/*
 * A map from uint32_t keys to non-NULL void * values, for pids and tids:
 * 16 bytes a slot and no key copies (the byte-string map above takes 24 and
 * a malloc'd key each).  Open addressing, linear probing, power-of-two
 * table, load factor <= 1/2.  Zero-initialise or u32map__init.
 */
struct u32map_slot {
	uint32_t key;
	void *value;		/* NULL: empty slot */
};

struct u32map {
	struct u32map_slot *slots;
	size_t cap;		/* 0 or a power of two */
	size_t len;
};

void u32map__init(struct u32map *m);
void u32map__release(struct u32map *m);
/* the value slot for key, or NULL when absent */
void **u32map__find(const struct u32map *m, uint32_t key);
/*
 * Find or add key.  *slot points at the value (NULL for a new key: the caller
 * stores a non-NULL value before the next insert).  1 added, 0 found, -ENOMEM.
 */
int u32map__insert(struct u32map *m, uint32_t key, void ***slot);

#endif

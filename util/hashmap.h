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
 * A map from uint32_t keys (pids, tids) to the indexes of the caller's
 * elements, each of which holds its own key: a slot is 4 bytes, the index
 * + 1 (0: empty), and a probe asks key_of(ctx, index) for the key of the
 * element it meets.  A million threads take 8 MB of slots (with the key and
 * a pointer in each, 32 MB).  Open addressing, linear probing, power-of-two
 * table, load factor <= 1/2.  Indexes are below UINT32_MAX.
 */
typedef uint32_t (*u32map_key_fn)(const void *ctx, uint32_t index);

struct u32map {
	uint32_t *slots;
	size_t cap;		/* 0 or a power of two */
	size_t len;
	u32map_key_fn key_of;
	const void *ctx;
};

void u32map__init(struct u32map *m, u32map_key_fn key_of, const void *ctx);
void u32map__release(struct u32map *m);
/* the slot of key (holding its index + 1), or NULL when absent */
uint32_t *u32map__find(const struct u32map *m, uint32_t key);
/*
 * Find or add key.  *slot holds the index + 1 (0 for a new key: the caller
 * stores one before the next insert, and the element's key is key by then).
 * 1 added, 0 found, -ENOMEM.
 */
int u32map__insert(struct u32map *m, uint32_t key, uint32_t **slot);

/*
 * A set of interned NUL-terminated strings: each distinct string is copied
 * once, and every intern of an equal string returns that copy (compare
 * interned strings by pointer).  8 bytes a slot (the pointer: a probe
 * compares the copy) and the copies packed end to end in 64 KiB chunks:
 * a million 8-character comms take 25 MB, where the map above took 64 MB.
 * Open addressing, linear probing, power-of-two table, load factor <= 1/2.
 * Zero-initialise or strset__init; copies live until strset__release.
 */
struct strset {
	const char **slots;	/* NULL: empty */
	size_t cap;		/* 0 or a power of two */
	size_t len;
	struct strset_chunk *chunks;
};

void strset__init(struct strset *s);
void strset__release(struct strset *s);
/* the copy of str (len bytes, no NUL among them), made on first sight; NULL on ENOMEM */
const char *strset__intern(struct strset *s, const char *str, size_t len);

#endif

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

/* the hash function, exported for callers that shard or pre-hash */
uint64_t hash_bytes(const void *key, size_t len);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Open-addressing hash map.  The hash is a simple 64-bit multiply-xorshift
 * over 8-byte words (no seed: output must be deterministic).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/hashmap.h"

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

uint64_t hash_bytes(const void *key, size_t len)
{
	const unsigned char *p = key;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len;
	uint64_t w;

	while (len >= 8) {
		memcpy(&w, p, 8);
		h = mix(h ^ w) + 0x9e3779b97f4a7c15ULL;
		p += 8;
		len -= 8;
	}
	if (len) {
		w = 0;
		memcpy(&w, p, len);
		h = mix(h ^ w ^ ((uint64_t)len << 56));
	}
	return mix(h);
}

void hashmap__init(struct hashmap *m)
{
	m->slots = NULL;
	m->cap = 0;
	m->len = 0;
	m->keys.head = NULL;
}

void hashmap__release(struct hashmap *m, void (*free_value)(void *value))
{
	size_t i;

	for (i = 0; free_value && i < m->cap; i++) {
		if (m->slots[i].key)
			free_value(m->slots[i].value);
	}
	free(m->slots);
	pool__release(&m->keys);
	hashmap__init(m);
}

/*
 * The slot index comes from the hash's low 32 bits, all that an entry keeps
 * (a table of 2^32 slots would take 96 GiB)
 */
static struct hashmap_entry *probe(const struct hashmap *m, uint32_t hash,
				   const void *key, size_t keylen)
{
	size_t mask = m->cap - 1, i = hash & mask;

	for (;;) {
		struct hashmap_entry *e = &m->slots[i];

		if (!e->key)
			return e;
		if (e->hash == hash && e->keylen == keylen &&
		    !memcmp(e->key, key, keylen))
			return e;
		i = (i + 1) & mask;
	}
}

void **hashmap__find(const struct hashmap *m, const void *key, size_t keylen)
{
	struct hashmap_entry *e;

	if (!m->cap || keylen > UINT32_MAX)
		return NULL;
	e = probe(m, (uint32_t)hash_bytes(key, keylen), key, keylen);
	return e->key ? &e->value : NULL;
}

static int grow(struct hashmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 16, i;
	struct hashmap_entry *old = m->slots, *slots;
	struct hashmap old_map = *m;

	if (cap > SIZE_MAX / 2 / sizeof(*slots))
		return -ENOMEM;
	slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	m->slots = slots;
	m->cap = cap;
	for (i = 0; i < old_map.cap; i++) {
		if (old[i].key)
			*probe(m, old[i].hash, old[i].key, old[i].keylen) = old[i];
	}
	free(old);
	return 0;
}

int hashmap__insert(struct hashmap *m, const void *key, size_t keylen, void ***slot)
{
	struct hashmap_entry *e;
	uint32_t hash;
	void *copy;

	if (keylen > UINT32_MAX)
		return -ENOMEM;
	hash = (uint32_t)hash_bytes(key, keylen);
	if (m->cap) {
		e = probe(m, hash, key, keylen);
		if (e->key) {
			*slot = &e->value;
			return 0;
		}
	}
	if ((m->len + 1) * 2 > m->cap) {
		int err = grow(m);

		if (err)
			return err;
	}
	copy = pool__alloc(&m->keys, keylen ? keylen : 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, key, keylen);
	e = probe(m, hash, key, keylen);
	e->hash = hash;
	e->key = copy;
	e->keylen = (uint32_t)keylen;
	e->value = NULL;
	m->len++;
	*slot = &e->value;
	return 1;
}

struct hashmap_entry *hashmap__next(const struct hashmap *m, size_t *it)
{
	while (*it < m->cap) {
		struct hashmap_entry *e = &m->slots[(*it)++];

		if (e->key)
			return e;
	}
	return NULL;
}

/* ------------------------------------------------------------ u32map */

void u32map__init(struct u32map *m)
{
	m->slots = NULL;
	m->cap = 0;
	m->len = 0;
}

void u32map__release(struct u32map *m)
{
	free(m->slots);
	u32map__init(m);
}

/* the slot holding key, or the empty slot where it would go (cap > 0) */
static struct u32map_slot *u32_probe(const struct u32map *m, uint32_t key)
{
	size_t mask = m->cap - 1;
	size_t i = (size_t)(mix(key) & mask);

	for (;;) {
		struct u32map_slot *s = &m->slots[i];

		if (!s->value || s->key == key)
			return s;
		i = (i + 1) & mask;
	}
}

void **u32map__find(const struct u32map *m, uint32_t key)
{
	struct u32map_slot *s;

	if (!m->cap)
		return NULL;
	s = u32_probe(m, key);
	return s->value ? &s->value : NULL;
}

static int u32_grow(struct u32map *m)
{
	struct u32map old = *m;
	size_t cap = m->cap ? m->cap * 2 : 16, i;

	if (cap > SIZE_MAX / 2 / sizeof(*m->slots))
		return -ENOMEM;
	m->slots = calloc(cap, sizeof(*m->slots));
	if (!m->slots) {
		*m = old;
		return -ENOMEM;
	}
	m->cap = cap;
	for (i = 0; i < old.cap; i++) {
		if (old.slots[i].value)
			*u32_probe(m, old.slots[i].key) = old.slots[i];
	}
	free(old.slots);
	return 0;
}

int u32map__insert(struct u32map *m, uint32_t key, void ***slot)
{
	struct u32map_slot *s;

	if (m->cap) {
		s = u32_probe(m, key);
		if (s->value) {
			*slot = &s->value;
			return 0;
		}
	}
	if ((m->len + 1) * 2 > m->cap) {
		int err = u32_grow(m);

		if (err)
			return err;
	}
	s = u32_probe(m, key);
	s->key = key;
	m->len++;
	*slot = &s->value;
	return 1;
}

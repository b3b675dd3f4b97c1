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

/* a zeroed table of twice cap slots (16 at first), its size in *ncap; NULL on ENOMEM (*ncap kept) */
static void *new_table(size_t cap, size_t slot_size, size_t *ncap)
{
	size_t n = cap ? cap * 2 : 16;
	void *t;

	if (n > SIZE_MAX / 2 / slot_size)
		return NULL;
	t = calloc(n, slot_size);
	if (t)
		*ncap = n;
	return t;
}

static int grow(struct hashmap *m)
{
	struct hashmap_entry *old = m->slots, *slots;
	struct hashmap old_map = *m;
	size_t i;

	slots = new_table(m->cap, sizeof(*slots), &m->cap);
	if (!slots)
		return -ENOMEM;
	m->slots = slots;
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

void u32map__init(struct u32map *m, u32map_key_fn key_of, const void *ctx)
{
	m->slots = NULL;
	m->cap = 0;
	m->len = 0;
	m->key_of = key_of;
	m->ctx = ctx;
}

void u32map__release(struct u32map *m)
{
	free(m->slots);
	u32map__init(m, m->key_of, m->ctx);
}

/* the slot holding key, or the empty slot where it would go (cap > 0) */
static uint32_t *u32_probe(const struct u32map *m, uint32_t key)
{
	size_t mask = m->cap - 1;
	size_t i = (size_t)(mix(key) & mask);

	for (;;) {
		uint32_t *s = &m->slots[i];

		if (!*s || m->key_of(m->ctx, *s - 1) == key)
			return s;
		i = (i + 1) & mask;
	}
}

uint32_t *u32map__find(const struct u32map *m, uint32_t key)
{
	uint32_t *s;

	if (!m->cap)
		return NULL;
	s = u32_probe(m, key);
	return *s ? s : NULL;
}

static int u32_grow(struct u32map *m)
{
	struct u32map old = *m;
	size_t i;

	m->slots = new_table(old.cap, sizeof(*m->slots), &m->cap);
	if (!m->slots) {
		*m = old;
		return -ENOMEM;
	}
	for (i = 0; i < old.cap; i++) {
		if (old.slots[i])
			*u32_probe(m, m->key_of(m->ctx, old.slots[i] - 1)) = old.slots[i];
	}
	free(old.slots);
	return 0;
}

int u32map__insert(struct u32map *m, uint32_t key, uint32_t **slot)
{
	uint32_t *s;

	if (m->cap) {
		s = u32_probe(m, key);
		if (*s) {
			*slot = s;
			return 0;
		}
	}
	if ((m->len + 1) * 2 > m->cap) {
		int err = u32_grow(m);

		if (err)
			return err;
	}
	s = u32_probe(m, key);
	m->len++;
	*slot = s;
	return 1;
}

/* ------------------------------------------------------------ strset */

struct strset_chunk {
	struct strset_chunk *next;
	size_t cap, used;
	char data[];
};

#define STRSET_CHUNK (64u << 10)

void strset__init(struct strset *s)
{
	s->slots = NULL;
	s->cap = 0;
	s->len = 0;
	s->chunks = NULL;
}

void strset__release(struct strset *s)
{
	struct strset_chunk *c, *next;

	for (c = s->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
	free(s->slots);
	strset__init(s);
}

/* the slot holding str, or the empty slot where it would go (cap > 0) */
static const char **str_probe(const struct strset *s, uint64_t hash, const char *str, size_t len)
{
	size_t mask = s->cap - 1, i = (size_t)(hash & mask);

	for (;;) {
		const char **e = &s->slots[i];

		if (!*e || (!memcmp(*e, str, len) && !(*e)[len]))
			return e;
		i = (i + 1) & mask;
	}
}

static int str_grow(struct strset *s)
{
	struct strset old = *s;
	size_t i;

	s->slots = new_table(old.cap, sizeof(*s->slots), &s->cap);
	if (!s->slots) {
		s->slots = old.slots;
		return -ENOMEM;
	}
	for (i = 0; i < old.cap; i++) {
		const char *e = old.slots[i];

		if (e) {
			size_t n = strlen(e);

			*str_probe(s, hash_bytes(e, n), e, n) = e;
		}
	}
	free(old.slots);
	return 0;
}

/* len + 1 bytes for a copy, from the chunk being filled or a new one; NULL on ENOMEM */
static char *str_room(struct strset *s, size_t len)
{
	struct strset_chunk *c = s->chunks;

	if (!c || c->cap - c->used < len + 1) {
		size_t cap = len + 1 > STRSET_CHUNK ? len + 1 : STRSET_CHUNK;

		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->cap = cap;
		c->used = 0;
		/* a big string's chunk goes behind the one being filled, which stays first */
		if (s->chunks && cap > STRSET_CHUNK) {
			c->next = s->chunks->next;
			s->chunks->next = c;
		} else {
			c->next = s->chunks;
			s->chunks = c;
		}
	}
	c->used += len + 1;
	return c->data + c->used - (len + 1);
}

const char *strset__intern(struct strset *s, const char *str, size_t len)
{
	uint64_t hash = hash_bytes(str, len);
	const char **e;
	char *copy;

	if (s->cap) {
		e = str_probe(s, hash, str, len);
		if (*e)
			return *e;
	}
	if ((s->len + 1) * 2 > s->cap && str_grow(s))
		return NULL;
	copy = str_room(s, len);
	if (!copy)
		return NULL;
	memcpy(copy, str, len);
	copy[len] = 0;
	e = str_probe(s, hash, str, len);
	*e = copy;
	s->len++;
	return copy;
}

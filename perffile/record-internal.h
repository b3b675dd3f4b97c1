/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the record layer's two files share: record.c (attr lookup, samples,
 * the sample_id_all trailer, the decode/swap/dump drivers and the dump's
 * printers) and rectypes.c (the table of record types with each type's own
 * functions).  Not for use outside them.
 */
#ifndef READPERF_PERFFILE_RECORD_INTERNAL_H
#define READPERF_PERFFILE_RECORD_INTERNAL_H

#include <byteswap.h>
#include <stdint.h>
#include <string.h>

#include "perffile/layout.h"
#include "perffile/record.h"

#define HDR sizeof(struct perf_event_header)

/* ------------------------------------------------ loads (any alignment) */

static inline uint64_t ld64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t ld32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint16_t ld16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* the string at p if a NUL ends it before end, else NULL */
static inline const char *str_within(const uint8_t *p, const uint8_t *end)
{
	if (p >= end || !memchr(p, 0, (size_t)(end - p)))
		return NULL;
	return (const char *)p;
}

/* ------------------------------------------------ decode errors: -EINVAL */

int rec_fail(struct perf_record *rec, const char **why, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* have: the body without the sample_id_all trailer, which need does not count either */
int rec_too_short(struct perf_record *rec, const char **why, size_t need, size_t have);
int rec_no_nul(struct perf_record *rec, const char **why, const char *field);
int rec_read_values(struct perf_record *rec, const uint8_t **pp, const uint8_t *end,
		    uint64_t fmt, struct perf_sample_read *r, const char **why);

/* ------------------------------------------------ in-place byte swapping */

/*
 * Fields are swapped only where they lie wholly inside the record; a record
 * too short for its fields is swapped as far as it goes and then rejected,
 * with a precise message, by perf_record__decode().
 */
static inline uint64_t sw64(uint8_t *p)
{
	uint64_t v = bswap_64(ld64(p));

	memcpy(p, &v, sizeof(v));
	return v;
}

static inline uint32_t sw32(uint8_t *p)
{
	uint32_t v = bswap_32(ld32(p));

	memcpy(p, &v, sizeof(v));
	return v;
}

static inline uint16_t sw16(uint8_t *p)
{
	uint16_t v = bswap_16(ld16(p));

	memcpy(p, &v, sizeof(v));
	return v;
}

/* swap the field of size bytes at off if it fits below end; the swapped value, or 0 */
static inline uint64_t swap_at(uint8_t *b, size_t end, size_t off, size_t size)
{
	if (off + size > end)
		return 0;
	switch (size) {
	case 2:
		return sw16(b + off);
	case 4:
		return sw32(b + off);
	case 8:
		return sw64(b + off);
	default:
		return b[off];
	}
}

#define SWAP_AT(b, end, T, f) swap_at(b, end, offsetof(T, f), sizeof(((T *)0)->f))

/* at most n u64 from off, stopping at end */
static inline void swap_u64s(uint8_t *b, size_t end, size_t off, uint64_t n)
{
	while (n-- && off + 8 <= end) {
		sw64(b + off);
		off += 8;
	}
}

/* ------------------------------------------------ dump printers (record.c) */

struct dump {
	struct strbuf *sb;
	int err;
};

void out(struct dump *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void out_u(struct dump *d, const char *key, uint64_t v);
void out_x(struct dump *d, const char *key, uint64_t v);
void out_str(struct dump *d, const char *key, const char *s, size_t max);
void out_bytes(struct dump *d, const char *key, const void *data, uint64_t n);
void out_u64s(struct dump *d, const char *key, const uint64_t *v, uint64_t n);
void out_read(struct dump *d, const char *key, const struct perf_sample_read *r, uint64_t fmt);

/* ------------------------------------------------ the record types (rectypes.c) */

#define REC_NO_VIEW 0xffff

/* a field at a fixed offset: decoded into the record's view, byte-swapped and dumped alike */
struct rec_field {
	uint16_t off;		/* in the record, header included */
	uint16_t size;		/* 1, 2, 4 or 8 */
	uint16_t view;		/* offset in perf_record.u, or REC_NO_VIEW: swapped only */
	const char *key;	/* dumped as " key=value" from the view; NULL: not by the table */
	char fmt;		/* 'u' decimal, 'd' signed decimal, 'x' hex */
};

/*
 * One record type.  Decoding checks min_size, stores every field that fits
 * into rec->u, then calls decode for the rest (strings, arrays, conditional
 * parts); swapping swaps every field that fits, every u64 from u64_from on
 * (when not 0), then calls swap for the rest.  Dumping prints every field
 * with a key, then calls dump for the rest.  An entry with nothing but a
 * name is a type known by name only: its body is dumped as bytes.
 */
struct rec_type {
	const char *name;
	uint16_t min_size;	/* header included, sample_id_all trailer not */
	uint16_t u64_from;
	uint16_t nr_fields;
	const struct rec_field *fields;
	int (*decode)(struct perf_record *rec, const uint8_t *b, size_t size,
		      const struct perf_evattr *ea, const char **why);
	int (*swap)(uint8_t *b, size_t end, uint16_t misc, const char **why);
	void (*dump)(struct dump *d, const struct perf_record *rec);
};

/* the entry of type, or NULL for a type not known at all */
const struct rec_type *rec_type__get(uint32_t type);

#endif

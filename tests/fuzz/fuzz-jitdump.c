/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target: decode/jitdump.c over arbitrary bytes taken for a
 * jitdump (jit-PID.dump), parsed from memory: the header, every record
 * kind in both byte orders, then each code's symbol and source line at the
 * first, middle and last address of each map (loads and moves).  Built and
 * run by `make fuzz`.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "decode/symbols.h"
#include "decode/symbols_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct symbols *s;
	struct jitdump *j;
	const struct jit_map *maps;
	struct sym_result r;
	uint64_t flags;
	size_t nr, i;

	if (symbols__new(&s, NULL))
		return 0;
	if (!jitdump__parse(s, "fuzz.dump", data, size, &j)) {
		nr = 0;
		jitdump__maps(j, &maps, &nr, &flags);
		for (i = 0; i < nr; i++) {
			const struct jit_map *m = &maps[i];

			symbols__resolve(s, m->dso, m->start, 0, m->start, &r);
			symbols__resolve(s, m->dso, m->start, 0, m->start + m->len / 2, &r);
			symbols__resolve(s, m->dso, m->start, 0, m->start + m->len - 1, &r);
		}
		jitdump__free(j);
	}
	symbols__delete(s);
	return 0;
}

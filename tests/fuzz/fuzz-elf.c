/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target: the symbol code over an arbitrary file taken for a
 * mapped ELF binary: libbfd's symbol tables, readperf's PT_LOAD, build-id
 * and debug-link walks, the PLT synthesis, source lines and inline chains
 * for a spread of addresses.  The bytes are written to a temporary file (the
 * symbol code opens binaries by path).  Built and run by `make fuzz`.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decode/symbols.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], elf[96];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct symbols_opts so = { .kallsyms = "/nonexistent-readperf-fuzz/kallsyms" };
	const char *inl[MAX_INLINE];
	struct sym_result r;
	struct symbols *s;
	struct dso *d;
	FILE *fp;
	uint64_t a;

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/readperf-fuzz-elf-XXXXXX");
		if (!mkdtemp(dir))
			abort();
		snprintf(elf, sizeof(elf), "%s/prog", dir);
	}
	fp = fopen(elf, "wb");
	if (!fp)
		abort();
	if (size && fwrite(data, 1, size, fp) != size)
		abort();
	fclose(fp);
	if (symbols__new(&s, &so))
		return 0;
	d = symbols__dso_for_map(s, elf, 1, 0);
	for (a = 0; d && a < 0x4000; a += 0x1f3) {
		symbols__resolve(s, d, 0x400000, 0, 0x400000 + a, &r);
		symbols__inlines(s, d, 0x400000, 0, 0x400000 + a, inl, MAX_INLINE);
	}
	symbols__delete(s);
	return 0;
}

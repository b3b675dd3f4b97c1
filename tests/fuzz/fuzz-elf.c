/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target: the symbol code over an arbitrary file taken for a
 * mapped ELF binary: libbfd's symbol tables, the PT_LOAD, build-id and
 * sh_entsize reads of perffile/elf.h, the debug-link walk, the PLT
 * synthesis, source lines and inline chains for a spread of addresses.  The
 * bytes are written to a temporary file (the symbol code opens binaries by
 * path); perffile/elf.h also reads them as an image in memory, as the
 * recorder reads the vdso.  Built and run by `make fuzz`.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decode/symbols.h"
#include "perffile/elf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[4096], elf[4200];

/* the bytes as an image in memory (a copy: libFuzzer's input is read-only) */
static void elf_image(const uint8_t *data, size_t size)
{
	uint8_t id[BUILD_ID_SIZE_MAX];
	struct elf_load_seg *segs;
	struct elf_file *ef;
	size_t n;
	void *copy = malloc(size ? size : 1);

	if (!copy)
		return;
	memcpy(copy, data, size);
	if (!elf_file__open_mem(&ef, copy, size)) {
		if (!elf_file__load_segs(ef, &segs, &n))
			free(segs);
		elf_file__section_entsize(ef, ".plt");
		elf_file__build_id(ef, id, &n);
		elf_file__delete(ef);
	}
	free(copy);
}

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
		/* under $TMPDIR: run.sh gives each run its own, removed after it */
		snprintf(dir, sizeof(dir), "%s/readperf-fuzz-elf-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
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
	elf_image(data, size);
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

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target: the whole reader over arbitrary bytes, every record
 * decoded and dumped (which touches every decoded field).  Built and run by
 * `make fuzz` (clang, -fsanitize=fuzzer,address,undefined).
 */
#include <stddef.h>
#include <stdint.h>

#include "perffile/perffile.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf sb = STRBUF_INIT;
	struct perf_file *f;
	struct perf_record rec = { 0 };
	size_t n = 0;

	if (perf_file__open_mem(&f, data, size, NULL))
		return 0;
	while (perf_file__next(f, &rec) > 0 && n++ < 1000000) {
		strbuf__reset(&sb);
		perf_record__dump(&rec, &sb);
	}
	strbuf__release(&sb);
	perf_file__delete(f);
	return 0;
}

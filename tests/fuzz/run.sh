#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A bounded libFuzzer run: seeds from testdata/ and the generator's files,
# FUZZ_SECONDS (default 120) of fuzzing, crashes saved under build/fuzz/.
set -eu
bin=$1
cd "$(dirname "$0")/../.."
corpus=build/fuzz/corpus
mkdir -p "$corpus" build/fuzz/crashes
for f in testdata/*.data; do
	[ -e "$f" ] || continue
	# seeds: the first 64 KiB of each recording keeps the corpus small
	head -c 65536 "$f" > "$corpus/seed-$(basename "$f")"
done
if [ -x build/tests/gen/gen-perf ]; then
	build/tests/gen/gen-perf build/fuzz/gen >/dev/null 2>&1 && cp build/fuzz/gen/*.data "$corpus/" 2>/dev/null || true
fi
"$bin" -max_total_time="${FUZZ_SECONDS:-120}" -max_len=262144 -timeout=10 -rss_limit_mb=2048 \
	-artifact_prefix=build/fuzz/crashes/ "$corpus"

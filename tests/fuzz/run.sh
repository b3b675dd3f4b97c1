#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A bounded libFuzzer run of one target (build/fuzz/fuzz-*): seeds from
# testdata/ (recordings, or for fuzz-elf the small test binaries) and the
# generator's files, for fuzz-text hostile names (inputs up to 4 KiB), FUZZ_SECONDS (default 120) of fuzzing, a crash saved
# under build/fuzz/crashes/ and the exit status non-zero.
set -eu
bin=$1
name=$(basename "$bin")
cd "$(dirname "$0")/../.."
corpus=build/fuzz/corpus-$name
mkdir -p "$corpus" build/fuzz/crashes
max_len=262144
if [ "$name" = fuzz-text ]; then
	# the cut and --raw-csv bytes, then a name: controls, an OSC title, a formula, invalid UTF-8,
	# U+FFFE, an encoded surrogate, past U+10FFFF, entities
	max_len=4096
	i=0
	for s in 'main' '\x1b]0;t\x07\r\nreadperf: x' '=HYPERLINK("x")' '\xff\xc0\x80\xe2\x82' \
		'\xef\xbf\xbe\xef\xbf\xbf\xed\xa0\x80\xf4\x90\x80\x80' 'a&b<c>"d\\' '\xc3\xa9\xc2\x9b\xf0\x9f\x94\xa5'; do
		printf "\\$(printf '%03o' $((i * 37 % 256)))\\00$((i % 2))$s" > "$corpus/seed-$i"
		i=$((i + 1))
	done
elif [ "$name" = fuzz-jitdump ]; then
	# a jitdump (tests/unit/test-jitdump.c has the layout): the header, a debug info, a load, a move
	hdr='DTiJ\x01\0\0\0\x28\0\0\0\x3e\0\0\0\0\0\0\0\x4d\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0'
	dbg='\x02\0\0\0\x35\0\0\0\x05\0\0\0\0\0\0\0\0\x10\0\0\0\0\0\0\x01\0\0\0\0\0\0\0\0\x10\0\0\0\0\0\0\x05\0\0\0\0\0\0\0a.js\0'
	ld='\0\0\0\0\x40\0\0\0\x0a\0\0\0\0\0\0\0\x4d\0\0\0\x4d\0\0\0\0\x10\0\0\0\0\0\0\0\x10\0\0\0\0\0\0\x04\0\0\0\0\0\0\0\x01\0\0\0\0\0\0\0fnA\0\xcc\xcc\xcc\xcc'
	mv='\x01\0\0\0\x40\0\0\0\x14\0\0\0\0\0\0\0\x4d\0\0\0\x4d\0\0\0\0\x30\0\0\0\0\0\0\0\x10\0\0\0\0\0\0\0\x30\0\0\0\0\0\0\x04\0\0\0\0\0\0\0\x01\0\0\0\0\0\0\0'
	printf "$hdr$dbg$ld$mv" > "$corpus/seed-jit.dump"
elif [ "$name" = fuzz-elf ]; then
	for f in testdata/symfs/readperf-testdata/bin/*; do
		[ -f "$f" ] && [ "$(stat -c %s "$f")" -le 262144 ] && cp "$f" "$corpus/seed-$(basename "$f")"
	done
else
	for f in testdata/*.data; do
		[ -e "$f" ] || continue
		# seeds: the first 64 KiB of each recording keeps the corpus small
		head -c 65536 "$f" > "$corpus/seed-$(basename "$f")"
	done
	if [ -x build/tests/gen/gen-perf ]; then
		build/tests/gen/gen-perf build/fuzz/gen >/dev/null 2>&1 && cp build/fuzz/gen/*.data "$corpus/" 2>/dev/null || true
	fi
fi
# the targets' temporary files under a directory of this run only: removing
# /tmp/readperf-fuzz-* removed those of another run going on at the same time
# (its next fopen failed: a false "deadly signal" in fuzz-elf)
export TMPDIR
TMPDIR=$(mktemp -d /tmp/readperf-fuzzrun-XXXXXX)
rc=0
"$bin" -max_total_time="${FUZZ_SECONDS:-120}" -max_len=$max_len -timeout=10 -rss_limit_mb=2048 \
	-artifact_prefix=build/fuzz/crashes/ "$corpus" > "build/fuzz/$name.log" 2>&1 || rc=$?
rm -rf "$TMPDIR"
tail -n 1 "build/fuzz/$name.log"
if [ $rc -ne 0 ]; then
	echo "fuzz: $name failed (exit $rc): build/fuzz/$name.log, build/fuzz/crashes/" >&2
	grep -E 'ERROR|runtime error|SUMMARY' "build/fuzz/$name.log" | head -5 >&2
fi
exit $rc

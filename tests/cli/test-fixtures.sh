#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The external fixtures the issues name one by one (../shared/testdata-external,
# or $READPERF_SHARED; skipped when absent):
#  - bad input exits 2 with a message naming the file and the byte offset, and
#    the reports still cover what was read before the fault;
#  - files perf 6.1 refuses (newer attr sizes, COMPRESSED2) and the v1 file are read;
#  - perfparser's static binary resolves through --symfs pointing at the flat
#    directory it ships in, with source files and lines, as perf resolves it
#    through a symfs tree (expected/perfparser-vector_static_gcc, made by
#    perf-oracle.sh --fixture).
set -u
export LC_ALL=C
root=$(cd "$(dirname "$0")/../.." && pwd)
PROG=${PROG:-$root/build/readperf}
case $PROG in /*) ;; *) PROG=$root/$PROG ;; esac
shared=${READPERF_SHARED:-$root/../shared}
ext=$shared/testdata-external
if [ ! -d "$ext" ]; then
	echo "skip - fixtures: no $ext"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home

run() {	# NAME FILE ARGS... -> $tmp/NAME/{rc,err} and reports in $tmp/NAME
	local name=$1 file=$2
	shift 2
	mkdir -p "$tmp/$name"
	"$PROG" -q -o "$tmp/$name" "$@" "$file" > /dev/null 2> "$tmp/$name/err"
	echo $? > "$tmp/$name/rc"
}
check() {	# DESCRIPTION, then a command that must succeed
	local what=$1
	shift
	if "$@"; then echo "ok - $what"; else echo "not ok - $what"; fi
}

# bad input
run zero "$ext/quipper/perf.data.piped.corrupted.zero_size_sample-3.2"
check "zero_size_sample: exit 2" test "$(cat "$tmp/zero/rc")" = 2
check "zero_size_sample: message names offset 49104" grep -q 'offset 0xbfd0 (49104): size 0 is smaller than its header' "$tmp/zero/err"
check "zero_size_sample: stat.csv covers the records before the fault" \
	awk -F, '$1 == "MMAP" && $2 > 0 { ok = 1 } END { exit !ok }' "$tmp/zero/stat.csv"
for f in simpleperf/invalid_perf.data hotspot/perf.data.broken.gz; do
	n=$(basename "$f")
	run "$n" "$ext/$f"
	check "$n: exit 2" test "$(cat "$tmp/$n/rc")" = 2
	check "$n: message with file and offset" grep -q "$n: .* at offset 0x[0-9a-f]* ([0-9]*): " "$tmp/$n/err"
done

# what perf 6.1 refuses, and v1
for f in hotspot/perf.data.PerfFormatLost lpd/sleep.data lpd/sleep.compressed.data lpd/sleep.compressed2.data \
	 lpd/sleep.compressed2.pipe.data lpd/fibo.compressed2.pipe.data lpd/sleep.compressed.pipe.data \
	 perfparser/cpp-inlining__cpp-inlining.perf.data hotspot/perf.data.true.v1; do
	n=$(basename "$f")
	run "$n" "$ext/$f"
	check "$n: read, exit 0" test "$(cat "$tmp/$n/rc")" = 0
	check "$n: samples counted" awk -F, 'NR > 1 { s += $7 } END { exit !(s > 0 || FILENAME ~ /v1/) }' "$tmp/$n/events.csv"
done
check "fibo.compressed2.pipe.data: records spanning compressed chunks all decode (547 samples)" \
	awk -F, '$1 == "SAMPLE" && $2 == 547 { ok = 1 } END { exit !ok }' "$tmp/fibo.compressed2.pipe.data/stat.csv"

# symbols of a shipped static binary, against perf's answers
run vector "$ext/perfparser/vector_static_gcc__perf.data" --symfs "$ext/perfparser"
check "vector_static_gcc: exit 0" test "$(cat "$tmp/vector/rc")" = 0
check "vector_static_gcc: main has source file and line" \
	grep -q '^cycles,vector_static_gcc_v9.1.0,main,[^,][^,]*,[0-9][0-9]*,' "$tmp/vector/lines.csv"
"$root/tests/cli/compare-perf.sh" -n vector_static_gcc "$tmp/vector" "$root/tests/cli/expected/perfparser-vector_static_gcc"

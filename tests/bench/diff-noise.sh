#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The README's noise figures of readperf diff (issue 24): PAIRS pairs of
# recordings of one unchanged binary and SLOW pairs where one function,
# small (about 2% of the samples), does 1.3 times its work, each recording
# perf record -g -F 999 (FREQ) of testdata/src/diffbuild.c for about 2 s of
# CPU (UNIT iterations: 135000000 here, 2,000 samples).  For each confidence of
# CONFS it prints how many unchanged pairs fire --fail-above-ratio R (any
# function at the default --fail-min-percent) and in how many slowed pairs
# the gate names small, then small's samples, ratio and interval per slowed
# pair at the first confidence.  The recordings stay in DIR (default
# build/diff-noise); REUSE=1 analyses them again without recording.
# Usage: tests/bench/diff-noise.sh   (PROG, DIR, PAIRS, SLOW, UNIT, R, CONFS, FREQ)
set -eu
cd "$(dirname "$0")/../.."
PROG=${PROG:-build/readperf}
dir=${DIR:-build/diff-noise}
pairs=${PAIRS:-20} slow=${SLOW:-10} unit=${UNIT:-135000000} ratio=${R:-1.1} freq=${FREQ:-999}
confs=${CONFS:-0.99 0.95 0.9 0.8 0}
src=testdata/src/diffbuild.c
cflags="-O2 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer"
mkdir -p "$dir"

rec() { perf record -q -g -F "$freq" -o "$dir/$1.data" -- "$dir/$2" "$unit" > /dev/null 2> "$dir/$1.err"; }
if [ -z "${REUSE:-}" ]; then
	# small: SMALL/1000 of a unit per round; 10 puts it at about 2.3%, 13 is 1.3 times its work
	gcc $cflags -DSMALL=10 -o "$dir/prog" "$src"
	gcc $cflags -DSMALL=13 -o "$dir/prog_slow" "$src"
	for i in $(seq "$pairs"); do
		rec "a$i" prog
		rec "b$i" prog
	done
	for i in $(seq "$slow"); do
		rec "c$i" prog
		rec "d$i" prog_slow
	done
fi

# small's row at confidence $1 of pair $2 $3: old_samples new_samples ratio ratio_low ratio_high
small_row() {
	"$PROG" diff -q -o "$dir/out" --fail-confidence "$1" "$dir/$2.data" "$dir/$3.data" 2> /dev/null
	awk -F, '$3 == "small" { print $4, $5, $11, $(NF - 6), $(NF - 5) }' "$dir/out/diff.csv"
}

for conf in $confs; do
	fired=0 found=0
	for i in $(seq "$pairs"); do
		"$PROG" diff -q -o "$dir/out" --fail-above-ratio "$ratio" --fail-confidence "$conf" \
			"$dir/a$i.data" "$dir/b$i.data" 2> "$dir/gate.err" || fired=$((fired + 1))
	done
	for i in $(seq "$slow"); do
		"$PROG" diff -q -o "$dir/out" --fail-above-ratio "$ratio" --fail-confidence "$conf" \
			"$dir/c$i.data" "$dir/d$i.data" 2> "$dir/gate.err" || true
		grep -q 'regression: .* small x' "$dir/gate.err" && found=$((found + 1))
	done
	echo "confidence $conf, --fail-above-ratio $ratio: unchanged pairs fired $fired of $pairs, small x1.3 detected in $found of $slow"
done
first=${confs%% *}
echo "small per slowed pair at $first: old_samples new_samples ratio ratio_low ratio_high"
for i in $(seq "$slow"); do
	echo "  $(small_row "$first" "c$i" "d$i")"
done
echo "small per unchanged pair at $first:"
for i in $(seq "$pairs"); do
	echo "  $(small_row "$first" "a$i" "b$i")"
done

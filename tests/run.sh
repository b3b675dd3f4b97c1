#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs every unit test binary given as an argument and every tests/cli/test-*.sh,
# counts cases, and ends with one line "check: N passed, N failed, N skipped".
# Unit tests are cmocka binaries; CLI tests print "ok - ...", "not ok - ...",
# "skip - ..." lines.  Environment: PROG (the readperf binary), GEN (tests/gen).
set -u
export LC_ALL=C
cd "$(dirname "$0")/.." || exit 3
: "${PROG:=build/readperf}" "${GEN:=build/tests/gen/gen-perf}" "${B:=build}"
export PROG GEN B
export READPERF_TOP=$PWD
# the persistent symbol cache of the runs under test, not the user's
export XDG_CACHE_HOME=$(mktemp -d)
# no debuginfod server asked by the tests (test-debuginfod.sh starts its own)
unset DEBUGINFOD_URLS
pass=0 fail=0 skip=0
log=$(mktemp -d)
trap 'rm -rf "$log" "$XDG_CACHE_HOME"' EXIT

# seconds since start (ns), to one decimal
since() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }'; }

count() {	# name, output file, exit status, kind, start (date +%s%N)
	local name=$1 out=$2 rc=$3 kind=$4 t=$(since "$5") p f s
	if [ "$kind" = unit ]; then
		# cmocka's summary: "[  PASSED  ] N test(s)." "[  FAILED  ] N test(s), listed below:" ...
		p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test(s)\..*/\1/p' "$out" | tail -1)
		f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test(s).*/\1/p' "$out" | tail -1)
		s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test(s).*/\1/p' "$out" | tail -1)
		p=${p:-0} f=${f:-0} s=${s:-0}
	else
		p=$(grep -c '^ok - ' "$out")
		f=$(grep -c '^not ok - ' "$out")
		s=$(grep -c '^skip - ' "$out")
	fi
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "not ok - $name exited with status $rc" >> "$out"
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	if [ "$f" -ne 0 ]; then
		echo "FAIL $name ($p passed, $f failed, $s skipped, $t s)"
		grep -E '^not ok - |^\[  (FAILED|ERROR) +\]|rror|Assert|Sanitizer|runtime error' "$out" | head -40 | sed 's/^/    /'
	else
		echo "PASS $name ($p passed, $s skipped, $t s)"
	fi
	grep -E '^skip - |^\[  SKIPPED \] ' "$out" | grep -v 'test(s)' | head -5 | sed 's/^/    /'
}

all=$(date +%s%N)
for t in "$@"; do
	name=$(basename "$t")
	out="$log/$name.out"
	t0=$(date +%s%N)
	timeout 600 "$t" > "$out" 2>&1
	count "$name" "$out" $? unit "$t0"
done
for t in tests/cli/test-*.sh; do
	[ -e "$t" ] || continue
	name=$(basename "$t" .sh)
	out="$log/$name.out"
	t0=$(date +%s%N)
	timeout 900 bash "$t" > "$out" 2>&1
	count "$name" "$out" $? cli "$t0"
done
echo "check: $pass passed, $fail failed, $skip skipped ($(since "$all") s)"
[ "$fail" -eq 0 ]

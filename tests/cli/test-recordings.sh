#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-recordings.sh: run readperf on every recording in testdata/ and compare
# its reports with perf's answers in tests/cli/expected/NAME/ (compare-perf.sh).
# First checks that compare-perf.sh itself passes the hand-made matching CSVs
# in expected/selftest/good and fails each check on expected/selftest/bad.
#   PROG=build/readperf tests/cli/test-recordings.sh [NAME...]
# Prints "ok - ...", "not ok - ...", "skip - ..." lines; exit 1 on any failure.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cli=$root/tests/cli
td=$root/testdata
PROG=${PROG:-$root/readperf}
case $PROG in /*) ;; *) PROG=$root/$PROG ;; esac
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- the comparer must be able to pass and to fail
st=$cli/expected/selftest
out=$("$cli/compare-perf.sh" -n selftest-good "$st/good" "$st/perf")
rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c '^ok - ' <<< "$out")" -eq 7 ]; then
	echo "ok - compare-perf selftest: matching CSVs pass"
else
	echo "not ok - compare-perf selftest: matching CSVs do not pass: $(grep -v '^ok' <<< "$out" | head -1)"
	fail=1
fi
out=$("$cli/compare-perf.sh" -n selftest-bad "$st/bad" "$st/perf")
rc=$?
if [ $rc -ne 0 ] && [ "$(grep -c '^not ok - ' <<< "$out")" -eq 7 ]; then
	echo "ok - compare-perf selftest: each wrong CSV fails its check"
else
	echo "not ok - compare-perf selftest: wrong CSVs not caught: $(grep '^ok' <<< "$out" | tr '\n' ' ')"
	fail=1
fi

if [ ! -x "$PROG" ]; then
	echo "skip - recordings: no readperf binary at $PROG"
	exit $fail
fi

# readperf must not use this machine's build-id cache either
export HOME=$tmp/home
mkdir -p "$HOME"
to=
command -v timeout > /dev/null && to="timeout 300"

if [ $# -gt 0 ]; then
	names=("$@")
else
	names=()
	for f in "$td"/*.data; do names+=("$(basename "$f" .data)"); done
fi
for name in "${names[@]}"; do
	exp=$cli/expected/$name
	if [ ! -d "$exp" ]; then
		echo "skip - $name: no expected output (run tests/cli/perf-oracle.sh $name)"
		continue
	fi
	kopt=()
	if [ -f "$td/$name.kallsyms" ]; then
		kopt=(--kallsyms "$td/$name.kallsyms")
	elif [ -f "$td/kallsyms" ]; then
		kopt=(--kallsyms "$td/kallsyms")
	fi
	o=$tmp/$name
	$to "$PROG" -q -o "$o" --symfs "$td/symfs" "${kopt[@]}" "$td/$name.data" 2> "$tmp/stderr"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "not ok - $name readperf: exit $rc: $(head -1 "$tmp/stderr")"
		fail=1
		[ $rc -ge 124 ] && continue
	fi
	"$cli/compare-perf.sh" -n "$name" "$o" "$exp" || fail=1
done
exit $fail

#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-external.sh: run readperf on the external fixtures (perf.data files
# written by other tools and kernels, in the shared testdata-external) and
# compare record counts per type and samples per event with perf's answers in
# tests/cli/expected/external/<dir>__<file>/ (made by perf-oracle.sh --external).
# Files perf refuses or reads only partly are not compared; readperf must still
# end without a crash (exit status below 128, no timeout).
# The fixtures are found at $READPERF_SHARED/testdata-external or
# <repo>/../shared/testdata-external; without them every test prints "skip".
#   PROG=build/readperf tests/cli/test-external.sh
. "$(dirname "$0")/testlib.sh"
cli=$root/tests/cli
shared=${READPERF_SHARED:-}
if [ -z "$shared" ]; then
	top=$(git -C "$root" rev-parse --show-toplevel 2> /dev/null || echo "$root")
	shared=$top/../shared
fi
ext=$shared/testdata-external
if [ ! -d "$ext" ]; then
	echo "skip - external: no fixtures at $ext"
	exit 0
fi
fail=0
to=
command -v timeout > /dev/null && to="timeout 120"

for exp in "$cli"/expected/external/*__*; do
	[ -d "$exp" ] || continue
	key=$(basename "$exp")
	sub=${key%%__*}
	file=${key#*__}
	f=$ext/$sub/$file
	label=external/$sub/$file
	if [ ! -f "$f" ]; then
		echo "skip - $label: fixture absent"
		continue
	fi
	o=$tmp/$key
	$to "$PROG" -q -o "$o" "$f" > /dev/null 2> "$tmp/stderr" < /dev/null
	rc=$?
	if [ -f "$exp/refused" ] || [ -f "$exp/partial" ]; then
		why=$(cat "$exp/refused" "$exp/partial" 2> /dev/null | head -1)
		if [ $rc -ge 124 ]; then
			echo "not ok - $label readperf: exit $rc (crash or timeout): $(head -1 "$tmp/stderr")"
			fail=1
		else
			echo "ok - $label readperf ends cleanly (exit $rc)"
		fi
		echo "skip - $label compare: perf 6.1 cannot read it fully ($why)"
		continue
	fi
	compare_run "$label" $rc "$o" "$exp"
done
exit $fail

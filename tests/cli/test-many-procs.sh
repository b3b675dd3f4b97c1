#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# 200,000 processes created in descending pid order (tests/cli/gen-procs.py):
# the processes report sorts them in O(n log n) (an insertion sort took 97 s
# on this input). A 120 s timeout guards against the quadratic case; it is a
# hang guard, not a benchmark. Rows in pid order, one per process.
. "$(dirname "$0")/testlib.sh"

py=$(command -v python3)
if [ -z "$py" ]; then
	echo "skip - many processes: no python3"
	exit 0
fi
"$py" "$root/tests/cli/gen-procs.py" "$tmp/procs.data" 200000
timeout 120 "$PROG" -q -o "$tmp/out" --reports processes,stat "$tmp/procs.data"
rc=$?
check "200,000 processes in descending pid order: done, exit 0 (exit $rc; 124 = over 120 s)" test $rc -eq 0
check "processes.csv: a row per process" test "$(($(wc -l < "$tmp/out/processes.csv") - 1))" -eq 200000
check "processes.csv: rows in pid order" sort -t, -k1,1n -c <(tail -n +2 "$tmp/out/processes.csv")
check "processes.csv: the first is pid 3800001 with its sample" grep -q '^3800001,-1,p3800001,1,0,0,0,1,1000$' "$tmp/out/processes.csv"
exit 0

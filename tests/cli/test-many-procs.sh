#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# 200,000 processes created in descending pid order (gen-perf --procs):
# the processes report sorts them in O(n log n) (an insertion sort took 97 s
# on this input). A 120 s timeout guards against the quadratic case; it is a
# hang guard, not a benchmark. Rows in pid order, one per process.
. "$(dirname "$0")/testlib.sh"

need_gen "many processes"
"$GEN" --procs "$tmp/procs.data" 200000
timeout 120 "$PROG" -q -o "$tmp/out" --reports processes,stat "$tmp/procs.data"
rc=$?
check "200,000 processes in descending pid order: done, exit 0 (exit $rc; 124 = over 120 s)" test $rc -eq 0
check "processes.csv: a row per process" test "$(($(wc -l < "$tmp/out/processes.csv") - 1))" -eq 200000
check "processes.csv: rows in pid order" sort -t, -k1,1n -c <(tail -n +2 "$tmp/out/processes.csv")
check "processes.csv: the first is pid 3800001 with its sample" grep -q '^3800001,-1,p3800001,1,0,0,0,1,1000$' "$tmp/out/processes.csv"

# 160,000 maps at descending addresses (each in front of the others): linear now
# (0.7 s; 9.6 s with the memmove). A 120 s timeout is the hang guard.
"$GEN" --forks "$tmp/desc.data" 160000 0 desc
timeout 120 "$PROG" -q -o "$tmp/desc" --reports stat,results,processes "$tmp/desc.data"
rc=$?
check "160,000 maps at descending addresses: done, exit 0 (exit $rc; 124 = over 120 s)" test $rc -eq 0
check "each sample in the map it hit: 160 maps with one sample" \
	test "$(grep -c '^cpu-clock[^,]*,m[0-9]*000\.so,\[unknown\],,0,1,' "$tmp/desc/results.csv")" -eq 160
check "processes.csv: the 160,000 mmaps of process 1" grep -q '^1,-1,.*,1,160000,' "$tmp/desc/processes.csv"
exit 0

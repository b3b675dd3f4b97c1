#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# C++ overloads of one name (testdata/src/overload.cpp: ns::simplify(int),
# (double), (long, long)), built here with g++ and recorded with perf record:
# perf and readperf both demangle them to "ns::simplify" (no parameter list);
# perf report --sort dso,sym keys its rows by symbol address and shows one row
# per overload, readperf keys results.csv by (event, dso, function) and shows
# one row whose samples and period are the sums of perf's rows (README,
# "results.csv": what a row is).  The test pins that documented behaviour.
# Skips when g++ or perf is missing or perf_event_open is refused.
. "$(dirname "$0")/testlib.sh"

command -v g++ > /dev/null && command -v perf > /dev/null || { echo "skip - overloads: no g++ or perf"; exit 0; }
g++ -O2 -g -fno-omit-frame-pointer -o "$tmp/overload" "$root/testdata/src/overload.cpp" ||
	{ echo "not ok - overloads: g++ failed"; exit 0; }
check "overloads: nm -C shows the three ns::simplify overloads" \
	test "$(nm -C "$tmp/overload" | grep -c ' T ns::simplify(')" -eq 3
perf record -q -e cpu-clock -F 4000 -o "$tmp/o.data" -- "$tmp/overload" 2000 > /dev/null 2> "$tmp/rec.err" ||
	{ echo "skip - overloads: perf record refused: $(head -1 "$tmp/rec.err")"; exit 0; }
# perf's rows of ns::simplify in the program: "SAMPLES PERIOD" each
perf report -i "$tmp/o.data" --stdio --no-children -g none --sort dso,sym -F sample,period,dso,sym -t , \
	2> /dev/null | awk -F' *, *' '!/^#/ && $3 == "overload" && $4 == "[.] ns::simplify" { sub(/^ */, "", $1); print $1, $2 }' \
	> "$tmp/perf-rows"
want=$(awk '{ s += $1; p += $2 } END { print s, p }' "$tmp/perf-rows")
check "overloads: perf report --sort dso,sym shows ns::simplify as $(wc -l < "$tmp/perf-rows") rows (one per overload sampled)" \
	test "$(wc -l < "$tmp/perf-rows")" -ge 2
"$PROG" -q -o "$tmp/r" --reports results "$tmp/o.data" 2> "$tmp/err"
rc=$?
check "overloads: readperf exit 0 (exit $rc)" test $rc -eq 0
got=$(csv2tsv "$tmp/r/results.csv" | awk -F'\t' '$2 == "overload" && $3 == "ns::simplify" { print $6, $7 }')
check "overloads: results.csv has one ns::simplify row" test "$(printf '%s\n' "$got" | grep -c .)" -eq 1
check "overloads: its samples and period ($got) are the sums of perf's rows ($want)" test -n "$want" -a "$got" = "$want"
exit 0

#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-chain-context.sh: a callchain with an entry in PERF_CONTEXT_*'s range that is
# none of them, as a frame-pointer walk reads -1 off a user stack (seen in real
# recordings here: `perf record -a -g -e cpu-clock` with cc1 and an ASan fuzzer
# running, 2 of 804 samples, [..., PERF_CONTEXT_USER, 0x561a2043f5fa, -1]). perf
# discards all of such a chain (add_callchain_ip: "invalid callchain context"),
# the sample keeping its own frame; readperf skipped the entry and counted the
# kernel callers before it.
# set-chain-ip.py writes testdata/callgraph-fp.data with -1 as the last entry of
# sample 5 (user: [USER, ip, -1]) and of sample 2605 (the file's one kernel sample:
# [KERNEL, ip, 7 kernel callers, USER, -1]). tests/cli/expected/chain-context.txt
# is perf 6.1's `--children` column for it, "dso,function,children%", made with
#   perf report -i OUT --symfs testdata/symfs --kallsyms testdata/kallsyms --children \
#     --no-inline -g none --sort dso,sym --stdio --field-separator=, | perf_rows
# (the raw-address row 0000000000000000 left out: readperf's [unknown]); perf
# shows none of the 7 kernel callers, readperf showed each at 0.04%.
#   PROG=build/readperf tests/cli/test-chain-context.sh
. "$(dirname "$0")/testlib.sh"
exp=$root/tests/cli/expected/chain-context.txt

perf_rows() {
	awk -F, '/^#/ || /^$/ { next }
		{ for (i = 1; i <= 4; i++) { sub(/^ +/, "", $i); sub(/ +$/, "", $i) }
		  sub(/%$/, "", $1); sub(/^\[.\] /, "", $4)
		  if ($4 !~ /^[0-9a-f]+$/) print $3 "," $4 "," $1 }' | sort
}

if ! command -v python3 > /dev/null; then
	echo "skip - chain-context: no python3"
	exit 0
fi
python3 "$root/tests/cli/set-chain-ip.py" "$td/callgraph-fp.data" "$tmp/bad.data" \
	5:2=0xffffffffffffffff 2605:10=0xffffffffffffffff
"$PROG" -q -o "$tmp/o" --reports results --raw-csv --symfs "$td/symfs" --kallsyms "$td/kallsyms" \
	"$tmp/bad.data" 2> "$tmp/err"
check "chain-context: exit 0, no message ($?)" test ! -s "$tmp/err"
awk -F, 'NR > 1 && $3 != "[unknown]" { printf "%s,%s,%.2f\n", $2, $3, $11 }' "$tmp/o/results.csv" | sort > "$tmp/got"
check "chain-context: children as perf's (the corrupt chains' callers not counted)" diff "$exp" "$tmp/got"
if command -v perf > /dev/null; then
	perf report -i "$tmp/bad.data" --symfs "$td/symfs" --kallsyms "$td/kallsyms" --children --no-inline \
		-g none --sort dso,sym --stdio --field-separator=, 2> /dev/null | perf_rows > "$tmp/live"
	[ -s "$tmp/live" ] && check "chain-context: children as perf report --children run now" diff "$tmp/live" "$tmp/got"
fi
# the chains are counted where they are whole: the same file unpatched has the kernel callers
"$PROG" -q -o "$tmp/good" --reports results --symfs "$td/symfs" --kallsyms "$td/kallsyms" \
	"$td/callgraph-fp.data" 2> /dev/null
check "chain-context: the unpatched file counts do_exit as a caller" \
	grep -q '^cpu-clock,\[kernel.kallsyms\],do_exit,,0,0,0,0.0000,1,' "$tmp/good/results.csv"
exit 0

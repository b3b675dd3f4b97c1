#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-annotate.sh: annotate.csv (--reports annotate) against perf script and objdump.
#  - samples per address: perf script -F ip,sym,symoff,dso counted per (dso, function, offset),
#    for every function with >= 1 % of the samples, on recordings of different programs
#    (C -O2, C++, a shared library, a static binary, a kernel-heavy system-wide one);
#  - instruction text: objdump -d --no-show-raw-insn of the same binary and addresses
#    (whitespace normalised), for every user function of those recordings.
#   PROG=build/readperf tests/cli/test-annotate.sh
. "$(dirname "$0")/testlib.sh"
need_python annotate
skip_unless annotate "perf is not installed" command -v perf
skip_unless annotate "objdump is not installed" command -v objdump
check_py=$root/tests/cli/annotate/check.py

for name in work cxx shlib static systemwide; do
	o=$tmp/$name
	if ! "$PROG" -q -o "$o" --reports annotate --no-symbol-cache "${sym[@]}" "$td/$name.data" 2> "$tmp/err"; then
		echo "not ok - annotate $name: readperf failed: $(head -1 "$tmp/err")"
		continue
	fi
	check "annotate $name: --reports annotate writes annotate.csv only" test "$(reports_in "$o")" = annotate.csv
	perf script -i "$td/$name.data" "${sym[@]}" -F ip,sym,symoff,dso 2> /dev/null > "$tmp/$name.script"
	"$py" "$check_py" counts "$o/annotate.csv" "$tmp/$name.script" "annotate $name"
	"$py" "$check_py" insns "$o/annotate.csv" "$td/symfs" "annotate $name"
done

# every instruction of a function is listed, sampled or not: hot_big of work is 0x1210..0x125e,
# 21 instructions in objdump -d (counted by hand from its listing: test ... ret)
check "annotate: hot_big has every instruction, sampled or not" \
	test "$(grep -c '^cpu-clock,work,hot_big,' "$tmp/work/annotate.csv")" -eq 21
# percent: each function's rows add up to its period (100 % within rounding)
check "annotate: percent is the share of the function's period" \
	awk -F, 'NR > 1 && $3 == "hot_big" { s += $NF } END { exit !(s > 99.99 && s < 100.01) }' "$tmp/work/annotate.csv"
# not in the default set
"$PROG" -q -o "$tmp/def" "${sym[@]}" "$td/work.data" 2> /dev/null
check "annotate.csv is not in --reports default" test ! -e "$tmp/def/annotate.csv"

# readperf annotate: the hottest function of work.data with perf annotate --stdio's per-instruction
# percentages (perf prints them with 2 decimals; readperf too: equal, or 0.01 apart by rounding)
pct_rows() {	# perf annotate --stdio text: "ADDRESS PERCENT" per instruction line
	sed -n 's/^ *\([0-9][0-9.]*\) :[[:space:]]*\([0-9a-f][0-9a-f]*\):.*/\2 \1/p'
}
"$PROG" annotate "${sym[@]}" --no-symbol-cache --top 1 "$td/work.data" > "$tmp/ann.txt" 2> "$tmp/ann.err"
rc=$?
check "readperf annotate work.data: exit 0, nothing on stderr (exit $rc)" eval 'test $rc -eq 0 && quiet_stderr "$tmp/ann.err"'
check "readperf annotate --top 1: one function, hot_big" \
	test "$(grep -c '^ Percent |' "$tmp/ann.txt")" -eq 1 -a "$(grep -c ' <hot_big>:$' "$tmp/ann.txt")" -eq 1
HOME=$tmp PERF_BUILDID_DIR=$tmp/none perf annotate -i "$td/work.data" --symfs "$td/symfs" --stdio hot_big \
	2> /dev/null | pct_rows > "$tmp/perf.pct"
pct_rows < "$tmp/ann.txt" > "$tmp/rp.pct"
check "readperf annotate hot_big: per-instruction percent as perf annotate --stdio ($(wc -l < "$tmp/perf.pct") instructions)" \
	awk 'NR == FNR { p[$1] = $2; n++; next } { if (!($1 in p) || ($2 - p[$1]) > 0.011 || (p[$1] - $2) > 0.011) bad++; m++ }
	     END { exit !(n > 0 && n == m && !bad) }' "$tmp/perf.pct" "$tmp/rp.pct"
check "readperf annotate: the hottest instruction marked (0x124c, 55.47 % in perf annotate)" \
	test "$(grep -c 'hottest' "$tmp/ann.txt")" -eq 1 -a "$(grep 'hottest' "$tmp/ann.txt" | pct_rows)" = "124c 55.47"
# a function named; --no-source: no source lines
"$PROG" annotate "${sym[@]}" --no-source "$td/work.data" hot_small > "$tmp/small.txt" 2> /dev/null
check "readperf annotate FILE hot_small --no-source: that function, no source line" \
	test "$(grep -c ' <hot_small>:$' "$tmp/small.txt")" -eq 1 -a "$(grep -c 'work\.c:' "$tmp/small.txt")" -eq 0
check "readperf annotate without --no-source: source lines (work.c:LINE)" grep -q 'work\.c:29' "$tmp/ann.txt"
# a name without samples: exit 1 and a message
"$PROG" annotate "${sym[@]}" "$td/work.data" no_such_function > /dev/null 2> "$tmp/none.err"
check "readperf annotate FILE no_such_function: exit 1, said" test $? -eq 1 -a -s "$tmp/none.err"
# kernel functions: no code to read, sampled addresses only, said once
"$PROG" annotate "${sym[@]}" --top 6 "$td/systemwide.data" > "$tmp/sw.txt" 2> /dev/null
check "readperf annotate systemwide.data: kernel functions without instructions, said once" \
	test "$(grep -c 'without code to read' "$tmp/sw.txt")" -eq 1 -a "$(grep -c ' <do_syscall_64>:$' "$tmp/sw.txt")" -eq 1
# from the symbol cache (the second run) the same text: the code is read from the binary then
"$PROG" annotate "${sym[@]}" --top 5 "$td/cxx.data" > "$tmp/cxx1.txt" 2> /dev/null
"$PROG" annotate "${sym[@]}" --top 5 "$td/cxx.data" > "$tmp/cxx2.txt" 2> /dev/null
check "readperf annotate cxx.data: the same text from the symbol cache as from the files" \
	test -s "$tmp/cxx1.txt" -a -n "$(ls "$XDG_CACHE_HOME"/readperf 2> /dev/null)" -a "$(cmp "$tmp/cxx1.txt" "$tmp/cxx2.txt" 2>&1)" = ""

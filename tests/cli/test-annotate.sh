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
	check "annotate $name: --reports annotate writes annotate.csv only" test "$(ls "$o")" = annotate.csv
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

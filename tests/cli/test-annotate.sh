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
check "readperf annotate FILE no_such_function: exit 2 (as readperf tree's, a filter's that leaves no sample), said with the name" \
	test $? -eq 2 -a "$(grep -c 'work\.data: no sample in no_such_function ' "$tmp/none.err")" -eq 1
# one of two functions without a sample: the other shown, the missing one said, exit 2 (before: exit 0)
"$PROG" annotate "${sym[@]}" "$td/callgraph-fp.data" hot_big no_such_function > "$tmp/one.out" 2> "$tmp/one.err"
rc=$?
check "readperf annotate FILE hot_big no_such_function: exit 2 naming no_such_function, hot_big shown (exit $rc)" \
	test $rc -eq 2 -a "$(grep -c 'callgraph-fp\.data: no sample in no_such_function ' "$tmp/one.err")" -eq 1 \
	-a "$(grep -c '<hot_big>:' "$tmp/one.out")" -eq 1
# kernel functions: no code to read, sampled addresses only, said once
"$PROG" annotate "${sym[@]}" --top 6 "$td/systemwide.data" > "$tmp/sw.txt" 2> /dev/null
check "readperf annotate systemwide.data: kernel functions without instructions, said once" \
	test "$(grep -c 'without code to read' "$tmp/sw.txt")" -eq 1 -a "$(grep -c ' <do_syscall_64>:$' "$tmp/sw.txt")" -eq 1
# --vmlinux: no vmlinux of the recorded kernel here (6.18.44-fc, no -dbg package), so an ELF
# built from tests/cli/annotate/fake-vmlinux.s plays it: its two functions sit at the
# kallsyms addresses of pvm_irq_enable and pvm_safe_halt_hc of systemwide-g. What this tests:
# the vmlinux is read at the kernel functions' addresses and every instruction of
# [start, next kallsyms symbol) is objdump -d --no-show-raw-insn's text of the same file, with
# the recording's samples on their addresses; and a vmlinux whose functions are elsewhere
# (another kernel, or KASLR not undone; here 0x10 higher, its text still over fd50-fd80)
# shows no code instead of the wrong code.
# Not tested: a real vmlinux (sections, relocations, KASLR's slide, which is not undone).
if command -v as > /dev/null && command -v ld > /dev/null; then
	vm=$tmp/vmlinux
	as -o "$vm.o" "$root/tests/cli/annotate/fake-vmlinux.s" && ld -Ttext=0xffffffff8225fd00 -e pvm_irq_enable -o "$vm" "$vm.o"
	ld -Ttext=0xffffffff8225fd10 -e pvm_irq_enable -o "$vm.moved" "$vm.o"
	kopts=(--symfs "$td/symfs" --kallsyms "$td/systemwide-g.kallsyms")
	"$PROG" -q -o "$tmp/vm" --reports annotate --vmlinux "$vm" "${kopts[@]}" "$td/systemwide-g.data" 2> "$tmp/vm.err"
	rc=$?
	check "annotate.csv --vmlinux: exit 0, nothing on stderr" eval 'test $rc -eq 0 && quiet_stderr "$tmp/vm.err"'
	objdump -d --no-show-raw-insn "$vm" | awk -F'\t' '/^ffffffff8225fd[0-7][0-9a-f]:/ {
		a = $1; sub(/:$/, "", a); f = (a < "ffffffff8225fd20") ? "pvm_irq_enable" : (a >= "ffffffff8225fd50") ? "pvm_safe_halt_hc" : ""
		if (f != "") { sub(/ +$/, "", $2); print f ";0x" a ";" $2 } }' | sort > "$tmp/vm.want"
	csv2tsv "$tmp/vm/annotate.csv" | awk -F'\t' '$2 == "[kernel.kallsyms]" && ($3 == "pvm_irq_enable" || $3 == "pvm_safe_halt_hc") {
		print $3 ";" $4 ";" $6 }' | sort > "$tmp/vm.got"
	check "annotate.csv --vmlinux: the kernel functions' instructions are objdump -d's of the vmlinux ($(wc -l < "$tmp/vm.want") instructions)" \
		diff "$tmp/vm.want" "$tmp/vm.got"
	# the samples on their instructions: perf script counts 241 at fd65 and 35 at fd19
	check "annotate.csv --vmlinux: the samples on their instructions (hlt 241, pop %rbp 35 as perf script -F ip counts)" test \
		"$(csv2tsv "$tmp/vm/annotate.csv" | awk -F'\t' '$4 == "0xffffffff8225fd65" || $4 == "0xffffffff8225fd19" { print $6 "=" $9 }' | sort | tr '\n' ' ')" = \
		"hlt=241 pop    %rbp=35 "
	"$PROG" annotate --vmlinux "$vm" "${kopts[@]}" "$td/systemwide-g.data" pvm_safe_halt_hc > "$tmp/vm.txt" 2> /dev/null
	check "readperf annotate --vmlinux: the kernel function with its instructions, hlt the hottest" \
		grep -q 'ffffffff8225fd65:.hlt.<-- hottest' "$tmp/vm.txt"
	"$PROG" -q -o "$tmp/vm2" --reports annotate --vmlinux "$vm.moved" "${kopts[@]}" "$td/systemwide-g.data" 2> /dev/null
	check "annotate.csv --vmlinux with the functions elsewhere: no instruction text for the kernel" \
		test "$(csv2tsv "$tmp/vm2/annotate.csv" | awk -F'\t' '$2 == "[kernel.kallsyms]" && $6 != ""' | wc -l)" -eq 0
	"$PROG" -q -o "$tmp/vm3" --reports annotate --vmlinux "$tmp/no-such" "${kopts[@]}" "$td/systemwide-g.data" 2> "$tmp/vm3.err"
	rc=$?
	check "--vmlinux FILE that cannot be read: exit 3, said ($(head -1 "$tmp/vm3.err"))" \
		test $rc -eq 3 -a "$(grep -c 'vmlinux' "$tmp/vm3.err")" -eq 1
else
	echo "skip - annotate --vmlinux: no as/ld to build the fake vmlinux"
fi
# from the symbol cache (the second run) the same text: the code is read from the binary then
"$PROG" annotate "${sym[@]}" --top 5 "$td/cxx.data" > "$tmp/cxx1.txt" 2> /dev/null
"$PROG" annotate "${sym[@]}" --top 5 "$td/cxx.data" > "$tmp/cxx2.txt" 2> /dev/null
check "readperf annotate cxx.data: the same text from the symbol cache as from the files" \
	test -s "$tmp/cxx1.txt" -a -n "$(ls "$XDG_CACHE_HOME"/readperf 2> /dev/null)" -a "$(cmp "$tmp/cxx1.txt" "$tmp/cxx2.txt" 2>&1)" = ""
# a stripped library whose symbols come from its debug file (testdata/symfs's libc.so.6 and its
# .build-id/93/ac61... .debug): addresses named by the debug file's symbols, as perf annotate
# does, not by the .dynsym symbol before them (objdump -d of the stripped file: "call 95ee0
# <timer_settime@GLIBC_2.2.5+0x19f0>").  Expected: the call lines and three operands that
# `perf annotate -i testdata/group-g.data --symfs testdata/symfs --stdio -s sysmalloc` printed
# (perf 6.1; a GOT entry by its dynamic relocation)
"$PROG" annotate --symfs "$td/symfs" --no-debuginfod "$td/group-g.data" sysmalloc 2> /dev/null |
	sed -E 's/^[ 0-9.]+:[ \t]*//; s/[ \t]*<-- hottest//; s/[ \t]+/ /g' > "$tmp/sysmalloc.txt"
cat > "$tmp/sysmalloc.want" << 'WANT'
96cf7: call 95ee0 <sysmalloc_mmap.constprop.0>
96d28: call 95740 <new_heap>
96e31: call 95e00 <sysmalloc_mmap_fallback.constprop.0>
96eb1: call 95ee0 <sysmalloc_mmap.constprop.0>
96ee5: call 101a30 <__mprotect>
96f31: call 96120 <_int_free>
96f94: call 96030 <__default_morecore@GLIBC_2.2.5>
96fee: call 95e00 <sysmalloc_mmap_fallback.constprop.0>
97098: call 96030 <__default_morecore@GLIBC_2.2.5>
97158: call 96120 <_int_free>
97190: call 95ee0 <sysmalloc_mmap.constprop.0>
971f6: call 101b00 <__madvise>
97240: call 101b00 <__madvise>
9726a: call 96030 <__default_morecore@GLIBC_2.2.5>
97295: call 96030 <__default_morecore@GLIBC_2.2.5>
972e7: call 7f1d0 <__libc_message>
972ec: call 1181e0 <__stack_chk_fail>
9730d: call 7f1d0 <__libc_message>
97319: call 94850 <malloc_printerr>
9733a: call 7f1d0 <__libc_message>
9735b: call 7f1d0 <__libc_message>
WANT
bad=$(grep ' call ' "$tmp/sysmalloc.txt" | diff - "$tmp/sysmalloc.want" | grep '^[<>]' | head -3 | tr '\n' ' ')
check "readperf annotate sysmalloc of a stripped libc: the 21 calls name their targets as perf annotate${bad:+: $bad}" \
	test -z "$bad" -a "$(grep -c ' call ' "$tmp/sysmalloc.txt")" -eq 21
for want in "96b42: mov 0x13c34f(%rip),%rax # 1d2e98 <_rtld_global_ro@GLIBC_PRIVATE>" \
	    "96b56: cmp 0x13c7f3(%rip),%rdi # 1d3350 <mp_+0x10>" "96bb5: lea 0x13d0a4(%rip),%rax # 1d3c60 <main_arena>"; do
	check "readperf annotate sysmalloc: '$want' as perf annotate" grep -qxF "$want" "$tmp/sysmalloc.txt"
done

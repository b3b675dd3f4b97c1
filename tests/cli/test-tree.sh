#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-tree.sh: readperf tree FILE FUNCTION (the peek output) against perf script's
# stacks, counted independently by peek-count.py: the function's total, each caller
# (frame right above it), callee (right below) and self, samples and period once per
# sample; usage and a function on no stack.
#   PROG=build/readperf tests/cli/test-tree.sh
. "$(dirname "$0")/testlib.sh"
need_python tree
skip_unless tree "no perf to compare with" command -v perf
fail=0

# NAME FUNC
tree_case() {
	local name=$1 func=$2 k=$td/kallsyms o=$tmp/$1-$2
	[ -f "$td/$name.kallsyms" ] && k=$td/$name.kallsyms
	[ -f "$tmp/$name.script" ] || perf script --no-inline -i "$td/$name.data" --symfs "$td/symfs" --kallsyms "$k" \
		-F comm,event,period,ip,sym,dso > "$tmp/$name.script" 2> /dev/null
	"$py" "$root/tests/cli/peek-count.py" "$tmp/$name.script" "$func" > "$o.want"
	if ! "$PROG" tree -q --symfs "$td/symfs" --kallsyms "$k" "$td/$name.data" "$func" > "$o.out" 2> "$tmp/err"; then
		echo "not ok - tree $name $func: readperf failed: $(head -1 "$tmp/err")"
		fail=1
		return
	fi
	"$py" "$root/tests/cli/peek-count.py" --parse "$o.out" > "$o.got"
	check "tree $name $func: $(grep -c '^call' "$o.want") callers and callees, total and self as perf script's stacks" \
		diff "$o.want" "$o.got"
	check "tree $name $func: nothing on stderr, no report written" eval 'quiet_stderr "$tmp/err" && test ! -e results.csv'
}

cd "$tmp" || exit 1
tree_case callgraph-fp __libc_start_call_main	# callees only
tree_case callgraph-fp hot_big			# a caller, self
tree_case systemwide-g do_syscall_64		# kernel: callers and many callees
tree_case systemwide-g entry_SYSCALL_64_after_hwframe

# shares: of the function's period, the callees' add up to at most 100%
"$PROG" tree -q "${sym[@]}" "$td/callgraph-fp.data" __libc_start_call_main > "$tmp/shares" 2> /dev/null
check "tree: the callees of __libc_start_call_main: 48.15% 32.54% 19.31% (1252, 846, 502 samples x 250000 of its 650000000)" \
	test "$(awk '/callees:/ { c = 1; next } c { printf "%s ", $3 }' "$tmp/shares")" = "48.15% 32.54% 19.31% "
# usage: FILE and FUNCTION both needed; a function on no stack: exit 2
"$PROG" tree "$td/callgraph-fp.data" > /dev/null 2> "$tmp/err"
rc=$?
check "tree without FUNCTION: exit 1 with the usage line" test $rc -eq 1 -a "$(grep -c 'usage: readperf tree' "$tmp/err")" -eq 1
"$PROG" tree -q "${sym[@]}" "$td/callgraph-fp.data" no_such_function > "$tmp/out" 2> "$tmp/err"
rc=$?
check "tree on a function on no stack: exit 2, said ($(head -c 100 "$tmp/err"))" \
	test $rc -eq 2 -a "$(grep -c 'no sample passes the filters' "$tmp/err")" -eq 1
# the message names the function and no filter the command did not take (it listed --pid ... --time)
check "tree on a function on no stack: the message names it" \
	test "$(grep -c 'no stack holds no_such_function (as results.csv names functions); the file has processes' "$tmp/err")" -eq 1
check "tree --help lists its options" sh -c "'$PROG' tree --help | grep -q -- '--symfs'"
exit $fail

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
	# the share of all the event's samples: perf report --children's Children column, whose
	# percentages are of the event's total (--sort dso,sym: one row per function, not per comm)
	[ -f "$tmp/$name.children" ] || perf report --children --no-inline --stdio -g none --sort dso,sym \
		-i "$td/$name.data" --symfs "$td/symfs" --kallsyms "$k" > "$tmp/$name.children" 2> /dev/null
	local want got
	want=$(awk -v f="$func" '$NF == f && $(NF - 1) ~ /^\[[.k]\]$/ { print $1 }' "$tmp/$name.children")
	got=$(sed -n '1s/.*, \([0-9.]*%\) of all samples)$/\1/p' "$o.out")
	check "tree $name $func: $got of all samples, perf report --children's $want" \
		test -n "$want" -a "$got" = "$want"
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
# two functions: their shares of the kept samples (those holding either) and of all samples:
# hot_big 313000000 of the 650000000 kept = 48.15%, of the 651500000 in all (perf report's
# "Event count") = 48.04%; with --comm the second share is of the samples the other filters kept
"$PROG" tree -q "${sym[@]}" "$td/callgraph-fp.data" hot_big __libc_start_call_main > "$tmp/two" 2> /dev/null
check "tree hot_big with __libc_start_call_main: 48.15% of the kept samples, 48.04% of all" \
	grep -q '^cpu-clock: hot_big (work): .* period 313000000 (48.15% of the kept samples, 48.04% of all samples)$' "$tmp/two"
"$PROG" tree -q --comm work "${sym[@]}" "$td/callgraph-fp.data" hot_big > "$tmp/two" 2> /dev/null
check "tree --comm work hot_big: the second share not said to be of all samples" \
	grep -q '(100.00% of the kept samples, 48.04% of the samples before --focus and --ignore)$' "$tmp/two"
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
# two functions, one on no stack: the other's callers and callees shown, the missing one said, exit 2
# (before: exit 0 and no word of it)
"$PROG" tree -q "${sym[@]}" "$td/callgraph-fp.data" hot_big no_such_function > "$tmp/out" 2> "$tmp/err"
rc=$?
check "tree hot_big no_such_function: exit 2 naming no_such_function, hot_big shown (exit $rc)" \
	test $rc -eq 2 -a "$(grep -c 'callgraph-fp.data: no stack holds no_such_function (as results.csv names functions)' "$tmp/err")" -eq 1 \
	-a "$(grep -c '^cpu-clock: hot_big (work): on the stack of' "$tmp/out")" -eq 1
# a file without samples (work.pipe.data cut after its attrs): exit 2 (before: exit 0, nothing printed)
head -c 123 "$td/work.pipe.data" > "$tmp/nosample.data"
"$PROG" tree -q "$tmp/nosample.data" main > "$tmp/out" 2> "$tmp/err"
rc=$?
check "tree on a file without samples: exit 2, said (exit $rc)" \
	test $rc -eq 2 -a "$(grep -c 'nosample.data: no sample passes the filters: the file has no samples' "$tmp/err")" -eq 1
check "tree --help lists its options" sh -c "'$PROG' tree --help | grep -q -- '--symfs'"
exit $fail

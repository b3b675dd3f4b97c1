#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-focus.sh: --focus, --ignore and --focus-root against perf script's stacks
# (counted independently by focus-count.py): the kept samples are those whose stack
# holds (--focus) or does not hold (--ignore) the function, and results.csv's
# children columns count only those; --focus-root's folded stacks and flame graph
# start at the function, whose width is its children share; --symbols on a function
# that is only a caller says to use --focus.
#   PROG=build/readperf tests/cli/test-focus.sh
. "$(dirname "$0")/testlib.sh"
need_python focus
skip_unless focus "no perf to compare with" command -v perf
set -o pipefail
fail=0

# NAME MODE FUNC: readperf --MODE FUNC against perf script's stacks
focus_case() {
	local name=$1 mode=$2 func=$3 k=$td/kallsyms o=$tmp/$1-$2-$3
	[ -f "$td/$name.kallsyms" ] && k=$td/$name.kallsyms
	[ -f "$tmp/$name.script" ] || perf script --no-inline -i "$td/$name.data" --symfs "$td/symfs" --kallsyms "$k" \
		-F comm,event,period,ip,sym,dso > "$tmp/$name.script" 2> /dev/null
	"$py" "$root/tests/cli/focus-count.py" "$tmp/$name.script" "$mode" "$func" > "$o.want"
	if ! "$PROG" -q -o "$o" --reports results --"$mode" "$func" --symfs "$td/symfs" --kallsyms "$k" \
		"$td/$name.data" 2> "$tmp/err"; then
		echo "not ok - $mode $func ($name): readperf failed: $(head -1 "$tmp/err")"
		fail=1
		return
	fi
	csv2tsv "$o/results.csv" | awk -F'\t' 'NR > 1 { s += $6 } END { print "samples", s + 0 }' > "$o.got"
	csv2tsv "$o/results.csv" | awk -F'\t' -v OFS='\t' 'NR > 1 && $9 > 0 { print $2, $3, $9 }' | sort >> "$o.got"
	check "--$mode $func ($name): $(head -1 "$o.want"), as perf script's stacks $([ "$mode" = focus ] && echo with || echo without) it; children of the kept samples only" \
		diff "$o.want" "$o.got"
}

focus_case callgraph-fp focus __libc_start_call_main	# never a leaf: every stack of work's main
focus_case callgraph-fp ignore hot_big
focus_case systemwide-g focus do_syscall_64		# a kernel caller
focus_case systemwide-g ignore do_syscall_64

# the test fails on a filter that does nothing: the counts differ from the whole file's
check "focus: the filtered counts are not the whole file's" test \
	"$(head -1 "$tmp/systemwide-g-focus-do_syscall_64.want")" != "samples 314"

# --focus-root: the stacks start at the function (a kernel frame: _[k]); the flame
# graph's root is it, its period its children period of the run without --focus, its
# share 100% (the graph holds the kept samples only)
o=$tmp/root
"$PROG" -q -o "$o" --reports results --symfs "$td/symfs" --kallsyms "$td/systemwide-g.kallsyms" \
	"$td/systemwide-g.data" 2> /dev/null
"$PROG" -q -o "$o/f" --reports results --focus do_syscall_64 --focus-root --folded "$o/folded" \
	--flamegraph "$o/fg.svg" --symfs "$td/symfs" --kallsyms "$td/systemwide-g.kallsyms" "$td/systemwide-g.data" 2> /dev/null
check "--focus-root: every folded stack starts at do_syscall_64" \
	awk '!/^do_syscall_64_\[k\][; ]/ { bad = 1 } END { exit bad || NR == 0 }' "$o/folded"
ch=$(csv2tsv "$o/results.csv" | awk -F'\t' '$3 == "do_syscall_64" { print $10 }')
title=$(grep -o '<title>do_syscall_64_\[k\] ([^<]*</title>' "$o/fg.svg" | head -1)
check "--focus-root: the flame graph's root is do_syscall_64 with its children period $ch, 100% ($title)" \
	test "$title" = "<title>do_syscall_64_[k] (period $ch, 100.00%)</title>"
check "--focus-root: results.csv's children_percent of do_syscall_64 is 100% of the kept samples" \
	test "$(csv2tsv "$o/f/results.csv" | awk -F'\t' '$3 == "do_syscall_64" { print $11 }')" = 100.0000

# --symbols on a function that is only a caller: exit 2, the message names --focus
"$PROG" -q -o "$tmp/sy" --symbols __libc_start_call_main "${sym[@]}" "$td/callgraph-fp.data" 2> "$tmp/err"
rc=$?
check "--symbols on a caller only: exit 2 and a pointer to --focus ($(head -c 120 "$tmp/err"))" \
	test $rc -eq 2 -a "$(grep -c -- '--focus keeps the samples whose stack holds them' "$tmp/err")" -eq 1
"$PROG" -q -o "$tmp/sy2" --symbols no_such_function "${sym[@]}" "$td/callgraph-fp.data" 2> "$tmp/err"
check "--symbols on an absent name: the usual message, no --focus pointer" \
	test "$(grep -c 'the file has processes' "$tmp/err")" -eq 1
# a C++ name with commas in its template arguments is one name (the list is split at the commas
# outside brackets when its brackets balance): its stacks as perf script's, self samples as
# perf report --sort dso,sym (tests/cli/expected/cxx/dso_sym: 914 and 8)
focus_case dwarf-cxx focus 'std::__introsort_loop<__gnu_cxx::__normal_iterator<double*, std::vector<double, std::allocator<double> > >, long, __gnu_cxx::__ops::_Iter_comp_iter<sorter(std::vector<double, std::allocator<double> >&)::{lambda(double, double)#1}> >'
bs='std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >::_M_construct'
"$PROG" -q -o "$tmp/sy3" --reports results --symbols "geo::Grid<double>::relax,$bs" "${sym[@]}" \
	"$td/cxx.data" 2> "$tmp/err"
check "--symbols 'geo::Grid<double>::relax,$bs': the two rows, 914 and 8 self samples ($(head -c 120 "$tmp/err"))" \
	test "$(csv2tsv "$tmp/sy3/results.csv" | awk -F'\t' 'NR > 1 && $6 > 0 { print $3 "=" $6 }' | sort | tr '\n' ' ')" = \
	"geo::Grid<double>::relax=914 $bs=8 "
# brackets that do not balance ('operator<'): split at every comma
"$PROG" -q -o "$tmp/sy4" --reports results --symbols 'operator<,geo::Grid<float>::relax' "${sym[@]}" \
	"$td/cxx.data" 2> "$tmp/err"
check "--symbols 'operator<,geo::Grid<float>::relax': split at the comma, Grid<float>'s 442 samples" \
	test "$(csv2tsv "$tmp/sy4/results.csv" | awk -F'\t' 'NR > 1 && $6 > 0 { print $3 "=" $6 }')" = \
	"geo::Grid<float>::relax=442"
# --focus-root alone: a usage error
"$PROG" -q -o "$tmp/fr" --focus-root "${sym[@]}" "$td/callgraph-fp.data" 2> "$tmp/err"
rc=$?
check "--focus-root without --focus: exit 1, said ($(head -1 "$tmp/err"))" test $rc -eq 1 -a -s "$tmp/err"
exit $fail

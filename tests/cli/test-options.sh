#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The analyse options perf users know (-i, --comms, --dsos, --symbols,
# --percent-limit, --full-source-path, --no-demangle), --reports none/default,
# --folded - / --flamegraph -, the summary on standard output, filters that
# match nothing (exit 2 naming what is there), and usage errors (one line and
# "Try 'readperf ... --help'", exit 1). Expected rows come from readperf's own
# unfiltered reports of the same file, filtered here with awk.
. "$(dirname "$0")/testlib.sh"
f=$td/work.data

"$PROG" -q -o "$tmp/all" "${sym[@]}" "$f"
csvrows() { awk -F, 'NR > 1 { print $1 "," $2 "," $3 "," $6 }' "$1" | sort; }

# -i
"$PROG" -q -o "$tmp/i" "${sym[@]}" -i "$f"
check "-i FILE: the same reports as FILE" diff_reports "$tmp/all" "$tmp/i"
"$PROG" -q -o "$tmp/i2" "${sym[@]}" --input "$f"
check "--input FILE: the same reports" diff_reports "$tmp/all" "$tmp/i2"
"$PROG" -q -o "$tmp/i3" -i "$f" "$f" 2> "$tmp/err"
check "-i FILE and FILE: exit 1, one line and Try" \
	test $? -eq 1 -a "$(wc -l < "$tmp/err")" -eq 2 -a "$(grep -c "^Try 'readperf --help'" "$tmp/err")" -eq 1

# --comms
"$PROG" -q -o "$tmp/c" "${sym[@]}" --comms work "$f"
check "--comms work: the same results as --comm work and as no filter" \
	diff "$tmp/all/results.csv" "$tmp/c/results.csv"

# --dsos, --symbols: the samples of those rows of the unfiltered results.csv
"$PROG" -q -o "$tmp/d" --reports results "${sym[@]}" --dsos ld-linux-x86-64.so.2,work "$f"
want=$(csvrows "$tmp/all/results.csv" | awk -F, '$2 == "ld-linux-x86-64.so.2" || $2 == "work"')
check "--dsos ld-linux-x86-64.so.2,work: those dsos' rows with the same samples ($(echo "$want" | wc -l) rows)" \
	test "$(csvrows "$tmp/d/results.csv")" = "$want"
"$PROG" -q -o "$tmp/s" --reports results,lines "${sym[@]}" --symbols hot_big,hot_small "$f"
want=$(csvrows "$tmp/all/results.csv" | awk -F, '$3 == "hot_big" || $3 == "hot_small"')
check "--symbols hot_big,hot_small: those rows with the same samples" \
	test "$(csvrows "$tmp/s/results.csv")" = "$want"
# percentages are shares of what passed: hot_big's period / (hot_big + hot_small)
pb=$(awk -F, '$3 == "hot_big" { print $7 }' "$tmp/all/results.csv")
ps=$(awk -F, '$3 == "hot_small" { print $7 }' "$tmp/all/results.csv")
want=$(awk -v b="$pb" -v s="$ps" 'BEGIN { printf "%.4f", 100 * b / (b + s) }')
check "--symbols: percent relative to the samples that pass ($want)" \
	test "$(awk -F, '$3 == "hot_big" { print $8 }' "$tmp/s/results.csv")" = "$want"

# --percent-limit
"$PROG" -q -o "$tmp/p" --reports results,lines "${sym[@]}" --percent-limit 10 "$f"
want=$(awk -F, 'NR == 1 || $8 >= 10' "$tmp/all/results.csv")
check "--percent-limit 10: the results rows at 10% or more ($(($(echo "$want" | wc -l) - 1)) rows)" \
	test "$(cat "$tmp/p/results.csv")" = "$want"
check "--percent-limit 10: lines.csv rows at 10% or more" \
	test "$(cat "$tmp/p/lines.csv")" = "$(awk -F, 'NR == 1 || $8 >= 10' "$tmp/all/lines.csv")"
"$PROG" -q -o "$tmp/px" --percent-limit x "$f" 2> "$tmp/err"
check "--percent-limit x: exit 1" test $? -eq 1

# --full-source-path (the default) and source_file as the full path
"$PROG" -q -o "$tmp/fsp" "${sym[@]}" --full-source-path "$f"
check "--full-source-path: the same reports (the default)" diff_reports "$tmp/all" "$tmp/fsp"
check "source_file is the full path the debug info names" \
	grep -q '^cpu-clock,work,hot_big,/readperf-testdata/src/work.c,' "$tmp/all/results.csv"

# --no-demangle
"$PROG" -q -o "$tmp/dm" --reports results "${sym[@]}" "$td/cxx.data"
"$PROG" -q -o "$tmp/ndm" --reports results "${sym[@]}" --no-demangle "$td/cxx.data"
check "--no-demangle: C++ names as the symbol table has them (_Z...), demangled without it" \
	test "$(grep -c ',cxx,_Z' "$tmp/ndm/results.csv")" -gt 0 -a "$(grep -c ',cxx,_Z' "$tmp/dm/results.csv")" -eq 0
check "--no-demangle: the same samples per row" \
	test "$(csv2tsv "$tmp/ndm/results.csv" | awk -F'\t' 'NR > 1 { s += $6 } END { print s }')" = \
	     "$(csv2tsv "$tmp/dm/results.csv" | awk -F'\t' 'NR > 1 { s += $6 } END { print s }')"

# filters that match nothing: exit 2, what is there named, empty reports
for flt in "--pid 1" "--tid 1" "--comms nosuch" "--dsos nosuch" "--symbols nosuch" "--time 0.5,1.0"; do
	"$PROG" -o "$tmp/none" "${sym[@]}" $flt "$f" > /dev/null 2> "$tmp/err"
	rc=$?
	check "$flt matches nothing: exit 2 ($rc), the message names process 5446 work and the sample times" \
		test $rc -eq 2 -a "$(grep -c 'no sample passes the filters (.*the file has processes .*5446 work; samples from 493\.' "$tmp/err")" -eq 1
done

# --reports none / default / unknown
"$PROG" -q -o "$tmp/rn" --reports none --folded "$tmp/rn.folded" "${sym[@]}" "$td/callgraph-fp.data"
check "--reports none --folded: exit 0, no report, the folded file" \
	test $? -eq 0 -a "$(ls "$tmp/rn" 2> /dev/null | wc -l)" -eq 0 -a -s "$tmp/rn.folded"
"$PROG" -q -o "$tmp/rd" --reports default "${sym[@]}" "$f"
check "--reports default: all the reports" diff_reports "$tmp/all" "$tmp/rd"
"$PROG" -q -o "$tmp/rf" --reports foo "$f" 2> "$tmp/err"
check "--reports foo: exit 1 listing the reports" test $? -eq 1 -a "$(grep -c 'none, default (all), stat, events' "$tmp/err")" -eq 1

# --folded - and --flamegraph - write to standard output
(cd "$tmp" && "$PROG" -q -o "$tmp/fo" --reports none "${sym[@]}" --folded - "$td/callgraph-fp.data" > "$tmp/fo.out")
check "--folded -: the folded stacks on stdout, no file named -" \
	test ! -e "$tmp/-" -a "$(grep -c '^work;.*hot_big [0-9]*$' "$tmp/fo.out")" -ge 1
"$PROG" -q -o "$tmp/fo2" --reports none "${sym[@]}" --folded "$tmp/fo2.folded" "$td/callgraph-fp.data"
check "--folded -: the same bytes as --folded FILE" cmp -s "$tmp/fo.out" "$tmp/fo2.folded"
(cd "$tmp" && "$PROG" -q -o "$tmp/fg" --reports none "${sym[@]}" --flamegraph - "$td/callgraph-fp.data" > "$tmp/fg.out")
check "--flamegraph -: the SVG on stdout" test ! -e "$tmp/-" -a "$(grep -c '</svg>' "$tmp/fg.out")" -eq 1

# the summary: where the reports went and the top functions; -q: nothing
"$PROG" -o "$tmp/sum" "${sym[@]}" "$f" > "$tmp/sum.out" 2> "$tmp/sum.err"
check "summary: names the output directory and every report" \
	grep -q "^readperf: .*work.data: reports in $tmp/sum/: stat.csv events.csv header.csv overview.csv processes.csv results.csv lines.csv callers.csv threads.csv offcpu.csv timeline.csv$" "$tmp/sum.out"
top=$(awk -F, 'NR == 2 { printf "%.2f%%  %-24s %s", $8, $2, $3 }' "$tmp/all/results.csv")
check "summary: the top function with results.csv's percent ($top)" grep -qF "$top" "$tmp/sum.out"
check "summary: at most 10 functions per event" test "$(grep -c '%  ' "$tmp/sum.out")" -le 10
"$PROG" -q -o "$tmp/sumq" "${sym[@]}" "$f" > "$tmp/sumq.out" 2>&1
# (a sanitizer build adds its own suppression summary: only readperf's lines count)
check "-q: no summary, nothing printed" test "$(grep -c '^readperf:\|^note:\|%  ' "$tmp/sumq.out")" -eq 0

# usage errors: one line and Try, exit 1; --help lists the options
for args in "--bogus" "-o" "--no x" "diff --bogus a b" "diff -o" "schema --bogus"; do
	"$PROG" $args > /dev/null 2> "$tmp/err"
	rc=$?
	sub=
	case $args in diff*) sub=" diff" ;; schema*) sub=" schema" ;; esac
	check "readperf $args: exit 1, one line and Try 'readperf$sub --help' (exit $rc)" \
		test $rc -eq 1 -a "$(wc -l < "$tmp/err")" -eq 2 -a "$(grep -c "^Try 'readperf$sub --help'$" "$tmp/err")" -eq 1
done
"$PROG" --help > "$tmp/help"
bad=
for opt in -i --input -o --reports --symfs --kallsyms --debug-dir --no-source --full-source-path --no-demangle \
	   -e --pid --tid --comms --dsos --symbols --percent-limit --time --folded --flamegraph -q --version \
	   --sort --fail-above --fail-above-ratio --fail-min-percent; do
	grep -q -- "$opt" "$tmp/help" || bad="$bad $opt"
done
check "--help lists every analyse and diff option${bad:+: missing$bad}" test -z "$bad"
"$PROG" diff --help > "$tmp/dhelp"
check "diff --help: exit 0 with the diff options" grep -q -- '--fail-above-ratio' "$tmp/dhelp"
# the usage is made from the option tables: every long option readperf --help (up to
# readperf diff's own) and readperf diff --help list is one the parser takes (run in an
# empty directory on a missing file: an option may start the analysis, which then stops
# at the file)
mkdir -p "$tmp/empty"
for sub in "" diff; do
	bad=
	files=none.data
	[ -n "$sub" ] && files="none.data none.data"
	for opt in $("$PROG" $sub --help | awk '/^readperf diff takes/ { exit } { print }' |
		     grep -o -e '^  -[a-zA-Z], --[a-z-]*' -e '^  --[a-z-]*' |
		     grep -o -e '--[a-z-]*'); do
		"$PROG" $sub --help | grep -q -e "$opt [A-Z]" && opt="$opt=x"
		(cd "$tmp/empty" && "$PROG" $sub -q "$opt" $files < /dev/null > /dev/null 2> "$tmp/opt.err")
		grep -q 'unknown or ambiguous option\|is an option of' "$tmp/opt.err" && bad="$bad $opt"
	done
	check "readperf${sub:+ $sub} --help lists only options it takes${bad:+: not taken:$bad}" test -z "$bad"
done
"$PROG" diff --help > "$tmp/dhelp"
check "diff --help leaves out the analysis' own options" test "$(grep -c -e '--speedscope\|--reports' "$tmp/dhelp")" -eq 0
# record, stat, header, dump: getopt_long, one line and Try; --help lists every option
for args in "record --bogus -- true" "record --count100 -- true" "record -e" "stat --eventual -- true" \
	    "stat -x" "header --bogus" "header a b" "dump --bogus" "dump"; do
	"$PROG" $args > /dev/null 2> "$tmp/err"
	rc=$?
	sub=${args%% *}
	check "readperf $args: exit 1, one line and Try 'readperf $sub --help' (exit $rc)" \
		test $rc -eq 1 -a "$(wc -l < "$tmp/err")" -eq 2 -a "$(grep -c "^Try 'readperf $sub --help'$" "$tmp/err")" -eq 1
done
"$PROG" stat -x '' -- true > /dev/null 2> "$tmp/err"
check "stat -x '': exit 1 with a message" test $? -eq 1 -a "$(grep -c 'x needs a separator' "$tmp/err")" -eq 1
"$PROG" record --help > "$tmp/rhelp"
bad=
for opt in --event --count --freq -g --all-cpus --cpu --pid --tid --output --mmap-pages --quiet --help; do
	grep -q -- "$opt" "$tmp/rhelp" || bad="$bad $opt"
done
check "record --help lists every option${bad:+: missing$bad}" test -z "$bad"
"$PROG" stat -h > "$tmp/shelp"
bad=
for opt in --event --all-cpus --cpu --pid --tid --field-separator --quiet --help; do
	grep -q -- "$opt" "$tmp/shelp" || bad="$bad $opt"
done
check "stat -h lists every option${bad:+: missing$bad}" test -z "$bad"
for sub in header dump schema; do
	"$PROG" $sub --help > "$tmp/h" 2>&1
	check "$sub --help: exit 0 and a usage line" test $? -eq 0 -a "$(grep -c "^usage: readperf $sub" "$tmp/h")" -eq 1
done
exit 0

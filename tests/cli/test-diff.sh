#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# readperf diff OLD NEW (diff.csv):
#  - a recording against itself: every function once, equal samples and
#    percentages, every delta 0.0000, every ratio 1.0000, one summary line;
#  - testdata/work.data against testdata/callgraph-fp.data (the same program,
#    recorded without and with -g): old/new samples and percentages equal
#    those of the two results.csv files, function by function (the union of
#    both), delta = new - old, rows sorted by |new_period - old_period| then
#    dso, function;
#  - regress-before/-after (testdata/src/regress.c: `regress 2` gives
#    compute_b twice the iterations of `regress 1`, compute_a the same):
#    compute_b first with ratio ~2, compute_a ~1; samples equal perf's;
#    --fail-above / --fail-above-ratio exit 4 naming compute_b, and 0 on two
#    recordings of the unchanged program (regress-before/-before2);
#  - a perf record file (cpu-clock:ppp) against a readperf record file
#    (cpu-clock): the events are paired, each function appears once;
#  - the options reach both files (--comm), usage errors exit 1, a missing
#    file 3, a truncated file 2 with diff.csv still written.
# Prints "ok - ...", "not ok - ...", "skip - ..." lines.
. "$(dirname "$0")/testlib.sh"


# results.csv -> "event<TAB>dso<TAB>function<TAB>samples<TAB>percent" for functions with self samples
self_rows() {
	csv2tsv "$1" | awk -F'\t' 'NR > 1 && $6 > 0 { print $1 "\t" $2 "\t" $3 "\t" $6 "\t" $8 }' | sort
}

# --- a recording against itself
"$PROG" diff -o "$tmp/self" "${sym[@]}" "$td/callgraph-fp.data" "$td/callgraph-fp.data" 2> "$tmp/self.err"
rc=$?
check "diff self: exit 0 (exit $rc)" test $rc -eq 0
check "diff self: one summary line and nothing else" \
	test "$(grep -c '^readperf:' "$tmp/self.err")" -eq 1 -a "$(grep -c '^readperf: diff: cpu-clock: ' "$tmp/self.err")" -eq 1
# no function changed: the line says so, where it named three at x1.0000 (+0.0000 points) as top changes
check "diff self: the summary names no unchanged function as a change ($(head -c 120 "$tmp/self.err"))" \
	grep -q "^readperf: diff: cpu-clock: no function's self time or share changed; [0-9]* of [0-9]* functions within noise" "$tmp/self.err"
"$PROG" -q -o "$tmp/fp" --reports results "${sym[@]}" "$td/callgraph-fp.data"
check "diff self: header row" \
	test "$(head -1 "$tmp/self/diff.csv")" = "event,dso,function,old_samples,new_samples,old_period,new_period,old_percent,new_percent,delta_percent,ratio,old_children_percent,new_children_percent,delta_children_percent,ratio_low,ratio_high,children_ratio,children_ratio_low,children_ratio_high,old_dso,old_function"
bad=$(csv2tsv "$tmp/self/diff.csv" | awk -F'\t' 'NR > 1 && ($4 != $5 || $6 != $7 || $8 != $9 || $10 != "0.0000" || $12 != $13 || $14 != "0.0000" || ($6 > 0 && $11 != "1.0000") || ($6 == 0 && $11 != "1.0000"))' | head -3)
check "diff self: equal samples, periods and percentages, every delta 0.0000, ratio 1.0000${bad:+: $bad}" test -z "$bad"
csv2tsv "$tmp/self/diff.csv" | awk -F'\t' 'NR > 1 && $4 > 0 { print $1 "\t" $2 "\t" $3 "\t" $4 "\t" $8 }' | sort > "$tmp/self.rows"
self_rows "$tmp/fp/results.csv" > "$tmp/fp.rows"
check "diff self: one row per function of results.csv ($(wc -l < "$tmp/fp.rows") functions)" \
	cmp -s "$tmp/self.rows" "$tmp/fp.rows"
# all deltas are 0: the order is event, dso, function
csv2tsv "$tmp/self/diff.csv" | awk -F'\t' 'NR > 1 { print $1 "\t" $2 "\t" $3 }' > "$tmp/self.keys"
check "diff self: rows sorted by event, dso, function" sort -c "$tmp/self.keys"

# --- work.data (no callchains) against callgraph-fp.data (-g), the same program
"$PROG" diff -o "$tmp/wf" "${sym[@]}" "$td/work.data" "$td/callgraph-fp.data" 2> "$tmp/wf.err"
rc=$?
check "diff work callgraph-fp: exit 0 (exit $rc)" test $rc -eq 0
check "diff work callgraph-fp: the summary line only" test "$(grep -c '^readperf:' "$tmp/wf.err")" -eq 1
"$PROG" -q -o "$tmp/work" --reports results "${sym[@]}" "$td/work.data"
self_rows "$tmp/work/results.csv" > "$tmp/work.rows"
# the expected rows, from the two results.csv files: a function missing on one side has 0 there
awk -F'\t' 'FNR == NR { old[$1 "\t" $2 "\t" $3] = $4 "\t" $5; next }
	{ new[$1 "\t" $2 "\t" $3] = $4 "\t" $5 }
	END {
		for (k in old) { if (!(k in new)) new[k] = "0\t0.0000" }
		for (k in new) { if (!(k in old)) old[k] = "0\t0.0000" }
		for (k in old) {
			split(old[k], o, "\t"); split(new[k], n, "\t")
			print k "\t" o[1] "\t" n[1] "\t" o[2] "\t" n[2]
		}
	}' "$tmp/work.rows" "$tmp/fp.rows" | sort > "$tmp/wf.expected"
csv2tsv "$tmp/wf/diff.csv" | awk -F'\t' 'NR > 1 { print $1 "\t" $2 "\t" $3 "\t" $4 "\t" $5 "\t" $8 "\t" $9 }' |
	sort > "$tmp/wf.got"
check "diff work callgraph-fp: samples and percentages per function = the two results.csv ($(wc -l < "$tmp/wf.expected") functions)" \
	cmp -s "$tmp/wf.expected" "$tmp/wf.got"
[ -s "$tmp/wf.expected" ] || echo "not ok - diff work callgraph-fp: results.csv had no functions"
diff "$tmp/wf.expected" "$tmp/wf.got" | head -5 | sed 's/^/# /'
# delta = new - old, in 1/10000 %; the order: |new_period - old_period| descending, then dso, function
bad=$(csv2tsv "$tmp/wf/diff.csv" | awk -F'\t' '
	function u(x) { sub(/\./, "", x); return x + 0 }
	NR > 1 {
		d = u($10)
		if (d != u($9) - u($8)) { print "delta " $0; exit }
		a = $7 - $6; if (a < 0) a = -a
		k = $2 "\t" $3
		if (NR > 2 && (a > pa || (a == pa && k <= pk))) { print "order " $0; exit }
		pa = a; pk = k
	}')
check "diff work callgraph-fp: delta = new - old, sorted by |period change| then dso, function${bad:+: $bad}" test -z "$bad"
check "diff work callgraph-fp: hot_big is in both with the results.csv samples" \
	grep -q "^cpu-clock,work,hot_big,$(awk -F'\t' '$3 == "hot_big" { print $4 }' "$tmp/work.rows"),$(awk -F'\t' '$3 == "hot_big" { print $4 }' "$tmp/fp.rows")," "$tmp/wf/diff.csv"

# --- before/after: compute_b twice the work (testdata/src/regress.c)
rsym=(--symfs "$td/symfs" --kallsyms "$td/kallsyms.boot2")
"$PROG" diff -o "$tmp/reg" "${rsym[@]}" "$td/regress-before.data" "$td/regress-after.data" 2> "$tmp/reg.err"
rc=$?
check "diff regress before/after: exit 0 without a gate (exit $rc)" test $rc -eq 0
first=$(csv2tsv "$tmp/reg/diff.csv" | awk -F'\t' 'NR == 2 { print $3 }')
check "diff regress: compute_b is the first row (got $first)" test "$first" = compute_b
rb=$(csv2tsv "$tmp/reg/diff.csv" | awk -F'\t' '$3 == "compute_b" { print $11 }')
ra=$(csv2tsv "$tmp/reg/diff.csv" | awk -F'\t' '$3 == "compute_a" { print $11 }')
check "diff regress: compute_b ratio within 1.8..2.2 (got $rb), compute_a within 0.9..1.1 (got $ra)" \
	awk -v b="$rb" -v a="$ra" 'BEGIN { exit !(b >= 1.8 && b <= 2.2 && a >= 0.9 && a <= 1.1) }'
# samples per function and the ratio from perf's own counts (expected/*/dso_sym; period = 1/2000 s each at -F 2000
# is not fixed, so compare samples, and the ratio with the periods diff.csv printed)
for side in before after; do
	col=$([ $side = before ] && echo 4 || echo 5)
	want=$(awk -F'\t' '$2 == "regress" && $3 == "compute_b" { print $4 }' "$root/tests/cli/expected/regress-$side/dso_sym")
	got=$(csv2tsv "$tmp/reg/diff.csv" | awk -F'\t' -v c=$col '$3 == "compute_b" { print $c }')
	check "diff regress: compute_b $side samples = perf's ($got, perf $want)" test "$got" = "$want"
done
bad=$(csv2tsv "$tmp/reg/diff.csv" | awk -F'\t' 'NR > 1 && $6 > 0 {
	r = $7 / $6; p = sprintf("%.4f", r); if (p != $11 && sprintf("%.4f", r + 0.00000001) != $11) { print $3 " " p " " $11; exit } }')
check "diff regress: ratio = new_period / old_period${bad:+: $bad}" test -z "$bad"
check "diff regress: summary line names compute_b first" grep -q '^readperf: diff: cpu-clock:ppp: compute_b x' "$tmp/reg.err"
"$PROG" diff -o "$tmp/reg2" "${rsym[@]}" --fail-above-ratio 1.5 "$td/regress-before.data" "$td/regress-after.data" 2> "$tmp/reg2.err"
rc=$?
check "diff --fail-above-ratio 1.5 on a regression: exit 4 (exit $rc)" test $rc -eq 4
check "diff --fail-above-ratio: names compute_b only" \
	test "$(grep -c 'regression:' "$tmp/reg2.err")" -eq 1 -a "$(grep -c 'regression: cpu-clock:ppp regress compute_b x' "$tmp/reg2.err")" -eq 1
"$PROG" diff -q -o "$tmp/reg3" "${rsym[@]}" --fail-above 5 "$td/regress-before.data" "$td/regress-after.data" 2> "$tmp/reg3.err"
rc=$?
check "diff -q --fail-above 5 on a regression: exit 4, only the regression line (exit $rc)" \
	test $rc -eq 4 -a "$(grep -c '^readperf:' "$tmp/reg3.err")" -eq 1 -a "$(grep -c 'compute_b' "$tmp/reg3.err")" -eq 1
# functions OLD lacks (another program): 'new' and 'inf' in the regression lines, not diff.csv's
# sentinels (the old binary: 'self x-1.0000 in 94.3496..-1.0000')
"$PROG" diff -q -o "$tmp/nw" "${rsym[@]}" --fail-above 5 "$td/regress-before.data" "$td/callgraph-fp.data" 2> "$tmp/nw.err"
rc=$?
check "diff --fail-above 5, NEW another program: exit 4 (exit $rc), hot_big 'self new in N..inf'" \
	test $rc -eq 4 -a "$(grep -c '^readperf: diff: regression: cpu-clock work hot_big (new, [0-9.]* points), self new in [0-9.]*\.\.inf$' "$tmp/nw.err")" -eq 1
check "diff regression lines: no -1.0000 sentinel" test "$(grep -c -- '-1\.0000' "$tmp/nw.err")" -eq 0
for gate in "--fail-above 5" "--fail-above-ratio 1.5"; do
	"$PROG" diff -q -o "$tmp/same" "${rsym[@]}" $gate "$td/regress-before.data" "$td/regress-before2.data" 2> "$tmp/same.err"
	rc=$?
	check "diff $gate on two runs of the unchanged program: exit 0 (exit $rc)" test $rc -eq 0
done
"$PROG" diff -q -o "$tmp/rs" "${rsym[@]}" --sort ratio "$td/regress-before.data" "$td/regress-after.data"
bad=$(csv2tsv "$tmp/rs/diff.csv" | awk -F'\t' 'NR > 1 {
	r = ($6 > 0 && $7 > 0) ? log($7 / $6) : 1e9; if (r < 0) r = -r
	if (NR > 2 && r > pr + 1e-9) { print $3; exit } pr = r }')
check "diff --sort ratio: rows by |log ratio|, one-sided first${bad:+: $bad}" test -z "$bad"
"$PROG" diff -q -o "$tmp/rd" "${rsym[@]}" --sort delta "$td/regress-before.data" "$td/regress-after.data"
bad=$(csv2tsv "$tmp/rd/diff.csv" | awk -F'\t' 'NR > 1 { d = $10 < 0 ? -$10 : $10; if (NR > 2 && d > pd) { print $3; exit } pd = d }')
check "diff --sort delta: rows by |delta_percent|${bad:+: $bad}" test -z "$bad"
"$PROG" diff -q --sort nosuch "$td/work.data" "$td/work.data" 2> "$tmp/err"
check "diff --sort nosuch: exit 1" test $? -eq 1
"$PROG" diff -q --fail-above-ratio x "$td/work.data" "$td/work.data" 2> "$tmp/err"
check "diff --fail-above-ratio x: exit 1" test $? -eq 1
"$PROG" -q --fail-above 1 -o "$tmp/x" "$td/work.data" 2> "$tmp/err"
check "--fail-above outside diff: exit 1" test $? -eq 1

# --- perf record (cpu-clock:ppp) against readperf record (cpu-clock) of the same program
"$PROG" diff -o "$tmp/pr" "${rsym[@]}" "$td/regress-before.data" "$td/regress-readperf.data" 2> "$tmp/pr.err"
rc=$?
check "diff perf vs readperf recording: exit 0 (exit $rc)" test $rc -eq 0
check "diff perf vs readperf recording: the pairing is said" \
	grep -q 'event cpu-clock:ppp (OLD) paired with cpu-clock (NEW) by name without modifiers' "$tmp/pr.err"
dups=$(csv2tsv "$tmp/pr/diff.csv" | awk -F'\t' 'NR > 1 { print $2 "\t" $3 }' | sort | uniq -d | head -3)
check "diff perf vs readperf recording: each function once${dups:+: $dups}" test -z "$dups"
check "diff perf vs readperf recording: compute_a and compute_b in both" \
	test "$(csv2tsv "$tmp/pr/diff.csv" | awk -F'\t' '($3 == "compute_a" || $3 == "compute_b") && $4 > 0 && $5 > 0' | wc -l)" -eq 2

# --- options apply to both files
"$PROG" diff -q -o "$tmp/comm" "${sym[@]}" --comm nosuchcomm "$td/work.data" "$td/callgraph-fp.data" 2> "$tmp/err"
check "diff --comm nosuchcomm: exit 2 naming the processes there, header row only" \
	test $? -eq 2 -a "$(wc -l < "$tmp/comm/diff.csv")" -eq 1 -a "$(grep -c 'no sample passes the filters.*processes [0-9]* work' "$tmp/err")" -ge 1
"$PROG" diff -q -o "$tmp/ev" "${sym[@]}" -e cpu-clock "$td/work.data" "$td/callgraph-fp.data"
check "diff -e cpu-clock: the same as without -e" cmp -s "$tmp/ev/diff.csv" "$tmp/wf/diff.csv"

# --- errors
"$PROG" diff "$td/work.data" > /dev/null 2> "$tmp/err"
rc=$?
check "diff with one file: exit 1 and a usage line (exit $rc)" test $rc -eq 1 -a -s "$tmp/err"
"$PROG" diff --timeline "$tmp/x" "$td/work.data" "$td/work.data" > /dev/null 2> "$tmp/err"
rc=$?
check "diff --timeline: exit 1, an option of the analysis only (exit $rc)" \
	test $rc -eq 1 -a "$(grep -c 'analysis only' "$tmp/err")" -eq 1
# every option of the analysis that diff does not use (its outputs but --folded and --flamegraph,
# diff's own: test-diff-builds.sh; --reports, --percent-limit
# of the report writer, --inline of the stacks and callers.csv, many files, -i, -j) is refused
# in one line naming it, exit 1, nothing written (the old binary took most of them silently)
for args in "-i $td/work.data" "--reports results" "--percent-limit 5" "--weight period" "--inline" "--minwidth 1" "--interval 10ms" \
	    "--timeline $tmp/r.svg" "--speedscope $tmp/r.json" "--folded-offcpu $tmp/r.f" \
	    "--flamegraph-offcpu $tmp/r.svg" "--files-from $tmp/r.list" "-j 2" "--jobs=2" "--profile-column" \
	    "--no-profile-column" "--speed $tmp/r.json"; do
	rm -rf "$tmp/refused"
	"$PROG" diff -q -o "$tmp/refused" $args "$td/work.data" "$td/work.data" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	opt=${args%% *}
	case $opt in --speed) opt=--speedscope ;; --jobs=2) opt=--jobs ;; esac
	check "diff $args: refused in one line naming $opt, exit 1, nothing written (exit $rc)" \
		test $rc -eq 1 -a "$(wc -l < "$tmp/err")" -eq 1 -a ! -s "$tmp/out" -a ! -e "$tmp/refused" \
		-a "$(grep -c "^readperf diff: $opt is an option of the analysis only$" "$tmp/err")" -eq 1
done
# and the analysis refuses diff's own
"$PROG" -q -o "$tmp/refused" --fail-above 1 "$td/work.data" > /dev/null 2> "$tmp/err"
rc=$?
check "readperf --fail-above: exit 1, one line naming it (exit $rc)" test $rc -eq 1 -a ! -e "$tmp/refused" \
	-a "$(wc -l < "$tmp/err")" -eq 1 -a "$(grep -c '^readperf: --fail-above is an option of readperf diff$' "$tmp/err")" -eq 1
"$PROG" diff -q -o "$tmp/missing" "$tmp/no-such.data" "$td/work.data" 2> "$tmp/err"
rc=$?
check "diff with a missing file: exit 3, the message names it (exit $rc)" \
	test $rc -eq 3 -a "$(grep -c 'no-such.data' "$tmp/err")" -ge 1
size=$(stat -c %s "$td/callgraph-fp.data")
head -c $((size / 2 + 3)) "$td/callgraph-fp.data" > "$tmp/trunc.data"
"$PROG" diff -q -o "$tmp/trunc" "${sym[@]}" "$td/work.data" "$tmp/trunc.data" 2> "$tmp/err"
rc=$?
n=$(csv2tsv "$tmp/trunc/diff.csv" 2> /dev/null | awk -F'\t' 'NR > 1 && $5 > 0' | wc -l)
check "diff with a truncated file: exit 2, message names it, diff.csv covers what was read (exit $rc, $n new rows)" \
	test $rc -eq 2 -a "$(grep -c 'trunc.data' "$tmp/err")" -ge 1 -a "$n" -gt 0
# NEW with no sample (a pipe stream cut after its attr: 123 bytes of work.pipe.data), OLD with
# samples: the differential flame graph's widths are NEW's, so it draws nothing and says so
# (it divided by NEW's total 0: SIGFPE, found by a hostile-input run); OLD's period is the
# period of work.data's one event, as perf report's "Event count" says (639750000)
head -c 123 "$td/work.pipe.data" > "$tmp/nosample.data"
old=639750000
for sides in "work.data nosample.data" "nosample.data nosample.data"; do
	set -- $sides
	a=$td/$1; [ "$1" = nosample.data ] && a=$tmp/$1
	rm -rf "$tmp/empty"
	"$PROG" diff -q -o "$tmp/empty" --flamegraph "$tmp/empty.svg" "$a" "$tmp/$2" 2> "$tmp/err"
	rc=$?
	want="no samples in NEW (OLD period $old)"
	[ "$1" = nosample.data ] && want="no samples"
	check "diff $1 $2 --flamegraph: exit 0 (exit $rc), the graph says \"$want\"" \
		test $rc -eq 0 -a "$(grep -c "class=\"subtitle\" x=\"600\" y=\"44\">$want</text>" "$tmp/empty.svg")" -eq 1
	cp "$tmp/empty.svg" "$tmp/empty-${1%.data}.svg"
done
node_check "diff, NEW without samples" wellformed-check.mjs "$tmp/empty-work.svg" "$tmp/empty-nosample.svg"
# two unrelated programs (work, cxx: main executables of different names, no function alike but
# main) are not paired as one program: a renamed build keeps its functions (test-diff-builds)
"$PROG" diff -o "$tmp/unrel" --folded "$tmp/unrel.folded" --symfs "$td/symfs" --kallsyms "$td/kallsyms" \
	"$td/work.data" "$td/cxx.data" > /dev/null 2> "$tmp/unrel.err"
check "diff of two unrelated programs: their main executables are not paired ($(grep -o 'dso .*paired.*' "$tmp/unrel.err"))" \
	test "$(grep -c 'paired with' "$tmp/unrel.err")" -eq 0 -a "$(grep -c '^cpu-clock,work,hot_big,' "$tmp/unrel/diff.csv")" -eq 1
check "diff of two unrelated programs: --folded keeps OLD's stacks under work, as diff.csv (work;hot_big)" \
	grep -q '^work;hot_big ' "$tmp/unrel.folded"

# JIT code named by its process: two recordings of one program whose perf maps are
# /tmp/perf-PID.map of two pids (gen-perf --names: perf report's dsos "[JIT] tid PID");
# perf diff pairs by name and leaves each JIT function on one side only
if [ -x "$GEN" ]; then
	p1=$((4300000 + $$ % 100000 * 2))
	p2=$((p1 + 1))
	trap 'rm -rf "$tmp" /tmp/perf-$p1.map /tmp/perf-$p2.map' EXIT
	"$GEN" --names "$tmp/jit1.data" /tmp/perf-$p1.map $p1
	"$GEN" --names "$tmp/jit2.data" /tmp/perf-$p2.map $p2
	"$PROG" diff -o "$tmp/jit" "$tmp/jit1.data" "$tmp/jit2.data" > /dev/null 2> "$tmp/jit.err"
	check "diff of two runs' perf maps: [JIT] tid $p1 (OLD) paired with [JIT] tid $p2 (NEW)" \
		grep -q "diff: dso \[JIT\] tid $p1 (OLD) paired with \[JIT\] tid $p2 (NEW): both a process's JIT code" "$tmp/jit.err"
	check "diff of two runs' perf maps: no JIT function on one side only" \
		test "$(awk -F, '$2 ~ /^\[JIT\] tid / && ($4 == 0 || $5 == 0)' "$tmp/jit/diff.csv" | wc -l)" -eq 0 -a \
		"$(grep -c '^[^,]*,\[JIT\] tid ' "$tmp/jit/diff.csv")" -gt 0
else
	echo "skip - diff of two runs' perf maps: gen-perf not built"
fi
exit 0

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# readperf diff on two real builds of one program (testdata/src/diffbuild.c)
# built here with gcc under different names and with different clone numbers
# (prog_old: -O2, hot is hot.constprop.0, leaf leaf.constprop.0; prog_new:
# -O2 -fipa-cp-clone -DRENUMBER, hot's clone that does the work is
# hot.constprop.1, the other one never runs; -DHOT=2 -DDEEP=3) and recorded
# with perf record -g -F 4000:
#  - nm shows the clone numbers differ (else the clone checks skip: another gcc);
#  - the main executables pair (said on stderr), hot.constprop.0 pairs with
#    hot.constprop.1 (said), every function of the program is one row and
#    every OLD function is in one row;
#  - hot, twice the iterations (the true slowdown 2), is the first row of
#    the program, its ratio over leaf's (the same work in both builds: how
#    much the machine's speed moved between the two recordings) within
#    1.8..2.2 (10%);
#  - mid (no work of its own, calls deep, 3x the iterations): --gate children
#    --fail-above-ratio 1.5 exits 4 naming mid through children; --gate self
#    does not name mid;
#  - --folded: STACK OLD NEW lines whose hot stacks sum to diff.csv's
#    periods; --flamegraph in headless chromium (tests/js/flamegraph-check.mjs):
#    hot red, leaf pale, click-to-zoom and search, byte-identical twice;
#  - two samplings of one run of the unchanged prog_old (perf record of perf
#    record): --fail-above-ratio 1.1 at the default confidence fires in
#    neither of 2 pairs.
#  - OLD... -- NEW...: the runs of a side summed, the ratio of the means;
#    3 runs against 3 of the unchanged binary fire no gate; "A --" is a usage error.
# Skips when gcc or perf is missing or perf_event_open is refused.
. "$(dirname "$0")/testlib.sh"

command -v gcc > /dev/null && command -v perf > /dev/null || { echo "skip - diff builds: no gcc or perf"; exit 0; }
src=$root/testdata/src/diffbuild.c
# -DROUNDS=1000: hot and leaf take turns 1000 times a run (UNIT iterations a turn), so a
# change of the machine's speed during a run slows both alike (see hot_over_leaf below)
gcc -O2 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -DROUNDS=1000 -o "$tmp/prog_old" "$src" &&
	gcc -O2 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fipa-cp-clone -DRENUMBER -DHOT=2 -DDEEP=3 \
		-DROUNDS=1000 -o "$tmp/prog_new" "$src" ||
	{ echo "not ok - diff builds: gcc failed"; exit 0; }
rec() { perf record -q -g -F ${FREQ:-4000} -o "$1" -- "${@:2}" > /dev/null 2> "$1.err"; }
# base: a function name without GCC's clone suffixes, as diff pairs them
base='function base(f) { while (sub(/\.(constprop|isra|part)\.[0-9]+$/, "", f)); return f }'
hot_ratio() {	# the NEW/OLD period ratio of hot and of leaf in $tmp/d/diff.csv, and their names
	csv2tsv "$tmp/d/diff.csv" | awk -F'\t' "$base"'
		$2 == "prog_new" && base($3) == "hot" { h = $11; hn = $3 } $2 == "prog_new" && base($3) == "leaf" { l = $11; ln = $3 }
		END { print h, l, hn, ln }'
}
# the recordings measure CPU time: a VM whose host is busy can slow one of
# them as a whole (hot 2.40 with leaf 1.11 while CI ran beside) or unevenly
# (hot 1.66 with leaf 1.02 once in CI).  So hot's ratio is taken relative to
# leaf's, and hot and leaf take turns 1000 times a run (-DROUNDS=1000): built
# without it GCC ran main's 10 rounds' calls once, hot as one block and leaf as
# another, so a change of speed between them moved hot over leaf (1.56-2.26 here
# under load, a pair outside 1.8..2.2 one time in 3.5, all 3 pairs once;
# interleaved 1.979-2.007).  A pair outside 1.8..2.2 is recorded again, up to
# 3 pairs; the checks below are on the last pair
hot_over_leaf() { awk -v h="$1" -v l="$2" 'BEGIN { if (l > 0) printf "%.4f", h / l; else print "none" }'; }
for try in 1 2 3; do
	rec "$tmp/old.data" "$tmp/prog_old" 30000 || { echo "skip - diff builds: perf record refused: $(head -1 "$tmp/old.data.err")"; exit 0; }
	rec "$tmp/new.data" "$tmp/prog_new" 30000
	rm -rf "$tmp/d"
	"$PROG" diff -o "$tmp/d" "$tmp/old.data" "$tmp/new.data" 2> "$tmp/d.err"
	rc=$?
	read -r rh rl hot_new leaf_new <<< "$(hot_ratio)"
	rn=$(hot_over_leaf "$rh" "$rl")
	[ $rc -ne 0 ] || awk -v h="$rn" 'BEGIN { exit !(h >= 1.8 && h <= 2.2) }' && break
done
check "diff builds: exit 0 (exit $rc)" test $rc -eq 0
check "diff builds: the main executables paired, said on stderr" \
	grep -q '^readperf: diff: dso prog_old (OLD) paired with prog_new (NEW): both the main executable$' "$tmp/d.err"
# the clone numbers: hot.constprop.0 in prog_old; in prog_new hot.constprop.1 is the
# clone that runs (diff.csv's NEW row of hot has its samples), .0 never runs
if nm "$tmp/prog_old" | grep -q ' hot\.constprop\.0$' && ! nm "$tmp/prog_old" | grep -q ' hot\.constprop\.1$' &&
	nm "$tmp/prog_new" | grep -q ' hot\.constprop\.1$'; then
	check "diff builds: hot.constprop.0 (OLD) and hot.constprop.1 (NEW) paired, said on stderr" \
		grep -q 'paired without their clone suffix: .*prog_old hot.constprop.0 (OLD) with prog_new hot.constprop.1 (NEW)' "$tmp/d.err"
	got=$(csv2tsv "$tmp/d/diff.csv" | awk -F'\t' '$2 == "prog_new" && $NF == "hot.constprop.0" { print $3, $5 }')
	check "diff builds: diff.csv's hot row is NEW's hot.constprop.1 with its samples, OLD's hot.constprop.0 ($got)" \
		awk -v g="$got" 'BEGIN { split(g, x, " "); exit !(x[1] == "hot.constprop.1" && x[2] > 0) }'
else
	echo "skip - diff builds: gcc did not number hot's clones as gcc 12 does ($(nm "$tmp/prog_old" "$tmp/prog_new" | grep -o ' hot[.a-z0-9]*$' | tr -d '\n'))"
fi
rows=$(csv2tsv "$tmp/d/diff.csv" | awk -F'\t' "$base"'$2 == "prog_new" { print base($3) "\t" $4 "\t" $5 }')
for f in hot leaf mid deep main; do
	n=$(printf '%s\n' "$rows" | awk -F'\t' -v f="$f" '$1 == f' | wc -l)
	both=$(printf '%s\n' "$rows" | awk -F'\t' -v f="$f" '$1 == f && ($2 > 0) == ($3 > 0)' | wc -l)
	[ "$f" = mid ] || [ "$f" = main ] && both=$n	# no self samples of their own
	check "diff builds: $f is one row, on both sides (rows $n)" test "$n" -eq 1 -a "$both" -eq 1
done
# each OLD function of the program is in one row: no OLD name paired twice or left beside its NEW row
twice=$(csv2tsv "$tmp/d/diff.csv" | awk -F'\t' 'NR > 1 && $(NF - 1) == "prog_old" { n[$NF]++ } END { for (f in n) if (n[f] > 1) print f }')
check "diff builds: every OLD function of prog_old in one row${twice:+: twice $twice}" test -z "$twice"
# a prog_old row is a function NEW has no sample of (a rare callee such as tick), never one NEW has
left=$(csv2tsv "$tmp/d/diff.csv" | awk -F'\t' "$base"'$2 == "prog_new" { n[base($3)] = 1 } $2 == "prog_old" { o[$3] = 1 }
	END { for (f in o) if (base(f) in n) print f }')
check "diff builds: no prog_old function left unpaired that NEW has${left:+: $left}" test -z "$left"
# the true slowdown: hot does 2x the iterations of the same loop, relative to
# leaf (the same work in both builds: how much the machine moved between the runs)
first=$(csv2tsv "$tmp/d/diff.csv" | awk -F'\t' "$base"'NR > 1 && $2 == "prog_new" { print base($3); exit }')
check "diff builds: hot is the program's first row (got $first)" test "$first" = hot
check "diff builds: hot ratio $rh over leaf's $rl (unchanged) = $rn within 1.8..2.2 (pair $try of at most 3)" \
	awk -v h="$rn" 'BEGIN { exit !(h >= 1.8 && h <= 2.2) }'
"$PROG" diff -q -o "$tmp/g" --gate children --fail-above-ratio 1.5 "$tmp/old.data" "$tmp/new.data" 2> "$tmp/g.err"
rc=$?
check "diff builds: --gate children --fail-above-ratio 1.5: exit 4 (exit $rc)" test $rc -eq 4
check "diff builds: the children gate names mid with its children ratio and change of share" \
	grep -q 'regression: .* prog_new mid .*, children x[0-9.]* ([+-][0-9.]* points) in [0-9.]*\.\.[0-9.]*$' "$tmp/g.err"
"$PROG" diff -q -o "$tmp/s" --gate self --fail-above-ratio 1.5 "$tmp/old.data" "$tmp/new.data" 2> "$tmp/s.err"
check "diff builds: --gate self does not name mid" test -z "$(grep 'prog_new mid ' "$tmp/s.err")"

# --folded: "STACK OLD NEW" lines; the stacks ending in hot sum to hot's self periods of diff.csv
"$PROG" diff -q -o "$tmp/f" --folded "$tmp/f.folded" --flamegraph "$tmp/f.svg" "$tmp/old.data" "$tmp/new.data" 2> "$tmp/f.err"
rc=$?
check "diff builds --folded --flamegraph: exit 0 (exit $rc$(head -c 200 "$tmp/f.err"))" test $rc -eq 0
bad=$(awk 'NF < 3 || $(NF - 1) !~ /^[0-9]+$/ || $NF !~ /^[0-9]+$/' "$tmp/f.folded" | head -2)
check "diff builds --folded: every line STACK OLD NEW ($(wc -l < "$tmp/f.folded") lines)${bad:+: $bad}" \
	test -z "$bad" -a -s "$tmp/f.folded"
got=$(awk '$(NF - 2) ~ /;hot(\.constprop\.[0-9]+)?$/ { o += $(NF - 1); n += $NF } END { printf "%.0f %.0f\n", o, n }' "$tmp/f.folded")
want=$(csv2tsv "$tmp/d/diff.csv" | awk -F'\t' -v f="$hot_new" '$2 == "prog_new" && $3 == f { print $6, $7 }')
check "diff builds --folded: the stacks ending in hot sum to diff.csv's old/new period ($got, diff.csv $want)" \
	test "$got" = "$want"
# OLD's main process stands as NEW's: every stack of prog_old under prog_new (those
# OLD alone has too), and OLD's column sums to OLD's period as perf report counts it
got=$(awk -F';' '$1 == "prog_old"' "$tmp/f.folded" | wc -l)
check "diff builds --folded: no stack under OLD's name prog_old ($got)" test "$got" -eq 0
got=$(awk '{ o += $(NF - 1) } END { printf "%.0f\n", o }' "$tmp/f.folded")
want=$(perf report -i "$tmp/old.data" --stdio --no-children --sort comm -F period -g none 2> /dev/null |
	awk '$1 ~ /^[0-9]+$/ { p += $1 } END { printf "%.0f\n", p }')
check "diff builds --folded: OLD's column sums to perf report's period of old.data ($got, perf $want)" \
	test "$got" = "$want"
# the differential flame graph in headless chromium: hot red, leaf pale, zoom and search
pct=$(csv2tsv "$tmp/d/diff.csv" | awk -F'\t' -v f="$hot_new" '$2 == "prog_new" && $3 == f { print $13 }')
node_check chromium flamegraph-check.mjs "$tmp/f.svg" "$hot_new" '^hot(\.constprop\.[0-9]+)?$' "$pct" "$hot_new" "$leaf_new"
"$PROG" diff -q -o "$tmp/f2" --flamegraph "$tmp/f2.svg" "$tmp/old.data" "$tmp/new.data" 2> /dev/null
check "diff builds --flamegraph: byte-identical twice" cmp -s "$tmp/f.svg" "$tmp/f2.svg"

# the unchanged binary: the gate at the default confidence does not fire. Each pair is two
# samplings of one run (perf record running perf record running prog_old: the outer file
# also holds the inner perf, left out with --comms), so the two differ by sampling alone.
# Two separate runs differ by what the machine did meanwhile, which no noise model of the
# samples can know: under load the gate fired in 3 of 30 such pairs, on a leaf slowed by
# 1.40 in one run (a VM's speed phase) and on kernel interrupt entries
# (asm_sysvec_apic_timer_interrupt, irqentry_exit_to_user_mode: children new in NEW) that
# one run's preemptions put there, and the check failed when both of its 2 pairs fired.
# (The interval's arithmetic is tests/unit/test-analysis.c's; a gate that looked at
# ratio_high instead of ratio_low fires on every such pair.)
rec2() {	# OUTER INNER CMD...: one run of CMD recorded by both
	perf record -q -g -F 4000 -o "$1" -- perf record -q -g -F 4000 -o "$2" -- "${@:3}" > /dev/null 2> "$1.err"
}
fired=0 why=
for i in 1 2; do
	rec2 "$tmp/a$i.data" "$tmp/b$i.data" "$tmp/prog_old" 10000
	"$PROG" diff -q -o "$tmp/n$i" --comms prog_old --fail-above-ratio 1.1 "$tmp/a$i.data" "$tmp/b$i.data" \
		2> "$tmp/n$i.err" || { fired=$((fired + 1)); why="$why $(grep -m1 -o 'regression: .*' "$tmp/n$i.err")"; }
done
check "diff builds: unchanged binary (two samplings of one run), gate fired in $fired of 2 pairs (none)${why:+:$why}" \
	test $fired -eq 0

# several recordings per side: OLD... -- NEW... sums them, the period of a side the mean per run
"$PROG" diff -q -o "$tmp/m" "$tmp/a1.data" "$tmp/a2.data" -- "$tmp/b1.data" 2> "$tmp/m.err"
rc=$?
check "diff A1 A2 -- B1: exit 0 (exit $rc)" test $rc -eq 0
"$PROG" diff -q -o "$tmp/m1" "$tmp/a1.data" "$tmp/b1.data" 2> /dev/null
"$PROG" diff -q -o "$tmp/m2" "$tmp/a2.data" "$tmp/b1.data" 2> /dev/null
for f in leaf hot; do
	o1=$(awk -F, -v f="$f" '$3 ~ "^" f "([.]constprop[.][0-9]+)?$" { print $4, $6 }' "$tmp/m1/diff.csv")
	o2=$(awk -F, -v f="$f" '$3 ~ "^" f "([.]constprop[.][0-9]+)?$" { print $4, $6 }' "$tmp/m2/diff.csv")
	got=$(awk -F, -v f="$f" '$3 ~ "^" f "([.]constprop[.][0-9]+)?$" { print $4, $6, $7, $11 }' "$tmp/m/diff.csv")
	# old samples and period: the two runs' sums; ratio = new / (old / 2), 4 decimals half up
	bad=$(awk -v a="$o1" -v b="$o2" -v g="$got" 'BEGIN { split(a, x, " "); split(b, y, " "); split(g, z, " ")
		want = int((z[3] * 2 * 20000 + z[2]) / (z[2] * 2)) / 10000
		if (z[1] != x[1] + y[1] || z[2] != x[2] + y[2] || sprintf("%.4f", want) != z[4]) print "got " g }')
	check "diff A1 A2 -- B1: $f's OLD samples and period are the two runs' sums, ratio of the means ($got)${bad:+: $bad}" \
		test -n "$got" -a -z "$bad"
done
"$PROG" diff -q -o "$tmp/m3" --comms prog_old --fail-above-ratio 1.1 "$tmp/a1.data" "$tmp/a2.data" "$tmp/old.data" -- \
	"$tmp/b1.data" "$tmp/b2.data" "$tmp/a1.data" 2> "$tmp/m3.err"
rc=$?
check "diff 3 runs -- 3 runs of the unchanged binary: no gate fires (exit $rc)" test $rc -eq 0
"$PROG" diff -q -o "$tmp/m4" "$tmp/a1.data" -- 2> "$tmp/m4.err"
rc=$?
check "diff A -- (no NEW): exit 1 and a usage line (exit $rc)" test $rc -eq 1 -a -s "$tmp/m4.err"

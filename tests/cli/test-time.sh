#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Time and waiting, on testdata/src/phases.c (a thread "phases" alternates
# 300 ms of compute_phase() and 300 ms of nanosleep() 5 times and prints the
# time it measured itself asleep, kept in NAME.measured):
# - phases-switch.data (--switch-events, context-switches samples, -g) and
#   phases-sched.data (-a, sched:sched_switch samples, -g): threads.csv's
#   off-CPU time of the thread within 5% of the measured sleep; offcpu.csv
#   puts it on the sleep call; --folded-offcpu adds up to offcpu.csv; the
#   off-CPU flame graph in chromium; perf sched timehist agrees;
# - timeline.csv rises and falls with the phases, --timeline in chromium;
# - --speedscope validates, matches results.csv, opens in speedscope;
# - a file without context switches: said once, nothing written.
. "$(dirname "$0")/testlib.sh"

within() {	# A B PCT: |A - B| <= PCT% of B
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * p / 100) }'
}

for rec in phases-switch phases-sched; do
	S=(--symfs "$td/symfs" --kallsyms "$td/$rec.kallsyms")
	"$PROG" -q -o "$tmp/$rec" "${S[@]}" --folded-offcpu "$tmp/$rec.off" --flamegraph-offcpu "$tmp/$rec.off.svg" \
		"$td/$rec.data" 2> "$tmp/$rec.err"
	rc=$?
	check "$rec: exit 0, no message (exit $rc)" test $rc -eq 0 -a "$(grep -c "^readperf:" "$tmp/$rec.err")" -eq 0
	slept=$(sed -n 's/^phases: slept \([0-9]*\) ns.*/\1/p' "$td/$rec.measured")
	# the thread that computes and sleeps: comm phases, tid != pid, with cpu-clock samples
	row=$(csv2tsv "$tmp/$rec/threads.csv" | awk -F'\t' '$3 == "phases" && $1 != $2 && $7 ~ /^cpu-clock/')
	tid=$(echo "$row" | cut -f2)
	off=$(echo "$row" | cut -f11)
	vol=$(echo "$row" | cut -f13)
	check "$rec: threads.csv: the phases thread $tid off the CPU $off ns, within 5% of the $slept ns it measured asleep" \
		within "$off" "$slept" 5
	check "$rec: threads.csv: 5 voluntary switches or more (the sleeps; $vol)" test "${vol:-0}" -ge 5
	top=$(csv2tsv "$tmp/$rec/offcpu.csv" | awk -F'\t' -v t="$tid" '$2 == t' | head -1)
	check "$rec: offcpu.csv: the thread's time is on the sleep call ($(echo "$top" | cut -f4-7 | tr '\t' ' '))" \
		test "$(echo "$top" | cut -f5 | grep -c nanosleep)" -eq 1 -a "$(echo "$top" | cut -f6)" -eq 5
	check "$rec: offcpu.csv: the sleep call holds 99% of the thread's off-CPU time" \
		within "$(echo "$top" | cut -f7)" "$off" 1
	total=$(csv2tsv "$tmp/$rec/offcpu.csv" | awk -F'\t' 'NR > 1 { s += $7 } END { printf "%.0f", s }')
	check "$rec: --folded-offcpu adds up to offcpu.csv ($total ns)" \
		test "$(awk '{ s += $NF } END { printf "%.0f", s }' "$tmp/$rec.off")" = "$total"
	sleeps=$(awk '/nanosleep/ && /^phases;/ { s += $NF } END { printf "%.0f", s }' "$tmp/$rec.off")
	check "$rec: --folded-offcpu: the nanosleep stacks hold the sleep ($sleeps ns)" within "$sleeps" "$slept" 5
	check "$rec: off-CPU flame graph all blue (flamegraph.pl's io palette)" \
		test "$(grep -o 'fill="rgb([0-9]*,[0-9]*,[0-9]*)"' "$tmp/$rec.off.svg" |
			awk -F'[(),]' '!($2 == $3 && $2 >= 80 && $2 <= 140 && $4 >= 190) { n++ } END { print n + 0 }')" -eq 0
	pct=$(awk -v s="$sleeps" -v t="$total" 'BEGIN { printf "%.4f", 100 * s / t }')
	node_check "$rec off-CPU flame graph" flamegraph-check.mjs "$tmp/$rec.off.svg" \
		"$(awk -F';' '/nanosleep/ && /^phases;/ { for (i = 1; i <= NF; i++) if ($i ~ /nanosleep/) { print $i; exit } }' "$tmp/$rec.off")" \
		'nanosleep@' "$pct"
done

# perf sched timehist prints a task's wait before each run period when the task next leaves the
# CPU; the thread exits after its fifth sleep, so timehist's sum is the first four sleeps and
# readperf's off-CPU time is that plus the fifth (300 ms, give or take the scheduler)
if command -v perf > /dev/null; then
	tid=$(csv2tsv "$tmp/phases-sched/threads.csv" | awk -F'\t' '$3 == "phases" && $1 != $2 && $7 ~ /^cpu-clock/ { print $2 }')
	off=$(csv2tsv "$tmp/phases-sched/threads.csv" | awk -F'\t' -v t="$tid" '$2 == t { print $11; exit }')
	th=$(perf sched timehist -i "$td/phases-sched.data" 2> /dev/null |
		awk -v t="[$tid/" 'index($3, t) { w += $4 } END { printf "%.0f", w * 1000000 }')
	check "phases-sched: perf sched timehist's waits ($th ns) + the fifth sleep = readperf's $off ns" \
		awk -v a="$off" -v b="$th" 'BEGIN { d = a - b; exit !(d >= 290000000 && d <= 310000000) }'
else
	echo "skip - phases-sched against perf sched timehist: no perf"
fi

# --- timeline.csv and --timeline
S=(--symfs "$td/symfs" --kallsyms "$td/phases-switch.kallsyms")
"$PROG" -q -o "$tmp/tl" "${S[@]}" --interval 100ms --timeline "$tmp/tl.svg" "$td/phases-switch.data"
# compute_phase's share per 100 ms interval of cpu-clock: high (>= 90%) or nothing (no sample)
csv2tsv "$tmp/tl/timeline.csv" | awk -F'\t' 'NR > 1 && $3 ~ /^cpu-clock/ {
		t[$1] += $7; if ($5 == "compute_phase") c[$1] = $8; if (!($1 in seen)) { seen[$1] = 1; o[n++] = $1 } }
	END { for (i = 0; i < n; i++) { s = o[i]; print (t[s] == 0 ? "Z" : (c[s] >= 90 ? "H" : "M")) } }' |
	tr -d '\n' > "$tmp/tl.pattern"
pattern=$(cat "$tmp/tl.pattern")
falls=$(grep -o '[HM]Z' "$tmp/tl.pattern" | wc -l)
rises=$(grep -o 'ZH' "$tmp/tl.pattern" | wc -l)
check "timeline.csv at 100ms: compute_phase's share falls $falls times and rises $rises ($pattern)" \
	test "$falls" -ge 4 -a "$rises" -ge 4 -a "$(echo "$pattern" | tr -cd H | wc -c)" -ge 12
check "timeline.csv: intervals 100 ms apart" \
	test "$(csv2tsv "$tmp/tl/timeline.csv" | awk -F'\t' 'NR > 1 { print $1 }' | sort -un | sed -n 2p)" = 100000000
"$PROG" -q -o "$tmp/tld" "${S[@]}" "$td/phases-switch.data"
step=$(csv2tsv "$tmp/tld/timeline.csv" | awk -F'\t' 'NR > 1 { print $1 }' | sort -un | sed -n 2p)
n=$(csv2tsv "$tmp/tld/timeline.csv" | awk -F'\t' 'NR > 1 { print $1 }' | sort -un | wc -l)
check "timeline.csv default: a readable interval ($step ns: 1, 2 or 5 x 10^n), about 100 of them ($n)" \
	test -n "$(echo "$step" | grep -E '^[125]0*$')" -a "$n" -ge 40 -a "$n" -le 101
"$PROG" -q -o "$tmp/tl2" --reports none "${S[@]}" --interval 100ms --timeline "$tmp/tl2.svg" "$td/phases-switch.data"
check "--timeline: byte-identical across runs (also with --reports none)" cmp -s "$tmp/tl.svg" "$tmp/tl2.svg"
node_check "timeline SVG" timeline-check.mjs "$tmp/tl.svg" "$tmp/tl/timeline.csv" "$tmp/tl.png"
# --time with % on a pipe-mode recording: no first/last sample time in a pipe's header (perf 6.1
# says "no first/last sample time found in perf data. Please use latest perf binary"): said why
"$PROG" -q -o "$tmp/pp" --time 10%-20% "$td/dwarf-nofp.pipe" 2> "$tmp/pp.err"
rc=$?
check "--time 10%-20% on a pipe: exit 2, says it is the pipe's header (exit $rc)" \
	test $rc -eq 2 -a "$(grep -c 'pipe-mode recording (perf record -o -) cannot have' "$tmp/pp.err")" -eq 1
"$PROG" -q -o "$tmp/x" --interval soon "$td/phases-switch.data" 2> "$tmp/err"
check "--interval soon: exit 1 with a message" test $? -eq 1 -a -s "$tmp/err"

# --- speedscope
"$PROG" -q -o "$tmp/ss" "${S[@]}" --speedscope "$tmp/ss.json" "$td/phases-switch.data"
node_check "speedscope phases-switch" speedscope-check.mjs "$tmp/ss.json" "$tmp/ss/results.csv" \
	"$(awk -F, 'NR == 2 { print $1 }' "$tmp/ss/events.csv")"
"$PROG" -q -o "$tmp/ss2" "${sym[@]}" --speedscope "$tmp/ss2.json" "$td/threads.data"
node_check "speedscope threads" speedscope-check.mjs "$tmp/ss2.json" "$tmp/ss2/results.csv" cpu-clock
"$PROG" -q -o "$tmp/ss3" "${sym[@]}" --speedscope "$tmp/ss3.json" "$td/threads.data"
check "speedscope: byte-identical across runs" cmp -s "$tmp/ss2.json" "$tmp/ss3.json"
check "speedscope threads: a profile per thread ($(grep -o '"type":"sampled"' "$tmp/ss2.json" | wc -l))" \
	test "$(grep -o '"type":"sampled"' "$tmp/ss2.json" | wc -l)" -ge 3

# --- no context switches in the file
"$PROG" -o "$tmp/w" "${sym[@]}" --folded-offcpu "$tmp/w.off" "$td/work.data" > /dev/null 2> "$tmp/w.err"
rc=$?
check "work.data --folded-offcpu: exit 0, said once, nothing written (exit $rc)" \
	test $rc -eq 0 -a "$(grep -c 'no context switches' "$tmp/w.err")" -eq 1 -a ! -e "$tmp/w.off"
check "work.data: offcpu.csv has the header only" test "$(wc -l < "$tmp/w/offcpu.csv")" -eq 1
check "work.data: threads.csv says -1 for the switch columns" \
	test "$(csv2tsv "$tmp/w/threads.csv" | awk -F'\t' 'NR > 1 && $11 != -1' | wc -l)" -eq 0

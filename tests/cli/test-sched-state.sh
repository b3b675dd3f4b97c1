#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# sched:sched_switch's prev_state, and a sched_switch format that cannot be read.
# testdata/sched-idle.sched: a system-wide recording with kernel threads
# (perf record -z -a -e sched:sched_switch -- sleep 0.3, see testdata/README);
# its prev_state values include TASK_REPORT_IDLE (0x80, perf script's "I":
# rcu_preempt, kworkers), which is a sleep.  Per thread, threads.csv's
# switches, voluntary and preempted must equal a count of perf script's
# prev_state ("R" and "R+" preempted, every other state voluntary), kept in
# tests/cli/expected/sched-idle.switches (made with the awk below) and
# recomputed when perf is installed.  Before the fix the 0x7f mask counted
# every "I" switch as preempted.
. "$(dirname "$0")/testlib.sh"
need_python "sched_switch"
# testdata/sched-task.sched: sched_switch of one command without -a (its ID_INDEX names the
# task's tid): a warning that the time off the CPU is mostly missing; none for the
# system-wide recordings (ID_INDEX tid -1)
"$PROG" -o "$tmp/task" --reports threads "$td/sched-task.sched" > /dev/null 2> "$tmp/task.err"
check "sched_switch without -a: warned, the recording is not system-wide ($(head -c 160 "$tmp/task.err"))" \
	grep -q "sched-task.sched: 7 sched:sched_switch samples of a recording that is not system-wide" "$tmp/task.err"
for n in sched-idle.sched phases-sched.data; do
	"$PROG" -o "$tmp/wide" --reports threads --kallsyms "$td/kallsyms" "$td/$n" > /dev/null 2> "$tmp/wide.err"
	check "sched_switch with -a ($n): no such warning" test "$(grep -c 'not system-wide' "$tmp/wide.err")" -eq 0
done
# its ID_INDEX (at 0x108, perf report -D) with an nr its 80 bytes cannot hold: exit 2 naming the
# offset, the reports of what came before written, no warning drawn from the bad record
for nr in 3 18446744073709551615; do
	"$py" -c "import struct, sys; d = bytearray(open(sys.argv[1], 'rb').read()); assert struct.unpack_from('<I', d, 0x108)[0] == 69
struct.pack_into('<Q', d, 0x110, int(sys.argv[3])); open(sys.argv[2], 'wb').write(d)" "$td/sched-task.sched" "$tmp/badidx.sched" "$nr"
	"$PROG" -o "$tmp/badidx" --reports threads "$tmp/badidx.sched" > /dev/null 2> "$tmp/badidx.err"
	rc=$?
	check "sched-task.sched with ID_INDEX nr $nr: exit 2, the record's offset said, threads.csv written (exit $rc)" \
		test $rc -eq 2 -a -s "$tmp/badidx/threads.csv" -a "$(grep -c "badidx.sched: record at offset 0x108 (264): ID_INDEX id_index nr $nr exceeds the record" "$tmp/badidx.err")" -eq 1 \
		-a "$(grep -c 'not system-wide' "$tmp/badidx.err")" -eq 0
done
f=$td/sched-idle.sched
exp=$root/tests/cli/expected/sched-idle.switches

count_perf() {	# [FILE]: per prev_pid "tid,switches,voluntary,preempted"
	perf script -i "${1:-$f}" -F trace 2> /dev/null | awk '{
		p = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^prev_pid=/) p = substr($i, 10)
			if ($i ~ /^prev_state=/) s = substr($i, 12)
		}
		if (p == "" || p == 0) next
		sw[p]++
		if (s == "R" || s == "R+") pre[p]++; else vol[p]++
	} END { for (p in sw) printf "%s,%d,%d,%d\n", p, sw[p], vol[p], pre[p] }' | sort -t, -k1,1n
}

"$PROG" -q -o "$tmp/o" --reports threads "$f"
awk -F, 'NR > 1 && $12 > 0 { print $2 "," $12 "," $13 "," $14 }' "$tmp/o/threads.csv" | sort -u |
	sort -t, -k1,1n > "$tmp/got"
check "sched_switch: switches, voluntary, preempted per thread as perf script's prev_state" diff "$exp" "$tmp/got"
if command -v perf > /dev/null; then
	check "sched_switch: some switches are TASK_IDLE (I) ones (the case under test)" \
		grep -q 'prev_state=I ' <(perf script -i "$f" -F trace 2> /dev/null)
	count_perf > "$tmp/live"
	check "sched_switch: the expected counts are perf script's now" diff "$exp" "$tmp/live"
	# the shipped recordings with sched_switch samples (kworkers, rcu_preempt in them)
	for n in phases-sched lossy-multi; do
		count_perf "$td/$n.data" > "$tmp/$n.perf"
		"$PROG" -q -o "$tmp/$n" --reports threads "${sym[@]}" "$td/$n.data"
		awk -F, 'NR > 1 && $12 > 0 { print $2 "," $12 "," $13 "," $14 }' "$tmp/$n/threads.csv" | sort -u |
			sort -t, -k1,1n > "$tmp/$n.got"
		check "sched_switch $n: switch columns per thread as perf script's prev_state" \
			diff "$tmp/$n.perf" "$tmp/$n.got"
	done
fi

# a format whose prev_pid offset is past the record: said, not "no context switches"
need_python sched-state
if true; then
	python3 - "$f" "$tmp/bad.sched" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
old = b'field:pid_t prev_pid;\toffset:24;'
assert d.count(old) == 1
open(sys.argv[2], 'wb').write(d.replace(old, b'field:pid_t prev_pid;\toffset:99;'))
PY
	"$PROG" -o "$tmp/bad" --reports threads --flamegraph-offcpu "$tmp/bad.svg" --folded-offcpu "$tmp/bad.f" \
		"$tmp/bad.sched" > /dev/null 2> "$tmp/err"
	check "unreadable sched_switch format: exit 0" test $? -eq 0
	check "unreadable sched_switch format: the message names the samples and the fields" \
		grep -q 'sched:sched_switch samples whose prev_pid, prev_state or next_pid the tracepoint.s format puts outside the record: no off-CPU time, .*bad.f not written' "$tmp/err"
	check "unreadable sched_switch format: not 'no context switches in the file'" \
		test "$(grep -c 'no context switches' "$tmp/err")" -eq 0
	check "unreadable sched_switch format: said once for the two outputs" \
		test "$(grep -c sched_switch "$tmp/err")" -eq 1
	"$PROG" -o "$tmp/bad2" --reports offcpu "$tmp/bad.sched" > /dev/null 2> "$tmp/err2"
	check "unreadable sched_switch format: offcpu.csv's empty table is explained" \
		grep -q 'sched:sched_switch samples whose .*no off-CPU time, offcpu.csv has no rows' "$tmp/err2"
fi
# the idle task (tid 0, perf's 0:swapper) is a row of threads.csv with its samples, as perf
# report --sort pid counts them per thread (of each event; not its -1 thread, a sample without
# one, which has no row); it has no switches of its own (-1 there)
if command -v perf > /dev/null; then
	for n in systemwide-g phases-sched; do
		perf report -i "$td/$n.data" --kallsyms "$td/$n.kallsyms" --stdio --no-children --sort pid \
			-F sample,pid -g none 2> /dev/null | awk '$1 ~ /^[0-9]+$/ && $2 !~ /^-1:/ { split($2, t, ":"); s[t[1]] += $1 }
			END { for (k in s) print k "," s[k] }' | sort -t, -k1,1n > "$tmp/$n.pid"
		"$PROG" -q -o "$tmp/t-$n" --reports threads --kallsyms "$td/$n.kallsyms" "$td/$n.data"
		awk -F, 'NR > 1 && $8 > 0 { s[$2] += $8 } END { for (k in s) print k "," s[k] }' "$tmp/t-$n/threads.csv" |
			sort -t, -k1,1n > "$tmp/$n.tid"
		check "threads.csv $n: samples per thread as perf report --sort pid, 0:swapper's $(grep '^0,' "$tmp/$n.pid") among them" \
			test -s "$tmp/$n.pid" -a "$(grep -c '^0,' "$tmp/$n.pid")" -eq 1 -a -z "$(diff "$tmp/$n.pid" "$tmp/$n.tid")"
	done
	check "threads.csv phases-sched: the idle task's switch columns are -1" \
		test -z "$(awk -F, '$2 == 0 && ($11 != -1 || $12 != -1 || $13 != -1 || $14 != -1)' "$tmp/t-phases-sched/threads.csv")" -a \
		"$(awk -F, '$2 == 0' "$tmp/t-phases-sched/threads.csv" | wc -l)" -ge 1
fi
# TRACING_DATA's first bytes (its magic) damaged: the tracepoint formats are unknown, so no
# switch is read; perf refuses the file ("incompatible file format"), readperf says why offcpu.csv
# is empty (before: exit 0, nothing said; the fault: byte 10, after the magic and its "tracing").
# The section is the first feature (bit 1).
"$py" - "$td/phases-sched.data" "$tmp/badtrace.data" << 'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
data_off, data_size = struct.unpack_from('<QQ', b, 40)
assert int.from_bytes(b[72:104], 'little') & 3 == 2, 'TRACING_DATA the first feature'
off, _size = struct.unpack_from('<QQ', b, data_off + data_size)
b[off:off + 4] = b'XXXX'
open(sys.argv[2], 'wb').write(b)
PY
"$PROG" -o "$tmp/badtrace" --kallsyms "$td/phases-sched.kallsyms" "$tmp/badtrace.data" > /dev/null 2> "$tmp/badtrace.err"
check "TRACING_DATA damaged: a warning naming the section's offset and the fault's byte" \
	grep -q 'warning: .*badtrace.data: TRACING_DATA at offset 0x70b88 is malformed at byte 10 of it: 0 tracepoint formats read' \
	"$tmp/badtrace.err"
exit 0

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SIGINT/SIGTERM/SIGHUP/SIGPIPE during an analysis: exit 128 + the signal, no temporary file left in the
# output directory and the previous reports as they were; temporary files that
# a killed run (SIGKILL) left are removed by the next run. The input is 1,000,000
# processes (gen-perf --procs, 2.1 s to analyse on the 2-core AMD EPYC VM of
# 2026-11-28) so the signal, 0.5 s in, lands while records are read on a machine
# several times faster too (400,000 took 0.85-1.05 s there: a machine twice as fast
# would have finished first).
. "$(dirname "$0")/testlib.sh"

need_gen signals
"$GEN" --procs "$tmp/big.data" 1000000
# (SIGHUP, a closed terminal, and SIGPIPE left the temporary directory before: not caught)
for sig in INT TERM HUP PIPE; do
	want=$((128 + $(kill -l $sig)))
	out=$tmp/out-$sig
	"$PROG" -q -o "$out" "${sym[@]}" "$td/work.data"
	cp -r "$out" "$tmp/before-$sig"
	"$PROG" -q -o "$out" "$tmp/big.data" 2> "$tmp/err-$sig" &
	pid=$!
	sleep 0.5
	kill -$sig $pid
	wait $pid
	rc=$?
	check "SIG$sig mid-analysis: exit $want (exit $rc)" test $rc -eq $want
	check "SIG$sig mid-analysis: no temporary file left" test -z "$(ls -A "$out" | grep '\.tmp\.')"
	check "SIG$sig mid-analysis: the previous reports as they were" diff -rq "$tmp/before-$sig" "$out"
	check "SIG$sig mid-analysis: said" grep -q 'interrupted' "$tmp/err-$sig"
done
# a temporary file of a process that no longer exists: removed by the next run
dead=$(sh -c 'echo $$')
while kill -0 "$dead" 2> /dev/null; do dead=$((dead + 1)); done
touch "$tmp/out-INT/.overview.csv.tmp.$dead" "$tmp/out-INT/.results.csv.tmp.$$"
"$PROG" -q -o "$tmp/out-INT" --reports stat "${sym[@]}" "$td/work.data"
check "a dead run's temporary file is removed by the next run" test ! -e "$tmp/out-INT/.overview.csv.tmp.$dead"
check "a live process's temporary file is left alone" test -e "$tmp/out-INT/.results.csv.tmp.$$"
# SIGINT while blocked: opening a FIFO that has no writer, and reading a stream
# whose writer stalls (the first 20,000 bytes of a pipe-mode file, then nothing):
# exit 130 and "interrupted", not exit 3 "Interrupted system call" / "Input/output
# error". timeout bounds a run that would not stop.
# readperf ARGS..., SIGINT after SECS seconds: its exit status in rc, stderr in ERR
interrupt_after() {
	local secs=$1 err=$2 pid
	shift 2
	timeout -s KILL 20 "$PROG" "$@" 2> "$err" &
	pid=$!
	sleep "$secs"
	kill -INT $pid 2> /dev/null
	wait $pid
	rc=$?
}
mkfifo "$tmp/fifo" "$tmp/fifo2"
interrupt_after 0.5 "$tmp/err-fifo" -q -o "$tmp/f1" "$tmp/fifo"
check "SIGINT while opening a FIFO without a writer: exit 130 (exit $rc: $(head -c 200 "$tmp/err-fifo"))" \
	test $rc -eq 130
check "SIGINT while opening a FIFO: said as interrupted" grep -q ': interrupted: no report written' "$tmp/err-fifo"
{ head -c 20000 "$td/work.pipe.data"; exec sleep 30; } > "$tmp/fifo2" &
writer=$!
interrupt_after 1 "$tmp/err-stall" -q -o "$tmp/f2" "$tmp/fifo2"
kill $writer 2> /dev/null
check "SIGINT during a read that waits for its writer: exit 130 (exit $rc: $(head -c 200 "$tmp/err-stall"))" \
	test $rc -eq 130
check "SIGINT during a read: said as interrupted, no I/O error" \
	test "$(grep -c ': interrupted: no report written' "$tmp/err-stall")" -eq 1 -a "$(grep -c 'Input/output' "$tmp/err-stall")" -eq 0
exit 0

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Killed captures stay readable:
# - `readperf record` killed by SIGKILL while a loop runs: its header is
#   valid from the start and says how much data is whole on disk, so perf
#   report and readperf read the same samples (it used to leave 104 zero
#   bytes, unreadable by both);
# - `perf record` killed likewise (its header's data size still 0):
#   readperf reads the records up to the end of the file with a warning,
#   exit 0 (it used to stop with a misleading build-id message: the feature
#   table it looked for after "the data" is not there).
# Skips what the kernel (perf_event_open) or a missing perf does not allow.
. "$(dirname "$0")/testlib.sh"

busy=(sh -c 'while :; do :; done')
killed_run() {	# OUT CMD...: run CMD until OUT holds 64 KiB (samples, not only the
	# header: a loaded machine or a sanitizer build may take seconds to start;
	# at most 60 s), then SIGKILL it
	local out=$1 p c i
	shift
	"$@" > /dev/null 2>&1 &
	p=$!
	for ((i = 0; i < 600; i++)); do
		[ "$(stat -c %s "$out" 2> /dev/null || echo 0)" -ge 65536 ] && break
		sleep 0.1
	done
	sleep 0.5
	# the loop, the recorder's child, outlives it: killed by its pid (pkill -f of its
	# command line also killed other tests' and other users' loops on a shared machine)
	c=$(pgrep -P "$p")
	kill -9 "$p" $c 2> /dev/null
	wait "$p" 2> /dev/null
	true
}

if "$PROG" record -q -o "$tmp/probe.data" -- true > /dev/null 2>&1; then
	killed_run "$tmp/rk.data" "$PROG" record -q -e cpu-clock -F 4000 -o "$tmp/rk.data" -- "${busy[@]}"
	check "readperf record killed: a file is there ($(stat -c %s "$tmp/rk.data" 2> /dev/null) bytes)" test -s "$tmp/rk.data"
	"$PROG" -q -o "$tmp/rk" --reports stat "$tmp/rk.data" 2> "$tmp/rk.err"
	rc=$?
	n=$(sed -n 's/^SAMPLE,\([0-9]*\),.*/\1/p' "$tmp/rk/stat.csv" 2> /dev/null)
	check "readperf reads it: exit 0, ${n:-no} samples (exit $rc)" test $rc -eq 0 -a "${n:-0}" -gt 100
	if command -v perf > /dev/null; then
		pn=$(perf report -i "$tmp/rk.data" --stats 2> /dev/null | awk '/SAMPLE events:/ { print $3; exit }')
		check "perf report reads it too: the same ${pn:-no} samples" test "${pn:-0}" = "${n:-x}"
	fi
else
	echo "skip - readperf record killed: perf_event_open is not allowed here"
fi

if command -v perf > /dev/null && perf record -q -o "$tmp/probe2.data" -- true > /dev/null 2>&1; then
	killed_run "$tmp/pk.data" perf record -N -q -e cpu-clock -F 4000 -o "$tmp/pk.data" -- "${busy[@]}"
	size=$(od -An -t u8 -j 48 -N 8 "$tmp/pk.data" | tr -d ' ')
	check "perf record killed: its header's data size is 0 ($size)" test "$size" = 0
	"$PROG" -o "$tmp/pk" --reports stat,events "$tmp/pk.data" > /dev/null 2> "$tmp/pk.err"
	rc=$?
	n=$(sed -n 's/^SAMPLE,\([0-9]*\),.*/\1/p' "$tmp/pk/stat.csv" 2> /dev/null)
	check "readperf reads perf's killed file to its end: exit 0, ${n:-no} samples (exit $rc)" \
		test $rc -eq 0 -a "${n:-0}" -gt 100
	check "with one warning about the data size, no build-id message" \
		test "$(grep -c 'data size is 0' "$tmp/pk.err")" -eq 1 -a "$(grep -c -i 'build_id' "$tmp/pk.err")" -eq 0
else
	echo "skip - perf record killed: no perf, or perf_event_open is not allowed here"
fi

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# How readperf record ends when its command does (perf record's behaviour):
# killed by signal N: a warning and exit 128+N (perf record -- sh -c 'kill -9 $$'
# exits 137 here), the profile still readable; a failing command: its status;
# a command that does not exist: exit 127, and neither a 0-byte output nor
# the previous file moved to .old. Needs perf_event_open: skips without it.
. "$(dirname "$0")/testlib.sh"

if ! "$PROG" record -q -o "$tmp/probe.data" -- true 2> /dev/null; then
	echo "skip - record exit status: the kernel refuses perf_event_open here"
	exit 0
fi
cd "$tmp" || exit 1
"$PROG" record -q -o killed.data -- sh -c 'kill -9 $$' > /dev/null 2> killed.err
rc=$?
check "command killed by SIGKILL: exit 137 as perf (exit $rc)" test $rc -eq 137
check "command killed: a warning names the signal" grep -q 'warning: sh was killed by signal 9' killed.err
"$PROG" -q -o killed.out --reports stat killed.data
check "command killed: the profile reads" test $? -eq 0
"$PROG" record -q -o three.data -- sh -c 'exit 3' > /dev/null 2>&1
check "command exits 3: exit 3" test $? -eq 3
echo previous > prev.data
"$PROG" record -q -o prev.data -- ./no-such-command > /dev/null 2> missing.err
rc=$?
check "missing command: exit 127 with a message (exit $rc)" \
	test $rc -eq 127 -a "$(grep -c 'no-such-command: command not found' missing.err)" -eq 1
check "missing command: the previous output untouched, no .old" \
	test "$(cat prev.data)" = previous -a ! -e prev.data.old
"$PROG" record -q -o none.data -- no-such-command-in-path > /dev/null 2>&1
check "missing command in PATH: exit 127, no output file" test $? -eq 127 -a ! -e none.data
exit 0

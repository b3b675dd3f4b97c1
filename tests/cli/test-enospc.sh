#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Reports as one transaction (a disk that fills up part-way): on a 400 KiB
# tmpfs, work.data's reports fit (about 300 KiB); callgraph-fp.data's do not.
# The second run must exit 3 naming the report it could not write and the
# real errno (ENOSPC, not "Input/output error"), and leave the first run's
# reports byte for byte, with no temporary file or staging directory. A
# staging directory left by a killed run (a dead pid) goes at the next run.
# Needs root to mount the tmpfs: skips otherwise.
. "$(dirname "$0")/testlib.sh"

mnt=$tmp/mnt
mkdir -p "$mnt"
if ! mount -t tmpfs -o size=400k tmpfs "$mnt" 2> /dev/null; then
	echo "skip - disk full: cannot mount a tmpfs here (not root?)"
	exit 0
fi
trap 'umount "$mnt" 2> /dev/null; rm -rf "$tmp"' EXIT
out=$mnt/out
"$PROG" -q -o "$out" "${sym[@]}" "$td/work.data" 2> "$tmp/err1"
rc=$?
check "work.data fits: exit 0 (exit $rc)" test $rc -eq 0
(cd "$out" && md5sum -- * > "$tmp/before.md5")
check "work.data: every report written ($(wc -l < "$tmp/before.md5"))" test "$(wc -l < "$tmp/before.md5")" -ge 11

"$PROG" -q -o "$out" "${sym[@]}" "$td/callgraph-fp.data" 2> "$tmp/err2"
rc=$?
check "callgraph-fp.data does not fit: exit 3 (exit $rc)" test $rc -eq 3
check "the message names a report and ENOSPC ($(head -1 "$tmp/err2"))" \
	grep -q "^readperf: $out/[a-z]*\.csv: .*No space left on device" "$tmp/err2"
check "no 'Input/output error'" test "$(grep -c 'Input/output error' "$tmp/err2")" -eq 0
check "it says the previous reports are kept" grep -q "no report written, the previous ones are as they were" "$tmp/err2"
check "the previous reports are whole, byte for byte" sh -c "cd '$out' && md5sum -c --quiet '$tmp/before.md5'"
check "no temporary file or staging directory left ($(ls -A "$out" | grep '^\.' | tr '\n' ' '))" \
	test "$(ls -A "$out" | grep -c '^\.')" -eq 0
check "no other file either" test "$(ls -A "$out" | wc -l)" -eq "$(wc -l < "$tmp/before.md5")"

# a killed run's staging directory (pid 999999 does not exist) is removed by the next run
stale=$out/.readperf-reports.tmp.999999
mkdir "$stale" && echo partial > "$stale/results.csv"
"$PROG" -q -o "$out" "${sym[@]}" "$td/work.data" 2> /dev/null
check "a dead run's staging directory goes at the next run" test ! -e "$stale"

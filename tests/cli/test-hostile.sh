#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Hostile inputs built by scripts in tests/cli (no binaries committed):
#  - an empty PERF_RECORD_COMPRESSED as the first compressed record
#    (gen-compressed-empty.py): read with exit 0, no sanitizer report (the
#    reader called memcpy(NULL, p, 0); `make check SANITIZE=...` catches it).
. "$(dirname "$0")/testlib.sh"

py=$(command -v python3)
if [ -z "$py" ]; then
	echo "skip - hostile inputs: no python3"
	exit 0
fi
"$py" "$root/tests/cli/gen-compressed-empty.py" "$tmp/ce.data"
"$PROG" -q -o "$tmp/ce" --reports stat,events "$tmp/ce.data" 2> "$tmp/ce.err"
rc=$?
check "empty COMPRESSED record: exit 0 (exit $rc)" test $rc -eq 0
check "empty COMPRESSED record: no sanitizer report" test "$(grep -c 'runtime error\|Sanitizer' "$tmp/ce.err")" -eq 0
check "empty COMPRESSED record: counted, and the COMM after it" \
	test "$(grep -c '^COMPRESSED,1,8$\|^COMM,1,40$' "$tmp/ce/stat.csv")" -eq 2
exit 0

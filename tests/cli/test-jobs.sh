#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# One file, two threads: with -j 2 the analysis runs in a second thread (-v
# says so; -j 1 does not) and everything it writes is the same as with -j 1,
# byte for byte: every report, stdout, and every message on stderr in the
# same order (-v, so the debug messages too), for every recording of
# testdata/, a pipe on stdin, the piped external fixtures (their attrs and
# features arrive as records while the analysis runs), two corrupt files
# (exit 2 with the offset, reports for what came before), the files kept
# from fuzzing (tests/fuzz/regress) and a synthetic
# file of 40 rounds of 65,536 samples.
. "$(dirname "$0")/testlib.sh"

same_run() {	# NAME ARGS...: -j 1 and -j 2 give the same reports, stdout and stderr
	local name=$1 j why=
	shift
	for j in 1 2; do
		rm -rf "$tmp/o" "$tmp/cache"
		"$PROG" -j $j -v -o "$tmp/o" "$@" > "$tmp/out$j" 2> "$tmp/err$j" < "${stdin:-/dev/null}"
		echo "exit $?" >> "$tmp/out$j"
		rm -rf "$tmp/o$j"
		mv "$tmp/o" "$tmp/o$j" 2> /dev/null
	done
	grep -q ': the analysis in a second thread$' "$tmp/err2" || why="$why -j 2 -v does not say it uses a second thread;"
	! grep -q ': the analysis in a second thread$' "$tmp/err1" || why="$why -j 1 -v says a second thread;"
	# readperf's lines (a sanitizer build adds a leak summary of its own, which depends on the stacks)
	cmp -s <(grep '^readperf: ' "$tmp/err2" | grep -v ': the analysis in a second thread$') \
		<(grep '^readperf: ' "$tmp/err1") || why="$why stderr differs;"
	cmp -s "$tmp/out1" "$tmp/out2" || why="$why stdout or exit differs;"
	diff_reports "$tmp/o1" "$tmp/o2" > /dev/null 2>&1 || why="$why reports differ;"
	if [ -z "$why" ]; then
		echo "ok - jobs: $name: -j 2 as -j 1"
	else
		echo "not ok - jobs: $name:$why"
		fail=1
	fi
}

fail=0
for f in "$td"/*.data; do
	same_run "$(basename "$f")" "${sym[@]}" "$f"
done
stdin=$td/work.pipe.data same_run "work.pipe.data on stdin" "${sym[@]}" -
stdin=

# corrupt input: the worker is drained before the fault is said, the reports cover what came before,
# exit 2 with the offset (a record's size made 4 mid-file; a file cut mid-record)
off=$("$PROG" dump "$td/work.data" 2> /dev/null | awk 'NR == 400 { for (i = 1; i <= NF; i++) if ($i ~ /^offset=/) print substr($i, 8) }')
cp "$td/work.data" "$tmp/badsize.data"
printf '\004\000' | dd of="$tmp/badsize.data" bs=1 seek=$((off + 6)) conv=notrunc 2> /dev/null
head -c 30000 "$td/threads.data" > "$tmp/cut.data"
for bad in "badsize:record at offset $off ([0-9]*): size 4 is smaller than its header" \
	   "cut:data section at offset 0x7530 (30000): "; do
	f=$tmp/${bad%%:*}.data
	same_run "corrupt ${bad%%:*}.data" "${sym[@]}" "$f"
	check "jobs: corrupt ${bad%%:*}.data with -j 2: exit 2, the offset said, reports written" \
		eval "grep -q '^exit 2\$' '$tmp/out2' && grep -q '^readperf: $f: ${bad#*:}' '$tmp/err2' && test -s '$tmp/o2/results.csv'"
done

# the hostile files kept from fuzzing: the same through the worker (its copies written with streaming stores)
for f in "$(dirname "$0")"/../fuzz/regress/*.data; do
	same_run "fuzz regress $(basename "$f")" "${sym[@]}" "$f"
done

# kallsyms read ahead in a thread of its own with -j 2: what it says comes where -j 1 says it, once
# (a table of zero addresses, kptr_restrict's: a warning, the kernel unresolved)
sed 's/^[0-9a-fA-F]*/0000000000000000/' "$td/kallsyms" > "$tmp/zero.kallsyms"
same_run "callgraph-fp.data, kallsyms of zero addresses" --symfs "$td/symfs" --kallsyms "$tmp/zero.kallsyms" \
	"$td/callgraph-fp.data"
check "jobs: kallsyms of zero addresses with -j 2: its warning said once" \
	test "$(grep -c 'all addresses are zero (kptr_restrict?)' "$tmp/err2")" -eq 1

n=0
for f in "$shared"/testdata-external/quipper/perf.data.piped.*; do
	[ -f "$f" ] || continue
	same_run "external $(basename "$f")" "$f"
	n=$((n + 1))
done
[ $n -gt 0 ] || echo "skip - jobs: external piped fixtures: none at $shared/testdata-external"

if [ -x "$GEN" ]; then
	"$GEN" --samples "$tmp/gen.data" $((40 * 65536)) > /dev/null
	same_run "40 rounds of 65,536 samples" "$tmp/gen.data"
else
	echo "skip - jobs: synthetic: no $GEN (make check builds it)"
fi
exit $fail

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The output directory (issue 28): DIR/manifest.csv names the input, its size
# (stat), the recording's header facts (as perf report --header-only prints
# them), the arguments and the files of the run; two runs of one command write
# the same bytes.  Reports of an earlier run that this one did not write go
# with the same transaction (--reports results after a full run: no
# callers.csv), files readperf does not write stay (notes.txt, mine.csv, a
# directory named lines.csv); a run stopped by a signal (SIGTERM, SIGKILL)
# before the commit leaves the previous set whole.  readperf diff -o and batch
# mode (DIR/NAME/ and DIR itself) likewise; readperf tree writes no report and
# touches nothing; readperf schema DIR ignores the manifest.
. "$(dirname "$0")/testlib.sh"

# the value of KEY in manifest FILE (the first row; CSV quoting undone for a simple quoted cell)
mval() {
	awk -F, -v k="$2" '$1 == k { sub(/^[^,]*,/, ""); gsub(/^"|"$/, ""); print; exit }' "$1"
}

out=$tmp/out
"$PROG" -q -o "$out" "${sym[@]}" "$td/work.data"
rc=$?
m=$out/manifest.csv
check "full run: exit 0 (exit $rc)" test $rc -eq 0
check "full run: manifest.csv written" test -f "$m"
check "manifest: key,value header" test "$(head -1 "$m")" = "key,value"
check "manifest: readperf version as --version says" \
	test "readperf $(mval "$m" readperf_version)" = "$("$PROG" --version)"
check "manifest: input as given" test "$(mval "$m" input)" = "$td/work.data"
check "manifest: input_size as stat says ($(mval "$m" input_size))" \
	test "$(mval "$m" input_size)" = "$(stat -c %s "$td/work.data")"
# the file rows: exactly the other files of the directory, bytewise order
(cd "$out" && ls -A | LC_ALL=C sort | grep -vx manifest.csv) > "$tmp/files"
grep '^file,' "$m" | cut -d, -f2 > "$tmp/mfiles"
check "manifest: a file row per other file of the directory ($(wc -l < "$tmp/mfiles"))" cmp -s "$tmp/files" "$tmp/mfiles"
check "manifest: an arg row per argument, in the order given" \
	test "$(grep '^arg,' "$m" | cut -d, -f2- | tr '\n' ' ')" = "-q -o $out ${sym[*]} $td/work.data "
if command -v perf > /dev/null && perf report --header-only -i "$td/work.data" > "$tmp/hdr" 2> /dev/null; then
	# perf's "# hostname : vm" lines (perf prints a space after every cmdline word)
	phdr() { sed -n "s/^# $1 : //p" "$tmp/hdr" | head -1 | sed 's/ *$//'; }
	check "manifest: hostname as perf's header ($(phdr hostname))" test "$(mval "$m" hostname)" = "$(phdr hostname)"
	check "manifest: os_release as perf's header" test "$(mval "$m" os_release)" = "$(phdr "os release")"
	check "manifest: perf_version as perf's header" test "$(mval "$m" perf_version)" = "$(phdr "perf version")"
	check "manifest: arch as perf's header" test "$(mval "$m" arch)" = "$(phdr arch)"
	check "manifest: perf_cmdline as perf's header" test "$(mval "$m" perf_cmdline)" = "$(phdr cmdline)"
	check "manifest: nr_cpus_online as perf's header" \
		test "$(mval "$m" nr_cpus_online)" = "$(sed -n 's/^# nrcpus online : //p' "$tmp/hdr")"
else
	echo "skip - manifest header facts: no perf to compare with"
fi
cp "$m" "$tmp/m1"
"$PROG" -q -o "$out" "${sym[@]}" "$td/work.data"
check "two runs of one command: the same manifest, byte for byte" cmp -s "$tmp/m1" "$m"

# --reports results into the directory of the full run
echo "my notes" > "$out/notes.txt"
echo "a,b" > "$out/mine.csv"
"$PROG" -q -o "$out" --reports results "${sym[@]}" "$td/work.data"
rc=$?
check "--reports results after a full run: exit 0 (exit $rc)" test $rc -eq 0
check "--reports results: no callers.csv left of the full run" test ! -e "$out/callers.csv"
check "--reports results: only results.csv, the manifest and the foreign files ($(ls "$out" | tr '\n' ' '))" \
	test "$(ls "$out" | tr '\n' ' ')" = "manifest.csv mine.csv notes.txt results.csv "
check "a foreign file survives: notes.txt" test "$(cat "$out/notes.txt")" = "my notes"
check "a CSV readperf does not write survives: mine.csv" test "$(cat "$out/mine.csv")" = "a,b"
check "--reports results: the manifest lists results.csv only" \
	test "$(grep '^file,' "$m" | tr '\n' ' ')" = "file,results.csv "
check "--reports results: no temporary file or staging directory" test -z "$(ls -A "$out" | grep '^\.')"
# a directory with a report's name is not a report: left alone
mkdir "$out/lines.csv"
"$PROG" -q -o "$out" --reports stat "${sym[@]}" "$td/work.data"
check "--reports stat: results.csv of the run before removed" test ! -e "$out/results.csv"
check "a directory named lines.csv is left alone" test -d "$out/lines.csv"
rmdir "$out/lines.csv"

# a run stopped by a signal before its commit: the previous set whole, nothing removed
need_gen manifest-signals
"$GEN" --procs "$tmp/big.data" 2000000	# about 3 s of work, 0.69 s at 400k on a quiet machine (killed at 0.5 s: too close)
for sig in TERM KILL; do
	d=$tmp/sig-$sig
	"$PROG" -q -o "$d" "${sym[@]}" "$td/work.data"
	echo keep > "$d/notes.txt"
	cp -r "$d" "$tmp/before-$sig"
	"$PROG" -q -o "$d" --reports results "$tmp/big.data" 2> /dev/null &
	pid=$!
	sleep 0.5
	{ kill -$sig $pid; wait $pid; rc=$?; } 2> /dev/null
	want=$([ $sig = TERM ] && echo 143 || echo 137)
	check "SIG$sig during --reports results: exit $want (exit $rc)" test $rc -eq $want
	# a SIGKILLed run leaves its staging directory (removed by the next run): the reports are compared
	check "SIG$sig during --reports results: the previous reports and manifest as they were, callers.csv kept" \
		diff -rq -x '.readperf-reports.tmp.*' "$tmp/before-$sig" "$d"
done
"$PROG" -q -o "$tmp/sig-KILL" --reports results "${sym[@]}" "$td/work.data"
check "after SIGKILL: the next run removes the staging directory and callers.csv" \
	test -z "$(ls -A "$tmp/sig-KILL" | grep -e '^\.' -e '^callers.csv$')"

# readperf diff -o: diff.csv and a manifest of both sides, the analysis' reports of the run before removed
"$PROG" diff -q -o "$out" "$td/regress-before.data" "$td/regress-after.data"
rc=$?
check "diff into the directory: exit 0 (exit $rc)" test $rc -eq 0
check "diff: diff.csv, the manifest and the foreign files ($(ls "$out" | tr '\n' ' '))" \
	test "$(ls "$out" | tr '\n' ' ')" = "diff.csv manifest.csv mine.csv notes.txt "
check "diff manifest: old_input and new_input" \
	test "$(mval "$m" old_input) $(mval "$m" new_input)" = "$td/regress-before.data $td/regress-after.data"
check "diff manifest: new_input_size as stat says" \
	test "$(mval "$m" new_input_size)" = "$(stat -c %s "$td/regress-after.data")"
check "diff manifest: file,diff.csv" test "$(grep '^file,' "$m" | tr '\n' ' ')" = "file,diff.csv "

# batch mode: DIR/NAME/manifest.csv per profile, DIR/manifest.csv for index.csv; a single run's reports in DIR go
b=$tmp/batch
"$PROG" -q -o "$b" "${sym[@]}" "$td/work.data"
"$PROG" -q -o "$b" "${sym[@]}" "$td/work.data" "$td/callgraph-fp.data"
rc=$?
check "batch: exit 0 (exit $rc)" test $rc -eq 0
check "batch: DIR holds the profiles, index.csv and the manifest ($(ls "$b" | tr '\n' ' '))" \
	test "$(ls "$b" | tr '\n' ' ')" = "callgraph-fp index.csv manifest.csv work "
check "batch: DIR/manifest.csv lists index.csv" test "$(grep '^file,' "$b/manifest.csv" | tr '\n' ' ')" = "file,index.csv "
check "batch: each profile's manifest names its input" \
	test "$(mval "$b/work/manifest.csv" input) $(mval "$b/callgraph-fp/manifest.csv" input)" = \
	"$td/work.data $td/callgraph-fp.data"
check "batch: a profile's manifest lists its results.csv" grep -qx 'file,results.csv' "$b/work/manifest.csv"

# readperf tree writes no report into . : nothing removed there, no manifest
t=$tmp/tree
mkdir "$t"
echo x > "$t/callers.csv"
(cd "$t" && "$PROG" tree "${sym[@]}" "$td/work.data" main > /dev/null 2>&1)
check "readperf tree: callers.csv in the working directory untouched, no manifest" \
	test "$(ls "$t" | tr '\n' ' ')" = "callers.csv "

# readperf schema DIR: the manifest is no report
"$PROG" -q -o "$tmp/s" "${sym[@]}" "$td/work.data"
"$PROG" schema "$tmp/s" > "$tmp/schema.out" 2> "$tmp/schema.err"
rc=$?
check "schema DIR beside a manifest: exit 0 (exit $rc)" test $rc -eq 0
check "schema DIR: no manifest table" test "$(grep -c -i manifest "$tmp/schema.out")" -eq 0

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Batch mode: readperf -o DIR FILE FILE... (and --files-from) analyses every
# recording of testdata/ with -j 2 into DIR/NAME/; each directory equals a
# single-file run of the same file once the leading profile column is taken
# off; a corrupt file among them is in index.csv with its message while the
# others complete; names are unique; the exit status is the worst; and the
# README's DuckDB query (tests/js/duckdb-batch.sql) gives the top function
# that awk computes from the same CSVs.
. "$(dirname "$0")/testlib.sh"

files=("$td"/*.data)
head -c 30000 "$td/threads.data" > "$tmp/cut.data"
"$PROG" -o "$tmp/b" -j 2 "${sym[@]}" "${files[@]}" "$tmp/cut.data" "$td/work.data" > "$tmp/out" 2> "$tmp/err"
rc=$?
check "batch: exit 2, the worst of the files' (exit $rc)" test $rc -eq 2
n=${#files[@]}
check "batch: index.csv has a row per file ($((n + 2)))" test "$(($(wc -l < "$tmp/b/index.csv") - 1))" -eq $((n + 2))
check "batch: index.csv header" \
	test "$(head -1 "$tmp/b/index.csv")" = "profile,path,status,samples,duration_ns,hostname,perf_version,message"
check "batch: the summary line" grep -q "^readperf: $((n + 2)) profiles in $tmp/b/ (index.csv): $((n + 1)) ok, 1 failed$" "$tmp/out"
check "batch: the cut file is in index.csv with status 2 and its message" \
	grep -q "^cut,$tmp/cut.data,2,[0-9]*,[0-9]*,,,$tmp/cut.data: data section at offset 0x7530 (30000): " "$tmp/b/index.csv"
check "batch: the file given twice gets work-2, and it is said" \
	test -d "$tmp/b/work-2" -a "$(grep -c "work.data: its name is taken: reports in $tmp/b/work-2/" "$tmp/err")" -eq 1
bad=
for f in "${files[@]}"; do
	name=$(basename "$f" .data)
	line=$(grep "^$name,$f," "$tmp/b/index.csv")
	# samples as events.csv counts them
	"$PROG" -q -o "$tmp/one/$name" "${sym[@]}" "$f" 2> /dev/null
	want=$(awk -F, 'NR > 1 { s += $7 } END { print s + 0 }' "$tmp/one/$name/events.csv")
	[ "$(echo "$line" | cut -d, -f3-4)" = "0,$want" ] || bad="$bad $name(index)"
	for csv in "$tmp/one/$name"/*.csv; do
		r=$(basename "$csv")
		if ! sed 's/^[^,]*,//' "$tmp/b/$name/$r" | cmp -s - "$csv"; then bad="$bad $name/$r"; fi
		if [ "$(head -1 "$tmp/b/$name/$r" | cut -d, -f1)" != profile ] ||
		   awk -F, -v n="$name" 'NR > 1 && $1 != n { bad = 1 } END { exit !bad }' "$tmp/b/$name/$r"; then
			bad="$bad $name/$r(profile)"
		fi
	done
done
check "batch: every report equals the single-file run's after the profile column, status 0 and samples in index.csv${bad:+:$bad}" test -z "$bad"
check "batch: hostname and perf version from the header" grep -q "^work,$td/work.data,0,2559,[1-9][0-9]*,vm,6.1.187,$" "$tmp/b/index.csv"

# --files-from, from a file and from stdin; one file alone keeps its columns unless --profile-column
printf '%s\n' "$td/work.data" "" "$td/cxx.data" > "$tmp/list"
"$PROG" -q -o "$tmp/l" --files-from "$tmp/list" "${sym[@]}"
check "--files-from LIST: both files (blank lines skipped)" test -f "$tmp/l/work/results.csv" -a -f "$tmp/l/cxx/results.csv"
printf '%s\n' "$td/work.data" | "$PROG" -q -o "$tmp/s" --files-from - "${sym[@]}"
check "--files-from -: the list from stdin" cmp -s "$tmp/s/work/results.csv" "$tmp/l/work/results.csv"
"$PROG" -q -o "$tmp/np" --no-profile-column -j 1 "${sym[@]}" "$td/work.data" "$td/cxx.data"
check "--no-profile-column: a batch directory equals the single-file run" diff -r "$tmp/np/work" "$tmp/one/work"
"$PROG" -q -o "$tmp/pc" --profile-column "${sym[@]}" "$td/work.data"
check "--profile-column on one file: profile,event,... with its name" \
	test "$(head -2 "$tmp/pc/results.csv" | cut -d, -f1 | tr '\n' ' ')" = "profile work "
"$PROG" -q -o "$tmp/j0" -j 0 "$td/work.data" "$td/cxx.data" 2> "$tmp/err"
check "-j 0: exit 1" test $? -eq 1
"$PROG" -q -o "$tmp/e" --files-from "$tmp/nosuch" 2> "$tmp/err"
check "--files-from a missing list: exit 3 with its name" test $? -eq 3 -a "$(grep -c nosuch "$tmp/err")" -eq 1

# the README's DuckDB query over the batch directory
jsdir=$root/tests/js
top=$(for f in "$tmp/b"/*/results.csv; do csv2tsv "$f" | awk -F'\t' 'NR > 1'; done |
	awk -F'\t' '{ p[$4] += $8 } END { for (k in p) printf "%.0f\t%s\n", p[k], k }' | sort -t$'\t' -k1,1nr -k2,2 | head -1 | cut -f2)
if command -v node > /dev/null && [ -d "$jsdir/node_modules/@duckdb/node-api" ]; then
	sed "s|@DIR@|$tmp/b|" "$jsdir/duckdb-batch.sql" | grep -v '^--' > "$tmp/q.sql"
	node "$jsdir/duckdb-query.mjs" "$tmp/q.sql" > "$tmp/duck.out" 2> "$tmp/duck.err"
	check "duckdb: the README's query runs over DIR/*/results.csv ($(head -c 200 "$tmp/duck.err"))" test $? -eq 0
	check "duckdb: its top function is awk's ($top)" test "$(head -1 "$tmp/duck.out" | cut -f1)" = "$top"
	check "duckdb: $top is in more than one profile" test "$(head -1 "$tmp/duck.out" | cut -f2)" -gt 1 2> /dev/null
else
	echo "skip - duckdb: node or tests/js/node_modules/@duckdb/node-api missing (cd tests/js && npm install)"
fi
exit 0

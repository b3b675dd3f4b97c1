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
	# the manifests: the same but for the arg rows (the commands differ), no profile column
	if ! cmp -s <(grep -v '^arg,' "$tmp/b/$name/manifest.csv") <(grep -v '^arg,' "$tmp/one/$name/manifest.csv"); then
		bad="$bad $name/manifest.csv"
	fi
	for csv in "$tmp/one/$name"/*.csv; do
		r=$(basename "$csv")
		[ "$r" = manifest.csv ] && continue
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
# a stream on standard input among the files: its directory is stdin/, not "-" (read as an option)
"$PROG" -q -o "$tmp/si" "${sym[@]}" - "$td/work.data" < "$td/work.pipe.data"
check "batch with '-': its reports in DIR/stdin/, index.csv's path -" \
	test -f "$tmp/si/stdin/results.csv" -a ! -e "$tmp/si/-" -a "$(grep -c '^stdin,-,0,' "$tmp/si/index.csv")" -eq 1
# standard input twice through --files-from (two '-' in the list, or the list from stdin naming '-'): refused
printf -- '-\n-\n' > "$tmp/dashes"
"$PROG" -q -o "$tmp/sd" --files-from "$tmp/dashes" < "$td/work.pipe.data" 2> "$tmp/sd.err"
rc=$?
check "--files-from with '-' twice: refused, said (exit $rc)" \
	test $rc -ne 0 -a "$(grep -c "'-' (standard input) given twice" "$tmp/sd.err")" -eq 1 -a ! -e "$tmp/sd/index.csv"
printf -- '-\n' | "$PROG" -q -o "$tmp/sd2" --files-from - 2> "$tmp/sd2.err"
rc=$?
check "--files-from - naming '-': refused, said (exit $rc)" \
	test $rc -ne 0 -a "$(grep -c "'-' (standard input) given twice" "$tmp/sd2.err")" -eq 1
"$PROG" -q -o "$tmp/np" --no-profile-column -j 1 "${sym[@]}" "$td/work.data" "$td/cxx.data"
check "--no-profile-column: a batch directory equals the single-file run (but the manifest's arg rows)" \
	diff -r -x manifest.csv "$tmp/np/work" "$tmp/one/work"
check "--no-profile-column: the manifests equal but for the arg rows" \
	cmp -s <(grep -v '^arg,' "$tmp/np/work/manifest.csv") <(grep -v '^arg,' "$tmp/one/work/manifest.csv")
"$PROG" -q -o "$tmp/pc" --profile-column "${sym[@]}" "$td/work.data"
check "--profile-column on one file: profile,event,... with its name" \
	test "$(head -2 "$tmp/pc/results.csv" | cut -d, -f1 | tr '\n' ' ')" = "profile work "
"$PROG" -q -o "$tmp/j0" -j 0 "$td/work.data" "$td/cxx.data" 2> "$tmp/err"
check "-j 0: exit 1" test $? -eq 1
"$PROG" -q -o "$tmp/e" --files-from "$tmp/nosuch" 2> "$tmp/err"
check "--files-from a missing list: exit 3 with its name" test $? -eq 3 -a "$(grep -c nosuch "$tmp/err")" -eq 1

# names: a fleet of N/perf.data is named by the shortest path suffix (d1-perf),
# one level more where a directory repeats; 254-byte base names that collide
# stay within a directory entry's 255 bytes (status 0, not "File name too long")
mkdir -p "$tmp/fleet/d1" "$tmp/fleet/d2" "$tmp/fleet/h/x" "$tmp/fleet/g/x"
for d in d1 d2 h/x g/x; do ln -s "$td/work.data" "$tmp/fleet/$d/perf.data"; done
long=$(printf 'n%.0s' $(seq 254))
ln -s "$td/work.data" "$tmp/fleet/d1/$long"
ln -s "$td/work.data" "$tmp/fleet/d2/$long"
"$PROG" -q -o "$tmp/fl" -j 2 "${sym[@]}" "$tmp"/fleet/{d1,d2,h/x,g/x}/perf.data "$tmp/fleet/d1/$long" "$tmp/fleet/d2/$long" 2> "$tmp/err"
rc=$?
check "names: exit 0 with 254-byte base names (exit $rc: $(head -c 200 "$tmp/err"))" test $rc -eq 0
check "names: the shortest path suffix that tells a profile apart" \
	test "$(cut -d, -f1 "$tmp/fl/index.csv" | head -5 | tr '\n' ' ')" = "profile d1-perf d2-perf h-x-perf g-x-perf "
check "names: 254-byte bases named within 255 bytes, each with its reports" \
	test -f "$tmp/fl/$(echo "d1-$long" | head -c 255)/results.csv" -a -f "$tmp/fl/$(echo "d2-$long" | head -c 255)/results.csv"

# --files-from: a line with a NUL byte, /dev/zero and a line longer than a path are refused at once
printf '%s\nfoo\0bar\n' "$td/work.data" > "$tmp/nul.list"
timeout 20 "$PROG" -q -o "$tmp/n1" --files-from "$tmp/nul.list" 2> "$tmp/err"
check "--files-from: a line with a NUL is refused, exit 1 ($?)" grep -q "nul.list: line 2 holds a NUL byte" "$tmp/err"
# bounded in time and memory: an unbounded reader would take the machine's (24 GB before the OOM killer)
# (a sanitizer build reserves terabytes of address space for its shadow: no ulimit -v there)
vlimit=4000000
case $PROG in *build-san*) vlimit=unlimited ;; esac
(ulimit -v $vlimit; timeout -s KILL 20 "$PROG" -q -o "$tmp/n2" --files-from /dev/zero 2> "$tmp/err")
check "--files-from /dev/zero is refused at once, exit 1 ($?)" grep -q "/dev/zero: line 1 holds a NUL byte" "$tmp/err"
head -c 5000 /dev/zero | tr '\0' a > "$tmp/long.list"
timeout 20 "$PROG" -q -o "$tmp/n3" --files-from "$tmp/long.list" 2> "$tmp/err"
check "--files-from: a line longer than a path is refused, exit 1 ($?)" grep -q "long.list: line 1 is longer than a path" "$tmp/err"

# a FIFO among the inputs (a glob over a directory) does not block the batch: status 2, said
mkfifo "$tmp/fifo.data"
timeout -s KILL 60 "$PROG" -q -o "$tmp/ff" "${sym[@]}" "$td/work.data" "$tmp/fifo.data" 2> "$tmp/err"
rc=$?
check "a FIFO among the inputs: the batch ends, exit 2 (exit $rc)" test $rc -eq 2
check "a FIFO among the inputs: in index.csv with its message" grep -q "^fifo,$tmp/fifo.data,2,0,0,,,.*not a regular file (a FIFO)" "$tmp/ff/index.csv"

# path outputs in batch mode: one file per profile in DIR/NAME/; '-' is refused
"$PROG" -q -o "$tmp/po" "${sym[@]}" --flamegraph fg.svg --folded sub/st.txt "$td/work.data" "$td/cxx.data"
"$PROG" -q -o "$tmp/po1" "${sym[@]}" --flamegraph "$tmp/fg1.svg" --folded "$tmp/st1.txt" "$td/cxx.data"
check "--flamegraph/--folded in batch mode: each profile's own file in DIR/NAME/" \
	sh -c "[ -s '$tmp/po/work/fg.svg' ] && cmp -s '$tmp/po/cxx/fg.svg' '$tmp/fg1.svg'"
check "--folded in batch mode: each profile's stacks" sh -c "[ -s '$tmp/po/work/st.txt' ] && cmp -s '$tmp/po/cxx/st.txt' '$tmp/st1.txt'"
"$PROG" -q -o "$tmp/pd" "${sym[@]}" --folded - "$td/work.data" "$td/cxx.data" > "$tmp/out" 2> "$tmp/err"
rc=$?
check "--folded - in batch mode is refused, exit 1 (exit $rc), nothing on stdout" test $rc -eq 1 -a ! -s "$tmp/out"

# SIGTERM to the parent of a batch of 20,000 entries: it ends within seconds with
# 143, index.csv written (the files not started say so), no child left writing
for i in $(seq 20000); do echo "$td/work.data"; done > "$tmp/20k.list"
"$PROG" -q -o "$tmp/st" -j 2 "${sym[@]}" --files-from "$tmp/20k.list" 2> "$tmp/err" &
pid=$!
# a watchdog bounds the test when the signal is not acted on
(sleep 60; kill -KILL $pid 2> /dev/null) &
dog=$!
sleep 2
kill -TERM $pid
wait $pid
rc=$?
kill $dog 2> /dev/null
check "SIGTERM to a batch's parent: exit 143 (exit $rc)" test $rc -eq 143
check "SIGTERM to a batch's parent: index.csv lists all, the files not started as interrupted" \
	test "$(grep -c ',143,0,0,,,not analysed: interrupted$' "$tmp/st/index.csv")" -gt 19000
check "SIGTERM to a batch's parent: said" grep -q "st: interrupted: [0-9]* of 20000 files analysed" "$tmp/err"
touch "$tmp/mark"
sleep 2
check "SIGTERM to a batch's parent: no child goes on writing" test -z "$(find "$tmp/st" -newer "$tmp/mark")"
# SIGKILL to the parent: its children stop (they are told by the kernel)
"$PROG" -q -o "$tmp/sk" -j 2 "${sym[@]}" --files-from "$tmp/20k.list" 2> /dev/null &
pid=$!
sleep 2
kill -KILL $pid
wait $pid 2> /dev/null
sleep 2
touch "$tmp/mark"
sleep 2
check "SIGKILL to a batch's parent: no orphaned child goes on writing" test -z "$(find "$tmp/sk" -newer "$tmp/mark")"

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
# an input that cannot be opened leaves no directory behind, in a batch or alone
"$PROG" -q -o "$tmp/gone" "$tmp/no-such.data" "$td/work.data" 2> /dev/null
rc=$?
check "a batch with a missing input: exit 3 (exit $rc), no directory for it, the other's reports" \
	eval '[ $rc -eq 3 ] && [ ! -e "$tmp/gone/no-such" ] && [ -s "$tmp/gone/work/results.csv" ]'
"$PROG" -q -o "$tmp/gone1" "$tmp/no-such.data" 2> /dev/null
rc=$?
check "a missing input alone: exit 3 (exit $rc), no output directory made" eval '[ $rc -eq 3 ] && [ ! -e "$tmp/gone1" ]'
# profiles named as the batch's own files: numbered (before: a directory index.csv/, exit 3, no index)
mkdir -p "$tmp/nm" && cp "$td/work.data" "$tmp/nm/index.csv.data" && cp "$td/work.data" "$tmp/nm/manifest.csv.data"
"$PROG" -q -o "$tmp/nmo" "$tmp/nm/index.csv.data" "$tmp/nm/manifest.csv.data" 2> /dev/null
rc=$?
check "profiles named index.csv and manifest.csv: exit 0 (exit $rc), index.csv a file, their reports in index.csv-2/, manifest.csv-2/" \
	eval '[ $rc -eq 0 ] && [ -f "$tmp/nmo/index.csv" ] && [ -s "$tmp/nmo/index.csv-2/results.csv" ] && [ -s "$tmp/nmo/manifest.csv-2/results.csv" ]'
exit 0

#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-sort.sh: results.csv's --sort KEYS against perf report --sort with the same
# keys (--no-children, samples per row) on the system-wide recording, and the rest
# of --sort: the default and --sort dso,sym are results.csv as always, an unknown or
# repeated key is a usage error, readperf schema types the key columns.
#   PROG=build/readperf tests/cli/test-sort.sh
. "$(dirname "$0")/testlib.sh"
fail=0
name=systemwide-g
opts=(--symfs "$td/symfs" --kallsyms "$td/$name.kallsyms")

# KEYS: perf report's rows as "key;key;...;samples" (sym without its [k]/[.] mark,
# pid's "PID:comm" as the pid alone, the padding trimmed) against readperf's
sort_case() {
	local keys=$1 o=$tmp/${1//,/-} n pidcol
	n=$(echo "$keys" | tr ',' '\n' | wc -l)
	pidcol=$(echo "$keys" | tr ',' '\n' | awk '$0 == "pid" { print NR + 1 }')
	cpucol=$(echo "$keys" | tr ',' '\n' | awk '$0 == "cpu" { print NR + 1 }')
	if ! "$PROG" -q -o "$o" --reports results --sort "$keys" "${opts[@]}" "$td/$name.data" 2> "$tmp/err"; then
		echo "not ok - --sort $keys: readperf failed: $(head -1 "$tmp/err")"
		fail=1
		return
	fi
	check "--sort $keys: the header leads with the keys" \
		test "$(head -1 "$o/results.csv")" = "event,$(echo "$keys" | sed 's/sym/function/; s/pid/pid,tid/'),samples,period,percent"
	# perf's pid is the thread: its tid is compared, the pid column (the process) left out
	csv2tsv "$o/results.csv" | awk -F'\t' -v n="$n" -v pidcol="${pidcol:-0}" 'NR > 1 {
		s = ""; m = n + 1 + (pidcol > 0)
		for (i = 2; i <= m; i++) if (i != pidcol) s = s $i ";"; print s $(m + 1) }' | sort > "$o.got"
	if ! command -v perf > /dev/null; then
		echo "skip - --sort $keys: no perf to compare with"
		return
	fi
	perf report -i "$td/$name.data" "${opts[@]}" --stdio --no-children -g none -t ';' --sort "$keys" \
		-F "sample,$keys" 2> /dev/null | awk -F';' -v OFS=';' -v pidcol="${pidcol:-0}" -v cpucol="${cpucol:-0}" '/^#/ || NF < 2 { next } {
		for (i = 1; i <= NF; i++) { gsub(/^ +| +$/, "", $i); sub(/^\[[k.]\] /, "", $i) }
		if (pidcol) sub(/:.*/, "", $pidcol)
		if (cpucol) $cpucol += 0
		s = ""; for (i = 2; i <= NF; i++) s = s $i ";"; print s $1 }' | sort > "$o.want"
	check "--sort $keys: samples per row as perf report --sort $keys ($(wc -l < "$o.want") rows)" \
		diff "$o.want" "$o.got"
}

sort_case comm,dso,sym
sort_case pid,sym
sort_case comm,pid,dso
sort_case cpu,comm
sort_case dso

# srcline: the file's base name and line, as perf's (rows with a line; perf prints
# SYM+OFFSET where there is none, readperf [unknown])
if command -v perf > /dev/null; then
	"$PROG" -q -o "$tmp/sl" --reports results --sort srcline "${sym[@]}" "$td/work.data" 2> /dev/null
	perf report -i "$td/work.data" "${sym[@]}" --stdio --no-children -g none -t ';' --sort srcline \
		-F sample,srcline 2> /dev/null | awk -F';' '!/^#/ && NF == 2 && $2 ~ /:/ { gsub(/ /, ""); print $2 ";" $1 }' |
		sort > "$tmp/sl.want"
	csv2tsv "$tmp/sl/results.csv" | awk -F'\t' 'NR > 1 && $2 != "[unknown]" { print $2 ";" $3 }' | sort > "$tmp/sl.got"
	check "--sort srcline: samples per file:line as perf report --sort srcline ($(wc -l < "$tmp/sl.want") rows)" \
		diff "$tmp/sl.want" "$tmp/sl.got"
fi

# symoff: perf 6.1 has no such --sort key (perf 6.3 on), so the rows are counted from
# perf script -F ip,dso,sym,symoff (the sample's own sym+0xOFF, as perf report's symoff
# prints it, without its [k]/[.] mark): the dso's base name, the sym+off, the samples;
# with --sort symoff the same rows without the dso (a row per dso and function still)
symoff_case() {
	local name=$1 keys=$2 o=$tmp/symoff-$1-${2//,/-}
	shift 2
	if ! "$PROG" -q -o "$o" --reports results --sort "$keys" "$@" "$td/$name.data" 2> "$tmp/err"; then
		echo "not ok - --sort $keys on $name: readperf failed: $(head -1 "$tmp/err")"
		fail=1
		return
	fi
	check "--sort $keys on $name: the header leads with the keys" \
		test "$(head -1 "$o/results.csv")" = "event,$keys,samples,period,percent"
	csv2tsv "$o/results.csv" | awk -F'\t' -v n="${keys//[^,]/}" 'NR > 1 {
		if (n == ",") print $2 ";" $3 ";" $4; else print $2 ";" $3 }' | sort > "$o.got"
	if ! command -v perf > /dev/null; then
		echo "skip - --sort $keys on $name: no perf to compare with"
		return
	fi
	perf script -i "$td/$name.data" "$@" -F ip,dso,sym,symoff -G 2> /dev/null | awk -v dso="${keys//[^,]/}" '{
		d = $NF; sub(/^\(/, "", d); sub(/\)$/, "", d); k = split(d, p, "/")
		$NF = ""; $1 = ""; sub(/ +$/, ""); sub(/^ +/, "")
		print (dso == "," ? p[k] ";" : "") $0 }' | sort | uniq -c |
		awk '{ c = $1; sub(/^ *[0-9]+ /, ""); print $0 ";" c }' | sort > "$o.want"
	check "--sort $keys on $name: samples per row as perf script's sym+off ($(wc -l < "$o.want") rows)" \
		diff "$o.want" "$o.got"
}
symoff_case systemwide-g dso,symoff "${opts[@]}"
symoff_case systemwide-g symoff "${opts[@]}"
symoff_case cxx dso,symoff "${sym[@]}"
symoff_case work symoff "${sym[@]}"
# the offsets are the file's: hot_big+0x3c of work is its hottest address in annotate.csv
# (address - the function's start, readperf's own count of the same samples)
"$PROG" -q -o "$tmp/an" --reports annotate "${sym[@]}" "$td/work.data" 2> /dev/null
check "--sort symoff: the hottest row is annotate.csv's hottest address of its function" test \
	"$(csv2tsv "$tmp/symoff-work-symoff/results.csv" | awk -F'\t' 'NR == 2 { print $2 ";" $3 }')" = \
	"$(csv2tsv "$tmp/an/annotate.csv" | sort -t$'\t' -k9,9nr | awk -F'\t' 'NR == 1 { printf "%s+0x%x;%s\n", $3, $5, $9 }')"

# the default and --sort dso,sym: results.csv as always (definitions, children columns)
"$PROG" -q -o "$tmp/def" --reports results "${opts[@]}" "$td/$name.data" 2> /dev/null
"$PROG" -q -o "$tmp/ds" --reports results --sort dso,sym "${opts[@]}" "$td/$name.data" 2> /dev/null
check "--sort dso,sym is the default results.csv, byte for byte" cmp -s "$tmp/def/results.csv" "$tmp/ds/results.csv"
check "the default results.csv keeps its columns" test "$(head -1 "$tmp/def/results.csv")" = \
	"event,dso,function,source_file,line,samples,period,percent,children_samples,children_period,children_percent"
# the rows of any key set add up to the event's samples
check "--sort comm,dso,sym: the rows hold every sample (314)" \
	test "$(awk -F, 'NR > 1 { s += $5 } END { print s }' "$tmp/comm-dso-sym/results.csv")" = 314
# bad keys: usage errors naming the key
for bad in bogus,sym sym,sym "" comm,,sym; do
	"$PROG" -q -o "$tmp/bad" --sort "$bad" "${opts[@]}" "$td/$name.data" 2> "$tmp/err"
	rc=$?
	check "--sort '$bad': exit 1 and one message ($(head -1 "$tmp/err"))" \
		test $rc -eq 1 -a "$(grep -c '^readperf: --sort' "$tmp/err")" -eq 1
done
"$PROG" -q -o "$tmp/bad" --sort pid,tid "${opts[@]}" "$td/$name.data" 2> "$tmp/err"
rc=$?
check "--sort pid,tid: exit 1 (perf's pid is the thread)" test $rc -eq 1
"$PROG" -q -o "$tmp/tid" --reports results --sort tid "${opts[@]}" "$td/$name.data" 2> /dev/null
"$PROG" -q -o "$tmp/pid" --reports results --sort pid "${opts[@]}" "$td/$name.data" 2> /dev/null
check "--sort tid: the rows of --sort pid, without the pid column" test \
	"$(tail -n +2 "$tmp/tid/results.csv" | sort)" = "$(tail -n +2 "$tmp/pid/results.csv" | cut -d, -f2 --complement | sort)"
# readperf schema DIR types the key columns
"$PROG" schema "$tmp/pid-sym" > "$tmp/schema" 2> "$tmp/err"
check "readperf schema types --sort's columns (pid, tid BIGINT, function TEXT), no warning" \
	grep -qF 'CREATE TABLE "results" ("event" TEXT, "pid" BIGINT, "tid" BIGINT, "function" TEXT, "samples" BIGINT, "period" BIGINT, "percent" DOUBLE);' \
	"$tmp/schema"
check "readperf schema on --sort's results.csv warns of no unknown column" test ! -s "$tmp/err"
"$PROG" schema "$tmp/cpu-comm" > "$tmp/schema" 2> /dev/null
check "readperf schema: cpu BIGINT, comm TEXT" grep -qF '"results" ("event" TEXT, "cpu" BIGINT, "comm" TEXT,' "$tmp/schema"
"$PROG" schema "$tmp/symoff-systemwide-g-dso-symoff" > "$tmp/schema" 2> "$tmp/err"
check "readperf schema: symoff TEXT, no warning" grep -qF '"results" ("event" TEXT, "dso" TEXT, "symoff" TEXT, "samples" BIGINT,' "$tmp/schema"
check "readperf schema on --sort symoff's results.csv warns of no unknown column" test ! -s "$tmp/err"
exit $fail

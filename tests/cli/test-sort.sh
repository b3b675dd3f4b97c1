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
# SYM+OFFSET where there is none, readperf [unknown]). perf reads lines with libbfd,
# readperf with libdw, and the two name another line at a few addresses (libbfd 2.40
# takes an inlined function's line for its caller's file: dl-get-cpu-features.c:333 where
# the line table says dl-cacheinfo.h:333). So the rows are first compared per sampled
# address (perf script's srcline of each sample's sym+off, readperf's --sort
# dso,symoff,srcline): where they differ, llvm-symbolizer, a third DWARF reader, reads the
# address (annotate.csv's for that sym+off) in the same binary; perf's samples there move to
# readperf's line only when llvm-symbolizer names readperf's line, any other difference
# fails; without llvm-symbolizer the address is a skip and its samples left out on both sides
srcline_by_address() {
	local name=$1 o=$tmp/sla bin addrs
	shift
	"$PROG" -q -o "$o" --reports results,annotate --sort dso,symoff,srcline "$@" "$td/$name.data" 2> /dev/null
	csv2tsv "$o/results.csv" | awk -F'\t' -v OFS='\t' 'NR > 1 { print $2, $3, $4, $5 }' > "$o.got"
	csv2tsv "$o/annotate.csv" | awk -F'\t' -v OFS='\t' 'NR > 1 { printf "%s\t%s+0x%x\t%s\n", $2, $3, $5, $4 }' > "$o.addr"
	# perf script: a sample's "IP SYM+OFF (DSO)" line, then its srcline
	perf script -i "$td/$name.data" "$@" -F ip,sym,symoff,dso,srcline 2> /dev/null | awk -v OFS='\t' '
		head { l = $0; gsub(/^ +| +$/, "", l); if (l !~ /:[0-9]+$/ || l ~ /^\?\?:/) l = "[unknown]"
			print dso, so, l; head = 0; next }
		match($0, / \([^()]*\)$/) {
			dso = substr($0, RSTART + 2, RLENGTH - 3); so = substr($0, 1, RSTART - 1)
			sub(/^ *[0-9a-f]+ /, "", so); head = 1 }' | sort | uniq -c |
		awk -v OFS='\t' '{ c = $1; sub(/^ *[0-9]+ /, ""); print $0, c }' > "$o.perf"
	# perf's differing addresses: DSO-PATH SYM+OFF PERF READPERF SAMPLES ADDRESS
	awk -F'\t' -v OFS='\t' 'FILENAME == ARGV[1] { rp[$1 "\t" $2] = $3; next }
		FILENAME == ARGV[2] { ad[$1 "\t" $2] = $3; next }
		{ b = $1; sub(/.*\//, "", b); k = b "\t" $2
		  if ((k in rp) && rp[k] != $3) print $1, $2, $3, rp[k], $4, (k in ad) ? ad[k] : "none" }' \
		"$o.got" "$o.addr" "$o.perf" > "$o.diff"
	: > "$o.oracle"
	while IFS=$'\t' read -r bin; do
		addrs=$(awk -F'\t' -v b="$bin" '$1 == b && $6 != "none" { print $6 }' "$o.diff" | sort -u)
		[ -n "$addrs" ] || continue
		[ -e "$td/symfs$bin" ] && bin=$td/symfs$bin
		# shellcheck disable=SC2086
		srcline_oracle "$bin" $addrs | sed "s|^|${bin#"$td/symfs"}\t|; s| |\t|" >> "$o.oracle"
	done < <(cut -f1 "$o.diff" | sort -u)
	# the verdict per differing address; perf's rows corrected where the oracle sides with readperf
	awk -F'\t' -v OFS='\t' -v have="$(command -v llvm-symbolizer)" -v want="$tmp/sl.want" -v got="$tmp/sl.got" '
		FILENAME == ARGV[1] { ans[$1 "\t" $2] = $3; next }
		{	o = ans[$1 "\t" $6]; w = sprintf("%s %s (%s): perf %s, readperf %s, samples %d", $1, $2, $6, $3, $4, $5)
			if (!have) { print "skip - srcline at " w ": no llvm-symbolizer to tell"; drop[$3] += $5; dropg[$4] += $5 }
			else if (o == $4) { print "ok - srcline at " w ": llvm-symbolizer says " o; mv[$3] -= $5; mv[$4] += $5 }
			else print "not ok - srcline at " w ": llvm-symbolizer says " (o == "" ? "nothing" : o)
		}
		END {
			while ((getline l < want) > 0) { n = split(l, p, ";"); c[p[1]] += p[2] }
			for (k in mv) c[k] += mv[k]
			for (k in drop) c[k] -= drop[k]
			for (k in c) if (c[k] > 0 && k != "[unknown]") print k ";" c[k] > (want ".arb")
			while ((getline l < got) > 0) { n = split(l, p, ";"); g[p[1]] += p[2] }
			for (k in dropg) g[k] -= dropg[k]
			for (k in g) if (g[k] > 0) print k ";" g[k] > (got ".arb")
		}' "$o.oracle" "$o.diff"
	sort -o "$tmp/sl.want.arb" "$tmp/sl.want.arb" 2> /dev/null || : > "$tmp/sl.want.arb"
	sort -o "$tmp/sl.got.arb" "$tmp/sl.got.arb" 2> /dev/null || : > "$tmp/sl.got.arb"
}
if command -v perf > /dev/null; then
	"$PROG" -q -o "$tmp/sl" --reports results --sort srcline "${sym[@]}" "$td/work.data" 2> /dev/null
	perf report -i "$td/work.data" "${sym[@]}" --stdio --no-children -g none -t ';' --sort srcline \
		-F sample,srcline 2> /dev/null | awk -F';' '!/^#/ && NF == 2 && $2 ~ /:/ { gsub(/ /, ""); print $2 ";" $1 }' |
		sort > "$tmp/sl.want"
	csv2tsv "$tmp/sl/results.csv" | awk -F'\t' 'NR > 1 && $2 != "[unknown]" { print $2 ";" $3 }' | sort > "$tmp/sl.got"
	srcline_by_address work "${sym[@]}"
	check "--sort srcline: samples per file:line as perf report --sort srcline, llvm-symbolizer's line at the addresses above (a skipped one left out) ($(wc -l < "$tmp/sl.want.arb") rows)" \
		diff "$tmp/sl.want.arb" "$tmp/sl.got.arb"
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
# bad keys: usage errors naming the key, and saying whether it is no key or one given again
for bad in "bogus,sym bogus' is not a key" "sym,sym sym' repeats a key" " ' is not a key" "comm,,sym ' is not a key" \
	   "pid,tid tid' repeats a key (pid and tid are one key" "tid,pid pid' repeats a key (pid and tid are one key"; do
	keys=${bad%% *} want=${bad#* }
	"$PROG" -q -o "$tmp/bad" --sort "$keys" "${opts[@]}" "$td/$name.data" 2> "$tmp/err"
	rc=$?
	check "--sort '$keys': exit 1 and one message, '$want' ($(head -1 "$tmp/err"))" \
		test $rc -eq 1 -a "$(grep -c '^readperf: --sort' "$tmp/err")" -eq 1 -a "$(grep -cF -- "'$want" "$tmp/err")" -eq 1
done
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

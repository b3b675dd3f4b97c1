#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# readperf diff OLD NEW (diff.csv):
#  - a recording against itself: every function once, equal samples and
#    percentages, every delta 0.0000;
#  - testdata/work.data against testdata/callgraph-fp.data (the same program,
#    recorded without and with -g): old/new samples and percentages equal
#    those of the two results.csv files, function by function (the union of
#    both), delta = new - old, rows sorted by |delta| then event, dso, function;
#  - the options reach both files (--comm), usage errors exit 1, a missing
#    file 3, a truncated file 2 with diff.csv still written.
# Prints "ok - ...", "not ok - ...", "skip - ..." lines.
. "$(dirname "$0")/testlib.sh"

# CSV (RFC 4180, no newlines inside fields) to tab-separated fields
csv2tsv() {
	awk '{
		out = ""; f = ""; q = 0; n = length($0)
		for (i = 1; i <= n; i++) {
			c = substr($0, i, 1)
			if (q) {
				if (c == "\"") {
					if (substr($0, i + 1, 1) == "\"") { f = f c; i++ } else q = 0
				} else f = f c
			} else if (c == "\"") q = 1
			else if (c == ",") { out = out f "\t"; f = "" }
			else f = f c
		}
		print out f
	}' "$@"
}

# results.csv -> "event<TAB>dso<TAB>function<TAB>samples<TAB>percent" for functions with self samples
self_rows() {
	csv2tsv "$1" | awk -F'\t' 'NR > 1 && $6 > 0 { print $1 "\t" $2 "\t" $3 "\t" $6 "\t" $8 }' | sort
}

# --- a recording against itself
"$PROG" diff -o "$tmp/self" "${sym[@]}" "$td/callgraph-fp.data" "$td/callgraph-fp.data" 2> "$tmp/self.err"
rc=$?
check "diff self: exit 0 (exit $rc)" test $rc -eq 0
check "diff self: no message" quiet_stderr "$tmp/self.err"
"$PROG" -q -o "$tmp/fp" --reports results "${sym[@]}" "$td/callgraph-fp.data"
check "diff self: header row" \
	test "$(head -1 "$tmp/self/diff.csv")" = "event,dso,function,old_samples,new_samples,old_percent,new_percent,delta_percent"
bad=$(csv2tsv "$tmp/self/diff.csv" | awk -F'\t' 'NR > 1 && ($4 != $5 || $6 != $7 || $8 != "0.0000")' | head -3)
check "diff self: equal samples and percentages, every delta 0.0000${bad:+: $bad}" test -z "$bad"
csv2tsv "$tmp/self/diff.csv" | awk -F'\t' 'NR > 1 { print $1 "\t" $2 "\t" $3 "\t" $4 "\t" $6 }' | sort > "$tmp/self.rows"
self_rows "$tmp/fp/results.csv" > "$tmp/fp.rows"
check "diff self: one row per function of results.csv ($(wc -l < "$tmp/fp.rows") functions)" \
	cmp -s "$tmp/self.rows" "$tmp/fp.rows"
# all deltas are 0: the order is event, dso, function
csv2tsv "$tmp/self/diff.csv" | awk -F'\t' 'NR > 1 { print $1 "\t" $2 "\t" $3 }' > "$tmp/self.keys"
check "diff self: rows sorted by event, dso, function" sort -c "$tmp/self.keys"

# --- work.data (no callchains) against callgraph-fp.data (-g), the same program
"$PROG" diff -o "$tmp/wf" "${sym[@]}" "$td/work.data" "$td/callgraph-fp.data" 2> "$tmp/wf.err"
rc=$?
check "diff work callgraph-fp: exit 0 (exit $rc)" test $rc -eq 0
check "diff work callgraph-fp: no message" quiet_stderr "$tmp/wf.err"
"$PROG" -q -o "$tmp/work" --reports results "${sym[@]}" "$td/work.data"
self_rows "$tmp/work/results.csv" > "$tmp/work.rows"
# the expected rows, from the two results.csv files: a function missing on one side has 0 there
awk -F'\t' 'FNR == NR { old[$1 "\t" $2 "\t" $3] = $4 "\t" $5; next }
	{ new[$1 "\t" $2 "\t" $3] = $4 "\t" $5 }
	END {
		for (k in old) { if (!(k in new)) new[k] = "0\t0.0000" }
		for (k in new) { if (!(k in old)) old[k] = "0\t0.0000" }
		for (k in old) {
			split(old[k], o, "\t"); split(new[k], n, "\t")
			print k "\t" o[1] "\t" n[1] "\t" o[2] "\t" n[2]
		}
	}' "$tmp/work.rows" "$tmp/fp.rows" | sort > "$tmp/wf.expected"
csv2tsv "$tmp/wf/diff.csv" | awk -F'\t' 'NR > 1 { print $1 "\t" $2 "\t" $3 "\t" $4 "\t" $5 "\t" $6 "\t" $7 }' |
	sort > "$tmp/wf.got"
check "diff work callgraph-fp: samples and percentages per function = the two results.csv ($(wc -l < "$tmp/wf.expected") functions)" \
	cmp -s "$tmp/wf.expected" "$tmp/wf.got"
[ -s "$tmp/wf.expected" ] || echo "not ok - diff work callgraph-fp: results.csv had no functions"
diff "$tmp/wf.expected" "$tmp/wf.got" | head -5 | sed 's/^/# /'
# delta = new - old, in 1/10000 %; and the order: |delta| descending, then event, dso, function
bad=$(csv2tsv "$tmp/wf/diff.csv" | awk -F'\t' '
	function u(x) { sub(/\./, "", x); return x + 0 }
	NR > 1 {
		d = u($8)
		if (d != u($7) - u($6)) { print "delta " $0; exit }
		a = d < 0 ? -d : d
		k = $1 "\t" $2 "\t" $3
		if (NR > 2 && (a > pa || (a == pa && k <= pk))) { print "order " $0; exit }
		pa = a; pk = k
	}')
check "diff work callgraph-fp: delta = new - old, sorted by |delta| then event, dso, function${bad:+: $bad}" test -z "$bad"
check "diff work callgraph-fp: hot_big is in both with the results.csv samples" \
	grep -q "^cpu-clock,work,hot_big,$(awk -F'\t' '$3 == "hot_big" { print $4 }' "$tmp/work.rows"),$(awk -F'\t' '$3 == "hot_big" { print $4 }' "$tmp/fp.rows")," "$tmp/wf/diff.csv"

# --- options apply to both files
"$PROG" diff -q -o "$tmp/comm" "${sym[@]}" --comm nosuchcomm "$td/work.data" "$td/callgraph-fp.data"
check "diff --comm nosuchcomm: exit 0, header row only" \
	test $? -eq 0 -a "$(wc -l < "$tmp/comm/diff.csv")" -eq 1
"$PROG" diff -q -o "$tmp/ev" "${sym[@]}" -e cpu-clock "$td/work.data" "$td/callgraph-fp.data"
check "diff -e cpu-clock: the same as without -e" cmp -s "$tmp/ev/diff.csv" "$tmp/wf/diff.csv"

# --- errors
"$PROG" diff "$td/work.data" > /dev/null 2> "$tmp/err"
rc=$?
check "diff with one file: exit 1 and a usage line (exit $rc)" test $rc -eq 1 -a -s "$tmp/err"
"$PROG" diff --folded "$tmp/x" "$td/work.data" "$td/work.data" > /dev/null 2> "$tmp/err"
rc=$?
check "diff --folded: exit 1, an option of the analysis only (exit $rc)" \
	test $rc -eq 1 -a "$(grep -c 'analysis only' "$tmp/err")" -eq 1
"$PROG" diff -q -o "$tmp/missing" "$tmp/no-such.data" "$td/work.data" 2> "$tmp/err"
rc=$?
check "diff with a missing file: exit 3, the message names it (exit $rc)" \
	test $rc -eq 3 -a "$(grep -c 'no-such.data' "$tmp/err")" -ge 1
size=$(stat -c %s "$td/callgraph-fp.data")
head -c $((size / 2 + 3)) "$td/callgraph-fp.data" > "$tmp/trunc.data"
"$PROG" diff -q -o "$tmp/trunc" "${sym[@]}" "$td/work.data" "$tmp/trunc.data" 2> "$tmp/err"
rc=$?
n=$(csv2tsv "$tmp/trunc/diff.csv" 2> /dev/null | awk -F'\t' 'NR > 1 && $5 > 0' | wc -l)
check "diff with a truncated file: exit 2, message names it, diff.csv covers what was read (exit $rc, $n new rows)" \
	test $rc -eq 2 -a "$(grep -c 'trunc.data' "$tmp/err")" -ge 1 -a "$n" -gt 0
exit 0

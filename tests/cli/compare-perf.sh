#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# compare-perf.sh: compare readperf's CSV reports with perf's answers for the
# same file (written by tests/cli/perf-oracle.sh).
#
#   tests/cli/compare-perf.sh [-n NAME] [-s SYMFS] OUTDIR EXPDIR
#
# OUTDIR holds readperf's stat.csv, events.csv, results.csv, lines.csv,
# processes.csv, overview.csv (columns as in the README, found by header name).
# EXPDIR holds perf's stats.txt, events, dso_sym, dso_sym_srcfile, pid, script.
# A check runs when its expected file exists. One line per check:
#   ok - NAME check
#   not ok - NAME check: details
# Checks:
#   stat       every record type perf lists: same count; TOTAL = sum of stat.csv counts
#   events     samples per event exact (events perf does not list must have 0)
#   results    (event,dso,function) samples vs perf --sort dso,sym: fraction of
#              samples in matching buckets >= 99 % (perf's raw-address rows aside)
#   lines      (event,dso,function,basename(source_file)) vs --sort dso,sym,srcfile, >= 99 %;
#              with -s SYMFS and OUTDIR/annotate.csv, where a function's samples sit in
#              another file than perf's (libbfd's) and readperf's (libdw's), llvm-symbolizer
#              reads each of its sampled addresses readperf puts in that file (the binary
#              found by its base name under SYMFS): perf's samples move to readperf's file
#              when it names that file at every one ("ok - NAME lines-oracle"), else "not
#              ok"; without llvm-symbolizer "skip" and perf's buckets stay
#   children   (event,dso,function) children_percent vs perf --children --no-inline:
#              within 1 point for every function perf shows at >= 1 % children,
#              and percent (self) within 0.01 of perf's self column (raw addresses aside)
#   processes  samples per pid exact (rows of a reused pid summed)
#   overview   sample rows (tid,time,ip,symbol,event) equal to perf script's, as sorted sets
# Exit status: 0 all ran checks passed, 1 some failed, 2 usage.
# Pure bash + POSIX awk (and llvm-symbolizer for -s).
set -u
LC_ALL=C
export LC_ALL

name=
symfs=
if [ "${1:-}" = "-n" ]; then
	name=$2
	shift 2
fi
if [ "${1:-}" = "-s" ]; then
	symfs=$2
	shift 2
fi
if [ $# -ne 2 ]; then
	echo "usage: $0 [-n NAME] [-s SYMFS] OUTDIR EXPDIR" >&2
	exit 2
fi
out=$1
exp=$2
[ -n "$name" ] || name=$(basename "$exp")
fail=0
. "$(dirname "$0")/oracle.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok - $name $1"; }
notok() {
	echo "not ok - $name $1: $2"
	fail=1
}

# csv_cols FILE COL... : print the named columns of an RFC 4180 CSV file
# (header row first) as TAB-separated lines, header skipped. Exit 3 when a
# column is missing. Quoted fields with commas and "" are handled; fields
# spanning lines are not (no report column holds a newline).
csv_cols() {
	local file=$1
	shift
	awk -v want="$*" '
	function csvsplit(s, f,    n, i, c, q, cur, len) {
		if (index(s, "\"") == 0)
			return split(s, f, ",")
		n = 0; cur = ""; q = 0; len = length(s)
		for (i = 1; i <= len; i++) {
			c = substr(s, i, 1)
			if (q) {
				if (c == "\"") {
					if (substr(s, i + 1, 1) == "\"") { cur = cur "\""; i++ }
					else q = 0
				} else
					cur = cur c
			} else if (c == "\"")
				q = 1
			else if (c == ",") { f[++n] = cur; cur = "" }
			else
				cur = cur c
		}
		f[++n] = cur
		return n
	}
	BEGIN { nw = split(want, w, " ") }
	{ sub(/\r$/, "") }
	NR == 1 {
		n = csvsplit($0, h)
		for (i = 1; i <= n; i++) idx[h[i]] = i
		for (j = 1; j <= nw; j++)
			if (!(w[j] in idx)) { print "missing column " w[j] > "/dev/stderr"; bad = 1; exit 3 }
		next
	}
	{
		n = csvsplit($0, f)
		line = ""
		for (j = 1; j <= nw; j++)
			line = line (j > 1 ? "\t" : "") f[idx[w[j]]]
		print line
	}
	END { if (bad) exit 3 }' "$file"
}

# need FILE CHECK: readperf's CSV must exist
need() {
	if [ ! -f "$out/$1" ]; then
		notok "$2" "$out/$1 missing"
		return 1
	fi
}

# load EXPECTED CSV CHECK TSV COLUMN...: when perf's EXPECTED file is there,
# readperf's CSV columns into $tmp/TSV; 1 when the check does not apply or
# the CSV is missing or bad (said as CHECK's failure)
load() {
	local expected=$1 csv=$2 check=$3 tsv=$4
	shift 4
	[ -f "$exp/$expected" ] || return 1
	need "$csv" "$check" || return 1
	if ! csv_cols "$out/$csv" "$@" > "$tmp/$tsv" 2> "$tmp/err"; then
		notok "$check" "$(cat "$tmp/err")"
		return 1
	fi
}

# verdict CHECK MSG: MSG is "pass DETAIL" or "fail DETAIL"
verdict() {
	case $2 in
	pass*) ok "$1: ${2#pass }" ;;
	*) notok "$1" "${2#fail }" ;;
	esac
}

check_stat() {
	load stats.txt stat.csv stat stat type count || return 0
	local msg
	msg=$(awk -F'\t' '
		FNR == NR { got[$1] += $2; sum += $2; next }
		$1 == "TOTAL" { total = $2; next }
		{
			n++
			if (!($1 in got)) { bad = bad sprintf(" %s: perf %s, readperf none;", $1, $2); nb++ }
			else if (got[$1] != $2) { bad = bad sprintf(" %s: perf %s, readperf %s;", $1, $2, got[$1]); nb++ }
		}
		END {
			if (total != "" && sum != total) { bad = bad sprintf(" TOTAL: perf %s, readperf sum %s;", total, sum); nb++ }
			if (nb) print nb " mismatches:" bad
		}' "$tmp/stat" "$exp/stats.txt")
	if [ -n "$msg" ]; then notok stat "$msg"; else ok stat; fi
}

# count_match CHECK GOT EXPECTED LABEL MISSING: both TAB files "key count",
# every key's counts equal (readperf may add keys of count 0); LABEL goes
# before a key in the message; MISSING "none": a key readperf lacks is a
# mismatch, "0": it counts 0
count_match() {
	local msg
	msg=$(awk -F'\t' -v label="$4" -v missing="$5" '
		FNR == NR { got[$1] += $2; seen[$1] = 1; next }
		{
			want[$1] = 1
			if (!($1 in seen) && missing == "none") { bad = bad sprintf(" %s%s: perf %s, readperf none;", label, $1, $2); nb++ }
			else if (got[$1] + 0 != $2) { bad = bad sprintf(" %s%s: perf %s, readperf %s;", label, $1, $2, got[$1] + 0); nb++ }
		}
		END {
			for (k in seen)
				if (!(k in want) && got[k] != 0) { bad = bad sprintf(" %s%s: perf none, readperf %s;", label, k, got[k]); nb++ }
			if (nb) print nb " mismatches:" bad
		}' "$2" "$3")
	if [ -n "$msg" ]; then notok "$1" "$msg"; else ok "$1"; fi
}

check_events() {
	load events events.csv events events event samples || return 0
	count_match events "$tmp/events" "$exp/events" "" none
}

# bucket_match CHECK GOT EXPECTED NKEY: both TAB files "key1..keyN samples";
# perf rows whose function (key 3) is a raw address are set aside.
bucket_match() {
	local check=$1 msg
	msg=$(awk -F'\t' -v nk="$4" '
		function key(    k, i) { k = $1; for (i = 2; i <= nk; i++) k = k "\t" $i; return k }
		FNR == NR { got[key()] += $(nk + 1); next }
		$3 ~ /^0x[0-9a-f]+$/ { aside += $(nk + 1); next }
		{
			k = key(); e = $(nk + 1); total += e
			g = (k in got) ? got[k] : 0
			m = g < e ? g : e
			matched += m
			if (e - m > worst) { worst = e - m; wk = k; we = e; wg = g }
		}
		END {
			if (total == 0) { printf "pass no samples to compare (%d aside)\n", aside; exit }
			frac = matched / total
			verdict = (frac >= 0.99) ? "pass" : "fail"
			gsub(/\t/, ",", wk)
			printf "%s %.2f%% of %d samples match (%d at raw addresses aside)", \
				verdict, 100 * frac, total, aside
			if (worst > 0) printf "; worst: %s perf %d readperf %d", wk, we, wg
			printf "\n"
		}' "$2" "$3")
	verdict "$check" "$msg"
}

check_results() {
	load dso_sym results.csv results results event dso function samples || return 0
	bucket_match results "$tmp/results" "$exp/dso_sym" 3
}

check_children() {
	load children results.csv children children event dso function percent children_percent || return 0
	local msg
	msg=$(awk -F'\t' '
		function abs(x) { return x < 0 ? -x : x }
		FNR == NR { k = $1 "\t" $2 "\t" $3; self[k] = $4; ch[k] = $5; next }
		$4 < 1 || $3 ~ /^0x[0-9a-f]+$/ || (length($3) == 16 && $3 ~ /^[0-9a-f]+$/) { next }
		{
			k = $1 "\t" $2 "\t" $3; n++
			if (!(k in ch)) { bad = bad sprintf(" %s,%s: perf %s%%, readperf none;", $2, $3, $4); nb++; next }
			d = abs(ch[k] - $4)
			if (d > worst) worst = d
			if (d > 1) { bad = bad sprintf(" %s,%s: perf %s%%, readperf %s%%;", $2, $3, $4, ch[k]); nb++ }
			if (abs(self[k] - $5) > 0.01) { bad = bad sprintf(" %s,%s self: perf %s%%, readperf %s%%;", $2, $3, $5, self[k]); nb++ }
		}
		END {
			if (nb) print "fail " nb " mismatches:" bad
			else printf "pass %d functions at >= 1%% children, max deviation %.2f points\n", n, worst
		}' "$tmp/children" "$exp/children")
	verdict children "$msg"
}

# lines_oracle GOT EXPECTED: EXPECTED (perf's lines buckets) with the samples of a
# function moved from perf's file to readperf's where llvm-symbolizer names readperf's
# file at each sampled address readperf puts there (the check's header above); prints
# the arbitrated buckets, and an ok / not ok / skip line per function to stderr
lines_oracle() {
	local bin d addrs
	# per function with a deficit (perf's file) and a surplus (readperf's): its sampled
	# addresses in a surplus file, "dso address file event function samples"
	csv_cols "$out/annotate.csv" event dso function address source_file samples 2> /dev/null |
		awk -F'\t' -v OFS='\t' 'FILENAME == ARGV[1] { g[$1 "\t" $2 "\t" $3 "\t" $4] += $5; fn[$1 "\t" $2 "\t" $3] = 1; next }
		FILENAME == ARGV[2] { e[$1 "\t" $2 "\t" $3 "\t" $4] += $5; fn[$1 "\t" $2 "\t" $3] = 1; next }
		FNR == 1 {
			for (k in g) { d = g[k] - e[k]; f = k; sub(/\t[^\t]*$/, "", f); if (d > 0) sur[k] = 1; if (d > 0) hs[f] = 1 }
			for (k in e) { d = e[k] - g[k]; f = k; sub(/\t[^\t]*$/, "", f); if (d > 0) hd[f] = 1 }
		}
		$6 > 0 { b = $5; sub(/.*\//, "", b); f = $1 "\t" $2 "\t" $3
			if ((f in hs) && (f in hd) && ((f "\t" b) in sur)) print $2, $4, b, $1, $3, $6 }' \
		"$1" "$2" - > "$tmp/or_addrs"
	: > "$tmp/or_said"
	if command -v llvm-symbolizer > /dev/null; then
		for d in $(cut -f1 "$tmp/or_addrs" | sort -u); do
			bin=$(find "$symfs" -name "$d" \( -type f -o -type l \) 2> /dev/null | sort | head -1)
			addrs=$(awk -F'\t' -v d="$d" '$1 == d { print $2 }' "$tmp/or_addrs" | sort -u)
			# shellcheck disable=SC2086
			[ -n "$bin" ] && srcline_oracle "$bin" $addrs | awk -v d="$d" -v OFS='\t' '{ sub(/:[0-9]+$/, "", $2); print d, $1, $2 }' >> "$tmp/or_said"
		done
	fi
	awk -F'\t' -v OFS='\t' -v name="$name" -v have="$(command -v llvm-symbolizer)" '
		FILENAME == ARGV[1] { said[$1 "\t" $2] = $3; next }
		FILENAME == ARGV[2] { f = $4 "\t" $1 "\t" $5; nf[f]++; addr[f] = addr[f] " " $2
			if (said[$1 "\t" $2] != $3) bad[f] = bad[f] sprintf(" %s: readperf %s, llvm-symbolizer %s;", $2, $3, (($1 "\t" $2) in said) ? said[$1 "\t" $2] : "nothing")
			at[f] += $6; next }
		FILENAME == ARGV[3] { g[$1 "\t" $2 "\t" $3 "\t" $4] += $5; next }
		{ k = $1 "\t" $2 "\t" $3 "\t" $4; e[k] += $5; if (!(k in listed)) { listed[k] = 1; order[++n] = k } }
		END {
			for (f in nf) {
				w = f; gsub(/\t/, ",", w)
				if (!have) { printf "skip - %s lines-oracle: %s: readperf and perf name other files at%s; no llvm-symbolizer to tell\n", name, w, addr[f] > "/dev/stderr"; continue }
				if (f in bad) { printf "not ok - %s lines-oracle: %s:%s\n", name, w, bad[f] > "/dev/stderr"; continue }
				# move up to the addresses samples from perf s deficit buckets to readperf s surplus ones
				left = at[f]; take = 0
				for (k in e) { p = k; sub(/\t[^\t]*$/, "", p); if (p == f && e[k] > g[k]) take += e[k] - g[k] }
				if (take < left) left = take
				moved = left; from = ""; to = ""
				for (k in e) { p = k; sub(/\t[^\t]*$/, "", p)
					if (p == f && e[k] > g[k] && left > 0) { m = e[k] - g[k]; if (m > left) m = left; e[k] -= m; left -= m; q = k; sub(/.*\t/, "", q); from = from " " q } }
				left = moved
				for (k in g) { p = k; sub(/\t[^\t]*$/, "", p)
					if (p == f && g[k] > e[k] && left > 0) { m = g[k] - e[k]; if (m > left) m = left; if (!(k in listed)) { listed[k] = 1; order[++n] = k }; e[k] += m; left -= m; q = k; sub(/.*\t/, "", q); to = to " " q } }
				printf "ok - %s lines-oracle: %s: %d samples perf puts in%s, readperf in%s, as llvm-symbolizer at%s\n", name, w, moved, from, to, addr[f] > "/dev/stderr"
			}
			for (i = 1; i <= n; i++) if (e[order[i]] > 0) print order[i], e[order[i]]
		}' "$tmp/or_said" "$tmp/or_addrs" "$1" "$2"
}

check_lines() {
	load dso_sym_srcfile lines.csv lines lines0 event dso function source_file samples || return 0
	# perf prints the source file's base name
	awk -F'\t' 'BEGIN { OFS = "\t" } { sub(/.*\//, "", $4); print }' "$tmp/lines0" > "$tmp/lines"
	local want=$exp/dso_sym_srcfile
	if [ -n "$symfs" ] && [ -f "$out/annotate.csv" ]; then
		lines_oracle "$tmp/lines" "$want" > "$tmp/lines_want" 2> "$tmp/lines_said"
		cat "$tmp/lines_said"
		grep -q '^not ok' "$tmp/lines_said" && fail=1
		want=$tmp/lines_want
	fi
	bucket_match lines "$tmp/lines" "$want" 4
}

check_processes() {
	load pid processes.csv processes proc pid samples || return 0
	count_match processes "$tmp/proc" "$exp/pid" "pid " 0
}

check_overview() {
	load script overview.csv overview ov0 type tid time ip symbol event || return 0
	awk -F'\t' 'BEGIN { OFS = "\t" } $1 == "SAMPLE" { print $2, $3, tolower($4), $5, $6 }' "$tmp/ov0" > "$tmp/ov_order"
	# replay order: sample times never go back (perf script prints in time order too)
	local back
	back=$(awk -F'\t' 'NR > 1 && $2 + 0 < prev + 0 { n++; if (!first) first = NR } { prev = $2 } END { if (n) print n " samples earlier than the one before, first at sample row " first }' "$tmp/ov_order")
	if [ -n "$back" ]; then notok overview-order "$back"; else ok overview-order; fi
	sort "$tmp/ov_order" > "$tmp/ov"
	sort "$exp/script" > "$tmp/sc"
	local n_got n_exp nd first
	n_got=$(wc -l < "$tmp/ov")
	n_exp=$(wc -l < "$tmp/sc")
	if cmp -s "$tmp/ov" "$tmp/sc"; then
		ok overview
		return 0
	fi
	nd=$(comm -3 "$tmp/sc" "$tmp/ov" | wc -l)
	first=$(comm -23 "$tmp/sc" "$tmp/ov" | head -1 | tr '\t' ',')
	notok overview "perf $n_exp sample rows, readperf $n_got, $nd differ; first perf row not in readperf: ${first:-none}"
}

if [ ! -d "$exp" ]; then
	notok setup "no expected directory $exp"
	exit 1
fi
check_stat
check_events
check_results
check_children
check_lines
check_processes
check_overview
exit $fail

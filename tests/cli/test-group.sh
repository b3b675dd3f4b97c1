#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Leader-sampled groups (perf record -e '{cpu-clock,page-faults,context-switches}:S',
# testdata/group*.data): every member event gets the samples perf delivers
# (deliver_sample_group: one per counter that grew, period = the growth).
# Against perf itself, run here on the same files: period per (event, dso,
# function) equal to perf report's, and with -g children_percent within 0.5
# points of perf report --children. (Samples per function are checked by
# test-recordings.sh against tests/cli/expected/group*.)
. "$(dirname "$0")/testlib.sh"

if ! command -v perf > /dev/null; then
	echo "skip - groups: perf is not installed"
	exit 0
fi
ks=(--symfs "$td/symfs" --kallsyms "$td/kallsyms.boot2")
# perf report -> EVENT DSO SYM CHILDREN% SELF_PERIOD, one line per entry
perf_rows() {
	HOME=$tmp PERF_BUILDID_DIR=$tmp/.debug perf report -i "$1" --no-group --children --sort dso,sym \
		-F overhead_children,period,dso,sym --stdio --field-separator=, -g none "${ks[@]}" 2> /dev/null |
	awk -F, '/^# Samples: / { ev = $0; sub(/^[^'"'"']*'"'"'/, "", ev); sub(/'"'"'.*/, "", ev); next }
		/^#/ || !NF { next }
		{ for (i = 1; i <= NF; i++) { gsub(/^ +| +$/, "", $i) } sub(/%$/, "", $1); sub(/^\[[k.]\] /, "", $4)
		  print ev "\t" $3 "\t" $4 "\t" $1 "\t" $2 }'
}
for name in group group-period group-g; do
	perf_rows "$td/$name.data" | sort > "$tmp/$name.perf"
	"$PROG" -q -o "$tmp/$name" --reports results "${ks[@]}" "$td/$name.data"
	csv2tsv "$tmp/$name/results.csv" | awk -F'\t' 'NR > 1 { print $1 "\t" $2 "\t" $3 "\t" ($11 == "" ? "-" : $11) "\t" $7 }' |
		sort > "$tmp/$name.rp"
	n=$(awk -F'\t' '$5 > 0 && $3 !~ /^0x/' "$tmp/$name.perf" | wc -l)
	bad=$(awk -F'\t' 'FNR == NR { p[$1 "\t" $2 "\t" $3] = $5; next }
		($1 "\t" $2 "\t" $3) in p && p[$1 "\t" $2 "\t" $3] != $5 && $5 > 0 { print $1 "/" $3 ": " $5 " vs " p[$1 "\t" $2 "\t" $3]; exit }
		' "$tmp/$name.perf" "$tmp/$name.rp")
	missing=$(awk -F'\t' 'FNR == NR { r[$1 "\t" $2 "\t" $3] = 1; next } $5 > 0 && $3 !~ /^0x/ && !(($1 "\t" $2 "\t" $3) in r) { print $1 "/" $3; exit }' \
		"$tmp/$name.rp" "$tmp/$name.perf")
	check "$name: period per (event, dso, function) = perf report's ($n entries)${bad:+: $bad}${missing:+ missing $missing}" \
		test -z "$bad" -a -z "$missing" -a "$n" -gt 0
	for ev in page-faults context-switches; do
		[ $name = group-period ] && [ $ev = context-switches ] && continue
		check "$name: $ev has samples of its own" grep -q "^$ev	" "$tmp/$name.rp"
	done
done
# children per member event, within 0.5 points of perf's
worst=$(awk -F'\t' 'FNR == NR { c[$1 "\t" $2 "\t" $3] = $4; next }
	($1 "\t" $2 "\t" $3) in c && $4 != "-" { d = $4 - c[$1 "\t" $2 "\t" $3]; if (d < 0) d = -d; if (d > w) { w = d; at = $1 "/" $3 } }
	END { printf "%.4f %s\n", w, at }' "$tmp/group-g.perf" "$tmp/group-g.rp")
check "group-g: children_percent within 0.5 points of perf report --children for every member event (worst $worst)" \
	awk -v w="${worst%% *}" 'BEGIN { exit !(w <= 0.5) }'
exit 0

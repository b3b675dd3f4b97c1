#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-calltree.sh: calltree.csv (--reports calltree, --inverted) against the
# stacks of perf script, recomputed independently by calltree-paths.py: every
# node's self and total counts equal the samples whose stack passes through
# (ends at) that path; the inverted tree's roots equal results.csv's self
# columns; node ids are depth-first, the file deterministic.
#   PROG=build/readperf tests/cli/test-calltree.sh
. "$(dirname "$0")/testlib.sh"
need_python calltree
set -o pipefail
fail=0

for name in callgraph-fp group-g systemwide-g; do
	k=$td/kallsyms
	[ -f "$td/$name.kallsyms" ] && k=$td/$name.kallsyms
	opts=(-q --symfs "$td/symfs" --kallsyms "$k" "$td/$name.data")
	if ! "$PROG" -o "$tmp/$name" --reports calltree,results "${opts[@]}" 2> "$tmp/err" ||
	   ! "$PROG" -o "$tmp/$name-inv" --reports calltree --inverted "${opts[@]}" 2>> "$tmp/err"; then
		echo "not ok - calltree $name: readperf failed: $(head -1 "$tmp/err")"
		fail=1
		continue
	fi
	if command -v perf > /dev/null &&
	   perf script --no-inline -i "$td/$name.data" --symfs "$td/symfs" --kallsyms "$k" \
		-F comm,event,period,ip,sym,dso > "$tmp/$name.script" 2> /dev/null; then
		"$py" "$root/tests/cli/calltree-paths.py" "$tmp/$name.script" "$tmp/$name/calltree.csv" | sed "s/calltree/& $name/" || fail=1
		"$py" "$root/tests/cli/calltree-paths.py" "$tmp/$name.script" "$tmp/$name-inv/calltree.csv" --inverted |
			sed "s/calltree/& $name/" || fail=1
	else
		echo "skip - calltree $name: no perf to compare with"
	fi
	# inverted roots (depth 0) = results.csv's self columns (rows with self samples)
	awk -F, 'NR > 1 && $4 == 0 { print $1 "," $5 "," $6 "," $9 "," $10 }' "$tmp/$name-inv/calltree.csv" | sort > "$tmp/roots"
	csv2tsv "$tmp/$name/results.csv" | awk -F'\t' -v OFS=, 'NR > 1 && $6 > 0 { print $1, $2, $3, $6, $7 }' | sort > "$tmp/self"
	check "calltree $name: the inverted roots are results.csv's self samples and period ($(wc -l < "$tmp/self") functions)" \
		diff "$tmp/self" "$tmp/roots"
	# the top-down roots' totals add up to the event's samples
	check "calltree $name: the top-down roots hold every sample" test \
		"$(awk -F, 'NR > 1 && $4 == 0 { s += $9 } END { print s }' "$tmp/$name/calltree.csv")" = \
		"$(awk -F, 'NR > 1 { s += $7 } END { print s }' "$tmp/$name-inv/calltree.csv")"
done

# deterministic: a second run and -j 2 give the same bytes
"$PROG" -q -j 2 -o "$tmp/again" --reports calltree --symfs "$td/symfs" --kallsyms "$td/systemwide-g.kallsyms" \
	"$td/systemwide-g.data" 2> /dev/null
check "calltree: -j 2 writes the same file" cmp -s "$tmp/systemwide-g/calltree.csv" "$tmp/again/calltree.csv"
# depth-first ids: each node's parent is the last earlier node one level up
check "calltree: node ids are a depth-first walk" awk -F, '
	NR > 1 { if ($2 != NR - 1) bad = 1; last[$4] = $2
		 if ($4 > 0 && $3 != last[$4 - 1]) bad = 1 }
	END { exit bad }' "$tmp/systemwide-g/calltree.csv"
# not in the default set
"$PROG" -q -o "$tmp/def" "${sym[@]}" "$td/callgraph-fp.data" 2> /dev/null
check "calltree.csv is not in --reports default" test ! -e "$tmp/def/calltree.csv"
# --percent-limit leaves out a node with its subtree: no row's parent is missing
"$PROG" -q -o "$tmp/lim" --reports calltree --percent-limit 5 --symfs "$td/symfs" \
	--kallsyms "$td/systemwide-g.kallsyms" "$td/systemwide-g.data" 2> /dev/null
check "calltree --percent-limit 5: only nodes of 5% or more, each with its parent" awk -F, '
	NR > 1 { seen[$2] = 1; if ($11 < 5 || ($3 != "" && !seen[$3])) bad = 1 }
	END { exit bad || NR < 2 }' "$tmp/lim/calltree.csv"
exit $fail

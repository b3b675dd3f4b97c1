#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every input in tests/fuzz/regress/ (what `make fuzz` found) through the
# whole analysis, as tests/fuzz/fuzz-pipeline.c runs it: all reports (also those
# --reports default leaves out), --inline, --html,
# folded stacks and the flame graph.  Each must end with exit 0 or 2 (bad
# input, with a message), never a crash or a sanitizer report.
. "$(dirname "$0")/testlib.sh"

for f in "$root"/tests/fuzz/regress/*.data; do
	[ -e "$f" ] || continue
	n=$(basename "$f" .data)
	timeout 60 "$PROG" -q -o "$tmp/$n" --reports default,cpus,calltree,annotate,quality --inline --symfs /nonexistent \
		--folded "$tmp/$n.folded" --flamegraph "$tmp/$n.svg" --html "$tmp/$n.html" "$f" > /dev/null 2> "$tmp/$n.err"
	rc=$?
	check "fuzz regression $n: exit 0 or 2 (exit $rc; 124: over 60 s)" test $rc -eq 0 -o $rc -eq 2
	check "fuzz regression $n: no sanitizer report" \
		test "$(grep -c 'runtime error\|Sanitizer\|AddressSanitizer' "$tmp/$n.err")" -eq 0
	# the timeline's size follows the input's: per event at most 11 rows (10
	# top functions and [other]) per interval, and at most max(1000, 10 per
	# sample) intervals (timeline-amplify.data made 100,000: 54 MB from 53 KB)
	if [ -s "$tmp/$n/timeline.csv" ]; then
		read -r samples events <<< "$(csv2tsv "$tmp/$n/events.csv" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "samples") c = i; next }
			$c > 0 { s += $c; e++ } END { print s + 0, e + 0 }')"
		rows=$(($(wc -l < "$tmp/$n/timeline.csv") - 1))
		cap=$((samples * 10 > 1000 ? samples * 10 : 1000))
		check "fuzz regression $n: timeline.csv $rows rows, at most 11 x $events events x $cap intervals ($samples samples)" \
			test "$rows" -le $((11 * events * cap))
	fi
done

# compressed whole files whose attrs' ids lie far behind them (100 attrs, ids after 100 MB of zeros;
# 200 after 1 GB): each attr went back to read the next, a pass over the input each (over 20 s, hours)
for f in "$root"/tests/fuzz/regress/*.data.gz "$root"/tests/fuzz/regress/*.data.zst; do
	[ -e "$f" ] || continue
	n=$(basename "$f")
	timeout 60 "$PROG" -v -o "$tmp/$n" "$f" > /dev/null 2> "$tmp/$n.err"
	rc=$?
	check "fuzz regression $n: exit 0 or 2 (exit $rc; 124: over 60 s)" test $rc -eq 0 -o $rc -eq 2
	# the old code took 28 s for the gzip one, within the timeout: count the passes (-v says each)
	k=$(grep -c 'is decompressed again from its start' "$tmp/$n.err")
	check "fuzz regression $n: read again from its start at most twice ($k times)" test "$k" -le 2
done

# a COMPRESSED record that expands past the recording's mmap_len (16 MB from 1.4 KB): refused as perf
# refuses it, with its offset (before: 16 MB of FINISHED_ROUNDs replayed, seconds per record)
"$PROG" -q -o "$tmp/cbomb" "$root/tests/fuzz/regress/compressed-bomb.data" > /dev/null 2> "$tmp/cbomb.err"
rc=$?
check "compressed-bomb.data: exit 2, the record's offset and perf's bound said (exit $rc)" test $rc -eq 2 -a \
	"$(grep -c 'compressed record at offset 0x2f8 (760): expands to more than 86016 bytes (the recording.s mmap_len 20480' "$tmp/cbomb.err")" -eq 1

# a queued sample that a later HEADER_ATTR keeps from decoding at its turn: bad input with
# its offset, the reports of what came before written (before: "no report written" alone)
f=$root/tests/fuzz/regress/inner-header-attr.data
for j in 1 2; do
	"$PROG" -q -j $j -o "$tmp/iha$j" "$f" > /dev/null 2> "$tmp/iha$j.err"
	rc=$?
	check "inner-header-attr.data -j $j: exit 2 naming the record's offset, the reports written (exit $rc)" \
		test $rc -eq 2 -a -s "$tmp/iha$j/results.csv" -a \
		"$(grep -c "inner-header-attr.data: record at offset 0x3ace (15054): sample id cannot be located" "$tmp/iha$j.err")" -eq 1
done
check "inner-header-attr.data: the same reports with -j 1 and -j 2" cmp -s "$tmp/iha1/results.csv" "$tmp/iha2/results.csv"

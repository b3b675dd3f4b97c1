#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# readperf --folded FILE and --flamegraph FILE.svg:
#  - testdata/callgraph-fp.data: the folded stacks against stacks collapsed
#    here from `perf script` of the same file as stackcollapse-perf.pl --kernel
#    does it (skipped without perf): the counts of each distinct stack agree
#    for >= 99 % of the samples; the counts add up to the samples of
#    events.csv; lines are sorted bytewise;
#  - testdata/work.data (no callchains): one-frame stacks whose counts are
#    the samples of results.csv;
#  - the SVG is well-formed (xmllint, else a structural check), names the
#    event and sample count, and two runs give the same bytes.
# Prints "ok - ...", "not ok - ...", "skip - ..." lines.
. "$(dirname "$0")/testlib.sh"

sum_counts() { awk '{ s += $NF } END { print s + 0 }' "$1"; }

# --- callgraph-fp.data
"$PROG" -o "$tmp/fp" --reports events,results "${sym[@]}" --folded "$tmp/fp.folded" \
	--flamegraph "$tmp/fp.svg" "$td/callgraph-fp.data" 2> "$tmp/err"
rc=$?
check "folded callgraph-fp: exit 0 (exit $rc)" test $rc -eq 0
check "folded callgraph-fp: no message (one event: no warning)" quiet_stderr "$tmp/err"
samples=$(awk -F, '$1 == "cpu-clock" { print $7 }' "$tmp/fp/events.csv")
check "folded callgraph-fp: counts add up to the $samples samples of events.csv" \
	test -n "$samples" -a "$(sum_counts "$tmp/fp.folded")" = "$samples"
sed 's/ [0-9]*$//' "$tmp/fp.folded" > "$tmp/fp.stacks"
check "folded callgraph-fp: stacks sorted bytewise, distinct" sort -c -u "$tmp/fp.stacks"
bad=$(grep -v -E '^work(;[^;]+)+ [0-9]+$' "$tmp/fp.folded" | head -1)
check "folded callgraph-fp: every line 'comm;frames... COUNT'${bad:+: $bad}" test -z "$bad"
check "folded callgraph-fp: kernel frames end in _[k]" grep -q ';do_syscall_64_\[k\];' "$tmp/fp.folded"

if command -v perf > /dev/null 2>&1; then
	# perf script prints each sample's comm line, then one "ip sym (dso)" line
	# per frame, innermost first, then an empty line.  The dso is asked for
	# too: stackcollapse names a frame without a symbol "[dso]" from it.
	perf script -F comm,ip,sym,dso "${sym[@]}" -i "$td/callgraph-fp.data" 2> /dev/null | awk '
	function tidy(f,   i, rest, out) {	# stackcollapse tidy_generic
		gsub(/;/, ":", f)
		rest = f; out = ""
		while ((i = index(rest, "(")) > 0) {
			if (substr(rest, i + 1, 20) == "anonymous namespace)") {
				out = out substr(rest, 1, i + 20); rest = substr(rest, i + 21); continue
			}
			rest = substr(rest, 1, i - 1); break
		}
		f = out rest
		gsub(/["\047]/, "", f)
		return f
	}
	function flush() { if (have) count[comm ";" frames]++; have = 0 }
	/^$/ { flush(); next }
	/^[^ \t]/ { flush(); comm = $0; sub(/[ \t]+$/, "", comm); gsub(/ /, "_", comm); frames = ""; have = 1; next }
	{
		line = $0; sub(/^[ \t]+/, "", line)
		ip = line; sub(/ .*/, "", ip)
		rest = substr(line, length(ip) + 2)
		dso = rest; sub(/.* \(/, "", dso); sub(/\)$/, "", dso)
		sym = rest; sub(/ \([^(]*\)$/, "", sym)
		if (sym == "[unknown]") {
			if (dso != "[unknown]") { b = dso; sub(/.*\//, "", b); sym = "[" b "]" }
		} else {
			sym = tidy(sym)
		}
		# --kernel: kernel frames (upper-half addresses) get _[k]
		if (length(ip) == 16 && substr(ip, 1, 4) == "ffff" && dso !~ /unknown/)
			sym = sym "_[k]"
		frames = frames == "" ? sym : sym ";" frames
	}
	END { flush(); for (s in count) print s " " count[s] }' | sort > "$tmp/perf.folded"
	perf_samples=$(sum_counts "$tmp/perf.folded")
	# samples whose stack has the same count on both sides
	matched=$(awk 'FNR == NR { n = $NF; sub(/ [0-9]+$/, ""); mine[$0] = n; next }
		{ n = $NF; sub(/ [0-9]+$/, ""); if ($0 in mine) m += (mine[$0] < n ? mine[$0] : n) }
		END { print m + 0 }' "$tmp/fp.folded" "$tmp/perf.folded")
	check "folded callgraph-fp: $matched of $perf_samples samples in stacks as perf script shows them (>= 99 %)" \
		test "$perf_samples" -gt 0 -a $((matched * 100)) -ge $((perf_samples * 99))
	diff "$tmp/perf.folded" "$tmp/fp.folded" | head -6 | sed 's/^/# /'
else
	echo "skip - folded callgraph-fp against perf script: perf is not installed"
fi

# --- the flame graph
if command -v xmllint > /dev/null 2>&1; then
	check "flamegraph callgraph-fp: well-formed XML (xmllint)" xmllint --noout "$tmp/fp.svg"
else
	opens=$(grep -c '^<g[ >]' "$tmp/fp.svg")
	closes=$(grep -c '^</g>$' "$tmp/fp.svg")
	check "flamegraph callgraph-fp: structure (<?xml, <svg>...</svg>, $opens <g> = $closes </g>)" \
		test "$(head -c 5 "$tmp/fp.svg")" = "<?xml" -a "$(tail -n 1 "$tmp/fp.svg")" = "</svg>" \
		-a "$opens" -eq "$closes" -a "$opens" -gt 1
fi
period=$(awk -F, '$1 == "cpu-clock" { print $8 }' "$tmp/fp/events.csv")
check "flamegraph callgraph-fp: names the event, the samples and the period" \
	grep -q ">cpu-clock: $samples samples, period $period</text>" "$tmp/fp.svg"
check "flamegraph callgraph-fp: the root spans the whole period" \
	grep -q "<title>all (period $period, 100.00%)</title>" "$tmp/fp.svg"
# widths by period: a leaf's share is results.csv's percent (2 decimals of its 4)
pct=$(awk -F, '$3 == "hot_big" { printf "%.2f", $8 }' "$tmp/fp/results.csv")
check "flamegraph callgraph-fp: hot_big's share is results.csv's percent ($pct%)" \
	grep -q "<title>hot_big (period [0-9]*, $pct%)</title>" "$tmp/fp.svg"
"$PROG" -q -o "$tmp/fpw" --reports none "${sym[@]}" --weight period --folded "$tmp/fpw.folded" "$td/callgraph-fp.data"
check "--weight period: folded counts add up to the period of events.csv ($period)" \
	test "$(awk '{ s += $NF } END { printf "%.0f", s }' "$tmp/fpw.folded")" = "$period"
check "--weight period: the same stacks as by samples" cmp -s <(sed 's/ [0-9]*$//' "$tmp/fpw.folded") "$tmp/fp.stacks"
"$PROG" -q -o "$tmp/fpw" --reports none --weight bytes --folded "$tmp/x.folded" "$td/callgraph-fp.data" 2> /dev/null
check "--weight bytes: exit 1" test $? -eq 1
check "flamegraph callgraph-fp: one embedded script, no external resource" \
	test "$(grep -c -i '<script' "$tmp/fp.svg")" -eq 1 -a "$(grep -v 'xmlns="http://www.w3.org/2000/svg"' "$tmp/fp.svg" | grep -c -i -E 'href|src=|https?:|url\([^#]')" -eq 0
"$PROG" -q -o "$tmp/fp2" --reports stat "${sym[@]}" --folded "$tmp/fp2.folded" \
	--flamegraph "$tmp/fp2.svg" "$td/callgraph-fp.data"
check "flamegraph callgraph-fp: byte-identical across runs" cmp -s "$tmp/fp.svg" "$tmp/fp2.svg"
check "folded callgraph-fp: byte-identical across runs (also with --reports stat)" \
	cmp -s "$tmp/fp.folded" "$tmp/fp2.folded"

# --- work.data: no callchains, one-frame stacks
"$PROG" -q -o "$tmp/work" --reports results "${sym[@]}" --folded "$tmp/work.folded" "$td/work.data"
rc=$?
check "folded work (no callchain): exit 0 (exit $rc)" test $rc -eq 0 -a -s "$tmp/work.folded"
bad=$(grep -v -E '^work;[^;]+ [0-9]+$' "$tmp/work.folded" | head -1)
check "folded work: one frame per stack${bad:+: $bad}" test -z "$bad"
# resolved functions: the count of "work;FUNCTION" is results.csv's samples (summed over dsos)
bad=$(awk -F, 'FNR == NR { if (FNR > 1 && $3 != "[unknown]") want[$3] += $6; next }
	{ n = $0; sub(/.* /, "", n); sub(/ [0-9]+$/, ""); sub(/^work;/, ""); sub(/_\[k\]$/, ""); got[$0] += n }
	END {
		for (f in want) { n++; if (got[f] != want[f]) { print f " " got[f] " != " want[f]; exit } }
		if (!n) print "no functions in results.csv"
	}' \
	"$tmp/work/results.csv" "$tmp/work.folded")
check "folded work: counts are the samples of results.csv${bad:+: $bad}" test -z "$bad"

# --- several events: the first with samples, a warning; -e picks another
"$PROG" -o "$tmp/multi" --reports events "${sym[@]}" --folded "$tmp/multi.folded" "$td/multi.data" 2> "$tmp/err"
rc=$?
first=$(awk -F, 'NR == 2 { print $1 }' "$tmp/multi/events.csv")
check "folded multi: exit 0, a warning names $first (exit $rc)" \
	test $rc -eq 0 -a "$(grep -c "warning: folded stacks and flame graph show $first only (3 events" "$tmp/err")" -eq 1
check "folded multi: counts add up to $first's samples" \
	test "$(sum_counts "$tmp/multi.folded")" = "$(awk -F, 'NR == 2 { print $7 }' "$tmp/multi/events.csv")"
third=$(awk -F, 'NR == 4 { print $1 }' "$tmp/multi/events.csv")
"$PROG" -q -o "$tmp/multi3" --reports stat "${sym[@]}" -e "$third" --folded "$tmp/multi3.folded" "$td/multi.data"
check "folded multi -e $third: its samples, one-frame stacks (no callchain)" \
	test "$(sum_counts "$tmp/multi3.folded")" = "$(awk -F, 'NR == 4 { print $7 }' "$tmp/multi/events.csv")" \
	-a "$(grep -c -v -E '^[^;]+;[^;]+ [0-9]+$' "$tmp/multi3.folded")" -eq 0

# --- errors
"$PROG" -q -o "$tmp/e" --reports stat --folded "$tmp/no/such/dir/x.folded" "$td/work.data" 2> "$tmp/err"
rc=$?
check "folded into a missing directory: exit 3 with a message (exit $rc)" test $rc -eq 3 -a -s "$tmp/err"
# --- a FIFO or a symbolic link as FILE is written in place, as a shell's '>' would: the
# temporary file and rename of a regular file put a regular file in its stead (the old
# binary: the FIFO's reader got nothing, a link became a file; as root /dev/null too)
"$PROG" -q -o "$tmp/w" --reports none --folded "$tmp/w.folded" "${sym[@]}" "$td/callgraph-fp.data" 2> /dev/null
mkfifo "$tmp/fifo"
cat "$tmp/fifo" > "$tmp/fifo.out" &
reader=$!
"$PROG" -q -o "$tmp/w" --reports none --folded "$tmp/fifo" "${sym[@]}" "$td/callgraph-fp.data" 2> "$tmp/err"
rc=$?
check "folded into a FIFO: exit 0 (exit $rc), still a FIFO" test $rc -eq 0 -a -p "$tmp/fifo"
[ -p "$tmp/fifo" ] || kill "$reader" 2> /dev/null
wait "$reader"
check "folded into a FIFO: its reader gets the stacks of a run into a file" cmp -s "$tmp/fifo.out" "$tmp/w.folded"
# a link to a regular file: that file replaced whole (temporary file and rename: a new inode),
# so a killed run leaves the old one; a link to a device: written in place, the device stays
echo old > "$tmp/target"
ln -s target "$tmp/link"
ino=$(stat -c %i "$tmp/target")
"$PROG" -q -o "$tmp/w" --reports none --flamegraph "$tmp/link" "${sym[@]}" "$td/callgraph-fp.data" 2> "$tmp/err"
rc=$?
check "flame graph into a symbolic link: exit 0 (exit $rc), still a link, the SVG in its target" \
	test $rc -eq 0 -a -L "$tmp/link" -a "$(head -c 5 "$tmp/target")" = "<?xml"
check "... the target replaced whole by a rename (inode $ino -> $(stat -c %i "$tmp/target"))" \
	test "$(stat -c %i "$tmp/target")" != "$ino"
ln -s /dev/null "$tmp/nulllink"
"$PROG" -q -o "$tmp/w" --reports none --folded "$tmp/nulllink" "${sym[@]}" "$td/callgraph-fp.data" 2> "$tmp/err"
rc=$?
check "folded into a link to /dev/null: exit 0 (exit $rc), /dev/null still a device, the link a link" \
	test $rc -eq 0 -a -c /dev/null -a -L "$tmp/nulllink"
exit 0

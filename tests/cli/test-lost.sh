#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Lost samples as perf 6.1 counts them (testdata/lossy.data: one event;
# testdata/lossy-multi.data: -a with two events; both recorded at 50 kHz into a
# one-page buffer). events.csv lost = perf report --stats' per-event
# "LOST_SAMPLES events" (the LOST_SAMPLES records, by their event), never the
# LOST records, which cover the ring buffer of every event; and a warning as
# perf's "Processed N events and lost M chunks!". Expected numbers are what
# `perf report --stats -i FILE` printed (perf 6.1.187):
#   lossy:       TOTAL 94094, LOST 2, cpu-clock LOST_SAMPLES 37
#   lossy-multi: TOTAL 53386, LOST 23, sched:sched_switch 8, cpu-clock 980
. "$(dirname "$0")/testlib.sh"

lost_of() { awk -F, -v e="$2" '$1 == e { print $NF }' "$1/events.csv"; }
ks=(--kallsyms "$td/kallsyms.boot2")

"$PROG" -o "$tmp/l1" --reports stat,events "${ks[@]}" "$td/lossy.data" > /dev/null 2> "$tmp/l1.err"
check "lossy: exit 0" test $? -eq 0
check "lossy: cpu-clock lost 37 as perf (got $(lost_of "$tmp/l1" cpu-clock))" test "$(lost_of "$tmp/l1" cpu-clock)" = 37
check "lossy: the warning says 94094 events and 2 chunks, as perf" \
	grep -q "^readperf: warning: .*lossy.data: processed 94094 events and lost 2 chunks" "$tmp/l1.err"
"$PROG" -o "$tmp/l2" --reports stat,events "${ks[@]}" "$td/lossy-multi.data" > /dev/null 2> "$tmp/l2.err"
check "lossy-multi: sched:sched_switch lost 8 as perf (got $(lost_of "$tmp/l2" sched:sched_switch))" \
	test "$(lost_of "$tmp/l2" sched:sched_switch)" = 8
check "lossy-multi: cpu-clock lost 980 as perf (got $(lost_of "$tmp/l2" cpu-clock))" test "$(lost_of "$tmp/l2" cpu-clock)" = 980
check "lossy-multi: dummy:HG lost 0" test "$(lost_of "$tmp/l2" dummy:HG)" = 0
check "lossy-multi: the warning says 53386 events and 23 chunks" \
	grep -q "processed 53386 events and lost 23 chunks" "$tmp/l2.err"
"$PROG" -q -o "$tmp/l3" --reports events "${ks[@]}" "$td/lossy.data" 2> "$tmp/l3.err"
check "-q: no warning about losses" test ! -s "$tmp/l3.err"
"$PROG" -o "$tmp/w" --reports events "${sym[@]}" "$td/work.data" > /dev/null 2> "$tmp/w.err"
check "a file without losses: no warning, lost 0" test ! -s "$tmp/w.err" -a "$(lost_of "$tmp/w" cpu-clock)" = 0
"$PROG" -o "$tmp/s" "${ks[@]}" "$td/lossy.data" > "$tmp/s.out" 2> /dev/null
check "the summary notes the 37 lost samples" grep -q "^note: 37 samples were lost while recording" "$tmp/s.out"
exit 0

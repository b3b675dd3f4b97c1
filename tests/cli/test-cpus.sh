#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-cpus.sh: cpus.csv (--reports cpus) against perf report --sort cpu.
# tests/cli/expected/cpus/NAME.txt holds perf 6.1's rows as "event,cpu,samples,period",
# made with (cpu -1: the samples carry no CPU, perf prints -001):
#   perf report -i testdata/NAME.data --sort cpu --stdio -F sample,period,cpu -g none |
#   awk '/^# Samples: .* of event /{ match($0, /of event .*/); ev=substr($0, RSTART+10, RLENGTH-11) }
#        /^ *[0-9]+ +[0-9]+ +-?[0-9]+ *$/ { printf "%s,%d,%s,%s\n", ev, $3+0, $1, $2 }' | sort
# When perf is installed the same is done live as well.
#   PROG=build/readperf tests/cli/test-cpus.sh
. "$(dirname "$0")/testlib.sh"
exp_dir=$root/tests/cli/expected/cpus
fail=0

perf_rows() {	# NAME: perf's rows, as in the expected files
	perf report -i "$td/$1.data" --sort cpu --stdio -F sample,period,cpu -g none 2> /dev/null |
		awk '/^# Samples: .* of event /{ match($0, /of event .*/); ev=substr($0, RSTART+10, RLENGTH-11) }
		     /^ *[0-9]+ +[0-9]+ +-?[0-9]+ *$/ { printf "%s,%d,%s,%s\n", ev, $3+0, $1, $2 }' | sort
}

for exp in "$exp_dir"/*.txt; do
	name=$(basename "$exp" .txt)
	o=$tmp/$name
	kopt=()
	[ -f "$td/$name.kallsyms" ] && kopt=(--kallsyms "$td/$name.kallsyms")
	if ! "$PROG" -q -o "$o" --reports cpus --symfs "$td/symfs" "${kopt[@]}" "$td/$name.data" 2> "$tmp/err"; then
		echo "not ok - cpus $name: readperf failed: $(head -1 "$tmp/err")"
		fail=1
		continue
	fi
	if [ "$(reports_in "$o")" != cpus.csv ]; then
		echo "not ok - cpus $name: --reports cpus wrote $(reports_in "$o")"
		fail=1
	fi
	tail -n +2 "$o/cpus.csv" | cut -d, -f1-4 | sort > "$tmp/got"
	check "cpus $name: samples and period per cpu as perf report --sort cpu" diff "$exp" "$tmp/got"
	if command -v perf > /dev/null && perf_rows "$name" > "$tmp/live" && [ -s "$tmp/live" ]; then
		check "cpus $name: as perf report --sort cpu run now" diff "$tmp/live" "$tmp/got"
	fi
done

# not in the default set: a default run writes no cpus.csv
"$PROG" -q -o "$tmp/def" "${sym[@]}" "$td/multi.data" 2> /dev/null
check "cpus.csv is not in --reports default" test ! -e "$tmp/def/cpus.csv"
# percent: the share of the event's period (multi.data: one cpu -1 row per event, 100%)
"$PROG" -q -o "$tmp/pct" --reports cpus,events "${sym[@]}" "$td/multi.data" 2> /dev/null
check "cpus percent is the event's whole period on one row" \
	test "$(cut -d, -f5 "$tmp/pct/cpus.csv" | sort -u | tr '\n' ' ')" = "100.0000 percent "

# CPU fields as a damaged or hand-made file may hold them (set-sample-cpu.py rewrites samples of
# systemwide-g): 0xfffffffe, which perf prints as -2, and 4095; the rows of
# tests/cli/expected/cpus-wide/systemwide-g.txt are perf 6.1's, made as the expected files above
# from the file `set-sample-cpu.py testdata/systemwide-g.data OUT 2=0xfffffffe 4=4095` writes
if command -v python3 > /dev/null; then
	python3 "$root/tests/cli/set-sample-cpu.py" "$td/systemwide-g.data" "$tmp/wide.data" 2=0xfffffffe 4=4095
	"$PROG" -q -o "$tmp/wide" --reports cpus --kallsyms "$td/systemwide-g.kallsyms" "$tmp/wide.data" 2> "$tmp/err"
	check "cpus: CPU fields -2 and 4095, exit 0 ($?)" test ! -s "$tmp/err"
	tail -n +2 "$tmp/wide/cpus.csv" | cut -d, -f1-4 | sort > "$tmp/got"
	check "cpus: CPU fields -2 and 4095 as perf report --sort cpu" diff "$exp_dir-wide/systemwide-g.txt" "$tmp/got"
	# a CPU field of 2^25 (perf 6.1 itself crashes past 4095) is one row, not a table as wide as
	# it: 512 MiB of counts before, refused under a 300 MB address-space limit (exit 3) or a crash
	# for 0xfffffffe next to it (a width of 2^32 wrapped to 0)
	python3 "$root/tests/cli/set-sample-cpu.py" "$td/systemwide-g.data" "$tmp/far.data" 2=33554432 3=0xfffffffe
	vlimit=300000
	case $PROG in *build-san*) vlimit=unlimited ;; esac
	(ulimit -v $vlimit; "$PROG" -q -o "$tmp/far" --reports cpus --kallsyms "$td/systemwide-g.kallsyms" "$tmp/far.data" 2> "$tmp/err")
	check "cpus: a CPU field of 2^25, exit 0 within 300 MB ($?)" test ! -s "$tmp/err"
	check "cpus: a CPU field of 2^25 is its own row" grep -q '^cpu-clock:k,33554432,1,2000000,' "$tmp/far/cpus.csv"
else
	echo "skip - cpus: CPU fields set by hand (no python3)"
fi
exit $fail

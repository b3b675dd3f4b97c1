#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# simpleperf's files (../shared/testdata-external/simpleperf): every one but
# invalid_perf.data reads with exit 0, and stat.csv's record counts equal an
# independent walk of the data section (walk-records.py), among them
# perf_with_tracepoint_event.data, whose TRACING_DATA record holds the data
# inside it (perf's puts it after a 16-byte record).
. "$(dirname "$0")/testlib.sh"

dir=$root/../shared/testdata-external/simpleperf
py=$(command -v python3)
if [ ! -d "$dir" ] || [ -z "$py" ]; then
	echo "skip - simpleperf fixtures: no ../shared/testdata-external/simpleperf or no python3"
	exit 0
fi
# stat.csv type names -> record type numbers (perf_event.h, perf's user types)
names="MMAP 1 LOST 2 COMM 3 EXIT 4 THROTTLE 5 UNTHROTTLE 6 FORK 7 READ 8 SAMPLE 9 MMAP2 10 AUX 11
ITRACE_START 12 LOST_SAMPLES 13 SWITCH 14 SWITCH_CPU_WIDE 15 NAMESPACES 16 KSYMBOL 17 BPF_EVENT 18
CGROUP 19 TEXT_POKE 20 AUX_OUTPUT_HW_ID 21 ATTR 64 EVENT_TYPE 65 TRACING_DATA 66 BUILD_ID 67
FINISHED_ROUND 68 ID_INDEX 69 AUXTRACE_INFO 70 AUXTRACE 71 AUXTRACE_ERROR 72 THREAD_MAP 73 CPU_MAP 74
STAT_CONFIG 75 STAT 76 STAT_ROUND 77 EVENT_UPDATE 78 TIME_CONV 79 FEATURE 80 COMPRESSED 81
FINISHED_INIT 82 COMPRESSED2 83"
n=0
for f in "$dir"/*.data; do
	b=$(basename "$f")
	[ "$b" = invalid_perf.data ] && continue
	n=$((n + 1))
	"$PROG" -q -o "$tmp/$b" --reports stat "$f" 2> "$tmp/$b.err"
	rc=$?
	check "simpleperf $b: exit 0 (exit $rc$(head -c 160 "$tmp/$b.err"))" test $rc -eq 0
	want=$("$py" "$root/tests/cli/walk-records.py" "$f" | tr '\n' ' ')
	got=$(echo "$names" | tr ' ' '\n' | paste - - | awk -F'\t' 'FNR == NR { num[$1] = $2; next }
		FNR > 1 { split($0, c, ","); print num[c[1]] " " c[2] }' - "$tmp/$b/stat.csv" | sort -n | tr '\n' ' ')
	check "simpleperf $b: record counts as the file's data section holds them ($want)" test "$got" = "$want"
done
check "simpleperf: every fixture but invalid_perf.data checked ($n)" test $n -ge 7
exit 0

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Memory from compressed input: a gzip file of about 9 MB holding 3,000,000
# samples (120 MB of records) and no FINISHED_ROUND (gen-perf --noround)
# made the ordered queue hold the whole file (264 MB peak before the bound).
# With the queue bounded the default analysis stays under 256 MiB, counts
# every sample and delivers them in time order.
# And 40,000 forks of a process with 2000 maps (gen-perf --forks): each
# child copied its parent's map list (3.2 GB, 7.7 s); shared until one side
# changes, it takes tens of MB.
# And a COMM of 60 KB over 20,000 distinct stacks (gen-perf --wide): the
# folded stacks held every line's text, the COMM copied into each (1.22 GB,
# 15 s for --flamegraph); lines of name ids take 14 MB.  --html and --pprof
# hashed the COMM once per stack and sample (1 s of CPU each; 0.05 s now).
. "$(dirname "$0")/testlib.sh"

need_gen "memory bound"
need_python "memory bound"
peak() {	# CMD...: its exit status and peak RSS in KiB
	"$py" -c '
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}

"$GEN" --noround - 3000000 | gzip -6 > "$tmp/nr.data.gz"
read -r rc kib < <(peak "$PROG" -q -o "$tmp/nr" --reports stat,events,processes,results "$tmp/nr.data.gz")
check "no FINISHED_ROUND, 3M samples gzipped: exit 0 (exit $rc)" test "$rc" -eq 0
case $PROG in
*build-san*) echo "skip - peak RSS: a sanitizer build ($kib KiB) has its own overhead" ;;
*) check "no FINISHED_ROUND, 3M samples gzipped: peak RSS $kib KiB under 256 MiB" test "$kib" -lt 262144 ;;
esac
check "every sample counted" grep -q '^SAMPLE,3000000,' "$tmp/nr/stat.csv"
check "results.csv: the 3,000,000 samples" \
	test "$(csv2tsv "$tmp/nr/results.csv" | awk -F'\t' 'NR > 1 { s += $6 } END { printf "%.0f", s }')" = 3000000

"$GEN" --forks "$tmp/forks.data" 2000 40000
read -r rc kib < <(peak timeout 60 "$PROG" -q -o "$tmp/fk" "$tmp/forks.data")
check "40,000 forks of 2000 maps: exit 0 (exit $rc; 124 = over 60 s)" test "$rc" -eq 0
case $PROG in
*build-san*) echo "skip - forks peak RSS: a sanitizer build ($kib KiB) has its own overhead" ;;
*) check "40,000 forks of 2000 maps: peak RSS $kib KiB under 256 MiB" test "$kib" -lt 262144 ;;
esac
check "40,000 forks: every child's sample in the parent's last map" \
	grep -q '^cpu-clock[^,]*,m001999.so,\[unknown\],,0,40000,' "$tmp/fk/results.csv"
check "40,000 forks: a processes.csv row each, and the parent's" test "$(($(wc -l < "$tmp/fk/processes.csv") - 1))" -eq 40001

# A thread renamed 8000 times (comm-churn.py: work.data's thread, a COMM and a sample in turn):
# threads.csv's comms kept every name list so far as a string of its own, quadratic (492 MB,
# 3.4 s; 20,000 renames 2.8 GB); now the names once each, the cell made at the end
"$py" "$root/tests/cli/comm-churn.py" "$td/work.data" "$tmp/churn.data" 8000
read -r rc kib < <(peak "$PROG" -q -o "$tmp/ch" "$tmp/churn.data")
check "a thread renamed 8000 times: exit 0 (exit $rc)" test "$rc" -eq 0
case $PROG in
*build-san*) echo "skip - renames peak RSS: a sanitizer build ($kib KiB) has its own overhead" ;;
*) check "a thread renamed 8000 times: peak RSS $kib KiB under 64 MiB" test "$kib" -lt 65536 ;;
esac
check "a thread renamed 8000 times: its comms perf-exec|work and the 8000 names in order" \
	test "$(awk -F, 'NR == 2 { n = split($4, v, "|"); print n, v[1], v[2], v[3], v[4], v[n] }' "$tmp/ch/threads.csv")" = \
	"8002 perf-exec work task-b task-a task-a"
"$GEN" --wide "$tmp/wide.data" 60000 20000
read -r rc kib < <(peak timeout 60 "$PROG" -q -o "$tmp/wd" --reports none --flamegraph "$tmp/wide.svg" \
	--html "$tmp/wide.html" --pprof "$tmp/wide.pb.gz" "$tmp/wide.data")
check "60 KB COMM, 20,000 stacks: flame graph, page and pprof, exit 0 (exit $rc; 124 = over 60 s)" test "$rc" -eq 0
read -r frc fkib < <(peak timeout 60 "$PROG" -q -o "$tmp/wd" --reports none --folded - "$tmp/wide.data")
check "60 KB COMM, 20,000 stacks: 1.2 GB of folded stacks to stdout, exit 0 (exit $frc)" test "$frc" -eq 0
case $PROG in
*build-san*) echo "skip - wide stacks peak RSS: a sanitizer build ($kib, $fkib KiB) has its own overhead" ;;
*) check "60 KB COMM, 20,000 stacks: flame graph, page and pprof peak RSS $kib KiB under 128 MiB" test "$kib" -lt 131072
   check "60 KB COMM, 20,000 stacks: folded peak RSS $fkib KiB under 128 MiB" test "$fkib" -lt 131072 ;;
esac
check "60 KB COMM: the flame graph's comm frame holds every sample (period 20000000, 100%)" \
	test "$(awk 'length($0) > 60000 && /^<title>C+ \(period 20000000, 100.00%\)<\/title>$/' "$tmp/wide.svg" | wc -l)" -eq 1
# the same stacks under a short COMM: every stack a line, sorted, none merged
"$GEN" --wide "$tmp/wide100.data" 100 20000
"$PROG" -q -o "$tmp/wd" --reports none --folded "$tmp/wide100.folded" "$tmp/wide100.data"
check "20,000 stacks: 20,000 folded lines of weight 1" \
	test "$(grep -c '^C\{100\};\[lib[0-9]*\.so\];\[lib[0-9]*\.so\] 1$' "$tmp/wide100.folded")" -eq 20000
check "20,000 stacks: sorted bytewise, each once" env LC_ALL=C sort -uc "$tmp/wide100.folded"

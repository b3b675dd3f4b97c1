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
# And 10,000 children of a process with 3000 maps, each mapping a file of
# its own (gen-perf --forks ... mmap): a child's first MMAP copied the whole
# list it shared with its parent (1.28 GB, 10 s); the maps in chunks of 64,
# shared too, a child copies the chunk directory and the chunks it changes
# (74 MB, 0.5 s).  And such a child keeps its parent's maps as of the fork.
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

"$GEN" --forks "$tmp/fm.data" 3000 10000 mmap
read -r rc kib < <(peak timeout 60 "$PROG" -q -o "$tmp/fm" "$tmp/fm.data")
check "10,000 forks of 3000 maps, each child mapping a file: exit 0 (exit $rc; 124 = over 60 s)" test "$rc" -eq 0
case $PROG in
*build-san*) echo "skip - forks with child maps peak RSS: a sanitizer build ($kib KiB) has its own overhead" ;;
*) check "10,000 forks of 3000 maps, each child mapping a file: peak RSS $kib KiB under 160 MiB" \
	test "$kib" -lt 163840 ;;
esac
check "10,000 children: a sample each in its own map" \
	test "$(grep -c '^cpu-clock[^,]*,c[0-9]\{6\}\.so,\[unknown\],,0,1,' "$tmp/fm/results.csv")" -eq 10000
# every child's sample in the first map, taken after all the forks, finds the parent's map
# as of its fork: the parent maps r001000.so over it before forking child 1000, r002000.so
# before child 2000, ...: 1000 children each, and the parent's own two last samples in r009000.so
check "10,000 children: the parent's first map as of each fork (m000000.so, r001000.so, ... by 1000)" \
	test "$(awk -F, '$2 ~ /^[mr]0/ { print $2, $6 }' "$tmp/fm/results.csv" | LC_ALL=C sort | tr '\n' ' ')" = \
	"m000000.so 1000 r001000.so 1000 r002000.so 1000 r003000.so 1000 r004000.so 1000 r005000.so 1000 \
r006000.so 1000 r007000.so 1000 r008000.so 1000 r009000.so 1002 "
# by process, 10 maps and 3000 children (perf report -F sample,pid,dso gives the same 6001 rows):
# child i (pid 1000 + i) maps c00000i.so over the tail of map i % 10 and the head of the next,
# its first map stays the parent's of the fork: m000000.so for i < 1000 (pids 1000-1999),
# r001000.so for i 1000-1999 (pids 2000-2999), r002000.so for i 2000-2999 (pids 3000-3999),
# though sampled after the parent's last remap; the parent (pid 1) has its two samples
# in r002000.so, 0x10008010 too (the children's maps at 0x10008000 are theirs only)
"$GEN" --forks "$tmp/fm10.data" 10 3000 mmap
"$PROG" -q -o "$tmp/fm10" --sort pid,dso --reports results "$tmp/fm10.data"
check "3000 forks: each child with its own map and its parent's first map as of the fork" \
	test "$(awk -F, '$2 == 1 || $2 == 1000 || $2 == 1999 || $2 == 2000 || $2 == 3999 { print $2, $4, $5 }' \
		"$tmp/fm10/results.csv" | LC_ALL=C sort | tr '\n' ' ')" = \
	"1 r002000.so 2 1000 c000000.so 1 1000 m000000.so 1 1999 c000999.so 1 1999 m000000.so 1 \
2000 c001000.so 1 2000 r001000.so 1 3999 c002999.so 1 3999 r002000.so 1 "
check "3000 forks: 6001 rows (two a child, the parent's one)" \
	test "$(($(wc -l < "$tmp/fm10/results.csv") - 1))" -eq 6001

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

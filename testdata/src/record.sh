#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Make the recordings in testdata/ (run as root after build.sh; perf 6.1).
# Each command below is also listed in testdata/README. -N: no build-id cache
# (the BUILD_ID feature section is still written).
set -eu
out=$(cd "$(dirname "$0")/.." && pwd)
bin=/readperf-testdata/bin
cd "$bin"
R="perf record -N -q"
$R -e cpu-clock -o "$out/work.data" -- $bin/work
$R -e cpu-clock/call-graph=fp/ -e page-faults/period=1/ -e task-clock/freq=1000/ -o "$out/multi.data" -- $bin/work
$R -e cpu-clock -g -o "$out/callgraph-fp.data" -- $bin/work
$R -e cpu-clock -c 5000000 --call-graph dwarf,4096 -o "$out/callgraph-dwarf.data" -- $bin/work
$R -e cpu-clock -z -m 4 -o "$out/compressed.data" -- $bin/work
$R -e cpu-clock -o - -- $bin/work > "$out/work.pipe.data"
# system-wide: work on one CPU, dd (mostly kernel time: read/write syscalls) on the other
$R -a -e cpu-clock -F 1000 -o "$out/systemwide.data" -- /bin/sh -c "$bin/work & dd if=/dev/zero of=/dev/null bs=512 count=800000 status=none; wait"
$R -e cpu-clock -o "$out/threads.data" -- $bin/threads
$R -e cpu-clock -o "$out/forkexec.data" -- $bin/forkexec
$R -e cpu-clock -o "$out/shlib.data" -- $bin/shlib
$R -e cpu-clock -o "$out/cxx.data" -- $bin/cxx
$R -e cpu-clock -o "$out/static.data" -- $bin/static
# kernel text symbols of the recording machine (same boot as the recordings)
awk '$2 ~ /^[tTwW]$/' /proc/kallsyms > "$out/kallsyms"
# perf record keeps a previous output as NAME.data.old
rm -f "$out"/*.data.old
# readperf diff's before/after pair (another boot: ship its kallsyms)
$R -g -F 2000 -o "$out/regress-before.data" -- $bin/regress 1
$R -g -F 2000 -o "$out/regress-before2.data" -- $bin/regress 1
$R -g -F 2000 -o "$out/regress-after.data" -- $bin/regress 2
"$out/../readperf" record -g -F 2000 -o "$out/regress-readperf.data" -- $bin/regress 1
awk '$2 ~ /^[tTwW]$/' /proc/kallsyms > "$out/kallsyms.boot2"
# lost samples (random: keep a try that lost some)
$R -z -e cpu-clock -F 50000 -m 1 -o "$out/lossy.data" -- $bin/work 40
$R -z -a -e sched:sched_switch -e cpu-clock -F 50000 -m 1 -o "$out/lossy-multi.data" -- $bin/work 8
$R -e cpu-clock -F 2000 -o "$out/label.data" -- $bin/label
# leader-sampled groups
$R -e '{cpu-clock,page-faults,context-switches}:S' -o "$out/group.data" -- $bin/work 30
$R -e '{task-clock,page-faults}:S' -c 250000 -o "$out/group-period.data" -- $bin/work 20
$R -g -e '{cpu-clock,page-faults,context-switches}:S' -o "$out/group-g.data" -- $bin/work 30
$R -e cpu-clock -F 1000 -o "$out/rebuilt.data" -- $bin/rebuilt
$R -z -e cpu-clock -F 400 --call-graph dwarf,4096 -o "$out/dwarf-nofp.data" -- $bin/nofp
$R -z -e cpu-clock -F 400 --call-graph dwarf,4096 -o "$out/dwarf-cxx.data" -- $bin/nofpxx
# unwind quality: a 1 KiB stack copy, too small for the deeper stacks (another boot: no kallsyms shipped)
$R -z -e cpu-clock -F 1000 --call-graph dwarf,1024 -o "$out/deep-dwarf.data" -- $bin/deep 10000
# samples in execve without a user stack copy (dyn_size 0); not .data: no perf oracle kept
$R -z -e cpu-clock -F 4000 --call-graph dwarf,1024 -o "$out/exec-loop.dwarf" -- $bin/execloop 40
$R -a -g -e cpu-clock:k -F 500 -o "$out/systemwide-g.data" -- sleep 0.5
# time and off-CPU (another boot: kallsyms.boot3); the program prints its measured sleep
$R -g --switch-events -e cpu-clock/freq=1000/ -e context-switches/period=1/ -o "$out/phases-switch.data" -- $bin/phases > "$out/phases-switch.measured"
$R -a -g -c 1 -e sched:sched_switch -e cpu-clock/freq=1000/ -o "$out/phases-sched.data" -- $bin/phases > "$out/phases-sched.measured"
$R -g -e cpu-clock -F 1000 -o "$out/inl.data" -- $bin/inl 150000000
$R -g -e cpu-clock:u -F 1000 -o "$out/callinl.data" -- $bin/callinl 300000000
awk '$2 ~ /^[tTwW]$/' /proc/kallsyms > "$out/kallsyms.boot3"

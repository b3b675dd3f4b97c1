#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# readperf record's and stat's perf options against perf 6.1 (issue 29):
# each option records a small program (~0.1 s) with `readperf record` and
# with `perf record` given the same option; `perf evlist -v` of both files
# must show the same attr fields the option controls, and readperf's
# analysis of both files the option's effect (switch records, COMPRESSED
# records, group reads, a cpu, data addresses, user registers, READ
# records, tracepoint samples perf script decodes).  Then:
# - --switch-events with context-switches/period=1/ and cpu-clock/freq=1000/
#   of testdata's phases program (5 rounds of 300 ms asleep): offcpu.csv
#   puts the thread's sleeps on clock_nanosleep, within 0.1% of what the
#   program measured itself asleep;
# - stat -r 5 and -I in perf stat's layout, also with -x;
# - perf's event forms read, errors one line naming the bad part;
# - issue 28: a SIGKILLed record keeps a readable file; cpu-clock:k where
#   perf_event_paranoid forbids kernel profiling is refused, not recorded
#   as user space only.
# Skips when perf_event_open is refused; the comparisons need perf.
. "$(dirname "$0")/testlib.sh"

if ! "$PROG" record -q -N -o "$tmp/probe.data" -- true > /dev/null 2> "$tmp/probe.err"; then
	echo "skip - capture parity: perf_event_open refused: $(head -1 "$tmp/probe.err")"
	exit 0
fi
have_perf=
perf record -q -N -o "$tmp/probe2.data" -- true > /dev/null 2>&1 && have_perf=1

# the program: some arithmetic in hot(), 4 MiB of pages touched (page faults),
# a 5 ms sleep (context switches), and a child that does the same (a thread
# that exits: -s's READ records)
cat > "$tmp/prog.c" << 'EOF'
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
static volatile double sink;
__attribute__((noinline)) static void hot(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++)
		x += i * 0.5;
	sink = x;
}
static void work(void)
{
	struct timespec ts = { 0, 5000000 };
	char *p = malloc(4 << 20);
	for (long i = 0; i < (4 << 20); i += 4096)
		p[i] = 1;
	hot(30000000);
	nanosleep(&ts, NULL);
	free(p);
}
int main(void)
{
	pid_t c = fork();
	work();
	if (c == 0)
		_exit(0);
	waitpid(c, NULL, 0);
	return 0;
}
EOF
if ! cc -O1 -g -fno-omit-frame-pointer -o "$tmp/prog" "$tmp/prog.c" 2> "$tmp/cc.err"; then
	echo "skip - capture parity: cannot compile the test program"
	exit 0
fi

# `perf evlist -v` of file $1 (kept in $1.attrs): one line per event, its name then key=value fields, tab-separated
attrs() {
	[ -s "$1.attrs" ] || perf evlist -v -i "$1" 2> /dev/null | grep ': type: ' |
		sed 's/{ sample_period, sample_freq }/sample_period_freq/' |
		awk '{ i = index($0, ": type: "); out = substr($0, 1, i - 1); n = split("type: " substr($0, i + 8), kv, ", ")
			for (j = 1; j <= n; j++) { k = kv[j]; sub(": ", "=", k); out = out "\t" k } print out }' > "$1.attrs"
	cat "$1.attrs"
}
# field FILE EVENT_INDEX KEY: the value perf shows ('' when it shows none: 0)
field() {
	attrs "$1" | sed -n "$(($2 + 1))p" | tr '\t' '\n' | sed -n "s/^$3=//p"
}
# has_bit FILE EVENT_INDEX KEY BIT: BIT is among the |-separated flags of KEY
has_bit() {
	field "$1" "$2" "$3" | tr '|' '\n' | grep -qx "$4" && echo yes || echo no
}
# rec NAME OPTIONS...: record the program with readperf into NAME.rp and with perf into NAME.pf
# (perf without build ids and bpf events: its start-up is most of a run here), analyse both
# into NAME.rp.out and NAME.pf.out (the reports in $reports)
reports=stat,events,header,overview
rec() {
	local name=$1
	shift
	"$PROG" record -q -N "$@" -o "$tmp/$name.rp" -- "$tmp/prog" > /dev/null 2> "$tmp/$name.rp.err"
	check "$name: readperf record $* exits 0" test $? -eq 0
	"$PROG" -q -o "$tmp/$name.rp.out" --reports "$reports" "$tmp/$name.rp" 2> /dev/null
	[ -n "$have_perf" ] || return 0
	perf record -q -N -B --no-bpf-event "$@" -o "$tmp/$name.pf" -- "$tmp/prog" > /dev/null 2>&1
	"$PROG" -q -o "$tmp/$name.pf.out" --reports "$reports" "$tmp/$name.pf" 2> /dev/null
}
# same NAME EVENT_INDEX KEY [BIT]: the field (or whether BIT is in it) equal in both files;
# a value is required unless KEY is in $absent (perf shows no field that is 0)
same() {
	local a b
	if [ -z "$have_perf" ]; then
		echo "skip - $1: event $2 $3${4:+ $4} against perf: no perf"
		return
	fi
	if [ $# -eq 4 ]; then
		a=$(has_bit "$tmp/$1.rp" "$2" "$3" "$4")
		b=$(has_bit "$tmp/$1.pf" "$2" "$3" "$4")
	else
		a=$(field "$tmp/$1.rp" "$2" "$3")
		b=$(field "$tmp/$1.pf" "$2" "$3")
	fi
	check "$1: event $2 $3${4:+ has $4}: '$a' as perf's '$b'" test "$a" = "$b" -a \( -n "$a" -o "${absent:-}" = "$3" \)
}
# both NAME DESC CMD...: CMD on the readperf file's and then perf's (the word FILE is replaced)
both() {
	local name=$1 desc=$2 side
	shift 2
	for side in rp pf; do
		if [ $side = pf ] && [ -z "$have_perf" ]; then
			echo "skip - $name: $desc in perf's file: no perf"
			continue
		fi
		check "$name: $desc in the $([ $side = rp ] && echo readperf || echo perf) file" \
			"${@//FILE/$tmp/$name.$side}"
	done
}
count_in() {	# FILE.out/stat.csv TYPE MIN: stat.csv's count of TYPE >= MIN
	test "$(awk -F, -v t="$2" '$1 == t { print $2 }' "$1")" -ge "$3" 2> /dev/null
}
dump_has() {	# FILE REGEX MIN: at least MIN SAMPLE records of readperf dump match REGEX
	test "$("$PROG" dump "$1" 2> /dev/null | grep '^SAMPLE' | grep -c -E "$2")" -ge "$3"
}
first_in() {	# HEADER_CSV A B: the first sample's time between A and B
	awk -F, -v a="$2" -v b="$3" '$1 == "samples" && $2 == "first_time" { f = $3 } END { exit !(f >= a && f <= b) }' "$1"
}

# the options that only set attr fields, in one recording (perf's start-up is 0.5-1.5 s here), each
# field checked against perf's, each effect in both files' analyses:
#   --switch-events: context_switch on the tracking event; SWITCH records
#   -k monotonic_raw: use_clockid, clockid 4; the CLOCKID and CLOCK_DATA features (the times: -k realtime below)
#   --sample-cpu: CPU in sample_type; a cpu in every sample row
#   -d: ADDR, DATA_SRC, mmap_data; page-fault samples with the address that faulted
#   --user-regs=ip,sp: REGS_USER, sample_regs_user 0x180 (bits 7, 8); those registers in the samples
#   -s: inherit_stat, TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING; READ records as the child exits
#   -T: TIME in sample_type
rec opts --switch-events -k monotonic_raw --sample-cpu -d --user-regs=ip,sp -s -T -e page-faults -c 1
same opts 0 context_switch
both opts "SWITCH records (stat.csv)" count_in FILE.out/stat.csv SWITCH 2
same opts 0 use_clockid
same opts 0 clockid
clockfacts() { grep -E '^(clockid,res_ns|clock_data,(version|clockid)),' "$1" | tr '\n' ' '; }
if [ -n "$have_perf" ]; then
	check "opts: the CLOCKID and CLOCK_DATA features as perf's ($(clockfacts "$tmp/opts.rp.out/header.csv"))" \
		test -n "$(clockfacts "$tmp/opts.rp.out/header.csv")" -a \
		"$(clockfacts "$tmp/opts.rp.out/header.csv")" = "$(clockfacts "$tmp/opts.pf.out/header.csv")"
fi
same opts 0 sample_type CPU
both opts "every SAMPLE row of overview.csv has a cpu" \
	awk -F, '$3 == "SAMPLE" { n++; if ($6 == "" || $6 < 0) bad++ } END { exit !(n > 0 && !bad) }' FILE.out/overview.csv
same opts 0 sample_type ADDR
same opts 0 sample_type DATA_SRC
same opts 0 mmap_data
both opts "page-fault samples with a data address (dump addr=)" dump_has FILE 'addr=0x[1-9a-f]' 100
same opts 0 sample_type REGS_USER
same opts 0 sample_regs_user
both opts "samples with the user registers ip and sp (dump mask=0x180)" dump_has FILE 'mask=0x180 regs=\[0x[0-9a-f]+,0x' 100
same opts 0 inherit_stat
same opts 0 read_format TOTAL_TIME_ENABLED
same opts 0 read_format TOTAL_TIME_RUNNING
both opts "READ records (stat.csv)" count_in FILE.out/stat.csv READ 1
same opts 0 sample_type TIME
# -k realtime (clockid 0, which evlist does not show): the samples' times on the wall clock of the run
t0=$(date +%s%N)
"$PROG" record -q -N -k realtime -e cpu-clock -o "$tmp/real.data" -- "$tmp/prog" > /dev/null 2>&1
t1=$(date +%s%N)
"$PROG" -q -o "$tmp/real.out" --reports header "$tmp/real.data" 2> /dev/null
check "-k realtime: first sample time between $t0 and $t1 (CLOCK_REALTIME)" first_in "$tmp/real.out/header.csv" "$t0" "$t1"

# -z: COMPRESSED records, the COMPRESSED feature (zstd, level 1), samples in hot()
reports=stat,header,results rec zstd -z -e cpu-clock
both zstd "COMPRESSED records" count_in FILE.out/stat.csv COMPRESSED 1
zfacts() { grep -E '^compressed,(type|level),' "$1" | tr '\n' ' '; }
if [ -n "$have_perf" ]; then
	check "zstd: the compressed feature's type and level as perf's ($(zfacts "$tmp/zstd.rp.out/header.csv"))" \
		test -n "$(zfacts "$tmp/zstd.rp.out/header.csv")" -a \
		"$(zfacts "$tmp/zstd.rp.out/header.csv")" = "$(zfacts "$tmp/zstd.pf.out/header.csv")"
fi
hot_most() {	# results.csv: over half of the samples in the program itself are in hot() (the kernel's part varies with load)
	awk -F, '$2 == "prog" { all += $6; if ($3 == "hot") h += $6 } END { exit !(all > 0 && h > all / 2) }' "$1"
}
both zstd "most of the program's samples in hot() (results.csv)" hot_most FILE.out/results.csv

# {cpu-clock,page-faults}:S: READ and GROUP; no inherit; the member does not sample; page-faults from group reads
rec group -e '{cpu-clock,page-faults}:S'
same group 0 sample_type READ
same group 0 read_format GROUP
same group 1 read_format GROUP
same group 1 sample_type READ
absent=inherit same group 0 inherit
absent=sample_period_freq same group 1 sample_period_freq
both group "page-faults samples from the leader's group reads (events.csv)" \
	awk -F, '$1 == "page-faults" && $7 > 0 { ok = 1 } END { exit !ok }' FILE.out/events.csv

# NAME/TERMS/: period=1 on context-switches, freq=1000 on cpu-clock
rec terms -e context-switches/period=1/ -e cpu-clock/freq=1000/
same terms 0 sample_period_freq
absent=freq same terms 0 freq
same terms 1 sample_period_freq
same terms 1 freq
both terms "events.csv: a period of 1 and a frequency of 1000" \
	awk -F, '$1 == "context-switches/period=1/" && $5 == 1 { a = 1 } $1 == "cpu-clock/freq=1000/" && $6 == 1000 { b = 1 }
		END { exit !(a && b) }' FILE.out/events.csv

# SUBSYS:NAME: type 2, the tracepoint's id, period 1, RAW; perf script decodes readperf's samples
if [ -r /sys/kernel/tracing/events/sched/sched_switch/id ]; then
	rec tp -e sched:sched_switch
	same tp 0 type
	same tp 0 config
	same tp 0 sample_period_freq
	same tp 0 sample_type RAW
	both tp "sched:sched_switch samples (events.csv)" \
		awk -F, '$1 == "sched:sched_switch" && $7 > 0 { ok = 1 } END { exit !ok }' FILE.out/events.csv
	if [ -n "$have_perf" ]; then
		check "tp: perf script decodes readperf's sched_switch fields" \
			test "$(perf script -i "$tmp/tp.rp" 2> /dev/null | grep -c 'prev_comm=.*next_pid=')" -ge 1
		# a glob: the same tracepoints in the same order as perf's
		"$PROG" record -q -N -e 'sched:sched_wak*' -o "$tmp/glob.rp" -- "$tmp/prog" > /dev/null 2>&1
		perf record -q -N -B --no-bpf-event -e 'sched:sched_wak*' -o "$tmp/glob.pf" -- "$tmp/prog" > /dev/null 2>&1
		check "tp: -e 'sched:sched_wak*' opens perf's tracepoints ($(attrs "$tmp/glob.rp" | cut -f1 | tr '\n' ' '))" \
			test -n "$(attrs "$tmp/glob.rp")" -a "$(attrs "$tmp/glob.rp" | cut -f1)" = "$(attrs "$tmp/glob.pf" | cut -f1)"
		"$PROG" record -q -N -e sched:sched_switch -o - -- "$tmp/prog" 2> /dev/null > "$tmp/tp.pipe"
		check "tp: pipe mode (-o -, HEADER_TRACING_DATA): perf script decodes it too" \
			test "$(perf script -i - < "$tmp/tp.pipe" 2> /dev/null | grep -c 'prev_comm=.*next_pid=')" -ge 1
	fi
else
	echo "skip - tracepoints: no tracefs at /sys/kernel/tracing"
fi

# ---- off-CPU time of testdata's phases program as it is (5 rounds of 300 ms
# computing and 300 ms asleep, ~3 s): the sleeps' off-CPU time within 0.1% of
# what the program measured around its nanosleep calls (CLOCK_MONOTONIC). The
# program's figure is the larger by the syscall's entry and exit around the
# switch (~50 us a sleep here: 0.02-0.035% of 1.5 s, for perf record's file too);
# shorter sleeps would make that fixed part the larger share.
if cc -g -O2 -fno-omit-frame-pointer -pthread -o "$tmp/phases" "$td/src/phases.c"; then
	"$PROG" record -q -N -g --switch-events -e context-switches/period=1/ -e cpu-clock/freq=1000/ \
		-o "$tmp/phases.data" -- "$tmp/phases" > "$tmp/phases.measured" 2> /dev/null
	"$PROG" -q -o "$tmp/phases.out" "$tmp/phases.data" 2> /dev/null
	slept=$(sed -n 's/^phases: slept \([0-9]*\) ns.*/\1/p' "$tmp/phases.measured")
	row=$(csv2tsv "$tmp/phases.out/offcpu.csv" | awk -F'\t' '$1 != $2 && $5 ~ /nanosleep/' | head -1)
	off=$(echo "$row" | cut -f7)
	# (a preemption inside the call, on a loaded machine, adds an interval to the 5)
	check "phases: offcpu.csv has the thread's sleeps on $(echo "$row" | cut -f5) ($(echo "$row" | cut -f6) intervals, 5 sleeps)" \
		test "$(echo "$row" | cut -f6)" -ge 5
	check "phases: their off-CPU time $off ns within 0.1% of the $slept ns the program measured" \
		awk -v a="${off:-0}" -v b="${slept:-0}" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * 0.001) }'
else
	echo "skip - phases: cannot build testdata/src/phases.c"
fi

# ---- stat -r 5, -I, -x
"$PROG" stat -r 5 -- true 2> "$tmp/r5.err" > /dev/null
check "stat -r 5: perf's heading with the number of runs" grep -q "^ Performance counter stats for 'true' (5 runs):$" "$tmp/r5.err"
check "stat -r 5: the means, and '( +- x.xx% )' where the runs differ, at perf's columns" \
	awk 'BEGIN { n = 0 } / task-clock / { n++; if (!(substr($0, 1, 23) ~ /^ +[0-9]+\.[0-9][0-9] msec$/ && substr($0, 58, 1) == "#" &&
		(length($0) == 91 || $0 ~ /  \( \+- ?[ 0-9][0-9]\.[0-9][0-9]% \)$/))) bad = 1 } END { exit !(n == 1 && !bad) }' "$tmp/r5.err"
check "stat -r 5: 'M +- SD seconds time elapsed  ( +- x.xx% )'" \
	grep -Eq '^ +[0-9]+\.[0-9]+ \+- [0-9]+\.[0-9]+ seconds time elapsed(  \( \+- ?[ 0-9][0-9]\.[0-9][0-9]% \))?$' "$tmp/r5.err"
check "stat -r 5: no user and sys lines (perf prints none with -r)" test "$(grep -c 'seconds user' "$tmp/r5.err")" -eq 0
if [ -n "$have_perf" ]; then
	perf stat -r 5 -e task-clock,context-switches,cpu-migrations,page-faults -- true 2> "$tmp/pr5.err" > /dev/null
	# numbers aside, and the rate's prefix: 1 context switch in 3 ms is "315.951 /sec", 5 are
	# "1.577 K/sec", and how many a run of true gets depends on the machine's load (the
	# sanitizer run of a local CI differed so)
	shape() { sed -E -e 's/[0-9]+(\.[0-9]+)?/N/g' -e 's/ [KMG]\/sec/ \/sec/' -e 's/ +/ /g' -e 's/ ?\( \+- ?N% \)//' -e 's/ +$//' "$1" | grep -v '^ *$'; }
	shape "$tmp/r5.err" > "$tmp/r5.shape"
	shape "$tmp/pr5.err" > "$tmp/pr5.shape"
	if ! cmp -s "$tmp/r5.shape" "$tmp/pr5.shape"; then
		# once more: the local CI's sanitizer run differed once, and not in 3 runs after (cause not seen)
		"$PROG" stat -r 5 -- true 2> "$tmp/r5b.err" > /dev/null
		perf stat -r 5 -e task-clock,context-switches,cpu-migrations,page-faults -- true 2> "$tmp/pr5b.err" > /dev/null
		shape "$tmp/r5b.err" > "$tmp/r5.shape"
		shape "$tmp/pr5b.err" > "$tmp/pr5.shape"
	fi
	check "stat -r 5: the same lines as perf stat -r 5's, numbers aside$(diff "$tmp/r5.shape" "$tmp/pr5.shape" |
		grep '^[<>]' | head -4 | tr '\n' ' ' | sed 's/^./: &/')" cmp -s "$tmp/r5.shape" "$tmp/pr5.shape"
	pf() { awk '/ page-faults / { print $1 }' "$1"; }
	check "stat -r 5: page-faults mean $(pf "$tmp/r5.err") within 10% of perf's $(pf "$tmp/pr5.err")" \
		awk -v a="$(pf "$tmp/r5.err")" -v b="$(pf "$tmp/pr5.err")" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b / 10) }'
fi
"$PROG" stat -r 3 -x, -e task-clock,page-faults -- true 2> "$tmp/r3x.err" > /dev/null
check "stat -r 3 -x,: value,unit,event,noise%,run,percent,metric,unit as perf" \
	awk -F, '{ n++; if (NF != 8 || $4 !~ /^[0-9]+\.[0-9][0-9]%$/) bad = 1 } END { exit !(n == 2 && !bad) }' "$tmp/r3x.err"
"$PROG" stat -I 100 -e task-clock -- sleep 0.25 2> "$tmp/i.err" > /dev/null
check "stat -I 100: perf's header line, then a timestamped line per interval (3 or more for 0.25 s)" \
	awk 'NR == 1 { ok = $0 == "#           time             counts unit events" }
		NR > 1 { n++; if ($0 !~ /^ +[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9] +([0-9.]+|<not counted>) msec task-clock /) ok = 0 }
		END { exit !(ok && n >= 3) }' "$tmp/i.err"
"$PROG" stat -I 100 -x, -e task-clock -- sleep 0.15 2> "$tmp/ix.err" > /dev/null
check "stat -I 100 -x,: time,value,unit,event,run,percent,metric,unit per interval" \
	awk -F, '{ n++; if (NF != 8 || $1 !~ /^ +[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]$/ || $4 != "task-clock") bad = 1 } END { exit !(n >= 2 && !bad) }' "$tmp/ix.err"
"$PROG" stat -r 2 -I 100 -- true 2> "$tmp/ri.err"
check "stat -r with -I: refused, exit 1" test $? -eq 1 -a "$(grep -c '^readperf: -r and -I exclude each other$' "$tmp/ri.err")" -eq 1

# ---- event forms: errors name the part, one line, exit 1
while IFS='|' read -r spec msg; do
	"$PROG" record -q -N -e "$spec" -o "$tmp/bad.data" -- true 2> "$tmp/bad.err"
	rc=$?
	check "-e '$spec': exit 1, one line: $msg" \
		test $rc -eq 1 -a "$(wc -l < "$tmp/bad.err")" -eq 1 -a "$(grep -cF "readperf: $msg" "$tmp/bad.err")" -eq 1
done << 'EOF'
cpu-clock/freq=x/|event 'cpu-clock/freq=x/': cannot read term 'freq=x'
cpu-clock/perio=1/|event 'cpu-clock/perio=1/': cannot read term 'perio=1'
cpu-clock:uz|event 'cpu-clock:uz': cannot read modifier 'uz'
sched:no_such_tp|event 'sched:no_such_tp' is not known: no such tracepoint
{cpu-clock,page-faults:S|event group '{cpu-clock,page-faults:S': missing '}'
EOF

# ---- bad option values: exit 1, one line naming the value
while IFS='|' read -r sub opt msg; do
	# shellcheck disable=SC2086
	"$PROG" $sub -q $opt -- true 2> "$tmp/opt.err" > /dev/null
	rc=$?
	check "$sub $opt: exit 1, one line: $msg" \
		test $rc -eq 1 -a "$(wc -l < "$tmp/opt.err")" -eq 1 -a "$(grep -cF "readperf: $msg" "$tmp/opt.err")" -eq 1
done << 'EOF'
record|-N -o /dev/null -k bogus|-k needs a clock: monotonic, monotonic_raw, realtime, boottime, tai or a number, not 'bogus'
record|-N -o /dev/null --compression-level=23|-z takes a zstd level from 1 to 22, not '23'
record|-N -o /dev/null --user-regs=ip,xmm0|--user-regs wants registers from ax bx cx dx si di bp sp ip flags cs ss ds es fs gs r8-r15, separated by commas, not 'ip,xmm0'
stat|-r 0|-r needs a number of runs from 1 to 100000, not '0'
stat|-I 9|-I needs an interval of at least 10 ms, not '9'
EOF

# ---- issue 28: killed, and :k where the kernel may not be profiled
killed_run() {	# (its stderr to /dev/null: the shell's "Killed" line)
	local p c i
	"$PROG" record -q -N -F 999 -o "$tmp/killed.data" -- sh -c 'while :; do :; done' > /dev/null 2>&1 &
	p=$!
	for ((i = 0; i < 100; i++)); do	# until the header is on disk (a loaded machine may take seconds)
		[ -s "$tmp/killed.data" ] && break
		sleep 0.1
	done
	sleep 1.2
	c=$(pgrep -P "$p")	# the loop: it outlives its recorder
	kill -9 "$p" $c
	wait "$p"
}
killed_run 2> /dev/null
"$PROG" -q -o "$tmp/killed" --reports stat "$tmp/killed.data" 2> /dev/null
check "record SIGKILLed 1.2 s after it started at -F 999: a readable file with its samples ($(stat -c %s "$tmp/killed.data") bytes)" \
	count_in "$tmp/killed/stat.csv" SAMPLE 50
# a recording without samples (major-faults of true: none) says so when analysed
"$PROG" record -q -N -e major-faults -o "$tmp/none.data" -- true > /dev/null 2>&1
"$PROG" -o "$tmp/none" "$tmp/none.data" > "$tmp/none.out" 2>&1
check "a file with no samples: a note says so" grep -q "^note: .*none.data holds no samples: no function rows$" "$tmp/none.out"
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2> /dev/null || echo 0)
if [ "$(id -u)" -eq 0 ] && command -v setpriv > /dev/null && [ "$paranoid" -ge 2 ]; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$PROG" record -q -N -e cpu-clock:k -o /dev/null -- true \
		2> "$tmp/k.err" > /dev/null
	rc=$?
	check "cpu-clock:k under perf_event_paranoid $paranoid as nobody: refused (exit $rc), as perf does" \
		test $rc -ne 0 -a "$(grep -c 'no permission to open event .cpu-clock:k.' "$tmp/k.err")" -eq 1
else
	echo "skip - cpu-clock:k refused: needs root, setpriv and perf_event_paranoid >= 2"
fi

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# make bench: readperf against perf on the same recordings, side by side in
# one run.  Records a ~400k-sample profile of testdata's `work` program (once,
# kept in build/bench/), then measures:
#   1. default analysis vs `perf report --sort dso,sym`         (target: <= 0.5x)
#      and vs the quickest `perf report --no-children -g none`  (target: <= 0.5x)
#   2. source lines vs `perf report --sort dso,sym,srcfile`     (target: >= 50x faster)
#   3. decoding throughput: stat+events only, in MB/s           (target: >= 1000 MB/s)
#   4. peak memory of the default analysis on a recording and on one 4x as long (target: independent of size)
#   5. batch mode: 20 files with -j 2 vs 20 sequential runs       (target: <= 0.6x)
#   6. --call-graph dwarf unwinding of ~230 MB vs perf report --children (target: <= 1x, goal 0.5x)
#   7. linear inputs: 160k processes in descending pid order, 160k mmaps at descending
#      addresses, 40k forks of a 2000-map process vs perf report (target: <= 2x, less memory)
#   8. the recording of 1 with its FINISHED_ROUND records removed: peak memory (target < 128 MiB)
#      and the same reports
#   9. a 1 GiB synthetic file (27M samples): --reports stat,events,results in GB/s (target >= 1),
#      the default analysis against perf's quickest report, peak memory (target < 128 MiB)
#  10. a 4 GiB synthetic file (108M samples, made in a temporary directory and removed):
#      MB/s and peak memory of --reports stat,events,results, and with source lines (+lines)
#  Each timed run's CPU utilization ((user + sys) / wall of its fastest run; 2.00 = both cores)
#  is listed at the end.
# Symbols come from a symbol cache in build/bench/symcache (warm unless a section says cold).
# The analysis runs in a second thread (the default on two CPUs); 1d and 9 also time -j 1.
# BENCH_NO_SRCLINE=1 skips section 2 (perf's srcfile report takes minutes).
set -eu
cd "$(dirname "$0")/../.."
PROG=${PROG:-build/readperf}
dir=${BENCH_DIR:-build/bench}
mkdir -p "$dir"
if ! command -v perf >/dev/null 2>&1; then
	echo "bench: perf is not installed: nothing to compare against" >&2
	exit 1
fi
bin=$PWD/testdata/symfs/readperf-testdata/bin/work
timer=/usr/bin/time
[ -x "$timer" ] || { echo "bench: needs /usr/bin/time (Debian package 'time')" >&2; exit 1; }

record() {	# file, scale, extra perf options
	[ -s "$1" ] && return 0
	echo "bench: recording $1 (work $2, cpu-clock every 20 us)" >&2
	perf record -q -N -e cpu-clock -c 20000 $3 -o "$1" -- "$bin" "$2" >/dev/null 2>&1
}
samples_of() {	# file -> samples, as events.csv counts them
	"$PROG" -q -o "$dir/out" --reports events "$1" &&
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "samples") c = i; next } { s += $c } END { print s }' \
		"$dir/out/events.csv"
}
# ~400k samples with callchains for the timings (work's scale from a short recording: samples
# come per 20 us of CPU, perf's overhead included); ~0.4M and ~1.6M samples without, for memory and decoding
if [ ! -s "$dir/big.data" ]; then
	record "$dir/calib.data" 28 "-g"
	record "$dir/big.data" "$(awk -v n="$(samples_of "$dir/calib.data")" 'BEGIN { s = int(28 * 400000 / (n ? n : 1)); print s < 28 ? 28 : s }')" "-g"
	rm -f "$dir/calib.data"
fi
record "$dir/small.data" 280 ""
record "$dir/huge.data" 1120 ""

# run CMD... five times ($RUNS); prints "seconds maxrss_kb": the fastest run's wall time (ns clock)
# and its peak memory (GNU time); $BEFORE, when set, is run (untimed) before each.  The fastest
# run's CPU utilization, (user + sys) / wall, goes to $dir/cpu.log with the command.
cpulog=$dir/cpu.log
: > "$cpulog"
run() {
	local i t0 t1 ns best="" cpu=""
	for ((i = 0; i < ${RUNS:-5}; i++)); do
		[ -z "${BEFORE:-}" ] || eval "$BEFORE"
		rm -rf "$dir/out"	# a fresh output directory, as for a new analysis (freeing the old reports is not timed)
		t0=$(date +%s%N)
		"$timer" -f "%U %S %M" -o "$dir/time.out" "$@" >/dev/null 2>"$dir/stderr.out" || {
			echo "bench: failed: $*" >&2; cat "$dir/stderr.out" >&2; exit 1; }
		t1=$(date +%s%N)
		ns=$((t1 - t0))
		if [ -z "$best" ] || [ "$ns" -lt "${best%% *}" ]; then
			read -r u s kb < <(tail -n 1 "$dir/time.out")
			best="$ns $kb"
			cpu=$(awk -v u="$u" -v s="$s" -v ns="$ns" 'BEGIN { printf "%.2f", (u + s) / (ns / 1e9) }')
		fi
	done
	echo "$cpu CPUs: ${*/#$PWD\//}" >> "$cpulog"
	awk -v ns="${best%% *}" -v kb="${best##* }" 'BEGIN { printf "%.3f %s\n", ns / 1e9, kb }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) b = 0.001; printf "%.3f", a / b }'; }

samples=$(samples_of "$dir/big.data")
size=$(stat -c %s "$dir/big.data")
echo "recording: $dir/big.data, $samples samples, $((size / 1048576)) MiB"
echo

# perf's default for a -g recording: with --children, as readperf's results.csv
read -r t_perf m_perf < <(run perf report -i "$dir/big.data" --sort dso,sym --stdio)
cache=$dir/symcache
"$PROG" -q -o "$dir/out" --symbol-cache "$cache" "$dir/big.data"	# fill the symbol cache
read -r t_rp m_rp < <(run "$PROG" -q -o "$dir/out" --symbol-cache "$cache" "$dir/big.data")
read -r t_cold m_cold < <(BEFORE='rm -rf "$dir/cold"' run "$PROG" -q -o "$dir/out" --symbol-cache "$dir/cold" "$dir/big.data")
echo "1. default analysis: readperf ${t_rp}s vs perf report --sort dso,sym ${t_perf}s: ratio $(ratio "$t_rp" "$t_perf") (target <= 0.5)"
# perf's quickest report (no children, no callchains), which computes a fraction of it
read -r t_perfq m_perfq < <(run perf report -i "$dir/big.data" --no-children --sort dso,sym -g none --stdio)
echo "1b. default analysis: readperf ${t_rp}s vs perf report --no-children --sort dso,sym -g none ${t_perfq}s: ratio $(ratio "$t_rp" "$t_perfq") (target <= 0.5 warm symbol cache)"
echo "1c. the same with a cold symbol cache (emptied before each run): readperf ${t_cold}s: ratio $(ratio "$t_cold" "$t_perfq") (target <= 0.8)"
# the default runs the analysis in a second thread; -j 1 does everything in one
read -r t_j1 m_j1 < <(run "$PROG" -j 1 -q -o "$dir/out" --symbol-cache "$cache" "$dir/big.data")
echo "1d. with one thread (-j 1): readperf ${t_j1}s ${m_j1} KiB vs ${t_rp}s ${m_rp} KiB with two: ratio to perf's quickest report $(ratio "$t_j1" "$t_perfq")"

if [ -n "${BENCH_NO_SRCLINE:-}" ]; then
	echo "2. skipped (BENCH_NO_SRCLINE): perf's srcfile report takes ~5 min a run here"
else
	# one perf run: it takes minutes (an addr2line per address)
	read -r t_perf2 m_perf2 < <(RUNS=1 run perf report -i "$dir/big.data" --sort dso,sym,srcfile --stdio)
	read -r t_rp2 m_rp2 < <(run "$PROG" -q -o "$dir/out" --symbol-cache "$cache" --reports lines "$dir/big.data")
	echo "2. source lines: readperf ${t_rp2}s vs perf report --sort dso,sym,srcfile ${t_perf2}s: $(ratio "$t_perf2" "$t_rp2")x faster (target >= 50)"
fi

hsize=$(stat -c %s "$dir/huge.data")
cat "$dir/huge.data" "$dir/big.data" > /dev/null	# warm the page cache
# decoding only (stat,events), 10 runs each; the time of 10 runs on a file with
# no records (start-up: loading libbfd and friends) is taken off
# the same file cut where its records begin: start-up and header, no records
empty=$dir/empty.data
off=$("$PROG" header "$dir/huge.data" | awk -F': ' '/data_offset/ { print $2 }')
head -c "$off" "$dir/huge.data" > "$empty"
ten_runs() {	# file -> ns
	local t0 t1 i
	t0=$(date +%s%N)
	for i in 1 2 3 4 5 6 7 8 9 10; do
		"$PROG" -q -o "$dir/out" --symbol-cache "$cache" --reports stat,events "$1" 2>/dev/null
	done
	t1=$(date +%s%N)
	echo $((t1 - t0))
}
decode_rate() {	# file -> MiB/s
	local sz=$(stat -c %s "$1") base run
	base=$(ten_runs "$empty")
	run=$(ten_runs "$1")
	awk -v s="$sz" -v ns="$((run - base))" 'BEGIN { if (ns <= 0) ns = 1; printf "%.0f", 10 * s / 1048576 / (ns / 1e9) }'
}
echo "3. decoding (stat,events): $(decode_rate "$dir/huge.data") MiB/s on $((hsize / 1048576)) MiB of samples without callchains, $(decode_rate "$dir/big.data") MiB/s on $((size / 1048576)) MiB with callchains (target >= 1000)"

ssize=$(stat -c %s "$dir/small.data")
read -r t_a m_small < <(run "$PROG" -q -o "$dir/out" --symbol-cache "$cache" "$dir/small.data")
read -r t_b m_large < <(run "$PROG" -q -o "$dir/out" --symbol-cache "$cache" "$dir/huge.data")
read -r t_c m_psmall < <(run perf report -i "$dir/small.data" --sort dso,sym --stdio)
read -r t_d m_plarge < <(run perf report -i "$dir/huge.data" --sort dso,sym --stdio)
echo "4. peak memory, default analysis: $((ssize / 1048576)) MiB file ${m_small} KiB, $((hsize / 1048576)) MiB file ${m_large} KiB (perf report: ${m_psmall} KiB, ${m_plarge} KiB)"

# 5. batch mode: 20 recordings of testdata/ (every one, then repeats) analysed with -j 2
# against 20 sequential single-file runs, best of 3 each
td=$PWD/testdata
batch=()
while [ ${#batch[@]} -lt 20 ]; do
	for f in "$td"/*.data; do [ ${#batch[@]} -lt 20 ] && batch+=("$f"); done
done
bsym=(--symfs "$td/symfs" --kallsyms "$td/kallsyms" --symbol-cache "$cache")
best_seq= best_par=
for k in 1 2 3; do
	rm -rf "$dir/seq" "$dir/par"
	t0=$(date +%s%N)
	i=0
	for f in "${batch[@]}"; do "$PROG" -q -o "$dir/seq/$((i++))" "${bsym[@]}" "$f" 2>/dev/null; done
	t1=$(date +%s%N)
	"$PROG" -q -o "$dir/par" -j 2 "${bsym[@]}" "${batch[@]}" 2>/dev/null
	t2=$(date +%s%N)
	s=$((t1 - t0)) p=$((t2 - t1))
	[ -z "$best_seq" ] || [ $s -lt $best_seq ] && best_seq=$s
	[ -z "$best_par" ] || [ $p -lt $best_par ] && best_par=$p
done
echo "5. batch: 20 files with -j 2 $(awk -v n=$best_par 'BEGIN { printf "%.2f", n / 1e9 }')s vs 20 sequential runs $(awk -v n=$best_seq 'BEGIN { printf "%.2f", n / 1e9 }')s: ratio $(ratio "$best_par" "$best_seq") (target <= 0.6)"

# 6. --call-graph dwarf: a ~230 MB recording of testdata's nofp (two threads, no frame
# pointers) run ten times, unwound by readperf and by perf report --children (run: best of 5)
nofp=$PWD/testdata/symfs/readperf-testdata/bin/nofp
if [ ! -s "$dir/dwarf.data" ]; then
	perf record -N -q -e cpu-clock -F 4000 --call-graph dwarf -o "$dir/dwarf.data" -- \
		sh -c "for i in 1 2 3 4 5 6 7 8 9 10; do LD_LIBRARY_PATH=${nofp%/*} $nofp; done" > /dev/null 2>&1
fi
# the binaries run from testdata/symfs are recorded at that path: no --symfs (with it perf finds
# no binary, unwinds nothing and looks fast)
dsym=(--kallsyms /proc/kallsyms)
read -r best_rp m_rp < <(run "$PROG" -q -o "$dir/dwout" --symbol-cache "$cache" "${dsym[@]}" "$dir/dwarf.data")
read -r best_pf m_pf < <(run perf report -i "$dir/dwarf.data" "${dsym[@]}" --children --stdio)
echo "6. --call-graph dwarf, $(($(stat -c %s "$dir/dwarf.data") / 1048576)) MiB: readperf ${best_rp}s ${m_rp} KiB vs perf report --children ${best_pf}s ${m_pf} KiB: ratio $(ratio "$best_rp" "$best_pf") (target <= 1, goal 0.5)"

# 7. inputs that were quadratic: made by tests/gen (best of 3, default analysis vs perf report)
gen=${GEN:-build/tests/gen/gen-perf}
if [ -x "$gen" ]; then
	[ -s "$dir/procs.data" ] || "$gen" --procs "$dir/procs.data" 160000
	[ -s "$dir/mmaps.data" ] || "$gen" --forks "$dir/mmaps.data" 160000 0 desc
	[ -s "$dir/forks.data" ] || "$gen" --forks "$dir/forks.data" 2000 40000
	for what in "procs:160k processes in descending pid order" "mmaps:160k mmaps at descending addresses" \
		    "forks:40k forks of a 2000-map process"; do
		f=$dir/${what%%:*}.data
		read -r t_r m_r < <(RUNS=3 run "$PROG" -q -o "$dir/out" --symbol-cache "$cache" "$f")
		# perf takes over a minute and 8 GB on the forks: one run when the first is over 20 s
		read -r t_p m_p < <(RUNS=1 run perf report -i "$f" --stdio)
		if awk -v t="$t_p" 'BEGIN { exit !(t < 20) }'; then
			read -r t_p m_p < <(RUNS=3 run perf report -i "$f" --stdio)
		fi
		echo "7. ${what#*:}: readperf ${t_r}s ${m_r} KiB vs perf report ${t_p}s ${m_p} KiB: time ratio $(ratio "$t_r" "$t_p") (target <= 2), memory ratio $(ratio "$m_r" "$m_p") (target < 1)"
	done
else
	echo "7. skipped: no $gen (make check builds it)"
fi

# 8. the recording of 1 without its FINISHED_ROUND records: one queue bounded by memory
if command -v python3 > /dev/null; then
	[ -s "$dir/noround.data" ] || python3 tests/bench/strip-rounds.py "$dir/big.data" "$dir/noround.data" 2> /dev/null
	rm -rf "$dir/ref" "$dir/nr"
	"$PROG" -q -o "$dir/ref" --symbol-cache "$cache" "$dir/big.data"
	read -r t_nr m_nr < <(run "$PROG" -q -o "$dir/out" --symbol-cache "$cache" "$dir/noround.data")
	"$PROG" -q -o "$dir/nr" --symbol-cache "$cache" "$dir/noround.data"
	# the rows that name FINISHED_ROUND, stat.csv's count of them and header.csv's data size differ by design
	same=yes
	for r in "$dir"/ref/*.csv; do
		b=$(basename "$r")
		case $b in stat.csv|header.csv) continue ;; esac
		if [ "$b" = overview.csv ]; then
			cmp -s <(cut -d, -f2- "$r" | grep -v FINISHED_ROUND) <(cut -d, -f2- "$dir/nr/$b" | grep -v FINISHED_ROUND) || same="no ($b)"
		else
			cmp -s "$r" "$dir/nr/$b" || same="no ($b)"
		fi
	done
	echo "8. without FINISHED_ROUND: readperf ${t_nr}s, peak ${m_nr} KiB (target < 131072), reports as the original's: $same"
else
	echo "8. skipped: no python3"
fi

# 9. 1 GiB of synthetic samples (gen-perf --samples: 40-byte samples of 8 processes, rounds of 65536)
if [ -x "$gen" ]; then
	g=$dir/gib.data
	[ -s "$g" ] || "$gen" --samples "$g" 26843545
	gsize=$(stat -c %s "$g")
	cat "$g" > /dev/null
	read -r t_g m_g < <(RUNS=3 run "$PROG" -q -o "$dir/out" --symbol-cache "$cache" --reports stat,events,results "$g")
	read -r t_g1 m_g1 < <(RUNS=3 run "$PROG" -j 1 -q -o "$dir/out" --symbol-cache "$cache" --reports stat,events,results "$g")
	read -r t_gd m_gd < <(RUNS=3 run "$PROG" -q -o "$dir/out" --symbol-cache "$cache" "$g")
	read -r t_gp m_gp < <(RUNS=3 run perf report -i "$g" --no-children --sort dso,sym -g none --stdio)
	echo "9. 1 GiB synthetic: --reports stat,events,results $(awk -v s="$gsize" -v t="$t_g" 'BEGIN { printf "%.2f", s / 1e9 / t }') GB/s (${t_g}s, ${m_g} KiB; target >= 1 GB/s, < 131072 KiB); with -j 1 $(awk -v s="$gsize" -v t="$t_g1" 'BEGIN { printf "%.2f", s / 1e9 / t }') GB/s (${t_g1}s, ${m_g1} KiB)"
	echo "9b. default analysis ${t_gd}s ${m_gd} KiB vs perf report --no-children --sort dso,sym -g none ${t_gp}s ${m_gp} KiB: ratio $(ratio "$t_gd" "$t_gp") (target <= 1)"
fi

# 10. 4 GiB of synthetic samples (gen-perf --samples, 108M samples), made in a temporary
# directory next to $dir and removed: decoding with and without source lines (best of 3)
if [ -x "$gen" ]; then
	gdir=$(mktemp -d "$dir/gib4.XXXXXX")
	trap 'rm -rf "$gdir"' EXIT
	g4=$gdir/gib4.data
	"$gen" --samples "$g4" "${BENCH_4G_SAMPLES:-107374182}"
	g4size=$(stat -c %s "$g4")
	for what in "stat,events,results:without source lines" "stat,events,results,lines:with source lines"; do
		read -r t_4 m_4 < <(RUNS=3 run "$PROG" -q -o "$dir/out" --symbol-cache "$cache" --reports "${what%%:*}" "$g4")
		echo "10. $((g4size / 1048576)) MiB synthetic, ${what#*:} (--reports ${what%%:*}): $(awk -v s="$g4size" -v t="$t_4" 'BEGIN { printf "%.0f", s / 1048576 / t }') MiB/s (${t_4}s), peak ${m_4} KiB"
	done
	rm -rf "$gdir"
	trap - EXIT
fi

echo
echo "CPU utilization of each run ((user + sys) / wall of the fastest run; 2.00 = both cores):"
cat "$cpulog"

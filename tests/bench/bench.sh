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
# ~400k samples with callchains for the timings; ~0.4M and ~1.6M samples without, for memory and decoding
record "$dir/big.data" 280 "-g"
record "$dir/small.data" 280 ""
record "$dir/huge.data" 1120 ""

# run CMD... five times; prints "seconds maxrss_kb": the fastest run's wall time (ns clock)
# and its peak memory (GNU time)
run() {
	local i t0 t1 ns best=""
	for i in 1 2 3 4 5; do
		rm -rf "$dir/out"	# a fresh output directory, as for a new analysis (freeing the old reports is not timed)
		t0=$(date +%s%N)
		"$timer" -f "%M" -o "$dir/time.out" "$@" >/dev/null 2>"$dir/stderr.out" || {
			echo "bench: failed: $*" >&2; cat "$dir/stderr.out" >&2; exit 1; }
		t1=$(date +%s%N)
		ns=$((t1 - t0))
		if [ -z "$best" ] || [ "$ns" -lt "${best%% *}" ]; then
			best="$ns $(tail -n 1 "$dir/time.out")"
		fi
	done
	awk -v ns="${best%% *}" -v kb="${best##* }" 'BEGIN { printf "%.3f %s\n", ns / 1e9, kb }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) b = 0.001; printf "%.3f", a / b }'; }

samples=$("$PROG" -q -o "$dir/out" --reports events "$dir/big.data" && awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "samples") c = i; next } { s += $c } END { print s }' "$dir/out/events.csv")
size=$(stat -c %s "$dir/big.data")
echo "recording: $dir/big.data, $samples samples, $((size / 1048576)) MiB"
echo

# perf's default for a -g recording: with --children, as readperf's results.csv
read -r t_perf m_perf < <(run perf report -i "$dir/big.data" --sort dso,sym --stdio)
read -r t_rp m_rp < <(run "$PROG" -q -o "$dir/out" "$dir/big.data")
echo "1. default analysis: readperf ${t_rp}s vs perf report --sort dso,sym ${t_perf}s: ratio $(ratio "$t_rp" "$t_perf") (target <= 0.5)"
# perf's quickest report (no children, no callchains), which computes a fraction of it
read -r t_perfq m_perfq < <(run perf report -i "$dir/big.data" --no-children --sort dso,sym -g none --stdio)
echo "1b. default analysis: readperf ${t_rp}s vs perf report --no-children --sort dso,sym -g none ${t_perfq}s: ratio $(ratio "$t_rp" "$t_perfq") (issue 11 target <= 0.5 warm)"

read -r t_perf2 m_perf2 < <(run perf report -i "$dir/big.data" --sort dso,sym,srcfile --stdio)
read -r t_rp2 m_rp2 < <(run "$PROG" -q -o "$dir/out" --reports lines "$dir/big.data")
echo "2. source lines: readperf ${t_rp2}s vs perf report --sort dso,sym,srcfile ${t_perf2}s: $(ratio "$t_perf2" "$t_rp2")x faster (target >= 50)"

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
		"$PROG" -q -o "$dir/out" --reports stat,events "$1" 2>/dev/null
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
read -r t_a m_small < <(run "$PROG" -q -o "$dir/out" "$dir/small.data")
read -r t_b m_large < <(run "$PROG" -q -o "$dir/out" "$dir/huge.data")
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
bsym=(--symfs "$td/symfs" --kallsyms "$td/kallsyms")
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
read -r best_rp m_rp < <(run "$PROG" -q -o "$dir/dwout" "${dsym[@]}" "$dir/dwarf.data")
read -r best_pf m_pf < <(run perf report -i "$dir/dwarf.data" "${dsym[@]}" --children --stdio)
echo "6. --call-graph dwarf, $(($(stat -c %s "$dir/dwarf.data") / 1048576)) MiB: readperf ${best_rp}s ${m_rp} KiB vs perf report --children ${best_pf}s ${m_pf} KiB: ratio $(ratio "$best_rp" "$best_pf") (target <= 1, goal 0.5)"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# make bench: readperf against perf on the same recordings, side by side in
# one run.  Records a ~400k-sample profile of testdata's `work` program (once,
# kept in build/bench/), then measures:
#   1. default analysis vs `perf report --sort dso,sym`         (target: <= 0.5x)
#      and vs the quickest `perf report --no-children -g none`  (target: <= 0.5x; 1c cold <= 0.8x)
#   2. source lines vs `perf report --sort dso,sym,srcfile`     (target: >= 50x faster)
#   3. decoding throughput: stat+events only, in MB/s           (target: >= 1000 MB/s)
#   4. peak memory of the default analysis on a recording and on one 4x as long (target: independent of size)
#   5. batch mode: 20 files with -j 2 vs 20 sequential runs       (target: <= 0.6x)
#   6. --call-graph dwarf unwinding of ~230 MB vs perf report --children (target: <= 1x, goal 0.5x)
#   7. linear inputs: 160k processes in descending pid order, 160k mmaps at descending
#      addresses, 40k forks of a 2000-map process vs perf report (target: <= 2x, less memory);
#      1M processes (target: < 256 MiB, <= 8 s)
#   8. the recording of 1 with its FINISHED_ROUND records removed: peak memory (target < 128 MiB)
#      and the same reports
#   9. a 1 GiB synthetic file (27M samples): --reports stat,events,results in GB/s (target >= 1),
#      the default analysis against perf's quickest report, peak memory (target < 128 MiB)
#  10. a 4 GiB synthetic file (108M samples, made in a temporary directory and removed):
#      MB/s and peak memory of --reports stat,events,results, and with source lines (+lines);
#      4 GiB of --call-graph dwarf samples (a recording of testdata's nofp repeated), unwound
#  11. a many-CU program's cold run: readperf built with -O2 -g, recorded (-g) analysing a
#      recording of work; readperf's default analysis with an emptied symbol cache
#      vs perf's quickest report on that recording (target: <= 1x)
# The ratio sections (1, 1b, 1c, 1d, 6, 9b, 11) run readperf and perf in pairs, BENCH_RUNS
# of them (9), after a warm-up of each, the order alternating from pair to pair; they print
# each side's median time and median peak RSS and the median of the pairs' ratios with its
# min-max.  The other timings are the fastest of 5 runs (3 for the large inputs).
# Each timed command's CPU utilization ((user + sys) / wall; 2.00 = both cores) is listed at
# the end.
# Symbols come from a symbol cache in build/bench/symcache (warm unless a section says cold).
# The analysis runs in a second thread (the default on two CPUs); 1d and 9 also time -j 1.
# BENCH_NO_SRCLINE=1 skips section 2 (perf's srcfile report takes minutes).
# BENCH_ONLY="N ..." runs only those sections (e.g. BENCH_ONLY="1 11"); BENCH_DIR (build/bench)
# keeps the recordings, so a trial at small sizes goes to a directory of its own.  Sizes, for
# such trials: BENCH_SAMPLES (400000, section 1's recording), BENCH_SMALL_SCALE and
# BENCH_HUGE_SCALE (280, 1120: work's scale for 3 and 4), BENCH_DWARF_RUNS (10 runs of nofp
# in 6), BENCH_PROCS (160000), BENCH_MMAPS (160000), BENCH_FORKS (40000), BENCH_PROCS_1M
# (1000000), BENCH_1G_SAMPLES (26843545), BENCH_4G_SAMPLES (107374182), BENCH_4G_SIZE
# (4294967296 bytes of dwarf samples), BENCH_CU_SCALE (28: work's scale) and BENCH_CU_RUNS (1) in 11.
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
# the timer (tests/bench/timeit.c, built by make bench): wall time around fork and wait4 only,
# user and system time in microseconds
timer=${TIMEIT:-build/timeit}
[ -x "$timer" ] || { echo "bench: no $timer: run make bench" >&2; exit 1; }
want() {	# section -> whether BENCH_ONLY (a list, blanks or commas) names it, or is unset
	[ -z "${BENCH_ONLY:-}" ] || [[ " ${BENCH_ONLY//,/ } " == *" $1 "* ]]
}

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
if { want 1 || want 2 || want 3 || want 8; } && [ ! -s "$dir/big.data" ]; then
	record "$dir/calib.data" 28 "-g"
	record "$dir/big.data" "$(awk -v n="$(samples_of "$dir/calib.data")" -v want="${BENCH_SAMPLES:-400000}" \
		'BEGIN { s = int(28 * want / (n ? n : 1)); print s < 28 ? 28 : s }')" "-g"
	rm -f "$dir/calib.data"
fi
if want 3 || want 4; then
	record "$dir/small.data" "${BENCH_SMALL_SCALE:-280}" ""
	record "$dir/huge.data" "${BENCH_HUGE_SCALE:-1120}" ""
fi

# timed CMD...: one run of CMD, its output to /dev/null, after $dir/out is removed (a fresh
# output directory, as for a new analysis: freeing the old reports is not timed); sets T_NS (wall,
# ns), T_KB (peak RSS) and T_CPU ((user + sys) / wall), all from $timer.  A failed run stops the
# bench (when timed runs in this shell; inside $(...) or <(...) it prints why).
timed() {
	local u s
	rm -rf "$dir/out"
	"$timer" "$dir/time.out" "$@" >/dev/null 2>"$dir/stderr.out" || {
		echo "bench: failed: $*" >&2; cat "$dir/stderr.out" >&2; exit 1; }
	read -r T_NS u s T_KB < "$dir/time.out"
	T_CPU=$(awk -v u="$u" -v s="$s" -v ns="$T_NS" 'BEGIN { printf "%.2f", (u + s) / 1e6 / (ns / 1e9) }')
}
# run CMD... five times ($RUNS); prints "seconds maxrss_kb": the fastest run's wall time
# and its peak memory; $BEFORE, when set, is run (untimed) before each.  The fastest
# run's CPU utilization goes to $dir/cpu.log with the command.
cpulog=$dir/cpu.log
: > "$cpulog"
run() {
	local i best="" cpu=""
	for ((i = 0; i < ${RUNS:-5}; i++)); do
		[ -z "${BEFORE:-}" ] || eval "$BEFORE"
		timed "$@"
		if [ -z "$best" ] || [ "$T_NS" -lt "${best%% *}" ]; then
			best="$T_NS $T_KB"
			cpu=$T_CPU
		fi
	done
	echo "$cpu CPUs (fastest of ${RUNS:-5}): ${*/#$PWD\//}" >> "$cpulog"
	awk -v ns="${best%% *}" -v kb="${best##* }" 'BEGIN { printf "%.3f %s\n", ns / 1e9, kb }'
}
# column C of $dir/pairs.out, sorted; its median
column() { awk -v c="$1" '{ print $c }' "$dir/pairs.out" | sort -g; }
median() { column "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# paired A B: readperf's command (the array named A) against perf's (B), both run once
# untimed (a warm-up), then $BENCH_RUNS pairs (9), the order alternating (A B, B A, A B, ...)
# so that neither side always runs second; $BEFORE_A, when set, is run (untimed) before each A.
# Sets PAIRED, the words the ratio sections print: each side's median wall time and median
# peak RSS, the median of the pairs' ratios (A's time / B's) and their min-max; PAIRED_A, A's
# median time and peak RSS.  Each side's median CPU utilization goes to $dir/cpu.log.
paired() {
	local -n pa=$1 pb=$2
	local i n=${BENCH_RUNS:-9} a b
	[ -z "${BEFORE_A:-}" ] || eval "$BEFORE_A"
	timed "${pa[@]}"
	timed "${pb[@]}"
	: > "$dir/pairs.out"
	for ((i = 0; i < n; i++)); do
		if ((i % 2)); then
			timed "${pb[@]}"; b="$T_NS $T_KB $T_CPU"
			[ -z "${BEFORE_A:-}" ] || eval "$BEFORE_A"
			timed "${pa[@]}"; a="$T_NS $T_KB $T_CPU"
		else
			[ -z "${BEFORE_A:-}" ] || eval "$BEFORE_A"
			timed "${pa[@]}"; a="$T_NS $T_KB $T_CPU"
			timed "${pb[@]}"; b="$T_NS $T_KB $T_CPU"
		fi
		# a line per pair: ns, KiB, CPUs of A; of B; A's time / B's
		echo "$a $b" | awk '{ print $0, $1 / $4 }' >> "$dir/pairs.out"
	done
	echo "$(median 3) CPUs (median of $n): ${pa[*]/#$PWD\//}" >> "$cpulog"
	echo "$(median 6) CPUs (median of $n): ${pb[*]/#$PWD\//}" >> "$cpulog"
	PAIRED=$(awk -v a="$(median 1)" -v ka="$(median 2)" -v b="$(median 4)" -v kb="$(median 5)" \
		-v r="$(median 7)" -v lo="$(column 7 | head -n 1)" -v hi="$(column 7 | tail -n 1)" -v n="$n" \
		'BEGIN { printf "readperf %.3fs %.0f KiB vs perf %.3fs %.0f KiB (medians of %d pairs): ratio %.3f (pairs %.3f-%.3f)",
			a / 1e9, ka, b / 1e9, kb, n, r, lo, hi }')
	PAIRED_A=$(awk -v a="$(median 1)" -v ka="$(median 2)" 'BEGIN { printf "%.3fs %.0f KiB", a / 1e9, ka }')
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) b = 0.001; printf "%.3f", a / b }'; }
cache=$dir/symcache

echo "ratios: medians of ${BENCH_RUNS:-9} pairs of runs (readperf, perf in alternating order, after a warm-up of each);" \
	"'ratio R (pairs LO-HI)' is the median of the pairs' ratios and their range"
if want 1 || want 2 || want 3 || want 8; then
	samples=$(samples_of "$dir/big.data")
	size=$(stat -c %s "$dir/big.data")
	echo "recording: $dir/big.data, $samples samples, $((size / 1048576)) MiB"
fi
echo

if want 1; then
	"$PROG" -q -o "$dir/out" --symbol-cache "$cache" "$dir/big.data"	# fill the symbol cache
	rp=("$PROG" -q -o "$dir/out" --symbol-cache "$cache" "$dir/big.data")
	# perf's default for a -g recording: with --children, as readperf's results.csv
	pf=(perf report -i "$dir/big.data" --sort dso,sym --stdio)
	paired rp pf
	echo "1. default analysis vs perf report --sort dso,sym: $PAIRED (target <= 0.5)"
	# perf's quickest report (no children, no callchains), which computes a fraction of it
	pfq=(perf report -i "$dir/big.data" --no-children --sort dso,sym -g none --stdio)
	paired rp pfq
	warm=$PAIRED_A
	echo "1b. default analysis vs perf report --no-children --sort dso,sym -g none: $PAIRED (target <= 0.5 warm symbol cache)"
	cold=("$PROG" -q -o "$dir/out" --symbol-cache "$dir/cold" "$dir/big.data")
	BEFORE_A='rm -rf "$dir/cold"' paired cold pfq
	echo "1c. the same with a cold symbol cache (emptied before each readperf run): $PAIRED (target <= 0.8)"
	# the default runs the analysis in a second thread; -j 1 does everything in one
	j1=("$PROG" -j 1 -q -o "$dir/out" --symbol-cache "$cache" "$dir/big.data")
	paired j1 pfq
	echo "1d. with one thread (-j 1; two: $warm in 1b) vs perf's quickest report: $PAIRED"
fi

if want 2; then
	if [ -n "${BENCH_NO_SRCLINE:-}" ]; then
		echo "2. skipped (BENCH_NO_SRCLINE): perf's srcfile report takes ~5 min a run here"
	else
		# one perf run: it takes minutes (an addr2line per address)
		read -r t_perf2 m_perf2 < <(RUNS=1 run perf report -i "$dir/big.data" --sort dso,sym,srcfile --stdio)
		read -r t_rp2 m_rp2 < <(run "$PROG" -q -o "$dir/out" --symbol-cache "$cache" --reports lines "$dir/big.data")
		echo "2. source lines: readperf ${t_rp2}s vs perf report --sort dso,sym,srcfile ${t_perf2}s: $(ratio "$t_perf2" "$t_rp2")x faster (target >= 50)"
	fi
fi

if want 3; then
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
fi

if want 4; then
	ssize=$(stat -c %s "$dir/small.data")
	hsize=$(stat -c %s "$dir/huge.data")
	read -r t_a m_small < <(run "$PROG" -q -o "$dir/out" --symbol-cache "$cache" "$dir/small.data")
	read -r t_b m_large < <(run "$PROG" -q -o "$dir/out" --symbol-cache "$cache" "$dir/huge.data")
	read -r t_c m_psmall < <(run perf report -i "$dir/small.data" --sort dso,sym --stdio)
	read -r t_d m_plarge < <(run perf report -i "$dir/huge.data" --sort dso,sym --stdio)
	echo "4. peak memory, default analysis: $((ssize / 1048576)) MiB file ${m_small} KiB, $((hsize / 1048576)) MiB file ${m_large} KiB (perf report: ${m_psmall} KiB, ${m_plarge} KiB)"
fi

# 5. batch mode: 20 recordings of testdata/ (every one, then repeats) analysed with -j 2
# against 20 sequential single-file runs, best of 3 each
td=$PWD/testdata
if want 5; then
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
fi

# --call-graph dwarf recordings of testdata's nofp (two threads, no frame pointers): N runs
# of it in one recording.  The binaries run from testdata/symfs are recorded at that path:
# no --symfs (with it perf finds no binary, unwinds nothing and looks fast)
nofp=$PWD/testdata/symfs/readperf-testdata/bin/nofp
record_nofp() {	# file, runs
	[ -s "$1" ] && return 0
	echo "bench: recording $1 (nofp $2 times, --call-graph dwarf)" >&2
	perf record -N -q -e cpu-clock -F 4000 --call-graph dwarf -o "$1" -- \
		sh -c "for i in \$(seq $2); do LD_LIBRARY_PATH=${nofp%/*} $nofp; done" > /dev/null 2>&1
}
dsym=(--kallsyms /proc/kallsyms)

# 6. --call-graph dwarf: a ~230 MB recording of nofp run ten times, unwound by readperf and by
# perf report --children
if want 6; then
	record_nofp "$dir/dwarf.data" "${BENCH_DWARF_RUNS:-10}"
	rp=("$PROG" -q -o "$dir/out" --symbol-cache "$cache" "${dsym[@]}" "$dir/dwarf.data")
	pf=(perf report -i "$dir/dwarf.data" "${dsym[@]}" --children --stdio)
	paired rp pf
	echo "6. --call-graph dwarf, $(($(stat -c %s "$dir/dwarf.data") / 1048576)) MiB, vs perf report --children: $PAIRED (target <= 1, goal 0.5)"
fi

# 7. inputs that were quadratic: made by tests/gen (best of 3, default analysis vs perf report)
gen=${GEN:-build/tests/gen/gen-perf}
if want 7 && [ -x "$gen" ]; then
	procs=${BENCH_PROCS:-160000} mmaps=${BENCH_MMAPS:-160000} forks=${BENCH_FORKS:-40000} procs1m=${BENCH_PROCS_1M:-1000000}
	[ -s "$dir/procs.data" ] || "$gen" --procs "$dir/procs.data" "$procs"
	[ -s "$dir/mmaps.data" ] || "$gen" --forks "$dir/mmaps.data" "$mmaps" 0 desc
	[ -s "$dir/forks.data" ] || "$gen" --forks "$dir/forks.data" 2000 "$forks"
	[ -s "$dir/procs1m.data" ] || "$gen" --procs "$dir/procs1m.data" "$procs1m"
	count() { awk -v n="$1" 'BEGIN { print n % 1000000 ? n % 1000 ? n : n / 1000 "k" : n / 1000000 "M" }'; }	# 160000 -> 160k
	for what in "procs:$(count "$procs") processes in descending pid order:time ratio <= 2, memory ratio < 1" \
		    "mmaps:$(count "$mmaps") mmaps at descending addresses:time ratio <= 2, memory ratio < 1" \
		    "forks:$(count "$forks") forks of a 2000-map process:time ratio <= 2, memory ratio < 1" \
		    "procs1m:$(count "$procs1m") processes in descending pid order:readperf < 262144 KiB, <= 8 s"; do
		f=$dir/${what%%:*}.data
		target=${what##*:}
		what=${what%:*}
		read -r t_r m_r < <(RUNS=3 run "$PROG" -q -o "$dir/out" --symbol-cache "$cache" "$f")
		# perf takes over a minute and 8 GB on the forks, ~50 s on 1M processes: one run when
		# the first is over 20 s
		read -r t_p m_p < <(RUNS=1 run perf report -i "$f" --stdio)
		if awk -v t="$t_p" 'BEGIN { exit !(t < 20) }'; then
			read -r t_p m_p < <(RUNS=3 run perf report -i "$f" --stdio)
		fi
		echo "7. ${what#*:}: readperf ${t_r}s ${m_r} KiB vs perf report ${t_p}s ${m_p} KiB: time ratio $(ratio "$t_r" "$t_p"), memory ratio $(ratio "$m_r" "$m_p") (target: $target)"
	done
elif want 7; then
	echo "7. skipped: no $gen (make check builds it)"
fi

# 8. the recording of 1 without its FINISHED_ROUND records: one queue bounded by memory
if want 8 && command -v python3 > /dev/null; then
	[ -s "$dir/noround.data" ] || python3 tests/bench/strip-rounds.py "$dir/big.data" "$dir/noround.data" 2> /dev/null
	rm -rf "$dir/ref" "$dir/nr"
	"$PROG" -q -o "$dir/ref" --symbol-cache "$cache" "$dir/big.data"
	read -r t_nr m_nr < <(run "$PROG" -q -o "$dir/out" --symbol-cache "$cache" "$dir/noround.data")
	"$PROG" -q -o "$dir/nr" --symbol-cache "$cache" "$dir/noround.data"
	# the rows that name FINISHED_ROUND, stat.csv's count of them, header.csv's data size and
	# manifest.csv (the input's name and size, the arguments) differ by design
	same=yes
	for r in "$dir"/ref/*.csv; do
		b=$(basename "$r")
		case $b in stat.csv|header.csv|manifest.csv) continue ;; esac
		if [ "$b" = overview.csv ]; then
			cmp -s <(cut -d, -f2- "$r" | grep -v FINISHED_ROUND) <(cut -d, -f2- "$dir/nr/$b" | grep -v FINISHED_ROUND) || same="no ($b)"
		else
			cmp -s "$r" "$dir/nr/$b" || same="no ($b)"
		fi
	done
	echo "8. without FINISHED_ROUND: readperf ${t_nr}s, peak ${m_nr} KiB (target < 131072), reports as the original's: $same"
elif want 8; then
	echo "8. skipped: no python3"
fi

# 9. 1 GiB of synthetic samples (gen-perf --samples: 40-byte samples of 8 processes, rounds of 65536)
if want 9 && [ -x "$gen" ]; then
	g=$dir/gib.data
	[ -s "$g" ] || "$gen" --samples "$g" "${BENCH_1G_SAMPLES:-26843545}"
	gsize=$(stat -c %s "$g")
	cat "$g" > /dev/null
	read -r t_g m_g < <(RUNS=3 run "$PROG" -q -o "$dir/out" --symbol-cache "$cache" --reports stat,events,results "$g")
	read -r t_g1 m_g1 < <(RUNS=3 run "$PROG" -j 1 -q -o "$dir/out" --symbol-cache "$cache" --reports stat,events,results "$g")
	echo "9. $((gsize / 1048576)) MiB synthetic: --reports stat,events,results $(awk -v s="$gsize" -v t="$t_g" 'BEGIN { printf "%.2f", s / 1e9 / t }') GB/s (${t_g}s, ${m_g} KiB; target >= 1 GB/s, < 131072 KiB); with -j 1 $(awk -v s="$gsize" -v t="$t_g1" 'BEGIN { printf "%.2f", s / 1e9 / t }') GB/s (${t_g1}s, ${m_g1} KiB)"
	rp=("$PROG" -q -o "$dir/out" --symbol-cache "$cache" "$g")
	pfq=(perf report -i "$g" --no-children --sort dso,sym -g none --stdio)
	paired rp pfq
	echo "9b. default analysis vs perf report --no-children --sort dso,sym -g none: $PAIRED (target <= 1)"
fi

# 10. 4 GiB of synthetic samples, made in a temporary directory next to $dir and removed:
# decoding with and without source lines (gen-perf --samples, 108M samples), and --call-graph
# dwarf samples (a recording of one nofp run repeated by repeat-data.py); best of 3
if want 10 && [ -x "$gen" ]; then
	gdir=$(mktemp -d "$dir/gib4.XXXXXX")
	trap 'rm -rf "$gdir"' EXIT
	g4=$gdir/gib4.data
	"$gen" --samples "$g4" "${BENCH_4G_SAMPLES:-107374182}"
	g4size=$(stat -c %s "$g4")
	rate() { awk -v s="$1" -v t="$2" 'BEGIN { printf "%.0f", s / 1048576 / t }'; }	# bytes, seconds -> MiB/s
	for what in "stat,events,results:without source lines" "stat,events,results,lines:with source lines"; do
		read -r t_4 m_4 < <(RUNS=3 run "$PROG" -q -o "$dir/out" --symbol-cache "$cache" --reports "${what%%:*}" "$g4")
		echo "10. $((g4size / 1048576)) MiB synthetic, ${what#*:} (--reports ${what%%:*}): $(rate "$g4size" "$t_4") MiB/s (${t_4}s), peak ${m_4} KiB"
	done
	rm -f "$g4"
	record_nofp "$dir/dwarf1.data" 1
	g4d=$gdir/dwarf4.data
	python3 tests/bench/repeat-data.py "$dir/dwarf1.data" "$g4d" "${BENCH_4G_SIZE:-4294967296}"
	g4dsize=$(stat -c %s "$g4d")
	read -r t_4 m_4 < <(RUNS=3 run "$PROG" -q -o "$dir/out" --symbol-cache "$cache" "${dsym[@]}" --reports stat,events,results "$g4d")
	# unwound: in the last run's results.csv, some function's children samples (its callees'
	# included) exceed its own
	unwound=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "samples") s = i; if ($i == "children_samples") c = i }; next }
		c && $c > $s { u = "yes" } END { print u ? u : "no" }' "$dir/out/results.csv")
	echo "10. $((g4dsize / 1048576)) MiB of --call-graph dwarf samples ($(($(stat -c %s "$dir/dwarf1.data") / 1048576)) MiB recording of nofp repeated; callers unwound: $unwound), --reports stat,events,results: $(rate "$g4dsize" "$t_4") MiB/s (${t_4}s), peak ${m_4} KiB"
	rm -rf "$gdir"
	trap - EXIT
fi

# 11. a many-CU program with debug info, cold: readperf itself built with -O2 -g into $dir/cu
# (not build/), recorded with -g running its default analysis (a warm symbol cache of its own)
# of a -g recording of work (BENCH_CU_SCALE), BENCH_CU_RUNS times (1: ~30k samples at 20 us);
# the binary and the recordings are kept together, as the recording names the binary (both
# made again when either is missing)
if want 11; then
	cu=$dir/cu
	if [ ! -s "$dir/cu.data" ] || [ ! -x "$cu/readperf" ]; then
		echo "bench: building readperf with -O2 -g in $cu" >&2
		rm -f "$dir/cu.data"
		MAKEFLAGS= make -s -j2 B="$cu" CFLAGS="-O2 -g" LTO=0 "$cu/readperf" > /dev/null
		record "$dir/cu-input.data" "${BENCH_CU_SCALE:-28}" "-g"
		cuopts=(-q -o "$dir/cu-out" --symbol-cache "$dir/cu-cache" "$dir/cu-input.data")
		"$cu/readperf" "${cuopts[@]}"	# its symbol cache
		echo "bench: recording $dir/cu.data (readperf -O2 -g analysing $dir/cu-input.data ${BENCH_CU_RUNS:-1} times)" >&2
		perf record -q -N -g -e cpu-clock -c 20000 -o "$dir/cu.data" -- \
			sh -c 'n=$1; shift; for i in $(seq "$n"); do "$@" || exit; done' sh "${BENCH_CU_RUNS:-1}" \
			"$cu/readperf" "${cuopts[@]}" > /dev/null 2>&1
		rm -rf "$dir/cu-out" "$dir/cu-cache"
	fi
	ncu=$(readelf --debug-dump=info "$cu/readperf" 2> /dev/null | grep -c DW_TAG_compile_unit || true)
	cold=("$PROG" -q -o "$dir/out" --symbol-cache "$dir/cu-cold" "$dir/cu.data")
	pfq=(perf report -i "$dir/cu.data" --no-children --sort dso,sym -g none --stdio)
	BEFORE_A='rm -rf "$dir/cu-cold"' paired cold pfq
	echo "11. many-CU program (readperf -O2 -g, $ncu CUs; $(samples_of "$dir/cu.data") samples), cold symbol cache (emptied before each readperf run), default analysis vs perf report --no-children --sort dso,sym -g none: $PAIRED (target <= 1)"
fi

echo
echo "CPU utilization of each command ((user + sys) / wall; 2.00 = both cores):"
cat "$cpulog"

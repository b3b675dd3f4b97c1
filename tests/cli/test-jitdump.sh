#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-jitdump.sh: JIT code names from jit-PID.dump (node --perf-prof) without perf inject.
# A small JS program with two hot functions runs under `perf record -k 1 -g` and under
# `readperf record -k 1 -g`; the oracle is perf itself: `perf inject --jit` writes one
# jitted-PID-N.so per code load and `perf report` names the samples there.  Per symbol name,
# perf's self samples in jitted-*.so (summed over the loads) must equal readperf's in
# jit-PID.dump (readperf names the JIT dso after the dump it read, README "JIT code").
# Then: the same recording without -k 1 (one warning, the names still resolve), --symfs,
# an absent dump (one warning) and a truncated one (a warning with the byte offset).
# Skips when node or perf is missing or perf_event_open is refused.
#   PROG=build/readperf tests/cli/test-jitdump.sh
. "$(dirname "$0")/testlib.sh"
skip_unless jitdump "no node" command -v node
skip_unless jitdump "no perf" command -v perf

run=$tmp/run
mkdir -p "$run"
cat > "$run/hot.js" <<'EOF'
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function sumsq(n) { let s = 0; for (let i = 0; i < n; i++) s += (i * i) % 7; return s; }
let t = 0;
for (let k = 0; k < 30; k++) { t += fib(24); t += sumsq(300000); }
console.log(t);
EOF
# node 18 and 20: --perf-prof writes ./jit-PID.dump, --interpreted-frames-native-stack gives
# interpreted functions frames of their own
node_args=(node --perf-prof --interpreted-frames-native-stack hot.js)

# record with TOOL (perf or readperf) and its options into FILE, in $run; 1 when refused
record() {	# NAME TOOL OPTS...
	local name=$1
	shift
	(cd "$run" && "$@" -o "$name.data" -- "${node_args[@]}") > "$run/$name.out" 2> "$run/$name.rec.err"
}
if ! record perf perf record -k 1 -g -F 999; then
	echo "skip - jitdump: perf record refused ($(grep -m1 -i -E 'error|perf_event|denied' "$run/perf.rec.err"))"
	exit 0
fi

dump_of() {	# NAME: the jitdump that recording mapped
	perf script -i "$run/$1.data" --show-mmap-events 2> /dev/null |
		sed -n 's/.*MMAP.* \(\/.*\/jit-[0-9]*\.dump\)$/\1/p' | head -1
}

# perf inject --jit + perf report: "name<TAB>samples" of the jitted code, by name
perf_counts() {	# NAME
	(cd "$run" && perf inject --jit -i "$1.data" -o "$1.inj.data") 2> "$run/$1.inj.err" || return 1
	perf report -i "$run/$1.inj.data" --stdio --no-children --sort dso,sym -F sample,dso,sym -g none \
		-t $'\t' 2> /dev/null | awk -F'\t' '
		/^#/ || NF < 3 { next }
		{ dso = $2; sym = $3; gsub(/^ +| +$/, "", dso); sub(/^ *\[.\] /, "", sym); sub(/ +$/, "", sym) }
		dso ~ /^jitted-[0-9]+-[0-9]+\.so$/ { n[sym] += $1 }
		END { for (s in n) printf "%s\t%d\n", s, n[s] }' | sort
}

# readperf's results.csv: "name<TAB>samples" of the dso jit-PID.dump, by name
readperf_counts() {	# DIR
	tail -n +2 "$1/results.csv" | csv2tsv |
		awk -F'\t' '$2 ~ /^jit-[0-9]+\.dump$/ && $6 > 0 { n[$3] += $6 } END { for (s in n) printf "%s\t%d\n", s, n[s] }' |
		sort
}

analyse() {	# NAME DIR [OPTS...]: readperf on the recording NAME into DIR, stderr in DIR.err
	local name=$1 dir=$2
	shift 2
	"$PROG" --raw-csv --reports results -o "$dir" "$@" "$run/$name.data" > /dev/null 2> "$dir.err"
	echo $? > "$dir.rc"
}

hot_ok() {	# COUNTS: both hot functions resolved (in any of V8's tiers), with samples
	grep -q -E $'^JS:.fib .*hot\\.js:1:[0-9]+\t[1-9]' "$1" && grep -q -E $'^JS:.sumsq .*hot\\.js:2:[0-9]+\t[1-9]' "$1"
}

compare() {	# NAME: readperf and perf inject + perf report agree on the recording NAME
	local name=$1
	perf_counts "$name" > "$run/$name.perf" ||
		{ check "jitdump: $name: perf inject --jit ran ($(head -1 "$run/$name.inj.err"))" false; return; }
	analyse "$name" "$tmp/$name"
	readperf_counts "$tmp/$name" > "$run/$name.readperf"
	check "jitdump: $name: perf resolves the hot JS functions ($(tr '\t\n' '=;' < "$run/$name.perf" | head -c 200))" \
		hot_ok "$run/$name.perf"
	check "jitdump: $name: JS function names and self samples as perf inject --jit + perf report" \
		diff "$run/$name.perf" "$run/$name.readperf"
	check "jitdump: $name: no message" quiet_stderr "$tmp/$name.err"
	diff "$run/$name.perf" "$run/$name.readperf" | head -10
	echo "# $name: $(wc -l < "$run/$name.perf") JIT functions with samples, fib/sumsq:" \
		"$(grep -E '^JS:\*(fib|sumsq) ' "$run/$name.readperf" | cut -f2 | tr '\n' ' ')"
}

compare perf

# readperf record -k 1: perf's attr fields for the clock, and the names resolve as well
if record rp "$PROG" record -k 1 -g -F 999; then
	clock_fields() { perf evlist -v -i "$run/$1.data" 2> /dev/null | grep -o -E '(use_clockid|clockid): [0-9]+' | sort -u; }
	check "jitdump: readperf record -k 1: use_clockid and clockid as perf record -k 1's ($(clock_fields rp | tr '\n' ' '))" \
		test "$(clock_fields rp)" = "$(clock_fields perf)" -a -n "$(clock_fields perf)"
	compare rp
	# two runs of one program: their dumps are named after their pids, and readperf diff pairs
	# them as the JIT code of both (perf diff pairs by name: every JS function "new" or gone)
	"$PROG" diff -o "$tmp/jd" "$run/perf.data" "$run/rp.data" > /dev/null 2> "$tmp/jd.err"
	check "jitdump: diff of two runs pairs their dumps ($(grep -m1 'dso jit-' "$tmp/jd.err"))" \
		grep -q -E "diff: dso jit-[0-9]+\.dump \(OLD\) paired with jit-[0-9]+\.dump \(NEW\): both a process's JIT code" "$tmp/jd.err"
	check "jitdump: diff of two runs: the hot JS functions have samples on both sides" \
		test "$(awk -F, '$3 ~ /^JS:.(fib|sumsq) / && $4 > 0 && $5 > 0' "$tmp/jd/diff.csv" | wc -l)" -ge 2
else
	check "jitdump: readperf record -k 1 ran ($(head -1 "$run/rp.rec.err"))" false
fi

# without -k 1 the dump's clock is not the recording's: each address takes its latest load
if record nok perf record -g -F 999; then
	analyse nok "$tmp/nok"
	readperf_counts "$tmp/nok" > "$run/nok.readperf"
	check "jitdump: no -k 1: the names still resolve" hot_ok "$run/nok.readperf"
	check "jitdump: no -k 1: one warning naming -k 1" \
		test "$(grep -c 'record with -k 1' "$tmp/nok.err")" = 1 -a "$(grep -c '^readperf' "$tmp/nok.err")" = 1
fi

dump=$(dump_of perf)
check "jitdump: the recording maps the dump ($dump)" test -n "$dump" -a -f "$dump"
if [ -n "$dump" ] && [ -f "$dump" ]; then
	# --symfs: the dump under it, not at its recorded path
	mkdir -p "$tmp/sfs$(dirname "$dump")"
	mv "$dump" "$tmp/sfs$dump"
	analyse perf "$tmp/sfs" --symfs "$tmp/sfs"
	readperf_counts "$tmp/sfs" > "$run/sfs.readperf"
	check "jitdump: --symfs: the dump read under it" diff "$run/perf.perf" "$run/sfs.readperf"
	# absent: one warning, the JIT code unresolved as before
	analyse perf "$tmp/absent"
	check "jitdump: absent dump: one warning naming it" \
		test "$(grep -c "$(basename "$dump"): cannot read the jitdump" "$tmp/absent.err")" = 1
	check "jitdump: absent dump: no JIT names" test ! -s "$(readperf_counts "$tmp/absent" > "$run/absent.readperf"; echo "$run/absent.readperf")"
	# truncated in its last record (node's exit writes code after the loop's): a warning with the
	# file and the record's offset, the loads before it kept
	size=$(stat -c %s "$tmp/sfs$dump")
	head -c $((size - 8)) "$tmp/sfs$dump" > "$dump"
	analyse perf "$tmp/cut"
	check "jitdump: truncated dump: the file and the offset of the record cut short ($(head -1 "$tmp/cut.err"))" \
		grep -q -E "$dump: offset 0x[0-9a-f]+: record runs past the end of the file" "$tmp/cut.err"
	readperf_counts "$tmp/cut" > "$run/cut.readperf"
	check "jitdump: truncated dump: exit 0, the hot functions loaded before the cut resolve" \
		test "$(cat "$tmp/cut.rc")" = 0 -a "$(hot_ok "$run/cut.readperf" && echo y)" = y
	rm -f "$dump"
fi

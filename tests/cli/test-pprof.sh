#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-pprof.sh: --pprof FILE.pb.gz read back by go tool pprof (Debian golang-go) and by the
# npm pprof-format decoder, on four recordings: frame pointers (callgraph-fp), DWARF with
# --inline (dwarf-nofp, inl), three events (multi), system-wide with CPUs (systemwide-g).
# - go tool pprof -top: the flat samples and period per function equal results.csv's
#   (-noinlines: pprof would give an inlined function the samples of its address; results.csv,
#   as perf report --no-inline, gives them to the function it is inlined into);
# - go tool pprof -traces: the stacks and their samples equal --folded's (pprof-check.py);
# - pprof-format (tests/js/pprof-check.mjs): every field; the main binary's build id equals
#   readelf -n's, duration_nanos the span of perf script's sample times;
# - the bytes are the same on a second run and with -j 1.
#   PROG=build/readperf tests/cli/test-pprof.sh
. "$(dirname "$0")/testlib.sh"
need_python pprof
fail=0
have_go=1
if ! command -v go > /dev/null; then
	echo "skip - pprof: no go (Debian golang-go) for go tool pprof"
	have_go=0
fi
# go tool pprof offline, its caches in the test's directory
export GOCACHE=$tmp/gocache GOPATH=$tmp/gopath GOPROXY=off GOTOOLCHAIN=local GOFLAGS=

pprof_go() {	# FILE ARGS...: go tool pprof's text
	local f=$1
	shift
	go tool pprof "$@" "$f" 2> "$tmp/go.err"
}

check_one() {	# NAME [--inline]
	local name=$1 inl=${2:-} o=$tmp/$1 kopt=(--kallsyms "$td/kallsyms") ev k n
	[ -f "$td/$name.kallsyms" ] && kopt=(--kallsyms "$td/$name.kallsyms")
	# --raw-csv: results.csv's names verbatim, as pprof has them (no leading ' of the formula rule)
	if ! "$PROG" -q --raw-csv $inl --symfs "$td/symfs" "${kopt[@]}" -o "$o" --pprof "$o.pb.gz" --folded "$o.folded" \
		"$td/$name.data" 2> "$tmp/err"; then
		echo "not ok - pprof $name: readperf failed: $(head -1 "$tmp/err")"
		fail=1
		return
	fi
	check "pprof $name: no message" quiet_stderr "$tmp/err"
	"$PROG" -q -j 1 $inl --symfs "$td/symfs" "${kopt[@]}" -o "$o.2" --pprof "$o.2.pb.gz" "$td/$name.data" 2> /dev/null
	check "pprof $name: the same bytes on a second run with -j 1" cmp -s "$o.pb.gz" "$o.2.pb.gz"
	if [ $have_go = 1 ]; then
		# every event's two values: samples:EVENT and EVENT
		tail -n +2 "$o/results.csv" | csv2tsv | awk -F'\t' '$6 > 0 && !s[$1]++ { print $1 }' > "$tmp/events"
		while IFS= read -r ev; do
			pprof_go "$o.pb.gz" -top -nodecount=1000 -nodefraction=0 -noinlines -sample_index="samples:$ev" > "$tmp/top"
			check "pprof $name: go tool pprof -top samples of $ev as results.csv" \
				"$py" "$root/tests/cli/pprof-check.py" top "$tmp/top" "$o/results.csv" "$ev" samples
			pprof_go "$o.pb.gz" -top -nodecount=1000 -nodefraction=0 -noinlines -unit=ns -sample_index="$ev" > "$tmp/top"
			check "pprof $name: go tool pprof -top period of $ev as results.csv" \
				"$py" "$root/tests/cli/pprof-check.py" top "$tmp/top" "$o/results.csv" "$ev" period
		done < "$tmp/events"
		# --folded shows the first event with samples
		pprof_go "$o.pb.gz" -traces -sample_index="samples:$(head -1 "$tmp/events")" > "$tmp/traces"
		check "pprof $name: go tool pprof -traces stacks as --folded" \
			"$py" "$root/tests/cli/pprof-check.py" traces "$tmp/traces" "$o.folded"
	fi
	k=()
	[ -n "$inl" ] && k=(--inline)
	if command -v perf > /dev/null; then
		n=$(perf script -i "$td/$name.data" --ns -F time 2> /dev/null |
			awk '{ sub(/:$/, "", $1); split($1, t, "."); v = t[1] * 1000000000 + t[2]
			       if (!f || v < lo) lo = v; if (!f || v > hi) hi = v; f = 1 } END { printf "%d", hi - lo }')
		[ -n "$n" ] && k+=(--duration "$n")
	fi
	node_check "pprof $name" pprof-check.mjs "$o.pb.gz" "$o/results.csv" "${k[@]}" "${bid[@]}"
}

bid=(--buildid "/readperf-testdata/bin/work=$(readelf -n "$td/symfs/readperf-testdata/bin/work" | awk '/Build ID/ { print $3 }')")
check_one callgraph-fp
check_one multi
bid=()
check_one systemwide-g
check_one dwarf-nofp --inline
check_one inl --inline

# mapping[0] is the main binary (profile.proto; go tool pprof -top heads with its File and
# Build ID): shlib, the busiest comm (perf report --sort comm: shlib 100%), whose samples are in
# libhot.so; before, the mapping with the most samples (File: libhot.so)
if [ "$have_go" = 1 ]; then
	"$PROG" -q --symfs "$td/symfs" --reports none --pprof "$tmp/shlib.pb.gz" "$td/shlib.data" 2> /dev/null
	want=$(readelf -n "$td/symfs/readperf-testdata/bin/shlib" | awk '/Build ID/ { print $3 }')
	pprof_go "$tmp/shlib.pb.gz" -top > "$tmp/shlib.top"
	check "pprof shlib: mapping[0] is the executable shlib, build id $want ($(head -2 "$tmp/shlib.top" | tr '\n' ' '))" \
		test "$(sed -n 1p "$tmp/shlib.top")" = "File: shlib" -a "$(sed -n 2p "$tmp/shlib.top")" = "Build ID: $want"
fi

# nothing to show: no file, said by the command line
"$PROG" -q --symfs "$td/symfs" --pid 1 -o "$tmp/none" --pprof "$tmp/none.pb.gz" "$td/work.data" 2> "$tmp/err"
check "pprof: a run without samples writes no file" test ! -e "$tmp/none.pb.gz"
exit $fail

#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-recordings.sh: run readperf on every recording in testdata/ and compare
# its reports with perf's answers in tests/cli/expected/NAME/ (compare-perf.sh).
# First checks that compare-perf.sh itself passes the hand-made matching CSVs
# in expected/selftest/good and fails each check on expected/selftest/bad.
#   PROG=build/readperf tests/cli/test-recordings.sh [NAME...]
# Prints "ok - ...", "not ok - ...", "skip - ..." lines; exit 1 on any failure.
. "$(dirname "$0")/testlib.sh"	# also: readperf uses no build-id cache of this machine
cli=$root/tests/cli
fail=0

# --- the comparer must be able to pass and to fail
# selftest WHICH WANT PASSES FAILS: compare-perf.sh on expected/selftest/WHICH
# gives its 7 checks as WANT ("ok" or "not ok") lines, exit 0 only when all pass
selftest() {
	local st=$cli/expected/selftest out rc bad=0
	[ "$2" = ok ] || bad=1
	out=$("$cli/compare-perf.sh" -n "selftest-$1" "$st/$1" "$st/perf")
	rc=$?
	if [ $((rc != 0)) -eq $bad ] && [ "$(grep -c "^$2 - " <<< "$out")" -eq 7 ]; then
		echo "ok - compare-perf selftest: $3"
	else
		echo "not ok - compare-perf selftest: $4: $(grep -v "^$2 - " <<< "$out" | head -3 | tr '\n' ' ')"
		fail=1
	fi
}
selftest good ok "matching CSVs pass" "matching CSVs do not pass"
selftest bad "not ok" "each wrong CSV fails its check" "wrong CSVs not caught"

to=
command -v timeout > /dev/null && to="timeout 300"

if [ $# -gt 0 ]; then
	names=("$@")
else
	names=()
	for f in "$td"/*.data; do names+=("$(basename "$f" .data)"); done
fi
for name in "${names[@]}"; do
	exp=$cli/expected/$name
	if [ ! -d "$exp" ]; then
		echo "skip - $name: no expected output (run tests/cli/perf-oracle.sh $name)"
		continue
	fi
	kopt=()
	if [ -f "$td/$name.kallsyms" ]; then
		kopt=(--kallsyms "$td/$name.kallsyms")
	elif [ -f "$td/kallsyms" ]; then
		kopt=(--kallsyms "$td/kallsyms")
	fi
	o=$tmp/$name
	# --raw-csv: names as perf prints them (perf's @plt, not the spreadsheet-safe '@plt)
	# annotate.csv: the sampled addresses, where llvm-symbolizer tells libdw's lines from libbfd's
	$to "$PROG" -q -o "$o" --raw-csv --reports default,annotate --symfs "$td/symfs" "${kopt[@]}" "$td/$name.data" 2> "$tmp/stderr"
	compare_run "$name" $? "$o" "$exp" "$td/symfs"
done
exit $fail

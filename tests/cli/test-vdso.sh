#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# [vdso] without a copy in the build-id cache: a pipe-mode recording holds no
# build ids, and perf report then takes its own process's vdso; readperf
# does the same when the running kernel is the recorded one (the vdso is the
# kernel's), and when a file's recorded [vdso] build id is its own vdso's.
# A clock_gettime loop recorded here, in pipe mode, and to a file whose
# build-id cache (PERF_BUILDID_DIR) perf report is given but readperf is
# not: the [vdso] rows, self samples per function and per address, must be
# perf report's on the same data (--unknown-addresses: perf's 0x7a1 rows).
# (perf report without the cache names nothing in a file's [vdso]: 0xb5f
# where readperf, by the build id, has __vdso_clock_gettime.)
. "$(dirname "$0")/testlib.sh"

command -v perf > /dev/null && command -v gcc > /dev/null || { echo "skip - vdso: no perf or gcc"; exit 0; }
printf '%s\n' '#include <time.h>' \
	'int main(void) { struct timespec t; long s = 0; for (long i = 0; i < 3000000; i++) { clock_gettime(CLOCK_MONOTONIC, &t); s += t.tv_nsec; } return s == 1; }' \
	> "$tmp/vd.c"
gcc -O2 -o "$tmp/vd" "$tmp/vd.c" || { echo "not ok - vdso: gcc failed"; exit 0; }
if ! perf record -q -F 999 -o - -- "$tmp/vd" > "$tmp/vd.pipe" 2> /dev/null ||
   ! PERF_BUILDID_DIR=$tmp/pcache perf record -q -F 999 -o "$tmp/vd.data" -- "$tmp/vd" > /dev/null 2>&1; then
	echo "skip - vdso: perf record refused"
	exit 0
fi
mkdir -p "$tmp/empty"

# "N name" per [vdso] row of perf report, addresses as readperf's --unknown-addresses prints them
perf_vdso() {	# FILE|- (stdin)
	perf report -i "$1" --stdio --no-children --sort dso,sym -F sample,dso,sym 2> /dev/null |
		awk '$2 == "[vdso]" { f = $4; if (f ~ /^0x/) { sub(/^0x0*/, "0x", f); f = "[unknown] " f } print $1, f }' | sort
}
readperf_vdso() {	# OUTDIR
	awk -F, '$2 == "[vdso]" { print $6, $3 }' "$1/results.csv" | sort
}

for how in pipe file; do
	if [ $how = pipe ]; then
		want=$(perf_vdso - < "$tmp/vd.pipe")
		"$PROG" -q -o "$tmp/$how" --reports results --buildid-dir "$tmp/empty" --no-symbol-cache \
			--unknown-addresses - < "$tmp/vd.pipe"
	else
		want=$(PERF_BUILDID_DIR=$tmp/pcache perf_vdso "$tmp/vd.data")
		"$PROG" -q -o "$tmp/$how" --reports results --buildid-dir "$tmp/empty" --no-symbol-cache \
			--unknown-addresses "$tmp/vd.data"
	fi
	got=$(readperf_vdso "$tmp/$how")
	check "[vdso] ($how, no build-id cache): perf report's rows ($(echo "$want" | grep -v unknown | tr '\n' ' '))" \
		test -n "$want" -a "$got" = "$want" -a -n "$(echo "$want" | grep -v unknown)"
done
exit 0

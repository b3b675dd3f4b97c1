#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Robustness: deterministic mutations (bit flips, byte sets, truncations,
# size-field and u64 edits; `gen-perf --mutate`) of a few synthetic files and,
# when present, of the external fixtures, through readperf.  Each run must
# exit 0 or 2 within 10 s (no crash, no signal, no hang) and, in a sanitizer
# build, print no sanitizer report.
# Environment: PROG, GEN; MUTATIONS (total runs, default 300), MUTATE_SEED
# (default 1), MUTATE_KEEP (directory to copy failing inputs to).
# One ok/not ok line per input; every failure is listed with its file name
# (mut-SEED-INDEX.data: rerun with gen-perf --mutate SEED INDEX+1 INPUT DIR).
set -u
export LC_ALL=C
: "${PROG:=build/readperf}" "${GEN:=build/tests/gen/gen-perf}"
: "${MUTATIONS:=300}" "${MUTATE_SEED:=1}"

if [ ! -x "$GEN" ]; then echo "skip - gen-perf not built ($GEN)"; exit 0; fi
if [ ! -x "$PROG" ]; then echo "skip - readperf not built ($PROG)"; exit 0; fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! "$GEN" "$tmp/gen" > "$tmp/gen.out" 2>&1; then
	echo "not ok - gen-perf failed: $(head -c 300 "$tmp/gen.out")"
	exit 0
fi

inputs=()
for f in kernel-le samples-be pipe-le compressed-le compressed2-be readfmt-le attr136-be; do
	inputs+=("$tmp/gen/$f.data")
done
shared=${READPERF_SHARED:-$(cd "$(dirname "$0")/../../.." && pwd)/shared}
ext=$shared/testdata-external
if [ -d "$ext" ]; then
	# small ones only: a mutation run should stay quick
	while IFS= read -r f; do
		inputs+=("$f")
	done < <(find "$ext" -type f -size -300k ! -name '*.md' ! -name '*.bin' ! -name '*.so*' 2>/dev/null |
		 grep -Ei 'perf|\.data' | sort | head -8)
else
	echo "skip - no external fixtures ($ext): synthetic inputs only"
fi

n_in=${#inputs[@]}
per=$(( (MUTATIONS + n_in - 1) / n_in ))
left=$MUTATIONS
seed=$MUTATE_SEED
for in in "${inputs[@]}"; do
	[ "$left" -gt 0 ] || break
	n=$per
	[ "$n" -le "$left" ] || n=$left
	left=$((left - n))
	mdir=$tmp/mut
	rm -rf "$mdir"
	if ! "$GEN" --mutate "$seed" "$n" "$in" "$mdir" > "$tmp/mut.out" 2>&1; then
		echo "not ok - gen-perf --mutate $seed $n $in: $(head -c 200 "$tmp/mut.out")"
		continue
	fi
	bad=0
	for m in "$mdir"/mut-*.data; do
		rm -rf "$tmp/o"
		timeout 10 "$PROG" -q -o "$tmp/o" "$m" > /dev/null 2> "$tmp/err"
		rc=$?
		why=
		case $rc in
		0|2) ;;
		124) why="hang (killed after 10 s)" ;;
		*) why="exit $rc" ;;
		esac
		if grep -Eq 'Sanitizer|runtime error:|LeakSanitizer' "$tmp/err"; then
			why="${why:+$why, }sanitizer: $(grep -Em1 'Sanitizer|runtime error:' "$tmp/err" | cut -c1-160)"
		fi
		if [ -n "$why" ]; then
			bad=$((bad + 1))
			echo "  $(basename "$in") $(basename "$m"): $why"
			if [ -n "${MUTATE_KEEP:-}" ]; then
				mkdir -p "$MUTATE_KEEP"
				cp "$m" "$MUTATE_KEEP/$(basename "$in").$(basename "$m")"
			fi
		fi
	done
	if [ $bad -eq 0 ]; then
		echo "ok - $n mutations of $(basename "$in") (seed $seed): exit 0 or 2, no sanitizer report"
	else
		echo "not ok - $bad of $n mutations of $(basename "$in") (seed $seed) crashed, hung or failed"
	fi
	seed=$((seed + 1))
done
exit 0

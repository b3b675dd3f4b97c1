#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Out of memory ends the run with exit 3 and a message, never with a wrong
# report.  An LD_PRELOAD shim (tests/cli/oom-shim.c, built here with $CC)
# lets readperf's allocations succeed N times, then fails every one; N
# sweeps evenly over all the allocations a recording's analysis makes
# (counted by the shim in an unfailed run), through symbol loading (ELF
# symbol tables, C++ demangling, source lines, inlines, kallsyms, the
# unwinder's files); a second sweep fails only the one allocation after
# the Nth.  For every N: exit 0 with reports byte for byte those of the
# unfailed run, or exit 3 with a line starting "readperf:" and the previous
# reports left whole (the reports transaction); no crash.
#
# Only allocations called straight from readperf's own code fail
# (OOM_OWN_ONLY): libbfd 2.40's DWARF reader double-frees after a failed
# malloc, and libdw and libiberty exit(1) on one (__libdw_oom,
# xmalloc_failed), which no caller can turn into exit 3.  libbfd's own
# out-of-memory reports (bfd_error_no_memory) are still handled in dso.c.
# A sanitizer build works too: the shim comes before the sanitizer's
# runtime (verify_asan_link_order=0) and allocates through it; when the
# shim does not take effect the test skips.  OOM_SCALE=K runs K times as many points (each
# recording's count below times K).
. "$(dirname "$0")/testlib.sh"

scale=${OOM_SCALE:-1}
cc=${CC:-cc}
shim=$tmp/oom-shim.so
if ! "$cc" -O2 -shared -fPIC -o "$shim" "$root/tests/cli/oom-shim.c" -ldl 2> "$tmp/cc.err"; then
	echo "skip - oom: cannot build the shim with $cc: $(head -1 "$tmp/cc.err")"
	exit 0
fi
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0

# a message while every allocation fails: shown whole, escaped as terminal text in a fixed
# buffer (util/escape.c escape__term_fixed), not as "readperf: ?"; the ESC of the name as \x1b
bad=$tmp/$'no\e[31mfile.data'
OOM_OWN_ONLY=1 OOM_FAIL_AFTER=0 LD_PRELOAD=$shim "$PROG" header "$bad" > /dev/null 2> "$tmp/err"
rc=$?
check "oom: a message with no memory at all is shown, escaped (exit $rc: $(head -c 120 "$tmp/err"))" \
	test $rc -eq 3 -a "$(cat "$tmp/err")" = "readperf: $tmp/no\x1b[31mfile.data: cannot open: No such file or directory"
# a message whose terminal text passes the fixed buffer (1024 bytes): 300 \x01 bytes in the name
# are 1200 bytes as \x01 each; cut between characters with "..." and the NUL after: the
# directory ($tmp/, L bytes), then as many \x01 as fit in 1024 - 4: (1020 - L) / 4 of them
long=$tmp/$(printf '\001%.0s' $(seq 1 300))
OOM_OWN_ONLY=1 OOM_FAIL_AFTER=0 LD_PRELOAD=$shim "$PROG" header "$long" > /dev/null 2> "$tmp/err"
k=$(( (1020 - ${#tmp} - 1) / 4 ))
want="readperf: $tmp/$(printf '\\x01%.0s' $(seq 1 $k))..."
check "oom: a message past the fixed buffer is cut with '...' at a \\xNN ($k of 300 shown)" \
	test "$(cat "$tmp/err")" = "$want"

# MODE POINTS: one sweep of the recording set up by sweep(); MODE "after"
# fails every allocation after the Nth (the error and cleanup paths under
# lasting failure), "once" only the one after the Nth (a swallowed failure
# shows as a report that differs)
run_points() {
	local mode=$1 points=$(($2 * scale)) i n rc ex0=0 ex3=0 bad=() nomsg=() qmark=() changed=() once=
	local what="$name ($mode)"

	[ "$mode" = once ] && once=1
	for ((i = 0; i <= points; i++)); do
		n=$((total * i / points))
		# N = all: with two threads, how many allocations the batches handed
		# between the reading and the analysis thread take depends on when
		# the analysis thread hands them back (perffile/ordered.c): each of
		# the OQ_BATCHES = 4 batches keeps up to 9 copy chunks (OQ_ARENA_MAX
		# 1 MiB in OQ_ARENA_CHUNK 128 KiB, one more for a record that does
		# not fit) and doubles its index up to 2^20 entries from 8 (17
		# reallocs): 4 * (9 + 17) = 104 more than the counted run at most
		[ $i -eq $points ] && n=$((total + 104))
		rm -rf "$out"
		cp -r "$ref" "$out"
		env ${once:+OOM_ONCE=1} OOM_OWN_ONLY=1 OOM_FAIL_AFTER=$n LD_PRELOAD=$shim \
			"$PROG" -o "$out" "${args[@]}" 2> "$tmp/err"
		rc=$?
		case $rc in
		0)
			ex0=$((ex0 + 1))
			# the manifest's -o differs
			diff_reports -q "$ref" "$out" > /dev/null || changed+=("$n")
			;;
		3)
			ex3=$((ex3 + 1))
			grep -q '^readperf: ' "$tmp/err" || nomsg+=("$n")
			# the message itself shown when escaping it for the terminal found no memory
			grep -qx 'readperf: ?' "$tmp/err" && qmark+=("$n")
			# the previous reports whole, no staging directory left
			diff -r -q "$ref" "$out" > /dev/null || changed+=("$n")
			;;
		*)
			bad+=("$n:exit $rc:$(head -c 80 "$tmp/err" | tr '\n' ' ')")
			;;
		esac
	done
	echo "# $what: N = 0..$total in $points steps: $ex3 exit 3, $ex0 exit 0, ${#bad[@]} other"
	check "$what: every N exits 0 or 3 (${bad[*]:0:3})" test ${#bad[@]} -eq 0
	check "$what: every exit 3 says why on a readperf: line (N ${nomsg[*]:0:5})" test ${#nomsg[@]} -eq 0
	check "$what: no message shown as 'readperf: ?' (N ${qmark[*]:0:5})" test ${#qmark[@]} -eq 0
	check "$what: reports are the unfailed run's or the previous ones, byte for byte (N ${changed[*]:0:5})" \
		test ${#changed[@]} -eq 0
	check "$what: some N fail (exit 3: $ex3)" test $ex3 -gt 0
	check "$what: N = all allocations succeeds (exit 0: $ex0)" test $ex0 -gt 0
}

# NAME AFTER ONCE [OPTIONS...]: the sweeps over one recording, AFTER and ONCE points
sweep() {
	local name=$1 after=$2 once=$3 out=$tmp/out-$1 ref=$tmp/ref-$1 total rc ks args
	shift 3
	ks=$td/kallsyms
	[ -f "$td/$name.kallsyms" ] && ks=$td/$name.kallsyms
	args=(-q --symfs "$td/symfs" --kallsyms "$ks" "$@" "$td/$name.data")

	"$PROG" -o "$ref" "${args[@]}" 2> "$tmp/err"
	rc=$?
	check "$name: the unfailed run exits 0 (exit $rc)" test $rc -eq 0
	rm -f "$tmp/count"
	OOM_OWN_ONLY=1 OOM_COUNT=$tmp/count OOM_MARK=$tmp/mark LD_PRELOAD=$shim \
		"$PROG" -o "$tmp/counted" "${args[@]}" 2> "$tmp/err"
	rc=$?
	if [ ! -e "$tmp/mark" ] || [ ! -s "$tmp/count" ] || [ "$rc" -ne 0 ]; then
		echo "skip - oom: the shim does not take effect: exit $rc, $(head -1 "$tmp/err")"
		exit 0
	fi
	check "$name: the shim changes nothing when no allocation fails" diff_reports -q "$ref" "$tmp/counted"
	total=$(cat "$tmp/count")
	run_points after "$after"
	run_points once "$once"
}

sweep work 6 8			# ELF symbols, kallsyms
sweep cxx 6 8			# C++ demangling, source lines
sweep inl 4 6 --inline		# inlined functions
sweep callgraph-dwarf 3 4	# the unwinder's dso files
sweep systemwide-g 3 4		# many dsos, kernel modules

# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the tests/cli/test-*.sh scripts (not a test itself): the
# readperf binary ($PROG), the generator ($GEN), testdata/ ($td), a temporary
# directory ($tmp, removed at exit, also $HOME so no build-id cache is used, and
# $XDG_CACHE_HOME: the symbol cache),
# the symbol options of the shipped recordings (${sym[@]}), the shared fixtures'
# directory ($shared), check() and the
# skips skip_unless(), need_gen() and need_python().
set -u
export LC_ALL=C
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PROG=${PROG:-$root/build/readperf}
case $PROG in /*) ;; *) PROG=$root/$PROG ;; esac
GEN=${GEN:-$root/build/tests/gen/gen-perf}
case $GEN in /*) ;; *) GEN=$root/$GEN ;; esac
td=$root/testdata
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home
mkdir -p "$HOME"
# the symbol cache of these runs: the test's own, never the user's
export XDG_CACHE_HOME=$tmp/cache
# no debuginfod server asked (Debian's profile sets DEBUGINFOD_URLS): test-debuginfod.sh starts its own
unset DEBUGINFOD_URLS
sym=(--symfs "$td/symfs" --kallsyms "$td/kallsyms")
# the shared fixtures (testdata-external/), beside the checkout unless $READPERF_SHARED says
shared=${READPERF_SHARED:-$root/../shared}
# srcline_oracle: llvm-symbolizer's line of an address
. "$root/tests/cli/oracle.sh"

# the reports of two runs whose commands differ (-j, -o, the input's name) are the same: diff -r
# of the directories but their manifest.csv, which says what each command was (README "Reports")
diff_reports() {
	diff -r -x manifest.csv "$@"
}

# the files of output directory DIR but its manifest, one line
reports_in() {
	ls "$1" | grep -vx manifest.csv | tr '\n' ' ' | sed 's/ $//'
}

# no message from readperf in FILE (a sanitizer build adds its own summary lines)
quiet_stderr() {
	! grep -q '^readperf:' "$1"
}

# CSV (RFC 4180, no newlines inside fields) to tab-separated fields
csv2tsv() {
	awk '{
		out = ""; f = ""; q = 0; n = length($0)
		for (i = 1; i <= n; i++) {
			c = substr($0, i, 1)
			if (q) {
				if (c == "\"") {
					if (substr($0, i + 1, 1) == "\"") { f = f c; i++ } else q = 0
				} else f = f c
			} else if (c == "\"") q = 1
			else if (c == ",") { out = out f "\t"; f = "" }
			else f = f c
		}
		print out f
	}' "$@"
}

node_check() {	# NAME SCRIPT ARGS...: a tests/js script's ok/not ok lines, prefixed; skip on exit 77
	local name=$1 script=$2 rc
	shift 2
	if ! command -v node > /dev/null; then
		echo "skip - $name: no node"
		return
	fi
	node "$root/tests/js/$script" "$@" > "$tmp/node.out" 2>&1
	rc=$?
	if [ $rc -eq 77 ]; then
		echo "skip - $name: $(head -1 "$tmp/node.out")"
		return
	fi
	sed "s/^\(not \)\{0,1\}ok - /&$name: /" "$tmp/node.out" | grep -E '^(not )?ok - '
	check "$name: the driver ran to its end (exit $rc$(grep -v -E '^(not )?ok - ' "$tmp/node.out" | head -c 300))" \
		test $rc -eq 0 -o "$(grep -c '^not ok - ' "$tmp/node.out")" -gt 0
}

skip_unless() {	# NAME REASON COMMAND...: skip the whole test (REASON) unless COMMAND succeeds
	local name=$1 why=$2
	shift 2
	if ! "$@" > /dev/null 2>&1; then
		echo "skip - $name: $why"
		exit 0
	fi
}

need_gen() {	# NAME: skip the whole test when tests/gen is not built
	skip_unless "$1" "gen-perf not built ($GEN)" test -x "$GEN"
}

need_python() {	# NAME: skip the whole test without python3, else set $py to it
	py=$(command -v python3)
	skip_unless "$1" "no python3" test -n "$py"
}

# compare_run LABEL RC OUTDIR EXPECTED: readperf ended with RC (its stderr in
# $tmp/stderr) writing OUTDIR; compare-perf.sh against perf's EXPECTED
# directory; fail=1 on any failure
compare_run() {	# (SYMFS, a 5th argument: compare-perf.sh -s SYMFS)
	local label=$1 rc=$2
	if [ "$rc" -ne 0 ]; then
		echo "not ok - $label readperf: exit $rc: $(head -1 "$tmp/stderr")"
		fail=1
		[ "$rc" -ge 124 ] && return
	fi
	"$root/tests/cli/compare-perf.sh" -n "$label" ${5:+-s "$5"} "$3" "$4" || fail=1
}

check() {	# DESCRIPTION, then a command that must succeed
	local what=$1
	shift
	if "$@"; then echo "ok - $what"; else echo "not ok - $what"; fi
}

if [ ! -x "$PROG" ]; then
	echo "skip - $(basename "$0" .sh): no readperf binary at $PROG"
	exit 0
fi

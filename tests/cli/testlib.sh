# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by tests/cli/test-diff.sh and test-folded.sh (not a test itself):
# the readperf binary ($PROG), testdata/ ($td), a temporary directory ($tmp,
# removed at exit, also $HOME so no build-id cache is used), the symbol
# options of the shipped recordings (${sym[@]}) and check().
set -u
export LC_ALL=C
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PROG=${PROG:-$root/build/readperf}
case $PROG in /*) ;; *) PROG=$root/$PROG ;; esac
td=$root/testdata
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home
mkdir -p "$HOME"
sym=(--symfs "$td/symfs" --kallsyms "$td/kallsyms")

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

check() {	# DESCRIPTION, then a command that must succeed
	local what=$1
	shift
	if "$@"; then echo "ok - $what"; else echo "not ok - $what"; fi
}

if [ ! -x "$PROG" ]; then
	echo "skip - $(basename "$0" .sh): no readperf binary at $PROG"
	exit 0
fi

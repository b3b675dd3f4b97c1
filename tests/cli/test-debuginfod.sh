#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-debuginfod.sh: binaries and debug files absent here, from Debian's debuginfod server
# started by the test on 127.0.0.1 (debuginfod -F DIR: it serves the ELF files of DIR by
# build id).  A small program built with -g and a build id is recorded with perf, then
# moved into DIR; the analysis with an empty --symfs and --buildid-dir (HOME and
# XDG_CACHE_HOME in $tmp: no cache helps) and DEBUGINFOD_URLS at the server writes the
# results.csv and lines.csv of the analysis with the binary in place, byte for byte, and
# says the fetch once with its size.  Likewise a stripped program whose debug file only
# the server has (source lines from the fetched debug info), readperf annotate on the
# fetched binary, the symbol cache (a "none" while the server is down is not kept), a
# server that is down (one warning, exit 0, the results without symbols) and
# --no-debuginfod (no request: libdebuginfod's cache stays empty).
# Skips without debuginfod, curl, gcc, perf or perf_event_open.
#   PROG=build/readperf tests/cli/test-debuginfod.sh
. "$(dirname "$0")/testlib.sh"
for t in debuginfod curl gcc perf python3 objcopy strip readelf; do
	skip_unless debuginfod "no $t" command -v $t
done
unset DEBUGINFOD_URLS DEBUGINFOD_CACHE_PATH DEBUGINFOD_PROGRESS DEBUGINFOD_VERBOSE
# libdebuginfod (and libcurl, GnuTLS...: 22 ms of each start) is opened only when a server is
# asked; the fetches below show that it then is
check "debuginfod: readperf does not link libdebuginfod (dlopen at the first question)" \
	eval '! readelf -d "$PROG" | grep -E "NEEDED.*(libdebuginfod|libcurl)"'
srv_pid=
# the server goes with the test, however it ends (run.sh's timeout sends SIGTERM)
trap '[ -n "$srv_pid" ] && kill "$srv_pid" 2> /dev/null; wait 2> /dev/null; rm -rf "$tmp"' EXIT
trap 'exit 143' TERM INT

cd "$tmp" || exit 1
mkdir -p build served empty bid
cat > prog.c << 'EOF'
#include <stdlib.h>
static volatile unsigned long sink;
__attribute__((noinline)) static void hot_a(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 3;
}
__attribute__((noinline)) static void hot_b(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink ^= i * VARIANT;
}
int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 60000000;

	hot_a(n);
	hot_b(n / 2);
	return 0;
}
EOF
# prog: -g, not stripped; prog2 (another build id): stripped, its debug file apart
gcc -g -O1 -fno-omit-frame-pointer -DVARIANT=7 -Wl,--build-id -o build/prog prog.c &&
	gcc -g -O1 -fno-omit-frame-pointer -DVARIANT=5 -Wl,--build-id -o build/prog2 prog.c &&
	objcopy --only-keep-debug build/prog2 prog2.debug && strip -s build/prog2 ||
	{ echo "not ok - debuginfod: building the programs failed"; exit 1; }
id1=$(readelf -n build/prog | awk '/Build ID/ { print $3 }')
id2=$(readelf -n build/prog2 | awk '/Build ID/ { print $3 }')
if ! perf record -q -N -g -e cpu-clock:u -o p1.data -- build/prog > /dev/null 2>&1 ||
	! perf record -q -N -g -e cpu-clock:u -o p2.data -- build/prog2 > /dev/null 2>&1; then
	echo "skip - debuginfod: perf record cannot record here (perf_event_open refused?)"
	exit 0
fi
# the debug file of prog2 in a --debug-dir, for the local reference run only
mkdir -p "dd/.build-id/${id2:0:2}"
cp prog2.debug "dd/.build-id/${id2:0:2}/${id2:2}.debug"

# readperf as the tests run it: symbols only from the places the options name
rp() {	# OUTDIR, then options and the file
	local out=$1
	shift
	"$PROG" --no-symbol-cache --symfs "$tmp/empty" --buildid-dir "$tmp/bid" -o "$tmp/$out" "$@" \
		> /dev/null 2> "$tmp/$out.err"
	echo $? > "$tmp/$out.rc"
}
same() {	# DIR1 DIR2 FILE...
	local a=$1 b=$2 f
	shift 2
	for f in "$@"; do cmp -s "$a/$f" "$b/$f" || return 1; done
}

# the binaries in place: the reference
rp local1 p1.data
rp local2 --debug-dir "$tmp/dd" p2.data
check "debuginfod: the local run names hot_a" grep -q ',prog,hot_a,' local1/results.csv
check "debuginfod: the local run of the stripped program has its source lines (the debug file)" \
	grep -q 'prog.c' local2/lines.csv
"$PROG" annotate --no-symbol-cache --symfs "$tmp/empty" --buildid-dir "$tmp/bid" p1.data hot_a \
	> annotate.local 2> /dev/null

mv build/prog build/prog2 prog2.debug served/
rp absent1 p1.data
rp absent2 p2.data
check "debuginfod: without the binaries (and no DEBUGINFOD_URLS) no hot_a: they are absent here" \
	test "$(grep -c ',hot_a,' absent1/results.csv)" = 0
check "debuginfod: no DEBUGINFOD_URLS: no word of debuginfod" eval '! grep -q -i debuginfod absent1.err'

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
port=$(free_port)
debuginfod -F "$tmp/served" -p "$port" -d "$tmp/db.sqlite" > "$tmp/server.log" 2>&1 &
srv_pid=$!
url=http://127.0.0.1:$port
ready=0
for _ in $(seq 1 120); do
	if curl -s -f -o /dev/null "$url/buildid/$id1/executable" &&
		curl -s -f -o /dev/null "$url/buildid/$id2/executable" &&
		curl -s -f -o /dev/null "$url/buildid/$id2/debuginfo"; then
		ready=1
		break
	fi
	kill -0 "$srv_pid" 2> /dev/null || break
	sleep 0.5
done
if [ $ready = 0 ]; then
	echo "skip - debuginfod: the server did not serve $tmp/served within 60 s: $(tail -3 server.log | tr '\n' ' ')"
	exit 0
fi

export DEBUGINFOD_URLS=$url DEBUGINFOD_CACHE_PATH=$tmp/dcache
rp remote1 p1.data
check "debuginfod: fetched: exit 0" test "$(cat remote1.rc)" = 0
check "debuginfod: fetched: results.csv and lines.csv equal the local run's" \
	same local1 remote1 results.csv lines.csv
size1=$(stat -c %s served/prog)
check "debuginfod: the fetch is said once, with its size ($size1 bytes)" \
	test "$(grep -c "build/prog: executable fetched from $url/buildid/$id1/executable ($size1 bytes)" remote1.err)" = 1
check "debuginfod: one line said of debuginfod (ld.so's debug info is on no server: no word)" \
	test "$(grep -c -i 'debuginfod\|fetched' remote1.err)" = 1
check "debuginfod: the file is in libdebuginfod's cache" cmp -s served/prog "dcache/$id1/executable"
# only the dsos samples fell in were asked for: each build id libdebuginfod's cache has a
# directory for (a file or its "none") is one perf buildid-list --with-hits lists (not libc's)
hits=$(perf buildid-list -i p1.data --with-hits 2> /dev/null | awk '{ print $1 }')
asked=$(cd dcache && ls -d */ | tr -d /)
subset() {	# WORDS1 WORDS2: every word of the first is one of the second
	local a
	for a in $1; do echo "$2" | grep -qx "$a" || return 1; done
}
check "debuginfod: only dsos with samples asked for (asked: $(echo $asked); with hits: $(echo $hits))" \
	subset "${asked:-none}" "$hits"
rp again1 p1.data
check "debuginfod: a second run takes it from libdebuginfod's cache: the same results, no fetch said" \
	eval 'same local1 again1 results.csv lines.csv && ! grep -q fetched again1.err'

rp remote2 p2.data
check "debuginfod: stripped program: results.csv and lines.csv (source lines from the fetched debug info) equal the local run's" \
	same local2 remote2 results.csv lines.csv
check "debuginfod: stripped program: the executable and the debug info fetched, each said once" \
	eval 'test "$(grep -c "build/prog2: executable fetched" remote2.err)" = 1 &&
	      test "$(grep -c "build/prog2: debug info fetched .*($(stat -c %s served/prog2.debug) bytes)" remote2.err)" = 1'

"$PROG" annotate --no-symbol-cache --symfs "$tmp/empty" --buildid-dir "$tmp/bid" p1.data hot_a \
	> annotate.remote 2> /dev/null
check "debuginfod: readperf annotate disassembles the fetched binary as the local one" \
	eval 'grep -q hot_a annotate.local && cmp -s annotate.local annotate.remote'
"$PROG" diff --no-debuginfod --no-symbol-cache -o "$tmp/diffout" p1.data p1.data > /dev/null 2>&1
check "debuginfod: readperf diff takes --no-debuginfod" test -s diffout/diff.csv
DEBUGINFOD_CACHE_PATH=$tmp/dcache-ann "$PROG" annotate --no-debuginfod --no-symbol-cache --symfs "$tmp/empty" \
	--buildid-dir "$tmp/bid" p1.data > /dev/null 2> annotate.err
# (exit 1 also when no sampled function has symbols: whether libc has samples varies)
check "debuginfod: readperf annotate takes --no-debuginfod and asks nothing" \
	eval '! grep -q "option" annotate.err && test ! -e dcache-ann'

# --no-debuginfod: no request (libdebuginfod's cache is made at the first question: none)
DEBUGINFOD_CACHE_PATH=$tmp/dcache-no rp nodbgd p1.data --no-debuginfod
check "debuginfod: --no-debuginfod: results as without the server, no request" \
	eval 'same absent1 nodbgd results.csv lines.csv && test ! -e dcache-no && ! grep -q -i debuginfod nodbgd.err'

# the server down: a port where nothing listens
down=$(free_port)
DEBUGINFOD_URLS=http://127.0.0.1:$down DEBUGINFOD_CACHE_PATH=$tmp/dcache-down rp down1 p1.data
check "debuginfod: server down: exit 0, the results without symbols" \
	eval 'test "$(cat down1.rc)" = 0 && same absent1 down1 results.csv lines.csv'
check "debuginfod: server down: one warning naming it (not one per dso)" \
	test "$(grep -c "warning: debuginfod: http://127.0.0.1:$down: " down1.err)" = 1

# the symbol cache: a stripped binary in place, its debug file on the server only
cp served/prog2 build/prog2
sc() {	# OUTDIR, URLS: p2.data with the symbol cache of $tmp/symcache
	local out=$1 urls=$2
	XDG_CACHE_HOME=$tmp/symcache DEBUGINFOD_URLS=$urls DEBUGINFOD_CACHE_PATH=$tmp/dcache-sc \
		"$PROG" --symfs "$tmp/empty" --buildid-dir "$tmp/bid" -o "$tmp/$out" p2.data > /dev/null 2> "$tmp/$out.err"
}
sc sc-off ""
sc sc-down "http://127.0.0.1:$down"
check "debuginfod: symbol cache: without the debug file, no source line (the runs the cache sees)" \
	eval '! grep -q prog.c sc-off/lines.csv && ! grep -q prog.c sc-down/lines.csv'
sc sc-up "$url"
check "debuginfod: symbol cache: neither a run without DEBUGINFOD_URLS nor one with the server down kept a 'none': with the server up, the local run's results.csv and lines.csv" \
	same local2 sc-up results.csv lines.csv
sc sc-up2 "$url"
check "debuginfod: symbol cache: the next run (from the cache) the same" same local2 sc-up2 results.csv lines.csv

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# readperf record saves the binaries with samples into the build-id cache in
# perf's layout ($HOME/.debug/PATH/BUILDID/elf, .build-id/xx/rest -> ../../PATH/BUILDID),
# so after the program is rebuilt both readperf and perf report still resolve
# the old profile; -N/--no-buildid-cache saves nothing; --buildid-dir DIR saves there.
# Needs perf_event_open and a C compiler: skips without them.
. "$(dirname "$0")/testlib.sh"

cc=${CC:-cc}
if ! command -v "$cc" > /dev/null; then
	echo "skip - record build-id cache: no C compiler"
	exit 0
fi
if ! "$PROG" record -q -o "$tmp/probe.data" -- true 2> /dev/null; then
	echo "skip - record build-id cache: the kernel refuses perf_event_open here"
	exit 0
fi
mkdir -p "$tmp/bin"
cat > "$tmp/prog.c" <<'C'
#include <stdio.h>
#ifndef VERSION
#define VERSION 1
#endif
__attribute__((noipa)) unsigned long cached_hot(unsigned long n)
{
	unsigned long acc = VERSION;

	for (unsigned long i = 0; i < n; i++)
		acc = (acc ^ (acc >> 7)) * 0x9e3779b97f4a7c15UL + i;
	return acc;
}
int main(void) { printf("%lu\n", cached_hot(150000000UL) & 1); return 0; }
C
"$cc" -O2 -g -o "$tmp/bin/prog" "$tmp/prog.c"
"$PROG" record -q -F 999 -o "$tmp/p.data" -- "$tmp/bin/prog" > /dev/null
check "record: exit 0" test $? -eq 0
id=$("$PROG" header "$tmp/p.data" | awk -v p="$tmp/bin/prog" '$2 == p ":" { print $3 }')
cache=$HOME/.debug
check "record: the binary is in the cache as perf lays it out ($id)" \
	cmp -s "$tmp/bin/prog" "$cache$tmp/bin/prog/$id/elf"
check "record: .build-id/${id:0:2}/${id:2} links to it" cmp -s "$tmp/bin/prog" "$cache/.build-id/${id:0:2}/${id:2}/elf"

# rebuilt: another build id at the recorded path
"$cc" -O2 -g -DVERSION=2 -o "$tmp/bin/prog" "$tmp/prog.c"
"$PROG" -o "$tmp/out" --reports results "$tmp/p.data" > /dev/null 2> "$tmp/err"
check "rebuilt: readperf resolves cached_hot through the cache" grep -q "^cpu-clock,prog,cached_hot," "$tmp/out/results.csv"
check "rebuilt: said once, no 'not used'" \
	test "$(grep -c 'symbols from .*/.debug/.build-id/' "$tmp/err")" -eq 1 -a "$(grep -c 'not used' "$tmp/err")" -eq 0
if command -v perf > /dev/null; then
	perf report -i "$tmp/p.data" --stdio --sort dso,sym 2> /dev/null | grep -v '^#' > "$tmp/perf.out"
	check "rebuilt: perf report resolves cached_hot through the same cache" grep -q '\[\.\] cached_hot' "$tmp/perf.out"
else
	echo "skip - rebuilt: perf is not installed"
fi

# -N: nothing saved; --buildid-dir: saved there
HOME=$tmp/h2 "$PROG" record -q -N -F 999 -o "$tmp/n.data" -- "$tmp/bin/prog" > /dev/null
check "record -N: no build-id cache made" test ! -e "$tmp/h2/.debug"
"$PROG" record -q --buildid-dir "$tmp/bd" -F 999 -o "$tmp/b.data" -- "$tmp/bin/prog" > /dev/null
id2=$("$PROG" header "$tmp/b.data" | awk -v p="$tmp/bin/prog" '$2 == p ":" { print $3 }')
check "record --buildid-dir DIR: the binary there ($id2)" cmp -s "$tmp/bin/prog" "$tmp/bd/.build-id/${id2:0:2}/${id2:2}/elf"
exit 0

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A profiled binary that is missing or was rebuilt (testdata/rebuilt.data,
# testdata/src/rebuilt.c): one warning names the dso, the path looked for, the
# build id wanted and its share of the samples; --unknown-addresses gives a
# row per address as perf shows them; the build-id cache (perf's layout,
# testdata/buildid-cache, through --buildid-dir or $PERF_BUILDID_DIR) still
# resolves the old profile, said once, without a "not used" warning; where
# the binary at the recorded path is the same build stripped, the cache's
# unstripped copy gives the symbols (perf takes the first file with a
# .symtab); --unknown-addresses in a non-PIE executable prints perf's
# addresses (offsets in the file).
# Addresses and counts: `perf report --sort dso,sym` on the same file with an
# empty symfs printed 0x11ae 55.46%, 0x11a3 26.89%, 0x11b2 16.60%, 0x11aa 0.84%
# of 476 samples (475 in rebuilt).
. "$(dirname "$0")/testlib.sh"

ks=(--kallsyms "$td/kallsyms.boot2")
f=$td/rebuilt.data
mkdir -p "$tmp/empty"

# the symfs has the rebuilt binary (another build id), no cache
"$PROG" -o "$tmp/m" --reports results --symfs "$td/symfs" "${ks[@]}" "$f" > /dev/null 2> "$tmp/m.err"
check "rebuilt binary: exit 0" test $? -eq 0
check "rebuilt binary: one 'no symbols' warning naming rebuilt, the build id wanted and 99.79% of the samples" \
	test "$(grep -c 'warning: rebuilt: no symbols (looked for .*/readperf-testdata/bin/rebuilt with build id eb28ef79b8710b8caf7f39b5529b8217f44dad7f): 475 samples (99.79%) are \[unknown\]' "$tmp/m.err")" -eq 1
check "rebuilt binary: one row rebuilt,[unknown] with the 475 samples" grep -q '^cpu-clock,rebuilt,\[unknown\],,0,475,' "$tmp/m/results.csv"

# a missing binary: the same warning; --unknown-addresses: perf's addresses
"$PROG" -o "$tmp/d" --reports results --symfs "$tmp/empty" "${ks[@]}" "$f" > /dev/null 2> "$tmp/d.err"
check "missing binary: exactly one warning about rebuilt" test "$(grep -c 'rebuilt' "$tmp/d.err")" -le 2 -a \
	"$(grep -c 'warning: rebuilt: no symbols .*475 samples (99.79%)' "$tmp/d.err")" -eq 1
"$PROG" -q -o "$tmp/u" --reports results --symfs "$tmp/empty" "${ks[@]}" --unknown-addresses "$f"
got=$(awk -F, '$2 == "rebuilt" { print $3 " " $8 }' "$tmp/u/results.csv" | tr '\n' ';')
check "--unknown-addresses: a row per address as perf (got $got)" \
	test "$got" = "[unknown] 0x11ae 55.4622;[unknown] 0x11a3 26.8908;[unknown] 0x11b2 16.5966;[unknown] 0x11aa 0.8403;"

# the build-id cache has the recorded binary
for how in option env; do
	if [ $how = option ]; then
		"$PROG" -o "$tmp/c" --reports results --symfs "$td/symfs" "${ks[@]}" --buildid-dir "$td/buildid-cache" "$f" \
			> /dev/null 2> "$tmp/c.err"
	else
		PERF_BUILDID_DIR=$td/buildid-cache "$PROG" -o "$tmp/c" --reports results --symfs "$td/symfs" "${ks[@]}" "$f" \
			> /dev/null 2> "$tmp/c.err"
	fi
	check "build-id cache ($how): rebuilt_hot resolves with its 475 samples" \
		grep -q '^cpu-clock,rebuilt,rebuilt_hot,/readperf-testdata/src/rebuilt.c,13,475,' "$tmp/c/results.csv"
	check "build-id cache ($how): said once, no 'not used' and no 'no symbols' warning" \
		test "$(grep -c 'differs from the recording: symbols from .*buildid-cache/.build-id/eb/28ef79b8710b8caf7f39b5529b8217f44dad7f/elf instead' "$tmp/c.err")" -eq 1 -a \
		"$(grep -c 'not used\|no symbols' "$tmp/c.err")" -eq 0
done
# the binary at its path is the recorded build stripped; the cache has it whole
mkdir -p "$tmp/sfs/readperf-testdata/bin"
strip -o "$tmp/sfs/readperf-testdata/bin/rebuilt" "$td/buildid-cache/.build-id/eb/28ef79b8710b8caf7f39b5529b8217f44dad7f/elf"
"$PROG" -o "$tmp/s" --reports results --symfs "$tmp/sfs" "${ks[@]}" --buildid-dir "$td/buildid-cache" \
	--no-symbol-cache "$f" > /dev/null 2> "$tmp/s.err"
check "stripped at its path, whole in the cache: rebuilt_hot resolves with its 475 samples" \
	grep -q '^cpu-clock,rebuilt,rebuilt_hot,/readperf-testdata/src/rebuilt.c,13,475,' "$tmp/s/results.csv"
check "stripped at its path, whole in the cache: no warning" test ! -s "$tmp/s.err"

# --unknown-addresses in a stripped non-PIE executable: perf prints the
# offset in the file (map__map_ip), the ELF address less 0x400000 there;
# the figures are perf report's on the same recording
if command -v perf > /dev/null && command -v gcc > /dev/null; then
	printf 'volatile unsigned long n;\nint main(void) { for (unsigned long i = 0; i < 300000000UL; i++) n += i; return 0; }\n' > "$tmp/np.c"
	if gcc -O1 -no-pie -fno-pie -s -o "$tmp/nopie" "$tmp/np.c" &&
	   perf record -q -F 999 --no-buildid-cache -o "$tmp/np.data" -- "$tmp/nopie" > /dev/null 2>&1; then
		want=$(perf report -i "$tmp/np.data" --stdio --no-children --sort dso,sym -F sample,dso,sym 2> /dev/null |
			awk '$2 == "nopie" && $4 ~ /^0x/ { a = $4; sub(/^0x0*/, "0x", a); print a, $1 }' | sort)
		"$PROG" -q -o "$tmp/np" --reports results --buildid-dir "$tmp/empty" --no-symbol-cache --unknown-addresses \
			"$tmp/np.data"
		got=$(awk -F, '$2 == "nopie" { sub(/^\[unknown\] /, "", $3); print $3, $6 }' "$tmp/np/results.csv" | sort)
		check "--unknown-addresses, stripped non-PIE: perf's addresses and samples ($(echo $want | tr '\n' ' '))" \
			test -n "$want" -a "$got" = "$want"
	else
		echo "skip - --unknown-addresses, non-PIE: gcc -no-pie or perf record failed"
	fi
else
	echo "skip - --unknown-addresses, non-PIE: no perf or gcc"
fi
# --unknown-addresses on addresses in no map (a frame-pointer chain that read a non-address):
# a row per address, as perf report --children prints them (dso [unknown], the address as its
# symbol; perf writes 0 as 0000000000000000); before, one [unknown] row of them all
n=regress-readperf
"$PROG" -q -o "$tmp/nm" --reports results --symfs "$td/symfs" --kallsyms "$td/$n.kallsyms" --unknown-addresses \
	"$td/$n.data"
got=$(awk -F, '$2 == "[unknown]" { sub(/^\[unknown\] /, "", $3); printf "%s %.2f%%;", $3, $11 }' "$tmp/nm/results.csv")
if command -v perf > /dev/null; then
	want=$(perf report -i "$td/$n.data" --symfs "$td/symfs" --kallsyms "$td/$n.kallsyms" --children --sort dso,sym \
		--stdio -g none 2> /dev/null | awk '$3 == "[unknown]" { a = $5; sub(/^0x0*/, "0x", a); if (a == "0x" || a ~ /^0+$/) a = "0x0"
			printf "%s %s;", a, $1 }')
else
	want="0x0 0.18%;0x7fe06e1e18a8 0.09%;"	# perf report 6.1's, as above
fi
check "--unknown-addresses, addresses in no map: perf report --children's rows ($want)" test "$got" = "$want"
# the cache's copy is taken only for a binary without functions: one that keeps its .symtab and
# has its DWARF in a .gnu_debuglink file still gets its lines from there (hot at dl.c:2), also
# when the cache holds the binary as perf record leaves it
if command -v perf > /dev/null && command -v gcc > /dev/null; then
	printf 'volatile unsigned long n;\nvoid hot(void) { for (unsigned long i = 0; i < 300000000UL; i++) n += i; }\nint main(void) { hot(); return 0; }\n' > "$tmp/dl.c"
	if gcc -g -O1 -o "$tmp/dl" "$tmp/dl.c" && objcopy --only-keep-debug "$tmp/dl" "$tmp/dl.debug" &&
	   strip --strip-debug "$tmp/dl" && objcopy --add-gnu-debuglink="$tmp/dl.debug" "$tmp/dl" &&
	   perf record -q -F 999 --no-buildid-cache -o "$tmp/dl.data" -- "$tmp/dl" > /dev/null 2>&1; then
		id=$(readelf -n "$tmp/dl" | awk '/Build ID/ { print $3 }')
		mkdir -p "$tmp/dlcache/.build-id/${id:0:2}/${id:2}"
		cp "$tmp/dl" "$tmp/dlcache/.build-id/${id:0:2}/${id:2}/elf"
		for c in empty dlcache; do
			"$PROG" -q -o "$tmp/dl-$c" --reports results --buildid-dir "$tmp/$c" --no-symbol-cache "$tmp/dl.data"
			check "debuglink file beside a cached copy ($c): hot's line from dl.debug" \
				grep -q "^[^,]*,dl,hot,$tmp/dl.c,2," "$tmp/dl-$c/results.csv"
		done
	else
		echo "skip - debuglink file beside a cached copy: gcc, objcopy or perf record failed"
	fi
fi
exit 0

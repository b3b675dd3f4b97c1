#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The persistent symbol cache (decode/symcache.c): a second run reads the
# symbols and source lines of each binary from the cache, not from the
# binary, and writes the same reports as a run without the cache (the
# reference everywhere here is --no-symbol-cache, the code path every other
# test checks against perf); what the cache lacks (new addresses, inline
# chains) is looked up in the binary; a rebuilt, touched or replaced binary,
# or a debug file installed where the search looks, is not hidden by a stale
# entry; a truncated or corrupt cache file is ignored and written again; the
# directory stays bounded; --no-symbol-cache neither reads nor writes.
. "$(dirname "$0")/testlib.sh"

c=$tmp/cache
# run NAME OUT CACHE-OPTION... -- ARGS...: reports into OUT, stderr into OUT.err
run() {
	local out=$1
	shift
	rm -rf "$out"
	"$PROG" -v -o "$out" "$@" > /dev/null 2> "$out.err"
}
same() {	# A B: the same reports
	diff_reports -q -x '*.err' "$1" "$2" > /dev/null
}
ks_of() {	# NAME: its kallsyms
	if [ -f "$td/$1.kallsyms" ]; then echo "$td/$1.kallsyms"; else echo "$td/kallsyms"; fi
}

# cold and warm runs against the run without the cache, on recordings of C,
# C++ (demangled names), shared libraries, threads, inlined code, DWARF stacks
for name in work cxx shlib threads inl dwarf-nofp callgraph-fp; do
	args=(--symfs "$td/symfs" --kallsyms "$(ks_of $name)" "$td/$name.data")
	rm -rf "$c"
	run "$tmp/ref" --no-symbol-cache "${args[@]}"
	run "$tmp/cold" --symbol-cache "$c" "${args[@]}"
	rc=$?
	run "$tmp/warm" --symbol-cache "$c" "${args[@]}"
	check "$name: cold run exit $rc, reports as without the cache" same "$tmp/ref" "$tmp/cold"
	check "$name: warm run, reports as without the cache" same "$tmp/ref" "$tmp/warm"
	n=$(ls "$c" 2> /dev/null | grep -c '\.sym$')
	hits=$(grep -c 'symbols from the symbol cache' "$tmp/warm.err")
	loads=$(grep -c 'symbols from /' "$tmp/warm.err")
	check "$name: the warm run reads every ELF dso ($n cache files) from the cache ($hits) and none from its files ($loads)" \
		test "$n" -gt 0 -a "$hits" -eq "$n" -a "$loads" -eq 0
	# readperf's own lines (a sanitizer build adds its summaries)
	check "$name: warm run's warnings as without the cache" \
		diff <(grep '^readperf: ' "$tmp/ref.err" | grep -v '^readperf: /.*symbol') \
		<(grep '^readperf: ' "$tmp/warm.err" | grep -v '^readperf: /.*symbol')
	check "$name: a warm run with nothing new writes no cache file" test "$(grep -c 'written' "$tmp/warm.err")" -eq 0
done

# what the cache lacks: --inline's chains, the addresses of a wider --time window
args=(--symfs "$td/symfs" --kallsyms "$(ks_of inl)" "$td/inl.data")
rm -rf "$c"
run "$tmp/ref" --no-symbol-cache --inline --folded "$tmp/ref.folded" "${args[@]}"
run "$tmp/a" --symbol-cache "$c" "${args[@]}"
run "$tmp/b" --symbol-cache "$c" --inline --folded "$tmp/b.folded" "${args[@]}"
check "inline chains after a cache without them: reports as without the cache" same "$tmp/ref" "$tmp/b"
check "inline chains after a cache without them: the same folded stacks" cmp -s "$tmp/ref.folded" "$tmp/b.folded"
args=(--symfs "$td/symfs" --kallsyms "$td/kallsyms" "$td/threads.data")
rm -rf "$c"
run "$tmp/ref" --no-symbol-cache "${args[@]}"
run "$tmp/a" --symbol-cache "$c" --time 10%/1 "${args[@]}"
run "$tmp/b" --symbol-cache "$c" "${args[@]}"
check "a cache of the first 10% of the recording, then all of it: reports as without the cache" same "$tmp/ref" "$tmp/b"
check "... and the cache file learnt the new lines (written again)" grep -q 'written' "$tmp/b.err"
run "$tmp/b" --symbol-cache "$c" "${args[@]}"
check "... after which nothing is new" test "$(grep -c 'written' "$tmp/b.err")" -eq 0

# binaries that change under the cache: a copy of the symfs to change
fs=$tmp/symfs
rm -rf "$fs" "$c"
cp -a "$td/symfs" "$fs"
bin=$fs/readperf-testdata/bin/work
args=(--symfs "$fs" --kallsyms "$td/kallsyms" "$td/work.data")
run "$tmp/a" --symbol-cache "$c" "${args[@]}"
touch -d '2001-01-01' "$bin"
run "$tmp/b" --symbol-cache "$c" "${args[@]}"
check "a touched binary is read again" grep -q 'bin/work: .* symbols from /' "$tmp/b.err"
check "... reports as before" same "$tmp/a" "$tmp/b"
cp "$fs/readperf-testdata/bin/rebuilt" "$bin"
run "$tmp/ref" --no-symbol-cache "${args[@]}"
run "$tmp/b" --symbol-cache "$c" "${args[@]}"
check "a binary replaced by another build: the warnings and reports of a run without the cache" \
	eval 'same "$tmp/ref" "$tmp/b" && diff <(grep "^readperf: " "$tmp/ref.err" | grep -v "symbol") <(grep "^readperf: " "$tmp/b.err" | grep -v "symbol")'
check "... its build-id warning said (not hidden by the cache)" grep -q 'warning: work: no symbols' "$tmp/b.err"
run "$tmp/b2" --symbol-cache "$c" "${args[@]}"
check "... and said again on the next run (a load that warned is not cached)" grep -q 'warning: work: no symbols' "$tmp/b2.err"

# a debug file installed after the cache was made, where the search looks for it
if command -v objcopy > /dev/null && command -v strip > /dev/null; then
	rm -rf "$fs" "$c"
	cp -a "$td/symfs" "$fs"
	id=$("$PROG" header "$td/work.data" | awk '/readperf-testdata\/bin\/work: / { print $NF }' | head -1)
	objcopy --only-keep-debug "$fs/readperf-testdata/bin/work" "$tmp/work.debug"
	strip -g "$bin"
	touch -r "$td/symfs/readperf-testdata/bin/work" "$bin"
	run "$tmp/a" --symbol-cache "$c" "${args[@]}"
	check "a binary without debug info: no source lines (build id $id)" \
		test -n "$id" -a "$(awk -F, 'NR > 1 && $2 == "work" && $4 != ""' "$tmp/a/lines.csv" | wc -l)" -eq 0
	mkdir -p "$fs/usr/lib/debug/.build-id/${id:0:2}"
	cp "$tmp/work.debug" "$fs/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug"
	run "$tmp/ref" --no-symbol-cache "${args[@]}"
	run "$tmp/b" --symbol-cache "$c" "${args[@]}"
	check "its debug file installed later: read (not hidden by the cache), reports as without the cache" \
		same "$tmp/ref" "$tmp/b"
	check "... with source lines now" \
		test "$(awk -F, 'NR > 1 && $2 == "work"' "$tmp/b/lines.csv" | grep -c 'work.c')" -gt 0
else
	echo "skip - symcache: no objcopy/strip for the debug file check"
fi

# damaged cache files: ignored (reports as without the cache) and written again
args=(--symfs "$td/symfs" --kallsyms "$td/kallsyms" "$td/cxx.data")
rm -rf "$c"
run "$tmp/ref" --no-symbol-cache "${args[@]}"
run "$tmp/a" --symbol-cache "$c" "${args[@]}"
bad=() n=0
for f in "$c"/*.sym; do
	cp "$f" "$tmp/good.sym"
	size=$(stat -c %s "$f")
	for how in 0 40 half -1 flip append; do
		cp "$tmp/good.sym" "$f"
		case $how in
		half) truncate -s $((size / 2)) "$f" ;;
		-1) truncate -s $((size - 1)) "$f" ;;
		flip) printf '\xff' | dd of="$f" bs=1 seek=$((size / 2)) conv=notrunc 2> /dev/null ;;
		append) printf 'garbage' >> "$f" ;;
		*) truncate -s "$how" "$f" ;;
		esac
		run "$tmp/b" --symbol-cache "$c" "${args[@]}"
		rc=$?
		n=$((n + 1))
		{ [ $rc -eq 0 ] && same "$tmp/ref" "$tmp/b" && cmp -s "$f" "$tmp/good.sym"; } || bad+=("$(basename "$f"):$how:$rc")
	done
done
check "$n damaged cache files: exit 0, reports as without the cache, the file written again whole (${bad[*]:0:3})" \
	test ${#bad[@]} -eq 0 -a $n -gt 0

# a valid checksum over nonsense: no crash, no unbounded allocation (what it
# then says is the file's word: only accidents are caught, by the CRC)
if [ -n "${py:-}" ] || py=$(command -v python3); then
	bad=()
	for seed in $(seq 1 20); do
		for f in "$c"/*.sym; do cp "$f" "$f.good"; done
		"$py" - "$seed" "$c"/*.sym <<'EOF'
import random, struct, sys, zlib
rnd = random.Random(int(sys.argv[1]))
for path in sys.argv[2:]:
    b = bytearray(open(path, 'rb').read())
    for _ in range(rnd.randint(1, 4)):
        i = rnd.randrange(32, len(b))
        b[i] = rnd.choice([0, 0xff, 0x7f, 0x80, rnd.randrange(256)])
    struct.pack_into('<I', b, 24, zlib.crc32(bytes(b[32:])))
    open(path, 'wb').write(b)
EOF
		run "$tmp/b" --symbol-cache "$c" "${args[@]}"
		rc=$?
		[ $rc -eq 0 ] || bad+=("seed $seed: exit $rc $(head -c 100 "$tmp/b.err")")
		for f in "$c"/*.sym; do mv "$f.good" "$f"; done
	done
	check "20 rounds of bytes changed under a valid CRC: exit 0 (${bad[*]:0:2})" test ${#bad[@]} -eq 0
else
	echo "skip - symcache: no python3 for the CRC mutations"
fi

# --no-symbol-cache; the default place; a place that cannot be written
rm -rf "$c"
run "$tmp/b" --symbol-cache "$c" --no-symbol-cache "${args[@]}"
check "--no-symbol-cache writes no cache" test ! -e "$c"
rm -rf "$tmp/xdg" "$HOME/.cache"
XDG_CACHE_HOME=$tmp/xdg run "$tmp/b" "${args[@]}"
check "the default cache: \$XDG_CACHE_HOME/readperf" eval 'ls "$tmp/xdg/readperf/"*.sym > /dev/null'
env -u XDG_CACHE_HOME "$PROG" -q -o "$tmp/b" "${args[@]}" 2> "$tmp/b.err"
check "without \$XDG_CACHE_HOME: ~/.cache/readperf" eval 'ls "$HOME/.cache/readperf/"*.sym > /dev/null'
# as root, an XDG_CACHE_HOME in another user's directory (sudo keeps it) is not used: ~/.cache
if [ "$(id -u)" = 0 ]; then
	rm -rf "$HOME/.cache"
	mkdir -p "$tmp/alice"
	chown 65534 "$tmp/alice"
	XDG_CACHE_HOME=$tmp/alice/.cache run "$tmp/b" "${args[@]}"
	check "root with another user's XDG_CACHE_HOME: no cache made there" test ! -e "$tmp/alice/.cache"
	check "root with another user's XDG_CACHE_HOME: ~/.cache/readperf instead" \
		eval 'ls "$HOME/.cache/readperf/"*.sym > /dev/null'
else
	echo "skip - XDG_CACHE_HOME of another user: not root"
fi
rm -rf "$c"
echo file > "$c"
run "$tmp/b" --symbol-cache "$c" "${args[@]}"
check "a cache directory that cannot be made: exit $?, reports as without the cache" same "$tmp/ref" "$tmp/b"
rm -f "$c"

# the directory stays bounded (256 MiB): two old sparse 200 MiB files (named as
# the cache names its files), the older removed first, down to 192 MiB; an
# hour-old temporary file removed
mkdir -p "$c"
truncate -s 200M "$c/00000000000000000000000000000000000000a1-0000000000000000.sym" "$c/00000000000000000000000000000000000000a2-0000000000000000.sym"
touch -d '2001-01-01' "$c/00000000000000000000000000000000000000a1-0000000000000000.sym"
touch -d '2002-01-01' "$c/00000000000000000000000000000000000000a2-0000000000000000.sym"
: > "$c/nobuildid-00000000000000a3.sym.tmp.12345"
touch -d '2001-01-01' "$c/nobuildid-00000000000000a3.sym.tmp.12345"
run "$tmp/b" --symbol-cache "$c" "${args[@]}"
total=$(du -b --apparent-size -c "$c"/*.sym | tail -1 | cut -f1)
check "an over-full cache: the least recently used file goes ($(ls "$c" | tr '\n' ' '))" \
	test ! -e "$c/00000000000000000000000000000000000000a1-0000000000000000.sym" -a "$total" -le $((192 << 20))
check "... the new files stay" eval 'ls "$c"/*.sym | grep -vq 0000000000000000.sym'
check "... an old temporary file goes" test ! -e "$c/nobuildid-00000000000000a3.sym.tmp.12345"

# what a reviewer found (all on the sanitizer build too): a FIFO in place of a
# cache file, a symlink at the temporary file's name, a forged main path, a
# foreign .sym file in the directory, readperf diff
args=(--symfs "$td/symfs" --kallsyms "$td/kallsyms" "$td/work.data")
rm -rf "$c"
run "$tmp/ref" --no-symbol-cache "${args[@]}"
run "$tmp/a" --symbol-cache "$c" "${args[@]}"
f=$(ls "$c"/3c5c*.sym)
rm "$f"
mkfifo "$f"
timeout 20 "$PROG" -q -o "$tmp/b" --symbol-cache "$c" "${args[@]}" 2> "$tmp/b.err"
rc=$?
check "a FIFO in place of a cache file: not read (exit $rc; 124 = it blocked), reports as without the cache" \
	eval '[ $rc -eq 0 ] && same "$tmp/ref" "$tmp/b"'
rm -f "$f"
echo precious > "$tmp/victim"
timeout 20 bash -c 'ln -s "$1" "$2.tmp.$$"; exec "${@:3}"' _ "$tmp/victim" "$f" \
	"$PROG" -q -o "$tmp/b" --symbol-cache "$c" "${args[@]}" 2> "$tmp/b.err"
check "a symlink at the temporary file's name: the file it points to untouched, the cache file written" \
	eval '[ "$(cat "$tmp/victim")" = precious ] && [ -f "$f" ] && [ ! -L "$f" ] && ! ls "$c" | grep -q tmp'

if [ -n "${py:-}" ] || py=$(command -v python3); then
	# the main binary's path (the unwinder opens it) set to a FIFO, the CRC made valid
	dargs=(--symfs "$td/symfs" --kallsyms "$td/dwarf-nofp.kallsyms" "$td/dwarf-nofp.data")
	rm -rf "$c"
	run "$tmp/ref" --no-symbol-cache "${dargs[@]}"
	run "$tmp/a" --symbol-cache "$c" "${dargs[@]}"
	mkfifo "$tmp/fifo"
	"$py" - "$tmp/fifo" "$c"/*.sym <<'PYEOF'
import struct, sys, zlib
fifo = sys.argv[1].encode()
for path in sys.argv[2:]:
    b = bytearray(open(path, 'rb').read())
    p = 32
    def skip_str(p):
        n, = struct.unpack_from('<I', b, p)
        return p + 4 + (0 if n == 0xffffffff else n)
    p = skip_str(p)                      # key
    n, = struct.unpack_from('<I', b, p); p += 4
    for _ in range(n):                   # probes
        p = skip_str(p) + 1 + 32
    n, = struct.unpack_from('<I', b, p)  # main path
    if n == 0xffffffff:
        continue
    b[p:p + 4 + n] = struct.pack('<I', len(fifo)) + fifo
    struct.pack_into('<Q', b, 16, len(b) - 32)
    struct.pack_into('<I', b, 24, zlib.crc32(bytes(b[32:])))
    open(path, 'wb').write(b)
PYEOF
	timeout 20 "$PROG" -q -o "$tmp/b" --symbol-cache "$c" "${dargs[@]}" 2> "$tmp/b.err"
	rc=$?
	check "a cache file naming a FIFO as the binary (valid CRC): not used (exit $rc; 124 = blocked), reports as without the cache" \
		eval '[ $rc -eq 0 ] && same "$tmp/ref" "$tmp/b"'
fi

rm -rf "$c"
mkdir -p "$c"
truncate -s 300M "$c/crash-report.sym"
touch -d '2001-01-01' "$c/crash-report.sym"
run "$tmp/b" --symbol-cache "$c" "${args[@]}"
check "an over-full directory: a .sym file the cache did not write is left alone" test -e "$c/crash-report.sym"
rm -rf "$c"
"$PROG" diff -q -o "$tmp/d" --symbol-cache "$c" --symfs "$td/symfs" --kallsyms "$td/kallsyms" \
	"$td/work.data" "$td/work.data" 2> "$tmp/d.err"
check "readperf diff writes the cache too" eval 'ls "$c"/*.sym > /dev/null 2>&1'

# libbfd is opened at its first use (decode/bfdlib.c): a warm run needs none, so with a libbfd
# of the same soname that lacks its functions first in the search path, a warm run writes the
# same reports, and a cold one stops with exit 3 and says why (no [unknown] report)
soname=$(objdump -p "$(${CC:-cc} -print-file-name=libbfd.so)" 2> /dev/null | sed -n 's/^ *SONAME *//p')
if [ -n "$soname" ] && echo 'int no_bfd_here;' | ${CC:-cc} -shared -fPIC -x c -o "$tmp/$soname" - 2> /dev/null; then
	args=(--symfs "$td/symfs" --kallsyms "$td/kallsyms" "$td/cxx.data")
	rm -rf "$c"
	run "$tmp/ref" --no-symbol-cache "${args[@]}"
	LD_LIBRARY_PATH=$tmp run "$tmp/a" --symbol-cache "$c" "${args[@]}"
	rc=$?
	check "a libbfd that cannot be loaded, cold: exit 3 (exit $rc), says which" \
		eval '[ $rc -eq 3 ] && grep -q "^readperf: cannot load $soname: .*bfd_init" "$tmp/a.err"'
	check "... and no report written" test ! -e "$tmp/a/results.csv"
	run "$tmp/b" --symbol-cache "$c" "${args[@]}"
	LD_LIBRARY_PATH=$tmp run "$tmp/a" --symbol-cache "$c" "${args[@]}"
	rc=$?
	check "... warm: libbfd not loaded (exit $rc), reports as without the cache" \
		eval '[ $rc -eq 0 ] && same "$tmp/ref" "$tmp/a"'
else
	echo "skip - no libbfd soname ($soname) or no shared object built with ${CC:-cc}"
fi

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Hostile inputs built by scripts in tests/cli (no binaries committed):
#  - an empty PERF_RECORD_COMPRESSED as the first compressed record
#    (gen-perf --compressed-empty): read with exit 0, no sanitizer report (the
#    reader called memcpy(NULL, p, 0); `make check SANITIZE=...` catches it);
#  - pipe-mode AUXTRACE payloads (gen-perf --pipe-aux): 17 MiB through a real
#    pipe, skipped by reading (it failed with "Illegal seek", exit 3); a size
#    of 2^63 by name and through a pipe: exit 2 naming the record's offset
#    (exit 2 without a message before);
#  - gzip input whose header puts the attrs or the data at 2^63: exit 2 with
#    the offset, as the uncompressed file (exit 3 "Illegal seek" before);
#  - an event_types section past the end of the file: exit 2 (it was 0 after
#    the message), the records still counted;
#  - 65,536 pipe-mode HEADER_ATTR records (gen-perf --pipe-attrs): linear, under
#    10 s (31 s before);
#  - a CALLCHAIN_DEFERRED record whose nr runs past the record (a layout of
#    the record table, checked by array_fits): exit 2 naming its offset, the
#    COMM before it counted.
. "$(dirname "$0")/testlib.sh"

need_gen "hostile inputs"
need_python "hostile inputs"
"$GEN" --compressed-empty "$tmp/ce.data"
"$PROG" -q -o "$tmp/ce" --reports stat,events "$tmp/ce.data" 2> "$tmp/ce.err"
rc=$?
check "empty COMPRESSED record: exit 0 (exit $rc)" test $rc -eq 0
check "empty COMPRESSED record: no sanitizer report" test "$(grep -c 'runtime error\|Sanitizer' "$tmp/ce.err")" -eq 0
check "empty COMPRESSED record: counted, and the COMM after it" \
	test "$(grep -c '^COMPRESSED,1,8$\|^COMM,1,40$' "$tmp/ce/stat.csv")" -eq 2

# --- pipe-mode AUXTRACE
"$GEN" --pipe-aux "$tmp/aux17.data" $((17 * 1024 * 1024))
cat "$tmp/aux17.data" | "$PROG" -q -o "$tmp/aux17" --reports stat - 2> "$tmp/aux17.err"
rc=$?
check "AUXTRACE payload of 17 MiB through a pipe: exit 0, no message (exit $rc)" \
	test $rc -eq 0 -a "$(grep -c '^readperf:' "$tmp/aux17.err")" -eq 0
check "AUXTRACE 17 MiB through a pipe: both COMMs, the round after it" \
	test "$(grep -c '^COMM,2,80$\|^FINISHED_ROUND,1,8$' "$tmp/aux17/stat.csv")" -eq 2
"$PROG" -q -o "$tmp/aux17f" --reports stat "$tmp/aux17.data"
check "AUXTRACE 17 MiB: the same read by name" cmp -s "$tmp/aux17/stat.csv" "$tmp/aux17f/stat.csv"
"$GEN" --pipe-aux "$tmp/auxh.data" 9223372036854775808
"$PROG" -q -o "$tmp/auxh" --reports stat "$tmp/auxh.data" 2> "$tmp/auxh.err"
rc=$?
check "AUXTRACE size 2^63 by name: exit 2, the record's offset ($(head -c 150 "$tmp/auxh.err"))" \
	test $rc -eq 2 -a "$(grep -c 'auxh.data: record at offset 0xc8 (200): payload of 9223372036854775808 bytes' "$tmp/auxh.err")" -eq 1
cat "$tmp/auxh.data" | "$PROG" -q -o "$tmp/auxh2" --reports stat - 2> "$tmp/auxh2.err"
rc=$?
check "AUXTRACE size 2^63 through a pipe: exit 2, the payload's offset ($(head -c 150 "$tmp/auxh2.err"))" \
	test $rc -eq 2 -a "$(grep -c 'stdin: record at offset 0xc8 (200): the stream ends 48 bytes into its payload' "$tmp/auxh2.err")" -eq 1

# --- gzip input with offsets at 2^63; an event_types section past the end
"$py" - "$td/work.data" "$tmp" << 'PY'
import gzip, struct, sys
d = open(sys.argv[1], 'rb').read()
for name, off in (('attrs', 24), ('data', 40)):
    e = bytearray(d)
    struct.pack_into('<Q', e, off, 1 << 63)
    open('%s/big-%s.data.gz' % (sys.argv[2], name), 'wb').write(gzip.compress(bytes(e)))
e = bytearray(d)
struct.pack_into('<QQ', e, 56, 1 << 40, 64)
open('%s/evtypes.data' % sys.argv[2], 'wb').write(e)
PY
for n in attrs data; do
	"$PROG" -q -o "$tmp/bg" --reports stat "$tmp/big-$n.data.gz" 2> "$tmp/bg.err"
	rc=$?
	check "gzip input, $n at 2^63: exit 2 with the offset ($(head -1 "$tmp/bg.err" | head -c 150))" \
		test $rc -eq 2 -a "$(grep -c 'at offset 0x8000000000' "$tmp/bg.err")" -ge 1 -a "$(grep -c 'Illegal seek' "$tmp/bg.err")" -eq 0
done
"$PROG" -q -o "$tmp/et" --reports stat "$tmp/evtypes.data" 2> "$tmp/et.err"
rc=$?
check "event_types past the end of the file: exit 2 with the offset (exit $rc)" \
	test $rc -eq 2 -a "$(grep -c 'header at offset 0x38 (56): event_types section' "$tmp/et.err")" -eq 1
check "event_types past the end: the samples still counted" grep -q '^SAMPLE,' "$tmp/et/stat.csv"

# --- 65,536 pipe-mode attrs
"$GEN" --pipe-attrs "$tmp/attrs.data" 65536
timeout 30 "$PROG" -q -o "$tmp/attrs" --reports stat,events "$tmp/attrs.data"
rc=$?
check "65,536 pipe-mode attrs: done, exit 0 (exit $rc; 124 = over 30 s, a hang guard)" test $rc -eq 0
check "65,536 pipe-mode attrs: an events.csv row each" test "$(($(wc -l < "$tmp/attrs/events.csv") - 1))" -eq 65536

# --- CALLCHAIN_DEFERRED with nr past its record: PERFILE2, one attr, a COMM at
# data offset 248 (104 header + 144 attr entry), then the bad record at 248 + 24
"$py" - "$tmp/ccd.data" <<'PY'
import struct, sys
attr = bytearray(128)
struct.pack_into('<IIQQQ', attr, 0, 1, 128, 0, 1000, 0x1 | 0x2)	# cpu-clock, IP|TID
entry = bytes(attr) + struct.pack('<QQ', 0, 0)
comm = struct.pack('<IHH', 3, 0, 24) + struct.pack('<II', 7, 7) + b'prog\0\0\0\0'
ccd = struct.pack('<IHH', 22, 0, 40) + struct.pack('<QQ', 0xc00c1e, 4) + struct.pack('<QQ', 0x401000, 0x401100)
data = comm + ccd
hdr = b'PERFILE2' + struct.pack('<QQ', 104, 144) + struct.pack('<QQ', 104, len(entry))
hdr += struct.pack('<QQ', 104 + len(entry), len(data)) + struct.pack('<QQ', 0, 0) + bytes(32)
open(sys.argv[1], 'wb').write(hdr + entry + data)
PY
"$PROG" -q -o "$tmp/ccd" --reports stat "$tmp/ccd.data" 2> "$tmp/ccd.err"
rc=$?
check "CALLCHAIN_DEFERRED nr 4 in a record holding 2: exit 2 (exit $rc)" test $rc -eq 2
check "CALLCHAIN_DEFERRED: the message names the record's offset (0x110) and the nr" \
	grep -q '0x110.*callchain nr 4 exceeds the record\|callchain nr 4 exceeds the record.*0x110' "$tmp/ccd.err"
check "CALLCHAIN_DEFERRED: the COMM before it is counted" grep -q '^COMM,1,24$' "$tmp/ccd/stat.csv"
exit 0

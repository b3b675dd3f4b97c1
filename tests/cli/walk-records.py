#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# walk-records.py FILE: an independent walk of a PERFILE2 (little-endian) file's
# data section, record header by record header, as the format defines it
# (tools/perf/util/header.c, session.c): prints "TYPE COUNT" per record type
# number, sorted. AUXTRACE carries its payload after the record (u64 size at +8);
# TRACING_DATA too when the record is perf's 16 bytes (u32 size at +8), while
# simpleperf's covers the data itself. Exit 1 on a record that does not fit.
import struct, sys
from collections import Counter

data = open(sys.argv[1], 'rb').read()
if data[:8] != b'PERFILE2':
    sys.exit('not a little-endian PERFILE2 file')
doff, dsize = struct.unpack_from('<QQ', data, 40)
pos, end, counts = doff, doff + dsize, Counter()
while pos < end:
    if end - pos < 8:
        sys.exit(f'record at {pos:#x}: a header does not fit')
    typ, misc, size = struct.unpack_from('<IHH', data, pos)
    if size < 8 or pos + size > end:
        sys.exit(f'record at {pos:#x}: size {size} does not fit')
    payload = 0
    if typ == 71 and size >= 16:
        payload = struct.unpack_from('<Q', data, pos + 8)[0]
    elif typ == 66 and 12 <= size <= 16:
        payload = struct.unpack_from('<I', data, pos + 8)[0]
    counts[typ] += 1
    pos += size + payload
for t in sorted(counts):
    print(t, counts[t])

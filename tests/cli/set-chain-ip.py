#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# set-chain-ip.py IN OUT N:I=VALUE...: a copy of a PERFILE2 (little-endian) file
# whose N-th PERF_RECORD_SAMPLE (from 0) has VALUE as entry I of its callchain
# (entry 0 is the first after the count, a PERF_CONTEXT_* marker in perf's
# chains).  The chain's place, as the format defines it (include/uapi/linux/
# perf_event.h): after one u64 each for IDENTIFIER, IP, TID, TIME, ADDR, ID,
# STREAM_ID, CPU and PERIOD when the sample type has them.  Every event must
# have the same sample type, with PERF_SAMPLE_CALLCHAIN and without
# PERF_SAMPLE_READ (of variable size before it); exit 1 otherwise, or when
# entry I is beyond the chain.
import struct, sys

data = bytearray(open(sys.argv[1], 'rb').read())
if data[:8] != b'PERFILE2':
    sys.exit('not a little-endian PERFILE2 file')
attr_size, aoff, asize, doff, dsize = struct.unpack_from('<QQQQQ', data, 16)
types = {struct.unpack_from('<Q', data, a + 24)[0] for a in range(aoff, aoff + asize, attr_size)}
if len(types) != 1 or not next(iter(types)) & (1 << 5) or next(iter(types)) & (1 << 4):
    sys.exit('the events differ in sample type, carry no callchain or a read group')
st = types.pop()
off = 8 + 8 * sum(1 for bit in (16, 0, 1, 2, 3, 6, 9, 7, 8) if st >> bit & 1)
want = {}
for a in sys.argv[3:]:
    where, value = a.split('=')
    n, i = (int(x) for x in where.split(':'))
    want.setdefault(n, []).append((i, int(value, 0)))
pos, n = doff, 0
while pos < doff + dsize:
    typ, misc, size = struct.unpack_from('<IHH', data, pos)
    if size < 8:
        sys.exit(f'record at {pos:#x}: size {size}')
    if typ == 9 and n in want:
        nr = struct.unpack_from('<Q', data, pos + off)[0]
        for i, value in want.pop(n):
            if i >= nr or off + 8 * (2 + i) > size:
                sys.exit(f'sample {n}: no callchain entry {i} (nr {nr})')
            struct.pack_into('<Q', data, pos + off + 8 * (1 + i), value)
    n += typ == 9
    pos += size
if want:
    sys.exit(f'fewer than {max(want) + 1} samples')
open(sys.argv[2], 'wb').write(data)

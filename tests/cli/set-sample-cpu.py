#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# set-sample-cpu.py IN OUT N=CPU...: a copy of a PERFILE2 (little-endian) file
# whose N-th PERF_RECORD_SAMPLE (from 0) has CPU in its PERF_SAMPLE_CPU field.
# The field's place, as the format defines it (include/uapi/linux/perf_event.h):
# after one u64 each for IDENTIFIER, IP, TID (pid, tid), TIME, ADDR, ID and
# STREAM_ID when the sample type has them.  Every event must have the same
# sample type, with PERF_SAMPLE_CPU; exit 1 otherwise.
import struct, sys

data = bytearray(open(sys.argv[1], 'rb').read())
if data[:8] != b'PERFILE2':
    sys.exit('not a little-endian PERFILE2 file')
attr_size, aoff, asize, doff, dsize = struct.unpack_from('<QQQQQ', data, 16)
types = {struct.unpack_from('<Q', data, a + 24)[0] for a in range(aoff, aoff + asize, attr_size)}
if len(types) != 1 or not next(iter(types)) & (1 << 7):
    sys.exit('the events differ in sample type or carry no CPU')
st = types.pop()
off = 8 + 8 * sum(1 for bit in (16, 0, 1, 2, 3, 6, 9) if st >> bit & 1)
want = {int(a.split('=')[0]): int(a.split('=')[1], 0) for a in sys.argv[3:]}
pos, n = doff, 0
while pos < doff + dsize:
    typ, misc, size = struct.unpack_from('<IHH', data, pos)
    if size < 8:
        sys.exit(f'record at {pos:#x}: size {size}')
    if typ == 9:
        if n in want:
            struct.pack_into('<I', data, pos + off, want.pop(n))
        n += 1
    pos += size
if want:
    sys.exit(f'fewer than {max(want) + 1} samples')
open(sys.argv[2], 'wb').write(data)

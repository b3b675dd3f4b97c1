#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# strip-rounds.py IN OUT: a copy of the PERFILE2 file IN (host byte order,
# not compressed) without its PERF_RECORD_FINISHED_ROUND records, for make
# bench: the data section shrinks, the feature sections after it move up
# (their table's offsets are fixed).  Layout: tools/perf/util/header.h
# (struct perf_file_header: data {offset, size} at 40, the features bitmap
# at 72; the feature table at data.offset + data.size).
import struct
import sys

FINISHED_ROUND = 68

src, dst = sys.argv[1], sys.argv[2]
with open(src, 'rb') as f:
    buf = f.read()
if buf[:8] != b'PERFILE2':
    sys.exit('strip-rounds: %s is not a little-endian PERFILE2 file' % src)
data_off, data_size = struct.unpack_from('<QQ', buf, 40)
if data_off < 104 or data_off + data_size > len(buf):
    sys.exit('strip-rounds: data section %#x+%#x outside the file (%d bytes)' % (data_off, data_size, len(buf)))
nfeat = bin(int.from_bytes(buf[72:104], 'little')).count('1')

out = bytearray(buf[:data_off])
pos, end, dropped = data_off, data_off + data_size, 0
while pos + 8 <= end:
    rtype, _misc, size = struct.unpack_from('<IHH', buf, pos)
    if size < 8 or pos + size > end:
        sys.exit('strip-rounds: a record of size %d at %#x (data ends at %#x)' % (size, pos, end))
    if rtype == FINISHED_ROUND:
        dropped += size
    else:
        out += buf[pos:pos + size]
    pos += size
shift = dropped
table = bytearray(buf[end:end + 16 * nfeat])
for i in range(nfeat):
    off, size = struct.unpack_from('<QQ', table, 16 * i)
    struct.pack_into('<QQ', table, 16 * i, off - shift, size)
out += table + buf[end + 16 * nfeat:]
struct.pack_into('<Q', out, 48, data_size - dropped)
with open(dst, 'wb') as f:
    f.write(out)
print('strip-rounds: %d bytes of FINISHED_ROUND removed' % dropped, file=sys.stderr)

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# strip-rounds.py IN OUT: a copy of the PERFILE2 file IN (host byte order,
# not compressed) without its PERF_RECORD_FINISHED_ROUND records, for make
# bench: the data section shrinks, the feature sections after it move up
# (their table's offsets are fixed).  The layout: perfdata.py.
import struct
import sys

import perfdata

src, dst = sys.argv[1], sys.argv[2]
buf, data_off, end, nfeat = perfdata.load(src, 'strip-rounds')
out = bytearray(buf[:data_off])
dropped = 0
for pos, rtype, size in perfdata.records(buf, data_off, end, 'strip-rounds'):
    if rtype == perfdata.FINISHED_ROUND:
        dropped += size
    else:
        out += buf[pos:pos + size]
out += perfdata.tail(buf, end, nfeat, -dropped)
struct.pack_into('<Q', out, 48, end - data_off - dropped)
with open(dst, 'wb') as f:
    f.write(out)
print('strip-rounds: %d bytes of FINISHED_ROUND removed' % dropped, file=sys.stderr)

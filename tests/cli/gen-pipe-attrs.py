#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# gen-pipe-attrs.py OUT N: a pipe-mode perf.data of N PERF_RECORD_HEADER_ATTR
# records (cpu-clock, one id each) and a FINISHED_ROUND: each attr used to
# rename and re-prepare every attr before it (65,536 took 31 s).
import struct, sys
out, n = sys.argv[1], int(sys.argv[2])
ST = 0x1 | 0x2 | 0x4 | 0x100 | 0x40
recs=[]
for i in range(n):
    attr = bytearray(128)
    struct.pack_into('<IIQQQQ', attr, 0, 1, 128, 0, 1000, ST, 0)
    struct.pack_into('<Q', attr, 40, 1 << 18)
    recs.append(struct.pack('<IHH', 64, 0, 8 + 128 + 8) + bytes(attr) + struct.pack('<Q', i + 1))
open(out,'wb').write(b'PERFILE2' + struct.pack('<Q', 16) + b''.join(recs) + struct.pack('<IHH', 68, 0, 8))

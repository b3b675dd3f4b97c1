#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# gen-noround.py OUT.gz N: a gzip-compressed PERFILE2 file (little-endian, one
# cpu-clock attr with IP|TID|TIME|PERIOD samples) holding a COMM and N samples
# and no FINISHED_ROUND at all, in time order: N = 3M is 144 MB of records in
# a file of about 1 MB, which made the ordered queue hold everything (the
# memory grew with the uncompressed size, 1.65 GB for a 107 KB zstd file).
import gzip, struct, sys

out, n = sys.argv[1], int(sys.argv[2])
ST = 0x1 | 0x2 | 0x4 | 0x100
attr = bytearray(128)
struct.pack_into('<IIQQQQ', attr, 0, 1, 128, 0, 1000, ST, 0)
struct.pack_into('<Q', attr, 40, 1 << 18)
attr_entry = bytes(attr) + struct.pack('<QQ', 0, 0)
comm = struct.pack('<II', 7, 7) + b'noround\0' + struct.pack('<IIQ', 7, 7, 100)
head = struct.pack('<IHH', 3, 0, 8 + len(comm)) + comm
SAMPLE = struct.Struct('<IHHQIIQQ')		# header, ip, pid, tid, time, period
size = len(head) + n * SAMPLE.size
hdr = b'PERFILE2' + struct.pack('<QQ', 104, 144) + struct.pack('<QQ', 104, len(attr_entry))
hdr += struct.pack('<QQ', 104 + len(attr_entry), size) + struct.pack('<QQ', 0, 0) + bytes(32)
with gzip.open(out, 'wb', compresslevel=6) as f:
    f.write(hdr + attr_entry + head)
    chunk = bytearray()
    for i in range(n):
        chunk += SAMPLE.pack(9, 2, SAMPLE.size, 0x400000 + (i & 0xff), 7, 7, 1000 + i, 1000)
        if len(chunk) > (1 << 20):
            f.write(chunk)
            chunk = bytearray()
    f.write(chunk)

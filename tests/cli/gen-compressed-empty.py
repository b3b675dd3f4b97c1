#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# gen-compressed-empty.py OUT: a PERFILE2 file (little-endian, one cpu-clock
# attr) whose first record is a PERF_RECORD_COMPRESSED with no payload at all,
# then a COMM and a FINISHED_ROUND: what made the reader call memcpy(NULL, p, 0).
import struct, sys

ST = 0x1 | 0x2 | 0x4 | 0x100
attr = bytearray(128)
struct.pack_into('<IIQQQQ', attr, 0, 1, 128, 0, 1000, ST, 0)
struct.pack_into('<Q', attr, 40, 1 << 18)
comm = struct.pack('<II', 7, 7) + b'empty\0\0\0' + struct.pack('<IIQ', 7, 7, 100)
data = struct.pack('<IHH', 81, 0, 8) + struct.pack('<IHH', 3, 0, 8 + len(comm)) + comm + struct.pack('<IHH', 68, 0, 8)
attr_entry = bytes(attr) + struct.pack('<QQ', 0, 0)
hdr = b'PERFILE2' + struct.pack('<QQ', 104, 144) + struct.pack('<QQ', 104, len(attr_entry))
hdr += struct.pack('<QQ', 104 + len(attr_entry), len(data)) + struct.pack('<QQ', 0, 0) + bytes(32)
open(sys.argv[1], 'wb').write(hdr + attr_entry + data)

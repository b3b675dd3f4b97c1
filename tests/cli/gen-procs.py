#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# gen-procs.py OUT N: a PERFILE2 file (little-endian, one cpu-clock attr with
# IP|TID|TIME|PERIOD samples, sample_id_all) whose data section holds N COMM
# records of N processes in descending pid order, each followed by one sample
# of that process: the input that made the processes report quadratic.
import struct, sys

out, n = sys.argv[1], int(sys.argv[2])
ST = 0x1 | 0x2 | 0x4 | 0x100          # IP | TID | TIME | PERIOD
attr = bytearray(128)
struct.pack_into('<IIQQQQ', attr, 0, 1, 128, 0, 1000, ST, 0)   # type, size, config, period, sample_type, read_format
struct.pack_into('<Q', attr, 40, 1 << 18)                     # flags: sample_id_all (bit 18)
recs = []
for i in range(n):
    pid = 4000000 - i
    t = 1000 + 2 * i
    name = b'p%07d\0' % pid
    name += b'\0' * (-len(name) % 8)
    body = struct.pack('<II', pid, pid) + name + struct.pack('<IIQ', pid, pid, t)
    recs.append(struct.pack('<IHH', 3, 0, 8 + len(body)) + body)
    sample = struct.pack('<QIIQQ', 0x400000 + i, pid, pid, t + 1, 1000)
    recs.append(struct.pack('<IHH', 9, 2, 8 + len(sample)) + sample)
recs.append(struct.pack('<IHH', 68, 0, 8))                   # FINISHED_ROUND
data = b''.join(recs)
attrs_off = 104
attr_entry = bytes(attr) + struct.pack('<QQ', 0, 0)          # attr + ids section (none)
data_off = attrs_off + len(attr_entry)
hdr = b'PERFILE2' + struct.pack('<QQ', 104, 128 + 16)
hdr += struct.pack('<QQ', attrs_off, len(attr_entry)) + struct.pack('<QQ', data_off, len(data))
hdr += struct.pack('<QQ', 0, 0) + bytes(32)
with open(out, 'wb') as f:
    f.write(hdr + attr_entry + data)

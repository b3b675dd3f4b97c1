#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# gen-forks.py OUT MAPS FORKS [desc]: a PERFILE2 file (little-endian, one
# cpu-clock attr with IP|TID|TIME|PERIOD samples, sample_id_all) where process 1
# maps MAPS files, then forks FORKS children, each taking one sample in the
# parent's last map: every child used to copy the parent's map list
# (40,000 forks of 2000 maps: 3.3 GB).
# With desc, the maps go at descending addresses (each in front of all the
# others: the memmove of maps__insert made that quadratic, 160,000 took 9.6 s)
# and every 1000th map takes a sample.
import struct, sys

out, nmaps, nforks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
desc = sys.argv[4:] == ['desc']
ST = 0x1 | 0x2 | 0x4 | 0x100
attr = bytearray(128)
struct.pack_into('<IIQQQQ', attr, 0, 1, 128, 0, 1000, ST, 0)
struct.pack_into('<Q', attr, 40, 1 << 18)
recs = []
t = 1000


def trailer(pid, tid, time):
    return struct.pack('<IIQ', pid, tid, time)


comm = struct.pack('<II', 1, 1) + b'parent\0\0' + trailer(1, 1, t)
recs.append(struct.pack('<IHH', 3, 0, 8 + len(comm)) + comm)
for i in range(nmaps):
    t += 1
    name = b'/lib/m%06d.so\0' % i
    name += b'\0' * (-len(name) % 8)
    start = 0x7f0000000000 - (i + 1) * 0x10000 if desc else 0x10000000 + i * 0x10000
    body = struct.pack('<IIQQQ', 1, 1, start, 0x10000, 0) + name + trailer(1, 1, t)
    recs.append(struct.pack('<IHH', 1, 2, 8 + len(body)) + body)	# MMAP, user
    if desc and i % 1000 == 0:
        sample = struct.pack('<QIIQQ', start + 0x10, 1, 1, t, 1000)
        recs.append(struct.pack('<IHH', 9, 2, 8 + len(sample)) + sample)
for i in range(nforks):
    t += 2
    pid = 1000 + i
    body = struct.pack('<IIIIQ', pid, 1, pid, 1, t) + trailer(pid, pid, t)
    recs.append(struct.pack('<IHH', 7, 0, 8 + len(body)) + body)	# FORK
    sample = struct.pack('<QIIQQ', 0x10000000 + (nmaps - 1) * 0x10000 + 0x10, pid, pid, t + 1, 1000)
    recs.append(struct.pack('<IHH', 9, 2, 8 + len(sample)) + sample)
recs.append(struct.pack('<IHH', 68, 0, 8))
data = b''.join(recs)
attr_entry = bytes(attr) + struct.pack('<QQ', 0, 0)
hdr = b'PERFILE2' + struct.pack('<QQ', 104, 144) + struct.pack('<QQ', 104, len(attr_entry))
hdr += struct.pack('<QQ', 104 + len(attr_entry), len(data)) + struct.pack('<QQ', 0, 0) + bytes(32)
open(out, 'wb').write(hdr + attr_entry + data)

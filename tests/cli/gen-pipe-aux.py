#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# gen-pipe-aux.py OUT PAYLOAD: a pipe-mode perf.data (PERFILE2, 16-byte
# header) with one HEADER_ATTR (cpu-clock), a COMM, a PERF_RECORD_AUXTRACE
# whose header says PAYLOAD bytes follow, those bytes (zeros) when PAYLOAD is
# below 1 GiB, then a second COMM and a FINISHED_ROUND.  PAYLOAD 17 MiB: a
# valid stream whose payload must be skipped by reading, not seeking, through
# a real pipe; PAYLOAD 2^63: a hostile size that must be refused with its offset.
import struct, sys

out, payload = sys.argv[1], int(sys.argv[2])
ST = 0x1 | 0x2 | 0x4 | 0x100
attr = bytearray(128)
struct.pack_into('<IIQQQQ', attr, 0, 1, 128, 0, 1000, ST, 0)
struct.pack_into('<Q', attr, 40, 1 << 18)
recs = [struct.pack('<IHH', 64, 0, 8 + 128 + 8) + bytes(attr) + struct.pack('<Q', 1)]


def comm(pid, name, t):
    body = struct.pack('<II', pid, pid) + name + struct.pack('<IIQ', pid, pid, t)
    return struct.pack('<IHH', 3, 0, 8 + len(body)) + body


recs.append(comm(7, b'first\0\0\0', 100))
# AUXTRACE: size, offset, reference, idx, tid, cpu, reserved
recs.append(struct.pack('<IHHQQQIIII', 71, 0, 48, payload, 0, 0, 0, 7, 0, 0))
with open(out, 'wb') as f:
    f.write(b'PERFILE2' + struct.pack('<Q', 16))
    f.write(b''.join(recs))
    if payload < (1 << 30):
        chunk = bytes(1 << 20)
        left = payload
        while left:
            n = min(left, len(chunk))
            f.write(chunk[:n])
            left -= n
    f.write(comm(8, b'second\0\0', 200) + struct.pack('<IHH', 68, 0, 8))

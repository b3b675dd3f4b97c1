#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""cut-procs.py IN OUT N: a copy of the PERFILE2 file IN (samples IP|TID|TIME|PERIOD|CALLCHAIN,
as callgraph-fp.data) whose data section is its records up to its first sample, then N
processes (pid = tid = 300000 + i): a COMM "p<i>" and that sample of the new pid, its callchain
cut to the user context and its own ip, so that quality.csv finds every stack cut short of
the thread root and warns once per process."""
import struct
import sys

sys.path.insert(0, __file__.rsplit('/', 3)[0] + '/tests/bench')
import perfdata  # noqa: E402

PERF_CONTEXT_USER = 2**64 - 512
ST = 0x1 | 0x2 | 0x4 | 0x20 | 0x100		# IP TID TIME CALLCHAIN PERIOD (layout: ip, pid/tid, time, period, chain)

src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
buf, pos, end, nfeat = perfdata.load(src, 'cut-procs.py')
attrs_off = struct.unpack_from('<Q', buf, 24)[0]
sample_type = struct.unpack_from('<Q', buf, attrs_off + 24)[0]
if sample_type != ST:
    sys.exit('cut-procs.py: %s: sample_type %#x, not IP|TID|TIME|CALLCHAIN|PERIOD' % (src, sample_type))
head, comm, sample = perfdata.up_to_first_sample(buf, pos, end, 'cut-procs.py', lambda misc: True)
assert comm and sample, 'a COMM and a sample'
ip = struct.unpack_from('<Q', sample, 8)[0]
data = bytearray(head)
for i in range(n):
    pid = 300000 + i
    struct.pack_into('<II', comm, 8, pid, pid)
    name = ('p%d' % i).encode()
    comm[16:16 + 8] = name.ljust(8, b'\0')[:8]
    rec = bytearray(sample[:40]) + struct.pack('<QQQ', 2, PERF_CONTEXT_USER, ip)
    struct.pack_into('<HH', rec, 4, 2, len(rec))	# misc: PERF_RECORD_MISC_USER, size
    struct.pack_into('<II', rec, 16, pid, pid)
    data += comm + rec
out = bytearray(buf[:pos]) + data + perfdata.tail(buf, end, nfeat, len(data) - (end - pos))
struct.pack_into('<Q', out, 48, len(data))	# data.size
open(dst, 'wb').write(out)

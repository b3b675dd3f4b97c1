#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""comm-churn.py IN OUT N: a copy of the PERFILE2 file IN whose data section is its records up
to its first sample, then N times a COMM record of that sample's thread (its exec COMM, renamed
"task-a" and "task-b" in turn, as prctl(PR_SET_NAME) would) and the sample: a thread renamed N
times.  The COMM keeps its size (the names fit the 8 bytes "work" has in work.data)."""
import struct
import sys

sys.path.insert(0, __file__.rsplit('/', 3)[0] + '/tests/bench')
import perfdata  # noqa: E402

src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
buf, pos, end, nfeat = perfdata.load(src, 'comm-churn.py')
head, comm, sample = perfdata.up_to_first_sample(buf, pos, end, 'comm-churn.py',
                                                 lambda misc: misc & 0x2000)	# COMM_EXEC
assert comm and sample, 'an exec COMM and a sample'
struct.pack_into('<H', comm, 4, struct.unpack_from('<H', comm, 4)[0] & ~0x2000)	# a rename, no exec
data = bytearray(head)
for i in range(n):
    name = (b'task-a' if i % 2 else b'task-b').ljust(8, b'\0')
    comm[16:24] = name
    data += comm + sample
out = bytearray(buf[:pos]) + data + perfdata.tail(buf, end, nfeat, len(data) - (end - pos))
struct.pack_into('<Q', out, 48, len(data))	# data.size
open(dst, 'wb').write(out)

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""reorder-sections.py IN OUT GAP [IDS]: a copy of the perf.data file IN whose attr ids sections and
feature sections are moved behind GAP zero bytes after the feature table, in descending order
of offset (the last attr's ids and the last feature's section first).  perf writes them in
ascending order; a reader of a compressed copy that follows the header's order goes back for
each section.  With IDS, every attr's ids section is instead one shared section of IDS ids
(all 0), placed last."""
import struct
import sys

src, dst, gap = sys.argv[1], sys.argv[2], int(sys.argv[3])
b = bytearray(open(src, 'rb').read())
assert b[:8] == b'PERFILE2', 'a little-endian PERFILE2 file'
attr_size, attrs_off, attrs_size, data_off, data_size = struct.unpack_from('<QQQQQ', b, 16)
nfeat = sum(bin(w).count('1') for w in struct.unpack_from('<4Q', b, 72))
table = data_off + data_size
out = b[:table + 16 * nfeat] + bytes(gap)

moves = []	# (where the section's {offset, size} lies, its offset, its size)
for i in range(attrs_size // attr_size):
    ent = attrs_off + i * attr_size + attr_size - 16
    moves.append((ent,) + struct.unpack_from('<QQ', b, ent))
for k in range(nfeat):
    moves.append((table + 16 * k,) + struct.unpack_from('<QQ', b, table + 16 * k))
shared = int(sys.argv[4]) if len(sys.argv) > 4 else None
for where, off, size in reversed(moves):
    if shared is not None and where < table:
        continue
    struct.pack_into('<Q', out, where, len(out))
    out += b[off:off + size]
if shared is not None:
    for where, off, size in moves:
        if where < table:
            struct.pack_into('<QQ', out, where, len(out), 8 * shared)
    out += bytes(8 * shared)
open(dst, 'wb').write(out)

# SPDX-License-Identifier: GPL-3.0-or-later
# perfdata.py: the PERFILE2 layout the bench's file rewriters share
# (strip-rounds.py, repeat-data.py): host byte order, not compressed.
# tools/perf/util/header.h: struct perf_file_header is magic, size,
# attr_size, attrs {offset, size} at 24, data {offset, size} at 40,
# event_types, the features bitmap at 72 (256 bits); the feature table
# (one {offset, size} per feature set) at data.offset + data.size.
import struct
import sys

FINISHED_ROUND = 68
USER_TYPE_START = 64	# records perf writes itself: no sample_id, no time


def load(path, who):
    """The file's bytes, its data section's offset and end, its number of feature sections."""
    with open(path, 'rb') as f:
        buf = f.read()
    if buf[:8] != b'PERFILE2':
        sys.exit('%s: %s is not a little-endian PERFILE2 file' % (who, path))
    data_off, data_size = struct.unpack_from('<QQ', buf, 40)
    if data_off < 104 or data_off + data_size > len(buf):
        sys.exit('%s: data section %#x+%#x outside the file (%d bytes)' % (who, data_off, data_size, len(buf)))
    nfeat = bin(int.from_bytes(buf[72:104], 'little')).count('1')
    return buf, data_off, data_off + data_size, nfeat


def records(buf, pos, end, who):
    """(offset, type, size) of each record in buf[pos:end]."""
    while pos + 8 <= end:
        rtype, _misc, size = struct.unpack_from('<IHH', buf, pos)
        if size < 8 or pos + size > end:
            sys.exit('%s: a record of size %d at %#x (data ends at %#x)' % (who, size, pos, end))
        yield pos, rtype, size
        pos += size


def up_to_first_sample(buf, pos, end, who, want_comm):
    """The records before the first SAMPLE (bytes), the first COMM among them that
    want_comm(misc) accepts (a bytearray, or None) and that sample (bytes, or None)."""
    head, comm = bytearray(), None
    for off, rtype, size in records(buf, pos, end, who):
        if rtype == 9:
            return head, comm, buf[off:off + size]
        if rtype == 3 and comm is None and want_comm(struct.unpack_from('<H', buf, off + 4)[0]):
            comm = bytearray(buf[off:off + size])
        head += buf[off:off + size]
    return head, comm, None


def tail(buf, end, nfeat, shift):
    """What follows the data section, the feature table's offsets moved by shift bytes."""
    table = bytearray(buf[end:end + 16 * nfeat])
    for i in range(nfeat):
        off, size = struct.unpack_from('<QQ', table, 16 * i)
        struct.pack_into('<QQ', table, 16 * i, off + shift, size)
    return table + buf[end + 16 * nfeat:]

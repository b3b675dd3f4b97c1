#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# repeat-data.py IN OUT BYTES | --copies N: a PERFILE2 file (host byte
# order, not compressed) whose data section is IN's repeated until it holds
# BYTES (or N times), for make bench's 4 GiB file of --call-graph dwarf
# samples from a small real recording.  Copy k's records are IN's with
# every time moved by k * (IN's largest time + 1), so each copy comes after
# the one before (a synthesized record of time 0 too); a FINISHED_ROUND
# ends each copy; records perf writes itself (types >= 64: thread and cpu
# maps, the id index, FINISHED_INIT) are in the first copy only, as in a
# recording.  The processes, threads and mappings are IN's again in each
# copy (the same pids after their EXIT, as a reused pid), so every sample
# resolves and unwinds as in IN: readperf's results.csv of a 2-copy file
# has twice the samples of IN on every row (checked by hand on a
# recording of testdata's nofp: 3,366 samples, 6,732 with 2 copies, each
# row's samples and period doubled, the percentages the same).
# Where the time is: tools/perf/Documentation/perf.data-file-format.txt
# and perf_event_open(2) (a sample: IDENTIFIER, IP, TID, TIME first; the
# sample_id trailer of other records: TID, TIME, ID, STREAM_ID, CPU,
# IDENTIFIER).  The layout of the file: perfdata.py.
import struct
import sys

import perfdata

WHO = 'repeat-data'
SAMPLE = 9
AUXTRACE, COMPRESSED = 71, 81	# data after the record, records inside the record: refused
# sample_type bits (include/uapi/linux/perf_event.h)
IP, TID, TIME, ID, CPU, STREAM_ID, IDENTIFIER = 1, 2, 4, 64, 128, 512, 65536
SAMPLE_ID_ALL = 1 << 18		# in the attr's flags word


def sample_format(buf):
    """sample_type and sample_id_all, the same for every attr of the file (else exit)."""
    attr_size = struct.unpack_from('<Q', buf, 16)[0]
    off, size = struct.unpack_from('<QQ', buf, 24)
    if attr_size < 16 + 48 or off + size > len(buf) or size % attr_size:
        sys.exit('%s: attrs section %#x+%#x (attr size %d) does not fit' % (WHO, off, size, attr_size))
    kinds = set()
    for a in range(off, off + size, attr_size):
        sample_type, = struct.unpack_from('<Q', buf, a + 24)
        flags, = struct.unpack_from('<Q', buf, a + 40)
        kinds.add((sample_type, bool(flags & SAMPLE_ID_ALL)))
    if len(kinds) != 1:
        sys.exit('%s: %d attrs of different sample formats (one wanted)' % (WHO, len(kinds)))
    return kinds.pop()


def time_pos(rtype, size, sample_type, id_all):
    """Offset of a record's time from its start, or None."""
    if not sample_type & TIME or rtype >= perfdata.USER_TYPE_START:
        return None
    if rtype == SAMPLE:
        return 8 + 8 * sum(1 for b in (IDENTIFIER, IP, TID) if sample_type & b)
    if not id_all:
        return None
    return size - 8 - 8 * sum(1 for b in (ID, STREAM_ID, CPU, IDENTIFIER) if sample_type & b)


def main():
    args = sys.argv[1:]
    if len(args) == 4 and args[2] == '--copies':
        want_copies, want_bytes = int(args[3]), None
    elif len(args) == 3:
        want_copies, want_bytes = None, int(args[2])
    else:
        sys.exit('usage: repeat-data.py IN OUT BYTES | IN OUT --copies N')
    src, dst = args[0], args[1]
    buf, data_off, end, nfeat = perfdata.load(src, WHO)
    sample_type, id_all = sample_format(buf)

    # the copies after the first: IN's kernel records and rounds, their times to move
    again, times, last = bytearray(), [], 0
    for pos, rtype, size in perfdata.records(buf, data_off, end, WHO):
        if rtype in (AUXTRACE, COMPRESSED):
            sys.exit('%s: %s has a record of type %d at %#x (AUX data or compressed records: '
                     'not repeated)' % (WHO, src, rtype, pos))
        if rtype >= perfdata.USER_TYPE_START and rtype != perfdata.FINISHED_ROUND:
            continue
        tp = time_pos(rtype, size, sample_type, id_all)
        if tp is not None:
            t, = struct.unpack_from('<Q', buf, pos + tp)
            times.append((len(again) + tp, t))
            last = max(last, t)
        again += buf[pos:pos + size]
    step = last + 1
    round_rec = struct.pack('<IHH', perfdata.FINISHED_ROUND, 0, 8)
    first = end - data_off + len(round_rec)
    later = len(again) + len(round_rec)
    copies = want_copies if want_copies else max(1, 1 + -(-(want_bytes - first) // later))
    data_size = first + (copies - 1) * later

    with open(dst, 'wb') as f:
        head = bytearray(buf[:data_off])
        struct.pack_into('<Q', head, 48, data_size)
        f.write(head)
        f.write(buf[data_off:end])
        f.write(round_rec)
        for k in range(1, copies):
            for p, t in times:
                struct.pack_into('<Q', again, p, t + k * step)
            f.write(again)
            f.write(round_rec)
        f.write(perfdata.tail(buf, end, nfeat, data_size - (end - data_off)))
    print('%s: %d copies of %s, %d bytes of data' % (WHO, copies, src, data_size), file=sys.stderr)


main()

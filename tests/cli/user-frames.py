#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# user-frames.py SCRIPT SPEEDSCOPE: sample by sample, whether the stack has a user
# frame in `perf script -F tid,time,ip,dso` (SCRIPT: the lines after each sample's
# header; a frame in [kernel.kallsyms] is the kernel's) and in readperf's
# --speedscope file of the same recording (one profile per thread, "comm (tid)",
# its samples in time order as perf script's of that tid; a frame whose file is
# [kernel.kallsyms] is the kernel's).  Prints "samples N differ M", then the
# first differing samples as "tid time perf=0|1 readperf=0|1".
import json, re, sys
from collections import defaultdict

perf = defaultdict(list)		# tid -> [(time, has a user frame)]
for block in open(sys.argv[1], errors='replace').read().split('\n\n'):
    lines = [l for l in block.split('\n') if l.strip()]
    if not lines:
        continue
    tid, time = lines[0].split()[:2]
    user = any(not l.rstrip().endswith('([kernel.kallsyms])') for l in lines[1:])
    perf[int(tid)].append((time.rstrip(':'), user))
doc = json.load(open(sys.argv[2]))
frames = doc['shared']['frames']
rp = {}
for p in doc['profiles']:
    tid = int(re.search(r'\((\d+)\)$', p['name']).group(1))
    rp[tid] = [any(frames[i].get('file') != '[kernel.kallsyms]' for i in s) for s in p['samples']]
n, bad = 0, []
for tid in sorted(set(perf) | set(rp)):
    ps, rs = perf.get(tid, []), rp.get(tid, [])
    if len(ps) != len(rs):
        bad.append('%d: %d samples in perf script, %d in readperf' % (tid, len(ps), len(rs)))
        continue
    for (time, pu), ru in zip(ps, rs):
        n += 1
        if pu != ru:
            bad.append('%d %s perf=%d readperf=%d' % (tid, time, pu, ru))
print('samples %d differ %d' % (n, len(bad)))
for b in bad[:5]:
    print(b)

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# peek-count.py SCRIPT FUNC: from `perf script -F comm,period,event,ip,sym,dso` output
# (SCRIPT, one event), what readperf tree FILE FUNC must print, computed independently:
# "total N P", then "callers|self|callees NAME (DSO) N P" lines sorted, each counted
# once per sample (callers: the frame right above an occurrence, callees right below,
# self: FUNC is the leaf).  peek-count.py --parse TREE_OUTPUT turns readperf tree's
# text into the same lines.
import os, sys
from collections import defaultdict

def parse_tree(path):
    out, section = [], None
    for line in open(path):
        line = line.rstrip('\n')
        if not line.startswith(' '):
            # "EVENT: FUNC (DSO): on the stack of N samples, period P (...)"
            f = line.split()
            out.append('total %s %s' % (f[f.index('of') + 1], f[f.index('period') + 1]))
        elif line.strip() in ('callers:', 'callees:', 'self:', 'callers: none', 'callees: none'):
            section = line.strip().split(':')[0]
        elif line.strip().startswith('samples'):
            continue
        else:
            f = line.split(None, 3)
            if f[0] != '0':		# self with no sample is printed as 0
                out.append('%s %s %s %s' % (section, f[3], f[0], f[1]))
    return out

if sys.argv[1] == '--parse':
    print('\n'.join(sorted(parse_tree(sys.argv[2]))))
    sys.exit(0)

script, func = sys.argv[1:3]
count = defaultdict(lambda: [0, 0])
for block in open(script, errors='replace').read().split('\n\n'):
    lines = [l for l in block.split('\n') if l.strip()]
    if not lines:
        continue
    period = int(lines[0].split()[-2])
    frames = []
    for line in lines[1:]:
        sym, dso = line.strip().split(' ', 1)[1].rsplit(' (', 1)
        dso = dso[:-1]
        dso = '[kernel.kallsyms]' if dso.startswith('[kernel') else \
            dso if dso == '[unknown]' else os.path.basename(dso)
        frames.append('%s (%s)' % (sym, dso))
    seen = set()
    for i, f in enumerate(frames):
        if f.rsplit(' (', 1)[0] != func:
            continue
        keys = {('total', '')}
        if i == 0:
            keys.add(('self', f))
        if i + 1 < len(frames):
            keys.add(('callers', frames[i + 1]))
        if i > 0:
            keys.add(('callees', frames[i - 1]))
        for k in keys - seen:
            count[k][0] += 1
            count[k][1] += period
        seen |= keys
out = []
for (kind, name), (n, p) in count.items():
    out.append('total %d %d' % (n, p) if kind == 'total' else '%s %s %d %d' % (kind, name, n, p))
print('\n'.join(sorted(out)))

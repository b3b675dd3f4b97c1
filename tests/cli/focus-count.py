#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# focus-count.py SCRIPT MODE FUNC: from `perf script -F comm,period,event,ip,sym,dso`
# output (SCRIPT), the samples --focus FUNC (MODE focus) or --ignore FUNC (MODE ignore)
# keeps, computed independently of readperf: prints "samples N", then one line
# "DSO<TAB>FUNCTION<TAB>N" per function on a kept stack: the kept stacks holding it
# (results.csv's children_samples of that run).
import os, sys
from collections import Counter

script, mode, func = sys.argv[1:4]
kept, children = 0, Counter()
for block in open(script, errors='replace').read().split('\n\n'):
    frames = []
    for line in block.split('\n')[1:]:
        if not line.strip():
            continue
        sym, dso = line.strip().split(' ', 1)[1].rsplit(' (', 1)
        dso = dso[:-1]
        dso = '[kernel.kallsyms]' if dso.startswith('[kernel') else \
            dso if dso == '[unknown]' else os.path.basename(dso)
        frames.append((dso, sym))
    if not block.strip():
        continue
    has = any(sym == func for _, sym in frames)
    if has != (mode == 'focus'):
        continue
    kept += 1
    for f in set(frames):
        children[f] += 1
print('samples', kept)
for (dso, sym), n in sorted(children.items()):
    print('%s\t%s\t%d' % (dso, sym, n))

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# calltree-paths.py SCRIPT CALLTREE [--inverted]: compare calltree.csv with
# the paths of `perf script -F comm,period,event,ip,sym,dso` output (SCRIPT),
# computed here independently: for every sample its stack (dso basename,
# symbol) innermost first, each path from the root (outermost frame, or the
# innermost with --inverted) gets the sample's count and period once; self
# goes to the full path.  Prints "ok - " / "not ok - " lines, exits 1 on a
# difference.  calltree.csv's paths are rebuilt from its parent ids.
import csv, os, sys
from collections import defaultdict

script, tree = sys.argv[1], sys.argv[2]
inverted = '--inverted' in sys.argv[3:]

def samples(path):
    head, stack = None, []
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if not line.strip():
            if head:
                yield head, stack
            head, stack = None, []
        elif line[0] in ' \t':
            ip, rest = line.strip().split(' ', 1)
            sym, dso = rest.rsplit(' (', 1)
            dso = dso[:-1]
            if dso != '[unknown]' and not dso.startswith('[kernel'):
                dso = os.path.basename(dso)
            if dso.startswith('[kernel'):
                dso = '[kernel.kallsyms]'
            stack.append((dso, sym))
        else:
            # "comm  period event:"
            f = line.split()
            head = (f[-1].rstrip(':'), int(f[-2]))
    if head:
        yield head, stack

want = defaultdict(lambda: [0, 0, 0, 0])   # (event, path) -> self s/p, total s/p
nsamples = 0
for (event, period), stack in samples(script):
    nsamples += 1
    path = stack if inverted else stack[::-1]
    for i in range(1, len(path) + 1):
        w = want[(event, tuple(path[:i]))]
        w[2] += 1
        w[3] += period
    w[0] += 1
    w[1] += period

got = {}
ids = {}
bad_parent = 0
for r in csv.DictReader(open(tree)):
    parent = ids.get(r['parent'], ()) if r['parent'] else ()
    if r['parent'] and r['parent'] not in ids:
        bad_parent += 1
    p = parent + ((r['dso'], r['function']),)
    ids[r['node']] = p
    if len(p) - 1 != int(r['depth']):
        bad_parent += 1
    got[(r['event'], p)] = [int(r['self_samples']), int(r['self_period']),
                            int(r['total_samples']), int(r['total_period'])]

mode = 'inverted' if inverted else 'top-down'
print('%s - calltree %s: parents come before their children, depth = parent depth + 1' %
      ('ok' if not bad_parent else 'not ok', mode))
want = {k: v for k, v in want.items()}
diff = [k for k in set(want) | set(got) if want.get(k) != got.get(k)]
for k in sorted(diff)[:5]:
    print('# %s: perf script %s, calltree.csv %s' % (k, want.get(k), got.get(k)), file=sys.stderr)
print('%s - calltree %s: %d nodes, self and totals of every path equal perf script\'s stacks (%d samples)' %
      ('ok' if not diff and nsamples else 'not ok', mode, len(got), nsamples))
sys.exit(1 if diff or bad_parent or not nsamples else 0)

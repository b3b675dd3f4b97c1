#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# pprof-check.py MODE ...: compares go tool pprof's text output with readperf's CSV/folded.
#   top TOP.txt RESULTS.csv EVENT COLUMN   COLUMN samples|period: the flat values of
#       `go tool pprof -top` (one function a line) equal results.csv's self samples/period
#       of EVENT summed per function name (pprof's -top merges functions by name)
#   traces TRACES.txt FOLDED    `go tool pprof -traces` stacks, summed per (comm, frames),
#       equal --folded's lines (its _[k] kernel and _[i] inline marks taken off, as pprof
#       shows no such marks; its "[dso]" of an address without a symbol is "[unknown]")
# Prints the first differences and exits 1 when they differ.
import csv, re, sys
from collections import defaultdict


def show_diff(a, b, what):
    keys = sorted(set(a) | set(b))
    bad = [k for k in keys if a.get(k, 0) != b.get(k, 0)]
    for k in bad[:10]:
        print(f"# {what} {k!r}: pprof {a.get(k, 0)}, readperf {b.get(k, 0)}")
    if not a:
        print(f"# {what}: nothing read from pprof")
        return 1
    return 1 if bad else 0


def top(path, results, event, column):
    got = {}
    for line in open(path):
        m = re.match(r'^\s*(\d+)(?:ns)?\s+[\d.]+%\s+[\d.]+%\s+(\d+)(?:ns)?\s+[\d.]+%\s+(.*)$', line.rstrip('\n'))
        if m and int(m.group(1)):
            got[m.group(3)] = got.get(m.group(3), 0) + int(m.group(1))
    want = defaultdict(int)
    for row in csv.DictReader(open(results)):
        if row['event'] == event and int(row[column]):
            want[row['function']] += int(row[column])
    return show_diff(got, dict(want), f"flat {column} of")


def traces(path, folded):
    got = defaultdict(int)
    blocks = open(path).read().split('-----------+-------------------------------------------------------')
    for b in blocks[1:]:
        comm, frames, value = None, [], None
        for line in b.splitlines():
            m = re.match(r'^\s+comm:\s+(.*)$', line)
            if m:
                comm = m.group(1)
                continue
            if re.match(r'^\s+(pid|tid|cpu):\s', line):
                continue
            m = re.match(r'^\s{0,10}(\d+)\s{3}(.*)$', line)
            if m and value is None:
                value = int(m.group(1))
                frames.append(m.group(2))
            elif line.startswith(' ' * 13) and line.strip():
                frames.append(line[13:])
        if value is None:
            continue
        frames = [re.sub(r' \(inline\)$', '', f) for f in frames]
        got[';'.join([comm] + frames[::-1])] += value
    want = defaultdict(int)
    for line in open(folded):
        stack, n = line.rstrip('\n').rsplit(' ', 1)
        parts = stack.split(';')
        parts = [parts[0]] + [re.sub(r'_\[[ki]\]$', '', f) for f in parts[1:]]
        # stackcollapse's "[dso]" for an address without a symbol: pprof's function "[unknown]"
        parts = [parts[0]] + [re.sub(r'^\[.*\]$', '[unknown]', f) for f in parts[1:]]
        want[';'.join(parts)] += int(n)
    return show_diff(dict(got), dict(want), "samples of stack")


if __name__ == '__main__':
    if sys.argv[1] == 'top':
        sys.exit(top(*sys.argv[2:6]))
    sys.exit(traces(*sys.argv[2:4]))

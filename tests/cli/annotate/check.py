#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# check.py counts ANNOTATE_CSV SCRIPT_OUT: annotate.csv's samples per (dso, function, offset)
#   against perf script -F ip,sym,symoff,dso's count per ip, for every function with >= 1 %
#   of the samples (perf's count); prints "ok - " / "not ok - " lines.
# check.py insns ANNOTATE_CSV SYMFS: each user function's instructions against
#   objdump -d --no-show-raw-insn of its binary over the same range (whitespace normalised).
import collections, csv, os, re, subprocess, sys

def rows(path):
    with open(path, newline='') as f:
        return list(csv.DictReader(f))

def counts(ann, script, label):
    perf = collections.Counter()
    total = 0
    pat = re.compile(r'^\s*[0-9a-f]+ (.*)\+0x([0-9a-f]+) \((.*)\)$')
    for line in open(script, errors='replace'):
        total += 1
        m = pat.match(line.rstrip('\n'))
        if m:
            perf[(os.path.basename(m.group(3)), m.group(1), int(m.group(2), 16))] += 1
    funcs = collections.Counter()
    for (d, fn, off), n in perf.items():
        funcs[(d, fn)] += n
    hot = {k for k, n in funcs.items() if n * 100 >= total}
    got = collections.Counter()
    for r in rows(ann):
        if (r['dso'], r['function']) in hot and int(r['samples']):
            got[(r['dso'], r['function'], int(r['func_offset']))] += int(r['samples'])
    want = {k: n for k, n in perf.items() if (k[0], k[1]) in hot}
    bad = [k for k in set(want) | set(got) if want.get(k, 0) != got.get(k, 0)]
    name = '%s: samples per address of %d functions >= 1%% (%d addresses) as perf script' % (
        label, len(hot), len(want))
    if hot and not bad:
        print('ok - ' + name)
    else:
        print('not ok - %s: %d differ, e.g. %s' % (name, len(bad), sorted(bad)[:3]))

def norm(s):
    return ' '.join(s.split())

def debug_named(path, symfs):
    """a stripped binary (no .symtab) whose debug file is in symfs: readperf names its
    addresses by the debug file's symbols, as perf annotate does, not as objdump -d of the
    stripped file (the labels are checked against perf annotate in test-annotate.sh)"""
    sections = subprocess.run(['readelf', '-SW', path], capture_output=True, text=True).stdout
    if '.symtab' in sections:
        return False
    m = re.search(r'Build ID: ([0-9a-f]{2})([0-9a-f]+)',
                  subprocess.run(['readelf', '-n', path], capture_output=True, text=True).stdout)
    return bool(m) and os.path.exists(os.path.join(symfs, 'usr/lib/debug/.build-id', m.group(1), m.group(2) + '.debug'))

def unlabelled(s):
    return re.sub(r' ?<[^>]*>', '', s) if s is not None else None

def insns(ann, symfs, label):
    by_func = collections.OrderedDict()
    for r in rows(ann):
        by_func.setdefault((r['dso'], r['function']), []).append(r)
    paths = {}
    for top, _, files in os.walk(symfs):
        for f in files:
            paths.setdefault(f, os.path.join(top, f))
    nfunc = ninsn = 0
    bad = []
    relabelled = set()
    for (d, fn), rs in by_func.items():
        if d not in paths or not rs[0]['instruction']:
            continue
        start = int(rs[0]['address'], 16) - int(rs[0]['func_offset'])
        end = int(rs[-1]['address'], 16) + 16  # past the last instruction (at most 15 bytes)
        out = subprocess.run(['objdump', '-d', '--no-show-raw-insn', '--start-address=%#x' % start,
                              '--stop-address=%#x' % end, paths[d]], capture_output=True, text=True).stdout
        od = {}
        for line in out.splitlines():
            m = re.match(r'^\s*([0-9a-f]+):\t(.*)$', line)
            if m:
                od[int(m.group(1), 16)] = norm(m.group(2))
        nfunc += 1
        strip = debug_named(paths[d], symfs)
        if strip:
            relabelled.add(d)
        for r in rs:
            ninsn += 1
            a = int(r['address'], 16)
            got, want = norm(r['instruction']), od.get(a)
            if strip:
                got, want = unlabelled(got), unlabelled(want)
            if want != got:
                bad.append((d, fn, hex(a), r['instruction'], od.get(a)))
    name = '%s: instruction text of %d functions (%d instructions) as objdump -d' % (label, nfunc, ninsn)
    if relabelled:
        name += ' (<symbol> labels aside in %s: named by their debug files)' % ', '.join(sorted(relabelled))
    if nfunc and not bad:
        print('ok - ' + name)
    else:
        print('not ok - %s: %d differ, e.g. %s' % (name, len(bad), bad[:3]))

if sys.argv[1] == 'counts':
    counts(sys.argv[2], sys.argv[3], sys.argv[4])
else:
    insns(sys.argv[2], sys.argv[3], sys.argv[4])

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Hostile names (issue 28): a file whose comms, mmap file names, event name,
# hostname, cmdline and JIT symbols (/tmp/perf-PID.map) hold every byte
# 0x01-0xFF, U+FFFE, U+FFFF, encoded surrogates, code points past U+10FFFF,
# terminal escapes, spreadsheet formulas and XML/JSON metacharacters
# (gen-perf --names).  Every output shows them through util/escape or the
# CSV writer (README: "Names from the file"):
#  - the flame graph and the timeline pass xmllint --noout, the speedscope
#    JSON python3's json on strictly decoded UTF-8; chromium opens each SVG
#    without a parsererror and takes the JSON (tests/js/wellformed-check.mjs);
#  - no byte below 0x20 but LF, no DEL or C1 control, nothing but UTF-8 reaches
#    the terminal from the summary, -v's messages, readperf header and
#    readperf diff's regression lines; no forged "readperf:" line; the same
#    for readperf annotate's text (on stdout and --annotate FILE), TAB allowed;
#  - a CSV text cell that begins with = + @ TAB CR gets a leading ', -bash
#    does not, numbers never; --raw-csv writes them verbatim.
. "$(dirname "$0")/testlib.sh"

need_gen "hostile names"
need_python "hostile names"
# a pid no process can have (above the kernel's PID_MAX_LIMIT, 2^22): its perf map is ours
pid=$((4200000 + $$ % 100000))
map=/tmp/perf-$pid.map
map2=/tmp/perf-$((pid + 1)).map
trap 'rm -rf "$tmp" "$map" "$map2"' EXIT
"$GEN" --names "$tmp/names.data" "$map" "$pid"
# the perf map's path comes from the file (its pid): a FIFO there blocked the run in open()
# forever, /dev/zero (a link to it) read without end; now only a regular file is read
"$GEN" --names "$tmp/names2.data" "$map2" $((pid + 1))
for what in fifo zero; do
	rm -f "$map2"
	if [ $what = fifo ]; then mkfifo "$map2"; else ln -s /dev/zero "$map2"; fi
	timeout 30 "$PROG" -q -o "$tmp/map2" --reports results "$tmp/names2.data" 2> /dev/null
	rc=$?
	check "a perf map that is a $what: no symbols, exit 0 (exit $rc; 124: over 30 s)" test $rc -eq 0
done
# the map's lines are read up to 64 KiB: a NUL ends a name there (perf's getline) and keeps the next
# line; a name of 65,535 bytes with its address fields (a line of 65,535) is read whole
rm -f "$map2"
"$py" - "$map2" << 'PY'
import sys
with open(sys.argv[1], 'wb') as f:
    f.write(b'10000000 100 foo\0bar\n10000100 100 SECOND_LINE\n')
    f.write(b'10000200 100 ' + b'LONGNAME'.ljust(65535 - 13, b'x') + b'\n')
PY
"$PROG" -q -o "$tmp/map3" --reports results "$tmp/names2.data" 2> /dev/null
check "a perf map with a NUL in a line and a 65,535-byte line: foo, SECOND_LINE, LONGNAME... each a row" \
	test "$(grep -ac -e ',foo,' -e ',SECOND_LINE,' -e ',LONGNAMExxx' "$tmp/map3/results.csv")" -eq 3
"$GEN" --deep "$tmp/deep.data"
"$PROG" -o "$tmp/out" --flamegraph "$tmp/fg.svg" --timeline "$tmp/tl.svg" \
	--speedscope "$tmp/ss.json" --pprof "$tmp/pp.pb.gz" "$tmp/names.data" > "$tmp/summary.out" 2> "$tmp/summary.err"
rc=$?
check "names.data: exit 0 (exit $rc)" test $rc -eq 0
"$PROG" -q -o "$tmp/raw" --raw-csv --reports results,threads "$tmp/names.data" 2> "$tmp/raw.err"
rc=$?
check "--raw-csv: exit 0 (exit $rc: $(head -c 200 "$tmp/raw.err"))" test $rc -eq 0
"$PROG" -v -o "$tmp/v" --reports results "$tmp/names.data" > "$tmp/v.out" 2> "$tmp/v.err"
"$PROG" header "$tmp/names.data" > "$tmp/header.out" 2> "$tmp/header.err"
"$PROG" annotate "$tmp/names.data" > "$tmp/annotate.out" 2> "$tmp/annotate.err"
rc=$?
check "readperf annotate: exit 0 (exit $rc)" test $rc -eq 0
"$PROG" -q -o "$tmp/ann" --reports none --annotate "$tmp/annotate-file.out" "$tmp/names.data"
# a file of no sample (a pipe stream cut after its attr) under a name with terminal escapes and a
# forged line: the summary's "holds no samples" note names it escaped too
nosample=$tmp/$'x\e]0;pwned\a\e[31m\nreadperf: warning: forged line.data'
head -c 123 "$td/work.pipe.data" > "$nosample"
"$PROG" -o "$tmp/nosample" "$nosample" > "$tmp/nosample.out" 2>&1
"$PROG" diff --fail-above 1 --fail-confidence 0 -o "$tmp/diff" "$tmp/deep.data" "$tmp/names.data" > "$tmp/diff.out" 2> "$tmp/diff.err"
rc=$?
check "readperf diff: exit 4, regressions to show (exit $rc)" test $rc -eq 4 -a "$(grep -c 'regression:' "$tmp/diff.err")" -gt 20

# --- XML and JSON
if command -v xmllint > /dev/null; then
	for f in fg tl; do
		err=$(xmllint --noout "$tmp/$f.svg" 2>&1)
		check "$f.svg: xmllint --noout ($(echo "$err" | head -2 | tr '\n' ' ' | head -c 200))" test -z "$err"
	done
else
	echo "skip - xmllint --noout: no xmllint (apt-get install libxml2-utils)"
fi
"$py" - "$tmp" << 'PY'
import json, sys
tmp = sys.argv[1]
def check(ok, what):
    print('%s - %s' % ('ok' if ok else 'not ok', what))
try:
    doc = json.loads(open(tmp + '/ss.json', 'rb').read().decode('utf-8', 'strict'))
except Exception as e:
    check(False, 'ss.json: strict UTF-8 and JSON: %s' % str(e)[:200])
    sys.exit(0)
check(True, 'ss.json: strict UTF-8 and JSON')
names = {f['name'] for f in doc['shared']['frames']}
files = {f.get('file') for f in doc['shared']['frames']}
profiles = {p['name'] for p in doc['profiles']}
# valid UTF-8 names come through whole; a lone byte 0x81-0x90 each as U+FFFD
want = ['a&b<c>d"e\'f]]><!--\\u0000\\', '=HYPERLINK("http://x.invalid","y")',
        ''.join(map(chr, range(1, 10))) + ''.join(map(chr, range(11, 17))), '\ufffd' * 16,
        'nonchar \ufffe \uffff end', 'surrogates ' + '\ufffd' * 6 + ' end']
missing = [w for w in want if w not in names]
check(not missing, 'ss.json: frame names as the file gives them, invalid bytes as U+FFFD (missing: %r)' % missing)
check('\x1b]0;pwned title\x07\x1b[2J\x1b[1;1H' in files, 'ss.json: a file name with terminal escapes, as it is')
check(any(p.startswith('x\r\nreadperf: warning: forged line\n (') for p in profiles),
      'ss.json: a profile named by its comm with CR LF in it (%d profiles)' % len(profiles))
# the flame graph: U+FFFD for what XML cannot hold, the metacharacters as references
svg = open(tmp + '/fg.svg', 'rb').read().decode('utf-8', 'strict')
check('<title>a&amp;b&lt;c&gt;d&quot;e\'f]]&gt;&lt;!--\\u0000\\ (period' in svg,
      'fg.svg: & < > " as references in a title')
check('nonchar \ufffd \ufffd end' in svg and '\ufffe' not in svg and '\x1b' not in svg,
      'fg.svg: U+FFFE, U+FFFF and controls as U+FFFD')
PY

# --- pprof: profile.proto is proto3, whose strings must be valid UTF-8 (protobuf-go refuses the
# message else): string_table (field 6) read from the wire format, each entry strictly decoded
"$py" - "$tmp/pp.pb.gz" << 'PY'
import gzip, sys
data = gzip.open(sys.argv[1]).read()
def varint(b, i):
    v = s = 0
    while True:
        c = b[i]; i += 1; v |= (c & 0x7f) << s; s += 7
        if c < 0x80: return v, i
strings, bad, i = [], [], 0
while i < len(data):
    key, i = varint(data, i)
    field, wire = key >> 3, key & 7
    if wire == 0: _, i = varint(data, i); continue
    if wire == 1: i += 8; continue
    if wire == 5: i += 4; continue
    n, i = varint(data, i)
    if field == 6:
        try: strings.append(data[i:i + n].decode('utf-8', 'strict'))
        except UnicodeDecodeError: bad.append(data[i:i + n][:40])
    i += n
ok = strings and not bad and any('nonchar \ufffe \uffff end' in s for s in strings) and \
     any('surrogates ' + '\ufffd' * 6 + ' end' in s for s in strings)
print('%s - pprof: %d strings, each valid UTF-8, invalid bytes as U+FFFD, the rest as given (invalid: %r)' %
      ('ok' if ok else 'not ok', len(strings), bad[:3]))
PY

# --- the terminal
"$py" - "$tmp" summary.out v.err header.out diff.err annotate.out annotate-file.out nosample.out << 'PY'
import sys
tmp = sys.argv[1]
for name in sys.argv[2:]:
    data = open(tmp + '/' + name, 'rb').read()
    text = ''
    # annotate's columns are tab-separated, as perf annotate --stdio's
    keep = '\n\t' if name.startswith('annotate') else '\n'
    try:
        text = data.decode('utf-8', 'strict')
        bad = sorted({'%04x' % ord(c) for c in text
                      if (ord(c) < 0x20 and c not in keep) or ord(c) == 0x7f or 0x80 <= ord(c) <= 0x9f})
    except UnicodeDecodeError as e:
        bad = [str(e)[:100]]
    forged = [l for l in text.split('\n') if 'forged line' in l and l.startswith('readperf: warning: forged')]
    print('%s - %s: %d bytes, no control but LF, UTF-8, no forged line (%s)' %
          ('ok' if not bad and not forged and len(data) > 0 else 'not ok', name, len(data),
           ' '.join(bad[:10]) + ' '.join(forged[:1])[:100]))
PY
check "summary: the names shown escaped (\\x1b for ESC)" grep -q '\\x1b]0;pwned title\\x07' "$tmp/summary.out"
# the event name's text \u0000\ before its byte 0x01: each backslash doubled, so that \x01 reads as the byte
check "summary: a backslash in a name shown as \\\\ (the text \\x01 is not the byte 0x01)" \
	grep -qF '<!--\\u0000\\\x01\xff: ' "$tmp/summary.out"
check "readperf diff: regression lines name the functions escaped" \
	grep -q 'regression: .* \[JIT\] tid [0-9]* \\x0dCR first (new' "$tmp/diff.err"
check "readperf annotate: the functions' and dsos' names shown escaped (\\x1b for ESC)" \
	test "$(grep -c '^ Percent |.*Disassembly of .*\\x1b' "$tmp/annotate.out")" -gt 0 -a \
	"$(grep -c '^         :.*<.*\\x1b.*>:$' "$tmp/annotate.out")" -gt 0
check "a file of no sample: the note names it escaped" grep -q '^note: .*x\\x1b]0;pwned\\x07\\x1b\[31m\\x0areadperf: warning: forged line.data holds no samples' "$tmp/nosample.out"
check "readperf header: the hostname escaped" grep -q 'hostname: x\\x0d\\x0areadperf: warning: forged line\\x0a$' "$tmp/header.out"

# --- CSV
"$py" - "$tmp" << 'PY'
import csv, sys
tmp = sys.argv[1]
def rows(path):
    try:
        with open(path, newline='', encoding='utf-8', errors='surrogateescape') as f:
            return list(csv.DictReader(f))
    except OSError:
        return [{'function': '', 'comm': '', 'samples': '', 'period': ''}]
formulas = ['=HYPERLINK("http://x.invalid","y")', '+cmd|\' /C calc\'!A0', '@SUM(1+1)', '\tTAB first', '\rCR first']
for d, raw in (('out', False), ('raw', True)):
    res = rows('%s/%s/results.csv' % (tmp, d))
    fn = {r['function'] for r in res}
    comm = {r['comm'] for r in rows('%s/%s/threads.csv' % (tmp, d))}
    want = set(formulas) if raw else {"'" + f for f in formulas}
    label = '--raw-csv' if raw else 'default'
    print('%s - results.csv (%s): function cells %s (missing: %r)' % ('ok' if want <= fn and '-bash' in fn else 'not ok',
          label, 'verbatim' if raw else "that begin with = + @ TAB CR begin with '", sorted(want - fn)))
    print('%s - threads.csv (%s): comm cells too (missing: %r)' % ('ok' if want <= comm and '-bash' in comm else 'not ok',
          label, sorted(want - comm)))
    nums = all(r['samples'].isdigit() and r['period'].isdigit() for r in res)
    print('%s - results.csv (%s): numeric columns left alone' % ('ok' if nums and res else 'not ok', label))
PY

# --- in chromium
node_check "hostile names" wellformed-check.mjs "$tmp/fg.svg" "$tmp/tl.svg" "$tmp/ss.json"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# --html FILE.html: one self-contained page of the analysis (issue 26), on
# callgraph-fp.data (frame pointers), dwarf-nofp.data (DWARF unwinding),
# dwarf-cxx.data (C++ names with < > & and spaces) and phases-switch.data
# (context switches: off-CPU time and stacks):
# - in headless chromium (tests/js/html-check.mjs, puppeteer-core): no script
#   or console error, no request leaves the page, the table's top row is
#   results.csv's first, sorting by children puts results.csv's highest
#   children_percent first, a click on the top function shows callers.csv's
#   callers and callees and lines.csv's lines for it, filter and keyboard;
#   the flame graph (hit-test, click to zoom, search share = children_percent),
#   a drag over the timeline's first half = --time 0%-50%'s results.csv, the
#   off-CPU flame graph = --folded-offcpu, threads = threads.csv, the header's
#   warnings = stderr's, unwind quality = quality.csv;
#   screenshots at 1280x800 and 390x844 in $HTML_SHOTS (else the test's tmp);
# - the embedded data is strict JSON holding no "</", its functions are
#   results.csv's rows and its edges callers.csv's, its stacks give back every
#   function's self and children counts and each event's period, its threads
#   are threads.csv's rows, its quality rows quality.csv's, its off-CPU
#   stacks --folded-offcpu's lines (python3); no '<' in it at
#   all (written \u003c), so nothing a name holds can end the script element;
# - the same page over two runs, byte for byte; the CSVs of a run with --html
#   are those of a run without.
. "$(dirname "$0")/testlib.sh"

shots=${HTML_SHOTS:-$tmp/shots}
for name in callgraph-fp dwarf-nofp dwarf-cxx phases-switch; do
	ks=$td/$name.kallsyms
	[ -f "$ks" ] || ks=$td/kallsyms
	S=(--symfs "$td/symfs" --kallsyms "$ks")
	"$PROG" -q -o "$tmp/$name" "${S[@]}" --html "$tmp/$name.html" "$td/$name.data" 2> "$tmp/err"
	rc=$?
	check "$name: --html exits 0, says nothing (exit $rc)" eval 'test $rc -eq 0 && quiet_stderr "$tmp/err"'
	# without -q: the warnings the page must show (-q hides them from stderr, not from the page)
	"$PROG" -o "$tmp/$name.2" "${S[@]}" --html "$tmp/$name.2.html" "$td/$name.data" > /dev/null 2> "$tmp/$name.stderr"
	check "$name: the page is byte-identical over two runs ($(wc -c < "$tmp/$name.html") bytes)" \
		cmp -s "$tmp/$name.html" "$tmp/$name.2.html"
	# what the page is checked against: --time 0%-50% (when the file has the first and last sample time), quality.csv, the off-CPU stacks
	half=$tmp/$name.half
	"$PROG" -q -o "$half" "${S[@]}" --time 0%-50% "$td/$name.data" 2> /dev/null || half=
	"$PROG" -q -o "$tmp/$name.q" "${S[@]}" --reports quality "$td/$name.data"
	"$PROG" -q -o "$tmp/$name.3" "${S[@]}" --folded-offcpu "$tmp/$name.off" "$td/$name.data" 2> /dev/null
	"$PROG" -q -o "$tmp/$name.plain" "${S[@]}" "$td/$name.data"
	check "$name: the CSVs are the same with and without --html" diff_reports "$tmp/$name.plain" "$tmp/$name"
	check "$name: no src= or href= (nothing to fetch)" test "$(grep -c -E '(src|href)=' "$tmp/$name.html")" -eq 0
	if command -v python3 > /dev/null; then
		python3 - "$tmp/$name.html" "$tmp/$name" "$tmp/$name.q" "$tmp/$name.off" > "$tmp/py.out" 2>&1 <<'PY'
import csv, json, sys
page = open(sys.argv[1], encoding="utf-8").read()
start = page.index('<script type="application/json" id="data">\n') + len('<script type="application/json" id="data">\n')
end = page.index("</script>", start)
blob = page[start:end]
assert "<" not in blob, "a raw < inside the data"
d = json.loads(blob)
S = d["s"]
events = [e[0] for e in d["ev"]]
rows = list(csv.DictReader(open(sys.argv[2] + "/results.csv", encoding="utf-8")))
funcs = [(events[f[0]], S[f[1]], S[f[2]], str(f[5]), str(f[6]), str(f[7]), str(f[8])) for f in d["f"] if f[9]]
want = [(r["event"], r["dso"], r["function"], r["samples"], r["period"], r["children_samples"], r["children_period"])
        for r in rows]
assert funcs == want, "functions differ from results.csv: %r ... vs %r ..." % (funcs[:2], want[:2])
f = d["f"]
edges = sorted((events[f[e[1]][0]], S[f[e[0]][1]], S[f[e[0]][2]], S[f[e[1]][1]], S[f[e[1]][2]], str(e[2]), str(e[3]))
               for e in d["e"])
want = sorted(tuple(r.values()) for r in csv.DictReader(open(sys.argv[2] + "/callers.csv", encoding="utf-8")))
assert edges == want, "edges differ from callers.csv: %d vs %d" % (len(edges), len(want))
# the stacks give back results.csv's counts: self from the innermost frame, children once per stack
n = len(f)
got = [[0, 0, 0, 0] for _ in f]
tot = [0] * len(d["ev"])
for k in d["k"]:
    c = k[4]
    sm, p = sum(c[1::3]), sum(c[2::3])
    tot[k[0]] += p
    if k[3]:
        got[k[3][0]][0] += sm
        got[k[3][0]][1] += p
    for x in set(k[3]):
        got[x][2] += sm
        got[x][3] += p
bad = [S[f[i][2]] for i in range(n) if got[i] != f[i][5:9]]
assert not bad, "the stacks' counts differ from results.csv's for %r" % bad[:5]
assert tot == [e[2] for e in d["ev"]], "the stacks' periods %r are not the events' %r" % (tot, [e[2] for e in d["ev"]])
th = [[str(r[0]), str(r[1]), S[r[2]], S[r[3]], "" if r[4] < 0 else S[r[4]]] + [str(x) for x in r[5:]] for r in d["th"]]
want = [[r[k] for k in ("pid", "tid", "comm", "comms", "event", "samples", "period", "oncpu_ns", "offcpu_ns", "switches",
                        "voluntary", "preempted")] for r in csv.DictReader(open(sys.argv[2] + "/threads.csv", encoding="utf-8"))]
assert th == want, "threads differ from threads.csv: %r vs %r" % (th[:2], want[:2])
q = [[events[r[0]], S[r[1]]] + [str(x) for x in r[2:]] for r in d["q"]]
want = [[r[k] for k in ("event", "dso", "samples", "user_stacks", "cut", "unknown", "cut_here")]
        for r in csv.DictReader(open(sys.argv[3] + "/quality.csv", encoding="utf-8"))]
assert q == want, "quality rows differ from quality.csv: %r vs %r" % (q[:2], want[:2])
import os
if os.path.exists(sys.argv[4]):
    off = ["%s %d" % (";".join(S[x] for x in o[0]), o[1]) for o in d["o"]]
    assert off == open(sys.argv[4], encoding="utf-8").read().splitlines(), "off-CPU stacks differ from --folded-offcpu"
else:
    assert d["o"] is None, "off-CPU stacks without --folded-offcpu"
print("%d functions (%d names with <), %d edges, %d lines, %d stacks, %d threads, %d off-CPU stacks" %
      (len(funcs), sum("<" in s for s in S), len(edges), len(d["l"]), len(d["k"]), len(d["th"]), len(d["o"] or [])))
PY
		check "$name: the data is strict JSON without <, functions, edges, stacks, threads, quality, off-CPU as the CSVs ($(tail -1 "$tmp/py.out"))" \
			test $? -eq 0
	else
		echo "skip - $name: the embedded data: no python3"
	fi
	mkdir -p "$shots/$name"
	HTML_OFF=$tmp/$name.off HTML_STDERR=$tmp/$name.stderr HTML_QUALITY=$tmp/$name.q \
		node_check "$name chromium" html-check.mjs "$tmp/$name.html" "$tmp/$name" "$shots/$name" $half
	check "$name: screenshots at 1280x800 and 390x844" \
		test -s "$shots/$name/desktop-1280x800.png" -a -s "$shots/$name/phone-390x844.png" -o \
		"$(grep -c '^skip' "$tmp/node.out" 2> /dev/null)" -gt 0
done

# readperf diff --html on regress-before/-after (compute_b twice the work): the
# gate fails (exit 4), and on two recordings of the same program it passes;
# tests/js/diff-html-check.mjs checks the page against the run's diff.csv,
# --folded and stderr
rsym=(--symfs "$td/symfs" --kallsyms "$td/kallsyms.boot2")
for case in "fail regress-after 4" "pass regress-before2 0"; do
	set -- $case
	"$PROG" diff -o "$tmp/d$1" "${rsym[@]}" --fail-above-ratio 1.5 --html "$tmp/d$1.html" --folded "$tmp/d$1.folded" \
		"$td/regress-before.data" "$td/$2.data" 2> "$tmp/d$1.err"
	rc=$?
	check "diff --html, gate $1: exit $rc, want $3" test $rc -eq "$3"
	"$PROG" diff -o "$tmp/d$1.2" "${rsym[@]}" --fail-above-ratio 1.5 --html "$tmp/d$1.2.html" \
		"$td/regress-before.data" "$td/$2.data" 2> /dev/null
	check "diff --html, gate $1: the page is byte-identical over two runs ($(wc -c < "$tmp/d$1.html") bytes)" \
		cmp -s "$tmp/d$1.html" "$tmp/d$1.2.html"
	check "diff --html, gate $1: no src= or href=" test "$(grep -c -E '(src|href)=' "$tmp/d$1.html")" -eq 0
	mkdir -p "$shots/diff-$1"
	node_check "diff gate $1 chromium" diff-html-check.mjs "$tmp/d$1.html" "$tmp/d$1/diff.csv" "$tmp/d$1.folded" \
		"$tmp/d$1.err" "$shots/diff-$1"
done

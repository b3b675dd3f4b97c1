#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# --html FILE.html: one self-contained page of the analysis (issue 26), on
# callgraph-fp.data (frame pointers), dwarf-nofp.data (DWARF unwinding) and
# dwarf-cxx.data (C++ names with < > & and spaces):
# - in headless chromium (tests/js/html-check.mjs, puppeteer-core): no script
#   or console error, no request leaves the page, the table's top row is
#   results.csv's first, sorting by children puts results.csv's highest
#   children_percent first, a click on the top function shows callers.csv's
#   callers and callees and lines.csv's lines for it, filter and keyboard;
#   screenshots at 1280x800 and 390x844 in $HTML_SHOTS (else the test's tmp);
# - the embedded data is strict JSON holding no "</", its functions are
#   results.csv's rows and its edges callers.csv's (python3); no '<' in it at
#   all (written \u003c), so nothing a name holds can end the script element;
# - the same page over two runs, byte for byte; the CSVs of a run with --html
#   are those of a run without.
. "$(dirname "$0")/testlib.sh"

shots=${HTML_SHOTS:-$tmp/shots}
for name in callgraph-fp dwarf-nofp dwarf-cxx; do
	ks=$td/$name.kallsyms
	[ -f "$ks" ] || ks=$td/kallsyms
	S=(--symfs "$td/symfs" --kallsyms "$ks")
	"$PROG" -q -o "$tmp/$name" "${S[@]}" --html "$tmp/$name.html" "$td/$name.data" 2> "$tmp/err"
	rc=$?
	check "$name: --html exits 0, says nothing (exit $rc)" eval 'test $rc -eq 0 && quiet_stderr "$tmp/err"'
	"$PROG" -q -o "$tmp/$name.2" "${S[@]}" --html "$tmp/$name.2.html" "$td/$name.data"
	check "$name: the page is byte-identical over two runs ($(wc -c < "$tmp/$name.html") bytes)" \
		cmp -s "$tmp/$name.html" "$tmp/$name.2.html"
	"$PROG" -q -o "$tmp/$name.plain" "${S[@]}" "$td/$name.data"
	check "$name: the CSVs are the same with and without --html" diff_reports "$tmp/$name.plain" "$tmp/$name"
	check "$name: no src= or href= (nothing to fetch)" test "$(grep -c -E '(src|href)=' "$tmp/$name.html")" -eq 0
	if command -v python3 > /dev/null; then
		python3 - "$tmp/$name.html" "$tmp/$name" > "$tmp/py.out" 2>&1 <<'PY'
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
print("%d functions (%d names with <), %d edges, %d lines" % (len(funcs), sum("<" in s for s in S), len(edges), len(d["l"])))
PY
		check "$name: the data is strict JSON without <, its functions and edges are results.csv's and callers.csv's ($(tail -1 "$tmp/py.out"))" \
			test $? -eq 0
	else
		echo "skip - $name: the embedded data: no python3"
	fi
	mkdir -p "$shots/$name"
	node_check "$name chromium" html-check.mjs "$tmp/$name.html" "$tmp/$name" "$shots/$name"
	check "$name: screenshots at 1280x800 and 390x844" \
		test -s "$shots/$name/desktop-1280x800.png" -a -s "$shots/$name/phone-390x844.png" -o \
		"$(grep -c '^skip' "$tmp/node.out" 2> /dev/null)" -gt 0
done

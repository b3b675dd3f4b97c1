// readperf diff --html: the diff page (decode/reports/diffpage.c writes the data).
(function () {
const str = (k) => k < 0 ? null : S[k];
// a value in 1/10000 as diff.csv spells it
function fx(v) { const m = Math.abs(v); return (v < 0 ? "-" : "") + Math.floor(m / 10000) + "." + String(m % 10000).padStart(4, "0"); }
function ratio(v) { return v === -10000 ? "new" : v === -20000 ? "new self time" : "\u00d7" + fx(v); }
function bound(v) { return v === -10000 ? "\u221e" : fx(v); }
const R = D.r.map((r, i) => ({ i: i, pair: r[0], dso: S[r[1]], name: S[r[2]], odso: str(r[3]), oname: str(r[4]),
	samples: [r[5], r[6]], period: [r[7], r[8]], pct: [r[9], r[10]], delta: r[11], chpct: [r[12], r[13]], chdelta: r[14],
	ratio: r[15], chratio: r[16], lo: [r[17], r[19]], hi: [r[18], r[20]], crossed: r[21] }));
const P = D.pairs.map((p) => ({ old: p[0], neu: p[1], how: p[2], cc: p[3], samples: [p[4], p[5]], period: [p[6], p[7]] }));
let pair = 0, key = null, dir = -1;

function info() {
	const dl = $("info"), add = (k, v) => dl.append(el("dt", k), el("dd", v));
	add("OLD", D.old.join(", "));
	add("NEW", D.new.join(", "));
	add("Events", P.map((p) => (p.old || "\u2014") + " \u2192 " + (p.neu || "\u2014") + ": " + p.samples[0] + " \u2192 " +
		p.samples[1] + " samples").join("; "));
	add("Intervals", (100 * D.conf).toFixed(4).replace(/\.?0+$/, "") + "% confidence");
	const g = $("gate"), n = R.filter((r) => r.crossed).length;
	if (D.gate === null) g.textContent = "No gate asked (--fail-above, --fail-above-ratio).";
	else g.textContent = (D.failed ? "Gate FAILED: " + n + (n > 1 ? " functions cross " : " function crosses ") : "Gate passed: ") + D.gate;
	g.className = D.gate === null ? "note" : D.failed ? "grow" : "shrink";
}
const COLS = [["Function", "", "name"], ["DSO", "dso", "dso"], ["OLD %", "n", "old"], ["NEW %", "n", "new"], ["\u0394 points", "n", "delta"],
	["Ratio", "n", "ratio"], ["Interval", "n smp", "lo"]].concat(D.children ? [["Children OLD %", "n smp", "chold"],
	["Children NEW %", "n smp", "chnew"], ["Children ratio", "n", "chratio"]] : []).concat([["Gate", "", "gate"]]);
const VAL = { name: (r) => r.name, dso: (r) => r.dso, old: (r) => r.pct[0], new: (r) => r.pct[1], delta: (r) => r.delta,
	ratio: (r) => r.ratio, lo: (r) => r.lo[0], chold: (r) => r.chpct[0], chnew: (r) => r.chpct[1], chratio: (r) => r.chratio,
	gate: (r) => r.crossed };
function render() {
	const q = $("filter").value.toLowerCase(), frag = document.createDocumentFragment();
	let v = R.filter((r) => r.pair === pair && (!q || r.name.toLowerCase().includes(q) || r.dso.toLowerCase().includes(q)));
	if (key) {
		const g = VAL[key];
		v = v.map((r, k) => [r, k]).sort((a, b) => { const x = g(a[0]), y = g(b[0]);
			return x < y ? -dir : x > y ? dir : a[1] - b[1]; }).map((p) => p[0]);
	}
	v.slice(0, 1000).forEach((r) => {
		const tr = el("tr", undefined, r.crossed ? "sel" : ""), d = el("td", (r.delta > 0 ? "+" : "") + fx(r.delta), "n " + (r.delta > 0 ? "grow" : r.delta < 0 ? "shrink" : ""));
		const name = el("th", r.name);
		name.scope = "row";
		if (r.oname !== null && r.oname !== r.name) name.title = "OLD: " + r.odso + " " + r.oname;
		tr.append(name, el("td", r.dso, "dso"), el("td", fx(r.pct[0]), "n"), el("td", fx(r.pct[1]), "n"), d, el("td", ratio(r.ratio), "n ratio"),
			el("td", bound(r.lo[0]) + "\u2013" + bound(r.hi[0]), "n smp"));
		if (D.children) tr.append(el("td", fx(r.chpct[0]), "n smp"), el("td", fx(r.chpct[1]), "n smp"), el("td", ratio(r.chratio), "n"));
		tr.append(el("td", r.crossed ? ["", "self", "children", "self, children"][r.crossed] : ""));
		tr.dataset.i = r.i;
		frag.append(tr);
	});
	$("rows").tBodies[0].replaceChildren(frag);
	$("count").textContent = (v.length > 1000 ? "Showing 1000 of " + v.length : v.length) + " functions";
}
document.addEventListener("click", (e) => {
	const b = e.target.closest("#rows th button");
	if (!b) return;
	const k = b.dataset.k, num = k !== "name" && k !== "dso";
	dir = key === k ? -dir : (num ? -1 : 1); key = k;
	document.querySelectorAll("#rows th").forEach((th) => th.removeAttribute("aria-sort"));
	b.parentNode.setAttribute("aria-sort", dir < 0 ? "descending" : "ascending");
	render();
});

// the differential flame graph: NEW's widths, red grew and blue shrank in share against OLD
function tree() {
	const t = new FTree("all");
	let old = 0;
	for (const [fr, o, n] of D.fd) {
		old += o;
		if (!n) continue;
		t.add(foldedPath(fr), n, (x) => { x.old = (x.old || 0) + o; });
	}
	const root = t.done();
	root.oldTotal = old;
	let max = 0;
	const todo = [root];
	while (todo.length) {
		const x = todo.pop();
		x.change = x.w / root.w - (old ? (x.old || 0) / old : 0);
		max = Math.max(max, Math.abs(x.change));
		for (const c of x.kids) todo.push(c);
	}
	root.max = max;
	return root;
}
if (D.fd && D.fd.length) {
	let root = null;
	const color = (n) => {
		const s = root.max ? Math.round(205 * Math.abs(n.change) / root.max) : 0;
		return n.change > 0 ? "rgb(255," + (255 - s) + "," + (255 - s) + ")" : n.change < 0 ? "rgb(" + (255 - s) + "," + (255 - s) + ",255)" : "rgb(250,250,250)";
	};
	const fg = Flame($("flame"), { color: color, label: (n) => "NEW " + pct(n.w, root.w) + "%, OLD " +
		pct(n.old || 0, root.oldTotal) + "% (" + (n.change >= 0 ? "+" : "") + (100 * n.change).toFixed(2) + " points)" });
	root = tree();
	fg.set(root, D.fe + ": NEW's stacks (widths by NEW's period per run, as --folded's NEW column); red grew, blue shrank in share against OLD.");
} else {
	$("flame").hidden = true;
}
const ps = $("pair");
P.forEach((p, k) => { const o = el("option", (p.neu || p.old) + (p.old && p.neu && p.old !== p.neu ? " (OLD " + p.old + ")" : "")); o.value = k; ps.append(o); });
ps.addEventListener("change", () => { pair = +ps.value; render(); });
$("filter").addEventListener("input", render);
$("rows").tHead.replaceWith(headRow(COLS, true));
info();
render();
})();

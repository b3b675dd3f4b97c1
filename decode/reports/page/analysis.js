// readperf --html: the analysis page (decode/reports/html.c writes the data).
(function () {
const N = D.buckets;
const str = (k) => k < 0 ? null : S[k];
const F = D.f.map((r, i) => ({ i: i, ev: r[0], dso: S[r[1]], name: S[r[2]], file: str(r[3]), line: r[4],
	samples: r[5], period: r[6], chs: r[7], chp: r[8], shown: r[9], callers: [], callees: [], lines: [] }));
D.e.forEach((e) => { const x = { caller: e[0], callee: e[1], samples: e[2], period: e[3] };
	F[e[1]].callers.push(x); F[e[0]].callees.push(x); });
D.l.forEach((l) => F[l[0]].lines.push({ file: str(l[1]), line: l[2], samples: l[3], period: l[4] }));
const EV = D.ev.map((e) => ({ name: e[0], samples: e[1], period: e[2], time: e[3], cc: e[4] }));
const K = D.k.map((k) => ({ ev: k[0], comm: str(k[1]), cc: k[2], fr: k[3], cells: k[4] }));
let ev = 0, key = null, dir = -1, sel = -1, range = null, R = null;
const LIMIT = 1000;

function per(p, e) { return EV[e] && EV[e].time ? (p / 1e6).toFixed(2) + " ms" : String(p); }
function src(f) { return f.file ? f.file + ":" + f.line : ""; }
function secs(ns) { return ns >= 1e9 ? (ns / 1e9).toFixed(3) + " s" : (ns / 1e6).toFixed(3) + " ms"; }
function info() {
	const dl = $("info"), add = (k, v) => { if (v === null || v === undefined || v === "") return; dl.append(el("dt", k), el("dd", v)); };
	let n = 0;
	EV.forEach((e) => { n += e.samples; });
	add("File", D.file); add("Command", D.cmd); add("Host", D.host); add("perf", D.perf);
	add("Duration", D.dur ? secs(D.dur) : null); add("Samples", String(n));
	add("Events", EV.map((e, k) => e.name + ": " + e.samples + " samples, period " + per(e.period, k)).join("; "));
}

// ------------------------------------------------------------ time ranges
// a stack's [samples, period] in range r ([A, B] in buckets: cells 2A..2B), or all of it
function weight(k, r) {
	let s = 0, p = 0;
	const c = k.cells, lo = r ? 2 * r[0] : -Infinity, hi = r ? 2 * r[1] : Infinity;
	for (let j = 0; j < c.length; j += 3) if (c[j] >= lo && c[j] <= hi && (r === null || c[j] >= 0)) { s += c[j + 1]; p += c[j + 2]; }
	return [s, p];
}
function below(p, t) {
	if (!D.lim) return false;
	return !t || (BigInt(p) * 2000000n + BigInt(t)) / (BigInt(t) * 2n) < BigInt(D.lim);
}
// the functions of range r as results.csv's rows of --time A%-B%: self from the
// innermost frame, children once per stack, totals per event
function rangeRows(r) {
	const n = F.length, s = new Float64Array(n), p = new Float64Array(n), cs = new Float64Array(n), cp = new Float64Array(n),
		seen = new Int32Array(n).fill(-1), tot = EV.map(() => 0), cc = D.ev.some((e) => e[4]);
	K.forEach((k, i) => {
		const w = weight(k, r);
		if (!w[0]) return;
		tot[k.ev] += w[1];
		if (k.fr.length && k.fr[0] >= 0) { s[k.fr[0]] += w[0]; p[k.fr[0]] += w[1]; }
		for (const f of k.fr) if (f >= 0 && seen[f] !== i) { seen[f] = i; cs[f] += w[0]; cp[f] += w[1]; }
	});
	const rows = F.filter((f) => s[f.i] || cs[f.i]).map((f) => ({ i: f.i, ev: f.ev, dso: f.dso, name: f.name, file: f.file,
		line: f.line, samples: s[f.i], period: p[f.i], chs: cs[f.i], chp: cp[f.i],
		shown: !below(p[f.i], tot[f.ev]) || (cc && !below(cp[f.i], tot[f.ev])) }));
	rows.sort((a, b) => a.ev - b.ev || b.period - a.period || b.chp - a.chp || cmpStr(a.dso, b.dso) || cmpStr(a.name, b.name));
	return { rows: rows, tot: tot, by: new Map(rows.map((x) => [x.i, x])) };
}
// callers.csv's edges of function i in range r (once per sample per pair)
function rangeEdges(i, r) {
	const callers = new Map(), callees = new Map(), add = (m, k, w) => {
		const x = m.get(k) || { caller: k, callee: k, samples: 0, period: 0 };
		x.samples += w[0]; x.period += w[1]; m.set(k, x);
	};
	for (const k of K) {
		if (!k.cc || k.fr.indexOf(i) < 0) continue;
		const w = weight(k, r), a = new Set(), b = new Set();
		if (!w[0]) continue;
		for (let j = 0; j + 1 < k.fr.length; j++) {
			const callee = k.fr[j], caller = k.fr[j + 1];
			if (callee === i && !a.has(caller)) { a.add(caller); add(callers, caller, w); }
			if (caller === i && !b.has(callee)) { b.add(callee); add(callees, callee, w); }
		}
	}
	const fix = (m, side) => [...m.values()].map((x) => { const y = { samples: x.samples, period: x.period };
		y.caller = side ? i : x.caller; y.callee = side ? x.callee : i; return y; });
	return { callers: fix(callers, 0), callees: fix(callees, 1) };
}

// ---------------------------------------------------------------- the table
const VAL = { name: (f) => f.name, dso: (f) => f.dso, self: (f) => f.period, children: (f) => f.chp,
	samples: (f) => f.samples, period: (f) => f.period, src: (f) => src(f) };
function total() { return R ? R.tot[ev] : EV[ev] ? EV[ev].period : 0; }
function rows() {
	const q = $("filter").value.toLowerCase();
	let v = (R ? R.rows : F).filter((f) => f.ev === ev && f.shown && (!q || f.name.toLowerCase().includes(q) || f.dso.toLowerCase().includes(q)));
	if (key) {
		const g = VAL[key];
		v = v.map((f, k) => [f, k]).sort((a, b) => { const x = g(a[0]), y = g(b[0]);
			return x < y ? -dir : x > y ? dir : a[1] - b[1]; }).map((p) => p[0]);
	}
	return v;
}
function render() {
	const tb = $("funcs").tBodies[0], v = rows(), t = total(), frag = document.createDocumentFragment();
	v.slice(0, LIMIT).forEach((f) => {
		const tr = el("tr"), fn = el("td", undefined, "fn"), b = el("button", f.name);
		b.type = "button"; b.dataset.i = f.i; fn.append(b); tr.dataset.i = f.i; if (f.i === sel) tr.className = "sel";
		tr.append(fn, el("td", f.dso, "dso"), el("td", pct(f.period, t), "n self"), el("td", pct(f.chp, t), "n children"),
			el("td", String(f.samples), "n smp"), el("td", per(f.period, f.ev), "n"), el("td", src(f), "src"));
		frag.append(tr);
	});
	tb.replaceChildren(frag);
	$("count").textContent = (v.length > LIMIT ? "Showing " + LIMIT + " of " + v.length + " functions; filter to narrow." :
		v.length + " functions") + (R ? " in the time range" : "");
}
function edgeTable(tab, list, other, f, t, word) {
	const body = el("tbody");
	list.slice().sort((a, b) => b.period - a.period || a[other] - b[other]).forEach((e) => {
		const g = F[e[other]], tr = el("tr"), fn = el("td", undefined, "fn"), b = el("button", g.name);
		b.type = "button"; b.dataset.i = g.i; b.title = g.dso; fn.append(b); tr.dataset.i = g.i;
		tr.append(fn, el("td", String(e.samples), "n samples"), el("td", per(e.period, f.ev), "n"), el("td", pct(e.period, t), "n"));
		body.append(tr);
	});
	if (!list.length) body.append(noteRow("no " + word));
	tab.replaceChildren(headRow([["Function"], ["Samples", "n"], ["Period", "n"], ["Share %", "n"]]), body);
}
function lineTable(f) {
	const tab = $("lines"), body = el("tbody");
	f.lines.forEach((l) => { const tr = el("tr");
		tr.append(el("td", l.file ? l.file + ":" + l.line : "[unknown]", "src"), el("td", String(l.samples), "n"),
			el("td", per(l.period, f.ev), "n"), el("td", pct(l.period, f.period), "n")); body.append(tr); });
	if (!f.lines.length) body.append(noteRow("no samples in the function itself"));
	if (R) body.append(noteRow("source lines of the whole recording"));
	tab.replaceChildren(headRow([["Source line"], ["Samples", "n"], ["Period", "n"], ["% of self", "n"]]), body);
}
function show(i) {
	const f0 = F[i], f = R ? R.by.get(i) || Object.assign({}, f0, { samples: 0, period: 0, chs: 0, chp: 0 }) : f0,
		t = R ? R.tot[f0.ev] : EV[f0.ev].period, ed = R ? rangeEdges(i, range) : f0;
	sel = i; $("detail").hidden = false; $("dname").textContent = f.name;
	$("dinfo").textContent = f.dso + (f.file ? " \u2014 " + src(f) : "") + " \u2014 self " + pct(f.period, t) + "%, children " +
		pct(f.chp, t) + "%, " + f.samples + " samples" + (R ? " in the time range" : "");
	edgeTable($("callers"), ed.callers, "caller", f, f.chp, "callers");
	edgeTable($("callees"), ed.callees, "callee", f, f.chp, "callees");
	lineTable(f0);
	document.querySelectorAll("#funcs tbody tr").forEach((tr) => { tr.className = +tr.dataset.i === i ? "sel" : ""; });
}
document.addEventListener("click", (e) => {
	const b = e.target.closest("button");
	if (!b) return;
	if (b.dataset.i !== undefined) { show(+b.dataset.i); if (!b.closest("#funcs")) $("detail").scrollIntoView(); return; }
	if (b.dataset.k && b.closest("#funcs")) {
		const k = b.dataset.k, num = k !== "name" && k !== "dso" && k !== "src";
		dir = key === k ? -dir : (num ? -1 : 1); key = k;
		document.querySelectorAll("#funcs th").forEach((th) => th.removeAttribute("aria-sort"));
		b.parentNode.setAttribute("aria-sort", dir < 0 ? "descending" : "ascending");
		render();
	}
});

// -------------------------------------------------------- the flame graph
function flameTree(e, r) {
	const t = new FTree("all");
	for (const k of K) {
		if (k.ev !== e) continue;
		const w = weight(k, r)[1];
		if (!w) continue;
		const path = [];
		if (k.comm !== null) path.push({ key: "c" + k.comm, name: k.comm, kind: "c", fi: -1 });
		for (let j = k.fr.length - 1; j >= 0; j--) {
			const fi = k.fr[j], f = F[fi];
			path.push({ key: fi, name: f ? f.name : "[unknown]", kind: f && isKernel(f.dso) ? "k" : "u", fi: fi, dso: f ? f.dso : "" });
		}
		t.add(path, w);
	}
	return t.done();
}
const flame = Flame($("flame"), { label: (n) => per(n.w, ev), pick: (n) => { if (n.fi >= 0) show(n.fi); } });
function drawFlame() {
	flame.set(flameTree(ev, range), (EV[ev] ? EV[ev].name : "") + (R ? ", the time range" : ", the whole recording") +
		": widths by period, as results.csv's percent. Click a frame to zoom.");
}

// ------------------------------------------------------------- the timeline
function buckets(e) {
	const b = new Float64Array(N);
	for (const k of K) {
		if (k.ev !== e) continue;
		for (let j = 0; j < k.cells.length; j += 3) if (k.cells[j] >= 0) b[Math.min(N - 1, k.cells[j] >> 1)] += k.cells[j + 2];
	}
	return b;
}
function drawTimeline() {
	const svg = $("tlsvg"), b = buckets(ev), max = Math.max(...b), NS = "http://www.w3.org/2000/svg";
	svg.setAttribute("viewBox", "0 0 " + N + " 100");
	svg.replaceChildren();
	b.forEach((v, k) => {
		if (!v) return;
		const r = document.createElementNS(NS, "rect"), h = 100 * v / max;
		r.setAttribute("x", k); r.setAttribute("width", 0.9); r.setAttribute("y", 100 - h); r.setAttribute("height", h);
		r.setAttribute("fill", "#4a7bd0");
		svg.append(r);
	});
	$("tlto").textContent = secs(D.span);
}
function setRange(r) {
	range = r;
	R = r ? rangeRows(r) : null;
	const br = $("brush");
	br.hidden = !r;
	if (r) { br.style.left = (100 * r[0] / N) + "%"; br.style.width = (100 * (r[1] - r[0]) / N) + "%"; }
	const a = r ? 100 * r[0] / N : 0, b = r ? 100 * r[1] / N : 100;
	$("range").textContent = r ? "Time range " + a + "%\u2013" + b + "% (" + secs(D.span * r[0] / N) + " to " + secs(D.span * r[1] / N) +
		"), as readperf --time " + a + "%-" + b + "%" : "Whole recording";
	$("tl").setAttribute("aria-valuetext", $("range").textContent);
	render();
	drawFlame();
	if (sel >= 0) show(sel);
}
function brush() {
	const tl = $("tl"), br = $("brush");
	let x0 = null;
	const at = (e) => { const b = tl.getBoundingClientRect(); return Math.min(1, Math.max(0, (e.clientX - b.left) / b.width)); };
	const show1 = (x1) => { br.hidden = false; br.style.left = 100 * Math.min(x0, x1) + "%"; br.style.width = 100 * Math.abs(x1 - x0) + "%"; };
	tl.addEventListener("pointerdown", (e) => { x0 = at(e); tl.setPointerCapture(e.pointerId); show1(x0); });
	tl.addEventListener("pointermove", (e) => { if (x0 !== null) show1(at(e)); });
	tl.addEventListener("pointerup", (e) => {
		if (x0 === null) return;
		const x1 = at(e), a = Math.round(Math.min(x0, x1) * N), b = Math.round(Math.max(x0, x1) * N);
		x0 = null;
		setRange(b > a ? [a, b] : null);
	});
	tl.addEventListener("keydown", (e) => {
		const r = range || [0, N], step = e.shiftKey ? 10 : 1;
		if (e.key === "Escape") { setRange(null); return; }
		if (e.key === "ArrowLeft" && r[0] > 0) setRange([Math.max(0, r[0] - step), Math.max(0, r[1] - step)]);
		else if (e.key === "ArrowRight" && r[1] < N) setRange([Math.min(N, r[0] + step), Math.min(N, r[1] + step)]);
		else return;
		e.preventDefault();
	});
	$("whole").addEventListener("click", () => setRange(null));
}

// ------------------------------------------------------ off-CPU, threads, header
function offTree() {
	const t = new FTree("all");
	for (const [fr, ns] of D.o) {
		t.add(foldedPath(fr), ns);
	}
	return t.done();
}
const ms = (ns) => (ns / 1e6).toFixed(3);
// threads.csv's rows: a thread once (its rows per event share the time columns), under its process
function threads() {
	const procs = new Map(), sw = D.th.some((r) => r[8] >= 0);
	for (const r of D.th) {
		let p = procs.get(r[0]);
		if (!p) { p = { pid: r[0], comm: S[r[2]], th: new Map(), samples: 0, on: 0, off: 0, sw: 0 }; procs.set(r[0], p); }
		let t = p.th.get(r[1]);
		if (!t) {
			t = { tid: r[1], comm: S[r[2]], samples: 0, on: r[7], off: r[8], sw: r[9], vol: r[10], pre: r[11] };
			p.th.set(r[1], t);
			p.on += t.on; p.off += Math.max(0, t.off); p.sw += Math.max(0, t.sw);
			if (r[0] === r[1]) p.comm = t.comm;
		}
		t.samples += r[5]; p.samples += r[5];
	}
	const body = el("tbody"), row = (cls, name, pid, tid, n, on, off, swt) => {
		const tr = el("tr", undefined, cls), th = el("th", name);
		th.scope = "row";
		tr.append(th, el("td", String(pid), "n"), el("td", tid, "n"), el("td", String(n), "n"), el("td", ms(on), "n on"),
			el("td", sw ? ms(off) : "\u2013", "n off"), el("td", sw ? swt : "\u2013", "n"));
		return tr;
	};
	for (const p of procs.values()) {
		const tr = row("proc", p.comm, p.pid, p.th.size + (p.th.size === 1 ? " thread" : " threads"), p.samples, p.on, p.off, String(p.sw));
		tr.dataset.pid = p.pid;
		body.append(tr);
		for (const t of p.th.values()) {
			const x = row("thr", "\u2003" + t.comm, p.pid, String(t.tid), t.samples, t.on, t.off,
				t.sw + " (" + t.vol + " voluntary, " + t.pre + " preempted)");
			x.dataset.tid = t.tid;
			body.append(x);
		}
	}
	if (!D.th.length) body.append(noteRow("no threads", 7));
	$("thtab").replaceChildren(headRow([["Process / thread"], ["PID", "n"], ["TID", "n"], ["Samples", "n"], ["On-CPU ms", "n"],
		["Off-CPU ms", "n"], ["Switches", "n"]]), body);
	$("thnote").textContent = "threads.csv: on-CPU time is the period of cpu-clock and task-clock samples" +
		(sw ? "; off-CPU time from the context switches." : "; no context switches in the file, so no off-CPU time.");
}
function header() {
	const dl = $("info"), add = (k, v) => dl.append(el("dt", k), el("dd", v));
	if (D.lost) add("Lost", D.lost[0] || D.lost[2] ? D.lost[0] + " chunks (" + D.lost[1] + " records) when the ring buffer was full, " +
		D.lost[2] + " samples (" + pct(D.lost[2], D.lost[2] + D.lost[3]) + "%)" : "nothing");
	const by = EV.map(() => ({ samples: 0, user: 0, cut: 0, unknown: 0 }));
	for (const q of D.q) { const b = by[q[0]]; b.samples += q[2]; b.user += q[3]; b.cut += q[4]; b.unknown += q[5]; }
	by.forEach((b, k) => { if (b.samples) add("Unwind quality" + (EV.length > 1 ? " (" + EV[k].name + ")" : ""),
		b.cut + " of " + b.user + " user stacks cut short of the thread root (" + pct(b.cut, b.samples) + "% of " + b.samples +
		" samples), " + b.unknown + " samples with an [unknown] frame (" + pct(b.unknown, b.samples) + "%)"); });
	const tab = $("qtab"), body = el("tbody");
	for (const q of D.q) {
		const tr = el("tr");
		tr.append(el("td", EV[q[0]].name), el("td", S[q[1]], "dso"), el("td", String(q[2]), "n"), el("td", String(q[3]), "n"),
			el("td", q[4] + " (" + pct(q[4], q[2]) + "%)", "n"), el("td", q[5] + " (" + pct(q[5], q[2]) + "%)", "n"), el("td", String(q[6]), "n"));
		body.append(tr);
	}
	tab.replaceChildren(headRow([["Event"], ["DSO"], ["Samples", "n"], ["User stacks", "n"], ["Cut", "n"], ["Unknown", "n"],
		["Cut here", "n"]]), body);
	const w = $("warnings");
	if (D.w.length) {
		const ul = el("ul", undefined, "warn");
		D.w.forEach((m) => ul.append(el("li", m)));
		w.append(el("h2", D.w.length + (D.w.length > 1 ? " warnings" : " warning") + (D.wd ? " (and " + D.wd + " more)" : "")), ul);
	}
}

const es = $("event");
EV.forEach((e, k) => { const o = el("option", e.name + " (" + e.samples + " samples)"); o.value = k; es.append(o); });
ev = Math.max(0, EV.findIndex((e) => e.samples > 0));
es.value = ev;
es.addEventListener("change", () => { ev = +es.value; render(); drawFlame(); if (D.span) drawTimeline(); });
$("filter").addEventListener("input", render);
info();
header();
threads();
if (D.o && D.o.length) {
	$("offcpu").hidden = false;
	Flame($("offcpu"), { blue: true, label: (n) => ms(n.w) + " ms" }).set(offTree(),
		"--folded-offcpu's stacks: time off the CPU from a switch out to the switch back in, per blocking stack, the whole recording.");
}
if (D.span) { drawTimeline(); brush(); } else {
	$("tl").hidden = true; $("whole").hidden = true;
	$("tlnote").textContent = "No timeline: the file has no first and last sample time (perf record writes them since perf 5.x).";
}
render();
drawFlame();
})();

// readperf's page: what the analysis page and the diff page share (helpers,
// the flame graph).  Every name reaches the page through textContent, never
// as markup.
const $ = (id) => document.getElementById(id);
const D = JSON.parse($("data").textContent), S = D.s;
function el(tag, text, cls) {
	const x = document.createElement(tag);
	if (text !== undefined && text !== null) x.textContent = text;
	if (cls) x.className = cls;
	return x;
}
function pct(p, t) { return t ? (100 * p / t).toFixed(2) : "0.00"; }
function cmpStr(a, b) { return a < b ? -1 : a > b ? 1 : 0; }
function isKernel(dso) { return /^\[kernel|\.ko(\.[a-z]+)?$|^\[[a-z_]+\]$/.test(dso || ""); }
function headRow(names, sortable) {
	const tr = el("tr");
	names.forEach((h, k) => {
		const th = el("th", sortable ? undefined : h[0], h[1] || "");
		th.scope = "col";
		if (sortable) { const b = el("button", h[0]); b.type = "button"; b.dataset.k = h[2]; th.append(b); }
		tr.append(th);
	});
	const thead = el("thead");
	thead.append(tr);
	return thead;
}
function noteRow(text, span) { const tr = el("tr"), td = el("td", text, "note"); td.colSpan = span || 4; tr.append(td); return tr; }
function strHash(s) { let h = 2166136261; for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0; return h; }

// a tree of frames for a flame graph: add(path, w) with path outermost
// first, each step { key, name, kind: "c" comm, "k" kernel, "u" user, fi, dso }
function FTree(name) { this.root = { name: name, key: "", w: 0, kids: new Map(), kind: "r", depth: 0, parent: null, fi: -1 }; }
FTree.prototype.add = function (path, w, extra) {
	let n = this.root;
	n.w += w;
	if (extra) extra(n, w);
	for (const p of path) {
		let c = n.kids.get(p.key);
		if (!c) {
			c = { name: p.name, key: p.key, w: 0, kids: new Map(), kind: p.kind, fi: p.fi, dso: p.dso, depth: n.depth + 1, parent: n };
			n.kids.set(p.key, c);
		}
		c.w += w;
		if (extra) extra(c, w);
		n = c;
	}
};
// children in name order (flamegraph.pl's), x offsets in the root's weight
FTree.prototype.done = function () {
	const todo = [this.root];
	this.root.x = 0;
	while (todo.length) {
		const n = todo.pop();
		let x = n.x;
		n.kids = [...n.kids.values()].sort((a, b) => cmpStr(a.name, b.name) || cmpStr(String(a.key), String(b.key)));
		for (const c of n.kids) { c.x = x; x += c.w; todo.push(c); }
	}
	return this.root;
};

// a line of folded stacks (frame names, the comm first; "_[k]" marks a
// kernel frame as stackcollapse-perf.pl --kernel writes it) as an FTree path
function foldedPath(fr) {
	return fr.map((k, j) => {
		const name = S[k], kern = j > 0 && name.endsWith("_[k]");
		return { key: name, name: kern ? name.slice(0, -4) : name, kind: j ? (kern ? "k" : "u") : "c", fi: -1 };
	});
}

// the flame graph of a section holding .fg, .fgq (search), .fgreset, .fgm
// (the match), .fgnote: root at the bottom, widths by weight, a click zooms
// into a frame (its ancestors stay, faded), the search marks the frames whose
// name matches and says their share of the whole (nested matches once, as
// flamegraph.pl).  opts: label(w) for tooltips, color(n) or null, pick(n)
// after a click, blue (the off-CPU palette).
function Flame(sec, opts) {
	const box = sec.querySelector(".fg"), q = sec.querySelector(".fgq"), m = sec.querySelector(".fgm"), H = 16;
	let root = null, zoom = null, re = null, nodes = [];
	function color(n) {
		const c = opts.color ? opts.color(n) : null, v = strHash(n.name) / 4294967296, w = strHash(n.name + "/") / 4294967296;
		if (c) return c;
		if (n.kind === "r" || n.kind === "c") return "rgb(205,205,205)";
		if (opts.blue) return "rgb(" + (60 + 60 * v | 0) + "," + (120 + 80 * w | 0) + ",225)";
		if (n.kind === "k") return "rgb(235," + (140 + 60 * v | 0) + ",60)";
		return "rgb(" + (205 + 50 * v | 0) + "," + (230 * w | 0) + "," + (55 * v | 0) + ")";
	}
	function hit(n) { return re !== null && n.kind !== "r" && n.kind !== "c" && re.test(n.name); }
	function render() {
		box.replaceChildren();
		nodes = [];
		if (!root || !root.w) { box.style.height = "0"; return; }
		const W = box.clientWidth || 1000, z = zoom || root, list = [];
		for (let a = z.parent; a; a = a.parent) list.push([a, 0, 1, true]);
		const todo = [z];
		while (todo.length) {
			const n = todo.pop(), w = n.w / z.w;
			if (w * W < 0.5) continue;
			list.push([n, (n.x - z.x) / z.w, w, false]);
			for (const c of n.kids) todo.push(c);
		}
		let maxd = 0;
		for (const e of list) maxd = Math.max(maxd, e[0].depth);
		box.style.height = (maxd + 1) * H + "px";
		const frag = document.createDocumentFragment();
		for (const [n, x, w, anc] of list) {
			const d = el("div", w * W >= 14 ? n.name : "", "fr" + (anc ? " anc" : "") + (hit(n) ? " hit" : ""));
			d.style.left = (100 * x) + "%";
			d.style.width = (100 * w) + "%";
			d.style.bottom = n.depth * H + "px";
			d.style.background = color(n);
			d.title = n.name + (n.dso ? " (" + n.dso + ")" : "") + "\n" + opts.label(n) + ", " + pct(n.w, root.w) + "%";
			d.dataset.n = nodes.length;
			nodes.push(n);
			frag.append(d);
		}
		box.append(frag);
	}
	function search() {
		const s = q.value;
		re = null;
		if (s) { try { re = new RegExp(s); } catch (e) { re = new RegExp(s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")); } }
		let share = 0;
		if (re && root) {
			const todo = [root];
			while (todo.length) { const n = todo.pop(); if (hit(n)) share += n.w; else for (const c of n.kids) todo.push(c); }
		}
		m.textContent = re && root ? "Matched: " + pct(share, root.w) + "%" : "";
		m.dataset.share = root && root.w ? share / root.w : 0;
		render();
	}
	box.addEventListener("click", (e) => {
		const d = e.target.closest(".fr");
		if (!d) return;
		const n = nodes[+d.dataset.n];
		zoom = n === root ? null : n;
		render();
		if (opts.pick) opts.pick(n);
	});
	sec.querySelector(".fgreset").addEventListener("click", () => { zoom = null; render(); });
	q.addEventListener("input", search);
	window.addEventListener("resize", render);
	return {
		set: (r, note) => { root = r; zoom = null; sec.querySelector(".fgnote").textContent = note || ""; search(); },
		zoomed: () => zoom,
	};
}

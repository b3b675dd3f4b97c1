// SPDX-License-Identifier: GPL-3.0-or-later
// readperf's --html page as a user meets it in headless chromium:
//   node html-check.mjs FILE.html CSVDIR SHOTDIR [HALFDIR]
// CSVDIR holds the same run's results.csv, callers.csv and lines.csv (-o);
// HALFDIR the results.csv of the same options with --time 0%-50%.
// The page loads with no script or console error and asks for nothing but
// itself (every other request is intercepted, counted and aborted); the
// function table's top row is results.csv's first (function, self percent to
// 2 decimals); a click on the "Children %" header puts a function with
// results.csv's highest children_percent first; a click on results.csv's
// top function shows callers and callees whose samples are callers.csv's
// rows for it, and as many source lines as lines.csv has for it; the filter
// box and the keyboard (Enter on a focused row button) work; screenshots at
// 1280x800 and 390x844 go to SHOTDIR, and at 390 px the page has no
// horizontal scroll.
// The flame graph: the frame under the point where the biggest frame of
// results.csv's top-children function is drawn (document.elementFromPoint)
// is that frame; a real click there zooms it to the graph's whole width and
// opens its detail; "Reset zoom" brings it back; searching ^NAME$ says the
// share results.csv prints as its children_percent.  The timeline: a real
// mouse drag from its left end to its middle selects 0%-50%, and the table's
// top row is then HALFDIR's results.csv's (function and percent), the flame
// graph's search share of HALFDIR's top-children function its
// children_percent; Escape on the timeline gives the whole recording back.
// Prints "ok - ..." / "not ok - ..." lines; exit 77 when
// it cannot run.
import { existsSync, readFileSync } from 'node:fs';
import { openIsolated, phoneAndExit, report } from './browser.mjs';
import { csv } from './csv.mjs';

const [file, dir, shots, half] = process.argv.slice(2);
if (!file || !dir || !shots) {
	console.error('usage: html-check.mjs FILE.html CSVDIR SHOTDIR');
	process.exit(2);
}

const results = csv(`${dir}/results.csv`), callers = csv(`${dir}/callers.csv`), lines = csv(`${dir}/lines.csv`);
const top = results[0];

const { browser, page, errors, requests } = await openIsolated(file, { width: 1280, height: 800 });
let failed = 0;
const check = (ok, what) => { if (!report(ok, what)) failed++; };
const tableRows = (sel) => page.evaluate((s) => [...document.querySelectorAll(`${s} tbody tr`)].map((tr) =>
	[...tr.cells].map((td) => td.textContent)), sel);
const center = (sel) => page.evaluate((s) => {
	const b = document.querySelector(s).getBoundingClientRect();
	return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}, sel);

check(errors.length === 0, `loads without script or console errors (${errors.join('; ').slice(0, 200)})`);
check(requests.length === 0, `no request leaves the page (${requests.slice(0, 3).join(' ')})`);
const evs = await page.evaluate(() => document.querySelectorAll('#event option').length);
check(evs >= 1, `an event selector with ${evs} events`);

let rows = await tableRows('#funcs');
const pct = (p) => (+p).toFixed(2);
check(rows.length > 0 && rows[0][0] === top.function && rows[0][2] === pct(top.percent),
	`top row ${rows[0] && rows[0][0]} ${rows[0] && rows[0][2]}% is results.csv's ${top.function} ${pct(top.percent)}%`);

await page.screenshot({ path: `${shots}/desktop-1280x800.png` });

// sort by children: a real click on the header button
let b = await center('#funcs th button[data-k="children"]');
await page.mouse.click(b.x, b.y);
rows = await tableRows('#funcs');
const maxCh = Math.max(...results.map((r) => +r.children_percent));
const best = results.filter((r) => +r.children_percent === maxCh).map((r) => r.function);
check(rows.length > 0 && best.includes(rows[0][0]) && rows[0][3] === pct(maxCh),
	`sorted by children: ${rows[0] && rows[0][0]} ${rows[0] && rows[0][3]}% first, results.csv's highest is ${best.join('/')} ${pct(maxCh)}%`);
const sorted = await page.evaluate(() => document.querySelector('#funcs th[aria-sort]').textContent);
check(sorted === 'Children %', `aria-sort on the sorted column (${sorted})`);

// the top function's drill-down
const handle = await page.evaluateHandle((name) => [...document.querySelectorAll('#funcs td.fn button')]
	.find((x) => x.textContent === name), top.function);
await handle.click();
const shown = await page.evaluate(() => !document.getElementById('detail').hidden && document.getElementById('dname').textContent);
check(shown === top.function, `a click on ${top.function} opens its detail (${shown})`);
const multiset = (list) => list.map((p) => p.join(' ')).sort().join(', ');
const ev = top.event;
const wantCallers = multiset(callers.filter((r) => r.event === ev && r.callee === top.function && r.callee_dso === top.dso)
	.map((r) => [r.caller, r.samples]));
const wantCallees = multiset(callers.filter((r) => r.event === ev && r.caller === top.function && r.caller_dso === top.dso)
	.map((r) => [r.callee, r.samples]));
const got = async (sel) => multiset((await tableRows(sel)).filter((r) => r.length === 4).map((r) => [r[0], r[1]]));
const gotCallers = await got('#callers'), gotCallees = await got('#callees');
check(gotCallers === wantCallers, `callers (function samples) [${gotCallers}] are callers.csv's [${wantCallers}]`);
check(gotCallees === wantCallees, `callees [${gotCallees}] are callers.csv's [${wantCallees}]`);
const wantLines = lines.filter((r) => r.event === ev && r.function === top.function && r.dso === top.dso).length;
const gotLines = (await tableRows('#lines')).filter((r) => r.length === 4).length;
check(gotLines === wantLines && wantLines > 0, `${gotLines} source lines, lines.csv has ${wantLines}`);

// the filter box, then the keyboard alone
await page.click('#filter');
await page.keyboard.type(top.function);
rows = await tableRows('#funcs');
check(rows.length > 0 && rows.every((r) => (r[0] + r[1]).toLowerCase().includes(top.function.toLowerCase())),
	`filter '${top.function}': ${rows.length} rows, each matching`);
const last = results.filter((r) => r.event === top.event).at(-1).function;
await page.evaluate(() => { const f = document.getElementById('filter'); f.value = ''; f.dispatchEvent(new Event('input')); });
await page.evaluate((name) => [...document.querySelectorAll('#funcs td.fn button')].find((x) => x.textContent === name).focus(), last);
await page.keyboard.press('Enter');
const kb = await page.evaluate(() => document.getElementById('dname').textContent);
check(kb === last, `Enter on a focused row button shows that function (${kb}, wanted ${last})`);

// the flame graph: hit-test, click to zoom, reset, search
const reEsc = (x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// results.csv's function with the highest children_percent among those whose name is one function's
function topChildren(rows) {
	const ev = rows.length ? rows[0].event : '', named = new Map();
	rows.filter((r) => r.event === ev).forEach((r) => named.set(r.function, (named.get(r.function) || 0) + 1));
	return rows.filter((r) => r.event === ev && named.get(r.function) === 1 && r.children_percent !== '')
		.sort((a, b) => +b.children_percent - +a.children_percent)[0];
}
async function searchShare(sec, name) {
	await page.click(`${sec} .fgq`, { clickCount: 3 });
	await page.keyboard.press('Backspace');
	await page.type(`${sec} .fgq`, `^${reEsc(name)}$`);
	return page.evaluate((s) => document.querySelector(`${s} .fgm`).textContent, sec);
}
const hot = topChildren(results);
if (hot) {
	const got = await searchShare('#flame', hot.function);
	check(got === `Matched: ${pct(hot.children_percent)}%`,
		`flame graph search ^${hot.function}$: '${got}', results.csv's children_percent ${pct(hot.children_percent)}%`);
	await page.click('#flame .fgq', { clickCount: 3 });
	await page.keyboard.press('Backspace');
	const at = await page.evaluate((name) => {
		const fr = [...document.querySelectorAll('#flame .fr')].filter((d) => d.title.split(' (')[0] === name)
			.sort((a, b) => b.getBoundingClientRect().width - a.getBoundingClientRect().width)[0];
		if (!fr) return null;
		fr.scrollIntoView({ block: 'center' });
		const b = fr.getBoundingClientRect(), x = b.x + Math.min(b.width / 2, 40), y = b.y + b.height / 2;
		fr.id = 'hit-me';
		return { x, y, w: b.width, top: document.elementFromPoint(x, y) === fr, box: document.querySelector('#flame .fg').clientWidth };
	}, hot.function);
	check(at && at.top, `the frame of ${hot.function} is what is drawn at (${at && at.x | 0}, ${at && at.y | 0}) (elementFromPoint)`);
	if (at) {
		await page.mouse.click(at.x, at.y);
		const z = await page.evaluate((name) => {
			const fr = [...document.querySelectorAll('#flame .fr')].filter((d) => d.title.split(' (')[0] === name && !d.classList.contains('anc'))
				.map((d) => d.getBoundingClientRect().width).sort((a, b) => b - a)[0];
			return { w: fr, box: document.querySelector('#flame .fg').clientWidth, d: document.getElementById('dname').textContent };
		}, hot.function);
		check(Math.abs(z.w - z.box) < 2 && at.w < z.box - 2 || Math.abs(at.w - at.box) < 2,
			`a click on ${hot.function} (${at.w | 0} px) zooms it to the graph's width (${z.w | 0} of ${z.box} px)`);
		check(z.d === hot.function, `the click opens ${hot.function}'s detail (${z.d})`);
		const r = await center('#flame .fgreset');
		await page.mouse.click(r.x, r.y);
		const back = await page.evaluate(() => document.querySelectorAll('#flame .fr.anc').length);
		check(back === 0, `Reset zoom: no faded ancestor frames left (${back})`);
	}
}

// the timeline: a real drag over its first half is --time 0%-50%
const tl = await page.evaluate(() => { const t = document.getElementById('tl');
	if (!t || t.hidden) return null; t.scrollIntoView({ block: 'center' }); const b = t.getBoundingClientRect();
	return { x: b.x, y: b.y, w: b.width, h: b.height }; });
if (half && tl) {
	const halfRows = csv(`${half}/results.csv`), y = tl.y + tl.h / 2;
	// results.csv's order again: a real click on "Self %"
	const sh = await center('#funcs th button[data-k="self"]');
	await page.mouse.click(sh.x, sh.y);
	const hitTl = await page.evaluate((x, yy) => document.getElementById('tl').contains(document.elementFromPoint(x, yy)), tl.x + 2, y);
	check(hitTl, 'the timeline is what is drawn where the drag starts (elementFromPoint)');
	await page.mouse.move(tl.x + 1, y);
	await page.mouse.down();
	await page.mouse.move(tl.x + tl.w / 4, y, { steps: 4 });
	await page.mouse.move(tl.x + tl.w / 2, y, { steps: 4 });
	await page.mouse.up();
	const said = await page.evaluate(() => document.getElementById('range').textContent);
	check(said.includes('--time 0%-50%'), `the brush says the range (${said})`);
	rows = await tableRows('#funcs');
	const h0 = halfRows[0];
	check(rows.length > 0 && h0 && rows[0][0] === h0.function && rows[0][2] === pct(h0.percent),
		`brushed to the first half: top row ${rows[0] && rows[0][0]} ${rows[0] && rows[0][2]}% is --time 0%-50%'s ${h0 && h0.function} ${h0 && pct(h0.percent)}%`);
	const hh = topChildren(halfRows);
	if (hh) {
		const got = await searchShare('#flame', hh.function);
		check(got === `Matched: ${pct(hh.children_percent)}%`,
			`brushed: flame graph search ^${hh.function}$ '${got}', --time 0%-50%'s children_percent ${pct(hh.children_percent)}%`);
	}
	await page.screenshot({ path: `${shots}/brushed-1280x800.png` });
	await page.focus('#tl');
	await page.keyboard.press('Escape');
	rows = await tableRows('#funcs');
	check(rows.length > 0 && rows[0][0] === top.function && rows[0][2] === pct(top.percent),
		`Escape on the timeline: the whole recording again (top ${rows[0] && rows[0][0]})`);
} else if (half) {
	check(false, 'the page has a timeline (the file has its first and last sample time)');
} else {
	const why = await page.evaluate(() => document.getElementById('tlnote').textContent);
	check(tl === null && why.startsWith('No timeline'), `no timeline without the first and last sample time: '${why}'`);
}

// the off-CPU flame graph: a search's share is the folded-offcpu file's (HTML_OFF: its path, when it was written)
const offFile = process.env.HTML_OFF;
const offShown = await page.evaluate(() => !document.getElementById('offcpu').hidden);
if (offFile && existsSync(offFile)) {
	const folded = readFileSync(offFile, 'utf8').split('\n').filter(Boolean).map((l) => {
		const k = l.lastIndexOf(' ');
		return [l.slice(0, k).split(';').slice(1).map((f) => f.replace(/_\[k\]$/, '')), +l.slice(k + 1)];
	});
	const all = folded.reduce((t, f) => t + f[1], 0), name = folded[0][0][0];
	const want = pct(folded.filter((f) => f[0].includes(name)).reduce((t, f) => t + f[1], 0) / all * 100);
	check(offShown, 'the off-CPU flame graph is shown');
	const got = await searchShare('#offcpu', name);
	check(got === `Matched: ${want}%`, `off-CPU flame graph search ^${name}$: '${got}', --folded-offcpu's share ${want}%`);
	const oc = await page.evaluate(() => { const s = document.getElementById('offcpu'); s.scrollIntoView(); const b = s.querySelector('.fr.hit');
		if (!b) return null; const r = b.getBoundingClientRect(), x = r.x + r.width / 2, y = r.y + r.height / 2;
		return document.elementFromPoint(x, y) === b; });
	check(oc === true, 'a matched off-CPU frame is what is drawn at its place (elementFromPoint)');
} else {
	check(!offShown, 'no off-CPU flame graph without context switches');
}

// threads.csv: each thread's on- and off-CPU time in ms, its process's sum
const trows = csv(`${dir}/threads.csv`), tids = new Map();
trows.forEach((r) => tids.set(r.tid, r));
const thPage = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#thtab tr.thr')].map((tr) =>
	[tr.dataset.tid, [...tr.cells].map((c) => c.textContent)])));
const ms = (ns) => (+ns / 1e6).toFixed(3), dash = '\u2013';
let thBad = [...tids.values()].filter((r) => !thPage[r.tid] || thPage[r.tid][4] !== ms(r.oncpu_ns) ||
	thPage[r.tid][5] !== (+r.offcpu_ns < 0 ? dash : ms(r.offcpu_ns)));
check(tids.size > 0 && thBad.length === 0 && Object.keys(thPage).length === tids.size,
	`${tids.size} threads with threads.csv's on-CPU and off-CPU ms (${thBad.map((r) => r.tid).join(' ')})`);
const procOn = new Map();
tids.forEach((r) => procOn.set(r.pid, (procOn.get(r.pid) || 0) + +r.oncpu_ns));
const prPage = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#thtab tr.proc')].map((tr) =>
	[tr.dataset.pid, tr.cells[4].textContent])));
thBad = [...procOn].filter(([pid, on]) => prPage[pid] !== ms(on));
check(thBad.length === 0, `${procOn.size} processes with the sum of their threads' on-CPU ms (${thBad.join(' ')})`);

// the header: the warnings of the same run's stderr (HTML_STDERR), quality.csv's summary (HTML_QUALITY: its dir)
if (process.env.HTML_STDERR) {
	const want = readFileSync(process.env.HTML_STDERR, 'utf8').split('\n').filter((l) => l.startsWith('readperf: warning: '))
		.map((l) => l.slice('readperf: warning: '.length));
	const got = await page.evaluate(() => [...document.querySelectorAll('#warnings li')].map((li) => li.textContent));
	check(JSON.stringify(got) === JSON.stringify(want), `the header's ${got.length} warnings are stderr's ${want.length}`);
}
if (process.env.HTML_QUALITY) {
	const q = csv(`${process.env.HTML_QUALITY}/quality.csv`).filter((r) => r.event === top.event);
	const sum = (k) => q.reduce((t, r) => t + +r[k], 0), n = sum('samples');
	const want = `${sum('cut')} of ${sum('user_stacks')} user stacks cut short of the thread root (${pct(sum('cut') / n * 100)}% of ${n} samples), ` +
		`${sum('unknown')} samples with an [unknown] frame (${pct(sum('unknown') / n * 100)}%)`;
	const got = await page.evaluate(() => [...document.querySelectorAll('#info dt')].filter((d) => d.textContent.startsWith('Unwind quality'))
		.map((d) => d.nextElementSibling.textContent));
	check(got.includes(want), `unwind quality is quality.csv's: '${got[0]}' (want '${want}')`);
	const lost = await page.evaluate(() => [...document.querySelectorAll('#info dt')].some((d) => d.textContent === 'Lost'));
	check(lost, 'the header says what was lost');
}

await phoneAndExit({ browser, page, errors, requests }, shots, (ok, what) => report(ok, what), failed);

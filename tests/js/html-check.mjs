// SPDX-License-Identifier: GPL-3.0-or-later
// readperf's --html page as a user meets it in headless chromium:
//   node html-check.mjs FILE.html CSVDIR SHOTDIR
// CSVDIR holds the same run's results.csv, callers.csv and lines.csv (-o).
// The page loads with no script or console error and asks for nothing but
// itself (every other request is intercepted, counted and aborted); the
// function table's top row is results.csv's first (function, self percent to
// 2 decimals); a click on the "Children %" header puts a function with
// results.csv's highest children_percent first; a click on results.csv's
// top function shows callers and callees whose samples are callers.csv's
// rows for it, and as many source lines as lines.csv has for it; the filter
// box and the keyboard (Enter on a focused row button) work; screenshots at
// 1280x800 and 390x844 go to SHOTDIR, and at 390 px the page has no
// horizontal scroll.  Prints "ok - ..." / "not ok - ..." lines; exit 77 when
// it cannot run.
import { readFileSync } from 'node:fs';
import { openPage, report } from './browser.mjs';

const [file, dir, shots] = process.argv.slice(2);
if (!file || !dir || !shots) {
	console.error('usage: html-check.mjs FILE.html CSVDIR SHOTDIR');
	process.exit(2);
}

// RFC 4180 rows (quoted fields may hold commas, quotes and newlines)
function csv(path) {
	const s = readFileSync(path, 'utf8'), rows = [];
	let row = [], f = '', q = false;
	for (let i = 0; i < s.length; i++) {
		const c = s[i];
		if (q) {
			if (c === '"' && s[i + 1] === '"') { f += '"'; i++; } else if (c === '"') q = false; else f += c;
		} else if (c === '"') q = true;
		else if (c === ',') { row.push(f); f = ''; } else if (c === '\n') { row.push(f); rows.push(row); row = []; f = ''; } else f += c;
	}
	const head = rows.shift();
	return rows.map((r) => Object.fromEntries(head.map((h, k) => [h, r[k]])));
}
const results = csv(`${dir}/results.csv`), callers = csv(`${dir}/callers.csv`), lines = csv(`${dir}/lines.csv`);
const top = results[0];

const requests = [];
const { browser, page, errors } = await openPage(file, {
	width: 1280, height: 800,
	before: async (p) => {
		await p.setRequestInterception(true);
		p.on('request', (r) => {
			if (r.isNavigationRequest() && r.url().startsWith('file:')) { r.continue(); return; }
			requests.push(r.url());
			r.abort();
		});
	},
});
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
const last = results[results.length - 1].function;
await page.evaluate(() => { const f = document.getElementById('filter'); f.value = ''; f.dispatchEvent(new Event('input')); });
await page.evaluate((name) => [...document.querySelectorAll('#funcs td.fn button')].find((x) => x.textContent === name).focus(), last);
await page.keyboard.press('Enter');
const kb = await page.evaluate(() => document.getElementById('dname').textContent);
check(kb === last, `Enter on a focused row button shows that function (${kb}, wanted ${last})`);

await page.setViewport({ width: 390, height: 844 });
const sw = await page.evaluate(() => document.documentElement.scrollWidth);
check(sw <= 390, `at 390 px wide the page does not scroll sideways (scrollWidth ${sw})`);
await page.screenshot({ path: `${shots}/phone-390x844.png` });
check(errors.length === 0 && requests.length === 0, `still no error nor request after the clicks (${errors.join('; ').slice(0, 200)})`);
await browser.close();
process.exit(failed ? 1 : 0);

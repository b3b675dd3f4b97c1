// SPDX-License-Identifier: GPL-3.0-or-later
// readperf diff --html's page as a user meets it in headless chromium:
//   node diff-html-check.mjs FILE.html DIFFCSV FOLDED STDERR SHOTDIR
// DIFFCSV is the same run's diff.csv, FOLDED its --folded ("STACK OLD NEW"
// lines), STDERR its standard error (the gate's "regression:" lines).  The
// page loads with no script or console error and asks for nothing but
// itself; its table is diff.csv's rows of the first event pair in its order
// (function, old and new percent, ratio, interval); the gate line says
// FAILED exactly when stderr has regression lines, and the rows marked as
// crossing are the functions those lines name; a real click on the "Ratio"
// header puts diff.csv's highest ratio first; the differential flame graph's
// search ^NAME$ says NEW's share of NAME in FOLDED, the matched frame is
// what is drawn at its place (elementFromPoint), its colour is red when
// NAME's share grew, and a click there zooms it to the graph's width;
// screenshots at 1280x800 and 390x844 go to SHOTDIR, and at 390 px the
// page does not scroll sideways.
import { readFileSync } from 'node:fs';
import { openIsolated, phoneAndExit, report } from './browser.mjs';
import { csv } from './csv.mjs';

const [file, diffCsv, folded, stderr, shots] = process.argv.slice(2);
if (!shots) {
	console.error('usage: diff-html-check.mjs FILE.html DIFFCSV FOLDED STDERR SHOTDIR');
	process.exit(2);
}
const rows = csv(diffCsv), ev = rows[0].event, first = rows.filter((r) => r.event === ev);
const { browser, page, errors, requests } = await openIsolated(file, { width: 1280, height: 800 });
let failed = 0;
const check = (ok, what) => { if (!report(ok, what)) failed++; };
const table = () => page.evaluate(() => [...document.querySelectorAll('#rows tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent)));
const center = (sel) => page.evaluate((s) => { const e = document.querySelector(s); e.scrollIntoView({ block: 'center' });
	const b = e.getBoundingClientRect(); return { x: b.x + b.width / 2, y: b.y + b.height / 2 }; }, sel);

check(errors.length === 0, `loads without script or console errors (${errors.join('; ').slice(0, 200)})`);
check(requests.length === 0, `no request leaves the page (${requests.slice(0, 3).join(' ')})`);
let t = await table();
const show = (r) => [r.function, r.old_percent, r.new_percent, r.ratio === '-1.0000' ? 'new' : r.ratio === '-2.0000' ? 'new self time' : `\u00d7${r.ratio}`,
	`${r.ratio_low === '-1.0000' ? '\u221e' : r.ratio_low}\u2013${r.ratio_high === '-1.0000' ? '\u221e' : r.ratio_high}`].join(' ');
const want = first.slice(0, 1000).map(show), got = t.map((c) => [c[0], c[2], c[3], c[5], c[6]].join(' '));
const bad = want.findIndex((w, k) => w !== got[k]);
check(got.length === want.length && bad < 0, `${got.length} rows are diff.csv's ${want.length} of ${ev} in its order` +
	(bad >= 0 ? ` (row ${bad}: '${got[bad]}' vs '${want[bad]}')` : ''));

const reg = readFileSync(stderr, 'utf8').split('\n').map((l) => /regression: \S+ \S+ (\S+)/.exec(l)).filter(Boolean).map((m) => m[1]).sort();
const gate = await page.evaluate(() => document.getElementById('gate').textContent);
const marked = t.filter((c) => c[c.length - 1] !== '').map((c) => c[0]).sort();
check(gate.startsWith(reg.length ? 'Gate FAILED' : 'Gate passed'), `the gate line '${gate.slice(0, 60)}' (${reg.length} regression lines on stderr)`);
check(JSON.stringify(marked) === JSON.stringify(reg), `rows marked as crossing [${marked}] are stderr's regressions [${reg}]`);

const b = await center('#rows th button[data-k="ratio"]');
await page.mouse.click(b.x, b.y);
t = await table();
const maxRatio = Math.max(...first.map((r) => +r.ratio));
check(t.length && t[0][5] === `\u00d7${first.find((r) => +r.ratio === maxRatio).ratio}`,
	`sorted by ratio: ${t[0] && t[0][0]} ${t[0] && t[0][5]} first, diff.csv's highest ratio ${maxRatio}`);

// the differential flame graph against --folded
const lines = readFileSync(folded, 'utf8').split('\n').filter(Boolean).map((l) => {
	const f = l.split(' ');
	return [f.slice(0, -2).join(' ').split(';').slice(1).map((x) => x.replace(/_\[k\]$/, '')), +f[f.length - 2], +f[f.length - 1]];
});
const name = first[0].function, all = lines.reduce((s, l) => s + l[2], 0);
const share = (100 * lines.filter((l) => l[0].includes(name)).reduce((s, l) => s + l[2], 0) / all).toFixed(2);
await page.click('#flame .fgq');
await page.keyboard.type(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
const m = await page.evaluate(() => document.querySelector('#flame .fgm').textContent);
check(m === `Matched: ${share}%`, `differential flame graph search ^${name}$: '${m}', NEW's share in --folded ${share}%`);
const at = await page.evaluate(() => {
	const fr = document.querySelector('#flame .fr.hit');
	if (!fr) return null;
	fr.scrollIntoView({ block: 'center' });
	const r = fr.getBoundingClientRect(), x = r.x + Math.min(r.width / 2, 40), y = r.y + r.height / 2;
	return { x, y, w: r.width, top: document.elementFromPoint(x, y) === fr, box: document.querySelector('#flame .fg').clientWidth,
		title: fr.title };
});
check(at && at.top, `the frame of ${name} is what is drawn at its place (elementFromPoint)`);
const grew = +first[0].new_children_percent > +first[0].old_children_percent || (first[0].new_children_percent === undefined && +first[0].delta_percent > 0);
await page.click('#flame .fgq', { clickCount: 3 });
await page.keyboard.press('Backspace');
if (at) {
	const bg = await page.evaluate((x, y) => getComputedStyle(document.elementFromPoint(x, y)).backgroundColor, at.x, at.y);
	const [r, , bl] = bg.match(/\d+/g).map(Number);
	check(grew ? r > bl : r < bl, `${name}'s frame is ${grew ? 'red (grew)' : 'blue (shrank)'}: ${bg}`);
	await page.mouse.click(at.x, at.y);
	const z = await page.evaluate((title) => [...document.querySelectorAll('#flame .fr')].filter((d) => d.title === title &&
		!d.classList.contains('anc')).map((d) => d.getBoundingClientRect().width)[0], at.title);
	check(Math.abs(z - at.box) < 2, `a click on ${name} (${at.w | 0} px) zooms it to the graph's width (${z | 0} of ${at.box} px)`);
}
await page.screenshot({ path: `${shots}/desktop-1280x800.png` });
await phoneAndExit({ browser, page, errors, requests }, shots, (ok, what) => report(ok, what), failed);

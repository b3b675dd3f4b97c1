// SPDX-License-Identifier: GPL-3.0-or-later
// A --timeline SVG as chromium renders it (headless, puppeteer-core):
//   node timeline-check.mjs FILE.svg TIMELINE.csv SHOT.png
// it renders with no error; its legend names the first event's top functions
// of timeline.csv in order; hit-testing the rendered picture (the browser's
// elementFromPoint) at the centre of an interval where timeline.csv gives the
// top function 90% or more finds that function's layer, and in an interval
// without samples finds no layer; a screenshot is written to SHOT.png and is
// not blank. Prints "ok - ..." / "not ok - ..."; exit 77 when it cannot run.
import { readFileSync, statSync } from 'node:fs';
import { openPage, report } from './browser.mjs';

const [file, csv, shot] = process.argv.slice(2);
if (!file || !csv || !shot) {
	console.error('usage: timeline-check.mjs FILE.svg TIMELINE.csv SHOT.png');
	process.exit(2);
}
// the plot area, as decode/timeline.c draws it
const W = 1200, H = 600, LEFT = 70, RIGHT = 330, TOP = 50, BOTTOM = 60;
let failed = 0;
const check = (ok, what) => { if (!report(ok, what)) failed++; };

const lines = readFileSync(csv, 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
const event = lines.length ? lines[0][2] : '';
const rows = lines.filter((r) => r[2] === event);	// names without commas in these recordings
const starts = [...new Set(rows.map((r) => +r[0]))].sort((a, b) => a - b);
const perInterval = starts.length ? rows.length / starts.length : 0;
const top = rows.slice(0, perInterval).map((r) => r[4]);
const full = [], empty = [];
starts.forEach((s, b) => {
	const here = rows.filter((r) => +r[0] === s);
	const total = here.reduce((a, r) => a + +r[6], 0);
	if (total === 0) empty.push(b);
	else if (+here[0][7] >= 90) full.push(b);
});

const { browser, page, errors } = await openPage(file, { width: W, height: H });
check(errors.length === 0, `renders without errors (${errors.join('; ').slice(0, 200)})`);
const legend = await page.evaluate(() => [...document.querySelectorAll('g.legend text')].map((t) => t.textContent));
check(legend.length === top.length && legend.every((t, i) => top[i].startsWith(t.replace(/\.\.$/, ''))),
	`legend: ${legend.join(', ')} (timeline.csv: ${top.join(', ')})`);
const layerAt = (x, y) => page.evaluate((x, y) => {
	const el = document.elementFromPoint(x, y);
	return el && el.getAttribute('class') === 'layer' ? +el.getAttribute('data-layer') : -1;
}, x, y);
const xOf = (b) => LEFT + (W - LEFT - RIGHT) * (2 * b + 1) / (2 * starts.length);
const yMid = (TOP + H - BOTTOM) / 2;
let hits = 0;
const misses = [];
for (const b of full) if (await layerAt(xOf(b), yMid) === 0) hits++; else misses.push(`${b}:${await layerAt(xOf(b), yMid)}`);
check(full.length > 0 && hits === full.length,
	`${hits} of ${full.length} intervals where ${top[0]} has 90% or more show its layer at mid-height${misses.length ? " (not: " + misses.join(" ") + ")" : ""}`);
let none = 0;
for (const b of empty) if (await layerAt(xOf(b), yMid) === -1) none++;
check(none === empty.length, `${none} of ${empty.length} intervals without samples show no layer`);
await page.screenshot({ path: shot });
check(statSync(shot).size > 10000, `screenshot ${shot}: ${statSync(shot).size} bytes`);
await browser.close();
process.exit(failed ? 1 : 0);

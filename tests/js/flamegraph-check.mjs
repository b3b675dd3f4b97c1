// SPDX-License-Identifier: GPL-3.0-or-later
// A flame graph SVG as a user meets it in a browser (headless chromium):
//   node flamegraph-check.mjs FILE.svg FUNCTION REGEX EXPECTED_PERCENT
// it renders with no script error; a real mouse click on FUNCTION's widest
// frame zooms: that frame's rectangle becomes as wide as the root's, its
// ancestors are faded and frames beside it hidden; a click on "Reset Zoom"
// puts every frame back; Ctrl-F with REGEX typed into the prompt colours the
// matching frames magenta and prints "Matched: P%" with P within 0.1 of
// EXPECTED_PERCENT (the test passes results.csv's children_percent).
// With RED and NEUTRAL (readperf diff --flamegraph, a differential graph):
// RED's widest frame is drawn red (rgb(255,g,g), g <= 120: grew, saturated)
// and NEUTRAL's pale (every component >= 150: little change).
// Prints "ok - ..." / "not ok - ..." lines; exit 77 when it cannot run.
import { openPage, report } from './browser.mjs';

const [file, func, regex, expected, red, neutral] = process.argv.slice(2);
if (!file || !func || !regex || expected === undefined) {
	console.error('usage: flamegraph-check.mjs FILE.svg FUNCTION REGEX EXPECTED_PERCENT [RED NEUTRAL]');
	process.exit(2);
}
const { browser, page, errors } = await openPage(file);
let failed = 0;
const check = (ok, what) => { if (!report(ok, what)) failed++; };

// every frame: name (title up to " (period"), geometry, class, fill
const frames = () => page.evaluate(() => [...document.querySelectorAll('#frames > g')].map((g) => {
	const r = g.querySelector('rect'), t = g.querySelector('title').textContent;
	const box = r.getBoundingClientRect();
	return {
		name: t.slice(0, t.search(/ \((period|off-CPU) [0-9]+( ns)?, [0-9.]+%(; OLD period [0-9]+, ratio -?[0-9.]+)?\)$/)), w: +r.getAttribute('width'),
		x: +r.getAttribute('x'), y: +r.getAttribute('y'), cls: g.getAttribute('class') || '',
		fill: r.getAttribute('fill'), label: g.querySelector('text').textContent,
		shown: box.width > 0, cx: box.x + box.width / 2, cy: box.y + box.height / 2,
	};
}));

const before = await frames();
const root = before[before.length - 1];
check(errors.length === 0, `renders without script errors (${errors.join('; ').slice(0, 200)})`);
check(before.length > 2 && root && root.name === 'all' && root.shown,
	`${before.length} frames drawn, root 'all' visible`);
const widest = (name) => before.filter((f) => f.name === name).sort((a, b) => b.w - a.w)[0];
const rgb = (f) => (f ? f.fill.match(/[0-9]+/g).map(Number) : [0, 0, 0]);
if (red) {
	const [r, g, b] = rgb(widest(red));
	check(r === 255 && g === b && g <= 120, `${red} (grew) drawn red: ${widest(red) ? widest(red).fill : 'no frame'}`);
	const n = rgb(widest(neutral));
	check(widest(neutral) && Math.min(...n) >= 150,
		`${neutral} (unchanged) drawn pale: ${widest(neutral) ? widest(neutral).fill : 'no frame'}`);
}
// as a user does: scroll the frame into the window (a graph taller than the
// window, e.g. with one long garbage frame-pointer chain, has its root and
// the frames near it below the fold), then click its centre
const clickAt = async (x, y) => {
	const c = await page.evaluate((x, y) => {
		const r = [...document.querySelectorAll('#frames > g > rect')].find((e) =>
			+e.getAttribute('x') === x && +e.getAttribute('y') === y);
		r.scrollIntoView({ block: 'center', inline: 'center' });
		const b = r.getBoundingClientRect();
		return { cx: b.x + b.width / 2, cy: b.y + b.height / 2 };
	}, x, y);
	await page.mouse.click(c.cx, c.cy);
};
const target = widest(func);
check(target !== undefined, `a frame named ${func}`);
if (target) {
	await clickAt(target.x, target.y);
	const after = await frames();
	const z = after.find((f) => f.y === target.y && f.x === root.x && f.name === func);
	check(z !== undefined && Math.abs(z.w - root.w) < 0.02,
		`click on ${func} (width ${target.w}) zooms it to the full width ${root.w} (now ${z ? z.w : 'none'})`);
	check(z !== undefined && z.label.startsWith(func.slice(0, 3)), `its label redrawn (${z ? z.label : ''})`);
	const parents = after.filter((f) => f.y > target.y && f.cls === 'parent');
	check(parents.length > 0 && parents.every((f) => Math.abs(f.w - root.w) < 0.02),
		`${parents.length} ancestors faded at full width`);
	const outside = before.filter((f) => f.y <= target.y && (f.x + f.w <= target.x || f.x >= target.x + target.w));
	const hidden = after.filter((f) => f.cls === 'hidden' && !f.shown);
	check(outside.length === 0 || hidden.length >= outside.length,
		`${hidden.length} frames outside it hidden (${outside.length} beside it)`);
	const reset = await page.evaluate(() => {
		const e = document.getElementById('reset');
		e.scrollIntoView({ block: 'center' });
		const b = e.getBoundingClientRect();
		return { x: b.x + b.width / 2, y: b.y + b.height / 2, shown: b.width > 0 };
	});
	check(reset.shown, '"Reset Zoom" shown while zoomed');
	await page.mouse.click(reset.x, reset.y);
	const back = await frames();
	check(back.every((f, i) => f.w === before[i].w && f.x === before[i].x && f.cls === ''),
		'"Reset Zoom" puts every frame back');
}

page.once('dialog', (d) => d.accept(regex));
await page.keyboard.down('Control');
await page.keyboard.press('f');
await page.keyboard.up('Control');
await page.waitForFunction(() => document.getElementById('matched').textContent.startsWith('Matched'),
	{ timeout: 5000 }).catch(() => {});
const matched = await page.evaluate(() => document.getElementById('matched').textContent);
const pct = parseFloat(matched.replace(/^Matched: /, ''));
check(Math.abs(pct - parseFloat(expected)) <= 0.1,
	`Ctrl-F '${regex}': "${matched}" equals results.csv's ${expected}% within 0.1`);
const hits = (await frames()).filter((f) => f.fill === 'rgb(230,0,230)');
const re = new RegExp(regex);
check(hits.length > 0 && hits.every((f) => re.test(f.name)), `${hits.length} matching frames highlighted, no other`);
check(errors.length === 0, `no script error after zoom and search (${errors.join('; ').slice(0, 200)})`);
await browser.close();
process.exit(failed ? 1 : 0);

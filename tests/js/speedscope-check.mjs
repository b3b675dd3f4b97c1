// SPDX-License-Identifier: GPL-3.0-or-later
// A --speedscope export checked three ways:
//   node speedscope-check.mjs FILE.json RESULTS.csv EVENT
// - it validates against speedscope's own file-format-schema.json (shipped in
//   the speedscope npm package) with ajv;
// - each function's self weight (the samples whose last frame it is) equals
//   its period in results.csv for EVENT (frames: name = function, file = the
//   source file, or the dso when results.csv has none);
// - speedscope itself (its index.html from the npm package, offline, in
//   headless chromium) opens it: the profile loads without an error and its
//   Sandwich view lists results.csv's top function.
// Prints "ok - ..." / "not ok - ..."; exit 77 when a package is missing.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { openPage, report } from './browser.mjs';

const [file, resultsCsv, event] = process.argv.slice(2);
if (!file || !resultsCsv || !event) {
	console.error('usage: speedscope-check.mjs FILE.json RESULTS.csv EVENT');
	process.exit(2);
}
const require = createRequire(import.meta.url);
let Ajv, ssdir;
try {
	Ajv = require('ajv');
	ssdir = join(dirname(require.resolve('speedscope/package.json')), 'dist', 'release');
} catch {
	console.log('skip: ajv or speedscope is not installed (cd tests/js && npm install)');
	process.exit(77);
}
let failed = 0;
const check = (ok, what) => { if (!report(ok, what)) failed++; };

// --- the schema
const doc = JSON.parse(readFileSync(file, 'utf8'));
const schema = JSON.parse(readFileSync(join(ssdir, 'file-format-schema.json'), 'utf8'));
const ajv = new (Ajv.default || Ajv)({ strict: false, allErrors: true });
const valid = ajv.validate(schema, doc);
check(valid, `validates against speedscope's file-format-schema.json${valid ? '' : ': ' + ajv.errorsText().slice(0, 300)}`);

// --- self weights against results.csv
function csvRows(text) {
	return text.trim().split('\n').map((line) => {
		const out = []; let f = '', q = false;
		for (let i = 0; i < line.length; i++) {
			const c = line[i];
			if (q) { if (c === '"') { if (line[i + 1] === '"') { f += c; i++; } else q = false; } else f += c; }
			else if (c === '"') q = true; else if (c === ',') { out.push(f); f = ''; } else f += c;
		}
		out.push(f);
		return out;
	});
}
const rows = csvRows(readFileSync(resultsCsv, 'utf8'));
const head = rows.shift();
const col = (n) => head.indexOf(n);
const want = new Map();
for (const r of rows) {
	if (r[col('event')] !== event || +r[col('period')] === 0) continue;
	const key = r[col('function')] + '\t' + (r[col('source_file')] || r[col('dso')]);
	want.set(key, (want.get(key) || 0) + +r[col('period')]);
}
const got = new Map();
const frames = doc.shared.frames;
let nsamples = 0, ordered = true;
for (const p of doc.profiles) {
	p.samples.forEach((s, i) => {
		nsamples++;
		const f = frames[s[s.length - 1]];
		const key = f.name + '\t' + f.file;
		got.set(key, (got.get(key) || 0) + p.weights[i]);
	});
	if (p.endValue !== p.weights.reduce((a, b) => a + b, 0)) ordered = false;
}
let bad = [];
for (const [k, v] of want) if (got.get(k) !== v) bad.push(`${k.replace('\t', ' @ ')}: results ${v}, speedscope ${got.get(k)}`);
for (const [k, v] of got) if (!want.has(k)) bad.push(`${k.replace('\t', ' @ ')}: speedscope ${v}, not in results`);
check(bad.length === 0 && want.size > 0,
	`self weight of each of the ${want.size} functions equals results.csv's period${bad.length ? ': ' + bad.slice(0, 3).join('; ') : ''}`);
check(ordered, `${doc.profiles.length} profiles, ${nsamples} samples, endValue = the weights' sum`);

// --- speedscope opens it, on the active profile: its function with the most self weight
const active = doc.profiles[doc.activeProfileIndex || 0];
const selfw = new Map();
if (active) active.samples.forEach((s, i) => {
	const n = frames[s[s.length - 1]].name;
	selfw.set(n, (selfw.get(n) || 0) + active.weights[i]);
});
const topName = [...selfw].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
const { browser, page, errors } = await openPage(join(ssdir, 'index.html'));
const input = await page.$('input[type=file]');
check(input !== null, "speedscope's page has its file input");
if (input) {
	await input.uploadFile(file);
	await page.waitForFunction(() => !document.body.innerText.includes('Drag and drop'), { timeout: 15000 })
		.catch(() => {});
	const text0 = await page.evaluate(() => document.body.innerText);
	check(!/error|Unrecognized format|Something went wrong/i.test(text0) && errors.length === 0,
		`speedscope loads it without an error (${errors.join('; ').slice(0, 200)})`);
	// the Sandwich view: a table of functions
	const clicked = await page.evaluate(() => {
		// the view tab: the smallest element whose text ends in "Sandwich" (after an emoji)
		const el = [...document.querySelectorAll('div, span, button')]
			.filter((e) => e.textContent.trim().endsWith('Sandwich'))
			.sort((a, b) => a.textContent.length - b.textContent.length)[0];
		if (el) el.click();
		return !!el;
	});
	await new Promise((r) => setTimeout(r, 1000));
	const text = await page.evaluate(() => document.body.innerText);
	check(clicked && topName && text.includes(topName),
		`Sandwich view lists ${topName}, the top function of the profile it opens on (${active ? active.name : '?'})`);
}
await browser.close();
process.exit(failed ? 1 : 0);

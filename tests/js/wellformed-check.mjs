// SPDX-License-Identifier: GPL-3.0-or-later
// SVG and JSON outputs as chromium reads them (headless, puppeteer-core):
//   node wellformed-check.mjs FILE.svg|FILE.json ...
// an SVG opens as a document whose root is <svg>, with no <parsererror>
// (what chromium shows instead of a file that is not well-formed XML) and no
// script error; a JSON file is strict UTF-8 (TextDecoder, fatal) and the
// page's JSON.parse takes it; with the speedscope package installed,
// speedscope loads it without an error. Prints "ok - ..." / "not ok - ...";
// exit 77 when it cannot run.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { openPage, report } from './browser.mjs';

const files = process.argv.slice(2);
if (!files.length) {
	console.error('usage: wellformed-check.mjs FILE.svg|FILE.json ...');
	process.exit(2);
}
let failed = 0;
const check = (ok, what) => { if (!report(ok, what)) failed++; };

let ssdir = null;
try {
	ssdir = join(dirname(createRequire(import.meta.url).resolve('speedscope/package.json')), 'dist', 'release');
} catch {
	ssdir = null;
}

for (const file of files) {
	const name = basename(file);
	if (file.endsWith('.svg')) {
		const { browser, page, errors } = await openPage(file);
		const doc = await page.evaluate(() => ({
			root: document.documentElement.localName,
			parsererror: document.getElementsByTagName('parsererror').length +
				document.getElementsByTagNameNS('*', 'parsererror').length,
			text: (document.getElementsByTagName('parsererror')[0] || {}).textContent || '',
			frames: document.querySelectorAll('title').length,
		}));
		check(doc.root === 'svg' && doc.parsererror === 0,
			`${name}: chromium parses it: root <${doc.root}>, ${doc.parsererror} parsererror ${doc.text.slice(0, 200)}`);
		check(errors.length === 0, `${name}: no script error (${errors.join('; ').slice(0, 200)})`);
		await browser.close();
		continue;
	}
	let text = null;
	try {
		text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(file));
	} catch (e) {
		check(false, `${name}: strict UTF-8 (${e})`);
		continue;
	}
	const { browser, page, errors } = await openPage(file);
	const parsed = await page.evaluate((t) => {
		try { JSON.parse(t); return 'ok'; } catch (e) { return String(e); }
	}, text);
	check(parsed === 'ok', `${name}: strict UTF-8, chromium's JSON.parse takes it (${parsed.slice(0, 200)})`);
	await browser.close();
	if (!ssdir) {
		console.log(`skip - ${name}: speedscope is not installed (cd tests/js && npm install)`);
		continue;
	}
	const ss = await openPage(join(ssdir, 'index.html'));
	const input = await ss.page.$('input[type=file]');
	if (input) {
		await input.uploadFile(file);
		await ss.page.waitForFunction(() => !document.body.innerText.includes('Drag and drop'), { timeout: 15000 })
			.catch(() => {});
	}
	const shown = await ss.page.evaluate(() => document.body.innerText);
	check(input !== null && !/Drag and drop|Unrecognized format|Something went wrong/i.test(shown) &&
		ss.errors.length === 0, `${name}: speedscope loads it (${ss.errors.join('; ').slice(0, 200)})`);
	await ss.browser.close();
}
process.exit(failed ? 1 : 0);

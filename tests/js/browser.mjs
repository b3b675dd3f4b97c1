// SPDX-License-Identifier: GPL-3.0-or-later
// Opens a local file in Debian's headless chromium through puppeteer-core
// (the browser's DevTools protocol) for the picture tests: flame graphs and
// timelines are checked as the browser renders and runs them, not by reading
// their text. Exits 77 (the tests' "skip") when chromium or puppeteer-core is
// missing, so a test runs `node tests/js/<check>.mjs FILE` and skips on 77.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const candidates = [process.env.CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser',
	'/usr/bin/google-chrome'].filter(Boolean);

export async function openPage(file, { width = 1300, height = 900, before = null } = {}) {
	const exe = candidates.find((p) => existsSync(p));
	let puppeteer;
	try {
		puppeteer = (await import('puppeteer-core')).default;
	} catch {
		console.log('skip: puppeteer-core is not installed (cd tests/js && npm install)');
		process.exit(77);
	}
	if (!exe) {
		console.log('skip: no chromium (apt-get install chromium)');
		process.exit(77);
	}
	const browser = await puppeteer.launch({
		executablePath: exe,
		headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run',
			'--allow-file-access-from-files'],
	});
	const page = await browser.newPage();
	const errors = [];
	page.on('pageerror', (e) => errors.push(String(e)));
	page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
	await page.setViewport({ width, height });
	if (before)	// e.g. request interception, set before the page loads
		await before(page);
	await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
	return { browser, page, errors };
}

// openPage, with every request but the page's own navigation intercepted,
// counted in requests and aborted (a page that must ask for nothing)
export async function openIsolated(file, opts = {}) {
	const requests = [];
	const r = await openPage(file, {
		...opts,
		before: async (p) => {
			await p.setRequestInterception(true);
			p.on('request', (q) => {
				if (q.isNavigationRequest() && q.url().startsWith('file:')) { q.continue(); return; }
				requests.push(q.url());
				q.abort();
			});
		},
	});
	return { ...r, requests };
}

// the end of a page check: at 390x844 the page must not scroll sideways (a
// screenshot into shots), no error nor request since it opened; then the
// browser closes and the process exits 1 when a check failed
export async function phoneAndExit({ browser, page, errors, requests }, shots, check, failed) {
	await page.setViewport({ width: 390, height: 844 });
	const sw = await page.evaluate(() => document.documentElement.scrollWidth);
	let bad = failed;
	if (!check(sw <= 390, `at 390 px wide the page does not scroll sideways (scrollWidth ${sw})`)) bad++;
	await page.screenshot({ path: `${shots}/phone-390x844.png` });
	if (!check(errors.length === 0 && requests.length === 0,
		`still no error nor request after the clicks (${errors.join('; ').slice(0, 200)}${requests.slice(0, 3).join(' ')})`)) bad++;
	await browser.close();
	process.exit(bad ? 1 : 0);
}

// one line per check, in the tests' "ok - ..." / "not ok - ..." form
export function report(ok, what) {
	console.log(`${ok ? 'ok' : 'not ok'} - ${what}`);
	return ok;
}

// SPDX-License-Identifier: GPL-3.0-or-later
// A CSV file's rows as objects keyed by its header row, for the page checks.
import { readFileSync } from 'node:fs';

// RFC 4180 rows (quoted fields may hold commas, quotes and newlines)
export function csv(path) {
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

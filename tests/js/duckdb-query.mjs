// SPDX-License-Identifier: GPL-3.0-or-later
// node tests/js/duckdb-query.mjs SQL_FILE: runs the statements of SQL_FILE in an
// in-memory DuckDB (@duckdb/node-api) and prints the rows of the last one,
// one per line, fields separated by TAB. Exit 2 when the package is absent.
import { readFileSync } from 'node:fs';

let duckdb;
try {
	duckdb = await import('@duckdb/node-api');
} catch (e) {
	console.error('duckdb-query: @duckdb/node-api is not installed');
	process.exit(2);
}
const sql = readFileSync(process.argv[2], 'utf8');
const instance = await duckdb.DuckDBInstance.create(':memory:');
const con = await instance.connect();
const stmts = sql.split(/;\s*\n/).map((s) => s.trim()).filter((s) => s.length);
let reader;
for (const s of stmts)
	reader = await con.runAndReadAll(s);
for (const row of reader.getRows())
	console.log(row.map((v) => String(v)).join('\t'));

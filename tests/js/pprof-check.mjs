// SPDX-License-Identifier: GPL-3.0-or-later
// A --pprof export read back with Datadog's pprof-format decoder (npm), every field checked:
//   node pprof-check.mjs FILE.pb.gz RESULTS.csv [--inline] [--duration NS] [--buildid PATH=HEX]...
// - string_table[0] is ""; two sample types per event of results.csv ("samples:EVENT" count,
//   "EVENT" nanoseconds for cpu-clock/task-clock, else count); period_type and
//   default_sample_type name the first event's period;
// - every sample: one value per sample type, labels pid and tid (numbers) and comm (a
//   string), cpu (a number) or none; its locations exist; one sample per (labels, stack);
// - every location: its mapping exists (or is 0) and holds its address; its Lines name
//   functions that exist; with --inline some location has more than one Line;
// - per (event, function name) the leaf location's last Line (the function the inlined ones
//   are in) sums the samples and period results.csv gives;
// - functions: name and system_name, file and start line as results.csv's source_file, line;
// - mappings: the build id of PATH is HEX (readelf -n of the binary, given by the test);
//   duration_nanos is NS (the first and last sample time, from perf script).
// Prints "ok - ..." / "not ok - ..."; exit 77 when pprof-format is missing.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { createRequire } from 'node:module';

const args = process.argv.slice(2);
const [file, resultsCsv] = args;
if (!file || !resultsCsv) {
	console.error('usage: pprof-check.mjs FILE.pb.gz RESULTS.csv [--inline] [--duration NS] [--buildid PATH=HEX]...');
	process.exit(2);
}
const require = createRequire(import.meta.url);
let Profile;
try {
	({ Profile } = require('pprof-format'));
} catch {
	console.log('skip: pprof-format is not installed (cd tests/js && npm install)');
	process.exit(77);
}
let failed = 0;
const check = (ok, what) => {
	console.log(`${ok ? 'ok' : 'not ok'} - ${what}`);
	if (!ok) failed++;
};
const opt = { inline: false, duration: null, buildids: [] };
for (let i = 2; i < args.length; i++) {
	if (args[i] === '--inline') opt.inline = true;
	else if (args[i] === '--duration') opt.duration = BigInt(args[++i]);
	else if (args[i] === '--buildid') opt.buildids.push(args[++i].split('='));
}

// RFC 4180 rows (no newline inside a field), the header's names as keys
function readCsv(path) {
	const rows = readFileSync(path, 'utf8').split('\n').filter((l) => l.length).map((line) => {
		const out = [];
		let f = '', q = false;
		for (let i = 0; i < line.length; i++) {
			const c = line[i];
			if (q) {
				if (c === '"' && line[i + 1] === '"') { f += c; i++; } else if (c === '"') q = false; else f += c;
			} else if (c === '"') q = true;
			else if (c === ',') { out.push(f); f = ''; } else f += c;
		}
		out.push(f);
		return out;
	});
	const head = rows.shift();
	return rows.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i]])));
}

const p = Profile.decode(gunzipSync(readFileSync(file)));
const S = p.stringTable.strings;
const str = (i) => S[Number(i)];
const results = readCsv(resultsCsv);
check(S[0] === '', 'string_table[0] is ""');

// sample types: two per event of results.csv, in its order of first appearance
const events = [...new Set(results.filter((r) => Number(r.samples) > 0).map((r) => r.event))];
const types = p.sampleType.map((t) => `${str(t.type)}/${str(t.unit)}`);
const nsEvent = (e) => /^(cpu-clock|task-clock)\b/.test(e);
const want = events.flatMap((e) => [`samples:${e}/count`, `${e}/${nsEvent(e) ? 'nanoseconds' : 'count'}`]);
check(JSON.stringify([...types].sort()) === JSON.stringify([...want].sort()),
      `sample types ${types.join(', ')} are those of the events of results.csv`);
check(p.periodType && `${str(p.periodType.type)}/${str(p.periodType.unit)}` === types[1] &&
      str(p.defaultSampleType) === str(p.sampleType[1].type), 'period_type and default_sample_type: the first event\'s period');

// samples: values, labels, locations
const locs = new Map(p.location.map((l) => [Number(l.id), l]));
const funcs = new Map(p.function.map((f) => [Number(f.id), f]));
const maps = new Map(p.mapping.map((m) => [Number(m.id), m]));
let badSample = null;
const seen = new Set();
for (const s of p.sample) {
	const lab = Object.fromEntries(s.label.map((l) => [str(l.key), l]));
	const keys = Object.keys(lab).sort().join(',');
	const key = JSON.stringify([s.locationId.map(Number), s.label.map((l) => [Number(l.key), Number(l.str), Number(l.num)])]);
	if (s.value.length !== types.length) badSample = `${s.value.length} values`;
	else if (keys !== 'comm,pid,tid' && keys !== 'comm,cpu,pid,tid') badSample = `labels ${keys}`;
	else if (!str(lab.comm.str) || Number(lab.pid.str) || Number(lab.tid.str) || (lab.cpu && Number(lab.cpu.str)))
		badSample = 'pid/tid/cpu not numbers or comm not a string';
	else if (!s.locationId.length || s.locationId.some((id) => !locs.has(Number(id)))) badSample = 'a location that is not there';
	else if (seen.has(key)) badSample = `two samples with the same labels and stack ${key}`;
	seen.add(key);
	if (badSample) break;
}
check(p.sample.length > 0 && !badSample, `${p.sample.length} samples: values, pid/tid/comm labels, locations${badSample ? ': ' + badSample : ''}`);

// locations and their mappings and functions
let badLoc = null, multiLine = 0;
for (const l of p.location) {
	const m = maps.get(Number(l.mappingId));
	if (Number(l.mappingId) && (!m || BigInt(l.address) < BigInt(m.memoryStart) || BigInt(l.address) >= BigInt(m.memoryLimit)))
		badLoc = `location ${l.id} at 0x${BigInt(l.address).toString(16)} outside mapping ${l.mappingId}`;
	else if (!l.line.length || l.line.some((ln) => !funcs.has(Number(ln.functionId))))
		badLoc = `location ${l.id}: a line without a function`;
	if (l.line.length > 1) multiLine++;
	if (badLoc) break;
}
check(!badLoc, `${p.location.length} locations in their mappings, with functions${badLoc ? ': ' + badLoc : ''}`);
if (opt.inline) check(multiLine > 0, `--inline: ${multiLine} locations carry inlined functions as Lines`);

// flat per (event, function): the leaf location's outermost Line
const flat = new Map();
for (const s of p.sample) {
	const leaf = locs.get(Number(s.locationId[0]));
	const fn = str(funcs.get(Number(leaf.line[leaf.line.length - 1].functionId)).name);
	events.forEach((e, k) => {
		const i = types.indexOf(`samples:${e}/count`);
		const key = `${e}\t${fn}`;
		const v = flat.get(key) || [0n, 0n];
		flat.set(key, [v[0] + BigInt(s.value[i]), v[1] + BigInt(s.value[i + 1])]);
	});
}
const wantFlat = new Map();
for (const r of results) {
	if (!Number(r.samples)) continue;
	const key = `${r.event}\t${r.function}`;
	const v = wantFlat.get(key) || [0n, 0n];
	wantFlat.set(key, [v[0] + BigInt(r.samples), v[1] + BigInt(r.period)]);
}
const diffs = [...new Set([...flat.keys(), ...wantFlat.keys()])].filter((k) => {
	const a = flat.get(k) || [0n, 0n], b = wantFlat.get(k) || [0n, 0n];
	return a[0] !== b[0] || a[1] !== b[1];
});
check(!diffs.length, `flat samples and period per (event, function) as results.csv (${wantFlat.size} rows)` +
      (diffs.length ? `: ${diffs.slice(0, 3).map((k) => `${k}: ${flat.get(k)} vs ${wantFlat.get(k)}`).join('; ')}` : ''));

// functions: where they are defined
let badFn = null;
for (const r of results) {
	if (!Number(r.samples) || !r.source_file) continue;
	const f = p.function.find((f) => str(f.name) === r.function && str(f.filename) === r.source_file &&
				       Number(f.startLine) === Number(r.line));
	if (!f || f.systemName !== f.name) { badFn = `${r.function} ${r.source_file}:${r.line}`; break; }
}
check(!badFn, `functions: name, system_name, file and start line as results.csv${badFn ? ': not ' + badFn : ''}`);

for (const [path, hex] of opt.buildids) {
	const m = p.mapping.filter((m) => str(m.filename) === path);
	check(m.length && m.every((x) => str(x.buildId) === hex && x.hasFunctions),
	      `mapping ${path}: build id ${m.length ? str(m[0].buildId) : '(no mapping)'} is ${hex}`);
}
if (opt.duration !== null)
	check(BigInt(p.durationNanos) === opt.duration, `duration_nanos ${p.durationNanos} is ${opt.duration}`);
process.exit(failed ? 1 : 0);

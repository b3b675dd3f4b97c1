#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# readperf schema: every report of a real recording loads through its CREATE
# TABLE statements into SQLite (sqlite3) and DuckDB (@duckdb/node-api from
# tests/js, when npm installed it) with numeric columns that sort as numbers,
# and into pandas (Debian's python3-pandas) with integer dtypes for every
# BIGINT column: no numeric cell is ever empty.
. "$(dirname "$0")/testlib.sh"

out=$tmp/out
"$PROG" -q -o "$out" "${sym[@]}" "$td/callgraph-fp.data"
# diff.csv beside the analysis' reports (a diff into $out would replace them: README "Reports")
"$PROG" diff -q -o "$tmp/diff" "${sym[@]}" "$td/work.data" "$td/callgraph-fp.data"
cp "$tmp/diff/diff.csv" "$out/"
"$PROG" schema "$out" > "$tmp/schema.sql" 2> "$tmp/err"
rc=$?
check "schema DIR: exit 0, no message (exit $rc)" test $rc -eq 0 -a ! -s "$tmp/err"
check "schema DIR: one table per report (12)" test "$(grep -c '^CREATE TABLE ' "$tmp/schema.sql")" -eq 12
"$PROG" schema > "$tmp/all.sql"
check "schema: results with the children columns" grep -q '^CREATE TABLE "results" (.*"children_percent" DOUBLE);$' "$tmp/all.sql"
"$PROG" schema "$tmp/nothing-here" > /dev/null 2> "$tmp/err"
check "schema of a directory without reports: exit 1 with a message" test $? -eq 1 -a -s "$tmp/err"
"$PROG" schema --bogus > /dev/null 2> "$tmp/err"
check "schema --bogus: exit 1, one usage line and Try" \
	test $? -eq 1 -a "$(grep -c "^Try 'readperf schema --help'" "$tmp/err")" -eq 1

# a tampered header cannot reach SQL; a FIFO or /dev/zero named NAME.csv is not read
# (bounded by timeout: it blocked, or read 2.1 GB)
for case in inject fifo zero long; do
	d=$tmp/t-$case
	mkdir -p "$d"
	cp "$out/stat.csv" "$d/"
	case $case in
	inject) printf 'event,x BIGINT); DROP TABLE results; CREATE TABLE pwned (a\n' > "$d/results.csv" ;;
	fifo) mkfifo "$d/results.csv" ;;
	zero) ln -s /dev/zero "$d/results.csv" ;;
	long) head -c 100000 /dev/zero | tr '\0' e > "$d/results.csv" ;;
	esac
	timeout -s KILL 20 "$PROG" schema "$d" > "$tmp/t.sql" 2> "$tmp/err"
	rc=$?
	check "schema DIR with a $case results.csv: exit 2, said, no statement (exit $rc: $(head -c 200 "$tmp/err"))" \
		test $rc -eq 2 -a ! -s "$tmp/t.sql" -a "$(grep -c 'results.csv: not a report readperf wrote' "$tmp/err")" -eq 1
done
"$PROG" -q -o "$tmp/bt" "${sym[@]}" --profile-column "$td/work.data"
"$PROG" schema "$tmp/bt" > "$tmp/bt.sql" 2> "$tmp/err"
check "schema of reports with the profile column: exit 0, profile TEXT, no message ($?)" \
	sh -c "grep -q '^CREATE TABLE \"results\" (\"profile\" TEXT, \"event\" TEXT' '$tmp/bt.sql' && ! [ -s '$tmp/err' ]"

tables=$(sed -n 's/^CREATE TABLE "\([a-z]*\)" .*/\1/p' "$tmp/schema.sql")
# the top function of results.csv by percent, as sort -n sees the file
top=$(awk -F, 'NR > 1' "$out/results.csv" | sort -t, -k8,8nr | head -1 | cut -d, -f3)

if command -v sqlite3 > /dev/null; then
	{
		cat "$tmp/schema.sql"
		for t in $tables; do echo ".import --csv --skip 1 $out/$t.csv $t"; done
		echo "SELECT function, typeof(percent), typeof(line) FROM results ORDER BY percent DESC LIMIT 1;"
	} > "$tmp/load.sqlite"
	sqlite3 :memory: < "$tmp/load.sqlite" > "$tmp/sqlite.out" 2> "$tmp/sqlite.err"
	check "sqlite3: every report loads ($(echo $tables | wc -w) tables), no warning" test $? -eq 0 -a ! -s "$tmp/sqlite.err"
	check "sqlite3: ORDER BY percent is numeric: $top first, percent real, line integer" \
		test "$(cat "$tmp/sqlite.out")" = "$top|real|integer"
	bad=
	for t in $tables; do
		n=$(printf '%s\n.import --csv --skip 1 %s %s\nSELECT count(*) FROM %s;\n' \
			"$(grep "^CREATE TABLE \"$t\" " "$tmp/schema.sql")" "$out/$t.csv" "$t" "$t" | sqlite3 :memory:)
		[ "$n" = "$(($(wc -l < "$out/$t.csv") - 1))" ] || bad="$bad $t($n)"
	done
	check "sqlite3: every row of every report is in its table${bad:+:$bad}" test -z "$bad"
else
	echo "skip - sqlite3: not installed"
fi

py=
for p in /usr/bin/python3 python3; do
	if command -v "$p" > /dev/null && "$p" -c 'import pandas' 2> /dev/null; then py=$p; break; fi
done
if [ -n "$py" ]; then
	res=$("$py" - "$tmp/schema.sql" "$out" <<'PY'
import re, sys, pandas as pd
schema, out = sys.argv[1], sys.argv[2]
bad = []
for line in open(schema):
    m = re.match(r'CREATE TABLE "(\w+)" \((.*)\);', line)
    table, cols = m.group(1), [[w.strip('"') for w in c.split(' ')] for c in m.group(2).split(', ')]
    df = pd.read_csv(f'{out}/{table}.csv', keep_default_na=False, na_values=[''])
    for name, typ in cols:
        kind = df[name].dtype.kind
        want = {'BIGINT': 'iu', 'DOUBLE': 'f', 'TEXT': 'O'}[typ]
        if len(df) and kind not in want and not (typ == 'DOUBLE' and kind in 'iu'):
            bad.append(f'{table}.{name}:{df[name].dtype}')
print(' '.join(bad))
PY
)
	check "pandas: every BIGINT column reads as integers, DOUBLE as numbers${res:+: $res}" test -z "$res"
else
	echo "skip - pandas: no python3 with pandas (Debian python3-pandas)"
fi

jsdir=$root/tests/js
if command -v node > /dev/null && [ -d "$jsdir/node_modules/@duckdb/node-api" ]; then
	{
		cat "$tmp/schema.sql"
		for t in $tables; do echo "COPY $t FROM '$out/$t.csv' (HEADER);"; done
		echo "SELECT function, typeof(percent), typeof(line) FROM results ORDER BY percent DESC LIMIT 1;"
	} > "$tmp/load.duckdb.sql"
	node "$jsdir/duckdb-query.mjs" "$tmp/load.duckdb.sql" > "$tmp/duck.out" 2> "$tmp/duck.err"
	rc=$?
	check "duckdb: every report loads through the schema (exit $rc$(head -c 200 "$tmp/duck.err"))" test $rc -eq 0
	check "duckdb: ORDER BY percent numeric: $top first, DOUBLE, BIGINT" \
		test "$(cat "$tmp/duck.out")" = "$(printf '%s\tDOUBLE\tBIGINT' "$top")"
else
	echo "skip - duckdb: node or tests/js/node_modules/@duckdb/node-api missing (cd tests/js && npm install)"
fi
exit 0

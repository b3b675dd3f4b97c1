#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The command line as a user meets it: exit codes and messages for bad input
# and bad options, reports kept after a fault, -e matching, determinism.
# Prints "ok - ..." / "not ok - ..." / "skip - ..." lines.
. "$(dirname "$0")/testlib.sh"

t() {	# DESCRIPTION EXPECTED_EXIT STDERR_REGEX(or "") -- readperf ARGS...
	local what=$1 want=$2 re=$3 rc
	shift 4
	"$PROG" "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null
	rc=$?
	if [ "$rc" != "$want" ]; then
		echo "not ok - $what: exit $rc, expected $want: $(head -c 200 "$tmp/err")"
	elif [ -n "$re" ] && ! grep -Eq "$re" "$tmp/err"; then
		echo "not ok - $what: stderr does not match /$re/: $(head -c 200 "$tmp/err")"
	else
		echo "ok - $what"
	fi
}

# a whole file compressed with zstd (perf.data.zst) reads as the file itself; cut or corrupt: exit 2 with the offset
if command -v zstd > /dev/null; then
	zstd -q -c "$td/callgraph-fp.data" > "$tmp/cg.data.zst"
	ks=(--symfs "$td/symfs" --kallsyms "$td/kallsyms")
	t "zstd file: exit 0" 0 "" -- -q -o "$tmp/zst" "${ks[@]}" "$tmp/cg.data.zst"
	"$PROG" -q -o "$tmp/plain" "${ks[@]}" "$td/callgraph-fp.data"
	grep -v '^header,compression,zstd$' "$tmp/zst/header.csv" > "$tmp/zst/header.nocomp"
	mv "$tmp/zst/header.nocomp" "$tmp/zst/header.csv"
	if diff_reports "$tmp/zst" "$tmp/plain" > /dev/null && "$PROG" header "$tmp/cg.data.zst" | grep -q 'compression: zstd'; then
		echo "ok - zstd file: every report equals the uncompressed file's, header says zstd"
	else
		echo "not ok - zstd file: reports differ from the uncompressed file's, or header does not say zstd"
	fi
	head -c $(( $(stat -c %s "$tmp/cg.data.zst") / 2 )) "$tmp/cg.data.zst" > "$tmp/cut.data.zst"
	t "cut zstd file: exit 2 with an offset" 2 'zstd stream at offset 0x[0-9a-f]+ \([0-9]+\): unexpected end of file' -- -q -o "$tmp/cutz" "${ks[@]}" "$tmp/cut.data.zst"
	cp "$tmp/cg.data.zst" "$tmp/bad.data.zst"
	printf 'XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX' |
		dd of="$tmp/bad.data.zst" bs=1 seek=$(( $(stat -c %s "$tmp/cg.data.zst") / 3 )) conv=notrunc 2> /dev/null
	t "corrupt zstd file: exit 2 with an offset" 2 'zstd stream at offset 0x[0-9a-f]+ \([0-9]+\)' -- -q -o "$tmp/badz" "${ks[@]}" "$tmp/bad.data.zst"
else
	echo "skip - zstd file: no zstd command"
fi

# a compressed whole file is read in at most two passes (-v says each read behind the position): the
# header's attrs, then the data after the feature sections.  work.data as perf wrote it: the feature
# table and the attrs were read between their sections, going back for each (21 passes before);
# rev.data, its attrs' ids and feature sections in descending order of offset behind 20 MB of zeros
# (reorder-sections.py): each section was read going back (21 passes before), now read ahead in
# ascending order; its reports are work.data's own
python3 "$root/tests/cli/reorder-sections.py" "$td/work.data" "$tmp/rev.data" 20000000
"$PROG" -q -o "$tmp/w" "$td/work.data"
for z in gzip zstd; do
	command -v $z > /dev/null || { echo "skip - $z file passes: no $z command"; continue; }
	for w in w rev; do
		$z -c "$([ $w = w ] && echo "$td/work.data" || echo "$tmp/rev.data")" > "$tmp/$w.data.$z"
		"$PROG" -v -o "$tmp/$w$z" "$tmp/$w.data.$z" > /dev/null 2> "$tmp/$w$z.err"
		n=$(grep -c 'is decompressed again from its start' "$tmp/$w$z.err")
		check "$z file ($w.data): read again from its start at most twice ($n times)" test "$n" -le 2
	done
	for r in results.csv header.csv; do
		check "$z file of descending sections: $r as work.data's" \
			cmp -s <(grep -v compression "$tmp/rev$z/$r") "$tmp/w/$r"
	done
done
# a command after the analysis' options is a usage error naming where it goes (before: the command's
# name and its arguments taken as files, a batch analysis into the current directory, exit 3)
mkdir -p "$tmp/cwd" && echo notes > "$tmp/cwd/index.csv"
(cd "$tmp/cwd" && "$PROG" -q tree "$td/work.data" main > /dev/null 2> "$tmp/mc.err"); rc=$?
check "readperf -q tree FILE FUNCTION: exit 1, the command's place said, nothing written (exit $rc)" \
	test $rc -eq 1 -a "$(grep -c "'tree' is a command: it comes first, its options after it (readperf tree " "$tmp/mc.err")" -eq 1 \
	-a "$(cat "$tmp/cwd/index.csv")" = notes -a ! -e "$tmp/cwd/manifest.csv"
t "readperf -o DIR diff OLD NEW: exit 1, the command's place said" 1 "'diff' is a command: it comes first" \
	-- -o "$tmp/mcd" diff "$td/work.data" "$td/work.data"
t "readperf -q diff --fail-above 1 OLD NEW: diff's option refused, the command's place said" 1 \
	"'diff' is a command: it comes first" -- -q diff --fail-above 1 "$td/work.data" "$td/work.data"
t "readperf report FILE (perf's habit): exit 1, no such file or command" 1 "no file 'report', and no command of that name" \
	-- -q -o "$tmp/mcr" report "$td/work.data"
"$PROG" -o tree --bogus "$td/work.data" > /dev/null 2> "$tmp/mc.err"; rc=$?
check "readperf -o tree --bogus FILE: exit 1, tree (-o's value) not said to be misplaced (exit $rc)" \
	test $rc -eq 1 -a "$(grep -c "unknown or ambiguous option '--bogus'" "$tmp/mc.err")" -eq 1 \
	-a "$(grep -c "is a command" "$tmp/mc.err")" -eq 0
cp "$td/work.data" "$tmp/cwd/tree"
(cd "$tmp/cwd" && "$PROG" -q -o out tree > /dev/null 2> "$tmp/mc.err"); rc=$?
check "a file named tree after the options: analysed (exit $rc)" test $rc -eq 0 -a -s "$tmp/cwd/out/results.csv"
# every attr's ids one shared section of 8M ids (group.data: 3 attrs, 24M ids): more than the
# 16M ids in all a reader keeps (each attr kept a copy; 65536 such attrs would ask for terabytes)
python3 "$root/tests/cli/reorder-sections.py" "$td/group.data" "$tmp/ids.data" 0 8000000
t "24M attr ids in all: exit 2 with the attr's offset" 2 \
	'ids.data: attr at offset 0x[0-9a-f]+ \([0-9]+\): more than 16777216 attr ids in all' -- -q -o "$tmp/ids" "$tmp/ids.data"
rm -f "$tmp/ids.data" "$tmp/rev.data"
# the same, cut inside the feature table (read at once now) and inside the attrs section: the
# messages of the entry-by-entry reads, exit 2, the records before reported (work.data: attrs at
# 0x78, 144 bytes each; the data section ends, and the feature table begins, at 0x19490)
head -c $((0x19490 + 8)) "$td/work.data" | gzip > "$tmp/cutft.data.gz"
t "gzip file cut in its feature table: exit 2 with the entry's offset" 2 \
	'feature section at offset 0x19490 \(103568\): feature table truncated' -- -q -o "$tmp/cutft" "$tmp/cutft.data.gz"
check "gzip file cut in its feature table: the records before reported" test -s "$tmp/cutft/results.csv"
head -c $((0x78 + 100)) "$td/work.data" | gzip > "$tmp/cutat.data.gz"
t "gzip file cut in its attrs: exit 2 with the attr's offset" 2 \
	'attr at offset 0x78 \(120\): attr 0 truncated' -- -q -o "$tmp/cutat" "$tmp/cutat.data.gz"
# a gzip file cut short: the records before the cut are reported, exit 2 with the offset
gzip -c "$td/work.data" | head -c 8000 > "$tmp/cut.data.gz"
t "cut gzip file: exit 2 with an offset" 2 'gzip stream at offset 0x[0-9a-f]+ \([0-9]+\)' -- -q -o "$tmp/cut" "$tmp/cut.data.gz"
if awk -F, '$1 == "SAMPLE" && $2 > 0 { ok = 1 } END { exit !ok }' "$tmp/cut/stat.csv" 2>/dev/null; then
	echo "ok - cut gzip file: stat.csv counts the samples before the cut"
else
	echo "not ok - cut gzip file: no samples in stat.csv"
fi
# a small gzip file whose data inflate whole but whose trailer is wrong (CRC-32 and length), a
# bad member after the good one, or the file cut 100 bytes short: every record inflated before
# the fault analysed, the fault said at its offset in the uncompressed data (the bytes zcat
# gives), exit 2; a tail that is no gzip member ignored, as gzread ignores it.  gzread dropped
# what it inflated in the call that met the fault: a file smaller than its buffer had no report
# ("gzip stream at offset 0x0")
"$PROG" -q -o "$tmp/dn" "$td/dwarf-nofp.data"
n=$(stat -c %s "$td/dwarf-nofp.data")
gzip -c "$td/dwarf-nofp.data" > "$tmp/dn.gz"
{ head -c -8 "$tmp/dn.gz"; printf '\336\255\276\357\336\255\276\357'; } > "$tmp/crc.data.gz"
{ cat "$tmp/dn.gz"; printf '\037\213garbage'; } > "$tmp/member.data.gz"
{ cat "$tmp/dn.gz"; echo 'not gzip: ignored'; } > "$tmp/tail.data.gz"
head -c -100 "$tmp/dn.gz" > "$tmp/cut100.data.gz"
cut=$(gzip -dc < "$tmp/cut100.data.gz" 2> /dev/null | wc -c)
# the reports of $tmp/NAME as dwarf-nofp.data's: header.csv but its compression line (and for
# the cut file, whose feature sections are lost, but its features)
same_as_plain() {	# NAME [diff -x ARG]
	[ -f "$tmp/$1/header.csv" ] && grep -v '^header,compression,gzip$' "$tmp/$1/header.csv" > "$tmp/$1.header" &&
		mv "$tmp/$1.header" "$tmp/$1/header.csv" && diff_reports ${2:+-x "$2"} "$tmp/$1" "$tmp/dn" > /dev/null
}
t "gzip file, wrong CRC and length: exit 2 with the offset after the data" 2 \
	"crc.data.gz: gzip stream at offset $(printf '%#x' "$n") \\($n\\): incorrect data check" -- -q -o "$tmp/crc" "$tmp/crc.data.gz"
check "gzip file, wrong CRC and length: every report as the uncompressed file's" same_as_plain crc
t "gzip file, a bad member after the data: exit 2 with the offset after the data" 2 \
	"member.data.gz: gzip stream at offset $(printf '%#x' "$n") \\($n\\): unknown compression method" \
	-- -q -o "$tmp/member" "$tmp/member.data.gz"
check "gzip file, a bad member after the data: every report as the uncompressed file's" same_as_plain member
t "gzip file, not gzip after the member: exit 0" 0 '' -- -q -o "$tmp/tail" "$tmp/tail.data.gz"
check "gzip file, not gzip after the member: every report as the uncompressed file's" same_as_plain tail
t "gzip file cut 100 bytes short: exit 2 at zcat's $cut bytes" 2 \
	"cut100.data.gz: gzip stream at offset $(printf '%#x' "$cut") \\($cut\\): unexpected end of file" \
	-- -q -o "$tmp/cut100" "$tmp/cut100.data.gz"
check "gzip file cut 100 bytes short: its records analysed (every report but header.csv as the uncompressed file's)" \
	same_as_plain cut100 header.csv
# the same through a pipe: a pipe-mode stream (125,708 bytes) with a wrong trailer
"$PROG" -q -o "$tmp/wp" "$td/work.pipe.data"
gzip -c "$td/work.pipe.data" | head -c -8 > "$tmp/wp.gz"
printf '\336\255\276\357\336\255\276\357' >> "$tmp/wp.gz"
cat "$tmp/wp.gz" | "$PROG" -q -o "$tmp/wpz" - > /dev/null 2> "$tmp/err"
rc=$?
check "gzip pipe-mode stream on a pipe, wrong CRC and length: exit 2 with the offset after the data (exit $rc: $(head -c 200 "$tmp/err"))" \
	test $rc -eq 2 -a "$(grep -c "stdin: gzip stream at offset 0x1eb0c (125708): incorrect data check" "$tmp/err")" -eq 1
check "gzip pipe-mode stream on a pipe, wrong CRC and length: every report as the uncompressed stream's" \
	diff_reports "$tmp/wpz" "$tmp/wp"
# a plain file cut short
head -c 50000 "$td/work.data" > "$tmp/cut.data"
t "cut file: exit 2 naming the end of the file" 2 'data section at offset 0xc350 \(50000\)' -- -q -o "$tmp/cut2" "$tmp/cut.data"
t "header of a cut file: exit 2" 2 'offset' -- header "$tmp/cut.data"
t "header accepts --" 0 '' -- header -- "$td/work.data"
t "a directory as input: exit 2" 2 'is a directory' -- -o "$tmp/d" "$td"
t "a missing file: exit 3" 3 'cannot open' -- -o "$tmp/m" "$tmp/nonexistent.data"
"$PROG" -q -o "$tmp/p" - < "$td/work.pipe.data"
if [ $? = 0 ]; then echo "ok - pipe-mode stream on stdin"; else echo "not ok - pipe-mode stream on stdin"; fi
cat "$td/work.data" | "$PROG" -q -o "$tmp/p2" - 2> "$tmp/err"
if [ $? = 2 ] && grep -q "give its name" "$tmp/err"; then
	echo "ok - file-mode perf.data through a real pipe: exit 2 with a hint"
else
	echo "not ok - file-mode perf.data through a real pipe: $(cat "$tmp/err")"
fi

# options
# an event the file lacks is bad input, as a filter that leaves no sample (DESIGN.md: 1 usage,
# 2 bad input): the command line is right, the file does not have what it asks; said with the
# file's name and events, in every command that takes -e, and per file in a batch
t "-e with no such event: exit 2 naming the file and listing its events" 2 \
	"^readperf: $td/work.data: -e cycles: no event of that name; the file has: cpu-clock\$" -- -o "$tmp/e" -e cycles "$td/work.data"
if ls -A "$tmp/e" 2> /dev/null | grep -q .; then
	echo "not ok - -e with no such event: leaves $(ls -A "$tmp/e") in the output directory"
else
	echo "ok - -e with no such event: no staging directory left"
fi
t "-e empty: exit 1" 1 '' -- -o "$tmp/e" -e '' "$td/work.data"
t "tree -e with no such event: exit 2" 2 'work.data: -e cycles: no event of that name; the file has: cpu-clock$' -- \
	tree -q -e cycles "$td/work.data" hot_big
t "annotate -e with no such event: exit 2" 2 'work.data: -e cycles: no event of that name; the file has: cpu-clock$' -- \
	annotate -e cycles "$td/work.data" hot_big
# diff: a file without an analysis is no damaged file to compare up to its fault (it crashed)
t "diff -e with no such event: exit 2" 2 'work.data: -e cycles: no event of that name; the file has: cpu-clock$' -- \
	diff -q -o "$tmp/de" -e cycles "$td/work.data" "$td/work.data"
t "diff --time A%-B% on files without sample times: exit 2" 2 'work.pipe.data: --time with % or \+seconds needs' -- \
	diff -q -o "$tmp/de" --time 10%-20% "$td/work.pipe.data" "$td/work.pipe.data"
t "batch -e page-faults, work.data without it: exit 2" 2 'work.data: -e page-faults: no event of that name' -- \
	-q -o "$tmp/eb2" -e page-faults "$td/work.data" "$td/multi.data"
check "batch -e page-faults: index.csv says work 2, multi 0" \
	test "$(csv2tsv "$tmp/eb2/index.csv" | awk -F'\t' 'NR > 1 { printf "%s %s ", $1, $3 }')" = "work 2 multi 0 "
t "--time START after END: exit 1" 1 'START is after END' -- -o "$tmp/e" --time 20,10 "$td/work.data"
t "--reports empty: exit 1" 1 'no report' -- -o "$tmp/e" --reports '' "$td/work.data"
t "--reports unknown: exit 1" 1 "unknown report" -- -o "$tmp/e" --reports bogus "$td/work.data"
t "-o -: exit 1" 1 'directory' -- -o - "$td/work.data"
t "--kallsyms missing: exit 3" 3 'kallsyms' -- -o "$tmp/e" --kallsyms "$tmp/none" "$td/work.data"
t "unknown option: exit 1" 1 '' -- --bogus "$td/work.data"
# '-' twice: two outputs would mix on standard output, a stream is read once
t "--folded - --flamegraph -: exit 1" 1 "'-' given for two outputs" -- -o "$tmp/e" --folded - --flamegraph - "$td/work.data"
t "two inputs '-': exit 1" 1 "'-' given for two inputs" -- -o "$tmp/e" - -
t "diff - -: exit 1" 1 "'-' given for two inputs" -- diff -o "$tmp/e" - -
t "diff A - -- B -: exit 1" 1 "'-' given for two inputs" -- diff -o "$tmp/e" "$td/work.data" - -- "$td/work.data" -
t "diff --folded - --html -: exit 1" 1 "'-' given for two outputs" -- diff -o "$tmp/e" --folded - --html - "$td/work.data" "$td/work.data"
t "--callgraph dwarf recording of x86_64: unwound, no warning about it" 0 '' -- -q -o "$tmp/dw" --symfs "$td/symfs" --kallsyms "$td/kallsyms" "$td/callgraph-dwarf.data"
if grep -q '^cpu-clock,work,main,.*,117,585000000,100.0000$' "$tmp/dw/results.csv"; then
	echo "ok - --call-graph dwarf: main has every sample as children, as perf report --children (117, 100%)"
else
	echo "not ok - --call-graph dwarf: main's children are not perf's 117 samples, 100%"
fi
t "-e picks one event of three" 0 '' -- -q -o "$tmp/e3" -e page-faults/period=1/ "$td/multi.data"
t "-e page-faults matches page-faults/period=1/ (PMU terms)" 0 '' -- -q -o "$tmp/eb" -e page-faults "$td/multi.data"
if cmp -s "$tmp/eb/results.csv" "$tmp/e3/results.csv" 2> /dev/null || { "$PROG" -q -o "$tmp/e3b" -e page-faults/period=1/ "$td/multi.data" && cmp -s "$tmp/eb/results.csv" "$tmp/e3b/results.csv"; }; then
	echo "ok - -e page-faults: the same results as the full name"
else
	echo "not ok - -e page-faults: results differ from -e page-faults/period=1/"
fi
if awk -F, 'NR > 1 && $1 != "page-faults/period=1/" { bad = 1 } NR > 1 { n++ } END { exit bad || !n }' "$tmp/e3/results.csv"; then
	echo "ok - -e: results.csv has that event only"
else
	echo "not ok - -e: results.csv has other events or none"
fi
if [ -f "$shared/testdata-external/lpd/sleep.compressed.data" ]; then
	t "-e without perf's modifiers matches cycles:P" 0 '' -- -q -o "$tmp/ep" -e cycles "$shared/testdata-external/lpd/sleep.compressed.data"
	if grep -q '^cycles:P,' "$tmp/ep/results.csv"; then echo "ok - -e cycles: rows of cycles:P"; else echo "not ok - -e cycles: no rows of cycles:P"; fi
else
	echo "skip - -e modifier matching: no external fixtures"
fi

# same input, same options: byte-identical reports (the manifest too: the same command)
"$PROG" -q -o "$tmp/r" --symfs "$td/symfs" --kallsyms "$td/kallsyms" "$td/callgraph-fp.data"
mv "$tmp/r" "$tmp/r1"
"$PROG" -q -o "$tmp/r" --symfs "$td/symfs" --kallsyms "$td/kallsyms" "$td/callgraph-fp.data"
mv "$tmp/r" "$tmp/r2"
if diff -r "$tmp/r1" "$tmp/r2" > /dev/null; then
	echo "ok - two runs give byte-identical reports ($(ls "$tmp/r1" | wc -l) files)"
else
	echo "not ok - two runs differ: $(diff -rq "$tmp/r1" "$tmp/r2" | head -3)"
fi

# --time in perf's percent forms: sample counts that `perf script -i testdata/work.data --time T | wc -l`
# printed (perf 6.1): 10%/2 256, 0%-10% 256, 30%-50% 512
for tc in "10%/2 256" "0%-10% 256" "30%-50% 512"; do
	set -- $tc
	"$PROG" -q --reports overview -o "$tmp/tp" --time "$1" "$td/work.data"
	n=$(awk -F, '$3 == "SAMPLE"' "$tmp/tp/overview.csv" | wc -l)
	if [ "$n" = "$2" ]; then echo "ok - --time $1: $n samples as perf"; else echo "not ok - --time $1: $n samples, perf $2"; fi
done
# relative seconds: +0.1,+0.2 = [first + 0.1 s, first + 0.2 s], first = the file's first sample time
"$PROG" -q --reports overview -o "$tmp/tall" "$td/work.data"
first=$("$PROG" header "$td/work.data" | awk '/^#   first: / { print $3; exit }')
want=$(awk -F, -v a=$((first + 100000000)) -v b=$((first + 200000000)) '$3 == "SAMPLE" && $2 >= a && $2 <= b' "$tmp/tall/overview.csv" | wc -l)
"$PROG" -q --reports overview -o "$tmp/trel" --time +0.1,+0.2 "$td/work.data"
n=$(awk -F, '$3 == "SAMPLE"' "$tmp/trel/overview.csv" | wc -l)
if [ -n "$first" ] && [ "$n" = "$want" ] && [ "$n" -gt 0 ]; then
	echo "ok - --time +0.1,+0.2: $n samples, those in [first + 0.1 s, first + 0.2 s]"
else
	echo "not ok - --time +0.1,+0.2: $n samples, expected $want (first $first)"
fi
# +S without a '.' is whole seconds too: work.data spans 0.64 s (header: first 493002748195,
# last 493643023916), so +0,+1 keeps all its 2559 samples (perf script counts 2559) and
# +1, none (exit 2); read as ns they kept 1 sample and all of them
"$PROG" -q --reports overview -o "$tmp/tsec" --time +0,+1 "$td/work.data"
n=$(awk -F, '$3 == "SAMPLE"' "$tmp/tsec/overview.csv" | wc -l)
if [ "$n" = 2559 ]; then echo "ok - --time +0,+1: whole seconds, all $n samples"; else echo "not ok - --time +0,+1: $n samples, want 2559"; fi
t "--time +1,: whole seconds, past the 0.64 s recording: exit 2" 2 'no sample passes the filters' -- -q -o "$tmp/tx" --time +1, "$td/work.data"
t "--time 50%/3: exit 1 (past 100%)" 1 'time wants' -- -q -o "$tmp/tx" --time 50%/3 "$td/work.data"
t "--time +x,: exit 1" 1 'time wants' -- -q -o "$tmp/tx" --time +x, "$td/work.data"
# --help that cannot be written (a full device): exit 3, said, as any report's standard output
for cmd in "" annotate; do
	"$PROG" $cmd --help > /dev/full 2> "$tmp/err"
	rc=$?
	if [ $rc -eq 3 ] && grep -q '^readperf: standard output: No space left on device$' "$tmp/err"; then
		echo "ok - readperf $cmd --help > /dev/full: exit 3, said"
	else
		echo "not ok - readperf $cmd --help > /dev/full: exit $rc, $(head -c 200 "$tmp/err")"
	fi
done

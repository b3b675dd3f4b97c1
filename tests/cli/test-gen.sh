#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Synthetic perf.data files from tests/gen (every record type and sample field,
# both byte orders, file and pipe mode, attr sizes, zstd chunks, corrupt
# variants) through readperf.  What each file must give comes from the
# generator's MANIFEST (line formats: tests/gen/gen-perf.c, above manifest_good()):
# exit code; for good files the stat.csv count of every record type and the
# events.csv samples of every event; for corrupt files the byte offset named
# on stderr ("offset 0x...", the README's message form) and a stat.csv still
# written; big-endian files give the same stat.csv, events.csv and `dump`
# output as their little-endian twins.
# Environment: PROG (readperf), GEN (gen-perf).  Prints ok/not ok/skip lines.
set -u
export LC_ALL=C
: "${PROG:=build/readperf}" "${GEN:=build/tests/gen/gen-perf}"

if [ ! -x "$GEN" ]; then echo "skip - gen-perf not built ($GEN)"; exit 0; fi
if [ ! -x "$PROG" ]; then echo "skip - readperf not built ($PROG)"; exit 0; fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dir=$tmp/gen
if ! "$GEN" "$dir" > "$tmp/gen.out" 2>&1; then
	echo "not ok - gen-perf $dir failed: $(head -c 300 "$tmp/gen.out")"
	exit 0
fi
echo "ok - gen-perf wrote $(grep -c '^file ' "$dir/MANIFEST") files"
man=$dir/MANIFEST

check() {	# description, command...
	local what=$1
	shift
	if "$@"; then echo "ok - $what"; else echo "not ok - $what"; fi
}

run() {		# name: writes $tmp/out-NAME/, $tmp/err-NAME, $tmp/rc-NAME
	local n=$1
	rm -rf "$tmp/out-$n"
	timeout 20 "$PROG" -q -o "$tmp/out-$n" "$dir/$n" > /dev/null 2> "$tmp/err-$n"
	echo $? > "$tmp/rc-$n"
}

# stat.csv as "TYPE COUNT" lines, sorted
stat_counts() {
	tail -n +2 "$1" | awk -F, '{ print $1, $2 }' | sort
}

while read -r kind name rc_want rest; do
	[ "$kind" = file ] || continue
	run "$name"
	rc=$(cat "$tmp/rc-$name")
	check "$name: exit $rc_want (got $rc)" [ "$rc" = "$rc_want" ]
	stat=$tmp/out-$name/stat.csv
	if [ "$rc_want" = 2 ]; then
		check "$name: stat.csv written despite the fault" [ -s "$stat" ]
		offs=$(awk -v n="$name" '$1 == "fault" && $2 == n { for (i = 3; i <= NF; i++) print $i }' "$man")
		found=no
		for o in $offs; do
			grep -q "offset $o\b" "$tmp/err-$name" && found=yes
		done
		check "$name: stderr names offset $(echo $offs | sed 's/ / or /g') (stderr: $(head -c 200 "$tmp/err-$name" | tr '\n' ' '))" \
			[ $found = yes ]
		continue
	fi
	if [ ! -s "$stat" ]; then
		echo "not ok - $name: no stat.csv"
		continue
	fi
	awk -v n="$name" '$1 == "count" && $2 == n { print $3, $4 }' "$man" | sort > "$tmp/want-$name"
	stat_counts "$stat" > "$tmp/got-$name"
	if cmp -s "$tmp/want-$name" "$tmp/got-$name"; then
		echo "ok - $name: stat.csv counts"
	else
		echo "not ok - $name: stat.csv counts differ (- expected, + got):"
		diff "$tmp/want-$name" "$tmp/got-$name" | grep '^[<>]' | sed 's/^</  -/; s/^>/  +/'
	fi
	events=$tmp/out-$name/events.csv
	awk -v n="$name" '$1 == "samples" && $2 == n { print $3, $4 }' "$man" | while read -r ev want; do
		got=$(awk -F, -v e="$ev" '$1 == e { print $7 }' "$events" 2>/dev/null)
		check "$name: event $ev has $want samples (got ${got:-no row})" [ "$got" = "$want" ]
	done
done < "$man"

# Pipe-mode files read from a real pipe on stdin must give the same reports.
while read -r kind name rc_want rest; do
	[ "$kind" = file ] && [ "$rc_want" = 0 ] || continue
	case $name in pipe*) ;; *) continue ;; esac
	rm -rf "$tmp/stdin"
	cat "$dir/$name" | timeout 20 "$PROG" -q -o "$tmp/stdin" - > /dev/null 2> "$tmp/err-stdin"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "not ok - $name through stdin: exit $rc ($(head -c 200 "$tmp/err-stdin" | tr '\n' ' '))"
		continue
	fi
	for r in stat events; do
		check "$name through stdin: $r.csv identical to the file's" \
			cmp -s "$tmp/stdin/$r.csv" "$tmp/out-$name/$r.csv"
	done
done < "$man"

# Big-endian twins.  Compressed chunks differ in size (zstd sees other
# bytes), so for them offsets and COMPRESSED sizes are left out; FEATURE
# records' raw section bytes are in file order and left out too.
norm_dump() {	# file, compressed?
	if [ "$2" = yes ]; then
		sed -E 's/ offset=0x[0-9a-f]+//; /^COMPRESSED2? /s/ (size|data_size|data)=[^ ]*//g' "$1"
	else
		sed -E '/^FEATURE /s/ data=[^ ]*//' "$1"
	fi
}

norm_stat() {	# file, compressed?
	if [ "$2" = yes ]; then
		sed -E 's/^(COMPRESSED2?,[0-9]+),[0-9]+$/\1/' "$1"
	else
		cat "$1"
	fi
}

have_dump=yes
if ! "$PROG" dump "$dir/kernel-le.data" > /dev/null 2>&1; then
	have_dump=no
	echo "skip - readperf dump not available: dumps of big-endian twins not compared"
fi
while read -r kind be le; do
	[ "$kind" = same ] || continue
	comp=no
	grep -Eq "^count $le COMPRESSED2? " "$man" && comp=yes
	for r in stat events; do
		a=$tmp/out-$le/$r.csv b=$tmp/out-$be/$r.csv
		if [ ! -s "$a" ] || [ ! -s "$b" ]; then
			echo "not ok - $be: $r.csv missing"
			continue
		fi
		if [ $r = stat ]; then
			norm_stat "$a" "$comp" > "$tmp/a"
			norm_stat "$b" "$comp" > "$tmp/b"
		else
			cp "$a" "$tmp/a"
			cp "$b" "$tmp/b"
		fi
		if cmp -s "$tmp/a" "$tmp/b"; then
			echo "ok - $be: $r.csv identical to $le"
		else
			echo "not ok - $be: $r.csv differs from $le:"
			diff "$tmp/a" "$tmp/b" | head -6 | sed 's/^/  /'
		fi
	done
	[ $have_dump = yes ] || continue
	timeout 20 "$PROG" dump "$dir/$le" > "$tmp/dl" 2>&1
	timeout 20 "$PROG" dump "$dir/$be" > "$tmp/db" 2>&1
	norm_dump "$tmp/dl" "$comp" > "$tmp/a"
	norm_dump "$tmp/db" "$comp" > "$tmp/b"
	if [ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b"; then
		echo "ok - $be: dump identical to $le"
	else
		echo "not ok - $be: dump differs from $le ($(diff "$tmp/a" "$tmp/b" | grep -c '^[<>]') lines):"
		diff "$tmp/a" "$tmp/b" | head -4 | cut -c1-300 | sed 's/^/  /'
	fi
done < "$man"
exit 0

#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# perf-oracle.sh: ask the installed perf (6.1) what it sees in a recording and
# write normalized, tab-separated answers that compare-perf.sh checks
# readperf's CSVs against. perf is an independent tool; its answers are the
# expected values.
#
#   tests/cli/perf-oracle.sh NAME ...         testdata/NAME.data -> tests/cli/expected/NAME/
#   tests/cli/perf-oracle.sh --all            every testdata/*.data
#   tests/cli/perf-oracle.sh --fixture NAME FILE SYMFS
#                                             one recording from elsewhere with its own symfs
#                                             tree -> tests/cli/expected/NAME/
#   tests/cli/perf-oracle.sh --external DIR   every file under DIR (the shared
#                                             testdata-external) -> expected/external/<dir>__<file>/
#                                             (stats.txt and events only)
#
# Files written (one record per line, fields separated by one TAB):
#   stats.txt        TYPE COUNT      from `perf report --stats` "Aggregated stats"; first line TOTAL
#   events           EVENT SAMPLES   per-event "SAMPLE events" of `perf report --stats`
#   dso_sym          EVENT DSO SYM SAMPLES          `perf report --no-children --sort dso,sym`
#   dso_sym_srcfile  EVENT DSO SYM SRCFILE SAMPLES  `... --sort dso,sym,srcfile`
#   children         EVENT DSO SYM CHILDREN% SELF%  `perf report --children --no-inline --sort dso,sym`,
#                    only for one-event recordings whose samples carry callchains
#   pid              PID SAMPLES     all events, from `perf script -F pid`
#   script           TID TIME IP SYM EVENT  one line per sample, `perf script -F tid,time,event,ip,sym --ns`,
#                    TIME in integer ns, IP as 0x lower-case hex
#   refused          (external only) perf's error message when it cannot read the file
#   partial          (external only) perf's complaint when it printed stats but stopped early
# SYM is perf's symbol without the "[.] "/"[k] " prefix; unresolved addresses
# stay as perf prints them (report: 0x%016x, script: [unknown]).
#
# Binaries resolve through --symfs testdata/symfs; kernel symbols through
# testdata/NAME.kallsyms if present, else testdata/kallsyms. HOME and
# PERF_BUILDID_DIR point to an empty directory so perf's build-id cache of the
# machine running this is never used.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
td=$root/testdata
exp=$root/tests/cli/expected
PERF=${PERF:-perf}
tab=$(printf '\t')

tmphome=$(mktemp -d)
trap 'rm -rf "$tmphome"' EXIT
export HOME=$tmphome PERF_BUILDID_DIR=$tmphome/.debug PERF_PAGER=cat

kallsyms_for() {
	if [ -f "$td/$1.kallsyms" ]; then
		echo "$td/$1.kallsyms"
	elif [ -f "$td/kallsyms" ]; then
		echo "$td/kallsyms"
	fi
}

# perf report --stats output -> stats.txt and events
stats_to_files() { # OUTDIR < perf output
	awk -v out="$1" '
	BEGIN { FS = "\t"; sec = "" }
	/^Aggregated stats/ { sec = "agg"; next }
	/ stats:$/ { sub(/^ +/, ""); sub(/ stats:$/, ""); sec = "ev"; ev = $0;
		if (!(ev in seen)) { seen[ev] = 1; order[n++] = ev; samples[ev] = 0 }
		next }
	/ events: +[0-9]+/ {
		line = $0; sub(/^ +/, "", line)
		type = line; sub(/ events:.*/, "", type)
		cnt = line; sub(/.* events: +/, "", cnt); sub(/ .*/, "", cnt)
		if (sec == "agg") { agg[na++] = type "\t" cnt }
		else if (sec == "ev" && type == "SAMPLE") samples[ev] = cnt
	}
	END {
		for (i = 0; i < na; i++) print agg[i] > (out "/stats.txt")
		for (i = 0; i < n; i++) print order[i] "\t" samples[order[i]] > (out "/events")
		if (n == 0) printf "" > (out "/events")
	}'
}

# perf report --stdio --field-separator TAB -> EVENT, fields..., SAMPLES
report_to_file() { # stdin: perf report output; NF_KEYS: number of key columns after samples
	awk -v nk="$1" '
	BEGIN { FS = "\t"; OFS = "\t"; ev = "" }
	/^# Samples: / { ev = $0; sub(/^[^'\'']*'\''/, "", ev); sub(/'\''[^'\'']*$/, "", ev); next }
	/^#/ || /^$/ { next }
	{
		s = $1; gsub(/ /, "", s)
		out = ev
		for (i = 2; i <= nk + 1; i++) {
			f = $i; sub(/ +$/, "", f); sub(/^ +/, "", f)
			if (i == 3) sub(/^\[[.kgHu]\] /, "", f)
			out = out OFS f
		}
		print out, s
	}'
}

# Event names as perf report and perf script show them: --stats prints names
# made from the attr for pipe files even where EVENT_DESC names the events,
# the reports use EVENT_DESC.  Sample counts per name from `perf script -F
# event` replace the events file when perf script reads the whole file.
script_events() { # FILE OUTDIR
	local sc
	sc=$("$PERF" script -i "$1" -F event 2>/dev/null < /dev/null) || return 0
	[ -n "$sc" ] || return 0
	awk '{ ev = $0; sub(/^ +/, "", ev); sub(/: *$/, "", ev); c[ev]++ } END { for (e in c) print e "\t" c[e] }' <<< "$sc" |
		sort > "$2/events.script"
	# only when perf script saw as many samples as --stats counted
	if [ "$(awk -F'\t' '{ s += $2 } END { print s + 0 }' "$2/events.script")" = \
	     "$(awk -F'\t' '{ s += $2 } END { print s + 0 }' "$2/events")" ]; then
		mv "$2/events.script" "$2/events"
	else
		rm -f "$2/events.script"
	fi
}

oracle_recording() { # NAME [FILE SYMFS]
	local name=$1 f=${2:-$td/$1.data} symfs=${3:-$td/symfs} out=$exp/$1 ks
	local -a kopt=()
	[ -f "$f" ] || { echo "perf-oracle: $f: no such recording" >&2; return 1; }
	ks=$(kallsyms_for "$name")
	[ -n "$ks" ] && [ $# -eq 1 ] && kopt=(--kallsyms "$ks")
	rm -rf "$out"
	mkdir -p "$out"
	"$PERF" report -i "$f" --stats 2>/dev/null | stats_to_files "$out"
	"$PERF" report -i "$f" --symfs "$symfs" "${kopt[@]}" --no-children --no-group -g none \
		--sort dso,sym -F sample,dso,sym -w 20,200,1000 --stdio --field-separator="$tab" 2>/dev/null |
		report_to_file 2 > "$out/dso_sym"
	"$PERF" report -i "$f" --symfs "$symfs" "${kopt[@]}" --no-children --no-group -g none \
		--sort dso,sym,srcfile -F sample,dso,sym,srcfile -w 20,200,1000,1000 --stdio --field-separator="$tab" 2>/dev/null |
		report_to_file 3 > "$out/dso_sym_srcfile"
	if [ "$("$PERF" evlist -v -i "$f" 2>/dev/null | grep -c 'sample_type: [A-Z_|]*CALLCHAIN')" = 1 ] &&
	   [ "$("$PERF" evlist -i "$f" 2>/dev/null | grep -vc '^#')" = 1 ]; then
		"$PERF" report -i "$f" --symfs "$symfs" "${kopt[@]}" --children --no-inline -g none \
			--sort dso,sym --stdio --field-separator="$tab" 2>/dev/null |
			awk 'BEGIN { FS = "\t"; OFS = "\t"; ev = "" }
			/^# Samples: / { ev = $0; sub(/^[^'\'']*'\''/, "", ev); sub(/'\''[^'\'']*$/, "", ev); next }
			/^#/ || /^$/ { next }
			{
				for (i = 1; i <= 4; i++) { sub(/^ +/, "", $i); sub(/ +$/, "", $i) }
				sub(/%$/, "", $1); sub(/%$/, "", $2); sub(/^\[[.kgHu]\] /, "", $4)
				print ev, $3, $4, $1, $2
			}' > "$out/children"
	fi
	"$PERF" script -i "$f" --symfs "$symfs" "${kopt[@]}" -F pid --ns 2>/dev/null |
		awk '{ c[$1]++ } END { for (p in c) print p "\t" c[p] }' | sort -n > "$out/pid"
	# " TID SEC.NSEC: EVENT: IP SYM..." ; event names contain no blanks here
	"$PERF" script -i "$f" --symfs "$symfs" "${kopt[@]}" -F tid,time,event,ip,sym --ns -G 2>/dev/null |
		awk 'BEGIN { OFS = "\t" }
		{
			tid = $1; t = $2; sub(/:$/, "", t); split(t, tp, ".")
			ns = tp[1] tp[2]; sub(/^0+/, "", ns); if (ns == "") ns = 0
			ev = $3; sub(/:$/, "", ev)
			ip = tolower($4); sub(/^0+/, "", ip); if (ip == "") ip = "0"
			sym = $0; sub(/^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ ?/, "", sym)
			print tid, ns, "0x" ip, sym, ev
		}' > "$out/script"
	echo "perf-oracle: $name: $(wc -l < "$out/script") samples, $(wc -l < "$out/dso_sym") dso/sym rows"
}

oracle_external() { # DIR
	local dir=$1 f sub base out err
	for f in "$dir"/*/*; do
		[ -f "$f" ] || continue
		sub=$(basename "$(dirname "$f")")
		base=$(basename "$f")
		case $base in *.md | *.bin | vector_static_gcc_v9.1.0) continue ;; esac
		out=$exp/external/${sub}__${base}
		rm -rf "$out"
		mkdir -p "$out"
		err=$("$PERF" report -i "$f" --stats 2>&1 >"$out/perf.out" < /dev/null)
		if grep -q '^Aggregated stats' "$out/perf.out"; then
			stats_to_files "$out" < "$out/perf.out"
			script_events "$f" "$out"
			# perf printed stats but complained: it stopped early, the counts are partial
			printf '%s\n' "$err" | grep -v '^$' | head -5 > "$out/partial"
			[ -s "$out/partial" ] || rm -f "$out/partial"
			echo "perf-oracle: external $sub/$base: $(wc -l < "$out/events") events${err:+ (partial: $err)}"
		else
			printf '%s\n' "$err" | grep -v '^$' | head -5 > "$out/refused"
			echo "perf-oracle: external $sub/$base: refused: $(head -1 "$out/refused")"
		fi
		rm -f "$out/perf.out"
	done
}

[ $# -gt 0 ] || { sed -n '3,30p' "$0" | sed 's/^# \{0,1\}//'; exit 1; }
case $1 in
--all)
	for f in "$td"/*.data; do oracle_recording "$(basename "$f" .data)" || exit 1; done ;;
--fixture)
	[ $# -eq 4 ] || { echo "usage: $0 --fixture NAME FILE SYMFS" >&2; exit 1; }
	oracle_recording "$2" "$3" "$4" ;;
--external)
	[ $# -eq 2 ] || { echo "usage: $0 --external DIR" >&2; exit 1; }
	oracle_external "$2" ;;
*)
	for n in "$@"; do oracle_recording "$n" || exit 1; done ;;
esac

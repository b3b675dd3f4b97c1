#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# --call-graph dwarf recordings of programs built without frame pointers
# (testdata/dwarf-nofp.data: C, two threads, a shared library;
# testdata/dwarf-cxx.data: C++ templates and a lambda under std::sort), and
# testdata/callgraph-dwarf.data: user stacks unwound with libdw as perf does.
# Against perf itself, run here on the same files: for every function at 1%
# or more, children_percent within 1 point of `perf report --children
# --no-inline --sort dso,sym` and percent (self) equal to perf's; and every
# sample's stack of dwarf-nofp in --folded equals the one `perf script`
# prints for it; and exec-loop.dwarf's samples without a stack copy have no
# user frame, as in perf script.
. "$(dirname "$0")/testlib.sh"

if ! command -v perf > /dev/null; then
	echo "skip - unwinding: perf is not installed"
	exit 0
fi
export PERF_BUILDID_DIR=$tmp/.debug
for name in dwarf-nofp dwarf-cxx callgraph-dwarf; do
	ks=(--symfs "$td/symfs" --kallsyms "$td/kallsyms")
	[ -e "$td/$name.kallsyms" ] && ks=(--symfs "$td/symfs" --kallsyms "$td/$name.kallsyms")
	perf report -i "$td/$name.data" "${ks[@]}" --children --no-inline --sort dso,sym -F overhead_children,overhead,dso,sym \
		--stdio --field-separator=$'\t' -g none 2> /dev/null |
		awk -F'\t' '!/^#/ && NF { for (i = 1; i <= NF; i++) gsub(/^ +| +$/, "", $i); sub(/%$/, "", $1); sub(/%$/, "", $2)
			sub(/^\[[k.]\] /, "", $4); print $3 "\t" $4 "\t" $1 "\t" $2 }' | sort > "$tmp/$name.perf"
	"$PROG" -q -o "$tmp/$name" --reports results "${ks[@]}" "$td/$name.data"
	csv2tsv "$tmp/$name/results.csv" | awk -F'\t' 'NR > 1 { print $2 "\t" $3 "\t" $11 "\t" $8 }' | sort > "$tmp/$name.rp"
	res=$(awk -F'\t' 'FNR == NR { c[$1 "\t" $2] = $3; s[$1 "\t" $2] = $4; next }
		$3 >= 1 && $2 !~ /^0x/ {
			n++; k = $1 "\t" $2
			if (!(k in c)) { miss = miss " " $2; next }
			d = c[k] - $3; if (d < 0) d = -d; if (d > w) { w = d; at = $2 }
			e = s[k] - $4; if (e < 0) e = -e; if (e > 0.006) self = self " " $2
		}
		END { printf "%d %.4f %s|%s|%s\n", n, w, at, miss, self }' "$tmp/$name.rp" "$tmp/$name.perf")
	n=${res%% *}; rest=${res#* }; worst=${rest%% *}; rest=${rest#* }
	IFS='|' read -r at miss self <<< "$rest"
	check "$name: children_percent within 1 point of perf for the $n functions at 1% or more (worst $worst at $at)${miss:+, missing:$miss}" \
		awk -v w="$worst" -v m="$miss" -v n="$n" 'BEGIN { exit !(w <= 1 && m == "" && n > 3) }'
	check "$name: self percent as perf's${self:+, differs:$self}" test -z "$self"
done
check "dwarf-nofp: main reaches the leaves through outer (children 63.18% as perf)" \
	grep -q "^nofp	main	63.1799	" "$tmp/dwarf-nofp.rp"

# every stack, sample by sample: perf script's frames (innermost first) as folded lines
ks=(--symfs "$td/symfs" --kallsyms "$td/kallsyms.boot2")
perf script -i "$td/dwarf-nofp.data" "${ks[@]}" -F comm,ip,sym --no-inline 2> /dev/null |
	awk 'function flush() { if (comm != "") { s = comm; for (i = n; i >= 1; i--) s = s ";" f[i]; print s } comm = ""; n = 0 }
		/^[^ \t]/ { flush(); comm = $1; next }
		/^[ \t]+/ { sym = $2; if (sym == "[unknown]") next; if ($1 ~ /^ffffffff/) sym = sym "_[k]"; f[++n] = sym; next }
		END { flush() }' | sort | uniq -c | awk '{ print $2 " " $1 }' | sort > "$tmp/perf.folded"
"$PROG" -q --reports none --folded "$tmp/rp.folded" "${ks[@]}" "$td/dwarf-nofp.data"
check "dwarf-nofp: --folded has perf script's stack for every sample ($(wc -l < "$tmp/perf.folded") stacks)" \
	cmp -s <(sort "$tmp/rp.folded") "$tmp/perf.folded"
diff <(sort "$tmp/rp.folded") "$tmp/perf.folded" | head -4 | sed 's/^/# /'
# exec-loop.dwarf (testdata/src/execloop.c forks and execs itself): 256 of its 1153 samples
# are taken in execve after the switch to the new program's memory, where the kernel could copy
# none of the user stack (dyn_size 0 in readperf dump). perf unwinds nothing for them (no user
# frame in perf script), readperf unwound the ring buffer's stale bytes there (243 samples with
# user frames perf has not). Sample by sample: a user frame in readperf's stack when perf has one.
if command -v python3 > /dev/null; then
	ks=(--symfs "$td/symfs" --kallsyms "$td/kallsyms.boot2")
	perf script -i "$td/exec-loop.dwarf" "${ks[@]}" -F tid,time,ip,dso 2> /dev/null > "$tmp/exec.script"
	"$PROG" -q --reports none --speedscope "$tmp/exec.json" "${ks[@]}" "$td/exec-loop.dwarf"
	res=$(python3 "$root/tests/cli/user-frames.py" "$tmp/exec.script" "$tmp/exec.json")
	check "exec-loop: a user frame where perf script has one, sample by sample (${res%%$'\n'*})" \
		grep -qx "samples 1153 differ 0" <<< "$res"
	sed -n '2,$s/^/# /p' <<< "$res"
	n=$("$PROG" dump "$td/exec-loop.dwarf" 2> /dev/null | grep -c '^SAMPLE .* user_stack_dyn_size=0\b')
	check "exec-loop: 256 samples without a stack copy (dyn_size 0; got $n)" test "$n" -eq 256
else
	echo "skip - exec-loop: no python3"
fi
# readperf record --call-graph dwarf: a file perf unwinds, and readperf to the same children
nofp=$td/symfs/readperf-testdata/bin/nofp
if "$PROG" record -q -o "$tmp/probe.data" -- true 2> /dev/null; then
	LD_LIBRARY_PATH=${nofp%/*} "$PROG" record -q -N -F 999 --call-graph dwarf -o "$tmp/rec.data" -- "$nofp" > /dev/null
	check "record --call-graph dwarf: exit 0" test $? -eq 0
	perf report -i "$tmp/rec.data" --children --no-inline --sort dso,sym -F overhead_children,overhead,dso,sym \
		--stdio --field-separator=$'\t' -g none 2> /dev/null |
		awk -F'\t' '!/^#/ && NF { for (i = 1; i <= NF; i++) gsub(/^ +| +$/, "", $i); sub(/%$/, "", $1); sub(/%$/, "", $2)
			sub(/^\[[k.]\] /, "", $4); print $3 "\t" $4 "\t" $1 "\t" $2 }' | sort > "$tmp/rec.perf"
	check "record --call-graph dwarf: perf report unwinds it (main's children above 50%)" \
		awk -F'\t' '$2 == "main" && $3 > 50 { ok = 1 } END { exit !ok }' "$tmp/rec.perf"
	"$PROG" -q -o "$tmp/rec" --reports results "$tmp/rec.data"
	csv2tsv "$tmp/rec/results.csv" | awk -F'\t' 'NR > 1 { print $2 "\t" $3 "\t" $11 "\t" $8 }' | sort > "$tmp/rec.rp"
	worst=$(awk -F'\t' 'FNR == NR { c[$1 "\t" $2] = $3; next } $3 >= 1 && (($1 "\t" $2) in c) {
		d = c[$1 "\t" $2] - $3; if (d < 0) d = -d; if (d > w) w = d } END { printf "%.4f", w }' "$tmp/rec.rp" "$tmp/rec.perf")
	check "record --call-graph dwarf: readperf's children within 1 point of perf's (worst $worst)" \
		awk -v w="$worst" 'BEGIN { exit !(w <= 1) }'
else
	echo "skip - record --call-graph dwarf: the kernel refuses perf_event_open here"
fi
exit 0

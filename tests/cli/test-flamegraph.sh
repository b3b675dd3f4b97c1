#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The interactive flame graph and --inline:
# - in headless chromium (tests/js/flamegraph-check.mjs, puppeteer-core): it
#   renders, a real click zooms a frame to the full width, "Reset Zoom" undoes
#   it, Ctrl-F highlights and its "Matched" share is results.csv's
#   children_percent of the function (regress-after.data: compute_b);
# - kernel frames (_[k]) in their own colour family (systemwide-g.data);
# - --minwidth leaves out narrower frames, and the picture is as tall as the
#   frames it draws (gen-perf --deep: a 128-frame stack of 1 sample in 2,001);
# - --inline (inl.data, testdata/src/inl.c: outer -> middle -> inner_math,
#   both always_inline): each sample's inline chain is addr2line -i's for its
#   address; callers.csv gains the inlined edges; results.csv is unchanged.
. "$(dirname "$0")/testlib.sh"

# --- in a real browser
"$PROG" -q -o "$tmp/ra" --reports results --symfs "$td/symfs" --kallsyms "$td/regress-after.kallsyms" \
	--flamegraph "$tmp/ra.svg" "$td/regress-after.data"
pct=$(awk -F, '$3 == "compute_b" { print $11 }' "$tmp/ra/results.csv")
check "regress-after: compute_b has a children_percent ($pct)" test -n "$pct"
node_check chromium flamegraph-check.mjs "$tmp/ra.svg" compute_b '^compute_b$' "$pct"

# --- colour families: kernel frames aqua (r <= 110, g and b >= 165), user frames hot (r >= 205, b <= 55)
"$PROG" -q -o "$tmp/sw" --reports none --symfs "$td/symfs" --kallsyms "$td/systemwide-g.kallsyms" \
	--flamegraph "$tmp/sw.svg" "$td/systemwide-g.data"
colours() {	# SVG: "name r g b" per frame
	awk '/<title>/ { t = $0; sub(/^<title>/, "", t); sub(/ \(period .*/, "", t) }
	     /<rect x=.* fill="rgb\(/ { c = $0; sub(/.*fill="rgb\(/, "", c); sub(/\)".*/, "", c); gsub(/,/, " ", c); print t, c }' "$1"
}
colours "$tmp/sw.svg" > "$tmp/sw.colours"
nk=$(awk '$1 ~ /_\[k\]$/' "$tmp/sw.colours" | wc -l)
bad=$(awk '$1 ~ /_\[k\]$/ && !($2 <= 110 && $3 >= 165 && $4 >= 165) { print; exit }
	   $1 !~ /_\[[ki]\]$/ && !($2 >= 205 && $4 <= 55) { print; exit }' "$tmp/sw.colours")
check "systemwide-g: $nk kernel frames in the aqua family, the others hot${bad:+: $bad}" test "$nk" -gt 10 -a -z "$bad"

# --- --minwidth
all=$(grep -c '^<rect x=.*rx=' "$tmp/sw.svg")
"$PROG" -q -o "$tmp/sw" --reports none --symfs "$td/symfs" --kallsyms "$td/systemwide-g.kallsyms" \
	--minwidth 20 --flamegraph "$tmp/sw20.svg" "$td/systemwide-g.data"
some=$(grep -c '^<rect x=.*rx=' "$tmp/sw20.svg")
narrow=$(grep '^<rect x=.*rx=' "$tmp/sw20.svg" | sed 's/.*width="\([0-9.]*\)".*/\1/' | awk '$1 < 20' | wc -l)
check "--minwidth 20: $some of $all frames, none narrower than 20 px" test "$some" -lt "$all" -a "$some" -gt 0 -a "$narrow" -eq 0
"$PROG" -q -o "$tmp/sw" --reports none --minwidth wide --flamegraph "$tmp/x.svg" "$td/systemwide-g.data" 2> "$tmp/err"
check "--minwidth wide: exit 1 with a message" test $? -eq 1 -a -s "$tmp/err"

# --- --inline
S=(--symfs "$td/symfs" --kallsyms "$td/inl.kallsyms")
"$PROG" -q -o "$tmp/in0" "${S[@]}" --folded "$tmp/in0.folded" "$td/inl.data"
"$PROG" -q -o "$tmp/in1" "${S[@]}" --inline --folded "$tmp/in1.folded" --flamegraph "$tmp/in1.svg" "$td/inl.data"
check "--inline: results.csv unchanged" cmp -s "$tmp/in0/results.csv" "$tmp/in1/results.csv"
check "--inline: lines.csv unchanged" cmp -s "$tmp/in0/lines.csv" "$tmp/in1/lines.csv"
check "without --inline: no inlined frame" test "$(grep -c '_\[i\]' "$tmp/in0.folded")" -eq 0
# the oracle: addr2line -i on each user sample address of perf script (outer+0xOFF -> nm's outer + OFF)
bin=$td/symfs/readperf-testdata/bin/inl
if command -v perf > /dev/null && command -v addr2line > /dev/null && command -v python3 > /dev/null; then
	perf script -i "$td/inl.data" --symfs "$td/symfs" -F ip,sym,symoff,dso -G 2> /dev/null |
		awk '$3 ~ /readperf-testdata\/bin\/inl\)$/ { print $2 }' > "$tmp/symoffs"
	nm "$bin" | awk '$3 != "" { print $3, $1 }' > "$tmp/nm"
	python3 -c '
import sys
base = dict(l.split() for l in open(sys.argv[1]))
for l in open(sys.argv[2]):
    s, off = l.strip().rsplit("+", 1)
    if s in base:
        print(hex(int(base[s], 16) + int(off, 16)))' "$tmp/nm" "$tmp/symoffs" > "$tmp/addrs"
	# per address, the inline chain outermost first, joined by ';' (addr2line -i prints innermost first)
	addr2line -f -i -e "$bin" -a < "$tmp/addrs" | awk '
		/^0x/ { if (n) flush(); n = 0; next }
		NR % 1 == 0 && !/^\// && !/^\?\?:/ && !/:[0-9?]+( \(discriminator [0-9]+\))?$/ { f[n++] = $0 }
		function flush(  i, s) { s = f[n - 1]; for (i = n - 2; i >= 0; i--) s = s ";" f[i] "_[i]"; print s }
		END { if (n) flush() }' | sort | uniq -c | awk '{ print $2, $1 }' > "$tmp/a2l"
	# readperf: the part of each folded stack from the sampled function on
	awk '{ n = $NF; $NF = ""; sub(/ $/, ""); s = $0; sub(/.*;outer;/, "outer;", s); if (s ~ /^outer/) c[s] += n }
	     END { for (s in c) print s, c[s] }' "$tmp/in1.folded" | sort > "$tmp/rp"
	sort "$tmp/a2l" > "$tmp/a2l.s"
	# where readperf (libdw) and addr2line (libbfd) differ, llvm-symbolizer's chain is the
	# answer (a third DWARF reader, the same per-address chains); without it a skip
	if ! cmp -s "$tmp/a2l.s" "$tmp/rp" && command -v llvm-symbolizer > /dev/null; then
		llvm-symbolizer --print-address --obj="$bin" < "$tmp/addrs" | awk '
			/^0x/ { if (n) flush(); n = 0; k = 0; next }
			$0 == "" { next }
			{ if (k++ % 2 == 0) f[n++] = $0 }
			function flush(  i, s) { s = f[n - 1]; for (i = n - 2; i >= 0; i--) s = s ";" f[i] "_[i]"; print s }
			END { if (n) flush() }' | sort | uniq -c | awk '{ print $2, $1 }' | sort > "$tmp/llvm.s"
		check "--inline: every sample in outer has llvm-symbolizer's inline chain ($(tr '\n' ' ' < "$tmp/llvm.s")), where addr2line -i's are not readperf's (addr2line < llvm-symbolizer >: $(diff "$tmp/a2l.s" "$tmp/llvm.s" | grep '^[<>]' | tr '\n' ' '))" \
			cmp -s "$tmp/llvm.s" "$tmp/rp"
	elif ! cmp -s "$tmp/a2l.s" "$tmp/rp"; then
		echo "skip - --inline: readperf's chains ($(tr '\n' ' ' < "$tmp/rp")) are not addr2line -i's and no llvm-symbolizer tells which is right"
	else
		echo "ok - --inline: every sample in outer has addr2line -i's inline chain ($(tr '\n' ' ' < "$tmp/a2l.s"))"
	fi
else
	echo "skip - --inline against addr2line: perf or addr2line missing"
fi
check "--inline: outer;middle_[i];inner_math_[i] is the hot stack" \
	grep -q ';outer;middle_\[i\];inner_math_\[i\] [0-9]*$' "$tmp/in1.folded"
check "--inline: callers.csv has outer -> middle (inlined) -> inner_math (inlined)" \
	test "$(grep -c -E '^cpu-clock,inl,outer,inl,middle \(inlined\),|^cpu-clock,inl,middle \(inlined\),inl,inner_math \(inlined\),' "$tmp/in1/callers.csv")" -eq 2
# a caller's inlined functions are those of its call: a callchain holds return addresses, the
# instructions after the calls, so they are looked up at the address before (addr2line -i on
# address - 1, as pprof and gdb do).  callinl.data (testdata/src/callinl.c): main calls work()
# at 0x1083 from around(), inlined into main; the return address, 0x1088 (objdump -d), is main's
# own code: addr2line -i says around -> main at 0x1087 and main alone at 0x1088.
"$PROG" -q -o "$tmp/ci" --symfs "$td/symfs" --inline --folded "$tmp/ci.folded" --reports callers "$td/callinl.data"
check "--inline: a caller's inlined functions are its call's: main;around_[i];work is the hot stack" \
	grep -q '^callinl;__libc_start_call_main;main;around_\[i\];work [0-9]*$' "$tmp/ci.folded"
check "--inline: callers.csv has main -> around (inlined) -> work" \
	test "$(grep -c -E '^cpu-clock:u,callinl,main,callinl,around \(inlined\),|^cpu-clock:u,callinl,around \(inlined\),callinl,work,' "$tmp/ci/callers.csv")" -eq 2
if command -v perf > /dev/null && command -v addr2line > /dev/null; then
	# main's return address in work's samples (perf script), and addr2line -i's chain (outermost first) before it and at it
	ret=$(perf script -i "$td/callinl.data" --symfs "$td/symfs" -F ip,sym 2> /dev/null | awk '$2 == "work" { getline; print $1; exit }')
	a2l_chain() {
		addr2line -f -i -e "$td/symfs/readperf-testdata/bin/callinl" "$1" | awk 'NR % 2 == 1' | tac |
			awk 'NR == 1 { s = $0; next } { s = s ";" $0 "_[i]" } END { print s }'
	}
	call=$(a2l_chain "$(printf '0x%x' $((0x${ret:-0} - 1)))")
	at=$(a2l_chain "0x${ret:-0}")
	check "--inline: the caller's chain is addr2line -i's at the return address 0x$ret - 1 ($call), not at it ($at)" \
		test -n "$ret" -a "$call" != "$at" -a "$(grep -cF ";$call;work " "$tmp/ci.folded")" -eq 1
else
	echo "skip - --inline of a caller against addr2line: perf or addr2line missing"
fi
# the user address where a kernel sample entered the kernel is the interrupted (here the
# faulting) instruction, not a return address: looked up at itself.  regress-before.data has
# a page fault in ld.so's relocation at 0xe3a4 (perf script), where addr2line -i on ld.so's
# debug file says resolve_map, elf_machine_rela, elf_dynamic_do_Rela (at 0xe3a3: no resolve_map)
"$PROG" -q -o "$tmp/rb" --symfs "$td/symfs" --kallsyms "$td/regress-before.kallsyms" --inline \
	--folded "$tmp/rb.folded" --reports none "$td/regress-before.data"
if grep -q ';elf_dynamic_do_Rela_\[i\];elf_machine_rela_\[i\];' "$tmp/rb.folded"; then
	check "--inline: the faulting user instruction of a kernel sample keeps its own inlined functions (resolve_map_[i])" \
		grep -q ';elf_dynamic_do_Rela_\[i\];elf_machine_rela_\[i\];resolve_map_\[i\];asm_exc_page_fault_\[k\]' "$tmp/rb.folded"
else
	echo "skip - --inline at a kernel entry: no inlined frames of ld.so here (its debug file, libc6-dbg, is not installed)"
fi
colours "$tmp/in1.svg" > "$tmp/in1.colours"
bad=$(awk '$1 ~ /_\[i\]$/ && !($2 == $3 && $2 >= 175 && $4 <= 70) { print; exit }' "$tmp/in1.colours")
check "--inline: inlined frames in the yellow family${bad:+: $bad}" \
	test -z "$bad" -a "$(grep -c '_\[i\]' "$tmp/in1.colours")" -eq 2
"$PROG" -q -o "$tmp/in2" "${S[@]}" --inline --folded "$tmp/in2.folded" --flamegraph "$tmp/in2.svg" "$td/inl.data"
check "--inline: byte-identical across runs" cmp -s "$tmp/in1.svg" "$tmp/in2.svg"

# --- the height comes from the frames drawn (flamegraph.pl: depthmax of the frames it keeps).
# deep.data folds to "deep;[unknown];[unknown]" 2000 times and deep + 128 frames once: at
# --minwidth 1 the single sample (1180 px / 2001 = 0.59 px) is left out past the third
# level, so 4 rows (all, deep, two [unknown]) stay: 60 (title) + 4 * 16 + 34 (bottom) = 158 px;
# at --minwidth 0 every one of the 130 rows: 60 + 130 * 16 + 34 = 2174 px.  The deepest
# drawn frame is at the top (y = 60) both ways.
if [ -x "$GEN" ]; then
	"$GEN" --deep "$tmp/deep.data"
	for mw in 1:158 0:2174; do
		"$PROG" -q -o "$tmp/deep" --reports none --minwidth "${mw%:*}" --flamegraph "$tmp/deep.svg" "$tmp/deep.data"
		h=$(sed -n 's/^<svg .* height="\([0-9]*\)" viewBox.*/\1/p' "$tmp/deep.svg")
		top=$(grep '^<rect x=.*rx=' "$tmp/deep.svg" | sed 's/.* y="\([0-9]*\)".*/\1/' | sort -n | head -1)
		check "--minwidth ${mw%:*}: a 1-sample 128-frame stack: height ${mw#*:} px (got $h), the top frame at y 60 (got $top)" \
			test "$h" = "${mw#*:}" -a "$top" = 60
	done
else
	echo "skip - flame graph height: gen-perf not built"
fi

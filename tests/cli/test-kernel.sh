#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Kernel frames above the kernel MMAP's length (init text after _etext) are the
# kernel's, as perf's kernel map reaches the first module or the end:
# testdata/systemwide-g.data (perf record -a -g -e cpu-clock:k -F 500 -- sleep 0.5), where
# `perf report --children --no-inline --sort dso,sym --kallsyms ...` printed
# 76.75% children for start_kernel, x86_64_start_kernel and __pfx_clear_bss
# (the idle tasks' stacks).
. "$(dirname "$0")/testlib.sh"

"$PROG" -q -o "$tmp/k" --reports results --kallsyms "$td/kallsyms.boot2" "$td/systemwide-g.data"
for fn in start_kernel x86_64_start_kernel __pfx_clear_bss; do
	got=$(awk -F, -v f="$fn" '$2 == "[kernel.kallsyms]" && $3 == f { printf "%.2f", $11 }' "$tmp/k/results.csv")
	check "systemwide -g: $fn has 76.75% children as perf (got $got)" test "$got" = 76.75
done
exit 0

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Pipe mode with --call-graph dwarf: the user stacks unwind as in file mode.
# testdata/dwarf-nofp.pipe is testdata/dwarf-nofp.data made a pipe-mode
# stream by `perf inject -i dwarf-nofp.data -o - > dwarf-nofp.pipe`
# (the same records: HEADER_ATTR, HEADER_FEATURE ... before the samples), so
# every report, the children columns included, must equal the file mode's.
# Before the fix the pipe's unwinder was never made (the attrs arrive after
# the analysis began): children of leaf_a 62.7615% instead of 63.1799%.
. "$(dirname "$0")/testlib.sh"

ks=(--symfs "$td/symfs" --kallsyms "$td/dwarf-nofp.kallsyms")
"$PROG" -q -o "$tmp/file" --reports results,lines,callers "${ks[@]}" "$td/dwarf-nofp.data"
"$PROG" -q -o "$tmp/pipe" --reports results,lines,callers "${ks[@]}" "$td/dwarf-nofp.pipe"
for r in results lines callers; do
	check "pipe-mode dwarf: $r.csv equals file mode's" cmp "$tmp/file/$r.csv" "$tmp/pipe/$r.csv"
done
"$PROG" -q -o "$tmp/stdin" --reports results "${ks[@]}" - < "$td/dwarf-nofp.pipe"
check "pipe-mode dwarf from stdin: results.csv equals file mode's" cmp "$tmp/file/results.csv" "$tmp/stdin/results.csv"
check "pipe-mode dwarf: main's children come from unwound stacks" \
	awk -F, '$3 == "main" && $11 + 0 > 50 { ok = 1 } END { exit !ok }' "$tmp/pipe/results.csv"
exit 0

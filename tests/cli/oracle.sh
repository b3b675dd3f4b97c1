# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by testlib.sh and compare-perf.sh (not a test itself): an independent
# reader of source lines, for the rows where readperf (libdw) and perf (libbfd) differ.
#
# srcline_oracle BIN ADDR...: "ADDR FILE:LINE" per address of BIN (hex, the ELF's own
# addresses), the innermost line there as llvm-symbolizer reads it (LLVM's own DWARF
# reader: neither libbfd, which perf and addr2line use, nor libdw, which readperf uses),
# FILE as its base name, [unknown] where it knows no line; status 1 without llvm-symbolizer
srcline_oracle() {
	local bin=$1
	shift
	command -v llvm-symbolizer > /dev/null || return 1
	llvm-symbolizer --print-address --obj="$bin" "$@" | awk '
		/^0x[0-9a-f]+$/ { a = $0; n = 0; next }
		$0 == "" { next }
		{ n++ }
		n == 2 {
			where = "[unknown]"
			if (match($0, /:[0-9]+:[0-9]+$/)) {
				f = substr($0, 1, RSTART - 1); split(substr($0, RSTART + 1), lc, ":")
				sub(/.*\//, "", f)
				if (f != "??" && lc[1] + 0 > 0) where = f ":" lc[1]
			}
			print a, where
		}'
}

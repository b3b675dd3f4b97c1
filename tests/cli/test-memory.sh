#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Memory from compressed input: a gzip file of about 9 MB holding 3,000,000
# samples (120 MB of records) and no FINISHED_ROUND (tests/cli/gen-noround.py)
# made the ordered queue hold the whole file (264 MB peak before the bound).
# With the queue bounded the default analysis stays under 256 MiB, counts
# every sample and delivers them in time order.
. "$(dirname "$0")/testlib.sh"

py=$(command -v python3)
if [ -z "$py" ]; then
	echo "skip - memory bound: no python3"
	exit 0
fi
"$py" "$root/tests/cli/gen-noround.py" "$tmp/nr.data.gz" 3000000
# the child's peak RSS in KiB and its exit status
read -r rc kib < <("$py" -c '
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' \
	"$PROG" -q -o "$tmp/nr" --reports stat,events,processes,results "$tmp/nr.data.gz")
check "no FINISHED_ROUND, 3M samples gzipped: exit 0 (exit $rc)" test "$rc" -eq 0
case $PROG in
*build-san*) echo "skip - peak RSS: a sanitizer build ($kib KiB) has its own overhead" ;;
*) check "no FINISHED_ROUND, 3M samples gzipped: peak RSS $kib KiB under 256 MiB" test "$kib" -lt 262144 ;;
esac
check "every sample counted" grep -q '^SAMPLE,3000000,' "$tmp/nr/stat.csv"
check "results.csv: the 3,000,000 samples" \
	test "$(csv2tsv "$tmp/nr/results.csv" | awk -F'\t' 'NR > 1 { s += $6 } END { printf "%.0f", s }')" = 3000000

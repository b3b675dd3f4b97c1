#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The build only builds: `make` names a missing -dev package in one line and
# never installs (only `make demo` and `make check` may); cmocka only for the
# tests; `make install` puts the binary and the man page under DESTDIR and
# `make uninstall` removes them; the man page names every option of --help.
. "$(dirname "$0")/testlib.sh"
cd "$root" || exit 1

# a compiler that knows no zstd.h
cat > "$tmp/cc" <<'CC'
#!/bin/sh
if grep -q zstd.h; then exit 1; fi
exit 0
CC
chmod +x "$tmp/cc"
CC="$tmp/cc" tests/install-deps.sh --check > "$tmp/out" 2> "$tmp/err"
rc=$?
check "install-deps --check: exit 1 when zstd.h is missing (exit $rc)" test $rc -eq 1
check "install-deps --check: one line naming libzstd-dev ($(head -c 200 "$tmp/err"))" \
	test "$(wc -l < "$tmp/err")" -eq 1 -a "$(grep -c 'zstd.h not found: install the Debian package libzstd-dev' "$tmp/err")" -eq 1
CC="$tmp/cc" tests/install-deps.sh --check --tests 2> /dev/null
check "install-deps --check --tests: cmocka.h found by this compiler, zstd.h still missing" test $? -eq 1
# what `make` would run: the check, never --install, never the tests' --tests
make -n -B B="$tmp/b" all > "$tmp/make-n" 2>&1
check "make (dry run): checks the headers" grep -q 'install-deps.sh --check$' "$tmp/make-n"
check "make (dry run): installs nothing and needs no cmocka" \
	test "$(grep -c -e '--install' -e '--tests' -e 'apt-get' -e 'cmocka' "$tmp/make-n")" -eq 0
make -n -B B="$tmp/b" check > "$tmp/check-n" 2>&1
check "make check (dry run): installs what is missing, with the tests' packages" \
	grep -q 'install-deps.sh --install --tests' "$tmp/check-n"

# install / uninstall under DESTDIR (with the binary already built: PROG)
if [ -x "$root/build/readperf" ] && [ "$PROG" = "$root/build/readperf" ]; then
	make --no-print-directory install DESTDIR="$tmp/dest" PREFIX=/usr > /dev/null 2>&1
	check "make install: binary and man page" \
		test -x "$tmp/dest/usr/bin/readperf" -a -f "$tmp/dest/usr/share/man/man1/readperf.1"
	make --no-print-directory uninstall DESTDIR="$tmp/dest" PREFIX=/usr > /dev/null 2>&1
	check "make uninstall: both gone" \
		test ! -e "$tmp/dest/usr/bin/readperf" -a ! -e "$tmp/dest/usr/share/man/man1/readperf.1"
else
	echo "skip - make install: only with the normal build"
fi

# the man page documents every long option of readperf --help, record --help and stat --help
missing=$( { "$PROG" --help; "$PROG" record --help; "$PROG" stat --help; } 2>&1 |
	grep -o -e '--[a-z][a-z-]*' | sort -u | while read -r o; do
		grep -q -- "$(printf '%s' "$o" | sed 's/-/\\\\-/g')" readperf.1 || printf '%s ' "$o"
	done)
check "readperf.1 names every long option of --help${missing:+; missing: $missing}" test -z "$missing"
if command -v man > /dev/null; then
	man --warnings -l readperf.1 > /dev/null 2> "$tmp/manwarn"
	check "readperf.1 formats without warnings ($(head -c 200 "$tmp/manwarn"))" test ! -s "$tmp/manwarn"
fi

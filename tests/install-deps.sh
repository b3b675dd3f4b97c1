#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The build dependencies, by header and Debian package.
#   install-deps.sh --check [--tests]    name what is missing, one line each, and fail
#                                        (what `make` runs before the first compile)
#   install-deps.sh --install [--tests]  install what is missing with apt-get (through sudo
#                                        when not root): what `make demo` and `make check` run
# --tests adds what only the tests need (cmocka).
#   install-deps.sh --install --js       what the browser and DuckDB checks need (what `make
#                                        check` runs): chromium, nodejs and npm with apt-get,
#                                        then tests/js/package.json's packages with npm ci
#                                        when an installed version is not the one it names
#                                        (a failure is said; those checks then skip)
set -u
cc=${CC:-cc}
mode=check tests=0 js=0
for a in "$@"; do
	case $a in
	--check) mode=check ;;
	--install) mode=install ;;
	--tests) tests=1 ;;
	--js) js=1 ;;
	*) echo "usage: install-deps.sh --check|--install [--tests] | --install --js" >&2; exit 1 ;;
	esac
done
top=$(cd "$(dirname "$0")/.." && pwd)

# tests/js/package.json's dependencies installed at the versions it names?
js_current() {
	(cd "$top/tests/js" && node -e '
		const fs = require("fs"), want = JSON.parse(fs.readFileSync("package.json")).dependencies;
		for (const [name, v] of Object.entries(want)) {
			let got = null;
			try { got = JSON.parse(fs.readFileSync("node_modules/" + name + "/package.json")).version; } catch (e) { }
			if (got !== v) process.exit(1);
		}') 2>/dev/null
}

js_install() {
	if js_current; then
		return 0
	fi
	echo "readperf: installing tests/js's npm packages (npm ci)" >&2
	(cd "$top/tests/js" && npm ci --no-audit --no-fund --loglevel=error >&2) ||
		echo "readperf: npm ci in tests/js failed: the browser and DuckDB checks will skip" >&2
	return 0
}
missing=() lines=()
need_cmd() {	# command, package
	if ! command -v "$1" >/dev/null 2>&1; then
		missing+=("$2")
		lines+=("readperf: $1 not found: install the Debian package $2 (apt-get install $2)")
	fi
}
need() {	# header, package
	if ! printf '#include <%s>\n' "$1" | "$cc" -DPACKAGE=1 -DPACKAGE_VERSION=1 -E -x c - >/dev/null 2>&1; then
		missing+=("$2")
		lines+=("readperf: $1 not found: install the Debian package $2 (apt-get install $2)")
	fi
}
if ! command -v "$cc" >/dev/null 2>&1 || ! command -v make >/dev/null 2>&1; then
	missing+=(build-essential)
	lines+=("readperf: no C compiler ($cc) or make: install the Debian package build-essential")
	cc=true
fi
if [ $js -eq 1 ]; then
	cc=js
	need_cmd node nodejs
	need_cmd npm npm
	[ -x /usr/bin/chromium ] || [ -n "${CHROMIUM:-}" ] || need_cmd chromium chromium
fi
if [ "$cc" != true ] && [ "$cc" != js ]; then
	need bfd.h binutils-dev
	need elfutils/libdwfl.h libdw-dev
	need elfutils/debuginfod.h libdebuginfod-dev
	need libelf.h libelf-dev
	need zlib.h zlib1g-dev
	need zstd.h libzstd-dev
	need protobuf-c/protobuf-c.h libprotobuf-c-dev
	need_cmd protoc-c protobuf-c-compiler
	[ $tests -eq 1 ] && need cmocka.h libcmocka-dev
fi
if [ ${#missing[@]} -eq 0 ]; then
	[ $js -eq 1 ] && js_install
	exit 0
fi
if [ $mode = check ] || ! command -v apt-get >/dev/null 2>&1; then
	printf '%s\n' "${lines[@]}" >&2
	[ $mode = install ] && echo "readperf: no apt-get here: install them and run make again" >&2
	exit 1
fi
sudo=
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		sudo=sudo
	else
		echo "readperf: not root and no sudo: run as root: apt-get install -y ${missing[*]}" >&2
		exit 1
	fi
fi
echo "readperf: installing ${missing[*]} with apt-get" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >&2 && $sudo apt-get install -y -qq "${missing[@]}" >&2 || exit
[ $js -eq 1 ] && js_install
exit 0

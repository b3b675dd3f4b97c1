#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The build dependencies, by header and Debian package.
#   install-deps.sh --check [--tests]    name what is missing, one line each, and fail
#                                        (what `make` runs before the first compile)
#   install-deps.sh --install [--tests]  install what is missing with apt-get (through sudo
#                                        when not root): what `make demo` and `make check` run
# --tests adds what only the tests need (cmocka).
set -u
cc=${CC:-cc}
mode=check tests=0
for a in "$@"; do
	case $a in
	--check) mode=check ;;
	--install) mode=install ;;
	--tests) tests=1 ;;
	*) echo "usage: install-deps.sh --check|--install [--tests]" >&2; exit 1 ;;
	esac
done
missing=() lines=()
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
if [ "$cc" != true ]; then
	need bfd.h binutils-dev
	need elfutils/libdwfl.h libdw-dev
	need elfutils/debuginfod.h libdebuginfod-dev
	need libelf.h libelf-dev
	need zlib.h zlib1g-dev
	need zstd.h libzstd-dev
	need protobuf-c/protobuf-c.h libprotobuf-c-dev
	if ! command -v protoc-c >/dev/null 2>&1; then
		missing+=(protobuf-c-compiler)
		lines+=("readperf: protoc-c not found: install the Debian package protobuf-c-compiler (apt-get install protobuf-c-compiler)")
	fi
	[ $tests -eq 1 ] && need cmocka.h libcmocka-dev
fi
[ ${#missing[@]} -eq 0 ] && exit 0
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
$sudo apt-get update -qq >&2 && $sudo apt-get install -y -qq "${missing[@]}" >&2

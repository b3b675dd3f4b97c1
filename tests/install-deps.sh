#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Makes sure the build dependencies are there.  On Debian/Ubuntu it installs
# the missing -dev packages with apt-get (through sudo when not root); anywhere
# else it names exactly what is missing and fails.
set -u
cc=${CC:-cc}
missing=()
check() {	# header, package
	if ! printf '#include <%s>\n' "$1" | "$cc" -DPACKAGE=1 -DPACKAGE_VERSION=1 -E -x c - >/dev/null 2>&1; then
		missing+=("$2")
	fi
}
if ! command -v "$cc" >/dev/null 2>&1 || ! command -v make >/dev/null 2>&1; then
	missing+=(build-essential)
	cc=true
fi
if [ "$cc" != true ]; then
	check bfd.h binutils-dev
	check elfutils/libdwfl.h libdw-dev
	check libelf.h libelf-dev
	check zlib.h zlib1g-dev
	check zstd.h libzstd-dev
	check cmocka.h libcmocka-dev
fi
[ ${#missing[@]} -eq 0 ] && exit 0
echo "readperf: missing build dependencies: ${missing[*]}" >&2
if ! command -v apt-get >/dev/null 2>&1; then
	echo "readperf: install them (Debian/Ubuntu package names above) and run make again" >&2
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
echo "readperf: installing them with apt-get" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >&2 && $sudo apt-get install -y -qq "${missing[@]}" >&2

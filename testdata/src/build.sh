#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Build the test programs the recordings in testdata/ were made from.
# The binaries are committed in testdata/symfs/readperf-testdata/bin/; this
# script documents how they were made (gcc 12.2, Debian 12 x86-64). A rebuild
# gives different build ids, so recordings must then be remade too.
# Sources are copied to /readperf-testdata/src and compiled there so the
# DWARF paths are fixed (/readperf-testdata/src/work.c ...) on every machine.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=/readperf-testdata/src
bin=/readperf-testdata/bin
mkdir -p "$src" "$bin"
cp "$here"/*.c "$here"/*.cpp "$src"/
cd "$src"
CFLAGS="-g -O2 -fno-omit-frame-pointer"
gcc $CFLAGS -o $bin/work work.c
gcc $CFLAGS -pthread -o $bin/threads threads.c
gcc $CFLAGS -o $bin/forkexec forkexec.c
gcc $CFLAGS -fPIC -shared -o $bin/libhot.so libhot.c
gcc $CFLAGS -o $bin/shlib shlib.c -L$bin -lhot -Wl,-rpath,$bin
g++ $CFLAGS -o $bin/cxx cxx.cpp
gcc $CFLAGS -static -o $bin/static static.c
gcc $CFLAGS -o $bin/regress regress.c
gcc $CFLAGS -o $bin/label label.c
gcc $CFLAGS -o $bin/rebuilt rebuilt.c     # recorded; then rebuilt: gcc $CFLAGS -DVERSION=2 -o $bin/rebuilt rebuilt.c
# without frame pointers, for --call-graph dwarf
NF="-g -O2 -fomit-frame-pointer"
gcc $NF -fPIC -shared -o $bin/libnofp.so libnofp.c
gcc $NF -pthread -o $bin/nofp nofp.c -L$bin -lnofp -Wl,-rpath,$bin
g++ $NF -o $bin/nofpxx nofpxx.cpp
gcc $NF -o $bin/deep deep.c
gcc $NF -o $bin/execloop execloop.c
# time and off-CPU (with frame pointers, for -g)
gcc $CFLAGS -pthread -o $bin/phases phases.c
gcc $CFLAGS -o $bin/inl inl.c
gcc $CFLAGS -o $bin/callinl callinl.c

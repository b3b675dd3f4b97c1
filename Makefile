# SPDX-License-Identifier: GPL-3.0-or-later
# readperf: one non-recursive Makefile.
#   make                 build ./readperf (installs nothing: a missing -dev package is named)
#   make demo            install what is missing (Debian), build, analyse a shipped recording
#   make check           the same, then unit tests + CLI tests; prints "N passed, N failed"
#   make bench           speed and memory benchmarks against perf
#   make fuzz            libFuzzer targets (clang): reader, whole analysis, ELF, names, jitdump; FUZZ_SECONDS each
#   make install         the binary and the man page; PREFIX=/usr/local DESTDIR=
#   make uninstall       removes them
#   SANITIZE=address,undefined   sanitizer build in build-san/ (binary build-san/readperf)
#   DEVELOPER=1          -Werror      V=1   show commands      LTO=0   no link-time optimization

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MAN1DIR ?= $(PREFIX)/share/man/man1
CC ?= cc
CFLAGS ?= -O2 -g

WARN = -Wall -Wextra -Wmissing-prototypes -Wstrict-prototypes -Wvla -Wwrite-strings -Wformat=2 -fno-common
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -I. $(CFLAGS) $(WARN) -MMD -MP
ALL_LDFLAGS = $(LDFLAGS)
# libdebuginfod, libbfd and libopcodes are opened at run time (decode/debuginfod.c, decode/bfdlib.c):
# only their headers are needed here, and the sonames of the libbfd and libopcodes the compiler finds
soname = $(shell objdump -p "$$($(CC) -print-file-name=$(1))" 2>/dev/null | sed -n 's/^ *SONAME *//p')
BFDLIB_FLAGS = -DBFDLIB_BFD_SONAME='"$(call soname,libbfd.so)"' -DBFDLIB_OPCODES_SONAME='"$(call soname,libopcodes.so)"'
LIBS = -ldw -lelf -lzstd -lprotobuf-c -lz -lm -pthread -ldl
TEST_LIBS = -lcmocka

ifdef DEVELOPER
ALL_CFLAGS += -Werror
endif

B = build
ifdef SANITIZE
B = build-san
ALL_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all -DREADPERF_SANITIZE
ALL_LDFLAGS += -fsanitize=$(SANITIZE)
endif

# The program is linked with link-time optimization where the compiler has it (GCC): a
# record's way through the reading thread crosses perffile/, decode/ and cli/, and inlined
# across them it took 4.6% fewer instructions, the analysis thread 3% fewer, and the bench's
# 1 GiB file 0.69 s instead of 0.72 (medians of 10 alternating runs, AMD EPYC VM,
# 2026-11-28).  The objects carry both forms, so the tests link them as they are.  LTO=0:
# without; sanitizer builds have none.
ifndef SANITIZE
LTO ?= $(shell $(CC) -flto=auto -ffat-lto-objects -x c -c -o /dev/null /dev/null > /dev/null 2>&1 && echo 1)
endif
ifeq ($(LTO),1)
ALL_CFLAGS += -flto=auto -ffat-lto-objects
PROG_LDFLAGS = -flto=auto $(CFLAGS)
endif

ifeq ($(V),1)
Q =
else
Q = @
endif

# ---------------------------------------------------------------- sources

UTIL_SRCS = util/log.c util/dl.c util/array.c util/hashmap.c util/strbuf.c util/csv.c util/progress.c util/fs.c util/heap.c \
	util/pool.c util/escape.c util/stats.c util/pathname.c util/spool.c
# the file format; then, behind the boundary, capture (perf_event_open, ring buffer, synthesized records)
PERFFILE_SRCS = perffile/file.c perffile/attr.c perffile/buildid.c perffile/elf.c perffile/record.c perffile/rectypes.c perffile/features.c \
	perffile/ordered.c perffile/writer.c perffile/tracing.c \
	perffile/capture/capture.c perffile/capture/ringbuf.c perffile/capture/selfmon.c \
	perffile/capture/synth.c perffile/capture/recorder.c
# the model, symbols and the hub; then every output, behind the report interface (decode/report.h)
DECODE_SRCS = decode/symbols.c decode/bfdlib.c decode/symcache.c decode/dso.c decode/dwlines.c decode/debuginfod.c decode/disasm.c decode/kallsyms.c decode/perfmap.c decode/jitdump.c \
	decode/machine.c decode/analysis.c decode/group.c decode/unwind.c
REPORT_SRCS = decode/reports/registry.c decode/reports/annotate.c decode/reports/common.c decode/reports/filestat.c \
	decode/reports/overview.c decode/reports/processes.c decode/reports/results.c decode/reports/lines.c \
	decode/reports/callers.c decode/reports/flame.c decode/reports/stacks.c decode/reports/speedscope.c \
	decode/reports/threads.c decode/reports/timeline.c decode/reports/cpus.c decode/reports/calltree.c decode/reports/peek.c decode/reports/pprof.c \
	decode/reports/quality.c decode/reports/page.c decode/reports/html.c \
	decode/reports/diff.c decode/reports/diffpage.c decode/reports/schema.c
# the command line: readperf.c's subcommands, their option tables
CLI_SRCS = cli/cli.c cli/options.c cli/common.c cli/replay.c cli/analyse.c cli/manifest.c cli/batch.c cli/diff.c cli/annotate.c cli/header.c \
	cli/record.c cli/schema.c cli/tree.c
# the perf.data emitter the generator and the unit tests share; the external fixtures
TEST_LIB_SRCS = tests/lib/perfemit.c tests/lib/external.c
GEN_SRCS = tests/gen/gen-perf.c tests/lib/perfemit.c
UNIT_TESTS = test-util test-record test-features test-writer test-capture test-selfmon test-symbols \
	test-ordered test-machine test-analysis test-unwind test-tracing test-escape test-jitdump

# ---------------------------------------------------------------- rules

LIB_SRCS = $(UTIL_SRCS) $(PERFFILE_SRCS) $(DECODE_SRCS) $(REPORT_SRCS)
# profile.proto (google/pprof, Apache-2.0) compiled by protoc-c into the build directory
PROTO_GEN = $(B)/gen/profile.pb-c
LIB_OBJS = $(LIB_SRCS:%.c=$(B)/%.o) $(PROTO_GEN).o
CLI_OBJS = $(B)/readperf.o $(CLI_SRCS:%.c=$(B)/%.o)
LIB = $(B)/libreadperf.a
PROG = $(B)/readperf
UNIT_BINS = $(UNIT_TESTS:%=$(B)/tests/unit/%)
GEN = $(B)/tests/gen/gen-perf
GEN_OBJS = $(GEN_SRCS:%.c=$(B)/%.o)
TEST_LIB_OBJS = $(TEST_LIB_SRCS:%.c=$(B)/%.o)

.SECONDARY: $(UNIT_TESTS:%=$(B)/tests/unit/%.o) $(TEST_LIB_OBJS)
.PHONY: all check check-run unit-tests bench fuzz install uninstall clean demo demo-run
.DEFAULT_GOAL := all

ifdef SANITIZE
all: $(PROG)
else
all: readperf
readperf: $(PROG)
	$(Q)cp $< $@
endif

# before the first compile: one line per missing header, naming its Debian package
# (a build never installs anything; `make demo` and `make check` do, see below)
DEPS_STAMP = $(B)/.deps-ok
$(DEPS_STAMP): tests/install-deps.sh
	@mkdir -p $(dir $@)
	$(Q)CC="$(CC)" tests/install-deps.sh --check
	@touch $@
TEST_DEPS_STAMP = $(B)/.test-deps-ok
$(TEST_DEPS_STAMP): tests/install-deps.sh
	@mkdir -p $(dir $@)
	$(Q)CC="$(CC)" tests/install-deps.sh --check --tests
	@touch $@

$(B)/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# the unit tests (only they need cmocka)
$(B)/tests/unit/%.o: tests/unit/%.c | $(DEPS_STAMP) $(TEST_DEPS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(PROTO_GEN).c $(PROTO_GEN).h &: decode/reports/profile.proto | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  PROTOC  $<")
	$(Q)protoc-c --c_out=$(B)/gen --proto_path=decode/reports $<
$(PROTO_GEN).o: $(PROTO_GEN).c $(PROTO_GEN).h
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -I$(B)/gen -c -o $@ $<
$(B)/decode/reports/pprof.o: ALL_CFLAGS += -I$(B)/gen
$(B)/decode/bfdlib.o: ALL_CFLAGS += $(BFDLIB_FLAGS)
$(B)/decode/reports/pprof.o: $(PROTO_GEN).h
# the HTML page's style, markup and script as C strings (decode/reports/page/embed.sh)
PAGE_ASSETS = decode/reports/page/page.css decode/reports/page/analysis.html decode/reports/page/page.js \
	decode/reports/page/analysis.js decode/reports/page/diff.html decode/reports/page/diff.js
$(B)/gen/page-assets.h: decode/reports/page/embed.sh $(PAGE_ASSETS)
	@mkdir -p $(dir $@)
	$(Q)sh decode/reports/page/embed.sh $(PAGE_ASSETS) > $@.tmp && mv $@.tmp $@
$(B)/decode/reports/page.o: ALL_CFLAGS += -I$(B)/gen
$(B)/decode/reports/page.o: $(B)/gen/page-assets.h

$(LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(PROG): $(CLI_OBJS) $(LIB)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_LDFLAGS) $(PROG_LDFLAGS) -o $@ $(CLI_OBJS) $(LIB) $(LIBS)

$(B)/tests/unit/%: $(B)/tests/unit/%.o $(TEST_LIB_OBJS) $(LIB)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $< $(TEST_LIB_OBJS) $(LIB) $(LIBS) $(TEST_LIBS)

$(GEN): $(GEN_OBJS) $(LIB)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $(GEN_OBJS) $(LIB) $(LIBS)

unit-tests: $(UNIT_BINS)

# The README's two commands on a fresh Debian machine: they install what is
# missing (apt-get, through sudo when not root), then build and run; make check
# also chromium, node and tests/js's npm packages, so the browser and DuckDB checks run.
check:
	$(Q)CC="$(CC)" tests/install-deps.sh --install --tests
	$(Q)tests/install-deps.sh --install --js
	$(Q)$(MAKE) --no-print-directory check-run

check-run: all $(UNIT_BINS) $(GEN)
	$(Q)B=$(B) PROG=$(PROG) GEN=$(GEN) tests/run.sh $(UNIT_BINS)

bench: all $(B)/timeit
	$(Q)PROG=$(PROG) TIMEIT=$(B)/timeit tests/bench/bench.sh

# make bench's timer: wall time around fork and wait4, user and system time in microseconds
$(B)/timeit: tests/bench/timeit.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $<

# libFuzzer targets (clang): the reader, the whole analysis and readperf diff, the symbol code on ELF
# files, names through the text outputs' escapers; FUZZ_SECONDS each (default 120).  Any sanitizer report stops the run.
FUZZ_CC ?= clang
FUZZ_FLAGS = -std=c11 -D_GNU_SOURCE -I. -g -O1 -fno-sanitize-recover=all -MMD -MP
FUZZ_TARGETS = fuzz-reader fuzz-pipeline fuzz-elf fuzz-text fuzz-jitdump
FUZZ_OBJS = $(LIB_SRCS:%.c=$(B)/fuzz/obj/%.o) $(B)/fuzz/obj/gen/profile.pb-c.o
$(B)/fuzz/obj/gen/profile.pb-c.o: $(PROTO_GEN).c
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -I$(B)/gen -fsanitize=fuzzer-no-link,address,undefined -c -o $@ $<
$(B)/fuzz/obj/decode/reports/pprof.o: FUZZ_FLAGS += -I$(B)/gen
$(B)/fuzz/obj/decode/bfdlib.o: FUZZ_FLAGS += $(BFDLIB_FLAGS)
$(B)/fuzz/obj/decode/reports/pprof.o: $(PROTO_GEN).h
$(B)/fuzz/obj/decode/reports/page.o: FUZZ_FLAGS += -I$(B)/gen
$(B)/fuzz/obj/decode/reports/page.o: $(B)/gen/page-assets.h
.SECONDARY: $(FUZZ_OBJS)
$(B)/fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link,address,undefined -c -o $@ $<
$(B)/fuzz/%: tests/fuzz/%.c $(FUZZ_OBJS)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer,address,undefined -o $@ $< $(FUZZ_OBJS) $(LIBS)
fuzz: $(FUZZ_TARGETS:%=$(B)/fuzz/%)
	$(Q)for t in $(FUZZ_TARGETS); do tests/fuzz/run.sh $(B)/fuzz/$$t || exit 1; done

# the README's first command: analyse a shipped recording and show the result
demo:
	$(Q)CC="$(CC)" tests/install-deps.sh --install
	$(Q)$(MAKE) --no-print-directory demo-run

demo-run: all
	$(Q)rm -rf demo-out
	$(Q)$(PROG) -q -o demo-out --symfs testdata/symfs --kallsyms testdata/kallsyms testdata/work.data
	@echo "readperf wrote demo-out/: $$(cd demo-out && ls | tr '\n' ' ')"
	@echo "--- demo-out/results.csv (samples per function) ---"
	@head -n 12 demo-out/results.csv | awk -F, '{ printf "%-10s %-22s %-32s %8s %9s\n", $$1, $$2, $$3, $$6, $$8 }'

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MAN1DIR)
	install -m 755 $(PROG) $(DESTDIR)$(BINDIR)/readperf
	install -m 644 readperf.1 $(DESTDIR)$(MAN1DIR)/readperf.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/readperf $(DESTDIR)$(MAN1DIR)/readperf.1

clean:
	rm -rf build build-san readperf demo-out

-include $(shell find $(B) -name '*.d' 2>/dev/null)

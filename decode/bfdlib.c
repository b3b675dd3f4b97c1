/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libbfd and libopcodes by dlopen (decode/bfdlib.h).  The sonames are the
 * ones the build found (Makefile: the SONAME of the libbfd.so and
 * libopcodes.so the compiler would link), so the headers and the code
 * loaded are one version, as when linked.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

#include "util/dl.h"
#include "decode/bfdlib.h"

#ifndef BFDLIB_BFD_SONAME
#define BFDLIB_BFD_SONAME "libbfd.so"
#endif
#ifndef BFDLIB_OPCODES_SONAME
#define BFDLIB_OPCODES_SONAME "libopcodes.so"
#endif

struct bfdlib bfdlib;

static pthread_once_t bfd_once = PTHREAD_ONCE_INIT, opcodes_once = PTHREAD_ONCE_INIT;
static int bfd_loaded, opcodes_loaded;
/*
 * dlerror()'s text of the failed load, copied: libdl frees its own at the
 * next dlerror() of the thread, or when the thread ends
 */
static char load_error[256];

static void keep_error(void)
{
	const char *e = dlerror();

	snprintf(load_error, sizeof(load_error), "%s", e ? e : "unknown error");
}

/* bfd must never print: its errors are asked for (bfd_get_error) where they matter */
static void quiet(const char *fmt, va_list ap)
{
	(void)fmt;
	(void)ap;
}

static void open_bfd(void)
{
	void *so = dlopen(BFDLIB_BFD_SONAME, RTLD_LAZY | RTLD_LOCAL);
	__typeof__(bfd_init) *init;
	__typeof__(bfd_set_error_handler) *set_error_handler;

	if (!so || dl__sym(so, "bfd_init", &init) || dl__sym(so, "bfd_set_error_handler", &set_error_handler) ||
	    dl__sym(so, "bfd_check_format", &bfdlib.check_format) || dl__sym(so, "bfd_close", &bfdlib.close) ||
	    dl__sym(so, "bfd_demangle", &bfdlib.demangle) || dl__sym(so, "bfd_errmsg", &bfdlib.errmsg) ||
	    dl__sym(so, "bfd_follow_gnu_debuglink", &bfdlib.follow_gnu_debuglink) ||
	    dl__sym(so, "bfd_get_arch", &bfdlib.get_arch) || dl__sym(so, "bfd_get_arch_size", &bfdlib.get_arch_size) ||
	    dl__sym(so, "bfd_get_error", &bfdlib.get_error) || dl__sym(so, "bfd_get_mach", &bfdlib.get_mach) ||
	    dl__sym(so, "bfd_get_section_by_name", &bfdlib.get_section_by_name) ||
	    dl__sym(so, "bfd_get_section_contents", &bfdlib.get_section_contents) ||
	    dl__sym(so, "bfd_malloc_and_get_section", &bfdlib.malloc_and_get_section) ||
	    dl__sym(so, "bfd_openr", &bfdlib.openr) || dl__sym(so, "bfd_set_error", &bfdlib.set_error) ||
	    !(bfdlib.std_section = dlsym(so, "_bfd_std_section"))) {
		keep_error();
		return;
	}
	init();
	set_error_handler(quiet);
	bfd_loaded = 1;
}

static void open_opcodes(void)
{
	void *so = dlopen(BFDLIB_OPCODES_SONAME, RTLD_LAZY | RTLD_LOCAL);

	if (!so || dl__sym(so, "disassembler", &bfdlib.disassembler) ||
	    dl__sym(so, "init_disassemble_info", &bfdlib.init_disassemble_info) ||
	    dl__sym(so, "disassemble_init_for_target", &bfdlib.disassemble_init_for_target) ||
	    dl__sym(so, "disassemble_free_target", &bfdlib.disassemble_free_target)) {
		keep_error();
		return;
	}
	opcodes_loaded = 1;
}

int bfdlib__load(void)
{
	pthread_once(&bfd_once, open_bfd);
	return bfd_loaded ? 0 : -ENOENT;
}

int bfdlib__load_opcodes(void)
{
	int err = bfdlib__load();

	if (err)
		return err;
	pthread_once(&opcodes_once, open_opcodes);
	return opcodes_loaded ? 0 : -ENOENT;
}

const char *bfdlib__error(void)
{
	return load_error[0] ? load_error : "not loaded";
}

const char *bfdlib__soname(void)
{
	return BFDLIB_BFD_SONAME;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libbfd and libopcodes, opened with dlopen at their first use (dso.c and
 * disasm.c call them through bfdlib.NAME, bfd_NAME's pointer).  Linked in,
 * the two (and libsframe, which libbfd pulls) took some 4 ms of every
 * run's start here (`perf stat -r 40` of a program that only links
 * readperf's libraries: 9.0 ms, 4.8 ms without these; AMD EPYC VM), 2-3%
 * of a 400k-sample analysis, which with a warm symbol cache calls neither.
 * Include this in place of bfd.h and dis-asm.h.
 */
#ifndef DECODE_BFDLIB_H
#define DECODE_BFDLIB_H

#define PACKAGE "readperf"
#define PACKAGE_VERSION "0"
#include <bfd.h>
#include <dis-asm.h>

/* the functions readperf calls, typed by their headers; set by bfdlib__load and bfdlib__load_opcodes */
struct bfdlib {
	__typeof__(bfd_check_format) *check_format;
	__typeof__(bfd_close) *close;
	__typeof__(bfd_demangle) *demangle;
	__typeof__(bfd_errmsg) *errmsg;
	__typeof__(bfd_follow_gnu_debuglink) *follow_gnu_debuglink;
	__typeof__(bfd_get_arch) *get_arch;
	__typeof__(bfd_get_arch_size) *get_arch_size;
	__typeof__(bfd_get_error) *get_error;
	__typeof__(bfd_get_mach) *get_mach;
	__typeof__(bfd_get_section_by_name) *get_section_by_name;
	__typeof__(bfd_get_section_contents) *get_section_contents;
	__typeof__(bfd_malloc_and_get_section) *malloc_and_get_section;
	__typeof__(bfd_openr) *openr;
	__typeof__(bfd_set_error) *set_error;
	asection *std_section;		/* _bfd_std_section: bfd_is_und_section() and its kind compare with it */
	/* libopcodes */
	__typeof__(disassembler) *disassembler;
	__typeof__(init_disassemble_info) *init_disassemble_info;
	__typeof__(disassemble_init_for_target) *disassemble_init_for_target;
	__typeof__(disassemble_free_target) *disassemble_free_target;
};
extern struct bfdlib bfdlib;

/*
 * bfd.h's inline bfd_is_und_section and bfd_is_abs_section compare with
 * libbfd's data _bfd_std_section, bound at link time: these compare with
 * the loaded one (its sections 1 and 2, bfd.h's bfd_und_section_ptr and
 * bfd_abs_section_ptr).  Only these two are used.
 */
#undef bfd_und_section_ptr
#undef bfd_abs_section_ptr
#define bfd_und_section_ptr (&bfdlib.std_section[1])
#define bfd_abs_section_ptr (&bfdlib.std_section[2])
#define bfd_is_und_section(sec) ((sec) == bfd_und_section_ptr)
#define bfd_is_abs_section(sec) ((sec) == bfd_abs_section_ptr)

/*
 * libbfd loaded (once for the process: pthread_once), bfd_init() called and
 * an error handler set that prints nothing; 0, or -ENOENT when it cannot be
 * loaded (bfdlib__error() says why)
 */
int bfdlib__load(void);
/* libopcodes loaded as well, once; 0 or -ENOENT */
int bfdlib__load_opcodes(void);
/* why the last load failed: dlerror()'s text */
const char *bfdlib__error(void);
/* the libbfd readperf is built for, by its soname ("libbfd-2.40-system.so"): the symbol cache's key */
const char *bfdlib__soname(void);

#endif

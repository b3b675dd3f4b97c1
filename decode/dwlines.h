/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Source lines of an ELF file's DWARF through elfutils libdw: the line of
 * an address, the chain of inlined functions there, the declaration of the
 * function a symbol names.  File names follow libbfd 2.40's rule
 * (concat_filename in bfd/dwarf2.c), so reports read the same as with
 * bfd_find_nearest_line: a relative name is prefixed with the unit's
 * DW_AT_comp_dir.  Used by dso.c only.
 */
#ifndef DECODE_DWLINES_H
#define DECODE_DWLINES_H

#include <stddef.h>
#include <stdint.h>

struct dwlines;

/*
 * Open path's DWARF (compressed sections are inflated by libdw).  0 with
 * *out set; 0 with *out NULL when the file has no usable DWARF; -ENOMEM,
 * or -errno when the file cannot be opened.
 */
int dwlines__open(struct dwlines **out, const char *path);
void dwlines__delete(struct dwlines *w);

/*
 * One frame at an address, as bfd_find_nearest_line and then each
 * bfd_find_inliner_info call report it.  frames[0]: the line-table row
 * (file, line) and the innermost function there; frames[i]: the call site
 * of frames[i-1]'s function (DW_AT_call_file/call_line; file NULL when
 * absent) and the function it was inlined into.  The last frame's function
 * is the real (not inlined) one.  Strings live until the next call on w.
 */
struct dwframe {
	const char *file;	/* full path, or NULL */
	const char *func;	/* DW_AT_linkage_name, else DW_AT_name (mangled as written), or NULL */
	unsigned line;
};

/*
 * The frames at addr (a file vaddr), innermost first, at most max: their
 * number, 0 when no unit or no line-table row covers addr (frames[0].file
 * may still be NULL when the row has no file), or -ENOMEM.  With max 1 the
 * function DIEs are not walked: frames[0] is the line, its func NULL.
 */
int dwlines__frames(struct dwlines *w, uint64_t addr, struct dwframe *frames, size_t max);

/*
 * bfd_find_line's answer for a function symbol called raw (its mangled
 * name) at addr: the DW_AT_decl_file/decl_line of the innermost function
 * DIE at addr that has a decl_file and whose name is part of raw (binutils
 * 2.40 matches with strstr: "foo" names "foo.constprop.0" and
 * "_ZL3fooi").  1 with *file and *line set, 0 when no such DIE, -ENOMEM.
 */
int dwlines__decl(struct dwlines *w, uint64_t addr, const char *raw, const char **file, unsigned *line);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ELF files read through elfutils libelf: the one walker of program headers,
 * section headers and notes for the symbol code (decode/) and the recorder
 * (perffile/capture/).  libelf handles both classes and byte orders and
 * checks every table, segment and section it hands out against the bytes
 * of the file or image, so a malformed file yields "not found", never a
 * read out of bounds.
 */
#ifndef PERFFILE_ELF_H
#define PERFFILE_ELF_H

#include <stddef.h>
#include <stdint.h>

#include "perffile/buildid.h"

struct elf_file;

/* one PT_LOAD program header */
struct elf_load_seg {
	uint64_t offset;	/* p_offset */
	uint64_t vaddr;		/* p_vaddr */
	uint64_t filesz;	/* p_filesz */
};

/*
 * Open the ELF file at path (read-only, mapped).  0 and *out set; -errno
 * when it cannot be opened; -EINVAL when it is not an ELF file (archives
 * included).  Free with elf_file__delete().
 */
int elf_file__open(struct elf_file **out, const char *path);

/*
 * An ELF image of len bytes in memory (the vdso), borrowed: it must stay
 * mapped and unchanged until elf_file__delete().  Images of the other byte
 * order are refused (-ENOTSUP: libelf would convert them in place);
 * -EINVAL when it is not ELF.
 */
int elf_file__open_mem(struct elf_file **out, const void *image, size_t len);

/* NULL is a no-op */
void elf_file__delete(struct elf_file *ef);

/* 1 when the file's words are big-endian (EI_DATA), else 0 */
int elf_file__big_endian(const struct elf_file *ef);

/*
 * The PT_LOAD program headers in file order, in a malloc'd array the caller
 * frees: 0; -ENOMEM.  A file without (readable) program headers gives none.
 */
int elf_file__load_segs(const struct elf_file *ef, struct elf_load_seg **segs, size_t *nr);

/* sh_entsize of the first section called name; 0 when there is none */
uint64_t elf_file__section_entsize(const struct elf_file *ef, const char *name);

/*
 * The NT_GNU_BUILD_ID note: the PT_NOTE segments first, then (files only,
 * for .debug files without segments) the SHT_NOTE sections.  As
 * build_id__from_notes(): at most BUILD_ID_SIZE_MAX bytes into id, the rest
 * zeroed, *size set.  0; -ENOENT when there is none.
 */
int elf_file__build_id(const struct elf_file *ef, uint8_t id[BUILD_ID_SIZE_MAX], size_t *size);

#endif

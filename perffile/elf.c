/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ELF files through elfutils libelf (elf_begin/elf_memory, gelf_getphdr,
 * gelf_getshdr, elf_strptr, gelf_getnote), as Linux perf 6.1's
 * tools/perf/util/symbol-elf.c reads them: PT_LOAD program headers for
 * file-relative addresses, a section's sh_entsize for the PLT, the
 * NT_GNU_BUILD_ID note.  libelf converts both classes and byte orders to
 * GElf and refuses tables and chunks that do not lie inside the file.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perffile/elf.h"

struct elf_file {
	Elf *elf;
	int fd;		/* -1 for an image in memory */
};

/* take elf (may be NULL) and fd (may be -1) into a new elf_file, or release both */
static int elf_file__wrap(struct elf_file **out, Elf *elf, int fd)
{
	struct elf_file *ef = NULL;

	if (elf && elf_kind(elf) == ELF_K_ELF)
		ef = malloc(sizeof(*ef));
	if (!ef) {
		int err = elf && elf_kind(elf) == ELF_K_ELF ? -ENOMEM : -EINVAL;

		elf_end(elf);
		if (fd >= 0)
			close(fd);
		return err;
	}
	ef->elf = elf;
	ef->fd = fd;
	*out = ef;
	return 0;
}

int elf_file__open(struct elf_file **out, const char *path)
{
	int fd;

	*out = NULL;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOTSUP;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	return elf_file__wrap(out, elf_begin(fd, ELF_C_READ_MMAP, NULL), fd);
}

int elf_file__open_mem(struct elf_file **out, const void *image, size_t len)
{
	const unsigned char *ident = image;

	*out = NULL;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOTSUP;
	if (len < EI_NIDENT || memcmp(ident, ELFMAG, SELFMAG))
		return -EINVAL;
	if (ident[EI_DATA] != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB))
		return -ENOTSUP;
	return elf_file__wrap(out, elf_memory((char *)(uintptr_t)image, len), -1);
}

void elf_file__delete(struct elf_file *ef)
{
	if (!ef)
		return;
	elf_end(ef->elf);
	if (ef->fd >= 0)
		close(ef->fd);
	free(ef);
}

int elf_file__big_endian(const struct elf_file *ef)
{
	const char *ident = elf_getident(ef->elf, NULL);

	return ident && ident[EI_DATA] == ELFDATA2MSB;
}

int elf_file__load_segs(const struct elf_file *ef, struct elf_load_seg **segs, size_t *nr)
{
	struct elf_load_seg *v;
	size_t phnum, i, n = 0;

	*segs = NULL;
	*nr = 0;
	if (elf_getphdrnum(ef->elf, &phnum) || !phnum)
		return 0;
	v = calloc(phnum, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(ef->elf, (int)i, &ph))
			break;
		if (ph.p_type != PT_LOAD)
			continue;
		v[n].offset = ph.p_offset;
		v[n].vaddr = ph.p_vaddr;
		v[n].filesz = ph.p_filesz;
		n++;
	}
	*segs = v;
	*nr = n;
	return 0;
}

uint64_t elf_file__section_entsize(const struct elf_file *ef, const char *name)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(ef->elf, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(ef->elf, scn))) {
		GElf_Shdr sh;
		const char *s;

		if (!gelf_getshdr(scn, &sh))
			continue;
		s = elf_strptr(ef->elf, shstrndx, sh.sh_name);
		if (s && !strcmp(s, name))
			return sh.sh_entsize;
	}
	return 0;
}

/* the first build-id note in data (ELF_T_NHDR or ELF_T_NHDR8); 0 or -ENOENT */
static int build_id_in_notes(Elf_Data *data, uint8_t id[BUILD_ID_SIZE_MAX], size_t *size)
{
	size_t off = 0, next, name_off, desc_off;
	GElf_Nhdr nh;

	while (data && (next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const char *base = data->d_buf;

		if (!build_id__from_note(nh.n_type, base + name_off, nh.n_namesz, base + desc_off, nh.n_descsz,
					 id, size))
			return 0;
		off = next;
	}
	return -ENOENT;
}

int elf_file__build_id(const struct elf_file *ef, uint8_t id[BUILD_ID_SIZE_MAX], size_t *size)
{
	Elf_Scn *scn = NULL;
	size_t phnum, i;

	if (!elf_getphdrnum(ef->elf, &phnum)) {
		for (i = 0; i < phnum; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(ef->elf, (int)i, &ph) || ph.p_type != PT_NOTE)
				continue;
			if (!build_id_in_notes(elf_getdata_rawchunk(ef->elf, (int64_t)ph.p_offset, ph.p_filesz,
								    ph.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR),
					       id, size))
				return 0;
		}
	}
	/* an image in memory is laid out by its segments only */
	if (ef->fd < 0)
		return -ENOENT;
	while ((scn = elf_nextscn(ef->elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		if (!build_id_in_notes(elf_getdata(scn, NULL), id, size))
			return 0;
	}
	return -ENOENT;
}

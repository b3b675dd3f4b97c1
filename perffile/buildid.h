/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The GNU build id in ELF notes (NT_GNU_BUILD_ID, name "GNU"): one test of a
 * note for every place that meets notes — ELF files through perffile/elf.h
 * (the recorder reading binaries, the symbol code checking them) and the
 * running kernel's /sys/kernel/notes, a raw blob of notes.
 */
#ifndef PERFFILE_BUILDID_H
#define PERFFILE_BUILDID_H

#include <stddef.h>
#include <stdint.h>

#define BUILD_ID_SIZE_MAX 20

/*
 * One note (its header's fields, name and desc in place): when it is
 * NT_GNU_BUILD_ID named "GNU" with a non-empty desc, copy at most
 * BUILD_ID_SIZE_MAX bytes of desc to id (the rest of id is zeroed), set
 * *size and return 0; else -ENOENT.  name holds namesz bytes, desc descsz.
 */
int build_id__from_note(uint32_t type, const void *name, uint32_t namesz, const void *desc, uint32_t descsz,
			uint8_t id[BUILD_ID_SIZE_MAX], size_t *size);

/*
 * Find the build id in len bytes of ELF notes whose words are big-endian
 * (big_endian) or little-endian.  Copies at most BUILD_ID_SIZE_MAX bytes to id
 * (the rest of id is zeroed) and sets *size.  0; -ENOENT when there is no
 * such note; -EINVAL when a note runs past len.
 */
int build_id__from_notes(const void *notes, size_t len, int big_endian,
			 uint8_t id[BUILD_ID_SIZE_MAX], size_t *size);

/*
 * The running kernel's build id, from /sys/kernel/notes (in the host's byte
 * order): 0; -ENOENT when there is none; -errno when it cannot be read.
 */
int build_id__running_kernel(uint8_t id[BUILD_ID_SIZE_MAX], size_t *size);

#endif

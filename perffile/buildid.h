/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The GNU build id in ELF notes (NT_GNU_BUILD_ID, name "GNU"): one parser for
 * every place that meets notes — the recorder reading binaries, the symbol
 * code checking them, the running kernel's /sys/kernel/notes.
 */
#ifndef PERFFILE_BUILDID_H
#define PERFFILE_BUILDID_H

#include <stddef.h>
#include <stdint.h>

#define BUILD_ID_SIZE_MAX 20

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

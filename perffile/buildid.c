/* SPDX-License-Identifier: GPL-3.0-or-later */
/* NT_GNU_BUILD_ID from ELF notes (elf(5): Elf_Nhdr, name and desc 4-aligned). */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "perffile/buildid.h"

static uint32_t word(const unsigned char *p, int big_endian)
{
	if (big_endian)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

int build_id__from_note(uint32_t type, const void *name, uint32_t namesz, const void *desc, uint32_t descsz,
			uint8_t id[BUILD_ID_SIZE_MAX], size_t *size)
{
	size_t n = descsz > BUILD_ID_SIZE_MAX ? BUILD_ID_SIZE_MAX : descsz;

	if (type != NT_GNU_BUILD_ID || namesz != 4 || memcmp(name, "GNU", 4) || !descsz)
		return -ENOENT;
	memset(id, 0, BUILD_ID_SIZE_MAX);
	memcpy(id, desc, n);
	*size = n;
	return 0;
}

int build_id__from_notes(const void *notes, size_t len, int big_endian,
			 uint8_t id[BUILD_ID_SIZE_MAX], size_t *size)
{
	const unsigned char *p = notes;
	uint64_t off = 0;

	while (len - off >= 12) {
		uint32_t namesz = word(p + off, big_endian), descsz = word(p + off + 4, big_endian);
		uint32_t type = word(p + off + 8, big_endian);
		uint64_t name_end = off + 12 + (((uint64_t)namesz + 3) & ~(uint64_t)3);
		uint64_t desc_end = name_end + (((uint64_t)descsz + 3) & ~(uint64_t)3);

		if (name_end > len || name_end + descsz > len)
			return -EINVAL;
		if (!build_id__from_note(type, p + off + 12, namesz, p + name_end, descsz, id, size))
			return 0;
		if (desc_end > len)
			break;
		off = desc_end;
	}
	return -ENOENT;
}

int build_id__running_kernel(uint8_t id[BUILD_ID_SIZE_MAX], size_t *size)
{
	unsigned char buf[4096];
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return -errno;
	if (n == 0)
		return -ENOENT;
	return build_id__from_notes(buf, (size_t)n, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__, id, size);
}

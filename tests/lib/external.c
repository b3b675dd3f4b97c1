/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Where the unit tests find the shared external fixtures (see external.h). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "tests/lib/external.h"

char *external__path(const char *rel)
{
	const char *root = getenv("READPERF_SHARED");
	struct stat st;
	char *path;

	if (!root)
		root = "../shared";
	if (asprintf(&path, "%s/testdata-external/%s", root, rel) < 0)
		return NULL;
	if (stat(path, &st)) {
		free(path);
		return NULL;
	}
	return path;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <dlfcn.h>
#include <string.h>

#include "util/dl.h"

int dl__sym(void *so, const char *name, void *fn)
{
	void *p = dlsym(so, name);

	memcpy(fn, &p, sizeof(p));
	return p ? 0 : -1;
}

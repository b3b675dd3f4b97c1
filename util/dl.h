/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A library's function looked up by dlsym, for the libraries readperf opens at their first use. */
#ifndef UTIL_DL_H
#define UTIL_DL_H

/*
 * dlsym(so, name) into *fn, a pointer to a function pointer (ISO C has no
 * cast from void * to a function pointer: the bytes are copied); 0, or -1
 * when so has no such symbol
 */
int dl__sym(void *so, const char *name, void *fn);

#endif

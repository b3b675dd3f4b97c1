/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The external fixtures of the unit tests: real perf.data files and binaries
 * in the shared testdata-external directory ($READPERF_SHARED, else
 * ../shared), which a checkout may not have.
 */
#ifndef TESTS_LIB_EXTERNAL_H
#define TESTS_LIB_EXTERNAL_H

/* the malloc'd path of testdata-external/rel, or NULL when it is not there */
char *external__path(const char *rel);

#endif

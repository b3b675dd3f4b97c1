/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Short unique names for a list of paths, usable as directory names: each
 * path is named by the shortest suffix of its components that no other path
 * in the list shares (a/d17/perf.data among N/perf.data: d17-perf), so the
 * names of a fleet say where each file came from.
 *
 * A component keeps [A-Za-z0-9._-]; other bytes become '_'.  The last
 * component loses the extensions the caller lists (perf.data.gz -> perf with
 * { ".gz", ".zst", ".data" }); empty, "." and ".." base names become
 * "profile".  Components are joined by '-'.  Paths whose sanitised
 * components are all equal (the same file twice) are told apart by a number:
 * the first keeps the name, the next get NAME-2, NAME-3... in input order.
 * Names are at most PATHNAME_MAX bytes (longer ones are cut, and numbered if
 * that makes them collide).
 *
 * The cost is a sort: O(n log n) comparisons of paths, the numbering uses a
 * hash map.
 */
#ifndef UTIL_PATHNAME_H
#define UTIL_PATHNAME_H

#include <stddef.h>

/* a name fits a directory entry (NAME_MAX on Linux) */
#define PATHNAME_MAX 255

/* path's last component, extensions cut and sanitised as above; malloc'd, NULL: -ENOMEM */
char *pathname__base(const char *path, const char *const *exts);

/*
 * names[i] (malloc'd, the caller frees each) for paths[i], i < n; numbered[i]
 * is set when the name had to be numbered (also a name in reserved, a
 * NULL-terminated list or NULL: the caller's own files beside them).  stop (may be NULL) is polled
 * while it works: when it returns non-zero, -EINTR.  0, -ENOMEM or -EINTR (no
 * name is left allocated then).
 */
int pathname__unique(const char *const *paths, size_t n, const char *const *exts, const char *const *reserved,
		     char **names,
		     unsigned char *numbered, int (*stop)(void));

#endif

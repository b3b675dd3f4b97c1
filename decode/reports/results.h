/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * results.csv's --sort keys, perf report's names: comm, pid, tid, cpu, dso,
 * sym, srcline, symoff.  The default, dso,sym, is results.csv as it always was
 * (with the definition's source line and the children columns); other keys
 * make the chosen keys the leading columns, then samples, period, percent.
 * pid is perf report's pid key, which is the thread (perf prints its tid):
 * a row per thread with the columns pid (the process) and tid; tid alone
 * is a tid column; the two do not go together.  symoff is perf report's
 * (perf 6.3 on; 6.1 has no such key): the function and the sample's offset
 * in it, "main+0x1b", a row per (function, offset); a sample without a
 * function's bounds has the function's name alone.
 */
#ifndef DECODE_REPORTS_RESULTS_H
#define DECODE_REPORTS_RESULTS_H

#include <stddef.h>
#include <stdint.h>

enum results_key {
	RESULTS_KEY_COMM, RESULTS_KEY_PID, RESULTS_KEY_TID, RESULTS_KEY_CPU, RESULTS_KEY_DSO,
	RESULTS_KEY_SYM, RESULTS_KEY_SRCLINE, RESULTS_KEY_SYMOFF, RESULTS_NR_KEYS
};

#define RESULTS_MAX_KEYS RESULTS_NR_KEYS

/*
 * "comm,dso,sym" into keys (at most RESULTS_MAX_KEYS, each once, not pid
 * with tid): the number of keys, -EINVAL for a name that is no key, or
 * -EEXIST for a key given twice (pid and tid count as one: the thread);
 * *bad, when not NULL, is the offending name's start in spec.
 */
int results__parse_sort(const char *spec, uint8_t *keys, const char **bad);
/* the name of a key, as perf report takes it */
const char *results__key_name(unsigned key);

#endif

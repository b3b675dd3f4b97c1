/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The report interface: what every output of decode/reports/ implements and
 * the services the analysis (the hub, decode/analysis.c) offers it.
 *
 * The hub replays the records, keeps the machine model, resolves every
 * sample to a struct rsample (its event, thread, time, period, function,
 * source line and frames) and hands it to each enabled report through its
 * struct report_ops; at the end it asks each enabled output to write itself.
 * A report owns its state (state_size bytes, zeroed, handed to every
 * callback) and reads the analysis only through the functions below and in
 * decode/analysis.h: it never sees struct analysis, nor another report.
 *
 * The registry (decode/reports/registry.c) lists every report once; the
 * command line takes the --reports names, the path options and the schema
 * from it.  ARCHITECTURE.md has the recipe for adding one.
 */
#ifndef DECODE_REPORT_H
#define DECODE_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "decode/analysis.h"
#include "decode/machine.h"
#include "perffile/perffile.h"

#define UNKNOWN "[unknown]"
/* how --inline names an inlined function's frame, as perf marks it */
#define INLINED_SUFFIX " (inlined)"

/*
 * A function of one event, (event, dso, function) as results.csv names it,
 * with its totals.  Owned by the hub, alive until analysis__delete; the
 * totals are final once the last record is processed.
 */
struct func_stat {
	uint32_t event;			/* the event's index (analysis__event) */
	uint32_t id;			/* 0, 1, ... in creation order: an index for a report's own arrays */
	const char *dso, *function;	/* interned */
	const char *def_file;		/* where it is defined, interned, or NULL */
	unsigned def_line;
	uint64_t samples, period;	/* self */
	uint64_t ch_samples, ch_period;	/* children: samples whose stack holds it */
};

/* a source line of a function: (event, dso, function, file, line), as lines.csv */
struct line_stat {
	const struct func_stat *f;
	const char *src_file;		/* interned or NULL */
	unsigned line;
	uint64_t samples, period;
};

/*
 * A frame of a stack: a struct func_stat pointer with bit 0 set for a
 * kernel frame (func_stats are 8-aligned).
 */
#define FRAME_KERNEL ((uintptr_t)1)

static inline const struct func_stat *frame__func(uintptr_t frame)
{
	return (const struct func_stat *)(frame & ~FRAME_KERNEL);
}

static inline int frame__is_kernel(uintptr_t frame)
{
	return (int)(frame & FRAME_KERNEL);
}

/* one sample that passed the filters, resolved */
struct rsample {
	const struct perf_record *rec;	/* the record, for what else a report needs */
	struct mthread *th;		/* its thread (th->proc its process); th->priv is the threads report's */
	uint32_t event;			/* the event's index */
	const char *event_name;		/* interned */
	int has_time;
	uint64_t time;
	uint64_t period;
	const struct func_stat *func;	/* its own function */
	const struct line_stat *line;	/* its source line */
	/* the stack, innermost first, with --inline's inlined frames: only for REPORT_NEEDS_FRAMES */
	const uintptr_t *frames;
	size_t nr_frames;
	/*
	 * the address of each frame (an inlined function's frames repeat the
	 * address of the frame they are inlined into): only for REPORT_NEEDS_ADDRS
	 */
	const uint64_t *addrs;
	int callchain;			/* the record carries a callchain (frames past the first are callers) */
	uint64_t seq;			/* 1, 2, ...: a stamp to count something once per sample */
};

/* one record that is not a sample, in replay order */
struct rrecord {
	const struct perf_record *rec;
	int has_time;
	uint64_t time;
	int filtered;			/* outside --time, --pid, --tid or --comm */
};

/* the SQL type of a column, for readperf schema */
struct report_column {
	const char *name, *type;	/* type: "BIGINT", "DOUBLE" or "TEXT" */
};

/* one output of a report: a CSV file in the report directory, or a file at a path the user names */
struct report_output {
	const char *name;		/* CSV: the --reports name (NAME.csv); path: the option (--NAME PATH) */
	int is_path;
	const char *help;		/* path outputs: the option's help line */
	const struct report_column *columns;	/* CSV: the columns (NULL name ends), for readperf schema */
	/* CSV: columns an option may add or put first (results.csv's --sort keys), typed for readperf schema DIR; or NULL */
	const struct report_column *key_columns;
	/*
	 * write into dir (CSV, NAME.csv) or path ('-': standard output): 0,
	 * -ENODATA when there is nothing to show (said by the caller), -errno
	 */
	int (*write)(void *state, struct analysis *a, const char *where);
	int opt_in;			/* CSV: not in --reports default, only when named */
};

/* where a report's data comes from */
enum report_source {
	REPORT_FROM_ANALYSIS,		/* the hub: callbacks below */
	REPORT_FROM_FILE,		/* the reader's count of the file (decode/reports/filestat.h) */
	REPORT_FROM_DIFF,		/* readperf diff (decode/reports/diff.h) */
};

/* what the report needs of the hub beyond the resolved sample */
#define REPORT_NEEDS_FRAMES	(1u << 0)	/* rsample.frames */
#define REPORT_NEEDS_RECORD_FILTER (1u << 1)	/* rrecord.filtered (else 0) */
#define REPORT_NEEDS_ADDRS	(1u << 2)	/* rsample.frames and rsample.addrs */

struct report_ops {
	const char *name;
	enum report_source source;
	size_t state_size;
	unsigned needs;			/* REPORT_NEEDS_* */
	const struct report_output *outputs;	/* ends with a NULL name */
	/*
	 * reports whose public helpers this one calls (NULL-terminated, or
	 * NULL): enabled with it (without their outputs) and begun before it
	 * when they come first in the registry
	 */
	const struct report_ops *const *uses;
	/*
	 * its outputs are written after every other report's: a thread of its
	 * own still formats its rows when the analysis ends (overview.csv)
	 */
	int write_last;
	/* each optional; 0 or -errno (the first error ends the run) */
	int (*begin)(void *state, struct analysis *a);
	int (*sample)(void *state, struct analysis *a, const struct rsample *s);
	int (*record)(void *state, struct analysis *a, const struct rrecord *r);
	void (*release)(void *state);
};

/* every report, NULL-terminated (decode/reports/registry.c) */
extern const struct report_ops *const report_registry[];

#define REPORT_MAX_OUTPUTS 64

/* the outputs of the registry, numbered in registry order: ids for analysis_opts.outputs */
size_t report_outputs__count(void);
/* output id, its report in *owner (may be NULL) */
const struct report_output *report_outputs__get(size_t id, const struct report_ops **owner);
/* the id of the output NAME (is_path: a path output), or -1 */
int report_outputs__find(const char *name, int is_path);

/* ------------------------------------------------------ the hub's services */

const struct analysis_opts *analysis__opts(const struct analysis *a);
const struct perf_file *analysis__file(const struct analysis *a);
const struct log *analysis__log(const struct analysis *a);
struct machine *analysis__machine(const struct analysis *a);
/* s interned for the analysis' life; NULL on ENOMEM (the analysis keeps the error) */
const char *analysis__intern(struct analysis *a, const char *s);
/* the name of event i, "[unknown]" when it has none */
const char *analysis__event_name(const struct analysis *a, uint32_t event);
/* the period of every sample of event i that passed the filters */
uint64_t analysis__event_period(const struct analysis *a, uint32_t event);
/*
 * the period of every sample of event i that passed the filters but --focus
 * and --ignore: without the others (-e aside), of all its samples
 */
uint64_t analysis__event_unstacked_period(const struct analysis *a, uint32_t event);
/* do the samples of the reported events (-e) carry callchains? */
int analysis__have_callchains(const struct analysis *a);
/* is output NAME (a path output when is_path) among opts.outputs? */
int analysis__wants(const struct analysis *a, const char *name, int is_path);
/* the state of enabled report ops (a report finds the state of one it lists in .uses), or NULL */
void *analysis__report_state(const struct analysis *a, const struct report_ops *ops);
/* ask for rsample.frames from now on (a report's begin, when it needs them only sometimes) */
void analysis__want_frames(struct analysis *a);

/* the functions and source lines, in creation order */
size_t analysis__nr_funcs(const struct analysis *a);
const struct func_stat *analysis__func(const struct analysis *a, size_t i);
size_t analysis__nr_lines(const struct analysis *a);
const struct line_stat *analysis__line(const struct analysis *a, size_t i);

/* the pid/tid of a record that is not a sample: from its body, else its sample_id trailer; 0 when none */
int analysis__record_pid_tid(const struct perf_record *rec, uint32_t *pid, uint32_t *tid);

/*
 * Where the sample a report's sample callback is handed sits in its file,
 * for annotation: dso NULL when in no map; addr the file vaddr for ELF dsos
 * (objdump's and perf annotate's address), the ip for the kernel and JIT
 * maps; [start, end) its function in the same space.  Only during the
 * sample callback, for that sample.  0, -ENOENT (no map or no function),
 * -ENOMEM (kept, analysis__status).
 */
struct sample_place {
	struct dso *dso;
	uint64_t addr;
	uint64_t start, end;
};
int analysis__sample_place(struct analysis *a, const struct rsample *rs, struct sample_place *out);
/* symbols__disassemble (decode/symbols.h) of the analysis' symbols */
int analysis__disassemble(struct analysis *a, struct dso *d, uint64_t start, uint64_t end,
			  symbols_insn_fn cb, void *ctx);

/*
 * Whether addr, a user frame of thread th, lies in the first bytes of its
 * ELF file's entry point (symbols__at_entry): a stripped program's _start,
 * which has no symbol to name it
 */
int analysis__at_entry(struct analysis *a, const struct mthread *th, uint64_t addr);

/* --percent-limit: is period below it for an event total? */
int analysis__below_limit(const struct analysis *a, uint64_t period, uint64_t total);

#endif

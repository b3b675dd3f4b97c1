/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What a file holds, counted in file order: records per type (stat.csv, as
 * `perf report --stats`), samples, period and lost samples per event
 * (events.csv), and the header facts (header.csv).
 */
#ifndef DECODE_REPORTS_FILESTAT_H
#define DECODE_REPORTS_FILESTAT_H

#include <stdint.h>

struct perf_file;
struct perf_record;
struct filestat;

int filestat__new(struct filestat **out, const struct perf_file *f);
void filestat__delete(struct filestat *fs);
/* count one record as perf_file__next() yielded it; 0 or -ENOMEM */
int filestat__add(struct filestat *fs, const struct perf_record *rec);

/* batch mode: a leading "profile" column with this value (borrowed) in every report */
void filestat__set_profile(struct filestat *fs, const char *profile);
/* --raw-csv: text cells verbatim (util/csv.h) */
void filestat__set_raw_csv(struct filestat *fs, int raw);
/* last minus first sample time of the records read, in ns; 0 without times */
uint64_t filestat__duration(const struct filestat *fs);
/* samples of every event, as events.csv counts them */
uint64_t filestat__samples(const struct filestat *fs);
/* samples lost, all events together: events.csv's lost column (LOST_SAMPLES records, per event) */
uint64_t filestat__lost(const struct filestat *fs);

/* what perf's "Processed N events and lost M chunks!" warning says */
struct filestat_losses {
	uint64_t records;	/* every record read (perf --stats' TOTAL) */
	uint64_t chunks;	/* LOST records: the ring buffer was full */
	uint64_t chunk_samples;	/* the records the LOST records say were dropped */
	uint64_t samples;	/* SAMPLE records */
	uint64_t lost_samples;	/* LOST_SAMPLES' counts, all events */
};
void filestat__losses(const struct filestat *fs, struct filestat_losses *out);

int filestat__write_stat(const struct filestat *fs, const char *dir);
int filestat__write_events(const struct filestat *fs, const char *dir);
int filestat__write_header(const struct filestat *fs, const char *dir);

#endif

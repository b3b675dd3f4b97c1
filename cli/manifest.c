/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * DIR/manifest.csv: what produced the reports beside it, written into the
 * reports' transaction (util/csv.h csv_txn) and moved in after them, so it
 * names the set that is in place.  A key,value CSV (README "Reports":
 * the output directory): readperf_version; per input (diff: old_ and new_ before each
 * key, a block per file) input, input_size and the recording's header facts;
 * one arg row per command-line argument; one file row per file of the run
 * in DIR, bytewise order.  Nothing of the run's own time: two runs of the
 * same command on the same input write the same bytes.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/analyse.h"
#include "perffile/features.h"
#include "perffile/perffile.h"
#include "util/array.h"
#include "util/csv.h"

/* a key,value row; value NULL writes an empty value */
static void pair(struct csv *c, const char *prefix, const char *key, const char *value)
{
	char k[64];

	snprintf(k, sizeof(k), "%s%s", prefix, key);
	csv__str(c, k);
	csv__str(c, value);
	csv__end_row(c);
}

static void pair_u64(struct csv *c, const char *prefix, const char *key, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	pair(c, prefix, key, buf);
}

/* the input and its header facts (an absent feature: an empty value) */
static void input_rows(struct csv *c, const struct manifest_input *in)
{
	const struct perf_features *ft = perf_file__features(in->f);
	struct stat st;
	struct strbuf cmd = STRBUF_INIT;
	uint32_t i;

	pair(c, in->prefix, "input", in->path);
	if (strcmp(in->path, "-") && !stat(in->path, &st))
		pair_u64(c, in->prefix, "input_size", (uint64_t)st.st_size);
	else
		pair(c, in->prefix, "input_size", NULL);	/* standard input */
	pair(c, in->prefix, "hostname", ft->hostname);
	pair(c, in->prefix, "os_release", ft->osrelease);
	pair(c, in->prefix, "perf_version", ft->version);
	pair(c, in->prefix, "arch", ft->arch);
	pair(c, in->prefix, "cpu_desc", ft->cpudesc);
	pair(c, in->prefix, "cpuid", ft->cpuid);
	if (perf_features__has(ft, PERF_FEAT_NRCPUS)) {
		pair_u64(c, in->prefix, "nr_cpus_online", ft->nr_cpus_online);
		pair_u64(c, in->prefix, "nr_cpus_available", ft->nr_cpus_avail);
	} else {
		pair(c, in->prefix, "nr_cpus_online", NULL);
		pair(c, in->prefix, "nr_cpus_available", NULL);
	}
	if (perf_features__has(ft, PERF_FEAT_TOTAL_MEM))
		pair_u64(c, in->prefix, "total_mem_kb", ft->total_mem_kb);
	else
		pair(c, in->prefix, "total_mem_kb", NULL);
	/* the perf command line as perf report --header-only joins it */
	for (i = 0; i < ft->cmdline_argc; i++)
		if ((i && strbuf__add(&cmd, " ", 1)) || strbuf__add(&cmd, ft->cmdline[i], strlen(ft->cmdline[i])))
			c->err = c->err ? c->err : -ENOMEM;
	pair(c, in->prefix, "perf_cmdline", cmd.len ? cmd.buf : NULL);
	strbuf__release(&cmd);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* a file row per file of the stage but the manifest, bytewise; 0 or -errno */
static int file_rows(struct csv *c, const char *stage)
{
	struct array names = ARRAY_INIT(char *);
	DIR *d = opendir(stage);
	struct dirent *e;
	size_t i;
	int err = 0;

	if (!d)
		return -errno;
	while (!err && (e = readdir(d))) {
		char **slot;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, MANIFEST_NAME))
			continue;
		slot = array__push(&names);
		if (!slot || !(*slot = strdup(e->d_name))) {
			if (slot)
				names.len--;
			err = -ENOMEM;
		}
	}
	closedir(d);
	if (names.len)
		qsort(names.data, names.len, sizeof(char *), name_cmp);
	for (i = 0; i < names.len; i++) {
		if (!err)
			pair(c, "", "file", ARRAY_AT(&names, char *, i));
		free(ARRAY_AT(&names, char *, i));
	}
	array__release(&names);
	return err;
}

int manifest__write(const char *stage, const struct analyse_opts *o, const struct manifest_input *in, size_t nr)
{
	struct csv *c = malloc(sizeof(*c));
	size_t i;
	int err;

	if (!c)
		return -ENOMEM;
	err = csv__open(c, stage, MANIFEST_NAME);
	if (err) {
		free(c);
		return err;
	}
	csv__set_raw_text(c, o->an.raw_csv);
	csv__puts(c, "key,value\n");
	pair(c, "", "readperf_version", READPERF_VERSION);
	for (i = 0; i < nr; i++)
		input_rows(c, &in[i]);
	for (i = 0; i < o->nr_args; i++)
		pair(c, "", "arg", o->args[i]);
	err = file_rows(c, stage);
	if (err)
		csv__abort(c);
	else
		err = csv__commit(c);
	free(c);
	return err;
}

int manifest__owns(const char *name)
{
	size_t len = strlen(name);
	char base[64];

	if (len < 5 || len - 4 >= sizeof(base) || strcmp(name + len - 4, ".csv"))
		return 0;
	memcpy(base, name, len - 4);
	base[len - 4] = '\0';
	return report_outputs__find(base, 0) >= 0;
}

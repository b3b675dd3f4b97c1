/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * readperf header FILE and readperf dump FILE: what the reader sees, for
 * people and for debugging: the header with every feature section and the
 * events, or every decoded record one per line.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "perffile/attr.h"
#include "perffile/perffile.h"
#include "util/array.h"
#include "util/escape.h"
#include "util/strbuf.h"

static const struct cli_command header_cmd = {
	.name = "readperf header",
	.usage_head = "usage: readperf header FILE\n"
		"print the header and every feature section of FILE ('-' reads a pipe-mode stream from stdin)\n"
		"\n",
	.groups = cli_help_only,
	.help_col = 14,
	.stop_at_command = 1,
};

static const struct cli_command dump_cmd = {
	.name = "readperf dump",
	.usage_head = "usage: readperf dump FILE\n"
		"print every decoded record of FILE, one per line (for debugging) ('-' reads a pipe-mode\n"
		"stream from stdin)\n"
		"\n",
	.groups = cli_help_only,
	.help_col = 14,
	.stop_at_command = 1,
};

/* no option but -h; -1 to go on with argv[*file] */
static int no_option(const struct cli_command *cmd, int argc, char **argv, int *file)
{
	int code = cli_command__parse(cmd, argc, argv, NULL, NULL, file);

	if (code < 0 && argc - *file != 1) {
		fprintf(stderr, "%s: usage: %s FILE\nTry '%s --help'\n", cmd->name, cmd->name, cmd->name);
		code = EXIT_USAGE;
	}
	return code;
}

int cmd_header(int argc, char **argv, struct cli *cli)
{
	const struct log *log = &cli->log;
	const struct perf_features *ft;
	const struct perf_evlist *el;
	struct perf_file *f;
	const char *section = "";
	struct term_text t = TERM_TEXT_INIT;
	size_t i;
	int err, file;

	err = no_option(&header_cmd, argc, argv, &file);
	if (err >= 0)
		return err;
	err = open_input(argv[file], log, &f);
	if (err)
		return exit_for(err);
	ft = perf_file__features(f);
	el = perf_file__evlist(f);
	if (perf_file__info(f)->format == PERF_FORMAT_PIPE) {
		struct perf_record rec = { 0 };
		int r;

		/* a pipe carries its attrs and features as records */
		while ((r = perf_file__next(f, &rec)) > 0)
			;
		err = r;
	}
	for (i = 0; i < ft->facts.len; i++) {
		const struct perf_fact *fact = &ARRAY_AT(&ft->facts, struct perf_fact, i);

		if (strcmp(section, fact->section)) {
			section = fact->section;
			printf("# %s\n", section);
		}
		/* the file's strings as terminal text (util/escape.h) */
		printf("#   %s: ", escape__term_str(&t, fact->key));
		printf("%s\n", escape__term_str(&t, fact->value));
	}
	printf("# events\n");
	for (i = 0; i < el->nr; i++) {
		const struct perf_evattr *a = &el->attrs[i];

		printf("#   %s: ", escape__term_str(&t, a->name));
		strbuf__reset(&t.sb);
		perf_sample_type__format(a->attr.sample_type, &t.sb);
		printf("type=%u config=%#llx size=%u %s=%llu sample_type=%s ids=%zu\n",
		       a->attr.type, (unsigned long long)a->attr.config, a->file_attr_size,
		       a->attr.freq ? "sample_freq" : "sample_period",
		       (unsigned long long)a->attr.sample_period, t.sb.buf, a->nr_ids);
	}
	term_text__release(&t);
	/* a broken feature section or a cut data section: said above, and exit 2 */
	if (!err)
		err = perf_file__status(f);
	perf_file__delete(f);
	if (stdout_failed(log))
		return EXIT_SYSTEM;
	return exit_for(err < 0 ? err : 0);
}

int cmd_dump(int argc, char **argv, struct cli *cli)
{
	const struct log *log = &cli->log;
	struct strbuf sb = STRBUF_INIT;
	struct perf_file *f;
	struct perf_record rec = { 0 };
	int err, r, file;

	err = no_option(&dump_cmd, argc, argv, &file);
	if (err >= 0)
		return err;
	err = open_input(argv[file], log, &f);
	if (err)
		return exit_for(err);
	while ((r = perf_file__next(f, &rec)) > 0) {
		strbuf__reset(&sb);
		if (perf_record__dump(&rec, &sb)) {
			r = -ENOMEM;
			break;
		}
		fwrite(sb.buf, 1, sb.len, stdout);
		if (!sb.len || sb.buf[sb.len - 1] != '\n')
			putchar('\n');
	}
	strbuf__release(&sb);
	perf_file__delete(f);
	if (stdout_failed(log))
		return EXIT_SYSTEM;
	return exit_for(r < 0 ? r : 0);
}

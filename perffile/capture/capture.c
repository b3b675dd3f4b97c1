/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Event list parsing, perf_event_attr configuration, perf_event_open of
 * every (event, cpu, thread), ring buffer set-up and counting reads.
 *
 * Names and numbers: tools/perf/util/parse-events.c (event_symbols_hw,
 * event_symbols_sw, evsel__hw_cache), include/uapi/linux/perf_event.h.
 * Attr configuration: tools/perf/util/evsel.c evsel__config() and
 * tools/perf/builtin-stat.c create_perf_stat_counter().  Scaling:
 * perf_event_open(2), "read_format" and tools/lib/perf/evsel.c
 * perf_counts_values__scale().
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "perffile/capture/capture.h"
#include "perffile/capture/ringbuf.h"

/*
 * perf's PERF_REGS_MASK for x86_64 (arch/x86/include/perf_regs.h): every user
 * register but the segment registers ds, es, fs, gs
 */
#define USER_REGS_MASK 0xff0fffULL

struct event_symbol {
	const char *name;
	uint32_t type;
	uint64_t config;
};

static const struct event_symbol event_symbols[] = {
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "idle-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "idle-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
	{ "bpf-output", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT },
};

/* evsel__hw_cache[], evsel__hw_cache_op[], evsel__hw_cache_result[] of perf */
static const char *const cache_names[PERF_COUNT_HW_CACHE_MAX][3] = {
	{ "L1-dcache", "l1-d", "l1d" },
	{ "L1-icache", "l1-i", "l1i" },
	{ "LLC", "L2", NULL },
	{ "dTLB", "d-tlb", NULL },
	{ "iTLB", "i-tlb", NULL },
	{ "branch", "branches", "bpu" },
	{ "node", NULL, NULL },
};

static const char *const cache_ops[PERF_COUNT_HW_CACHE_OP_MAX][4] = {
	{ "load", "loads", "read", NULL },
	{ "store", "stores", "write", NULL },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
};

static const char *const cache_results[PERF_COUNT_HW_CACHE_RESULT_MAX][4] = {
	{ "refs", "Reference", "ops", "access" },
	{ "misses", "miss", NULL, NULL },
};

void capture_evlist__init(struct capture_evlist *el)
{
	el->events = NULL;
	el->nr = 0;
	el->ids = NULL;
	el->nr_ids = 0;
}

void capture_evlist__release(struct capture_evlist *el)
{
	for (size_t i = 0; i < el->nr; i++)
		free(el->events[i].name);
	free(el->events);
	free(el->ids);
	capture_evlist__init(el);
}

/* match one of names (case-insensitive) as a prefix of s ending at '-' or '\0'; returns its length or 0 */
static size_t match_word(const char *s, const char *const *names, size_t nr)
{
	size_t best = 0;

	for (size_t i = 0; i < nr; i++) {
		size_t n;

		if (!names[i])
			continue;
		n = strlen(names[i]);
		if (strncasecmp(s, names[i], n) == 0 && (s[n] == '\0' || s[n] == '-') && n > best)
			best = n;
	}
	return best;
}

int capture__parse_cache_event(const char *name, uint64_t *config)
{
	size_t n = 0;
	int type = -1, op = -1, result = -1;

	for (int i = 0; i < PERF_COUNT_HW_CACHE_MAX; i++) {
		size_t m = match_word(name, cache_names[i], 3);

		if (m > n) {
			n = m;
			type = i;
		}
	}
	if (type < 0)
		return -EINVAL;
	name += n;
	/* up to two more words, each an op or a result */
	for (int w = 0; w < 2 && *name == '-'; w++) {
		size_t m = 0;
		int found = 0;

		name++;
		if (op < 0) {
			for (int i = 0; i < PERF_COUNT_HW_CACHE_OP_MAX; i++) {
				m = match_word(name, cache_ops[i], 4);
				if (m) {
					op = i;
					found = 1;
					break;
				}
			}
		}
		if (!found && result < 0) {
			for (int i = 0; i < PERF_COUNT_HW_CACHE_RESULT_MAX; i++) {
				m = match_word(name, cache_results[i], 4);
				if (m) {
					result = i;
					found = 1;
					break;
				}
			}
		}
		if (!found)
			return -EINVAL;
		name += m;
	}
	if (*name)
		return -EINVAL;
	if (op < 0)
		op = PERF_COUNT_HW_CACHE_OP_READ;
	if (result < 0)
		result = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	*config = (uint64_t)type | ((uint64_t)op << 8) | ((uint64_t)result << 16);
	return 0;
}

static int read_sys_u64(const char *path, uint64_t *val)
{
	char buf[64];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	char *end;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EINVAL;
	buf[n] = '\0';
	errno = 0;
	*val = strtoull(buf, &end, 0);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

static int parse_u64(const char *s, uint64_t *val)
{
	char *end;

	if (!*s || *s == '-')
		return -EINVAL;
	errno = 0;
	*val = strtoull(s, &end, 0);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

#define MODIFIER_CHARS "ukhGHpPSDIe"

/*
 * Modifiers after ':' (perf's parse-events.l): u k h G H p P S D I e.  Any
 * of u/k/h given excludes the levels not given.  P asks for the highest
 * precise_ip, which perf probes; here it is 3, what the kernel caps at.
 */
static int apply_modifiers(struct capture_event *ev, const char *mods)
{
	struct perf_event_attr *attr = &ev->attr;
	int u = 0, k = 0, h = 0;

	for (const char *p = mods; *p; p++) {
		switch (*p) {
		case 'u': u = 1; break;
		case 'k': k = 1; break;
		case 'h': h = 1; break;
		case 'G': attr->exclude_host = 1; break;
		case 'H': attr->exclude_guest = 1; break;
		case 'D': attr->pinned = 1; break;
		case 'I': attr->exclude_idle = 1; break;
		case 'e': attr->exclusive = 1; break;
		case 'S': ev->sample_read = 1; break;
		case 'P': attr->precise_ip = 3; break;
		case 'p':
			if (attr->precise_ip >= 3)
				return -EINVAL;
			attr->precise_ip++;
			break;
		default:
			return -EINVAL;
		}
	}
	if (u || k || h) {
		attr->exclude_user = !u;
		attr->exclude_kernel = !k;
		attr->exclude_hv = !h;
		ev->terms |= CAPTURE_TERM_PRIV;
	}
	return 0;
}

/* "cpu-clock", "L1-dcache-load-misses", "r1a8": type and config; -ENOENT when the name is none of them */
static int lookup_symbol(const char *s, struct perf_event_attr *attr)
{
	uint64_t cfg;

	for (size_t i = 0; i < sizeof(event_symbols) / sizeof(event_symbols[0]); i++) {
		if (strcmp(s, event_symbols[i].name) == 0) {
			attr->type = event_symbols[i].type;
			attr->config = event_symbols[i].config;
			return 0;
		}
	}
	if (capture__parse_cache_event(s, &cfg) == 0) {
		attr->type = PERF_TYPE_HW_CACHE;
		attr->config = cfg;
		return 0;
	}
	if (s[0] == 'r' && s[1] && strspn(s + 1, "0123456789abcdefABCDEF") == strlen(s + 1) && strlen(s + 1) <= 16) {
		attr->type = PERF_TYPE_RAW;
		attr->config = strtoull(s + 1, NULL, 16);
		return 0;
	}
	return -ENOENT;
}

/*
 * SUBSYS:NAME from tracefs (the id file of the event); perf's default
 * period for tracepoints is 1, every hit.  -ENOENT: no such tracepoint
 * (or no tracefs); -EINVAL: not a name tracefs can have.
 */
const char *capture__tracefs(void)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char path[64];

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		snprintf(path, sizeof(path), "%s/events/header_page", roots[i]);
		if (access(path, R_OK) == 0)
			return roots[i];
	}
	return NULL;
}

static int lookup_tracepoint(const char *sys, const char *name, struct perf_event_attr *attr)
{
	static const char ok[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";
	const char *root = capture__tracefs();
	char path[256];
	uint64_t id;

	if (!*sys || !*name || strspn(sys, ok) != strlen(sys) || strspn(name, ok) != strlen(name) ||
	    strlen(sys) > 64 || strlen(name) > 64)
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", root ? root : "/sys/kernel/tracing", sys, name);
	if (read_sys_u64(path, &id))
		return -ENOENT;
	attr->type = PERF_TYPE_TRACEPOINT;
	attr->config = id;
	attr->sample_period = 1;
	return 0;
}

/* a 0/1 term value (time=, inherit=) */
static int term_bool(const char *v, int *out)
{
	if (strcmp(v, "0") && strcmp(v, "1"))
		return -EINVAL;
	*out = v[0] == '1';
	return 0;
}

/* one term of "NAME/TERM=V,.../": 0, -EINVAL (unknown term or bad value), -ENOMEM */
static int apply_term(struct capture_event *ev, const char *key, const char *val)
{
	struct perf_event_attr *attr = &ev->attr;
	uint64_t v = 0;

	if (!strcmp(key, "name")) {
		if (!val || !*val)
			return -EINVAL;
		free(ev->name);
		ev->name = strdup(val);
		return ev->name ? 0 : -ENOMEM;
	}
	if (!strcmp(key, "no-inherit") && !val) {
		ev->terms |= CAPTURE_TERM_INHERIT;
		ev->inherit_term = 0;
		return 0;
	}
	if (!val)
		return -EINVAL;
	if (!strcmp(key, "time") || !strcmp(key, "inherit")) {
		int is_time = key[0] == 't';

		ev->terms |= is_time ? CAPTURE_TERM_TIME : CAPTURE_TERM_INHERIT;
		return term_bool(val, is_time ? &ev->time_term : &ev->inherit_term);
	}
	if (parse_u64(val, &v))
		return -EINVAL;
	if (!strcmp(key, "config")) {
		attr->config = v;
	} else if (!strcmp(key, "config1")) {
		attr->config1 = v;
	} else if (!strcmp(key, "config2")) {
		attr->config2 = v;
	} else if (!strcmp(key, "period") && v) {
		attr->sample_period = v;
		attr->freq = 0;
		ev->terms = (ev->terms & ~(unsigned)CAPTURE_TERM_FREQ) | CAPTURE_TERM_PERIOD;
	} else if (!strcmp(key, "freq") && v) {
		attr->sample_freq = v;
		attr->freq = 1;
		ev->terms = (ev->terms & ~(unsigned)CAPTURE_TERM_PERIOD) | CAPTURE_TERM_FREQ;
	} else {
		return -EINVAL;
	}
	return 0;
}

/* the terms between the slashes, comma-separated; text is the whole event for messages */
static int apply_terms(struct capture_event *ev, char *terms, const char *text, const struct log *log)
{
	char *save = NULL;

	for (char *t = strtok_r(terms, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');
		int err;

		if (eq)
			*eq = '\0';
		err = apply_term(ev, t, eq ? eq + 1 : NULL);
		if (err == -EINVAL)
			log_msg(log, LOG_ERR, "event '%s': cannot read term '%s%s%s' (known: config, config1, config2, "
				"name, period=N, freq=HZ, time=0|1, inherit=0|1, no-inherit)", text, t, eq ? "=" : "",
				eq ? eq + 1 : "");
		if (err)
			return err;
	}
	return 0;
}

/* the type of PMU pmu from sysfs: "software", "cpu", ... */
static int lookup_pmu(const char *pmu, struct perf_event_attr *attr)
{
	char path[256];
	uint64_t type;

	if (!*pmu || strlen(pmu) > 64 || strchr(pmu, '.'))
		return -EINVAL;
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", pmu);
	if (read_sys_u64(path, &type))
		return -EOPNOTSUPP;
	attr->type = (uint32_t)type;
	return 0;
}

/*
 * "HEAD/TERMS/[:MODS]" in s (modified in place): HEAD an event name or a
 * PMU.  Sets *mods to the modifiers or NULL; the name is "HEAD/TERMS/"
 * unless a name= term gave one.
 */
static int parse_term_event(struct capture_event *ev, char *s, char *slash, char **mods, const struct log *log)
{
	char *end = strchr(slash + 1, '/');
	char *terms;
	int err;

	size_t name_len;

	/* modifiers after ':' or right after the slash ("cpu/mem-loads,ldlat=30/P", perf-mem(1)) */
	if (!end || (end[1] && end[1] != ':' && strspn(end + 1, MODIFIER_CHARS) != strlen(end + 1))) {
		log_msg(log, LOG_ERR, "event '%s': %s", s, end ? "unexpected text after the closing '/'" :
			"missing closing '/'");
		return -EINVAL;
	}
	*mods = end[1] == ':' ? end + 2 : end[1] ? end + 1 : NULL;
	name_len = (size_t)(end + 1 - s);
	terms = strndup(slash + 1, (size_t)(end - slash - 1));
	if (!terms)
		return -ENOMEM;
	*slash = '\0';
	err = lookup_symbol(s, &ev->attr);
	if (err)
		err = lookup_pmu(s, &ev->attr);
	if (err)
		log_msg(log, LOG_ERR, "event '%s/%s/': '%s' is %s", s, terms, s, err == -EINVAL ? "not a pmu name" :
			"neither an event nor a pmu in /sys/bus/event_source/devices");
	*slash = '/';
	if (!err)
		err = apply_terms(ev, terms, s, log);
	free(terms);
	if (!err && !ev->name && !(ev->name = strndup(s, name_len)))
		err = -ENOMEM;
	return err;
}

/* "NAME[:MODS]" or "SUBSYS:NAME[:MODS]" in s (modified in place); sets *mods */
static int parse_named_event(struct capture_event *ev, char *s, char **mods, const struct log *log)
{
	char *colon = strchr(s, ':');
	char *tp_end;
	int err;

	*mods = NULL;
	if (colon)
		*colon = '\0';
	if (lookup_symbol(s, &ev->attr) == 0) {
		if (colon)
			*colon = ':';
		ev->name = strdup(s);	/* perf shows the modifiers: "cpu-clock:u" */
		*mods = colon ? colon + 1 : NULL;
		return ev->name ? 0 : -ENOMEM;
	}
	if (!colon) {
		log_msg(log, LOG_ERR, "event '%s' is not known (try cpu-clock, task-clock, page-faults, context-switches, "
			"cycles, L1-dcache-load-misses, rNNNN, SUBSYS:TRACEPOINT or pmu/config=N/)", s);
		return -EINVAL;
	}
	tp_end = strchr(colon + 1, ':');
	if (tp_end)
		*tp_end = '\0';
	err = lookup_tracepoint(s, colon + 1, &ev->attr);
	*colon = ':';
	if (err) {
		log_msg(log, LOG_ERR, "event '%s' is %s", s, err == -EINVAL ? "not known (not NAME:MODIFIERS nor "
			"SUBSYS:TRACEPOINT)" : "not known: no such tracepoint in /sys/kernel/tracing/events");
		return err == -ENOENT ? -EINVAL : err;
	}
	ev->name = strdup(s);	/* "sched:sched_switch", without the modifiers */
	*mods = tp_end ? tp_end + 1 : NULL;
	return ev->name ? 0 : -ENOMEM;
}

/*
 * "NAME:MODS" for a group member that takes the group's modifiers; S is
 * left out as perf does (its names show the privilege levels, not how the
 * group is read)
 */
static int append_mods(char **name, const char *mods)
{
	size_t len = strlen(*name);
	char *n = malloc(len + strlen(mods) + 2), *w;

	if (!n)
		return -ENOMEM;
	memcpy(n, *name, len);
	w = n + len;
	*w++ = ':';
	for (const char *p = mods; *p; p++)
		if (*p != 'S')
			*w++ = *p;
	*(w == n + len + 1 ? w - 1 : w) = '\0';
	free(*name);
	*name = n;
	return 0;
}

static int parse_one(struct capture_evlist *el, const char *text, size_t len, const char *group_mods,
		     int leader, const struct log *log);

/* names of the subdirectories of dir that match pattern, in the directory's order (perf's); -errno */
static int glob_dirs(const char *dir, const char *pattern, struct dirent ***out, int *nr)
{
	struct dirent **list;
	int n = scandir(dir, &list, NULL, NULL), w = 0;

	if (n < 0)
		return -errno;
	for (int i = 0; i < n; i++) {
		if (list[i]->d_name[0] != '.' && list[i]->d_type == DT_DIR && !fnmatch(pattern, list[i]->d_name, 0))
			list[w++] = list[i];
		else
			free(list[i]);
	}
	*out = list;
	*nr = w;
	return 0;
}

/*
 * "SYS:NAME[:MODS]" with * or ? in SYS or NAME ("sched:sched_*"), as perf
 * takes it: every tracepoint of tracefs that matches, in the order tracefs
 * lists them (as perf 6.1's readdir), each an event; at most 4096.  -EINVAL when none matches.
 */
static int parse_tracepoint_glob(struct capture_evlist *el, const char *text, const char *group_mods, int leader,
				 const struct log *log)
{
	const char *root = capture__tracefs(), *colon = strchr(text, ':'), *mods = strchr(colon + 1, ':');
	char sys[128], name[128], path[512], one[300];
	struct dirent **systems = NULL, **events;
	int nsys = 0, nev, found = 0, err;

	snprintf(sys, sizeof(sys), "%.*s", (int)(colon - text), text);
	snprintf(name, sizeof(name), "%.*s", mods ? (int)(mods - colon - 1) : (int)strlen(colon + 1), colon + 1);
	snprintf(path, sizeof(path), "%s/events", root ? root : "/sys/kernel/tracing");
	err = glob_dirs(path, sys, &systems, &nsys);
	for (int i = 0; !err && i < nsys; i++) {
		snprintf(path, sizeof(path), "%s/events/%s", root, systems[i]->d_name);
		if (glob_dirs(path, name, &events, &nev))
			continue;
		for (int j = 0; j < nev; j++) {
			int n = snprintf(one, sizeof(one), "%s:%s%s", systems[i]->d_name, events[j]->d_name, mods ? mods : "");

			if (!err && ++found > 4096)
				err = -E2BIG;
			if (!err && n > 0 && (size_t)n < sizeof(one)) {
				size_t at = el->nr;

				err = parse_one(el, one, (size_t)n, group_mods, leader, log);
				if (!err && group_mods && leader < 0)	/* in a group: the first one leads */
					leader = (int)at;
			}
			free(events[j]);
		}
		free(events);
	}
	for (int i = 0; i < nsys; i++)
		free(systems[i]);
	free(systems);
	if (!err && !found)
		err = -ENOENT;
	if (err == -ENOENT || err == -E2BIG || (err && err != -ENOMEM && err != -EINVAL))
		log_msg(log, LOG_ERR, "event '%s': %s", text, err == -E2BIG ? "more than 4096 tracepoints match" :
			"no tracepoint in /sys/kernel/tracing/events matches");
	return err && err != -ENOMEM ? -EINVAL : err;
}

/* one event: text is "name[:mods]", "sys:tracepoint[:mods]" or "head/terms/[:mods]"; group_mods from "{...}:mods" */
static int parse_one(struct capture_evlist *el, const char *text, size_t len, const char *group_mods,
		     int leader, const struct log *log)
{
	struct capture_event ev;
	struct capture_event *grown;
	char *s = strndup(text, len), *mods, *slash;
	const char *bad = NULL;
	int err;

	if (!s)
		return -ENOMEM;
	if (!strchr(s, '/') && strchr(s, ':') && strpbrk(s, "*?")) {
		err = parse_tracepoint_glob(el, s, group_mods, leader, log);
		free(s);
		return err;
	}
	memset(&ev, 0, sizeof(ev));
	ev.attr.size = sizeof(ev.attr);
	slash = strchr(s, '/');
	if (slash)
		err = parse_term_event(&ev, s, slash, &mods, log);
	else
		err = parse_named_event(&ev, s, &mods, log);
	if (!err && mods && apply_modifiers(&ev, mods))
		bad = mods;
	else if (!err && group_mods && apply_modifiers(&ev, group_mods))
		bad = group_mods;
	if (bad) {
		log_msg(log, LOG_ERR, "event '%s': cannot read modifier '%s' (known: u k h G H p P S D I e)", ev.name, bad);
		err = -EINVAL;
	}
	if (!err && group_mods && !mods && *group_mods)
		err = append_mods(&ev.name, group_mods);
	if (err)
		goto out;
	ev.leader = leader < 0 ? (int)el->nr : leader;
	ev.nr_members = 1;
	grown = realloc(el->events, (el->nr + 1) * sizeof(*grown));
	if (!grown) {
		err = -ENOMEM;
		goto out;
	}
	el->events = grown;
	el->events[el->nr++] = ev;
	if (leader >= 0)
		el->events[leader].nr_members++;
	ev.name = NULL;
out:
	free(ev.name);
	free(s);
	return err;
}

/* length of one item: up to ',' or '}' outside '/.../' */
static size_t item_len(const char *p)
{
	size_t n = 0;
	int in_pmu = 0;

	for (; p[n]; n++) {
		if (p[n] == '/')
			in_pmu = !in_pmu;
		else if (!in_pmu && (p[n] == ',' || p[n] == '}' || p[n] == '{'))
			break;
	}
	return n;
}

int capture_evlist__parse(struct capture_evlist *el, const char *spec, const struct log *log)
{
	const char *p = spec;
	int err;

	if (!*p) {
		log_msg(log, LOG_ERR, "empty event list");
		return -EINVAL;
	}
	while (*p) {
		if (*p == '{') {
			const char *close = strchr(p, '}');
			size_t first = el->nr;
			char mods[32] = "";
			const char *q;

			if (!close) {
				log_msg(log, LOG_ERR, "event group '%s': missing '}'", p);
				return -EINVAL;
			}
			q = close + 1;
			if (*q == ':') {
				size_t m = strcspn(q + 1, ",");

				if (m >= sizeof(mods)) {
					log_msg(log, LOG_ERR, "event group '%s': modifier too long", p);
					return -EINVAL;
				}
				memcpy(mods, q + 1, m);
				mods[m] = '\0';
				q += 1 + m;
			}
			p++;
			while (p < close) {
				size_t n = item_len(p);

				if (n == 0 || p + n > close) {
					log_msg(log, LOG_ERR, "event group: empty or nested event in '%s'", spec);
					return -EINVAL;
				}
				err = parse_one(el, p, n, mods, el->nr == first ? -1 : (int)first, log);
				if (err)
					return err;
				p += n;
				if (*p == ',')
					p++;
			}
			p = q;
		} else {
			size_t n = item_len(p);

			if (n == 0) {
				log_msg(log, LOG_ERR, "event list '%s': empty event", spec);
				return -EINVAL;
			}
			err = parse_one(el, p, n, NULL, -1, log);
			if (err)
				return err;
			p += n;
		}
		if (*p == ',')
			p++;
		else if (*p) {
			log_msg(log, LOG_ERR, "event list '%s': unexpected '%c'", spec, *p);
			return -EINVAL;
		}
	}
	return 0;
}

/* the sampling period: a period=/freq= term, else -c, else -F, else a tracepoint's 1, else 4000 Hz */
static void config_period(struct capture_event *ev, const struct capture_opts *opts)
{
	struct perf_event_attr *a = &ev->attr;

	if (ev->terms & (CAPTURE_TERM_PERIOD | CAPTURE_TERM_FREQ))
		return;
	if (opts->period) {
		a->sample_period = opts->period;
		a->freq = 0;
	} else if (opts->freq || !a->sample_period || a->freq) {
		a->sample_freq = opts->freq ? opts->freq : 4000;
		a->freq = 1;
	}
}

/* evsel__config() for sampling: the fields of event i that perf record sets */
static void config_sampling(struct capture_evlist *el, size_t i, const struct capture_opts *opts, int cpu_bit)
{
	struct capture_event *ev = &el->events[i];
	struct perf_event_attr *a = &ev->attr;

	/* IP|TID|TIME|PERIOD, CPU for cpu-wide (for every event beside a tracepoint: one layout), IDENTIFIER with several */
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	if ((ev->terms & CAPTURE_TERM_TIME) && !ev->time_term)
		a->sample_type &= ~(uint64_t)PERF_SAMPLE_TIME;
	if (cpu_bit)
		a->sample_type |= PERF_SAMPLE_CPU;
	if (a->type == PERF_TYPE_TRACEPOINT)
		a->sample_type |= PERF_SAMPLE_RAW;
	if (el->nr > 1)
		a->sample_type |= PERF_SAMPLE_IDENTIFIER;
	if (opts->callchain)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	a->read_format = PERF_FORMAT_ID;
	if (opts->dwarf_stack) {
		/* evsel__config_callchain() for dwarf: the kernel chain, user registers and stack */
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->exclude_callchain_user = 1;
		a->sample_regs_user = USER_REGS_MASK;
		a->sample_stack_user = opts->dwarf_stack;
	}
	/* -d, and perf record's dwarf mode (sample_address): data addresses, data maps */
	if (opts->sample_addr || opts->dwarf_stack) {
		a->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
		a->mmap_data = i == 0;
	}
	if (opts->user_regs) {
		a->sample_type |= PERF_SAMPLE_REGS_USER;
		a->sample_regs_user |= opts->user_regs;
	}
	if (opts->inherit_stat) {
		a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		a->inherit_stat = 1;
	}
	if (ev->sample_read) {
		/* the sample carries the counts; one event alone needs ID to name its count */
		a->sample_type |= PERF_SAMPLE_READ;
		if (el->nr == 1)
			a->sample_type |= PERF_SAMPLE_ID;
		if (el->events[ev->leader].nr_members > 1) {
			a->read_format |= PERF_FORMAT_GROUP;
			a->inherit = 0;		/* the kernel takes no inherited group reads */
		}
	}
	a->sample_id_all = 1;
	config_period(ev, opts);
	/*
	 * a fixed period is not sampled (perf: PERIOD with freq and for a
	 * tracepoint only): a software event with PERIOD and no freq is
	 * sampled at every event whatever its period (perf_swevent_event)
	 */
	if (!a->freq && a->type != PERF_TYPE_TRACEPOINT)
		a->sample_type &= ~(uint64_t)PERF_SAMPLE_PERIOD;
	if (i == 0) {	/* the tracking event */
		a->mmap = 1;
		a->mmap2 = 1;
		a->comm = 1;
		a->comm_exec = 1;
		a->task = 1;
		a->context_switch = opts->switch_events != 0;
	}
}

/*
 * evsel__config_leader_sampling(): a member of a leader-sampled group does
 * not sample (unless a term says so); its sample_type is the leader's
 */
static void config_leader_sampling(struct capture_evlist *el, size_t i)
{
	struct capture_event *ev = &el->events[i];

	if (!ev->sample_read || ev->leader == (int)i)
		return;
	if (!(ev->terms & (CAPTURE_TERM_PERIOD | CAPTURE_TERM_FREQ))) {
		ev->attr.freq = 0;
		ev->attr.sample_period = 0;
	}
	ev->attr.sample_type = el->events[ev->leader].attr.sample_type;
}

void capture_evlist__config(struct capture_evlist *el, const struct capture_opts *opts)
{
	int inherit = opts->target == CAPTURE_TARGET_CMD || opts->target == CAPTURE_TARGET_PID;
	int cpu_bit = opts->target == CAPTURE_TARGET_SYSTEM || opts->target == CAPTURE_TARGET_CPUS ||
		      opts->sample_cpu;

	for (size_t i = 0; i < el->nr; i++)
		cpu_bit |= el->events[i].attr.type == PERF_TYPE_TRACEPOINT;
	for (size_t i = 0; i < el->nr; i++) {
		struct capture_event *ev = &el->events[i];
		struct perf_event_attr *a = &ev->attr;
		int is_leader = ev->leader == (int)i;

		a->size = sizeof(*a);
		a->inherit = (ev->terms & CAPTURE_TERM_INHERIT) ? ev->inherit_term : inherit;
		a->disabled = is_leader;
		a->enable_on_exec = is_leader && opts->target == CAPTURE_TARGET_CMD;
		if (opts->mode == CAPTURE_STAT) {
			a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
			a->sample_type = 0;
			a->sample_period = 0;
			a->freq = 0;
			continue;
		}
		config_sampling(el, i, opts, cpu_bit);
		config_leader_sampling(el, i);
		if (opts->use_clockid) {
			a->use_clockid = 1;
			a->clockid = opts->clockid;
		}
	}
}

size_t capture_evlist__id_hdr_size(const struct capture_evlist *el)
{
	uint64_t st;
	size_t n = 0;

	if (!el->nr || !el->events[0].attr.sample_id_all)
		return 0;
	st = el->events[0].attr.sample_type;
	if (st & PERF_SAMPLE_TID)
		n += 8;
	if (st & PERF_SAMPLE_TIME)
		n += 8;
	if (st & PERF_SAMPLE_ID)
		n += 8;
	if (st & PERF_SAMPLE_STREAM_ID)
		n += 8;
	if (st & PERF_SAMPLE_CPU)
		n += 8;
	if (st & PERF_SAMPLE_IDENTIFIER)
		n += 8;
	return n;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int capture__parse_cpu_list(const char *list, int **cpus, size_t *nr)
{
	int *out = NULL;
	size_t n = 0, cap = 0;
	const char *p = list;

	while (*p) {
		char *end;
		long a, b;

		if (!isdigit((unsigned char)*p))
			goto bad;
		a = strtol(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				goto bad;
			b = strtol(p, &end, 10);
			p = end;
		}
		if (a < 0 || b < a || b > 65535)
			goto bad;
		for (long c = a; c <= b; c++) {
			if (n == cap) {
				int *g;

				cap = cap ? cap * 2 : 16;
				g = realloc(out, cap * sizeof(*g));
				if (!g) {
					free(out);
					return -ENOMEM;
				}
				out = g;
			}
			out[n++] = (int)c;
		}
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
	}
	if (!n)
		goto bad;
	qsort(out, n, sizeof(*out), cmp_int);
	{
		size_t w = 1;

		for (size_t i = 1; i < n; i++)
			if (out[i] != out[w - 1])
				out[w++] = out[i];
		n = w;
	}
	*cpus = out;
	*nr = n;
	return 0;
bad:
	free(out);
	return -EINVAL;
}

int capture__online_cpus(int **cpus, size_t *nr)
{
	char buf[4096];
	int fd = open("/sys/devices/system/cpu/online", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);
		char tmp[32];

		if (c <= 0)
			return -ENOENT;
		snprintf(tmp, sizeof(tmp), "0-%ld", c - 1);
		return capture__parse_cpu_list(tmp, cpus, nr);
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return capture__parse_cpu_list(buf, cpus, nr);
}

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			       unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

static int list_threads(pid_t pid, pid_t **tids, size_t *nr)
{
	char path[64];
	DIR *d;
	struct dirent *de;
	pid_t *out = NULL;
	size_t n = 0, cap = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char *end;
		long t = strtol(de->d_name, &end, 10);

		if (*end || t <= 0)
			continue;
		if (n == cap) {
			pid_t *g;

			cap = cap ? cap * 2 : 16;
			g = realloc(out, cap * sizeof(*g));
			if (!g) {
				free(out);
				closedir(d);
				return -ENOMEM;
			}
			out = g;
		}
		out[n++] = (pid_t)t;
	}
	closedir(d);
	if (!n) {
		free(out);
		return -ESRCH;
	}
	*tids = out;
	*nr = n;
	return 0;
}

static const char *type_name(uint32_t type)
{
	switch (type) {
	case PERF_TYPE_HARDWARE: return "hardware";
	case PERF_TYPE_SOFTWARE: return "software";
	case PERF_TYPE_TRACEPOINT: return "tracepoint";
	case PERF_TYPE_HW_CACHE: return "hardware cache";
	case PERF_TYPE_RAW: return "raw";
	case PERF_TYPE_BREAKPOINT: return "breakpoint";
	default: return "pmu";
	}
}

/* explain a failed perf_event_open the way a user can act on */
static int explain_open_error(const struct capture *c, const struct capture_event *ev, int cpu, pid_t tid,
			      int err)
{
	const struct log *log = c->log;
	uint64_t paranoid = 0, max_rate = 0;
	struct rlimit rl;

	switch (err) {
	case EACCES:
	case EPERM:
		if (read_sys_u64("/proc/sys/kernel/perf_event_paranoid", &paranoid))
			paranoid = 99;
		log_msg(log, LOG_ERR, "no permission to open event '%s' (kernel.perf_event_paranoid is %" PRId64 "): "
			"run as root or with CAP_PERFMON, or lower the setting, e.g. 'sysctl -w kernel.perf_event_paranoid=1' "
			"for your own processes, -1 for cpu-wide and kernel profiling", ev->name, (int64_t)paranoid);
		return -EACCES;
	case EMFILE:
	case ENFILE:
		getrlimit(RLIMIT_NOFILE, &rl);
		log_msg(log, LOG_ERR, "too many open files opening event '%s' (%zu events x %zu cpus x %zu threads; "
			"the limit is %llu): raise it with 'ulimit -n' or watch fewer cpus or threads",
			ev->name, c->el->nr, c->nr_cpus, c->nr_tids, (unsigned long long)rl.rlim_cur);
		return -EMFILE;
	case ESRCH:
		log_msg(log, LOG_ERR, "event '%s': no such process or thread %d", ev->name, (int)tid);
		return -ESRCH;
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
		if (ev->attr.sample_period && err == EOPNOTSUPP) {
			log_msg(log, LOG_ERR, "event '%s' cannot sample on this machine; try it with 'readperf stat' or "
				"use cpu-clock", ev->name);
			return -EOPNOTSUPP;
		}
		log_msg(log, LOG_ERR, "event '%s' (%s, config 0x%llx) is not supported by this machine%s", ev->name,
			type_name(ev->attr.type), (unsigned long long)ev->attr.config,
			ev->attr.type == PERF_TYPE_HARDWARE || ev->attr.type == PERF_TYPE_HW_CACHE ||
			ev->attr.type == PERF_TYPE_RAW ? " (no hardware performance counters; software events such as "
			"cpu-clock, task-clock, page-faults work)" : "");
		return -EOPNOTSUPP;
	case EINVAL:
		if (ev->attr.freq && !read_sys_u64("/proc/sys/kernel/perf_event_max_sample_rate", &max_rate) &&
		    ev->attr.sample_freq > max_rate) {
			log_msg(log, LOG_ERR, "event '%s': frequency %llu Hz is above kernel.perf_event_max_sample_rate (%llu)",
				ev->name, (unsigned long long)ev->attr.sample_freq, (unsigned long long)max_rate);
			return -EINVAL;
		}
		if (ev->attr.type != PERF_TYPE_SOFTWARE) {
			log_msg(log, LOG_ERR, "event '%s' (%s, config 0x%llx) is not supported by this machine (invalid argument)",
				ev->name, type_name(ev->attr.type), (unsigned long long)ev->attr.config);
			return -EOPNOTSUPP;
		}
		log_msg(log, LOG_ERR, "event '%s' on cpu %d: invalid argument to perf_event_open", ev->name, cpu);
		return -EINVAL;
	default:
		log_msg(log, LOG_ERR, "perf_event_open of event '%s' on cpu %d failed: %s", ev->name, cpu, strerror(err));
		return -err;
	}
}

/*
 * evsel__fallback(): where perf_event_paranoid forbids kernel profiling,
 * count user space only and say so, with ":u" added to the name as perf does.
 */
static int kernel_fallback(const struct capture *c, struct capture_event *ev)
{
	uint64_t paranoid;
	char *name;

	if (read_sys_u64("/proc/sys/kernel/perf_event_paranoid", &paranoid) || (int64_t)paranoid < 2)
		return -EACCES;
	name = malloc(strlen(ev->name) + 3);
	if (!name)
		return -ENOMEM;
	sprintf(name, "%s%s", ev->name, strchr(ev->name, ':') ? "" : ":u");
	log_msg(c->log, LOG_WARN, "kernel.perf_event_paranoid is %" PRId64 ": event '%s' counts user space only ('%s')",
		(int64_t)paranoid, ev->name, name);
	free(ev->name);
	ev->name = name;
	ev->attr.exclude_kernel = 1;
	ev->attr.exclude_hv = 1;
	return 0;
}

static void capture_fds_close(struct capture *c)
{
	for (size_t i = 0; i < c->nr_fds; i++)
		if (c->fds[i].fd >= 0)
			close(c->fds[i].fd);
	free(c->fds);
	c->fds = NULL;
	c->nr_fds = 0;
}

void capture__close(struct capture *c)
{
	for (size_t i = 0; i < c->nr_rings; i++)
		ringbuf__munmap(&c->rings[i]);
	free(c->rings);
	c->rings = NULL;
	c->nr_rings = 0;
	capture_fds_close(c);
	free(c->cpus);
	free(c->tids);
	c->cpus = NULL;
	c->tids = NULL;
}

static struct capture_fd *fd_at(const struct capture *c, size_t ev, size_t ci, size_t ti)
{
	return &c->fds[(ev * c->nr_cpus + ci) * c->nr_tids + ti];
}

static int setup_targets(struct capture *c)
{
	const struct capture_opts *o = &c->opts;
	int per_cpu = o->mode == CAPTURE_RECORD || o->target == CAPTURE_TARGET_SYSTEM ||
		      o->target == CAPTURE_TARGET_CPUS;
	int err;

	if (o->target == CAPTURE_TARGET_CPUS) {
		err = capture__parse_cpu_list(o->cpu_list, &c->cpus, &c->nr_cpus);
		if (err) {
			log_msg(c->log, LOG_ERR, "bad cpu list '%s'", o->cpu_list);
			return err;
		}
	} else if (per_cpu) {
		err = capture__online_cpus(&c->cpus, &c->nr_cpus);
		if (err) {
			log_msg(c->log, LOG_ERR, "cannot read the online cpus: %s", strerror(-err));
			return err;
		}
	} else {
		c->cpus = malloc(sizeof(*c->cpus));
		if (!c->cpus)
			return -ENOMEM;
		c->cpus[0] = -1;
		c->nr_cpus = 1;
	}
	if (o->target == CAPTURE_TARGET_PID) {
		err = list_threads(o->pid, &c->tids, &c->nr_tids);
		if (err) {
			log_msg(c->log, LOG_ERR, "no such process %d", (int)o->pid);
			return -ESRCH;
		}
		return 0;
	}
	c->tids = malloc(sizeof(*c->tids));
	if (!c->tids)
		return -ENOMEM;
	c->nr_tids = 1;
	c->tids[0] = (o->target == CAPTURE_TARGET_SYSTEM || o->target == CAPTURE_TARGET_CPUS) ? -1 : o->pid;
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	const struct capture_id *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* every open fd's id with its event, sorted, into el (which event made a sample: capture__parse_sample) */
static int index_ids(const struct capture *c, struct capture_evlist *el)
{
	struct capture_id *ids = calloc(c->nr_fds ? c->nr_fds : 1, sizeof(*ids));
	size_t n = 0;

	if (!ids)
		return -ENOMEM;
	for (size_t i = 0; i < c->nr_fds; i++) {
		if (c->fds[i].fd < 0)
			continue;
		ids[n].id = c->fds[i].id;
		ids[n++].ev = c->fds[i].ev;
	}
	qsort(ids, n, sizeof(*ids), cmp_id);
	free(el->ids);
	el->ids = ids;
	el->nr_ids = n;
	return 0;
}

int capture__open(struct capture *c, struct capture_evlist *el, const struct capture_opts *opts,
		  const struct log *log)
{
	size_t nr_cpus, nr_tids;
	int err;

	memset(c, 0, sizeof(*c));
	c->el = el;
	c->opts = *opts;
	c->log = log;
	err = setup_targets(c);
	if (err)
		goto out_close;
	nr_cpus = c->nr_cpus;
	nr_tids = c->nr_tids;
	if (el->nr > SIZE_MAX / sizeof(*c->fds) / nr_cpus / nr_tids) {
		err = -ENOMEM;
		goto out_close;
	}
	c->nr_fds = el->nr * nr_cpus * nr_tids;
	c->fds = calloc(c->nr_fds, sizeof(*c->fds));
	if (!c->fds) {
		err = -ENOMEM;
		goto out_close;
	}
	for (size_t i = 0; i < c->nr_fds; i++)
		c->fds[i].fd = -1;
	for (size_t ev = 0; ev < el->nr; ev++) {
		const struct capture_event *e = &el->events[ev];
		size_t opened = 0;

		for (size_t ci = 0; ci < nr_cpus; ci++) {
			for (size_t ti = 0; ti < nr_tids; ti++) {
				struct capture_fd *f = fd_at(c, ev, ci, ti);
				int group_fd = -1;

				f->ev = (int)ev;
				f->cpu = c->cpus[ci];
				f->tid = c->tids[ti];
				f->ring = -1;
				if (e->leader != (int)ev) {
					group_fd = fd_at(c, (size_t)e->leader, ci, ti)->fd;
					if (group_fd < 0)	/* leader skipped (thread gone) */
						continue;
				}
				f->fd = sys_perf_event_open((struct perf_event_attr *)&e->attr, f->tid, f->cpu,
							    group_fd, PERF_FLAG_FD_CLOEXEC);
				if (f->fd < 0 && (errno == EACCES || errno == EPERM) && !opened &&
				    !e->attr.exclude_kernel && !(e->terms & CAPTURE_TERM_PRIV) &&
				    kernel_fallback(c, &el->events[ev]) == 0)
					f->fd = sys_perf_event_open((struct perf_event_attr *)&e->attr, f->tid, f->cpu,
								    group_fd, PERF_FLAG_FD_CLOEXEC);
				if (f->fd < 0) {
					int e_no = errno;

					/* a thread of -p that exited meanwhile: perf skips it too */
					if (e_no == ESRCH && opts->target == CAPTURE_TARGET_PID && nr_tids > 1)
						continue;
					err = explain_open_error(c, e, f->cpu, f->tid, e_no);
					goto out_close;
				}
				opened++;
				if (ioctl(f->fd, PERF_EVENT_IOC_ID, &f->id) < 0) {
					err = -errno;
					log_msg(log, LOG_ERR, "PERF_EVENT_IOC_ID on event '%s': %s", e->name, strerror(errno));
					goto out_close;
				}
			}
		}
		if (!opened) {
			err = explain_open_error(c, e, -1, opts->pid, ESRCH);
			goto out_close;
		}
	}
	err = index_ids(c, el);
	if (!err)
		return 0;
out_close:
	capture__close(c);
	return err;
}

static int ioctl_leaders(struct capture *c, unsigned long req)
{
	for (size_t i = 0; i < c->nr_fds; i++) {
		const struct capture_fd *f = &c->fds[i];

		if (f->fd < 0 || c->el->events[f->ev].leader != f->ev)
			continue;
		if (ioctl(f->fd, req, 0) < 0)
			return -errno;
	}
	return 0;
}

int capture__enable(struct capture *c)
{
	return ioctl_leaders(c, PERF_EVENT_IOC_ENABLE);
}

int capture__disable(struct capture *c)
{
	return ioctl_leaders(c, PERF_EVENT_IOC_DISABLE);
}

int capture__event_ids(const struct capture *c, int ev, uint64_t **ids, size_t *nr)
{
	size_t per = c->nr_cpus * c->nr_tids, n = 0;
	uint64_t *out = calloc(per ? per : 1, sizeof(*out));

	if (!out)
		return -ENOMEM;
	for (size_t i = 0; i < per; i++) {
		const struct capture_fd *f = &c->fds[(size_t)ev * per + i];

		if (f->fd >= 0)
			out[n++] = f->id;
	}
	*ids = out;
	*nr = n;
	return 0;
}

int capture__mmap(struct capture *c, unsigned pages)
{
	int err;

	c->rings = calloc(c->nr_cpus, sizeof(*c->rings));
	if (!c->rings)
		return -ENOMEM;
	for (size_t ci = 0; ci < c->nr_cpus; ci++) {
		int out_fd = -1;

		for (size_t ev = 0; ev < c->el->nr; ev++) {
			for (size_t ti = 0; ti < c->nr_tids; ti++) {
				struct capture_fd *f = fd_at(c, ev, ci, ti);

				if (f->fd < 0)
					continue;
				if (out_fd < 0) {
					err = ringbuf__mmap(&c->rings[c->nr_rings], f->fd, f->cpu, pages);
					if (err) {
						log_msg(c->log, LOG_ERR, "mmap of the ring buffer for cpu %d (%u pages) failed: %s%s",
							f->cpu, pages, strerror(-err), err == -EPERM ?
							" (kernel.perf_event_mlock_kb limits locked memory; use fewer --mmap-pages)" : "");
						return err;
					}
					c->nr_rings++;
					out_fd = f->fd;
				} else if (ioctl(f->fd, PERF_EVENT_IOC_SET_OUTPUT, out_fd) < 0) {
					err = -errno;
					log_msg(c->log, LOG_ERR, "PERF_EVENT_IOC_SET_OUTPUT on cpu %d: %s", f->cpu, strerror(errno));
					return err;
				}
				f->ring = (int)c->nr_rings - 1;
			}
		}
	}
	return 0;
}

int capture__pollfds(const struct capture *c, struct pollfd **fds, size_t *nr)
{
	struct pollfd *p = calloc(c->nr_fds ? c->nr_fds : 1, sizeof(*p));
	size_t n = 0;

	if (!p)
		return -ENOMEM;
	/* every fd, not only the rings': a ring's own task may exit while redirected ones go on */
	for (size_t i = 0; i < c->nr_fds; i++) {
		if (c->fds[i].fd < 0 || c->fds[i].ring < 0)
			continue;
		p[n].fd = c->fds[i].fd;
		p[n].events = POLLIN;
		n++;
	}
	*fds = p;
	*nr = n;
	return 0;
}

long capture__read_pass(struct capture *c, capture_record_fn fn, void *ctx)
{
	long total = 0;

	for (size_t i = 0; i < c->nr_rings; i++) {
		struct ringbuf *rb = &c->rings[i];
		const void *rec;
		long n;

		if (!ringbuf__read_init(rb))
			continue;
		while ((n = ringbuf__read_event(rb, &rec)) > 0) {
			const struct perf_event_header *h = rec;
			int err;

			if (h->type == PERF_RECORD_LOST && n >= 24)
				c->lost += ((const uint64_t *)rec)[2];
			err = fn(ctx, rec, (size_t)n);
			if (err) {
				ringbuf__consume(rb);
				return err;
			}
			total++;
		}
		if (n < 0)
			log_msg(c->log, LOG_WARN, "ring buffer of cpu %d: record with a size below 8, rest of the pass dropped",
				rb->cpu);
		ringbuf__consume(rb);
	}
	return total;
}

int capture__scale(uint64_t val, uint64_t ena, uint64_t run, double *scaled)
{
	if (run == 0) {
		*scaled = 0;
		return 0;
	}
	if (run < ena)
		*scaled = (double)val * (double)ena / (double)run;
	else
		*scaled = (double)val;
	return 1;
}

int capture__read_count(const struct capture *c, int ev, struct capture_count *out)
{
	size_t per = c->nr_cpus * c->nr_tids;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < per; i++) {
		const struct capture_fd *f = &c->fds[(size_t)ev * per + i];
		uint64_t buf[3];
		ssize_t n;

		if (f->fd < 0)
			continue;
		n = read(f->fd, buf, sizeof(buf));
		if (n < 0)
			return -errno;
		if (n != sizeof(buf))
			return -EIO;
		out->val += buf[0];
		out->ena += buf[1];
		out->run += buf[2];
	}
	out->counted = capture__scale(out->val, out->ena, out->run, &out->scaled);
	return 0;
}

/* step *p over a PERF_SAMPLE_READ block of read_format rf (perf_event_open(2) "read_format") */
static int skip_read(uint64_t rf, const uint64_t **p, const uint64_t *end)
{
	uint64_t per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	uint64_t times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	uint64_t left = (uint64_t)(end - *p), need;

	if (!(rf & PERF_FORMAT_GROUP)) {
		need = per + times;
	} else {
		if (left < 1 || (*p)[0] > left / per)
			return -EINVAL;
		need = 1 + times + (*p)[0] * per;
	}
	if (need > left)
		return -EINVAL;
	*p += need;
	return 0;
}

/*
 * The attr a sample was made by: by its IDENTIFIER (the first u64 when the
 * events are several) in the ids capture__open() noted, else the first
 * event's (every event has the layout up to PERF_SAMPLE_READ in common)
 */
static const struct perf_event_attr *sample_attr(const struct capture_evlist *el, const uint64_t *p,
						 const uint64_t *end)
{
	size_t lo = 0, hi = el->nr_ids;

	if (!(el->events[0].attr.sample_type & PERF_SAMPLE_IDENTIFIER) || p >= end)
		return &el->events[0].attr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (el->ids[mid].id < *p)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < el->nr_ids && el->ids[lo].id == *p)
		return &el->events[el->ids[lo].ev].attr;
	return &el->events[0].attr;
}

int capture__parse_sample(const struct capture_evlist *el, const void *rec, size_t size,
			  struct capture_sample *s)
{
	const struct perf_event_header *h = rec;
	const uint64_t *p = (const uint64_t *)(h + 1);
	const uint64_t *end;
	uint64_t st;

	const struct perf_event_attr *attr;

	if (!el->nr || size < sizeof(*h) || size % 8)
		return -EINVAL;
	end = (const uint64_t *)((const char *)rec + size);
	attr = sample_attr(el, p, end);
	st = attr->sample_type;
	memset(s, 0, sizeof(*s));
	s->cpumode = h->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	/* fixed fields before the callchain: one u64 each */
	{
		uint64_t need = 0;
		const uint64_t bits[] = { PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME,
					  PERF_SAMPLE_ADDR, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
					  PERF_SAMPLE_PERIOD };

		for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
			need += !!(st & bits[i]);
		if (need > (uint64_t)(end - p))
			return -EINVAL;
	}
	if (st & PERF_SAMPLE_IDENTIFIER)
		p++;
	if (st & PERF_SAMPLE_IP)
		s->ip = *p++;
	if (st & PERF_SAMPLE_TID) {
		s->pid = (uint32_t)*p;
		s->tid = (uint32_t)(*p >> 32);
		p++;
	}
	if (st & PERF_SAMPLE_TIME)
		s->time = *p++;
	p += !!(st & PERF_SAMPLE_ADDR) + !!(st & PERF_SAMPLE_ID) + !!(st & PERF_SAMPLE_STREAM_ID) +
	     !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_PERIOD);
	if ((st & PERF_SAMPLE_READ) && skip_read(attr->read_format, &p, end))
		return -EINVAL;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (p >= end)
			return -EINVAL;
		s->nr_chain = *p++;
		if (s->nr_chain > (uint64_t)(end - p))
			return -EINVAL;
		s->chain = p;
	}
	return 0;
}

uint64_t capture__record_time(const struct capture_evlist *el, const void *rec, size_t size)
{
	const struct perf_event_header *h = rec;
	uint64_t st;
	size_t from_end = 0;

	if (!el->nr || size < sizeof(*h))
		return 0;
	if (h->type == PERF_RECORD_SAMPLE) {
		struct capture_sample s;

		return capture__parse_sample(el, rec, size, &s) ? 0 : s.time;
	}
	st = el->events[0].attr.sample_type;
	if (!el->events[0].attr.sample_id_all || !(st & PERF_SAMPLE_TIME) || h->type >= PERF_RECORD_MAX)
		return 0;
	/* trailer: TID TIME ID STREAM_ID CPU IDENTIFIER; count back from the end to TIME */
	from_end = 8;
	if (st & PERF_SAMPLE_IDENTIFIER)
		from_end += 8;
	if (st & PERF_SAMPLE_CPU)
		from_end += 8;
	if (st & PERF_SAMPLE_STREAM_ID)
		from_end += 8;
	if (st & PERF_SAMPLE_ID)
		from_end += 8;
	if (from_end > size - sizeof(*h))
		return 0;
	{
		uint64_t t;

		memcpy(&t, (const char *)rec + size - from_end, 8);
		return t;
	}
}

int capture__parse_clockid(const char *s, int *clockid)
{
	/* builtin-record.c clockids[]: names with and without CLOCK_, and short aliases */
	static const struct { const char *name; int id; } clocks[] = {
		{ "monotonic", CLOCK_MONOTONIC }, { "monotonic_raw", CLOCK_MONOTONIC_RAW },
		{ "realtime", CLOCK_REALTIME }, { "boottime", CLOCK_BOOTTIME }, { "tai", CLOCK_TAI },
		{ "mono", CLOCK_MONOTONIC }, { "raw", CLOCK_MONOTONIC_RAW }, { "real", CLOCK_REALTIME },
		{ "boot", CLOCK_BOOTTIME },
	};
	uint64_t v;

	if (!parse_u64(s, &v)) {
		if (v > INT32_MAX)
			return -EINVAL;
		*clockid = (int)v;
		return 0;
	}
	if (!strncasecmp(s, "CLOCK_", 6))
		s += 6;
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		if (!strcasecmp(s, clocks[i].name)) {
			*clockid = clocks[i].id;
			return 0;
		}
	}
	return -EINVAL;
}

int capture__parse_user_regs(const char *list, uint64_t *mask)
{
	/* arch/x86/util/perf_regs.c sample_reg_masks, in PERF_REG_X86_* order (asm/perf_regs.h) */
	static const char *const regs[] = {
		"ax", "bx", "cx", "dx", "si", "di", "bp", "sp", "ip", "flags", "cs", "ss", "ds", "es", "fs", "gs",
		"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
	};
	uint64_t m = 0;
	const char *p = list;

	if (!*list) {
		*mask = USER_REGS_MASK;
		return 0;
	}
	while (*p) {
		size_t n = strcspn(p, ","), i;

		for (i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
			if (strlen(regs[i]) == n && !strncasecmp(p, regs[i], n))
				break;
		if (i == sizeof(regs) / sizeof(regs[0]))
			return -EINVAL;
		m |= 1ULL << i;
		p += n;
		if (*p == ',' && *++p == '\0')
			return -EINVAL;
	}
	*mask = m;
	return 0;
}

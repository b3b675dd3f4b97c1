/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Every record type once: its name, the fields at fixed offsets (taken from
 * the layouts of layout.h, decoded into the typed view of record.h and
 * byte-swapped from the same list), and its own functions for what a list
 * of fixed fields cannot say (strings, arrays, parts that depend on misc
 * bits or on a format field) and for the dump.  A new record type is an
 * entry in types[] below plus its functions here.
 *
 * The swap follows the perf_event__*_swap() functions of
 * tools/perf/util/session.c (fields perf forgets to swap, such as MMAP2
 * prot/flags or KSYMBOL, are swapped here too).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "perffile/perffile.h"
#include "perffile/record-internal.h"

#define RP_RECORD_MISC_BUILD_ID_SIZE	(1 << 15)	/* perf/event.h */

/*
 * Field f of layout R into field v of view V (the two as wide), dumped as
 * " key=value" in format fmt ('u' decimal, 'd' signed decimal, 'x' hex; a
 * NULL key: the type's dump prints it, or not).
 */
#define FIELD(R, f, V, v, key, fmt) { offsetof(struct R, f), \
	sizeof(((struct R *)0)->f) + 0 * sizeof(char[sizeof(((struct R *)0)->f) == \
						     sizeof(((struct V *)0)->v) ? 1 : -1]), \
	offsetof(struct V, v), key, fmt }
/* field f of layout R, swapped but decoded by the type's own function (or not at all) */
#define SWAPPED(R, f) { offsetof(struct R, f), sizeof(((struct R *)0)->f), REC_NO_VIEW, NULL, 0 }
#define FIELDS(a) (uint16_t)(sizeof(a) / sizeof((a)[0])), a

/* an array of nr elements of one bytes at offset at: does it fit in size? 0 or -EINVAL */
static int array_fits(struct perf_record *rec, const char **why, const char *what, uint64_t nr,
		      size_t one, size_t at, size_t size)
{
	if (nr > (uint64_t)(size - at) / one)
		return rec_fail(rec, why, "%s nr %" PRIu64 " exceeds the record", what, nr);
	return 0;
}

/* the NUL-terminated string at offset at into *dst, or -EINVAL naming it */
static int str_field(struct perf_record *rec, const char **why, const uint8_t *b, size_t at,
		     size_t size, const char **dst, const char *name)
{
	*dst = str_within(b + at, b + size);
	return *dst ? 0 : rec_no_nul(rec, why, name);
}

/* ------------------------------------------------------------ MMAP, MMAP2 */

static const struct rec_field mmap_fields[] = {
	FIELD(perf_record_mmap, pid, perf_rec_mmap, pid, "pid", 'u'),
	FIELD(perf_record_mmap, tid, perf_rec_mmap, tid, "tid", 'u'),
	FIELD(perf_record_mmap, start, perf_rec_mmap, start, "start", 'x'),
	FIELD(perf_record_mmap, len, perf_rec_mmap, len, "len", 'x'),
	FIELD(perf_record_mmap, pgoff, perf_rec_mmap, pgoff, "pgoff", 'x'),
};
_Static_assert(offsetof(struct perf_record_mmap, pgoff) == offsetof(struct perf_record_mmap2, pgoff),
	       "MMAP and MMAP2 share their first fields");

static int decode_mmap(struct perf_record *rec, const uint8_t *b, size_t size,
		       const struct perf_evattr *ea, const char **why)
{
	(void)ea;
	return str_field(rec, why, b, offsetof(struct perf_record_mmap, filename), size,
			 &rec->u.mmap.filename, "filename");
}

/*
 * MMAP2 as first merged (Linux 3.12, and RHEL 7's 3.10) had no prot and
 * flags: the file name starts where prot is now.  Take that layout when the
 * name there fills the body exactly (the kernel pads it to 8 bytes) and the
 * would-be prot is no PROT_* value or no name fits at the filename's
 * offset.  prot is in host order.
 */
static int mmap2_without_prot(const uint8_t *b, size_t size, uint16_t misc, uint32_t prot)
{
	const size_t old_name = offsetof(struct perf_record_mmap2, prot);
	const size_t name = offsetof(struct perf_record_mmap2, filename);
	const uint8_t *nul;
	size_t len;

	if ((misc & PERF_RECORD_MISC_MMAP_BUILD_ID) || size <= old_name)
		return 0;
	nul = memchr(b + old_name, 0, size - old_name);
	if (!nul)
		return 0;
	len = (size_t)(nul - (b + old_name)) + 1;
	if (old_name + ((len + 7) & ~(size_t)7) != size)
		return 0;
	return prot > 7 || size <= name || !memchr(b + name, 0, size - name);
}

/* the prot word in host order (after a swap of the fields before it), or 0 */
static uint32_t mmap2_prot(const uint8_t *b, size_t size, int swapped)
{
	uint32_t prot;

	if (size < offsetof(struct perf_record_mmap2, flags))
		return 0;
	prot = (uint32_t)REC_LD(b, struct perf_record_mmap2, prot);
	return swapped ? bswap_32(prot) : prot;
}

static int decode_mmap2(struct perf_record *rec, const uint8_t *b, size_t size,
			const struct perf_evattr *ea, const char **why)
{
	const size_t need = offsetof(struct perf_record_mmap2, filename);
	struct perf_rec_mmap *m = &rec->u.mmap;
	int old;

	(void)ea;
	if (size < offsetof(struct perf_record_mmap2, prot))
		return rec_too_short(rec, why, need, size);
	old = mmap2_without_prot(b, size, rec->misc, mmap2_prot(b, size, 0));
	if (!old && size < need)
		return rec_too_short(rec, why, need, size);
	if (rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		m->build_id_size = (uint8_t)REC_LD(b, struct perf_record_mmap2, bid.build_id_size);
		if (m->build_id_size > 20)
			return rec_fail(rec, why, "build_id_size %u exceeds 20", m->build_id_size);
		m->build_id = b + offsetof(struct perf_record_mmap2, bid.build_id);
	} else {
		m->maj = (uint32_t)REC_LD(b, struct perf_record_mmap2, dev.maj);
		m->min = (uint32_t)REC_LD(b, struct perf_record_mmap2, dev.min);
		m->ino = REC_LD(b, struct perf_record_mmap2, dev.ino);
		m->ino_generation = REC_LD(b, struct perf_record_mmap2, dev.ino_generation);
	}
	if (old) {
		m->filename = (const char *)(b + offsetof(struct perf_record_mmap2, prot));
		return 0;
	}
	m->prot = (uint32_t)REC_LD(b, struct perf_record_mmap2, prot);
	m->flags = (uint32_t)REC_LD(b, struct perf_record_mmap2, flags);
	return str_field(rec, why, b, need, size, &m->filename, "filename");
}

static int swap_mmap2(uint8_t *b, size_t end, uint16_t misc, const char **why)
{
	(void)why;
	if (!(misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
		SWAP_AT(b, end, struct perf_record_mmap2, dev.maj);
		SWAP_AT(b, end, struct perf_record_mmap2, dev.min);
		SWAP_AT(b, end, struct perf_record_mmap2, dev.ino);
		SWAP_AT(b, end, struct perf_record_mmap2, dev.ino_generation);
	}
	if (!mmap2_without_prot(b, end, misc, mmap2_prot(b, end, 1))) {
		SWAP_AT(b, end, struct perf_record_mmap2, prot);
		SWAP_AT(b, end, struct perf_record_mmap2, flags);
	}
	return 0;
}

static void dump_mmap(struct dump *d, const struct perf_record *rec)
{
	const struct perf_rec_mmap *m = &rec->u.mmap;

	if (rec->type == PERF_RECORD_MMAP2) {
		if (m->build_id) {
			out_bytes(d, "build_id", m->build_id, m->build_id_size);
		} else {
			out(d, " maj=%" PRIu32 " min=%" PRIu32, m->maj, m->min);
			out_u(d, "ino", m->ino);
			out_u(d, "ino_generation", m->ino_generation);
		}
		out(d, " prot=0x%" PRIx32 " flags=0x%" PRIx32, m->prot, m->flags);
	}
	out_str(d, "filename", m->filename, SIZE_MAX);
}

/* ------------------------------------------------------------ COMM */

static const struct rec_field comm_fields[] = {
	FIELD(perf_record_comm, pid, perf_rec_comm, pid, "pid", 'u'),
	FIELD(perf_record_comm, tid, perf_rec_comm, tid, "tid", 'u'),
};

static int decode_comm(struct perf_record *rec, const uint8_t *b, size_t size,
		       const struct perf_evattr *ea, const char **why)
{
	(void)ea;
	rec->u.comm.exec = !!(rec->misc & PERF_RECORD_MISC_COMM_EXEC);
	return str_field(rec, why, b, offsetof(struct perf_record_comm, comm), size,
			 &rec->u.comm.comm, "comm");
}

static void dump_comm(struct dump *d, const struct perf_record *rec)
{
	out(d, " exec=%d", rec->u.comm.exec);
	out_str(d, "comm", rec->u.comm.comm, SIZE_MAX);
}

/* ------------------------------------------------------------ FORK, EXIT */

static const struct rec_field fork_fields[] = {
	FIELD(perf_record_fork, pid, perf_rec_fork, pid, "pid", 'u'),
	FIELD(perf_record_fork, ppid, perf_rec_fork, ppid, "ppid", 'u'),
	FIELD(perf_record_fork, tid, perf_rec_fork, tid, "tid", 'u'),
	FIELD(perf_record_fork, ptid, perf_rec_fork, ptid, "ptid", 'u'),
	FIELD(perf_record_fork, time, perf_rec_fork, time, "time", 'u'),
};

/* ------------------------------------------------------------ LOST, LOST_SAMPLES */

static const struct rec_field lost_fields[] = {
	FIELD(perf_record_lost, id, perf_rec_lost, id, "lost_id", 'x'),
	FIELD(perf_record_lost, lost, perf_rec_lost, lost, "lost", 'u'),
};

static const struct rec_field lost_samples_fields[] = {
	FIELD(perf_record_lost_samples, lost, perf_rec_lost, lost, "lost", 'u'),
};

/* ------------------------------------------------------------ THROTTLE, UNTHROTTLE */

static const struct rec_field throttle_fields[] = {
	FIELD(perf_record_throttle, time, perf_rec_throttle, time, "throttle_time", 'u'),
	FIELD(perf_record_throttle, id, perf_rec_throttle, id, "throttle_id", 'x'),
	FIELD(perf_record_throttle, stream_id, perf_rec_throttle, stream_id, "throttle_stream_id", 'x'),
};

/* ------------------------------------------------------------ READ */

static const struct rec_field read_fields[] = {
	FIELD(perf_record_read, pid, perf_rec_read, pid, "pid", 'u'),
	FIELD(perf_record_read, tid, perf_rec_read, tid, "tid", 'u'),
};

static int decode_read(struct perf_record *rec, const uint8_t *b, size_t size,
		       const struct perf_evattr *ea, const char **why)
{
	const uint8_t *p = b + offsetof(struct perf_record_read, values);

	/* without the attr the read_format is unknown: take the value alone */
	return rec_read_values(rec, &p, b + size, ea ? ea->attr.read_format : 0,
			       &rec->u.read.values, why);
}

static void dump_read(struct dump *d, const struct perf_record *rec)
{
	out_read(d, "values", &rec->u.read.values, rec->evattr ? rec->evattr->attr.read_format : 0);
}

/* ------------------------------------------------------------ AUX */

static const struct rec_field aux_fields[] = {
	FIELD(perf_record_aux, aux_offset, perf_rec_aux, aux_offset, "aux_offset", 'x'),
	FIELD(perf_record_aux, aux_size, perf_rec_aux, aux_size, "aux_size", 'x'),
	FIELD(perf_record_aux, flags, perf_rec_aux, flags, "flags", 'x'),
};

/* ------------------------------------------------------------ ITRACE_START */

static const struct rec_field itrace_start_fields[] = {
	FIELD(perf_record_itrace_start, pid, perf_rec_itrace_start, pid, "pid", 'u'),
	FIELD(perf_record_itrace_start, tid, perf_rec_itrace_start, tid, "tid", 'u'),
};

/* ------------------------------------------------------------ SWITCH, SWITCH_CPU_WIDE */

static const struct rec_field switch_cpu_wide_fields[] = {
	FIELD(perf_record_switch_cpu_wide, next_prev_pid, perf_rec_switch, next_prev_pid, NULL, 0),
	FIELD(perf_record_switch_cpu_wide, next_prev_tid, perf_rec_switch, next_prev_tid, NULL, 0),
};

static int decode_switch(struct perf_record *rec, const uint8_t *b, size_t size,
			 const struct perf_evattr *ea, const char **why)
{
	(void)b, (void)size, (void)ea, (void)why;
	rec->u.sw.out = !!(rec->misc & PERF_RECORD_MISC_SWITCH_OUT);
	rec->u.sw.preempt = !!(rec->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
	return 0;
}

static void dump_switch(struct dump *d, const struct perf_record *rec)
{
	out(d, " out=%d preempt=%d", rec->u.sw.out, rec->u.sw.preempt);
	if (rec->type == PERF_RECORD_SWITCH_CPU_WIDE)
		out(d, " next_prev_pid=%" PRIu32 " next_prev_tid=%" PRIu32,
		    rec->u.sw.next_prev_pid, rec->u.sw.next_prev_tid);
}

/* ------------------------------------------------------------ NAMESPACES */

static const struct rec_field namespaces_fields[] = {
	FIELD(perf_record_namespaces, pid, perf_rec_namespaces, pid, "pid", 'u'),
	FIELD(perf_record_namespaces, tid, perf_rec_namespaces, tid, "tid", 'u'),
	FIELD(perf_record_namespaces, nr_namespaces, perf_rec_namespaces, nr, "nr_namespaces", 'u'),
};

static int decode_namespaces(struct perf_record *rec, const uint8_t *b, size_t size,
			     const struct perf_evattr *ea, const char **why)
{
	const size_t at = offsetof(struct perf_record_namespaces, link_info);
	struct perf_rec_namespaces *ns = &rec->u.namespaces;

	(void)ea;
	if (array_fits(rec, why, "namespaces", ns->nr, sizeof(struct perf_ns_link_info), at, size))
		return -EINVAL;
	ns->link_info = (const uint64_t *)(const void *)(b + at);
	return 0;
}

static int swap_namespaces(uint8_t *b, size_t end, uint16_t misc, const char **why)
{
	uint64_t n = end >= offsetof(struct perf_record_namespaces, link_info) ?
		     REC_LD(b, struct perf_record_namespaces, nr_namespaces) : 0;

	(void)misc, (void)why;
	if (n <= UINT64_MAX / 2)
		swap_u64s(b, end, offsetof(struct perf_record_namespaces, link_info), 2 * n);
	return 0;
}

static void dump_namespaces(struct dump *d, const struct perf_record *rec)
{
	const struct perf_rec_namespaces *ns = &rec->u.namespaces;
	const uint8_t *l = (const void *)ns->link_info;
	uint64_t i;

	out(d, " link_info=[");
	for (i = 0; i < ns->nr; i++, l += sizeof(struct perf_ns_link_info))
		out(d, "%s0x%" PRIx64 "/%" PRIu64, i ? "," : "", REC_LD(l, struct perf_ns_link_info, dev),
		    REC_LD(l, struct perf_ns_link_info, ino));
	out(d, "]");
}

/* ------------------------------------------------------------ KSYMBOL */

static const struct rec_field ksymbol_fields[] = {
	FIELD(perf_record_ksymbol, addr, perf_rec_ksymbol, addr, "addr", 'x'),
	FIELD(perf_record_ksymbol, len, perf_rec_ksymbol, len, "len", 'u'),
	FIELD(perf_record_ksymbol, ksym_type, perf_rec_ksymbol, ksym_type, "ksym_type", 'u'),
	FIELD(perf_record_ksymbol, flags, perf_rec_ksymbol, flags, "flags", 'x'),
};

static int decode_ksymbol(struct perf_record *rec, const uint8_t *b, size_t size,
			  const struct perf_evattr *ea, const char **why)
{
	(void)ea;
	return str_field(rec, why, b, offsetof(struct perf_record_ksymbol, name), size,
			 &rec->u.ksymbol.name, "name");
}

static void dump_ksymbol(struct dump *d, const struct perf_record *rec)
{
	out_str(d, "name", rec->u.ksymbol.name, SIZE_MAX);
}

/* ------------------------------------------------------------ BPF_EVENT */

static const struct rec_field bpf_event_fields[] = {
	FIELD(perf_record_bpf_event, type, perf_rec_bpf_event, type, "bpf_type", 'u'),
	FIELD(perf_record_bpf_event, flags, perf_rec_bpf_event, flags, "flags", 'x'),
	FIELD(perf_record_bpf_event, id, perf_rec_bpf_event, id, "bpf_id", 'u'),
};

static int decode_bpf_event(struct perf_record *rec, const uint8_t *b, size_t size,
			    const struct perf_evattr *ea, const char **why)
{
	(void)size, (void)ea, (void)why;
	rec->u.bpf_event.tag = b + offsetof(struct perf_record_bpf_event, tag);
	return 0;
}

static void dump_bpf_event(struct dump *d, const struct perf_record *rec)
{
	out_bytes(d, "tag", rec->u.bpf_event.tag, sizeof(((struct perf_record_bpf_event *)0)->tag));
}

/* ------------------------------------------------------------ CGROUP */

static const struct rec_field cgroup_fields[] = {
	FIELD(perf_record_cgroup, id, perf_rec_cgroup, id, "cgroup_id", 'u'),
};

static int decode_cgroup(struct perf_record *rec, const uint8_t *b, size_t size,
			 const struct perf_evattr *ea, const char **why)
{
	(void)ea;
	return str_field(rec, why, b, offsetof(struct perf_record_cgroup, path), size,
			 &rec->u.cgroup.path, "path");
}

static void dump_cgroup(struct dump *d, const struct perf_record *rec)
{
	out_str(d, "path", rec->u.cgroup.path, SIZE_MAX);
}

/* ------------------------------------------------------------ TEXT_POKE */

static const struct rec_field text_poke_fields[] = {
	FIELD(perf_record_text_poke, addr, perf_rec_text_poke, addr, "addr", 'x'),
	FIELD(perf_record_text_poke, old_len, perf_rec_text_poke, old_len, "old_len", 'u'),
	FIELD(perf_record_text_poke, new_len, perf_rec_text_poke, new_len, "new_len", 'u'),
};

static int decode_text_poke(struct perf_record *rec, const uint8_t *b, size_t size,
			    const struct perf_evattr *ea, const char **why)
{
	const size_t at = offsetof(struct perf_record_text_poke, bytes);
	struct perf_rec_text_poke *t = &rec->u.text_poke;

	(void)ea;
	if ((uint64_t)t->old_len + t->new_len > size - at)
		return rec_fail(rec, why, "text_poke lengths %u + %u exceed the record",
				t->old_len, t->new_len);
	t->bytes = b + at;
	return 0;
}

static void dump_text_poke(struct dump *d, const struct perf_record *rec)
{
	out_bytes(d, "bytes", rec->u.text_poke.bytes,
		  (uint64_t)rec->u.text_poke.old_len + rec->u.text_poke.new_len);
}

/* ------------------------------------------------------------ AUX_OUTPUT_HW_ID */

static const struct rec_field aux_output_hw_id_fields[] = {
	FIELD(perf_record_aux_output_hw_id, hw_id, perf_rec_aux_output_hw_id, hw_id, "hw_id", 'x'),
};

/* ------------------------------------------------------------ CALLCHAIN_DEFERRED */

static const struct rec_field callchain_deferred_fields[] = {
	FIELD(perf_record_callchain_deferred, cookie, perf_rec_callchain_deferred, cookie, "cookie", 'x'),
	FIELD(perf_record_callchain_deferred, nr, perf_rec_callchain_deferred, nr, "nr", 'u'),
};

static int decode_callchain_deferred(struct perf_record *rec, const uint8_t *b, size_t size,
				     const struct perf_evattr *ea, const char **why)
{
	const size_t at = offsetof(struct perf_record_callchain_deferred, ips);
	struct perf_rec_callchain_deferred *c = &rec->u.callchain_deferred;

	(void)ea;
	if (array_fits(rec, why, "callchain", c->nr, sizeof(uint64_t), at, size))
		return -EINVAL;
	c->ips = (const uint64_t *)(const void *)(b + at);
	return 0;
}

static void dump_callchain_deferred(struct dump *d, const struct perf_record *rec)
{
	out_u64s(d, "ips", rec->u.callchain_deferred.ips, rec->u.callchain_deferred.nr);
}

/* ------------------------------------------------------------ HEADER_ATTR (pipe mode) */

/* attr.size of the record's attr (0 means VER0), or 0 when invalid */
static uint32_t header_attr_size(const uint8_t *b, size_t size, int swapped)
{
	uint32_t asz = (uint32_t)REC_LD(b, struct perf_record_header_attr, attr.size);

	if (swapped)
		asz = bswap_32(asz);
	if (!asz)
		asz = PERF_ATTR_SIZE_VER0;
	if (asz < PERF_ATTR_SIZE_VER0 || asz % 8 || asz > size - HDR)
		return 0;
	return asz;
}

static int decode_header_attr(struct perf_record *rec, const uint8_t *b, size_t size,
			      const struct perf_evattr *ea, const char **why)
{
	struct perf_rec_header_attr *h = &rec->u.header_attr;
	uint32_t asz = header_attr_size(b, size, 0);

	(void)ea;
	if (!asz)
		return rec_fail(rec, why, "attr.size %" PRIu64 " is invalid",
				REC_LD(b, struct perf_record_header_attr, attr.size));
	h->attr = b + offsetof(struct perf_record_header_attr, attr);
	h->attr_size = asz;
	h->ids = (const uint64_t *)(const void *)(b + HDR + asz);
	h->nr_ids = (size - HDR - asz) / 8;
	return 0;
}

static int swap_header_attr(uint8_t *b, size_t end, uint16_t misc, const char **why)
{
	uint32_t asz;

	(void)misc;
	if (end < HDR + PERF_ATTR_SIZE_VER0)
		return 0;
	asz = header_attr_size(b, end, 1);
	if (!asz) {
		*why = "ATTR attr.size is invalid";
		return -EINVAL;
	}
	perf_event_attr__swap(b + HDR, asz);
	swap_u64s(b, end, HDR + asz, UINT64_MAX);
	return 0;
}

static void dump_header_attr(struct dump *d, const struct perf_record *rec)
{
	const struct perf_rec_header_attr *h = &rec->u.header_attr;
	/* the flags word (bit-fields, no offsetof) follows read_format */
	const size_t flags = offsetof(struct perf_event_attr, read_format) + 8;
	const uint8_t *a = h->attr;

	out(d, " attr_size=%" PRIu32 " attr_type=%" PRIu64, h->attr_size,
	    REC_LD(a, struct perf_event_attr, type));
	out_x(d, "config", REC_LD(a, struct perf_event_attr, config));
	out_u(d, "sample_period", REC_LD(a, struct perf_event_attr, sample_period));
	out_x(d, "sample_type", REC_LD(a, struct perf_event_attr, sample_type));
	out_x(d, "read_format", REC_LD(a, struct perf_event_attr, read_format));
	out_x(d, "flags", ld64(a + flags));
	out_bytes(d, "attr", a + flags + 8, h->attr_size - (flags + 8));
	out_u64s(d, "ids", h->ids, h->nr_ids);
}

/* ------------------------------------------------------------ HEADER_EVENT_TYPE */

static const struct rec_field event_type_fields[] = {
	FIELD(perf_record_header_event_type, event_id, perf_rec_event_type, event_id, "event_id", 'u'),
};

static int decode_event_type(struct perf_record *rec, const uint8_t *b, size_t size,
			     const struct perf_evattr *ea, const char **why)
{
	const size_t at = offsetof(struct perf_record_header_event_type, name);
	struct perf_rec_event_type *et = &rec->u.event_type;
	size_t n;

	(void)ea, (void)why;
	et->name = str_within(b + at, b + size);
	if (et->name)
		return 0;
	/*
	 * perf_event__synthesize_event_type() sizes the record as
	 * PERF_ALIGN(strlen(name), 8): a name whose length is a multiple of 8
	 * comes without its NUL.
	 */
	n = size - at < sizeof(et->name_buf) - 1 ? size - at : sizeof(et->name_buf) - 1;
	memcpy(et->name_buf, b + at, n);
	et->name_buf[n] = '\0';
	et->name = et->name_buf;
	return 0;
}

static void dump_event_type(struct dump *d, const struct perf_record *rec)
{
	out_str(d, "name", rec->u.event_type.name, SIZE_MAX);
}

/* ------------------------------------------------------------ HEADER_TRACING_DATA */

static const struct rec_field tracing_data_fields[] = {
	FIELD(perf_record_header_tracing_data, size, perf_rec_tracing_data, size, "tracing_data_size", 'u'),
};

/* ------------------------------------------------------------ HEADER_BUILD_ID */

static const struct rec_field build_id_fields[] = {
	FIELD(perf_record_header_build_id, pid, perf_rec_build_id, pid, "pid", 'd'),
};

static int decode_build_id(struct perf_record *rec, const uint8_t *b, size_t size,
			   const struct perf_evattr *ea, const char **why)
{
	struct perf_rec_build_id *bi = &rec->u.build_id;

	(void)ea;
	bi->build_id = b + offsetof(struct perf_record_header_build_id, build_id);
	bi->size = 20;
	if (rec->misc & RP_RECORD_MISC_BUILD_ID_SIZE) {
		bi->size = (uint8_t)REC_LD(b, struct perf_record_header_build_id, sized.size);
		if (bi->size > 20)
			return rec_fail(rec, why, "build id size %u exceeds 20", bi->size);
	}
	return str_field(rec, why, b, offsetof(struct perf_record_header_build_id, filename), size,
			 &bi->filename, "filename");
}

static void dump_build_id(struct dump *d, const struct perf_record *rec)
{
	out_bytes(d, "build_id", rec->u.build_id.build_id, rec->u.build_id.size);
	out_str(d, "filename", rec->u.build_id.filename, SIZE_MAX);
}

/* ------------------------------------------------------------ ID_INDEX */

static int decode_id_index(struct perf_record *rec, const uint8_t *b, size_t size,
			   const struct perf_evattr *ea, const char **why)
{
	const size_t at = offsetof(struct perf_record_id_index, entries);
	const size_t one = sizeof(struct perf_record_id_index_entry);
	const size_t two = one + sizeof(struct perf_record_id_index_entry_2);
	struct perf_rec_id_index *ix = &rec->u.id_index;
	uint64_t room = size - at;

	(void)ea;
	ix->nr = REC_LD(b, struct perf_record_id_index, nr);
	if (array_fits(rec, why, "id_index", ix->nr, one, at, size))
		return -EINVAL;
	ix->entries = (const struct perf_rec_id_index_entry *)(const void *)(b + at);
	/* perf_event__process_id_index(): id_index_entry_2 follow when there is room */
	if (ix->nr && ix->nr <= room / two)
		ix->ext = (const uint64_t *)(const void *)(b + at + ix->nr * one);
	return 0;
}

static void dump_id_index(struct dump *d, const struct perf_record *rec)
{
	const struct perf_rec_id_index *ix = &rec->u.id_index;
	const uint8_t *e = (const void *)ix->entries, *x = (const void *)ix->ext;
	uint64_t i;

	out_u(d, "nr", ix->nr);
	out(d, " entries=[");
	for (i = 0; i < ix->nr; i++, e += sizeof(struct perf_record_id_index_entry)) {
		out(d, "%sid=0x%" PRIx64 "/idx=%" PRIu64 "/cpu=%" PRId64 "/tid=%" PRId64, i ? "," : "",
		    REC_LD(e, struct perf_record_id_index_entry, id),
		    REC_LD(e, struct perf_record_id_index_entry, idx),
		    (int64_t)REC_LD(e, struct perf_record_id_index_entry, cpu),
		    (int64_t)REC_LD(e, struct perf_record_id_index_entry, tid));
		if (x) {
			out(d, "/machine_pid=%" PRIu64 "/vcpu=%" PRIu64,
			    REC_LD(x, struct perf_record_id_index_entry_2, machine_pid),
			    REC_LD(x, struct perf_record_id_index_entry_2, vcpu));
			x += sizeof(struct perf_record_id_index_entry_2);
		}
	}
	out(d, "]");
}

/* ------------------------------------------------------------ AUXTRACE_INFO */

static const struct rec_field auxtrace_info_fields[] = {
	FIELD(perf_record_auxtrace_info, type, perf_rec_auxtrace_info, type, "auxtrace_type", 'u'),
	SWAPPED(perf_record_auxtrace_info, reserved),
};

static int decode_auxtrace_info(struct perf_record *rec, const uint8_t *b, size_t size,
				const struct perf_evattr *ea, const char **why)
{
	const size_t at = offsetof(struct perf_record_auxtrace_info, priv);

	(void)ea, (void)why;
	rec->u.auxtrace_info.nr_priv = (size - at) / 8;
	rec->u.auxtrace_info.priv = (const uint64_t *)(const void *)(b + at);
	return 0;
}

static void dump_auxtrace_info(struct dump *d, const struct perf_record *rec)
{
	out_u64s(d, "priv", rec->u.auxtrace_info.priv, rec->u.auxtrace_info.nr_priv);
}

/* ------------------------------------------------------------ AUXTRACE */

static const struct rec_field auxtrace_fields[] = {
	FIELD(perf_record_auxtrace, size, perf_rec_auxtrace, size, "aux_size", 'u'),
	FIELD(perf_record_auxtrace, offset, perf_rec_auxtrace, offset, "aux_offset", 'x'),
	FIELD(perf_record_auxtrace, reference, perf_rec_auxtrace, reference, "reference", 'x'),
	FIELD(perf_record_auxtrace, idx, perf_rec_auxtrace, idx, "idx", 'u'),
	FIELD(perf_record_auxtrace, tid, perf_rec_auxtrace, tid, "tid", 'd'),
	FIELD(perf_record_auxtrace, cpu, perf_rec_auxtrace, cpu, "cpu", 'd'),
	SWAPPED(perf_record_auxtrace, reserved),
};

/* ------------------------------------------------------------ AUXTRACE_ERROR */

static const struct rec_field auxtrace_error_fields[] = {
	FIELD(perf_record_auxtrace_error, type, perf_rec_auxtrace_error, type, "error_type", 'u'),
	FIELD(perf_record_auxtrace_error, code, perf_rec_auxtrace_error, code, "code", 'u'),
	FIELD(perf_record_auxtrace_error, cpu, perf_rec_auxtrace_error, cpu, "cpu", 'd'),
	FIELD(perf_record_auxtrace_error, pid, perf_rec_auxtrace_error, pid, "pid", 'd'),
	FIELD(perf_record_auxtrace_error, tid, perf_rec_auxtrace_error, tid, "tid", 'd'),
	FIELD(perf_record_auxtrace_error, fmt, perf_rec_auxtrace_error, fmt, "fmt", 'u'),
	FIELD(perf_record_auxtrace_error, ip, perf_rec_auxtrace_error, ip, "ip", 'x'),
	SWAPPED(perf_record_auxtrace_error, time),
	SWAPPED(perf_record_auxtrace_error, machine_pid),
	SWAPPED(perf_record_auxtrace_error, vcpu),
};

static int decode_auxtrace_error(struct perf_record *rec, const uint8_t *b, size_t size,
				 const struct perf_evattr *ea, const char **why)
{
	const size_t msg_end = offsetof(struct perf_record_auxtrace_error, machine_pid);
	struct perf_rec_auxtrace_error *e = &rec->u.auxtrace_error;

	(void)ea;
	if (e->fmt >= 1)
		e->time = REC_LD(b, struct perf_record_auxtrace_error, time);
	e->msg = str_within(b + offsetof(struct perf_record_auxtrace_error, msg),
			    b + (size < msg_end ? size : msg_end));
	if (!e->msg)
		return rec_no_nul(rec, why, "msg");
	if (e->fmt >= 2 && size >= sizeof(struct perf_record_auxtrace_error)) {
		e->machine_pid = (uint32_t)REC_LD(b, struct perf_record_auxtrace_error, machine_pid);
		e->vcpu = (uint32_t)REC_LD(b, struct perf_record_auxtrace_error, vcpu);
	}
	return 0;
}

static void dump_auxtrace_error(struct dump *d, const struct perf_record *rec)
{
	const struct perf_rec_auxtrace_error *e = &rec->u.auxtrace_error;

	if (e->fmt >= 1)
		out_u(d, "time", e->time);
	out_str(d, "msg", e->msg, SIZE_MAX);
	if (e->fmt >= 2)
		out(d, " machine_pid=%" PRIu32 " vcpu=%" PRIu32, e->machine_pid, e->vcpu);
}

/* ------------------------------------------------------------ THREAD_MAP */

static const struct rec_field thread_map_fields[] = {
	FIELD(perf_record_thread_map, nr, perf_rec_thread_map, nr, "nr", 'u'),
};

static int decode_thread_map(struct perf_record *rec, const uint8_t *b, size_t size,
			     const struct perf_evattr *ea, const char **why)
{
	const size_t at = offsetof(struct perf_record_thread_map, entries);

	(void)ea;
	if (array_fits(rec, why, "thread_map", rec->u.thread_map.nr,
		       sizeof(struct perf_record_thread_map_entry), at, size))
		return -EINVAL;
	rec->u.thread_map.entries = b + at;
	return 0;
}

static int swap_thread_map(uint8_t *b, size_t end, uint16_t misc, const char **why)
{
	const size_t one = sizeof(struct perf_record_thread_map_entry);
	size_t off = offsetof(struct perf_record_thread_map, entries);
	uint64_t i, n = end >= off ? REC_LD(b, struct perf_record_thread_map, nr) : 0;

	(void)misc, (void)why;
	for (i = 0; i < n && off + 8 <= end; i++, off += one)
		SWAP_AT(b + off, end - off, struct perf_record_thread_map_entry, pid);
	return 0;
}

static void dump_thread_map(struct dump *d, const struct perf_record *rec)
{
	const uint8_t *e = rec->u.thread_map.entries;
	uint64_t i;

	out(d, " threads=[");
	for (i = 0; i < rec->u.thread_map.nr; i++, e += sizeof(struct perf_record_thread_map_entry)) {
		out(d, "%s%" PRId64, i ? "," : "",
		    (int64_t)REC_LD(e, struct perf_record_thread_map_entry, pid));
		out_str(d, "/comm", (const char *)e + offsetof(struct perf_record_thread_map_entry, comm),
			sizeof(((struct perf_record_thread_map_entry *)0)->comm));
	}
	out(d, "]");
}

/* ------------------------------------------------------------ cpu maps: CPU_MAP, EVENT_UPDATE */

/* struct perf_record_cpu_map_data at p, len bytes */
static int decode_cpu_map_data(struct perf_record *rec, const uint8_t *p, size_t len,
			       struct perf_rec_cpu_map *m, const char **why)
{
	uint64_t nr;
	size_t at;

	if (len < sizeof(uint16_t))
		return rec_fail(rec, why, "cpu map of %zu bytes has no type", len);
	m->type = (uint16_t)REC_LD(p, struct perf_cpu_map_cpus, type);
	switch (m->type) {
	case CPU_MAP_CPUS:
		at = offsetof(struct perf_cpu_map_cpus, cpu);
		if (len < at)
			return rec_fail(rec, why, "cpu map nr exceeds the record");
		nr = REC_LD(p, struct perf_cpu_map_cpus, nr);
		if (array_fits(rec, why, "cpu map", nr, sizeof(uint16_t), at, len))
			return -EINVAL;
		m->nr = nr;
		m->data = p + at;
		break;
	case CPU_MAP_MASK:
		if (len < offsetof(struct perf_cpu_map_mask32, mask))
			return rec_fail(rec, why, "cpu map mask exceeds the record");
		nr = REC_LD(p, struct perf_cpu_map_mask32, nr);
		m->long_size = (unsigned)REC_LD(p, struct perf_cpu_map_mask32, long_size);
		if (m->long_size == 4)
			at = offsetof(struct perf_cpu_map_mask32, mask);
		else if (m->long_size == 8)
			at = offsetof(struct perf_cpu_map_mask64, mask);
		else
			return rec_fail(rec, why, "cpu map long_size %u is neither 4 nor 8", m->long_size);
		if (len < at)
			return rec_fail(rec, why, "cpu map mask nr %" PRIu64 " exceeds the record", nr);
		if (array_fits(rec, why, "cpu map mask", nr, m->long_size, at, len))
			return -EINVAL;
		m->nr = nr;
		m->data = p + at;
		break;
	case CPU_MAP_RANGE:
		if (len < sizeof(struct perf_cpu_map_range))
			return rec_fail(rec, why, "cpu map range exceeds the record");
		m->any_cpu = (uint8_t)REC_LD(p, struct perf_cpu_map_range, any_cpu);
		m->start_cpu = (uint16_t)REC_LD(p, struct perf_cpu_map_range, start_cpu);
		m->end_cpu = (uint16_t)REC_LD(p, struct perf_cpu_map_range, end_cpu);
		break;
	default:
		/* a newer encoding: keep the type only */
		break;
	}
	return 0;
}

static void swap_cpu_map_data(uint8_t *b, size_t end, size_t off)
{
	uint8_t *p = b + off;
	size_t left = end > off ? end - off : 0;
	uint64_t nr, i;

	switch (SWAP_AT(p, left, struct perf_cpu_map_cpus, type)) {
	case CPU_MAP_CPUS:
		nr = SWAP_AT(p, left, struct perf_cpu_map_cpus, nr);
		for (i = 0; i < nr; i++)
			swap_at(p, left, offsetof(struct perf_cpu_map_cpus, cpu) + 2 * i, 2);
		break;
	case CPU_MAP_MASK:
		nr = SWAP_AT(p, left, struct perf_cpu_map_mask32, nr);
		switch (SWAP_AT(p, left, struct perf_cpu_map_mask32, long_size)) {
		case 4:
			for (i = 0; i < nr; i++)
				swap_at(p, left, offsetof(struct perf_cpu_map_mask32, mask) + 4 * i, 4);
			break;
		case 8:
			for (i = 0; i < nr; i++)
				swap_at(p, left, offsetof(struct perf_cpu_map_mask64, mask) + 8 * i, 8);
			break;
		default:
			break;
		}
		break;
	case CPU_MAP_RANGE:
		SWAP_AT(p, left, struct perf_cpu_map_range, start_cpu);
		SWAP_AT(p, left, struct perf_cpu_map_range, end_cpu);
		break;
	default:
		break;
	}
}

static void dump_cpu_map_data(struct dump *d, const struct perf_rec_cpu_map *m)
{
	const uint8_t *p = m->data;
	uint64_t i;

	out(d, " map_type=%u", m->type);
	switch (m->type) {
	case CPU_MAP_CPUS:
		out(d, " cpus=[");
		for (i = 0; i < m->nr; i++)
			out(d, "%s%u", i ? "," : "", ld16(p + 2 * i));
		out(d, "]");
		break;
	case CPU_MAP_MASK:
		out(d, " long_size=%u mask=[", m->long_size);
		for (i = 0; i < m->nr; i++) {
			if (m->long_size == 4)
				out(d, "%s0x%" PRIx32, i ? "," : "", ld32(p + 4 * i));
			else
				out(d, "%s0x%" PRIx64, i ? "," : "", ld64(p + 8 * i));
		}
		out(d, "]");
		break;
	case CPU_MAP_RANGE:
		out(d, " any_cpu=%u start_cpu=%u end_cpu=%u", m->any_cpu, m->start_cpu, m->end_cpu);
		break;
	default:
		break;
	}
}

static int decode_cpu_map(struct perf_record *rec, const uint8_t *b, size_t size,
			  const struct perf_evattr *ea, const char **why)
{
	(void)ea;
	return decode_cpu_map_data(rec, b + HDR, size - HDR, &rec->u.cpu_map, why);
}

static int swap_cpu_map(uint8_t *b, size_t end, uint16_t misc, const char **why)
{
	(void)misc, (void)why;
	swap_cpu_map_data(b, end, offsetof(struct perf_record_cpu_map, data));
	return 0;
}

static void dump_cpu_map(struct dump *d, const struct perf_record *rec)
{
	dump_cpu_map_data(d, &rec->u.cpu_map);
}

/* ------------------------------------------------------------ STAT_CONFIG, STAT, STAT_ROUND */

static int decode_stat_config(struct perf_record *rec, const uint8_t *b, size_t size,
			      const struct perf_evattr *ea, const char **why)
{
	const size_t at = offsetof(struct perf_record_stat_config, data);

	(void)ea;
	rec->u.stat_config.nr = REC_LD(b, struct perf_record_stat_config, nr);
	if (array_fits(rec, why, "stat_config", rec->u.stat_config.nr,
		       sizeof(struct perf_record_stat_config_entry), at, size))
		return -EINVAL;
	rec->u.stat_config.data = (const uint64_t *)(const void *)(b + at);
	return 0;
}

static void dump_stat_config(struct dump *d, const struct perf_record *rec)
{
	const uint8_t *e = (const void *)rec->u.stat_config.data;
	uint64_t i;

	out_u(d, "nr", rec->u.stat_config.nr);
	out(d, " config=[");
	for (i = 0; i < rec->u.stat_config.nr; i++, e += sizeof(struct perf_record_stat_config_entry))
		out(d, "%s%" PRIu64 ":%" PRIu64, i ? "," : "",
		    REC_LD(e, struct perf_record_stat_config_entry, tag),
		    REC_LD(e, struct perf_record_stat_config_entry, val));
	out(d, "]");
}

static const struct rec_field stat_fields[] = {
	FIELD(perf_record_stat, id, perf_rec_stat, id, "stat_id", 'x'),
	FIELD(perf_record_stat, cpu, perf_rec_stat, cpu, "cpu", 'd'),
	FIELD(perf_record_stat, thread, perf_rec_stat, thread, "thread", 'd'),
	FIELD(perf_record_stat, val, perf_rec_stat, val, "val", 'u'),
	FIELD(perf_record_stat, ena, perf_rec_stat, ena, "ena", 'u'),
	FIELD(perf_record_stat, run, perf_rec_stat, run, "run", 'u'),
};

static const struct rec_field stat_round_fields[] = {
	FIELD(perf_record_stat_round, type, perf_rec_stat_round, type, "round_type", 'u'),
	FIELD(perf_record_stat_round, time, perf_rec_stat_round, time, "time", 'u'),
};

/* ------------------------------------------------------------ EVENT_UPDATE */

static const struct rec_field event_update_fields[] = {
	FIELD(perf_record_event_update, type, perf_rec_event_update, type, "update_type", 'u'),
	FIELD(perf_record_event_update, id, perf_rec_event_update, id, "update_id", 'x'),
};

static int decode_event_update(struct perf_record *rec, const uint8_t *b, size_t size,
			       const struct perf_evattr *ea, const char **why)
{
	const size_t at = offsetof(struct perf_record_event_update, data);
	struct perf_rec_event_update *ev = &rec->u.event_update;

	(void)ea;
	ev->data = b + at;
	ev->data_size = size - at;
	switch (ev->type) {
	case EVENT_UPDATE_UNIT:
	case EVENT_UPDATE_NAME:
		ev->str = str_within(b + at, b + size);
		return ev->str ? 0 : rec_no_nul(rec, why, ev->type ? "name" : "unit");
	case EVENT_UPDATE_SCALE:
		if (size < at + sizeof(ev->scale))
			return rec_too_short(rec, why, at + sizeof(ev->scale), size);
		memcpy(&ev->scale, b + at, sizeof(ev->scale));
		return 0;
	case EVENT_UPDATE_CPUS:
		return decode_cpu_map_data(rec, b + at, size - at, &ev->cpus, why);
	default:
		return 0;
	}
}

static int swap_event_update(uint8_t *b, size_t end, uint16_t misc, const char **why)
{
	const size_t at = offsetof(struct perf_record_event_update, data);
	uint64_t type = end >= at ? REC_LD(b, struct perf_record_event_update, type) : 0;

	(void)misc, (void)why;
	if (type == EVENT_UPDATE_SCALE)
		SWAP_AT(b, end, struct perf_record_event_update, data.scale);
	else if (type == EVENT_UPDATE_CPUS)
		swap_cpu_map_data(b, end, at);
	return 0;
}

static void dump_event_update(struct dump *d, const struct perf_record *rec)
{
	const struct perf_rec_event_update *ev = &rec->u.event_update;

	if (ev->str)
		out_str(d, ev->type ? "name" : "unit", ev->str, SIZE_MAX);
	else if (ev->type == EVENT_UPDATE_SCALE)
		out(d, " scale=%.17g", ev->scale);
	else if (ev->type == EVENT_UPDATE_CPUS)
		dump_cpu_map_data(d, &ev->cpus);
	else
		out_bytes(d, "data", ev->data, ev->data_size);
}

/* ------------------------------------------------------------ TIME_CONV */

static const struct rec_field time_conv_fields[] = {
	FIELD(perf_record_time_conv, time_shift, perf_rec_time_conv, time_shift, "time_shift", 'u'),
	FIELD(perf_record_time_conv, time_mult, perf_rec_time_conv, time_mult, "time_mult", 'u'),
	FIELD(perf_record_time_conv, time_zero, perf_rec_time_conv, time_zero, "time_zero", 'u'),
	FIELD(perf_record_time_conv, time_cycles, perf_rec_time_conv, time_cycles, NULL, 0),
	FIELD(perf_record_time_conv, time_mask, perf_rec_time_conv, time_mask, NULL, 0),
	FIELD(perf_record_time_conv, cap_user_time_zero, perf_rec_time_conv, cap_user_time_zero, NULL, 0),
	FIELD(perf_record_time_conv, cap_user_time_short, perf_rec_time_conv, cap_user_time_short, NULL, 0),
};

static int decode_time_conv(struct perf_record *rec, const uint8_t *b, size_t size,
			    const struct perf_evattr *ea, const char **why)
{
	(void)b, (void)ea, (void)why;
	rec->u.time_conv.has_ext = size >= sizeof(struct perf_record_time_conv);
	return 0;
}

static void dump_time_conv(struct dump *d, const struct perf_record *rec)
{
	const struct perf_rec_time_conv *tc = &rec->u.time_conv;

	if (tc->has_ext) {
		out_u(d, "time_cycles", tc->time_cycles);
		out_x(d, "time_mask", tc->time_mask);
		out(d, " cap_user_time_zero=%u cap_user_time_short=%u",
		    tc->cap_user_time_zero, tc->cap_user_time_short);
	}
}

/* ------------------------------------------------------------ HEADER_FEATURE */

static const struct rec_field feature_fields[] = {
	FIELD(perf_record_header_feature, feat_id, perf_rec_feature, feat_id, "feat_id", 'u'),
};

static int decode_feature(struct perf_record *rec, const uint8_t *b, size_t size,
			  const struct perf_evattr *ea, const char **why)
{
	const size_t at = offsetof(struct perf_record_header_feature, data);

	(void)ea, (void)why;
	rec->u.feature.data = b + at;
	rec->u.feature.size = size - at;
	return 0;
}

static void dump_feature(struct dump *d, const struct perf_record *rec)
{
	/* the section stays in file byte order: its size only, so both orders dump alike */
	out_u(d, "data_size", rec->u.feature.size);
}

/* ------------------------------------------------------------ COMPRESSED, COMPRESSED2 */

static int decode_compressed(struct perf_record *rec, const uint8_t *b, size_t size,
			     const struct perf_evattr *ea, const char **why)
{
	const size_t at = offsetof(struct perf_record_compressed, data);

	(void)ea, (void)why;
	rec->u.compressed.data = b + at;
	rec->u.compressed.size = size - at;
	return 0;
}

static const struct rec_field compressed2_fields[] = {
	FIELD(perf_record_compressed2, data_size, perf_rec_compressed, size, NULL, 0),
};

static int decode_compressed2(struct perf_record *rec, const uint8_t *b, size_t size,
			      const struct perf_evattr *ea, const char **why)
{
	const size_t at = offsetof(struct perf_record_compressed2, data);

	(void)ea;
	if (rec->u.compressed.size > size - at)
		return rec_fail(rec, why, "data_size %" PRIu64 " exceeds the record",
				rec->u.compressed.size);
	rec->u.compressed.data = b + at;
	return 0;
}

static void dump_compressed(struct dump *d, const struct perf_record *rec)
{
	out_u(d, "data_size", rec->u.compressed.size);
	out_bytes(d, "data", rec->u.compressed.data, rec->u.compressed.size);
}

/* ------------------------------------------------------------ the table */

/* a type whose body is the SAMPLE fields (dumped with them) or empty */
static void dump_nothing(struct dump *d, const struct perf_record *rec)
{
	(void)d, (void)rec;
}

#define SIZE(R) (uint16_t)sizeof(struct R)
#define AT(R, f) (uint16_t)offsetof(struct R, f)

static const struct rec_type types[] = {
	[PERF_RECORD_MMAP] = { "MMAP", AT(perf_record_mmap, filename), 0, FIELDS(mmap_fields),
			       decode_mmap, NULL, dump_mmap },
	/* the old layout without prot and flags is shorter: decode_mmap2 checks the size */
	[PERF_RECORD_MMAP2] = { "MMAP2", 0, 0, FIELDS(mmap_fields), decode_mmap2, swap_mmap2, dump_mmap },
	[PERF_RECORD_LOST] = { "LOST", SIZE(perf_record_lost), 0, FIELDS(lost_fields),
			       NULL, NULL, NULL },
	[PERF_RECORD_COMM] = { "COMM", AT(perf_record_comm, comm), 0, FIELDS(comm_fields),
			       decode_comm, NULL, dump_comm },
	[PERF_RECORD_EXIT] = { "EXIT", SIZE(perf_record_fork), 0, FIELDS(fork_fields),
			       NULL, NULL, NULL },
	[PERF_RECORD_THROTTLE] = { "THROTTLE", SIZE(perf_record_throttle), 0, FIELDS(throttle_fields),
				   NULL, NULL, NULL },
	[PERF_RECORD_UNTHROTTLE] = { "UNTHROTTLE", SIZE(perf_record_throttle), 0,
				     FIELDS(throttle_fields), NULL, NULL, NULL },
	[PERF_RECORD_FORK] = { "FORK", SIZE(perf_record_fork), 0, FIELDS(fork_fields),
			       NULL, NULL, NULL },
	[PERF_RECORD_READ] = { "READ", AT(perf_record_read, values) + 8, AT(perf_record_read, values),
			       FIELDS(read_fields), decode_read, NULL, dump_read },
	[PERF_RECORD_SAMPLE] = { "SAMPLE", .dump = dump_nothing },	/* record.c: decode_sample() */
	[PERF_RECORD_AUX] = { "AUX", SIZE(perf_record_aux), 0, FIELDS(aux_fields),
			      NULL, NULL, NULL },
	[PERF_RECORD_ITRACE_START] = { "ITRACE_START", SIZE(perf_record_itrace_start), 0,
				       FIELDS(itrace_start_fields), NULL, NULL, NULL },
	[PERF_RECORD_LOST_SAMPLES] = { "LOST_SAMPLES", SIZE(perf_record_lost_samples), 0,
				       FIELDS(lost_samples_fields), NULL, NULL, NULL },
	[PERF_RECORD_SWITCH] = { "SWITCH", 0, 0, 0, NULL, decode_switch, NULL, dump_switch },
	[PERF_RECORD_SWITCH_CPU_WIDE] = { "SWITCH_CPU_WIDE", SIZE(perf_record_switch_cpu_wide), 0,
					  FIELDS(switch_cpu_wide_fields), decode_switch, NULL,
					  dump_switch },
	[PERF_RECORD_NAMESPACES] = { "NAMESPACES", AT(perf_record_namespaces, link_info), 0,
				     FIELDS(namespaces_fields), decode_namespaces, swap_namespaces,
				     dump_namespaces },
	[PERF_RECORD_KSYMBOL] = { "KSYMBOL", AT(perf_record_ksymbol, name), 0, FIELDS(ksymbol_fields),
				  decode_ksymbol, NULL, dump_ksymbol },
	[PERF_RECORD_BPF_EVENT] = { "BPF_EVENT", SIZE(perf_record_bpf_event), 0,
				    FIELDS(bpf_event_fields), decode_bpf_event, NULL, dump_bpf_event },
	[PERF_RECORD_CGROUP] = { "CGROUP", AT(perf_record_cgroup, path), 0, FIELDS(cgroup_fields),
				 decode_cgroup, NULL, dump_cgroup },
	[PERF_RECORD_TEXT_POKE] = { "TEXT_POKE", AT(perf_record_text_poke, bytes), 0,
				    FIELDS(text_poke_fields), decode_text_poke, NULL, dump_text_poke },
	[PERF_RECORD_AUX_OUTPUT_HW_ID] = { "AUX_OUTPUT_HW_ID", SIZE(perf_record_aux_output_hw_id), 0,
					   FIELDS(aux_output_hw_id_fields), NULL, NULL,
					   NULL },
	[RP_RECORD_CALLCHAIN_DEFERRED] = { "CALLCHAIN_DEFERRED", AT(perf_record_callchain_deferred, ips),
					   AT(perf_record_callchain_deferred, ips),
					   FIELDS(callchain_deferred_fields),
					   decode_callchain_deferred, NULL, dump_callchain_deferred },

	[PERF_RECORD_HEADER_ATTR] = { "ATTR", (uint16_t)(HDR + PERF_ATTR_SIZE_VER0), 0, 0, NULL,
				      decode_header_attr, swap_header_attr, dump_header_attr },
	[PERF_RECORD_HEADER_EVENT_TYPE] = { "EVENT_TYPE", AT(perf_record_header_event_type, name), 0,
					    FIELDS(event_type_fields), decode_event_type, NULL,
					    dump_event_type },
	[PERF_RECORD_HEADER_TRACING_DATA] = { "TRACING_DATA", SIZE(perf_record_header_tracing_data), 0,
					      FIELDS(tracing_data_fields), NULL, NULL,
					      NULL },
	[PERF_RECORD_HEADER_BUILD_ID] = { "BUILD_ID", AT(perf_record_header_build_id, filename), 0,
					  FIELDS(build_id_fields), decode_build_id, NULL,
					  dump_build_id },
	[PERF_RECORD_FINISHED_ROUND] = { "FINISHED_ROUND", .dump = dump_nothing },
	[PERF_RECORD_ID_INDEX] = { "ID_INDEX", AT(perf_record_id_index, entries),
				   AT(perf_record_id_index, nr), 0, NULL, decode_id_index, NULL,
				   dump_id_index },
	[PERF_RECORD_AUXTRACE_INFO] = { "AUXTRACE_INFO", AT(perf_record_auxtrace_info, priv),
					AT(perf_record_auxtrace_info, priv),
					FIELDS(auxtrace_info_fields), decode_auxtrace_info, NULL,
					dump_auxtrace_info },
	[PERF_RECORD_AUXTRACE] = { "AUXTRACE", SIZE(perf_record_auxtrace), 0, FIELDS(auxtrace_fields),
				   NULL, NULL, NULL },
	[PERF_RECORD_AUXTRACE_ERROR] = { "AUXTRACE_ERROR", AT(perf_record_auxtrace_error, msg) + 1, 0,
					 FIELDS(auxtrace_error_fields), decode_auxtrace_error, NULL,
					 dump_auxtrace_error },
	[PERF_RECORD_THREAD_MAP] = { "THREAD_MAP", AT(perf_record_thread_map, entries), 0,
				     FIELDS(thread_map_fields), decode_thread_map, swap_thread_map,
				     dump_thread_map },
	[PERF_RECORD_CPU_MAP] = { "CPU_MAP", 0, 0, 0, NULL, decode_cpu_map, swap_cpu_map,
				  dump_cpu_map },
	[PERF_RECORD_STAT_CONFIG] = { "STAT_CONFIG", AT(perf_record_stat_config, data),
				      AT(perf_record_stat_config, nr), 0, NULL, decode_stat_config,
				      NULL, dump_stat_config },
	[PERF_RECORD_STAT] = { "STAT", SIZE(perf_record_stat), 0, FIELDS(stat_fields),
			       NULL, NULL, NULL },
	[PERF_RECORD_STAT_ROUND] = { "STAT_ROUND", SIZE(perf_record_stat_round), 0,
				     FIELDS(stat_round_fields), NULL, NULL, NULL },
	[PERF_RECORD_EVENT_UPDATE] = { "EVENT_UPDATE", AT(perf_record_event_update, data), 0,
				       FIELDS(event_update_fields), decode_event_update,
				       swap_event_update, dump_event_update },
	[PERF_RECORD_TIME_CONV] = { "TIME_CONV", AT(perf_record_time_conv, time_cycles), 0,
				    FIELDS(time_conv_fields), decode_time_conv, NULL, dump_time_conv },
	[PERF_RECORD_HEADER_FEATURE] = { "FEATURE", AT(perf_record_header_feature, data), 0,
					 FIELDS(feature_fields), decode_feature, NULL, dump_feature },
	[PERF_RECORD_COMPRESSED] = { "COMPRESSED", 0, 0, 0, NULL, decode_compressed, NULL,
				     dump_compressed },
	[PERF_RECORD_FINISHED_INIT] = { "FINISHED_INIT", .dump = dump_nothing },
	[PERF_RECORD_COMPRESSED2] = { "COMPRESSED2", AT(perf_record_compressed2, data), 0,
				      FIELDS(compressed2_fields), decode_compressed2, NULL,
				      dump_compressed },
	[84] = { "BPF_METADATA" },	/* newer perf */
	[85] = { "SCHEDSTAT_CPU" },
	[86] = { "SCHEDSTAT_DOMAIN" },
};

const struct rec_type *rec_type__get(uint32_t type)
{
	if (type >= sizeof(types) / sizeof(types[0]) || !types[type].name)
		return NULL;
	return &types[type];
}

const char *perf_record_type__name(uint32_t type)
{
	const struct rec_type *t = rec_type__get(type);

	return t ? t->name : NULL;
}

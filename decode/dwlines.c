/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Source lines through elfutils libdw (dwlines.h), in place of libbfd's
 * DWARF reader, which parses every unit of a file at its first lookup.
 * The unit of an address comes from .debug_aranges (dwarf_addrdie); units
 * that have no aranges entry are found through their own DW_AT_ranges or
 * low/high pc, collected once, at the first address aranges miss.  Within
 * the unit: the line-table row (dwarf_getsrc_die) and the DIEs whose pc
 * ranges hold the address, walked from the unit DIE.
 *
 * Follows binutils 2.40 bfd/dwarf2.c where it decides what a report shows:
 * concat_filename (a relative name gets DW_AT_comp_dir in front; file 0
 * before DWARF 5 or a file past the table is "<unknown>"), a function's
 * name (DW_AT_linkage_name over DW_AT_name, through abstract_origin and
 * specification), the inliner chain (each inlined_subroutine's call site
 * and the function around it, up to the first DW_TAG_subprogram), and
 * lookup_symbol_in_function_table (bfd_find_line: the function DIE at the
 * address whose name is the symbol's).
 *
 * libdw reports a failure without telling out-of-memory apart (its
 * allocator's own failure ends the process); a failed lookup is "no line".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dwarf.h>
#include <elfutils/libdw.h>

#include "decode/dwlines.h"

/* the deepest DIE nesting walked (blocks and inlined calls) */
#define MAX_DEPTH 64

struct cu_range {
	uint64_t start, end;
	Dwarf_Off die;		/* the unit DIE's offset */
};

struct dwlines {
	int fd;
	Elf *elf;
	Dwarf *dw;
	char *joined[MAX_DEPTH + 1];	/* comp_dir joins of the current call */
	size_t nr_joined;
	int fallback_done;
	struct cu_range *ranges;	/* units without aranges, by start */
	size_t nr_ranges;
};

int dwlines__open(struct dwlines **out, const char *path)
{
	struct dwlines *w;
	int err;

	*out = NULL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	elf_version(EV_CURRENT);
	w->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (w->fd < 0) {
		err = -errno;
		free(w);
		return err;
	}
	w->elf = elf_begin(w->fd, ELF_C_READ_MMAP, NULL);
	w->dw = w->elf ? dwarf_begin_elf(w->elf, DWARF_C_READ, NULL) : NULL;
	if (!w->dw) {
		dwlines__delete(w);
		return 0;
	}
	*out = w;
	return 0;
}

static void drop_joined(struct dwlines *w)
{
	while (w->nr_joined)
		free(w->joined[--w->nr_joined]);
}

void dwlines__delete(struct dwlines *w)
{
	if (!w)
		return;
	drop_joined(w);
	if (w->dw)
		dwarf_end(w->dw);
	if (w->elf)
		elf_end(w->elf);
	close(w->fd);
	free(w->ranges);
	free(w);
}

static int range_cmp(const void *pa, const void *pb)
{
	const struct cu_range *a = pa, *b = pb;

	return a->start < b->start ? -1 : a->start > b->start;
}

static int off_cmp(const void *pa, const void *pb)
{
	const Dwarf_Off *a = pa, *b = pb;

	return *a < *b ? -1 : *a > *b;
}

/* the unit DIE offsets .debug_aranges names, sorted (malloc'd; NULL with *n 0 when none) */
static int aranges_units(struct dwlines *w, Dwarf_Off **offs, size_t *n)
{
	Dwarf_Aranges *ar;
	size_t nar = 0, i;

	*offs = NULL;
	*n = 0;
	if (dwarf_getaranges(w->dw, &ar, &nar) != 0 || !nar)
		return 0;
	*offs = calloc(nar, sizeof(**offs));
	if (!*offs)
		return -ENOMEM;
	for (i = 0; i < nar; i++)
		if (dwarf_getarangeinfo(dwarf_onearange(ar, i), NULL, NULL, &(*offs)[*n]) == 0)
			(*n)++;
	qsort(*offs, *n, sizeof(**offs), off_cmp);
	return 0;
}

static int add_range(struct dwlines *w, size_t *cap, uint64_t start, uint64_t end, Dwarf_Off die)
{
	if (w->nr_ranges == *cap) {
		size_t nc = *cap ? 2 * *cap : 16;
		struct cu_range *r = nc < SIZE_MAX / sizeof(*r) ? realloc(w->ranges, nc * sizeof(*r)) : NULL;

		if (!r)
			return -ENOMEM;
		w->ranges = r;
		*cap = nc;
	}
	w->ranges[w->nr_ranges++] = (struct cu_range){ start, end, die };
	return 0;
}

/* the pc ranges of every compile unit .debug_aranges leaves out, once */
static int build_fallback(struct dwlines *w)
{
	Dwarf_Off off = 0, next, *covered, die;
	size_t hsize, ncovered, cap = 0;
	int err;

	w->fallback_done = 1;
	err = aranges_units(w, &covered, &ncovered);
	if (err)
		return err;
	while (!err && dwarf_next_unit(w->dw, off, &next, &hsize, NULL, NULL, NULL, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Addr base, start, end;
		ptrdiff_t it = 0;

		die = off + hsize;
		off = next;
		if ((ncovered && bsearch(&die, covered, ncovered, sizeof(*covered), off_cmp)) ||
		    !dwarf_offdie(w->dw, die, &cu) || dwarf_tag(&cu) != DW_TAG_compile_unit)
			continue;
		while (!err && (it = dwarf_ranges(&cu, it, &base, &start, &end)) > 0)
			if (end > start)
				err = add_range(w, &cap, start, end, die);
	}
	free(covered);
	if (!err && w->nr_ranges)
		qsort(w->ranges, w->nr_ranges, sizeof(*w->ranges), range_cmp);
	return err;
}

/* the unit holding addr: 1 with *cu set, 0 none, -ENOMEM */
static int find_cu(struct dwlines *w, uint64_t addr, Dwarf_Die *cu)
{
	size_t lo = 0, hi, back;
	int err;

	if (dwarf_addrdie(w->dw, addr, cu))
		return 1;
	if (!w->fallback_done && (err = build_fallback(w)))
		return err;
	hi = w->nr_ranges;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (w->ranges[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* overlapping unit ranges are rare: look a few back */
	for (back = 0; lo > 0 && back < 8; lo--, back++) {
		const struct cu_range *r = &w->ranges[lo - 1];

		if (addr < r->end)
			return dwarf_offdie(w->dw, r->die, cu) != NULL;
	}
	return 0;
}

static int is_function(int tag)
{
	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine || tag == DW_TAG_entry_point;
}

/* DIEs that hold code of their own: walked into when their ranges hold the address */
static int is_pc_scope(int tag)
{
	return is_function(tag) || tag == DW_TAG_lexical_block || tag == DW_TAG_try_block ||
	       tag == DW_TAG_catch_block || tag == DW_TAG_with_stmt;
}

/*
 * The function DIEs holding addr below parent, outermost first, appended
 * to fn[*n..max): DIEs with pc ranges first; only when none holds addr,
 * namespaces and modules (whose functions may be defined inside them).
 * 1 when a DIE held addr.
 */
static int walk(Dwarf_Die *parent, uint64_t addr, Dwarf_Die *fn, size_t *n, size_t max, int depth)
{
	Dwarf_Die child;
	int pass;

	if (depth >= MAX_DEPTH)
		return 0;
	for (pass = 0; pass < 2; pass++) {
		if (dwarf_child(parent, &child) != 0)
			return 0;
		do {
			int tag = dwarf_tag(&child);

			if (pass == 0 && is_pc_scope(tag) && dwarf_haspc(&child, addr) > 0) {
				if (is_function(tag) && *n < max)
					fn[(*n)++] = child;
				walk(&child, addr, fn, n, max, depth + 1);
				return 1;
			}
			if (pass == 1 && (tag == DW_TAG_namespace || tag == DW_TAG_module) &&
			    walk(&child, addr, fn, n, max, depth + 1))
				return 1;
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	return 0;
}

/*
 * bfd's function name: DW_AT_linkage_name (or the MIPS one), else
 * DW_AT_name, integrated.  bfd 2.40 names a C++ function without a linkage
 * name by the ELF symbol at the address the first time it finds it as the
 * innermost one, and by DW_AT_name after that; this is DW_AT_name always.
 */
static const char *die_name(Dwarf_Die *die)
{
	static const unsigned names[] = { DW_AT_linkage_name, DW_AT_MIPS_linkage_name, DW_AT_name };
	Dwarf_Attribute a;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *s = dwarf_formstring(dwarf_attr_integrate(die, names[i], &a));

		if (s)
			return s;
	}
	return NULL;
}

/*
 * name as bfd's concat_filename gives it: relative ones get the unit's
 * DW_AT_comp_dir in front.  libdw has already put the directory entry in
 * front, which before DWARF 5 is comp_dir itself for directory 0: such a
 * name is kept.  NULL when out of memory.
 */
static const char *join(struct dwlines *w, Dwarf_Die *cu, Dwarf_Half version, const char *name)
{
	Dwarf_Attribute a;
	const char *dir;
	size_t dl;
	char *p;

	if (name[0] == '/' || !(dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &a))))
		return name;
	dl = strlen(dir);
	if (version < 5 && !strncmp(name, dir, dl) && name[dl] == '/')
		return name;
	if (w->nr_joined == sizeof(w->joined) / sizeof(w->joined[0]) ||
	    asprintf(&p, "%s/%s", dir, name) < 0)
		return NULL;
	w->joined[w->nr_joined++] = p;
	return p;
}

/* file idx of the unit cu belongs to, as concat_filename names it; NULL when out of memory */
static const char *unit_file(struct dwlines *w, struct Dwarf_CU *unit, Dwarf_Word idx)
{
	Dwarf_Die cu;
	Dwarf_Half version;
	Dwarf_Files *files;
	size_t nf;
	const char *name;

	if (!dwarf_cu_die(unit, &cu, NULL, NULL, NULL, NULL, NULL, NULL) ||
	    dwarf_cu_info(unit, &version, NULL, NULL, NULL, NULL, NULL, NULL) != 0 ||
	    (version < 5 && idx == 0) || dwarf_getsrcfiles(&cu, &files, &nf) != 0 || idx >= nf ||
	    !(name = dwarf_filesrc(files, idx, NULL, NULL)))
		return "<unknown>";
	return join(w, &cu, version, name);
}

/* a file attribute (DW_AT_decl_file, DW_AT_call_file) of die, integrated or not; NULL when absent */
static const char *file_attr(struct dwlines *w, Dwarf_Die *die, unsigned at, int integrate, int *nomem)
{
	Dwarf_Attribute a, *p = integrate ? dwarf_attr_integrate(die, at, &a) : dwarf_attr(die, at, &a);
	Dwarf_Word idx;
	const char *f;

	if (!p || dwarf_formudata(p, &idx) != 0)
		return NULL;
	f = unit_file(w, p->cu, idx);
	if (!f)
		*nomem = 1;
	return f;
}

static unsigned line_attr(Dwarf_Die *die, unsigned at, int integrate)
{
	Dwarf_Attribute a, *p = integrate ? dwarf_attr_integrate(die, at, &a) : dwarf_attr(die, at, &a);
	Dwarf_Word v;

	return p && dwarf_formudata(p, &v) == 0 && v <= UINT32_MAX ? (unsigned)v : 0;
}

/* the function DIEs at addr, innermost first, up to the first subprogram: their number */
static int functions_at(uint64_t addr, Dwarf_Die *cu, Dwarf_Die *fn)
{
	Dwarf_Die top[MAX_DEPTH];
	size_t n = 0, first = 0, i;

	walk(cu, addr, top, &n, MAX_DEPTH, 0);
	/* the outermost of the chain is the innermost non-inlined function (a nested function's own) */
	for (i = n; i-- > 0;)
		if (dwarf_tag(&top[i]) != DW_TAG_inlined_subroutine) {
			first = i;
			break;
		}
	for (i = first; i < n; i++)
		fn[n - 1 - i] = top[i];
	return (int)(n - first);
}

int dwlines__frames(struct dwlines *w, uint64_t addr, struct dwframe *frames, size_t max)
{
	Dwarf_Die cu, fn[MAX_DEPTH], *innermost;
	Dwarf_Line *row;
	Dwarf_Half version = 4;
	int nomem = 0, nfn, got;
	size_t n = 0, i;

	drop_joined(w);
	got = max ? find_cu(w, addr, &cu) : 0;
	if (got <= 0)
		return got;
	dwarf_cu_info(cu.cu, &version, NULL, NULL, NULL, NULL, NULL, NULL);
	/* one frame is the line alone: no DIE walk */
	nfn = max > 1 ? functions_at(addr, &cu, fn) : 0;
	row = dwarf_getsrc_die(&cu, addr);
	if (!row && !nfn)
		return 0;
	frames[0].file = NULL;
	frames[0].line = 0;
	if (row) {
		const char *f = dwarf_linesrc(row, NULL, NULL);
		int line = 0;

		frames[0].file = f ? join(w, &cu, version, f) : NULL;
		nomem = f && !frames[0].file;
		dwarf_lineno(row, &line);
		frames[0].line = line > 0 ? (unsigned)line : 0;
	}
	innermost = nfn ? &fn[0] : NULL;
	frames[0].func = innermost ? die_name(innermost) : NULL;
	for (n = 1, i = 1; i < (size_t)nfn && n < max; i++, n++) {
		frames[n].file = file_attr(w, &fn[i - 1], DW_AT_call_file, 0, &nomem);
		frames[n].line = line_attr(&fn[i - 1], DW_AT_call_line, 0);
		frames[n].func = die_name(&fn[i]);
	}
	return nomem ? -ENOMEM : (int)n;
}

int dwlines__decl(struct dwlines *w, uint64_t addr, const char *raw, const char **file, unsigned *line)
{
	Dwarf_Die cu, fn[MAX_DEPTH];
	int nomem = 0, nfn, got;
	size_t i;

	drop_joined(w);
	if ((got = find_cu(w, addr, &cu)) <= 0)
		return got;
	nfn = functions_at(addr, &cu, fn);
	for (i = 0; i < (size_t)nfn; i++) {
		const char *name = die_name(&fn[i]);

		if (!name || !strstr(raw, name))
			continue;
		*file = file_attr(w, &fn[i], DW_AT_decl_file, 1, &nomem);
		if (nomem)
			return -ENOMEM;
		if (!*file)
			continue;
		*line = line_attr(&fn[i], DW_AT_decl_line, 1);
		return 1;
	}
	return 0;
}

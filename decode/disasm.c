/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Disassembly of an ELF dso's function with libopcodes (binutils' dis-asm.h,
 * the engine of objdump -d and perf annotate), for annotate.csv and readperf
 * annotate.  The architecture is the binary's (bfd arch and mach), the text
 * objdump -d --no-show-raw-insn's (AT&T on x86), and an address an
 * instruction names (a branch target, a RIP-relative operand) is printed as
 * objdump prints it: "1139 <hot_big+0x19>".
 *
 * The symbol for such an address follows binutils 2.40 objdump.c: the main
 * file's .symtab, else its .dynsym, without useless symbols
 * (remove_useless_symbols), plus the synthetic "@plt" symbols, sorted by
 * compare_symbols for the section being disassembled; the first of the
 * symbols at the closest address below, one of the same section preferred
 * (find_symbol_for_address); a dynamic relocation at the address names it
 * when no symbol starts there ("# 3fd8 <__cxa_finalize@GLIBC_2.2.5>");
 * versions as objdump_print_symname, no demangling (objdump without -C).
 * The table is made once per dso and kept until its bfd is closed.
 * A stripped binary whose symbols came from its debug file (libc's, from
 * libc6-dbg) names an address as perf annotate does, by the debug file's
 * symbol that holds it ("95140 <malloc_consolidate>", "<main_arena+0x60>"),
 * not by the .dynsym symbol before it that objdump -d on the binary prints
 * ("<timer_settime@GLIBC_2.2.5+0xc50>"); a GOT entry by its dynamic
 * relocation ("<_rtld_global_ro@GLIBC_PRIVATE>"), the rest as objdump.
 */
#include "decode/bfdlib.h"

#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "util/strbuf.h"
#include "decode/symbols_internal.h"

/* the longest function disassembled: a bound on what a bad symbol size may ask */
#define DISASM_MAX_BYTES (16u << 20)

struct disasm_syms {
	asymbol **file_syms;	/* .symtab or .dynsym, canonical (owned) */
	asymbol **dyn_syms;	/* .dynsym, for the dynamic relocations (owned) */
	asymbol *synth;		/* bfd_get_synthetic_symtab's (owned) */
	asymbol **sorted;	/* objdump's sorted_syms */
	long nr_sorted;
	arelent **dynrels;	/* sorted by address */
	long nr_dynrels;
	asection *sorted_for;	/* the section sorted was sorted for */
};

/* what the disassembler callbacks see */
struct disasm_ctx {
	struct disassemble_info info;
	bfd *abfd;
	struct disasm_syms *t;
	const struct sym *funcs;	/* a stripped binary's symbols from its debug file (sorted by start), else NULL */
	size_t nr_funcs;
	struct strbuf text;
	int err;
};

static int is_significant(const char *name)
{
	return !strncmp(name, ".plt", 4) || !strncmp(name, ".got", 4);
}

static long remove_useless(asymbol **v, long n)
{
	long i, out = 0;

	for (i = 0; i < n; i++) {
		asymbol *sym = v[i];

		if (!sym->name || !sym->name[0])
			continue;
		if ((sym->flags & (BSF_DEBUGGING | BSF_SECTION_SYM)) && !is_significant(sym->name))
			continue;
		if (bfd_is_und_section(sym->section) || bfd_is_com_section(sym->section))
			continue;
		v[out++] = sym;
	}
	return out;
}

static int file_symbol(const asymbol *s, const char *n, size_t l)
{
	return (s->flags & BSF_FILE) || (l > 2 && n[l - 2] == '.' && (n[l - 1] == 'o' || n[l - 1] == 'a'));
}

static int flag_order(flagword a, flagword b, flagword bit, int set_first)
{
	if ((a & bit) == (b & bit))
		return 0;
	return ((a & bit) != 0) == set_first ? -1 : 1;
}

static bfd_vma elf_size(const asymbol *s)
{
	if ((s->flags & (BSF_SECTION_SYM | BSF_SYNTHETIC)) || bfd_get_flavour(bfd_asymbol_bfd(s)) != bfd_target_elf_flavour)
		return 0;
	return dso__elf_sym_size(s);
}

/* objdump's compare_symbols; arg: the section being disassembled */
static int cmp_syms(const void *pa, const void *pb, void *arg)
{
	const asection *cmp_section = arg;
	const asymbol *a = *(const asymbol *const *)pa, *b = *(const asymbol *const *)pb;
	const char *an = bfd_asymbol_name(a), *bn = bfd_asymbol_name(b);
	size_t anl = strlen(an), bnl = strlen(bn);
	int as, bs, r;
	bfd_vma asz, bsz;

	if (bfd_asymbol_value(a) != bfd_asymbol_value(b))
		return bfd_asymbol_value(a) > bfd_asymbol_value(b) ? 1 : -1;
	as = !strcmp(cmp_section->name, a->section->name);
	bs = !strcmp(cmp_section->name, b->section->name);
	if (as != bs)
		return as ? -1 : 1;
	as = strstr(an, "gnu_compiled") || strstr(an, "gcc2_compiled");
	bs = strstr(bn, "gnu_compiled") || strstr(bn, "gcc2_compiled");
	if (as != bs)
		return as ? 1 : -1;
	as = file_symbol(a, an, anl);
	bs = file_symbol(b, bn, bnl);
	if (as != bs)
		return as ? 1 : -1;
	if ((r = flag_order(a->flags, b->flags, BSF_DEBUGGING, 0)) ||
	    (r = flag_order(a->flags, b->flags, BSF_SECTION_SYM, 0)) ||
	    (r = flag_order(a->flags, b->flags, BSF_FUNCTION, 1)) ||
	    (r = flag_order(a->flags, b->flags, BSF_OBJECT, 1)) ||
	    (r = flag_order(a->flags, b->flags, BSF_LOCAL, 0)) ||
	    (r = flag_order(a->flags, b->flags, BSF_GLOBAL, 1)))
		return r;
	asz = elf_size(a);
	bsz = elf_size(b);
	if (asz != bsz)
		return asz > bsz ? -1 : 1;
	if ((an[0] == '.') != (bn[0] == '.'))
		return an[0] == '.' ? 1 : -1;
	return strcmp(an, bn);
}

static int cmp_relocs(const void *pa, const void *pb)
{
	const arelent *a = *(const arelent *const *)pa, *b = *(const arelent *const *)pb;

	if (a->address != b->address)
		return a->address > b->address ? 1 : -1;
	return a > b ? 1 : a < b ? -1 : 0;
}

/* a canonical table (dynamic or not) of abfd, or NULL with *n 0; -ENOMEM in *err */
static asymbol **read_table(bfd *abfd, int dynamic, long *n, int *err)
{
	long sz = dynamic ? bfd_get_dynamic_symtab_upper_bound(abfd) : bfd_get_symtab_upper_bound(abfd);
	asymbol **v;

	*n = 0;
	if (sz <= 0 || (!dynamic && !(bfd_get_file_flags(abfd) & HAS_SYMS)))
		return NULL;
	v = malloc((size_t)sz);
	if (!v) {
		*err = -ENOMEM;
		return NULL;
	}
	*n = dynamic ? bfd_canonicalize_dynamic_symtab(abfd, v) : bfd_canonicalize_symtab(abfd, v);
	if (*n < 0)
		*n = 0;
	return v;
}

static int read_dynrels(bfd *abfd, struct disasm_syms *t)
{
	long sz = bfd_get_dynamic_reloc_upper_bound(abfd);

	if (sz <= 0 || !t->dyn_syms)
		return 0;
	t->dynrels = malloc((size_t)sz);
	if (!t->dynrels)
		return -ENOMEM;
	t->nr_dynrels = bfd_canonicalize_dynamic_reloc(abfd, t->dynrels, t->dyn_syms);
	if (t->nr_dynrels < 0)
		t->nr_dynrels = 0;
	qsort(t->dynrels, (size_t)t->nr_dynrels, sizeof(*t->dynrels), cmp_relocs);
	return 0;
}

/* objdump's sorted_syms and dynrelbuf for abfd */
static int make_table(bfd *abfd, struct disasm_syms *t)
{
	long nsyms, ndyn, nsynth, i;
	asymbol **syms;
	int err = 0;

	syms = read_table(abfd, 0, &nsyms, &err);
	t->dyn_syms = read_table(abfd, 1, &ndyn, &err);
	t->file_syms = syms;
	if (err)
		return err;
	nsynth = bfd_get_synthetic_symtab(abfd, nsyms, syms, ndyn, t->dyn_syms, &t->synth);
	if (nsynth < 0)
		nsynth = 0;
	t->sorted = malloc(((size_t)(nsyms ? nsyms : ndyn) + (size_t)nsynth + 1) * sizeof(*t->sorted));
	if (!t->sorted)
		return -ENOMEM;
	if (nsyms || ndyn)
		memcpy(t->sorted, nsyms ? syms : t->dyn_syms, (size_t)(nsyms ? nsyms : ndyn) * sizeof(*t->sorted));
	t->nr_sorted = remove_useless(t->sorted, nsyms ? nsyms : ndyn);
	for (i = 0; i < nsynth; i++)
		t->sorted[t->nr_sorted++] = &t->synth[i];
	return read_dynrels(abfd, t);
}

void disasm__release(struct disasm_syms *t)
{
	if (!t)
		return;
	free(t->file_syms);
	free(t->dyn_syms);
	free(t->synth);
	free(t->sorted);
	free(t->dynrels);
	free(t);
}

static int sym_ok(const struct disasm_ctx *c, long i, int want_section)
{
	const asection *ss = c->t->sorted[i]->section, *sec = c->info.section;

	if (!want_section)
		return 1;
	if (ss->owner == sec->owner && ss != sec)
		return 0;
	return !strcmp(bfd_section_name(ss), bfd_section_name(sec));
}

/* the dynamic relocation's symbol at vma, or NULL (objdump: a better name than a symbol below) */
static asymbol *dynrel_symbol(const struct disasm_ctx *c, bfd_vma vma)
{
	arelent **lo = c->t->dynrels, **hi, **at;

	if (!c->t->nr_dynrels)
		return NULL;
	hi = lo + c->t->nr_dynrels - 1;
	if (lo[0]->address > vma || hi[0]->address < vma)
		return NULL;
	while (lo <= hi) {
		arelent **mid = &lo[(hi - lo) / 2];

		if ((*mid)->address == vma) {
			for (at = mid; at > c->t->dynrels && at[-1]->address == vma; at--)
				;
			for (; at < c->t->dynrels + c->t->nr_dynrels && (*at)->address == vma; at++)
				if ((*at)->sym_ptr_ptr && !bfd_is_abs_section((*(*at)->sym_ptr_ptr)->section))
					return *(*at)->sym_ptr_ptr;
			return NULL;
		}
		if (vma < (*mid)->address)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* objdump's find_symbol_for_address */
static asymbol *find_symbol(const struct disasm_ctx *c, bfd_vma vma)
{
	asymbol **v = c->t->sorted;
	long lo = 0, hi = c->t->nr_sorted, place, i, best;
	const asection *sec = c->info.section;
	int want_section;

	if (c->t->nr_sorted < 1)
		return NULL;
	while (lo + 1 < hi) {
		long mid = (lo + hi) / 2;

		if (bfd_asymbol_value(v[mid]) > vma)
			hi = mid;
		else if (bfd_asymbol_value(v[mid]) < vma)
			lo = mid;
		else {
			lo = mid;
			break;
		}
	}
	place = lo;
	while (place > 0 && bfd_asymbol_value(v[place]) == bfd_asymbol_value(v[place - 1]))
		place--;
	for (i = place; i < hi && bfd_asymbol_value(v[i]) == bfd_asymbol_value(v[place]); i++)
		if (sym_ok(c, i, 1))
			return v[i];
	want_section = (bfd_get_file_flags(c->abfd) & HAS_RELOC) && vma >= bfd_section_vma(sec) &&
		       vma < bfd_section_vma(sec) + bfd_section_size(sec);
	if (!sym_ok(c, place, want_section)) {
		best = c->t->nr_sorted;
		for (i = i - 1; i >= 0; i--) {
			if (!sym_ok(c, i, want_section))
				continue;
			if (best == c->t->nr_sorted)
				best = i;
			if (bfd_asymbol_value(v[i]) != bfd_asymbol_value(v[best]))
				break;
			best = i;
		}
		for (i = place + 1; best == c->t->nr_sorted && i < c->t->nr_sorted; i++)
			if (sym_ok(c, i, want_section))
				best = i;
		if (best == c->t->nr_sorted)
			return NULL;
		place = best;
	}
	if (!want_section && bfd_asymbol_value(v[place]) != vma && !(v[place]->flags & BSF_SYNTHETIC)) {
		asymbol *r = dynrel_symbol(c, vma);

		if (r)
			return r;
	}
	return v[place];
}

static void add_text(struct disasm_ctx *c, const char *fmt, va_list ap)
{
	char buf[512];
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);

	if (n < 0)
		return;
	if (strbuf__add(&c->text, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1))
		c->err = -ENOMEM;
}

__attribute__((format(printf, 2, 3)))
static int collect(void *stream, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_text(stream, fmt, ap);
	va_end(ap);
	return 0;
}

__attribute__((format(printf, 3, 4)))
static int collect_styled(void *stream, enum disassembler_style style, const char *fmt, ...)
{
	va_list ap;

	(void)style;
	va_start(ap, fmt);
	add_text(stream, fmt, ap);
	va_end(ap);
	return 0;
}

static void print_symname(struct disasm_ctx *c, asymbol *sym)
{
	const char *ver = NULL;
	bool hidden = false;

	if (!(sym->flags & (BSF_SECTION_SYM | BSF_SYNTHETIC)))
		ver = bfd_get_symbol_version_string(c->abfd, sym, true, &hidden);
	if (bfd_is_und_section(bfd_asymbol_section(sym)))
		hidden = true;
	collect(c, "%s", bfd_asymbol_name(sym));
	if (ver && *ver)
		collect(c, hidden ? "@%s" : "@@%s", ver);
}

/* objdump's compare_symbols among symbols at one address: not local first, then global, then by name */
static int sym_preferred(const struct sym *a, const struct sym *b)
{
	if ((a->bind == STB_LOCAL) != (b->bind == STB_LOCAL))
		return b->bind == STB_LOCAL;
	if ((a->bind == STB_GLOBAL) != (b->bind == STB_GLOBAL))
		return a->bind == STB_GLOBAL;
	return strcmp(a->name, b->name) < 0;
}

/*
 * The symbol of v (sorted by start) at the closest address at or below vma,
 * whatever its size (objdump's find_symbol_for_address), the preferred of
 * those there; NULL when none
 */
static const struct sym *sym_below(const struct sym *v, size_t n, uint64_t vma)
{
	size_t lo = symtab__starts_upto(v, n, vma), i;
	const struct sym *best;

	if (!lo)
		return NULL;
	best = &v[lo - 1];
	for (i = lo - 1; i > 0 && v[i - 1].start == best->start; i--)
		if (sym_preferred(&v[i - 1], best))
			best = &v[i - 1];
	return best;
}

/* objdump_print_addr_with_sym, addresses without leading zeros */
static void print_address(bfd_vma vma, struct disassemble_info *info)
{
	struct disasm_ctx *c = info->application_data;
	/* the debug file's symbol holding vma, but a GOT entry by its dynamic relocation's symbol, as objdump */
	const struct sym *f = c->funcs && !dynrel_symbol(c, vma) ? sym_below(c->funcs, c->nr_funcs, vma) : NULL;
	size_t n = f ? strlen(f->name) : 0;
	asymbol *sym;

	/* PLT entries as objdump's synthetic symbols name them ("*ABS*+0x9c840@plt" for an IRELATIVE one) */
	if (f && !(n >= 4 && !strcmp(f->name + n - 4, "@plt"))) {
		collect(c, "%" PRIx64 " <%s", (uint64_t)vma, f->name);
		if (vma != f->start)
			collect(c, "+0x%" PRIx64, (uint64_t)(vma - f->start));
		collect(c, ">");
		return;
	}
	if (c->t->nr_sorted < 1) {
		collect(c, "0x%" PRIx64, (uint64_t)vma);
		return;
	}
	sym = find_symbol(c, vma);
	collect(c, "%" PRIx64 " <", (uint64_t)vma);
	if (!sym) {
		bfd_vma sa = bfd_section_vma(info->section);

		collect(c, "%s", bfd_section_name(info->section));
		if (vma != sa)
			collect(c, "%s0x%" PRIx64, vma < sa ? "-" : "+", (uint64_t)(vma < sa ? sa - vma : vma - sa));
	} else {
		bfd_vma sv = bfd_asymbol_value(sym);

		print_symname(c, sym);
		if (sv != vma && !((bfd_get_file_flags(c->abfd) & (EXEC_P | DYNAMIC)) &&
				   bfd_is_und_section(sym->section)))
			collect(c, "%s0x%" PRIx64, sv > vma ? "-" : "+", (uint64_t)(sv > vma ? sv - vma : vma - sv));
	}
	collect(c, ">");
}

static asymbol *symbol_at(bfd_vma vma, struct disassemble_info *info)
{
	asymbol *sym = info->application_data ? find_symbol(info->application_data, vma) : NULL;

	return sym && bfd_asymbol_value(sym) == vma ? sym : NULL;
}

/* the code section of abfd holding [start, end) */
static asection *code_section(bfd *abfd, uint64_t start, uint64_t end)
{
	asection *sec;

	for (sec = abfd->sections; sec; sec = sec->next) {
		uint64_t vma = bfd_section_vma(sec), size = bfd_section_size(sec);

		if ((bfd_section_flags(sec) & (SEC_CODE | SEC_HAS_CONTENTS)) != (SEC_CODE | SEC_HAS_CONTENTS))
			continue;
		if (start >= vma && start - vma < size && end - vma <= size)
			return sec;
	}
	return NULL;
}

static void strip_trailing(struct strbuf *sb)
{
	while (sb->len && (sb->buf[sb->len - 1] == ' ' || sb->buf[sb->len - 1] == '\t'))
		sb->buf[--sb->len] = '\0';
}

/* disassemble [start, end) of sec's bytes in buf, one callback per instruction */
static int walk(struct symbols *s, struct dso *d, struct disasm_ctx *c, disassembler_ftype fn,
		uint64_t start, uint64_t end, symbols_insn_fn cb, void *ctx)
{
	uint64_t pc = start;
	struct sym_insn in;
	struct sym_result r;
	int n, err;

	while (pc < end) {
		strbuf__reset(&c->text);
		n = fn(pc, &c->info);
		if (c->err)
			return symbols__fail(s, c->err);
		if (n <= 0)
			n = 1;	/* as objdump: the next byte */
		strip_trailing(&c->text);
		memset(&in, 0, sizeof(in));
		in.addr = pc;
		in.size = (unsigned)n;
		in.text = c->text.buf ? c->text.buf : "";
		memset(&r, 0, sizeof(r));
		if (!s->no_source && dso__lookup_lines(s, d, &r, NULL, pc))
			return s->err;
		in.src_file = r.src_file;
		in.src_path = r.src_path;
		in.line = r.src_line;
		if ((err = cb(ctx, &in)))
			return err;
		pc += (unsigned)n;
	}
	return 0;
}

void disasm__close_vmlinux(struct symbols *s)
{
	if (s->vmlinux_bfd)
		bfdlib.close(s->vmlinux_bfd);
	s->vmlinux_bfd = NULL;
}

/* --vmlinux's ELF, opened once; NULL when there is none or it is no object bfd reads */
static bfd *vmlinux_bfd(struct symbols *s)
{
	bfd *abfd;

	if (s->vmlinux_tried || !s->vmlinux)
		return s->vmlinux_bfd;
	s->vmlinux_tried = 1;
	if (dso__bfd_ready(s))
		return NULL;
	abfd = bfdlib.openr(s->vmlinux, NULL);
	if (abfd && !bfdlib.check_format(abfd, bfd_object)) {
		bfdlib.close(abfd);
		abfd = NULL;
	}
	s->vmlinux_bfd = abfd;
	return abfd;
}

/*
 * Does the vmlinux name a function at start?  Kernel functions are at their
 * run-time addresses (kallsyms); a vmlinux of another kernel, or one moved
 * by KASLR (not undone here), has none there and shows no code rather than
 * the wrong code.
 */
static int vmlinux_has_func_at(const struct disasm_syms *t, uint64_t start)
{
	long i;

	for (i = 0; i < t->nr_sorted; i++)
		if (bfd_asymbol_value(t->sorted[i]) == start && (t->sorted[i]->flags & BSF_FUNCTION))
			return 1;
	return 0;
}

int symbols__disassemble(struct symbols *s, struct dso *d, uint64_t start, uint64_t end,
			 symbols_insn_fn cb, void *ctx)
{
	struct disasm_ctx c;
	disassembler_ftype fn;
	bfd_byte *bytes;
	asection *sec;
	bfd *abfd;
	int err;

	if (!s || !d || !cb)
		return -EINVAL;
	if (end <= start || end - start > DISASM_MAX_BYTES)
		return -ENOENT;	/* a symbol size no function has: show its samples only */
	if (s->err)
		return s->err;
	/* the kernel's code from --vmlinux, its functions at their kallsyms addresses */
	abfd = d->kind == DSO_KERNEL ? vmlinux_bfd(s) : dso__code_bfd(s, d);
	if (!abfd)
		return s->err ? s->err : -ENOENT;
	if (bfdlib__load_opcodes()) {
		log_msg(s->log, LOG_ERR, "cannot load libopcodes: %s", bfdlib__error());
		return symbols__fail(s, -EIO);
	}
	sec = code_section(abfd, start, end);
	fn = sec ? bfdlib.disassembler(bfdlib.get_arch(abfd), bfd_big_endian(abfd), bfdlib.get_mach(abfd), abfd) : NULL;
	if (!fn)
		return -ENOENT;
	if (!d->disasm) {
		d->disasm = calloc(1, sizeof(*d->disasm));
		if (!d->disasm || make_table(abfd, d->disasm))
			return symbols__fail(s, -ENOMEM);
	}
	if (d->disasm->sorted_for != sec) {
		qsort_r(d->disasm->sorted, (size_t)d->disasm->nr_sorted, sizeof(*d->disasm->sorted), cmp_syms, sec);
		d->disasm->sorted_for = sec;
	}
	if (d->kind == DSO_KERNEL && !vmlinux_has_func_at(d->disasm, start))
		return -ENOENT;
	bytes = malloc(end - start);
	if (!bytes)
		return symbols__fail(s, -ENOMEM);
	if (!bfdlib.get_section_contents(abfd, sec, bytes, (file_ptr)(start - bfd_section_vma(sec)), end - start)) {
		free(bytes);
		return -ENOENT;
	}
	memset(&c, 0, sizeof(c));
	c.abfd = abfd;
	c.t = d->disasm;
	if (d->kind == DSO_ELF && dso__syms_from_debug(d)) {
		c.funcs = d->syms;
		c.nr_funcs = d->nr_syms;
	}
	strbuf__init(&c.text);
	bfdlib.init_disassemble_info(&c.info, &c, collect, collect_styled);
	c.info.application_data = &c;
	c.info.arch = bfdlib.get_arch(abfd);
	c.info.mach = bfdlib.get_mach(abfd);
	c.info.flavour = bfd_get_flavour(abfd);
	c.info.endian = bfd_big_endian(abfd) ? BFD_ENDIAN_BIG : BFD_ENDIAN_LITTLE;
	c.info.endian_code = c.info.endian;
	c.info.section = sec;
	c.info.buffer = bytes;
	c.info.buffer_vma = start;
	c.info.buffer_length = end - start;
	c.info.stop_vma = end;
	c.info.print_address_func = print_address;
	c.info.symbol_at_address_func = symbol_at;
	c.info.octets_per_byte = 1;
	bfdlib.disassemble_init_for_target(&c.info);
	err = walk(s, d, &c, fn, start, end, cb, ctx);
	bfdlib.disassemble_free_target(&c.info);
	strbuf__release(&c.text);
	free(bytes);
	return err;
}

int symbols__func_bounds(struct symbols *s, struct dso *d, uint64_t addr, uint64_t *start, uint64_t *end)
{
	const struct sym *sym;

	if (!s || !d)
		return -EINVAL;
	if (s->err)
		return s->err;
	sym = d->loaded ? symtab__find(d->syms, d->nr_syms, addr) : NULL;
	if (!sym)
		return -ENOENT;
	*start = sym->start;
	*end = sym->end > sym->start ? sym->end : sym->start + 1;
	return 0;
}

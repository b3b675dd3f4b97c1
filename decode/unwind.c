/* SPDX-License-Identifier: GPL-3.0-or-later */
/* DWARF unwinding of user stacks with libdwfl (unwind.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <linux/perf_event.h>

#include "decode/machine.h"
#include "decode/symbols.h"
#include "decode/unwind.h"
#include "util/hashmap.h"

/* perf's x86_64 register numbers (arch/x86/include/uapi/asm/perf_regs.h) */
enum {
	PERF_REG_AX, PERF_REG_BX, PERF_REG_CX, PERF_REG_DX, PERF_REG_SI, PERF_REG_DI, PERF_REG_BP,
	PERF_REG_SP, PERF_REG_IP, PERF_REG_R8 = 16,
};
/* DWARF register n of x86_64 (rax rdx rcx rbx rsi rdi rbp rsp r8-r15 rip) as a perf register */
static const int dwarf_to_perf[17] = {
	PERF_REG_AX, PERF_REG_DX, PERF_REG_CX, PERF_REG_BX, PERF_REG_SI, PERF_REG_DI, PERF_REG_BP, PERF_REG_SP,
	PERF_REG_R8, PERF_REG_R8 + 1, PERF_REG_R8 + 2, PERF_REG_R8 + 3, PERF_REG_R8 + 4, PERF_REG_R8 + 5,
	PERF_REG_R8 + 6, PERF_REG_R8 + 7, PERF_REG_IP,
};

/* what the callbacks see of the sample being unwound */
struct cur {
	struct symbols *syms;
	const struct mthread *th;
	const struct perf_sample *s;
	uint64_t sp;
	uint64_t *ips;
	size_t n, max;
};

struct proc_dwfl {
	Dwfl *dwfl;
	uint64_t gen;		/* the maps generation it was made for */
	int attached;
	struct cur cur;		/* the thread callbacks' argument, stable while dwfl lives */
};

struct unwinder {
	struct symbols *syms;
	struct hashmap procs;	/* const struct process * -> struct proc_dwfl */
};

/*
 * No separate debug file: the frames come from the binary's own .eh_frame
 * (and .debug_frame when the binary itself has one, which libdwfl reads
 * without asking).  Looking up /usr/lib/debug made libdwfl open and inflate
 * libc's compressed debug sections, 40% of the unwinding time, for CFI that
 * .eh_frame already has; perf's libunwind path reads .eh_frame_hdr likewise.
 */
static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
			char **debuginfo_file_name)
{
	(void)mod;
	(void)userdata;
	(void)modname;
	(void)base;
	(void)file_name;
	(void)debuglink_file;
	(void)debuglink_crc;
	*debuginfo_file_name = NULL;
	return -1;
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = no_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* the value of perf register r in the sample, 0 when it was not recorded */
static uint64_t user_reg(const struct perf_sample *s, int r)
{
	uint64_t mask = s->user_regs.mask, below;

	if (!(mask & (1ULL << r)))
		return 0;
	below = mask & ((1ULL << r) - 1);
	return (unsigned)__builtin_popcountll(below) < s->user_regs.nr ? s->user_regs.regs[__builtin_popcountll(below)] : 0;
}

/* the module of the binary mapped at ip, reported to dwfl when it is not yet; 0 or -1 */
static int report_module(Dwfl *dwfl, struct symbols *syms, const struct mthread *th, uint64_t ip)
{
	const struct map_entry *m;
	const char *path;
	Dwfl_Module *mod;

	if (dwfl_addrmodule(dwfl, ip))
		return 0;
	m = machine__find_map(th, ip);
	if (!m || !m->dso)
		return -1;
	path = symbols__dso_file(syms, m->dso);
	if (!path)
		return -1;
	dwfl_report_begin_add(dwfl);
	mod = dwfl_report_elf(dwfl, m->filename, path, -1, m->start - m->pgoff, false);
	dwfl_report_end(dwfl, NULL, NULL);
	return mod ? 0 : -1;
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct cur *c = arg;

	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = arg;
	return (pid_t)c->th->tid;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	(void)dwfl;
	(void)tid;
	*thread_argp = arg;
	return true;
}

/*
 * A word of the copied stack: its first dyn_size bytes, what the kernel could
 * read (the rest of the copy is whatever the ring buffer held before, as
 * perf_output_sample_ustack skips it); other memory (the binaries' own) is
 * not read.
 */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct cur *c = arg;
	uint64_t size = c->s->user_stack_dyn_size;

	(void)dwfl;
	if (size > c->s->user_stack_size)
		size = c->s->user_stack_size;
	if (addr < c->sp || addr - c->sp > size || size - (addr - c->sp) < sizeof(*result))
		return false;
	memcpy(result, (const uint8_t *)c->s->user_stack + (addr - c->sp), sizeof(*result));
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct cur *c = arg;
	Dwarf_Word regs[17];
	int i;

	for (i = 0; i < 17; i++)
		regs[i] = user_reg(c->s, dwarf_to_perf[i]);
	return dwfl_thread_state_registers(thread, 0, 17, regs);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct cur *c = arg;
	Dwarf_Addr pc;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	report_module(dwfl_thread_dwfl(dwfl_frame_thread(state)), c->syms, c->th, pc);
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	if (!activation)
		pc--;
	c->ips[c->n++] = pc;
	return c->n < c->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

static void proc_dwfl_free(void *v)
{
	struct proc_dwfl *p = v;

	if (p)
		dwfl_end(p->dwfl);
	free(p);
}

int unwinder__new(struct unwinder **out, struct symbols *syms)
{
	struct unwinder *u = calloc(1, sizeof(*u));

	*out = u;
	if (!u)
		return -ENOMEM;
	u->syms = syms;
	hashmap__init(&u->procs);
	return 0;
}

void unwinder__delete(struct unwinder *u)
{
	if (!u)
		return;
	hashmap__release(&u->procs, proc_dwfl_free);
	free(u);
}

/* the process's Dwfl for its current maps; NULL on ENOMEM (*err) or when libdwfl fails */
static struct proc_dwfl *proc_of(struct unwinder *u, const struct mthread *th, int *err)
{
	const struct process *proc = th->proc;
	struct proc_dwfl *p;
	void **slot;
	int ret = hashmap__insert(&u->procs, &proc, sizeof(proc), &slot);

	if (ret < 0) {
		*err = -ENOMEM;
		return NULL;
	}
	p = *slot;
	if (p && p->gen == process__maps_gen(proc))
		return p;
	if (!p) {
		p = calloc(1, sizeof(*p));
		if (!p) {
			*err = -ENOMEM;
			return NULL;
		}
		*slot = p;
	}
	dwfl_end(p->dwfl);
	p->dwfl = dwfl_begin(&offline_callbacks);
	p->gen = process__maps_gen(proc);
	p->attached = 0;
	return p->dwfl ? p : NULL;
}

int unwinder__unwind(struct unwinder *u, const struct mthread *th, const struct perf_sample *s,
		     uint64_t *ips, size_t max)
{
	struct proc_dwfl *p;
	int err = 0;
	uint64_t ip;

	/*
	 * dyn_size 0: the kernel could not read the user stack at sp (in an
	 * execve after the switch to the new mm, or a fault below the stack that
	 * grows it), so nothing is unwound, as perf (machine.c: "Bail out if
	 * nothing was captured", user_stack.size being dyn_size).
	 */
	if (!u || !th || !th->proc || !max || !(s->sample_type & PERF_SAMPLE_REGS_USER) ||
	    !(s->sample_type & PERF_SAMPLE_STACK_USER) || s->user_regs.abi != PERF_SAMPLE_REGS_ABI_64 ||
	    !s->user_stack_size || !s->user_stack_dyn_size)
		return 0;
	p = proc_of(u, th, &err);
	if (!p)
		return err;
	ip = user_reg(s, PERF_REG_IP);
	if (report_module(p->dwfl, u->syms, th, ip))
		return 0;
	p->cur = (struct cur){ u->syms, th, s, user_reg(s, PERF_REG_SP), ips, 0, max };
	if (!p->attached) {
		if (!dwfl_attach_state(p->dwfl, NULL, (pid_t)th->proc->pid, &thread_callbacks, &p->cur))
			return 0;
		p->attached = 1;
	}
	dwfl_getthread_frames(p->dwfl, (pid_t)th->tid, frame_cb, &p->cur);
	return (int)p->cur.n;
}

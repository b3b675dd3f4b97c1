# SPDX-License-Identifier: GPL-3.0-or-later
# fake-vmlinux.s: two functions that play the kernel's for test-annotate's --vmlinux case,
# linked (ld -Ttext=0xffffffff8225fd00) at the addresses systemwide-g.kallsyms gives
# pvm_irq_enable (fd00, 0x20 bytes to the next symbol) and pvm_safe_halt_hc (fd50, 0x30),
# so that the recording's samples at fd19 and fd65 start an instruction. Not kernel code.
	.text
	.globl pvm_irq_enable
	.type pvm_irq_enable, @function
pvm_irq_enable:
	push %rbp
	mov %rsp, %rbp
	.rept 6
	add $1, %eax
	.endr
	nop
	sti
	nop
	pop %rbp
	ret
	.size pvm_irq_enable, .-pvm_irq_enable
	.org 0x50, 0xcc
	.globl pvm_safe_halt_hc
	.type pvm_safe_halt_hc, @function
pvm_safe_halt_hc:
	push %rbx
	mov %rdi, %rbx
	.rept 5
	xor %eax, %eax
	.endr
	call pvm_irq_enable
	mov %ebx, %eax
	hlt
	pop %rbx
	jmp pvm_irq_enable
	.size pvm_safe_halt_hc, .-pvm_safe_halt_hc
	.org 0x80, 0xcc

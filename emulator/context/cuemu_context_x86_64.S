/*
 * Register switch for x86-64 (System V): saves the callee-saved registers on
 * the current stack, stores the stack pointer through the first argument and
 * restores the context whose stack pointer is the second argument.
 *
 * void cuemu__ctx_switch_asm(void **save_sp, void *load_sp);
 *
 * Frame layout, from the saved stack pointer upwards:
 *   0: r15, 8: r14, 16: r13, 24: r12, 32: rbx, 40: rbp, 48: return address
 *
 * A saved stack pointer with bit 0 set is a light frame instead, the one
 * that __syncthreads()'s fast path leaves (cuemu_block_sync_x86_64.S): its
 * caller treats every register but rbp and rsp as clobbered, so the frame is
 * only, from the stack pointer (bit 0 cleared) upwards, 0: rbp, 8: return
 * address. cuemu__ctx_resume enters either kind; both switches end there.
 *
 * MXCSR and the x87 control word are not switched: saving them costs more
 * than the rest of the switch (measured: stmxcsr and fnstcw took two thirds
 * of the switch's samples), and kernel code cannot change rounding modes
 * (the shims' directed-rounding intrinsics restore the mode before they
 * return, and never block in between).
 */
#include "config.h"

#if !CUEMU_CONTEXT_UCONTEXT && defined(__x86_64__)
        .text
        .globl  cuemu__ctx_switch_asm
        .hidden cuemu__ctx_switch_asm
        .type   cuemu__ctx_switch_asm, @function
cuemu__ctx_switch_asm:
        .cfi_startproc
        pushq   %rbp
        pushq   %rbx
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        movq    %rsp, (%rdi)
        .globl  cuemu__ctx_resume
        .hidden cuemu__ctx_resume
cuemu__ctx_resume:
        testb   $1, %sil
        jnz     1f
        movq    %rsi, %rsp
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        ret
1:      leaq    -1(%rsi), %rsp
        popq    %rbp
        ret
        .cfi_endproc
        .size   cuemu__ctx_switch_asm, .-cuemu__ctx_switch_asm

/*
 * void cuemu__ctx_resume_jump(void *unused, void *sp): cuemu__ctx_resume
 * for a context that is left for good (cuemu__ctx_jump: a thread that
 * returned from the kernel, say), ending in an indirect jump to the saved
 * return address instead of a ret. Its callers reach it by a call whose
 * return never happens, so the processor's return-address stack holds
 * that call's address, and a ret here would be mispredicted every time;
 * the indirect jump, made from this one place, is predicted from where it
 * went before (every thread of a kernel that finishes after its last
 * barrier goes back to the same place in the kernel). rcx is free: a
 * light frame's caller treats it as clobbered, and it is a
 * caller-saved register for a full frame's.
 */
        .globl  cuemu__ctx_resume_jump
        .hidden cuemu__ctx_resume_jump
        .type   cuemu__ctx_resume_jump, @function
cuemu__ctx_resume_jump:
        .cfi_startproc
        testb   $1, %sil
        jnz     1f
        movq    %rsi, %rsp
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        popq    %rcx
        jmp     *%rcx
1:      leaq    -1(%rsi), %rsp
        popq    %rbp
        popq    %rcx
        jmp     *%rcx
        .cfi_endproc
        .size   cuemu__ctx_resume_jump, .-cuemu__ctx_resume_jump

/*
 * The first return address of every new context. The frame that
 * cuemu__ctx_template_init builds holds, besides makecontext()'s rbx (which
 * points at uc_link), the entry function in r12 and the return address
 * makecontext() gave it (glibc's __start_context) in r13. The trampoline
 * drops that return address from the stack, which leaves the stack aligned
 * for a call, and calls the entry; should the entry return, it goes on to
 * __start_context as a context from setcontext() would. rip is undefined
 * here, so that unwinders and gdb end a coroutine's backtrace at this frame
 * instead of wandering into whatever lies below.
 */
        .globl  cuemu__ctx_start_x86_64
        .hidden cuemu__ctx_start_x86_64
        .type   cuemu__ctx_start_x86_64, @function
cuemu__ctx_start_x86_64:
        .cfi_startproc
        .cfi_undefined rip
        addq    $8, %rsp
        .cfi_adjust_cfa_offset -8
        call    *%r12
        jmp     *%r13
        .cfi_endproc
        .size   cuemu__ctx_start_x86_64, .-cuemu__ctx_start_x86_64

/*
 * void cuemu__ctx_enter(void *sp, void (*entry)(void)): calls `entry` with
 * the stack pointer `sp` (16-byte aligned), leaving the running context
 * without saving it. Where cuemu__ctx_start_x86_64 would have called the
 * entry of a fresh context, at the same depth, with no template frame to
 * copy and pop. The entry never returns; like cuemu__ctx_start_x86_64 this
 * frame ends a backtrace.
 */
/*
 * void cuemu__ctx_switch_enter(void **save_sp, void *sp,
 *                              void (*entry)(void)):
 * saves the running context as cuemu__ctx_switch_asm does (a full frame),
 * then cuemu__ctx_enter(sp, entry).
 */
        .globl  cuemu__ctx_switch_enter
        .hidden cuemu__ctx_switch_enter
        .type   cuemu__ctx_switch_enter, @function
cuemu__ctx_switch_enter:
        .cfi_startproc
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        pushq   %rbx
        .cfi_adjust_cfa_offset 8
        pushq   %r12
        .cfi_adjust_cfa_offset 8
        pushq   %r13
        .cfi_adjust_cfa_offset 8
        pushq   %r14
        .cfi_adjust_cfa_offset 8
        pushq   %r15
        .cfi_adjust_cfa_offset 8
        movq    %rsp, (%rdi)
        movq    %rsi, %rdi
        movq    %rdx, %rsi
        jmp     cuemu__ctx_enter
        .cfi_endproc
        .size   cuemu__ctx_switch_enter, .-cuemu__ctx_switch_enter

        .globl  cuemu__ctx_enter
        .hidden cuemu__ctx_enter
        .type   cuemu__ctx_enter, @function
cuemu__ctx_enter:
        .cfi_startproc
        .cfi_undefined rip
        movq    %rdi, %rsp
        call    *%rsi
        ud2
        .cfi_endproc
        .size   cuemu__ctx_enter, .-cuemu__ctx_enter
#endif

        .section .note.GNU-stack,"",@progbits

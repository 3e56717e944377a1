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
        movq    48(%rsp), %rdx
/*
 * cuemu__ctx_resume(unused, sp, predicted) enters the context saved at
 * sp. `predicted` is the address that its final return is predicted to go
 * to: the return address of the call that led here (the processor predicts
 * a ret from its return-address stack, which holds it), or NULL where the
 * call never returns (cuemu__ctx_jump). When the context goes back
 * elsewhere (a thread suspended at another call site: a warp collective
 * resuming a thread that waits at a __syncthreads(), or a finishing thread
 * resuming the next one) a ret would be mispredicted, so that case ends in
 * an indirect jump instead, which is predicted from where it went before.
 * Either way the context is resumed correctly; `predicted` only decides
 * which branch the processor is asked to predict. rcx is free: a light
 * frame's caller treats it as clobbered, a full frame's as caller-saved.
 */
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
        jmp     2f
1:      leaq    -1(%rsi), %rsp
        popq    %rbp
2:      cmpq    %rdx, (%rsp)
        jne     3f
        ret
3:      popq    %rcx
        jmp     *%rcx
        .cfi_endproc
        .size   cuemu__ctx_switch_asm, .-cuemu__ctx_switch_asm

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

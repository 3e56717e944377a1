/*
 * Register switch for x86-64 (System V): saves the callee-saved registers,
 * MXCSR and the x87 control word on the current stack, stores the stack
 * pointer through the first argument and restores the context whose stack
 * pointer is the second argument.
 *
 * void cuemu__ctx_switch_asm(void **save_sp, void *load_sp);
 *
 * Frame layout, from the saved stack pointer upwards:
 *   0: MXCSR (4 bytes) and x87 control word (2 bytes), 8 bytes in all
 *   8: r15, 16: r14, 24: r13, 32: r12, 40: rbx, 48: rbp, 56: return address
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
        subq    $8, %rsp
        stmxcsr (%rsp)
        fnstcw  4(%rsp)
        movq    %rsp, (%rdi)
        movq    %rsi, %rsp
        ldmxcsr (%rsp)
        fldcw   4(%rsp)
        addq    $8, %rsp
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        ret
        .cfi_endproc
        .size   cuemu__ctx_switch_asm, .-cuemu__ctx_switch_asm
#endif

        .section .note.GNU-stack,"",@progbits

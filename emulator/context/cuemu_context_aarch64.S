/*
 * Register switch for aarch64 (AAPCS64): saves x19-x30, d8-d15 and FPCR on
 * the current stack, stores the stack pointer through the first argument and
 * restores the context whose stack pointer is the second argument.
 *
 * void cuemu__ctx_switch_asm(void **save_sp, void *load_sp);
 *
 * Frame layout, 176 bytes from the saved stack pointer upwards:
 *   0: x19 x20, 16: x21 x22, 32: x23 x24, 48: x25 x26, 64: x27 x28,
 *   80: x29 x30 (x30 is where the switch returns to), 96: d8 d9,
 *   112: d10 d11, 128: d12 d13, 144: d14 d15, 160: FPCR, 168: unused
 *
 * Only the low 64 bits of v8-v15 are callee-saved, so d8-d15 suffice. FPCR
 * is written only when it differs from the running one, because a write to
 * FPCR serialises many cores and the contexts of a launch nearly always
 * share one value.
 */
#include "config.h"

#if !CUEMU_CONTEXT_UCONTEXT && defined(__aarch64__)
        .text
        .globl  cuemu__ctx_switch_asm
        .hidden cuemu__ctx_switch_asm
        .type   cuemu__ctx_switch_asm, %function
cuemu__ctx_switch_asm:
        .cfi_startproc
        sub     sp, sp, #176
        .cfi_def_cfa_offset 176
        stp     x19, x20, [sp, #0]
        stp     x21, x22, [sp, #16]
        stp     x23, x24, [sp, #32]
        stp     x25, x26, [sp, #48]
        stp     x27, x28, [sp, #64]
        stp     x29, x30, [sp, #80]
        .cfi_offset x29, -96
        .cfi_offset x30, -88
        stp     d8, d9, [sp, #96]
        stp     d10, d11, [sp, #112]
        stp     d12, d13, [sp, #128]
        stp     d14, d15, [sp, #144]
        mrs     x2, fpcr
        str     x2, [sp, #160]
        mov     x3, sp
        str     x3, [x0]
        mov     sp, x1
        ldr     x3, [sp, #160]
        cmp     x2, x3
        b.eq    1f
        msr     fpcr, x3
1:
        ldp     x19, x20, [sp, #0]
        ldp     x21, x22, [sp, #16]
        ldp     x23, x24, [sp, #32]
        ldp     x25, x26, [sp, #48]
        ldp     x27, x28, [sp, #64]
        ldp     x29, x30, [sp, #80]
        ldp     d8, d9, [sp, #96]
        ldp     d10, d11, [sp, #112]
        ldp     d12, d13, [sp, #128]
        ldp     d14, d15, [sp, #144]
        add     sp, sp, #176
        .cfi_def_cfa_offset 0
        .cfi_restore x29
        .cfi_restore x30
        ret
        .cfi_endproc
        .size   cuemu__ctx_switch_asm, .-cuemu__ctx_switch_asm

/*
 * The first return address of every new context. The frame that
 * cuemu__ctx_template_init builds holds, besides makecontext()'s x19
 * (uc_link) and x29 (0), the entry function in x20 and the return address
 * makecontext() gave it (glibc's __startcontext) in x21. The trampoline calls
 * the entry on makecontext()'s stack pointer; should the entry return, it
 * goes on to __startcontext as a context from setcontext() would. x30 is
 * undefined here, so that unwinders and gdb end a coroutine's backtrace at
 * this frame instead of wandering into whatever lies below.
 */
        .globl  cuemu__ctx_start_aarch64
        .hidden cuemu__ctx_start_aarch64
        .type   cuemu__ctx_start_aarch64, %function
cuemu__ctx_start_aarch64:
        .cfi_startproc
        .cfi_undefined x30
        blr     x20
        br      x21
        .cfi_endproc
        .size   cuemu__ctx_start_aarch64, .-cuemu__ctx_start_aarch64
#endif

        .section .note.GNU-stack,"",%progbits

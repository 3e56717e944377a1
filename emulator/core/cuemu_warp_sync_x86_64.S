/*
 * Warp collectives on x86-64: cuemu_warp_sync, cuemu_warp_collective()
 * (cuemu_warp.c) with a calling convention of its own, so that a lane that
 * waits saves only what is live across the collective, as __syncthreads()'s
 * cuemu_block_sync does (cuemu_block_sync_x86_64.S).
 *
 * The shim (shims/cuda_builtins/cuemu_warp_call.h) calls it from an inline
 * asm statement that tells the compiler every register but rbp and rsp is
 * clobbered, in a function that has no red zone:
 *
 *     rdi  the op in the low half, the mask in the high half (the key of
 *          the warp's gather record, struct cuemu_warp_gather)
 *     rsi  the value
 *     rdx  the arg in the low half, the width in the high half (the
 *          gather record's operands, and the first word of the wait
 *          record's struct cuemu_warp_wait)
 *     rcx  the name, r8 the file, r9d the line
 *     rax  on return: the result
 *
 * The fast path is a lane that waits: it already is a coroutine, in a
 * kernel, in its own mask; another thread is ready to run; it is not one
 * that may complete the collective (every live lane of the mask then
 * waits). It records the
 * arrival as arrive() does (the wait record, the state, the gather record,
 * the warp's waiting lanes), takes the next thread of the run queue and
 * resumes it, leaving a light frame: rbp, then the address of .Lresumed,
 * which reads the result that the completing lane wrote and returns it to
 * the kernel. The frame is a light frame as the barrier's (its saved stack
 * pointer has bit 0 set, see emulator/context/cuemu_context_x86_64.S and
 * cuemu__ctx_light_saved_regs): the kernel's return address is the word
 * above it, where .Lresumed's unwind information finds it.
 *
 * Everything else (checks and reports included) calls cuemu_warp_collective()
 * before storing anything, which records the arrival from the start. The
 * offsets come from cuemu_worker_layout.h, checked in cuemu_block.c and
 * cuemu_warp.c. With the ucontext backend, cuemu_warp_sync is only that
 * call.
 */
#include "config.h"
#include "core/cuemu_worker_layout.h"
#include "core/cuemu_next_thread_x86_64.h"

#if defined(__x86_64__)
        .text
        .globl  cuemu_warp_sync
        .type   cuemu_warp_sync, @function
        .p2align 4
cuemu_warp_sync:
        .cfi_startproc
#if !CUEMU_CONTEXT_UCONTEXT
        movq    cuemu__worker_self@gottpoff(%rip), %rax
        movq    %fs:(%rax), %rax                /* the worker, or NULL */
        testq   %rax, %rax
        jz      .Lslow
        movq    CUEMU_W_CURRENT(%rax), %rbx     /* this lane's slot */
        testq   %rbx, %rbx
        jz      .Llazy
        cmpl    $0, CUEMU_W_RQ_LEN(%rax)
        je      .Lslow
        cmpl    $0, CUEMU_W_IN_KERNEL(%rax)
        je      .Lslow
        /* The caller must be in its mask (r11). */
        movq    %rdi, %r11
        shrq    $32, %r11
        movl    CUEMU_T_ID(%rbx), %r15d
        btl     %r15d, %r11d                    /* (the lane: id mod 32) */
        jnc     .Lslow
        xorl    %r12d, %r12d
        btsl    %r15d, %r12d                    /* r12: the lane's bit */
        movl    %r15d, %r13d
        shrl    $5, %r13d                       /* r13: the warp */
        /* Not when every live lane of the mask would then wait. */
        andl    CUEMU_W_WARP_LIVE(%rax,%r13,4), %r11d
        movl    CUEMU_W_WARP_WAITING(%rax,%r13,4), %r10d
        orl     %r12d, %r10d
        movl    %r10d, %r15d
        notl    %r15d
        testl   %r15d, %r11d
        jz      .Lslow
        /* The arrival: the warp's waiting lanes; the gather record (r14),
         * which counts the lanes of one op and mask: this lane sets it
         * when it counts none, is counted when it counts this collective
         * (whose operands stay alike only if this lane's match), and is
         * not counted when it counts another; then the wait record and the
         * state. */
        movl    %r10d, CUEMU_W_WARP_WAITING(%rax,%r13,4)
        leaq    (%r13,%r13,2), %r14
        leaq    CUEMU_W_WARP_GATHER(%rax,%r14,8), %r14
        cmpl    $0, CUEMU_G_LANES(%r14)
        je      2f
        cmpq    %rdi, CUEMU_G_KEY(%r14)
        jne     3f
        orl     %r12d, CUEMU_G_LANES(%r14)
        cmpq    %rdx, CUEMU_G_OPERANDS(%r14)
        je      3f
        movl    $0, CUEMU_G_ALIKE(%r14)
        jmp     3f
2:      movq    %rdi, CUEMU_G_KEY(%r14)
        movq    %rdx, CUEMU_G_OPERANDS(%r14)
        movl    $1, CUEMU_G_ALIKE(%r14)
        movl    %r12d, CUEMU_G_LANES(%r14)
3:      movl    $CUEMU_KIND_WARP, CUEMU_T_WAIT_KIND(%rbx)
        movl    %edi, CUEMU_T_WAIT_OP(%rbx)
        movq    %r8, CUEMU_T_WAIT_FILE(%rbx)
        movl    %r9d, CUEMU_T_WAIT_LINE(%rbx)
        movq    %rdx, CUEMU_T_WARP_ARG(%rbx)    /* arg and width */
        shrq    $32, %rdi
        movl    %edi, CUEMU_T_WARP_MASK(%rbx)
        movq    %rcx, CUEMU_T_WARP_NAME(%rbx)
        movq    %rsi, CUEMU_T_WARP_VALUE(%rbx)
        movq    CUEMU_W_STATE(%rax), %r8
        movl    CUEMU_T_ID(%rbx), %r9d
        movb    $CUEMU_STATE_WAITING, (%r8,%r9)
        addl    $1, CUEMU_W_WAITING(%rax)
        /* The next thread: the head of the run queue (%r10). */
        CUEMU_ASM_TAKE_NEXT_THREAD
        /* Suspend in a light frame (rbp, .Lresumed) and resume the next
         * thread, whichever kind of frame it left. The call pushes
         * .Lresumed on the stack and on the processor's return stack, so
         * that the return into the next lane's light frame (another lane
         * of this warp, suspended here) is predicted, and so is the return
         * from there into the kernel: an address pushed by hand made both
         * mispredicted, which cost more than the switch itself. So
         * cuemu__ctx_resume is told that its ret is predicted to go to
         * .Lresumed (rdx): it returns into a lane suspended here, and jumps
         * into a thread suspended elsewhere. (Anything else in rdx made it
         * jump every time, which left .Lresumed on the return stack and
         * mispredicted the return into the kernel at every switch: 20.8
         * against 14.3 ns per lane per shuffle.) r9 keeps where this
         * lane returns, for the lane resumed below. */
        movq    (%rsp), %r9
        call    .Lsuspend
.Lresumed:
        /* Resumed (the light frame popped): the running lane's result.
         * The processor predicts the return into the kernel from its
         * return stack: where the lane that resumed this one called from
         * (r9, when that lane suspended just above). That is right when
         * both wait at the same call site (a collective in a loop); when
         * they do not (a kernel with collectives one after another: the
         * lanes of one round resume the lanes of the previous one), the
         * return is an indirect jump. (Any other resumer leaves something
         * else in r9: the jump, which returns to the same place.) */
        movq    cuemu__worker_self@gottpoff(%rip), %rax
        movq    %fs:(%rax), %rax
        movq    CUEMU_W_CURRENT(%rax), %rax
        movq    CUEMU_T_WARP_RESULT(%rax), %rax
        CUEMU_ASM_RETURN_PREDICTED(%r9)
.Lsuspend:
        .cfi_adjust_cfa_offset 8
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_offset rbp, -24
        leaq    1(%rsp), %r11
        movq    %r11, CUEMU_T_CTX_SP(%rbx)
        movq    CUEMU_T_CTX_SP(%r10), %rsi
        leaq    .Lresumed(%rip), %rdx           /* (predicted) */
        jmp     cuemu__ctx_resume
        .cfi_restore rbp
        .cfi_adjust_cfa_offset -16
.Llazy:
        /* A lane that runs lazily in a runner, at its first collective:
         * the same light frame, then cuemu__warp_sync_lazy (cuemu_warp.c)
         * with the operands as they came and the frame's saved stack
         * pointer (on a stack aligned for the call), which makes the lane a
         * coroutine and records its arrival; it returns the result when
         * the collective completes here or its wait took a full switch,
         * and otherwise leaves for the next context, the lane resuming
         * at .Lresumed. */
        cmpl    $0, CUEMU_W_IN_KERNEL(%rax)
        je      .Lslow
        leaq    .Lresumed(%rip), %rax
        pushq   %rax
        .cfi_adjust_cfa_offset 8
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_offset rbp, -24
        leaq    1(%rsp), %rax
        movq    %rsp, %rbp
        .cfi_def_cfa_register rbp
        andq    $-16, %rsp
        subq    $8, %rsp
        pushq   %rax
        call    cuemu__warp_sync_lazy@PLT
        movq    %rbp, %rsp
        .cfi_def_cfa_register rsp
        popq    %rbp
        .cfi_adjust_cfa_offset -8
        .cfi_restore rbp
        addq    $8, %rsp
        .cfi_adjust_cfa_offset -8
        ret
.Lslow:
#endif
        /* cuemu_warp_collective(op, mask, value, arg, width, name, file,
         * line) on a stack aligned for the call. */
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_offset rbp, -16
        movq    %rsp, %rbp
        .cfi_def_cfa_register rbp
        andq    $-16, %rsp
        pushq   %r9                             /* line */
        pushq   %r8                             /* file */
        movq    %rcx, %r9                       /* name */
        movq    %rdx, %r8
        shrq    $32, %r8                        /* width */
        movl    %edx, %ecx                      /* arg */
        movq    %rsi, %rdx                      /* value */
        movq    %rdi, %rsi
        shrq    $32, %rsi                       /* mask */
        movl    %edi, %edi                      /* op */
        call    cuemu_warp_collective@PLT
        movq    %rbp, %rsp
        .cfi_def_cfa_register rsp
        popq    %rbp
        .cfi_restore rbp
        .cfi_adjust_cfa_offset -8
        ret
        .cfi_endproc
        .size   cuemu_warp_sync, .-cuemu_warp_sync

#if CUEMU_G_SIZE != 24
#error "the gather record's index above is warp * 24"
#endif
#endif

        .section .note.GNU-stack,"",@progbits

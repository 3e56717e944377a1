/*
 * cuemu_next_thread_x86_64.h: the steps that the x86-64 assembler fast paths
 * of __syncthreads() and of the warp collectives (cuemu_block_sync_x86_64.S,
 * cuemu_warp_sync_x86_64.S) share.
 *
 * CUEMU_ASM_TAKE_NEXT_THREAD is cuemu__runq_take() (cuemu_worker.h)
 * written out. With the worker in %rax and its state array in %r8, it takes
 * the first thread of the run queue (which must not be empty), marks it
 * running, makes it the worker's current thread and sets threadIdx to its
 * coordinates; its slot is left in %r10. It clobbers %r9, %r11 and %rdx.
 * The offsets come from cuemu_worker_layout.h.
 */
#ifndef CUEMU_NEXT_THREAD_X86_64_H
#define CUEMU_NEXT_THREAD_X86_64_H

#define CUEMU_ASM_TAKE_NEXT_THREAD                                             \
        movl    CUEMU_W_RQ_HEAD(%rax), %r9d;                                   \
        movq    CUEMU_W_RUNQ(%rax), %r10;                                      \
        movl    (%r10,%r9,4), %r10d;                                           \
        addl    $1, %r9d;                                                      \
        andl    $CUEMU_RUNQ_MASK, %r9d;                                        \
        movl    %r9d, CUEMU_W_RQ_HEAD(%rax);                                   \
        subl    $1, CUEMU_W_RQ_LEN(%rax);                                      \
        movb    $CUEMU_STATE_RUNNING, (%r8,%r10);                              \
        shlq    $CUEMU_T_SHIFT, %r10;                                          \
        addq    CUEMU_W_THREADS(%rax), %r10;                                   \
        movq    %r10, CUEMU_W_CURRENT(%rax);                                   \
        movq    threadIdx@gottpoff(%rip), %rdx;                                \
        movq    CUEMU_T_TID(%r10), %r11;                                       \
        movl    CUEMU_T_TID+8(%r10), %r9d;                                     \
        movq    %r11, %fs:(%rdx);                                              \
        movl    %r9d, %fs:8(%rdx)

/*
 * CUEMU_ASM_RETURN_PREDICTED(reg) returns from a resumed light frame to the
 * address on top of the stack. The processor predicts a ret from its
 * return-address stack, which holds where the thread that resumed this one
 * called from: `reg`, where that thread keeps it. When the two differ (the
 * resumed thread waits at another call site: the previous round of a
 * kernel with barriers or collectives one after another) a ret would be
 * mispredicted at every switch, so the return is an indirect jump, which is
 * predicted from where it went before (every thread of a round goes back to
 * the same place). Both arms go to the same address: `reg` decides only
 * which branch the processor is asked to predict. It clobbers %rcx, and its
 * unwind information names %rcx as the return address during the jump.
 */
#define CUEMU_ASM_RETURN_PREDICTED(reg)                                        \
        cmpq    reg, (%rsp);                                                   \
        jne     1f;                                                            \
        ret;                                                                   \
1:      popq    %rcx;                                                          \
        .cfi_adjust_cfa_offset -8;                                             \
        .cfi_register rip, rcx;                                                \
        jmp     *%rcx;                                                         \
        .cfi_adjust_cfa_offset 8;                                              \
        .cfi_offset rip, -8

#endif /* CUEMU_NEXT_THREAD_X86_64_H */

/*
 * __syncthreads() on x86-64: cuemu_block_sync, a block barrier with a
 * calling convention of its own, so that a thread's switch saves only what
 * is live across the barrier.
 *
 * The shim (shims/cuda_builtins/cuemu_sync.h) calls it from an inline asm
 * statement that tells the compiler every register but rbp and rsp is
 * clobbered (the callee-saved rbx and r12-r15 too, and all vector
 * registers), in a function that has no red zone:
 *
 *     call *cuemu_block_sync@GOTPCREL(%rip)    # rdi: file, esi: line
 *
 * So the kernel keeps the values it needs after the barrier in its own
 * frame, and the switch saves only rbp and the return address (a light
 * frame: its saved stack pointer has bit 0 set, see
 * emulator/context/cuemu_context_x86_64.S), instead of the six callee-saved
 * registers of a full switch.
 *
 * The fast path is cuemu_block_barrier()'s (cuemu_block.c) for
 * CUEMU_BARRIER_PLAIN, written out here: this thread already has its own
 * stack, another thread is ready to run, and this barrier is the one being
 * gathered; it records the arrival (the wait record, the state, the
 * counts), takes the next thread of the run queue and resumes it. Anything
 * else calls the slow path of cuemu_block_barrier() (cuemu__block_sync_slow),
 * which preserves the callee-saved registers as any C function does. The offsets come from
 * cuemu_worker_layout.h, which cuemu_block.c checks against the structures.
 *
 * With the ucontext backend, cuemu_block_sync is only the call of that slow
 * path (the shim uses the inline asm on x86-64 alone).
 */
#include "config.h"
#include "core/cuemu_worker_layout.h"
#include "core/cuemu_next_thread_x86_64.h"

#if defined(__x86_64__)
        .text
        .globl  cuemu_block_sync
        .type   cuemu_block_sync, @function
        .p2align 4
cuemu_block_sync:
        .cfi_startproc
#if !CUEMU_CONTEXT_UCONTEXT
        movq    cuemu__worker_self@gottpoff(%rip), %rax
        movq    %fs:(%rax), %rax                /* the worker, or NULL */
        testq   %rax, %rax
        jz      .Lslow
        movq    CUEMU_W_CURRENT(%rax), %rcx     /* this thread's slot */
        testq   %rcx, %rcx
        jz      .Llazy
        movl    CUEMU_W_RQ_LEN(%rax), %edx
        testl   %edx, %edx
        jz      .Lslow
        /* The site: the line and the op (CUEMU_OP_PLAIN, 0) in one
         * compare, as the 8 bytes of bar_line and bar_op; then the file. */
        movl    %esi, %r8d
        cmpq    %r8, CUEMU_W_BAR_LINE(%rax)
        jne     .Lslow
        cmpq    %rdi, CUEMU_W_BAR_FILE(%rax)
        jne     .Lslow
        cmpl    $0, CUEMU_W_IN_KERNEL(%rax)
        je      .Lslow
        /* The arrival: the wait record (kind and op, both 0, in one store;
         * line and predicate 0 in another), the state, the counts. */
        movq    $0, CUEMU_T_WAIT_KIND(%rcx)
        movq    %rdi, CUEMU_T_WAIT_FILE(%rcx)
        movq    %r8, CUEMU_T_WAIT_LINE(%rcx)
        movq    CUEMU_W_STATE(%rax), %r8
        movl    CUEMU_T_ID(%rcx), %r9d
        movb    $CUEMU_STATE_WAITING, (%r8,%r9)
        addl    $1, CUEMU_W_WAITING(%rax)
        addl    $1, CUEMU_W_NARRIVALS(%rax)
        /* The next thread: the head of the run queue (%r10). */
        CUEMU_ASM_TAKE_NEXT_THREAD
        /* Suspend in a light frame (rbp, return address) and resume the
         * next thread: one that left a full frame through
         * cuemu__ctx_resume, one that left a light frame here. */
        movq    (%rsp), %rdx                    /* where this one returns */
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_offset rbp, -16
        leaq    1(%rsp), %r8
        movq    %r8, CUEMU_T_CTX_SP(%rcx)
        movq    CUEMU_T_CTX_SP(%r10), %rsi
        testb   $1, %sil
        jz      cuemu__ctx_resume               /* (predicted: rdx) */
        leaq    -1(%rsi), %rsp
        popq    %rbp
        .cfi_restore rbp
        .cfi_adjust_cfa_offset -8
        /* The processor predicts the ret from its return-address stack:
         * where this thread called from (rdx). That is right when the next
         * thread waits at the same __syncthreads() (a barrier in a loop);
         * when it waits at another one (the first round of a loop, a
         * kernel with barriers one after another) the return is an
         * indirect jump. */
        CUEMU_ASM_RETURN_PREDICTED(%rdx)
.Llazy:
        /* A thread that runs lazily in a runner, at its first barrier: the
         * pad that puts the kernel's stack pointer here (8 above ours)
         * CUEMU_SYNC_SP_IN_LINE bytes into a cache line in the runners
         * that start from now on (start_runner, cuemu_block.c), given the
         * pad of the runner it runs in. */
        leal    8-CUEMU_SYNC_SP_IN_LINE(%rsp), %edx
        addl    CUEMU_W_RUNNER_PAD(%rax), %edx
        andl    $CUEMU_LINE_MASK, %edx
        movl    %edx, CUEMU_W_SYNC_PAD(%rax)
        cmpl    $0, CUEMU_W_IN_KERNEL(%rax)
        je      .Lslow
        /* Suspend in a light frame (rbp, return address), as the fast path
         * does; cuemu__block_sync_lazy (cuemu_block.c) makes the thread a
         * coroutine, saves that frame as its context and resumes the next
         * context, or returns when the slow path must take the barrier.
         * file and line are kept for it. */
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_offset rbp, -16
        leaq    1(%rsp), %rdx
        movq    %rsp, %rbp
        .cfi_def_cfa_register rbp
        andq    $-16, %rsp
        pushq   %rdi
        pushq   %rsi
        call    cuemu__block_sync_lazy@PLT
        popq    %rsi
        popq    %rdi
        movq    %rbp, %rsp
        .cfi_def_cfa_register rsp
        popq    %rbp
        .cfi_restore rbp
        .cfi_adjust_cfa_offset -8
.Lslow:
#endif
        /* cuemu__block_sync_slow(file, line) (cuemu_block.c) on a stack
         * aligned for the call. */
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_offset rbp, -16
        movq    %rsp, %rbp
        .cfi_def_cfa_register rbp
        andq    $-16, %rsp
        call    cuemu__block_sync_slow@PLT
        movq    %rbp, %rsp
        .cfi_def_cfa_register rsp
        popq    %rbp
        .cfi_restore rbp
        .cfi_adjust_cfa_offset -8
        ret
        .cfi_endproc
        .size   cuemu_block_sync, .-cuemu_block_sync
#endif

        .section .note.GNU-stack,"",@progbits

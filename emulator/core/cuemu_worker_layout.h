/*
 * cuemu_worker_layout.h: the offsets of the worker and thread-slot fields
 * that the block barrier's assembler fast path (cuemu_block_sync_x86_64.S)
 * reads and writes, and the values of the enums it stores. Plain numbers, so
 * that the assembler can include this file; cuemu_block.c checks every one
 * of them against the C structures (cuemu_worker.h) with static assertions,
 * so a change of the layout fails the build instead of the barrier.
 */
#ifndef CUEMU_WORKER_LAYOUT_H
#define CUEMU_WORKER_LAYOUT_H

/* struct cuemu_worker */
#define CUEMU_W_CURRENT 0
#define CUEMU_W_THREADS 8
#define CUEMU_W_STATE 16
#define CUEMU_W_RUNQ 24
#define CUEMU_W_RQ_HEAD 32
#define CUEMU_W_RQ_LEN 36
#define CUEMU_W_NARRIVALS 40
#define CUEMU_W_WAITING 44
#define CUEMU_W_BAR_FILE 48
#define CUEMU_W_BAR_LINE 56
#define CUEMU_W_BAR_OP 60
#define CUEMU_W_IN_KERNEL 72
#define CUEMU_W_SYNC_PAD 80
#define CUEMU_W_RUNNER_PAD 84

/* struct cuemu_thread (a slot is 1 << CUEMU_T_SHIFT bytes) */
#define CUEMU_T_SHIFT 7
#define CUEMU_T_CTX_SP 0
#define CUEMU_T_TID 16
#define CUEMU_T_ID 28
#define CUEMU_T_WAIT_KIND 32
#define CUEMU_T_WAIT_OP 36
#define CUEMU_T_WAIT_FILE 40
#define CUEMU_T_WAIT_LINE 48
#define CUEMU_T_WAIT_PREDICATE 52

/* What the warp collectives' fast path (cuemu_warp_sync_x86_64.S) reads
 * and writes besides the above, checked in cuemu_warp.c: the worker's
 * per-warp masks of waiting and live lanes (4 bytes a warp) and gather
 * records (CUEMU_G_SIZE bytes a warp), a thread's warp wait record, and
 * enum cuemu_sync_kind's value for a warp collective. */
#define CUEMU_W_WARP_WAITING 8452
#define CUEMU_W_WARP_LIVE 8708
#define CUEMU_W_WARP_GATHER 8840
#define CUEMU_G_SIZE 24
#define CUEMU_G_LANES 0
#define CUEMU_G_ALIKE 4
#define CUEMU_G_KEY 8
#define CUEMU_G_OPERANDS 16
#define CUEMU_T_WARP_ARG 64
#define CUEMU_T_WARP_WIDTH 68
#define CUEMU_T_WARP_MASK 72
#define CUEMU_T_WARP_NAME 80
#define CUEMU_T_WARP_VALUE 88
#define CUEMU_T_WARP_RESULT 96
#define CUEMU_KIND_WARP 2

/* Where the runners' pad puts the kernel's stack pointer at a
 * __syncthreads(), in bytes from the start of a cache line (the 16 bytes of
 * the light frame below it start the line), and the line's size. */
#define CUEMU_SYNC_SP_IN_LINE 16
#define CUEMU_LINE_MASK 63

/* The run queue's ring index mask (CUEMU_MAX_THREADS_PER_BLOCK - 1). */
#define CUEMU_RUNQ_MASK 1023

/* enum cuemu_thread_state, enum cuemu_sync_kind, enum cuemu_barrier_op */
#define CUEMU_STATE_RUNNING 1
#define CUEMU_STATE_WAITING 2
#define CUEMU_KIND_BARRIER 0
#define CUEMU_OP_PLAIN 0

/* For the C files that check these (cuemu_block.c, cuemu_warp.c): fails
 * the build unless `field` of `type` lies at offset `at`. */
#ifndef __ASSEMBLER__
#define CUEMU_LAYOUT_CHECK(type, field, at)                                    \
  _Static_assert(offsetof(type, field) == (at), #type "." #field)
#endif

#endif /* CUEMU_WORKER_LAYOUT_H */

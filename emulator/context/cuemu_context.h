/*
 * cuemu_context.h: execution contexts for emulated CUDA threads.
 *
 * A context is built once per stack by makecontext() and then entered and
 * left with cuemu__ctx_switch(). The asm backend (x86-64 and aarch64, one .S
 * file each) switches callee-saved registers, the stack pointer and the
 * floating-point control state only; the ucontext backend uses swapcontext()
 * and is the portable fallback. configure chooses with --with-context.
 *
 * Everything that depends on the processor lives in this folder, one file
 * per architecture: the switch (cuemu_context_ARCH.S) and the rest
 * (cuemu_arch_ARCH.c: the first frame of a context, where a suspended
 * context keeps its registers, the program counter of a fault).
 */
#ifndef CUEMU_CONTEXT_H
#define CUEMU_CONTEXT_H

#include <stddef.h>

#include "config.h"

#if CUEMU_CONTEXT_UCONTEXT
#include <ucontext.h>
#endif

typedef struct cuemu_ctx {
#if CUEMU_CONTEXT_UCONTEXT
  ucontext_t uc;
#else
  void *sp; /* saved stack pointer; the registers sit just above it */
#endif
} cuemu_ctx;

/* The first frame of a stack, as makecontext() built it, kept so that the
 * stack can be made ready to enter `entry` again without a system call. */
typedef struct cuemu_ctx_template {
#if CUEMU_CONTEXT_UCONTEXT
  ucontext_t uc;
  void (*entry)(void);
#else
  void *sp;
  /* The bytes [at, at + frame_size) of the stack, the first frame at its
   * end: CUEMU_CTX_FRAME_COPY bytes ending at the stack's top when the
   * frame fits in them (a copy of constant size, a few vector moves; what
   * lies below the frame is unused stack), the frame alone otherwise. */
  unsigned char *at;
  unsigned char frame[256];
  size_t frame_size;
#endif
} cuemu_ctx_template;

#define CUEMU_CTX_FRAME_COPY 96u

/* Builds, with makecontext(), a context that calls `entry` on the stack
 * [stack, stack + size). `entry` must never return. */
int cuemu__ctx_template_init(cuemu_ctx_template *tpl, void *stack,
                             size_t size, void (*entry)(void));

/* Makes `ctx` a fresh context that enters the template's entry function.
 * cuemu__ctx_reset_lower() puts its first frame `lower` bytes (a multiple
 * of 16, less than the stack's size by far) below the usual place, so that
 * the entry runs that much deeper, leaving the bytes above unused: only the
 * x86-64 switch does (its first frame holds no pointer the entry needs);
 * the other backends ignore `lower`. */
#if CUEMU_CONTEXT_UCONTEXT
void cuemu__ctx_reset(cuemu_ctx *ctx, const cuemu_ctx_template *tpl);
static inline void cuemu__ctx_reset_lower(cuemu_ctx *ctx,
                                          const cuemu_ctx_template *tpl,
                                          size_t lower) {
  (void)lower;
  cuemu__ctx_reset(ctx, tpl);
}
#else
static inline void cuemu__ctx_reset_lower(cuemu_ctx *ctx,
                                          const cuemu_ctx_template *tpl,
                                          size_t lower) {
#if !defined(__x86_64__)
  lower = 0;
#endif
  if (__builtin_expect(tpl->frame_size == CUEMU_CTX_FRAME_COPY, 1))
    __builtin_memcpy(tpl->at - lower, tpl->frame, CUEMU_CTX_FRAME_COPY);
  else
    __builtin_memcpy(tpl->at - lower, tpl->frame, tpl->frame_size);
  ctx->sp = (unsigned char *)tpl->sp - lower;
}
static inline void cuemu__ctx_reset(cuemu_ctx *ctx,
                                    const cuemu_ctx_template *tpl) {
  cuemu__ctx_reset_lower(ctx, tpl, 0);
}
#endif

/* Saves the running context in `from` (which may be a scratch context that is
 * never resumed) and resumes `to`. */
#if CUEMU_CONTEXT_UCONTEXT
void cuemu__ctx_switch(cuemu_ctx *from, cuemu_ctx *to);
#else
void cuemu__ctx_switch_asm(void **save_sp, void *load_sp);
static inline void cuemu__ctx_switch(cuemu_ctx *from, cuemu_ctx *to) {
  cuemu__ctx_switch_asm(&from->sp, to->sp);
}
#endif

/* Resumes `to` without saving the running context, which must never run
 * again (a thread that has returned from the kernel): the save half of a
 * switch is left out where the backend allows it, and `scratch` takes what
 * the others save. Never returns. */
#if !CUEMU_CONTEXT_UCONTEXT && defined(__x86_64__)
/* (cuemu_context_x86_64.S: `predicted` is where the processor predicts
 * the resumed context's return to go, NULL for none.) */
__attribute__((noreturn, visibility("hidden"))) void
cuemu__ctx_resume(void *unused, void *sp, const void *predicted);
static inline __attribute__((noreturn)) void
cuemu__ctx_jump(cuemu_ctx *scratch, cuemu_ctx *to) {
  (void)scratch;
  cuemu__ctx_resume(NULL, to->sp, NULL);
}
#else
static inline __attribute__((noreturn)) void
cuemu__ctx_jump(cuemu_ctx *scratch, cuemu_ctx *to) {
  cuemu__ctx_switch(scratch, to);
  __builtin_unreachable();
}
#endif

/* Calls `entry`, the template's entry, on the template's stack as a fresh
 * context made by cuemu__ctx_reset_lower(tpl, lower) would when resumed,
 * without saving the running context (which must never run again, or be
 * saved elsewhere already). On x86-64 the template's frame is not copied:
 * the entry is called directly at the depth where it would run. Never
 * returns. */
#if !CUEMU_CONTEXT_UCONTEXT && defined(__x86_64__)
/* The entry's stack pointer before its call, above the template's saved
 * stack pointer (checked in cuemu_arch_x86_64.c). */
#define CUEMU_CTX_ENTER_ABOVE_SP 64u
__attribute__((noreturn, visibility("hidden"))) void
cuemu__ctx_enter(void *sp, void (*entry)(void));
static inline __attribute__((noreturn)) void
cuemu__ctx_enter_fresh(cuemu_ctx *scratch, const cuemu_ctx_template *tpl,
                       size_t lower, void (*entry)(void)) {
  (void)scratch;
  cuemu__ctx_enter((unsigned char *)tpl->sp + CUEMU_CTX_ENTER_ABOVE_SP - lower,
                   entry);
}
/* Saves the running context in `from` and enters the template's entry
 * as cuemu__ctx_enter_fresh() does; returns when `from` is resumed. */
__attribute__((visibility("hidden"))) void
cuemu__ctx_switch_enter(void **save_sp, void *sp, void (*entry)(void));
static inline void cuemu__ctx_switch_fresh(cuemu_ctx *from,
                                           const cuemu_ctx_template *tpl,
                                           size_t lower,
                                           void (*entry)(void)) {
  cuemu__ctx_switch_enter(
      &from->sp, (unsigned char *)tpl->sp + CUEMU_CTX_ENTER_ABOVE_SP - lower,
      entry);
}
#else
static inline void cuemu__ctx_switch_fresh(cuemu_ctx *from,
                                           const cuemu_ctx_template *tpl,
                                           size_t lower,
                                           void (*entry)(void)) {
  cuemu_ctx fresh;
  (void)entry;
  cuemu__ctx_reset_lower(&fresh, tpl, lower);
  cuemu__ctx_switch(from, &fresh);
}
static inline __attribute__((noreturn)) void
cuemu__ctx_enter_fresh(cuemu_ctx *scratch, const cuemu_ctx_template *tpl,
                       size_t lower, void (*entry)(void)) {
  cuemu_ctx fresh;
  (void)entry;
  cuemu__ctx_reset_lower(&fresh, tpl, lower);
  cuemu__ctx_jump(scratch, &fresh);
}
#endif

/* Where a suspended context's saved state starts, for prefetching; NULL
 * when the backend keeps it elsewhere. */
static inline const void *cuemu__ctx_stack_hint(const cuemu_ctx *ctx) {
#if CUEMU_CONTEXT_UCONTEXT
  (void)ctx;
  return NULL;
#else
  return ctx->sp;
#endif
}

/* The name of the compiled-in backend: "asm-x86_64", "asm-aarch64" or
 * "ucontext". */
const char *cuemu__ctx_backend(void);

/* The program counter of the code that a signal interrupted, from the
 * ucontext_t that an SA_SIGINFO handler gets as its third argument.
 * Async-signal-safe. */
void *cuemu__ctx_fault_pc(const void *ucontext);

/* The stack pointer of the code that a signal interrupted (see above).
 * Async-signal-safe. */
void *cuemu__ctx_fault_sp(const void *ucontext);

/* Whether the access that a SIGSEGV interrupted was a write (1) or a read
 * (0), from the fault's error code; -1 where the architecture's context
 * does not say. Async-signal-safe. */
int cuemu__ctx_fault_write(const void *ucontext);

/* The address of the memory operand of the instruction that a fault
 * interrupted, decoded from the instruction and its registers, for a fault
 * whose signal names none: x86-64's general-protection and stack faults
 * (SIGSEGV and SIGBUS with SI_KERNEL) at a non-canonical address. 1 when
 * found (in *address); 0 for an instruction not decoded (fs- or
 * gs-relative, RIP-relative, EVEX with a scaled displacement) or on an
 * architecture whose faults name their address. Async-signal-safe. */
int cuemu__ctx_fault_operand(const void *ucontext, void **address);

/* After an integer division trapped (SIGFPE), gives the interrupted code
 * the result a GPU gives instead, in its registers, and moves it past the
 * division: all bits set for a division by zero (quotient and remainder),
 * MIN and 0 for the signed MIN / -1. Returns 1 when it did, 0 when the
 * instruction is not such a division (or the architecture's divisions do
 * not trap). Async-signal-safe. */
int cuemu__ctx_emulate_divide(void *ucontext);

/* Where a suspended context keeps the registers it resumes with, so that a
 * debugger can show it: one row per register, as gdb names it, ending with
 * a row whose name is NULL. The layout of the compiled-in backend is
 * written down only here (in the file of the architecture); the gdb
 * extension (emulator/gdb/cuemu_gdb.py) reads this table, and the enum
 * below, through libcuemu's debugging information. */
enum cuemu_ctx_saved_at {
  CUEMU_CTX_AT_SP = 0,   /* the word at the saved stack pointer + offset */
  CUEMU_CTX_SP_PLUS = 1, /* the value is the saved stack pointer + offset */
  CUEMU_CTX_AT_CTX = 2   /* the word at the cuemu_ctx itself + offset */
};

typedef struct cuemu_ctx_saved_reg {
  const char *name;
  enum cuemu_ctx_saved_at at;
  unsigned offset;
} cuemu_ctx_saved_reg;

extern const cuemu_ctx_saved_reg cuemu__ctx_saved_regs[];

#if !CUEMU_CONTEXT_UCONTEXT && defined(__x86_64__)
/* A saved stack pointer with these bits set (cleared, it is the stack
 * pointer) was saved by the light switch of __syncthreads()
 * (emulator/core/cuemu_block_sync_x86_64.S), whose frame
 * cuemu__ctx_light_saved_regs describes; cuemu__ctx_switch() resumes both
 * kinds. The gdb extension reads both. */
extern const unsigned cuemu__ctx_light_tag;
extern const cuemu_ctx_saved_reg cuemu__ctx_light_saved_regs[];
#endif

#if !CUEMU_CONTEXT_UCONTEXT
/* Writes, below the stack pointer that makecontext() left in the
 * ucontext_t `ucontext`, the frame that cuemu__ctx_switch_asm() pops when it
 * first enters the context, and returns where the frame starts (the
 * context's saved stack pointer). Per architecture. */
unsigned char *cuemu__ctx_first_frame(const void *ucontext);
#endif

#endif /* CUEMU_CONTEXT_H */

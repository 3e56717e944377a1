/*
 * cuemu_context.h: execution contexts for emulated CUDA threads.
 *
 * A context is built once per stack by makecontext() and then entered and
 * left with cuemu__ctx_switch(). The asm backend (x86-64 and aarch64, one .S
 * file each) switches callee-saved registers, the stack pointer and the
 * floating-point control state only; the ucontext backend uses swapcontext()
 * and is the portable fallback. configure chooses with --with-context.
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
  unsigned char frame[256];
  size_t frame_size;
#endif
} cuemu_ctx_template;

/* Builds, with makecontext(), a context that calls `entry` on the stack
 * [stack, stack + size). `entry` must never return. */
int cuemu__ctx_template_init(cuemu_ctx_template *tpl, void *stack,
                             size_t size, void (*entry)(void));

/* Makes `ctx` a fresh context that enters the template's entry function. */
void cuemu__ctx_reset(cuemu_ctx *ctx, const cuemu_ctx_template *tpl);

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

#endif /* CUEMU_CONTEXT_H */

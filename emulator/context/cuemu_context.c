/*
 * cuemu_context.c: building and switching thread contexts.
 *
 * Initial contexts always come from makecontext(). With the asm backend the
 * first frame that makecontext() produced is translated once into the frame
 * layout of cuemu__ctx_switch_asm (see the .S files) and kept in a template,
 * so that a pooled stack is made ready again by copying a few words.
 */
#define _GNU_SOURCE
#include "cuemu_context.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#if !CUEMU_CONTEXT_UCONTEXT && !defined(__x86_64__) && !defined(__aarch64__)
#error "no asm context switch for this architecture; configure --with-context=ucontext"
#endif

#if CUEMU_CONTEXT_UCONTEXT

/* The first function of every new context: calls the entry, whose address
 * makecontext() passes as two int halves. The return address is undefined
 * here, so that unwinders and gdb end a coroutine's backtrace at this frame
 * instead of wandering into glibc's __start_context below it. The entry
 * never returns; abort() also keeps the call from becoming a jump, which
 * would take this frame out of the backtrace. */
static void ctx_start(unsigned high, unsigned low) {
#if defined(__x86_64__)
  __asm__ volatile(".cfi_undefined rip");
#elif defined(__aarch64__)
  __asm__ volatile(".cfi_undefined x30");
#endif
  void (*entry)(void) =
      (void (*)(void))(((uintptr_t)high << 16 << 16) | (uintptr_t)low);
  entry();
  abort();
}

/* Points `uc` (its stack already set) at ctx_start, which calls `entry`. */
static void make_start(ucontext_t *uc, void (*entry)(void)) {
  uintptr_t address = (uintptr_t)entry;
  makecontext(uc, (void (*)(void))ctx_start, 2,
              (unsigned)(address >> 16 >> 16), (unsigned)address);
}

int cuemu__ctx_template_init(cuemu_ctx_template *tpl, void *stack,
                             size_t size, void (*entry)(void)) {
  if (getcontext(&tpl->uc) != 0)
    return -1;
  tpl->uc.uc_stack.ss_sp = stack;
  tpl->uc.uc_stack.ss_size = size;
  tpl->uc.uc_link = NULL;
  tpl->entry = entry;
  make_start(&tpl->uc, entry);
  return 0;
}

void cuemu__ctx_reset(cuemu_ctx *ctx, const cuemu_ctx_template *tpl) {
  /* getcontext() fills the machine state (and the pointer to the saved
   * floating-point state inside ctx->uc); makecontext() then points it at
   * the template's stack and entry. */
  getcontext(&ctx->uc);
  ctx->uc.uc_stack = tpl->uc.uc_stack;
  ctx->uc.uc_link = NULL;
  make_start(&ctx->uc, tpl->entry);
}

void cuemu__ctx_switch(cuemu_ctx *from, cuemu_ctx *to) {
  swapcontext(&from->uc, &to->uc);
}

const char *cuemu__ctx_backend(void) { return "ucontext"; }

#else /* asm backend */

int cuemu__ctx_template_init(cuemu_ctx_template *tpl, void *stack,
                             size_t size, void (*entry)(void)) {
  ucontext_t uc;
  if (getcontext(&uc) != 0)
    return -1;
  uc.uc_stack.ss_sp = stack;
  uc.uc_stack.ss_size = size;
  uc.uc_link = NULL;
  makecontext(&uc, entry, 0);

  unsigned char *top = (unsigned char *)stack + size;
  unsigned char *frame = cuemu__ctx_first_frame(&uc);
  size_t frame_size = (size_t)(top - frame);
  if (frame_size > sizeof tpl->frame)
    return -1;
  unsigned char *at = frame;
  if (frame_size <= CUEMU_CTX_FRAME_COPY && size >= CUEMU_CTX_FRAME_COPY) {
    at = top - CUEMU_CTX_FRAME_COPY;
    frame_size = CUEMU_CTX_FRAME_COPY;
  }
  memcpy(tpl->frame, at, frame_size);
  tpl->at = at;
  tpl->frame_size = frame_size;
  tpl->sp = frame;
  return 0;
}

const char *cuemu__ctx_backend(void) {
#if defined(__x86_64__)
  return "asm-x86_64";
#else
  return "asm-aarch64";
#endif
}

#endif

/* The public name of cuemu__ctx_backend() (cuemu.h), for benchmarks and
 * diagnostics outside the library. */
const char *cuemu_context_backend(void) { return cuemu__ctx_backend(); }

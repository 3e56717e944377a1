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

#include <string.h>
#include <ucontext.h>

#if !CUEMU_CONTEXT_UCONTEXT && !defined(__x86_64__) && !defined(__aarch64__)
#error "no asm context switch for this architecture; configure --with-context=ucontext"
#endif

#if CUEMU_CONTEXT_UCONTEXT

int cuemu__ctx_template_init(cuemu_ctx_template *tpl, void *stack,
                             size_t size, void (*entry)(void)) {
  if (getcontext(&tpl->uc) != 0)
    return -1;
  tpl->uc.uc_stack.ss_sp = stack;
  tpl->uc.uc_stack.ss_size = size;
  tpl->uc.uc_link = NULL;
  makecontext(&tpl->uc, entry, 0);
  return 0;
}

void cuemu__ctx_reset(cuemu_ctx *ctx, const cuemu_ctx_template *tpl) {
  /* getcontext() fills the machine state (and the pointer to the saved
   * floating-point state inside ctx->uc); makecontext() then points it at
   * the template's stack and entry. */
  getcontext(&ctx->uc);
  ctx->uc.uc_stack = tpl->uc.uc_stack;
  ctx->uc.uc_link = NULL;
#if defined(__x86_64__)
  makecontext(&ctx->uc, (void (*)(void))tpl->uc.uc_mcontext.gregs[REG_RIP], 0);
#elif defined(__aarch64__)
  makecontext(&ctx->uc, (void (*)(void))tpl->uc.uc_mcontext.pc, 0);
#else
#error "cuemu__ctx_reset needs the entry point of a makecontext()ed context"
#endif
}

void cuemu__ctx_switch(cuemu_ctx *from, cuemu_ctx *to) {
  swapcontext(&from->uc, &to->uc);
}

const char *cuemu__ctx_backend(void) { return "ucontext"; }

#else /* asm backend */

#if defined(__x86_64__)
#define CUEMU_FRAME_BYTES 56
#else
#define CUEMU_FRAME_BYTES 176
/* The first return address of every new context (cuemu_context_aarch64.S). */
void cuemu__ctx_start_aarch64(void);
#endif

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
#if defined(__x86_64__)
  unsigned char *sp0 = (unsigned char *)uc.uc_mcontext.gregs[REG_RSP];
  unsigned char *frame = sp0 - CUEMU_FRAME_BYTES;
  unsigned long long words[7] = {0};
  words[4] = (unsigned long long)uc.uc_mcontext.gregs[REG_RBX];
  words[6] = (unsigned long long)uc.uc_mcontext.gregs[REG_RIP];
  memcpy(frame, words, sizeof words);
#else
  /* makecontext() leaves the entry in pc and the return address it wants
   * the entry to see (glibc's __startcontext, which reads uc_link from x19)
   * in x30. The switch can only return to one address, so it returns to
   * cuemu__ctx_start_aarch64, which calls the entry (x20) with x30 set by
   * the call and goes on to makecontext()'s return address (x21) should the
   * entry return. A new context starts with the FPCR of the thread that
   * built the template, as a setcontext() of this ucontext would. */
  unsigned char *sp0 = (unsigned char *)uc.uc_mcontext.sp;
  unsigned char *frame = sp0 - CUEMU_FRAME_BYTES;
  unsigned long long words[22] = {0};
  unsigned long long fpcr;
  __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
  words[0] = uc.uc_mcontext.regs[19];                       /* x19 */
  words[1] = (unsigned long long)uc.uc_mcontext.pc;         /* x20 */
  words[2] = uc.uc_mcontext.regs[30];                       /* x21 */
  words[10] = uc.uc_mcontext.regs[29];                      /* x29 */
  words[11] = (unsigned long long)cuemu__ctx_start_aarch64; /* x30 */
  words[20] = fpcr;
  memcpy(frame, words, sizeof words);
#endif
  size_t frame_size = (size_t)(top - frame);
  if (frame_size > sizeof tpl->frame)
    return -1;
  memcpy(tpl->frame, frame, frame_size);
  tpl->frame_size = frame_size;
  tpl->sp = frame;
  return 0;
}

void cuemu__ctx_reset(cuemu_ctx *ctx, const cuemu_ctx_template *tpl) {
  memcpy(tpl->sp, tpl->frame, tpl->frame_size);
  ctx->sp = tpl->sp;
}

const char *cuemu__ctx_backend(void) {
#if defined(__x86_64__)
  return "asm-x86_64";
#else
  return "asm-aarch64";
#endif
}

#endif

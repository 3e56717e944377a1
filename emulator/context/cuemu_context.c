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

#if defined(__x86_64__)
#define CUEMU_FRAME_BYTES 56
/* The first return address of every new context (cuemu_context_x86_64.S). */
void cuemu__ctx_start_x86_64(void);
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
  /* makecontext() leaves the entry in rip, the pointer to uc_link that
   * glibc's __start_context reads in rbx, and __start_context's address on
   * top of the stack. The switch returns to cuemu__ctx_start_x86_64, which
   * calls the entry (r12) and goes on to that address (r13) should the entry
   * return. */
  unsigned long long words[7] = {0};
  memcpy(&words[2], sp0, sizeof words[2]);                      /* r13 */
  words[3] = (unsigned long long)uc.uc_mcontext.gregs[REG_RIP]; /* r12 */
  words[4] = (unsigned long long)uc.uc_mcontext.gregs[REG_RBX]; /* rbx */
  words[6] = (unsigned long long)cuemu__ctx_start_x86_64;
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

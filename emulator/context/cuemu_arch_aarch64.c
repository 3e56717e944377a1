/*
 * cuemu_arch_aarch64.c: what the context layer knows of aarch64 besides
 * the switch itself (cuemu_context_aarch64.S): the first frame of a context,
 * where a suspended context keeps its registers (for debuggers), and the
 * program counter of a fault. Empty on other architectures.
 */
#define _GNU_SOURCE
#include "cuemu_context.h"

#if defined(__aarch64__)

#include <stddef.h>
#include <string.h>
#include <ucontext.h>

void *cuemu__ctx_fault_pc(const void *ucontext) {
  const ucontext_t *uc = ucontext;
  return (void *)uc->uc_mcontext.pc;
}

void *cuemu__ctx_fault_sp(const void *ucontext) {
  const ucontext_t *uc = ucontext;
  return (void *)uc->uc_mcontext.sp;
}

int cuemu__ctx_fault_write(const void *ucontext) {
  (void)ucontext;
  return -1;
}

int cuemu__ctx_fault_operand(const void *ucontext, void **address) {
  /* AArch64's faults name their address (a tagged or otherwise invalid
   * one included). */
  (void)ucontext;
  (void)address;
  return 0;
}

int cuemu__ctx_emulate_divide(void *ucontext) {
  /* AArch64's divisions do not trap (a division by zero gives 0, not the
   * GPU's all ones). */
  (void)ucontext;
  return 0;
}

#if CUEMU_CONTEXT_UCONTEXT

/* swapcontext() keeps the registers in the ucontext_t inside cuemu_ctx. */
#define XREG(name, n)                                                          \
  {name, CUEMU_CTX_AT_CTX, (unsigned)offsetof(cuemu_ctx, uc.uc_mcontext.regs[n])}
const cuemu_ctx_saved_reg cuemu__ctx_saved_regs[] = {
    XREG("x19", 19), XREG("x20", 20), XREG("x21", 21), XREG("x22", 22),
    XREG("x23", 23), XREG("x24", 24), XREG("x25", 25), XREG("x26", 26),
    XREG("x27", 27), XREG("x28", 28), XREG("x29", 29), XREG("x30", 30),
    {"sp", CUEMU_CTX_AT_CTX, (unsigned)offsetof(cuemu_ctx, uc.uc_mcontext.sp)},
    {"pc", CUEMU_CTX_AT_CTX, (unsigned)offsetof(cuemu_ctx, uc.uc_mcontext.pc)},
    {NULL, 0, 0}};
#undef XREG

#else /* asm backend */

/* The frame of cuemu__ctx_switch_asm, in words from the saved stack pointer
 * upwards: x19-x28, x29, x30 (where the switch returns to), d8-d15, FPCR and
 * one unused word. */
enum {
  W_X19, W_X20, W_X21, W_X22, W_X23, W_X24, W_X25, W_X26, W_X27, W_X28,
  W_X29, W_X30, W_D8, W_D9, W_D10, W_D11, W_D12, W_D13, W_D14, W_D15,
  W_FPCR, W_UNUSED, FRAME_WORDS
};

#define WORD(name, w) {name, CUEMU_CTX_AT_SP, (unsigned)(8 * (w))}
const cuemu_ctx_saved_reg cuemu__ctx_saved_regs[] = {
    WORD("x19", W_X19), WORD("x20", W_X20), WORD("x21", W_X21),
    WORD("x22", W_X22), WORD("x23", W_X23), WORD("x24", W_X24),
    WORD("x25", W_X25), WORD("x26", W_X26), WORD("x27", W_X27),
    WORD("x28", W_X28), WORD("x29", W_X29), WORD("x30", W_X30),
    /* The switch returns to x30 with the whole frame popped. */
    WORD("pc", W_X30),
    {"sp", CUEMU_CTX_SP_PLUS, 8 * FRAME_WORDS},
    {NULL, 0, 0}};
#undef WORD

/* The first return address of every new context (cuemu_context_aarch64.S). */
void cuemu__ctx_start_aarch64(void);

unsigned char *cuemu__ctx_first_frame(const void *ucontext) {
  const ucontext_t *uc = ucontext;
  /* makecontext() leaves the entry in pc and the return address it wants
   * the entry to see (glibc's __startcontext, which reads uc_link from x19)
   * in x30. The switch can only return to one address, so it returns to
   * cuemu__ctx_start_aarch64, which calls the entry (x20) with x30 set by
   * the call and goes on to makecontext()'s return address (x21) should the
   * entry return. A new context starts with the FPCR of the thread that
   * built the template, as a setcontext() of this ucontext would. */
  unsigned char *sp0 = (unsigned char *)uc->uc_mcontext.sp;
  unsigned char *frame = sp0 - 8 * FRAME_WORDS;
  unsigned long long words[FRAME_WORDS] = {0};
  unsigned long long fpcr;
  __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
  words[W_X19] = uc->uc_mcontext.regs[19];
  words[W_X20] = (unsigned long long)uc->uc_mcontext.pc;
  words[W_X21] = uc->uc_mcontext.regs[30];
  words[W_X29] = uc->uc_mcontext.regs[29];
  words[W_X30] = (unsigned long long)cuemu__ctx_start_aarch64;
  words[W_FPCR] = fpcr;
  memcpy(frame, words, sizeof words);
  return frame;
}

#endif /* CUEMU_CONTEXT_UCONTEXT */

#endif /* __aarch64__ */

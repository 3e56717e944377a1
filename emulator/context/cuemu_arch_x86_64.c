/*
 * cuemu_arch_x86_64.c: what the context layer knows of x86-64 besides
 * the switch itself (cuemu_context_x86_64.S): the first frame of a context,
 * where a suspended context keeps its registers (for debuggers), and the
 * program counter of a fault. Empty on other architectures.
 */
#define _GNU_SOURCE
#include "cuemu_context.h"

#if defined(__x86_64__)

#include <stddef.h>
#include <string.h>
#include <ucontext.h>

void *cuemu__ctx_fault_pc(const void *ucontext) {
  const ucontext_t *uc = ucontext;
  return (void *)uc->uc_mcontext.gregs[REG_RIP];
}

void *cuemu__ctx_fault_sp(const void *ucontext) {
  const ucontext_t *uc = ucontext;
  return (void *)uc->uc_mcontext.gregs[REG_RSP];
}

#if CUEMU_CONTEXT_UCONTEXT

/* swapcontext() keeps the registers in the ucontext_t inside cuemu_ctx. */
#define GREG(name, reg)                                                        \
  {name, CUEMU_CTX_AT_CTX,                                                     \
   (unsigned)offsetof(cuemu_ctx, uc.uc_mcontext.gregs[reg])}
const cuemu_ctx_saved_reg cuemu__ctx_saved_regs[] = {
    GREG("r12", REG_R12), GREG("r13", REG_R13), GREG("r14", REG_R14),
    GREG("r15", REG_R15), GREG("rbp", REG_RBP), GREG("rbx", REG_RBX),
    GREG("rsp", REG_RSP), GREG("rip", REG_RIP), {NULL, 0, 0}};
#undef GREG

#else /* asm backend */

/* The frame of cuemu__ctx_switch_asm, in words from the saved stack pointer
 * upwards: what it pops, then the address it returns to. */
enum { W_R15, W_R14, W_R13, W_R12, W_RBX, W_RBP, W_RIP, FRAME_WORDS };

#define WORD(name, w) {name, CUEMU_CTX_AT_SP, (unsigned)(8 * (w))}
const cuemu_ctx_saved_reg cuemu__ctx_saved_regs[] = {
    WORD("r15", W_R15), WORD("r14", W_R14), WORD("r13", W_R13),
    WORD("r12", W_R12), WORD("rbx", W_RBX), WORD("rbp", W_RBP),
    WORD("rip", W_RIP),
    /* The switch returns with the whole frame popped. */
    {"rsp", CUEMU_CTX_SP_PLUS, 8 * FRAME_WORDS},
    {NULL, 0, 0}};
#undef WORD

/* The first return address of every new context (cuemu_context_x86_64.S). */
void cuemu__ctx_start_x86_64(void);

unsigned char *cuemu__ctx_first_frame(const void *ucontext) {
  const ucontext_t *uc = ucontext;
  unsigned char *sp0 = (unsigned char *)uc->uc_mcontext.gregs[REG_RSP];
  unsigned char *frame = sp0 - 8 * FRAME_WORDS;
  /* makecontext() leaves the entry in rip, the pointer to uc_link that
   * glibc's __start_context reads in rbx, and __start_context's address on
   * top of the stack. The switch returns to cuemu__ctx_start_x86_64, which
   * calls the entry (r12) and goes on to that address (r13) should the entry
   * return. */
  unsigned long long words[FRAME_WORDS] = {0};
  memcpy(&words[W_R13], sp0, sizeof words[W_R13]);
  words[W_R12] = (unsigned long long)uc->uc_mcontext.gregs[REG_RIP];
  words[W_RBX] = (unsigned long long)uc->uc_mcontext.gregs[REG_RBX];
  words[W_RIP] = (unsigned long long)cuemu__ctx_start_x86_64;
  memcpy(frame, words, sizeof words);
  return frame;
}

#endif /* CUEMU_CONTEXT_UCONTEXT */

#endif /* __x86_64__ */

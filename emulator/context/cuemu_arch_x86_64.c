/*
 * cuemu_arch_x86_64.c: what the context layer knows of x86-64 besides
 * the switch itself (cuemu_context_x86_64.S): the first frame of a context,
 * where a suspended context keeps its registers (for debuggers), the
 * program counter of a fault, and the GPU's result of an integer division
 * that traps on x86. Empty on other architectures.
 */
#define _GNU_SOURCE
#include "cuemu_context.h"

#if defined(__x86_64__)

#include <stddef.h>
#include <stdint.h>
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

/* A light frame (__syncthreads()'s, emulator/core/cuemu_block_sync_x86_64.S):
 * rbp, then the return address; the code it returns to holds nothing in the
 * other registers. */
const unsigned cuemu__ctx_light_tag = 1;
const cuemu_ctx_saved_reg cuemu__ctx_light_saved_regs[] = {
    WORD("rbp", 0), WORD("rip", 1), {"rsp", CUEMU_CTX_SP_PLUS, 16},
    {NULL, 0, 0}};
#undef WORD

/* cuemu__ctx_enter_fresh() (cuemu_context.h) calls the entry where
 * cuemu__ctx_start_x86_64 does: above the frame and the word of
 * __start_context's address. */
_Static_assert(CUEMU_CTX_ENTER_ABOVE_SP == 8 * FRAME_WORDS + 8,
               "the entry's stack pointer");

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

/* The gregs[] index of x86 register number n (0 rax ... 15 r15). */
static const int greg_of[16] = {REG_RAX, REG_RCX, REG_RDX, REG_RBX,
                                REG_RSP, REG_RBP, REG_RSI, REG_RDI,
                                REG_R8,  REG_R9,  REG_R10, REG_R11,
                                REG_R12, REG_R13, REG_R14, REG_R15};

/* Reads `bytes` (1, 2, 4, 8) little-endian bytes at p, zero-extended. */
static unsigned long long load(const unsigned char *p, unsigned bytes) {
  unsigned long long v = 0;
  for (unsigned i = 0; i < bytes; ++i)
    v |= (unsigned long long)p[i] << (8 * i);
  return v;
}

int cuemu__ctx_fault_write(const void *ucontext) {
  const ucontext_t *uc = ucontext;
  /* Bit 1 of the page fault's error code: the access was a write. */
  return (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
}

int cuemu__ctx_emulate_divide(void *ucontext) {
  ucontext_t *uc = ucontext;
  greg_t *g = uc->uc_mcontext.gregs;
  const unsigned char *ip = (const unsigned char *)g[REG_RIP], *p = ip;
  unsigned opsize16 = 0, rex = 0;
  /* Legacy prefixes, then REX. */
  for (;; ++p) {
    if (*p == 0x66)
      opsize16 = 1;
    else if (*p == 0x67 || *p == 0xf0 || *p == 0xf2 || *p == 0xf3 ||
             *p == 0x2e || *p == 0x36 || *p == 0x3e || *p == 0x26 ||
             *p == 0x64 || *p == 0x65)
      continue;
    else
      break;
  }
  if ((*p & 0xf0) == 0x40)
    rex = *p++;
  if (*p != 0xf6 && *p != 0xf7)
    return 0;
  unsigned bytes = *p == 0xf6 ? 1 : (rex & 8) ? 8 : opsize16 ? 2 : 4;
  unsigned char modrm = *++p;
  unsigned mod = modrm >> 6, op = (modrm >> 3) & 7, rm = modrm & 7;
  if (op != 6 && op != 7)
    return 0; /* not div or idiv */
  ++p;
  unsigned long long divisor;
  if (mod == 3) {
    unsigned r = rm | ((rex & 1) << 3);
    if (bytes == 1 && !rex && r >= 4) /* ah, ch, dh, bh */
      divisor = ((unsigned long long)g[greg_of[r - 4]] >> 8) & 0xff;
    else
      divisor = (unsigned long long)g[greg_of[r]];
  } else {
    /* The effective address of the memory operand. */
    long long address = 0;
    unsigned base = rm | ((rex & 1) << 3);
    int rip_relative = 0;
    if (rm == 4) {
      unsigned char sib = *p++;
      unsigned scale = sib >> 6, index = ((sib >> 3) & 7) | ((rex & 2) << 2);
      base = (sib & 7) | ((rex & 1) << 3);
      if (index != 4)
        address += (long long)g[greg_of[index]] << scale;
      if ((sib & 7) == 5 && mod == 0)
        base = 16; /* no base: a 32-bit displacement */
    } else if (rm == 5 && mod == 0) {
      rip_relative = 1;
      base = 16;
    }
    if (base < 16)
      address += (long long)g[greg_of[base]];
    if (mod == 1) {
      address += (signed char)*p;
      p += 1;
    } else if (mod == 2 || base == 16) {
      address += (int)load(p, 4);
      p += 4;
    }
    if (rip_relative)
      address += (long long)(unsigned long long)(uintptr_t)p;
    divisor = load((const unsigned char *)(uintptr_t)address, bytes);
  }
  unsigned long long mask =
      bytes == 8 ? ~0ull : (1ull << (8 * bytes)) - 1;
  divisor &= mask;
  /* The GPU's results: all bits set for a division by zero (quotient and
   * remainder alike); for the signed overflow MIN / -1, MIN and 0. */
  unsigned long long quotient = mask, remainder = mask;
  if (divisor != 0) {
    if (op != 7)
      return 0; /* an unsigned quotient too wide: not a GPU case */
    quotient = 1ull << (8 * bytes - 1);
    remainder = 0;
  }
  unsigned long long rax = (unsigned long long)g[REG_RAX];
  unsigned long long rdx = (unsigned long long)g[REG_RDX];
  if (bytes == 1) {
    rax = (rax & ~0xffffull) | (remainder & 0xff) << 8 | (quotient & 0xff);
  } else if (bytes == 2) {
    rax = (rax & ~0xffffull) | quotient;
    rdx = (rdx & ~0xffffull) | remainder;
  } else {
    rax = quotient; /* 32-bit results zero the upper halves */
    rdx = remainder;
  }
  g[REG_RAX] = (greg_t)rax;
  g[REG_RDX] = (greg_t)rdx;
  g[REG_RIP] = (greg_t)(uintptr_t)p;
  return 1;
}

#endif /* __x86_64__ */

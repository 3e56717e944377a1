/*
 * cuemu_arch_x86_64.c: what the context layer knows of x86-64 besides
 * the switch itself (cuemu_context_x86_64.S): the first frame of a context,
 * where a suspended context keeps its registers (for debuggers), the
 * program counter of a fault, the address of a fault that the processor
 * does not name (decoded from the faulting instruction's memory operand),
 * and the GPU's result of an integer division that traps on x86. Empty on other architectures.
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

/* An instruction's prefixes: the legacy ones, then REX, as decoded by
 * skip_prefixes(). */
typedef struct {
  unsigned opsize16; /* 0x66 */
  unsigned addr32;   /* 0x67: 32-bit addressing */
  unsigned segment;  /* 0x64 (fs) or 0x65 (gs), else 0 */
  unsigned rex;      /* the REX byte, or 0 */
} prefixes;

static const unsigned char *skip_prefixes(const unsigned char *p,
                                          prefixes *x) {
  *x = (prefixes){0, 0, 0, 0};
  for (;; ++p) {
    if (*p == 0x66)
      x->opsize16 = 1;
    else if (*p == 0x67)
      x->addr32 = 1;
    else if (*p == 0x64 || *p == 0x65)
      x->segment = *p;
    else if (*p == 0xf0 || *p == 0xf2 || *p == 0xf3 || *p == 0x2e ||
             *p == 0x36 || *p == 0x3e || *p == 0x26)
      continue;
    else
      break;
  }
  if ((*p & 0xf0) == 0x40)
    x->rex = *p++;
  return p;
}

/* The effective address of the memory operand whose ModRM byte is at p
 * (mod != 3), with REX's X and B bits in `rex`: 1 when it was found (in
 * *address, and *end the byte after the displacement), 0 for a
 * RIP-relative operand when `rip_ok` is 0 (its address needs the whole
 * instruction's length, which only the caller knows). */
static int operand_address(const greg_t *g, const unsigned char *p,
                           unsigned rex, int rip_ok, long long *address,
                           const unsigned char **end) {
  unsigned char modrm = *p++;
  unsigned mod = modrm >> 6, rm = modrm & 7;
  unsigned base = rm | ((rex & 1) << 3);
  int rip_relative = 0;
  *address = 0;
  if (rm == 4) {
    unsigned char sib = *p++;
    unsigned scale = sib >> 6, index = ((sib >> 3) & 7) | ((rex & 2) << 2);
    base = (sib & 7) | ((rex & 1) << 3);
    if (index != 4)
      *address += (long long)g[greg_of[index]] << scale;
    if ((sib & 7) == 5 && mod == 0)
      base = 16; /* no base: a 32-bit displacement */
  } else if (rm == 5 && mod == 0) {
    if (!rip_ok)
      return 0;
    rip_relative = 1;
    base = 16;
  }
  if (base < 16)
    *address += (long long)g[greg_of[base]];
  if (mod == 1) {
    *address += (signed char)*p;
    p += 1;
  } else if (mod == 2 || base == 16) {
    *address += (int)load(p, 4);
    p += 4;
  }
  if (rip_relative)
    *address += (long long)(unsigned long long)(uintptr_t)p;
  *end = p;
  return 1;
}

/* One-byte opcodes with a ModRM byte (Intel's opcode map, 64-bit mode):
 * the arithmetic groups' r/m forms, movsxd, imul, the immediate groups,
 * test, xchg, mov, lea, pop r/m, the shift groups, x87, and the unary
 * groups. */
static int has_modrm(unsigned char op) {
  if (op < 0x40)
    return (op & 7) < 4;
  return op == 0x63 || op == 0x69 || op == 0x6b ||
         (op >= 0x80 && op <= 0x8f) || op == 0xc0 || op == 0xc1 ||
         op == 0xc6 || op == 0xc7 || (op >= 0xd0 && op <= 0xd3) ||
         (op >= 0xd8 && op <= 0xdf) || op == 0xf6 || op == 0xf7 ||
         op == 0xfe || op == 0xff;
}

int cuemu__ctx_fault_operand(const void *ucontext, void **address) {
  const ucontext_t *uc = ucontext;
  const greg_t *g = uc->uc_mcontext.gregs;
  prefixes x;
  const unsigned char *p = skip_prefixes((const unsigned char *)g[REG_RIP],
                                         &x);
  if (x.segment)
    return 0; /* fs- or gs-relative: thread-local data, not a pointer */
  unsigned rex = x.rex;
  unsigned char op = *p;
  if (!rex && (op == 0xc4 || op == 0xc5 || op == 0x62)) {
    /* VEX (c5: two bytes, c4: three) and EVEX (62): their R, X and B
     * bits are inverted; the opcode follows, then ModRM. EVEX's 8-bit
     * displacements are scaled by the operand's size, which only the
     * opcode tells: given up below. */
    unsigned lead = op, bits = p[1];
    if (lead != 0xc5)
      rex = (~bits >> 5) & 3; /* X and B */
    p += lead == 0xc5 ? 3 : lead == 0xc4 ? 4 : 5;
    if (lead == 0x62 && (*p >> 6) == 1)
      return 0;
  } else if (op == 0x0f) {
    /* The two-byte map, and its 0f 38 and 0f 3a maps: every instruction
     * that reads or writes memory there has ModRM. */
    p += (p[1] == 0x38 || p[1] == 0x3a) ? 3 : 2;
  } else if (op >= 0xa4 && op <= 0xaf && op != 0xa8 && op != 0xa9) {
    /* The string instructions: movs and cmps read at rsi and write or
     * read at rdi, stos and scas at rdi, lods at rsi. The operand named
     * is the one that cannot be an address. */
    long long rsi = (long long)g[REG_RSI], rdi = (long long)g[REG_RDI];
    int at_rdi = op == 0xaa || op == 0xab || op == 0xae || op == 0xaf;
    int at_rsi = op == 0xac || op == 0xad;
    long long a = at_rdi   ? rdi
                  : at_rsi ? rsi
                  : (rsi >> 47 == 0 || rsi >> 47 == -1) ? rdi
                                                         : rsi;
    *address = (void *)(uintptr_t)(x.addr32 ? (unsigned)a : a);
    return 1;
  } else if (has_modrm(op)) {
    p += 1;
  } else {
    return 0;
  }
  if ((*p >> 6) == 3)
    return 0; /* a register operand: no memory */
  long long a;
  const unsigned char *end;
  if (!operand_address(g, p, rex, 0, &a, &end))
    return 0;
  *address = (void *)(uintptr_t)(x.addr32 ? (unsigned long long)(unsigned)a
                                          : (unsigned long long)a);
  return 1;
}

int cuemu__ctx_emulate_divide(void *ucontext) {
  ucontext_t *uc = ucontext;
  greg_t *g = uc->uc_mcontext.gregs;
  prefixes x;
  const unsigned char *p = skip_prefixes((const unsigned char *)g[REG_RIP],
                                         &x);
  unsigned rex = x.rex;
  if (*p != 0xf6 && *p != 0xf7)
    return 0;
  unsigned bytes = *p == 0xf6 ? 1 : (rex & 8) ? 8 : x.opsize16 ? 2 : 4;
  unsigned char modrm = *++p;
  unsigned mod = modrm >> 6, op = (modrm >> 3) & 7, rm = modrm & 7;
  if (op != 6 && op != 7)
    return 0; /* not div or idiv */
  unsigned long long divisor;
  if (mod == 3) {
    ++p;
    unsigned r = rm | ((rex & 1) << 3);
    if (bytes == 1 && !rex && r >= 4) /* ah, ch, dh, bh */
      divisor = ((unsigned long long)g[greg_of[r - 4]] >> 8) & 0xff;
    else
      divisor = (unsigned long long)g[greg_of[r]];
  } else {
    /* div and idiv have no immediate: the instruction ends with the
     * displacement, so a RIP-relative operand's address is known. */
    long long address;
    operand_address(g, p, rex, 1, &address, &p);
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

/*
 * cuemu_rt_pkey_frame.c: PKRU and the trap flag in a signal's frame (see
 * the header). The frame's floating-point state is the XSAVE area in its
 * standard layout: the legacy 512 bytes, whose software bytes (at 464)
 * say that an extended area follows and which features it holds, the
 * header (its first word, at 512, the features present; a feature absent
 * there is in its initial state, PKRU's 0), then each feature at the
 * offset CPUID leaf 0xD gives it (PKRU is feature 9).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <ucontext.h>

#include "runtime/cuemu_rt_pkey_frame.h"

#if defined(__x86_64__) && defined(__linux__)
#include <cpuid.h>

#define PKRU_FEATURE 9u
#define XSTATE_MAGIC1 0x46505853u
#define SOFTWARE_BYTES 464
#define HEADER 512
#define TRAP_FLAG 0x100

/* PKRU's offset in the area, 0 when the CPU has none. */
static unsigned pkru_offset(void) {
  static unsigned offset = ~0u;
  if (offset == ~0u) {
    unsigned a = 0, b = 0, c = 0, d = 0;
    offset = __get_cpuid_count(0xd, PKRU_FEATURE, &a, &b, &c, &d) && a >= 4
                 ? b
                 : 0;
  }
  return offset;
}

/* The frame's area, when it holds PKRU. */
static unsigned char *area(void *ucontext) {
  ucontext_t *uc = ucontext;
  unsigned char *x = (unsigned char *)uc->uc_mcontext.fpregs;
  unsigned offset = pkru_offset();
  if (!x || !offset)
    return NULL;
  uint32_t magic = 0, size = 0;
  uint64_t features = 0;
  memcpy(&magic, x + SOFTWARE_BYTES, 4);
  memcpy(&size, x + SOFTWARE_BYTES + 4, 4);
  memcpy(&features, x + SOFTWARE_BYTES + 8, 8);
  if (magic != XSTATE_MAGIC1 || !(features & (1ull << PKRU_FEATURE)) ||
      offset + 4 > size)
    return NULL;
  return x;
}

int cuemu__pkey_frame_get(void *ucontext, uint32_t *pkru) {
  unsigned char *x = area(ucontext);
  if (!x)
    return 0;
  uint64_t present = 0;
  memcpy(&present, x + HEADER, 8);
  *pkru = 0;
  if (present & (1ull << PKRU_FEATURE))
    memcpy(pkru, x + pkru_offset(), 4);
  return 1;
}

int cuemu__pkey_frame_set(void *ucontext, uint32_t pkru) {
  unsigned char *x = area(ucontext);
  if (!x)
    return 0;
  uint64_t present = 0;
  memcpy(&present, x + HEADER, 8);
  present |= 1ull << PKRU_FEATURE;
  memcpy(x + pkru_offset(), &pkru, 4);
  memcpy(x + HEADER, &present, 8);
  return 1;
}

int cuemu__pkey_frame_step(void *ucontext, int on) {
  ucontext_t *uc = ucontext;
  if (on)
    uc->uc_mcontext.gregs[REG_EFL] |= TRAP_FLAG;
  else
    uc->uc_mcontext.gregs[REG_EFL] &= ~(greg_t)TRAP_FLAG;
  return 1;
}

#else

int cuemu__pkey_frame_get(void *ucontext, uint32_t *pkru) {
  (void)ucontext;
  (void)pkru;
  return 0;
}

int cuemu__pkey_frame_set(void *ucontext, uint32_t pkru) {
  (void)ucontext;
  (void)pkru;
  return 0;
}

int cuemu__pkey_frame_step(void *ucontext, int on) {
  (void)ucontext;
  (void)on;
  return 0;
}

#endif

uint32_t cuemu__pkey_access(uint32_t pkru, int key, int deny) {
  /* Two bits a key: access disabled, write disabled. */
  uint32_t bits = 3u << (2 * key);
  return deny ? (pkru & ~bits) | (1u << (2 * key)) : pkru & ~bits;
}

/*
 * cuemu_warp_call.h: cuemu_warp_call(), the call of a warp collective that
 * the intrinsics of cuemu_warp.h and the cooperative groups' tiles make:
 * cuemu_warp_collective() (cuemu_device.h), with the same parameters.
 *
 * On x86-64 it calls cuemu_warp_sync (cuemu_device.h) from an asm statement
 * that names every register but rbp and rsp as clobbered, as __syncthreads()
 * does (cuemu_sync.h, which explains the red zone, the memory fences and
 * the never-taken label): the kernel keeps in its own frame only what is
 * live across the collective, and the switch of a lane that waits saves
 * nothing else. The op and mask, and the arg and width, travel as one word
 * each, which is how the runtime's gather record compares them; with
 * constant operands the compiler folds them.
 *
 * The lane's inline-PTX carry flag (cuemu_ptx_carry) is kept across the
 * call, in the lane's own frame: the other lanes run while it waits, and on
 * a GPU a shuffle or a vote leaves a lane's carry alone, so that a carry
 * chain may go on after one (CGBN's division shuffles each limb in between
 * its subc.cc steps).
 */
#ifndef CUEMU_WARP_CALL_H
#define CUEMU_WARP_CALL_H

#include <cuemu/cuemu_device.h>

#include "cuemu_sync.h"

#if defined(__x86_64__) && !defined(CUEMU_NO_WARP_SYNC) &&                  \
    defined(CUEMU_SYNC_CLOBBERS_AVX512)
inline unsigned long long cuemu_warp_call(int op, unsigned mask,
                                          unsigned long long value, int arg,
                                          int width, const char *name,
                                          const char *file, int line) {
  unsigned long long key =
      static_cast<unsigned long long>(mask) << 32 | static_cast<unsigned>(op);
  unsigned long long operands =
      static_cast<unsigned long long>(static_cast<unsigned>(width)) << 32 |
      static_cast<unsigned>(arg);
  unsigned long long result;
  const unsigned long long cuemu_carry = cuemu_ptx_carry;
  /* The fence first: a checked build makes it a call, which would clobber
   * r8 and r9 once they hold the operands. */
  CUEMU_SYNC_FENCE();
  register const char *cuemu_file __asm__("r8") = file;
  register long cuemu_line __asm__("r9") = line;
  __asm__ volatile goto("call *cuemu_warp_sync@GOTPCREL(%%rip)"
               : "=a"(result), "+D"(key), "+S"(value), "+d"(operands),
                 "+c"(name), "+r"(cuemu_file), "+r"(cuemu_line)
               :
               : "r10", "r11", "rbx", "r12", "r13", "r14", "r15", "xmm0",
                 "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
                 "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",
                 "xmm15", "st", "st(1)", "st(2)", "st(3)", "st(4)", "st(5)",
                 "st(6)", "st(7)", "mm0", "mm1", "mm2", "mm3", "mm4", "mm5",
                 "mm6", "mm7",
                 "cc" CUEMU_SYNC_CLOBBERS_MEMORY CUEMU_SYNC_CLOBBERS_AVX512
               : cuemu_not_leaf);
  CUEMU_SYNC_FENCE();
  cuemu_ptx_carry = cuemu_carry;
  return result;
cuemu_not_leaf:
  result = cuemu_warp_collective(op, mask, value, arg, width, name, file, line);
  cuemu_ptx_carry = cuemu_carry;
  return result;
}
#else
inline unsigned long long cuemu_warp_call(int op, unsigned mask,
                                          unsigned long long value, int arg,
                                          int width, const char *name,
                                          const char *file, int line) {
  const unsigned long long cuemu_carry = cuemu_ptx_carry;
  unsigned long long result =
      cuemu_warp_collective(op, mask, value, arg, width, name, file, line);
  cuemu_ptx_carry = cuemu_carry;
  return result;
}
#endif

#endif /* CUEMU_WARP_CALL_H */

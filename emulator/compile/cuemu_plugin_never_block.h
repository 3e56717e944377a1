/*
 * cuemu_plugin_never_block.h: libcuemu's functions that kernel code calls
 * and that never switch the running thread to another, for the detached
 * passes of cuemu's compiler plugins (cuemu_gcc_plugin_detached.cc,
 * cuemu_llvm_plugin_detached.cc): a call of one of them cannot come back
 * with cuemu_thread_detached set, so a kernel that calls them keeps its
 * barrier-free thread loop. Schedule perturbation's notes of atomic adds
 * (cuemu_device.h) are such calls: the shims' atomicAdd makes them only
 * while a launch is perturbed, but every integer and floating-point
 * atomicAdd holds the call, and the kernels that use atomicAdd lost the
 * loop (tests/programs_saxpy.sh's no_barrier).
 */
#ifndef CUEMU_COMPILE_PLUGIN_NEVER_BLOCK_H
#define CUEMU_COMPILE_PLUGIN_NEVER_BLOCK_H

#include <cstring>

/* Whether the function named `name` is one of them: it takes at most a
 * mutex of its own, never a barrier, a collective or a yield. */
inline bool cuemu_plugin_never_blocks(const char *name) {
  static const char *const names[] = {"cuemu_atomic_slot_note",
                                      "cuemu_atomic_fadd_exact"};
  for (const char *n : names)
    if (std::strcmp(name, n) == 0)
      return true;
  return false;
}

#endif

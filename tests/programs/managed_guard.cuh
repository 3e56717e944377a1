/*
 * managed_guard.cuh: whether a host touch of managed memory while a kernel
 * may run can be checked here, on a device without concurrent managed
 * access (CUEMU_DEVICE's cma=0). A GPU's driver always checks it; cuemu
 * checks it with Linux's protection keys, which some CPUs and virtual
 * machines lack (cuemu then notes that nothing is checked). The programs
 * that expect such a touch to fault expect it only where it can.
 */
#ifndef CUEMU_TEST_PROGRAMS_MANAGED_GUARD_CUH
#define CUEMU_TEST_PROGRAMS_MANAGED_GUARD_CUH

#include <cstdio>
#include <sys/mman.h>

static inline bool managed_guard_available() {
#ifdef __CUEMU__
  int key = pkey_alloc(0, 0);
  if (key < 0) {
    std::printf("note: no protection keys here: cuemu cannot check host "
                "touches of managed memory, and they are not expected to "
                "fault\n");
    return false;
  }
  pkey_free(key);
#endif
  return true;
}

#endif

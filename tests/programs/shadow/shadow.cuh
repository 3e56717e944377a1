// shadow.cuh: what the units of tests/programs/shadow share
// (tests/programs_shadow.sh).
#pragma once
#include <cstdio>
#include <cuda_runtime.h>

#define SHADOW_CHECK(what, cond)                                              \
  do {                                                                        \
    if (!(cond)) {                                                            \
      printf("FAIL: %s (line %d)\n", what, __LINE__);                       \
      return 1;                                                               \
    }                                                                         \
  } while (0)

#ifdef SHADOW_RDC
// Defined in shadow_other.cu, used by both units' kernels and host code.
extern __device__ int linked_count;
// shadow_other.cu's host code: 0 when its own checks of linked_count pass.
int shadow_other_checks(int expected_device_value);
#endif

/*
 * cuemu_cccl_brings.h: whether a unit's own code names what nvcc's
 * <cooperative_groups.h> brings only through libcu++ and the heavier
 * headers of the C++ library (shims/cuda_builtins/cuemu_cccl_brings.h).
 * Internal to libcuemu.
 */
#ifndef CUEMU_CCCL_BRINGS_SCAN_H
#define CUEMU_CCCL_BRINGS_SCAN_H

#include <stddef.h>

/* What a unit needs (cuemu__unit_needs_cccl_brings()), each with the macro
 * with which it is then preprocessed again: the narrow float types
 * (<cuda_fp16.h>, <cuda_bf16.h>, <cuda_fp8.h>), libcu++ (and the headers
 * of the C++ library), the heavier headers of the C++ library alone. */
#define CUEMU_CCCL_BRINGS_FLOATS 1
#define CUEMU_CCCL_BRINGS_LIBRARIES 2
#define CUEMU_CCCL_BRINGS_STD 4
#define CUEMU_CCCL_BRINGS_FLOATS_MACRO "-DCUEMU_CCCL_BRINGS_FLOATS=1"
#define CUEMU_CCCL_BRINGS_LIBRARIES_MACRO "-DCUEMU_CCCL_BRINGS_ALL=1"
#define CUEMU_CCCL_BRINGS_STD_MACRO "-DCUEMU_CCCL_BRINGS_STD=1"

/* What the preprocessed unit text[0, size) (line markers kept) needs, as
 * CUEMU_CCCL_BRINGS_* bits, when it reads cuemu_cccl_brings.h (includes
 * cooperative groups; else 0): FLOATS when it names, outside system
 * headers and outside the files under the folders `skip[0..nskip)` (the
 * shims, cuemu's own headers), a name of the narrow float types (__half,
 * __nv_bfloat16, __float2half...), LIBRARIES when it names there the
 * namespace `cuda` (`cuda::`), STD when it names a name of the C++ library
 * that nvcc's <cooperative_groups.h> brings with <string>, <chrono>,
 * <stdexcept>, <iterator> or <system_error> (`std::string`...), or has
 * `using namespace std`; FLOATS and STD not when the unit reads their
 * headers already. A name in a string literal counts too: the cost is a slower
 * compile, never a wrong one. */
int cuemu__unit_needs_cccl_brings(const char *text, size_t size,
                                  const char *const *skip, int nskip);

#endif /* CUEMU_CCCL_BRINGS_SCAN_H */

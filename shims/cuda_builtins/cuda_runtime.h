/*
 * cuda_runtime.h: what nvcc makes available to every .cu file. cuemu-cc
 * force-includes it; it brings the qualifiers, built-in variables, vector
 * types, math, intrinsics, atomics, barriers and the runtime API.
 *
 * helper_cuda.h-style helpers look for __CUDA_RUNTIME_H__, so it is defined
 * as CUDA defines it.
 */
#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__

/* In a C file, what NVIDIA's header gives C: the types, the runtime API
 * (cuda_runtime_api.h's C view) and the make_* constructors. */
#ifndef __cplusplus
#include "builtin_types.h"
#include "library_types.h"
#include "cuda_runtime_api.h"
#include "driver_functions.h"
#include "vector_functions.h"
#else
/* A module's fixed-width types are NVRTC's (cuemu_rtc_stdint_hide.h). */
#include "cuemu_rtc_stdint_hide.h"
/* A module's <cmath> has no C++17 special functions, as NVRTC's. */
#include "cuemu_rtc_specfun_hide.h"

/* nvcc's cuda_runtime.h does not bring the C library's assert: code that
 * calls assert() without <assert.h> or <cassert>, in a kernel or on the
 * host, is nvcc 13's error ("identifier "assert" is undefined"; two
 * programs of the Altis suite). NVRTC has it (a module's source uses it
 * bare), and CCCL's headers bring it where nvcc's do (cuemu_cccl_brings.h). */
#ifdef __CUDACC_RTC__
#include <cassert>
#endif
#include <climits>
#include <cmath>
/* nvcc's cuda_runtime.h brings glibc's <ctype.h> (toupper, isdigit... in
 * the global namespace): a .cu file uses them without an #include. */
#include <ctype.h>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
/* nvcc's host compiler, g++, declares ::nullptr_t in its <stddef.h>, which
 * nvcc's cuda_runtime.h reads: a .cu file names it bare. clang's
 * <stddef.h> does not, so with -ccbin clang++ it is declared here as g++
 * declares it (tests/driver/implicit/names.txt). */
#if defined(__clang__)
typedef decltype(nullptr) nullptr_t;
#endif

#include "cuemu_qualifiers.h"
#include "vector_types.h"
#include "vector_functions.h"
/* CUDA code (cuemu-cc's passes and modules define __CUDACC__, as nvcc
 * does) gets CUDA's device functions and built-in variables. Host code that
 * a host compiler compiles (a .cpp file, given to it by cuemu-nvcc as by
 * nvcc, or by CMake with the toolkit's include folder) does not, as with
 * NVIDIA's header, which declares them under __CUDACC__ only: a header's
 * own host fallbacks of CUDA's names (helper_math.h-style max, min,
 * rsqrtf and fminf under #ifndef __CUDACC__) are then no redefinitions, and
 * printf and clock are the C library's. */
#ifdef __CUDACC__
/* CUDA 9 took __CUDACC_VER__'s number away; nvcc 13's crt/common_functions.h
 * still defines it, as this string, so that code printing it (CMake
 * examples' `std::cout << __CUDACC_VER__`) builds and prints the message. */
#define __CUDACC_VER__                                                         \
  "__CUDACC_VER__ is no longer supported.  Use __CUDACC_VER_MAJOR__, "        \
  "__CUDACC_VER_MINOR__, and __CUDACC_VER_BUILD__ instead."
#include "cuemu_extended_lambda.h"
#include "cuemu_unset_result.h"
#include "cuemu_builtin_vars.h"
#include "cuemu_math.h"
#include "cuemu_intrinsics.h"
#include "cuemu_atomics.h"
#include "cuemu_nv_atomics.h"
#include "cuemu_memory.h"
#include "cuemu_timing.h"
#include "cuemu_printf.h"
#include "cuemu_sync.h"
#include "cuemu_warp.h"
#endif
#include "driver_types.h"
#include "library_types.h"
#include "cuda_runtime_api.h"
#ifdef __CUDACC__
#include "cuemu_kernel_thunks.h"
/* Inline PTX's emulation, which only translated asm statements call: the
 * host pass's lean prelude (cuemu-cc's CUEMU_HOST_DECLS, see
 * cuemu_host_decls.h) has none, since its unit keeps no device code. */
#ifndef CUEMU_HOST_DECLS
#include "cuemu_ptx.h"
#endif
#endif
#include "cuemu_check_entry.h"
#include "cuemu_rtc_stdint.h"

#endif /* __cplusplus */
#endif /* __CUDA_RUNTIME_H__ */

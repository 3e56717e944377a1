/*
 * cuemu_cccl_brings.h: the headers that nvcc 13.0's <cooperative_groups.h>
 * (and so cooperative_groups/reduce.h, scan.h and memcpy_async.h) brings
 * besides its own declarations, so that the names a program may use after
 * including it alone with nvcc compile with cuemu-nvcc too
 * (docs/nvcc-checks.md, "What a header brings"; listed with `nvcc -M`).
 *
 * The C library's headers cost little and are always included. The narrow
 * float types (0.1 s of CPU in a small program) and the rest (libstdc++'s
 * <string>, <chrono>, <stdexcept>... and libcu++'s <cuda/std/type_traits>,
 * <cuda/atomic>...: they would triple the compile time of every unit that
 * uses cooperative groups, 1.2 to 3.3 s of CPU for a small program) are
 * included only in the compile of a unit whose own code names them:
 * cuemu_compile() then preprocesses it again with CUEMU_CCCL_BRINGS_FLOATS,
 * CUEMU_CCCL_BRINGS_STD (the C++ library's) or CUEMU_CCCL_BRINGS_ALL (and
 * libcu++'s) defined (cuemu__unit_needs_cccl_brings(),
 * emulator/compile/cuemu_cccl_brings.c). A module of NVRTC gets the float
 * types always (it is not scanned).
 */
#ifndef CUEMU_CCCL_BRINGS_H
#define CUEMU_CCCL_BRINGS_H
#pragma GCC system_header

#if defined(CUEMU_CCCL_BRINGS_FLOATS) || defined(__CUDACC_RTC__)
#include "cuda_bf16.h"
#include "cuda_fp16.h"
#include "cuda_fp8.h"
#endif

/* NVRTC has no C or C++ library of the host (cuemu_rtc_stdint_hide.h). */
#ifndef CUEMU_NVRTC_STDINT
#include <cassert>
#include <cctype>
#include <cerrno>
#include <cfloat>
#include <climits>
#include <clocale>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <cwchar>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <unistd.h>

#if defined(CUEMU_CCCL_BRINGS_ALL) || defined(CUEMU_CCCL_BRINGS_STD)
#include <chrono>
#include <exception>
#include <iterator>
#include <ratio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <typeinfo>
#endif
#if defined(CUEMU_CCCL_BRINGS_ALL) && __has_include(<cuda/std/type_traits>)
#include <cuda/atomic>
#include <cuda/std/atomic>
#include <cuda/std/cassert>
#include <cuda/std/cfloat>
#include <cuda/std/chrono>
#include <cuda/std/climits>
#include <cuda/std/cstddef>
#include <cuda/std/cstdint>
#include <cuda/std/cstring>
#include <cuda/std/ctime>
#include <cuda/std/limits>
#include <cuda/std/ratio>
#include <cuda/std/type_traits>
#include <cuda/std/version>
#endif /* CUEMU_CCCL_BRINGS_ALL */
#endif /* CUEMU_NVRTC_STDINT */

#endif /* CUEMU_CCCL_BRINGS_H */

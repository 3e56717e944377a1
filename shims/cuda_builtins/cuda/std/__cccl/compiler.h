/*
 * cuda/std/__cccl/compiler.h: CCCL's compiler detection, seen through
 * cuemu's shims (this file comes first on the include path and includes
 * CCCL's own, the next one).
 *
 * A module (NVRTC's and CuPy's RawModule sources, cuemu_compile() with
 * `module` set) is compiled with __CUDACC_RTC__ defined, as NVRTC defines
 * it, but by g++ or clang++, so CCCL, which tells NVRTC by the absence of
 * the host compilers' macros, finds no CUDA compiler and stops ("CUDA
 * compiler and CUDA toolkit headers are incompatible"). While CCCL works
 * out its compiler here, it is told it is nvcc (as in cuemu-cc's programs,
 * whose passes define __NVCC__); the macro is taken back afterwards, so
 * that the module's own code still sees NVRTC's macros only.
 */
#if defined(__CUDACC_RTC__) && !defined(__NVCC__)
#define __NVCC__ 1
#define CUEMU_CCCL_NVCC_FOR_DETECTION 1
#endif

#include_next <cuda/std/__cccl/compiler.h>

#ifdef CUEMU_CCCL_NVCC_FOR_DETECTION
#undef __NVCC__
#undef CUEMU_CCCL_NVCC_FOR_DETECTION
#endif

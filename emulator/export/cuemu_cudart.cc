/*
 * cuemu_cudart.cc: libcuemu_cudart.so, the CUDA runtime API under the C
 * symbols of NVIDIA's libcudart (cudaMalloc, cudaMemcpy_ptds ...), built
 * by emulator/export/cudart.am. Objects compiled against NVIDIA's own
 * headers call these: a .cpp or .c file that a Makefile compiles with the
 * host compiler and -I/usr/local/cuda/include, or a C file that cuemu-nvcc
 * compiles (docs/runtime.md, "Objects built against NVIDIA's headers").
 *
 * Every function that the toolkit's cuda_runtime_api.h declares and the
 * shims define is exported, listed by scripts/cudart_exports.py in
 * cuemu_cudart_exports.h with NVIDIA's parameters; each calls the shims'
 * inline function, which calls libcuemu, so there is one implementation
 * and the program's own CUDA calls, its kernels and these share the
 * devices, streams, memory and errors. The types of the shims are
 * NVIDIA's, byte for byte (tests/cudart_abi.sh compares them).
 */
#include <cuda_runtime.h>

/* Deprecated functions are exported too: libcudart has them. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* The exported functions: C symbols with CUDA's names (an asm label each,
 * since the shims' C++ functions of the same name are in scope), every
 * other name of the library hidden (-fvisibility=hidden). */
namespace cuemu_cudart {
/* The stream a per-thread spelling (_ptsz, _ptds) gets: its stream 0 is
 * the calling thread's per-thread default stream, as a file compiled with
 * CUDA_API_PER_THREAD_DEFAULT_STREAM means it; every other stream is
 * itself. The synchronous copies and sets of the _ptds spellings, which
 * take no stream, are the plain functions (which synchronize with the
 * legacy default stream, more than CUDA's per-thread forms but never
 * less). */
inline cudaStream_t cuemu_cudart_per_thread(cudaStream_t stream) {
  return stream ? stream : cudaStreamPerThread;
}

#define CUEMU_CUDART_EXPORT(symbol, function, result, parameters, arguments)   \
  __attribute__((visibility("default"))) result export_##symbol parameters     \
      __asm__(#symbol);                                                        \
  result export_##symbol parameters { return ::function arguments; }
#include "cuemu_cudart_exports.h"
#undef CUEMU_CUDART_EXPORT
} // namespace cuemu_cudart

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

#include <cstdio>
#include <cstdlib>

/* Deprecated functions are exported too: libcudart has them. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* The exported functions: C symbols with CUDA's names (an asm label each,
 * since the shims' C++ functions of the same name are in scope), every
 * other name of the library hidden (-fvisibility=hidden). */
namespace cuemu_cudart {
/* The stream a per-thread spelling (_ptsz, _ptds) gets: its stream 0 is
 * the calling thread's per-thread default stream, as a file compiled with
 * CUDA_API_PER_THREAD_DEFAULT_STREAM means it; every other stream is
 * itself (and so is a 0 stream in a launch configuration or in graph
 * instantiation parameters). The synchronous copies and sets of the _ptds spellings, which
 * take no stream, are the plain functions (which synchronize with the
 * legacy default stream, more than CUDA's per-thread forms but never
 * less). */
inline cudaStream_t cuemu_cudart_per_thread(cudaStream_t stream) {
  return stream ? stream : cudaStreamPerThread;
}

/* A _ptsz launch's configuration: a copy whose stream is the per-thread
 * one where the caller's is 0 (the caller's own is const). It lives until
 * the end of the exported function's return statement, after the call. */
struct per_thread_config {
  cudaLaunchConfig_t copy;
  const cudaLaunchConfig_t *given;
  operator const cudaLaunchConfig_t *() const { return given ? &copy : given; }
};
inline per_thread_config
cuemu_cudart_per_thread(const cudaLaunchConfig_t *config) {
  per_thread_config c{};
  c.given = config;
  if (config) {
    c.copy = *config;
    c.copy.stream = cuemu_cudart_per_thread(config->stream);
  }
  return c;
}

/* A _ptsz graph instantiation's parameters: a copy whose upload stream is
 * the per-thread one where the caller's is 0; what the call writes in the
 * copy (errNode_out, result_out) goes back to the caller's at the end of
 * the exported function's return statement. */
struct per_thread_instantiate {
  cudaGraphInstantiateParams copy;
  cudaGraphInstantiateParams *given;
  per_thread_instantiate(cudaGraphInstantiateParams *params)
      : copy(), given(params) {
    if (params) {
      copy = *params;
      copy.uploadStream = cuemu_cudart_per_thread(params->uploadStream);
    }
  }
  per_thread_instantiate(const per_thread_instantiate &) = delete;
  ~per_thread_instantiate() {
    if (given) {
      given->errNode_out = copy.errNode_out;
      given->result_out = copy.result_out;
    }
  }
  operator cudaGraphInstantiateParams *() { return given ? &copy : given; }
};
inline per_thread_instantiate
cuemu_cudart_per_thread(cudaGraphInstantiateParams *params) {
  return per_thread_instantiate(params);
}

#define CUEMU_CUDART_EXPORT(symbol, function, result, parameters, arguments)   \
  __attribute__((visibility("default"))) result export_##symbol parameters     \
      __asm__(#symbol);                                                        \
  result export_##symbol parameters { return ::function arguments; }
#include "cuemu_cudart_exports.h"
#undef CUEMU_CUDART_EXPORT
} // namespace cuemu_cudart

/* A program whose kernels NVIDIA's nvcc compiled, linked with the shared
 * libcudart (nvcc -cudart shared) and run with cuemu's first in
 * LD_LIBRARY_PATH, registers its GPU code here before main(): there is no
 * GPU code cuemu can run, so it says so and ends the program, instead of
 * ld.so failing on the first of nvcc's registration symbols. */
extern "C" __attribute__((visibility("default"))) void **
__cudaRegisterFatBinary(void *fat_cubin) {
  (void)fat_cubin;
  std::fprintf(stderr,
               "cuemu: this program's kernels were compiled by NVIDIA's nvcc "
               "(GPU code, which cuemu cannot run); build it with "
               "cuemu-nvcc to run it on cuemu, or take cuemu's toolkit "
               "(libcudart.so.13) out of LD_LIBRARY_PATH\n");
  std::exit(1);
}

/*
 * cuemu_device_runtime.h: the device runtime's API in kernel code (CUDA
 * dynamic parallelism, CDP2): the named streams, cudaGetParameterBuffer and
 * cudaLaunchDevice, and the queued launch that `kernel<<<...>>>(args)`
 * becomes in kernel code (cuemu_kernel_thunks.h calls it). The calls that
 * kernel code shares with host code (cudaGetLastError, cudaPeekAtLastError,
 * cudaStreamCreateWithFlags, cudaStreamDestroy) go to the device runtime
 * when called from a kernel thread. cudaDeviceSynchronize in kernel code
 * is refused by cuemu-cc, as nvcc refuses it since CUDA 12. Also here:
 * __nv_aligned_device_malloc (the device heap). See docs/device-runtime.md.
 */
#ifndef CUEMU_DEVICE_RUNTIME_SHIM_H
#define CUEMU_DEVICE_RUNTIME_SHIM_H

#include <cstddef>
#include <new>
#include <tuple>
#include <utility>

#include <cuemu/cuemu_device_runtime.h>

#include "driver_types.h"
#include "vector_types.h"

#ifndef cudaStreamTailLaunch
#define cudaStreamTailLaunch ((cudaStream_t)0x3)
#endif
#ifndef cudaStreamFireAndForget
#define cudaStreamFireAndForget ((cudaStream_t)0x4)
#endif

inline void *cudaGetParameterBuffer(std::size_t alignment, std::size_t size) {
  return cuemu_device_parameter_buffer(alignment, size);
}

inline cudaError_t cudaLaunchDevice(void *func, void *parameterBuffer,
                                    dim3 gridDimension, dim3 blockDimension,
                                    unsigned int sharedMemSize,
                                    cudaStream_t stream) {
  cuemu_uint3 __cuemu_g = {gridDimension.x, gridDimension.y, gridDimension.z};
  cuemu_uint3 b = {blockDimension.x, blockDimension.y, blockDimension.z};
  return static_cast<cudaError_t>(cuemu_device_launch_buffer(
      func, parameterBuffer, __cuemu_g, b, sharedMemSize, stream));
}

/* CUDA's aligned form of malloc in kernel code. */
inline void *__nv_aligned_device_malloc(std::size_t size, std::size_t align) {
  return cuemu_device_aligned_malloc(size, align);
}

namespace cuemu {

/* The argument copy of a launch from kernel code: the values (and what
 * else the thunk reads) and the pointers to them, freed by the queue once
 * the grid has run. */
template <typename Values, std::size_t N_> struct child_args {
  Values values;
  void *ptrs[N_];
};

/* The copy lives in libcuemu's memory, never in the device heap. */
template <typename Owner, typename... A_> Owner *make_child_args(A_ &&...a) {
  void *p = cuemu_device_args_alloc(sizeof(Owner));
  return ::new (p) Owner{std::forward<A_>(a)...};
}

template <typename Owner> void release_child_args(void *owner) {
  static_cast<Owner *>(owner)->~Owner();
  cuemu_device_args_free(owner);
}

/* While one lives, allocations in kernel code are the C library's: the
 * shims' own (a kernel's name, made once), never the device heap's. */
struct heap_bypass {
  heap_bypass() { cuemu_device_heap_bypass(1); }
  ~heap_bypass() { cuemu_device_heap_bypass(-1); }
  heap_bypass(const heap_bypass &) = delete;
  heap_bypass &operator=(const heap_bypass &) = delete;
};

/* Launches from kernel code exist in the units that cuemu-nvcc compiles,
 * which are C++14 or later (docs/dialects.md). A .cpp file that the host
 * compiler compiles itself with -std=c++11 (CMake's CXX language with
 * CMAKE_CXX_STANDARD 11) may include cuda_runtime.h, as it may NVIDIA's;
 * it has no kernel, and C++11 lacks std::index_sequence. */
#if __cplusplus >= 201402L
/* Queues a launch from kernel code of a kernel whose parameters have the
 * types Values (a std::tuple): they are made from `args` now, as CUDA
 * copies a launch's arguments when it is made, in the launch's copy itself
 * (a C++17 prvalue initializes the member), never on the calling thread's
 * stack. A cudaError_t value. */
template <typename Values, std::size_t... I_, typename... A_>
int child_launch(const cuemu_kernel_desc *desc, void *fn, dim3 __cuemu_grid,
                 dim3 __cuemu_block, std::size_t __cuemu_shmem, cudaStream_t stream,
                 std::index_sequence<I_...>, A_ &&...args) {
  using Owner = child_args<Values, sizeof...(I_) + 1>;
  void *p = cuemu_device_args_alloc(sizeof(Owner));
  Owner *owner = ::new (p) Owner{Values(std::forward<A_>(args)...), {}};
  void *ptrs[sizeof...(I_) + 1] = {
      static_cast<void *>(&std::get<I_>(owner->values))..., fn};
  for (std::size_t __cuemu_k = 0; __cuemu_k < sizeof...(I_) + 1; ++__cuemu_k)
    owner->ptrs[__cuemu_k] = ptrs[__cuemu_k];
  cuemu_uint3 __cuemu_g = {__cuemu_grid.x, __cuemu_grid.y, __cuemu_grid.z};
  cuemu_uint3 b = {__cuemu_block.x, __cuemu_block.y, __cuemu_block.z};
  return cuemu_device_launch(desc, __cuemu_g, b, __cuemu_shmem, stream, owner->ptrs, owner,
                             &release_child_args<Owner>);
}
#endif

/* The same for a kernel template whose arguments are deduced: the thunk
 * reads the tuple of values and the lambda that calls the kernel. */
template <typename Values, typename L_>
int child_launch_deduced(const cuemu_kernel_desc *desc, const L_ &body,
                         dim3 __cuemu_grid, dim3 __cuemu_block, std::size_t __cuemu_shmem,
                         cudaStream_t stream, const Values &values) {
  using Owner = child_args<std::pair<Values, L_>, 2>;
  Owner *owner = make_child_args<Owner>(std::pair<Values, L_>(values, body));
  owner->ptrs[0] = &owner->values.first;
  owner->ptrs[1] = &owner->values.second;
  cuemu_uint3 __cuemu_g = {__cuemu_grid.x, __cuemu_grid.y, __cuemu_grid.z};
  cuemu_uint3 b = {__cuemu_block.x, __cuemu_block.y, __cuemu_block.z};
  return cuemu_device_launch(desc, __cuemu_g, b, __cuemu_shmem, stream, owner->ptrs, owner,
                             &release_child_args<Owner>);
}

} // namespace cuemu

#endif /* CUEMU_DEVICE_RUNTIME_SHIM_H */

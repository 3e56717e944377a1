/*
 * minilib/launch.cuh: the host side of the small library: a launcher that
 * takes the kernel as a template parameter and launches it with <<<>>>
 * (as Thrust's triple_chevron does), the temp-storage protocol (a first
 * call with no storage asks for its size), occupancy and attribute
 * queries on kernel pointers, and stream-ordered work.
 */
#ifndef MINILIB_LAUNCH_CUH
#define MINILIB_LAUNCH_CUH

#include <cuda_runtime.h>

#include "kernels.cuh"

namespace minilib {

struct launcher {
  dim3 grid, block;
  size_t shmem;
  cudaStream_t stream;
  template <typename K, typename... Args>
  cudaError_t doit(K kernel, const Args &...args) const {
    kernel<<<grid, block, shmem, stream>>>(args...);
    return cudaPeekAtLastError();
  }
};

/* The PTX version, as CUB finds it: from the attributes of a kernel that
 * is never launched, through a void pointer. */
inline cudaError_t ptx_version(int &version) {
  cudaFuncAttributes attr;
  cudaError_t e =
      cudaFuncGetAttributes(&attr, reinterpret_cast<void *>(empty_kernel<void>));
  version = attr.ptxVersion * 10;
  return e;
}

template <typename T, typename F>
cudaError_t transform(const T *in, T *out, int n, F f, cudaStream_t s = 0) {
  using P = policy<64, 3>;
  if (n == 0)
    return cudaSuccess;
  launcher l{dim3((n + P::tile - 1) / P::tile), dim3(P::block_threads), 0, s};
  return l.doit(transform_kernel<P, void, T, F>, in, out, n, f);
}

/* Sums in[0, n) into *out. With temp == nullptr, sets bytes to what it
 * needs and does nothing else. */
template <typename T>
cudaError_t sum(void *temp, size_t &bytes, const T *in, T *out, int n,
                cudaStream_t s = 0) {
  using P = policy<128, 1>;
  auto kernel = block_sum_kernel<P, T>;
  int sms = 0, device = 0, per_sm = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (e == cudaSuccess)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, kernel, P::block_threads, 0);
  if (e != cudaSuccess)
    return e;
  int blocks = sms * per_sm;
  if (blocks > 64)
    blocks = 64;
  if (blocks < 1)
    blocks = 1;
  if (temp == nullptr) {
    bytes = blocks * sizeof(T);
    return cudaSuccess;
  }
  T *partial = static_cast<T *>(temp);
  launcher first{dim3(blocks), dim3(P::block_threads), 0, s};
  e = first.doit(kernel, in, partial, n);
  if (e != cudaSuccess)
    return e;
  launcher second{dim3(1), dim3(P::block_threads), 0, s};
  return second.doit(kernel, static_cast<const T *>(partial), out, blocks);
}

/* Runs Agent::entry(shared buffer, args...) on `blocks` blocks. */
template <typename Agent, typename... Args>
cudaError_t run_agent(int blocks, cudaStream_t s, Args... args) {
  launcher l{dim3(blocks), dim3(Agent::block_threads), Agent::shared_bytes, s};
  return l.doit(agent_kernel<Agent, Args...>, args...);
}

} // namespace minilib

#endif

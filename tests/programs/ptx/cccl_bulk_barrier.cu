/*
 * cccl_bulk_barrier.cu: libcu++'s sm_90 forms that end in the bulk copy
 * and mbarrier transaction counts of inline PTX (cp.async.bulk
 * global->shared::cluster with mbarrier::complete_tx::bytes,
 * mbarrier.arrive.expect_tx, try_wait with the tx-count):
 * cuda::memcpy_async of a thread block into shared memory with a
 * cuda::barrier and cuda::aligned_size_t<16>, cuda::device::memcpy_async_tx
 * with cuda::device::barrier_arrive_tx, and cuda::ptx's own wrappers
 * (mbarrier_init, mbarrier_arrive_expect_tx, cp_async_bulk,
 * mbarrier_try_wait_parity, cp_async_bulk to global with bulk groups).
 * Results against the host's. Prints PASS when all is well.
 */
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/ptx>

#include <utility>

#include "../check.cuh"

namespace cg = cooperative_groups;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

constexpr int kTile = 256;

/* out[i] = tile[reversed] + 1000 * second tile[i]: the two tiles are
 * loaded by memcpy_async (the whole block) and memcpy_async_tx (one
 * thread, with the transaction count it adds). */
template <typename T>
__global__ void two_tiles(const T *in, T *out) {
  alignas(16) __shared__ T tile[kTile];
  alignas(16) __shared__ T second[kTile];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ block_barrier bar;
  const T *src = in + blockIdx.x * kTile;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  cuda::memcpy_async(cg::this_thread_block(), tile, src,
                     cuda::aligned_size_t<16>(kTile * sizeof(T)), bar);
  bar.arrive_and_wait();
  block_barrier::arrival_token token;
  if (threadIdx.x == 0) {
    cuda::device::memcpy_async_tx(second, src, cuda::aligned_size_t<16>(kTile * sizeof(T)), bar);
    token = cuda::device::barrier_arrive_tx(bar, 1, kTile * sizeof(T));
  } else {
    token = bar.arrive();
  }
  bar.wait(std::move(token));
  for (int i = threadIdx.x; i < kTile; i += blockDim.x)
    out[blockIdx.x * kTile + i] = tile[kTile - 1 - i] + T(1000) * second[i];
}

/* The same through cuda::ptx: one bulk copy in, doubling, one bulk copy
 * out. */
__global__ void ptx_double(const float *in, float *out) {
  alignas(16) __shared__ float tile[kTile];
  __shared__ cuda::std::uint64_t bar;
  const unsigned bytes = kTile * sizeof(float);
  if (threadIdx.x == 0) cuda::ptx::mbarrier_init(&bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, tile,
                             in + blockIdx.x * kTile, bytes, &bar);
    (void)cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta,
                                               cuda::ptx::space_shared, &bar, bytes);
  }
  while (!cuda::ptx::mbarrier_try_wait_parity(&bar, 0)) {
  }
  for (int i = threadIdx.x; i < kTile; i += blockDim.x) tile[i] *= 2.0f;
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared,
                             out + blockIdx.x * kTile, tile, bytes);
    cuda::ptx::cp_async_bulk_commit_group();
    cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>());
  }
}

int main() {
  const int blocks = 3, n = blocks * kTile;
  int *in = nullptr, *out = nullptr;
  CHECK(cudaMallocManaged(&in, n * sizeof(int)) == cudaSuccess);
  CHECK(cudaMallocManaged(&out, n * sizeof(int)) == cudaSuccess);
  for (int i = 0; i < n; ++i) in[i] = 7 * i - 300;
  two_tiles<<<blocks, 128>>>(in, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int wrong = 0;
  for (int b = 0; b < blocks; ++b)
    for (int i = 0; i < kTile; ++i)
      wrong += out[b * kTile + i] != in[b * kTile + kTile - 1 - i] + 1000 * in[b * kTile + i];
  CHECK(wrong == 0);

  float *fin = nullptr, *fout = nullptr;
  CHECK(cudaMallocManaged(&fin, n * sizeof(float)) == cudaSuccess);
  CHECK(cudaMallocManaged(&fout, n * sizeof(float)) == cudaSuccess);
  for (int i = 0; i < n; ++i) {
    fin[i] = 0.25f * static_cast<float>(i) - 3.0f;
    fout[i] = 0.0f;
  }
  ptx_double<<<blocks, 64>>>(fin, fout);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  wrong = 0;
  for (int i = 0; i < n; ++i) wrong += fout[i] != 2.0f * fin[i];
  CHECK(wrong == 0);

  CHECK(cudaFree(in) == cudaSuccess);
  CHECK(cudaFree(out) == cudaSuccess);
  CHECK(cudaFree(fin) == cudaSuccess);
  CHECK(cudaFree(fout) == cudaSuccess);
  return finish();
}

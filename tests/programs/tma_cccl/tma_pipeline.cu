/*
 * tma_pipeline.cu: tensor copies as libcu++ programs write them, in
 * kernels shaped like real Hopper ones:
 * - a GEMM-like product whose A and B tiles come through a two-stage ring
 *   of mbarriers (cuda::ptx::mbarrier_init, mbarrier_arrive_expect_tx,
 *   cp_async_bulk_tensor, mbarrier_try_wait_parity, and "empty" barriers
 *   the consumers arrive at before the producer refills a stage), A with
 *   the 128-byte swizzle, which the consumers undo as hardware code does;
 *   the C tile goes back through cuda::device::experimental's
 *   fence_proxy_async_shared_cta, cp_async_bulk_tensor_2d_shared_to_global,
 *   cp_async_bulk_commit_group and cp_async_bulk_wait_group_read;
 * - a transpose that loads with cuda::device::experimental::
 *   cp_async_bulk_tensor_2d_global_to_shared and cuda::device::
 *   barrier_arrive_tx on a cuda::barrier, and stores with cuda::ptx::
 *   cp_async_bulk_tensor to global memory;
 * - overlapping tiles summed into global memory with cuda::ptx::
 *   cp_reduce_async_bulk_tensor (op_add, op_max).
 * Results against the host's. Prints PASS when all is well.
 */
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>

#include <cstdint>
#include <vector>

#include "../check.cuh"

namespace ptx = cuda::ptx;
namespace cde = cuda::device::experimental;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

constexpr int kTile = 32, kStages = 2;

/* Element (r, k) of a 32 x 32 float tile loaded with the 128-byte
 * swizzle: the 16-byte chunk of its 128-byte row XORed with the row. */
__device__ inline float swizzled_at(const float *tile, int r, int k) {
  const int chunk = (k / 4) ^ (r % 8);
  return tile[r * kTile + chunk * 4 + k % 4];
}

/* C = A B for A of M x K and B of K x N (row-major floats), one 32 x 32
 * tile of C per block of 256 threads; thread 0 is the producer. */
__global__ void gemm(const __grid_constant__ CUtensorMap map_a,
                     const __grid_constant__ CUtensorMap map_b,
                     const __grid_constant__ CUtensorMap map_c, int K) {
  __shared__ alignas(1024) float a[kStages][kTile * kTile];
  __shared__ alignas(1024) float b[kStages][kTile * kTile];
  __shared__ alignas(128) float c[kTile * kTile];
  __shared__ uint64_t full[kStages], empty[kStages];
  const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile, steps = K / kTile;
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      ptx::mbarrier_init(&full[s], 1);
      ptx::mbarrier_init(&empty[s], blockDim.x);
    }
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();
  const unsigned bytes = 2 * kTile * kTile * sizeof(float);
  auto issue = [&](int step) {
    const int s = step % kStages;
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s],
                                   bytes);
    const int32_t ca[2] = {step * kTile, row0}, cb[2] = {col0, step * kTile};
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, a[s], &map_a, ca, &full[s]);
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, b[s], &map_b, cb, &full[s]);
  };
  if (threadIdx.x == 0)
    for (int step = 0; step < kStages && step < steps; ++step) issue(step);
  const int r = threadIdx.x / 8, cq = threadIdx.x % 8; /* 4 columns each */
  float acc[4] = {0, 0, 0, 0};
  for (int step = 0; step < steps; ++step) {
    const int s = step % kStages;
    const uint32_t parity = (step / kStages) % 2;
    while (!ptx::mbarrier_try_wait_parity(&full[s], parity)) {
    }
    for (int k = 0; k < kTile; ++k) {
      const float x = swizzled_at(a[s], r, k);
      for (int j = 0; j < 4; ++j) acc[j] += x * b[s][k * kTile + cq * 4 + j];
    }
    /* The stage is free again once every thread is done with it. */
    ptx::mbarrier_arrive(&empty[s]);
    if (threadIdx.x == 0 && step + kStages < steps) {
      while (!ptx::mbarrier_try_wait_parity(&empty[s], parity)) {
      }
      issue(step + kStages);
    }
  }
  for (int j = 0; j < 4; ++j) c[r * kTile + cq * 4 + j] = acc[j];
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map_c, col0, row0, c);
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}

/* out = in^T, one 32 x 32 tile per block. */
__global__ void transpose(const __grid_constant__ CUtensorMap map_in,
                          const __grid_constant__ CUtensorMap map_out) {
  __shared__ alignas(128) int tile[kTile * kTile];
  __shared__ alignas(128) int flipped[kTile * kTile];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ block_barrier bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  block_barrier::arrival_token token;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &map_in, blockIdx.x * kTile,
                                                   blockIdx.y * kTile, bar);
    token = cuda::device::barrier_arrive_tx(bar, 1, sizeof tile);
  } else {
    token = bar.arrive();
  }
  bar.wait(std::move(token));
  for (int i = threadIdx.x; i < kTile * kTile; i += blockDim.x)
    flipped[(i % kTile) * kTile + i / kTile] = tile[i];
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    const int32_t at[2] = {static_cast<int32_t>(blockIdx.y * kTile),
                           static_cast<int32_t>(blockIdx.x * kTile)};
    ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &map_out, at, flipped);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
  }
}

/* Block b adds (and maxes) a 32 x 32 tile of values b + 1 + i at columns
 * 16 b, rows -8: tiles overlap their neighbours and the top edge. */
__global__ void reduce_tiles(const __grid_constant__ CUtensorMap map_sum,
                             const __grid_constant__ CUtensorMap map_max) {
  __shared__ alignas(128) int tile[kTile * kTile];
  for (int i = threadIdx.x; i < kTile * kTile; i += blockDim.x)
    tile[i] = static_cast<int>(blockIdx.x) + 1 + i;
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    const int32_t at[2] = {static_cast<int32_t>(16 * blockIdx.x), -8};
    ptx::cp_reduce_async_bulk_tensor(ptx::space_global, ptx::space_shared, ptx::op_add, &map_sum,
                                     at, tile);
    ptx::cp_reduce_async_bulk_tensor(ptx::space_global, ptx::space_shared, ptx::op_max, &map_max,
                                     at, tile);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
  }
}

static PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;

static CUtensorMap map_2d(CUtensorMapDataType type, void *base, uint64_t cols, uint64_t rows,
                          CUtensorMapSwizzle swizzle) {
  CUtensorMap map;
  const uint64_t dims[2] = {cols, rows}, strides[1] = {cols * 4};
  const uint32_t box[2] = {kTile, kTile}, step[2] = {1, 1};
  CHECK(encode(&map, type, 2, base, dims, strides, box, step, CU_TENSOR_MAP_INTERLEAVE_NONE,
               swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE,
               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS);
  return map;
}

int main() {
  cudaDriverEntryPointQueryResult found;
  CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled",
                                         reinterpret_cast<void **>(&encode), 12000,
                                         cudaEnableDefault, &found) == cudaSuccess);
  if (!encode) return finish();

  /* The product: 64 x 160 times 160 x 96. */
  {
    const int M = 64, K = 160, N = 96;
    std::vector<float> A(M * K), B(K * N), C(M * N), want(M * N, 0.0f);
    for (int i = 0; i < M * K; ++i) A[i] = static_cast<float>((i * 7) % 13) - 6.0f;
    for (int i = 0; i < K * N; ++i) B[i] = static_cast<float>((i * 5) % 11) - 5.0f;
    for (int i = 0; i < M; ++i)
      for (int k = 0; k < K; ++k)
        for (int j = 0; j < N; ++j) want[i * N + j] += A[i * K + k] * B[k * N + j];
    float *dA, *dB, *dC;
    CHECK(cudaMalloc(&dA, A.size() * 4) == cudaSuccess);
    CHECK(cudaMalloc(&dB, B.size() * 4) == cudaSuccess);
    CHECK(cudaMalloc(&dC, C.size() * 4) == cudaSuccess);
    CHECK(cudaMemcpy(dA, A.data(), A.size() * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaMemcpy(dB, B.data(), B.size() * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    const CUtensorMap ma = map_2d(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, dA, K, M, CU_TENSOR_MAP_SWIZZLE_128B);
    const CUtensorMap mb = map_2d(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, dB, N, K, CU_TENSOR_MAP_SWIZZLE_NONE);
    const CUtensorMap mc = map_2d(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, dC, N, M, CU_TENSOR_MAP_SWIZZLE_NONE);
    gemm<<<dim3(N / kTile, M / kTile), 256>>>(ma, mb, mc, K);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(cudaMemcpy(C.data(), dC, C.size() * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(C == want); /* small integers: exact in any order */
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
  }
  /* The transpose of 96 x 64 ints. */
  {
    const int rows = 64, cols = 96;
    std::vector<int> in(rows * cols), out(rows * cols);
    for (int i = 0; i < rows * cols; ++i) in[i] = i * 3 + 1;
    int *din, *dout;
    CHECK(cudaMalloc(&din, in.size() * 4) == cudaSuccess);
    CHECK(cudaMalloc(&dout, out.size() * 4) == cudaSuccess);
    CHECK(cudaMemcpy(din, in.data(), in.size() * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    const CUtensorMap mi = map_2d(CU_TENSOR_MAP_DATA_TYPE_INT32, din, cols, rows, CU_TENSOR_MAP_SWIZZLE_NONE);
    const CUtensorMap mo = map_2d(CU_TENSOR_MAP_DATA_TYPE_INT32, dout, rows, cols, CU_TENSOR_MAP_SWIZZLE_NONE);
    transpose<<<dim3(cols / kTile, rows / kTile), 128>>>(mi, mo);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    bool same = true;
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) same = same && out[c * rows + r] == in[r * cols + c];
    CHECK(same);
    cudaFree(din);
    cudaFree(dout);
  }
  /* The reductions: 5 overlapping tiles into a 104 x 40 tensor. */
  {
    const int cols = 104, rows = 40, blocks = 5;
    std::vector<int> sum(rows * cols, 1), mx(rows * cols, 50), got(rows * cols);
    int *dsum, *dmax;
    CHECK(cudaMalloc(&dsum, sum.size() * 4) == cudaSuccess);
    CHECK(cudaMalloc(&dmax, mx.size() * 4) == cudaSuccess);
    CHECK(cudaMemcpy(dsum, sum.data(), sum.size() * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaMemcpy(dmax, mx.data(), mx.size() * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    const CUtensorMap ms = map_2d(CU_TENSOR_MAP_DATA_TYPE_INT32, dsum, cols, rows, CU_TENSOR_MAP_SWIZZLE_NONE);
    const CUtensorMap mm = map_2d(CU_TENSOR_MAP_DATA_TYPE_INT32, dmax, cols, rows, CU_TENSOR_MAP_SWIZZLE_NONE);
    reduce_tiles<<<blocks, 64>>>(ms, mm);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    for (int b = 0; b < blocks; ++b)
      for (int i = 0; i < kTile * kTile; ++i) {
        const int c = 16 * b + i % kTile, r = -8 + i / kTile, v = b + 1 + i;
        if (c < cols && r >= 0 && r < rows) {
          sum[r * cols + c] += v;
          mx[r * cols + c] = mx[r * cols + c] > v ? mx[r * cols + c] : v;
        }
      }
    CHECK(cudaMemcpy(got.data(), dsum, got.size() * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(got == sum);
    CHECK(cudaMemcpy(got.data(), dmax, got.size() * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(got == mx);
    cudaFree(dsum);
    cudaFree(dmax);
  }
  return finish();
}

#pragma once
#include "ptx_utils.cuh"

template <typename T>
__device__ __forceinline__ T warp_sum(T v) {
#pragma unroll
  for (int m = 16; m > 0; m >>= 1) v += wp::shfl_xor(v, m);
  return v;
}

// Block reduction with a stream-K style fix-up: the last block to finish adds the partials.
template <int BLOCK>
__global__ void reduce_streaming(const uint4* __restrict__ in, uint4* __restrict__ copy, int n4,
                                 unsigned long long* total, unsigned* partial_u, int* done,
                                 unsigned* lock, unsigned long long* locked_sum,
                                 unsigned* max_out, unsigned* sm_seen) {
  __shared__ unsigned warp_part[BLOCK / 32];
  __shared__ bool am_last;
  unsigned acc = 0;
  int mx = 0;
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n4; i += gridDim.x * BLOCK) {
    uint4 v = wp::ld_nc_na(in + i);
    wp::st_cs(copy + i, v);
    acc += v.x + v.y + v.z + v.w;
    mx = max(mx, (int)max(max(v.x, v.y), max(v.z, v.w)));
  }
  unsigned ws = wp::redux_add(acc);
  unsigned ws2 = warp_sum(acc);
  int wmx = wp::redux_max(mx);
  if (ws != ws2) asm volatile("trap;");
  unsigned w = threadIdx.x / 32;
  if (wp::lane_id() == 0) {
    warp_part[w] = ws;
    atomicMax(max_out, (unsigned)wmx);
  }
  __syncthreads();
  if (threadIdx.x < 32) {
    unsigned v = threadIdx.x < BLOCK / 32 ? warp_part[threadIdx.x] : 0u;
    v = __reduce_add_sync(0xffffffffu, v);
    if (threadIdx.x == 0) {
      partial_u[blockIdx.x] = v;
      wp::atom_add64(total, v);
      wp::Semaphore s{lock};
      s.acquire();
      *(volatile unsigned long long*)locked_sum += v;
      s.release();
      unsigned sm = wp::sm_id();
      atomicOr(sm_seen, 1u << (sm & 31));
      __threadfence();
      int prev = atomicAdd(done, 1);
      am_last = (prev == (int)gridDim.x - 1);
    }
  }
  __syncthreads();
  if (am_last && threadIdx.x == 0) {
    (void)wp::ld_acquire(done);
  }
}

// Producer/consumer inside a block: warp 0 produces tiles, warps 1..3 consume,
// synchronised by named barriers 1 (full) and 2 (empty).
__global__ void producer_consumer(const int* in, int* out, int tiles) {
  __shared__ int buf[96];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int t = 0; t < tiles; ++t) {
    if (warp == 0) {
      if (t > 0) wp::named_sync(2, 128);
      for (int j = lane; j < 96; j += 32) buf[j] = in[t * 96 + j];
      wp::named_arrive(1, 128);
    } else {
      wp::named_sync(1, 128);
      int j = (warp - 1) * 32 + lane;
      int v = buf[j] * 3 - 100;
      out[t * 96 + j] = 0;
      wp::store_if_positive(&out[t * 96 + j], v);
      wp::named_arrive(2, 128);
    }
  }
}

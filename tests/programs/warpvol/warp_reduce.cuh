/*
 * warp_reduce.cuh: the pre-Volta reduction kernels with the last warp
 * unrolled, as NVIDIA's reduction samples and many public programs write
 * them: a shared-memory tree down to 64 values with __syncthreads(), then
 * the first warp finishes through a volatile pointer with no __syncwarp(),
 * relying on the warp's lanes running in lockstep.
 */
#ifndef WARPVOL_WARP_REDUCE_CUH
#define WARPVOL_WARP_REDUCE_CUH

#include <cuda_runtime.h>

/* The sum of sdata[tid] and sdata[tid + 32..1], left in sdata[tid] (for
 * lane 0, the whole warp's sum): six dependent steps, each a read of
 * another lane's word that the step before wrote. */
template <unsigned blockSize, typename T>
__device__ void warpReduce(volatile T *sdata, unsigned tid) {
  if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
  if (blockSize >= 32) sdata[tid] += sdata[tid + 16];
  if (blockSize >= 16) sdata[tid] += sdata[tid + 8];
  if (blockSize >= 8) sdata[tid] += sdata[tid + 4];
  if (blockSize >= 4) sdata[tid] += sdata[tid + 2];
  if (blockSize >= 2) sdata[tid] += sdata[tid + 1];
}

/* "reduce4": each thread adds two elements on the way in; the tree stops
 * at 64 and the first warp does the rest. */
template <unsigned blockSize, typename T>
__global__ void reduce4(const T *in, T *out, unsigned n) {
  extern __shared__ unsigned char smem_bytes[];
  T *sdata = reinterpret_cast<T *>(smem_bytes);
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockSize * 2) + threadIdx.x;
  T sum = i < n ? in[i] : T(0);
  if (i + blockSize < n) sum += in[i + blockSize];
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned s = blockSize / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) warpReduce<blockSize>(sdata, tid);
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

/* "reduce6": a grid-stride loop, then the tree unrolled by blockSize, and
 * the last warp through a volatile pointer that also keeps the running sum
 * in a register (smem[tid] = sum = sum + smem[tid + k]). */
template <unsigned blockSize, typename T>
__global__ void reduce6(const T *in, T *out, unsigned n) {
  __shared__ T sdata[blockSize];
  unsigned tid = threadIdx.x;
  unsigned gridSize = blockSize * 2 * gridDim.x;
  T sum = 0;
  for (unsigned i = blockIdx.x * blockSize * 2 + tid; i < n; i += gridSize) {
    sum += in[i];
    if (i + blockSize < n) sum += in[i + blockSize];
  }
  sdata[tid] = sum;
  __syncthreads();
  if (blockSize >= 512) { if (tid < 256) sdata[tid] = sum = sum + sdata[tid + 256]; __syncthreads(); }
  if (blockSize >= 256) { if (tid < 128) sdata[tid] = sum = sum + sdata[tid + 128]; __syncthreads(); }
  if (blockSize >= 128) { if (tid < 64) sdata[tid] = sum = sum + sdata[tid + 64]; __syncthreads(); }
  if (tid < 32) {
    volatile T *smem = sdata;
    if (blockSize >= 64) smem[tid] = sum = sum + smem[tid + 32];
    if (blockSize >= 32) smem[tid] = sum = sum + smem[tid + 16];
    if (blockSize >= 16) smem[tid] = sum = sum + smem[tid + 8];
    if (blockSize >= 8) smem[tid] = sum = sum + smem[tid + 4];
    if (blockSize >= 4) smem[tid] = sum = sum + smem[tid + 2];
    if (blockSize >= 2) smem[tid] = sum = sum + smem[tid + 1];
  }
  if (tid == 0) out[blockIdx.x] = sum;
}

/* A warp-synchronous maximum with the index of its first occurrence, in two
 * volatile arrays (a pair of values per step, as argmax kernels do). The
 * grid must cover `in` exactly. */
template <unsigned blockSize>
__global__ void argmax_block(const float *in, float *best, int *where) {
  __shared__ float v[blockSize];
  __shared__ int at[blockSize];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockSize + tid;
  v[tid] = in[i];
  at[tid] = (int)i;
  __syncthreads();
  for (unsigned s = blockSize / 2; s > 32; s >>= 1) {
    if (tid < s && (v[tid + s] > v[tid] ||
                    (v[tid + s] == v[tid] && at[tid + s] < at[tid]))) {
      v[tid] = v[tid + s];
      at[tid] = at[tid + s];
    }
    __syncthreads();
  }
  if (tid < 32) {
    /* Every lane loads both pairs and stores the winner, so that the
     * lanes make the same accesses in the same order. */
    volatile float *vv = v;
    volatile int *va = at;
    for (unsigned s = 32; s > 0; s >>= 1) {
      float o = vv[tid + s], m = vv[tid];
      int oa = va[tid + s], ma = va[tid];
      bool take = o > m || (o == m && oa < ma);
      vv[tid] = take ? o : m;
      va[tid] = take ? oa : ma;
    }
  }
  if (tid == 0) {
    best[blockIdx.x] = v[0];
    where[blockIdx.x] = at[0];
  }
}

#endif

/*
 * static_shared_sizes.cuh: kernels whose static __shared__ memory the
 * device must know before their first launch (static_shared_sizes.cu):
 * a template in a header with an unnamed template parameter, and a
 * CUB-style union of temporary storage.
 */
#ifndef STATIC_SHARED_SIZES_CUH
#define STATIC_SHARED_SIZES_CUH

template <typename T, int N, typename = void>
__global__ void staged(const T *in, T *out) {
  __shared__ T stage[N];
  __shared__ union {
    T sums[N / 2];
    int flags[4];
  } scratch;
  stage[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (threadIdx.x < N / 2)
    scratch.sums[threadIdx.x] = stage[2 * threadIdx.x] + stage[2 * threadIdx.x + 1];
  __syncthreads();
  if (threadIdx.x < N / 2)
    out[threadIdx.x] = scratch.sums[threadIdx.x];
}

#endif

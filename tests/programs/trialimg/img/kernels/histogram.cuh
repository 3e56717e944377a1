// Histogram equalisation: per-block shared-memory histograms merged in global
// memory, an exclusive-to-inclusive CDF by a block scan with warp shuffles,
// and a lookup pass through a LUT in shared memory.
#ifndef TRIALIMG_HISTOGRAM_CUH
#define TRIALIMG_HISTOGRAM_CUH
#include <cuda_runtime.h>

#define HIST_BINS 256
#define WARP_SIZE 32

__global__ void histogramSharedKernel(unsigned int *d_hist, const unsigned char *d_img, int n) {
  __shared__ unsigned int s_hist[HIST_BINS];
  for (int i = threadIdx.x; i < HIST_BINS; i += blockDim.x) s_hist[i] = 0;
  __syncthreads();

  // Four pixels at a time through uchar4 where the image allows it.
  const uchar4 *img4 = reinterpret_cast<const uchar4 *>(d_img);
  int n4 = n / 4;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
    uchar4 p = __ldg(&img4[i]);
    atomicAdd(&s_hist[p.x], 1u);
    atomicAdd(&s_hist[p.y], 1u);
    atomicAdd(&s_hist[p.z], 1u);
    atomicAdd(&s_hist[p.w], 1u);
  }
  for (int i = n4 * 4 + blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&s_hist[d_img[i]], 1u);
  __syncthreads();

  for (int i = threadIdx.x; i < HIST_BINS; i += blockDim.x)
    if (s_hist[i]) atomicAdd(&d_hist[i], s_hist[i]);
}

// Inclusive scan of blockDim.x (<= 1024) values: shuffles within warps, then
// the warp totals scanned by the first warp.
template <typename T>
__device__ T blockInclusiveScan(T v, T *s_warp) {
  const int lane = threadIdx.x & (WARP_SIZE - 1), warp = threadIdx.x / WARP_SIZE;
#pragma unroll
  for (int offset = 1; offset < WARP_SIZE; offset <<= 1) {
    T up = __shfl_up_sync(0xffffffffu, v, offset);
    if (lane >= offset) v += up;
  }
  if (lane == WARP_SIZE - 1) s_warp[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int nwarps = (blockDim.x + WARP_SIZE - 1) / WARP_SIZE;
    T t = lane < nwarps ? s_warp[lane] : T(0);
#pragma unroll
    for (int offset = 1; offset < WARP_SIZE; offset <<= 1) {
      T up = __shfl_up_sync(0xffffffffu, t, offset);
      if (lane >= offset) t += up;
    }
    if (lane < nwarps) s_warp[lane] = t;
  }
  __syncthreads();
  if (warp > 0) v += s_warp[warp - 1];
  return v;
}

// One block of HIST_BINS threads: CDF and the equalisation LUT.
__global__ void buildLutKernel(unsigned char *d_lut, const unsigned int *d_hist, int n) {
  __shared__ unsigned int s_warp[HIST_BINS / WARP_SIZE];
  __shared__ unsigned int s_cdfMin;
  unsigned int cdf = blockInclusiveScan<unsigned int>(d_hist[threadIdx.x], s_warp);
  // The smallest non-zero CDF value: the CDF at the first non-empty bin.
  if (threadIdx.x == 0) s_cdfMin = 0xffffffffu;
  __syncthreads();
  if (cdf > 0) atomicMin(&s_cdfMin, cdf);
  __syncthreads();
  unsigned int cdfMin = s_cdfMin;
  float scale = n > (int)cdfMin ? 255.0f / (n - cdfMin) : 0.f;
  float v = cdf > cdfMin ? (cdf - cdfMin) * scale : 0.f;
  d_lut[threadIdx.x] = (unsigned char)__float2int_rn(fminf(v, 255.f));
}

__global__ void applyLutKernel(unsigned char *d_out, const unsigned char *d_in, const unsigned char *d_lut, int n) {
  __shared__ unsigned char s_lut[HIST_BINS];
  for (int i = threadIdx.x; i < HIST_BINS; i += blockDim.x) s_lut[i] = d_lut[i];
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) d_out[i] = s_lut[d_in[i]];
}

#endif  // TRIALIMG_HISTOGRAM_CUH

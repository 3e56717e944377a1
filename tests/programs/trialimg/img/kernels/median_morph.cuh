// Median filters with a sorting network in registers, and erosion/dilation
// with a shared-memory tile, templated on the window radius and the operator.
#ifndef TRIALIMG_MEDIAN_MORPH_CUH
#define TRIALIMG_MEDIAN_MORPH_CUH
#include <cuda_runtime.h>

#define TILE_W 16
#define TILE_H 16

template <typename T>
__device__ __forceinline__ void cmpSwap(T &a, T &b) {
  T lo = min(a, b);
  b = max(a, b);
  a = lo;
}

// Odd-even transposition network: N rounds, fully unrolled, so the window stays in registers.
template <int N>
__device__ __forceinline__ unsigned char medianOf(unsigned char (&v)[N]) {
  int r[N];
#pragma unroll
  for (int i = 0; i < N; i++) r[i] = v[i];
#pragma unroll
  for (int round = 0; round < N; round++) {
#pragma unroll
    for (int i = round & 1; i + 1 < N; i += 2) cmpSwap(r[i], r[i + 1]);
  }
  return (unsigned char)r[N / 2];
}

template <int RADIUS>
__global__ void medianFilter(unsigned char *out, const unsigned char *in, int w, int h) {
  constexpr int D = 2 * RADIUS + 1;
  __shared__ unsigned char tile[TILE_H + 2 * RADIUS][TILE_W + 2 * RADIUS];
  const int bx = blockIdx.x * TILE_W, by = blockIdx.y * TILE_H;
  for (int ty = threadIdx.y; ty < TILE_H + 2 * RADIUS; ty += blockDim.y)
    for (int tx = threadIdx.x; tx < TILE_W + 2 * RADIUS; tx += blockDim.x) {
      int gx = min(max(bx + tx - RADIUS, 0), w - 1), gy = min(max(by + ty - RADIUS, 0), h - 1);
      tile[ty][tx] = in[gy * w + gx];
    }
  __syncthreads();
  int x = bx + threadIdx.x, y = by + threadIdx.y;
  if (x >= w || y >= h) return;
  unsigned char win[D * D];
#pragma unroll
  for (int dy = 0; dy < D; dy++)
#pragma unroll
    for (int dx = 0; dx < D; dx++) win[dy * D + dx] = tile[threadIdx.y + dy][threadIdx.x + dx];
  out[y * w + x] = medianOf<D * D>(win);
}

struct ErodeOp {
  static constexpr unsigned char identity = 255;
  __device__ unsigned char operator()(unsigned char a, unsigned char b) const { return a < b ? a : b; }
};
struct DilateOp {
  static constexpr unsigned char identity = 0;
  __device__ unsigned char operator()(unsigned char a, unsigned char b) const { return a > b ? a : b; }
};

// A square structuring element; outside the image counts as the operator's identity.
template <class Op, int RADIUS>
__global__ void morphology(unsigned char *out, const unsigned char *in, int w, int h, Op op) {
  extern __shared__ unsigned char s_tile[];
  const int pitch = blockDim.x + 2 * RADIUS;
  const int bx = blockIdx.x * blockDim.x, by = blockIdx.y * blockDim.y;
  for (int ty = threadIdx.y; ty < (int)blockDim.y + 2 * RADIUS; ty += blockDim.y)
    for (int tx = threadIdx.x; tx < pitch; tx += blockDim.x) {
      int gx = bx + tx - RADIUS, gy = by + ty - RADIUS;
      s_tile[ty * pitch + tx] = (gx >= 0 && gy >= 0 && gx < w && gy < h) ? in[gy * w + gx] : Op::identity;
    }
  __syncthreads();
  int x = bx + threadIdx.x, y = by + threadIdx.y;
  if (x >= w || y >= h) return;
  unsigned char acc = Op::identity;
  for (int dy = 0; dy <= 2 * RADIUS; dy++)
    for (int dx = 0; dx <= 2 * RADIUS; dx++) acc = op(acc, s_tile[(threadIdx.y + dy) * pitch + threadIdx.x + dx]);
  out[y * w + x] = acc;
}

template <class Op, int RADIUS>
void launchMorphology(unsigned char *out, const unsigned char *in, int w, int h, cudaStream_t s = 0) {
  dim3 block(TILE_W, TILE_H), grid((w + TILE_W - 1) / TILE_W, (h + TILE_H - 1) / TILE_H);
  size_t smem = (TILE_W + 2 * RADIUS) * (TILE_H + 2 * RADIUS);
  morphology<Op, RADIUS><<<grid, block, smem, s>>>(out, in, w, h, Op());
}

#endif  // TRIALIMG_MEDIAN_MORPH_CUH

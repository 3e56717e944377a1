// Separable convolution on pitched images: rows pass then columns pass, each
// with a 16x16 block loading its tile and apron into shared memory. The filter
// taps live in constant memory. Templated on the pixel type (float or uchar4).
#ifndef TRIALIMG_CONVOLUTION_SEPARABLE_CUH
#define TRIALIMG_CONVOLUTION_SEPARABLE_CUH
#include <cuda_runtime.h>

#define KERNEL_RADIUS 4
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)
#define BLOCK_DIM_X 16
#define BLOCK_DIM_Y 16

__constant__ float c_Kernel[KERNEL_LENGTH];

template <typename T>
struct PixelTraits;

template <>
struct PixelTraits<float> {
  typedef float Accum;
  __device__ __host__ static Accum zero() { return 0.0f; }
  __device__ __host__ static Accum load(float v) { return v; }
  __device__ __host__ static void mad(Accum &acc, float w, Accum v) { acc += w * v; }
  __device__ __host__ static float store(Accum a) { return a; }
};

template <>
struct PixelTraits<uchar4> {
  typedef float4 Accum;
  __device__ __host__ static Accum zero() { return make_float4(0.f, 0.f, 0.f, 0.f); }
  __device__ __host__ static Accum load(uchar4 v) { return make_float4(v.x, v.y, v.z, v.w); }
  __device__ __host__ static void mad(Accum &acc, float w, Accum v) {
    acc.x += w * v.x;
    acc.y += w * v.y;
    acc.z += w * v.z;
    acc.w += w * v.w;
  }
  __device__ __host__ static unsigned char sat(float f) {
    f = f + 0.5f;
    return (unsigned char)(f < 0.f ? 0.f : (f > 255.f ? 255.f : f));
  }
  __device__ __host__ static uchar4 store(Accum a) { return make_uchar4(sat(a.x), sat(a.y), sat(a.z), sat(a.w)); }
};

template <typename T>
__device__ __forceinline__ const T *rowPtr(const T *base, size_t pitch, int y) {
  return reinterpret_cast<const T *>(reinterpret_cast<const char *>(base) + y * pitch);
}
template <typename T>
__device__ __forceinline__ T *rowPtr(T *base, size_t pitch, int y) {
  return reinterpret_cast<T *>(reinterpret_cast<char *>(base) + y * pitch);
}

template <typename T>
__global__ void convolutionRowsKernel(T *d_Dst, const T *__restrict__ d_Src, size_t pitch, int imageW, int imageH) {
  __shared__ T s_Data[BLOCK_DIM_Y][BLOCK_DIM_X + 2 * KERNEL_RADIUS];
  typedef PixelTraits<T> PT;

  const int x = blockIdx.x * BLOCK_DIM_X + threadIdx.x;
  const int y = blockIdx.y * BLOCK_DIM_Y + threadIdx.y;
  const int ys = min(y, imageH - 1);
  const T *src = rowPtr(d_Src, pitch, ys);

  // Main tile plus left and right aprons, clamped at the image border.
  for (int i = threadIdx.x; i < BLOCK_DIM_X + 2 * KERNEL_RADIUS; i += BLOCK_DIM_X) {
    int gx = (int)(blockIdx.x * BLOCK_DIM_X) + i - KERNEL_RADIUS;
    gx = max(0, min(gx, imageW - 1));
    s_Data[threadIdx.y][i] = src[gx];
  }
  __syncthreads();

  if (x >= imageW || y >= imageH) return;
  typename PT::Accum sum = PT::zero();
#pragma unroll
  for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
    PT::mad(sum, c_Kernel[KERNEL_RADIUS - j], PT::load(s_Data[threadIdx.y][threadIdx.x + KERNEL_RADIUS + j]));
  rowPtr(d_Dst, pitch, y)[x] = PT::store(sum);
}

template <typename T>
__global__ void convolutionColumnsKernel(T *d_Dst, const T *__restrict__ d_Src, size_t pitch, int imageW, int imageH) {
  __shared__ T s_Data[BLOCK_DIM_Y + 2 * KERNEL_RADIUS][BLOCK_DIM_X];
  typedef PixelTraits<T> PT;

  const int x = blockIdx.x * BLOCK_DIM_X + threadIdx.x;
  const int y = blockIdx.y * BLOCK_DIM_Y + threadIdx.y;
  const int xs = min(x, imageW - 1);

  for (int i = threadIdx.y; i < BLOCK_DIM_Y + 2 * KERNEL_RADIUS; i += BLOCK_DIM_Y) {
    int gy = (int)(blockIdx.y * BLOCK_DIM_Y) + i - KERNEL_RADIUS;
    gy = max(0, min(gy, imageH - 1));
    s_Data[i][threadIdx.x] = __ldg(&rowPtr(d_Src, pitch, gy)[xs]);
  }
  __syncthreads();

  if (x >= imageW || y >= imageH) return;
  typename PT::Accum sum = PT::zero();
#pragma unroll
  for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
    PT::mad(sum, c_Kernel[KERNEL_RADIUS - j], PT::load(s_Data[threadIdx.y + KERNEL_RADIUS + j][threadIdx.x]));
  rowPtr(d_Dst, pitch, y)[x] = PT::store(sum);
}

inline void setConvolutionKernel(const float *h_Kernel) {
  cudaMemcpyToSymbol(c_Kernel, h_Kernel, KERNEL_LENGTH * sizeof(float));
}

template <typename T>
void convolutionSeparable(T *d_Dst, T *d_Tmp, const T *d_Src, size_t pitch, int w, int h, cudaStream_t stream = 0) {
  dim3 threads(BLOCK_DIM_X, BLOCK_DIM_Y);
  dim3 blocks((w + BLOCK_DIM_X - 1) / BLOCK_DIM_X, (h + BLOCK_DIM_Y - 1) / BLOCK_DIM_Y);
  convolutionRowsKernel<<<blocks, threads, 0, stream>>>(d_Tmp, d_Src, pitch, w, h);
  convolutionColumnsKernel<T><<<blocks, threads, 0, stream>>>(d_Dst, d_Tmp, pitch, w, h);
}

#endif  // TRIALIMG_CONVOLUTION_SEPARABLE_CUH

// A colour-conversion library's Makefile hands its host flags to nvcc as
// `-Xcompiler "-std=c++11 -w -g -O0 -fPIC"` (beside nvcc's own -std=c++11).
// nvcc gives them to the host compiler, which compiles nvcc's host pass in
// that dialect. cuemu-nvcc put the -Xcompiler dialect after its own
// -std=c++14, so the host compiler compiled cuemu's CUDA headers as C++11
// and every kernel launch failed to compile (std::index_sequence and
// std::conditional_t are C++14). A dialect older than C++14 given through
// -Xcompiler is now compiled as C++14, with the note that -std=c++11 gets.
// The program launches kernel templates over an enum class, a vector type
// and __half, as the library does.
// CUEMU_OPTIONS: -std=c++11 -Xcompiler -std=c++11,-fPIC
#include <cstdio>
#include <cuda_fp16.h>
#include "../check.cuh"

enum class Layout : unsigned int { Planar = 1, Packed = 2 };

template <typename T> struct Pixel {};
template <> struct Pixel<unsigned char> { typedef uchar4 type; };
template <> struct Pixel<float> { typedef float4 type; };

static __device__ unsigned char u8(float v) { return v < 0 ? 0 : (v >= 255 ? 255 : (unsigned char)v); }

// Each thread converts one grey pixel to RGBA, planar or packed.
template <typename T, Layout L>
__global__ void expand(const unsigned char *grey, T *out, int n, float gain) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = grey[i] * gain;
  T c = (T)(sizeof(T) == 1 ? u8(v) : v);
  if (L == Layout::Packed) {
    typename Pixel<T>::type p;
    p.x = c; p.y = c; p.z = c; p.w = (T)(sizeof(T) == 1 ? 255 : 1);
    reinterpret_cast<typename Pixel<T>::type *>(out)[i] = p;
  } else {
    for (int k = 0; k < 3; ++k) out[k * n + i] = c;
  }
}

// The half-precision output of the library's FP16 path.
__global__ void to_half(const unsigned char *grey, __half *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __float2half(grey[i] / 255.0f);
}

int main() {
  const int n = 100;
  unsigned char h_grey[n];
  for (int i = 0; i < n; ++i) h_grey[i] = (unsigned char)(i * 3);
  unsigned char *d_grey, *d_u8;
  float *d_f;
  __half *d_h;
  cudaMalloc(&d_grey, n);
  cudaMalloc(&d_u8, 4 * n);
  cudaMalloc(&d_f, 4 * n * sizeof(float));
  cudaMalloc(&d_h, n * sizeof(__half));
  cudaMemcpy(d_grey, h_grey, n, cudaMemcpyHostToDevice);

  expand<unsigned char, Layout::Packed><<<(n + 31) / 32, 32>>>(d_grey, d_u8, n, 1.5f);
  unsigned char packed[4 * n];
  cudaMemcpy(packed, d_u8, sizeof packed, cudaMemcpyDeviceToHost);
  expand<float, Layout::Planar><<<(n + 31) / 32, 32>>>(d_grey, d_f, n, 0.5f);
  float planar[3 * n];
  cudaMemcpy(planar, d_f, sizeof planar, cudaMemcpyDeviceToHost);
  to_half<<<(n + 31) / 32, 32>>>(d_grey, d_h, n);
  __half halves[n];
  cudaMemcpy(halves, d_h, sizeof halves, cudaMemcpyDeviceToHost);
  CHECK(cudaGetLastError() == cudaSuccess);

  for (int i = 0; i < n; ++i) {
    int g = h_grey[i];
    int want = g * 3 / 2 > 255 ? 255 : g * 3 / 2;  // gain 1.5, saturated
    CHECK(packed[4 * i] == want && packed[4 * i + 2] == want && packed[4 * i + 3] == 255);
    CHECK(planar[i] == g * 0.5f && planar[2 * n + i] == g * 0.5f);
    float h = __half2float(halves[i]);
    CHECK(h > g / 255.0f - 1e-3f && h < g / 255.0f + 1e-3f);
  }
  // Worked out by hand for one pixel: 40 * 3 = 120 grey, 180 at gain 1.5,
  // 60 at gain 0.5.
  CHECK(packed[4 * 40] == 180 && planar[40] == 60.0f);
  cudaFree(d_grey);
  cudaFree(d_u8);
  cudaFree(d_f);
  cudaFree(d_h);
  return finish();
}

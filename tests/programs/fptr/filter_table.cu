// Pointers to __device__ functions that host code copies around opaquely,
// the way NVIDIA's FunctionPointers sample (a Sobel filter) is written: each
// filter is a `__device__ fp_t pName = Name;` variable, host code reads them
// with cudaMemcpyFromSymbol into a host table and passes one to the kernels
// as an argument (before the fix the host read the host pass's copy of the
// variable, which holds the address of a stub, and the kernel faulted).
// Also: the table itself passed in device memory, a pointer taken in one
// kernel and called in another (the same address as the variable's), a
// pointer written back with cudaMemcpyToSymbol into a "current filter"
// variable that kernels call, cudaGetSymbolAddress of such a variable, and a
// launch through cudaLaunchKernel with the pointer among its arguments.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>
#include "../check.cuh"

typedef unsigned char pixel_t;
typedef pixel_t (*filter_t)(const pixel_t *, int, int, int, float);

// Three filters of a 3x3 neighbourhood, as the sample's Sobel, box and
// minimum filters (row pitch `w`, pixel (x, y) inside the image).
__device__ pixel_t sobel(const pixel_t *p, int w, int x, int y, float scale) {
  const pixel_t *c = p + y * w + x;
  int hz = c[-w + 1] + 2 * c[1] + c[w + 1] - c[-w - 1] - 2 * c[-1] - c[w - 1];
  int vt = c[-w - 1] + 2 * c[-w] + c[-w + 1] - c[w - 1] - 2 * c[w] - c[w + 1];
  int sum = (int)(scale * (float)(abs(hz) + abs(vt)));
  return (pixel_t)(sum > 255 ? 255 : sum);
}

__device__ pixel_t box(const pixel_t *p, int w, int x, int y, float scale) {
  int sum = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) sum += p[(y + dy) * w + x + dx];
  int v = (int)(scale * (float)sum / 9.0f);
  return (pixel_t)(v > 255 ? 255 : v);
}

__device__ pixel_t minimum(const pixel_t *p, int w, int x, int y, float) {
  pixel_t m = 255;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      pixel_t v = p[(y + dy) * w + x + dx];
      m = v < m ? v : m;
    }
  return m;
}

// The sample's form: one variable per filter, initialised with it.
__device__ filter_t pSobel = sobel;
__device__ filter_t pBox = box;
__device__ filter_t pMin = minimum;
// The filter that kernel `filter_current` calls, set by host code.
__device__ filter_t pCurrent;

// Applies `f` to the interior pixels.
__global__ void filter_arg(const pixel_t *in, pixel_t *out, int w, int h,
                           filter_t f, float scale) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) return;
  out[y * w + x] = f(in, w, x, y, scale);
}

// Applies table[which] (the table is in device memory).
__global__ void filter_table(const pixel_t *in, pixel_t *out, int w, int h,
                             const filter_t *table, int which) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) return;
  out[y * w + x] = table[which](in, w, x, y, 1.0f);
}

__global__ void filter_current(const pixel_t *in, pixel_t *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) return;
  out[y * w + x] = pCurrent(in, w, x, y, 1.0f);
}

// Takes the filters' addresses in device code.
__global__ void take_addresses(filter_t *out) {
  out[0] = sobel;
  out[1] = &box;
  out[2] = pMin;
}

// The host's reference of the three filters.
static pixel_t reference(const pixel_t *p, int w, int x, int y, int which,
                         float scale) {
  const pixel_t *c = p + y * w + x;
  if (which == 0) {
    int hz = c[-w + 1] + 2 * c[1] + c[w + 1] - c[-w - 1] - 2 * c[-1] - c[w - 1];
    int vt = c[-w - 1] + 2 * c[-w] + c[-w + 1] - c[w - 1] - 2 * c[w] - c[w + 1];
    int sum = (int)(scale * (float)((hz < 0 ? -hz : hz) + (vt < 0 ? -vt : vt)));
    return (pixel_t)(sum > 255 ? 255 : sum);
  }
  int sum = 0, m = 255;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      int v = c[dy * w + dx];
      sum += v;
      m = v < m ? v : m;
    }
  if (which == 1) {
    int v = (int)(scale * (float)sum / 9.0f);
    return (pixel_t)(v > 255 ? 255 : v);
  }
  return (pixel_t)m;
}

static int mismatches(const pixel_t *in, const pixel_t *out, int w, int h,
                      int which, float scale) {
  int bad = 0;
  for (int y = 1; y < h - 1; ++y)
    for (int x = 1; x < w - 1; ++x)
      bad += out[y * w + x] != reference(in, w, x, y, which, scale);
  return bad;
}

int main() {
  const int w = 37, h = 29;
  static pixel_t img[w * h], res[w * h];
  for (int i = 0; i < w * h; ++i) img[i] = (pixel_t)((i * 37 + (i / w) * 11) % 251);
  pixel_t *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, sizeof img) == cudaSuccess);
  CHECK(cudaMalloc(&d_out, sizeof res) == cudaSuccess);
  CHECK(cudaMemcpy(d_in, img, sizeof img, cudaMemcpyHostToDevice) == cudaSuccess);
  dim3 block(8, 8), grid((w + 7) / 8, (h + 7) / 8);

  // The sample's host table.
  filter_t table[3] = {0, 0, 0};
  CHECK(cudaMemcpyFromSymbol(&table[0], pSobel, sizeof(filter_t)) == cudaSuccess);
  CHECK(cudaMemcpyFromSymbol(&table[1], pBox, sizeof(filter_t)) == cudaSuccess);
  CHECK(cudaMemcpyFromSymbol(&table[2], pMin, sizeof(filter_t)) == cudaSuccess);
  CHECK(table[0] && table[1] && table[2]);
  CHECK(table[0] != table[1] && table[1] != table[2]);

  const float scales[3] = {0.5f, 1.25f, 1.0f};
  for (int which = 0; which < 3; ++which) {
    CHECK(cudaMemset(d_out, 0, sizeof res) == cudaSuccess);
    filter_arg<<<grid, block>>>(d_in, d_out, w, h, table[which], scales[which]);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(cudaMemcpy(res, d_out, sizeof res, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(mismatches(img, res, w, h, which, scales[which]) == 0);
  }

  // The addresses that device code takes are the ones host code read.
  filter_t *d_table, taken[3] = {0, 0, 0};
  CHECK(cudaMalloc(&d_table, sizeof taken) == cudaSuccess);
  take_addresses<<<1, 1>>>(d_table);
  CHECK(cudaMemcpy(taken, d_table, sizeof taken, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(memcmp(taken, table, sizeof taken) == 0);
  // ... and called by another kernel through the table in device memory.
  for (int which = 0; which < 3; ++which) {
    CHECK(cudaMemset(d_out, 0, sizeof res) == cudaSuccess);
    filter_table<<<grid, block>>>(d_in, d_out, w, h, d_table, which);
    CHECK(cudaMemcpy(res, d_out, sizeof res, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(mismatches(img, res, w, h, which, 1.0f) == 0);
  }

  // A pointer read earlier, written back with cudaMemcpyToSymbol.
  CHECK(cudaMemcpyToSymbol(pCurrent, &table[2], sizeof(filter_t)) == cudaSuccess);
  CHECK(cudaMemset(d_out, 0, sizeof res) == cudaSuccess);
  filter_current<<<grid, block>>>(d_in, d_out, w, h);
  CHECK(cudaMemcpy(res, d_out, sizeof res, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(mismatches(img, res, w, h, 2, 1.0f) == 0);
  // Through the variable's address and a plain copy this time.
  filter_t *p_current = 0;
  CHECK(cudaGetSymbolAddress((void **)&p_current, pCurrent) == cudaSuccess);
  CHECK(cudaMemcpy(p_current, &table[0], sizeof(filter_t), cudaMemcpyHostToDevice) == cudaSuccess);
  filter_t back = 0;
  CHECK(cudaMemcpyFromSymbol(&back, pCurrent, sizeof back) == cudaSuccess);
  CHECK(back == table[0]);
  filter_current<<<grid, block>>>(d_in, d_out, w, h);
  CHECK(cudaMemcpy(res, d_out, sizeof res, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(mismatches(img, res, w, h, 0, 1.0f) == 0);

  // cudaLaunchKernel with the pointer among the arguments.
  float scale = 2.0f;
  int wv = w, hv = h;
  const pixel_t *cin = d_in;
  void *args[] = {&cin, &d_out, &wv, &hv, &table[1], &scale};
  CHECK(cudaLaunchKernel((const void *)filter_arg, grid, block, args, 0, 0) == cudaSuccess);
  CHECK(cudaMemcpy(res, d_out, sizeof res, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(mismatches(img, res, w, h, 1, 2.0f) == 0);

  CHECK(cudaGetLastError() == cudaSuccess);
  cudaFree(d_table);
  cudaFree(d_out);
  cudaFree(d_in);
  return finish();
}

/* libcu++ in device code under -std=c++20, as a C++20 project uses it:
 * complex, optional, variant with visit, array, bit (popcount, bit_cast,
 * bit_ceil), numeric_limits, chrono, atomic_ref and cuda::atomic_ref with
 * thread scopes, span and mdspan (layout_left, CTAD). Its first build
 * failed on <cuda/std/array> (requires_expression.cu). Each result is
 * checked against the host's.
 * CUEMU_OPTIONS: -std=c++20
 * NVCC_OPTIONS: -std=c++20 */
#include <cuda/std/complex>
#include <cuda/std/optional>
#include <cuda/std/variant>
#include <cuda/std/array>
#include <cuda/std/bit>
#include <cuda/std/limits>
#include <cuda/std/chrono>
#include <cuda/std/atomic>
#include <cuda/std/span>
#include <cuda/std/mdspan>
#include <cuda/atomic>
#include <cuda_runtime.h>
#include <complex>
#include <cstdio>
#include <cstdint>
#include <vector>
#include <cmath>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { std::printf("CUDA %s line %d\n", cudaGetErrorString(e), __LINE__); std::exit(1); } } while (0)

using cplx = cuda::std::complex<double>;

__global__ void mandel_step(const cplx* c, cplx* z, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  cplx v = z[i];
  for (int k = 0; k < iters; ++k) v = v * v + c[i];
  z[i] = v + cuda::std::exp(cplx(0.0, 0.5)) * cuda::std::abs(c[i]);
}

__device__ cuda::std::optional<int> safe_div(int a, int b) {
  if (b == 0) return cuda::std::nullopt;
  return a / b;
}

struct Circle { float r; };
struct Rect { float w, h; };
using Shape = cuda::std::variant<Circle, Rect, int>;

struct AreaVisitor {
  __device__ float operator()(const Circle& c) const { return 3.0f * c.r * c.r; }
  __device__ float operator()(const Rect& r) const { return r.w * r.h; }
  __device__ float operator()(int sides) const { return float(sides); }
};

__global__ void misc(const int* a, const int* b, int* out_div, float* area, uint32_t* bits,
                     int* lims, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  auto q = safe_div(a[i], b[i]);
  out_div[i] = q.value_or(-999);
  Shape s;
  if (i % 3 == 0) s = Circle{float(i)};
  else if (i % 3 == 1) s = Rect{float(i), 2.0f};
  else s = i;
  area[i] = cuda::std::visit(AreaVisitor{}, s) + (cuda::std::holds_alternative<int>(s) ? 0.5f : 0.0f);
  uint32_t u = static_cast<uint32_t>(a[i]);
  bits[i] = cuda::std::popcount(u) + 100u * cuda::std::countl_zero(u) +
            10000u * cuda::std::bit_width(u);
  if (i == 0) {
    lims[0] = cuda::std::numeric_limits<int>::max();
    lims[1] = cuda::std::numeric_limits<int16_t>::min();
    lims[2] = cuda::std::numeric_limits<float>::digits;
    lims[3] = cuda::std::bit_cast<int>(1.0f);
    lims[4] = static_cast<int>(cuda::std::bit_ceil(37u));
    cuda::std::chrono::milliseconds ms(1500);
    auto secs = cuda::std::chrono::duration_cast<cuda::std::chrono::seconds>(ms);
    lims[5] = static_cast<int>(secs.count());
    lims[6] = static_cast<int>(cuda::std::chrono::microseconds(ms).count());
  }
}

__global__ void histogram(const int* keys, int n, int* bins, unsigned long long* total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  cuda::atomic_ref<int, cuda::thread_scope_device> bin(bins[keys[i] & 15]);
  bin.fetch_add(1, cuda::std::memory_order_relaxed);
  cuda::std::atomic_ref<unsigned long long> t(*total);
  t.fetch_add(static_cast<unsigned long long>(keys[i]));
}

__global__ void block_max(const int* keys, int n, int* result) {
  __shared__ int smax;
  if (threadIdx.x == 0) smax = cuda::std::numeric_limits<int>::lowest();
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  cuda::atomic_ref<int, cuda::thread_scope_block> m(smax);
  if (i < n) m.fetch_max(keys[i]);
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::atomic_ref<int, cuda::thread_scope_device> g(*result);
    g.fetch_max(smax);
  }
}

template <class T>
__device__ T span_sum(cuda::std::span<const T> s) {
  T acc{};
  for (T v : s) acc += v;
  return acc;
}

__global__ void span_kernel(const float* data, int rows, int cols, float* out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  cuda::std::span<const float> row(data + r * cols, cols);
  out[r] = span_sum(row.subspan(1)) + row.front() * 10 + row.last(1)[0] * 100;
}

__global__ void transpose_md(const float* in, float* out, int rows, int cols) {
  cuda::std::mdspan a(in, rows, cols);
  cuda::std::mdspan<float, cuda::std::dextents<int, 2>, cuda::std::layout_left> b(out, rows, cols);
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < a.extent(0) && c < a.extent(1)) b(r, c) = a[cuda::std::array<int, 2>{r, c}] * 2.0f;
}

__global__ void array_kernel(int* out) {
  cuda::std::array<int, 8> arr{};
  for (size_t k = 0; k < arr.size(); ++k) arr[k] = int(k * k) + threadIdx.x;
  int s = 0;
  for (auto v : arr) s += v;
  out[threadIdx.x] = s + arr.back();
}

int main() {
  int bad = 0;
  const int n = 512;
  std::vector<cplx> hc(n), hz(n, cplx(0, 0));
  for (int i = 0; i < n; ++i) hc[i] = cplx(-0.5 + i * 1e-3, 0.25 - i * 5e-4);
  cplx *dc, *dz;
  CK(cudaMalloc(&dc, n * sizeof(cplx)));
  CK(cudaMalloc(&dz, n * sizeof(cplx)));
  CK(cudaMemcpy(dc, hc.data(), n * sizeof(cplx), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dz, hz.data(), n * sizeof(cplx), cudaMemcpyHostToDevice));
  mandel_step<<<(n + 127) / 128, 128>>>(dc, dz, n, 8);
  CK(cudaMemcpy(hz.data(), dz, n * sizeof(cplx), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    std::complex<double> c(hc[i].real(), hc[i].imag()), z(0, 0);
    for (int k = 0; k < 8; ++k) z = z * z + c;
    z += std::exp(std::complex<double>(0, 0.5)) * std::abs(c);
    if (std::abs(z - std::complex<double>(hz[i].real(), hz[i].imag())) > 1e-9) { if (bad++ < 3) std::printf("cplx %d\n", i); }
  }

  std::vector<int> ha(n), hb(n);
  for (int i = 0; i < n; ++i) { ha[i] = i * 37 + 1; hb[i] = i % 5; }
  int *da, *db, *ddiv, *dl; float* dar; uint32_t* dbits;
  CK(cudaMalloc(&da, n * 4)); CK(cudaMalloc(&db, n * 4)); CK(cudaMalloc(&ddiv, n * 4));
  CK(cudaMalloc(&dar, n * 4)); CK(cudaMalloc(&dbits, n * 4)); CK(cudaMalloc(&dl, 8 * 4));
  CK(cudaMemcpy(da, ha.data(), n * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(db, hb.data(), n * 4, cudaMemcpyHostToDevice));
  misc<<<(n + 127) / 128, 128>>>(da, db, ddiv, dar, dbits, dl, n);
  CK(cudaGetLastError());
  std::vector<int> hdiv(n); std::vector<float> har(n); std::vector<uint32_t> hbits(n); int hl[8];
  CK(cudaMemcpy(hdiv.data(), ddiv, n * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(har.data(), dar, n * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hbits.data(), dbits, n * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hl, dl, 7 * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    int d = hb[i] ? ha[i] / hb[i] : -999;
    float ar = i % 3 == 0 ? 3.0f * i * i : (i % 3 == 1 ? i * 2.0f : i + 0.5f);
    uint32_t u = ha[i];
    int bw = 0; while ((u >> bw) && bw < 32) ++bw;
    uint32_t bref = __builtin_popcount(u) + 100u * (u ? __builtin_clz(u) : 32) + 10000u * bw;
    if (hdiv[i] != d || har[i] != ar || hbits[i] != bref) { if (bad++ < 3) std::printf("misc %d: %d %f %u\n", i, hdiv[i], har[i], hbits[i]); }
  }
  if (hl[0] != 2147483647 || hl[1] != -32768 || hl[2] != 24 || hl[3] != 0x3f800000 || hl[4] != 64 ||
      hl[5] != 1 || hl[6] != 1500000) { bad++; std::printf("limits %d %d %d %x %d %d %d\n", hl[0], hl[1], hl[2], hl[3], hl[4], hl[5], hl[6]); }

  int* dbins; unsigned long long* dtot; int* dmax;
  CK(cudaMalloc(&dbins, 16 * 4)); CK(cudaMalloc(&dtot, 8)); CK(cudaMalloc(&dmax, 4));
  CK(cudaMemset(dbins, 0, 64)); CK(cudaMemset(dtot, 0, 8));
  int init = -1; CK(cudaMemcpy(dmax, &init, 4, cudaMemcpyHostToDevice));
  histogram<<<(n + 63) / 64, 64>>>(da, n, dbins, dtot);
  block_max<<<(n + 63) / 64, 64>>>(da, n, dmax);
  int hbins[16]; unsigned long long htot; int hmax;
  CK(cudaMemcpy(hbins, dbins, 64, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&htot, dtot, 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&hmax, dmax, 4, cudaMemcpyDeviceToHost));
  int rbins[16] = {}; unsigned long long rtot = 0; int rmax = -1;
  for (int v : ha) { rbins[v & 15]++; rtot += v; rmax = v > rmax ? v : rmax; }
  for (int k = 0; k < 16; ++k) if (hbins[k] != rbins[k]) { bad++; break; }
  if (htot != rtot || hmax != rmax) { bad++; std::printf("atomics %llu %d\n", htot, hmax); }

  const int rows = 33, cols = 17;
  std::vector<float> hm(rows * cols);
  for (int k = 0; k < rows * cols; ++k) hm[k] = float(k % 13) - 4.0f;
  float *dm, *dt, *drow;
  CK(cudaMalloc(&dm, rows * cols * 4)); CK(cudaMalloc(&dt, rows * cols * 4)); CK(cudaMalloc(&drow, rows * 4));
  CK(cudaMemcpy(dm, hm.data(), rows * cols * 4, cudaMemcpyHostToDevice));
  span_kernel<<<1, 64>>>(dm, rows, cols, drow);
  transpose_md<<<dim3(2, 3), dim3(16, 16)>>>(dm, dt, rows, cols);
  std::vector<float> hrow(rows), ht(rows * cols);
  CK(cudaMemcpy(hrow.data(), drow, rows * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(ht.data(), dt, rows * cols * 4, cudaMemcpyDeviceToHost));
  for (int r = 0; r < rows; ++r) {
    float s = 0; for (int c = 1; c < cols; ++c) s += hm[r * cols + c];
    s += hm[r * cols] * 10 + hm[r * cols + cols - 1] * 100;
    if (hrow[r] != s) { bad++; break; }
    for (int c = 0; c < cols; ++c) if (ht[c * rows + r] != hm[r * cols + c] * 2) { bad++; r = rows; break; }
  }

  int* darr; int harr[32];
  CK(cudaMalloc(&darr, 32 * 4));
  array_kernel<<<1, 32>>>(darr);
  CK(cudaMemcpy(harr, darr, 32 * 4, cudaMemcpyDeviceToHost));
  for (int t = 0; t < 32; ++t) if (harr[t] != 140 + 8 * t + 49 + t) { bad++; break; }

  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}

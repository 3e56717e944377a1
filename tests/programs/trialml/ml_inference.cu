// Inference kernels in the style of public ML projects, the kernels in
// headers (mlk/*.cuh) templated on float, __half, __nv_bfloat16 and fp8:
// LayerNorm and RMSNorm with cub::BlockReduce and shuffles, softmax (h2exp
// on half2), int8 and fp8 quantization, rotary embeddings (__hfma2 on
// pairs), wmma GEMMs, a 4-stage cuda::pipeline SGEMM with 64 KB of dynamic
// shared memory (cudaFuncSetAttribute), cooperative_groups::memcpy_async
// double buffering, occupancy-sized launches, paged-KV-cache decode
// attention with uint4 loads, and top-k with cub::BlockRadixSort, each
// checked against a float64 host reference. Streams, events and
// cudaMallocAsync on the host side. Built unmodified with cuemu-nvcc, each
// unit printed g++'s "inline function given attribute 'noinline'" for the
// __forceinline__ prototype of from_float2 (mlk/dtype.cuh); the results
// were right (tests/programs_trialml.sh).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <numeric>
#include <vector>

#include "host_util.hpp"
#include "mlk/gemm_pipeline.cuh"
#include "mlk/gemm_wmma.cuh"
#include "mlk/norm.cuh"
#include "mlk/paged_attention.cuh"
#include "mlk/quant.cuh"
#include "mlk/rotary.cuh"
#include "mlk/softmax.cuh"
#include "mlk/topk.cuh"

using namespace mlk;
// ---- norm ----
// LayerNorm, RMSNorm and softmax for float, half and bf16 against a float64
// host reference.



template <typename T>
struct DeviceBuffer {
  T *ptr = nullptr;
  size_t n = 0;
  explicit DeviceBuffer(size_t count) : n(count) { MLK_CUDA_CHECK(cudaMalloc(&ptr, n * sizeof(T))); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  ~DeviceBuffer() { cudaFree(ptr); }
  void upload(const std::vector<T> &h) {
    MLK_CUDA_CHECK(cudaMemcpy(ptr, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> h(n);
    MLK_CUDA_CHECK(cudaMemcpy(h.data(), ptr, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }
};

template <typename T>
std::vector<double> as_double(const std::vector<T> &v) {
  std::vector<double> d(v.size());
  std::transform(v.begin(), v.end(), d.begin(), [](T x) { return double(to_float(x)); });
  return d;
}

template <typename T>
double tol_for() {
  if (std::is_same<T, float>::value) return 1e-4;
  if (std::is_same<T, __half>::value) return 4e-3;
  return 3e-2;
}

template <typename T>
void run_layer_norm(mlk_host::Checker &check, std::mt19937 &rng) {
  constexpr int kRows = 6, kHidden = 700, kBlock = 128, kItems = 6;
  auto conv = [](float f) { return from_float<T>(f); };
  auto x = mlk_host::random_vector<T>(size_t(kRows) * kHidden, rng, -3.f, 3.f, conv);
  auto g = mlk_host::random_vector<T>(kHidden, rng, 0.5f, 1.5f, conv);
  auto b = mlk_host::random_vector<T>(kHidden, rng, -0.5f, 0.5f, conv);
  DeviceBuffer<T> dx(x.size()), dg(g.size()), db(b.size()), dy(x.size());
  dx.upload(x); dg.upload(g); db.upload(b);
  layer_norm_kernel<T, kBlock, kItems><<<kRows, kBlock>>>(dy.ptr, dx.ptr, dg.ptr, db.ptr, kHidden, 1e-5f);
  MLK_CUDA_CHECK(cudaGetLastError());
  auto y = as_double(dy.download());
  auto xd = as_double(x), gd = as_double(g), bd = as_double(b);
  std::vector<double> ref(x.size());
  for (int r = 0; r < kRows; ++r) {
    double mean = 0, var = 0;
    for (int c = 0; c < kHidden; ++c) mean += xd[r * kHidden + c];
    mean /= kHidden;
    for (int c = 0; c < kHidden; ++c) var += (xd[r * kHidden + c] - mean) * (xd[r * kHidden + c] - mean);
    var /= kHidden;
    for (int c = 0; c < kHidden; ++c)
      ref[r * kHidden + c] = (xd[r * kHidden + c] - mean) / std::sqrt(var + 1e-5) * gd[c] + bd[c];
  }
  check.expect_close(std::string("layer_norm<") + TypeName<T>::value + ">", ref, y, tol_for<T>(), tol_for<T>());
}

template <typename T>
void run_rms_norm(mlk_host::Checker &check, std::mt19937 &rng) {
  constexpr int kRows = 5, kHidden = 1024, kBlock = 64;
  auto conv = [](float f) { return from_float<T>(f); };
  auto x = mlk_host::random_vector<T>(size_t(kRows) * kHidden, rng, -2.f, 2.f, conv);
  auto w = mlk_host::random_vector<T>(kHidden, rng, 0.5f, 1.5f, conv);
  DeviceBuffer<T> dx(x.size()), dw(w.size()), dy(x.size());
  dx.upload(x); dw.upload(w);
  rms_norm_vec_kernel<T, kBlock><<<kRows, kBlock>>>(dy.ptr, dx.ptr, dw.ptr, kHidden, 1e-6f);
  MLK_CUDA_CHECK(cudaGetLastError());
  auto y = as_double(dy.download());
  auto xd = as_double(x), wd = as_double(w);
  std::vector<double> ref(x.size());
  for (int r = 0; r < kRows; ++r) {
    double sq = 0;
    for (int c = 0; c < kHidden; ++c) sq += xd[r * kHidden + c] * xd[r * kHidden + c];
    const double s = 1.0 / std::sqrt(sq / kHidden + 1e-6);
    for (int c = 0; c < kHidden; ++c) ref[r * kHidden + c] = xd[r * kHidden + c] * s * wd[c];
  }
  check.expect_close(std::string("rms_norm_vec<") + TypeName<T>::value + ">", ref, y, 2 * tol_for<T>(), 2 * tol_for<T>());
}

template <typename T>
void run_add_rms_norm(mlk_host::Checker &check, std::mt19937 &rng) {
  constexpr int kRows = 3, kHidden = 12288 + 96, kBlock = 256;  // > 48 KB of row in shared memory
  auto conv = [](float f) { return from_float<T>(f); };
  auto x = mlk_host::random_vector<T>(size_t(kRows) * kHidden, rng, -1.f, 1.f, conv);
  auto res = mlk_host::random_vector<T>(size_t(kRows) * kHidden, rng, -1.f, 1.f, conv);
  auto w = mlk_host::random_vector<T>(kHidden, rng, 0.5f, 1.5f, conv);
  DeviceBuffer<T> dx(x.size()), dres(res.size()), dw(w.size()), dy(x.size());
  dx.upload(x); dres.upload(res); dw.upload(w);
  const size_t smem = kHidden * sizeof(float);
  auto kernel = add_rms_norm_kernel<T, kBlock>;
  MLK_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  kernel<<<kRows, kBlock, smem>>>(dy.ptr, dres.ptr, dx.ptr, dw.ptr, kHidden, 1e-6f);
  MLK_CUDA_CHECK(cudaGetLastError());
  auto y = as_double(dy.download());
  auto r2 = as_double(dres.download());
  auto xd = as_double(x), rd = as_double(res), wd = as_double(w);
  std::vector<double> ref(x.size()), ref_res(x.size());
  for (int r = 0; r < kRows; ++r) {
    double sq = 0;
    for (int c = 0; c < kHidden; ++c) {
      const double v = xd[r * kHidden + c] + rd[r * kHidden + c];
      ref_res[r * kHidden + c] = v;
      sq += v * v;
    }
    const double s = 1.0 / std::sqrt(sq / kHidden + 1e-6);
    for (int c = 0; c < kHidden; ++c) ref[r * kHidden + c] = ref_res[r * kHidden + c] * s * wd[c];
  }
  check.expect_close(std::string("add_rms_norm residual<") + TypeName<T>::value + ">", ref_res, r2, tol_for<T>(), tol_for<T>());
  check.expect_close(std::string("add_rms_norm<") + TypeName<T>::value + ">", ref, y, 2 * tol_for<T>(), 2 * tol_for<T>());
}

template <typename T>
void run_softmax(mlk_host::Checker &check, std::mt19937 &rng, bool causal) {
  constexpr int kRows = 40, kCols = 37, kBlock = 64;
  const float scale = 0.125f;
  auto conv = [](float f) { return from_float<T>(f); };
  auto x = mlk_host::random_vector<T>(size_t(kRows) * kCols, rng, -20.f, 20.f, conv);
  DeviceBuffer<T> dx(x.size()), dy(x.size());
  dx.upload(x);
  softmax_kernel<T, kBlock><<<kRows, kBlock>>>(dy.ptr, dx.ptr, kCols, scale, causal);
  MLK_CUDA_CHECK(cudaGetLastError());
  auto y = as_double(dy.download());
  auto xd = as_double(x);
  std::vector<double> ref(x.size());
  for (int r = 0; r < kRows; ++r) {
    const int limit = causal ? r % kCols : kCols - 1;
    double m = -1e300, s = 0;
    for (int c = 0; c <= limit; ++c) m = std::max(m, xd[r * kCols + c] * scale);
    for (int c = 0; c <= limit; ++c) s += std::exp(xd[r * kCols + c] * scale - m);
    for (int c = 0; c < kCols; ++c)
      ref[r * kCols + c] = c <= limit ? std::exp(xd[r * kCols + c] * scale - m) / s : 0.0;
  }
  check.expect_close(std::string(causal ? "softmax causal<" : "softmax<") + TypeName<T>::value + ">", ref, y,
                     tol_for<T>(), tol_for<T>());
}

void run_softmax_half2(mlk_host::Checker &check, std::mt19937 &rng) {
  constexpr int kColsPerLane = 4, kCols = kColsPerLane * 64, kRows = 9;
  auto x = mlk_host::random_vector<__half>(size_t(kRows) * kCols, rng, -4.f, 4.f,
                                           [](float f) { return __float2half(f); });
  DeviceBuffer<__half> dx(x.size()), dy(x.size());
  dx.upload(x);
  const int warps = 4;
  softmax_warp_half2_kernel<kColsPerLane><<<ceil_div(kRows, warps), warps * 32>>>(dy.ptr, dx.ptr, kRows);
  MLK_CUDA_CHECK(cudaGetLastError());
  auto y = as_double(dy.download());
  auto xd = as_double(x);
  std::vector<double> ref(x.size());
  for (int r = 0; r < kRows; ++r) {
    double m = -1e300, s = 0;
    for (int c = 0; c < kCols; ++c) m = std::max(m, xd[r * kCols + c]);
    for (int c = 0; c < kCols; ++c) s += std::exp(xd[r * kCols + c] - m);
    for (int c = 0; c < kCols; ++c) ref[r * kCols + c] = std::exp(xd[r * kCols + c] - m) / s;
  }
  check.expect_close("softmax_warp_half2", ref, y, 2e-3, 1e-2);
}

static int run_norm() {
  std::mt19937 rng(1234);
  mlk_host::Checker check;
  run_layer_norm<__half>(check, rng);
  run_rms_norm<__nv_bfloat16>(check, rng);
  run_add_rms_norm<float>(check, rng);
  run_softmax_half2(check, rng);
  MLK_CUDA_CHECK(cudaDeviceSynchronize());
  return check.finish();
}

// ---- quant ----
// int8 and fp8 quantization and rotary embeddings against float64 host
// references; the fp8 values are checked against the host conversions of
// <cuda_fp8.h> too.



template <typename T>
struct CudaDeleter { void operator()(T *p) const { cudaFree(p); } };
template <typename T>
using DevicePtr = std::unique_ptr<T, CudaDeleter<T>>;

template <typename T>
DevicePtr<T> device_alloc(size_t n) {
  T *p = nullptr;
  MLK_CUDA_CHECK(cudaMalloc(reinterpret_cast<void **>(&p), n * sizeof(T)));
  return DevicePtr<T>(p);
}
template <typename T>
DevicePtr<T> to_device(const std::vector<T> &h) {
  auto d = device_alloc<T>(h.size());
  MLK_CUDA_CHECK(cudaMemcpy(d.get(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
template <typename T>
std::vector<T> to_host(const DevicePtr<T> &d, size_t n) {
  std::vector<T> h(n);
  MLK_CUDA_CHECK(cudaMemcpy(h.data(), d.get(), n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

template <typename T>
void run_int8(mlk_host::Checker &check, std::mt19937 &rng) {
  constexpr int kRows = 7, kHidden = 512, kBlock = 128;
  auto x = mlk_host::random_vector<T>(size_t(kRows) * kHidden, rng, -6.f, 6.f,
                                      [](float f) { return from_float<T>(f); });
  auto dx = to_device(x);
  auto dq = device_alloc<int8_t>(x.size());
  auto ds = device_alloc<float>(kRows);
  auto dy = device_alloc<T>(x.size());
  quantize_per_token_int8<T, kBlock><<<kRows, kBlock>>>(dq.get(), ds.get(), dx.get(), kHidden);
  dequantize_int8<T><<<ceil_div(kRows * kHidden, 256), 256>>>(dy.get(), dq.get(), ds.get(), kRows, kHidden);
  MLK_CUDA_CHECK(cudaGetLastError());
  auto q = to_host(dq, x.size());
  auto s = to_host(ds, kRows);
  auto y = to_host(dy, x.size());
  std::vector<double> ref_q(x.size()), got_q(x.size()), ref_y(x.size()), got_y(x.size());
  for (int r = 0; r < kRows; ++r) {
    double amax = 0;
    for (int c = 0; c < kHidden; ++c) amax = std::max(amax, std::fabs(double(to_float(x[r * kHidden + c]))));
    const double scale = amax / 127.0;
    for (int c = 0; c < kHidden; ++c) {
      const size_t i = size_t(r) * kHidden + c;
      ref_q[i] = std::nearbyint(to_float(x[i]) / scale);
      got_q[i] = q[i];
      ref_y[i] = to_float(x[i]);
      got_y[i] = to_float(y[i]);
    }
    check.expect(std::string("int8 scale row ") + std::to_string(r),
                 std::fabs(s[r] - scale) <= 1e-6 * scale);
  }
  // One level of rounding apart at most (x / scale computed as x * (1 / scale)).
  check.expect_close(std::string("int8 codes<") + TypeName<T>::value + ">", ref_q, got_q, 1.0, 0.0);
  check.expect_close(std::string("int8 round trip<") + TypeName<T>::value + ">", ref_y, got_y, 6.0 / 127 + 1e-2, 1e-2);
}

void run_fp8(mlk_host::Checker &check, std::mt19937 &rng) {
  constexpr int kN = 1030;
  std::vector<float> x(kN);
  std::normal_distribution<float> dist(0.f, 30.f);
  for (auto &v : x) v = dist(rng);
  x[0] = 1e6f;  // saturates to the largest finite value
  x[1] = -1e6f;
  float amax = 0.f;
  for (size_t i = 2; i < x.size(); ++i) amax = std::max(amax, std::fabs(x[i]));
  const float scale = amax / 448.f;
  auto dx = to_device(x);
  auto dscale = to_device(std::vector<float>{scale});
  auto dq = device_alloc<__nv_fp8_storage_t>(kN);
  quantize_fp8_e4m3<<<ceil_div(kN / 4 + 1, 64), 64>>>(dq.get(), dx.get(), dscale.get(), kN);
  auto dh = device_alloc<__half>(kN);
  dequantize_fp8_e4m3_to_half<<<ceil_div(kN / 2, 128), 128>>>(dh.get(), dq.get(), scale, kN);
  MLK_CUDA_CHECK(cudaGetLastError());
  auto q = to_host(dq, kN);
  auto h = to_host(dh, kN);
  int mismatched = 0;
  std::vector<double> ref(kN), got(kN);
  for (int i = 0; i < kN; ++i) {
    const __nv_fp8_e4m3 host(x[i] * (1.f / scale));
    if (host.__x != q[i] && mismatched++ < 4)
      std::printf("  fp8 code %d: x=%g host=0x%02x device=0x%02x\n", i, x[i], host.__x, q[i]);
    ref[i] = i < 2 ? std::copysign(448.0 * scale, x[i]) : x[i];
    got[i] = __half2float(h[i]);
  }
  check.expect("fp8 e4m3 codes match host conversion", mismatched == 0);
  check.expect("fp8 e4m3 saturates", q[0] == 0x7e && q[1] == 0xfe);
  // e4m3 keeps 3 mantissa bits: relative error 1/16, then half rounding.
  check.expect_close("fp8 e4m3 round trip", ref, got, scale * 0.02, 0.0725);

  std::vector<__nv_bfloat16> b(kN);
  for (int i = 0; i < kN; ++i) b[i] = __float2bfloat16(x[i] * 0.01f);
  auto db = to_device(b);
  auto dbo = device_alloc<__nv_bfloat16>(kN);
  round_trip_e5m2<<<ceil_div(kN, 256), 256>>>(dbo.get(), db.get(), kN);
  auto bo = to_host(dbo, kN);
  std::vector<double> rb(kN), gb(kN);
  for (int i = 0; i < kN; ++i) {
    rb[i] = __bfloat162float(b[i]);
    gb[i] = __bfloat162float(bo[i]);
  }
  check.expect_close("fp8 e5m2 round trip (bf16)", rb, gb, 1e-5, 0.126);
}

template <typename T, bool NeoX>
void run_rotary(mlk_host::Checker &check, std::mt19937 &rng) {
  constexpr int kTokens = 6, kHeads = 4, kKvHeads = 2, kDim = 64;
  const float theta = 10000.f;
  auto conv = [](float f) { return from_float<T>(f); };
  auto q = mlk_host::random_vector<T>(size_t(kTokens) * kHeads * kDim, rng, -1.f, 1.f, conv);
  auto k = mlk_host::random_vector<T>(size_t(kTokens) * kKvHeads * kDim, rng, -1.f, 1.f, conv);
  std::vector<int> pos = {0, 1, 5, 17, 100, 1023};
  auto dq = to_device(q);
  auto dk = to_device(k);
  auto dpos = to_device(pos);
  rotary_embedding_kernel<T, NeoX><<<kTokens, 64>>>(dq.get(), dk.get(), dpos.get(), kHeads, kKvHeads, kDim, theta);
  MLK_CUDA_CHECK(cudaGetLastError());
  auto q2 = to_host(dq, q.size());
  auto k2 = to_host(dk, k.size());
  std::vector<double> ref, got;
  auto rotate = [&](const std::vector<T> &in, const std::vector<T> &out, int heads) {
    for (int t = 0; t < kTokens; ++t)
      for (int h = 0; h < heads; ++h) {
        const size_t b = (size_t(t) * heads + h) * kDim;
        for (int i = 0; i < kDim / 2; ++i) {
          const double ang = pos[t] * std::pow(double(theta), -2.0 * i / kDim);
          const int i0 = NeoX ? i : 2 * i, i1 = NeoX ? i + kDim / 2 : 2 * i + 1;
          const double x0 = to_float(in[b + i0]), x1 = to_float(in[b + i1]);
          ref.push_back(x0 * std::cos(ang) - x1 * std::sin(ang));
          ref.push_back(x1 * std::cos(ang) + x0 * std::sin(ang));
          got.push_back(to_float(out[b + i0]));
          got.push_back(to_float(out[b + i1]));
        }
      }
  };
  rotate(q, q2, kHeads);
  rotate(k, k2, kKvHeads);
  const double tol = std::is_same<T, float>::value ? 5e-4 : 2e-2;
  check.expect_close(std::string(NeoX ? "rotary neox<" : "rotary gptj<") + TypeName<T>::value + ">", ref, got, tol, tol);
}

template <typename T>
void run_rotary_cached(mlk_host::Checker &check, std::mt19937 &rng) {
  constexpr int kTokens = 5, kHeads = 3, kDim = 32, kMaxPos = 64;
  auto conv = [](float f) { return from_float<T>(f); };
  auto x = mlk_host::random_vector<T>(size_t(kTokens) * kHeads * kDim, rng, -1.f, 1.f, conv);
  std::vector<T> cs(kMaxPos * kDim / 2), sn(kMaxPos * kDim / 2);
  for (int p = 0; p < kMaxPos; ++p)
    for (int i = 0; i < kDim / 2; ++i) {
      const double ang = p * std::pow(10000.0, -2.0 * i / kDim);
      cs[p * kDim / 2 + i] = from_float<T>(float(std::cos(ang)));
      sn[p * kDim / 2 + i] = from_float<T>(float(std::sin(ang)));
    }
  std::vector<int> pos = {3, 0, 63, 7, 31};
  auto dx = to_device(x);
  auto dc = to_device(cs);
  auto dsn = to_device(sn);
  auto dpos = to_device(pos);
  rotary_cached_pairs_kernel<T><<<kTokens, 32>>>(dx.get(), dc.get(), dsn.get(), dpos.get(), kHeads, kDim);
  MLK_CUDA_CHECK(cudaGetLastError());
  auto y = to_host(dx, x.size());
  std::vector<double> ref, got;
  for (int t = 0; t < kTokens; ++t)
    for (int h = 0; h < kHeads; ++h)
      for (int i = 0; i < kDim / 2; ++i) {
        const size_t b = (size_t(t) * kHeads + h) * kDim + 2 * i;
        const double c = to_float(cs[pos[t] * kDim / 2 + i]), s = to_float(sn[pos[t] * kDim / 2 + i]);
        const double x0 = to_float(x[b]), x1 = to_float(x[b + 1]);
        ref.push_back(x0 * c - x1 * s);
        ref.push_back(x1 * c + x0 * s);
        got.push_back(to_float(y[b]));
        got.push_back(to_float(y[b + 1]));
      }
  check.expect_close(std::string("rotary cached pairs<") + TypeName<T>::value + ">", ref, got, 2e-2, 2e-2);
}

static int run_quant() {
  std::mt19937 rng(42);
  mlk_host::Checker check;
  run_int8<__half>(check, rng);
  run_fp8(check, rng);
  run_rotary<__nv_bfloat16, true>(check, rng);
  MLK_CUDA_CHECK(cudaDeviceSynchronize());
  return check.finish();
}

// ---- gemm ----
// Tensor-core (wmma) and pipelined SIMT GEMMs against a float64 host GEMM,
// launched on two streams and timed with events; the occupancy API sizes an
// elementwise epilogue kernel.



static std::vector<double> host_gemm(const std::vector<double> &A, const std::vector<double> &B, int M,
                                     int N, int K, bool b_col_major) {
  std::vector<double> C(size_t(M) * N, 0.0);
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k) {
      const double a = A[size_t(m) * K + k];
      for (int n = 0; n < N; ++n)
        C[size_t(m) * N + n] += a * (b_col_major ? B[size_t(n) * K + k] : B[size_t(k) * N + n]);
    }
  return C;
}

template <typename T>
static T *upload(const std::vector<T> &h, cudaStream_t s) {
  T *d = nullptr;
  MLK_CUDA_CHECK(cudaMallocAsync(&d, h.size() * sizeof(T), s));
  MLK_CUDA_CHECK(cudaMemcpyAsync(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice, s));
  return d;
}

template <typename T>
static std::vector<double> download(const T *d, size_t n) {
  std::vector<T> h(n);
  MLK_CUDA_CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  std::vector<double> r(n);
  for (size_t i = 0; i < n; ++i) r[i] = to_float(h[i]);
  return r;
}

static int run_gemm() {
  std::mt19937 rng(7);
  mlk_host::Checker check;
  cudaDeviceProp prop{};
  MLK_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s, sm_%d%d, %zu KB shared per block (optin %zu KB)\n", prop.name, prop.major,
              prop.minor, prop.sharedMemPerBlock / 1024, prop.sharedMemPerBlockOptin / 1024);

  cudaStream_t s0, s1;
  MLK_CUDA_CHECK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
  MLK_CUDA_CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  cudaEvent_t start, stop, ready;
  MLK_CUDA_CHECK(cudaEventCreate(&start));
  MLK_CUDA_CHECK(cudaEventCreate(&stop));
  MLK_CUDA_CHECK(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));

  // wmma GEMM, half in, float and half out, B row and column major; M, N, K
  // not multiples of the block tile.
  {
    constexpr int M = 72, N = 80, K = 96;
    std::uniform_int_distribution<int> small(-4, 4);
    std::vector<__half> A(M * K), Br(K * N), Bc(K * N);
    std::vector<double> Ad(M * K), Brd(K * N), Bcd(K * N);
    for (int i = 0; i < M * K; ++i) { Ad[i] = small(rng) * 0.25; A[i] = __float2half(float(Ad[i])); }
    for (int i = 0; i < K * N; ++i) { Brd[i] = small(rng) * 0.5; Br[i] = __float2half(float(Brd[i])); }
    for (int i = 0; i < K * N; ++i) { Bcd[i] = small(rng); Bc[i] = __float2half(float(Bcd[i])); }
    std::vector<float> C0(M * N);
    std::vector<double> C0d(M * N);
    for (int i = 0; i < M * N; ++i) { C0d[i] = small(rng); C0[i] = float(C0d[i]); }
    __half *dA = upload(A, s0), *dBr = upload(Br, s0), *dBc = upload(Bc, s0);
    float *dC = upload(C0, s0);
    __half *dCh = nullptr;
    MLK_CUDA_CHECK(cudaMallocAsync(&dCh, M * N * sizeof(__half), s0));
    MLK_CUDA_CHECK(cudaEventRecord(start, s0));
    constexpr int BM = 64, BN = 32, BK = 32;
    dim3 grid(ceil_div(N, BN), ceil_div(M, BM));
    wmma_gemm_kernel<BM, BN, BK, 2, 2, wmma::row_major, float>
        <<<grid, 128, 0, s0>>>(dC, dA, dBr, M, N, K, 0.5f, 2.0f);
    wmma_gemm_kernel<BM, BN, BK, 2, 2, wmma::col_major, __half>
        <<<grid, 128, 0, s0>>>(dCh, dA, dBc, M, N, K, 1.0f, 0.0f);
    MLK_CUDA_CHECK(cudaGetLastError());
    MLK_CUDA_CHECK(cudaEventRecord(stop, s0));
    MLK_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = -1.f;
    MLK_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    check.expect("event time of the wmma GEMMs", ms >= 0.f);
    auto ref = host_gemm(Ad, Brd, M, N, K, false);
    for (int i = 0; i < M * N; ++i) ref[i] = 0.5 * ref[i] + 2.0 * C0d[i];
    check.expect_close("wmma gemm f16->f32 B row major", ref, download(dC, M * N), 1e-5, 0);
    auto ref2 = host_gemm(Ad, Bcd, M, N, K, true);
    check.expect_close("wmma gemm f16->f16 B col major", ref2, download(dCh, M * N), 1e-3, 1e-3);

    for (void *p : {static_cast<void *>(dA), static_cast<void *>(dBr), static_cast<void *>(dBc),
                    static_cast<void *>(dC), static_cast<void *>(dCh)})
      MLK_CUDA_CHECK(cudaFree(p));
  }

  // Pipelined SGEMM with 4 stages: 64 KB of dynamic shared memory.
  {
    constexpr int M = 128, N = 128, K = 256;
    constexpr int BM = 64, BN = 64, BK = 32, TM = 4, TN = 4, Stages = 4;
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    std::vector<float> A(M * K), B(K * N);
    std::vector<double> Ad(M * K), Bd(K * N);
    for (int i = 0; i < M * K; ++i) Ad[i] = A[i] = u(rng);
    for (int i = 0; i < K * N; ++i) Bd[i] = B[i] = u(rng);
    float *dA = upload(A, s1), *dB = upload(B, s1), *dC = nullptr, *dC2 = nullptr;
    MLK_CUDA_CHECK(cudaMallocAsync(&dC, M * N * sizeof(float), s1));
    MLK_CUDA_CHECK(cudaMallocAsync(&dC2, M * N * sizeof(float), s1));
    MLK_CUDA_CHECK(cudaEventRecord(ready, s1));
    MLK_CUDA_CHECK(cudaStreamWaitEvent(s0, ready, 0));

    auto kernel = pipelined_sgemm_kernel<BM, BN, BK, TM, TN, Stages>;
    const int smem = Stages * (BM * BK + BK * BN) * int(sizeof(float));
    check.expect("pipeline needs more than 48 KB", smem > 48 * 1024);
    MLK_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    cudaFuncAttributes attr{};
    MLK_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
    check.expect("max dynamic shared memory attribute", attr.maxDynamicSharedSizeBytes == smem);
    int blocks_per_sm = 0;
    MLK_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel,
                                                                 (BM / TM) * (BN / TN), smem));
    check.expect("occupancy with 64 KB shared memory", blocks_per_sm >= 1);
    MLK_CUDA_CHECK(cudaEventRecord(start, s0));
    kernel<<<dim3(N / BN, M / BM), (BM / TM) * (BN / TN), smem, s0>>>(dC, dA, dB, M, N, K);
    MLK_CUDA_CHECK(cudaGetLastError());
    cg_double_buffer_sgemm_kernel<32><<<dim3(N / 32, M / 32), dim3(32, 8), 0, s0>>>(dC2, dA, dB, M, N, K);
    MLK_CUDA_CHECK(cudaGetLastError());
    MLK_CUDA_CHECK(cudaEventRecord(stop, s0));
    MLK_CUDA_CHECK(cudaStreamSynchronize(s0));
    float ms = -1.f;
    MLK_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    std::printf("pipelined GEMMs: %.3f ms\n", ms);
    auto ref = host_gemm(Ad, Bd, M, N, K, false);
    check.expect_close("cuda::pipeline sgemm (4 stages)", ref, download(dC, M * N), 1e-4, 1e-4);
    check.expect_close("cg::memcpy_async double buffer", ref, download(dC2, M * N), 1e-4, 1e-4);
    MLK_CUDA_CHECK(cudaFree(dA));
    MLK_CUDA_CHECK(cudaFree(dB));
    MLK_CUDA_CHECK(cudaFree(dC));
    MLK_CUDA_CHECK(cudaFree(dC2));
  }

  // Occupancy-sized elementwise kernel.
  {
    constexpr int rows = 33, cols = 97;
    int min_grid = 0, block = 0;
    MLK_CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, bias_gelu_kernel<__nv_bfloat16>, 0, 0));
    check.expect("occupancy block size", block > 0 && block <= 1024 && block % 32 == 0 && min_grid > 0);
    const int grid = std::min(min_grid, ceil_div(rows * cols, block));
    std::uniform_real_distribution<float> u(-3.f, 3.f);
    std::vector<__nv_bfloat16> x(rows * cols), b(cols);
    for (auto &v : x) v = __float2bfloat16(u(rng));
    for (auto &v : b) v = __float2bfloat16(u(rng) * 0.1f);
    __nv_bfloat16 *dx = upload(x, s0), *db = upload(b, s0), *dy = nullptr;
    MLK_CUDA_CHECK(cudaMallocAsync(&dy, x.size() * sizeof(__nv_bfloat16), s0));
    bias_gelu_kernel<<<grid, block, 0, s0>>>(dy, dx, db, rows, cols);
    MLK_CUDA_CHECK(cudaStreamSynchronize(s0));
    std::vector<double> ref(x.size());
    for (int i = 0; i < rows * cols; ++i) {
      const double v = double(__bfloat162float(x[i])) + double(__bfloat162float(b[i % cols]));
      ref[i] = 0.5 * v * (1 + std::tanh(0.7978845608 * (v + 0.044715 * v * v * v)));
    }
    check.expect_close("bias_gelu<bf16> occupancy-sized", ref, download(dy, x.size()), 1e-2, 1e-2);
    MLK_CUDA_CHECK(cudaFreeAsync(dx, s0));
    MLK_CUDA_CHECK(cudaFreeAsync(db, s0));
    MLK_CUDA_CHECK(cudaFreeAsync(dy, s0));
  }
  MLK_CUDA_CHECK(cudaStreamSynchronize(s0));
  MLK_CUDA_CHECK(cudaEventDestroy(start));
  MLK_CUDA_CHECK(cudaEventDestroy(stop));
  MLK_CUDA_CHECK(cudaEventDestroy(ready));
  MLK_CUDA_CHECK(cudaStreamDestroy(s0));
  MLK_CUDA_CHECK(cudaStreamDestroy(s1));
  return check.finish();
}

// ---- attention ----
// Paged-KV-cache decode attention (half, bf16 and fp8 caches, grouped
// query heads) and top-k sampling probabilities, checked against float64
// host references; the batches run on two streams.



template <typename T>
static T *device_copy(const std::vector<T> &h, cudaStream_t s) {
  T *d = nullptr;
  MLK_CUDA_CHECK(cudaMalloc(&d, std::max<size_t>(h.size(), 1) * sizeof(T)));
  MLK_CUDA_CHECK(cudaMemcpyAsync(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice, s));
  return d;
}

template <typename T, typename CacheT, int HeadDim>
void run_paged_attention(mlk_host::Checker &check, std::mt19937 &rng, cudaStream_t stream, double tol) {
  constexpr int kPage = 16, kThreads = 128;
  const int num_seqs = 3, heads = 8, kv_heads = 2, num_pages = 24, max_pages = 10;
  const std::vector<int> ctx = {1, 37, 150};
  const float kv_scale = std::is_same<CacheT, __nv_fp8_e4m3>::value ? 0.05f : 1.f;
  std::uniform_real_distribution<float> u(-1.f, 1.f);

  std::vector<T> q(size_t(num_seqs) * heads * HeadDim);
  for (auto &x : q) x = from_float<T>(u(rng));
  const size_t cache_elems = size_t(num_pages) * kv_heads * kPage * HeadDim;
  std::vector<CacheT> kc(cache_elems), vc(cache_elems);
  for (auto &x : kc) x = from_float<CacheT>(u(rng) / kv_scale);
  for (auto &x : vc) x = from_float<CacheT>(u(rng) / kv_scale);
  // Each sequence gets distinct pages in a shuffled order.
  std::vector<int> pages(num_pages);
  std::iota(pages.begin(), pages.end(), 0);
  std::shuffle(pages.begin(), pages.end(), rng);
  std::vector<int> table(size_t(num_seqs) * max_pages, -1);
  int next = 0;
  for (int s = 0; s < num_seqs; ++s)
    for (int p = 0; p * kPage < ctx[s]; ++p) table[s * max_pages + p] = pages[next++];

  T *dq = device_copy(q, stream), *dout = nullptr;
  CacheT *dk = device_copy(kc, stream), *dv = device_copy(vc, stream);
  int *dtable = device_copy(table, stream), *dctx = device_copy(ctx, stream);
  MLK_CUDA_CHECK(cudaMalloc(&dout, q.size() * sizeof(T)));
  const int max_ctx = *std::max_element(ctx.begin(), ctx.end());
  const size_t smem = max_ctx * sizeof(float);
  const float scale = 1.f / std::sqrt(float(HeadDim));
  paged_attention_decode_kernel<T, CacheT, HeadDim, kPage, kThreads>
      <<<dim3(heads, num_seqs), kThreads, smem, stream>>>(dout, dq, dk, dv, dtable, dctx, max_pages, kv_heads,
                                                          scale, kv_scale);
  MLK_CUDA_CHECK(cudaGetLastError());
  std::vector<T> out(q.size());
  MLK_CUDA_CHECK(cudaMemcpyAsync(out.data(), dout, out.size() * sizeof(T), cudaMemcpyDeviceToHost, stream));
  MLK_CUDA_CHECK(cudaStreamSynchronize(stream));

  std::vector<double> ref(q.size()), got(q.size());
  for (int s = 0; s < num_seqs; ++s)
    for (int h = 0; h < heads; ++h) {
      const int kvh = h / (heads / kv_heads);
      std::vector<double> logit(ctx[s]);
      double m = -1e300;
      for (int t = 0; t < ctx[s]; ++t) {
        const int page = table[s * max_pages + t / kPage];
        const size_t row = ((size_t(page) * kv_heads + kvh) * kPage + t % kPage) * HeadDim;
        double dot = 0;
        for (int d = 0; d < HeadDim; ++d)
          dot += double(to_float(q[(size_t(s) * heads + h) * HeadDim + d])) * to_float(kc[row + d]) * kv_scale;
        logit[t] = dot * scale;
        m = std::max(m, logit[t]);
      }
      double sum = 0;
      for (auto &l : logit) sum += (l = std::exp(l - m));
      for (int d = 0; d < HeadDim; ++d) {
        double o = 0;
        for (int t = 0; t < ctx[s]; ++t) {
          const int page = table[s * max_pages + t / kPage];
          o += logit[t] * to_float(vc[((size_t(page) * kv_heads + kvh) * kPage + t % kPage) * HeadDim + d]) * kv_scale;
        }
        const size_t i = (size_t(s) * heads + h) * HeadDim + d;
        ref[i] = o / sum;
        got[i] = to_float(out[i]);
      }
    }
  check.expect_close(std::string("paged attention q=") + TypeName<T>::value + " cache=" + TypeName<CacheT>::value +
                         " d=" + std::to_string(HeadDim),
                     ref, got, tol, tol);
  for (void *p : {static_cast<void *>(dq), static_cast<void *>(dout), static_cast<void *>(dk),
                  static_cast<void *>(dv), static_cast<void *>(dtable), static_cast<void *>(dctx)})
    MLK_CUDA_CHECK(cudaFree(p));
}

template <typename T>
void run_topk(mlk_host::Checker &check, std::mt19937 &rng, cudaStream_t stream) {
  constexpr int kThreads = 128, kItems = 8;
  const int rows = 4, vocab = 1000, k = 12;
  const float temperature = 0.7f;
  std::normal_distribution<float> n(0.f, 3.f);
  std::vector<T> logits(size_t(rows) * vocab);
  for (auto &x : logits) x = from_float<T>(n(rng));
  T *dl = device_copy(logits, stream);
  float *dvals, *dprobs;
  int *didx;
  MLK_CUDA_CHECK(cudaMalloc(&dvals, rows * k * sizeof(float)));
  MLK_CUDA_CHECK(cudaMalloc(&dprobs, rows * k * sizeof(float)));
  MLK_CUDA_CHECK(cudaMalloc(&didx, rows * k * sizeof(int)));
  topk_kernel<T, kThreads, kItems><<<rows, kThreads, 0, stream>>>(dvals, didx, dprobs, dl, vocab, k, temperature);
  MLK_CUDA_CHECK(cudaGetLastError());
  std::vector<float> vals(rows * k), probs(rows * k);
  std::vector<int> idx(rows * k);
  MLK_CUDA_CHECK(cudaMemcpyAsync(vals.data(), dvals, vals.size() * sizeof(float), cudaMemcpyDeviceToHost, stream));
  MLK_CUDA_CHECK(cudaMemcpyAsync(probs.data(), dprobs, probs.size() * sizeof(float), cudaMemcpyDeviceToHost, stream));
  MLK_CUDA_CHECK(cudaMemcpyAsync(idx.data(), didx, idx.size() * sizeof(int), cudaMemcpyDeviceToHost, stream));
  MLK_CUDA_CHECK(cudaStreamSynchronize(stream));
  bool same_order = true;
  std::vector<double> ref_p, got_p;
  for (int r = 0; r < rows; ++r) {
    std::vector<int> order(vocab);
    std::iota(order.begin(), order.end(), 0);
    auto val = [&](int c) { return double(to_float(logits[size_t(r) * vocab + c])); };
    // A stable descending sort: equal values keep their index order.
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return val(a) > val(b); });
    double sum = 0;
    for (int i = 0; i < k; ++i) sum += std::exp((val(order[i]) - val(order[0])) / temperature);
    for (int i = 0; i < k; ++i) {
      if (order[i] != idx[r * k + i] || val(order[i]) != vals[r * k + i]) {
        if (same_order)
          std::printf("  row %d rank %d: want %d (%g) got %d (%g)\n", r, i, order[i], val(order[i]), idx[r * k + i],
                      vals[r * k + i]);
        same_order = false;
      }
      ref_p.push_back(std::exp((val(order[i]) - val(order[0])) / temperature) / sum);
      got_p.push_back(probs[r * k + i]);
    }
  }
  check.expect(std::string("top-k indices and values <") + TypeName<T>::value + ">", same_order);
  check.expect_close(std::string("top-k probabilities <") + TypeName<T>::value + ">", ref_p, got_p, 1e-5, 1e-4);
  MLK_CUDA_CHECK(cudaFree(dl));
  MLK_CUDA_CHECK(cudaFree(dvals));
  MLK_CUDA_CHECK(cudaFree(dprobs));
  MLK_CUDA_CHECK(cudaFree(didx));
}

static int run_attention() {
  std::mt19937 rng(2024);
  mlk_host::Checker check;
  cudaStream_t streams[2];
  for (auto &s : streams) MLK_CUDA_CHECK(cudaStreamCreate(&s));
  run_paged_attention<__half, __half, 64>(check, rng, streams[0], 2e-3);
  run_paged_attention<__nv_bfloat16, __nv_fp8_e4m3, 128>(check, rng, streams[1], 1e-2);
  run_topk<float>(check, rng, streams[0]);
  MLK_CUDA_CHECK(cudaDeviceSynchronize());
  for (auto &s : streams) MLK_CUDA_CHECK(cudaStreamDestroy(s));
  return check.finish();
}

int main() {
  int failed = 0;
  failed += run_norm();
  failed += run_quant();
  failed += run_gemm();
  failed += run_attention();
  std::printf("%s\n", failed ? "FAIL" : "PASS");
  return failed ? 1 : 0;
}

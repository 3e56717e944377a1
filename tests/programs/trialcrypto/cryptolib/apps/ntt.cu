// ntt.cu - forward and inverse NTT over Goldilocks, and a polynomial product.
// NVCC_OPTIONS: -rdc=true -I../include -I../host
#include <vector>
#include "ntt.cuh"

namespace host {
typedef unsigned __int128 u128;
static uint64_t mulmod(uint64_t a, uint64_t b) { return (uint64_t)((u128)a * b % gl::P); }
static uint64_t powmod(uint64_t b, uint64_t e) {
  uint64_t r = 1;
  for (; e; e >>= 1, b = mulmod(b, b))
    if (e & 1) r = mulmod(r, b);
  return r;
}
static uint64_t addmod(uint64_t a, uint64_t b) { return (uint64_t)(((u128)a + b) % gl::P); }
}  // namespace host

template <int LOG_N>
static void ntt(uint64_t *d_data, int batch, const uint64_t *d_tw, uint64_t scale, cudaStream_t s) {
  constexpr int N = 1 << LOG_N;
  const int threads = N / 2 < 256 ? N / 2 : 256;
  ntt_block<LOG_N><<<batch, threads, N * sizeof(uint64_t), s>>>(d_data, d_tw, scale);
  CUDA_CHECK_LAST();
}

static std::vector<uint64_t> twiddles(int n, bool inverse) {
  uint64_t w = host::powmod(7, (gl::P - 1) / n);
  if (inverse) w = host::powmod(w, gl::P - 2);
  std::vector<uint64_t> t(n / 2);
  uint64_t x = 1;
  for (int k = 0; k < n / 2; ++k, x = host::mulmod(x, w)) t[k] = x;
  return t;
}

int main() {
  int fails = 0;
  constexpr int LOG_N = 10, N = 1 << LOG_N;
  const int batch = 4;
  XorShift64 rng(5);
  std::vector<uint64_t> a((size_t)batch * N), b((size_t)batch * N);
  // The first half of each row holds a polynomial of degree < N/2, the rest is zero
  // so that the cyclic product is the full product.
  for (int r = 0; r < batch; ++r)
    for (int i = 0; i < N; ++i) {
      a[(size_t)r * N + i] = i < N / 2 ? rng.next() % gl::P : 0;
      b[(size_t)r * N + i] = i < N / 2 ? (r == 0 ? gl::P - 1 - i : rng.next() % gl::P) : 0;
    }
  const auto fw = twiddles(N, false), iw = twiddles(N, true);
  const uint64_t ninv = host::powmod(N, gl::P - 2);
  uint64_t *d_a, *d_b, *d_fw, *d_iw;
  const size_t bytes = a.size() * sizeof(uint64_t);
  CUDA_CHECK(cudaMalloc(&d_a, bytes));
  CUDA_CHECK(cudaMalloc(&d_b, bytes));
  CUDA_CHECK(cudaMalloc(&d_fw, fw.size() * sizeof(uint64_t)));
  CUDA_CHECK(cudaMalloc(&d_iw, iw.size() * sizeof(uint64_t)));
  CUDA_CHECK(cudaMemcpy(d_fw, fw.data(), fw.size() * sizeof(uint64_t), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_iw, iw.data(), iw.size() * sizeof(uint64_t), cudaMemcpyHostToDevice));
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  CUDA_CHECK(cudaMemcpyAsync(d_a, a.data(), bytes, cudaMemcpyHostToDevice, s));
  CUDA_CHECK(cudaMemcpyAsync(d_b, b.data(), bytes, cudaMemcpyHostToDevice, s));

  // Forward of row 1 checked against a direct evaluation at a few points.
  ntt<LOG_N>(d_a, batch, d_fw, 1, s);
  std::vector<uint64_t> fa(a.size());
  CUDA_CHECK(cudaMemcpyAsync(fa.data(), d_a, bytes, cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  int bad = 0;
  const uint64_t w = host::powmod(7, (gl::P - 1) / N);
  for (int k : {0, 1, 5, N / 2, N - 1}) {
    uint64_t acc = 0, wk = host::powmod(w, k), x = 1;
    for (int i = 0; i < N; ++i, x = host::mulmod(x, wk)) acc = host::addmod(acc, host::mulmod(a[N + i], x));
    if (acc != fa[N + k]) ++bad;
  }
  fails += report("ntt_forward", bad == 0);

  // Product: NTT(b), pointwise, inverse; compare with the schoolbook product.
  ntt<LOG_N>(d_b, batch, d_fw, 1, s);
  pointwise_mul<<<16, 128, 0, s>>>(d_a, d_b, a.size());
  CUDA_CHECK_LAST();
  ntt<LOG_N>(d_a, batch, d_iw, ninv, s);
  std::vector<uint64_t> prod(a.size());
  CUDA_CHECK(cudaMemcpyAsync(prod.data(), d_a, bytes, cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  bad = 0;
  for (int r = 0; r < batch; ++r) {
    std::vector<uint64_t> ref(N, 0);
    for (int i = 0; i < N / 2; ++i)
      for (int j = 0; j < N / 2; ++j)
        ref[i + j] = host::addmod(ref[i + j], host::mulmod(a[(size_t)r * N + i], b[(size_t)r * N + j]));
    for (int i = 0; i < N; ++i)
      if (ref[i] != prod[(size_t)r * N + i] && bad++ < 3)
        std::printf("product mismatch row %d coeff %d\n", r, i);
  }
  fails += report("ntt_polymul", bad == 0);

  // Forward then inverse gives the input back.
  CUDA_CHECK(cudaMemcpyAsync(d_b, b.data(), bytes, cudaMemcpyHostToDevice, s));
  ntt<LOG_N>(d_b, batch, d_fw, 1, s);
  ntt<LOG_N>(d_b, batch, d_iw, ninv, s);
  std::vector<uint64_t> back(b.size());
  CUDA_CHECK(cudaMemcpyAsync(back.data(), d_b, bytes, cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  fails += report("ntt_roundtrip", back == b);

  CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));
  CUDA_CHECK(cudaFree(d_fw));
  CUDA_CHECK(cudaFree(d_iw));
  std::printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}

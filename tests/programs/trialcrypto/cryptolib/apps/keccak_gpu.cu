// keccak_gpu.cu - the GPU side of the Keccak test, called from C.
// NVCC_OPTIONS: -rdc=true -I../include -I../host
#include <cstring>
#include <vector>
#include "keccak.cuh"

namespace {
const uint64_t kRC[24] = {
    0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808Aull, 0x8000000080008000ull,
    0x000000000000808Bull, 0x0000000080000001ull, 0x8000000080008081ull, 0x8000000000008009ull,
    0x000000000000008Aull, 0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000Aull,
    0x000000008000808Bull, 0x800000000000008Bull, 0x8000000000008089ull, 0x8000000000008003ull,
    0x8000000000008002ull, 0x8000000000000080ull, 0x000000000000800Aull, 0x800000008000000Aull,
    0x8000000080008081ull, 0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull};

uint64_t rotl(uint64_t v, int r) { return r ? (v << r) | (v >> (64 - r)) : v; }

void host_keccak(uint64_t s[25]) {
  static const int rho[25] = {0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14};
  for (int round = 0; round < 24; ++round) {
    uint64_t C[5], B[25];
    for (int x = 0; x < 5; ++x) C[x] = s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20];
    for (int i = 0; i < 25; ++i) s[i] ^= C[(i % 5 + 4) % 5] ^ rotl(C[(i % 5 + 1) % 5], 1);
    for (int x = 0; x < 5; ++x)
      for (int y = 0; y < 5; ++y) B[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(s[x + 5 * y], rho[x + 5 * y]);
    for (int y = 0; y < 5; ++y)
      for (int x = 0; x < 5; ++x) s[x + 5 * y] = B[x + 5 * y] ^ (~B[(x + 1) % 5 + 5 * y] & B[(x + 2) % 5 + 5 * y]);
    s[0] ^= kRC[round];
  }
}

void host_sha3_256(const uint8_t *msg, size_t len, uint64_t out[4]) {
  uint64_t s[25] = {0};
  uint8_t block[136] = {0};
  std::memcpy(block, msg, len);
  block[len] ^= 0x06;
  block[135] ^= 0x80;
  for (int w = 0; w < 17; ++w) {
    uint64_t v;
    std::memcpy(&v, block + 8 * w, 8);
    s[w] ^= v;
  }
  host_keccak(s);
  std::memcpy(out, s, 32);
}

// A search that a host thread watches through mapped pinned memory: the
// first nonce whose Keccak lane 0 has its top 12 bits clear.
__global__ void keccak_search(uint64_t seed, volatile unsigned long long *found, unsigned long long limit) {
  for (unsigned long long nonce = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; nonce < limit;
       nonce += (unsigned long long)gridDim.x * blockDim.x) {
    if (*found != ~0ull) return;
    uint2 s[25];
#pragma unroll
    for (int k = 0; k < 25; ++k) s[k] = make_uint2(0, 0);
    s[0] = vectorize(seed);
    s[1] = vectorize(cuda_swab64(nonce));
    keccak_f1600(s);
    if ((devectorize(s[0]) >> 52) == 0) {
      atomicMin((unsigned long long *)found, nonce);
      return;
    }
  }
}
}  // namespace

extern "C" int keccak_selftest(int n, unsigned long long *found_nonce) {
  uint2 rc[24];
  for (int i = 0; i < 24; ++i) rc[i] = make_uint2((uint32_t)kRC[i], (uint32_t)(kRC[i] >> 32));
  CUDA_CHECK(cudaMemcpyToSymbolAsync(c_keccak_rc, rc, sizeof(rc), 0, cudaMemcpyHostToDevice, 0));
  constexpr int SLOT = 136;
  XorShift64 rng(3);
  std::vector<uint8_t> msgs((size_t)n * SLOT);
  std::vector<uint32_t> lens(n);
  for (int i = 0; i < n; ++i) {
    static const uint32_t edge[3] = {0, 8, 135};
    lens[i] = i < 3 ? edge[i] : rng.next32() % 136;
    for (int b = 0; b < SLOT; ++b) msgs[(size_t)i * SLOT + b] = (uint8_t)rng.next();
  }
  uint64_t *d_msgs, *d_out;
  uint32_t *d_lens;
  CUDA_CHECK(cudaMalloc(&d_msgs, msgs.size()));
  CUDA_CHECK(cudaMalloc(&d_lens, n * sizeof(uint32_t)));
  CUDA_CHECK(cudaMalloc(&d_out, (size_t)n * 32));
  CUDA_CHECK(cudaMemcpy(d_msgs, msgs.data(), msgs.size(), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_lens, lens.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
  int sms = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  sha3_256_many<SLOT><<<(n + 63) / 64, 64>>>(d_msgs, d_lens, d_out, n);
  CUDA_CHECK(cudaGetLastError());
  std::vector<uint64_t> out((size_t)n * 4);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * 8, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    uint64_t ref[4];
    host_sha3_256(&msgs[(size_t)i * SLOT], lens[i], ref);
    if (std::memcmp(ref, &out[(size_t)i * 4], 32) != 0 && bad++ < 3)
      std::printf("sha3 mismatch at %d (len %u)\n", i, lens[i]);
  }
  // SHA3-256("") starts a7ffc6f8bf1ed766.
  if (out[0] != 0x66d71ebff8c6ffa7ull) ++bad;

  // The search, watched through mapped memory.
  unsigned long long *h_found, *d_found;
  CUDA_CHECK(cudaHostAlloc(&h_found, sizeof(*h_found), cudaHostAllocMapped));
  CUDA_CHECK(cudaHostGetDevicePointer(&d_found, h_found, 0));
  *h_found = ~0ull;
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const uint64_t seed = 0x0123456789abcdefull;
  keccak_search<<<sms * 2, 128, 0, s>>>(seed, d_found, 1ull << 22);
  CUDA_CHECK(cudaGetLastError());
  while (cudaStreamQuery(s) == cudaErrorNotReady) {
  }
  CUDA_CHECK(cudaStreamSynchronize(s));
  *found_nonce = *(volatile unsigned long long *)h_found;
  uint64_t st[25] = {0};
  st[0] = seed;
  st[1] = __builtin_bswap64(*found_nonce);
  host_keccak(st);
  if (*found_nonce == ~0ull || (st[0] >> 52) != 0) ++bad;
  CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaFreeHost(h_found));
  CUDA_CHECK(cudaFree(d_msgs));
  CUDA_CHECK(cudaFree(d_lens));
  CUDA_CHECK(cudaFree(d_out));
  return bad;
}

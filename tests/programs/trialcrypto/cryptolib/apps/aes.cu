// aes.cu - AES-128 ECB against the FIPS-197 vector and CTR over a buffer.
// NVCC_OPTIONS: -rdc=true -I../include -I../host
#include <cstring>
#include <vector>
#include "../host/host_ref.hpp"
#include "aes.cuh"

template <AesMode MODE>
static void run_aes(const std::vector<uint8_t> &in, std::vector<uint8_t> &out, uint4 iv, int grid) {
  const size_t nblocks = in.size() / 16;
  uint4 *d_in, *d_out;
  CUDA_CHECK(cudaMalloc(&d_in, in.size()));
  CUDA_CHECK(cudaMalloc(&d_out, in.size()));
  CUDA_CHECK(cudaMemcpy(d_in, in.data(), in.size(), cudaMemcpyHostToDevice));
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  aes128_kernel<MODE><<<grid, 256, 0, stream>>>(d_in, d_out, nblocks, iv);
  CUDA_CHECK_LAST();
  out.resize(in.size());
  CUDA_CHECK(cudaMemcpyAsync(out.data(), d_out, in.size(), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  CUDA_CHECK(cudaStreamDestroy(stream));
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
}

int main() {
  int fails = 0;
  // FIPS-197 appendix C.1.
  uint8_t key[16], pt[16];
  for (int i = 0; i < 16; ++i) {
    key[i] = (uint8_t)i;
    pt[i] = (uint8_t)(0x11 * i);
  }
  const uint8_t expect[16] = {0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
                              0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a};
  aes_setup(key);
  std::vector<uint8_t> in(pt, pt + 16), out;
  run_aes<AesMode::ECB>(in, out, uint4{}, 1);
  uint32_t rk[44];
  ref::aes128_expand(key, rk);
  uint8_t host_ct[16];
  ref::aes128_encrypt(rk, pt, host_ct);
  fails += report("aes128_ecb_fips197", std::memcmp(out.data(), expect, 16) == 0 &&
                                          std::memcmp(host_ct, expect, 16) == 0);

  // CTR over 64 KiB with a random key, decrypted again.
  XorShift64 rng(7);
  uint8_t key2[16];
  for (auto &k : key2) k = (uint8_t)rng.next();
  aes_setup(key2);
  ref::aes128_expand(key2, rk);
  const size_t bytes = 1 << 16;
  std::vector<uint8_t> plain(bytes), cipher, back;
  for (auto &b : plain) b = (uint8_t)rng.next();
  uint8_t ivb[16];
  for (auto &b : ivb) b = (uint8_t)rng.next();
  ivb[15] = 0xf0;  // the counter crosses a byte boundary early
  ivb[11] = 0xff;
  ivb[12] = ivb[13] = ivb[14] = 0xff;  // and a 32-bit word boundary
  uint4 iv;
  std::memcpy(&iv, ivb, 16);
  run_aes<AesMode::CTR>(plain, cipher, iv, 8);
  int bad = 0;
  for (size_t blk = 0; blk < bytes / 16; ++blk) {
    uint8_t ctr[16], ks[16];
    std::memcpy(ctr, ivb, 16);
    unsigned long long lo = 0;
    for (int i = 8; i < 16; ++i) lo = lo << 8 | ctr[i];
    lo += blk;
    for (int i = 15; i >= 8; --i, lo >>= 8) ctr[i] = (uint8_t)lo;
    ref::aes128_encrypt(rk, ctr, ks);
    for (int i = 0; i < 16; ++i)
      if ((uint8_t)(plain[16 * blk + i] ^ ks[i]) != cipher[16 * blk + i]) ++bad;
  }
  run_aes<AesMode::CTR>(cipher, back, iv, 3);
  fails += report("aes128_ctr", bad == 0 && back == plain);
  std::printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}

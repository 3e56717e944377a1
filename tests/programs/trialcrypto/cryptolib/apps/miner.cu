// miner.cu - a proof-of-work nonce search over an 80-byte block header:
// double SHA-256 from a host-computed midstate, every thread stopping early
// once a winner has claimed the result.
// NVCC_OPTIONS: -rdc=true -I../include -I../host
#include <cstring>
#include <vector>
#include "../host/host_ref.hpp"
#include "sha256.cuh"

struct WorkUnit {
  uint32_t midstate[8];  // state after the first 64 header bytes
  uint32_t tail[3];      // header words 16..18 (big-endian), the nonce is word 19
  uint32_t target;       // the first digest word must be below this
};

__constant__ WorkUnit c_work;

struct MinerResult {
  int claimed;
  uint32_t nonce;
  uint32_t hash0;
  unsigned long long tries;
};

__device__ __forceinline__ uint32_t double_sha(uint32_t nonce) {
  uint32_t block[16];
  block[0] = c_work.tail[0];
  block[1] = c_work.tail[1];
  block[2] = c_work.tail[2];
  block[3] = sha::bswap32(nonce);  // the nonce is stored little-endian in the header
  block[4] = 0x80000000u;
#pragma unroll
  for (int i = 5; i < 15; ++i) block[i] = 0;
  block[15] = 80 * 8;
  uint32_t st[8];
#pragma unroll
  for (int i = 0; i < 8; ++i) st[i] = c_work.midstate[i];
  sha::transform(st, block);
  // Second hash over the 32-byte digest.
#pragma unroll
  for (int i = 0; i < 8; ++i) block[i] = st[i];
  block[8] = 0x80000000u;
#pragma unroll
  for (int i = 9; i < 15; ++i) block[i] = 0;
  block[15] = 256;
  sha::init(st);
  sha::transform(st, block);
  return st[0];
}

__global__ void search_nonce(uint32_t start, uint32_t count, volatile int *stop, MinerResult *result) {
  const uint32_t stride = gridDim.x * blockDim.x;
  unsigned long long mine = 0;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
    if (*stop) break;  // someone else won
    ++mine;
    const uint32_t nonce = start + i;
    const uint32_t h0 = double_sha(nonce);
    if (h0 < c_work.target) {
      if (atomicCAS(&result->claimed, 0, 1) == 0) {
        result->nonce = nonce;
        result->hash0 = h0;
        __threadfence();
        *stop = 1;
      }
      break;
    }
  }
  atomicAdd(&result->tries, mine);
}

int main() {
  uint8_t header[80];
  XorShift64 rng(2024);
  for (int i = 0; i < 80; ++i) header[i] = (uint8_t)rng.next();
  WorkUnit work;
  ref::sha256_init(work.midstate);
  ref::sha256_block(work.midstate, header);
  for (int i = 0; i < 3; ++i)
    work.tail[i] = (uint32_t)header[64 + 4 * i] << 24 | (uint32_t)header[65 + 4 * i] << 16 |
                   (uint32_t)header[66 + 4 * i] << 8 | header[67 + 4 * i];
  work.target = 0x00100000u;  // about 1 in 4096 nonces
  CUDA_CHECK(cudaMemcpyToSymbol(c_work, &work, sizeof(work)));

  int *d_stop;
  MinerResult *d_result;
  CUDA_CHECK(cudaMalloc(&d_stop, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_result, sizeof(MinerResult)));
  CUDA_CHECK(cudaMemset(d_stop, 0, sizeof(int)));
  CUDA_CHECK(cudaMemset(d_result, 0, sizeof(MinerResult)));
  const uint32_t count = 1u << 20;
  search_nonce<<<64, 128>>>(0, count, d_stop, d_result);
  CUDA_CHECK_LAST();
  CUDA_CHECK(cudaDeviceSynchronize());
  MinerResult res;
  CUDA_CHECK(cudaMemcpy(&res, d_result, sizeof(res), cudaMemcpyDeviceToHost));

  bool ok = res.claimed == 1;
  if (ok) {
    uint8_t h[80];
    std::memcpy(h, header, 76);
    std::memcpy(h + 76, &res.nonce, 4);  // little-endian host
    uint32_t d1[8], d2[8];
    ref::sha256(h, 80, d1);
    uint8_t d1b[32];
    for (int i = 0; i < 8; ++i)
      for (int k = 0; k < 4; ++k) d1b[4 * i + k] = (uint8_t)(d1[i] >> (24 - 8 * k));
    ref::sha256(d1b, 32, d2);
    ok = d2[0] == res.hash0 && d2[0] < work.target;
    // The search must have stopped early: far fewer tries than the range.
    ok = ok && res.tries < count / 4;
    std::printf("nonce %u hash0 %08x after %llu tries\n", res.nonce, res.hash0, res.tries);
  }
  CUDA_CHECK(cudaFree(d_stop));
  CUDA_CHECK(cudaFree(d_result));
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

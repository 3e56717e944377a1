// Number-theoretic-transform and hashing programs write 64-bit constants in
// decimal without a suffix: the Goldilocks prime's generator
// 17492915097719143606, or -9223372036854775808 for the least long long.
// Such a literal fits no signed type; nvcc gives it unsigned long long (8
// bytes), on the host and on the device, so x * 17492915097719143606 % p
// wraps at 2^64. cuemu-nvcc's g++ gave it __int128 with a warning ("integer
// constant is so large that it is unsigned"): the product was reduced in
// 128 bits, a silent wrong answer on both sides. The products below are
// those of 64-bit arithmetic (Python: (x * g % 2**64) % p).
#include <cstdio>
#include <type_traits>
#include "../check.cuh"

#define GENERATOR 17492915097719143606

__global__ void wide(unsigned long long *out, unsigned long long x) {
  out[0] = sizeof(17492915097719143606);
  out[1] = x * 17492915097719143606 % 1000000007ull;
  out[2] = x * GENERATOR % 0xFFFFFFFF00000001ull;
  out[3] = std::is_same<decltype(18446744073709551615LL), unsigned long long>::value;
  out[4] = -9223372036854775808 < 0;
  out[5] = sizeof(9'223'372'036'854'775'808);
}

int main() {
  const unsigned long long x = 123456789ull;
  const unsigned long long want[6] = {8, 280115407ull, 9731486573400520942ull, 1, 0, 8};
  CHECK(sizeof(GENERATOR) == 8);
  CHECK(x * 17492915097719143606 % 1000000007ull == 280115407ull);
  CHECK(x * GENERATOR % 0xFFFFFFFF00000001ull == want[2]);
  CHECK(!(-9223372036854775808 < 0));
  unsigned long long *d, h[6];
  cudaMalloc(&d, sizeof h);
  wide<<<1, 1>>>(d, x);
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int k = 0; k < 6; k++) {
    if (h[k] != want[k]) std::printf("out[%d] = %llu, want %llu\n", k, h[k], want[k]);
    CHECK(h[k] == want[k]);
  }
  return finish();
}

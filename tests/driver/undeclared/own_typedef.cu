// own_typedef.cu: a colour-conversion library declares the names itself
// (`typedef unsigned char uint8_t;`, `using uint16_t = unsigned short;`)
// and includes neither <cstdint> nor <stdint.h>. nvcc builds it: the
// first occurrence of each name is the user's own declaration, not a use
// of <cstdint>'s, so no warning is due.
#include <cstdio>
#include <cuda_runtime.h>

typedef unsigned char uint8_t;
using uint16_t = unsigned short;

__global__ void widen(const uint8_t *in, uint16_t *out) {
  out[threadIdx.x] = (uint16_t)(in[threadIdx.x] * 300);
}

int main() {
  uint8_t h_in[4] = {1, 2, 3, 200};
  uint16_t h_out[4];
  uint8_t *d_in;
  uint16_t *d_out;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_out, sizeof h_out);
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  widen<<<1, 4>>>(d_in, d_out);
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  int ok = h_out[0] == 300 && h_out[1] == 600 && h_out[3] == (uint16_t)60000;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

// race_global_warp_after_shuffle.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: race
// EXPECT: race global WAR line 22 line 20
#include <cstdio>
#include <cuda_runtime.h>

/* A warp per row, as "from scratch" softmax kernels write it: after the
 * warp's last shuffle each lane stores its probabilities, and lane 0 reads
 * the one of the row's label, which another lane stored, with no
 * __syncwarp() between. A GPU's converged warp usually gives the new value;
 * cuemu runs the lanes one after another after the shuffle (global memory
 * is not stepped in lockstep: docs/warp-lockstep.md), so lane 0 reads the
 * old one. Racecheck must say so. */
__global__ void softmax_loss(const float *x, const int *label, float *p,
                             float *loss) {
  unsigned lane = threadIdx.x;
  float m = x[lane];
  for (int o = 16; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  p[lane] = __expf(x[lane] - m);
  if (lane == 0)
    *loss = -__logf(p[*label]);
}

int main() {
  float *x, *p, *loss;
  int *label;
  cudaMalloc(&x, 32 * sizeof(float));
  cudaMalloc(&p, 32 * sizeof(float));
  cudaMalloc(&loss, sizeof(float));
  cudaMalloc(&label, sizeof(int));
  cudaMemset(x, 0, 32 * sizeof(float));
  cudaMemset(p, 0, 32 * sizeof(float));
  int seven = 7;
  cudaMemcpy(label, &seven, sizeof seven, cudaMemcpyHostToDevice);
  softmax_loss<<<1, 32>>>(x, label, p, loss);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}

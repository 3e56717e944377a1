// race_schedule_work_list_place.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh).
// CHECK: mem
// ENV: CUEMU_CHECK_SCHEDULES=1
// EXPECT: race schedule perturbation forward reverse line 26
#include <cstdio>
#include <cuda_runtime.h>

/* A work list filled through an atomicAdd counter whose items record the
 * place they got: the list is no longer the same set in every order, and
 * schedule perturbation still reports it (a list whose items do not depend
 * on the order is no race: tests/programs/trialmst/perturb_work_list.cu). */
__global__ void keep_even(const int *in, int n, int2 *list, int *size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] % 2 == 0) {
    int place = atomicAdd(size, 1);
    list[place] = make_int2(in[i], place);
  }
}

int main() {
  const int n = 512;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = i * 3;
  int *in, *size;
  int2 *list;
  cudaMalloc(&list, n * sizeof(int2));
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&size, sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(list, 0, n * sizeof(int2));
  cudaMemset(size, 0, sizeof(int));
  keep_even<<<4, 128>>>(in, n, list, size);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}

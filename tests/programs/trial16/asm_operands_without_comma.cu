// asm_operands_without_comma.cu: inline PTX whose operands follow one
// another without a comma, as the CUDA samples' multi-GPU conjugate
// gradient writes its release store (`::"r"(v) "l"(p)`); nvcc reads them
// as two operands, and cuemu once refused the statement ("expected ) to
// end the asm statement"). A flag handshake between the blocks of a
// cooperative grid, through release stores and acquire loads of the
// system scope, and an addition whose two inputs are written so.
#include <cooperative_groups.h>

#include "../check.cuh"

namespace cg = cooperative_groups;

__device__ unsigned char load_acquire(unsigned char *flag) {
  unsigned int v;
  asm volatile("ld.acquire.sys.global.u8 %0, [%1];" : "=r"(v) : "l"(flag)
               : "memory");
  return (unsigned char)v;
}

__device__ void store_release(unsigned char *flag, unsigned char value) {
  unsigned int v = value;
  asm volatile("st.release.sys.global.u8 [%1], %0;" ::"r"(v) "l"(flag)
               : "memory");
}

__device__ int add_named(int a, int b) {
  int sum;
  asm("add.s32 %0, %1, %2;" : "=r"(sum) : "r"(a) "r"(b));
  return sum;
}

// Block 0 publishes a value and raises the flag; the others wait for it.
__global__ void handshake(unsigned char *flag, int *value, int *seen) {
  cg::grid_group grid = cg::this_grid();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    *value = add_named(40, 2);
    store_release(flag, 1);
  }
  if (blockIdx.x != 0 && threadIdx.x == 0) {
    while (load_acquire(flag) == 0)
      ;
    seen[blockIdx.x] = *value;
  }
  grid.sync();
}

int main() {
  const int blocks = 4;
  unsigned char *flag = nullptr;
  int *value = nullptr, *seen = nullptr;
  CHECK(cudaHostAlloc(&flag, 1, cudaHostAllocPortable) == cudaSuccess);
  CHECK(cudaMalloc(&value, sizeof(int)) == cudaSuccess);
  CHECK(cudaMallocManaged(&seen, blocks * sizeof(int)) == cudaSuccess);
  *flag = 0;
  for (int b = 0; b < blocks; ++b)
    seen[b] = -1;
  void *args[] = {&flag, &value, &seen};
  CHECK(cudaLaunchCooperativeKernel((void *)handshake, dim3(blocks), dim3(32),
                                    args, 0, 0) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(*flag == 1);
  CHECK(seen[0] == -1);
  for (int b = 1; b < blocks; ++b)
    CHECK(seen[b] == 42);
  CHECK(cudaFreeHost(flag) == cudaSuccess);
  CHECK(cudaFree(value) == cudaSuccess);
  CHECK(cudaFree(seen) == cudaSuccess);
  return finish();
}

// mem_oob_tma_store.cu: a deliberately buggy kernel for the checkers (tests/checkers.sh):
// a tensor store (TMA, cp.async.bulk.tensor) through a map that says the
// tensor has 64 floats where the allocation holds 48.
// CHECK: mem
// EXPECT: mem out-of-bounds write global line 20
// NVCC_OPTIONS: -arch=sm_90a
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>

__global__ void store(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64];
  tile[threadIdx.x] = 1.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned src = static_cast<unsigned>(__cvta_generic_to_shared(tile));
    unsigned long long m = reinterpret_cast<unsigned long long>(&map);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [%0, {%1}], [%2];"
                 ::"l"(m), "r"(0), "r"(src) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

int main() {
  float *d;
  cudaMalloc(&d, 48 * sizeof(float));
  PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
  cudaDriverEntryPointQueryResult found;
  cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled",
                                   reinterpret_cast<void **>(&encode), 12000,
                                   cudaEnableDefault, &found);
  CUtensorMap map;
  cuuint64_t dims[1] = {64};
  cuuint32_t box[1] = {64}, step[1] = {1};
  encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 1, d, dims, nullptr, box, step,
         CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
         CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  store<<<1, 64>>>(map);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorName(e));
  return 0;
}

// rdc_kernel.cu: with rdc_helper.cu, relocatable device code whose kernel
// has 16 KiB of static shared memory of its own and calls a __device__
// function of the other file, whose variable nvlink counts in the
// kernel's: 48 KiB in all (runs), or 56 KiB with -DBIG_HELPER (nvlink
// refuses the link: tests/driver_shared_limit.sh).
#include <cstdio>

__device__ float rotate_far(float v);

__global__ void far_caller(float *out) {
  __shared__ float tile[4096];
  tile[threadIdx.x] = rotate_far((float)threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}

int main() {
  float *out, host[32];
  if (cudaMalloc(&out, sizeof host) != cudaSuccess)
    return 1;
  cudaFuncAttributes a;
  int ok = cudaFuncGetAttributes(&a, far_caller) == cudaSuccess &&
           a.sharedSizeBytes == 48 * 1024;
  far_caller<<<1, 32>>>(out);
  ok &= cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost) ==
        cudaSuccess;
  for (int i = 0; i < 32; ++i)
    ok &= host[i] == (float)((i + 2) % 32);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

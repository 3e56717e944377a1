// pipeline_alone.cu: the names a .cu file may use with nvcc 13.0 after
// including <cuda/pipeline> alone: cuda::pipeline, cuda::make_pipeline,
// cuda::memcpy_async, and what <cuda/barrier> brings (barrier_alone.cu:
// libcu++, <cstdint>, <cstdio>, <string>...): each also compiles with
// cuemu-nvcc (docs/nvcc-checks.md, "What a header brings"). Prints PASS.
#include <cuda/pipeline>

__global__ void device_names(const int *in, int *out) {
  __shared__ int staged[32];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&staged[threadIdx.x], &in[threadIdx.x], sizeof(int), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  out[threadIdx.x] = staged[threadIdx.x] * 2;
  pipe.consumer_release();
  cuda::std::uint64_t top = UINT64_MAX;
  out[threadIdx.x] += static_cast<int>(top >> 63) - 1;
}

int main() {
  int *in = nullptr, *out = nullptr;
  if (cudaMallocManaged(&in, 32 * sizeof(int)) != cudaSuccess ||
      cudaMallocManaged(&out, 32 * sizeof(int)) != cudaSuccess)
    return 1;
  for (int i = 0; i < 32; ++i)
    in[i] = i;
  device_names<<<1, 32>>>(in, out);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 2;
  std::string failure;
  for (int i = 0; i < 32; ++i)
    if (out[i] != 2 * i)
      failure = "element " + std::to_string(i);
  cudaFree(in);
  cudaFree(out);
  if (!failure.empty()) {
    printf("FAIL: %s\n", failure.c_str());
    return 3;
  }
  printf("PASS\n");
  return 0;
}

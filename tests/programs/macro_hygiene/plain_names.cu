// plain_names.cu: a program built with the user's macros of common names
// (-Dgrid=..., -Dblock=..., -DN=..., -Dblock_size=...: see
// tests/shim_macro_hygiene.sh), none of which it uses itself: the headers
// that every unit reads (cuda_runtime.h) must not use them either, as
// nvcc's do not. Prints the sum of a kernel's atomics and shuffles.
#include <cstdio>

__global__ void hygiene_kernel(float *hygiene_p)
{
  const float hygiene_v = hygiene_p[threadIdx.x];
  hygiene_p[threadIdx.x] =
      __shfl_down_sync(0xffffffffu, hygiene_v, 1) + sqrtf(4.0f);
  __syncthreads();
  atomicAdd(&hygiene_p[64], hygiene_p[threadIdx.x]);
}

int main()
{
  float *hygiene_d = nullptr;
  float hygiene_h[65];
  for (int hygiene_q = 0; hygiene_q < 65; ++hygiene_q)
    hygiene_h[hygiene_q] = hygiene_q < 64 ? 1.0f : 0.0f;
  cudaMalloc(&hygiene_d, sizeof hygiene_h);
  cudaMemcpy(hygiene_d, hygiene_h, sizeof hygiene_h, cudaMemcpyHostToDevice);
  hygiene_kernel<<<dim3(1), dim3(64)>>>(hygiene_d);
  cudaMemcpy(hygiene_h, hygiene_d, sizeof hygiene_h, cudaMemcpyDeviceToHost);
  cudaFree(hygiene_d);
  // Each of 64 threads adds 1 (its neighbour's value, or its own for the
  // last lane of each warp) + 2.
  std::printf("sum %g\n", hygiene_h[64]);
  return hygiene_h[64] == 192.0f ? 0 : 1;
}

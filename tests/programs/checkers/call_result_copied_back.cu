// call_result_copied_back.cu: a correct program, built with every checker,
// whose kernel stores the 12-byte result of a function that is not inlined
// (a public ray tracer's colour) into
// an image that the host then copies back. g++ stores such a result as one
// 12-byte range; under racecheck the inline path recorded the store in the
// granule cells but left the allocation's "written" map as it was (it sets
// only 1, 2, 4, 8 and 16 bytes), and initcheck reported the copy back as a
// copy of bytes never written (3145656 of 3145728 at 512x512). The copy is
// made twice: once of the whole image, once of a row from its middle.
// CUEMU_OPTIONS: --check=all
#include <cuda_runtime.h>

#include "../check.cuh"

constexpr int kWidth = 64, kHeight = 48;

__device__ __noinline__ float3 shade(float v) {
  return make_float3(2 * v, v, 1.0f);
}

__global__ void render(float3 *image) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < kWidth && y < kHeight)
    image[x + y * kWidth] = shade(float(x + y * kWidth));
}

int main() {
  float3 *image = nullptr;
  CHECK(cudaMalloc(&image, sizeof(float3) * kWidth * kHeight) == cudaSuccess);
  render<<<dim3(kWidth / 8, kHeight / 8), dim3(8, 8)>>>(image);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  static float3 out[kWidth * kHeight];
  CHECK(cudaMemcpy(out, image, sizeof out, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  int wrong = 0;
  for (int i = 0; i < kWidth * kHeight; ++i)
    wrong += out[i].x != 2.0f * i || out[i].y != float(i) || out[i].z != 1.0f;
  CHECK(wrong == 0);
  float3 row[kWidth];
  CHECK(cudaMemcpy(row, image + kWidth * (kHeight / 2), sizeof row,
                   cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(row[1].y == float(kWidth * (kHeight / 2) + 1));
  CHECK(cudaFree(image) == cudaSuccess);
  return finish();
}

// CUEMU_OPTIONS: -arch=sm_86 -lineinfo -Iimg/include img/src/image_io.cpp
// NVCC_OPTIONS: -Iimg/include
// Integral image of a generated PGM, and box filters from it, against the host.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include <cuda_check.h>
#include <image_io.h>
#include "img/kernels/integral.cuh"

__global__ void boxMean(float *out, const uint32_t *sat, int w, int h, int r) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int x0 = max(x - r, 0) - 1, y0 = max(y - r, 0) - 1, x1 = min(x + r, w - 1), y1 = min(y + r, h - 1);
  auto S = [&](int xx, int yy) -> uint32_t { return (xx < 0 || yy < 0) ? 0u : sat[yy * w + xx]; };
  uint32_t sum = S(x1, y1) - S(x0, y1) - S(x1, y0) + S(x0, y0);
  out[y * w + x] = (float)sum / ((x1 - x0) * (y1 - y0));
}

int main() {
  const int w = 301, h = 187;
  std::string path = tempImagePath("integral.pgm");
  savePNM(path, makeTestImage(w, h, 1, 9u));
  Image img;
  if (!loadPNM(path, img)) return 1;
  remove(path.c_str());

  unsigned char *d_img;
  uint32_t *d_rows, *d_t, *d_sat;
  checkCudaErrors(cudaMalloc(&d_img, w * h));
  checkCudaErrors(cudaMalloc(&d_rows, w * h * sizeof(uint32_t)));
  checkCudaErrors(cudaMalloc(&d_t, w * h * sizeof(uint32_t)));
  checkCudaErrors(cudaMalloc(&d_sat, w * h * sizeof(uint32_t)));
  cudaStream_t s;
  checkCudaErrors(cudaStreamCreate(&s));
  cudaEvent_t done;
  checkCudaErrors(cudaEventCreate(&done));
  checkCudaErrors(cudaMemcpyAsync(d_img, img.data.data(), w * h, cudaMemcpyHostToDevice, s));

  scanRows<unsigned char, uint32_t, 64><<<h, 64, 0, s>>>(d_rows, d_img, w, h);
  launchTranspose(d_t, d_rows, w, h, s);
  scanRows<uint32_t, uint32_t, 64><<<w, 64, 0, s>>>(d_rows, d_t, h, w);
  launchTranspose(d_sat, d_rows, h, w, s);
  checkCudaErrors(cudaEventRecord(done, s));
  getLastCudaError("integral image");

  float *d_box;
  checkCudaErrors(cudaMalloc(&d_box, w * h * sizeof(float)));
  checkCudaErrors(cudaStreamWaitEvent(0, done, 0));
  dim3 block(16, 16), grid(iDivUp(w, 16), iDivUp(h, 16));
  boxMean<<<grid, block>>>(d_box, d_sat, w, h, 3);
  getLastCudaError("boxMean");

  std::vector<uint32_t> sat(w * h);
  std::vector<float> box(w * h);
  checkCudaErrors(cudaMemcpy(sat.data(), d_sat, sat.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaMemcpy(box.data(), d_box, box.size() * sizeof(float), cudaMemcpyDeviceToHost));

  std::vector<uint32_t> ref(w * h);
  for (int y = 0; y < h; y++) {
    uint32_t row = 0;
    for (int x = 0; x < w; x++) {
      row += img.data[y * w + x];
      ref[y * w + x] = row + (y ? ref[(y - 1) * w + x] : 0u);
    }
  }
  int bad = 0;
  for (int i = 0; i < w * h; i++) bad += sat[i] != ref[i];
  float maxErr = 0.f;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      double sum = 0;
      int cnt = 0;
      for (int yy = std::max(y - 3, 0); yy <= std::min(y + 3, h - 1); yy++)
        for (int xx = std::max(x - 3, 0); xx <= std::min(x + 3, w - 1); xx++, cnt++) sum += img.data[yy * w + xx];
      maxErr = std::max(maxErr, (float)fabs(sum / cnt - box[y * w + x]));
    }
  printf("integral image: %d entries wrong (total %u); box mean max error %g\n", bad, sat[w * h - 1], maxErr);
  bool ok = bad == 0 && maxErr < 1e-3f;

  checkCudaErrors(cudaEventDestroy(done));
  checkCudaErrors(cudaStreamDestroy(s));
  cudaFree(d_img);
  cudaFree(d_rows);
  cudaFree(d_t);
  cudaFree(d_sat);
  cudaFree(d_box);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

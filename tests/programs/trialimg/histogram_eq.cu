// CUEMU_OPTIONS: -arch=sm_86 -lineinfo -Iimg/include img/src/image_io.cpp
// NVCC_OPTIONS: -Iimg/include
// Histogram equalisation of a generated low-contrast PGM image.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include <cuda_check.h>
#include <image_io.h>
#include "img/kernels/histogram.cuh"

int main() {
  const int w = 317, h = 241;  // odd size: the uchar4 path leaves a tail
  Image src = makeTestImage(w, h, 1, 3u);
  // Squeeze the contrast into [60, 140).
  for (auto &p : src.data) p = (unsigned char)(60 + p * 80 / 256);
  std::string path = tempImagePath("histeq_in.pgm");
  savePNM(path, src);
  Image img;
  if (!loadPNM(path, img) || img.channels != 1) return 1;
  remove(path.c_str());
  const int n = w * h;

  cudaDeviceProp prop;
  int dev = 0;
  checkCudaErrors(cudaGetDevice(&dev));
  checkCudaErrors(cudaGetDeviceProperties(&prop, dev));
  printf("device %d: %s, %d SMs, %zu bytes of shared memory per block\n", dev, prop.name, prop.multiProcessorCount,
         prop.sharedMemPerBlock);

  unsigned char *d_in, *d_out, *d_lut;
  unsigned int *d_hist;
  checkCudaErrors(cudaMalloc(&d_in, n));
  checkCudaErrors(cudaMalloc(&d_out, n));
  checkCudaErrors(cudaMalloc(&d_lut, HIST_BINS));
  checkCudaErrors(cudaMalloc(&d_hist, HIST_BINS * sizeof(unsigned int)));
  cudaStream_t stream;
  checkCudaErrors(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  checkCudaErrors(cudaMemcpyAsync(d_in, img.data.data(), n, cudaMemcpyHostToDevice, stream));
  checkCudaErrors(cudaMemsetAsync(d_hist, 0, HIST_BINS * sizeof(unsigned int), stream));

  int blocks = std::min(prop.multiProcessorCount * 2, iDivUp(n / 4, 256));
  histogramSharedKernel<<<blocks, 256, 0, stream>>>(d_hist, d_in, n);
  buildLutKernel<<<1, HIST_BINS, 0, stream>>>(d_lut, d_hist, n);
  applyLutKernel<<<iDivUp(n, 256), 256, 0, stream>>>(d_out, d_in, d_lut, n);
  getLastCudaError("equalise");

  std::vector<unsigned int> hist(HIST_BINS);
  std::vector<unsigned char> lut(HIST_BINS), out(n);
  checkCudaErrors(cudaMemcpyAsync(hist.data(), d_hist, HIST_BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost, stream));
  checkCudaErrors(cudaMemcpyAsync(lut.data(), d_lut, HIST_BINS, cudaMemcpyDeviceToHost, stream));
  checkCudaErrors(cudaMemcpyAsync(out.data(), d_out, n, cudaMemcpyDeviceToHost, stream));
  checkCudaErrors(cudaStreamSynchronize(stream));

  // Host reference.
  std::vector<unsigned int> rh(HIST_BINS, 0);
  for (unsigned char p : img.data) rh[p]++;
  std::vector<unsigned int> cdf(HIST_BINS);
  unsigned int run = 0, cdfMin = 0;
  for (int i = 0; i < HIST_BINS; i++) {
    run += rh[i];
    cdf[i] = run;
    if (!cdfMin && run) cdfMin = run;
  }
  bool ok = hist == rh;
  int lutErr = 0;
  for (int i = 0; i < HIST_BINS; i++) {
    float v = cdf[i] > cdfMin ? (cdf[i] - cdfMin) * (255.0f / (n - cdfMin)) : 0.f;
    int r = (int)lrintf(std::min(v, 255.f));
    lutErr = std::max(lutErr, abs(r - lut[i]));
  }
  int pixErr = 0;
  for (int i = 0; i < n; i++) pixErr += out[i] != lut[img.data[i]];
  int lo = *std::min_element(out.begin(), out.end()), hi = *std::max_element(out.begin(), out.end());
  printf("histogram %s, LUT max error %d, %d pixels wrong, output range [%d, %d]\n", ok ? "matches" : "differs",
         lutErr, pixErr, lo, hi);
  ok = ok && lutErr == 0 && pixErr == 0 && lo == 0 && hi == 255;

  Image result = img;
  result.data = out;
  savePNM(tempImagePath("histeq_out.pgm"), result);
  remove(tempImagePath("histeq_out.pgm").c_str());

  checkCudaErrors(cudaStreamDestroy(stream));
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_lut);
  cudaFree(d_hist);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

// CUEMU_OPTIONS: -arch=sm_86 -lineinfo -Iimg/include img/src/image_io.cpp
// NVCC_OPTIONS: -Iimg/include
// A course-assignment pipeline on a PPM: greyscale, then a per-channel
// Gaussian blur with the filter in dynamic shared memory, on three streams.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_check.h>
#include <image_io.h>
#include "img/kernels/color.cuh"

int main() {
  const int numCols = 123, numRows = 77, filterWidth = 9;
  const float sigma = 2.f;
  std::string path = tempImagePath("color.ppm");
  savePNM(path, makeTestImage(numCols, numRows, 3, 21u));
  Image img;
  if (!loadPNM(path, img) || img.channels != 3) return 1;
  remove(path.c_str());
  const size_t numPixels = size_t(numRows) * numCols;

  std::vector<float> filter(filterWidth * filterWidth);
  float fsum = 0.f;
  for (int r = -filterWidth / 2; r <= filterWidth / 2; ++r)
    for (int c = -filterWidth / 2; c <= filterWidth / 2; ++c) {
      float v = expf(-(float)(c * c + r * r) / (2.f * sigma * sigma));
      filter[(r + filterWidth / 2) * filterWidth + c + filterWidth / 2] = v;
      fsum += v;
    }
  for (float &v : filter) v /= fsum;

  uchar3 *d_rgb;
  unsigned char *d_grey, *d_ch[3], *d_blur[3];
  uchar4 *d_out;
  float *d_filter;
  checkCudaErrors(cudaMalloc(&d_rgb, numPixels * sizeof(uchar3)));
  checkCudaErrors(cudaMalloc(&d_grey, numPixels));
  for (int c = 0; c < 3; c++) {
    checkCudaErrors(cudaMalloc(&d_ch[c], numPixels));
    checkCudaErrors(cudaMalloc(&d_blur[c], numPixels));
  }
  checkCudaErrors(cudaMalloc(&d_out, numPixels * sizeof(uchar4)));
  checkCudaErrors(cudaMalloc(&d_filter, filter.size() * sizeof(float)));

  uchar3 *h_rgb;
  checkCudaErrors(cudaMallocHost(&h_rgb, numPixels * sizeof(uchar3)));
  memcpy(h_rgb, img.data.data(), numPixels * 3);
  checkCudaErrors(cudaMemcpy(d_rgb, h_rgb, numPixels * sizeof(uchar3), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_filter, filter.data(), filter.size() * sizeof(float), cudaMemcpyHostToDevice));

  const dim3 blockSize(32, 8);
  const dim3 gridSize((numCols + blockSize.x - 1) / blockSize.x, (numRows + blockSize.y - 1) / blockSize.y);
  rgbToGreyscale<<<gridSize, blockSize>>>(d_rgb, d_grey, numRows, numCols);
  separateChannels<<<gridSize, blockSize>>>(d_rgb, numRows, numCols, d_ch[0], d_ch[1], d_ch[2]);
  checkCudaErrors(cudaDeviceSynchronize());
  getLastCudaError("separate");

  cudaStream_t streams[3];
  const size_t smem = filterWidth * filterWidth * sizeof(float);
  for (int c = 0; c < 3; c++) {
    checkCudaErrors(cudaStreamCreate(&streams[c]));
    gaussianBlur<<<gridSize, blockSize, smem, streams[c]>>>(d_ch[c], d_blur[c], numRows, numCols, d_filter, filterWidth);
  }
  for (int c = 0; c < 3; c++) checkCudaErrors(cudaStreamSynchronize(streams[c]));
  recombineChannels<<<gridSize, blockSize>>>(d_blur[0], d_blur[1], d_blur[2], d_out, numRows, numCols);
  getLastCudaError("blur");

  std::vector<unsigned char> grey(numPixels);
  std::vector<uchar4> out(numPixels);
  checkCudaErrors(cudaMemcpy(grey.data(), d_grey, numPixels, cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaMemcpy(out.data(), d_out, numPixels * sizeof(uchar4), cudaMemcpyDeviceToHost));

  int greyBad = 0, blurErr = 0;
  for (size_t i = 0; i < numPixels; i++) {
    const unsigned char *p = &img.data[i * 3];
    int ref = (int)(.299f * p[0] + .587f * p[1] + .114f * p[2]);
    greyBad += abs(ref - grey[i]) > 1;
  }
  for (int row = 0; row < numRows; row++)
    for (int col = 0; col < numCols; col++)
      for (int c = 0; c < 3; c++) {
        float r = 0.f;
        for (int fr = -filterWidth / 2; fr <= filterWidth / 2; ++fr)
          for (int fc = -filterWidth / 2; fc <= filterWidth / 2; ++fc) {
            int rr = std::min(std::max(row + fr, 0), numRows - 1), cc = std::min(std::max(col + fc, 0), numCols - 1);
            r += filter[(fr + filterWidth / 2) * filterWidth + fc + filterWidth / 2] * img.at(cc, rr, c);
          }
        const uchar4 o = out[row * numCols + col];
        int got = c == 0 ? o.x : c == 1 ? o.y : o.z;
        blurErr = std::max(blurErr, abs(got - (int)r));
      }
  printf("greyscale: %d pixels off by more than 1; blur: max error %d\n", greyBad, blurErr);
  bool ok = greyBad == 0 && blurErr <= 1;

  for (int c = 0; c < 3; c++) {
    checkCudaErrors(cudaStreamDestroy(streams[c]));
    cudaFree(d_ch[c]);
    cudaFree(d_blur[c]);
  }
  checkCudaErrors(cudaFreeHost(h_rgb));
  cudaFree(d_rgb);
  cudaFree(d_grey);
  cudaFree(d_out);
  cudaFree(d_filter);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

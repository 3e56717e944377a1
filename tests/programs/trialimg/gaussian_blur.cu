// CUEMU_OPTIONS: -arch=sm_86 -lineinfo -Iimg/include img/src/image_io.cpp
// NVCC_OPTIONS: -Iimg/include
// Gaussian blur of a generated PPM photo, as float (one channel, pitched) and
// as RGBA uchar4, with a separable filter in constant memory.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <vector>

#include <cuda_check.h>
#include <image_io.h>
#include "img/kernels/convolution_separable.cuh"

static void makeGaussian(float *k, float sigma) {
  float sum = 0.f;
  for (int i = 0; i < KERNEL_LENGTH; i++) {
    float x = float(i - KERNEL_RADIUS);
    k[i] = expf(-x * x / (2.f * sigma * sigma));
    sum += k[i];
  }
  for (int i = 0; i < KERNEL_LENGTH; i++) k[i] /= sum;
}

template <typename T>
static void hostSeparable(std::vector<T> &dst, const std::vector<T> &src, const float *k, int w, int h) {
  typedef PixelTraits<T> PT;
  std::vector<T> tmp(src.size());
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      typename PT::Accum s = PT::zero();
      for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++) {
        int xx = std::min(std::max(x + j, 0), w - 1);
        PT::mad(s, k[KERNEL_RADIUS - j], PT::load(src[y * w + xx]));
      }
      tmp[y * w + x] = PT::store(s);
    }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      typename PT::Accum s = PT::zero();
      for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++) {
        int yy = std::min(std::max(y + j, 0), h - 1);
        PT::mad(s, k[KERNEL_RADIUS - j], PT::load(tmp[yy * w + x]));
      }
      dst[y * w + x] = PT::store(s);
    }
}

static float diff(float a, float b) { return fabsf(a - b); }
static float diff(uchar4 a, uchar4 b) {
  return fmaxf(fmaxf(abs(a.x - b.x), abs(a.y - b.y)), fmaxf(abs(a.z - b.z), abs(a.w - b.w)));
}

template <typename T>
static bool runBlur(const std::vector<T> &h_src, int w, int h, const float *k, float tol, const char *label) {
  T *d_src, *d_tmp, *d_dst;
  size_t pitch, pitch2, pitch3;
  checkCudaErrors(cudaMallocPitch((void **)&d_src, &pitch, w * sizeof(T), h));
  checkCudaErrors(cudaMallocPitch((void **)&d_tmp, &pitch2, w * sizeof(T), h));
  checkCudaErrors(cudaMallocPitch((void **)&d_dst, &pitch3, w * sizeof(T), h));
  if (pitch != pitch2 || pitch != pitch3 || pitch < w * sizeof(T)) {
    printf("%s: inconsistent pitches %zu %zu %zu\n", label, pitch, pitch2, pitch3);
    return false;
  }
  checkCudaErrors(cudaMemcpy2D(d_src, pitch, h_src.data(), w * sizeof(T), w * sizeof(T), h, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemset2D(d_dst, pitch, 0, w * sizeof(T), h));

  GpuTimer timer;
  timer.start();
  convolutionSeparable(d_dst, d_tmp, d_src, pitch, w, h);
  getLastCudaError("convolutionSeparable");
  timer.stop();
  float ms = timer.elapsed();

  std::vector<T> h_dst(size_t(w) * h), h_ref(size_t(w) * h);
  checkCudaErrors(cudaMemcpy2D(h_dst.data(), w * sizeof(T), d_dst, pitch, w * sizeof(T), h, cudaMemcpyDeviceToHost));
  hostSeparable(h_ref, h_src, k, w, h);
  float maxErr = 0.f;
  for (size_t i = 0; i < h_dst.size(); i++) maxErr = fmaxf(maxErr, diff(h_dst[i], h_ref[i]));
  printf("%s %dx%d pitch %zu: max error %g (%.3f ms)\n", label, w, h, pitch, maxErr, ms);
  checkCudaErrors(cudaFree(d_src));
  checkCudaErrors(cudaFree(d_tmp));
  checkCudaErrors(cudaFree(d_dst));
  return maxErr <= tol;
}

int main(int argc, char **argv) {
  int w = argc > 1 ? atoi(argv[1]) : 203, h = argc > 2 ? atoi(argv[2]) : 97;
  std::string path = tempImagePath("blur_in.ppm");
  if (!savePNM(path, makeTestImage(w, h, 3, 7u))) return 1;
  Image img;
  if (!loadPNM(path, img) || img.channels != 3) {
    printf("cannot read %s\n", path.c_str());
    return 1;
  }
  remove(path.c_str());

  float k[KERNEL_LENGTH];
  makeGaussian(k, 1.5f);
  setConvolutionKernel(k);
  getLastCudaError("cudaMemcpyToSymbol");
  float back[KERNEL_LENGTH];
  checkCudaErrors(cudaMemcpyFromSymbol(back, c_Kernel, sizeof(back)));

  std::vector<float> gray(size_t(w) * h);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      gray[y * w + x] = (0.299f * img.at(x, y, 0) + 0.587f * img.at(x, y, 1) + 0.114f * img.at(x, y, 2)) / 255.f;
  std::vector<unsigned char> rgba = toRGBA(img);
  std::vector<uchar4> px(size_t(w) * h);
  for (size_t i = 0; i < px.size(); i++) px[i] = make_uchar4(rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2], rgba[4 * i + 3]);

  bool ok = back[KERNEL_RADIUS] == k[KERNEL_RADIUS];
  ok &= runBlur<float>(gray, w, h, k, 1e-5f, "float");
  ok &= runBlur<uchar4>(px, w, h, k, 1.0f, "uchar4");

  Image out = img;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

/*
 * gl_interop_refused.cu: a program written for OpenGL interop (a pixel
 * buffer that a kernel fills, as a GLUT viewer does) builds, and its
 * interop calls give CUDA's statuses for a machine whose OpenGL context is
 * on no CUDA device: cudaGLSetGLDevice (deprecated since CUDA 5) selects
 * the device as cudaSetDevice does, cudaErrorInvalidDevice out of range;
 * cudaGLGetDevices finds no device (cudaErrorNoDevice, a count of 0);
 * registering a buffer or an image is cudaErrorInvalidGraphicsContext,
 * after cudaErrorInvalidValue for a NULL resource or an unknown flag; the
 * deprecated buffer-object calls find no registered object. The program
 * then takes the path it takes without a display: the kernel writes an
 * ordinary device buffer. Nothing here calls OpenGL, so no GL library is
 * linked; CUDA_ENABLE_DEPRECATED quiets the deprecated calls' warnings, as
 * it does with nvcc. A GPU's machine may answer otherwise: built by nvcc (no
 * __CUEMU__), the program checks only that the calls return.
 * Prints PASS when all is well.
 */
#define CUDA_ENABLE_DEPRECATED
#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include "../check.cuh"

__global__ void fill_pixels(uchar4 *pixels, int width) {
  int x = threadIdx.x + blockIdx.x * blockDim.x;
  int y = blockIdx.y;
  pixels[x + y * width] = make_uchar4(x, y, x ^ y, 255);
}

int main() {
#ifdef __CUEMU__
  const bool strict = true;
#else
  const bool strict = false;
#endif
  int count = 0;
  CHECK(cudaGetDeviceCount(&count) == cudaSuccess);
  CHECK(!strict || cudaGLSetGLDevice(count) == cudaErrorInvalidDevice);
  cudaGetLastError();
  CHECK(cudaGLSetGLDevice(0) == cudaSuccess);
  int dev = -1;
  CHECK(cudaGetDevice(&dev) == cudaSuccess && dev == 0);

  unsigned int found = 7;
  int devices[4];
  cudaError_t e = cudaGLGetDevices(&found, devices, 4, cudaGLDeviceListAll);
  CHECK(!strict || (e == cudaErrorNoDevice && found == 0));
  CHECK(!strict || cudaGLGetDevices(nullptr, devices, 4, cudaGLDeviceListAll) ==
                       cudaErrorInvalidValue);
  cudaGetLastError();

  GLuint buffer = 1;
  cudaGraphicsResource *resource = nullptr;
  e = cudaGraphicsGLRegisterBuffer(&resource, buffer, cudaGraphicsMapFlagsNone);
  CHECK(!strict || (e == cudaErrorInvalidGraphicsContext && !resource));
  CHECK(!strict || cudaGetLastError() == cudaErrorInvalidGraphicsContext);
  CHECK(!strict || cudaGraphicsGLRegisterImage(&resource, 1, GL_TEXTURE_2D,
                                               cudaGraphicsRegisterFlagsNone) ==
                       cudaErrorInvalidGraphicsContext);
  CHECK(!strict || cudaGraphicsGLRegisterBuffer(nullptr, buffer, 0) ==
                       cudaErrorInvalidValue);
  CHECK(!strict || cudaGraphicsGLRegisterBuffer(&resource, buffer, 16) ==
                       cudaErrorInvalidValue);
  cudaGetLastError();

  // The buffer-object calls that CUDA 3.0 replaced.
  void *mapped = nullptr;
  cudaStream_t stream = 0;
  CHECK(!strict ||
        cudaGLRegisterBufferObject(buffer) == cudaErrorInvalidGraphicsContext);
  CHECK(!strict || cudaGLMapBufferObject(&mapped, buffer) ==
                       cudaErrorMapBufferObjectFailed);
  CHECK(!strict || cudaGLMapBufferObjectAsync(&mapped, buffer, stream) ==
                       cudaErrorMapBufferObjectFailed);
  CHECK(!strict ||
        cudaGLUnmapBufferObject(buffer) == cudaErrorUnmapBufferObjectFailed);
  CHECK(!strict || cudaGLUnmapBufferObjectAsync(buffer, stream) ==
                       cudaErrorUnmapBufferObjectFailed);
  CHECK(!strict ||
        cudaGLUnregisterBufferObject(buffer) == cudaErrorInvalidResourceHandle);
  CHECK(!strict || cudaGLSetBufferObjectMapFlags(buffer, cudaGLMapFlagsNone) ==
                       cudaErrorInvalidResourceHandle);
  CHECK(!strict || mapped == nullptr);
  cudaGetLastError();

  // Without a display: the kernel fills an ordinary device buffer.
  const int width = 64, height = 16;
  uchar4 *pixels = nullptr;
  CHECK(cudaMalloc(&pixels, width * height * sizeof(uchar4)) == cudaSuccess);
  fill_pixels<<<dim3(width / 32, height), 32>>>(pixels, width);
  uchar4 host[width * height];
  CHECK(cudaMemcpy(host, pixels, sizeof host, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      uchar4 p = host[x + y * width];
      CHECK(p.x == x && p.y == y && p.z == (x ^ y) && p.w == 255);
    }
  CHECK(cudaFree(pixels) == cudaSuccess);
  return finish();
}

// texture_drv.cpp: a texture object over a CUDA array read by a module's
// kernel, occupancy with a dynamic shared memory callback, and 3D copies.
#include "drv_helpers.h"
#include <vector>
#include <cmath>

static size_t smem_for_block(int blockSize) { return blockSize * sizeof(float); }

int main(int argc, char **argv) {
  CUdevice dev = findCudaDeviceDRV(argc, argv);
  CUcontext ctx;
  checkCudaErrors(cuCtxCreate(&ctx, NULL, 0, dev));
  CUmodule mod;
  checkCudaErrors(cuModuleLoad(&mod, "texture_kernels.fatbin"));
  CUfunction transform, bsum;
  checkCudaErrors(cuModuleGetFunction(&transform, mod, "transformKernel"));
  checkCudaErrors(cuModuleGetFunction(&bsum, mod, "blockSum"));
  bool ok = true;

  // A 64x64 image with a smooth pattern, in a CUDA array.
  const unsigned width = 64, height = 64;
  std::vector<float> img(width * height), out(width * height);
  for (unsigned y = 0; y < height; ++y)
    for (unsigned x = 0; x < width; ++x) img[y * width + x] = (float)((x / 8 + y / 8) % 2);
  CUarray array;
  CUDA_ARRAY_DESCRIPTOR desc = {};
  desc.Format = CU_AD_FORMAT_FLOAT;
  desc.NumChannels = 1;
  desc.Width = width;
  desc.Height = height;
  checkCudaErrors(cuArrayCreate(&array, &desc));
  CUDA_MEMCPY2D copyParam = {};
  copyParam.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  copyParam.dstArray = array;
  copyParam.srcMemoryType = CU_MEMORYTYPE_HOST;
  copyParam.srcHost = img.data();
  copyParam.srcPitch = width * sizeof(float);
  copyParam.WidthInBytes = copyParam.srcPitch;
  copyParam.Height = height;
  checkCudaErrors(cuMemcpy2D(&copyParam));
  CUDA_RESOURCE_DESC res = {};
  res.resType = CU_RESOURCE_TYPE_ARRAY;
  res.res.array.hArray = array;
  CUDA_TEXTURE_DESC td = {};
  td.addressMode[0] = CU_TR_ADDRESS_MODE_WRAP;
  td.addressMode[1] = CU_TR_ADDRESS_MODE_WRAP;
  td.filterMode = CU_TR_FILTER_MODE_LINEAR;
  td.flags = CU_TRSF_NORMALIZED_COORDINATES;
  CUtexObject tex;
  checkCudaErrors(cuTexObjectCreate(&tex, &res, &td, NULL));
  CUdeviceptr dOut;
  checkCudaErrors(cuMemAlloc(&dOut, width * height * sizeof(float)));
  float angle = 0.0f;  // identity: the output is the input at texel centres
  int w = width, h = height;
  void *args[] = {&dOut, &w, &h, &angle, &tex};
  checkCudaErrors(cuLaunchKernel(transform, width / 8, height / 8, 1, 8, 8, 1, 0, NULL, args, NULL));
  checkCudaErrors(cuCtxSynchronize());
  checkCudaErrors(cuMemcpyDtoH(out.data(), dOut, out.size() * sizeof(float)));
  int bad = 0;
  // Sampling at x/width falls between texels x-1 and x: linear filtering
  // averages the four around it (wrapping at the borders).
  for (unsigned y = 0; y < height; ++y)
    for (unsigned x = 0; x < width; ++x) {
      unsigned xm = (x + width - 1) % width, ym = (y + height - 1) % height;
      float ref = 0.25f * (img[ym * width + xm] + img[ym * width + x] + img[y * width + xm] + img[y * width + x]);
      if (fabsf(out[y * width + x] - ref) > 1e-2f) ++bad;
    }
  printf("texture: %d of %zu texels differ\n", bad, out.size());
  if (bad) ok = false;

  // Occupancy with a per-block-size dynamic shared memory callback.
  int minGrid = 0, blockSize = 0;
  checkCudaErrors(cuOccupancyMaxPotentialBlockSize(&minGrid, &blockSize, bsum, smem_for_block, 0, 0));
  size_t avail = 0;
  checkCudaErrors(cuOccupancyAvailableDynamicSMemPerBlock(&avail, bsum, 2, blockSize));
  printf("occupancy: block %d, min grid %d, dynamic smem available %zu\n", blockSize, minGrid, avail);
  if (blockSize <= 0 || (blockSize & (blockSize - 1)) != 0 || minGrid <= 0) ok = false;
  const int n = 100000;
  std::vector<float> data(n, 0.25f);
  CUdeviceptr dIn, dSum;
  checkCudaErrors(cuMemAlloc(&dIn, n * sizeof(float)));
  checkCudaErrors(cuMemAlloc(&dSum, sizeof(float)));
  checkCudaErrors(cuMemcpyHtoD(dIn, data.data(), n * sizeof(float)));
  checkCudaErrors(cuMemsetD32(dSum, 0, 1));
  int nn = n;
  void *sargs[] = {&dIn, &dSum, &nn};
  checkCudaErrors(cuLaunchKernel(bsum, (n + blockSize - 1) / blockSize, 1, 1, blockSize, 1, 1,
                                 (unsigned)smem_for_block(blockSize), NULL, sargs, NULL));
  float sum = 0;
  checkCudaErrors(cuCtxSynchronize());
  checkCudaErrors(cuMemcpyDtoH(&sum, dSum, sizeof sum));
  printf("sum %f\n", sum);
  if (fabsf(sum - 25000.0f) > 1.0f) ok = false;

  // A 3D copy from host into a 3D array and back into pitched memory.
  const size_t X = 16, Y = 8, Z = 4;
  std::vector<int> vol(X * Y * Z), back(X * Y * Z, -1);
  for (size_t i = 0; i < vol.size(); ++i) vol[i] = (int)(i * 7);
  CUDA_ARRAY3D_DESCRIPTOR d3 = {};
  d3.Width = X; d3.Height = Y; d3.Depth = Z;
  d3.Format = CU_AD_FORMAT_SIGNED_INT32; d3.NumChannels = 1;
  CUarray a3;
  checkCudaErrors(cuArray3DCreate(&a3, &d3));
  CUDA_MEMCPY3D c3 = {};
  c3.srcMemoryType = CU_MEMORYTYPE_HOST; c3.srcHost = vol.data(); c3.srcPitch = X * sizeof(int); c3.srcHeight = Y;
  c3.dstMemoryType = CU_MEMORYTYPE_ARRAY; c3.dstArray = a3;
  c3.WidthInBytes = X * sizeof(int); c3.Height = Y; c3.Depth = Z;
  checkCudaErrors(cuMemcpy3D(&c3));
  CUdeviceptr pitched; size_t pitch;
  checkCudaErrors(cuMemAllocPitch(&pitched, &pitch, X * sizeof(int), Y * Z, 4));
  CUDA_MEMCPY3D c4 = {};
  c4.srcMemoryType = CU_MEMORYTYPE_ARRAY; c4.srcArray = a3;
  c4.dstMemoryType = CU_MEMORYTYPE_DEVICE; c4.dstDevice = pitched; c4.dstPitch = pitch; c4.dstHeight = Y;
  c4.WidthInBytes = X * sizeof(int); c4.Height = Y; c4.Depth = Z;
  checkCudaErrors(cuMemcpy3D(&c4));
  CUDA_MEMCPY2D c5 = {};
  c5.srcMemoryType = CU_MEMORYTYPE_DEVICE; c5.srcDevice = pitched; c5.srcPitch = pitch;
  c5.dstMemoryType = CU_MEMORYTYPE_HOST; c5.dstHost = back.data(); c5.dstPitch = X * sizeof(int);
  c5.WidthInBytes = X * sizeof(int); c5.Height = Y * Z;
  checkCudaErrors(cuMemcpy2D(&c5));
  if (back != vol) { printf("3D copy differs\n"); ok = false; }
  CUDA_ARRAY3D_DESCRIPTOR got = {};
  checkCudaErrors(cuArray3DGetDescriptor(&got, a3));
  if (got.Width != X || got.Height != Y || got.Depth != Z) ok = false;

  checkCudaErrors(cuTexObjectDestroy(tex));
  checkCudaErrors(cuArrayDestroy(array));
  checkCudaErrors(cuArrayDestroy(a3));
  cuMemFree(dOut); cuMemFree(dIn); cuMemFree(dSum); cuMemFree(pitched);
  checkCudaErrors(cuModuleUnload(mod));
  checkCudaErrors(cuCtxDestroy(ctx));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

/*
 * driver_arrays.cu: the driver API's CUDA arrays and texture and surface
 * objects, as driver-API texture programs use them: cuArrayCreate and
 * cuArray3DCreate with their descriptors, cuMemcpy2D into an array, the
 * 1-D copies cuMemcpyHtoA/AtoH/DtoA/AtoD (an offset that crosses rows of a
 * 2-D array), cuTexObjectCreate over an array (point sampling, unnormalized
 * and normalized coordinates, 8-bit data read as normalized floats and as
 * integers) and over linear memory, cuSurfObjectCreate with a kernel that
 * writes through the surface, the resource-description queries, and the
 * errors for a bad format and a channel count of 3. Prints PASS when all
 * is well.
 */
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>

#include <cstdio>
#include <vector>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

constexpr int kW = 16, kH = 8;

/* out[y][x] = the texel at (x, y), unnormalized, point sampling. */
__global__ void fetch_2d(cudaTextureObject_t tex, float *out) {
  const int x = threadIdx.x, y = blockIdx.x;
  out[y * kW + x] = tex2D<float>(tex, x + 0.5f, y + 0.5f);
}

/* The same texel with normalized coordinates. */
__global__ void fetch_2d_normalized(cudaTextureObject_t tex, float *out) {
  const int x = threadIdx.x, y = blockIdx.x;
  out[y * kW + x] = tex2D<float>(tex, (x + 0.5f) / kW, (y + 0.5f) / kH);
}

__global__ void fetch_bytes(cudaTextureObject_t as_float, cudaTextureObject_t as_int,
                            float *f, unsigned *u) {
  const int x = threadIdx.x;
  f[x] = tex1D<float>(as_float, x + 0.5f);
  u[x] = tex1D<unsigned char>(as_int, x + 0.5f);
}

__global__ void fetch_linear(cudaTextureObject_t tex, int *out) {
  out[threadIdx.x] = tex1Dfetch<int>(tex, threadIdx.x);
}

__global__ void write_surface(cudaSurfaceObject_t surf) {
  const int x = threadIdx.x, y = blockIdx.x;
  surf2Dwrite(static_cast<float>(1000 * y + x), surf, x * static_cast<int>(sizeof(float)), y);
}

int main() {
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));

  /* A 2-D float array, filled by cuMemcpy2D from host rows. */
  std::vector<float> host(kW * kH);
  for (int i = 0; i < kW * kH; ++i) host[i] = 0.25f * i;
  CUDA_ARRAY_DESCRIPTOR ad = {};
  ad.Width = kW;
  ad.Height = kH;
  ad.Format = CU_AD_FORMAT_FLOAT;
  ad.NumChannels = 1;
  CUarray arr;
  CU(cuArrayCreate(&arr, &ad));
  CUDA_MEMCPY2D c = {};
  c.srcMemoryType = CU_MEMORYTYPE_HOST;
  c.srcHost = host.data();
  c.srcPitch = kW * sizeof(float);
  c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  c.dstArray = arr;
  c.WidthInBytes = kW * sizeof(float);
  c.Height = kH;
  CU(cuMemcpy2D(&c));
  CUDA_ARRAY_DESCRIPTOR got = {};
  CU(cuArrayGetDescriptor(&got, arr));
  CHECK(got.Width == kW && got.Height == kH && got.Format == CU_AD_FORMAT_FLOAT &&
        got.NumChannels == 1);

  /* A texture over it: unnormalized, then normalized coordinates. */
  CUDA_RESOURCE_DESC rd = {};
  rd.resType = CU_RESOURCE_TYPE_ARRAY;
  rd.res.array.hArray = arr;
  CUDA_TEXTURE_DESC td = {};
  td.addressMode[0] = td.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
  td.filterMode = CU_TR_FILTER_MODE_POINT;
  CUtexObject tex, tex_norm;
  CU(cuTexObjectCreate(&tex, &rd, &td, nullptr));
  td.flags = CU_TRSF_NORMALIZED_COORDINATES;
  CU(cuTexObjectCreate(&tex_norm, &rd, &td, nullptr));
  CUDA_RESOURCE_DESC back = {};
  CU(cuTexObjectGetResourceDesc(&back, tex));
  CHECK(back.resType == CU_RESOURCE_TYPE_ARRAY && back.res.array.hArray == arr);
  CUdeviceptr out;
  CU(cuMemAlloc(&out, kW * kH * sizeof(float)));
  std::vector<float> res(kW * kH);
  fetch_2d<<<kH, kW>>>(tex, reinterpret_cast<float *>(out));
  CU(cuCtxSynchronize());
  CU(cuMemcpyDtoH(res.data(), out, res.size() * sizeof(float)));
  CHECK(res == host);
  fetch_2d_normalized<<<kH, kW>>>(tex_norm, reinterpret_cast<float *>(out));
  CU(cuCtxSynchronize());
  CU(cuMemcpyDtoH(res.data(), out, res.size() * sizeof(float)));
  CHECK(res == host);

  /* 1-D copies: 20 floats from element 10 of the 2-D array cross into its
   * second row (rows of 16 elements). */
  std::vector<float> part(20);
  CU(cuMemcpyAtoH(part.data(), arr, 10 * sizeof(float), part.size() * sizeof(float)));
  for (int i = 0; i < 20; ++i) CHECK(part[i] == host[10 + i]);
  for (float &v : part) v = -v - 1.0f;
  CU(cuMemcpyHtoA(arr, 10 * sizeof(float), part.data(), part.size() * sizeof(float)));
  CU(cuMemcpyAtoD(out, arr, 0, kW * kH * sizeof(float)));
  CU(cuMemcpyDtoH(res.data(), out, res.size() * sizeof(float)));
  for (int i = 0; i < kW * kH; ++i)
    CHECK(res[i] == (i >= 10 && i < 30 ? -host[i] - 1.0f : host[i]));
  CU(cuMemcpyHtoD(out, host.data(), host.size() * sizeof(float)));
  CU(cuMemcpyDtoA(arr, 0, out, kW * kH * sizeof(float)));
  CU(cuMemcpyAtoH(res.data(), arr, 0, res.size() * sizeof(float)));
  CHECK(res == host);

  /* 8-bit data: read as normalized floats unless CU_TRSF_READ_AS_INTEGER. */
  CUDA_ARRAY_DESCRIPTOR bd = {};
  bd.Width = 32;
  bd.Format = CU_AD_FORMAT_UNSIGNED_INT8;
  bd.NumChannels = 1;
  CUarray bytes;
  CU(cuArrayCreate(&bytes, &bd));
  unsigned char b[32];
  for (int i = 0; i < 32; ++i) b[i] = static_cast<unsigned char>(i * 8);
  CU(cuMemcpyHtoA(bytes, 0, b, sizeof b));
  rd.res.array.hArray = bytes;
  td.flags = 0;
  CUtexObject as_float, as_int;
  CU(cuTexObjectCreate(&as_float, &rd, &td, nullptr));
  td.flags = CU_TRSF_READ_AS_INTEGER;
  CU(cuTexObjectCreate(&as_int, &rd, &td, nullptr));
  CUdeviceptr fu;
  CU(cuMemAlloc(&fu, 32 * (sizeof(float) + sizeof(unsigned))));
  fetch_bytes<<<1, 32>>>(as_float, as_int, reinterpret_cast<float *>(fu),
                         reinterpret_cast<unsigned *>(fu + 32 * sizeof(float)));
  CU(cuCtxSynchronize());
  float f[32];
  unsigned u[32];
  CU(cuMemcpyDtoH(f, fu, sizeof f));
  CU(cuMemcpyDtoH(u, fu + sizeof f, sizeof u));
  for (int i = 0; i < 32; ++i) {
    CHECK(f[i] == b[i] / 255.0f);
    CHECK(u[i] == b[i]);
  }

  /* A texture over linear memory. */
  std::vector<int> ints(64);
  for (int i = 0; i < 64; ++i) ints[i] = 7 * i - 100;
  CUdeviceptr lin;
  CU(cuMemAlloc(&lin, ints.size() * sizeof(int)));
  CU(cuMemcpyHtoD(lin, ints.data(), ints.size() * sizeof(int)));
  CUDA_RESOURCE_DESC ld = {};
  ld.resType = CU_RESOURCE_TYPE_LINEAR;
  ld.res.linear.devPtr = lin;
  ld.res.linear.format = CU_AD_FORMAT_SIGNED_INT32;
  ld.res.linear.numChannels = 1;
  ld.res.linear.sizeInBytes = ints.size() * sizeof(int);
  CUDA_TEXTURE_DESC ltd = {};
  ltd.flags = CU_TRSF_READ_AS_INTEGER;
  CUtexObject tex_lin;
  CU(cuTexObjectCreate(&tex_lin, &ld, &ltd, nullptr));
  CUdeviceptr iout;
  CU(cuMemAlloc(&iout, ints.size() * sizeof(int)));
  fetch_linear<<<1, 64>>>(tex_lin, reinterpret_cast<int *>(iout));
  CU(cuCtxSynchronize());
  std::vector<int> ires(64);
  CU(cuMemcpyDtoH(ires.data(), iout, ires.size() * sizeof(int)));
  CHECK(ires == ints);

  /* A surface: a layered-free 2-D array made by cuArray3DCreate with
   * CUDA_ARRAY3D_SURFACE_LDST, written by a kernel, read back. */
  CUDA_ARRAY3D_DESCRIPTOR sd = {};
  sd.Width = kW;
  sd.Height = kH;
  sd.Depth = 0;
  sd.Format = CU_AD_FORMAT_FLOAT;
  sd.NumChannels = 1;
  sd.Flags = CUDA_ARRAY3D_SURFACE_LDST;
  CUarray sarr;
  CU(cuArray3DCreate(&sarr, &sd));
  CUDA_ARRAY3D_DESCRIPTOR sgot = {};
  CU(cuArray3DGetDescriptor(&sgot, sarr));
  CHECK(sgot.Width == kW && sgot.Height == kH && sgot.Depth == 0 &&
        sgot.Flags == CUDA_ARRAY3D_SURFACE_LDST);
  CUDA_RESOURCE_DESC srd = {};
  srd.resType = CU_RESOURCE_TYPE_ARRAY;
  srd.res.array.hArray = sarr;
  CUsurfObject surf;
  CU(cuSurfObjectCreate(&surf, &srd));
  write_surface<<<kH, kW>>>(surf);
  CU(cuCtxSynchronize());
  CU(cuMemcpyAtoH(res.data(), sarr, 0, res.size() * sizeof(float)));
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) CHECK(res[y * kW + x] == 1000.0f * y + x);

  /* Errors: three channels, an unknown format. */
  CUarray bad;
  ad.NumChannels = 3;
  CHECK(cuArrayCreate(&bad, &ad) == CUDA_ERROR_INVALID_VALUE);
  ad.NumChannels = 1;
  ad.Format = static_cast<CUarray_format>(0x7f);
  CHECK(cuArrayCreate(&bad, &ad) != CUDA_SUCCESS);

  CU(cuSurfObjectDestroy(surf));
  CU(cuTexObjectDestroy(tex));
  CU(cuTexObjectDestroy(tex_norm));
  CU(cuTexObjectDestroy(as_float));
  CU(cuTexObjectDestroy(as_int));
  CU(cuTexObjectDestroy(tex_lin));
  CU(cuArrayDestroy(arr));
  CU(cuArrayDestroy(bytes));
  CU(cuArrayDestroy(sarr));
  CU(cuMemFree(out));
  CU(cuMemFree(fu));
  CU(cuMemFree(lin));
  CU(cuMemFree(iout));
  CU(cuDevicePrimaryCtxRelease(dev));
  return finish();
}

#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include "stencil.cuh"
#define CUDA_CHECK(call) do { cudaError_t err = call; if (err != cudaSuccess) { \
  fprintf(stderr, "CUDA error in %s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err)); exit(EXIT_FAILURE); } } while (0)
// Host-side tile sizes must match the device pass for the architecture we build for.
constexpr int BX = 32, BY = 8;
int main() {
  Grid3 g{40, 20, 12};
  std::vector<float> h(g.nx * g.ny * g.nz), ref(h.size(), 0.f), got(h.size(), 0.f);
  for (size_t i = 0; i < h.size(); ++i) h[i] = std::sin(0.01f * i) + (i % 7) * 0.1f;
  cudaExtent ext = make_cudaExtent(g.nx * sizeof(float), g.ny, g.nz);
  cudaPitchedPtr din, dout;
  CUDA_CHECK(cudaMalloc3D(&din, ext)); CUDA_CHECK(cudaMalloc3D(&dout, ext));
  CUDA_CHECK(cudaMemset3D(dout, 0, ext));
  cudaMemcpy3DParms p = {0};
  p.srcPtr = make_cudaPitchedPtr(h.data(), g.nx * sizeof(float), g.nx, g.ny);
  p.dstPtr = din; p.extent = ext; p.kind = cudaMemcpyHostToDevice;
  CUDA_CHECK(cudaMemcpy3D(&p));
  dim3 block(BX, BY), grid((g.nx + BX - 1) / BX, (g.ny + BY - 1) / BY);
  laplace7<BX, BY><<<grid, block>>>(din, dout, g, -6.f, 1.f);
  CUDA_CHECK(cudaGetLastError());
  cudaMemcpy3DParms back = {0};
  back.srcPtr = dout; back.dstPtr = make_cudaPitchedPtr(got.data(), g.nx * sizeof(float), g.nx, g.ny);
  back.extent = ext; back.kind = cudaMemcpyDeviceToHost;
  CUDA_CHECK(cudaMemcpy3D(&back));
  auto H = [&](int x, int y, int z) { return h[(z * g.ny + y) * g.nx + x]; };
  int bad = 0;
  for (int z = 1; z < g.nz - 1; ++z) for (int y = 1; y < g.ny - 1; ++y) for (int x = 1; x < g.nx - 1; ++x) {
    float r = -6.f * H(x, y, z) + H(x - 1, y, z) + H(x + 1, y, z) + H(x, y - 1, z) + H(x, y + 1, z) + H(x, y, z - 1) + H(x, y, z + 1);
    if (std::fabs(r - got[(z * g.ny + y) * g.nx + x]) > 1e-4f) { if (bad < 3) printf("(%d,%d,%d) %f %f\n", x, y, z, r, got[(z * g.ny + y) * g.nx + x]); bad++; }
  }
  // Texture path: copy into a 3D array and sample at texel centers (scale 1 reproduces the input).
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t arr; CUDA_CHECK(cudaMalloc3DArray(&arr, &desc, make_cudaExtent(g.nx, g.ny, g.nz)));
  cudaMemcpy3DParms ta = {0};
  ta.srcPtr = make_cudaPitchedPtr(h.data(), g.nx * sizeof(float), g.nx, g.ny);
  ta.dstArray = arr; ta.extent = make_cudaExtent(g.nx, g.ny, g.nz); ta.kind = cudaMemcpyHostToDevice;
  CUDA_CHECK(cudaMemcpy3D(&ta));
  cudaResourceDesc rd; memset(&rd, 0, sizeof(rd)); rd.resType = cudaResourceTypeArray; rd.res.array.array = arr;
  cudaTextureDesc td; memset(&td, 0, sizeof(td));
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear; td.readMode = cudaReadModeElementType; td.normalizedCoords = 0;
  cudaTextureObject_t tex; CUDA_CHECK(cudaCreateTextureObject(&tex, &rd, &td, nullptr));
  float *dres; CUDA_CHECK(cudaMalloc(&dres, h.size() * sizeof(float)));
  resample<<<dim3((g.nx + 7) / 8, (g.ny + 7) / 8, g.nz), dim3(8, 8)>>>(tex, dres, g, 1.f);
  CUDA_CHECK(cudaMemcpy(got.data(), dres, h.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < h.size(); ++i) if (std::fabs(got[i] - h[i]) > 1e-5f) { if (bad < 6) printf("tex %zu %f %f\n", i, got[i], h[i]); bad++; }
  CUDA_CHECK(cudaDestroyTextureObject(tex)); CUDA_CHECK(cudaFreeArray(arr));
  CUDA_CHECK(cudaFree(din.ptr)); CUDA_CHECK(cudaFree(dout.ptr)); CUDA_CHECK(cudaFree(dres));
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}

// destroy_after_launch.cu: an image pipeline creates a texture or surface
// object, launches a kernel with it and destroys the object at once, before
// synchronizing (trialtex's mip-chain builder). The launch is asynchronous; on
// a GPU the queued kernel still sees the object, so cudaDestroyTextureObject
// and cudaDestroySurfaceObject must not pull it from under the kernel (cuemu
// reported cudaErrorIllegalAddress at the next copy, in most runs).
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s -> %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
  return 1; } } while (0)

__global__ void copy_through_texture(cudaTextureObject_t t, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f) * 2.0f;
}

__global__ void halve(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float a = surf2Dread<float>(src, 2 * x * 4, 2 * y) + surf2Dread<float>(src, (2 * x + 1) * 4, 2 * y);
  surf2Dwrite(a, dst, x * 4, y);
}

int main() {
  const int W = 256, H = 128;
  std::vector<float> img(W * H);
  for (int i = 0; i < W * H; i++) img[i] = (float)(i % 1000);
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a, b;
  CK(cudaMallocArray(&a, &fd, W, H, cudaArraySurfaceLoadStore));
  CK(cudaMallocArray(&b, &fd, W / 2, H / 2, cudaArraySurfaceLoadStore));
  CK(cudaMemcpy2DToArray(a, 0, 0, img.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
  float *out;
  CK(cudaMalloc(&out, W * H * 4));
  int bad = 0;
  for (int round = 0; round < 8; round++) {
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td = {};
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    copy_through_texture<<<dim3(W / 16, H / 16), dim3(16, 16)>>>(t, out, W, H);
    CK(cudaGetLastError());
    CK(cudaDestroyTextureObject(t));
    cudaSurfaceObject_t sa, sb;
    CK(cudaCreateSurfaceObject(&sa, &rd));
    rd.res.array.array = b;
    CK(cudaCreateSurfaceObject(&sb, &rd));
    halve<<<dim3(W / 32, H / 32), dim3(16, 16)>>>(sa, sb, W / 2, H / 2);
    CK(cudaGetLastError());
    CK(cudaDestroySurfaceObject(sa));
    CK(cudaDestroySurfaceObject(sb));
    std::vector<float> got(W * H), half(W * H / 4);
    CK(cudaMemcpy(got.data(), out, W * H * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy2DFromArray(half.data(), W * 2, b, 0, 0, W * 2, H / 2, cudaMemcpyDeviceToHost));
    for (int i = 0; i < W * H; i++)
      if (got[i] != img[i] * 2.0f && bad++ < 5) printf("round %d texel %d: %g\n", round, i, got[i]);
    for (int y = 0; y < H / 2; y++)
      for (int x = 0; x < W / 2; x++) {
        float want = img[2 * y * W + 2 * x] + img[2 * y * W + 2 * x + 1];
        if (half[y * (W / 2) + x] != want && bad++ < 5)
          printf("round %d half (%d,%d): %g, want %g\n", round, x, y, half[y * (W / 2) + x], want);
      }
  }
  CK(cudaFreeArray(a));
  CK(cudaFreeArray(b));
  CK(cudaFree(out));
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad ? 1 : 0;
}

// surfaces.cu - image-space passes through surface objects: an RGBA8 invert with
// byte x-offsets, a halo read with clamp and zero boundary modes, a 3-D slice fill
// with surf3Dwrite and per-layer writes with surf2DLayeredwrite.
#include "common.h"
#include <vector>

__global__ void invert(cudaSurfaceObject_t s, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  uchar4 p; surf2Dread(&p, s, x * sizeof(uchar4), y);
  surf2Dwrite(make_uchar4(255 - p.x, 255 - p.y, 255 - p.z, p.w), s, x * sizeof(uchar4), y);
}
// 3x3 box sum with out-of-range neighbours handled by the boundary mode.
__global__ void box3(cudaSurfaceObject_t in, float *out, int w, int h, int zero) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float s = 0;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      s += zero ? surf2Dread<float>(in, (x + dx) * 4, y + dy, cudaBoundaryModeZero)
                : surf2Dread<float>(in, (x + dx) * 4, y + dy, cudaBoundaryModeClamp);
  out[y * w + x] = s;
}
__global__ void fill3d(cudaSurfaceObject_t s, int w, int h, int d) {
  int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
  if (x < w && y < h && z < d) surf3Dwrite(make_short2(x - y, z * 100 + x), s, x * sizeof(short2), y, z);
  // Writes past the end are dropped with cudaBoundaryModeZero.
  if (x == 0) surf3Dwrite(make_short2(-1, -1), s, w * sizeof(short2), y, z, cudaBoundaryModeZero);
}
__global__ void fill_layers(cudaSurfaceObject_t s, int w, int h, int layers) {
  int x = threadIdx.x, y = blockIdx.x, l = blockIdx.y;
  if (x < w && y < h && l < layers) surf2DLayeredwrite((float)(l * 1000 + y * w + x), s, x * 4, y, l);
}

int main() {
  const int W = 21, H = 13;
  std::vector<uchar4> img(W * H);
  for (int i = 0; i < W * H; i++) img[i] = make_uchar4(i & 255, (i * 3) & 255, (i * 7) & 255, i % 200);
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
  cudaArray_t a; CK(cudaMallocArray(&a, &cd, W, H, cudaArraySurfaceLoadStore));
  CK(cudaMemcpy2DToArray(a, 0, 0, img.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
  cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeArray; rd.res.array.array = a;
  cudaSurfaceObject_t s; CK(cudaCreateSurfaceObject(&s, &rd));
  invert<<<dim3(2, 2), dim3(16, 8)>>>(s, W, H);
  CK(cudaGetLastError());
  std::vector<uchar4> back(W * H);
  CK(cudaMemcpy2DFromArray(back.data(), W * 4, a, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
  for (int i = 0; i < W * H; i++)
    EXPECT(back[i].x == 255 - img[i].x && back[i].y == 255 - img[i].y && back[i].z == 255 - img[i].z &&
           back[i].w == img[i].w, "invert texel %d", i);
  cudaResourceDesc gotrd;
  CK(cudaGetSurfaceObjectResourceDesc(&gotrd, s));
  EXPECT(gotrd.resType == cudaResourceTypeArray && gotrd.res.array.array == a, "surface resource desc");
  CK(cudaDestroySurfaceObject(s));

  std::vector<float> f(W * H);
  for (int i = 0; i < W * H; i++) f[i] = (float)(i % 17);
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t fa; CK(cudaMallocArray(&fa, &fd, W, H, cudaArraySurfaceLoadStore));
  CK(cudaMemcpy2DToArray(fa, 0, 0, f.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
  rd.res.array.array = fa;
  cudaSurfaceObject_t fs; CK(cudaCreateSurfaceObject(&fs, &rd));
  float *dout; CK(cudaMalloc(&dout, W * H * 4));
  std::vector<float> out(W * H);
  for (int zero = 0; zero < 2; zero++) {
    box3<<<dim3(2, 2), dim3(16, 8)>>>(fs, dout, W, H, zero);
    CK(cudaGetLastError());
    CK(cudaMemcpy(out.data(), dout, W * H * 4, cudaMemcpyDeviceToHost));
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
        float r = 0;
        for (int dy = -1; dy <= 1; dy++)
          for (int dx = -1; dx <= 1; dx++) {
            int i = x + dx, j = y + dy;
            if (zero && (i < 0 || j < 0 || i >= W || j >= H)) continue;
            i = i < 0 ? 0 : i >= W ? W - 1 : i; j = j < 0 ? 0 : j >= H ? H - 1 : j;
            r += f[j * W + i];
          }
        EXPECT(out[y * W + x] == r, "box3 %s (%d,%d): %g vs %g", zero ? "zero" : "clamp", x, y, out[y * W + x], r);
      }
  }
  CK(cudaDestroySurfaceObject(fs));

  const int D = 5;
  cudaChannelFormatDesc sd = cudaCreateChannelDesc<short2>();
  cudaArray_t va; CK(cudaMalloc3DArray(&va, &sd, make_cudaExtent(W, H, D), cudaArraySurfaceLoadStore));
  rd.res.array.array = va;
  cudaSurfaceObject_t vs; CK(cudaCreateSurfaceObject(&vs, &rd));
  fill3d<<<dim3(H, D), 32>>>(vs, W, H, D);
  CK(cudaGetLastError());
  std::vector<short2> vol(W * H * D);
  cudaMemcpy3DParms p = {};
  p.srcArray = va; p.dstPtr = make_cudaPitchedPtr(vol.data(), W * sizeof(short2), W, H);
  p.extent = make_cudaExtent(W, H, D); p.kind = cudaMemcpyDeviceToHost;
  CK(cudaMemcpy3D(&p));
  for (int z = 0; z < D; z++)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
        short2 v = vol[(z * H + y) * W + x];
        EXPECT(v.x == x - y && v.y == z * 100 + x, "surf3D (%d,%d,%d): %d %d", x, y, z, v.x, v.y);
      }
  CK(cudaDestroySurfaceObject(vs));

  const int L = 3;
  cudaArray_t la; CK(cudaMalloc3DArray(&la, &fd, make_cudaExtent(W, H, L), cudaArrayLayered | cudaArraySurfaceLoadStore));
  rd.res.array.array = la;
  cudaSurfaceObject_t ls; CK(cudaCreateSurfaceObject(&ls, &rd));
  fill_layers<<<dim3(H, L), 32>>>(ls, W, H, L);
  CK(cudaGetLastError());
  std::vector<float> lay(W * H * L);
  p = {};
  p.srcArray = la; p.dstPtr = make_cudaPitchedPtr(lay.data(), W * 4, W, H);
  p.extent = make_cudaExtent(W, H, L); p.kind = cudaMemcpyDeviceToHost;
  CK(cudaMemcpy3D(&p));
  for (int i = 0; i < W * H * L; i++)
    EXPECT(lay[i] == (float)((i / (W * H)) * 1000 + i % (W * H)), "layered %d: %g", i, lay[i]);
  CK(cudaDestroySurfaceObject(ls));
  CK(cudaFreeArray(a)); CK(cudaFreeArray(fa)); CK(cudaFreeArray(va)); CK(cudaFreeArray(la));
  CK(cudaFree(dout));
  return finish("surfaces");
}

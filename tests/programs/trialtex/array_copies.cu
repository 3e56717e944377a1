// array_copies.cu - tile compositing between CUDA arrays: sub-rectangle uploads and
// downloads (cudaMemcpy2DToArray / FromArray with offsets), array-to-array blits,
// device-to-array copies, and the queries a compositor uses to check its atlas.
#include "common.h"
#include <vector>

__global__ void read_all(cudaTextureObject_t t, ushort2 *out, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) out[y * w + x] = tex2D<ushort2>(t, x, y);
}

int main() {
  const int W = 50, H = 20, TW = 12, TH = 7;
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<ushort2>();
  cudaArray_t atlas, tile;
  CK(cudaMallocArray(&atlas, &cd, W, H));
  CK(cudaMallocArray(&tile, &cd, TW, TH));
  std::vector<ushort2> ref(W * H, make_ushort2(7, 7));
  CK(cudaMemcpy2DToArray(atlas, 0, 0, ref.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
  // Upload a tile from a larger host image (source pitch > width).
  const int SP = 17;
  std::vector<ushort2> src(SP * TH);
  for (int i = 0; i < SP * TH; i++) src[i] = make_ushort2(i, 60000 - i);
  CK(cudaMemcpy2DToArray(tile, 0, 0, src.data(), SP * 4, TW * 4, TH, cudaMemcpyHostToDevice));
  // Blit the tile into the atlas at several offsets (wOffset in bytes), and a sub-rect.
  int offs[][2] = {{0, 0}, {13, 2}, {38, 13}};
  for (auto &o : offs) {
    CK(cudaMemcpy2DArrayToArray(atlas, o[0] * 4, o[1], tile, 0, 0, TW * 4, TH, cudaMemcpyDeviceToDevice));
    for (int y = 0; y < TH; y++)
      for (int x = 0; x < TW; x++) ref[(o[1] + y) * W + o[0] + x] = src[y * SP + x];
  }
  CK(cudaMemcpy2DArrayToArray(atlas, 30 * 4, 0, tile, 3 * 4, 2, 5 * 4, 4, cudaMemcpyDeviceToDevice));
  for (int y = 0; y < 4; y++)
    for (int x = 0; x < 5; x++) ref[y * W + 30 + x] = src[(2 + y) * SP + 3 + x];
  // Device memory to array with a pitch.
  ushort2 *dev; size_t pitch;
  CK(cudaMallocPitch(&dev, &pitch, 8 * 4, 3));
  std::vector<ushort2> patch(8 * 3);
  for (int i = 0; i < 24; i++) patch[i] = make_ushort2(1000 + i, 2000 + i);
  CK(cudaMemcpy2D(dev, pitch, patch.data(), 32, 32, 3, cudaMemcpyHostToDevice));
  CK(cudaMemcpy2DToArray(atlas, 20 * 4, 16, dev, pitch, 32, 3, cudaMemcpyDeviceToDevice));
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 8; x++) ref[(16 + y) * W + 20 + x] = patch[y * 8 + x];

  // Read back a sub-rectangle to host and the whole atlas through a texture.
  std::vector<ushort2> sub(10 * 5);
  CK(cudaMemcpy2DFromArray(sub.data(), 10 * 4, atlas, 11 * 4, 1, 10 * 4, 5, cudaMemcpyDeviceToHost));
  for (int y = 0; y < 5; y++)
    for (int x = 0; x < 10; x++) {
      ushort2 a = sub[y * 10 + x], b = ref[(1 + y) * W + 11 + x];
      EXPECT(a.x == b.x && a.y == b.y, "sub (%d,%d): %d %d want %d %d", x, y, a.x, a.y, b.x, b.y);
    }
  // FromArray into device memory.
  ushort2 *dsub; CK(cudaMalloc(&dsub, W * H * 4));
  CK(cudaMemcpy2DFromArray(dsub, W * 4, atlas, 0, 0, W * 4, H, cudaMemcpyDeviceToDevice));
  std::vector<ushort2> all(W * H);
  CK(cudaMemcpy(all.data(), dsub, W * H * 4, cudaMemcpyDeviceToHost));
  cudaResourceDesc rd = {}; rd.resType = cudaResourceTypeArray; rd.res.array.array = atlas;
  cudaTextureDesc td = {}; td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t; CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  ushort2 *dt; CK(cudaMalloc(&dt, W * H * 4));
  read_all<<<H, 64>>>(t, dt, W, H);
  CK(cudaGetLastError());
  std::vector<ushort2> tv(W * H);
  CK(cudaMemcpy(tv.data(), dt, W * H * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < W * H; i++) {
    EXPECT(all[i].x == ref[i].x && all[i].y == ref[i].y, "atlas %d: %d %d want %d %d", i, all[i].x, all[i].y, ref[i].x, ref[i].y);
    EXPECT(tv[i].x == ref[i].x && tv[i].y == ref[i].y, "tex %d: %d %d want %d %d", i, tv[i].x, tv[i].y, ref[i].x, ref[i].y);
  }

  // Queries.
  cudaChannelFormatDesc got; cudaExtent ext; unsigned flags = 99;
  CK(cudaArrayGetInfo(&got, &ext, &flags, atlas));
  EXPECT(got.x == 16 && got.y == 16 && got.z == 0 && got.w == 0 && got.f == cudaChannelFormatKindUnsigned, "info desc");
  EXPECT(ext.width == W && ext.height == H && ext.depth == 0 && flags == 0, "info extent %zu %zu %zu flags %u", ext.width, ext.height, ext.depth, flags);
  CK(cudaGetChannelDesc(&got, tile));
  EXPECT(got.x == 16 && got.y == 16 && got.f == cudaChannelFormatKindUnsigned, "channel desc");
  cudaResourceDesc grd; CK(cudaGetTextureObjectResourceDesc(&grd, t));
  EXPECT(grd.resType == cudaResourceTypeArray && grd.res.array.array == atlas, "tex resource desc");
  cudaTextureDesc gtd; CK(cudaGetTextureObjectTextureDesc(&gtd, t));
  EXPECT(gtd.readMode == cudaReadModeElementType && gtd.filterMode == cudaFilterModePoint, "tex desc");
  // Out-of-range copies are refused.
  cudaError_t e = cudaMemcpy2DToArray(atlas, 45 * 4, 0, patch.data(), 32, 32, 3, cudaMemcpyHostToDevice);
  EXPECT(e == cudaErrorInvalidValue, "oversized copy gave %s", cudaGetErrorName(e));
  cudaGetLastError();
  CK(cudaDestroyTextureObject(t));
  CK(cudaFreeArray(atlas)); CK(cudaFreeArray(tile));
  CK(cudaFree(dev)); CK(cudaFree(dsub)); CK(cudaFree(dt));
  return finish("array_copies");
}

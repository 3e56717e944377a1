/*
 * tex_image_filter.cu: image filters over 2D array textures, as public
 * samples write them (image_filters.cuh): a Sobel edge detector (point
 * sampling, clamped borders, element reads of an 8-bit image) and a
 * bilinear resize of an RGBA image (normalized coordinates, linear
 * filtering, normalized-float reads). Both are checked against host
 * implementations: Sobel exactly; the resize exactly against the
 * Programming Guide's filter with 9-bit weights, and it must differ from
 * plain float interpolation somewhere (that is what the hardware rule is
 * for).
 */
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "image_filters.cuh"
#include "tex_common.cuh"

static const int W = 37, H = 29;

static unsigned char pixel(int x, int y) {
  return (unsigned char)((x * 7 + y * 13 + (x * y) % 17) % 256);
}

static int host_sobel(const std::vector<unsigned char> &img, int x, int y) {
  auto at = [&](int i, int j) {
    i = i < 0 ? 0 : i >= W ? W - 1 : i;
    j = j < 0 ? 0 : j >= H ? H - 1 : j;
    return (int)img[j * W + i];
  };
  int gx = (at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1)) -
           (at(x - 1, y - 1) + 2 * at(x - 1, y) + at(x - 1, y + 1));
  int gy = (at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1)) -
           (at(x - 1, y - 1) + 2 * at(x, y - 1) + at(x + 1, y - 1));
  int m = std::abs(gx) + std::abs(gy);
  return m > 255 ? 255 : m;
}

static void sobel_test() {
  std::vector<unsigned char> img(W * H);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      img[y * W + x] = pixel(x, y);
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<unsigned char>();
  cudaArray_t array = nullptr;
  CHECK(cudaMallocArray(&array, &cd, W, H) == cudaSuccess);
  CHECK(cudaMemcpy2DToArray(array, 0, 0, img.data(), W, W, H,
                            cudaMemcpyHostToDevice) == cudaSuccess);
  cudaTextureObject_t tex = make_texture(
      array, tex_desc(cudaAddressModeClamp, cudaFilterModePoint,
                      cudaReadModeElementType, 0));
  unsigned char *out = nullptr;
  size_t pitch = 0;
  CHECK(cudaMallocPitch(&out, &pitch, W, H) == cudaSuccess);
  dim3 block(16, 8), grid((W + 15) / 16, (H + 7) / 8);
  filters::sobel<16, 8><<<grid, block>>>(tex, out, W, H, pitch);
  CHECK(cudaGetLastError() == cudaSuccess);
  std::vector<unsigned char> got(W * H);
  CHECK(cudaMemcpy2D(got.data(), W, out, pitch, W, H,
                     cudaMemcpyDeviceToHost) == cudaSuccess);
  int bad = 0;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      bad += got[y * W + x] != host_sobel(img, x, y);
  CHECK(bad == 0);
  CHECK(cudaDestroyTextureObject(tex) == cudaSuccess);
  CHECK(cudaFreeArray(array) == cudaSuccess);
  CHECK(cudaFree(out) == cudaSuccess);
}

/* The Programming Guide's bilinear filter at normalized (u, v) of an
 * SW x SH RGBA image, clamped, with weights rounded to 1/256; `exact`
 * uses the fractions themselves instead. */
static void host_bilinear(const std::vector<uchar4> &img, int sw, int sh,
                          float u, float v, bool exact, double out[4]) {
  float xb = u * (float)sw - 0.5f, yb = v * (float)sh - 0.5f;
  float i = std::floor(xb), j = std::floor(yb);
  double a = xb - i, b = yb - j;
  if (!exact) {
    a = std::floor(a * 256 + 0.5) / 256;
    b = std::floor(b * 256 + 0.5) / 256;
  }
  auto at = [&](int x, int y, int c) {
    x = x < 0 ? 0 : x >= sw ? sw - 1 : x;
    y = y < 0 ? 0 : y >= sh ? sh - 1 : y;
    const uchar4 &p = img[y * sw + x];
    unsigned char ch[4] = {p.x, p.y, p.z, p.w};
    return ch[c] / 255.0;
  };
  for (int c = 0; c < 4; ++c)
    out[c] = (1 - a) * (1 - b) * at((int)i, (int)j, c) +
             a * (1 - b) * at((int)i + 1, (int)j, c) +
             (1 - a) * b * at((int)i, (int)j + 1, c) +
             a * b * at((int)i + 1, (int)j + 1, c);
}

static void resize_test() {
  const int SW = 13, SH = 11, DW = 31, DH = 7;
  std::vector<uchar4> img(SW * SH);
  for (int y = 0; y < SH; ++y)
    for (int x = 0; x < SW; ++x)
      img[y * SW + x] = make_uchar4(pixel(x, y), pixel(y, x), 17 * x, 255 - 9 * y);
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
  cudaArray_t array = nullptr;
  CHECK(cudaMallocArray(&array, &cd, SW, SH) == cudaSuccess);
  CHECK(cudaMemcpy2DToArray(array, 0, 0, img.data(), SW * sizeof(uchar4),
                            SW * sizeof(uchar4), SH,
                            cudaMemcpyHostToDevice) == cudaSuccess);
  cudaTextureObject_t tex = make_texture(
      array, tex_desc(cudaAddressModeClamp, cudaFilterModeLinear,
                      cudaReadModeNormalizedFloat, 1));
  uchar4 *out = nullptr;
  CHECK(cudaMalloc(&out, DW * DH * sizeof(uchar4)) == cudaSuccess);
  dim3 block(8, 8), grid((DW + 7) / 8, (DH + 7) / 8);
  filters::resize_bilinear<<<grid, block>>>(tex, out, DW, DH);
  std::vector<uchar4> got(DW * DH);
  CHECK(cudaMemcpy(got.data(), out, DW * DH * sizeof(uchar4),
                   cudaMemcpyDeviceToHost) == cudaSuccess);
  int bad = 0, differs_from_exact = 0;
  for (int y = 0; y < DH; ++y)
    for (int x = 0; x < DW; ++x) {
      float u = (x + 0.5f) / DW, v = (y + 0.5f) / DH;
      double ref[4], exact[4];
      host_bilinear(img, SW, SH, u, v, false, ref);
      host_bilinear(img, SW, SH, u, v, true, exact);
      const uchar4 &g = got[y * DW + x];
      unsigned char gc[4] = {g.x, g.y, g.z, g.w};
      for (int c = 0; c < 4; ++c) {
        int want = (int)(ref[c] * 255.0 + 0.5);
        bad += gc[c] != want;
        differs_from_exact += (int)(exact[c] * 255.0 + 0.5) != want;
      }
    }
  if (bad)
    std::fprintf(stderr, "resize: %d channels differ from the reference\n", bad);
  CHECK(bad == 0);
  CHECK(differs_from_exact > 0);
  CHECK(cudaDestroyTextureObject(tex) == cudaSuccess);
  CHECK(cudaFreeArray(array) == cudaSuccess);
  CHECK(cudaFree(out) == cudaSuccess);
}

int main() {
  sobel_test();
  resize_test();
  return finish();
}

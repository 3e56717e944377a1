// CUEMU_OPTIONS: -arch=sm_86 -lineinfo -Iimg/include img/src/image_io.cpp
// NVCC_OPTIONS: -Iimg/include
// Sobel, bilateral and resize through texture objects on an RGBA8 cudaArray,
// and a surface writer read back with cudaMemcpy2DFromArray.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <vector>

#include <cuda_check.h>
#include <image_io.h>
#include "img/kernels/texture_filters.cuh"

static float4 texelHost(const std::vector<unsigned char> &rgba, int w, int h, int x, int y, bool border) {
  if (x < 0 || y < 0 || x >= w || y >= h) {
    if (border) return make_float4(0.f, 0.f, 0.f, 0.f);
    x = std::min(std::max(x, 0), w - 1);
    y = std::min(std::max(y, 0), h - 1);
  }
  const unsigned char *p = &rgba[(size_t(y) * w + x) * 4];
  return make_float4(p[0] / 255.f, p[1] / 255.f, p[2] / 255.f, p[3] / 255.f);
}

static cudaTextureObject_t makeTexture(cudaArray_t arr, cudaTextureAddressMode mode, cudaTextureFilterMode filter,
                                       bool normalized) {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = arr;
  cudaTextureDesc td;
  memset(&td, 0, sizeof(td));
  td.addressMode[0] = mode;
  td.addressMode[1] = mode;
  td.filterMode = filter;
  td.readMode = cudaReadModeNormalizedFloat;
  td.normalizedCoords = normalized ? 1 : 0;
  cudaTextureObject_t tex = 0;
  checkCudaErrors(cudaCreateTextureObject(&tex, &res, &td, nullptr));
  return tex;
}

int main() {
  const int w = 96, h = 72;
  std::string path = tempImagePath("tex_in.ppm");
  savePNM(path, makeTestImage(w, h, 3, 11u));
  Image img;
  if (!loadPNM(path, img)) return 1;
  remove(path.c_str());
  std::vector<unsigned char> rgba = toRGBA(img);

  cudaChannelFormatDesc desc = cudaCreateChannelDesc<uchar4>();
  cudaArray_t arr;
  checkCudaErrors(cudaMallocArray(&arr, &desc, w, h));
  checkCudaErrors(cudaMemcpy2DToArray(arr, 0, 0, rgba.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));

  dim3 block(16, 16), grid(iDivUp(w, 16), iDivUp(h, 16));
  bool ok = true;

  // Sobel, clamped at the border.
  {
    cudaTextureObject_t tex = makeTexture(arr, cudaAddressModeClamp, cudaFilterModePoint, false);
    float *d_mag;
    checkCudaErrors(cudaMalloc(&d_mag, w * h * sizeof(float)));
    sobelTex<<<grid, block>>>(d_mag, w, h, tex);
    getLastCudaError("sobelTex");
    std::vector<float> mag(w * h);
    checkCudaErrors(cudaMemcpy(mag.data(), d_mag, mag.size() * sizeof(float), cudaMemcpyDeviceToHost));
    float maxErr = 0.f;
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        auto L = [&](int dx, int dy) { return luminance(texelHost(rgba, w, h, x + dx, y + dy, false)); };
        float gx = (L(1, -1) + 2 * L(1, 0) + L(1, 1)) - (L(-1, -1) + 2 * L(-1, 0) + L(-1, 1));
        float gy = (L(-1, 1) + 2 * L(0, 1) + L(1, 1)) - (L(-1, -1) + 2 * L(0, -1) + L(1, -1));
        maxErr = fmaxf(maxErr, fabsf(sqrtf(gx * gx + gy * gy) - mag[y * w + x]));
      }
    printf("sobel: max error %g\n", maxErr);
    ok &= maxErr < 1e-4f;

    // Surface: threshold the edges into a second array, invert in place, read back.
    cudaArray_t edges;
    checkCudaErrors(cudaMallocArray(&edges, &desc, w, h, cudaArraySurfaceLoadStore));
    cudaResourceDesc sres = {};
    sres.resType = cudaResourceTypeArray;
    sres.res.array.array = edges;
    cudaSurfaceObject_t surf;
    checkCudaErrors(cudaCreateSurfaceObject(&surf, &sres));
    edgesToSurface<<<grid, block>>>(surf, d_mag, w, h, 0.25f);
    invertSurface<<<grid, block>>>(surf, w, h);
    getLastCudaError("surface kernels");
    std::vector<uchar4> back(w * h);
    checkCudaErrors(cudaMemcpy2DFromArray(back.data(), w * sizeof(uchar4), edges, 0, 0, w * sizeof(uchar4), h,
                                          cudaMemcpyDeviceToHost));
    int bad = 0, white = 0;
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        uchar4 p = back[y * w + x];
        unsigned char e = mag[y * w + x] > 0.25f ? 0 : 255;
        white += e == 0;
        bad += p.x != e || p.y != (x & 255) || p.z != (y & 255) || p.w != 255;
      }
    printf("surface: %d edge pixels, %d wrong\n", white, bad);
    ok &= bad == 0 && white > 0;
    checkCudaErrors(cudaDestroySurfaceObject(surf));
    checkCudaErrors(cudaFreeArray(edges));
    checkCudaErrors(cudaDestroyTextureObject(tex));
    checkCudaErrors(cudaFree(d_mag));
  }

  // Bilateral, zero outside the image (border addressing).
  {
    const float sigmaS = 1.5f, sigmaR = 0.2f;
    float spatial[2 * BILATERAL_RADIUS + 1];
    for (int i = -BILATERAL_RADIUS; i <= BILATERAL_RADIUS; i++) spatial[i + BILATERAL_RADIUS] = expf(-(i * i) / (2 * sigmaS * sigmaS));
    checkCudaErrors(cudaMemcpyToSymbol(c_spatial, spatial, sizeof(spatial)));
    cudaTextureObject_t tex = makeTexture(arr, cudaAddressModeBorder, cudaFilterModePoint, false);
    uchar4 *d_out;
    checkCudaErrors(cudaMalloc(&d_out, w * h * sizeof(uchar4)));
    float inv = 1.f / (2 * sigmaR * sigmaR);
    bilateralTex<<<grid, block>>>(d_out, w, h, inv, tex);
    getLastCudaError("bilateralTex");
    std::vector<uchar4> out(w * h);
    checkCudaErrors(cudaMemcpy(out.data(), d_out, out.size() * sizeof(uchar4), cudaMemcpyDeviceToHost));
    int maxErr = 0;
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        float4 c0 = texelHost(rgba, w, h, x, y, true);
        float sx = 0, sy = 0, sz = 0, ws = 0;
        for (int dy = -BILATERAL_RADIUS; dy <= BILATERAL_RADIUS; dy++)
          for (int dx = -BILATERAL_RADIUS; dx <= BILATERAL_RADIUS; dx++) {
            float4 c = texelHost(rgba, w, h, x + dx, y + dy, true);
            float d = (c.x - c0.x) * (c.x - c0.x) + (c.y - c0.y) * (c.y - c0.y) + (c.z - c0.z) * (c.z - c0.z);
            float wg = spatial[dx + BILATERAL_RADIUS] * spatial[dy + BILATERAL_RADIUS] * expf(-d * inv);
            sx += wg * c.x;
            sy += wg * c.y;
            sz += wg * c.z;
            ws += wg;
          }
        int r = (int)lrintf(sx * 255.f / ws), g = (int)lrintf(sy * 255.f / ws), b = (int)lrintf(sz * 255.f / ws);
        uchar4 p = out[y * w + x];
        maxErr = std::max(maxErr, std::max(abs(p.x - r), std::max(abs(p.y - g), abs(p.z - b))));
      }
    printf("bilateral: max error %d\n", maxErr);
    ok &= maxErr <= 1;
    checkCudaErrors(cudaDestroyTextureObject(tex));
    checkCudaErrors(cudaFree(d_out));
  }

  // Resize with linear filtering and normalized coordinates.
  {
    const int ow = 61, oh = 133;
    cudaTextureObject_t tex = makeTexture(arr, cudaAddressModeClamp, cudaFilterModeLinear, true);
    float4 *d_out;
    checkCudaErrors(cudaMalloc(&d_out, ow * oh * sizeof(float4)));
    dim3 g2(iDivUp(ow, 16), iDivUp(oh, 16));
    resizeTex<<<g2, block>>>(d_out, ow, oh, tex);
    getLastCudaError("resizeTex");
    std::vector<float4> out(ow * oh);
    checkCudaErrors(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float4), cudaMemcpyDeviceToHost));
    float maxErr = 0.f;
    for (int y = 0; y < oh; y++)
      for (int x = 0; x < ow; x++) {
        float u = (x + 0.5f) / ow * w - 0.5f, v = (y + 0.5f) / oh * h - 0.5f;
        int i = (int)floorf(u), j = (int)floorf(v);
        float a = u - i, b = v - j;
        float4 t00 = texelHost(rgba, w, h, i, j, false), t10 = texelHost(rgba, w, h, i + 1, j, false);
        float4 t01 = texelHost(rgba, w, h, i, j + 1, false), t11 = texelHost(rgba, w, h, i + 1, j + 1, false);
        const float4 r4 = lerp(lerp(t00, t10, a), lerp(t01, t11, a), b);
        const float ref[3] = {r4.x, r4.y, r4.z};
        float4 o = out[y * ow + x];
        maxErr = fmaxf(maxErr, fmaxf(fabsf(o.x - ref[0]), fmaxf(fabsf(o.y - ref[1]), fabsf(o.z - ref[2]))));
        maxErr = fmaxf(maxErr, fabsf(o.w - 1.f));
      }
    // 9-bit fixed-point weights: up to 1/256 of the largest neighbour difference.
    printf("resize %dx%d -> %dx%d: max error %g\n", w, h, ow, oh, maxErr);
    ok &= maxErr < 4.0f / 256.f;
    checkCudaErrors(cudaDestroyTextureObject(tex));
    checkCudaErrors(cudaFree(d_out));
  }

  checkCudaErrors(cudaFreeArray(arr));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

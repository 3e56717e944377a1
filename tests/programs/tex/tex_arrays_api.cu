/*
 * tex_arrays_api.cu: the host side of CUDA arrays: channel descriptors (C
 * and template forms), cudaMallocArray and cudaMalloc3DArray with CUDA's
 * shape rules and errors, cudaArrayGetInfo and cudaGetChannelDesc, every
 * copy to, from and between arrays (2D, the deprecated 1D forms, the Async
 * forms, cudaMemcpy3D between pitched memory and arrays with offsets),
 * cudaMalloc3D and cudaMemset3D, and the texture descriptor getters.
 * Every result is compared with a copy done on the host.
 */
/* cudaMemcpyToArray & co. are deprecated, and tested. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <cstdio>
#include <cstring>

#include "tex_common.cuh"

static bool same_desc(cudaChannelFormatDesc a, int x, int y, int z, int w,
                      cudaChannelFormatKind f) {
  return a.x == x && a.y == y && a.z == z && a.w == w && a.f == f;
}

static void descriptors() {
  CHECK(same_desc(cudaCreateChannelDesc<float4>(), 32, 32, 32, 32,
                  cudaChannelFormatKindFloat));
  CHECK(same_desc(cudaCreateChannelDesc<uchar2>(), 8, 8, 0, 0,
                  cudaChannelFormatKindUnsigned));
  CHECK(same_desc(cudaCreateChannelDesc<short>(), 16, 0, 0, 0,
                  cudaChannelFormatKindSigned));
  CHECK(same_desc(cudaCreateChannelDesc<double>(), 0, 0, 0, 0,
                  cudaChannelFormatKindNone));
  CHECK(same_desc(cudaCreateChannelDescHalf2(), 16, 16, 0, 0,
                  cudaChannelFormatKindFloat));
  CHECK(same_desc(
      cudaCreateChannelDesc<cudaChannelFormatKindUnsignedNormalized8X4>(), 8,
      8, 8, 8, cudaChannelFormatKindUnsignedNormalized8X4));
  CHECK(same_desc(cudaCreateChannelDesc(8, 8, 0, 0,
                                        cudaChannelFormatKindSigned),
                  8, 8, 0, 0, cudaChannelFormatKindSigned));
}

static void allocation_rules() {
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a = nullptr;
  /* Three channels, unequal channels and no channels are refused. */
  cudaChannelFormatDesc three = cudaCreateChannelDesc(
      32, 32, 32, 0, cudaChannelFormatKindFloat);
  CHECK(cudaMallocArray(&a, &three, 4) == cudaErrorInvalidChannelDescriptor);
  cudaChannelFormatDesc uneven = cudaCreateChannelDesc(
      8, 16, 0, 0, cudaChannelFormatKindUnsigned);
  CHECK(cudaMallocArray(&a, &uneven, 4) == cudaErrorInvalidChannelDescriptor);
  cudaChannelFormatDesc none = cudaCreateChannelDesc<double>();
  CHECK(cudaMallocArray(&a, &none, 4) == cudaErrorInvalidChannelDescriptor);
  CHECK(cudaGetLastError() == cudaErrorInvalidChannelDescriptor);
  /* A cubemap is square with 6 faces (times the layers); layered flags
   * belong to cudaMalloc3DArray; width 0 is refused. */
  CHECK(cudaMalloc3DArray(&a, &fd, make_cudaExtent(4, 2, 6),
                          cudaArrayCubemap) == cudaErrorInvalidValue);
  CHECK(cudaMalloc3DArray(&a, &fd, make_cudaExtent(4, 4, 5),
                          cudaArrayCubemap) == cudaErrorInvalidValue);
  CHECK(cudaMalloc3DArray(&a, &fd, make_cudaExtent(4, 4, 7),
                          cudaArrayCubemap | cudaArrayLayered) ==
        cudaErrorInvalidValue);
  CHECK(cudaMallocArray(&a, &fd, 4, 4, cudaArrayLayered) ==
        cudaErrorInvalidValue);
  CHECK(cudaMallocArray(&a, &fd, 0, 4) == cudaErrorInvalidValue);
  cudaGetLastError();
  /* Info gives back what was asked for. */
  CHECK(cudaMalloc3DArray(&a, &fd, make_cudaExtent(3, 0, 5),
                          cudaArrayLayered | cudaArraySurfaceLoadStore) ==
        cudaSuccess);
  cudaChannelFormatDesc got;
  cudaExtent e;
  unsigned flags = 0;
  CHECK(cudaArrayGetInfo(&got, &e, &flags, a) == cudaSuccess);
  CHECK(same_desc(got, 32, 0, 0, 0, cudaChannelFormatKindFloat));
  CHECK(e.width == 3 && e.height == 0 && e.depth == 5);
  CHECK(flags == (cudaArrayLayered | cudaArraySurfaceLoadStore));
  std::memset(&got, 0, sizeof got);
  CHECK(cudaGetChannelDesc(&got, a) == cudaSuccess && got.x == 32);
  CHECK(cudaFreeArray(a) == cudaSuccess);
  CHECK(cudaFreeArray(a) == cudaErrorInvalidValue);
  CHECK(cudaArrayGetInfo(&got, &e, &flags, a) ==
        cudaErrorInvalidResourceHandle);
  CHECK(cudaFreeArray(nullptr) == cudaSuccess);
  cudaGetLastError();
}

static void copies_2d() {
  /* Two 6 x 4 arrays of ushort2 (4-byte elements). */
  cudaChannelFormatDesc ud = cudaCreateChannelDesc<ushort2>();
  cudaArray_t a = nullptr, b = nullptr;
  CHECK(cudaMallocArray(&a, &ud, 6, 4) == cudaSuccess);
  CHECK(cudaMallocArray(&b, &ud, 6, 4) == cudaSuccess);
  ushort2 src[4][6], back[4][6], ref[4][6];
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 6; ++x)
      src[y][x] = make_ushort2(x, 100 + y);
  std::memset(back, 0, sizeof back);
  /* The whole array, then a 2 x 2 window at element (3, 1) from device
   * memory. */
  CHECK(cudaMemcpy2DToArray(a, 0, 0, src, sizeof src[0], sizeof src[0], 4,
                            cudaMemcpyHostToDevice) == cudaSuccess);
  ushort2 *d = nullptr;
  CHECK(cudaMalloc(&d, 4 * sizeof(ushort2)) == cudaSuccess);
  const ushort2 window[4] = {make_ushort2(9, 9), make_ushort2(8, 8),
                             make_ushort2(7, 7), make_ushort2(6, 6)};
  CHECK(cudaMemcpy(d, window, sizeof window, cudaMemcpyHostToDevice) ==
        cudaSuccess);
  CHECK(cudaMemcpy2DToArrayAsync(a, 3 * sizeof(ushort2), 1, d,
                                 2 * sizeof(ushort2), 2 * sizeof(ushort2), 2,
                                 cudaMemcpyDeviceToDevice, 0) == cudaSuccess);
  std::memcpy(ref, src, sizeof ref);
  ref[1][3] = window[0];
  ref[1][4] = window[1];
  ref[2][3] = window[2];
  ref[2][4] = window[3];
  /* Array to array, then back to the host. */
  CHECK(cudaMemcpy2DArrayToArray(b, 0, 0, a, 0, 0, sizeof src[0], 4) ==
        cudaSuccess);
  CHECK(cudaMemcpy2DFromArray(back, sizeof back[0], b, 0, 0, sizeof back[0],
                              4, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(std::memcmp(back, ref, sizeof ref) == 0);
  /* A window from the array into pitched host memory, asynchronously. */
  ushort2 part[2][3];
  CHECK(cudaMemcpy2DFromArrayAsync(part, sizeof part[0], a,
                                   2 * sizeof(ushort2), 2, sizeof part[0], 2,
                                   cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaStreamSynchronize(0) == cudaSuccess);
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 3; ++x)
      CHECK(part[y][x].x == ref[2 + y][2 + x].x &&
            part[y][x].y == ref[2 + y][2 + x].y);
  /* Ranges past the array, a wrong kind, a bad handle. */
  CHECK(cudaMemcpy2DToArray(a, 4 * sizeof(ushort2), 0, src, sizeof src[0],
                            3 * sizeof(ushort2), 1,
                            cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
  CHECK(cudaMemcpy2DFromArray(back, sizeof back[0], a, 0, 3, sizeof back[0], 2,
                              cudaMemcpyDeviceToHost) ==
        cudaErrorInvalidValue);
  CHECK(cudaMemcpy2DArrayToArray(b, 0, 0, a, 0, 0, 4, 1,
                                 cudaMemcpyHostToDevice) ==
        cudaErrorInvalidMemcpyDirection);
  cudaGetLastError();

  /* The deprecated 1D forms: bytes row after row from (w, h). */
  const ushort2 seven[7] = {
      make_ushort2(1, 1), make_ushort2(2, 2), make_ushort2(3, 3),
      make_ushort2(4, 4), make_ushort2(5, 5), make_ushort2(6, 6),
      make_ushort2(7, 7)};
  CHECK(cudaMemcpyToArray(a, 4 * sizeof(ushort2), 0, seven, sizeof seven,
                          cudaMemcpyHostToDevice) == cudaSuccess);
  ushort2 seven_back[7];
  CHECK(cudaMemcpyFromArray(seven_back, a, 4 * sizeof(ushort2), 0,
                            sizeof seven_back, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(std::memcmp(seven, seven_back, sizeof seven) == 0);
  CHECK(cudaMemcpyArrayToArray(b, 0, 2, a, 4 * sizeof(ushort2), 0,
                               sizeof seven) == cudaSuccess);
  CHECK(cudaMemcpyFromArrayAsync(seven_back, b, 0, 3, sizeof seven_back,
                                 cudaMemcpyDeviceToHost) ==
        cudaErrorInvalidValue); /* 7 elements do not fit in the last row */
  cudaGetLastError();
  CHECK(cudaMemcpyFromArray(seven_back, b, 0, 2, 7 * sizeof(ushort2),
                            cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(std::memcmp(seven, seven_back, sizeof seven) == 0);
  CHECK(cudaMemcpyToArrayAsync(b, 0, 0, seven, 2 * sizeof(ushort2),
                               cudaMemcpyHostToDevice) == cudaSuccess);
  cudaFree(d);
  CHECK(cudaFreeArray(a) == cudaSuccess);
  CHECK(cudaFreeArray(b) == cudaSuccess);
}

static void copies_3d() {
  /* A 4 x 3 x 2 int array, filled from cudaMalloc3D memory through
   * cudaMemcpy3D with positions on both sides. */
  cudaExtent bytes = make_cudaExtent(4 * sizeof(int), 3, 2);
  cudaPitchedPtr p;
  CHECK(cudaMalloc3D(&p, bytes) == cudaSuccess);
  CHECK(p.pitch >= 4 * sizeof(int) && p.xsize == 4 * sizeof(int) &&
        p.ysize == 3);
  CHECK(cudaMemset3D(p, 0x01, bytes) == cudaSuccess);
  int host[2][3][4];
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 4; ++x)
        host[z][y][x] = 100 * z + 10 * y + x;
  /* Host -> pitched device memory, whole. */
  cudaMemcpy3DParms c;
  std::memset(&c, 0, sizeof c);
  c.srcPtr = make_cudaPitchedPtr(host, 4 * sizeof(int), 4, 3);
  c.dstPtr = p;
  c.extent = bytes;
  c.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&c) == cudaSuccess);
  /* Pitched device memory (from element (1, 1, 0)) -> array at (0, 0, 1),
   * a 3 x 2 x 1 box: extent in elements since an array is involved. */
  cudaChannelFormatDesc id = cudaCreateChannelDesc<int>();
  cudaArray_t a = nullptr;
  CHECK(cudaMalloc3DArray(&a, &id, make_cudaExtent(4, 3, 2)) == cudaSuccess);
  std::memset(&c, 0, sizeof c);
  c.srcPtr = p;
  c.srcPos = make_cudaPos(1 * sizeof(int), 1, 0);
  c.dstArray = a;
  c.dstPos = make_cudaPos(0, 0, 1);
  c.extent = make_cudaExtent(3, 2, 1);
  c.kind = cudaMemcpyDeviceToDevice;
  CHECK(cudaMemcpy3DAsync(&c, 0) == cudaSuccess);
  /* Array -> host, whole. */
  int back[2][3][4];
  std::memset(back, 0xff, sizeof back);
  std::memset(&c, 0, sizeof c);
  c.srcArray = a;
  c.dstPtr = make_cudaPitchedPtr(back, 4 * sizeof(int), 4, 3);
  c.extent = make_cudaExtent(4, 3, 2);
  c.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&c) == cudaSuccess);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 4; ++x) {
      CHECK(back[0][y][x] == 0); /* arrays start zeroed here */
      int want = y < 2 && x < 3 ? host[0][y + 1][x + 1] : 0;
      CHECK(back[1][y][x] == want);
    }
  /* Both an array and a pointer on one side, or a box past the end. */
  c.srcPtr = p;
  CHECK(cudaMemcpy3D(&c) == cudaErrorInvalidValue);
  c.srcPtr = make_cudaPitchedPtr(nullptr, 0, 0, 0);
  c.srcPos = make_cudaPos(1, 0, 0);
  CHECK(cudaMemcpy3D(&c) == cudaErrorInvalidValue);
  cudaGetLastError();
  CHECK(cudaFreeArray(a) == cudaSuccess);
  CHECK(cudaFree(p.ptr) == cudaSuccess);
}

static void descriptor_getters() {
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float2>();
  cudaArray_t a = nullptr;
  CHECK(cudaMallocArray(&a, &fd, 8, 8) == cudaSuccess);
  cudaTextureDesc d = tex_desc(cudaAddressModeMirror, cudaFilterModeLinear,
                               cudaReadModeElementType, 1);
  d.addressMode[2] = cudaAddressModeBorder;
  d.borderColor[1] = 0.5f;
  d.sRGB = 0;
  d.maxAnisotropy = 4;
  d.mipmapLevelBias = 0.25f;
  d.maxMipmapLevelClamp = 7.0f;
  cudaTextureObject_t t = make_texture(a, d);
  cudaTextureDesc back;
  std::memset(&back, 0xff, sizeof back);
  CHECK(cudaGetTextureObjectTextureDesc(&back, t) == cudaSuccess);
  CHECK(std::memcmp(&back, &d, sizeof d) == 0);
  cudaResourceDesc r;
  CHECK(cudaGetTextureObjectResourceDesc(&r, t) == cudaSuccess);
  CHECK(r.resType == cudaResourceTypeArray && r.res.array.array == a);
  cudaResourceViewDesc v;
  CHECK(cudaGetTextureObjectResourceViewDesc(&v, t) == cudaSuccess);
  CHECK(v.format == cudaResViewFormatNone);
  CHECK(cudaDestroyTextureObject(t) == cudaSuccess);
  CHECK(cudaGetTextureObjectTextureDesc(&back, t) == cudaErrorInvalidValue);
  /* A resource view reads back as given (mip_views.cu tests what views
   * do). */
  cudaResourceViewDesc view;
  std::memset(&view, 0, sizeof view);
  view.format = cudaResViewFormatFloat2;
  view.width = 8;
  view.height = 8;
  cudaResourceDesc res = array_resource(a);
  CHECK(cudaCreateTextureObject(&t, &res, &d, &view) == cudaSuccess);
  CHECK(cudaGetTextureObjectResourceViewDesc(&v, t) == cudaSuccess);
  CHECK(std::memcmp(&v, &view, sizeof v) == 0);
  CHECK(cudaDestroyTextureObject(t) == cudaSuccess);
  /* A freed array is no resource. */
  CHECK(cudaFreeArray(a) == cudaSuccess);
  CHECK(cudaCreateTextureObject(&t, &res, &d, nullptr) ==
        cudaErrorInvalidResourceHandle);
  cudaGetLastError();
}

int main() {
  descriptors();
  allocation_rules();
  copies_2d();
  copies_3d();
  descriptor_getters();
  return finish();
}

/*
 * tex_surfaces.cu: surface objects over 1D, 2D, 3D, layered, cubemap and
 * layered cubemap arrays: every surf*write and surf*read form (x is a byte
 * offset, as in CUDA), the data checked from the host; then the boundary
 * modes: zero (reads give 0, writes are dropped), clamp (the nearest
 * element) and trap, last, which must stop the launch with
 * cudaErrorIllegalAddress and a message naming the kernel, the thread and
 * the line of the access. A texture reads what a surface wrote in an
 * earlier launch.
 */
#include <cstdio>
#include <cstring>

#include "tex_common.cuh"

#if __has_include(<cuemu/cuemu.h>)
#include <cuemu/cuemu.h>
#define HAVE_CUEMU_MESSAGES 1
#endif

static cudaSurfaceObject_t make_surface(cudaArray_t a) {
  cudaResourceDesc r = array_resource(a);
  cudaSurfaceObject_t s = 0;
  CHECK(cudaCreateSurfaceObject(&s, &r) == cudaSuccess);
  return s;
}

/* Writes (x, y, x + y, 255) at each element, then reads it back through
 * the value form into out. */
__global__ void write_2d(cudaSurfaceObject_t s, int w, int h, uchar4 *out) {
  int x = threadIdx.x, y = threadIdx.y;
  if (x >= w || y >= h)
    return;
  surf2Dwrite(make_uchar4(x, y, x + y, 255), s, x * (int)sizeof(uchar4), y);
  __syncthreads();
  uchar4 v;
  surf2Dread(&v, s, x * (int)sizeof(uchar4), y);
  uchar4 u = surf2Dread<uchar4>(s, x * (int)sizeof(uchar4), y);
  out[y * w + x] = v.x == u.x && v.w == u.w ? v : make_uchar4(0, 0, 0, 0);
}

/* Each shape's write: value = 1000 * slice + 10 * y + x. */
__global__ void write_shapes(cudaSurfaceObject_t s1, cudaSurfaceObject_t s3,
                             cudaSurfaceObject_t s1l, cudaSurfaceObject_t s2l,
                             cudaSurfaceObject_t sc, cudaSurfaceObject_t scl) {
  int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
  int bx = x * (int)sizeof(float);
  float v = 1000.0f * z + 10.0f * y + x;
  if (y == 0 && z == 0)
    surf1Dwrite(v, s1, bx);
  if (z < 2)
    surf3Dwrite(v, s3, bx, y, z);
  if (y == 0 && z < 3)
    surf1DLayeredwrite(v, s1l, bx, z);
  if (z < 2)
    surf2DLayeredwrite(v, s2l, bx, y, z);
  surfCubemapwrite(v, sc, bx, y, z);
  surfCubemapLayeredwrite(v + 0.5f, scl, bx, y, z + 6);
}

/* Reads the shapes back through the read forms; out[k] per shape. */
__global__ void read_shapes(cudaSurfaceObject_t s1, cudaSurfaceObject_t s3,
                            cudaSurfaceObject_t s1l, cudaSurfaceObject_t s2l,
                            cudaSurfaceObject_t sc, cudaSurfaceObject_t scl,
                            float *out) {
  out[0] = surf1Dread<float>(s1, 1 * 4);
  out[1] = surf3Dread<float>(s3, 1 * 4, 1, 1);
  out[2] = surf1DLayeredread<float>(s1l, 0, 2);
  out[3] = surf2DLayeredread<float>(s2l, 1 * 4, 0, 1);
  out[4] = surfCubemapread<float>(sc, 0, 1, 5);
  float v;
  surfCubemapLayeredread(&v, scl, 1 * 4, 1, 6 + 3);
  out[5] = v;
}

/* The boundary modes: zero and clamp. */
__global__ void boundaries(cudaSurfaceObject_t s, float *out) {
  out[0] = surf2Dread<float>(s, -4, 0, cudaBoundaryModeZero);
  out[1] = surf2Dread<float>(s, 4 * 4, 1, cudaBoundaryModeZero);
  out[2] = surf2Dread<float>(s, 4, 100, cudaBoundaryModeClamp);
  out[3] = surf2Dread<float>(s, 400, -3, cudaBoundaryModeClamp);
  surf2Dwrite(-1.0f, s, 4 * 4, 0, cudaBoundaryModeZero); /* dropped */
  surf2Dwrite(-2.0f, s, -8, 1, cudaBoundaryModeClamp);   /* to (0, 1) */
}

__global__ void trap_kernel(cudaSurfaceObject_t s) {
  if (threadIdx.x == 5)
    surf2Dwrite(1.0f, s, 4 * 4, 0); /* one element past the row: traps */
}
#ifdef HAVE_CUEMU_MESSAGES
static const int trap_line = __LINE__ - 3;
#endif

/* z + w of a normalized-float read of a uchar4 texture. */
struct ReadZW {
  __device__ float operator()(cudaTextureObject_t t, const Probe &p) const {
    float4 v = tex2D<float4>(t, p.x, p.y);
    return v.z + v.w;
  }
};

static void two_d() {
  cudaChannelFormatDesc ud = cudaCreateChannelDesc<uchar4>();
  cudaArray_t a = nullptr;
  CHECK(cudaMallocArray(&a, &ud, 5, 3, cudaArraySurfaceLoadStore) ==
        cudaSuccess);
  cudaSurfaceObject_t s = make_surface(a);
  uchar4 *out = nullptr;
  CHECK(cudaMallocManaged(&out, 15 * sizeof(uchar4)) == cudaSuccess);
  write_2d<<<1, dim3(5, 3)>>>(s, 5, 3, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  uchar4 host[15];
  CHECK(cudaMemcpy2DFromArray(host, 5 * sizeof(uchar4), a, 0, 0,
                              5 * sizeof(uchar4), 3,
                              cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 5; ++x) {
      const uchar4 &v = host[y * 5 + x];
      CHECK(v.x == x && v.y == y && v.z == x + y && v.w == 255);
      CHECK(std::memcmp(&out[y * 5 + x], &v, sizeof v) == 0);
    }
  cudaResourceDesc back;
  CHECK(cudaGetSurfaceObjectResourceDesc(&back, s) == cudaSuccess);
  CHECK(back.resType == cudaResourceTypeArray && back.res.array.array == a);

  /* A texture over the same array reads what the surface wrote, as a
   * normalized float: 255 -> 1.0, x + y = 6 -> 6 / 255. */
  cudaTextureObject_t t = make_texture(
      a, tex_desc(cudaAddressModeClamp, cudaFilterModePoint,
                  cudaReadModeNormalizedFloat, 0));
  const Probe p[] = {{4.5f, 2.5f}};
  const float e[] = {6.0f / 255.0f + 1.0f};
  expect_floats<ReadZW>("texture of a surface's array", t, p, e, 1);
  CHECK(cudaDestroyTextureObject(t) == cudaSuccess);
  CHECK(cudaDestroySurfaceObject(s) == cudaSuccess);
  CHECK(cudaDestroySurfaceObject(s) == cudaErrorInvalidValue);
  cudaGetLastError();
  cudaFree(out);
  CHECK(cudaFreeArray(a) == cudaSuccess);

  /* An array without cudaArraySurfaceLoadStore takes no surface. */
  cudaArray_t plain = nullptr;
  CHECK(cudaMallocArray(&plain, &ud, 2, 2) == cudaSuccess);
  cudaResourceDesc r = array_resource(plain);
  cudaSurfaceObject_t bad = 0;
  CHECK(cudaCreateSurfaceObject(&bad, &r) == cudaErrorInvalidValue);
  cudaGetLastError();
  CHECK(cudaFreeArray(plain) == cudaSuccess);
}

static void shapes() {
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  const unsigned ls = cudaArraySurfaceLoadStore;
  cudaArray_t a1, a3, a1l, a2l, ac, acl;
  CHECK(cudaMallocArray(&a1, &fd, 2, 0, ls) == cudaSuccess);
  CHECK(cudaMalloc3DArray(&a3, &fd, make_cudaExtent(2, 2, 2), ls) ==
        cudaSuccess);
  CHECK(cudaMalloc3DArray(&a1l, &fd, make_cudaExtent(2, 0, 3),
                          ls | cudaArrayLayered) == cudaSuccess);
  CHECK(cudaMalloc3DArray(&a2l, &fd, make_cudaExtent(2, 2, 2),
                          ls | cudaArrayLayered) == cudaSuccess);
  CHECK(cudaMalloc3DArray(&ac, &fd, make_cudaExtent(2, 2, 6),
                          ls | cudaArrayCubemap) == cudaSuccess);
  CHECK(cudaMalloc3DArray(&acl, &fd, make_cudaExtent(2, 2, 12),
                          ls | cudaArrayCubemap | cudaArrayLayered) ==
        cudaSuccess);
  cudaSurfaceObject_t s1 = make_surface(a1), s3 = make_surface(a3),
                      s1l = make_surface(a1l), s2l = make_surface(a2l),
                      sc = make_surface(ac), scl = make_surface(acl);
  write_shapes<<<1, dim3(2, 2, 6)>>>(s1, s3, s1l, s2l, sc, scl);
  float *out = nullptr;
  CHECK(cudaMallocManaged(&out, 6 * sizeof(float)) == cudaSuccess);
  read_shapes<<<1, 1>>>(s1, s3, s1l, s2l, sc, scl, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(out[0] == 1.0f);    /* 1D x 1 */
  CHECK(out[1] == 1011.0f); /* 3D (1, 1, 1) */
  CHECK(out[2] == 2000.0f); /* layer 2, x 0 */
  CHECK(out[3] == 1001.0f); /* layer 1, (1, 0) */
  CHECK(out[4] == 5010.0f); /* face 5, (0, 1) */
  CHECK(out[5] == 3011.5f); /* layer 1 face 3, (1, 1) */
  /* The host sees the layered cubemap's second layer, face 2. */
  float host[12 * 4];
  cudaMemcpy3DParms cp;
  std::memset(&cp, 0, sizeof cp);
  cp.srcArray = acl;
  cp.dstPtr = make_cudaPitchedPtr(host, 2 * sizeof(float), 2, 2);
  cp.extent = make_cudaExtent(2, 2, 12);
  cp.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&cp) == cudaSuccess);
  CHECK(host[(6 + 2) * 4 + 3] == 2011.5f && host[0] == 0.0f);
  for (cudaSurfaceObject_t s : {s1, s3, s1l, s2l, sc, scl})
    CHECK(cudaDestroySurfaceObject(s) == cudaSuccess);
  for (cudaArray_t a : {a1, a3, a1l, a2l, ac, acl})
    CHECK(cudaFreeArray(a) == cudaSuccess);
  cudaFree(out);
}

static void boundary_modes() {
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a = nullptr;
  CHECK(cudaMallocArray(&a, &fd, 4, 2, cudaArraySurfaceLoadStore) ==
        cudaSuccess);
  const float v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  CHECK(cudaMemcpy2DToArray(a, 0, 0, v, 16, 16, 2, cudaMemcpyHostToDevice) ==
        cudaSuccess);
  cudaSurfaceObject_t s = make_surface(a);
  float *out = nullptr;
  CHECK(cudaMallocManaged(&out, 4 * sizeof(float)) == cudaSuccess);
  boundaries<<<1, 1>>>(s, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(out[0] == 0.0f && out[1] == 0.0f);
  CHECK(out[2] == 6.0f); /* (1, 100) clamps to (1, 1) */
  CHECK(out[3] == 4.0f); /* (400 bytes, -3) clamps to (3, 0) */
  float host[8];
  CHECK(cudaMemcpy2DFromArray(host, 16, a, 0, 0, 16, 2,
                              cudaMemcpyDeviceToHost) == cudaSuccess);
  const float expect[8] = {1, 2, 3, 4, -2, 6, 7, 8};
  CHECK(std::memcmp(host, expect, sizeof host) == 0);

  /* Trap: the launch stops with an illegal address, naming the place. */
  trap_kernel<<<1, 8>>>(s);
  CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
#ifdef HAVE_CUEMU_MESSAGES
  const char *m = cuemu_last_message();
  char line[64];
  std::snprintf(line, sizeof line, "tex_surfaces.cu:%d", trap_line);
  CHECK(std::strstr(m, "kernel trap_kernel") != nullptr);
  CHECK(std::strstr(m, "surf2Dwrite") != nullptr);
  CHECK(std::strstr(m, "thread (5,0,0)") != nullptr);
  CHECK(std::strstr(m, line) != nullptr);
  if (check_failures)
    std::fprintf(stderr, "message: %s\n", m);
#endif
}

__global__ void fetch_one(cudaTextureObject_t t, float *out) {
  *out = tex2D<float>(t, 0.5f, 0.5f);
}

/* After cudaDeviceReset (which frees every array and object), a fetch
 * through a destroyed texture object, and a 2D fetch of a texture over
 * linear memory, stop the launch with a message each. */
static void misuse_after_reset() {
  CHECK(cudaDeviceReset() == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a = nullptr;
  CHECK(cudaMallocArray(&a, &fd, 2, 2) == cudaSuccess);
  cudaTextureObject_t t = make_texture(
      a, tex_desc(cudaAddressModeClamp, cudaFilterModePoint,
                  cudaReadModeElementType, 0));
  CHECK(cudaDestroyTextureObject(t) == cudaSuccess);
  float *out = nullptr;
  CHECK(cudaMalloc(&out, 256 * sizeof(float)) == cudaSuccess);
  fetch_one<<<1, 1>>>(t, out);
  CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
#ifdef HAVE_CUEMU_MESSAGES
  CHECK(std::strstr(cuemu_last_message(), "not a live texture object") !=
        nullptr);
#endif
  CHECK(cudaDeviceReset() == cudaSuccess);
  CHECK(cudaMalloc(&out, 256 * sizeof(float)) == cudaSuccess);
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeLinear;
  r.res.linear.devPtr = out;
  r.res.linear.desc = fd;
  r.res.linear.sizeInBytes = 64 * sizeof(float);
  cudaTextureDesc d = tex_desc(cudaAddressModeClamp, cudaFilterModePoint,
                               cudaReadModeElementType, 0);
  CHECK(cudaCreateTextureObject(&t, &r, &d, nullptr) == cudaSuccess);
  fetch_one<<<1, 1>>>(t, out + 128);
  CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
#ifdef HAVE_CUEMU_MESSAGES
  CHECK(std::strstr(cuemu_last_message(),
                    "tex2D on a texture object over linear memory") !=
        nullptr);
#endif
  CHECK(cudaDeviceReset() == cudaSuccess);
}

int main() {
  two_d();
  shapes();
  boundary_modes(); /* its trap makes the error sticky until the reset */
  misuse_after_reset();
  return finish();
}

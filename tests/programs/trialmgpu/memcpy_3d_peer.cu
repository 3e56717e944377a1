// memcpy_3d_peer.cu: cudaMemcpy3DPeer, cudaMemcpy3DPeerAsync and the
// driver's cuMemcpy3DPeer copy a sub-box of a pitched 3-D volume on one
// device into a pitched volume on another (a 3-D halo exchange), and a
// pointer that is not the named device's memory is cudaErrorInvalidValue.
// cuemu had none of them (cudaMemcpy3DPeerParms did not exist, the
// program did not compile). Reduced from a multi-GPU stencil's halo copy.
// CUEMU_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    int e_ = (int)(call);                                                      \
    if (e_ != 0) {                                                             \
      printf("%s:%d: %s: error %d\n", __FILE__, __LINE__, #call, e_);          \
      return 1;                                                                \
    }                                                                          \
  } while (0)

enum { NX = 20, NY = 6, NZ = 5 };

// Element (x, y, z) of volume v of the source.
static float value(int x, int y, int z) { return x + 100.0f * y + 10000.0f * z; }

// Checks the box copied to (dx, dy, dz) of the destination from (sx, sy, sz)
// of the source, width w elements, h rows, d layers; 0 elsewhere.
static int check(const float *h, int sx, int sy, int sz, int dx, int dy,
                 int dz, int w, int hh, int d, const char *what) {
  int bad = 0;
  for (int z = 0; z < NZ; ++z)
    for (int y = 0; y < NY; ++y)
      for (int x = 0; x < NX; ++x) {
        int in = x >= dx && x < dx + w && y >= dy && y < dy + hh &&
                 z >= dz && z < dz + d;
        float want = in ? value(x - dx + sx, y - dy + sy, z - dz + sz) : 0;
        if (h[(z * NY + y) * NX + x] != want && bad++ < 3)
          printf("%s: (%d,%d,%d) = %g, want %g\n", what, x, y, z,
                 h[(z * NY + y) * NX + x], want);
      }
  return bad;
}

int main() {
  setenv("CUEMU_DEVICE", "count=2", 1); // before the first CUDA call
  cudaExtent bytes = make_cudaExtent(NX * sizeof(float), NY, NZ);
  cudaPitchedPtr src, dst;
  CHECK(cudaSetDevice(0));
  CHECK(cudaMalloc3D(&src, bytes));
  CHECK(cudaSetDevice(1));
  CHECK(cudaMalloc3D(&dst, bytes));
  CHECK(cudaMemset3D(dst, 0, bytes));
  float *h = (float *)malloc(sizeof(float) * NX * NY * NZ);
  for (int z = 0; z < NZ; ++z)
    for (int y = 0; y < NY; ++y)
      for (int x = 0; x < NX; ++x)
        h[(z * NY + y) * NX + x] = value(x, y, z);
  CHECK(cudaSetDevice(0));
  cudaMemcpy3DParms up = {};
  up.srcPtr = make_cudaPitchedPtr(h, NX * sizeof(float), NX, NY);
  up.dstPtr = src;
  up.extent = bytes;
  up.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&up));

  // The blocking form: a box of 7 x 3 x 2 from (2,1,1) to (10,2,3).
  cudaMemcpy3DPeerParms p = {};
  p.srcPtr = src;
  p.srcDevice = 0;
  p.srcPos = make_cudaPos(2 * sizeof(float), 1, 1);
  p.dstPtr = dst;
  p.dstDevice = 1;
  p.dstPos = make_cudaPos(10 * sizeof(float), 2, 3);
  p.extent = make_cudaExtent(7 * sizeof(float), 3, 2);
  CHECK(cudaMemcpy3DPeer(&p));
  cudaMemcpy3DParms down = {};
  down.srcPtr = dst;
  down.dstPtr = make_cudaPitchedPtr(h, NX * sizeof(float), NX, NY);
  down.extent = bytes;
  down.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&down));
  int bad = check(h, 2, 1, 1, 10, 2, 3, 7, 3, 2, "cudaMemcpy3DPeer");

  // The stream-ordered form: a whole z-layer (a halo plane).
  CHECK(cudaSetDevice(1));
  CHECK(cudaMemset3D(dst, 0, bytes));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  p.srcPos = make_cudaPos(0, 0, 4);
  p.dstPos = make_cudaPos(0, 0, 0);
  p.extent = make_cudaExtent(NX * sizeof(float), NY, 1);
  CHECK(cudaMemcpy3DPeerAsync(&p, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemcpy3D(&down));
  bad += check(h, 0, 0, 4, 0, 0, 0, NX, NY, 1, "cudaMemcpy3DPeerAsync");

  // A side whose pointer is the other device's memory.
  p.dstDevice = 0;
  if (cudaMemcpy3DPeer(&p) != cudaErrorInvalidValue) {
    printf("a destination on device 1 named as device 0 was accepted\n");
    bad++;
  }
  cudaGetLastError();

  // The driver's form, with each side's context.
  CHECK(cuInit(0));
  CUcontext c0, c1;
  CUdevice d0, d1;
  CHECK(cuDeviceGet(&d0, 0));
  CHECK(cuDeviceGet(&d1, 1));
  CHECK(cuDevicePrimaryCtxRetain(&c0, d0));
  CHECK(cuDevicePrimaryCtxRetain(&c1, d1));
  CHECK(cuCtxSetCurrent(c1));
  CHECK(cudaMemset3D(dst, 0, bytes));
  CUDA_MEMCPY3D_PEER q;
  memset(&q, 0, sizeof q);
  q.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  q.srcDevice = (CUdeviceptr)src.ptr;
  q.srcPitch = src.pitch;
  q.srcHeight = NY;
  q.srcContext = c0;
  q.srcXInBytes = 1 * sizeof(float);
  q.srcY = 2;
  q.srcZ = 0;
  q.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  q.dstDevice = (CUdeviceptr)dst.ptr;
  q.dstPitch = dst.pitch;
  q.dstHeight = NY;
  q.dstContext = c1;
  q.dstXInBytes = 0;
  q.dstY = 0;
  q.dstZ = 2;
  q.WidthInBytes = 5 * sizeof(float);
  q.Height = 4;
  q.Depth = 3;
  CHECK(cuMemcpy3DPeer(&q));
  CHECK(cudaMemcpy3D(&down));
  bad += check(h, 1, 2, 0, 0, 0, 2, 5, 4, 3, "cuMemcpy3DPeer");
  CHECK(cuDevicePrimaryCtxRelease(d0));
  CHECK(cuDevicePrimaryCtxRelease(d1));
  puts(bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}

// nvrtc_intrinsics.cu: an NVRTC program whose kernels use device printf,
// atomics (a compare-and-swap loop on a double), inline PTX, warp votes
// and shuffles, clock64 and assert, loaded through the driver API.
// CUEMU_OPTIONS: -lcuda -lnvrtc
// NVCC_OPTIONS: -lcuda -lnvrtc
// NVRTC kernels with device printf, atomics, inline PTX, warp vote and
// shuffle intrinsics and clock64, then a device assert that makes the
// context's error sticky (CUDA_ERROR_ASSERT).
#include "drv_helpers.h"
#include "nvrtc_helper.h"
#include <cmath>
#include <cstring>
#include <algorithm>

static const char *src = R"(
extern "C" __global__ void warp_stats(const int *in, unsigned *ballots, int *votes, int *lanes,
                                      float *fsum, double *dmax, long long *ticks, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  unsigned b = __ballot_sync(0xffffffffu, v > 50);
  int anyNeg = __any_sync(0xffffffffu, v < 0);
  int allPos = __all_sync(0xffffffffu, v >= 0);
  int warpSum = v;
  for (int off = 16; off > 0; off >>= 1) warpSum += __shfl_xor_sync(0xffffffffu, warpSum, off);
  int doubled;
  asm volatile("add.s32 %0, %1, %1;" : "=r"(doubled) : "r"(v));
  long long t0 = clock64();
  atomicAdd(fsum, (float)v * 0.5f);
  // A double max with a compare-and-swap loop.
  unsigned long long *addr = (unsigned long long *)dmax;
  unsigned long long old = *addr, assumed;
  do {
    assumed = old;
    double cur = __longlong_as_double((long long)assumed);
    if (cur >= (double)doubled) break;
    old = atomicCAS(addr, assumed, (unsigned long long)__double_as_longlong((double)doubled));
  } while (assumed != old);
  long long t1 = clock64();
  if (lane == 0) {
    ballots[i / 32] = b;
    votes[2 * (i / 32)] = anyNeg;
    votes[2 * (i / 32) + 1] = allPos * 1000 + warpSum % 1000;
    atomicMax((unsigned long long *)ticks, (unsigned long long)(t1 - t0));
  }
  lanes[i] = (int)lane + __popc(b) * 100;
  if (i == 0) printf("warp_stats: %d threads, first ballot %08x, sum of warp 0 %d\n", n, b, warpSum);
}
extern "C" __global__ void checked_div(const int *a, int *q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    assert(a[i] != 0 && "divisor must not be zero");
    q[i] = 1000 / a[i];
  }
}
)";

int main(int argc, char **argv) {
  CUdevice dev = findCudaDeviceDRV(argc, argv);
  CUcontext ctx;
  checkCudaErrors(cuCtxCreate(&ctx, NULL, 0, dev));
  checkCudaErrors(cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 1 << 20));
  size_t fifo = 0;
  checkCudaErrors(cuCtxGetLimit(&fifo, CU_LIMIT_PRINTF_FIFO_SIZE));
  nvrtcProgram prog;
  NVRTC_SAFE_CALL(nvrtcCreateProgram(&prog, src, "intrinsics.cu", 0, NULL, NULL));
  const char *opts[] = {"--gpu-architecture=sm_90", "-std=c++14", "-G"};
  nvrtcResult cr = nvrtcCompileProgram(prog, 3, opts);
  std::string log = program_log(prog);
  if (cr != NVRTC_SUCCESS) { printf("%s\n", log.c_str()); return 1; }
  size_t sz;
  NVRTC_SAFE_CALL(nvrtcGetCUBINSize(prog, &sz));
  std::vector<char> cubin(sz);
  NVRTC_SAFE_CALL(nvrtcGetCUBIN(prog, cubin.data()));
  NVRTC_SAFE_CALL(nvrtcDestroyProgram(&prog));
  CUmodule mod;
  checkCudaErrors(cuModuleLoadData(&mod, cubin.data()));
  CUfunction stats, div;
  checkCudaErrors(cuModuleGetFunction(&stats, mod, "warp_stats"));
  checkCudaErrors(cuModuleGetFunction(&div, mod, "checked_div"));

  const int n = 256;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 37) % 101;
  CUdeviceptr d_in, d_ballots, d_votes, d_lanes, d_fsum, d_dmax, d_ticks;
  checkCudaErrors(cuMemAlloc(&d_in, n * 4));
  checkCudaErrors(cuMemAlloc(&d_ballots, n / 32 * 4));
  checkCudaErrors(cuMemAlloc(&d_votes, n / 32 * 8));
  checkCudaErrors(cuMemAlloc(&d_lanes, n * 4));
  checkCudaErrors(cuMemAlloc(&d_fsum, 4));
  checkCudaErrors(cuMemAlloc(&d_dmax, 8));
  checkCudaErrors(cuMemAlloc(&d_ticks, 8));
  checkCudaErrors(cuMemcpyHtoD(d_in, in.data(), n * 4));
  checkCudaErrors(cuMemsetD32(d_fsum, 0, 1));
  double lowest = -1.0;
  checkCudaErrors(cuMemcpyHtoD(d_dmax, &lowest, 8));
  checkCudaErrors(cuMemsetD32(d_ticks, 0, 2));
  int nn = n;
  void *args[] = {&d_in, &d_ballots, &d_votes, &d_lanes, &d_fsum, &d_dmax, &d_ticks, &nn};
  checkCudaErrors(cuLaunchKernel(stats, n / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL));
  checkCudaErrors(cuCtxSynchronize());
  fflush(stdout);
  std::vector<unsigned> ballots(n / 32);
  std::vector<int> votes(n / 16), lanes(n);
  float fsum; double dmax; long long ticks;
  checkCudaErrors(cuMemcpyDtoH(ballots.data(), d_ballots, n / 32 * 4));
  checkCudaErrors(cuMemcpyDtoH(votes.data(), d_votes, n / 32 * 8));
  checkCudaErrors(cuMemcpyDtoH(lanes.data(), d_lanes, n * 4));
  checkCudaErrors(cuMemcpyDtoH(&fsum, d_fsum, 4));
  checkCudaErrors(cuMemcpyDtoH(&dmax, d_dmax, 8));
  checkCudaErrors(cuMemcpyDtoH(&ticks, d_ticks, 8));
  bool ok = true;
  double refsum = 0; int refmax = 0;
  for (int w = 0; w < n / 32; ++w) {
    unsigned b = 0; int s = 0;
    for (int l = 0; l < 32; ++l) { int v = in[w * 32 + l]; if (v > 50) b |= 1u << l; s += v; }
    if (ballots[w] != b) { printf("ballot %d: %08x vs %08x\n", w, ballots[w], b); ok = false; }
    if (votes[2 * w] != 0 || votes[2 * w + 1] != 1000 + s % 1000) { printf("votes %d wrong\n", w); ok = false; }
    for (int l = 0; l < 32; ++l)
      if (lanes[w * 32 + l] != l + __builtin_popcount(b) * 100) { printf("lane %d wrong\n", w * 32 + l); ok = false; break; }
  }
  for (int i = 0; i < n; ++i) { refsum += in[i] * 0.5; refmax = std::max(refmax, 2 * in[i]); }
  if (fabs(fsum - refsum) > 1e-3 || dmax != refmax) { printf("atomics %f/%f %f/%d\n", fsum, refsum, dmax, refmax); ok = false; }
  printf("fifo %zu, max ticks in a CAS loop %lld\n", fifo, ticks);
  if (ticks <= 0) ok = false;

  // The assert: the launch returns success, the synchronisation the sticky error.
  std::vector<int> a(n, 5);
  a[77] = 0;
  CUdeviceptr d_a, d_q;
  checkCudaErrors(cuMemAlloc(&d_a, n * 4));
  checkCudaErrors(cuMemAlloc(&d_q, n * 4));
  checkCudaErrors(cuMemcpyHtoD(d_a, a.data(), n * 4));
  void *dargs[] = {&d_a, &d_q, &nn};
  CUresult lr = cuLaunchKernel(div, n / 128, 1, 1, 128, 1, 1, 0, NULL, dargs, NULL);
  CUresult sr = cuCtxSynchronize();
  const char *name = "";
  cuGetErrorName(sr, &name);
  printf("assert: launch %d, synchronize %s\n", (int)lr, name);
  if (lr != CUDA_SUCCESS || sr != CUDA_ERROR_ASSERT) ok = false;
  // Sticky: later calls in the context fail too.
  CUdeviceptr more;
  CUresult after = cuMemAlloc(&more, 16);
  printf("allocation after the assert: %d\n", (int)after);
  if (after != CUDA_ERROR_ASSERT) ok = false;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

// vector_add_drv.cpp: a driver-API vector add: loads the device code from a .fatbin, .cubin or .ptx
// file built by the Makefile, and launches it in both parameter styles.
#include "drv_helpers.h"
#include <cstring>
#include <cmath>
#include <vector>
#include <string>
#include <fstream>
#include <sstream>

static bool run_with(const char *path, bool from_memory) {
  CUmodule module;
  if (from_memory) {
    std::ifstream in(path, std::ios::binary);
    if (!in) { fprintf(stderr, "cannot open %s\n", path); return false; }
    std::stringstream ss; ss << in.rdbuf();
    std::string img = ss.str();
    checkCudaErrors(cuModuleLoadData(&module, img.c_str()));
  } else {
    checkCudaErrors(cuModuleLoad(&module, path));
  }
  CUfunction vadd, vaddd, vbias;
  checkCudaErrors(cuModuleGetFunction(&vadd, module, "VecAdd_kernel"));
  checkCudaErrors(cuModuleGetFunction(&vaddd, module, "VecAddScaled_double"));
  checkCudaErrors(cuModuleGetFunction(&vbias, module, "VecBias"));

  const int N = 50000;
  size_t size = N * sizeof(float);
  std::vector<float> h_A(N), h_B(N), h_C(N);
  for (int i = 0; i < N; ++i) { h_A[i] = rand() / (float)RAND_MAX; h_B[i] = rand() / (float)RAND_MAX; }
  CUdeviceptr d_A, d_B, d_C;
  checkCudaErrors(cuMemAlloc(&d_A, size));
  checkCudaErrors(cuMemAlloc(&d_B, size));
  checkCudaErrors(cuMemAlloc(&d_C, size));
  checkCudaErrors(cuMemcpyHtoD(d_A, h_A.data(), size));
  checkCudaErrors(cuMemcpyHtoD(d_B, h_B.data(), size));

  int threadsPerBlock = 256;
  int blocksPerGrid = (N + threadsPerBlock - 1) / threadsPerBlock;
  int n = N;
  void *args[] = {&d_A, &d_B, &d_C, &n};
  checkCudaErrors(cuLaunchKernel(vadd, blocksPerGrid, 1, 1, threadsPerBlock, 1, 1, 0, 0, args, NULL));
  checkCudaErrors(cuCtxSynchronize());
  checkCudaErrors(cuMemcpyDtoH(h_C.data(), d_C, size));
  bool ok = true;
  for (int i = 0; i < N; ++i)
    if (fabsf(h_A[i] + h_B[i] - h_C[i]) > 1e-5f) { ok = false; printf("mismatch %d\n", i); break; }

  // The second style: a packed argument buffer, aligned by hand.
  CUdeviceptr dd_A, dd_B, dd_C;
  std::vector<double> hd_A(N), hd_B(N), hd_C(N);
  for (int i = 0; i < N; ++i) { hd_A[i] = i; hd_B[i] = 2 * i; }
  checkCudaErrors(cuMemAlloc(&dd_A, N * sizeof(double)));
  checkCudaErrors(cuMemAlloc(&dd_B, N * sizeof(double)));
  checkCudaErrors(cuMemAlloc(&dd_C, N * sizeof(double)));
  checkCudaErrors(cuMemcpyHtoD(dd_A, hd_A.data(), N * sizeof(double)));
  checkCudaErrors(cuMemcpyHtoD(dd_B, hd_B.data(), N * sizeof(double)));
  char argBuffer[256];
  size_t offset = 0;
#define ALIGN_UP(off, al) (off) = ((off) + (al)-1) & ~((al)-1)
  ALIGN_UP(offset, __alignof(dd_A)); memcpy(argBuffer + offset, &dd_A, sizeof dd_A); offset += sizeof dd_A;
  ALIGN_UP(offset, __alignof(dd_B)); memcpy(argBuffer + offset, &dd_B, sizeof dd_B); offset += sizeof dd_B;
  ALIGN_UP(offset, __alignof(dd_C)); memcpy(argBuffer + offset, &dd_C, sizeof dd_C); offset += sizeof dd_C;
  ALIGN_UP(offset, __alignof(n)); memcpy(argBuffer + offset, &n, sizeof n); offset += sizeof n;
  double s = 0.5;
  ALIGN_UP(offset, __alignof(s)); memcpy(argBuffer + offset, &s, sizeof s); offset += sizeof s;
  void *config[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, argBuffer, CU_LAUNCH_PARAM_BUFFER_SIZE, &offset,
                    CU_LAUNCH_PARAM_END};
  CUstream stream;
  checkCudaErrors(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  checkCudaErrors(cuLaunchKernel(vaddd, blocksPerGrid, 1, 1, threadsPerBlock, 1, 1, 0, stream, NULL, config));
  checkCudaErrors(cuMemcpyDtoHAsync(hd_C.data(), dd_C, N * sizeof(double), stream));
  checkCudaErrors(cuStreamSynchronize(stream));
  for (int i = 0; i < N; ++i)
    if (hd_C[i] != 1.5 * i) { ok = false; printf("double mismatch %d: %f\n", i, hd_C[i]); break; }

  // Globals: a __constant__ bias and a __device__ counter.
  CUdeviceptr d_bias, d_count; size_t bsz, csz;
  checkCudaErrors(cuModuleGetGlobal(&d_bias, &bsz, module, "c_bias"));
  checkCudaErrors(cuModuleGetGlobal(&d_count, &csz, module, "d_launch_count"));
  if (bsz != 4 * sizeof(float) || csz != sizeof(int)) { printf("global sizes %zu %zu\n", bsz, csz); ok = false; }
  float bias[4] = {1, 2, 3, 4};
  checkCudaErrors(cuMemcpyHtoD(d_bias, bias, sizeof bias));
  checkCudaErrors(cuMemsetD32(d_count, 0, 1));
  void *bargs[] = {&d_C, &n};
  for (int k = 0; k < 3; ++k)
    checkCudaErrors(cuLaunchKernel(vbias, blocksPerGrid, 1, 1, threadsPerBlock, 1, 1, 0, stream, bargs, NULL));
  int count = 0;
  std::vector<float> h_C2(N);
  checkCudaErrors(cuStreamSynchronize(stream));
  checkCudaErrors(cuMemcpyDtoH(&count, d_count, sizeof count));
  checkCudaErrors(cuMemcpyDtoH(h_C2.data(), d_C, size));
  if (count != 3) { printf("count %d\n", count); ok = false; }
  for (int i = 0; i < N; ++i)
    if (fabsf(h_C[i] + 3 * bias[i % 4] - h_C2[i]) > 1e-4f) { ok = false; printf("bias mismatch %d\n", i); break; }

  int nregs = -1, maxthreads = -1;
  checkCudaErrors(cuFuncGetAttribute(&nregs, CU_FUNC_ATTRIBUTE_NUM_REGS, vadd));
  checkCudaErrors(cuFuncGetAttribute(&maxthreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, vadd));
  printf("  %s (%s): regs %d, max threads %d\n", path, from_memory ? "memory" : "file", nregs, maxthreads);
  if (maxthreads < 256) ok = false;

  checkCudaErrors(cuStreamDestroy(stream));
  cuMemFree(d_A); cuMemFree(d_B); cuMemFree(d_C);
  cuMemFree(dd_A); cuMemFree(dd_B); cuMemFree(dd_C);
  checkCudaErrors(cuModuleUnload(module));
  return ok;
}

int main(int argc, char **argv) {
  CUdevice dev = findCudaDeviceDRV(argc, argv);
  CUcontext ctx;
  CUctxCreateParams params = {};
  checkCudaErrors(cuCtxCreate(&ctx, &params, 0, dev));
  bool ok = true;
  const char *files[] = {"vector_add_kernels.fatbin", "vector_add_kernels.cubin", "vector_add_kernels.ptx"};
  for (const char *f : files) {
    ok = run_with(f, false) && ok;
    ok = run_with(f, true) && ok;
  }
  checkCudaErrors(cuCtxDestroy(ctx));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

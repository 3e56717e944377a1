// nvrtc_heap.cu: kernels compiled at run time with NVRTC and loaded with
// cuModuleLoadData allocate from the device heap (malloc, free, new[] and
// delete[] in kernel code), sized by cudaLimitMallocHeapSize as a whole
// program's: with a 1 MiB heap, only some of 64 threads get 64 KiB each
// and the others get NULL (malloc and new alike); the memory stays
// allocated across launches until freed, is then allocated again; and the
// heap's size is fixed once a module's kernel used it.
// CUEMU_OPTIONS: -lnvrtc -lcuda
// NVCC_OPTIONS: -lnvrtc -lcuda
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>

#include <string>
#include <vector>

#include "../check.cuh"

#define NVRTC(call) CHECK((call) == NVRTC_SUCCESS)
#define CU(call) CHECK((call) == CUDA_SUCCESS)

static const char *source = R"(
extern "C" __global__ void grab(int **slots, unsigned long long bytes,
                                int use_new) {
  int t = threadIdx.x;
  int *p = use_new ? new int[bytes / sizeof(int)]
                   : static_cast<int *>(malloc(bytes));
  if (p) {
    p[0] = t;
    p[bytes / sizeof(int) - 1] = 1000 + t;
  }
  slots[t] = p;
}
extern "C" __global__ void release(int **slots, int *sums, int use_new) {
  int t = threadIdx.x;
  int *p = slots[t];
  sums[t] = p ? p[0] + p[65536 / sizeof(int) - 1] : -1;
  if (use_new)
    delete[] p;
  else
    free(p);
}
)";

int main() {
  CU(cuInit(0));
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20) == cudaSuccess);
  CHECK(cudaFree(0) == cudaSuccess);

  nvrtcProgram prog;
  NVRTC(nvrtcCreateProgram(&prog, source, "heap.cu", 0, nullptr, nullptr));
  const char *opts[] = {"--gpu-architecture=compute_90"};
  NVRTC(nvrtcCompileProgram(prog, 1, opts));
  size_t size = 0;
  NVRTC(nvrtcGetPTXSize(prog, &size));
  std::string image(size, '\0');
  NVRTC(nvrtcGetPTX(prog, &image[0]));
  NVRTC(nvrtcDestroyProgram(&prog));

  CUmodule mod;
  CUfunction grab, release;
  CU(cuModuleLoadData(&mod, image.c_str()));
  CU(cuModuleGetFunction(&grab, mod, "grab"));
  CU(cuModuleGetFunction(&release, mod, "release"));

  const int n = 64;
  int **slots;
  int *sums;
  CHECK(cudaMallocManaged(&slots, n * sizeof(int *)) == cudaSuccess);
  CHECK(cudaMallocManaged(&sums, n * sizeof(int)) == cudaSuccess);
  for (int use_new = 0; use_new < 2; ++use_new) {
    for (int round = 0; round < 2; ++round) {
      unsigned long long bytes = 65536;
      void *grab_args[] = {&slots, &bytes, &use_new};
      CU(cuLaunchKernel(grab, 1, 1, 1, n, 1, 1, 0, nullptr, grab_args,
                        nullptr));
      CU(cuCtxSynchronize());
      int got = 0;
      for (int t = 0; t < n; ++t)
        got += slots[t] != nullptr;
      /* 1 MiB holds fewer than 16 blocks of 64 KiB with the heap's
       * bookkeeping, and at least one. */
      CHECK(got >= 1 && got < 16);
      void *release_args[] = {&slots, &sums, &use_new};
      CU(cuLaunchKernel(release, 1, 1, 1, n, 1, 1, 0, nullptr, release_args,
                        nullptr));
      CU(cuCtxSynchronize());
      for (int t = 0; t < n; ++t)
        CHECK(sums[t] == (slots[t] ? 1000 + 2 * t : -1));
    }
  }
  /* The heap is in use: its size cannot change any more. */
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 2 << 20) ==
        cudaErrorInvalidValue);
  CU(cuModuleUnload(mod));
  return finish();
}

// launch.cpp: host C++ compiled by the host compiler against CUDA's own
// headers with CUDA_API_PER_THREAD_DEFAULT_STREAM, so that its calls are
// libcudart's per-thread spellings (cudaLaunchKernel_ptsz,
// cudaLaunchKernelExC_ptsz, cudaGraphInstantiateWithParams_ptsz ...). It
// launches kernels.cu's kernel by its address, with dim3 passed by value,
// and checks that stream 0 means the per-thread default stream everywhere
// it does in CUDA, also inside a launch configuration: a launch on stream 0
// while that stream captures becomes a node of the graph. Prints PASS.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#include "kernels.h"

static int failures;

static void check(bool ok, const char *what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what);
    ++failures;
  }
}

enum { N = 192 };

// Whether data holds, for each i, times * (amount + i).
static bool holds(const int *device, int times, int amount) {
  int host[N];
  if (cudaMemcpy(host, device, sizeof host, cudaMemcpyDeviceToHost) !=
      cudaSuccess)
    return false;
  for (int i = 0; i < N; ++i)
    if (host[i] != times * (amount + i)) {
      std::printf("data[%d] = %d, expected %d\n", i, host[i],
                  times * (amount + i));
      return false;
    }
  return true;
}

int main() {
  int *data = nullptr;
  check(cudaMalloc(&data, N * sizeof(int)) == cudaSuccess, "cudaMalloc");
  check(cudaMemset(data, 0, N * sizeof(int)) == cudaSuccess, "cudaMemset");
  int amount = 5;
  void *args[] = {&data, &amount};
  const void *kernel = add_index_kernel();

  // cudaLaunchKernel: the grid and block travel by value.
  check(cudaLaunchKernel(kernel, dim3(3), dim3(64), args, 0, 0) ==
            cudaSuccess,
        "cudaLaunchKernel");
  check(cudaStreamSynchronize(0) == cudaSuccess, "cudaStreamSynchronize");
  check(holds(data, 1, amount), "cudaLaunchKernel's results");

  // cudaLaunchKernelExC with stream 0 in its configuration.
  cudaLaunchConfig_t config;
  std::memset(&config, 0, sizeof config);
  config.gridDim = dim3(N / 32);
  config.blockDim = dim3(32);
  config.stream = 0;
  check(cudaLaunchKernelExC(&config, kernel, args) == cudaSuccess,
        "cudaLaunchKernelExC");
  check(cudaStreamSynchronize(0) == cudaSuccess, "cudaStreamSynchronize");
  check(holds(data, 2, amount), "cudaLaunchKernelExC's results");

  // The same launch while stream 0 (the per-thread stream) captures: it
  // is captured, not run (legacy stream 0 would refuse to depend on the
  // capturing stream, or run the kernel at once).
  cudaGraph_t graph = nullptr;
  check(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal) ==
            cudaSuccess,
        "cudaStreamBeginCapture");
  check(cudaLaunchKernelExC(&config, kernel, args) == cudaSuccess,
        "cudaLaunchKernelExC while stream 0 captures");
  check(cudaLaunchKernel(kernel, dim3(3), dim3(64), args, 0, 0) ==
            cudaSuccess,
        "cudaLaunchKernel while stream 0 captures");
  check(cudaStreamEndCapture(0, &graph) == cudaSuccess && graph,
        "cudaStreamEndCapture");
  size_t nodes = 0;
  check(graph && cudaGraphGetNodes(graph, nullptr, &nodes) == cudaSuccess &&
            nodes == 2,
        "the captured graph has both launches");
  check(holds(data, 2, amount), "nothing ran during the capture");

  // Instantiated with an upload on stream 0, launched on stream 0.
  cudaGraphExec_t exec = nullptr;
  cudaGraphInstantiateParams params;
  std::memset(&params, 0, sizeof params);
  params.flags = cudaGraphInstantiateFlagUpload;
  params.uploadStream = 0;
  params.result_out = cudaGraphInstantiateError;
  check(graph && cudaGraphInstantiateWithParams(&exec, graph, &params) ==
                     cudaSuccess,
        "cudaGraphInstantiateWithParams");
  check(params.result_out == cudaGraphInstantiateSuccess,
        "cudaGraphInstantiateWithParams' result_out");
  check(exec && cudaGraphLaunch(exec, 0) == cudaSuccess, "cudaGraphLaunch");
  check(cudaStreamSynchronize(0) == cudaSuccess, "cudaStreamSynchronize");
  check(holds(data, 4, amount), "the graph's results");

  if (exec)
    cudaGraphExecDestroy(exec);
  if (graph)
    cudaGraphDestroy(graph);
  check(cudaFree(data) == cudaSuccess, "cudaFree");
  if (failures)
    return 1;
  std::printf("PASS\n");
  return 0;
}

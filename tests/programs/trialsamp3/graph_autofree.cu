// graph_autofree.cu: graph memory nodes as a framework's step graph uses
// them: a scratch buffer allocated by a captured cudaMallocAsync and left
// unfreed in the graph, so that the caller frees it after reading it. The
// executable graph made with cudaGraphInstantiateFlagAutoFreeOnLaunch is
// relaunched before that free (CUDA frees the previous launch's memory
// first); one made without the flag refuses the relaunch with
// cudaErrorInvalidValue until the memory is freed.
#include <vector>
#include "samp_check.h"

__global__ void fillSquares(int *out, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = base + i * i;
}

__global__ void prefixAdd(int *data, const int *add, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += add[i];
}

static bool check(const std::vector<int> &h, int base, int n, const char *what) {
  for (int i = 0; i < n; ++i)
    if (h[i] != 2 * (base + i * i)) {
      printf("%s: element %d is %d, expected %d\n", what, i, h[i], 2 * (base + i * i));
      return false;
    }
  return true;
}

int main() {
  const int n = 1000;
  checkCudaErrors(cudaSetDevice(0));
  cudaStream_t s;
  checkCudaErrors(cudaStreamCreate(&s));

  // Capture: allocate, fill, double in place; the allocation outlives the
  // graph's launch. The base is read from a device variable set per launch.
  int *scratch = nullptr;
  checkCudaErrors(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  checkCudaErrors(cudaMallocAsync(&scratch, n * sizeof(int), s));
  fillSquares<<<(n + 127) / 128, 128, 0, s>>>(scratch, n, 7);
  prefixAdd<<<(n + 127) / 128, 128, 0, s>>>(scratch, scratch, n);
  cudaGraph_t g;
  checkCudaErrors(cudaStreamEndCapture(s, &g));

  // The allocation node tells where the memory lives.
  size_t count = 0;
  checkCudaErrors(cudaGraphGetRootNodes(g, nullptr, &count));
  std::vector<cudaGraphNode_t> roots(count);
  checkCudaErrors(cudaGraphGetRootNodes(g, roots.data(), &count));
  cudaGraphNodeType type;
  checkCudaErrors(cudaGraphNodeGetType(roots[0], &type));
  bool ok = count == 1 && type == cudaGraphNodeTypeMemAlloc;
  cudaMemAllocNodeParams ap;
  checkCudaErrors(cudaGraphMemAllocNodeGetParams(roots[0], &ap));
  ok = ok && ap.dptr == scratch && ap.bytesize >= n * sizeof(int) &&
       ap.poolProps.location.type == cudaMemLocationTypeDevice &&
       ap.poolProps.location.id == 0;
  if (!ok) printf("unexpected allocation node\n");

  std::vector<int> h(n);
  cudaGraphExec_t autoExec, plainExec;
  checkCudaErrors(cudaGraphInstantiateWithFlags(
      &autoExec, g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
  for (int launch = 0; launch < 3; ++launch) {
    checkCudaErrors(cudaGraphLaunch(autoExec, s));
    checkCudaErrors(cudaMemcpyAsync(h.data(), scratch, n * sizeof(int),
                                    cudaMemcpyDeviceToHost, s));
    checkCudaErrors(cudaStreamSynchronize(s));
    ok = check(h, 7, n, "auto-free launch") && ok;
  }
  checkCudaErrors(cudaFreeAsync(scratch, s));
  checkCudaErrors(cudaStreamSynchronize(s));
  size_t used = 0, high = 0;
  checkCudaErrors(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
  checkCudaErrors(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &high));
  printf("graph memory after free: used %zu, high %zu\n", used, high);
  ok = ok && high >= n * sizeof(int);
  checkCudaErrors(cudaGraphExecDestroy(autoExec));

  // Without the flag: a second launch before the free is refused.
  checkCudaErrors(cudaGraphInstantiate(&plainExec, g, 0));
  checkCudaErrors(cudaGraphLaunch(plainExec, s));
  checkCudaErrors(cudaStreamSynchronize(s));
  expectCuda(cudaGraphLaunch(plainExec, s), cudaErrorInvalidValue);
  checkCudaErrors(cudaMemcpy(h.data(), scratch, n * sizeof(int), cudaMemcpyDeviceToHost));
  ok = check(h, 7, n, "plain launch") && ok;
  checkCudaErrors(cudaFree(scratch));  // a synchronous free of graph memory
  checkCudaErrors(cudaGraphLaunch(plainExec, s));
  checkCudaErrors(cudaMemcpyAsync(h.data(), scratch, n * sizeof(int),
                                  cudaMemcpyDeviceToHost, s));
  checkCudaErrors(cudaFreeAsync(scratch, s));
  checkCudaErrors(cudaStreamSynchronize(s));
  ok = check(h, 7, n, "relaunch after free") && ok;
  // A reset high mark starts again from the memory in use now (the
  // executable graph still holds its allocation's memory).
  checkCudaErrors(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
  size_t zero = 0;
  checkCudaErrors(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));
  checkCudaErrors(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &high));
  printf("high after reset: %zu\n", high);
  ok = ok && high == used;

  checkCudaErrors(cudaGraphExecDestroy(plainExec));
  checkCudaErrors(cudaDeviceGraphMemTrim(0));
  checkCudaErrors(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &used));
  printf("reserved after trim: %zu\n", used);
  ok = ok && used == 0;
  checkCudaErrors(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
  printf("used after trim: %zu\n", used);
  checkCudaErrors(cudaGraphDestroy(g));
  checkCudaErrors(cudaStreamDestroy(s));
  return samp_result(ok, "graphAutoFree");
}

/* curand_destroyed.cu: a generation captured into a graph, the generator
 * destroyed, the graph launched again. On a GPU the launch reads the
 * generator's freed state; cuemu faults, sticky, with a message naming
 * curandGenerateUniform, instead of reading freed host memory. The
 * launches before curandDestroyGenerator are checked to run.
 * CUEMU_OPTIONS: -lcurand */
#include <curand.h>

#include "check_libs.h"

int main() {
  const int n = 64;
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreate(&s));
  curandGenerator_t g;
  EXPECT_STATUS(curandCreateGenerator(&g, CURAND_RNG_PSEUDO_XORWOW),
                CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandSetStream(g, s), CURAND_STATUS_SUCCESS);
  float *d, first[n], second[n];
  CHECK_CUDA(cudaMalloc(&d, n * sizeof(float)));
  EXPECT_STATUS(curandGenerateUniform(g, d, n), CURAND_STATUS_SUCCESS);
  CHECK_CUDA(cudaStreamSynchronize(s));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  EXPECT_STATUS(curandGenerateUniform(g, d, n), CURAND_STATUS_SUCCESS);
  CHECK_CUDA(cudaStreamEndCapture(s, &graph));
  CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  CHECK_CUDA(cudaGraphDestroy(graph));
  CHECK_CUDA(cudaGraphLaunch(exec, s));
  CHECK_CUDA(
      cudaMemcpyAsync(first, d, sizeof first, cudaMemcpyDeviceToHost, s));
  CHECK_CUDA(cudaGraphLaunch(exec, s));
  CHECK_CUDA(
      cudaMemcpyAsync(second, d, sizeof second, cudaMemcpyDeviceToHost, s));
  CHECK_CUDA(cudaStreamSynchronize(s));
  int same = 0;
  for (int i = 0; i < n; ++i)
    same += first[i] == second[i];
  EXPECT(same < n / 4, "two launches drew the same numbers (%d of %d)", same,
         n);
  EXPECT_STATUS(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
#ifdef CUEMU_VERSION
  /* cuemu's report of what is undefined on a GPU. */
  CHECK_CUDA(cudaGraphLaunch(exec, s));
  cudaError_t e = cudaStreamSynchronize(s);
  EXPECT(e == cudaErrorIllegalAddress,
         "a launch after curandDestroyGenerator: %s", cudaGetErrorString(e));
#endif
  return finish();
}

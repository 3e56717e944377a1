/* fft_graph.cu: cuFFT executions captured into a CUDA graph, as
 * frameworks do: on a capturing stream, a copy in, a forward C2C, a
 * kernel scaling by 1/n and an inverse C2C become the graph's work; each
 * launch of the instantiated graph runs them again on the data of that
 * moment (the copy's host buffer is changed between launches), giving the
 * input back.
 * CUEMU_OPTIONS: -lcufft */
#include <cufft.h>

#include "../cudalibs/check_libs.h"
#include "fft_host.h"

#define CHECK_FFT(call) EXPECT_STATUS(call, CUFFT_SUCCESS)

__global__ void scale(cufftComplex *a, int n, float by) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    a[i].x *= by;
    a[i].y *= by;
  }
}

int main() {
  const int n = 360;
  cufftComplex *host, *back, *d;
  CHECK_CUDA(cudaMallocHost(&host, n * sizeof(cufftComplex)));
  CHECK_CUDA(cudaMallocHost(&back, n * sizeof(cufftComplex)));
  CHECK_CUDA(cudaMalloc(&d, n * sizeof(cufftComplex)));
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cufftHandle plan;
  CHECK_FFT(cufftPlan1d(&plan, n, CUFFT_C2C, 1));
  CHECK_FFT(cufftSetStream(plan, stream));

  cudaGraph_t graph;
  CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  CHECK_CUDA(cudaMemcpyAsync(d, host, n * sizeof(cufftComplex),
                             cudaMemcpyHostToDevice, stream));
  CHECK_FFT(cufftExecC2C(plan, d, d, CUFFT_FORWARD));
  scale<<<(n + 127) / 128, 128, 0, stream>>>(d, n, 1.0f / n);
  CHECK_FFT(cufftExecC2C(plan, d, d, CUFFT_INVERSE));
  CHECK_CUDA(cudaMemcpyAsync(back, d, n * sizeof(cufftComplex),
                             cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));

  for (int launch = 0; launch < 3; ++launch) {
    for (int i = 0; i < n; ++i) {
      host[i].x = (float)host_value(10 + launch, 2 * i);
      host[i].y = (float)host_value(10 + launch, 2 * i + 1);
    }
    CHECK_CUDA(cudaGraphLaunch(exec, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    rel_error e;
    for (int i = 0; i < n; ++i) {
      cplx want = {host[i].x, host[i].y};
      e.add(back[i].x, back[i].y, want);
    }
    EXPECT(e.value() < 2e-6, "launch %d: relative error %.3g", launch,
           e.value());
  }
  CHECK_CUDA(cudaGraphExecDestroy(exec));
  CHECK_CUDA(cudaGraphDestroy(graph));
  CHECK_FFT(cufftDestroy(plan));
  CHECK_CUDA(cudaStreamDestroy(stream));
  CHECK_CUDA(cudaFree(d));
  CHECK_CUDA(cudaFreeHost(host));
  CHECK_CUDA(cudaFreeHost(back));
  return finish();
}

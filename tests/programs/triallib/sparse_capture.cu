/* sparse_capture.cu: cusparseSpVV with its result in host memory
 * (CUSPARSE_POINTER_MODE_HOST, the default), called while a stream
 * captures a graph, as NVIDIA's cuSPARSE graph-capture sample does: the
 * call succeeds (it failed with CUSPARSE_STATUS_EXECUTION_FAILED: it waited
 * for the capturing stream), and each launch of the graph writes the dot
 * product of the vectors' values at that time into the host variable.
 * CUEMU_OPTIONS: -lcusparse */
#include <cstdio>
#include <vector>

#include <cusparse.h>

#include "../cudalibs/check_libs.h"

int main() {
  const int size = 1000, nnz = 250;
  std::vector<int> indices(nnz);
  std::vector<float> xv(nnz), y(size);
  for (int k = 0; k < nnz; ++k) {
    indices[k] = 4 * k + 1;
    xv[k] = 0.5f * (k % 5);
  }
  for (int i = 0; i < size; ++i)
    y[i] = (i % 3) - 1.0f;
  int *d_indices;
  float *d_x, *d_y;
  CHECK_CUDA(cudaMalloc(&d_indices, nnz * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_x, nnz * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_y, size * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(d_indices, indices.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_x, xv.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_y, y.data(), size * sizeof(float), cudaMemcpyHostToDevice));

  cusparseHandle_t h;
  cusparseSpVecDescr_t x;
  cusparseDnVecDescr_t vy;
  EXPECT_STATUS(cusparseCreate(&h), CUSPARSE_STATUS_SUCCESS);
  cusparseCreateSpVec(&x, size, nnz, d_indices, d_x, CUSPARSE_INDEX_32I,
                      CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
  cusparseCreateDnVec(&vy, size, d_y, CUDA_R_32F);
  auto expected = [&]() {
    double s = 0;
    for (int k = 0; k < nnz; ++k)
      s += (double)xv[k] * y[indices[k]];
    return (float)s;
  };

  /* Outside a capture: the call returns with the result written. */
  float result = -12345.0f;
  EXPECT_STATUS(cusparseSpVV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, x, vy, &result, CUDA_R_32F,
                             nullptr),
                CUSPARSE_STATUS_SUCCESS);
  EXPECT(result == expected(), "SpVV gave %g, expected %g", result, expected());

  /* Captured: nothing is computed until the graph runs. */
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  EXPECT_STATUS(cusparseSetStream(h, stream), CUSPARSE_STATUS_SUCCESS);
  float captured = -1.0f;
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  EXPECT_STATUS(cusparseSpVV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, x, vy, &captured, CUDA_R_32F,
                             nullptr),
                CUSPARSE_STATUS_SUCCESS);
  CHECK_CUDA(cudaStreamEndCapture(stream, &graph));
  CHECK_CUDA(cudaGetLastError());
  EXPECT(captured == -1.0f, "the captured call wrote %g before the graph ran", captured);
  CHECK_CUDA(cudaGraphInstantiateWithFlags(&exec, graph, 0));
  for (int round = 0; round < 2; ++round) {
    CHECK_CUDA(cudaGraphLaunch(exec, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    EXPECT(captured == expected(), "launch %d wrote %g, expected %g", round, captured,
           expected());
    /* New values of y for the next launch. */
    for (int i = 0; i < size; ++i)
      y[i] = 0.25f * (i % 7);
    CHECK_CUDA(cudaMemcpy(d_y, y.data(), size * sizeof(float), cudaMemcpyHostToDevice));
  }
  CHECK_CUDA(cudaGraphExecDestroy(exec));
  CHECK_CUDA(cudaGraphDestroy(graph));
  CHECK_CUDA(cudaStreamDestroy(stream));
  cusparseDestroySpVec(x);
  cusparseDestroyDnVec(vy);
  cusparseDestroy(h);
  CHECK_CUDA(cudaFree(d_indices));
  CHECK_CUDA(cudaFree(d_x));
  CHECK_CUDA(cudaFree(d_y));
  return finish();
}

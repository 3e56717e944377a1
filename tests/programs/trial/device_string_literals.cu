/*
 * device_string_literals.cu: a string literal of device code (a kernel's
 * __FILE__, a message it records for the host) lives in device memory, as
 * on a GPU, where it is in the module's global memory: the host copies it
 * back with cudaMemcpy and cuMemGetAddressRange finds its range, as NVIDIA's
 * printf-alternative blog sample does with an error record's file name (it
 * crashed: the range was not found and its size was left unset). A host
 * string literal stays host memory.
 * CUEMU_OPTIONS: -lcuda
 * NVCC_OPTIONS: -lcuda
 */
#include <cstring>

#include <cuda.h>

#include "../check.cuh"

struct Report {
  const char *file;
  const char *what;
  int line;
};

__device__ Report first_report;

__device__ const char *describe(int code) {
  return code < 0 ? "negative input" : "input out of range";
}

__global__ void check_inputs(const int *in, int n, int *reported) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (in[i] < 0 || in[i] > 100) && atomicCAS(reported, 0, 1) == 0) {
    first_report.file = __FILE__;
    first_report.what = describe(in[i]);
    first_report.line = __LINE__;
  }
}

int main() {
  int *in, *reported;
  CHECK(cudaMallocManaged(&in, 64 * sizeof(int)) == cudaSuccess);
  CHECK(cudaMallocManaged(&reported, sizeof(int)) == cudaSuccess);
  for (int i = 0; i < 64; i++)
    in[i] = i == 37 ? -5 : i;
  *reported = 0;
  check_inputs<<<2, 32>>>(in, 64, reported);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(*reported == 1);

  Report r;
  CHECK(cudaMemcpyFromSymbol(&r, first_report, sizeof r) == cudaSuccess);
  CHECK(r.line == 35);

  /* The device's strings, copied back as device memory. */
  char what[32] = {0}, file[512] = {0};
  CHECK(cudaMemcpy(what, r.what, sizeof "negative input",
                   cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(std::strcmp(what, "negative input") == 0);
  size_t length = std::strlen(__FILE__) + 1;
  CHECK(length <= sizeof file);
  CHECK(cudaMemcpy(file, r.file, length, cudaMemcpyDefault) == cudaSuccess);
  CHECK(std::strcmp(file, __FILE__) == 0);

  cudaPointerAttributes a;
  CHECK(cudaPointerGetAttributes(&a, r.file) == cudaSuccess);
  CHECK(a.type == cudaMemoryTypeDevice);

  /* The driver finds the range holding it. */
  CUdeviceptr base = 0;
  size_t size = 0;
  CHECK(cuMemGetAddressRange(&base, &size, (CUdeviceptr)r.file) ==
        CUDA_SUCCESS);
  CHECK(base <= (CUdeviceptr)r.file &&
        (CUdeviceptr)r.file + length <= base + size);

  /* A host string literal is no device memory. */
  const char *host_text = "a host string";
  CHECK(cudaPointerGetAttributes(&a, host_text) == cudaSuccess);
  CHECK(a.type == cudaMemoryTypeUnregistered);
  CHECK(cuMemGetAddressRange(&base, &size, (CUdeviceptr)host_text) !=
        CUDA_SUCCESS);

  cudaFree(reported);
  cudaFree(in);
  return finish();
}

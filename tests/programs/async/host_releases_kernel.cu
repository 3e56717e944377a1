// host_releases_kernel.cu: work on streams runs asynchronously to the host
// thread that issues it, as on a GPU.
//  - A kernel spins on a flag in mapped pinned memory that the host raises
//    after the launch returns (the launch must return first); the same
//    kernel on the legacy default stream and on a created stream; copies
//    into pinned memory issued after it return at once too.
//  - The flag raised instead by cuStreamWriteValue32 on another stream,
//    issued after the spinning kernel.
//  - A stream wait (cuStreamWaitValue32) satisfied only by a write that
//    the same host thread issues later on another stream, and a kernel
//    after the wait sees the data the other stream produced before its
//    write.
//  - cudaStreamQuery and cudaEventQuery say cudaErrorNotReady while the
//    work is held, cudaSuccess after; cudaStreamSynchronize waits.
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <chrono>
#include <thread>

#include "../check.cuh"
#include "async_kernels.cuh"

#define RT(call) CHECK((call) == cudaSuccess)
#define CU(call) CHECK((call) == CUDA_SUCCESS)

static CUdeviceptr dptr(const void *p) { return (CUdeviceptr)(uintptr_t)p; }

// The host raises the flag after the launch has returned.
static void host_releases(cudaStream_t stream) {
  int *flag, *seen, *out;
  RT(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped));
  RT(cudaMallocManaged(&seen, sizeof(int)));
  RT(cudaMallocManaged(&out, sizeof(int)));
  *flag = 0;
  *seen = -1;
  *out = 0;
  int *dflag;
  RT(cudaHostGetDevicePointer(&dflag, flag, 0));
  int *copy; // pinned: the copy is queued behind the kernel
  RT(cudaMallocHost(&copy, 2 * sizeof(int)));
  copy[0] = copy[1] = -7;
  wait_for_flag<<<1, 32, 0, stream>>>(dflag, 2, seen, out);
  RT(cudaGetLastError());
  RT(cudaMemcpyAsync(copy, seen, sizeof(int), cudaMemcpyDefault, stream));
  RT(cudaMemsetAsync(out + 0, 0, 0, stream)); // nothing to set
  RT(cudaMemcpyAsync(copy + 1, out, sizeof(int), cudaMemcpyDeviceToHost,
                     stream));
  // The kernel cannot have finished: the flag is still 0.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(cudaStreamQuery(stream) == cudaErrorNotReady);
  __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  CHECK(cudaStreamQuery(stream) == cudaErrorNotReady); // 1 < 2
  __atomic_store_n(flag, 2, __ATOMIC_RELEASE);
  // A query that finds work pending does not leave cudaErrorNotReady as
  // the last error, as CUDA's does not.
  CHECK(cudaGetLastError() == cudaSuccess);
  RT(cudaStreamSynchronize(stream));
  CHECK(*seen == 2);
  CHECK(*out == 1);
  CHECK(copy[0] == 2 && copy[1] == 1);
  RT(cudaFreeHost(copy));
  RT(cudaStreamQuery(stream));
  RT(cudaFreeHost(flag));
  RT(cudaFree(seen));
  RT(cudaFree(out));
}

// cuStreamWriteValue32 on another stream, issued after the kernel.
static void stream_releases() {
  int *flag, *seen, *out;
  RT(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped));
  RT(cudaMalloc(&seen, sizeof(int)));
  RT(cudaMalloc(&out, sizeof(int)));
  *flag = 0;
  cudaStream_t spin, release;
  RT(cudaStreamCreateWithFlags(&spin, cudaStreamNonBlocking));
  RT(cudaStreamCreateWithFlags(&release, cudaStreamNonBlocking));
  cudaEvent_t done;
  RT(cudaEventCreate(&done));
  wait_for_flag<<<1, 1, 0, spin>>>(flag, 5, seen, out);
  RT(cudaEventRecord(done, spin));
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(cudaEventQuery(done) == cudaErrorNotReady);
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, done, done) == cudaErrorNotReady);
  CHECK(cudaGetLastError() == cudaSuccess);
  CU(cuStreamWriteValue32((CUstream)release, dptr(flag), 5, 0));
  RT(cudaEventSynchronize(done));
  RT(cudaEventQuery(done));
  int h[2] = {0, 0};
  RT(cudaMemcpy(&h[0], seen, sizeof(int), cudaMemcpyDeviceToHost));
  RT(cudaMemcpy(&h[1], out, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(h[0] == 5 && h[1] == 1);
  RT(cudaEventDestroy(done));
  RT(cudaStreamDestroy(spin));
  RT(cudaStreamDestroy(release));
  RT(cudaFreeHost(flag));
  RT(cudaFree(seen));
  RT(cudaFree(out));
}

// A wait satisfied only by work issued later by this thread.
static void wait_before_write() {
  const int n = 4096;
  float *a, *b;
  unsigned *flag;
  int *count;
  RT(cudaMalloc(&a, n * sizeof(float)));
  RT(cudaMalloc(&b, n * sizeof(float)));
  RT(cudaMalloc(&flag, sizeof(unsigned)));
  RT(cudaMalloc(&count, sizeof(int)));
  RT(cudaMemset(flag, 0, sizeof(unsigned)));
  RT(cudaMemset(count, 0, sizeof(int)));
  cudaStream_t consumer, producer;
  RT(cudaStreamCreateWithFlags(&consumer, cudaStreamNonBlocking));
  RT(cudaStreamCreateWithFlags(&producer, cudaStreamNonBlocking));
  // The consumer's work, issued first, waits for the producer's flag.
  CU(cuStreamWaitValue32((CUstream)consumer, dptr(flag), 1,
                         CU_STREAM_WAIT_VALUE_GEQ));
  add_to<float><<<(n + 255) / 256, 256, 0, consumer>>>(a, b, n, 1.0f);
  count_expected<float><<<(n + 255) / 256, 256, 0, consumer>>>(b, n, 2.0f,
                                                               4.0f, count);
  CHECK(cudaStreamQuery(consumer) == cudaErrorNotReady);
  CHECK(cudaGetLastError() == cudaSuccess);
  // Then the producer's: the data, then the flag.
  fill<float><<<(n + 255) / 256, 256, 0, producer>>>(a, n, 2.0f, 3.0f);
  CU(cuStreamWriteValue32((CUstream)producer, dptr(flag), 1, 0));
  RT(cudaStreamSynchronize(consumer));
  int h = 0;
  RT(cudaMemcpy(&h, count, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(h == n);
  RT(cudaDeviceSynchronize());
  RT(cudaStreamDestroy(consumer));
  RT(cudaStreamDestroy(producer));
  RT(cudaFree(a));
  RT(cudaFree(b));
  RT(cudaFree(flag));
  RT(cudaFree(count));
}

int main() {
  CU(cuInit(0));
  RT(cudaSetDeviceFlags(cudaDeviceMapHost));
  host_releases(0);
  cudaStream_t s;
  RT(cudaStreamCreate(&s));
  host_releases(s);
  RT(cudaStreamDestroy(s));
  stream_releases();
  wait_before_write();
  RT(cudaGetLastError());
  return finish();
}

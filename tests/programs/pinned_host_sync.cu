/*
 * pinned_host_sync.cu: the host reads and writes pinned buffers that
 * asynchronous copies fill or read only after it has synchronised with
 * them, in each of the ways CUDA offers (cudaStreamSynchronize,
 * cudaEventSynchronize, cudaDeviceSynchronize, cudaStreamQuery and
 * cudaEventQuery returning cudaSuccess, a host function or a callback of
 * the stream, a blocking cudaMemcpy that waits for the legacy default
 * stream), reads a copy's source while it is pending (allowed: the copy
 * only reads it too), and writes to a file the half of a buffer whose
 * copy it has synchronised with while another stream's copy still fills
 * the other half, on the same page. The checkers must report nothing
 * (tests/checkers_clean.sh). Prints PASS and exits 0 when all is well.
 */
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#include "check.cuh"

__global__ void fill(int *out, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = base + i;
}

static const int N = 3000; /* not a whole number of pages */

/* Whether out[i] == base + i for every i < n. */
static bool filled(const int *out, int n, int base) {
  for (int i = 0; i < n; ++i)
    if (out[i] != base + i)
      return false;
  return true;
}

static void raise_flag(void *flag) {
  static_cast<std::atomic<int> *>(flag)->store(1);
}

static void CUDART_CB raise_flag_callback(cudaStream_t, cudaError_t,
                                          void *flag) {
  raise_flag(flag);
}

int main() {
  int *d, *h;
  cudaStream_t s, t;
  cudaEvent_t e;
  CHECK(cudaMalloc(&d, 2 * N * sizeof(int)) == cudaSuccess);
  CHECK(cudaMallocHost(&h, 2 * N * sizeof(int)) == cudaSuccess);
  CHECK(cudaStreamCreate(&s) == cudaSuccess);
  CHECK(cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking) == cudaSuccess);
  CHECK(cudaEventCreate(&e) == cudaSuccess);

  /* cudaStreamSynchronize. */
  fill<<<(N + 255) / 256, 256, 0, s>>>(d, N, 10);
  cudaMemcpyAsync(h, d, N * sizeof(int), cudaMemcpyDeviceToHost, s);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(filled(h, N, 10));

  /* cudaEventSynchronize. */
  fill<<<(N + 255) / 256, 256, 0, s>>>(d, N, 20);
  cudaMemcpyAsync(h, d, N * sizeof(int), cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  CHECK(cudaEventSynchronize(e) == cudaSuccess);
  CHECK(filled(h, N, 20));

  /* cudaDeviceSynchronize. */
  fill<<<(N + 255) / 256, 256, 0, t>>>(d, N, 30);
  cudaMemcpyAsync(h, d, N * sizeof(int), cudaMemcpyDeviceToHost, t);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(filled(h, N, 30));

  /* cudaStreamQuery until the stream is done. */
  fill<<<(N + 255) / 256, 256, 0, s>>>(d, N, 40);
  cudaMemcpyAsync(h, d, N * sizeof(int), cudaMemcpyDeviceToHost, s);
  while (cudaStreamQuery(s) == cudaErrorNotReady) {
  }
  CHECK(filled(h, N, 40));

  /* cudaEventQuery until the event is done. */
  fill<<<(N + 255) / 256, 256, 0, s>>>(d, N, 45);
  cudaMemcpyAsync(h, d, N * sizeof(int), cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  while (cudaEventQuery(e) == cudaErrorNotReady) {
  }
  CHECK(filled(h, N, 45));

  /* A host function after the copy tells the host it is done. */
  std::atomic<int> flag(0);
  fill<<<(N + 255) / 256, 256, 0, s>>>(d, N, 50);
  cudaMemcpyAsync(h, d, N * sizeof(int), cudaMemcpyDeviceToHost, s);
  cudaLaunchHostFunc(s, raise_flag, &flag);
  while (flag.load() == 0) {
  }
  CHECK(filled(h, N, 50));
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);

  /* A stream callback after the copy tells the host it is done. */
  flag.store(0);
  fill<<<(N + 255) / 256, 256, 0, s>>>(d, N, 55);
  cudaMemcpyAsync(h, d, N * sizeof(int), cudaMemcpyDeviceToHost, s);
  cudaStreamAddCallback(s, raise_flag_callback, &flag, 0);
  while (flag.load() == 0) {
  }
  CHECK(filled(h, N, 55));
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);

  /* A blocking copy waits for the legacy default stream, which waits for
   * the blocking stream s. */
  int one = 0;
  fill<<<(N + 255) / 256, 256, 0, s>>>(d, N, 60);
  cudaMemcpyAsync(h, d, N * sizeof(int), cudaMemcpyDeviceToHost, s);
  CHECK(cudaMemcpy(&one, d + 1, sizeof one, cudaMemcpyDeviceToHost) ==
        cudaSuccess);
  CHECK(one == 61 && filled(h, N, 60));

  /* The host reads a pending copy's source, and changes it only after. */
  for (int i = 0; i < N; ++i)
    h[i] = 70 + i;
  cudaMemcpyAsync(d, h, N * sizeof(int), cudaMemcpyHostToDevice, s);
  CHECK(filled(h, N, 70));
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  for (int i = 0; i < N; ++i)
    h[i] = 0;
  cudaMemcpyAsync(h, d, N * sizeof(int), cudaMemcpyDeviceToHost, s);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(filled(h, N, 70));

  /* Two halves, one page shared: the host uses the first half, whose copy
   * it has synchronised with, while the second half's copy is pending,
   * and writes it to a file (the kernel reads the buffer). */
  fill<<<(2 * N + 255) / 256, 256, 0, s>>>(d, 2 * N, 80);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  cudaMemcpyAsync(h, d, N * sizeof(int), cudaMemcpyDeviceToHost, s);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  cudaEventRecord(e, t);
  cudaMemcpyAsync(h + N, d + N, N * sizeof(int), cudaMemcpyDeviceToHost, t);
  CHECK(filled(h, N, 80));
  h[N - 1] = 80 + N - 1;
  FILE *f = std::tmpfile();
  CHECK(f != NULL);
  if (f) {
    CHECK(std::fwrite(h, sizeof(int), N, f) == (size_t)N);
    CHECK(std::fflush(f) == 0);
    std::fclose(f);
  }
  CHECK(cudaStreamSynchronize(t) == cudaSuccess);
  CHECK(filled(h, 2 * N, 80));

  /* Registered memory, not page-aligned. */
  int *r = static_cast<int *>(std::malloc(N * sizeof(int) + 100));
  int *rh = reinterpret_cast<int *>(reinterpret_cast<char *>(r) + 52);
  CHECK(cudaHostRegister(rh, N * sizeof(int), cudaHostRegisterDefault) ==
        cudaSuccess);
  fill<<<(N + 255) / 256, 256, 0, s>>>(d, N, 90);
  cudaMemcpyAsync(rh, d, N * sizeof(int), cudaMemcpyDeviceToHost, s);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(filled(rh, N, 90));
  CHECK(cudaHostUnregister(rh) == cudaSuccess);
  std::free(r);

  CHECK(cudaGetLastError() == cudaSuccess);
  cudaEventDestroy(e);
  cudaStreamDestroy(t);
  cudaStreamDestroy(s);
  cudaFreeHost(h);
  cudaFree(d);
  return finish();
}

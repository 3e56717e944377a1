/*
 * kernel_reference_params.cu: kernels with reference parameters, as NVIDIA's
 * unified-memory blog sample passes a managed object (`Kernel_by_ref(
 * DataElement &elem)`). nvcc passes a reference parameter as the object's
 * address (a 64-bit pointer parameter), so the kernel updates the caller's
 * object; cuemu used to copy the object into the launch and the updates
 * were lost without a word. Launches: plain, overloaded, a kernel template
 * with deduced and with explicit arguments, cudaLaunchKernel (whose args[i]
 * points to the address) and a captured graph replayed twice.
 */
#include <cstdio>

#include "../check.cuh"

struct Counters {
  int hits[8];
  unsigned long long total;
};

/* Adds `step` to each thread's counter of `c`, which the caller owns. */
__global__ void bump(Counters &c, const int &step) {
  c.hits[threadIdx.x] += step;
  atomicAdd(&c.total, (unsigned long long)step);
}

__global__ void bump(Counters &c) { c.hits[threadIdx.x] += 1; }

template <typename T> __global__ void scale_all(T &values, int factor) {
  values.hits[threadIdx.x] *= factor;
}

/* A by-value parameter next to the reference: still a copy. */
__global__ void mixed(Counters copy, Counters &out) {
  copy.hits[threadIdx.x] += 1000;
  out.hits[threadIdx.x] = copy.hits[threadIdx.x];
}

int main() {
  Counters *c = nullptr, *d = nullptr;
  int *step = nullptr;
  CHECK(cudaMallocManaged(&c, sizeof(Counters)) == cudaSuccess);
  CHECK(cudaMallocManaged(&d, sizeof(Counters)) == cudaSuccess);
  CHECK(cudaMallocManaged(&step, sizeof(int)) == cudaSuccess);
  for (int i = 0; i < 8; i++)
    c->hits[i] = i;
  c->total = 0;
  *step = 5;

  bump<<<1, 8>>>(*c, *step);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(c->hits[3] == 8 && c->total == 40);

  bump<<<1, 8>>>(*c);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(c->hits[3] == 9 && c->hits[7] == 13);

  scale_all<<<1, 8>>>(*c, 2); /* T deduced as Counters */
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(c->hits[3] == 18);
  scale_all<Counters><<<1, 8>>>(*c, 3);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(c->hits[3] == 54 && c->hits[0] == 36);

  /* cudaLaunchKernel: the argument of a reference parameter is a pointer
   * to the object's address, as for a pointer parameter. */
  void (*one)(Counters &) = bump;
  Counters *address = c;
  void *args[] = {&address};
  CHECK(cudaLaunchKernel((const void *)one, dim3(1), dim3(8), args, 0, 0) ==
        cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(c->hits[3] == 55);

  mixed<<<1, 8>>>(*c, *d);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(d->hits[3] == 1055 && c->hits[3] == 55);

  /* A captured launch keeps the address: each replay updates the object. */
  cudaStream_t s;
  cudaGraph_t g;
  cudaGraphExec_t e;
  CHECK(cudaStreamCreate(&s) == cudaSuccess);
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
  bump<<<1, 8, 0, s>>>(*c, *step);
  CHECK(cudaStreamEndCapture(s, &g) == cudaSuccess);
  CHECK(cudaGraphInstantiate(&e, g, 0) == cudaSuccess);
  *step = 100;
  CHECK(cudaGraphLaunch(e, s) == cudaSuccess);
  CHECK(cudaGraphLaunch(e, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(c->hits[3] == 255 && c->total == 40 + 1600);

  cudaGraphExecDestroy(e);
  cudaGraphDestroy(g);
  cudaStreamDestroy(s);
  cudaFree(step);
  cudaFree(d);
  cudaFree(c);
  return finish();
}

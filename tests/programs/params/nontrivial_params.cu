/*
 * nontrivial_params.cu: kernel parameters of class types with a user copy
 * constructor or destructor, as CUDA processes them ("__global__ function
 * argument processing" in the CUDA C++ Programming Guide): the host side
 * copies the argument into the launch's parameter (nvcc's stub: once for an
 * lvalue, not at all for a temporary) and destroys that copy when the
 * launch returns; the kernel gets a bitwise copy, and no copy constructor
 * or destructor runs on the device. Each thread has its own copy of its
 * parameters. Every launch path: <<<>>> (static, deduced template
 * arguments, into a stream, captured into a graph), cudaLaunchKernel,
 * cudaLaunchKernelEx, cudaLaunchCooperativeKernel, a graph's kernel node
 * and the driver API's cuLaunchKernel.
 */
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "../check.cuh"
#include "param_types.cuh"

constexpr int N = 64, BLOCK = 32;

/* Each thread changes its own copy of the view; a barrier between the
 * change and the use lets the other threads of the block run meanwhile. */
__global__ void stamp(View v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  v.base += threadIdx.x;
  __syncthreads();
  if (i < n)
    v.data[i] = v.base;
}

__global__ void fill(Buffer b, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < b.size)
    b[i] = value + i;
}

template <typename F>
__global__ void transform(F f, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = f(x[i], y[i]);
}

/* The counts since the last call are what nvcc's launch gives: `copies`
 * and `dtors` on the host, none on the device. */
static void counts(const char *what, int copies, int dtors) {
  cudaDeviceSynchronize();
  if (host_copies != copies || host_dtors != dtors || device_copies != 0 ||
      device_dtors != 0) {
    std::fprintf(stderr,
                 "%s: host %d copies, %d destructions (want %d, %d); "
                 "device %d copies, %d destructions (want 0, 0)\n",
                 what, host_copies, host_dtors, copies, dtors, device_copies,
                 device_dtors);
    ++check_failures;
  }
  host_copies = host_dtors = device_copies = device_dtors = 0;
}

/* Forgets what was counted so far (the objects of an earlier part that
 * ended since its last count). */
static void reset() {
  cudaDeviceSynchronize();
  host_copies = host_dtors = device_copies = device_dtors = 0;
}

/* Whether data[i] is base + i % BLOCK for each i: every thread saw its
 * own parameter. */
static bool stamped(const int *data, int base) {
  cudaDeviceSynchronize();
  for (int i = 0; i < N; ++i)
    if (data[i] != base + i % BLOCK) {
      std::fprintf(stderr, "data[%d] = %d, want %d\n", i, data[i],
                   base + i % BLOCK);
      return false;
    }
  return true;
}

static void view_launches(int *data, cudaStream_t s) {
  int n = N;
  View v(data, 7);
  stamp<<<N / BLOCK, BLOCK>>>(v, n);
  counts("<<<>>> with an lvalue", 1, 1);
  CHECK(stamped(data, 7));

  stamp<<<N / BLOCK, BLOCK>>>(View(data, 100), n);
  counts("<<<>>> with a temporary", 0, 1);
  CHECK(stamped(data, 100));

  void *args[] = {&v, &n};
  CHECK(cudaLaunchKernel((const void *)stamp, dim3(N / BLOCK), dim3(BLOCK),
                         args, 0, nullptr) == cudaSuccess);
  counts("cudaLaunchKernel", 0, 0);
  CHECK(stamped(data, 7));

  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(N / BLOCK);
  config.blockDim = dim3(BLOCK);
  CHECK(cudaLaunchKernelEx(&config, stamp, v, n) == cudaSuccess);
  counts("cudaLaunchKernelEx", 1, 1);
  CHECK(stamped(data, 7));

  CHECK(cudaLaunchCooperativeKernel((const void *)stamp, dim3(N / BLOCK),
                                    dim3(BLOCK), args, 0,
                                    nullptr) == cudaSuccess);
  counts("cudaLaunchCooperativeKernel", 0, 0);
  CHECK(stamped(data, 7));

  /* Into a stream: the value at the launch, whatever the host does next. */
  v.base = 20;
  stamp<<<N / BLOCK, BLOCK, 0, s>>>(v, n);
  v.base = 21;
  counts("<<<>>> into a stream", 1, 1);
  CHECK(stamped(data, 20));

  CUfunction function;
  CHECK(cudaGetFuncBySymbol((cudaFunction_t *)&function,
                            (const void *)stamp) == cudaSuccess);
  CHECK(cuLaunchKernel(function, N / BLOCK, 1, 1, BLOCK, 1, 1, 0, nullptr,
                       args, nullptr) == CUDA_SUCCESS);
  counts("cuLaunchKernel", 0, 0);
  CHECK(stamped(data, 21));
}

static void graph_launches(int *data, cudaStream_t s) {
  reset();
  int n = N;
  View v(data, 30);
  /* A kernel node copies its parameters when it is added. */
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0) == cudaSuccess);
  void *args[] = {&v, &n};
  cudaKernelNodeParams p = {};
  p.func = (void *)stamp;
  p.gridDim = dim3(N / BLOCK);
  p.blockDim = dim3(BLOCK);
  p.kernelParams = args;
  cudaGraphNode_t node;
  CHECK(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &p) == cudaSuccess);
  v.base = 31;
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  CHECK(cudaGraphLaunch(exec, s) == cudaSuccess);
  CHECK(cudaGraphLaunch(exec, s) == cudaSuccess);
  counts("a graph's kernel node", 0, 0);
  CHECK(stamped(data, 30));
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);

  /* A launch captured into a graph copies once, when it is captured. */
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) ==
        cudaSuccess);
  stamp<<<N / BLOCK, BLOCK, 0, s>>>(v, n);
  CHECK(cudaStreamEndCapture(s, &graph) == cudaSuccess);
  v.base = 32;
  CHECK(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  CHECK(cudaGraphLaunch(exec, s) == cudaSuccess);
  CHECK(cudaGraphLaunch(exec, s) == cudaSuccess);
  counts("<<<>>> captured into a graph", 1, 1);
  CHECK(stamped(data, 31));
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
}

static void buffer_launches() {
  reset();
  {
    Buffer buffer(N);
    fill<<<N / BLOCK, BLOCK>>>(buffer, 5);
    counts("an owning buffer, <<<>>>", 1, 1);
    void *args[] = {&buffer, nullptr};
    int value = 9;
    args[1] = &value;
    CHECK(cudaLaunchKernel((const void *)fill, dim3(N / BLOCK), dim3(BLOCK),
                           args, 0, nullptr) == cudaSuccess);
    counts("an owning buffer, cudaLaunchKernel", 0, 0);
    int host[N];
    CHECK(cudaMemcpy(host, buffer.data, sizeof host,
                     cudaMemcpyDeviceToHost) == cudaSuccess);
    bool filled = true;
    for (int i = 0; i < N; ++i)
      filled = filled && host[i] == 9 + i;
    CHECK(filled);
  }
  counts("an owning buffer's end", 0, 1);
  CHECK(cudaGetLastError() == cudaSuccess);
}

static void functor_launches() {
  float *x, *y;
  cudaMallocManaged(&x, N * sizeof(float));
  cudaMallocManaged(&y, N * sizeof(float));
  for (int i = 0; i < N; ++i) {
    x[i] = float(i);
    y[i] = 1.0f;
  }
  reset();
  Saxpy twice(2.0f);
  transform<Saxpy><<<1, N>>>(twice, x, y, N);
  counts("a functor, named template argument", 1, 0);
  transform<<<1, N>>>(twice, x, y, N);
  counts("a functor, deduced template argument", 1, 0);
  transform<<<1, N>>>(Saxpy(0.5f), x, y, N);
  counts("a temporary functor, deduced template argument", 0, 0);
  bool right = true;
  for (int i = 0; i < N; ++i)
    right = right && y[i] == 1.0f + 4.5f * float(i);
  CHECK(right);
  cudaFree(x);
  cudaFree(y);
}

/* Trivially copyable, so trivial for calls, although a constructor
 * template is what an rvalue of it would pick: the kernel gets the bytes
 * (it read garbage through a pointer it was not given). */
struct Forwarding {
  int a, b;
  Forwarding() = default;
  Forwarding(const Forwarding &) = default;
  template <typename U_> __host__ __device__ Forwarding(U_ &&) : a(-1), b(-1) {}
};

__global__ void read_forwarding(Forwarding f, int *out) {
  out[0] = f.a;
  out[1] = f.b;
}

static void forwarding_launch(int *data) {
  Forwarding g;
  g.a = 3;
  g.b = 4;
  /* (From a const lvalue the defaulted copy constructor is picked; from a
   * non-const one the template, as in nvcc's stub.) */
  const Forwarding &f = g;
  read_forwarding<<<1, 1>>>(f, data);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  /* nvcc's stub copies it with the defaulted copy constructor (3 4);
   * cuemu's launcher copies it again from a non-const lvalue, which picks
   * the template (-1 -1, docs/kernel-parameters.md). Before, the kernel
   * read garbage. */
  CHECK((data[0] == 3 && data[1] == 4) || (data[0] == -1 && data[1] == -1));
}

int main() {
  int *data;
  CHECK(cudaMallocManaged(&data, N * sizeof(int)) == cudaSuccess);
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s) == cudaSuccess);
  view_launches(data, s);
  graph_launches(data, s);
  buffer_launches();
  functor_launches();
  forwarding_launch(data);
  cudaStreamDestroy(s);
  cudaFree(data);
  return finish();
}

// kernel_handles.cu: a program's kernels as cudaKernel_t (cudaGetKernel),
// taken by the driver's kernel calls as a library's kernels are: the
// attributes (the __launch_bounds__ limit, a raised dynamic shared memory
// size that cudaFuncGetAttributes then reads too, read-only attributes
// refused), the parameter layout and the name; launched through
// cudaLaunchKernel and cudaLaunchKernelEx given as void *, as CUDA allows;
// and as a CUfunction (cuKernelGetFunction, cudaGetFuncBySymbol, or the
// handle cast to one):
// launched by cuLaunchKernel (parameters as pointers and as a buffer),
// cuLaunchKernelEx and into a captured graph, its attributes and
// parameters read and set through the cuFunc* calls.
// CUEMU_OPTIONS: -lcuda
// NVCC_OPTIONS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstring>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)
#define RT(call) CHECK((call) == cudaSuccess)

struct Weights {
  float w[3];
};

template <typename T>
__global__ void __launch_bounds__(128)
    blend(T *out, const T *in, Weights wts, int n, char mode) {
  extern __shared__ unsigned char scratch[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  scratch[threadIdx.x] = (unsigned char)mode;
  __syncthreads();
  if (i < n)
    out[i] = in[i] * wts.w[scratch[threadIdx.x] % 3];
}

__global__ void count_up(int *c) { atomicAdd(c, 1); }

int main() {
  CU(cuInit(0));
  cudaKernel_t k_blend, k_count;
  RT(cudaGetKernel(&k_blend, blend<float>));
  RT(cudaGetKernel(&k_count, count_up));
  CUkernel kb = (CUkernel)k_blend, kc = (CUkernel)k_count;

  int v = 0;
  CU(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, kb, 0));
  CHECK(v == 128);
  CU(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, kc, 0));
  int dev_max = 0;
  RT(cudaDeviceGetAttribute(&dev_max, cudaDevAttrMaxThreadsPerBlock, 0));
  CHECK(v == dev_max);
  CHECK(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, kb,
                             99) == CUDA_ERROR_INVALID_DEVICE);

  // One kernel, one setting, read by either API.
  CU(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                          64 * 1024, kb, 0));
  CU(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                          kb, 0));
  CHECK(v == 64 * 1024);
  cudaFuncAttributes fa;
  RT(cudaFuncGetAttributes(&fa, (const void *)k_blend));
  CHECK(fa.maxDynamicSharedSizeBytes == 64 * 1024);
  CHECK(fa.maxThreadsPerBlock == 128);
  CHECK(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_NUM_REGS, 8, kb, 0) ==
        CUDA_ERROR_INVALID_VALUE);

  // The parameter buffer's layout: each at its alignment.
  size_t off = 0, size = 0;
  CU(cuKernelGetParamInfo(kb, 0, &off, &size));
  CHECK(off == 0 && size == sizeof(float *));
  CU(cuKernelGetParamInfo(kb, 2, &off, &size));
  CHECK(off == 16 && size == sizeof(Weights));
  CU(cuKernelGetParamInfo(kb, 3, &off, &size));
  CHECK(off == 28 && size == sizeof(int));
  CU(cuKernelGetParamInfo(kb, 4, &off, &size));
  CHECK(off == 32 && size == 1);
  CHECK(cuKernelGetParamInfo(kb, 5, &off, &size) == CUDA_ERROR_INVALID_VALUE);

  const char *name = nullptr;
  CU(cuKernelGetName(&name, kc));
  CHECK(name && std::strstr(name, "count_up"));
  CU(cuKernelGetName(&name, kb));
  CHECK(name && std::strstr(name, "blend"));

  // Launched through the runtime, as void *.
  const int n = 256;
  float *in, *out;
  int *counter;
  RT(cudaMalloc(&in, n * sizeof(float)));
  RT(cudaMalloc(&out, n * sizeof(float)));
  RT(cudaMalloc(&counter, sizeof(int)));
  RT(cudaMemset(counter, 0, sizeof(int)));
  float host[n];
  for (int i = 0; i < n; ++i)
    host[i] = float(i);
  RT(cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice));
  Weights w = {{0.5f, 2.0f, 3.0f}};
  int count = n;
  char mode = 1;
  void *args[] = {&out, &in, &w, &count, &mode};
  RT(cudaLaunchKernel((const void *)k_blend, dim3(n / 128), dim3(128), args,
                      128, 0));
  void *cargs[] = {&counter};
  RT(cudaLaunchKernel((const void *)k_count, dim3(3), dim3(32), cargs, 0, 0));
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(2);
  cfg.blockDim = dim3(16);
  RT(cudaLaunchKernelExC(&cfg, (const void *)k_count, cargs));
  RT(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && host[i] == 2.0f * float(i);
  CHECK(ok);
  int c = 0;
  RT(cudaMemcpy(&c, counter, sizeof c, cudaMemcpyDeviceToHost));
  CHECK(c == 3 * 32 + 2 * 16);

  // The CUfunction of a program's kernel, in the primary context the
  // runtime made current.
  CUfunction fb = nullptr, fc = nullptr, fc2 = nullptr;
  CU(cuKernelGetFunction(&fb, kb));
  CU(cuKernelGetFunction(&fc, kc));
  CU(cuKernelGetFunction(&fc2, kc));
  CHECK(fb && fc && fb != fc && fc == fc2);
  CHECK(cuKernelGetFunction(nullptr, kc) == CUDA_ERROR_INVALID_VALUE);
  // The runtime's cudaGetFuncBySymbol gives the same CUfunction.
  cudaFunction_t rf = nullptr;
  RT(cudaGetFuncBySymbol(&rf, (const void *)count_up));
  CHECK((CUfunction)rf == fc);
  RT(cudaGetFuncBySymbol(&rf, (const void *)blend<float>));
  CHECK((CUfunction)rf == fb);
  int not_a_kernel = 0;
  CHECK(cudaGetFuncBySymbol(&rf, &not_a_kernel) ==
        cudaErrorInvalidDeviceFunction);
  CHECK(cudaGetLastError() == cudaErrorInvalidDeviceFunction);
  CU(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fb));
  CHECK(v == 128);
  CU(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                        fb));
  CHECK(v == 64 * 1024);
  CU(cuFuncSetAttribute(fb, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                        32 * 1024));
  RT(cudaFuncGetAttributes(&fa, blend<float>));
  CHECK(fa.maxDynamicSharedSizeBytes == 32 * 1024);
  CU(cuFuncGetParamInfo(fb, 3, &off, &size));
  CHECK(off == 28 && size == sizeof(int));
  CU(cuFuncGetName(&name, fc));
  CHECK(name && std::strstr(name, "count_up"));
  CUfunctionLoadingState state = CU_FUNCTION_LOADING_STATE_UNLOADED;
  CU(cuFuncIsLoaded(&state, fb));
  CHECK(state == CU_FUNCTION_LOADING_STATE_LOADED);
  // A difference (docs/driver-api.md): the program's kernels are in no
  // module, which cuemu says instead of giving one.
  CUmodule mod;
#ifdef __CUEMU__
  CHECK(cuFuncGetModule(&mod, fb) == CUDA_ERROR_NOT_SUPPORTED);
#else
  CHECK(cuFuncGetModule(&mod, fb) == CUDA_SUCCESS);
#endif

  // Launched by the driver: weights 3 this time, then 0.5 from a buffer.
  for (int i = 0; i < n; ++i)
    host[i] = -1.0f;
  RT(cudaMemcpy(out, host, sizeof host, cudaMemcpyHostToDevice));
  mode = 2;
  CU(cuLaunchKernel(fb, n / 128, 1, 1, 128, 1, 1, 128, nullptr, args,
                    nullptr));
  RT(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
  ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && host[i] == 3.0f * float(i);
  CHECK(ok);
  struct {
    float *out;
    const float *in;
    Weights w;
    int n;
    char mode;
  } buffer = {out, in, w, n / 2, 0};
  size_t buffer_size = sizeof buffer;
  void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &buffer,
                   CU_LAUNCH_PARAM_BUFFER_SIZE, &buffer_size,
                   CU_LAUNCH_PARAM_END};
  CU(cuLaunchKernel(fb, n / 128, 1, 1, 128, 1, 1, 128, nullptr, nullptr,
                    extra));
  RT(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
  ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && host[i] == (i < n / 2 ? 0.5f : 3.0f) * float(i);
  CHECK(ok);
  // Past __launch_bounds__: refused as CUDA refuses it.
  CHECK(cuLaunchKernel(fb, 1, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr) ==
        CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);

  // The count: cuLaunchKernel, cuLaunchKernelEx, the cudaKernel_t cast to
  // a CUfunction (as CUDA takes a CUkernel), and a captured graph run twice.
  RT(cudaMemset(counter, 0, sizeof(int)));
  CU(cuLaunchKernel(fc, 2, 1, 1, 8, 1, 1, 0, nullptr, cargs, nullptr));
  CUlaunchConfig lc = {};
  lc.gridDimX = lc.gridDimY = lc.gridDimZ = 1;
  lc.blockDimX = 5;
  lc.blockDimY = lc.blockDimZ = 1;
  CU(cuLaunchKernelEx(&lc, fc, cargs, nullptr));
  CU(cuLaunchKernel((CUfunction)kc, 1, 1, 1, 7, 1, 1, 0, nullptr, cargs,
                    nullptr));
  CUstream s;
  CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  CUgraph g;
  CU(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CU(cuLaunchKernel(fc, 3, 1, 1, 4, 1, 1, 0, s, cargs, nullptr));
  CU(cuStreamEndCapture(s, &g));
  size_t nodes = 0;
  CU(cuGraphGetNodes(g, nullptr, &nodes));
  CHECK(nodes == 1);
  CUgraphNode node;
  CU(cuGraphGetNodes(g, &node, &nodes));
  CUDA_KERNEL_NODE_PARAMS kp = {};
  CU(cuGraphKernelNodeGetParams(node, &kp));
  CHECK(kp.func == fc && kp.gridDimX == 3 && kp.blockDimX == 4);
  CUgraphExec ge;
  CU(cuGraphInstantiate(&ge, g, 0));
  CU(cuGraphLaunch(ge, s));
  CU(cuGraphLaunch(ge, s));
  CU(cuStreamSynchronize(s));
  RT(cudaMemcpy(&c, counter, sizeof c, cudaMemcpyDeviceToHost));
  CHECK(c == 2 * 8 + 5 + 7 + 2 * 3 * 4);
  CU(cuGraphExecDestroy(ge));
  CU(cuGraphDestroy(g));
  CU(cuStreamDestroy(s));

  RT(cudaFree(in));
  RT(cudaFree(out));
  RT(cudaFree(counter));
  return finish();
}

/* nvrtc_main.c: a C program that compiles a kernel at run time with NVRTC
 * (an option, a name expression for a template instance, the log of a
 * failing compile), loads the PTX with cuModuleLoadDataEx and launches the
 * instance through the driver API. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>
#include <nvrtc.h>

#define N 256

#define CHECK_CU(call)                                                         \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      const char *s_ = NULL;                                                   \
      cuGetErrorString(r_, &s_);                                               \
      printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call, s_ ? s_ : "?");     \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)
#define CHECK_RTC(call)                                                        \
  do {                                                                         \
    nvrtcResult r_ = (call);                                                   \
    if (r_ != NVRTC_SUCCESS) {                                                 \
      printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                     \
             nvrtcGetErrorString(r_));                                         \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static const char source[] =
    "template <int K> __global__ void times(int *v, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) v[i] = v[i] * K + OFFSET;\n"
    "}\n";

int main(void) {
  nvrtcProgram prog, bad;
  const char *options[] = {"--gpu-architecture=compute_90", "-DOFFSET=7"};
  const char *lowered = NULL;
  char *ptx, *log;
  size_t ptx_size = 0, log_size = 0;
  int major = 0, minor = 0, v[N], i, errors = 0, n = N;
  CUdevice dev;
  CUcontext ctx;
  CUmodule module;
  CUfunction times;
  CUdeviceptr d_v;

  CHECK_RTC(nvrtcVersion(&major, &minor));
  if (major < 12) {
    printf("NVRTC %d.%d\n", major, minor);
    return 1;
  }
  /* A program that does not compile: its log names the error. */
  CHECK_RTC(nvrtcCreateProgram(&bad, "__global__ void k() { undeclared(); }",
                               "bad.cu", 0, NULL, NULL));
  if (nvrtcCompileProgram(bad, 0, NULL) != NVRTC_ERROR_COMPILATION) {
    printf("a bad program compiled\n");
    ++errors;
  }
  CHECK_RTC(nvrtcGetProgramLogSize(bad, &log_size));
  log = malloc(log_size);
  CHECK_RTC(nvrtcGetProgramLog(bad, log));
  if (!strstr(log, "undeclared")) {
    printf("the log does not name the error:\n%s\n", log);
    ++errors;
  }
  free(log);
  CHECK_RTC(nvrtcDestroyProgram(&bad));

  CHECK_RTC(nvrtcCreateProgram(&prog, source, "times.cu", 0, NULL, NULL));
  CHECK_RTC(nvrtcAddNameExpression(prog, "times<3>"));
  CHECK_RTC(nvrtcCompileProgram(prog, 2, options));
  CHECK_RTC(nvrtcGetLoweredName(prog, "times<3>", &lowered));
  CHECK_RTC(nvrtcGetPTXSize(prog, &ptx_size));
  ptx = malloc(ptx_size);
  CHECK_RTC(nvrtcGetPTX(prog, ptx));

  CHECK_CU(cuInit(0));
  CHECK_CU(cuDeviceGet(&dev, 0));
  CHECK_CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK_CU(cuCtxSetCurrent(ctx));
  CHECK_CU(cuModuleLoadDataEx(&module, ptx, 0, NULL, NULL));
  CHECK_CU(cuModuleGetFunction(&times, module, lowered));
  CHECK_RTC(nvrtcDestroyProgram(&prog));
  free(ptx);

  for (i = 0; i < N; ++i)
    v[i] = i;
  CHECK_CU(cuMemAlloc(&d_v, sizeof v));
  CHECK_CU(cuMemcpyHtoD(d_v, v, sizeof v));
  {
    void *args[] = {&d_v, &n};
    CHECK_CU(cuLaunchKernel(times, N / 64, 1, 1, 64, 1, 1, 0, NULL, args,
                            NULL));
  }
  CHECK_CU(cuMemcpyDtoH(v, d_v, sizeof v));
  for (i = 0; i < N; ++i)
    if (v[i] != i * 3 + 7 && errors++ < 5)
      printf("v[%d] = %d, expected %d\n", i, v[i], i * 3 + 7);
  CHECK_CU(cuMemFree(d_v));
  CHECK_CU(cuModuleUnload(module));
  CHECK_CU(cuDevicePrimaryCtxRelease(dev));
  printf("%s\n", errors ? "FAIL" : "PASS");
  return errors ? 1 : 0;
}

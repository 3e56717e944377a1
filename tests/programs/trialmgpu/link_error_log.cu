// link_error_log.cu: cuLinkComplete of an input whose extern device
// function and variable no input defines fails with
// CUDA_ERROR_INVALID_IMAGE and an error log that names each missing symbol
// once, with the name the input was added under, as CUDA's linker does
// ("error   : Undefined reference to 'poly3' in 'app_kernel.ptx'"); cuemu's
// log was the system linker's output, with its warnings and the cache path
// of the stored input instead of the input's name. Reduced from a program
// linking two PTX files at run time.
// CUEMU_OPTIONS: -lnvrtc -lcuda
#include <cuda.h>
#include <nvrtc.h>
#include <stdio.h>
#include <string.h>
#include <string>

static const char *app = R"(
extern "C" __device__ float poly3(float x);
extern __device__ int lib_calls;
extern "C" __global__ void eval_poly(float *y) {
  y[threadIdx.x] = poly3(y[threadIdx.x]);
  atomicAdd(&lib_calls, 1);
}
)";

int main() {
  nvrtcProgram prog;
  nvrtcCreateProgram(&prog, app, "app.cu", 0, NULL, NULL);
  const char *opts[] = {"--gpu-architecture=compute_90", "-rdc=true"};
  if (nvrtcCompileProgram(prog, 2, opts) != NVRTC_SUCCESS) {
    printf("compile failed\n");
    return 1;
  }
  size_t n = 0;
  nvrtcGetPTXSize(prog, &n);
  std::string ptx(n, '\0');
  nvrtcGetPTX(prog, &ptx[0]);
  nvrtcDestroyProgram(&prog);

  cuInit(0);
  CUdevice dev;
  CUcontext ctx;
  cuDeviceGet(&dev, 0);
  cuDevicePrimaryCtxRetain(&ctx, dev);
  cuCtxSetCurrent(ctx);
  char error[2048] = "unset";
  CUjit_option o[] = {CU_JIT_ERROR_LOG_BUFFER,
                      CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *v[] = {error, (void *)sizeof error};
  CUlinkState link;
  if (cuLinkCreate(2, o, v, &link) != CUDA_SUCCESS ||
      cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)ptx.c_str(), n,
                    "app_kernel.ptx", 0, NULL, NULL) != CUDA_SUCCESS) {
    printf("link setup failed\n");
    return 1;
  }
  void *image = NULL;
  size_t size = 0;
  CUresult r = cuLinkComplete(link, &image, &size);
  int ok = r == CUDA_ERROR_INVALID_IMAGE || r == CUDA_ERROR_NOT_FOUND;
  const char *want[] = {"Undefined reference to 'poly3' in 'app_kernel.ptx'",
                        "Undefined reference to 'lib_calls' in "
                        "'app_kernel.ptx'"};
  for (int i = 0; i < 2; ++i) {
    const char *at = strstr(error, want[i]);
    if (!at || strstr(at + 1, want[i])) {
      printf("the log does not name %s once\n", want[i]);
      ok = 0;
    }
  }
  if (strstr(error, "cuemu-link-input") || strstr(error, "/usr/bin/ld")) {
    printf("the log shows the system linker's output\n");
    ok = 0;
  }
  if (!ok)
    printf("result %d, log:\n%s\n", (int)r, error);
  cuLinkDestroy(link);
  cuDevicePrimaryCtxRelease(dev);
  puts(ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

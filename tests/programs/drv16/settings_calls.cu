/*
 * settings_calls.cu: the driver and NVRTC calls that configure rather than
 * compute, as a tool or a JIT framework makes them: GPU coredump settings
 * of the process and of a context (cuCoredumpGet/SetAttribute(Global):
 * defaults, sizes, strings, flags and the errors), the execution affinity
 * queries, NVRTC's precompiled-header calls (accepted, none made) and
 * nvrtcSetFlowCallback (called while compiling; a 1 cancels the compile
 * with NVRTC_ERROR_CANCELLED, a 0 lets it finish). Prints PASS when all is
 * well.
 */
// CUEMU_OPTIONS: -lnvrtc -lcuda
// NVCC_OPTIONS: -lnvrtc -lcuda
#include <cuda.h>
#include <nvrtc.h>

#include <atomic>
#include <cstdio>
#include <cstring>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)
#define NV(call) CHECK((call) == NVRTC_SUCCESS)

static void coredump_settings() {
  /* The process's defaults. */
  bool on = true;
  size_t size = sizeof on;
  CU(cuCoredumpGetAttributeGlobal(CU_COREDUMP_ENABLE_ON_EXCEPTION, &on, &size));
  CHECK(!on);
  size = sizeof on;
  CU(cuCoredumpGetAttributeGlobal(CU_COREDUMP_TRIGGER_HOST, &on, &size));
  CHECK(on);
  size = 0;
  CU(cuCoredumpGetAttributeGlobal(CU_COREDUMP_FILE, nullptr, &size));
  CHECK(size > 10 && size <= 1024);
  char file[1024] = {};
  CU(cuCoredumpGetAttributeGlobal(CU_COREDUMP_FILE, file, &size));
  CHECK(std::strncmp(file, "core.cuda.", 10) == 0);

  /* Set for the process, read back. */
  char path[] = "/tmp/cuemu-test-core";
  size = sizeof path;
  CU(cuCoredumpSetAttributeGlobal(CU_COREDUMP_FILE, path, &size));
  size = sizeof file;
  CU(cuCoredumpGetAttributeGlobal(CU_COREDUMP_FILE, file, &size));
  CHECK(std::strcmp(file, path) == 0);
  int flags = CU_COREDUMP_SKIP_GLOBAL_MEMORY | CU_COREDUMP_SKIP_ABORT, got = 0;
  size = sizeof flags;
  CU(cuCoredumpSetAttributeGlobal(CU_COREDUMP_GENERATION_FLAGS, &flags, &size));
  size = sizeof got;
  CU(cuCoredumpGetAttributeGlobal(CU_COREDUMP_GENERATION_FLAGS, &got, &size));
  CHECK(got == flags);
  on = true;
  size = sizeof on;
  CU(cuCoredumpSetAttributeGlobal(CU_COREDUMP_ENABLE_USER_TRIGGER, &on, &size));

  /* A context starts from the process's, and its own setting stays its. */
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  char ctx_path[] = "/tmp/cuemu-test-core-ctx";
  size = sizeof ctx_path;
  CU(cuCoredumpSetAttribute(CU_COREDUMP_FILE, ctx_path, &size));
  on = true;
  size = sizeof on;
  CU(cuCoredumpSetAttribute(CU_COREDUMP_ENABLE_ON_EXCEPTION, &on, &size));
  size = sizeof file;
  CU(cuCoredumpGetAttribute(CU_COREDUMP_FILE, file, &size));
  CHECK(std::strcmp(file, ctx_path) == 0);
  size = sizeof got;
  CU(cuCoredumpGetAttribute(CU_COREDUMP_GENERATION_FLAGS, &got, &size));
  CHECK(got == flags);
  on = false;
  size = sizeof on;
  CU(cuCoredumpGetAttribute(CU_COREDUMP_ENABLE_ON_EXCEPTION, &on, &size));
  CHECK(on);
  size = sizeof on;
  CU(cuCoredumpGetAttributeGlobal(CU_COREDUMP_ENABLE_ON_EXCEPTION, &on, &size));
  CHECK(!on);
  size = sizeof file;
  CU(cuCoredumpGetAttributeGlobal(CU_COREDUMP_FILE, file, &size));
  CHECK(std::strcmp(file, path) == 0);

  /* Errors. */
  size = sizeof on;
  CHECK(cuCoredumpSetAttribute(CU_COREDUMP_ENABLE_USER_TRIGGER, &on, &size) ==
        CUDA_ERROR_NOT_PERMITTED);
  CHECK(cuCoredumpGetAttributeGlobal(CU_COREDUMP_MAX, &on, &size) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cuCoredumpGetAttributeGlobal(CU_COREDUMP_TRIGGER_HOST, &on, nullptr) ==
        CUDA_ERROR_INVALID_VALUE);
  char tiny[4];
  size = sizeof tiny;
  CHECK(cuCoredumpGetAttributeGlobal(CU_COREDUMP_FILE, tiny, &size) ==
        CUDA_ERROR_INVALID_VALUE);
  int bad_flags = 1 << 20;
  size = sizeof bad_flags;
  CHECK(cuCoredumpSetAttributeGlobal(CU_COREDUMP_GENERATION_FLAGS, &bad_flags,
                                     &size) == CUDA_ERROR_INVALID_VALUE);

  /* Execution affinity: not supported for new contexts; a context's SMs
   * are its device's. */
  int supported = -1;
  CU(cuDeviceGetExecAffinitySupport(&supported, CU_EXEC_AFFINITY_TYPE_SM_COUNT,
                                    dev));
  CHECK(supported == 0);
  CHECK(cuDeviceGetExecAffinitySupport(&supported, CU_EXEC_AFFINITY_TYPE_SM_COUNT,
                                       9999) == CUDA_ERROR_INVALID_DEVICE);
  CUexecAffinityParam affinity = {};
  CU(cuCtxGetExecAffinity(&affinity, CU_EXEC_AFFINITY_TYPE_SM_COUNT));
  int sms = 0;
  CU(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
  CHECK(affinity.type == CU_EXEC_AFFINITY_TYPE_SM_COUNT &&
        affinity.param.smCount.val == static_cast<unsigned>(sms));
  CHECK(cuCtxGetExecAffinity(nullptr, CU_EXEC_AFFINITY_TYPE_SM_COUNT) ==
        CUDA_ERROR_INVALID_VALUE);
  CU(cuDevicePrimaryCtxRelease(dev));
}

static const char *kSource = R"(
extern "C" __global__ void twice(int *v) { v[threadIdx.x] *= 2; }
)";

struct flow_state {
  std::atomic<int> calls{0};
  int cancel_after; /* the call that returns 1 (0: never) */
};

static int flow(void *payload, void *reserved) {
  flow_state *s = static_cast<flow_state *>(payload);
  const int n = ++s->calls;
  return (reserved == nullptr && s->cancel_after && n >= s->cancel_after) ? 1 : 0;
}

static void nvrtc_calls() {
  /* Precompiled headers: the heap size is kept, none is made. */
  size_t heap = 1;
  NV(nvrtcSetPCHHeapSize(1 << 20));
  NV(nvrtcGetPCHHeapSize(&heap));
  CHECK(heap == (1u << 20));
  CHECK(nvrtcGetPCHHeapSize(nullptr) == NVRTC_ERROR_INVALID_INPUT);

  nvrtcProgram prog;
  NV(nvrtcCreateProgram(&prog, kSource, "twice.cu", 0, nullptr, nullptr));
  flow_state go;
  go.cancel_after = 0;
  NV(nvrtcSetFlowCallback(prog, flow, &go));
  NV(nvrtcCompileProgram(prog, 0, nullptr));
  CHECK(go.calls.load() >= 1);
  CHECK(nvrtcGetPCHCreateStatus(prog) == NVRTC_ERROR_NO_PCH_CREATE_ATTEMPTED);
  size_t required = 1;
  NV(nvrtcGetPCHHeapSizeRequired(prog, &required));
  CHECK(required == 0);
  size_t ptx_size = 0;
  NV(nvrtcGetPTXSize(prog, &ptx_size));
  CHECK(ptx_size > 1);
  NV(nvrtcDestroyProgram(&prog));

  /* A callback that says 1 at its first call cancels the compile. */
  NV(nvrtcCreateProgram(&prog, kSource, "twice.cu", 0, nullptr, nullptr));
  flow_state stop;
  stop.cancel_after = 1;
  NV(nvrtcSetFlowCallback(prog, flow, &stop));
  CHECK(nvrtcCompileProgram(prog, 0, nullptr) == NVRTC_ERROR_CANCELLED);
  CHECK(stop.calls.load() >= 1);
  CHECK(nvrtcGetPTXSize(prog, &ptx_size) == NVRTC_ERROR_INVALID_PROGRAM);
  /* Without the callback, the same program compiles. */
  NV(nvrtcSetFlowCallback(prog, nullptr, nullptr));
  NV(nvrtcCompileProgram(prog, 0, nullptr));
  NV(nvrtcDestroyProgram(&prog));

  CHECK(nvrtcSetFlowCallback(nullptr, flow, &go) == NVRTC_ERROR_INVALID_PROGRAM);
  CHECK(nvrtcGetPCHCreateStatus(nullptr) == NVRTC_ERROR_INVALID_PROGRAM);
}

int main() {
  CU(cuInit(0));
  coredump_settings();
  nvrtc_calls();
  return finish();
}

/*
 * cuemu_parity_driver.c: the GPU leg of the parity runner. The CUDA driver
 * (libcuda.so.1) is loaded with dlopen on first use; the few of its types
 * that are needed are declared here, so no CUDA header is needed to build.
 * Versioned entry points (cuMemAlloc_v2, ...) are the ones cuda.h maps the
 * plain names to; for the primary-context calls, whose _v2 came with CUDA
 * 11, the plain name is the fallback for older drivers.
 */
#define _POSIX_C_SOURCE 200809L

#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuemu_parity_gpu.h"
#include "cuemu_parity_text.h"

/* The driver's own declarations (cuda.h), as far as they are used here. */
typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
#define CUDA_SUCCESS 0
#define CUDA_ERROR_NOT_READY 600
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR 75
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR 76
#define CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES 8
#define CU_JIT_ERROR_LOG_BUFFER 5
#define CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES 6

/* Dynamic shared memory a kernel may use without opting in (CUDA's 48 KiB). */
#define DEFAULT_DYNAMIC_SHARED (48u * 1024u)
/* Seconds a kernel may run before the GPU leg gives up on it, unless
 * $CUEMU_GPU_TIMEOUT says otherwise. */
#define DEFAULT_TIMEOUT_S 120

static struct {
  CUresult (*Init)(unsigned);
  CUresult (*DriverGetVersion)(int *);
  CUresult (*DeviceGetCount)(int *);
  CUresult (*DeviceGet)(CUdevice *, int);
  CUresult (*DeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*DeviceGetName)(char *, int, CUdevice);
  CUresult (*DevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*DevicePrimaryCtxRelease)(CUdevice);
  CUresult (*DevicePrimaryCtxReset)(CUdevice);
  CUresult (*CtxSetCurrent)(CUcontext);
  CUresult (*CtxSynchronize)(void);
  CUresult (*ModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                               void **);
  CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*ModuleUnload)(CUmodule);
  CUresult (*FuncSetAttribute)(CUfunction, int, int);
  CUresult (*MemAlloc)(CUdeviceptr *, size_t);
  CUresult (*MemFree)(CUdeviceptr);
  CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*MemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                           unsigned, unsigned, unsigned, CUstream, void **,
                           void **);
  CUresult (*LaunchCooperativeKernel)(CUfunction, unsigned, unsigned, unsigned,
                                      unsigned, unsigned, unsigned, unsigned,
                                      CUstream, void **);
  CUresult (*StreamQuery)(CUstream);
  CUresult (*GetErrorName)(CUresult, const char **);
  CUresult (*GetErrorString)(CUresult, const char **);

  int available;   /* a device can be used */
  char why[1024];  /* why not, when not */
  CUdevice device; /* device 0 */
  int arch;        /* its compute capability, e.g. 90 */
  char description[320];
  CUcontext context; /* device 0's primary context, once retained */
  int hung;          /* a kernel outlived its time limit */
} drv;

static pthread_once_t drv_once = PTHREAD_ONCE_INIT;
/* One GPU leg at a time per process: they share the primary context. */
static pthread_mutex_t run_lock = PTHREAD_MUTEX_INITIALIZER;

/* Writes "CUDA_ERROR_X (description)" for a driver result into `buffer`. */
static void describe(CUresult result, char *buffer, size_t size) {
  const char *name = NULL, *text = NULL;
  if (drv.GetErrorName && drv.GetErrorName(result, &name) != CUDA_SUCCESS)
    name = NULL;
  if (drv.GetErrorString && drv.GetErrorString(result, &text) != CUDA_SUCCESS)
    text = NULL;
  if (name)
    snprintf(buffer, size, "%s (%s)", name, text ? text : "no description");
  else
    snprintf(buffer, size, "CUresult %d", result);
}

/* Records why no device can be used. */
static void unavailable(const char *call, CUresult result) {
  char text[256];
  describe(result, text, sizeof text);
  snprintf(drv.why, sizeof drv.why, "%s failed: %s", call, text);
}

static void load_driver(void) {
  static const char *const names[] = {"libcuda.so.1", "libcuda.so", NULL};
  char *why = NULL;
  void *lib = cuemu__parity_dlopen("CUEMU_CUDA_DRIVER_LIBRARY", names, 0, &why);
  if (!lib) {
    snprintf(drv.why, sizeof drv.why, "%s",
             why ? why : "libcuda.so.1 could not be loaded");
    free(why);
    return;
  }
  /* cuemu's own driver would run the GPU leg on the emulator. Left
   * loaded: loading it registered its entry points with libcuemu
   * (runtime/cuemu_rt_ids.c), which keeps them. */
  if (cuemu__parity_is_cuemu_library(lib)) {
    const char *forced = getenv("CUEMU_CUDA_DRIVER_LIBRARY");
    snprintf(drv.why, sizeof drv.why,
             "%s is cuemu's emulated driver, not CUDA's (%s names "
             "cuemu-toolkit/compat)",
             forced && *forced ? forced : names[0],
             forced && *forced ? "CUEMU_CUDA_DRIVER_LIBRARY"
                               : "LD_LIBRARY_PATH");
    return;
  }
  const cuemu__parity_symbol symbols[] = {
      {{"cuInit", NULL}, &drv.Init, 0},
      {{"cuDriverGetVersion", NULL}, &drv.DriverGetVersion, 0},
      {{"cuDeviceGetCount", NULL}, &drv.DeviceGetCount, 0},
      {{"cuDeviceGet", NULL}, &drv.DeviceGet, 0},
      {{"cuDeviceGetAttribute", NULL}, &drv.DeviceGetAttribute, 0},
      {{"cuDeviceGetName", NULL}, &drv.DeviceGetName, 0},
      {{"cuDevicePrimaryCtxRetain", NULL}, &drv.DevicePrimaryCtxRetain, 0},
      {{"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"},
       &drv.DevicePrimaryCtxRelease,
       0},
      {{"cuDevicePrimaryCtxReset_v2", "cuDevicePrimaryCtxReset"},
       &drv.DevicePrimaryCtxReset,
       0},
      {{"cuCtxSetCurrent", NULL}, &drv.CtxSetCurrent, 0},
      {{"cuCtxSynchronize", NULL}, &drv.CtxSynchronize, 0},
      {{"cuModuleLoadDataEx", NULL}, &drv.ModuleLoadDataEx, 0},
      {{"cuModuleGetFunction", NULL}, &drv.ModuleGetFunction, 0},
      {{"cuModuleUnload", NULL}, &drv.ModuleUnload, 0},
      {{"cuFuncSetAttribute", NULL}, &drv.FuncSetAttribute, 0},
      {{"cuMemAlloc_v2", NULL}, &drv.MemAlloc, 0},
      {{"cuMemFree_v2", NULL}, &drv.MemFree, 0},
      {{"cuMemcpyHtoD_v2", NULL}, &drv.MemcpyHtoD, 0},
      {{"cuMemcpyDtoH_v2", NULL}, &drv.MemcpyDtoH, 0},
      {{"cuLaunchKernel", NULL}, &drv.LaunchKernel, 0},
      {{"cuLaunchCooperativeKernel", NULL}, &drv.LaunchCooperativeKernel, 1},
      {{"cuStreamQuery", NULL}, &drv.StreamQuery, 0},
      {{"cuGetErrorName", NULL}, &drv.GetErrorName, 0},
      {{"cuGetErrorString", NULL}, &drv.GetErrorString, 0},
  };
  const char *missing = NULL;
  if (!cuemu__parity_dlsym_all(
          lib, symbols, (int)(sizeof symbols / sizeof symbols[0]), &missing)) {
    snprintf(drv.why, sizeof drv.why,
             "the CUDA driver lacks %s (a driver older than CUDA 11?)",
             missing);
    return;
  }
  CUresult result = drv.Init(0);
  if (result != CUDA_SUCCESS) {
    unavailable("cuInit", result);
    return;
  }
  int count = 0;
  result = drv.DeviceGetCount(&count);
  if (result != CUDA_SUCCESS) {
    unavailable("cuDeviceGetCount", result);
    return;
  }
  if (count < 1) {
    snprintf(drv.why, sizeof drv.why, "the CUDA driver sees no device");
    return;
  }
  int major = 0, minor = 0, version = 0;
  char name[256] = "";
  if ((result = drv.DeviceGet(&drv.device, 0)) != CUDA_SUCCESS ||
      (result = drv.DeviceGetAttribute(
           &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, drv.device)) !=
          CUDA_SUCCESS ||
      (result = drv.DeviceGetAttribute(
           &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, drv.device)) !=
          CUDA_SUCCESS ||
      (result = drv.DeviceGetName(name, (int)sizeof name, drv.device)) !=
          CUDA_SUCCESS) {
    unavailable("querying device 0", result);
    return;
  }
  if (drv.DriverGetVersion(&version) != CUDA_SUCCESS)
    version = 0;
  drv.arch = major * 10 + minor;
  snprintf(drv.description, sizeof drv.description,
           "%s (sm_%d, driver API %d.%d)", name, drv.arch, version / 1000,
           version % 1000 / 10);
  drv.available = 1;
}

int cuemu__parity_gpu_available(const char **why) {
  pthread_once(&drv_once, load_driver);
  if (!drv.available && why)
    *why = drv.why;
  return drv.available;
}

int cuemu__parity_gpu_arch(void) {
  return cuemu__parity_gpu_available(NULL) ? drv.arch : 0;
}

const char *cuemu__parity_gpu_description(void) {
  return cuemu__parity_gpu_available(NULL) ? drv.description : NULL;
}


/* The state of one GPU leg, so that a failure anywhere can say where. */
typedef struct run {
  const cuemu__parity_ptx *ptx;
  char **message;
  CUmodule module;
  CUdeviceptr *device; /* one per argument; 0 for scalars and empty arrays */
  int nargs;
  int poisoned; /* the kernel failed: the context may be unusable */
} run;

/* Fills the run's message for the failed driver call `call`; `detail` (may
 * be NULL) is appended on its own line. Returns CUDA_DRIVER. */
static cuemu_status fail(run *r, const char *call, CUresult result,
                         const char *detail) {
  if (r->message) {
    char text[256];
    describe(result, text, sizeof text);
    *r->message =
        cuemu__parity_format("GPU leg of kernel %s (sm_%d): %s: %s%s%s",
                    r->ptx->lowered_name, drv.arch, call, text,
                    detail && *detail ? "\n" : "", detail ? detail : "");
  }
  return CUEMU_CUDA_DRIVER;
}

/* Seconds a kernel may run: $CUEMU_GPU_TIMEOUT, or the default. */
static double time_limit(void) {
  const char *text = getenv("CUEMU_GPU_TIMEOUT");
  char *end = NULL;
  double seconds = text ? strtod(text, &end) : 0.0;
  if (!text || end == text || *end != '\0' || !(seconds > 0.0))
    return DEFAULT_TIMEOUT_S;
  return seconds;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Waits for the default stream with a time limit, polling so that a kernel
 * that never ends cannot hang the runner. */
static CUresult wait_for_kernel(double limit, int *timed_out) {
  double deadline = now_s() + limit;
  long pause_ns = 20000;
  *timed_out = 0;
  for (;;) {
    CUresult result = drv.StreamQuery(NULL);
    if (result != CUDA_ERROR_NOT_READY)
      return result;
    if (now_s() > deadline) {
      *timed_out = 1;
      return result;
    }
    struct timespec pause = {0, pause_ns};
    nanosleep(&pause, NULL);
    if (pause_ns < 5000000)
      pause_ns *= 2;
  }
}

/* Frees what the run allocated. After a kernel fault these calls may fail
 * (the context is unusable until it is reset); their results are ignored on
 * purpose. */
static void release_run(run *r) {
  for (int i = 0; r->device && i < r->nargs; ++i)
    if (r->device[i])
      drv.MemFree(r->device[i]);
  free(r->device);
  if (r->module)
    drv.ModuleUnload(r->module);
}

/* Drops the primary context after an error that may have left it unusable
 * (CUDA's errors after a kernel fault are sticky); the next run retains a
 * fresh one. */
static void reset_context(void) {
  drv.DevicePrimaryCtxRelease(drv.device);
  drv.DevicePrimaryCtxReset(drv.device);
  drv.context = NULL;
}

static cuemu_status run_locked(run *r, cuemu_dim3 grid, cuemu_dim3 block,
                               size_t dynamic_shared, int cooperative,
                               cuemu__parity_gpu_arg *args) {
  CUresult result;
  if (!drv.context) {
    CUcontext context = NULL;
    result = drv.DevicePrimaryCtxRetain(&context, drv.device);
    if (result != CUDA_SUCCESS)
      return fail(r, "cuDevicePrimaryCtxRetain", result, NULL);
    drv.context = context;
  }
  result = drv.CtxSetCurrent(drv.context);
  if (result != CUDA_SUCCESS)
    return fail(r, "cuCtxSetCurrent", result, NULL);

  char jit_log[8192] = "";
  int jit_options[] = {CU_JIT_ERROR_LOG_BUFFER,
                       CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *jit_values[] = {jit_log, (void *)(uintptr_t)sizeof jit_log};
  result =
      drv.ModuleLoadDataEx(&r->module, r->ptx->ptx, 2, jit_options, jit_values);
  if (result != CUDA_SUCCESS) {
    r->module = NULL;
    jit_log[sizeof jit_log - 1] = '\0';
    return fail(r, "cuModuleLoadDataEx", result, jit_log);
  }
  CUfunction function = NULL;
  result = drv.ModuleGetFunction(&function, r->module, r->ptx->lowered_name);
  if (result != CUDA_SUCCESS)
    return fail(r, "cuModuleGetFunction", result, NULL);
  if (dynamic_shared > DEFAULT_DYNAMIC_SHARED) {
    result = drv.FuncSetAttribute(
        function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
        (int)dynamic_shared);
    if (result != CUDA_SUCCESS)
      return fail(r, "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)",
                  result, NULL);
  }

  void **params = calloc((size_t)r->nargs + 1, sizeof *params);
  if (!params)
    return CUEMU_OUT_OF_MEMORY;
  for (int i = 0; i < r->nargs; ++i) {
    params[i] = args[i].is_array ? (void *)&r->device[i] : args[i].host;
    if (!args[i].is_array || args[i].bytes == 0)
      continue;
    result = drv.MemAlloc(&r->device[i], args[i].bytes);
    if (result != CUDA_SUCCESS) {
      r->device[i] = 0;
      free(params);
      char detail[96];
      snprintf(detail, sizeof detail, "argument %d: %zu bytes", i,
               args[i].bytes);
      return fail(r, "cuMemAlloc", result, detail);
    }
    result = drv.MemcpyHtoD(r->device[i], args[i].host, args[i].bytes);
    if (result != CUDA_SUCCESS) {
      free(params);
      return fail(r, "cuMemcpyHtoD", result, NULL);
    }
  }

  const char *call =
      cooperative ? "cuLaunchCooperativeKernel" : "cuLaunchKernel";
  if (cooperative)
    result = drv.LaunchCooperativeKernel(
        function, grid.x, grid.y, grid.z, block.x, block.y, block.z,
        (unsigned)dynamic_shared, NULL, params);
  else
    result =
        drv.LaunchKernel(function, grid.x, grid.y, grid.z, block.x, block.y,
                         block.z, (unsigned)dynamic_shared, NULL, params, NULL);
  free(params);
  char shape[160];
  snprintf(shape, sizeof shape,
           "grid (%u, %u, %u), block (%u, %u, %u), %zu bytes of dynamic "
           "shared memory",
           grid.x, grid.y, grid.z, block.x, block.y, block.z, dynamic_shared);
  if (result != CUDA_SUCCESS)
    return fail(r, call, result, shape);
  double limit = time_limit();
  int timed_out = 0;
  result = wait_for_kernel(limit, &timed_out);
  if (timed_out) {
    drv.hung = 1;
    if (r->message)
      *r->message = cuemu__parity_format(
          "GPU leg of kernel %s (sm_%d): the kernel did not finish within "
          "%g s ($CUEMU_GPU_TIMEOUT); %s",
          r->ptx->lowered_name, drv.arch, limit, shape);
    return CUEMU_CUDA_DRIVER;
  }
  if (result == CUDA_SUCCESS)
    result = drv.CtxSynchronize();
  if (result != CUDA_SUCCESS) {
    r->poisoned = 1;
    return fail(r, "the kernel", result, shape);
  }
  for (int i = 0; i < r->nargs; ++i) {
    if (!args[i].is_array || !args[i].copy_back || args[i].bytes == 0)
      continue;
    result = drv.MemcpyDtoH(args[i].host, r->device[i], args[i].bytes);
    if (result != CUDA_SUCCESS)
      return fail(r, "cuMemcpyDtoH", result, NULL);
  }
  return CUEMU_SUCCESS;
}

cuemu_status cuemu__parity_gpu_run(const cuemu__parity_ptx *ptx,
                                   cuemu_dim3 grid, cuemu_dim3 block,
                                   size_t dynamic_shared, int cooperative,
                                   cuemu__parity_gpu_arg *args, int nargs,
                                   char **message) {
  if (message)
    *message = NULL;
  if (!ptx || !ptx->ptx || !ptx->lowered_name || nargs < 0 ||
      (nargs > 0 && !args) || dynamic_shared > INT_MAX)
    return CUEMU_INVALID_VALUE;
  for (int i = 0; i < nargs; ++i)
    if (!args[i].host && (args[i].bytes > 0 || !args[i].is_array))
      return CUEMU_INVALID_VALUE;
  const char *why = NULL;
  if (!cuemu__parity_gpu_available(&why)) {
    if (message)
      *message = cuemu__parity_format("no CUDA device for kernel %s: %s",
                             ptx->lowered_name, why);
    return CUEMU_NO_DEVICE;
  }
  if (cooperative && !drv.LaunchCooperativeKernel) {
    if (message)
      *message = cuemu__parity_format("kernel %s: the CUDA driver has no "
                             "cuLaunchCooperativeKernel",
                             ptx->lowered_name);
    return CUEMU_NOT_SUPPORTED;
  }
  pthread_mutex_lock(&run_lock);
  cuemu_status status;
  if (drv.hung) {
    if (message)
      *message = cuemu__parity_format("kernel %s: not run, an earlier kernel is still "
                             "running past its time limit",
                             ptx->lowered_name);
    status = CUEMU_CUDA_DRIVER;
  } else {
    run r = {ptx,   message,
             NULL,  calloc((size_t)nargs + 1, sizeof(CUdeviceptr)),
             nargs, 0};
    if (!r.device) {
      status = CUEMU_OUT_OF_MEMORY;
    } else {
      status = run_locked(&r, grid, block, dynamic_shared, cooperative, args);
      /* A kernel that is still running may write to its buffers: those
       * are kept. */
      if (drv.hung)
        free(r.device);
      else
        release_run(&r);
      if (r.poisoned)
        reset_context();
    }
  }
  pthread_mutex_unlock(&run_lock);
  return status;
}

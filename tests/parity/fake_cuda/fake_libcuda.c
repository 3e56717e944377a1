/*
 * fake_libcuda.c: a stand-in for libcuda.so.1, for testing the parity
 * runner's GPU leg (parity/cuemu_parity_driver.c) on machines without a GPU.
 * tests/check_parity_gpu.c builds it with $CC into a shared object and
 * points CUEMU_CUDA_DRIVER_LIBRARY at it. It is not an emulator: "device"
 * memory is host memory, and it "runs" only the kernels of
 * tests/parity/nvrtc/scale.cu that the tests launch, by their lowered names,
 * following the driver API's documented behaviour for what the GPU leg
 * calls: sticky errors after a fault, the opt-in above 48 KiB of dynamic
 * shared memory, 1024 threads per block, the JIT error log.
 *
 * Environment: FAKE_CUDA_INIT_ERROR=N makes cuInit return N;
 * FAKE_CUDA_DEVICES=N sets the device count (default 1).
 * The fake_cuda_* functions let a test read what happened.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* CUDA's driver error codes, names and texts: the table libcuemu uses. */
#include <cuemu/cuemu_driver_errors.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;

/* The results the fake returns, under short names. */
enum {
  SUCCESS = 0,
  INVALID_VALUE = 1,
  NOT_INITIALIZED = 3,
  NO_DEVICE = 100,
  INVALID_PTX = 218,
  NOT_FOUND = 500,
  NOT_READY = 600,
  ILLEGAL_ADDRESS = 700,
};

/* The kernels the fake knows. */
enum kernel { FILL = 1, BLOCK_TOTAL, STORE_AT, SPIN };
static const struct {
  const char *name;
  enum kernel kernel;
} known[] = {
    {"_Z4fillPii", FILL},
    {"_Z11block_totalPx", BLOCK_TOTAL},
    {"_ZN7kernels8store_atEPixi", STORE_AT},
    {"_Z4spinPVi", SPIN},
};

/* One "function" object per known kernel; a CUfunction points at one. */
static enum kernel functions[sizeof known / sizeof known[0]];

static int initialised;
static int sticky;   /* a sticky error, until the primary context is reset */
static int spinning; /* a kernel that never ends was launched */
static int dynamic_shared_limit = 48 * 1024;
static int last_shared_attribute;
static int live_allocations, resets, cooperative_launches, retained;
static struct block {
  void *base;
  size_t size;
} blocks[64];

int fake_cuda_live_allocations(void) { return live_allocations; }
int fake_cuda_resets(void) { return resets; }
int fake_cuda_cooperative_launches(void) { return cooperative_launches; }
int fake_cuda_last_shared_attribute(void) { return last_shared_attribute; }
int fake_cuda_retained(void) { return retained; }

CUresult cuInit(unsigned flags) {
  const char *error = getenv("FAKE_CUDA_INIT_ERROR");
  if (flags != 0)
    return INVALID_VALUE;
  if (error && *error)
    return atoi(error);
  initialised = 1;
  return SUCCESS;
}

CUresult cuDriverGetVersion(int *version) {
  *version = 13000;
  return SUCCESS;
}

CUresult cuDeviceGetCount(int *count) {
  if (!initialised)
    return NOT_INITIALIZED;
  const char *devices = getenv("FAKE_CUDA_DEVICES");
  *count = devices && *devices ? atoi(devices) : 1;
  return SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  if (ordinal != 0)
    return INVALID_VALUE;
  *device = 0;
  return SUCCESS;
}

CUresult cuDeviceGetAttribute(int *value, int attribute, CUdevice device) {
  (void)device;
  *value = attribute == 75 ? 9 : 0; /* compute capability 9.0 */
  return SUCCESS;
}

CUresult cuDeviceGetName(char *name, int size, CUdevice device) {
  (void)device;
  strncpy(name, "Fake CUDA Device", (size_t)size);
  name[size - 1] = '\0';
  return SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice device) {
  (void)device;
  *context = (CUcontext)(uintptr_t)0x1000;
  ++retained;
  return SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice device) {
  (void)device;
  --retained;
  return SUCCESS;
}

CUresult cuDevicePrimaryCtxReset_v2(CUdevice device) {
  (void)device;
  sticky = 0;
  dynamic_shared_limit = 48 * 1024;
  ++resets;
  return SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext context) {
  return context ? SUCCESS : INVALID_VALUE;
}

CUresult cuCtxSynchronize(void) { return sticky; }

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned count,
                            int *options, void **values) {
  if (sticky)
    return sticky;
  if (strstr((const char *)image, "JIT_ERROR")) {
    char *log = NULL;
    size_t size = 0;
    for (unsigned i = 0; i < count; ++i) {
      if (options[i] == 5)
        log = values[i];
      if (options[i] == 6)
        size = (size_t)(uintptr_t)values[i];
    }
    if (log && size)
      strncpy(log, "ptxas fatal: fake JIT error", size);
    return INVALID_PTX;
  }
  *module = (CUmodule)malloc(1);
  return SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *function, CUmodule module,
                             const char *name) {
  (void)module;
  for (size_t i = 0; i < sizeof known / sizeof known[0]; ++i)
    if (strcmp(name, known[i].name) == 0) {
      functions[i] = known[i].kernel;
      *function = (CUfunction)&functions[i];
      return SUCCESS;
    }
  return NOT_FOUND;
}

CUresult cuModuleUnload(CUmodule module) {
  free(module);
  return SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction function, int attribute, int value) {
  (void)function;
  if (attribute != 8 || value < 0 || value > 227 * 1024)
    return INVALID_VALUE;
  last_shared_attribute = value;
  dynamic_shared_limit = value;
  return SUCCESS;
}

CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t size) {
  if (sticky)
    return sticky;
  if (size == 0)
    return INVALID_VALUE;
  for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; ++i)
    if (!blocks[i].base) {
      blocks[i].base = malloc(size);
      blocks[i].size = size;
      *pointer = (CUdeviceptr)(uintptr_t)blocks[i].base;
      ++live_allocations;
      return SUCCESS;
    }
  return 2; /* CUDA_ERROR_OUT_OF_MEMORY */
}

CUresult cuMemFree_v2(CUdeviceptr pointer) {
  for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; ++i)
    if (blocks[i].base && (CUdeviceptr)(uintptr_t)blocks[i].base == pointer) {
      free(blocks[i].base);
      blocks[i].base = NULL;
      --live_allocations;
      return sticky;
    }
  return INVALID_VALUE;
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr to, const void *from, size_t size) {
  if (sticky)
    return sticky;
  memcpy((void *)(uintptr_t)to, from, size);
  return SUCCESS;
}

CUresult cuMemcpyDtoH_v2(void *to, CUdeviceptr from, size_t size) {
  if (sticky)
    return sticky;
  memcpy(to, (const void *)(uintptr_t)from, size);
  return SUCCESS;
}

/* Whether [address, address + size) lies inside one allocation. */
static int inside(uintptr_t address, size_t size) {
  for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; ++i) {
    uintptr_t base = (uintptr_t)blocks[i].base;
    if (base && address >= base && address + size <= base + blocks[i].size)
      return 1;
  }
  return 0;
}

CUresult cuLaunchKernel(CUfunction function, unsigned gx, unsigned gy,
                        unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, CUstream stream, void **params,
                        void **extra) {
  (void)stream;
  if (sticky)
    return sticky;
  if (extra || !params || (unsigned long long)bx * by * bz > 1024 || !gx ||
      !gy || !gz || (int)shared > dynamic_shared_limit)
    return INVALID_VALUE;
  unsigned long long threads = (unsigned long long)gx * gy * gz * bx * by * bz;
  switch (*(enum kernel *)function) {
  case FILL: {
    int *out = *(int **)params[0];
    int n = *(int *)params[1];
    for (int i = 0; i < n && (unsigned long long)i < threads; ++i)
      out[i] = i + 5;
    break;
  }
  case BLOCK_TOTAL: {
    if (shared < 16 * 4 * bx) {
      sticky = ILLEGAL_ADDRESS;
      break;
    }
    long long *out = *(long long **)params[0];
    *out = (long long)bx * (bx - 1) / 2;
    break;
  }
  case STORE_AT: {
    int *out = *(int **)params[0];
    long long index = *(long long *)params[1];
    uintptr_t address = (uintptr_t)out + (uintptr_t)(index * 4);
    if (!inside(address, sizeof(int)))
      sticky = ILLEGAL_ADDRESS;
    else
      out[index] = *(int *)params[2];
    break;
  }
  case SPIN:
    spinning = 1;
    break;
  }
  return SUCCESS;
}

CUresult cuLaunchCooperativeKernel(CUfunction function, unsigned gx,
                                   unsigned gy, unsigned gz, unsigned bx,
                                   unsigned by, unsigned bz, unsigned shared,
                                   CUstream stream, void **params) {
  ++cooperative_launches;
  return cuLaunchKernel(function, gx, gy, gz, bx, by, bz, shared, stream,
                        params, NULL);
}

CUresult cuStreamQuery(CUstream stream) {
  (void)stream;
  if (spinning)
    return NOT_READY;
  return sticky;
}

static const struct {
  CUresult code;
  const char *name, *text;
} errors[] = {
#define FAKE_CUDA_ERROR_(name, value, text) {value, #name, text},
    CUEMU_DRIVER_ERROR_MAP(FAKE_CUDA_ERROR_)
#undef FAKE_CUDA_ERROR_
};

CUresult cuGetErrorName(CUresult code, const char **name) {
  for (size_t i = 0; i < sizeof errors / sizeof errors[0]; ++i)
    if (errors[i].code == code) {
      *name = errors[i].name;
      return SUCCESS;
    }
  return INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult code, const char **text) {
  for (size_t i = 0; i < sizeof errors / sizeof errors[0]; ++i)
    if (errors[i].code == code) {
      *text = errors[i].text;
      return SUCCESS;
    }
  return INVALID_VALUE;
}

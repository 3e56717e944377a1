/*
 * deprecated_calls.cu: driver calls that CUDA deprecated long ago but
 * still declares, as older driver programs call them:
 * cuDeviceGetProperties (each CUdevprop field the device attribute of the
 * same meaning) and cuCtxAttach/cuCtxDetach (a usage count: the context
 * is destroyed when the detaches outnumber the attaches, and must be
 * current to be detached). Prints PASS when all is well.
 */
// CUEMU_OPTIONS: -lcuda -Wno-deprecated-declarations
// NVCC_OPTIONS: -lcuda -Wno-deprecated-declarations
#include <cuda.h>

#include "../check.cuh"

#define CU(call) CHECK((call) == CUDA_SUCCESS)

static int attribute(CUdevice dev, CUdevice_attribute a) {
  int v = -1;
  CU(cuDeviceGetAttribute(&v, a, dev));
  return v;
}

int main() {
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));

  CUdevprop p = {};
  CU(cuDeviceGetProperties(&p, dev));
  CHECK(p.maxThreadsPerBlock ==
        attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
  CHECK(p.maxThreadsDim[0] == attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X));
  CHECK(p.maxThreadsDim[2] == attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z));
  CHECK(p.maxGridSize[0] == attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X));
  CHECK(p.maxGridSize[1] == attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y));
  CHECK(p.sharedMemPerBlock ==
        attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK));
  CHECK(p.totalConstantMemory ==
        attribute(dev, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY));
  CHECK(p.SIMDWidth == 32);
  CHECK(p.regsPerBlock ==
        attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK));
  CHECK(p.clockRate == attribute(dev, CU_DEVICE_ATTRIBUTE_CLOCK_RATE));
  CHECK(p.textureAlign == attribute(dev, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT));
  CHECK(cuDeviceGetProperties(nullptr, dev) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuDeviceGetProperties(&p, 99) == CUDA_ERROR_INVALID_DEVICE);

  // No context current: nothing to attach to.
  CUcontext got = nullptr;
  CHECK(cuCtxAttach(&got, 0) == CUDA_ERROR_INVALID_CONTEXT);

  CUcontext ctx;
  CU(cuCtxCreate(&ctx, nullptr, 0, dev));
  CHECK(cuCtxAttach(&got, 1) == CUDA_ERROR_INVALID_VALUE);
  CU(cuCtxAttach(&got, 0));
  CHECK(got == ctx);
  // Attached once: the first detach leaves it alive and current.
  CU(cuCtxDetach(ctx));
  CUcontext cur = nullptr;
  CU(cuCtxGetCurrent(&cur));
  CHECK(cur == ctx);
  CUdeviceptr d;
  CU(cuMemAlloc(&d, 64));
  CU(cuMemFree(d));
  // A context that is not current is not detached.
  CUcontext popped;
  CU(cuCtxPopCurrent(&popped));
  CHECK(cuCtxDetach(ctx) == CUDA_ERROR_INVALID_CONTEXT);
  CU(cuCtxPushCurrent(ctx));
  // The last detach destroys it.
  CU(cuCtxDetach(ctx));
  CU(cuCtxGetCurrent(&cur));
  CHECK(cur == nullptr);
  CHECK(cuCtxPushCurrent(ctx) != CUDA_SUCCESS);
  return finish();
}

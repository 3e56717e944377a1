// drv_helpers.h: the error check and device choice of the driver-API
// programs of this project, in the style of the CUDA samples helpers.
#ifndef TRIALDRV_DRV_HELPERS_H
#define TRIALDRV_DRV_HELPERS_H
#include <cuda.h>
#include <cstdio>
#include <cstdlib>

#define checkCudaErrors(err) check_drv((err), #err, __FILE__, __LINE__)
inline void check_drv(CUresult r, const char *what, const char *file, int line) {
  if (r != CUDA_SUCCESS) {
    const char *name = nullptr, *msg = nullptr;
    cuGetErrorName(r, &name);
    cuGetErrorString(r, &msg);
    fprintf(stderr, "%s:%d: %s failed: %d %s (%s)\n", file, line, what, (int)r,
            name ? name : "?", msg ? msg : "?");
    exit(EXIT_FAILURE);
  }
}

inline CUdevice findCudaDeviceDRV(int argc, char **argv) {
  (void)argc; (void)argv;
  int count = 0;
  checkCudaErrors(cuInit(0));
  checkCudaErrors(cuDeviceGetCount(&count));
  if (count == 0) { fprintf(stderr, "no device\n"); exit(2); }
  CUdevice dev;
  checkCudaErrors(cuDeviceGet(&dev, 0));
  char name[256];
  checkCudaErrors(cuDeviceGetName(name, sizeof name, dev));
  int major = 0, minor = 0;
  checkCudaErrors(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
  checkCudaErrors(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
  printf("> Using CUDA Device [0]: %s (SM %d.%d)\n", name, major, minor);
  return dev;
}
#endif // TRIALDRV_DRV_HELPERS_H

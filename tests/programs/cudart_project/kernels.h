/* kernels.h: what the host files (main.c, util.cpp, compiled by the host
 * compiler against CUDA's headers) call of the CUDA file kernels.cu. */
#ifndef KERNELS_H
#define KERNELS_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What kernels.cu's own cudaGetDeviceProperties reports. */
struct device_summary {
  char name[256];
  int major, minor, multiProcessorCount;
  size_t totalGlobalMem;
};

/* data[i] = data[i] * factor + i on `stream`; returns the launch's error. */
int launch_scale(float *data, float factor, int n, cudaStream_t stream);

/* Fills `out` from cudaGetDeviceProperties(device); returns its error. */
int summarize_device(int device, struct device_summary *out);

/* Copies n floats of `device_data` back on the per-thread default stream
 * (util.cpp is compiled with CUDA_API_PER_THREAD_DEFAULT_STREAM) and counts
 * the ones that are not data0[i] * factor + i. */
int count_wrong(const float *device_data, const float *data0, float factor,
                int n);

#ifdef __cplusplus
}
#endif

#endif

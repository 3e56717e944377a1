/* kernels.h: the launchers that kernels.cu gives the C side. */
#ifndef KERNELS_H
#define KERNELS_H

#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y[i] = a * x[i] + y[i] for i < n, in the stream given. */
cudaError_t launch_saxpy(int n, float a, const float *x, float *y,
                         cudaStream_t stream);
/* The address of the kernel scale(float *v, float s, int n), for a C caller
 * that launches it with cudaLaunchKernel. */
const void *scale_kernel(void);
/* The address of the __device__ int `counter`, for cudaMemcpyToSymbol. */
const void *counter_symbol(void);

#ifdef __cplusplus
}
#endif

#endif

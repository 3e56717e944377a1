/* kernels.h: what the host files of tests/cudart_launch.sh (compiled by
 * the host compilers against CUDA's own headers) take of kernels.cu. */
#ifndef KERNELS_H
#define KERNELS_H

#ifdef __cplusplus
extern "C" {
#endif

/* The kernel add_index(int *data, int amount): data[i] += amount + i for
 * the launch's global thread index i, for cudaLaunchKernel and its kin. */
const void *add_index_kernel(void);

#ifdef __cplusplus
}
#endif

#endif

#ifndef CUDA_CHECK_H
#define CUDA_CHECK_H
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <cuda_runtime.h>

// limited version of checkCudaErrors from helper_cuda.h in CUDA examples
#define checkCudaErrors(val) check_cuda( (val), #val, __FILE__, __LINE__ )

inline void check_cuda(cudaError_t result, char const *const func, const char *const file, int const line) {
    if (result) {
        std::cerr << "CUDA error = " << static_cast<unsigned int>(result) << " (" << cudaGetErrorString(result)
                  << ") at " << file << ":" << line << " '" << func << "' \n";
        cudaDeviceReset();
        exit(99);
    }
}

#define CUDA_KERNEL_CHECK()                                                        \
    do {                                                                           \
        cudaError_t err__ = cudaGetLastError();                                    \
        if (err__ != cudaSuccess) {                                                \
            fprintf(stderr, "kernel launch failed at %s:%d: %s\n", __FILE__,      \
                    __LINE__, cudaGetErrorString(err__));                          \
            exit(98);                                                              \
        }                                                                          \
    } while (0)

#endif

#ifndef CUDACOMMON_H
#define CUDACOMMON_H

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK_CUDA_ERROR()                                                    \
    do {                                                                      \
        cudaError_t err_ = cudaGetLastError();                                \
        if (err_ != cudaSuccess) {                                            \
            fprintf(stderr, "error=%d name=%s at ln: %d\n  ", err_,           \
                    cudaGetErrorString(err_), __LINE__);                      \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

#define CUDA_SAFE_CALL(call)                                                  \
    do {                                                                      \
        cudaError_t err_ = (call);                                            \
        if (err_ != cudaSuccess) {                                            \
            fprintf(stderr, "Cuda error in file '%s' in line %i : %s.\n",     \
                    __FILE__, __LINE__, cudaGetErrorString(err_));            \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

// Relative comparison helper shared by the benchmarks' checks.
template <class T> inline bool nearlyEqual(T a, T b, double rel, double abs_ = 0.0) {
    double d = (double)a - (double)b;
    if (d < 0) d = -d;
    double m = (double)(a < 0 ? -a : a);
    double mb = (double)(b < 0 ? -b : b);
    if (mb > m) m = mb;
    return d <= abs_ || d <= rel * m;
}

#endif

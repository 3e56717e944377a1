#ifndef COURSE_CUDA_CHECK_H
#define COURSE_CUDA_CHECK_H
#include <cuda_runtime.h>
#include <stdexcept>
#include <sstream>
#include <string>

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err__ = (call);                                             \
        if (err__ != cudaSuccess) {                                             \
            std::ostringstream oss__;                                           \
            oss__ << "CUDA error at " << __FILE__ << ":" << __LINE__ << ": "    \
                  << cudaGetErrorString(err__) << " (" #call ")";               \
            throw std::runtime_error(oss__.str());                              \
        }                                                                       \
    } while (0)

#define CUDA_CHECK_LAST() CUDA_CHECK(cudaGetLastError())

inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

#endif

#ifndef SIM_CHECK_H
#define SIM_CHECK_H
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define checkCudaErrors(val) sim_check((val), #val, __FILE__, __LINE__)

template <typename T>
void sim_check(T result, char const *const func, const char *const file, int const line)
{
    if (result) {
        fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\" \n", file, line,
                static_cast<unsigned int>(result), cudaGetErrorName(result), func);
        exit(EXIT_FAILURE);
    }
}

#define getLastCudaError(msg) sim_last_error(msg, __FILE__, __LINE__)
inline void sim_last_error(const char *msg, const char *file, const int line)
{
    cudaError_t err = cudaGetLastError();
    if (cudaSuccess != err) {
        fprintf(stderr, "%s(%i) : getLastCudaError() CUDA error : %s : (%d) %s.\n",
                file, line, msg, static_cast<int>(err), cudaGetErrorString(err));
        exit(EXIT_FAILURE);
    }
}

inline int iDivUp(int a, int b) { return (a % b != 0) ? (a / b + 1) : (a / b); }
#endif

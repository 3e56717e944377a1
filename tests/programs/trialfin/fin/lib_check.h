// lib_check.h: status checks for cuBLAS and cuSOLVER.
#ifndef FIN_LIB_CHECK_H
#define FIN_LIB_CHECK_H
#include <cstdio>
#include <cstdlib>
#include <cublas_v2.h>
#include <cusolverDn.h>

#define CUBLAS_CHECK(call)                                                    \
  do {                                                                        \
    cublasStatus_t st__ = (call);                                             \
    if (st__ != CUBLAS_STATUS_SUCCESS) {                                      \
      std::fprintf(stderr, "cuBLAS error %d at %s:%d\n", (int)st__, __FILE__, \
                   __LINE__);                                                 \
      std::exit(EXIT_FAILURE);                                                \
    }                                                                         \
  } while (0)

#define CUSOLVER_CHECK(call)                                                  \
  do {                                                                        \
    cusolverStatus_t st__ = (call);                                           \
    if (st__ != CUSOLVER_STATUS_SUCCESS) {                                    \
      std::fprintf(stderr, "cuSOLVER error %d at %s:%d\n", (int)st__,         \
                   __FILE__, __LINE__);                                       \
      std::exit(EXIT_FAILURE);                                                \
    }                                                                         \
  } while (0)

#endif // FIN_LIB_CHECK_H

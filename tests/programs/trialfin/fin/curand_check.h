// curand_check.h: status checking for the cuRAND host API.
#ifndef FIN_CURAND_CHECK_H
#define FIN_CURAND_CHECK_H
#include <cstdio>
#include <cstdlib>
#include <curand.h>

#define CURAND_CHECK(call)                                                    \
  do {                                                                        \
    curandStatus_t st__ = (call);                                             \
    if (st__ != CURAND_STATUS_SUCCESS) {                                      \
      std::fprintf(stderr, "cuRAND error %d at %s:%d: %s\n", (int)st__,       \
                   __FILE__, __LINE__, #call);                                \
      std::exit(EXIT_FAILURE);                                                \
    }                                                                         \
  } while (0)

#endif // FIN_CURAND_CHECK_H

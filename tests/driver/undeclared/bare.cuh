// bare.cuh: a user's header that brings nothing of the C library.
#include <cuda_runtime.h>

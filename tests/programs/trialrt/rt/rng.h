#ifndef RNGH
#define RNGH
// A random source that is curand on the device and a recorded stream of the
// same numbers on the host, so that the host reference render draws exactly
// what the device drew.
#include <curand_kernel.h>

struct rand_source {
    curandState *state;     // device: the pixel's state
    const float *stream;    // host: the pixel's recorded numbers
    int pos;
    int limit;
    bool overflow;

    __host__ __device__ float next() {
#ifdef __CUDA_ARCH__
        return curand_uniform(state);
#else
        if (pos >= limit) { overflow = true; return 0.5f; }
        return stream[pos++];
#endif
    }
};

#define RND (rs.next())

#endif

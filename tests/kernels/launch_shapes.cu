/*
 * launch_shapes.cu: kernels for tests/check_launch.c: launch shapes at
 * CUDA's limits, launches that must be refused before anything runs,
 * parameter descriptors, and arguments passed by value.
 */
#include <cuda_fp16.h>

/* Each thread records its built-in variables at its linear index in the
 * launch (block-major), and counts its entries. */
#define RECORD_WORDS 12

extern "C" __global__ void record_coords(unsigned *records, unsigned *counts) {
  unsigned long long block = blockIdx.x + (unsigned long long)gridDim.x *
                                              (blockIdx.y + (unsigned long long)
                                                                gridDim.y *
                                                            blockIdx.z);
  unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y +
                                                blockDim.y * threadIdx.z);
  unsigned long long id =
      block * (blockDim.x * blockDim.y * blockDim.z) + thread;
  atomicAdd(&counts[id], 1u);
  unsigned *r = records + id * RECORD_WORDS;
  r[0] = threadIdx.x;
  r[1] = threadIdx.y;
  r[2] = threadIdx.z;
  r[3] = blockIdx.x;
  r[4] = blockIdx.y;
  r[5] = blockIdx.z;
  r[6] = blockDim.x;
  r[7] = blockDim.y;
  r[8] = blockDim.z;
  r[9] = gridDim.x;
  r[10] = gridDim.y;
  r[11] = gridDim.z;
}

/* Counts every thread of the launch in one counter. */
extern "C" __global__ void count_threads(unsigned long long *total) {
  atomicAdd(total, 1ull);
}

/* Sets *flag, so that a test can tell whether anything ran. */
extern "C" __global__ void set_flag(int *flag) { *flag = 1; }

/* Touches the first and the last byte of `bytes` of dynamic shared memory and
 * sets *flag to their sum (3) when they hold what was written. */
extern "C" __global__ void touch_shared(int *flag, unsigned bytes) {
  extern __shared__ unsigned char dynamic_buffer[];
  if (threadIdx.x == 0) {
    dynamic_buffer[0] = 1;
    dynamic_buffer[bytes - 1] = 2;
    *flag = dynamic_buffer[0] + dynamic_buffer[bytes - 1];
  }
}

/* ---- Parameter descriptors ----------------------------------------------- */

struct mixed {
  float x;
  double y;
  char c;
};

extern "C" __global__ void params_scalars(int a, float b, double c, int *p,
                                          const float *q, double *out) {
  out[0] = a;
  out[1] = b;
  out[2] = c;
  out[3] = *p;
  out[4] = *q;
}

/* Writes the struct it was passed back out, field by field and whole. */
extern "C" __global__ void params_struct(mixed s, mixed *out, float *x,
                                         double *y, char *c) {
  *out = s;
  *x = s.x;
  *y = s.y;
  *c = s.c;
}

extern "C" __global__ void params_vector(char pad, float4 v, float4 *out) {
  float4 r = v;
  r.x += pad;
  *out = r;
}

extern "C" __global__ void params_half(__half h, float *out) {
  *out = __half2float(h);
}

namespace ns {
__global__ void in_namespace(int *out) { *out = 42; }
} // namespace ns

__global__ void cxx_linkage(int *out) { *out = 7; }

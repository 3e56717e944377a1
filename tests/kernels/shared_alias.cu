/*
 * shared_alias.cu: every extern __shared__ array names the same dynamic
 * buffer, whatever its scope and element type, as on the GPU.
 */
#include <cuda_runtime.h>

/* Declared at namespace scope. */
extern __shared__ float ns_floats[];
namespace alias_test {
extern __shared__ int ns_ints[];
}

/* out[0..5]: 1 when the views share an address; then per thread t, at
 * 8 + 2 * t: 1 when thread t read through the int view the float that its
 * neighbour wrote, and 1 when it read through the namespace-scope float view
 * the int bits its neighbour wrote. Launch with one block, 8 + 2 * blockDim.x
 * ints of output and 4 * blockDim.x bytes of dynamic shared memory. */
__global__ void shared_alias(int *out) {
  extern __shared__ float f_view[];
  extern __shared__ int i_view[];
  extern __shared__ unsigned char byte_view[];
  const unsigned t = threadIdx.x, n = blockDim.x;
  if (t == 0) {
    out[0] = (void *)f_view == (void *)i_view;
    out[1] = (void *)f_view == (void *)byte_view;
    out[2] = (void *)f_view == (void *)ns_floats;
    out[3] = (void *)f_view == (void *)alias_test::ns_ints;
    out[4] = ((unsigned long long)(void *)f_view % 16u) == 0;
    out[5] = 1;
  }
  f_view[t] = (float)t + 0.25f;
  __syncthreads();
  const unsigned u = (t + 1) % n;
  out[8 + 2 * t] = i_view[u] == __float_as_int((float)u + 0.25f);
  __syncthreads();
  alias_test::ns_ints[t] = __float_as_int(-(float)t);
  __syncthreads();
  out[8 + 2 * t + 1] = ns_floats[u] == -(float)u;
}

/* A 2-D view: `tile` rows of 33 floats. With a 32 x 32 block, each thread
 * writes tile[y][x] and reads the transposed element tile[x][y]; out gets
 * the value read, at y * 32 + x. Slot 1024 is 1 when tile[1] starts 33
 * floats after tile[0] in the flat view. Needs 32 * 33 floats of dynamic
 * shared memory. */
__global__ void shared_tile(float *out) {
  extern __shared__ float tile[][33];
  extern __shared__ float flat[];
  const unsigned x = threadIdx.x, y = threadIdx.y;
  tile[y][x] = (float)(y * 100 + x);
  __syncthreads();
  out[y * 32 + x] = tile[x][y];
  if (x == 0 && y == 0)
    out[1024] = (&tile[1][0] == &flat[33]) && ((void *)tile == (void *)flat)
                    ? 1.0f
                    : 0.0f;
}

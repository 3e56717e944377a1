// checked_module.cu: kernels for tests/check_checkers.c, built as a module
// with and without checkers. Lines marked "@name" are looked up by the test.

/* Each thread reads its left neighbour's element with no barrier after the
 * writes: a shared-memory race (read after write). */
extern "C" __global__ void shift(float *out) {
  __shared__ float tile[256];
  unsigned t = threadIdx.x;
  tile[t] = (float)t; // @shift_write
  out[t] = t ? tile[t - 1] : 0.0f; // @shift_read
}

/* Reads one element past the end of `in`. */
extern "C" __global__ void next_of(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i + 1]; // @next_read
}

/* Correct: doubles every element. */
extern "C" __global__ void twice(float *buf, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    buf[i] *= 2.0f;
}

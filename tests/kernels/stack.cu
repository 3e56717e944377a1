/*
 * stack.cu: deep recursion and a large local array, for the stack-overflow
 * tests of tests/check_scheduler.c. Only the thread named by the arguments
 * goes deep, so the report must name exactly that thread and block.
 */

/* About 1 KiB of stack per level: the volatile array and the store after
 * the recursive call keep the compiler from turning this into a loop. */
__device__ __noinline__ int deep(int n) {
  volatile char pad[1024];
  pad[0] = (char)n;
  pad[n & 1023] = (char)(n * 3);
  if (n <= 0)
    return pad[0];
  int below = deep(n - 1);
  pad[1] = (char)below;
  return pad[1] + pad[n & 1023];
}

__device__ inline bool chosen(uint3 thread, uint3 block) {
  return threadIdx.x == thread.x && threadIdx.y == thread.y &&
         threadIdx.z == thread.z && blockIdx.x == block.x &&
         blockIdx.y == block.y && blockIdx.z == block.z;
}

/* The chosen thread recurses `depth` levels, the others 2; each writes the
 * result at its linear index in the launch. */
extern "C" __global__ void recurse(int depth, uint3 thread, uint3 block,
                                   int *out) {
  unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int r = deep(chosen(thread, block) ? depth : 2);
  out[b * blockDim.x * blockDim.y * blockDim.z + t] = r;
}

/* Fills a 200 KiB local array from its first byte up and returns a
 * checksum of it. Not inlined, so that only the threads that call it
 * allocate the array. */
__device__ __noinline__ unsigned fill_big_local() {
  volatile unsigned char big[200 * 1024];
  for (unsigned i = 0; i < sizeof big; ++i)
    big[i] = (unsigned char)(i * 13);
  unsigned sum = 0;
  for (unsigned i = 0; i < sizeof big; i += 97)
    sum += big[i];
  return sum;
}

/* The chosen thread writes the checksum of its 200 KiB local array. */
extern "C" __global__ void big_local(uint3 thread, uint3 block,
                                     unsigned *out) {
  if (chosen(thread, block))
    *out = fill_big_local();
}

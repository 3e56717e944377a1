/* Reduced from "Ray Tracing in One Weekend" in CUDA, whose device code
 * draws several random numbers in one call's arguments:
 *   #define RANDVEC3 vec3(curand_uniform(s), curand_uniform(s), curand_uniform(s))
 *   vec3 center(a + RND, 0.2, b + RND);
 * C++ leaves the order of a call's arguments unspecified; nvcc's device
 * code evaluates them from left to right (its PTX makes the first
 * argument's call first), and so does clang++, but g++ evaluates them from
 * right to left on x86-64: cuemu-nvcc's g++ builds drew the coordinates in
 * reverse, and the image was not the GPU's (nor that of cuemu-nvcc with
 * clang++). Device code now evaluates arguments from left to right
 * (cuemu's GCC plugin); host code keeps the host compiler's order, as
 * nvcc's host compile does. */
#include <cstdio>
#include <curand_kernel.h>

struct Vec {
  float x, y, z;
  __host__ __device__ Vec(float a, float b, float c) : x(a), y(b), z(c) {}
};

__device__ __noinline__ float draw(int *counter) { return (float)++*counter; }

__device__ float weigh(float a, float b, float c) {
  return 100.0f * a + 10.0f * b + c;
}

struct Mixer {
  float base;
  __device__ float mix(float a, float b) const { return base + 10.0f * a + b; }
};

__global__ void orders(float *out) {
  int n = 0;
  Vec v(draw(&n), draw(&n), draw(&n)); /* a constructor: 1 2 3 */
  out[0] = v.x;
  out[1] = v.y;
  out[2] = v.z;
  out[3] = weigh(draw(&n), draw(&n), draw(&n)); /* 4 5 6: 456 */
  Mixer m = {1000.0f};
  out[4] = m.mix(draw(&n), draw(&n)); /* 7 8: 1078 */
  Vec *p = new Vec(draw(&n), draw(&n), 0.0f); /* 9 10 */
  out[5] = p->x;
  out[6] = p->y;
  delete p;
  /* The ray tracer's idiom, with cuRAND: the first value is x. */
  curandState s, t;
  curand_init(1984, 0, 0, &s);
  t = s;
  Vec r(curand_uniform(&s), curand_uniform(&s), curand_uniform(&s));
  float x = curand_uniform(&t), y = curand_uniform(&t), z = curand_uniform(&t);
  out[7] = (r.x == x && r.y == y && r.z == z) ? 1.0f : 0.0f;
}

int main() {
  float *out;
  cudaMallocManaged(&out, 8 * sizeof(float));
  orders<<<1, 1>>>(out);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("kernel failed\n");
    return 1;
  }
  const float want[8] = {1, 2, 3, 456, 1078, 9, 10, 1};
  int failures = 0;
  for (int i = 0; i < 8; i++)
    if (out[i] != want[i]) {
      printf("out[%d] = %g, expected %g\n", i, out[i], want[i]);
      failures++;
    }
  cudaFree(out);
  printf(failures ? "FAIL\n" : "PASS\n");
  return failures != 0;
}

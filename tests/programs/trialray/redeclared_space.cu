/* Reduced from a ray tracer ("Ray Tracing: The Next Week" on the GPU) whose
 * class declares a member function __device__ and defines it after the
 * class without a qualifier:
 *   class moving_sphere : public hitable {
 *     __device__ vec3 center(float time) const;
 *     __device__ virtual bool hit(...) const;    // calls center()
 *   };
 *   vec3 moving_sphere::center(float time) const { ... }
 * nvcc takes such a definition for a __host__ __device__ function (its
 * warning #20037-D: "a __device__ function redeclared without __device__,
 * hence treated as a __host__ __device__ function"), so device code may
 * call it (host code may not: nvcc 13.0 refuses a host call of it, as of
 * any __device__ function). cuemu-nvcc took it for a host function and
 * refused the program ("calling a __host__ function ... from a __device__
 * function is not allowed"). The same holds for a function of namespace
 * scope declared __device__ (or __host__ __device__) and defined plain. */
#include <cstdio>

struct Mover {
  float start, speed;
  __device__ float at(float t) const;
  float at(int step) const; /* a host overload, defined plain too */
  __host__ __device__ float twice(float t) const;
  __device__ float ahead(float t) const { return at(t) + twice(t); }
};

/* Defined without a qualifier: both are __host__ __device__ functions. */
float Mover::at(float t) const { return start + speed * t; }
float Mover::twice(float t) const { return 2.0f * (start + speed * t); }
float Mover::at(int step) const { return start + 10.0f * speed * step; }

template <typename T> struct Box {
  T lo, hi;
  __device__ T width() const;
};
template <typename T> T Box<T>::width() const { return hi - lo; }

namespace geo {
__device__ int square(int x);
}
int geo::square(int x) { return x * x; }

__device__ int cube(int x);
int cube(int x) { return x * geo::square(x); }
/* A host overload of the name: host code calls it. */
float cube(float x) { return x * x * x; }

__global__ void kernel(Mover m, Box<int> b, float *out) {
  int i = threadIdx.x;
  out[i] = m.ahead((float)i) + (float)b.width() + (float)cube(i);
}

int main() {
  const int n = 8;
  Mover m = {1.0f, 0.5f};
  Box<int> b = {3, 10};
  float *out;
  cudaMallocManaged(&out, n * sizeof(float));
  kernel<<<1, n>>>(m, b, out);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("kernel failed\n");
    return 1;
  }
  int failures = 0;
  if (cube(2.0f) != 8.0f || m.at(2) != 11.0f) {
    printf("host overloads: %g %g\n", cube(2.0f), m.at(2));
    failures++;
  }
  for (int i = 0; i < n; i++) {
    float at = 1.0f + 0.5f * i;
    float want = at + m.twice((float)i) + 7.0f + (float)(i * i * i);
    if (out[i] != want) {
      printf("out[%d] = %g, expected %g\n", i, out[i], want);
      failures++;
    }
  }
  cudaFree(out);
  printf(failures ? "FAIL\n" : "PASS\n");
  return failures != 0;
}

/* Reduced from a ray tracer's instance wrapper, a __device__ constructor
 * defined after its class with a member initializer list and a body that
 * calls __device__ functions:
 *   __device__ rotate_y::rotate_y(hitable *p, float angle) : ptr(p) {
 *     auto radians = degrees_to_radians(angle); ...
 *     hasbox = ptr->bounding_box(0, 1, bbox);
 *   }
 * nvcc's host compile keeps no body of a __device__ function. cuemu-nvcc's
 * host pass replaced such bodies by a stub, but kept the body of a
 * constructor with initializers, whose calls of __device__ functions then
 * failed to compile ("call to 'degrees_to_radians' declared with attribute
 * error: calling a __device__ function from a __host__ function"). The
 * initializers stay (a reference member needs its own); the body goes. */
#include <cstdio>

__device__ inline float to_radians(float degrees) {
  return degrees * 3.14159265f / 180.0f;
}

struct Shape {
  __device__ virtual float size() const = 0;
};

struct Square : Shape {
  float side;
  __device__ Square(float s) : side(s) {}
  __device__ float size() const override { return side * side; }
};

class Turned : public Shape {
public:
  __device__ Turned(Shape *inner, float degrees);
  __device__ float size() const override { return inner->size() * scale; }
  Shape *inner;
  const float &angle;
  float scale;
  float stored_angle;
};

/* Initializers in parentheses, then a body of device calls. */
__device__ Turned::Turned(Shape *p, float degrees)
    : inner(p), angle(stored_angle), stored_angle(degrees) {
  scale = 1.0f + to_radians(angle) + p->size() * 0.0f;
}

struct Counter {
  int n;
  int *log;
  __device__ Counter(int *where);
};

/* Initializers in braces. */
__device__ Counter::Counter(int *where) : n{0}, log{where} {
  n = (int)to_radians(180.0f * 2.0f / 3.14159265f + 0.5f);
  *log = n;
}

__global__ void kernel(float *out, int *log) {
  Shape *s = new Turned(new Square(3.0f), 90.0f);
  out[0] = s->size();
  Counter c(log);
  out[1] = (float)c.n;
  delete static_cast<Turned *>(s)->inner;
  delete s;
}

int main() {
  float *out;
  int *log;
  cudaMallocManaged(&out, 2 * sizeof(float));
  cudaMallocManaged(&log, sizeof(int));
  kernel<<<1, 1>>>(out, log);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("kernel failed\n");
    return 1;
  }
  float want = 9.0f * (1.0f + 90.0f * 3.14159265f / 180.0f);
  int failures = 0;
  if (out[0] != want) {
    printf("size %g, expected %g\n", out[0], want);
    failures++;
  }
  if (out[1] != 2.0f || *log != 2) {
    printf("counter %g and %d, expected 2\n", out[1], *log);
    failures++;
  }
  cudaFree(out);
  cudaFree(log);
  printf(failures ? "FAIL\n" : "PASS\n");
  return failures != 0;
}

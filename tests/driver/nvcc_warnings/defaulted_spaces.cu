// defaulted_spaces.cu: member functions explicitly defaulted on their first
// declaration with an execution space written on them, as vector types of
// ray tracers and physics codes declare them (tests/driver_nvcc_warnings.sh).
// Such a function is __host__ __device__ whatever is written, and nvcc 13.0
// gives warning #20012-D at each __host__ and __device__ of the
// declaration, in their order, once for its device compile and once for
// its host compile; a virtual one, a deleted one and one defaulted out of
// its class get none.
#include <cstdio>

struct vec3 {
  float x, y, z;
  __host__ __device__ vec3() = default;
  __host__ __device__ vec3(float a, float b, float c) : x(a), y(b), z(c) {}
  __device__ vec3(const vec3 &) = default;
  __host__ vec3 &operator=(const vec3 &) = default;
  __host__ __device__ ~vec3() = default;
};

struct Shape {
  __device__ __host__ Shape() noexcept = default;
  virtual __host__ __device__ ~Shape() = default;
  __host__ __device__ Shape(const Shape &) = delete;
  __host__ __device__ Shape(Shape &&);
};
__host__ __device__ Shape::Shape(Shape &&) = default;

template <class T> struct Cell {
  T value;
  __host__ __device__ constexpr Cell() = default;
};

// A destructor is virtual when a base's is, with or without the word, and
// nvcc is silent there (through a base of a base too); not where the base's
// destructor is not virtual, nor where the base depends on a template's
// parameter, which nvcc cannot see into. Nested and local classes are
// judged as others.
struct Body {
  __host__ __device__ virtual ~Body() {}
};
struct Ball : public Body {
  __host__ __device__ ~Ball() = default;
};
struct Bouncy final : Ball {
  __host__ __device__ ~Bouncy() = default;
  __device__ Bouncy &operator=(const Bouncy &) = default;
};
struct Flat : vec3 {
  __device__ ~Flat() = default;
};
template <class T> struct Holder : Cell<T> {
  __host__ ~Holder() = default;
  struct Slot {
    __host__ __device__ Slot() = default;
  };
};

__global__ void scale(vec3 *out, float s) {
  vec3 v(1.0f, 2.0f, 3.0f);
  vec3 w = v;
  Cell<float> c{};
  out[0] = vec3(w.x * s, w.y * s, w.z * s + c.value);
}

int main() {
  vec3 *d = nullptr, h;
  cudaMalloc(&d, sizeof(vec3));
  scale<<<1, 1>>>(d, 2.0f);
  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  Shape shape;
  (void)shape;
  struct Local {
    __device__ Local() = default;
  };
  Local local;
  (void)local;
  if (h.x != 2.0f || h.y != 4.0f || h.z != 6.0f) {
    std::printf("FAIL: %g %g %g\n", h.x, h.y, h.z);
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}

// A ray marcher's step counter written for nvcc: march() ends with a bare
// `return;` when the ray reaches the surface, though it returns an int.
// nvcc takes a `return;` of a device-only function returning a value, with
// its warning #117-D at the statement, and the value returned there is
// unspecified (its PTX leaves the result register unset). Its host compile
// never sees the body, so the program builds; g++ refuses the statement,
// and cuemu-nvcc refused the program. The results checked here are those
// of the paths that return a value; the bare returns only have to build
// and come back. Templates build too, their void instances included; nvcc
// warns at their other instances, which cuemu-nvcc does not know, so it
// gives those warnings no line (the template lines below have none).
#include <cstdio>

namespace marcher {
__device__ int march(float start, float surface) {
  float t = start;
  for (int step = 0; step < 100; step++) {
    if (t >= surface) return;
    t += 1.0f;
  }
  return 100;
}
}  // namespace marcher

struct Sphere {
  float radius;
  __device__ Sphere(float r) : radius(r) {
    if (r > 0.0f) return;  // a constructor's, untouched
    radius = 1.0f;
  }
  __device__ float hit(float x) const {
    if (x > radius) return;
    return radius - x;
  }
  __device__ bool inside(float x) const;
};

__device__ bool Sphere::inside(float x) const {
  if (x < 0.0f) return;
  return x < radius;
}

__device__ void shade(float *out, float v) {
  if (v < 0.0f) return;  // a void function's, untouched
  *out = v;
}

__device__ float average(const float *v, int n) {
  auto add = [&](int k) {
    if (k >= n) return;  // the lambda's own, untouched
    const_cast<float *>(v)[n] += v[k];
  };
  for (int k = 0; k < n; k++) add(k);
  return v[n] / n;
}

template <class T> __device__ T first_hit(int x) {
  if (x > 0) return;
  return T(x);
}

template <class T> struct Grid {
  T cell;
  __device__ T at(int i) const {
    if (i > 0) return;
    return cell;
  }
};

__device__ unsigned int __forceinline__ steps(int i) {
  if (i > 0) return;
  return 7u;
}

__device__ auto fog(int i) -> float {
  if (i > 0) return;
  return 2.5f;
}

__global__ void render(float *out) {
  Sphere s(2.0f);
  out[0] = marcher::march(0.0f, 1000.0f);
  out[1] = marcher::march(0.0f, 1000.0f) + 1;
  out[2] = s.hit(0.5f);
  out[3] = s.inside(1.0f);
  out[4] = marcher::march(0.0f, 5.0f) * 0.0f;
  shade(&out[5], 3.0f);
  out[6] = s.hit(5.0f) * 0.0f + s.inside(-1.0f) * 0.0f;
  float v[4] = {1.0f, 2.0f, 3.0f, 0.0f};
  out[7] = average(v, 3);
  first_hit<void>(1);
  Grid<int> g{4};
  out[8] = first_hit<int>(0) + g.at(0) + steps(0) + fog(0);
}

int main() {
  float *d, h[9];
  cudaMalloc(&d, sizeof h);
  render<<<1, 1>>>(d);
  if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess) {
    std::printf("FAIL: the kernel did not run\n");
    return 1;
  }
  const float want[9] = {100.0f, 101.0f, 1.5f, 1.0f, 0.0f,
                         3.0f,   0.0f,   2.0f, 13.5f};
  for (int k = 0; k < 9; k++)
    if (h[k] != want[k]) {
      std::printf("FAIL: out[%d] = %g, want %g\n", k, h[k], want[k]);
      return 1;
    }
  std::printf("PASS\n");
  return 0;
}

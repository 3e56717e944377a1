// template_namespaces.cu: kernel templates of one name in several
// namespaces, launched by the unqualified name with explicit template
// arguments (`apply<float><<<g, b>>>(...)`): the using-directive finds
// tone's, argument-dependent lookup blur's (its parameter's type is
// blur's), and each launch takes the __launch_bounds__ of the kernel that
// the call picks. A block above that bound is refused with
// cudaErrorLaunchOutOfResources and runs nothing; one within it runs. The
// same holds where a using-declaration (`using tone::apply;`) brings one
// namespace's kernel into a function.
#include <cuda_runtime.h>

#include "../check.cuh"

namespace blur {
struct image {
  float *p;
};
template <typename T>
__global__ void __launch_bounds__(64) apply(image im, T factor) {
  im.p[blockIdx.x * blockDim.x + threadIdx.x] *= factor;
}
// Partly explicit: the block size is given, the type deduced.
template <int Block, typename T>
__global__ void __launch_bounds__(Block) spread(image im, T v) {
  im.p[blockIdx.x * blockDim.x + threadIdx.x] += v;
}
} // namespace blur

namespace tone {
template <typename T>
__global__ void __launch_bounds__(128) apply(T *p, T offset) {
  p[blockIdx.x * blockDim.x + threadIdx.x] += offset;
}
template <int Block, typename T>
__global__ void __launch_bounds__(2 * Block) spread(T *p, T v) {
  p[blockIdx.x * blockDim.x + threadIdx.x] -= v;
}
} // namespace tone

using namespace tone;

// Each launch's error (cudaGetLastError right after it).
static cudaError_t errors[11];

// Launches where a using-declaration names tone's kernels; argument-
// dependent lookup still finds blur's.
static void declared_launches(blur::image im, float *p, cudaError_t *e) {
  using tone::apply;
  apply<float><<<1, 256>>>(p, 1.0f); // above tone's bound (128): refused
  e[0] = cudaGetLastError();
  apply<float><<<1, 128>>>(im, 2.0f); // above blur's (64): refused
  e[1] = cudaGetLastError();
  apply<float><<<1, 128>>>(p, 0.0f); // tone's, within its bound: runs
  e[2] = cudaGetLastError();
}

int main() {
  const int n = 512;
  float *p;
  CHECK(cudaMallocManaged(&p, n * sizeof(float)) == cudaSuccess);
  for (int i = 0; i < n; ++i)
    p[i] = 1.0f;
  blur::image im{p};

  apply<float><<<1, 64>>>(im, 3.0f); // blur's (64): p[0, 64) = 3
  errors[0] = cudaGetLastError();
  apply<float><<<1, 128>>>(im, 3.0f); // above blur's bound: refused
  errors[1] = cudaGetLastError();
  apply<float><<<1, 128>>>(p, 1.0f); // tone's (128): p[0, 128) += 1
  errors[2] = cudaGetLastError();
  apply<float><<<1, 256>>>(p, 1.0f); // above tone's bound: refused
  errors[3] = cudaGetLastError();
  spread<32><<<2, 32>>>(im, 0.5f); // blur's (32): p[0, 64) += 0.5
  errors[4] = cudaGetLastError();
  spread<32><<<1, 64>>>(im, 0.5f); // above 32: refused
  errors[5] = cudaGetLastError();
  spread<32><<<1, 64>>>(p, 0.25f); // tone's (64): p[0, 64) -= 0.25
  errors[6] = cudaGetLastError();
  spread<32><<<1, 128>>>(p, 0.25f); // above 64: refused
  errors[7] = cudaGetLastError();
  declared_launches(im, p, errors + 8);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);

  const cudaError_t expected[11] = {
      cudaSuccess, cudaErrorLaunchOutOfResources,
      cudaSuccess, cudaErrorLaunchOutOfResources,
      cudaSuccess, cudaErrorLaunchOutOfResources,
      cudaSuccess, cudaErrorLaunchOutOfResources,
      cudaErrorLaunchOutOfResources, cudaErrorLaunchOutOfResources,
      cudaSuccess};
  for (int k = 0; k < 11; ++k) {
    if (errors[k] != expected[k])
      std::printf("launch %d: %s, expected %s\n", k,
                  cudaGetErrorName(errors[k]), cudaGetErrorName(expected[k]));
    CHECK(errors[k] == expected[k]);
  }
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float v = 1.0f;
    if (i < 64)
      v = 3.0f;
    if (i < 128)
      v += 1.0f;
    if (i < 64)
      v += 0.5f - 0.25f;
    bad += p[i] != v;
  }
  CHECK(bad == 0);
  CHECK(cudaFree(p) == cudaSuccess);
  return finish();
}

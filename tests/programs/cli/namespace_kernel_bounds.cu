// namespace_kernel_bounds.cu: kernels with __launch_bounds__(64) in nested
// namespaces, an unnamed namespace and an inline namespace, launched with a
// block of 128 threads (refused with cudaErrorLaunchOutOfResources, nothing
// runs) and of 64 (runs): kernel templates with deduced and explicit
// template arguments, one whose template argument is a class of its
// namespace, a kernel declared in one block of its namespace and defined in
// another, and launches through a using-declaration that names the kernel
// relative to the enclosing namespace (`using b::fill;` in namespace a,
// while a::c holds a kernel template fill of its own), a qualified one
// (`using a::b::fill;`) and a using-directive.
// cudaFuncGetAttributes() reports each kernel's bound as its
// maxThreadsPerBlock, and the inline namespace's __cluster_dims__ holds.
// Kernels with __maxnreg__ (nvcc 12.4's register limit) build and run.
// cuemu's report of a refused launch names the kernel as it is written.
#include <cuda_runtime.h>

#include <cstring>

#include "../check.cuh"
#if __has_include(<cuemu/cuemu.h>)
#include <cuemu/cuemu.h>
#define HAVE_CUEMU_MESSAGES 1
#endif

namespace a {
namespace b {
struct scale {
  float f;
};
template <typename T>
__global__ void __launch_bounds__(64) fill(T *p, T v) {
  p[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
template <typename Op>
__global__ void __launch_bounds__(64) apply(float *p, Op op) {
  p[blockIdx.x * blockDim.x + threadIdx.x] *= op.f;
}
__global__ void __launch_bounds__(64) later(float *p);
} // namespace b
// A kernel template of fill's name in another namespace, with another bound.
namespace c {
template <typename T>
__global__ void __launch_bounds__(128) fill(T *p, T v, int) {
  p[blockIdx.x * blockDim.x + threadIdx.x] += v;
}
} // namespace c
} // namespace a

namespace a {
namespace b {
__global__ void __maxnreg__(32) limited(float *p) {
  p[blockIdx.x * blockDim.x + threadIdx.x] += 32.0f;
}
template <typename T> __global__ void __maxnreg__(40) limited_t(T *p) {
  p[blockIdx.x * blockDim.x + threadIdx.x] += T(64);
}
} // namespace b
} // namespace a

namespace a {
namespace b {
__global__ void __launch_bounds__(64) later(float *p) {
  p[blockIdx.x * blockDim.x + threadIdx.x] += 1.0f;
}
} // namespace b
} // namespace a

namespace {
template <typename T>
__global__ void __launch_bounds__(64) hidden(T *p) {
  p[blockIdx.x * blockDim.x + threadIdx.x] += T(2);
}
__global__ void __launch_bounds__(64) hidden_plain(float *p) {
  p[blockIdx.x * blockDim.x + threadIdx.x] += 4.0f;
}
} // namespace

namespace a {
inline namespace v2 {
template <typename T>
__global__ void __launch_bounds__(64) versioned(T *p) {
  p[blockIdx.x * blockDim.x + threadIdx.x] += T(8);
}
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(64)
    clustered(float *p) {
  p[blockIdx.x * blockDim.x + threadIdx.x] += 16.0f;
}
} // namespace v2
} // namespace a

// Each launch's error (cudaGetLastError right after it), and how many.
static cudaError_t errors[32];
static int launches = 0;

static void note() { errors[launches++] = cudaGetLastError(); }

// Whether cuemu's report of the last refused launch names the kernel
// `name` (the end of its name: a combined test build puts the program in a
// namespace of its own), with its template arguments `args` (where a unit
// includes Thrust too: clang++'s kernel names once lacked them). A kernel
// template's instance of an unnamed namespace is shown as CUDA's tools
// show it, "(anonymous namespace)::name<T>", though cuemu's name for that
// namespace stays in the instance's identity (each unit's own); a plain
// kernel there, by its written name.
static bool reported(const char *name, const char *args = "") {
#ifdef HAVE_CUEMU_MESSAGES
  const char *m = cuemu_last_message();
  char want[96];
  std::snprintf(want, sizeof want, "%s%s: block", name, args);
  if (!std::strstr(m, want)) {
    std::printf("report: %s\nexpected the kernel %s%s\n", m, name, args);
    return false;
  }
#else
  (void)name;
  (void)args;
#endif
  return true;
}

namespace a {
// Using-declarations relative to namespace a.
static void relative_launches(float *p) {
  using b::fill;
  fill<<<1, 128>>>(p, 5.0f); // refused
  note();
  fill<float><<<1, 128>>>(p, 5.0f); // refused
  note();
}
static void other_launches(float *p) {
  using c::fill;
  fill<float><<<1, 128>>>(p, 0.0f, 0); // c's bound (128): runs, adds 0
  CHECK(cudaGetLastError() == cudaSuccess);
  fill<float><<<1, 256>>>(p, 5.0f, 0); // refused
  note();
}
} // namespace a

static void declared_launches(float *p) {
  using a::b::fill;
  fill<<<1, 128>>>(p, 5.0f); // refused
  note();
  fill<float><<<1, 128>>>(p, 5.0f); // refused
  note();
}

static void directive_launches(float *p) {
  using namespace a::b;
  apply<<<1, 128>>>(p, scale{3.0f}); // refused
  note();
  apply<scale><<<1, 128>>>(p, scale{3.0f}); // refused
  note();
}

int main() {
  const int n = 256;
  float *p;
  CHECK(cudaMallocManaged(&p, n * sizeof(float)) == cudaSuccess);
  for (int i = 0; i < n; ++i)
    p[i] = 0.0f;

  // Refused: each launch above its kernel's bound.
  a::b::fill<<<1, 128>>>(p, 5.0f);
  note();
  a::b::fill<float><<<1, 128>>>(p, 5.0f);
  note();
  a::b::apply<<<1, 128>>>(p, a::b::scale{3.0f});
  note();
  a::b::apply<a::b::scale><<<1, 128>>>(p, a::b::scale{3.0f});
  note();
  a::b::later<<<1, 128>>>(p);
  note();
  CHECK(reported("::b::later"));
  hidden<float><<<1, 128>>>(p);
  note();
  CHECK(reported("(anonymous namespace)::hidden", "<float>"));
  hidden<<<1, 128>>>(p);
  note();
  hidden_plain<<<1, 128>>>(p);
  note();
  CHECK(reported("hidden_plain"));
  a::v2::versioned<float><<<1, 128>>>(p);
  note();
  CHECK(reported("a::v2::versioned", "<float>"));
  a::versioned<<<1, 128>>>(p);
  note();
  a::clustered<<<2, 128>>>(p);
  note();
  a::relative_launches(p);
  a::other_launches(p);
  declared_launches(p);
  directive_launches(p);
  const int refused = launches;
  for (int k = 0; k < refused; ++k) {
    if (errors[k] != cudaErrorLaunchOutOfResources)
      std::printf("launch %d: %s, expected cudaErrorLaunchOutOfResources\n",
                  k, cudaGetErrorName(errors[k]));
    CHECK(errors[k] == cudaErrorLaunchOutOfResources);
  }
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int ran = 0;
  for (int i = 0; i < n; ++i)
    ran += p[i] != 0.0f;
  CHECK(ran == 0); // none of them ran

  // Within the bounds: each runs.
  // p[0, 64) = 1 * 3 + 1 + 2 + 4 + 8 + 16 + 32 + 64.
  a::b::fill<<<1, 64>>>(p, 1.0f);
  note();
  a::b::apply<a::b::scale><<<1, 64>>>(p, a::b::scale{3.0f});
  note();
  a::b::later<<<1, 64>>>(p);
  note();
  hidden<<<1, 64>>>(p);
  note();
  hidden_plain<<<1, 64>>>(p);
  note();
  a::versioned<<<1, 64>>>(p);
  note();
  a::clustered<<<2, 32>>>(p);
  note();
  a::b::limited<<<2, 32>>>(p);
  note();
  a::b::limited_t<<<1, 64>>>(p);
  note();
  a::clustered<<<3, 32>>>(p); // not a multiple of the cluster: refused
  CHECK(cudaGetLastError() != cudaSuccess);
  for (int k = refused; k < launches; ++k) {
    if (errors[k] != cudaSuccess)
      std::printf("launch %d: %s, expected cudaSuccess\n", k,
                  cudaGetErrorName(errors[k]));
    CHECK(errors[k] == cudaSuccess);
  }
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += p[i] != (i < 64 ? 130.0f : 0.0f);
  CHECK(bad == 0);

  // The bounds as cudaFuncGetAttributes() reports them.
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, a::b::fill<float>) == cudaSuccess &&
        attr.maxThreadsPerBlock == 64);
  CHECK(cudaFuncGetAttributes(&attr, a::b::apply<a::b::scale>) ==
            cudaSuccess &&
        attr.maxThreadsPerBlock == 64);
  CHECK(cudaFuncGetAttributes(&attr, a::b::later) == cudaSuccess &&
        attr.maxThreadsPerBlock == 64);
  CHECK(cudaFuncGetAttributes(&attr, hidden<float>) == cudaSuccess &&
        attr.maxThreadsPerBlock == 64);
  CHECK(cudaFuncGetAttributes(&attr, hidden_plain) == cudaSuccess &&
        attr.maxThreadsPerBlock == 64);
  CHECK(cudaFuncGetAttributes(&attr, a::versioned<float>) == cudaSuccess &&
        attr.maxThreadsPerBlock == 64);
  CHECK(cudaFuncGetAttributes(&attr, a::clustered) == cudaSuccess &&
        attr.maxThreadsPerBlock == 64);
  CHECK(cudaFree(p) == cudaSuccess);
  return finish();
}

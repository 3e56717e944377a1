/*
 * nvcc's traits of extended lambdas (--extended-lambda) in host code, as
 * CCCL uses them: __nv_is_extended_device_lambda_closure_type,
 * __nv_is_extended_host_device_lambda_closure_type and
 * __nv_is_extended_device_lambda_with_preserved_return_type give, for each
 * form of lambda and of its type, the values that nvcc 13 gives (run on
 * its host code); libcu++'s invoke_result names the return type of a
 * __device__ lambda with a trailing return type and of a __host__
 * __device__ lambda in host code; and the lambdas of each form still run
 * in a kernel template: with captures, mutable, generic and converted to a
 * function pointer in the kernel. tests/programs_trialhec2.sh also checks
 * that invoke_result of a __device__ lambda without a trailing return type
 * is refused (-DQUERY_DEVICE_LAMBDA_RETURN), as nvcc refuses it
 * (thrust::transform_reduce with such a lambda, a HeCBench-style trial).
 * CUEMU_OPTIONS: --extended-lambda
 * NVCC_OPTIONS: --extended-lambda
 */
#include <cstdio>
#include <cuda/std/functional>
#include <cuda/std/type_traits>

static int failures = 0;

/* The three traits of T as a number: device 4, host-device 2, preserved 1. */
template <class T> int traits() {
  return (__nv_is_extended_device_lambda_closure_type(T) ? 4 : 0) |
         (__nv_is_extended_host_device_lambda_closure_type(T) ? 2 : 0) |
         (__nv_is_extended_device_lambda_with_preserved_return_type(T) ? 1 : 0);
}

/* The traits of F, const F, F& and const F& against nvcc 13's. */
template <class F> void expect(F, const char *what, int want) {
  int got[4] = {traits<F>(), traits<const F>(), traits<F &>(), traits<const F &>()};
  int wanted[4] = {want, want, 0, 0};
  for (int i = 0; i < 4; ++i)
    if (got[i] != wanted[i]) {
      printf("%s (form %d): traits %d, nvcc gives %d\n", what, i, got[i], wanted[i]);
      ++failures;
    }
}

template <class F> __global__ void apply(F f, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = f(i);
}

/* Runs f over 0..63 in a kernel and checks f(i) == want(i) on the host. */
template <class F, class W> void run(F f, W want, const char *what) {
  int *d, h[64];
  cudaMalloc(&d, sizeof h);
  apply<<<2, 32>>>(f, d, 64);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  for (int i = 0; i < 64; ++i)
    if (h[i] != want(i)) {
      printf("%s: f(%d) = %d, expected %d\n", what, i, h[i], want(i));
      ++failures;
      return;
    }
}

__device__ int triple(int x) { return 3 * x; }

int main() {
  int k = 5;
  auto device = [=] __device__ (int x) { return x * k; };
  auto returning = [=] __device__ (int x) -> int { return x * k + 1; };
  auto host_device = [=] __host__ __device__ (int x) { return x - k; };
  auto host_device_returning = [=] __host__ __device__ (int x) -> int { return x + k; };
  auto plain = [=](int x) { return x * x; };
  expect(device, "__device__ lambda", 4);
  expect(returning, "__device__ lambda with a trailing return type", 5);
  expect(host_device, "__host__ __device__ lambda", 2);
  expect(host_device_returning, "__host__ __device__ lambda with a trailing return type", 2);
  expect(plain, "plain lambda", 0);

  /* Host code may ask for these return types. */
  static_assert(cuda::std::is_same<cuda::std::invoke_result_t<decltype(returning), int>, int>::value,
                "the return type of a __device__ lambda with a trailing return type");
  static_assert(cuda::std::is_same<cuda::std::invoke_result_t<decltype(host_device), int>, int>::value,
                "the return type of a __host__ __device__ lambda");
#ifdef QUERY_DEVICE_LAMBDA_RETURN
  /* nvcc refuses this: host code cannot know the return type of a __device__ lambda. */
  cuda::std::invoke_result_t<decltype(device), int> refused = 0;
  (void)refused;
#endif
  if (host_device(7) != 2 || host_device_returning(7) != 12) {
    printf("__host__ __device__ lambdas called in host code: %d %d\n", host_device(7),
           host_device_returning(7));
    ++failures;
  }

  run(device, [=](int i) { return i * k; }, "__device__ lambda");
  run(returning, [=](int i) { return i * k + 1; }, "__device__ lambda -> int");
  run(host_device, [=](int i) { return i - k; }, "__host__ __device__ lambda");
  run([] __device__ (auto x) { return x + 100; }, [](int i) { return i + 100; },
      "generic __device__ lambda");
  run([k] __device__ (int x) mutable { k += x; return k; }, [=](int i) { return k + i; },
      "mutable __device__ lambda");
  run([] __device__ (int x) {
        int (*f)(int) = [](int y) { return triple(y) + 1; };
        return f(x);
      },
      [](int i) { return 3 * i + 1; }, "a lambda converted to a function pointer in a kernel");

  if (failures)
    printf("%d failures\n", failures);
  else
    printf("PASS\n");
  return failures != 0;
}

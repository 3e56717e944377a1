/* curand_toolkit.h: NVIDIA's own cuRAND host generator, opened from the
 * CUDA toolkit's libcurand.so.10 (dlopen, RTLD_LOCAL, so that it replaces
 * nothing in the program; it binds its own calls itself), for the cuRAND tests to compare
 * cuemu's host generators with value by value: NVIDIA's host generators
 * run on the CPU and need no GPU. Under nvcc the program's own cuRAND is
 * NVIDIA's too, and the comparisons hold trivially. */
#ifndef CURAND_TOOLKIT_H
#define CURAND_TOOLKIT_H

#include <cmath>
#include <cstdlib>
#include <dlfcn.h>
#include <vector>

#include <curand.h>

#include "check_libs.h"

/* Within a relative `tol` (the inverse CDF's last bits may differ). */
static bool close_to(double a, double b, double tol) {
  return std::fabs(a - b) <= tol * std::fmax(1.0, std::fabs(b));
}

struct toolkit {
  void *lib;
  curandStatus_t (*create)(curandGenerator_t *, curandRngType_t);
  curandStatus_t (*destroy)(curandGenerator_t);
  curandStatus_t (*dims)(curandGenerator_t, unsigned);
  curandStatus_t (*seed)(curandGenerator_t, unsigned long long);
  curandStatus_t (*offset)(curandGenerator_t, unsigned long long);
  curandStatus_t (*generate)(curandGenerator_t, unsigned *, size_t);
  curandStatus_t (*longlong)(curandGenerator_t, unsigned long long *, size_t);
  curandStatus_t (*uniform)(curandGenerator_t, float *, size_t);
  curandStatus_t (*uniform_double)(curandGenerator_t, double *, size_t);
  curandStatus_t (*normal)(curandGenerator_t, float *, size_t, float, float);
  curandStatus_t (*normal_double)(curandGenerator_t, double *, size_t, double,
                                  double);
  curandStatus_t (*lognormal)(curandGenerator_t, float *, size_t, float,
                              float);
  curandStatus_t (*poisson)(curandGenerator_t, unsigned *, size_t, double);
  curandStatus_t (*vectors32)(curandDirectionVectors32_t **,
                              curandDirectionVectorSet_t);
  curandStatus_t (*vectors64)(curandDirectionVectors64_t **,
                              curandDirectionVectorSet_t);
  curandStatus_t (*constants32)(unsigned **);
  curandStatus_t (*constants64)(unsigned long long **);
};

template <typename F> static void bind(void *lib, const char *name, F &f) {
  f = reinterpret_cast<F>(dlsym(lib, name));
}

static bool open_toolkit(toolkit &t) {
  const char *root = std::getenv("CUDA_PATH");
  char path[1024];
  std::snprintf(path, sizeof path, "%s/lib64/libcurand.so.10",
                root ? root : "/usr/local/cuda");
  t.lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!t.lib)
    return false;
  bind(t.lib, "curandCreateGeneratorHost", t.create);
  bind(t.lib, "curandDestroyGenerator", t.destroy);
  bind(t.lib, "curandSetQuasiRandomGeneratorDimensions", t.dims);
  bind(t.lib, "curandSetPseudoRandomGeneratorSeed", t.seed);
  bind(t.lib, "curandSetGeneratorOffset", t.offset);
  bind(t.lib, "curandGenerate", t.generate);
  bind(t.lib, "curandGenerateLongLong", t.longlong);
  bind(t.lib, "curandGenerateUniform", t.uniform);
  bind(t.lib, "curandGenerateUniformDouble", t.uniform_double);
  bind(t.lib, "curandGenerateNormal", t.normal);
  bind(t.lib, "curandGenerateNormalDouble", t.normal_double);
  bind(t.lib, "curandGenerateLogNormal", t.lognormal);
  bind(t.lib, "curandGeneratePoisson", t.poisson);
  bind(t.lib, "curandGetDirectionVectors32", t.vectors32);
  bind(t.lib, "curandGetDirectionVectors64", t.vectors64);
  bind(t.lib, "curandGetScrambleConstants32", t.constants32);
  bind(t.lib, "curandGetScrambleConstants64", t.constants64);
  return t.create && t.constants64;
}

/* Every value of one kind from cuemu's host generator and NVIDIA's, with
 * the same settings, over two calls of n values: for a quasirandom type
 * 5 dimensions and offset 77, for a pseudorandom one `seed` and offset
 * `offset`. The number of values that differ. */
template <typename T, typename Ours, typename Theirs>
static int compare(curandRngType_t type, Ours ours, Theirs theirs,
                   const toolkit &t, double tol, const char *what,
                   int n = 320, unsigned long long seed = 0,
                   unsigned long long offset = 77) {
  curandGenerator_t a, b;
  if (curandCreateGeneratorHost(&a, type) != CURAND_STATUS_SUCCESS ||
      t.create(&b, type) != CURAND_STATUS_SUCCESS) {
    EXPECT(false, "type %d: a host generator cannot be created", (int)type);
    return 1;
  }
  bool quasi = type >= CURAND_RNG_QUASI_DEFAULT;
  if (quasi) {
    curandSetQuasiRandomGeneratorDimensions(a, 5);
    t.dims(b, 5);
  } else {
    curandSetPseudoRandomGeneratorSeed(a, seed);
    t.seed(b, seed);
  }
  curandSetGeneratorOffset(a, offset);
  t.offset(b, offset);
  std::vector<T> x(n), y(n);
  int differ = 0;
  for (int call = 0; call < 2; ++call) {
    EXPECT_STATUS(ours(a, x.data(), n), CURAND_STATUS_SUCCESS);
    EXPECT_STATUS(theirs(b, y.data(), n), CURAND_STATUS_SUCCESS);
    for (int i = 0; i < n; ++i)
      if (tol == 0 ? x[i] != y[i] : !close_to(x[i], y[i], tol)) {
        if (differ++ == 0)
          std::printf("type %d %s: value %d of call %d: %.17g, NVIDIA's "
                      "%.17g\n",
                      (int)type, what, i, call, (double)x[i], (double)y[i]);
      }
  }
  curandDestroyGenerator(a);
  t.destroy(b);
  EXPECT(differ == 0, "type %d %s: %d values differ from NVIDIA's host "
         "generator", (int)type, what, differ);
  return differ;
}

/* Poisson lambdas the comparisons use: NVIDIA's table (below 10 for
 * 32-bit points), Fishman's inversion, and the normal approximation (from
 * 1000 for 64-bit points, above 8000 for 32-bit ones). */
static const double kLambdas[] = {3.5, 700.0, 5000.0, 8500.0};
static const int kLambdaCount = 4;

/* Every transform of one generator type against NVIDIA's: uniform,
 * uniform double, normal and normal double (mean 1.5, stddev 2),
 * log-normal, and Poisson at `lambdas` lambdas from `lambda`; normal doubles
 * within `double_tol`. */
static void compare_distributions(curandRngType_t type, const toolkit &t,
                                  int lambdas, const double *lambda,
                                  int n = 320, unsigned long long seed = 0,
                                  unsigned long long offset = 77,
                                  double double_tol = 1e-13) {
  compare<float>(type, curandGenerateUniform, t.uniform, t, 0,
                 "curandGenerateUniform", n, seed, offset);
  compare<double>(type, curandGenerateUniformDouble, t.uniform_double, t, 0,
                  "curandGenerateUniformDouble", n, seed, offset);
  compare<float>(
      type,
      [](curandGenerator_t g, float *o, size_t k) {
        return curandGenerateNormal(g, o, k, 1.5f, 2.0f);
      },
      [&t](curandGenerator_t g, float *o, size_t k) {
        return t.normal(g, o, k, 1.5f, 2.0f);
      },
      t, 1e-6, "curandGenerateNormal", n, seed, offset);
  compare<double>(
      type,
      [](curandGenerator_t g, double *o, size_t k) {
        return curandGenerateNormalDouble(g, o, k, 1.5, 2.0);
      },
      [&t](curandGenerator_t g, double *o, size_t k) {
        return t.normal_double(g, o, k, 1.5, 2.0);
      },
      t, double_tol, "curandGenerateNormalDouble", n, seed, offset);
  compare<float>(
      type,
      [](curandGenerator_t g, float *o, size_t k) {
        return curandGenerateLogNormal(g, o, k, 0.5f, 0.25f);
      },
      [&t](curandGenerator_t g, float *o, size_t k) {
        return t.lognormal(g, o, k, 0.5f, 0.25f);
      },
      t, 1e-6, "curandGenerateLogNormal", n, seed, offset);
  for (int i = 0; i < lambdas; ++i) {
    double l = lambda[i];
    compare<unsigned>(
        type,
        [l](curandGenerator_t g, unsigned *o, size_t k) {
          return curandGeneratePoisson(g, o, k, l);
        },
        [&t, l](curandGenerator_t g, unsigned *o, size_t k) {
          return t.poisson(g, o, k, l);
        },
        t, 0, "curandGeneratePoisson", n, seed, offset);
  }
}

#endif /* CURAND_TOOLKIT_H */

/* curand_layout.cu: cuRAND's pseudorandom host generators (XORWOW, the
 * default, MRG32k3a and Philox4_32_10) give NVIDIA's exact sequences:
 * where the CUDA toolkit's libcurand.so can be opened, a script of calls
 * (every generation function, Poisson values of lambdas from 3.5 to 5000,
 * odd counts,
 * offsets, a changed seed, a changed ordering, curandGenerateSeeds) runs
 * on cuemu's host generator
 * and on NVIDIA's (which runs on the CPU), and every value is compared
 * (normals to 1e-6 / 1e-13 relative, the rest exactly; skipped with a
 * note where it cannot be opened). A device generator
 * (curandCreateGenerator) gives the host generator's values, as cuRAND
 * documents; the orderings' statuses are NVIDIA's.
 * CUEMU_OPTIONS: -lcurand -ldl */
#include <cstring>
#include <vector>

#include <curand.h>

#include "check_libs.h"
#include "curand_toolkit.h"

/* One generator's functions: cuemu's (the program's own cuRAND) or
 * NVIDIA's (from the toolkit's library). */
struct api {
  curandStatus_t (*create)(curandGenerator_t *, curandRngType_t);
  curandStatus_t (*destroy)(curandGenerator_t);
  curandStatus_t (*seed)(curandGenerator_t, unsigned long long);
  curandStatus_t (*offset)(curandGenerator_t, unsigned long long);
  curandStatus_t (*ordering)(curandGenerator_t, curandOrdering_t);
  curandStatus_t (*seeds)(curandGenerator_t);
  curandStatus_t (*generate)(curandGenerator_t, unsigned *, size_t);
  curandStatus_t (*uniform)(curandGenerator_t, float *, size_t);
  curandStatus_t (*uniform_double)(curandGenerator_t, double *, size_t);
  curandStatus_t (*normal)(curandGenerator_t, float *, size_t, float, float);
  curandStatus_t (*normal_double)(curandGenerator_t, double *, size_t, double,
                                  double);
  curandStatus_t (*lognormal)(curandGenerator_t, float *, size_t, float,
                              float);
  curandStatus_t (*lognormal_double)(curandGenerator_t, double *, size_t,
                                     double, double);
  curandStatus_t (*poisson)(curandGenerator_t, unsigned *, size_t, double);
};

static api ours() {
  api a = {curandCreateGeneratorHost, curandDestroyGenerator,
           curandSetPseudoRandomGeneratorSeed, curandSetGeneratorOffset,
           curandSetGeneratorOrdering, curandGenerateSeeds, curandGenerate,
           curandGenerateUniform, curandGenerateUniformDouble,
           curandGenerateNormal, curandGenerateNormalDouble,
           curandGenerateLogNormal, curandGenerateLogNormalDouble,
           curandGeneratePoisson};
  return a;
}

static bool theirs(api &a) {
  toolkit t;
  if (!open_toolkit(t))
    return false;
  a.create = t.create, a.destroy = t.destroy, a.seed = t.seed;
  a.offset = t.offset, a.generate = t.generate, a.uniform = t.uniform;
  a.uniform_double = t.uniform_double, a.normal = t.normal;
  a.normal_double = t.normal_double, a.lognormal = t.lognormal;
  a.poisson = t.poisson;
  bind(t.lib, "curandSetGeneratorOrdering", a.ordering);
  bind(t.lib, "curandGenerateSeeds", a.seeds);
  bind(t.lib, "curandGenerateLogNormalDouble", a.lognormal_double);
  return a.ordering && a.seeds && a.lognormal_double;
}

/* Runs one step of a script ("r5": 5 values of curandGenerate, "u"
 * uniform, "d" uniform double, "n" normal, "N" normal double, "l"
 * log-normal, "L" log-normal double, "p" and "q" Poisson of lambda 5000
 * and 2000 (the rounded normal of curand_poisson), "c", "m" and "k" of
 * lambda 3.5, 700 and 1999.5 (NVIDIA's table, one draw a value; 1999.5's
 * starts above 0); "o77" offset 77, "s9" seed 9, "O103"
 * an ordering, "S" curandGenerateSeeds) and returns its values as
 * doubles. */
static std::vector<double> step(const api &a, curandGenerator_t g,
                                const char *what) {
  char c = what[0];
  unsigned long long n = std::strtoull(what + 1, nullptr, 0);
  std::vector<double> out;
  switch (c) {
  case 'o':
    EXPECT_STATUS(a.offset(g, n), CURAND_STATUS_SUCCESS);
    return out;
  case 's':
    EXPECT_STATUS(a.seed(g, n), CURAND_STATUS_SUCCESS);
    return out;
  case 'O':
    EXPECT_STATUS(a.ordering(g, (curandOrdering_t)n), CURAND_STATUS_SUCCESS);
    return out;
  case 'S':
    EXPECT_STATUS(a.seeds(g), CURAND_STATUS_SUCCESS);
    return out;
  }
  std::vector<float> f(n);
  std::vector<double> d(n);
  std::vector<unsigned> u(n);
  curandStatus_t s = CURAND_STATUS_SUCCESS;
  bool wide = c == 'd' || c == 'N' || c == 'L';
  switch (c) {
  case 'r': s = a.generate(g, u.data(), n); break;
  case 'u': s = a.uniform(g, f.data(), n); break;
  case 'd': s = a.uniform_double(g, d.data(), n); break;
  case 'n': s = a.normal(g, f.data(), n, 1.5f, 2.0f); break;
  case 'N': s = a.normal_double(g, d.data(), n, 1.5, 2.0); break;
  case 'l': s = a.lognormal(g, f.data(), n, 0.5f, 0.25f); break;
  case 'L': s = a.lognormal_double(g, d.data(), n, 0.5, 0.25); break;
  case 'p': s = a.poisson(g, u.data(), n, 5000.0); break;
  case 'q': s = a.poisson(g, u.data(), n, 2000.0); break;
  case 'c': s = a.poisson(g, u.data(), n, 3.5); break;
  case 'm': s = a.poisson(g, u.data(), n, 700.0); break;
  case 'k': s = a.poisson(g, u.data(), n, 1999.5); break;
  }
  EXPECT_STATUS(s, CURAND_STATUS_SUCCESS);
  for (size_t i = 0; i < n; ++i)
    out.push_back(c == 'r' || c == 'p' || c == 'q' || c == 'c' || c == 'm' ||
                          c == 'k'
                      ? u[i]
                  : wide                                         ? d[i]
                                                                 : f[i]);
  return out;
}

/* The script on cuemu's host generator and NVIDIA's, value by value. */
static void compare_script(const api &nv, curandRngType_t type,
                           unsigned long long seed,
                           std::vector<const char *> script) {
  api me = ours();
  curandGenerator_t a, b;
  EXPECT_STATUS(me.create(&a, type), CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(nv.create(&b, type), CURAND_STATUS_SUCCESS);
  me.seed(a, seed);
  nv.seed(b, seed);
  for (const char *what : script) {
    std::vector<double> x = step(me, a, what), y = step(nv, b, what);
    double tol = what[0] == 'n' || what[0] == 'l'   ? 1e-6
                 : what[0] == 'N' || what[0] == 'L' ? 1e-13
                                                    : 0;
    int differ = 0;
    for (size_t i = 0; i < x.size(); ++i)
      if (tol == 0 ? x[i] != y[i] : !close_to(x[i], y[i], tol)) {
        if (differ++ == 0)
          std::printf("type %d seed %llu step %s: value %zu is %.17g, "
                      "NVIDIA's %.17g\n",
                      (int)type, seed, what, i, x[i], y[i]);
      }
    EXPECT(differ == 0, "type %d step %s: %d values differ from NVIDIA's",
           (int)type, what, differ);
  }
  me.destroy(a);
  nv.destroy(b);
}

/* A device generator's values equal a host generator's. */
static void device_equals_host(curandRngType_t type) {
  const size_t n = 10007;
  curandGenerator_t h, g;
  EXPECT_STATUS(curandCreateGeneratorHost(&h, type), CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandCreateGenerator(&g, type), CURAND_STATUS_SUCCESS);
  curandSetPseudoRandomGeneratorSeed(h, 42);
  curandSetPseudoRandomGeneratorSeed(g, 42);
  curandSetGeneratorOffset(h, 5);
  curandSetGeneratorOffset(g, 5);
  std::vector<unsigned> x(n), y(n);
  std::vector<double> dx(n + 1), dy(n + 1);
  unsigned *du;
  double *dd;
  CHECK_CUDA(cudaMalloc(&du, n * sizeof *du));
  CHECK_CUDA(cudaMalloc(&dd, (n + 1) * sizeof *dd));
  EXPECT_STATUS(curandGenerate(h, x.data(), n), CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandGenerate(g, du, n), CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandGenerateNormalDouble(h, dx.data(), n + 1, 0, 1),
                CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandGenerateNormalDouble(g, dd, n + 1, 0, 1),
                CURAND_STATUS_SUCCESS);
  CHECK_CUDA(cudaMemcpy(y.data(), du, n * sizeof *du, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(dy.data(), dd, (n + 1) * sizeof *dd,
                        cudaMemcpyDeviceToHost));
  EXPECT(x == y, "type %d: a device generator's draws differ from a host "
         "generator's", (int)type);
  EXPECT(dx == dy, "type %d: a device generator's normal doubles differ "
         "from a host generator's", (int)type);
  cudaFree(du);
  cudaFree(dd);
  curandDestroyGenerator(h);
  curandDestroyGenerator(g);
}

int main() {
  const curandRngType_t types[] = {CURAND_RNG_PSEUDO_XORWOW,
                                   CURAND_RNG_PSEUDO_MRG32K3A,
                                   CURAND_RNG_PSEUDO_PHILOX4_32_10};
  /* The orderings' statuses (NVIDIA's host generators): SEEDED is
   * XORWOW's only, MT19937 has no BEST, a host generator refuses DYNAMIC. */
  for (curandRngType_t type :
       {CURAND_RNG_PSEUDO_XORWOW, CURAND_RNG_PSEUDO_MRG32K3A,
        CURAND_RNG_PSEUDO_PHILOX4_32_10, CURAND_RNG_PSEUDO_MTGP32,
        CURAND_RNG_PSEUDO_MT19937}) {
    for (int order = CURAND_ORDERING_PSEUDO_BEST;
         order <= CURAND_ORDERING_PSEUDO_DYNAMIC; ++order) {
      curandGenerator_t g;
      if (curandCreateGeneratorHost(&g, type) != CURAND_STATUS_SUCCESS)
        continue; /* MTGP32 without the toolkit's parameter table */
      bool refused = order == CURAND_ORDERING_PSEUDO_DYNAMIC ||
                     (order == CURAND_ORDERING_PSEUDO_SEEDED &&
                      type != CURAND_RNG_PSEUDO_XORWOW) ||
                     (order == CURAND_ORDERING_PSEUDO_BEST &&
                      type == CURAND_RNG_PSEUDO_MT19937);
      EXPECT_STATUS(curandSetGeneratorOrdering(g, (curandOrdering_t)order),
                    refused ? CURAND_STATUS_OUT_OF_RANGE
                            : CURAND_STATUS_SUCCESS);
      curandDestroyGenerator(g);
    }
  }
  for (curandRngType_t type : types)
    device_equals_host(type);
  api nv;
  if (!theirs(nv)) {
    std::printf("note: the CUDA toolkit's libcurand.so.10 cannot be opened; "
                "NVIDIA's host generators not compared\n");
    return finish();
  }
  /* Whole rounds of threads and partial ones, every transform, odd counts
   * and offsets (a Philox group of four cut by a call's end), offsets
   * beyond a round (4096 XORWOW threads, 65,536 x 4 Philox values), a
   * changed seed or ordering after generation (which restarts from the
   * offset plus what was generated, Philox's counted in groups of four),
   * an unchanged seed (no change), curandGenerateSeeds. */
  std::vector<const char *> script = {
      "r5",     "n8192", "r3",   "n20", "r10",     "u7",   "d9",
      "N10",    "r9",    "l6",   "L4",  "r300000", "n4",   "o77",
      "r3",     "n6",    "d5",   "u3",  "N4",      "o262147", "d9",
      "N6",     "r3",    "n600", "s77", "r5",      "d5",   "s77",
      "u11",    "O103",  "r6",   "n10", "d5",      "N6",   "u4",
      "r9000",  "S",     "r7",   "O100", "N8",
      "o5",     "r3",    "s1234", "r4", "o12345678901", "r9", "n8",
      "p4099",  "p5",    "r3",   "p7",  "n4",      "p2",   "q4099",
      "q3",     "r5",    "c4099", "c3", "r5",     "u6",   "c9",
      "m4099",  "m7",    "k4099", "k5", "c2",     "r4"};
  for (curandRngType_t type : types) {
    compare_script(nv, type, 1234, script);
    compare_script(nv, type, 0xfedcba9876543210ull,
                   {"r4099", "n10", "d7", "o1000000", "u9", "N6"});
  }
  /* XORWOW's SEEDED ordering (a seed per thread), and back. */
  compare_script(nv, CURAND_RNG_PSEUDO_XORWOW, 1234,
                 {"O102", "r5000", "n10", "d7", "o77", "u9", "N6", "c5", "p3",
                  "s0xfedcba9876543210", "r9", "O101", "r7"});
  /* Philox takes odd counts of normals, as NVIDIA's (XORWOW and MRG32k3a
   * refuse them: curand_rules.cu). */
  compare_script(nv, CURAND_RNG_PSEUDO_PHILOX4_32_10, 99,
                 {"n5", "N3", "l7", "L1", "r3", "n1", "u2"});
  return finish();
}

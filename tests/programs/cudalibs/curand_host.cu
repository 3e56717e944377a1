/* curand_host.cu: cuRAND's host API in the style of MC_EstimatePi: a
 * Monte-Carlo estimate of pi from uniform draws counted by a kernel, the
 * moments of uniform, normal, log-normal and Poisson draws, the same
 * numbers from a host generator as from a device generator, the even-count
 * rule of normals, and generation ordered on a stream. Under cuemu
 * (CUEMU_VERSION), also that the draws and normals are the device API's
 * (curand_kernel.h) of NVIDIA's host API layout: many subsequences, one per
 * thread (curand_layout.cu compares them with NVIDIA's host generator), for
 * XORWOW, Philox and MRG32k3a.
 * CUEMU_OPTIONS: -lcurand */
#include <cmath>
#include <vector>

#include <curand.h>
#include <curand_kernel.h>

#include "check_libs.h"

/* Counts the points (x[i], y[i]) inside the quarter circle. */
__global__ void count_inside(const float *x, const float *y, int n,
                             unsigned long long *inside) {
  unsigned long long mine = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    mine += x[i] * x[i] + y[i] * y[i] <= 1.0f;
  atomicAdd(inside, mine);
}

static void estimate_pi(void) {
  const int n = 1 << 18;
  curandGenerator_t gen;
  EXPECT_STATUS(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT),
                CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandSetPseudoRandomGeneratorSeed(gen, 1234ULL),
                CURAND_STATUS_SUCCESS);
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  EXPECT_STATUS(curandSetStream(gen, stream), CURAND_STATUS_SUCCESS);
  float *d;
  unsigned long long *inside;
  CHECK_CUDA(cudaMalloc(&d, 2 * n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&inside, sizeof *inside));
  CHECK_CUDA(cudaMemsetAsync(inside, 0, sizeof *inside, stream));
  EXPECT_STATUS(curandGenerateUniform(gen, d, 2 * n), CURAND_STATUS_SUCCESS);
  count_inside<<<64, 128, 0, stream>>>(d, d + n, n, inside);
  unsigned long long count = 0;
  CHECK_CUDA(cudaMemcpyAsync(&count, inside, sizeof count,
                             cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  double pi = 4.0 * (double)count / n;
  /* The standard error of the estimate is about 0.0032 at 2^18 points. */
  EXPECT(std::fabs(pi - M_PI) < 0.02, "pi estimate %.5f", pi);
  std::printf("pi estimate from %d points: %.5f\n", n, pi);
  curandDestroyGenerator(gen);
  cudaStreamDestroy(stream);
  cudaFree(d), cudaFree(inside);
}

template <typename T>
static void moments(const std::vector<T> &v, double *mean, double *var) {
  double s = 0, s2 = 0;
  for (T x : v)
    s += x;
  *mean = s / v.size();
  for (T x : v)
    s2 += (x - *mean) * (x - *mean);
  *var = s2 / (v.size() - 1);
}

static void distributions(curandRngType_t type, const char *name) {
  const size_t n = 1 << 16;
  curandGenerator_t gen;
  EXPECT_STATUS(curandCreateGenerator(&gen, type), CURAND_STATUS_SUCCESS);
  curandSetPseudoRandomGeneratorSeed(gen, 42ULL);
  float *df;
  double *dd;
  unsigned *du;
  CHECK_CUDA(cudaMalloc(&df, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dd, n * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&du, n * sizeof(unsigned)));
  std::vector<float> f(n);
  std::vector<double> d(n);
  std::vector<unsigned> u(n);
  double mean, var;

  EXPECT_STATUS(curandGenerateUniform(gen, df, n), CURAND_STATUS_SUCCESS);
  cudaMemcpy(f.data(), df, n * sizeof(float), cudaMemcpyDeviceToHost);
  moments(f, &mean, &var);
  int outside = 0;
  for (float x : f)
    outside += !(x > 0.0f && x <= 1.0f);
  EXPECT(outside == 0, "%s: %d uniform draws outside (0, 1]", name, outside);
  EXPECT(std::fabs(mean - 0.5) < 0.01 && std::fabs(var - 1.0 / 12) < 0.003,
         "%s uniform: mean %g var %g", name, mean, var);

  EXPECT_STATUS(curandGenerateUniformDouble(gen, dd, n), CURAND_STATUS_SUCCESS);
  cudaMemcpy(d.data(), dd, n * sizeof(double), cudaMemcpyDeviceToHost);
  moments(d, &mean, &var);
  EXPECT(std::fabs(mean - 0.5) < 0.01 && std::fabs(var - 1.0 / 12) < 0.003,
         "%s uniform double: mean %g var %g", name, mean, var);

  EXPECT_STATUS(curandGenerateNormal(gen, df, n, 3.0f, 2.0f),
                CURAND_STATUS_SUCCESS);
  cudaMemcpy(f.data(), df, n * sizeof(float), cudaMemcpyDeviceToHost);
  moments(f, &mean, &var);
  EXPECT(std::fabs(mean - 3.0) < 0.05 && std::fabs(var - 4.0) < 0.15,
         "%s normal(3, 2): mean %g var %g", name, mean, var);

  EXPECT_STATUS(curandGenerateNormalDouble(gen, dd, n, -1.0, 0.5),
                CURAND_STATUS_SUCCESS);
  cudaMemcpy(d.data(), dd, n * sizeof(double), cudaMemcpyDeviceToHost);
  moments(d, &mean, &var);
  EXPECT(std::fabs(mean + 1.0) < 0.02 && std::fabs(var - 0.25) < 0.01,
         "%s normal double(-1, 0.5): mean %g var %g", name, mean, var);

  /* log-normal(0, 0.5): mean exp(0.125). */
  EXPECT_STATUS(curandGenerateLogNormal(gen, df, n, 0.0f, 0.5f),
                CURAND_STATUS_SUCCESS);
  cudaMemcpy(f.data(), df, n * sizeof(float), cudaMemcpyDeviceToHost);
  moments(f, &mean, &var);
  EXPECT(std::fabs(mean - std::exp(0.125)) < 0.02, "%s log-normal: mean %g",
         name, mean);

  /* Poisson: mean and variance lambda, small and large. */
  const double lambdas[2] = {3.5, 200.0};
  for (double lambda : lambdas) {
    EXPECT_STATUS(curandGeneratePoisson(gen, du, n, lambda),
                  CURAND_STATUS_SUCCESS);
    cudaMemcpy(u.data(), du, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
    moments(u, &mean, &var);
    EXPECT(std::fabs(mean - lambda) < 0.03 * lambda &&
               std::fabs(var - lambda) < 0.08 * lambda,
           "%s Poisson(%g): mean %g var %g", name, lambda, mean, var);
  }

  /* XORWOW's and MRG32k3a's normals come in pairs: an odd count is
   * refused; Philox's come in fours, and it takes any count. */
  EXPECT_STATUS(curandGenerateNormal(gen, df, 7, 0.0f, 1.0f),
                type == CURAND_RNG_PSEUDO_PHILOX4_32_10
                    ? CURAND_STATUS_SUCCESS
                    : CURAND_STATUS_LENGTH_NOT_MULTIPLE);
  EXPECT_STATUS(curandGeneratePoisson(gen, du, 8, -1.0),
                CURAND_STATUS_OUT_OF_RANGE);
  curandDestroyGenerator(gen);
  cudaFree(df), cudaFree(dd), cudaFree(du);
}

/* A host generator gives the numbers a device generator gives. */
static void host_matches_device(void) {
  const size_t n = 1000;
  curandGenerator_t dev, host;
  EXPECT_STATUS(curandCreateGenerator(&dev, CURAND_RNG_PSEUDO_XORWOW),
                CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandCreateGeneratorHost(&host, CURAND_RNG_PSEUDO_XORWOW),
                CURAND_STATUS_SUCCESS);
  curandSetPseudoRandomGeneratorSeed(dev, 99ULL);
  curandSetPseudoRandomGeneratorSeed(host, 99ULL);
  unsigned *d;
  CHECK_CUDA(cudaMalloc(&d, n * sizeof(unsigned)));
  std::vector<unsigned> a(n), b(n);
  EXPECT_STATUS(curandGenerate(dev, d, n), CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandGenerate(host, b.data(), n), CURAND_STATUS_SUCCESS);
  cudaMemcpy(a.data(), d, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
  int differ = 0;
  for (size_t i = 0; i < n; ++i)
    differ += a[i] != b[i];
  EXPECT(differ == 0, "host and device generators differ at %d of %zu",
         differ, n);
  int version = 0;
  EXPECT_STATUS(curandGetVersion(&version), CURAND_STATUS_SUCCESS);
  EXPECT(version > 0, "curandGetVersion %d", version);
  curandDestroyGenerator(dev);
  curandDestroyGenerator(host);
  cudaFree(d);
}

#ifdef CUEMU_VERSION
/* The host generator's values from `offset` on, as NVIDIA's host API lays
 * them out, made with the device API: value j (offset + i) is position
 * j / threads of subsequence j mod threads (curand_init(seed, j mod
 * threads, j / threads)); for Philox, groups of four: subsequence
 * (j / 4) mod threads, position 4 (j / (4 threads)) + j mod 4. Normals (the
 * first round of threads): XORWOW and MRG32k3a pair k is curand_normal2 of
 * subsequence offset + k, Philox's value j lane j mod 4 of curand_normal4 of
 * subsequence j / 4. */
/* For the states without curand_normal4 (only Philox's is used). */
template <typename State>
__device__ float4 curand_normal4(State *) {
  return float4{};
}

template <typename State>
__global__ void device_draws(unsigned long long seed,
                             unsigned long long offset, unsigned *raw,
                             float *normal, int n, unsigned long long threads,
                             bool groups) {
  State s;
  for (int i = 0; i < n; ++i) {
    unsigned long long j = offset + i;
    if (groups)
      curand_init(seed, j / 4 % threads, 4 * (j / (4 * threads)) + j % 4, &s);
    else
      curand_init(seed, j % threads, j / threads, &s);
    raw[i] = curand(&s);
  }
  for (int i = 0; i < n; i += groups ? 1 : 2) {
    unsigned long long j = offset + (groups ? i : i / 2);
    if (groups) {
      curand_init(seed, j / 4, 0, &s);
      float4 v = curand_normal4(&s);
      float lane[4] = {v.x, v.y, v.z, v.w};
      normal[i] = lane[j % 4];
    } else {
      curand_init(seed, j, 0, &s);
      float2 v = curand_normal2(&s);
      normal[i] = v.x, normal[i + 1] = v.y;
    }
  }
}

template <typename State>
static void same_as_device_api(curandRngType_t type, const char *name,
                               unsigned long long threads, bool groups) {
  const int n = 64;
  const unsigned long long seed = 2024, offset = 6;
  unsigned *draws;
  float *normals;
  CHECK_CUDA(cudaMallocManaged(&draws, n * sizeof(unsigned)));
  CHECK_CUDA(cudaMallocManaged(&normals, n * sizeof(float)));
  device_draws<State><<<1, 1>>>(seed, offset, draws, normals, n, threads,
                                groups);
  CHECK_CUDA(cudaDeviceSynchronize());
  curandGenerator_t gen;
  EXPECT_STATUS(curandCreateGeneratorHost(&gen, type), CURAND_STATUS_SUCCESS);
  curandSetPseudoRandomGeneratorSeed(gen, seed);
  curandSetGeneratorOffset(gen, offset);
  std::vector<unsigned> raw(n);
  std::vector<float> normal(n);
  EXPECT_STATUS(curandGenerate(gen, raw.data(), n), CURAND_STATUS_SUCCESS);
  curandSetGeneratorOffset(gen, offset); /* back to the same start */
  EXPECT_STATUS(curandGenerateNormal(gen, normal.data(), n, 0.0f, 1.0f),
                CURAND_STATUS_SUCCESS);
  int differ = 0;
  double worst = 0;
  for (int i = 0; i < n; ++i) {
    differ += raw[i] != draws[i];
    worst = std::fmax(worst, std::fabs(normal[i] - normals[i]));
  }
  EXPECT(differ == 0, "%s: %d draws differ from curand_kernel.h's", name,
         differ);
  EXPECT(worst < 1e-5, "%s: normals differ from curand_normal by %g", name,
         worst);
  curandDestroyGenerator(gen);
  cudaFree(draws), cudaFree(normals);
}
#endif

int main() {
  estimate_pi();
  distributions(CURAND_RNG_PSEUDO_XORWOW, "XORWOW");
  distributions(CURAND_RNG_PSEUDO_PHILOX4_32_10, "Philox");
  distributions(CURAND_RNG_PSEUDO_MRG32K3A, "MRG32k3a");
  host_matches_device();
#ifdef CUEMU_VERSION
  same_as_device_api<curandStateXORWOW_t>(CURAND_RNG_PSEUDO_XORWOW, "XORWOW",
                                          4096, false);
  same_as_device_api<curandStatePhilox4_32_10_t>(
      CURAND_RNG_PSEUDO_PHILOX4_32_10, "Philox", 65536, true);
  same_as_device_api<curandStateMRG32k3a_t>(CURAND_RNG_PSEUDO_MRG32K3A,
                                            "MRG32k3a", 81920, false);
#endif
  return finish();
}

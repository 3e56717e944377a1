/* curand_mt.cu: cuRAND's Mersenne Twisters. MTGP32 through the device API
 * as the samples use it (curandMakeMTGP32Constants and
 * curandMakeMTGP32KernelState with mtgp32dc_params_fast_11213, 64 blocks
 * of 256 threads each drawing from its block's state) and through the host
 * API (CURAND_RNG_PSEUDO_MTGP32), whose output is 256 draws of state 0,
 * then 256 of state 1, ... of 192 states, round after round: the device
 * API's blocks give the same draws. MT19937 (CURAND_RNG_PSEUDO_MT19937):
 * its first draw is the reference generator's (std::mt19937, seeded as
 * init_genrand), and under cuemu every draw is (docs/cublas.md). Where the
 * CUDA toolkit's libcurand.so can be opened, MTGP32's draws and transforms
 * are compared value by value with NVIDIA's own host generator. Both
 * generators ignore the offset, as NVIDIA's do.
 * CUEMU_OPTIONS: -lcurand -ldl */
#include <cmath>
#include <random>
#include <vector>

#include <curand.h>
#include <curand_kernel.h>
#include <curand_mtgp32_host.h>
#include <curand_mtgp32dc_p_11213.h>

#include "check_libs.h"
#include "curand_toolkit.h"

static const int kBlocks = 64;
static const int kRounds = 3;

/* Each thread of a block draws kRounds values from its block's state, and
 * counts the odd ones, as the samples' MTGP32 kernel does. */
__global__ void draw_mtgp32(curandStateMtgp32 *state, unsigned *out,
                            float *uniform, int *odd) {
  int block = blockIdx.x;
  int count = 0;
  for (int r = 0; r < kRounds; ++r) {
    unsigned x = curand(&state[block]);
    out[(block * kRounds + r) * blockDim.x + threadIdx.x] = x;
    count += x & 1;
  }
  uniform[block * blockDim.x + threadIdx.x] = curand_uniform(&state[block]);
  atomicAdd(odd, count);
}

static void mtgp32_device_and_host(void) {
  const unsigned long long seed = 1234;
  curandStateMtgp32 *states;
  mtgp32_kernel_params *params;
  CHECK_CUDA(cudaMalloc(&states, kBlocks * sizeof *states));
  CHECK_CUDA(cudaMalloc(&params, sizeof *params));
  EXPECT_STATUS(curandMakeMTGP32Constants(mtgp32dc_params_fast_11213, params),
                CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandMakeMTGP32KernelState(states, mtgp32dc_params_fast_11213,
                                            params, kBlocks, seed),
                CURAND_STATUS_SUCCESS);
  unsigned *d;
  float *du;
  int *dodd;
  const int n = kBlocks * kRounds * 256;
  CHECK_CUDA(cudaMalloc(&d, n * sizeof *d));
  CHECK_CUDA(cudaMalloc(&du, kBlocks * 256 * sizeof *du));
  CHECK_CUDA(cudaMalloc(&dodd, sizeof *dodd));
  CHECK_CUDA(cudaMemset(dodd, 0, sizeof *dodd));
  draw_mtgp32<<<kBlocks, 256>>>(states, d, du, dodd);
  CHECK_CUDA(cudaGetLastError());
  std::vector<unsigned> api(n);
  std::vector<float> api_uniform(kBlocks * 256);
  int odd = 0;
  CHECK_CUDA(cudaMemcpy(api.data(), d, n * sizeof *d, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(api_uniform.data(), du, api_uniform.size() * 4,
                        cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(&odd, dodd, sizeof odd, cudaMemcpyDeviceToHost));
  /* About half the draws are odd. */
  EXPECT(std::abs(odd - n / 2) < 4 * std::sqrt(n / 4.0), "%d of %d odd", odd,
         n);

  /* The host API: 192 states, 256 draws of each per round. */
  const int per_round = 192 * 256, total = (kRounds + 1) * per_round;
  std::vector<unsigned> host(total);
  std::vector<float> host_uniform(per_round);
  curandGenerator_t gen;
  EXPECT_STATUS(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_MTGP32),
                CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandSetPseudoRandomGeneratorSeed(gen, seed),
                CURAND_STATUS_SUCCESS);
  unsigned *dh;
  CHECK_CUDA(cudaMalloc(&dh, total * sizeof *dh));
  EXPECT_STATUS(curandGenerate(gen, dh, total), CURAND_STATUS_SUCCESS);
  CHECK_CUDA(cudaMemcpy(host.data(), dh, total * sizeof *dh,
                        cudaMemcpyDeviceToHost));
  int differ = 0;
  for (int b = 0; b < kBlocks; ++b)
    for (int r = 0; r < kRounds; ++r)
      for (int t = 0; t < 256; ++t)
        differ += api[(b * kRounds + r) * 256 + t] !=
                  host[(size_t)r * per_round + b * 256 + t];
  EXPECT(differ == 0,
         "%d of %d device-API draws differ from the host generator's (block "
         "0 first: %08x, host %08x)",
         differ, n, api[0], host[0]);
  /* The uniform of round kRounds: curand_uniform of that draw. */
  for (int b = 0, far = 0; b < kBlocks; ++b)
    for (int t = 0; t < 256; ++t) {
      unsigned x = host[(size_t)kRounds * per_round + b * 256 + t];
      float want = x * 2.3283064e-10f + 2.3283064e-10f / 2.0f;
      if (api_uniform[b * 256 + t] != want && far++ == 0)
        EXPECT(false, "curand_uniform of block %d thread %d: %.9g, want %.9g",
               b, t, api_uniform[b * 256 + t], want);
    }

  /* The offset is ignored, as by NVIDIA's MTGP32 generator: the draws
   * after curandSetGeneratorOffset are those of offset 0. */
  std::vector<unsigned> later(1000);
  EXPECT_STATUS(curandSetGeneratorOffset(gen, per_round - 300),
                CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandGenerate(gen, dh, later.size()), CURAND_STATUS_SUCCESS);
  CHECK_CUDA(cudaMemcpy(later.data(), dh, later.size() * sizeof *dh,
                        cudaMemcpyDeviceToHost));
  differ = 0;
  for (size_t i = 0; i < later.size(); ++i)
    differ += later[i] != host[i];
  EXPECT(differ == 0, "%d draws after an offset differ from offset 0's",
         differ);

  /* Normals of MTGP32 are one per draw (the inverse CDF): any count. */
  float *dn;
  CHECK_CUDA(cudaMalloc(&dn, 3 * sizeof *dn));
  EXPECT_STATUS(curandGenerateNormal(gen, dn, 3, 0.0f, 1.0f),
                CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandDestroyGenerator(gen), CURAND_STATUS_SUCCESS);
  CHECK_CUDA(cudaFree(dn));
  CHECK_CUDA(cudaFree(dh));
  CHECK_CUDA(cudaFree(d));
  CHECK_CUDA(cudaFree(du));
  CHECK_CUDA(cudaFree(dodd));
  CHECK_CUDA(cudaFree(states));
  CHECK_CUDA(cudaFree(params));
}

static void mt19937(void) {
  const unsigned long long seed = 5489;
  const int n = 2000;
  curandGenerator_t gen;
  EXPECT_STATUS(curandCreateGeneratorHost(&gen, CURAND_RNG_PSEUDO_MT19937),
                CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandSetPseudoRandomGeneratorSeed(gen, seed),
                CURAND_STATUS_SUCCESS);
  std::vector<unsigned> x(n);
  EXPECT_STATUS(curandGenerate(gen, x.data(), n), CURAND_STATUS_SUCCESS);
  std::mt19937 reference((unsigned)seed);
  unsigned first = reference();
  EXPECT(x[0] == first && first == 0xd091bb5cu,
         "MT19937's first draw for seed 5489: %08x, reference %08x", x[0],
         first);
#ifdef CUEMU_VERSION
  /* cuemu's MT19937 is the reference sequence; NVIDIA's interleaves
   * subsequences after the first draw (docs/cublas.md). */
  int differ = 0;
  for (int i = 1; i < n; ++i)
    differ += x[i] != reference();
  EXPECT(differ == 0, "%d of %d MT19937 draws differ from std::mt19937's",
         differ, n);
#endif
  /* Uniform values: mean 1/2, variance 1/12. */
  std::vector<float> u(1 << 16);
  EXPECT_STATUS(curandGenerateUniform(gen, u.data(), u.size()),
                CURAND_STATUS_SUCCESS);
  double sum = 0, sq = 0;
  for (float v : u) {
    EXPECT(v > 0.0f && v <= 1.0f, "a uniform value %.9g", v);
    sum += v, sq += (double)v * v;
  }
  double mean = sum / u.size(), var = sq / u.size() - mean * mean;
  EXPECT(std::fabs(mean - 0.5) < 0.005 && std::fabs(var - 1.0 / 12) < 0.002,
         "MT19937 uniform mean %.4f variance %.4f", mean, var);
  EXPECT_STATUS(curandDestroyGenerator(gen), CURAND_STATUS_SUCCESS);
}

static void against_toolkit(void) {
  toolkit t{};
  if (!open_toolkit(t)) {
    std::printf("note: the CUDA toolkit's libcurand.so.10 cannot be opened; "
                "NVIDIA's host generator not compared\n");
    return;
  }
  /* MTGP32: raw draws over two rounds from an offset inside the first, and
   * with a seed above 32 bits (folded as curandMakeMTGP32KernelState). */
  compare<unsigned>(CURAND_RNG_PSEUDO_MTGP32, curandGenerate, t.generate, t, 0,
                    "curandGenerate", 60000, 1234, 77);
  compare<unsigned>(CURAND_RNG_PSEUDO_MTGP32, curandGenerate, t.generate, t, 0,
                    "curandGenerate", 1000, 0x123456789abcull, 123456);
  /* NVIDIA's MTGP32 normal doubles have about float precision; its
   * Poisson values are those of the 32-bit Sobol generators' methods. */
  compare_distributions(CURAND_RNG_PSEUDO_MTGP32, t, kLambdaCount, kLambdas,
                        320, 42, 77, 1e-6);
  /* MT19937: the first draw for a seed above 32 bits (its low 32 bits
   * seed init_genrand). One seed only: NVIDIA's host MT19937 takes about
   * three seconds of CPU to seed its subsequences. */
  for (unsigned long long seed : {0x100000005ull}) {
    curandGenerator_t a, b;
    unsigned x = 0, y = 1;
    curandCreateGeneratorHost(&a, CURAND_RNG_PSEUDO_MT19937);
    t.create(&b, CURAND_RNG_PSEUDO_MT19937);
    curandSetPseudoRandomGeneratorSeed(a, seed);
    t.seed(b, seed);
    curandGenerate(a, &x, 1);
    t.generate(b, &y, 1);
    EXPECT(x == y, "MT19937 seed %llu: first draw %08x, NVIDIA's %08x", seed,
           x, y);
    curandDestroyGenerator(a);
    t.destroy(b);
  }
}

int main(void) {
  mtgp32_device_and_host();
  mt19937();
  against_toolkit();
  return finish();
}

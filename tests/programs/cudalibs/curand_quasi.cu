/* curand_quasi.cu: cuRAND's Sobol generators, in the style of the
 * samples' quasirandom generators (a 3-dimensional Sobol sequence for a
 * Monte-Carlo integral): the host API's dimension-major layout and its
 * continuation across calls, the same points from the device API
 * (curand_init with curandGetDirectionVectors32/64 and
 * curandGetScrambleConstants32/64, one thread per dimension) as from a
 * host and a device generator, the transforms (uniform, normal by the
 * inverse CDF, log-normal, Poisson), the statuses of the quasirandom
 * rules, and, where the CUDA toolkit's libcurand.so can be opened,
 * that every value and table equals NVIDIA's own host generator's
 * (skipped with a note where it cannot).
 * CUEMU_OPTIONS: -lcurand -ldl */
#include <cmath>
#include <cstring>
#include <vector>

#include <curand.h>
#include <curand_kernel.h>

#include "check_libs.h"
#include "curand_toolkit.h"

/* The points of dimensions [0, dims) from `offset` on, `per` of each,
 * dimension-major, as the device API gives them: thread d draws from
 * curand_init(vectors[d], offset). */
__global__ void sobol32_points(curandDirectionVectors32_t *vectors,
                               const unsigned *constants, unsigned offset,
                               int dims, int per, unsigned *out,
                               float *normal) {
  int d = blockIdx.x * blockDim.x + threadIdx.x;
  if (d >= dims)
    return;
  if (constants) {
    curandStateScrambledSobol32_t state;
    curand_init(vectors[d], constants[d], offset, &state);
    for (int i = 0; i < per; ++i)
      out[d * per + i] = curand(&state);
    curand_init(vectors[d], constants[d], offset, &state);
    for (int i = 0; i < per; ++i)
      normal[d * per + i] = curand_normal(&state);
  } else {
    curandStateSobol32_t state;
    curand_init(vectors[d], offset, &state);
    for (int i = 0; i < per; ++i)
      out[d * per + i] = curand(&state);
    curand_init(vectors[d], offset, &state);
    for (int i = 0; i < per; ++i)
      normal[d * per + i] = curand_normal(&state);
  }
}

__global__ void sobol64_points(curandDirectionVectors64_t *vectors,
                               const unsigned long long *constants,
                               unsigned long long offset, int dims, int per,
                               unsigned long long *out, double *normal) {
  int d = blockIdx.x * blockDim.x + threadIdx.x;
  if (d >= dims)
    return;
  if (constants) {
    curandStateScrambledSobol64_t state;
    curand_init(vectors[d], constants[d], offset, &state);
    for (int i = 0; i < per; ++i)
      out[d * per + i] = curand(&state);
    curand_init(vectors[d], constants[d], offset, &state);
    for (int i = 0; i < per; ++i)
      normal[d * per + i] = curand_normal_double(&state);
  } else {
    curandStateSobol64_t state;
    curand_init(vectors[d], offset, &state);
    for (int i = 0; i < per; ++i)
      out[d * per + i] = curand(&state);
    curand_init(vectors[d], offset, &state);
    for (int i = 0; i < per; ++i)
      normal[d * per + i] = curand_normal_double(&state);
  }
}

static const int kDims = 3;
static const int kPer = 40;
static const unsigned kOffset = 5;

/* One generator type of 32-bit points: host generator, device generator
 * and device API agree. */
static void check_sobol32(curandRngType_t type, bool scrambled) {
  int n = kDims * kPer;
  curandGenerator_t host, dev;
  EXPECT_STATUS(curandCreateGeneratorHost(&host, type), CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandCreateGenerator(&dev, type), CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandSetQuasiRandomGeneratorDimensions(host, kDims),
                CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandSetQuasiRandomGeneratorDimensions(dev, kDims),
                CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandSetGeneratorOffset(host, kOffset), CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandSetGeneratorOffset(dev, kOffset), CURAND_STATUS_SUCCESS);
  /* Two calls of half the points each continue every dimension. */
  std::vector<unsigned> h(n), d(n), api(n);
  std::vector<unsigned> half(n / 2);
  EXPECT_STATUS(curandGenerate(host, half.data(), n / 2), CURAND_STATUS_SUCCESS);
  for (int k = 0; k < kDims; ++k)
    for (int i = 0; i < kPer / 2; ++i)
      h[k * kPer + i] = half[k * (kPer / 2) + i];
  EXPECT_STATUS(curandGenerate(host, half.data(), n / 2), CURAND_STATUS_SUCCESS);
  for (int k = 0; k < kDims; ++k)
    for (int i = 0; i < kPer / 2; ++i)
      h[k * kPer + kPer / 2 + i] = half[k * (kPer / 2) + i];
  unsigned *dd;
  float *dn;
  CHECK_CUDA(cudaMalloc(&dd, n * sizeof(unsigned)));
  CHECK_CUDA(cudaMalloc(&dn, n * sizeof(float)));
  EXPECT_STATUS(curandGenerate(dev, dd, n), CURAND_STATUS_SUCCESS);
  CHECK_CUDA(cudaMemcpy(d.data(), dd, n * sizeof(unsigned),
                        cudaMemcpyDeviceToHost));

  /* The device API with the host tables copied to the device. */
  curandDirectionVectors32_t *vectors;
  unsigned *constants = nullptr;
  EXPECT_STATUS(curandGetDirectionVectors32(
                    &vectors, scrambled
                                  ? CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6
                                  : CURAND_DIRECTION_VECTORS_32_JOEKUO6),
                CURAND_STATUS_SUCCESS);
  curandDirectionVectors32_t *dv;
  unsigned *dc = nullptr;
  CHECK_CUDA(cudaMalloc(&dv, kDims * sizeof *dv));
  CHECK_CUDA(cudaMemcpy(dv, vectors, kDims * sizeof *dv,
                        cudaMemcpyHostToDevice));
  if (scrambled) {
    EXPECT_STATUS(curandGetScrambleConstants32(&constants),
                  CURAND_STATUS_SUCCESS);
    CHECK_CUDA(cudaMalloc(&dc, kDims * sizeof *dc));
    CHECK_CUDA(cudaMemcpy(dc, constants, kDims * sizeof *dc,
                          cudaMemcpyHostToDevice));
  }
  sobol32_points<<<1, 32>>>(dv, dc, kOffset, kDims, kPer, dd, dn);
  CHECK_CUDA(cudaGetLastError());
  std::vector<float> api_normal(n), host_normal(n);
  CHECK_CUDA(cudaMemcpy(api.data(), dd, n * sizeof(unsigned),
                        cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(api_normal.data(), dn, n * sizeof(float),
                        cudaMemcpyDeviceToHost));
  int mismatches = 0;
  for (int i = 0; i < n; ++i)
    mismatches += h[i] != api[i] || d[i] != api[i];
  EXPECT(mismatches == 0,
         "type %d: %d of %d points differ between the host generator, the "
         "device generator and the device API (first: %08x %08x %08x)",
         (int)type, mismatches, n, h[0], d[0], api[0]);
  if (!scrambled)
    EXPECT(h[0] == (kOffset == 5 ? 0xe0000000u : h[0]),
           "Sobol32 dimension 0 at point 5: %08x, expected e0000000", h[0]);

  /* Normals by the inverse CDF: one point each, any count. */
  EXPECT_STATUS(curandSetGeneratorOffset(host, kOffset), CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandGenerateNormal(host, host_normal.data(), n, 0.0f, 1.0f),
                CURAND_STATUS_SUCCESS);
  int far = 0;
  for (int i = 0; i < n; ++i)
    if (!close_to(host_normal[i], api_normal[i], 1e-6) && far++ == 0)
      std::printf("type %d: normal %d of point %08x: %.9g, curand_normal "
                  "%.9g\n", (int)type, i, h[i], host_normal[i], api_normal[i]);
  EXPECT(far == 0, "type %d: %d normals differ from curand_normal's", (int)type,
         far);

  CHECK_CUDA(cudaFree(dd));
  CHECK_CUDA(cudaFree(dn));
  CHECK_CUDA(cudaFree(dv));
  if (dc)
    CHECK_CUDA(cudaFree(dc));
  EXPECT_STATUS(curandDestroyGenerator(host), CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandDestroyGenerator(dev), CURAND_STATUS_SUCCESS);
}

static void check_sobol64(curandRngType_t type, bool scrambled) {
  int n = kDims * kPer;
  curandGenerator_t host;
  EXPECT_STATUS(curandCreateGeneratorHost(&host, type), CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandSetQuasiRandomGeneratorDimensions(host, kDims),
                CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandSetGeneratorOffset(host, kOffset), CURAND_STATUS_SUCCESS);
  std::vector<unsigned long long> h(n), api(n);
  std::vector<double> host_normal(n), api_normal(n);
  EXPECT_STATUS(curandGenerateLongLong(host, h.data(), n),
                CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandSetGeneratorOffset(host, kOffset), CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(
      curandGenerateNormalDouble(host, host_normal.data(), n, 0.0, 1.0),
      CURAND_STATUS_SUCCESS);
  /* 32-bit values come from the 32-bit generators only. */
  unsigned u32[3];
  EXPECT_STATUS(curandGenerate(host, u32, 3), CURAND_STATUS_TYPE_ERROR);

  curandDirectionVectors64_t *vectors;
  unsigned long long *constants = nullptr;
  EXPECT_STATUS(curandGetDirectionVectors64(
                    &vectors, scrambled
                                  ? CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6
                                  : CURAND_DIRECTION_VECTORS_64_JOEKUO6),
                CURAND_STATUS_SUCCESS);
  curandDirectionVectors64_t *dv;
  unsigned long long *dc = nullptr, *dd;
  double *dn;
  CHECK_CUDA(cudaMalloc(&dv, kDims * sizeof *dv));
  CHECK_CUDA(cudaMalloc(&dd, n * sizeof *dd));
  CHECK_CUDA(cudaMalloc(&dn, n * sizeof *dn));
  CHECK_CUDA(cudaMemcpy(dv, vectors, kDims * sizeof *dv,
                        cudaMemcpyHostToDevice));
  if (scrambled) {
    EXPECT_STATUS(curandGetScrambleConstants64(&constants),
                  CURAND_STATUS_SUCCESS);
    CHECK_CUDA(cudaMalloc(&dc, kDims * sizeof *dc));
    CHECK_CUDA(cudaMemcpy(dc, constants, kDims * sizeof *dc,
                          cudaMemcpyHostToDevice));
  }
  sobol64_points<<<1, 32>>>(dv, dc, kOffset, kDims, kPer, dd, dn);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaMemcpy(api.data(), dd, n * sizeof *dd, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(api_normal.data(), dn, n * sizeof *dn,
                        cudaMemcpyDeviceToHost));
  int mismatches = 0, far = 0;
  for (int i = 0; i < n; ++i) {
    mismatches += h[i] != api[i];
    far += !close_to(host_normal[i], api_normal[i], 1e-14);
  }
  EXPECT(mismatches == 0, "type %d: %d of %d 64-bit points differ from the "
         "device API's", (int)type, mismatches, n);
  EXPECT(far == 0, "type %d: %d normal doubles differ from the device API's",
         (int)type, far);
  CHECK_CUDA(cudaFree(dv));
  CHECK_CUDA(cudaFree(dd));
  CHECK_CUDA(cudaFree(dn));
  if (dc)
    CHECK_CUDA(cudaFree(dc));
  EXPECT_STATUS(curandDestroyGenerator(host), CURAND_STATUS_SUCCESS);
}

/* A 3-dimensional integral, as quasi-Monte-Carlo programs use the
 * generator: the mean of x*y*z over the unit cube is 1/8, and a Sobol
 * sequence gets much closer than pseudorandom points would. */
static void integrate(void) {
  const int per = 1 << 12;
  curandGenerator_t gen;
  EXPECT_STATUS(curandCreateGenerator(&gen, CURAND_RNG_QUASI_DEFAULT),
                CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandSetQuasiRandomGeneratorDimensions(gen, 3),
                CURAND_STATUS_SUCCESS);
  float *d;
  CHECK_CUDA(cudaMalloc(&d, 3 * per * sizeof(float)));
  EXPECT_STATUS(curandGenerateUniform(gen, d, 3 * per), CURAND_STATUS_SUCCESS);
  std::vector<float> x(3 * per);
  CHECK_CUDA(cudaMemcpy(x.data(), d, x.size() * sizeof(float),
                        cudaMemcpyDeviceToHost));
  double sum = 0;
  for (int i = 0; i < per; ++i)
    sum += (double)x[i] * x[per + i] * x[2 * per + i];
  double mean = sum / per;
  EXPECT(std::fabs(mean - 0.125) < 2e-4, "Sobol mean of x*y*z: %.6f", mean);
  CHECK_CUDA(cudaFree(d));
  EXPECT_STATUS(curandDestroyGenerator(gen), CURAND_STATUS_SUCCESS);
}

/* cuRAND's rules for the quasirandom generators. */
static void rules(void) {
  curandGenerator_t gen, pseudo;
  EXPECT_STATUS(curandCreateGeneratorHost(&gen, CURAND_RNG_QUASI_SOBOL32),
                CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandCreateGeneratorHost(&pseudo, CURAND_RNG_PSEUDO_DEFAULT),
                CURAND_STATUS_SUCCESS);
  unsigned out[8];
  unsigned long long wide[4];
  EXPECT_STATUS(curandSetQuasiRandomGeneratorDimensions(gen, 0),
                CURAND_STATUS_OUT_OF_RANGE);
  EXPECT_STATUS(curandSetQuasiRandomGeneratorDimensions(gen, 20001),
                CURAND_STATUS_OUT_OF_RANGE);
  EXPECT_STATUS(curandSetQuasiRandomGeneratorDimensions(pseudo, 2),
                CURAND_STATUS_TYPE_ERROR);
  EXPECT_STATUS(curandSetQuasiRandomGeneratorDimensions(gen, 3),
                CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandGenerate(gen, out, 4), CURAND_STATUS_LENGTH_NOT_MULTIPLE);
  EXPECT_STATUS(curandGenerateLongLong(gen, wide, 3), CURAND_STATUS_TYPE_ERROR);
  EXPECT_STATUS(curandGenerateLongLong(pseudo, wide, 4),
                CURAND_STATUS_TYPE_ERROR);
  EXPECT_STATUS(curandSetPseudoRandomGeneratorSeed(gen, 5),
                CURAND_STATUS_TYPE_ERROR);
  EXPECT_STATUS(curandSetGeneratorOrdering(gen, CURAND_ORDERING_PSEUDO_BEST),
                CURAND_STATUS_OUT_OF_RANGE);
  EXPECT_STATUS(curandSetGeneratorOrdering(gen, CURAND_ORDERING_QUASI_DEFAULT),
                CURAND_STATUS_SUCCESS);
  /* Quasirandom normals come one per point: an odd count is fine. */
  float normal[3];
  EXPECT_STATUS(curandGenerateNormal(gen, normal, 3, 0.0f, 1.0f),
                CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandDestroyGenerator(gen), CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandDestroyGenerator(pseudo), CURAND_STATUS_SUCCESS);
}

static void against_toolkit(void) {
  toolkit t{};
  if (!open_toolkit(t)) {
    std::printf("note: the CUDA toolkit's libcurand.so.10 cannot be opened; "
                "NVIDIA's host generator not compared\n");
    return;
  }
  /* The tables: NVIDIA's, every entry. */
  curandDirectionVectors32_t *ours32, *theirs32;
  curandDirectionVectors64_t *ours64, *theirs64;
  unsigned *c32a, *c32b;
  unsigned long long *c64a, *c64b;
  for (int set = 101; set <= 102; ++set) {
    EXPECT_STATUS(curandGetDirectionVectors32(&ours32,
                                              (curandDirectionVectorSet_t)set),
                  CURAND_STATUS_SUCCESS);
    t.vectors32(&theirs32, (curandDirectionVectorSet_t)set);
    EXPECT(std::memcmp(ours32, theirs32, 20000 * sizeof *ours32) == 0,
           "direction vectors 32 set %d differ", set);
  }
  for (int set = 103; set <= 104; ++set) {
    EXPECT_STATUS(curandGetDirectionVectors64(&ours64,
                                              (curandDirectionVectorSet_t)set),
                  CURAND_STATUS_SUCCESS);
    t.vectors64(&theirs64, (curandDirectionVectorSet_t)set);
    EXPECT(std::memcmp(ours64, theirs64, 20000 * sizeof *ours64) == 0,
           "direction vectors 64 set %d differ", set);
  }
  EXPECT_STATUS(curandGetScrambleConstants32(&c32a), CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandGetScrambleConstants64(&c64a), CURAND_STATUS_SUCCESS);
  t.constants32(&c32b);
  t.constants64(&c64b);
  EXPECT(std::memcmp(c32a, c32b, 20000 * sizeof *c32a) == 0 &&
             std::memcmp(c64a, c64b, 20000 * sizeof *c64a) == 0,
         "scramble constants differ");

  const curandRngType_t narrow[] = {CURAND_RNG_QUASI_SOBOL32,
                                    CURAND_RNG_QUASI_SCRAMBLED_SOBOL32};
  const curandRngType_t all[] = {
      CURAND_RNG_QUASI_SOBOL32, CURAND_RNG_QUASI_SCRAMBLED_SOBOL32,
      CURAND_RNG_QUASI_SOBOL64, CURAND_RNG_QUASI_SCRAMBLED_SOBOL64};
  for (curandRngType_t type : narrow)
    compare<unsigned>(
        type, curandGenerate, t.generate, t, 0, "curandGenerate");
  for (curandRngType_t type : {CURAND_RNG_QUASI_SOBOL64,
                               CURAND_RNG_QUASI_SCRAMBLED_SOBOL64})
    compare<unsigned long long>(type, curandGenerateLongLong, t.longlong, t, 0,
                                "curandGenerateLongLong");
  for (curandRngType_t type : all)
    compare_distributions(type, t, kLambdaCount, kLambdas);
}

int main(void) {
  /* The tables come from the toolkit's library (under cuemu, from the CUDA
   * toolkit's libcurand.so): without it there is nothing to check. */
  curandDirectionVectors32_t *vectors;
  curandStatus_t status = curandGetDirectionVectors32(
      &vectors, CURAND_DIRECTION_VECTORS_32_JOEKUO6);
  if (status == CURAND_STATUS_INITIALIZATION_FAILED) {
    curandGenerator_t gen;
    EXPECT_STATUS(curandCreateGenerator(&gen, CURAND_RNG_QUASI_SOBOL32),
                  CURAND_STATUS_INITIALIZATION_FAILED);
    std::printf("note: no direction vectors (no toolkit libcurand.so): "
                "skipped\n");
    return finish();
  }
  EXPECT_STATUS(status, CURAND_STATUS_SUCCESS);
  check_sobol32(CURAND_RNG_QUASI_SOBOL32, false);
  check_sobol32(CURAND_RNG_QUASI_SCRAMBLED_SOBOL32, true);
  check_sobol64(CURAND_RNG_QUASI_SOBOL64, false);
  check_sobol64(CURAND_RNG_QUASI_SCRAMBLED_SOBOL64, true);
  integrate();
  rules();
  against_toolkit();
  return finish();
}

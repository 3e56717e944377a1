/* curand_rules.cu: cuRAND host API rules a program relies on: the
 * generator's offset is a position in its sequence (offset o gives the
 * draws from o on of offset 0, for XORWOW, Philox and MRG32k3a), setting
 * the seed again restarts the sequence, an odd count of normals is
 * CURAND_STATUS_LENGTH_NOT_MULTIPLE (nothing written, the sequence not
 * advanced), and a generation captured into a graph continues the
 * sequence with each launch, as the same draws made one call at a time.
 * Under cuemu (CUEMU_VERSION), also that an output pointer not aligned to
 * its element type faults as a GPU's misaligned store does, with a
 * message naming the argument.
 * CUEMU_OPTIONS: -lcurand */
#include <cstring>
#include <vector>

#include <curand.h>

#include "check_libs.h"

static const curandRngType_t types[3] = {CURAND_RNG_PSEUDO_XORWOW,
                                         CURAND_RNG_PSEUDO_PHILOX4_32_10,
                                         CURAND_RNG_PSEUDO_MRG32K3A};

/* n 32-bit draws of a device generator of `type` from seed and offset. */
static std::vector<unsigned> draws(curandRngType_t type,
                                   unsigned long long seed,
                                   unsigned long long offset, int n) {
  curandGenerator_t g;
  EXPECT_STATUS(curandCreateGenerator(&g, type), CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandSetPseudoRandomGeneratorSeed(g, seed),
                CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandSetGeneratorOffset(g, offset), CURAND_STATUS_SUCCESS);
  unsigned *d;
  CHECK_CUDA(cudaMalloc(&d, n * sizeof(unsigned)));
  EXPECT_STATUS(curandGenerate(g, d, n), CURAND_STATUS_SUCCESS);
  std::vector<unsigned> out(n);
  CHECK_CUDA(
      cudaMemcpy(out.data(), d, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  cudaFree(d);
  EXPECT_STATUS(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
  return out;
}

/* Under cuemu, the host generators draw subsequence 0 in order, so an
 * offset is a position in that sequence (a GPU's interleave differs: the
 * check is cuemu's own, docs/cublas.md). Everywhere, the same seed and
 * offset give the same numbers, and another seed others. */
static void offsets_and_seeds(void) {
  for (curandRngType_t type : types) {
    std::vector<unsigned> all = draws(type, 42, 0, 64);
    std::vector<unsigned> again = draws(type, 42, 0, 64);
    std::vector<unsigned> other = draws(type, 43, 0, 64);
    EXPECT(all == again, "type %d: the same seed, other numbers", (int)type);
    EXPECT(all != other, "type %d: seeds 42 and 43 agree", (int)type);
#ifdef CUEMU_VERSION
    for (int offset : {1, 3, 4, 5, 17}) {
      std::vector<unsigned> part = draws(type, 42, offset, 32);
      EXPECT(std::memcmp(part.data(), all.data() + offset,
                         32 * sizeof(unsigned)) == 0,
             "type %d: offset %d is not a position in the sequence", (int)type,
             offset);
    }
#endif
  }
}

/* An odd count of normals is refused before anything is drawn; setting
 * the seed again restarts the sequence. */
static void normals_and_reseed(void) {
  curandGenerator_t g;
  EXPECT_STATUS(curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT),
                CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandSetPseudoRandomGeneratorSeed(g, 7),
                CURAND_STATUS_SUCCESS);
  float *d;
  CHECK_CUDA(cudaMalloc(&d, 16 * sizeof(float)));
  CHECK_CUDA(cudaMemset(d, 0, 16 * sizeof(float)));
  EXPECT_STATUS(curandGenerateNormal(g, d, 7, 0.0f, 1.0f),
                CURAND_STATUS_LENGTH_NOT_MULTIPLE);
  EXPECT_STATUS(curandGenerateNormalDouble(g, (double *)d, 3, 0.0, 1.0),
                CURAND_STATUS_LENGTH_NOT_MULTIPLE);
  EXPECT_STATUS(curandGenerateLogNormal(g, d, 1, 0.0f, 1.0f),
                CURAND_STATUS_LENGTH_NOT_MULTIPLE);
  float first[8], zeros[8], second[8];
  CHECK_CUDA(cudaMemcpy(zeros, d, sizeof zeros, cudaMemcpyDeviceToHost));
  int written = 0;
  for (float z : zeros)
    written += z != 0.0f;
  EXPECT(written == 0, "an odd count wrote %d values", written);
  EXPECT_STATUS(curandGenerateNormal(g, d, 8, 0.0f, 1.0f),
                CURAND_STATUS_SUCCESS);
  CHECK_CUDA(cudaMemcpy(first, d, sizeof first, cudaMemcpyDeviceToHost));
  /* As NVIDIA's generators: the same seed set again changes nothing (the
   * sequence goes on); setting the offset starts it again. */
  EXPECT_STATUS(curandSetPseudoRandomGeneratorSeed(g, 7),
                CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandGenerateNormal(g, d, 8, 0.0f, 1.0f),
                CURAND_STATUS_SUCCESS);
  CHECK_CUDA(cudaMemcpy(second, d, sizeof second, cudaMemcpyDeviceToHost));
  EXPECT(std::memcmp(first, second, sizeof first) != 0,
         "the same seed set again restarts the sequence");
  EXPECT_STATUS(curandSetGeneratorOffset(g, 0), CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandGenerateNormal(g, d, 8, 0.0f, 1.0f),
                CURAND_STATUS_SUCCESS);
  CHECK_CUDA(cudaMemcpy(second, d, sizeof second, cudaMemcpyDeviceToHost));
  EXPECT(std::memcmp(first, second, sizeof first) == 0,
         "the offset set again does not restart the sequence");
  cudaFree(d);
  EXPECT_STATUS(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
}

/* A generation captured into a graph, launched three times, gives the
 * draws that three calls give. */
static void captured_generation(void) {
  const int n = 256;
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreate(&s));
  curandGenerator_t g;
  EXPECT_STATUS(curandCreateGenerator(&g, CURAND_RNG_PSEUDO_PHILOX4_32_10),
                CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandSetPseudoRandomGeneratorSeed(g, 99),
                CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandSetStream(g, s), CURAND_STATUS_SUCCESS);
  float *d;
  CHECK_CUDA(cudaMalloc(&d, 4 * n * sizeof(float)));
  /* Initialise the generator (its first draws) outside the capture, as
   * programs do, then capture one generation. */
  EXPECT_STATUS(curandGenerateUniform(g, d + 3 * n, n), CURAND_STATUS_SUCCESS);
  CHECK_CUDA(cudaStreamSynchronize(s));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  EXPECT_STATUS(curandGenerateUniform(g, d, n), CURAND_STATUS_SUCCESS);
  CHECK_CUDA(cudaStreamEndCapture(s, &graph));
  CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  CHECK_CUDA(cudaGraphDestroy(graph));
  std::vector<float> got(3 * n), want(4 * n);
  for (int launch = 0; launch < 3; ++launch) {
    CHECK_CUDA(cudaGraphLaunch(exec, s));
    CHECK_CUDA(cudaMemcpyAsync(got.data() + launch * n, d, n * sizeof(float),
                               cudaMemcpyDeviceToHost, s));
  }
  CHECK_CUDA(cudaStreamSynchronize(s));
  CHECK_CUDA(cudaGraphExecDestroy(exec));
  EXPECT_STATUS(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);

  curandGenerator_t ref;
  EXPECT_STATUS(curandCreateGenerator(&ref, CURAND_RNG_PSEUDO_PHILOX4_32_10),
                CURAND_STATUS_SUCCESS);
  EXPECT_STATUS(curandSetPseudoRandomGeneratorSeed(ref, 99),
                CURAND_STATUS_SUCCESS);
  for (int call = 0; call < 4; ++call)
    EXPECT_STATUS(curandGenerateUniform(ref, d + call * n, n),
                  CURAND_STATUS_SUCCESS);
  CHECK_CUDA(cudaMemcpy(want.data(), d, 4 * n * sizeof(float),
                        cudaMemcpyDeviceToHost));
  EXPECT(std::memcmp(got.data(), want.data() + n, 3 * n * sizeof(float)) == 0,
         "three launches of a captured generation: not the next three "
         "calls' draws");
  EXPECT_STATUS(curandDestroyGenerator(ref), CURAND_STATUS_SUCCESS);
  cudaFree(d);
  CHECK_CUDA(cudaStreamDestroy(s));
}

#ifdef CUEMU_VERSION
/* A float output one byte past an allocation's start: a GPU's store there
 * faults (cudaErrorMisalignedAddress); cuemu faults too, sticky. Last, as
 * the error ends the context. */
static void misaligned_output(void) {
  curandGenerator_t g;
  EXPECT_STATUS(curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT),
                CURAND_STATUS_SUCCESS);
  char *d;
  CHECK_CUDA(cudaMalloc(&d, 64));
  EXPECT_STATUS(curandGenerateUniform(g, (float *)(d + 1), 8),
                CURAND_STATUS_SUCCESS);
  cudaError_t e = cudaDeviceSynchronize();
  EXPECT(e == cudaErrorMisalignedAddress,
         "a misaligned output pointer gave %s, not cudaErrorMisalignedAddress",
         cudaGetErrorName(e));
}
#endif

int main() {
  offsets_and_seeds();
  normals_and_reseed();
  captured_generation();
#ifdef CUEMU_VERSION
  misaligned_output();
#endif
  return finish();
}

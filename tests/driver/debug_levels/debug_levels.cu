// debug_levels.cu: prints the macros of the optimisation level that the
// device code and the host code of this unit see, as one number each:
// __OPTIMIZE__ (1), __NO_INLINE__ (2), __OPTIMIZE_SIZE__ (4). Checked by
// tests/driver_debug_levels.sh. nvcc's passes preprocess the unit with the
// host compiler's options and nvcc's own -O alone (nvcc -dryrun), so both
// see the user's level: __NO_INLINE__ without -O, with -O0, -g, -G or
// -lineinfo, __OPTIMIZE__ from -O1 on. Built with -DEXPECT_MACROS=N, the
// compile fails where a pass sees other macros than N (real nvcc's too).
#include <cstdio>

#ifdef __OPTIMIZE__
#define OPTIMIZE_BIT 1
#else
#define OPTIMIZE_BIT 0
#endif
#ifdef __NO_INLINE__
#define NO_INLINE_BIT 2
#else
#define NO_INLINE_BIT 0
#endif
#ifdef __OPTIMIZE_SIZE__
#define OPTIMIZE_SIZE_BIT 4
#else
#define OPTIMIZE_SIZE_BIT 0
#endif
#define MACROS (OPTIMIZE_BIT + NO_INLINE_BIT + OPTIMIZE_SIZE_BIT)

#if defined(EXPECT_MACROS) && MACROS != EXPECT_MACROS
#error "this pass sees other optimisation macros than EXPECT_MACROS"
#endif

__global__ void probe(int *out) { *out = MACROS; }

int main() {
  int *d = nullptr;
  int device = -1;
  if (cudaMalloc(&d, sizeof(int)) != cudaSuccess)
    return 1;
  probe<<<1, 1>>>(d);
  if (cudaMemcpy(&device, d, sizeof(int), cudaMemcpyDeviceToHost) !=
      cudaSuccess)
    return 1;
  cudaFree(d);
  printf("device %d host %d\n", device, MACROS);
  return 0;
}

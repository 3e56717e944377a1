// ptx_pasted_operands.cu: inline PTX that a macro builds from pieces, as
// cuda-api-wrappers' ptx.cuh does for its special-register getters: the
// constraint is two adjacent string literals ("=" "r"), which C joins into
// one, and the template has no space between a type and an operand
// ("mov." "u32" "%0, %" "laneid" ";" is "mov.u32%0, %laneid;"), which ptxas
// reads as two words because a '%' only starts a name. cuemu-nvcc refused
// both ("expected ( expression ) after a constraint", then "unsupported
// modifier .u32$0 of mov").
#include <cstdint>
#include <cstdio>

#define PASTE_TEXT(x) #x
#define MARKER_u32 "r"
#define MARKER_u64 "l"
#define MARKER(kind) MARKER_##kind
#define GETTER(reg, kind, type)                                                \
  __device__ __forceinline__ type read_##reg() {                               \
    type v;                                                                    \
    asm volatile("mov." PASTE_TEXT(kind) "%0, %" PASTE_TEXT(reg) ";"           \
                 : "=" MARKER(kind)(v));                                       \
    return v;                                                                  \
  }

GETTER(laneid, u32, uint32_t)
GETTER(lanemask_lt, u32, uint32_t)
GETTER(dynamic_smem_size, u32, uint32_t)
GETTER(clock64, u64, uint64_t)

__global__ void registers(uint32_t *lane, uint32_t *mask, uint32_t *smem,
                          int *clock_ok) {
  extern __shared__ char scratch[];
  scratch[threadIdx.x] = 0;
  unsigned i = threadIdx.x;
  lane[i] = read_laneid();
  mask[i] = read_lanemask_lt();
  smem[i] = read_dynamic_smem_size();
  uint64_t a = read_clock64(), b = read_clock64();
  clock_ok[i] = b >= a;
}

int main() {
  const int n = 96, shared = 256;
  uint32_t *lane, *mask, *smem;
  int *clock_ok;
  cudaMallocManaged(&lane, n * sizeof *lane);
  cudaMallocManaged(&mask, n * sizeof *mask);
  cudaMallocManaged(&smem, n * sizeof *smem);
  cudaMallocManaged(&clock_ok, n * sizeof *clock_ok);
  registers<<<1, n, shared>>>(lane, mask, smem, clock_ok);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("FAIL: launch\n");
    return 1;
  }
  for (int i = 0; i < n; ++i) {
    uint32_t l = i % 32;
    if (lane[i] != l || mask[i] != (1u << l) - 1 || smem[i] != shared ||
        !clock_ok[i]) {
      printf("FAIL: thread %d: lane %u mask %#x smem %u clock %d\n", i,
             lane[i], mask[i], smem[i], clock_ok[i]);
      return 1;
    }
  }
  printf("PASS\n");
  return 0;
}

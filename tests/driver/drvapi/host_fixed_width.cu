// host_fixed_width.cu: nvcc's -ptx, -cubin and -fatbin compile a .cu file
// with the host's fixed-width types: after <cstdint>, uint64_t is unsigned
// long and int64_t is long (glibc's), not NVRTC's unsigned long long and
// long long, so that an overload for each of the two is not a redefinition.
// tests/drvapi.sh builds it with cuemu-nvcc and, when present, with nvcc.
#include <cstdint>
#include <type_traits>

static_assert(std::is_same<uint64_t, unsigned long>::value,
              "uint64_t is the host's unsigned long");
static_assert(std::is_same<std::int64_t, long>::value,
              "int64_t is the host's long");
static_assert(std::is_same<uintptr_t, unsigned long>::value,
              "uintptr_t is the host's unsigned long");

__device__ unsigned which(unsigned long long) { return 1; }
__device__ unsigned which(uint64_t) { return 2; }

extern "C" __global__ void host_fixed_width(unsigned *out) {
  *out = which(static_cast<uint64_t>(1)) * 10 + which(1ull);
}

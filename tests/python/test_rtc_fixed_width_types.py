"""NVRTC provides no <stdint.h>, so CuPy kernels (CuPy's
examples/finance/monte_carlo.py among them) declare their own fixed-width
types at file scope. NVRTC compiles these typedefs, and its
<cuda/std/cstdint> gives ::uint64_t and ::int64_t as unsigned long long and
long long; so do cuemu's module compiles."""
import numpy
import pytest

TYPEDEFS = {
    "uint64_t": "typedef unsigned long long uint64_t;",
    "uint32_t": "typedef unsigned int uint32_t;",
    "int64_t": "typedef long long int64_t;",
}

# Each kernel stores a value that only its own type's arithmetic gives.
KERNELS = {
    "uint64_t": ('extern "C" __global__ void k(uint64_t *out) {\n'
                 '  uint64_t x = 0xFFFFFFFFull;\n'
                 '  out[threadIdx.x] = x * x + threadIdx.x;\n}\n',
                 numpy.uint64, lambda i: 0xFFFFFFFF * 0xFFFFFFFF + i),
    "uint32_t": ('extern "C" __global__ void k(uint32_t *out) {\n'
                 '  uint32_t x = 0xFFFFFFFFu;\n'
                 '  out[threadIdx.x] = x + 2u + threadIdx.x;\n}\n',
                 numpy.uint32, lambda i: 1 + i),
    "int64_t": ('extern "C" __global__ void k(int64_t *out) {\n'
                '  int64_t x = -(int64_t)1 << 40;\n'
                '  out[threadIdx.x] = x - (int64_t)threadIdx.x;\n}\n',
                numpy.int64, lambda i: -(1 << 40) - i),
}


@pytest.mark.parametrize("name", sorted(TYPEDEFS))
def test_file_scope_typedef_compiles_and_computes(cp, name):
    body, dtype, want = KERNELS[name]
    k = cp.RawKernel(TYPEDEFS[name] + "\n" + body, "k")
    out = cp.zeros(4, dtype=dtype)
    k((1,), (4,), (out,))
    assert [int(v) for v in out.get()] == [want(i) for i in range(4)]


def test_all_typedefs_together_with_unsigned_long_long_arithmetic(cp):
    # As in CuPy's Monte Carlo example: the typedefs together, and the
    # typedef'd type mixed with unsigned long long (one type under NVRTC).
    src = "\n".join(TYPEDEFS[n] for n in ("uint64_t", "uint32_t", "int64_t"))
    src += r'''
__device__ uint64_t mix(unsigned long long a, uint32_t b) {
  uint64_t *p = &a;
  return *p * 6364136223846793005ull + b;
}
extern "C" __global__ void k(unsigned long long *out, int64_t *neg) {
  uint32_t i = threadIdx.x;
  out[i] = mix(i + 1, i);
  neg[i] = -(int64_t)out[i];
}
'''
    k = cp.RawKernel(src, "k")
    out = cp.zeros(3, dtype=numpy.uint64)
    neg = cp.zeros(3, dtype=numpy.int64)
    k((1,), (3,), (out, neg))
    want = [((i + 1) * 6364136223846793005 + i) % 2**64 for i in range(3)]
    assert [int(v) for v in out.get()] == want
    assert [int(v) for v in neg.get()] == [
        ((-w + 2**63) % 2**64) - 2**63 for w in want]


def test_cuda_std_cstdint_after_the_typedefs(cp):
    # NVRTC's <cuda/std/cstdint> declares the same types: both orders compile.
    src = TYPEDEFS["uint64_t"] + "\n#include <cuda/std/cstdint>\n" + r'''
extern "C" __global__ void k(cuda::std::uint64_t *out) {
  out[0] = (uint64_t)1 << 40;
}
'''
    k = cp.RawKernel(src, "k")
    out = cp.zeros(1, dtype=numpy.uint64)
    k((1,), (1,), (out,))
    assert int(out.get()[0]) == 1 << 40


# The two tests below compile one source (one module: the headers alone,
# without the file-scope typedefs), each running its own kernel.
CSTDINT_ALONE = r'''
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>
#include <cuda/std/utility>
#include <cuda/std/__algorithm/max.h>
static_assert(cuda::std::is_same<uint64_t, unsigned long long>::value, "u64");
static_assert(cuda::std::is_same<int64_t, long long>::value, "i64");
static_assert(cuda::std::is_same<cuda::std::uint64_t, uint64_t>::value, "std");
extern "C" __global__ void k(uint64_t *out, int64_t v) {
  out[0] = (uint64_t)v + UINT64_C(1) + (INT64_MAX - INT64_MAX);
}
static_assert(INT_FAST16_MAX == 32767 && INT_FAST16_MIN == -32768, "f16");
static_assert(UINT_FAST16_MAX == 65535u && UINT_FAST32_MAX == 4294967295u,
              "uf");
static_assert(INT_FAST32_MAX == 2147483647, "f32");
static_assert(cuda::std::is_same<decltype(UINT64_C(1)), uint64_t>::value,
              "UINT64_C");
static_assert(cuda::std::is_same<decltype(INT64_C(1)), int64_t>::value,
              "INT64_C");
static_assert(cuda::std::is_same<decltype(INT64_MIN), int64_t>::value,
              "INT64_MIN");
#if UINTPTR_MAX != 0xFFFFFFFFFFFFFFFFull || INTMAX_MAX != INT64_MAX
#error "limits in #if"
#endif
extern "C" __global__ void k_limits(uint64_t *out) {
  out[0] = cuda::std::max(out[0], UINT64_C(7)) + (uint64_t)INT_FAST16_MAX;
}
'''


def test_cuda_std_cstdint_alone_gives_nvrtcs_types(cp):
    # NVRTC 13's <cuda/std/cstdint>: ::uint64_t is unsigned long long and
    # ::int64_t long long (not glibc's unsigned long and long), in cuda::std
    # too; UINT64_C and INT64_MAX work (CSTDINT_ALONE's kernel k).
    k = cp.RawKernel(CSTDINT_ALONE, "k")
    out = cp.zeros(1, dtype=numpy.uint64)
    k((1,), (1,), (out, numpy.int64(41)))
    assert int(out.get()[0]) == 42


def test_limits_and_constant_macros_are_nvrtcs(cp):
    # NVRTC 13's <cuda/std/cstdint>: the limits of the fast types are those
    # of short and int, and the 64-bit constant macros and limits have the
    # types of uint64_t and int64_t (glibc's are long and unsigned long), so
    # that cuda::std::max deduces one type from a uint64_t and UINT64_C
    # (CSTDINT_ALONE's static_asserts and its kernel k_limits).
    k = cp.RawKernel(CSTDINT_ALONE, "k_limits")
    out = cp.zeros(1, dtype=numpy.uint64)
    k((1,), (1,), (out,))
    assert int(out.get()[0]) == 7 + 32767

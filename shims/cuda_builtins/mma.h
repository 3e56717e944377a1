/*
 * mma.h: tensor-core fragments, nvcuda::wmma (CUDA C++ Programming Guide,
 * "Warp Matrix Functions"), for the shapes and types that sm_90 has:
 *
 *   A and B          accumulator       shapes (m, n, k)
 *   __half           float or __half   16x16x16, 32x8x16, 8x32x16
 *   __nv_bfloat16    float             16x16x16, 32x8x16, 8x32x16
 *   signed char,     int               16x16x16, 32x8x16, 8x32x16
 *   unsigned char
 *   precision::tf32  float             16x16x8
 *   double           double            8x8x4
 *
 *   experimental::   int               8x8x32 (A row_major, B col_major)
 *   precision::u4, s4
 *   experimental::   int (bmma_sync)   8x8x128 (A row_major, B col_major)
 *   precision::b1
 *
 * Sub-byte elements are packed as CUDA documents: in memory, element j of
 * a row (A) or column (B) is bits 4 * (j % 8) .. +3 (u4, s4) or bit j % 32
 * (b1) of the 32-bit word j / 8 or j / 32, lowest bits first; ldm counts
 * elements and must be a multiple of 128 bits. A fragment holds its
 * num_elements in num_storage_elements = 1 word (element i in nibble or
 * bit i), and fill_fragment takes the low 4 bits (or the low bit).
 * bmma_sync adds, per element, the population count of the AND or XOR of
 * a row of A and a column of B to the accumulator.
 *
 * Elements among the lanes: CUDA leaves the mapping unspecified. Here a
 * fragment of an R x C matrix (A: m x k, B: k x n, accumulators: m x n)
 * holds num_elements = R * C / 32 elements per lane: element i of lane l is
 * the matrix element of row-major index i * 32 + l, whatever the layout in
 * memory. So element-wise code over x[] (scaling, activation) works as on
 * the GPU, and every element is held by exactly one lane.
 *
 * Each operation is warp-collective, as CUDA requires: every lane of a
 * full warp takes part (a rendezvous with the rules of __syncwarp, so a
 * lane that is missing or waiting elsewhere is reported); a warp with
 * fewer than 32 threads is an error. load_matrix_sync and
 * store_matrix_sync check CUDA's rules for mptr (256-bit aligned) and ldm
 * (a multiple of 16 bytes).
 *
 * Arithmetic of mma_sync, per element d[i][j]: starting from c[i][j], the
 * products a[i][kk] * b[kk][j] are added for kk = 0, 1, ..., k-1 in that
 * order. With __half, __nv_bfloat16 and tf32 inputs each product is exact
 * in float and each addition rounds to float (round to nearest even); a
 * __half accumulator is accumulated in float and rounded to __half once,
 * at the end. tf32 inputs are their float values with the low 13 mantissa
 * bits cleared (the tensor cores read only the top 19 bits). Doubles use
 * fma in the same order. Integers wrap at 32 bits, or saturate with satf.
 * satf on floating-point accumulators turns +-inf into +-the largest finite
 * value and NaN into +0. The GPU's own order of additions is not
 * documented: results of floating-point GEMMs can differ from it in the
 * last bits, and are exact when every partial sum is representable (for
 * instance small integers).
 */
#ifndef CUEMU_MMA_H
#define CUEMU_MMA_H
/* A system header: its C++17 forms that C++14 accepts (if constexpr, inline
 * variables, fold expressions) give no warning in a C++14 build of a .cpp
 * file (docs/dialects.md). */
#pragma GCC system_header

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include <cuemu/cuemu_device.h>
#include <cuemu/cuemu_device_runtime.h>
#include <cuemu/cuemu_status.h>

#include "cuda_bf16.h"
#include "cuda_fp16.h"
#include "cuemu_builtin_vars.h"

namespace nvcuda {
namespace wmma {

struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};

enum layout_t { mem_row_major, mem_col_major };

namespace precision {
struct tf32 {};
} // namespace precision

namespace experimental {
namespace precision {
struct u4 {};
struct s4 {};
struct b1 {};
} // namespace precision
enum bmmaBitOp { bmmaBitOpXOR = 1, bmmaBitOpAND = 2 };
enum bmmaAccumulateOp { bmmaAccumulateOpPOPC = 1 };
} // namespace experimental

namespace cuemu_detail {

template <typename T> struct is_sub_byte : std::false_type {};
template <> struct is_sub_byte<experimental::precision::u4> : std::true_type {};
template <> struct is_sub_byte<experimental::precision::s4> : std::true_type {};
template <> struct is_sub_byte<experimental::precision::b1> : std::true_type {};

/* What a fragment of element type T stores (tf32 in a float; sub-byte
 * elements packed into 32-bit words), and how many elements a stored word
 * holds. */
template <typename T> struct storage { using type = T; };
template <> struct storage<precision::tf32> { using type = float; };
template <> struct storage<experimental::precision::u4> {
  using type = unsigned;
};
template <> struct storage<experimental::precision::s4> { using type = int; };
template <> struct storage<experimental::precision::b1> {
  using type = unsigned;
};
template <typename T> constexpr int bits_of() {
  return std::is_same<T, experimental::precision::b1>::value ? 1 : 4;
}
template <typename T> constexpr int per_word() {
  return is_sub_byte<T>::value ? 32 / bits_of<T>() : 1;
}

/* The shapes of the multiplicands' element types. */
template <typename T, int M_, int N_, int K_> constexpr bool input_shape() {
  if (std::is_same<T, __half>::value || std::is_same<T, __nv_bfloat16>::value ||
      std::is_same<T, signed char>::value ||
      std::is_same<T, unsigned char>::value)
    return (M_ == 16 && N_ == 16 && K_ == 16) || (M_ == 32 && N_ == 8 && K_ == 16) ||
           (M_ == 8 && N_ == 32 && K_ == 16);
  if (std::is_same<T, precision::tf32>::value)
    return M_ == 16 && N_ == 16 && K_ == 8;
  if (std::is_same<T, double>::value)
    return M_ == 8 && N_ == 8 && K_ == 4;
  if (std::is_same<T, experimental::precision::u4>::value ||
      std::is_same<T, experimental::precision::s4>::value)
    return M_ == 8 && N_ == 8 && K_ == 32;
  if (std::is_same<T, experimental::precision::b1>::value)
    return M_ == 8 && N_ == 8 && K_ == 128;
  return false;
}

/* The shapes of the accumulators' element types. */
template <typename T, int M_, int N_, int K_> constexpr bool accumulator_shape() {
  if (std::is_same<T, float>::value)
    return input_shape<__half, M_, N_, K_>() ||
           input_shape<precision::tf32, M_, N_, K_>();
  if (std::is_same<T, int>::value)
    return input_shape<__half, M_, N_, K_>() ||
           input_shape<experimental::precision::u4, M_, N_, K_>() ||
           input_shape<experimental::precision::b1, M_, N_, K_>();
  if (std::is_same<T, __half>::value)
    return input_shape<__half, M_, N_, K_>();
  if (std::is_same<T, double>::value)
    return input_shape<double, M_, N_, K_>();
  return false;
}

/* Rows and columns of the matrix a fragment holds. */
template <typename Use, int M_, int N_, int K_> struct dims;
template <int M_, int N_, int K_> struct dims<matrix_a, M_, N_, K_> {
  static constexpr int rows = M_, cols = K_;
};
template <int M_, int N_, int K_> struct dims<matrix_b, M_, N_, K_> {
  static constexpr int rows = K_, cols = N_;
};
template <int M_, int N_, int K_> struct dims<accumulator, M_, N_, K_> {
  static constexpr int rows = M_, cols = N_;
};

/* Element values in the arithmetic type of mma_sync, and back. */
inline float value(__half h) { return __half2float(h); }
inline float value(__nv_bfloat16 h) { return __bfloat162float(h); }
inline float value(float f) { return f; }
inline double value(double d) { return d; }
inline int value(signed char c) { return c; }
inline int value(unsigned char c) { return c; }
inline int value(int __cuemu_i) { return __cuemu_i; }

template <typename T> inline T element_of(float v);
template <> inline float element_of<float>(float v) { return v; }
template <> inline __half element_of<__half>(float v) { return __float2half(v); }
template <> inline __nv_bfloat16 element_of<__nv_bfloat16>(float v) {
  return __float2bfloat16(v);
}

/* The tf32 value of a float as the tensor cores read it: the top 19 bits. */
inline float tf32_truncate(float f) {
  std::uint32_t __cuemu_bits;
  std::memcpy(&__cuemu_bits, &f, sizeof __cuemu_bits);
  if ((__cuemu_bits & 0x7f800000u) != 0x7f800000u)
    __cuemu_bits &= 0xffffe000u;
  std::memcpy(&f, &__cuemu_bits, sizeof __cuemu_bits);
  return f;
}

/* This thread's lane and the number of threads of its warp. */
inline unsigned lane_id() {
  return ((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x +
          threadIdx.x) & 31u;
}

/* Reports a warp of fewer than 32 threads (the end of a block). */
inline void check_full_warp(const char *what, const char *file, int line) {
  unsigned linear =
      (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  unsigned __cuemu_threads = blockDim.x * blockDim.y * blockDim.z;
  if ((linear | 31u) >= __cuemu_threads)
    cuemu_device_misuse(CUEMU_WARP_MISUSE, what, file, line);
}

/* Checks that the whole warp is there, then meets the other lanes. */
inline void rendezvous(const char *what, const char *file, int line) {
  check_full_warp(what, file, line);
  cuemu_warp_collective(CUEMU_WARP_SYNC, 0xffffffffu, 0, 0, 32, what, file,
                        line);
}

/* CUDA's rules for a matrix in memory; breaking them is a fault (on the
 * GPU, a misaligned address or wrong data). */
template <typename T>
inline void check_memory(const T *p, unsigned ldm, const char *what,
                         const char *file, int line) {
  if (reinterpret_cast<std::uintptr_t>(p) % 32u || (ldm * sizeof(T)) % 16u)
    cuemu_device_misuse(CUEMU_KERNEL_FAULT, what, file, line);
}

/* The same for sub-byte elements of `bits` bits each. */
inline void check_packed_memory(const void *p, unsigned ldm, int __cuemu_bits,
                                const char *what, const char *file, int line) {
  if (reinterpret_cast<std::uintptr_t>(p) % 32u ||
      (static_cast<unsigned long long>(ldm) * __cuemu_bits) % 128u)
    cuemu_device_misuse(CUEMU_KERNEL_FAULT, what, file, line);
}

/* Element `index` of packed storage: a sub-byte element (signed for s4,
 * zero-extended otherwise) or a plain one. */
template <typename T, typename S_>
inline int packed_element(const S_ *words, long long index) {
  constexpr int __cuemu_bits = bits_of<T>(), per = 32 / __cuemu_bits;
  unsigned word = static_cast<unsigned>(words[index / per]);
  unsigned v = (word >> (index % per * __cuemu_bits)) & ((1u << __cuemu_bits) - 1u);
  if (std::is_same<T, experimental::precision::s4>::value)
    return static_cast<int>(v ^ 8u) - 8;
  return static_cast<int>(v);
}

} // namespace cuemu_detail

template <typename Use, int __cuemu_m, int n, int __cuemu_k, typename T, typename Layout = void>
class fragment {
  static_assert(std::is_same<Use, accumulator>::value
                    ? cuemu_detail::accumulator_shape<T, __cuemu_m, n, __cuemu_k>()
                    : cuemu_detail::input_shape<T, __cuemu_m, n, __cuemu_k>(),
                "nvcuda::wmma::fragment: this shape and element type are "
                "not a combination that sm_90 supports");
  static_assert(std::is_same<Use, accumulator>::value ==
                    std::is_same<Layout, void>::value,
                "nvcuda::wmma::fragment: matrix_a and matrix_b take "
                "row_major or col_major; accumulators take no layout");
  static_assert(!cuemu_detail::is_sub_byte<T>::value ||
                    std::is_same<Layout, typename std::conditional<
                                             std::is_same<Use, matrix_a>::value,
                                             row_major, col_major>::type>::value,
                "nvcuda::wmma::fragment: sub-byte (u4, s4, b1) matrix_a "
                "fragments are row_major and matrix_b ones col_major");

public:
  using element_type = T;
  using storage_element_type = typename cuemu_detail::storage<T>::type;
  static constexpr int cuemu_rows = cuemu_detail::dims<Use, __cuemu_m, n, __cuemu_k>::rows;
  static constexpr int cuemu_cols = cuemu_detail::dims<Use, __cuemu_m, n, __cuemu_k>::cols;
  enum { num_elements = cuemu_rows * cuemu_cols / 32 };
  enum {
    num_storage_elements = num_elements / cuemu_detail::per_word<T>()
  };
  storage_element_type x[num_storage_elements];
};

namespace cuemu_detail {

/* What load_matrix_sync and store_matrix_sync check, in their words. */
struct memory_op {
  const char *rules, *warp, *__cuemu_uniform;
};
constexpr memory_op loading = {
    "wmma::load_matrix_sync: mptr must be 256-bit aligned and ldm a "
    "multiple of 16 bytes",
    "wmma::load_matrix_sync needs the 32 threads of a full warp",
    "wmma::load_matrix_sync: mptr, ldm and the layout must be the same in "
    "all threads of the warp"};
constexpr memory_op storing = {
    "wmma::store_matrix_sync: mptr must be 256-bit aligned and ldm a "
    "multiple of 16 bytes",
    "wmma::store_matrix_sync needs the 32 threads of a full warp",
    "wmma::store_matrix_sync: mptr, ldm and the layout must be the same in "
    "all threads of the warp"};

/* Meets the warp for a load or store of the matrix at p: CUDA requires
 * mptr, ldm and the layout to be the same in every thread of the warp
 * (the Programming Guide's wmma::load_matrix_sync). On a GPU a warp whose
 * threads differ reads or writes parts of several tiles, silently; here
 * the launch ends with an error naming the call. */
inline void __cuemu_rendezvous_uniform(const void *p, unsigned ldm,
                                       bool row_major, const memory_op &op,
                                       const char *file, int line) {
  check_full_warp(op.warp, file, line);
  const unsigned long long __cuemu_same_pointer = cuemu_warp_collective(
      CUEMU_WARP_MATCH_ALL, 0xffffffffu,
      static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(p)), 0,
      32, op.warp, file, line);
  const unsigned long long __cuemu_same_shape = cuemu_warp_collective(
      CUEMU_WARP_MATCH_ALL, 0xffffffffu,
      2ull * ldm + (row_major ? 1u : 0u), 0, 32, op.warp, file, line);
  if (!__cuemu_same_pointer || !__cuemu_same_shape)
    cuemu_device_misuse(CUEMU_WARP_MISUSE, op.__cuemu_uniform, file, line);
}

/* Checks CUDA's rules for the matrix at mptr, meets the warp, then calls
 * visit(i, offset) for each element i of the calling lane's part of a
 * fragment of `Cols` columns: it is mptr[offset] in memory. */
template <int Cols, int Count, typename T, typename Visit>
inline void each_element(const T *mptr, unsigned ldm, bool row_major_memory,
                         const memory_op &op, const char *file, int line,
                         Visit visit) {
  check_memory(mptr, ldm, op.rules, file, line);
  __cuemu_rendezvous_uniform(mptr, ldm, row_major_memory, op, file, line);
  const unsigned __cuemu_lane = lane_id();
  for (int __cuemu_i = 0; __cuemu_i < Count; ++__cuemu_i) {
    int __cuemu_idx = __cuemu_i * 32 + static_cast<int>(__cuemu_lane);
    std::size_t __cuemu_r = static_cast<std::size_t>(__cuemu_idx / Cols),
                c = static_cast<std::size_t>(__cuemu_idx % Cols);
    visit(__cuemu_i, row_major_memory ? __cuemu_r * ldm + c : c * ldm + __cuemu_r);
  }
}

} // namespace cuemu_detail

/* A multiplicand: each lane reads its own elements. */
template <typename Use, int __cuemu_m, int n, int __cuemu_k, typename T, typename Layout,
          typename std::enable_if<!cuemu_detail::is_sub_byte<T>::value,
                                  int>::type = 0>
inline void load_matrix_sync(
    fragment<Use, __cuemu_m, n, __cuemu_k, T, Layout> &a,
    const typename fragment<Use, __cuemu_m, n, __cuemu_k, T, Layout>::storage_element_type
        *mptr,
    unsigned ldm, const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  using F_ = fragment<Use, __cuemu_m, n, __cuemu_k, T, Layout>;
  static_assert(!std::is_same<Use, accumulator>::value,
                "load_matrix_sync of an accumulator takes a layout_t");
  cuemu_detail::each_element<F_::cuemu_cols, F_::num_elements>(
      mptr, ldm, std::is_same<Layout, row_major>::value,
      cuemu_detail::loading, cuemu_file, cuemu_line,
      [&](int __cuemu_i, std::size_t at) { a.x[__cuemu_i] = mptr[at]; });
}

/* A sub-byte multiplicand: each lane packs its elements into its word
 * (element i into nibble or bit i). */
template <typename Use, int __cuemu_m, int n, int __cuemu_k, typename T, typename Layout,
          typename std::enable_if<cuemu_detail::is_sub_byte<T>::value,
                                  int>::type = 0>
inline void load_matrix_sync(fragment<Use, __cuemu_m, n, __cuemu_k, T, Layout> &a,
                             const void *mptr, unsigned ldm,
                             const char *cuemu_file = __builtin_FILE(),
                             int cuemu_line = __builtin_LINE()) {
  using F_ = fragment<Use, __cuemu_m, n, __cuemu_k, T, Layout>;
  constexpr int __cuemu_bits = cuemu_detail::bits_of<T>();
  cuemu_detail::check_packed_memory(mptr, ldm, __cuemu_bits,
                                    cuemu_detail::loading.rules, cuemu_file,
                                    cuemu_line);
  cuemu_detail::__cuemu_rendezvous_uniform(
      mptr, ldm, std::is_same<Layout, row_major>::value,
      cuemu_detail::loading, cuemu_file, cuemu_line);
  const unsigned __cuemu_lane = cuemu_detail::lane_id();
  const auto *words = static_cast<const unsigned *>(mptr);
  unsigned packed = 0;
  for (int __cuemu_i = 0; __cuemu_i < F_::num_elements; ++__cuemu_i) {
    int __cuemu_idx = __cuemu_i * 32 + static_cast<int>(__cuemu_lane);
    long long __cuemu_r = __cuemu_idx / F_::cuemu_cols, c = __cuemu_idx % F_::cuemu_cols;
    long long at = std::is_same<Layout, row_major>::value ? __cuemu_r * ldm + c
                                                          : c * ldm + __cuemu_r;
    unsigned v = static_cast<unsigned>(
                     cuemu_detail::packed_element<T>(words, at)) &
                 ((1u << __cuemu_bits) - 1u);
    packed |= v << (__cuemu_i * __cuemu_bits);
  }
  a.x[0] = static_cast<typename F_::storage_element_type>(packed);
}

/* An accumulator, from memory of the given layout. */
template <int __cuemu_m, int n, int __cuemu_k, typename T>
inline void load_matrix_sync(fragment<accumulator, __cuemu_m, n, __cuemu_k, T> &a,
                             const T *mptr, unsigned ldm, layout_t layout,
                             const char *cuemu_file = __builtin_FILE(),
                             int cuemu_line = __builtin_LINE()) {
  using F_ = fragment<accumulator, __cuemu_m, n, __cuemu_k, T>;
  cuemu_detail::each_element<n, F_::num_elements>(
      mptr, ldm, layout == mem_row_major, cuemu_detail::loading, cuemu_file,
      cuemu_line, [&](int __cuemu_i, std::size_t at) { a.x[__cuemu_i] = mptr[at]; });
}

template <int __cuemu_m, int n, int __cuemu_k, typename T>
inline void store_matrix_sync(T *mptr,
                              const fragment<accumulator, __cuemu_m, n, __cuemu_k, T> &a,
                              unsigned ldm, layout_t layout,
                              const char *cuemu_file = __builtin_FILE(),
                              int cuemu_line = __builtin_LINE()) {
  using F_ = fragment<accumulator, __cuemu_m, n, __cuemu_k, T>;
  cuemu_detail::each_element<n, F_::num_elements>(
      mptr, ldm, layout == mem_row_major, cuemu_detail::storing, cuemu_file,
      cuemu_line, [&](int __cuemu_i, std::size_t at) { mptr[at] = a.x[__cuemu_i]; });
}

template <typename Use, int __cuemu_m, int n, int __cuemu_k, typename T, typename Layout>
inline void fill_fragment(
    fragment<Use, __cuemu_m, n, __cuemu_k, T, Layout> &a,
    const typename fragment<Use, __cuemu_m, n, __cuemu_k, T, Layout>::storage_element_type
        &v) {
  using F_ = fragment<Use, __cuemu_m, n, __cuemu_k, T, Layout>;
  using S_ = typename F_::storage_element_type;
  S_ word = v;
  if constexpr (cuemu_detail::is_sub_byte<T>::value) {
    /* The low bits of v, in every element of the word. */
    constexpr int __cuemu_bits = cuemu_detail::bits_of<T>();
    unsigned e = static_cast<unsigned>(v) & ((1u << __cuemu_bits) - 1u), w = 0;
    for (int __cuemu_i = 0; __cuemu_i < 32; __cuemu_i += __cuemu_bits)
      w |= e << __cuemu_i;
    word = static_cast<S_>(w);
  }
  for (int __cuemu_i = 0; __cuemu_i < F_::num_storage_elements; ++__cuemu_i)
    a.x[__cuemu_i] = word;
}

/* float's rounding of a value in [-inf, inf] for tf32: to nearest, ties
 * away from zero (cvt.rna.tf32.f32); the result is a float whose low 13
 * mantissa bits are zero. */
inline float __float_to_tf32(float in) {
  std::uint32_t __cuemu_bits;
  std::memcpy(&__cuemu_bits, &in, sizeof __cuemu_bits);
  if ((__cuemu_bits & 0x7f800000u) != 0x7f800000u) {
    __cuemu_bits += 0x1000u;
    __cuemu_bits &= 0xffffe000u;
  }
  std::memcpy(&in, &__cuemu_bits, sizeof __cuemu_bits);
  return in;
}

namespace cuemu_detail {

/* What each lane shares for mma_sync: its multiplicands' elements. */
struct exchange {
  const void *a[32];
  const void *b[32];
};

/* The start of mma_sync and bmma_sync: lane 0's table, found through a
 * shuffle of its address (lane 0 clears it before the shuffle); every lane
 * fills in its multiplicands' storage; a meeting lets every lane read
 * them. A second meeting (done()) keeps the fragments and lane 0's table
 * alive until all have. */
inline exchange *share(exchange &mine, const void *a, const void *b,
                       const char *what, const char *file, int line) {
  const unsigned __cuemu_lane = lane_id();
  if (__cuemu_lane == 0)
    std::memset(&mine, 0, sizeof mine);
  check_full_warp(what, file, line);
  auto *table = reinterpret_cast<exchange *>(
      static_cast<std::uintptr_t>(cuemu_warp_collective(
          CUEMU_WARP_SHFL_IDX, 0xffffffffu,
          static_cast<unsigned long long>(
              reinterpret_cast<std::uintptr_t>(&mine)),
          0, 32, what, file, line)));
  table->a[__cuemu_lane] = a;
  table->b[__cuemu_lane] = b;
  rendezvous(what, file, line);
  return table;
}

/* Element `index` (row-major) of a multiplicand shared in `table`, as an
 * integer (8-bit and sub-byte inputs). */
template <typename T, typename S_>
inline int shared_integer(const void *const *table, int index) {
  const S_ *storage = static_cast<const S_ *>(table[index % 32]);
  if constexpr (is_sub_byte<T>::value)
    return packed_element<T>(storage, index / 32);
  else
    return value(storage[index / 32]);
}

inline float saturate(float v) {
  if (std::isnan(v))
    return 0.0f;
  if (std::isinf(v))
    return v > 0 ? std::numeric_limits<float>::max()
                 : -std::numeric_limits<float>::max();
  return v;
}

inline float saturate_half(float v) {
  if (std::isnan(v))
    return 0.0f;
  const float most = 65504.0f;
  return v > most ? most : v < -most ? -most : v;
}

/* The element type read from a multiplicand's storage. */
template <typename T, typename S_> inline auto input(const S_ &s) {
  if constexpr (std::is_same<T, precision::tf32>::value)
    return tf32_truncate(s);
  else
    return value(s);
}

} // namespace cuemu_detail

template <int __cuemu_m, int n, int __cuemu_k, typename TA, typename LA, typename TB,
          typename LB, typename TC, typename TD>
inline void mma_sync(fragment<accumulator, __cuemu_m, n, __cuemu_k, TD> &d,
                     const fragment<matrix_a, __cuemu_m, n, __cuemu_k, TA, LA> &a,
                     const fragment<matrix_b, __cuemu_m, n, __cuemu_k, TB, LB> &b,
                     const fragment<accumulator, __cuemu_m, n, __cuemu_k, TC> &c,
                     bool satf = false,
                     const char *cuemu_file = __builtin_FILE(),
                     int cuemu_line = __builtin_LINE()) {
  static_assert(std::is_same<TA, TB>::value,
                "wmma::mma_sync: matrix_a and matrix_b have one element type");
  static_assert(!std::is_same<TA, experimental::precision::b1>::value,
                "wmma::mma_sync: b1 fragments multiply with bmma_sync");
  constexpr bool integer = std::is_same<TA, signed char>::value ||
                           std::is_same<TA, unsigned char>::value ||
                           cuemu_detail::is_sub_byte<TA>::value;
  static_assert(!integer || (std::is_same<TC, int>::value &&
                             std::is_same<TD, int>::value),
                "wmma::mma_sync: 8-bit and 4-bit integer inputs accumulate "
                "in int");
  static_assert(!std::is_same<TA, double>::value ||
                    (std::is_same<TC, double>::value &&
                     std::is_same<TD, double>::value),
                "wmma::mma_sync: double inputs accumulate in double");
  using FA = fragment<matrix_a, __cuemu_m, n, __cuemu_k, TA, LA>;
  using FB = fragment<matrix_b, __cuemu_m, n, __cuemu_k, TB, LB>;
  using FD = fragment<accumulator, __cuemu_m, n, __cuemu_k, TD>;
  using SA = typename FA::storage_element_type;
  using SB = typename FB::storage_element_type;

  cuemu_detail::exchange mine;
  const unsigned __cuemu_lane = cuemu_detail::lane_id();
  auto *table = cuemu_detail::share(
      mine, a.x, b.x, "wmma::mma_sync needs the 32 threads of a full warp",
      cuemu_file, cuemu_line);

  TD result[FD::num_elements];
  for (int __cuemu_i = 0; __cuemu_i < FD::num_elements; ++__cuemu_i) {
    int __cuemu_idx = __cuemu_i * 32 + static_cast<int>(__cuemu_lane);
    int __cuemu_r = __cuemu_idx / n, col = __cuemu_idx % n;
    if constexpr (integer) {
      long long __cuemu_acc = c.x[__cuemu_i];
      unsigned wrapped = static_cast<unsigned>(c.x[__cuemu_i]);
      for (int kk = 0; kk < __cuemu_k; ++kk) {
        int ia = __cuemu_r * __cuemu_k + kk, ib = kk * n + col;
        int av = cuemu_detail::shared_integer<TA, SA>(table->a, ia);
        int bv = cuemu_detail::shared_integer<TB, SB>(table->b, ib);
        __cuemu_acc += static_cast<long long>(av) * bv;
        wrapped += static_cast<unsigned>(av * bv);
      }
      if (satf)
        __cuemu_acc = __cuemu_acc > INT32_MAX ? INT32_MAX : __cuemu_acc < INT32_MIN ? INT32_MIN : __cuemu_acc;
      result[__cuemu_i] = satf ? static_cast<int>(__cuemu_acc) : static_cast<int>(wrapped);
    } else if constexpr (std::is_same<TA, double>::value) {
      double __cuemu_acc = c.x[__cuemu_i];
      for (int kk = 0; kk < __cuemu_k; ++kk) {
        int ia = __cuemu_r * __cuemu_k + kk, ib = kk * n + col;
        __cuemu_acc = std::fma(static_cast<const double *>(table->a[ia % 32])[ia / 32],
                       static_cast<const double *>(table->b[ib % 32])[ib / 32],
                       __cuemu_acc);
      }
      result[__cuemu_i] = __cuemu_acc;
    } else {
      float __cuemu_acc = cuemu_detail::value(c.x[__cuemu_i]);
      for (int kk = 0; kk < __cuemu_k; ++kk) {
        int ia = __cuemu_r * __cuemu_k + kk, ib = kk * n + col;
        float av = cuemu_detail::input<TA>(
            static_cast<const SA *>(table->a[ia % 32])[ia / 32]);
        float bv = cuemu_detail::input<TB>(
            static_cast<const SB *>(table->b[ib % 32])[ib / 32]);
        __cuemu_acc = std::fma(av, bv, __cuemu_acc); /* the product is exact */
      }
      if (satf)
        __cuemu_acc = std::is_same<TD, __half>::value ? cuemu_detail::saturate_half(__cuemu_acc)
                                              : cuemu_detail::saturate(__cuemu_acc);
      result[__cuemu_i] = cuemu_detail::element_of<TD>(__cuemu_acc);
    }
  }
  cuemu_detail::rendezvous("wmma::mma_sync", cuemu_file, cuemu_line);
  for (int __cuemu_i = 0; __cuemu_i < FD::num_elements; ++__cuemu_i)
    d.x[__cuemu_i] = result[__cuemu_i];
}

/* The 1-bit product: d[i][j] = c[i][j] + popc(op(row i of A, column j of
 * B)) over the 128 bits, op being AND or XOR. */
inline void bmma_sync(
    fragment<accumulator, 8, 8, 128, int> &d,
    const fragment<matrix_a, 8, 8, 128, experimental::precision::b1,
                   row_major> &a,
    const fragment<matrix_b, 8, 8, 128, experimental::precision::b1,
                   col_major> &b,
    const fragment<accumulator, 8, 8, 128, int> &c,
    experimental::bmmaBitOp op = experimental::bmmaBitOpXOR,
    experimental::bmmaAccumulateOp acc_op = experimental::bmmaAccumulateOpPOPC,
    const char *cuemu_file = __builtin_FILE(),
    int cuemu_line = __builtin_LINE()) {
  using B1 = experimental::precision::b1;
  if ((op != experimental::bmmaBitOpXOR && op != experimental::bmmaBitOpAND) ||
      acc_op != experimental::bmmaAccumulateOpPOPC)
    cuemu_device_misuse(CUEMU_KERNEL_FAULT,
                        "wmma::bmma_sync: the bit operation is "
                        "bmmaBitOpXOR or bmmaBitOpAND and the accumulation "
                        "bmmaAccumulateOpPOPC",
                        cuemu_file, cuemu_line);
  cuemu_detail::exchange mine;
  const unsigned __cuemu_lane = cuemu_detail::lane_id();
  auto *table = cuemu_detail::share(
      mine, a.x, b.x, "wmma::bmma_sync needs the 32 threads of a full warp",
      cuemu_file, cuemu_line);
  int result[2];
  for (int __cuemu_i = 0; __cuemu_i < 2; ++__cuemu_i) {
    int __cuemu_idx = __cuemu_i * 32 + static_cast<int>(__cuemu_lane);
    int __cuemu_r = __cuemu_idx / 8, col = __cuemu_idx % 8;
    unsigned __cuemu_sum = static_cast<unsigned>(c.x[__cuemu_i]);
    for (int kk = 0; kk < 128; ++kk) {
      int av = cuemu_detail::shared_integer<B1, unsigned>(table->a, __cuemu_r * 128 + kk);
      int bv = cuemu_detail::shared_integer<B1, unsigned>(table->b, kk * 8 + col);
      __cuemu_sum += static_cast<unsigned>(op == experimental::bmmaBitOpAND ? av & bv
                                                                    : av ^ bv);
    }
    result[__cuemu_i] = static_cast<int>(__cuemu_sum);
  }
  cuemu_detail::rendezvous("wmma::bmma_sync", cuemu_file, cuemu_line);
  d.x[0] = result[0];
  d.x[1] = result[1];
}

} // namespace wmma
} // namespace nvcuda

#endif /* CUEMU_MMA_H */

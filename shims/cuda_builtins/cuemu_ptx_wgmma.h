/*
 * cuemu_ptx_wgmma.h: the warpgroup-level matrix multiply-accumulate of
 * inline PTX (sm_90a, see cuemu_ptx.h): wgmma.mma_async.sync.aligned
 * .m64nNkK with A and B in shared memory through 64-bit matrix
 * descriptors, or A in registers, as the PTX ISA defines it
 * ("Asynchronous Warpgroup Level Matrix Multiply-Accumulate
 * Instructions").
 *
 * The warpgroup is 4 consecutive warps (128 threads, the first a multiple
 * of 128): warp w of it holds rows 16w..16w+15 of D, and lane 4g + t of a
 * warp, for each 8 columns j, the elements (g, 8j+2t), (g, 8j+2t+1),
 * (g+8, 8j+2t), (g+8, 8j+2t+1) (.f32 and .s32: one register each; .f16:
 * two per register). Each thread computes its own elements, reading A's
 * rows and B's columns from shared memory itself (or A's rows from the
 * registers of its quad, through the warp's collective, when A is in
 * registers). The instruction completes at once: its reads of shared
 * memory happen when it is issued, and wgmma.fence, commit_group and
 * wait_group have nothing to wait for.
 *
 * A descriptor holds bits 4..17 of the matrix's shared-memory address,
 * the leading and stride byte offsets (LBO, SBO, in 16-byte units), the
 * base offset and the swizzle mode (0 none, 1 128 bytes, 2 64, 3 32). The
 * canonical layouts, in 16-byte chunks (T elements each) of the element
 * (mn, k) of one instruction's tile, W the swizzle's chunks per row (8, 4,
 * 2):
 * - K-major, no swizzle: chunk (mn%8) + (mn/8) SBO + (k/T) LBO;
 * - K-major, swizzled: chunk (mn%8) W + (mn/8) SBO + k/T (LBO unused);
 * - MN-major, no swizzle: chunk c = mn/T at c SBO + (k%8) + (k/8) LBO;
 * - MN-major, swizzled: chunk (c%W) + (c/W) LBO + (k%8) W + (k/8) SBO.
 * The swizzle then XORs address bits 4.. with bits 7.. (one, two or three
 * of them), a function of the address as for the tensor copies
 * (cuemu_ptx_tensor.h), so a tile at an address aligned to the pattern's
 * repeat and a start address moved along K within it (as Hopper GEMM code
 * does) read what a GPU reads. A non-zero base offset is not emulated.
 *
 * Products are summed in single precision in k order (.s32: exactly, then
 * wrapped, or clamped with .satfinite); an .f16 D is rounded once at the
 * end. Part of cuemu_ptx.h.
 */
#ifndef CUEMU_PTX_WGMMA_H
#define CUEMU_PTX_WGMMA_H
#pragma GCC system_header

#include "cuemu_fp8_round.h"
#include "cuemu_ptx_base.h"
#include "cuemu_ptx_matrix.h"
#include "cuemu_warp_call.h"

#include <cuemu/cuemu_address_space.h>
#include <cuemu/cuemu_device.h>

#include <cstdint>
#include <cstring>

namespace cuemu {
namespace ptx {

/* The element types of wgmma's operands. */
enum : int {
  __cuemu_wg_f16 = 1,
  __cuemu_wg_bf16,
  __cuemu_wg_tf32,
  __cuemu_wg_e4m3,
  __cuemu_wg_e5m2,
  __cuemu_wg_s8,
  __cuemu_wg_u8,
  __cuemu_wg_f32,
  __cuemu_wg_s32
};

constexpr int __cuemu_wg_bytes(int __cuemu_t) {
  return __cuemu_t == __cuemu_wg_tf32                                    ? 4
         : (__cuemu_t == __cuemu_wg_f16 || __cuemu_t == __cuemu_wg_bf16) ? 2
                                                                         : 1;
}

[[noreturn]] inline void __cuemu_wg_fail(const char *__cuemu_why,
                                         const char *file, int line) {
  cuemu_kernel_assert_fail(__cuemu_why, file, line, "wgmma.mma_async");
}

/* An anchor in the module's thread-local storage, where static __shared__
 * variables live. */
inline const char *__cuemu_wg_tls_anchor() {
  static thread_local char __cuemu_anchor;
  return &__cuemu_anchor;
}

/* The generic address of the shared-memory address whose bits 4..17 a
 * descriptor holds (all a descriptor keeps): the one in the block's
 * dynamic shared memory, or else in its static shared memory within
 * 256 KiB of the module's thread-local storage (a block's shared memory
 * is smaller than 256 KiB on sm_90, so one address of the 18 bits lies
 * in each; the two parts are apart here, so an address that both hold
 * is taken as the dynamic one). `dynamic` is set when it is in dynamic
 * shared memory. */
inline uintptr_t __cuemu_wg_shared(reg __cuemu_low, bool &__cuemu_dynamic,
                                   const char *file, int line) {
  const uintptr_t __cuemu_dyn =
      reinterpret_cast<uintptr_t>(cuemu_dynamic_shared);
  const size_t __cuemu_size = cuemu_dynamic_shared_size();
  const uintptr_t __cuemu_span = uintptr_t{1} << 18;
  if (__cuemu_size) {
    const uintptr_t __cuemu_c =
        __cuemu_dyn + ((__cuemu_low - __cuemu_dyn) & (__cuemu_span - 1));
    if (__cuemu_c < __cuemu_dyn + __cuemu_size) {
      __cuemu_dynamic = true;
      return __cuemu_c;
    }
  }
  __cuemu_dynamic = false;
  const uintptr_t __cuemu_a =
      reinterpret_cast<uintptr_t>(__cuemu_wg_tls_anchor());
  const uintptr_t __cuemu_lo = __cuemu_a - __cuemu_span;
  const uintptr_t __cuemu_c =
      __cuemu_lo + ((__cuemu_low - __cuemu_lo) & (__cuemu_span - 1));
  const uintptr_t __cuemu_tries[2] = {__cuemu_c + __cuemu_span, __cuemu_c};
  for (uintptr_t __cuemu_try : __cuemu_tries)
    if (cuemu_address_space(reinterpret_cast<const void *>(__cuemu_try)) ==
        CUEMU_SPACE_SHARED)
      return __cuemu_try;
  __cuemu_wg_fail("wgmma.mma_async: a matrix descriptor's start address is not "
                  "in the block's "
                  "shared memory",
                  file, line);
}

/* One operand in shared memory, decoded from its descriptor. */
struct __cuemu_wg_matrix {
  uintptr_t __cuemu_start;
  unsigned __cuemu_lbo, __cuemu_sbo,
      __cuemu_width; /* width: the swizzle's 16-byte chunks per row, 0 none */
  bool __cuemu_mn_major, __cuemu_dynamic;
  int __cuemu_bytes; /* of an element */
};

inline __cuemu_wg_matrix __cuemu_wg_decode(reg __cuemu_desc,
                                           bool __cuemu_mn_major,
                                           int __cuemu_bytes, const char *file,
                                           int line) {
  __cuemu_wg_matrix __cuemu_m;
  if ((__cuemu_desc >> 49) & 7)
    __cuemu_wg_fail("wgmma.mma_async: a matrix descriptor's base offset is not "
                    "0 (not emulated)",
                    file, line);
  __cuemu_m.__cuemu_start = __cuemu_wg_shared(
      (__cuemu_desc & 0x3fff) << 4, __cuemu_m.__cuemu_dynamic, file, line);
  __cuemu_m.__cuemu_lbo = static_cast<unsigned>((__cuemu_desc >> 16) & 0x3fff)
                          << 4;
  __cuemu_m.__cuemu_sbo = static_cast<unsigned>((__cuemu_desc >> 32) & 0x3fff)
                          << 4;
  static const unsigned __cuemu_widths[4] = {0, 8, 4, 2};
  __cuemu_m.__cuemu_width = __cuemu_widths[__cuemu_desc >> 62];
  __cuemu_m.__cuemu_mn_major = __cuemu_mn_major;
  __cuemu_m.__cuemu_bytes = __cuemu_bytes;
  return __cuemu_m;
}

/* The generic address of element (mn, k) of the operand's tile. */
inline uintptr_t __cuemu_wg_at(const __cuemu_wg_matrix &__cuemu_m,
                               int __cuemu_mn, int __cuemu_k) {
  const int __cuemu_per =
      16 / __cuemu_m.__cuemu_bytes; /* elements in a 16-byte chunk */
  uintptr_t __cuemu_off;
  if (!__cuemu_m.__cuemu_mn_major) {
    const unsigned __cuemu_c = static_cast<unsigned>(__cuemu_k / __cuemu_per);
    __cuemu_off = __cuemu_m.__cuemu_width
                      ? (__cuemu_mn % 8) * __cuemu_m.__cuemu_width * 16u +
                            (__cuemu_mn / 8) * __cuemu_m.__cuemu_sbo +
                            __cuemu_c * 16u
                      : (__cuemu_mn % 8) * 16u +
                            (__cuemu_mn / 8) * __cuemu_m.__cuemu_sbo +
                            __cuemu_c * __cuemu_m.__cuemu_lbo;
    __cuemu_off += static_cast<unsigned>(__cuemu_k % __cuemu_per) *
                   __cuemu_m.__cuemu_bytes;
  } else {
    const unsigned __cuemu_c = static_cast<unsigned>(__cuemu_mn / __cuemu_per);
    __cuemu_off = __cuemu_m.__cuemu_width
                      ? (__cuemu_c % __cuemu_m.__cuemu_width) * 16u +
                            (__cuemu_c / __cuemu_m.__cuemu_width) *
                                __cuemu_m.__cuemu_lbo +
                            (__cuemu_k % 8) * __cuemu_m.__cuemu_width * 16u +
                            (__cuemu_k / 8) * __cuemu_m.__cuemu_sbo
                      : __cuemu_c * __cuemu_m.__cuemu_sbo +
                            (__cuemu_k % 8) * 16u +
                            (__cuemu_k / 8) * __cuemu_m.__cuemu_lbo;
    __cuemu_off += static_cast<unsigned>(__cuemu_mn % __cuemu_per) *
                   __cuemu_m.__cuemu_bytes;
  }
  uintptr_t __cuemu_a = __cuemu_m.__cuemu_start + __cuemu_off;
  if (__cuemu_m.__cuemu_width)
    __cuemu_a ^= ((__cuemu_a >> 7) & (__cuemu_m.__cuemu_width - 1)) << 4;
  return __cuemu_a;
}

/* Element `e` of a register of 32 bits holding elements of type __cuemu_T. */
template <int __cuemu_T>
inline float __cuemu_wg_value(reg __cuemu_r, int __cuemu_e) {
  if constexpr (__cuemu_T == __cuemu_wg_f16)
    return matrix_half<f16>(__cuemu_r, __cuemu_e);
  if constexpr (__cuemu_T == __cuemu_wg_bf16)
    return matrix_half<bf16>(__cuemu_r, __cuemu_e);
  if constexpr (__cuemu_T == __cuemu_wg_tf32)
    return as_f32(__cuemu_r & 0xffffe000u);
  if constexpr (__cuemu_T == __cuemu_wg_e4m3 || __cuemu_T == __cuemu_wg_e5m2)
    return matrix_half<f16>(
        cuemu_fp8_to_half_bits(
            static_cast<unsigned>(__cuemu_r >> (8 * __cuemu_e)) & 0xffu,
            __cuemu_T == __cuemu_wg_e4m3),
        0);
  if constexpr (__cuemu_T == __cuemu_wg_s8)
    return static_cast<float>(
        static_cast<int8_t>(__cuemu_r >> (8 * __cuemu_e)));
  if constexpr (__cuemu_T == __cuemu_wg_u8)
    return static_cast<float>(
        static_cast<uint8_t>(__cuemu_r >> (8 * __cuemu_e)));
  return 0.0f;
}

/* The element of type __cuemu_T at generic address a. */
template <int __cuemu_T> inline float __cuemu_wg_load(uintptr_t __cuemu_a_m) {
  uint32_t __cuemu_bits = 0;
  std::memcpy(&__cuemu_bits, reinterpret_cast<const void *>(__cuemu_a_m),
              __cuemu_wg_bytes(__cuemu_T));
  return __cuemu_wg_value<__cuemu_T>(__cuemu_bits, 0);
}

/* Checks that the elements of the operand this thread reads (rows or
 * columns `mn` of `count`, all k) lie in the shared memory that holds the
 * start address, before reading any. */
inline void __cuemu_wg_check(const __cuemu_wg_matrix &__cuemu_m,
                             const int *__cuemu_mn, int count, int __cuemu_kdim,
                             const char *file, int line) {
  uintptr_t __cuemu_lo = ~uintptr_t{0}, __cuemu_hi = 0;
  for (int __cuemu_i = 0; __cuemu_i < count; ++__cuemu_i)
    for (int __cuemu_k = 0; __cuemu_k < __cuemu_kdim; ++__cuemu_k) {
      const uintptr_t __cuemu_a_m =
          __cuemu_wg_at(__cuemu_m, __cuemu_mn[__cuemu_i], __cuemu_k);
      __cuemu_lo = __cuemu_a_m < __cuemu_lo ? __cuemu_a_m : __cuemu_lo;
      __cuemu_hi = __cuemu_a_m > __cuemu_hi ? __cuemu_a_m : __cuemu_hi;
    }
  __cuemu_hi += static_cast<uintptr_t>(__cuemu_m.__cuemu_bytes) - 1;
  bool __cuemu_ok;
  if (__cuemu_m.__cuemu_dynamic) {
    const uintptr_t __cuemu_dyn =
        reinterpret_cast<uintptr_t>(cuemu_dynamic_shared);
    __cuemu_ok = __cuemu_lo >= __cuemu_dyn &&
                 __cuemu_hi < __cuemu_dyn + cuemu_dynamic_shared_size();
  } else {
    __cuemu_ok =
        cuemu_address_space(reinterpret_cast<const void *>(__cuemu_lo)) ==
            CUEMU_SPACE_SHARED &&
        cuemu_address_space(reinterpret_cast<const void *>(__cuemu_hi)) ==
            CUEMU_SPACE_SHARED;
  }
  if (!__cuemu_ok)
    __cuemu_wg_fail("wgmma.mma_async: a matrix descriptor's layout reaches "
                    "past the block's "
                    "shared memory",
                    file, line);
}

/* wgmma.mma_async.sync.aligned.m64nNkK.D.A.B (N __cuemu_N, the types
 * __cuemu_D, __cuemu_A, __cuemu_B): d the addresses of D's registers; A
 * from the descriptor __cuemu_a_desc, or from __cuemu_a_regs (four
 * registers) when that is not null; __cuemu_scale_d 0 ignores D's input;
 * __cuemu_sa and __cuemu_sb (imm-scale-a/b) 1 or -1; __cuemu_ta and
 * __cuemu_tb (imm-trans-a/b) 1 for an MN-major operand. */
template <int __cuemu_N, int __cuemu_D, int __cuemu_A, int __cuemu_B,
          bool __cuemu_Sat>
inline void __cuemu_wgmma(reg *const *__cuemu_d, reg __cuemu_a_desc,
                          const reg *__cuemu_a_regs, reg __cuemu_b_desc,
                          reg __cuemu_scale_d, reg __cuemu_sa, reg __cuemu_sb,
                          reg __cuemu_ta, reg __cuemu_tb, const char *file,
                          int line) {
  constexpr int __cuemu_kdim = 32 / __cuemu_wg_bytes(__cuemu_A);
  constexpr int __cuemu_ncols = __cuemu_N / 4; /* of B, per thread */
  const unsigned __cuemu_threads = blockDim.x * blockDim.y * blockDim.z;
  if (__cuemu_threads % 128)
    __cuemu_wg_fail("wgmma.mma_async: the block's size is not a multiple of a "
                    "warpgroup (128 "
                    "threads)",
                    file, line);
  if ((__cuemu_sa != 1 && __cuemu_sa != ~0ULL &&
       static_cast<uint32_t>(__cuemu_sa) != 0xffffffffu) ||
      (__cuemu_sb != 1 && __cuemu_sb != ~0ULL &&
       static_cast<uint32_t>(__cuemu_sb) != 0xffffffffu))
    __cuemu_wg_fail(
        "wgmma.mma_async: imm-scale-a and imm-scale-b must be 1 or -1", file,
        line);
  if (__cuemu_ta > 1 || __cuemu_tb > 1)
    __cuemu_wg_fail(
        "wgmma.mma_async: imm-trans-a and imm-trans-b must be 0 or 1", file,
        line);
  const float __cuemu_sign =
      (__cuemu_sa == 1) == (__cuemu_sb == 1) ? 1.0f : -1.0f;
  const unsigned __cuemu_tid =
      threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const int __cuemu_lane = static_cast<int>(__cuemu_tid % 32),
            __cuemu_g = __cuemu_lane / 4, __cuemu_t = __cuemu_lane % 4;
  const int __cuemu_row0 =
      16 * static_cast<int>(__cuemu_tid / 32 % 4) + __cuemu_g;
  /* A's rows row0 and row0 + 8, B's columns 8j + 2t and 8j + 2t + 1. */
  float __cuemu_am[2][__cuemu_kdim];
  if (__cuemu_a_regs) {
    /* Rows g and g + 8 are in the registers of lanes 4g..4g+3, as for
     * mma.sync: element k of a row is register (row >= 8) + 2 (k >= K/2)
     * of lane 4g + (k % (K/2)) / (K/8), element (k % (K/8)) of it. */
    __cuemu_lanes<4> __cuemu_all;
    __cuemu_lanes_gather(__cuemu_all, __cuemu_a_regs, "wgmma.mma_async", file,
                         line);
    if (!__cuemu_all.__cuemu_whole)
      __cuemu_wg_fail(
          "wgmma.mma_async: a warp of the warpgroup has exited threads", file,
          line);
    for (int __cuemu_h = 0; __cuemu_h < 2; ++__cuemu_h)
      for (int __cuemu_k = 0; __cuemu_k < __cuemu_kdim; ++__cuemu_k) {
        const int __cuemu_per = __cuemu_kdim / 8,
                  __cuemu_half = __cuemu_k / (__cuemu_kdim / 2),
                  __cuemu_kk = __cuemu_k % (__cuemu_kdim / 2);
        __cuemu_am[__cuemu_h][__cuemu_k] = __cuemu_wg_value<__cuemu_A>(
            __cuemu_all.__cuemu_lane[4 * __cuemu_g + __cuemu_kk / __cuemu_per]
                                    [__cuemu_h + 2 * __cuemu_half],
            __cuemu_kk % __cuemu_per);
      }
    __cuemu_lanes_release(__cuemu_all, "wgmma.mma_async", file, line);
  } else {
    if (static_cast<unsigned>(cuemu_warp_call(CUEMU_WARP_BALLOT, 0xffffffffu, 1,
                                              0, 32, "wgmma.mma_async", file,
                                              line)) != 0xffffffffu)
      __cuemu_wg_fail(
          "wgmma.mma_async: a warp of the warpgroup has exited threads", file,
          line);
    const __cuemu_wg_matrix __cuemu_a_m =
        __cuemu_wg_decode(__cuemu_a_desc, __cuemu_ta == 1,
                          __cuemu_wg_bytes(__cuemu_A), file, line);
    const int __cuemu_rows[2] = {__cuemu_row0, __cuemu_row0 + 8};
    __cuemu_wg_check(__cuemu_a_m, __cuemu_rows, 2, __cuemu_kdim, file, line);
    for (int __cuemu_h = 0; __cuemu_h < 2; ++__cuemu_h)
      for (int __cuemu_k = 0; __cuemu_k < __cuemu_kdim; ++__cuemu_k)
        __cuemu_am[__cuemu_h][__cuemu_k] = __cuemu_wg_load<__cuemu_A>(
            __cuemu_wg_at(__cuemu_a_m, __cuemu_rows[__cuemu_h], __cuemu_k));
  }
  const __cuemu_wg_matrix __cuemu_b_m = __cuemu_wg_decode(
      __cuemu_b_desc, __cuemu_tb == 1, __cuemu_wg_bytes(__cuemu_B), file, line);
  int __cuemu_cols[__cuemu_ncols];
  for (int __cuemu_j = 0; __cuemu_j < __cuemu_N / 8; ++__cuemu_j) {
    __cuemu_cols[2 * __cuemu_j] = 8 * __cuemu_j + 2 * __cuemu_t;
    __cuemu_cols[2 * __cuemu_j + 1] = 8 * __cuemu_j + 2 * __cuemu_t + 1;
  }
  __cuemu_wg_check(__cuemu_b_m, __cuemu_cols, __cuemu_ncols, __cuemu_kdim, file,
                   line);
  for (int __cuemu_c = 0; __cuemu_c < __cuemu_ncols; ++__cuemu_c) {
    float __cuemu_bk[__cuemu_kdim];
    for (int __cuemu_k = 0; __cuemu_k < __cuemu_kdim; ++__cuemu_k)
      __cuemu_bk[__cuemu_k] = __cuemu_wg_load<__cuemu_B>(
          __cuemu_wg_at(__cuemu_b_m, __cuemu_cols[__cuemu_c], __cuemu_k));
    const int __cuemu_j = __cuemu_c / 2, __cuemu_col = __cuemu_c % 2;
    for (int __cuemu_h = 0; __cuemu_h < 2; ++__cuemu_h) {
      /* Register (f32, s32) 4j + 2h + col, or half col of register 2j + h
       * (f16). */
      if constexpr (__cuemu_D == __cuemu_wg_s32) {
        reg &__cuemu_r =
            *__cuemu_d[4 * __cuemu_j + 2 * __cuemu_h + __cuemu_col];
        int64_t __cuemu_sum =
            __cuemu_scale_d
                ? static_cast<int32_t>(static_cast<uint32_t>(__cuemu_r))
                : 0;
        for (int __cuemu_k = 0; __cuemu_k < __cuemu_kdim; ++__cuemu_k)
          __cuemu_sum +=
              static_cast<int64_t>(__cuemu_am[__cuemu_h][__cuemu_k]) *
              static_cast<int64_t>(__cuemu_bk[__cuemu_k]);
        if (__cuemu_Sat)
          __cuemu_sum = __cuemu_sum > INT32_MAX   ? INT32_MAX
                        : __cuemu_sum < INT32_MIN ? INT32_MIN
                                                  : __cuemu_sum;
        __cuemu_r = static_cast<uint32_t>(static_cast<uint64_t>(__cuemu_sum));
      } else {
        float __cuemu_acc = 0.0f;
        if constexpr (__cuemu_D == __cuemu_wg_f32) {
          if (__cuemu_scale_d)
            __cuemu_acc =
                as_f32(*__cuemu_d[4 * __cuemu_j + 2 * __cuemu_h + __cuemu_col]);
        } else {
          if (__cuemu_scale_d)
            __cuemu_acc = matrix_half<f16>(
                *__cuemu_d[2 * __cuemu_j + __cuemu_h], __cuemu_col);
        }
        for (int __cuemu_k = 0; __cuemu_k < __cuemu_kdim; ++__cuemu_k)
          __cuemu_acc += __cuemu_sign * __cuemu_am[__cuemu_h][__cuemu_k] *
                         __cuemu_bk[__cuemu_k];
        if constexpr (__cuemu_D == __cuemu_wg_f32) {
          *__cuemu_d[4 * __cuemu_j + 2 * __cuemu_h + __cuemu_col] =
              bits_of(__cuemu_acc);
        } else {
          reg &__cuemu_r = *__cuemu_d[2 * __cuemu_j + __cuemu_h];
          const reg __cuemu_bits = cuemu_nf_from_double(
              __cuemu_acc, cuemu_nf_binary16, CUEMU_ROUND_RN);
          __cuemu_r = (__cuemu_r & ~(0xffffULL << (16 * __cuemu_col))) |
                      (__cuemu_bits << (16 * __cuemu_col));
          __cuemu_r &= 0xffffffffULL;
        }
      }
    }
  }
}

} // namespace ptx
} // namespace cuemu

#endif /* CUEMU_PTX_WGMMA_H */

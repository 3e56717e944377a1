/*
 * cuemu_ptx_matrix.h: the warp-wide matrix instructions of inline PTX (see
 * cuemu_ptx.h): ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}.shared.b16
 * and mma.sync.aligned.{m16n8k16,m16n8k8}.row.col with .f16 or .bf16
 * inputs and .f32 or .f16 accumulators, and .{m16n8k16,m16n8k32} with .s8
 * or .u8 inputs and .s32 accumulators, with the fragment layouts of the
 * PTX ISA ("Matrix fragments for mma.m16n8k16", "ldmatrix"). Each lane's
 * registers reach the others through a warp collective (libcuemu's
 * cuemu_warp_collective: __cuemu_lanes_gather()), so every lane of the
 * warp must execute the instruction, as on a GPU. The products are summed in single precision
 * in k order (a GPU's order and intermediate precision are unspecified);
 * an .f16 accumulator is rounded to nearest once at the end. Part of
 * cuemu_ptx.h.
 */
#ifndef CUEMU_PTX_MATRIX_H
#define CUEMU_PTX_MATRIX_H
#pragma GCC system_header

#include "cuemu_ptx_base.h"
#include "cuemu_warp_call.h"

#include <cstdint>
#include <cstring>

namespace cuemu {
namespace ptx {

/* Value v of lane `from` of the warp (all 32 lanes take part). */
inline reg warp_fetch(reg v, int from, const char *name, const char *file, int line) {
  return cuemu_warp_call(CUEMU_WARP_SHFL_IDX, 0xffffffffu, v, from, 32, name, file,
                               line);
}

/* The registers of every lane of the warp for one matrix instruction:
 * __cuemu_lane[l][i] is register i of lane l (N_ registers each). When the whole
 * warp takes part, each lane publishes the address of its own registers
 * (which stay on its stack while it waits) and one ballot lets every lane
 * read the others' directly, until __cuemu_lanes_release()'s rendezvous;
 * two switches per lane, where a shuffle per register cost 32 (a CuTe
 * tensor-core GEMM ran 100 times slower than its SIMT one). When lanes
 * are missing (exited, or a partial warp) every register is fetched
 * through the shuffle as before, a missing lane's being the reader's own,
 * and synccheck names the lanes missing. */
template <int N_> struct __cuemu_lanes {
  const reg *__cuemu_lane[32];
  reg __cuemu_copy[32][N_];
  bool __cuemu_whole;
};
inline const reg *(&__cuemu_lane_slots())[32][32] {
  static thread_local const reg *__cuemu_slots[32][32];
  return __cuemu_slots;
}
template <int N_>
inline void __cuemu_lanes_gather(__cuemu_lanes<N_> &__cuemu_all, const reg *mine, const char *name,
                                 const char *file, int line) {
  const reg __cuemu_warp = sreg_warpid();
  __cuemu_lane_slots()[__cuemu_warp][sreg_laneid()] = mine;
  __cuemu_all.__cuemu_whole = static_cast<unsigned>(cuemu_warp_call(CUEMU_WARP_BALLOT, 0xffffffffu, 1, 0, 32, name,
                                                  file, line)) == 0xffffffffu;
  for (int from = 0; from < 32; ++from) {
    if (__cuemu_all.__cuemu_whole) {
      __cuemu_all.__cuemu_lane[from] = __cuemu_lane_slots()[__cuemu_warp][from];
      continue;
    }
    for (int i = 0; i < N_; ++i) __cuemu_all.__cuemu_copy[from][i] = warp_fetch(mine[i], from, name, file, line);
    __cuemu_all.__cuemu_lane[from] = __cuemu_all.__cuemu_copy[from];
  }
}
/* After the last read of the others' registers: no lane returns (and
 * reuses its registers' storage) before every lane has read. */
template <int N_>
inline void __cuemu_lanes_release(const __cuemu_lanes<N_> &__cuemu_all, const char *name, const char *file,
                                  int line) {
  if (__cuemu_all.__cuemu_whole) cuemu_warp_call(CUEMU_WARP_SYNC, 0xffffffffu, 0, 0, 32, name, file, line);
}

/* ldmatrix: matrix m's row r is at the address lane 8m + r gives; without
 * .trans lane t receives row t/4, elements 2(t%4) and 2(t%4)+1 of each
 * matrix, with .trans the elements (2(t%4), t/4) and (2(t%4)+1, t/4).
 * Lane 8m + r reads its own row (so that a bad address is that lane's)
 * before the first shuffle, which no lane leaves before all have arrived:
 * as on a GPU, the warp's load completes before any lane's later store. */
template <int... M_>
inline void ldmatrix_n(reg *d, int count, reg address, const char *file, int line) {
  const int __cuemu_lane = static_cast<int>(sreg_laneid());
  uint32_t row[4] = {0, 0, 0, 0};
  if (__cuemu_lane < 8 * count) std::memcpy(row, reinterpret_cast<const void *>(address), 16);
  const reg words[4] = {row[0], row[1], row[2], row[3]};
  __cuemu_lanes<4> __cuemu_all;
  __cuemu_lanes_gather(__cuemu_all, words, "ldmatrix", file, line);
  for (int __cuemu_m = 0; __cuemu_m < count; ++__cuemu_m) {
    if constexpr (has<m_trans, M_...>) {
      /* Row 2(t%4) (low half) and 2(t%4)+1 (high half), column t/4. */
      uint32_t half[2] = {0, 0};
      for (int h = 0; h < 2; ++h) {
        const reg v = __cuemu_all.__cuemu_lane[8 * __cuemu_m + 2 * (__cuemu_lane % 4) + h][__cuemu_lane / 8];
        half[h] = static_cast<uint32_t>(v >> (16 * (__cuemu_lane / 4 % 2))) & 0xffffu;
      }
      d[__cuemu_m] = static_cast<reg>(half[0] | (half[1] << 16));
    } else {
      /* Word t%4 of row t/4. */
      const reg v = __cuemu_all.__cuemu_lane[8 * __cuemu_m + __cuemu_lane / 4][__cuemu_lane % 4];
      d[__cuemu_m] = static_cast<reg>(static_cast<uint32_t>(v));
    }
  }
  __cuemu_lanes_release(__cuemu_all, "ldmatrix", file, line);
}
template <int... M_>
inline void ldmatrix(reg &d0, reg address, const char *file, int line) {
  static_assert(has<m_x1, M_...>, "ldmatrix: 1 destination needs .x1");
  ldmatrix_n<M_...>(&d0, 1, address, file, line);
}
template <int... M_>
inline void ldmatrix(reg &d0, reg &d1, reg address, const char *file, int line) {
  static_assert(has<m_x2, M_...>, "ldmatrix: 2 destinations need .x2");
  reg d[2];
  ldmatrix_n<M_...>(d, 2, address, file, line);
  d0 = d[0];
  d1 = d[1];
}
template <int... M_>
inline void ldmatrix(reg &d0, reg &d1, reg &d2, reg &d3, reg address, const char *file,
                     int line) {
  static_assert(has<m_x4, M_...>, "ldmatrix: 4 destinations need .x4");
  reg d[4];
  ldmatrix_n<M_...>(d, 4, address, file, line);
  d0 = d[0];
  d1 = d[1];
  d2 = d[2];
  d3 = d[3];
}

/* stmatrix (sm_90), ldmatrix's inverse: lane t holds, in register m,
 * elements 2(t%4) and 2(t%4)+1 of row t/4 of matrix m (with .trans, the
 * elements (2(t%4), t/4) and (2(t%4)+1, t/4)), and lane 8m + r gives the
 * address of matrix m's row r, which it gathers through the warp's
 * shuffle and then writes itself (a bad address is that lane's). */
template <int... M_>
inline void __cuemu_stmatrix_n(const reg *s, int count, reg address, const char *file, int line) {
  const int __cuemu_lane = static_cast<int>(sreg_laneid());
  uint32_t row[4] = {0, 0, 0, 0};
  reg mine[4] = {0, 0, 0, 0};
  for (int __cuemu_m = 0; __cuemu_m < count; ++__cuemu_m) mine[__cuemu_m] = s[__cuemu_m];
  __cuemu_lanes<4> __cuemu_all;
  __cuemu_lanes_gather(__cuemu_all, mine, "stmatrix", file, line);
  if (__cuemu_lane < 8 * count) {
    /* Lane 8m + r writes row r of matrix m. */
    const int __cuemu_m = __cuemu_lane / 8, __cuemu_row = __cuemu_lane % 8;
    if constexpr (has<m_trans, M_...>) {
      /* Element (r, c) is half r%2 of lane 4c + r/2's register. */
      for (int c = 0; c < 8; ++c) {
        const reg v = __cuemu_all.__cuemu_lane[4 * c + __cuemu_row / 2][__cuemu_m];
        const uint32_t h = static_cast<uint32_t>(v >> (16 * (__cuemu_row % 2))) & 0xffffu;
        row[c / 2] |= h << (16 * (c % 2));
      }
    } else {
      /* Word w of row r is lane 4r + w's register. */
      for (int w = 0; w < 4; ++w)
        row[w] = static_cast<uint32_t>(__cuemu_all.__cuemu_lane[4 * __cuemu_row + w][__cuemu_m]);
    }
  }
  __cuemu_lanes_release(__cuemu_all, "stmatrix", file, line);
  if (__cuemu_lane < 8 * count) std::memcpy(reinterpret_cast<void *>(address), row, 16);
}
template <int... M_>
inline void __cuemu_stmatrix(reg address, reg __cuemu_s0, const char *file, int line) {
  static_assert(has<m_x1, M_...>, "stmatrix: 1 source needs .x1");
  __cuemu_stmatrix_n<M_...>(&__cuemu_s0, 1, address, file, line);
}
template <int... M_>
inline void __cuemu_stmatrix(reg address, reg __cuemu_s0, reg __cuemu_s1, const char *file, int line) {
  static_assert(has<m_x2, M_...>, "stmatrix: 2 sources need .x2");
  const reg __cuemu_src[2] = {__cuemu_s0, __cuemu_s1};
  __cuemu_stmatrix_n<M_...>(__cuemu_src, 2, address, file, line);
}
template <int... M_>
inline void __cuemu_stmatrix(reg address, reg __cuemu_s0, reg __cuemu_s1, reg __cuemu_s2, reg __cuemu_s3, const char *file,
                             int line) {
  static_assert(has<m_x4, M_...>, "stmatrix: 4 sources need .x4");
  const reg __cuemu_src[4] = {__cuemu_s0, __cuemu_s1, __cuemu_s2, __cuemu_s3};
  __cuemu_stmatrix_n<M_...>(__cuemu_src, 4, address, file, line);
}

/* Element e (0 low, 1 high) of a .f16x2 or .bf16x2 register as a float:
 * cuemu_nf_to_float()'s value (a NaN the canonical one) from the bits
 * alone, since every mma.sync converts 64 of them per lane. */
template <int In_> inline float matrix_half(reg __cuemu_r, int e) {
  const uint32_t h = static_cast<uint32_t>(__cuemu_r >> (16 * e)) & 0xffffu;
  const uint32_t sign = (h & 0x8000u) << 16;
  if constexpr (In_ == f16) {
    const uint32_t exponent = (h >> 10) & 31u, mantissa = h & 0x3ffu;
    if (exponent == 31u)
      return cuemu_bits_float(mantissa ? 0x7fffffffu : sign | 0x7f800000u);
    if (exponent == 0u) {
      /* Zero or subnormal: mantissa * 2^-24 (written in decimal: a
       * hexadecimal floating literal is C++17, and -std=c++14 units
       * include this header), exact in float. */
      const float v = static_cast<float>(mantissa) * 5.9604644775390625e-8f;
      return sign ? -v : v;
    }
    return cuemu_bits_float(sign | ((exponent + 112u) << 23) | (mantissa << 13));
  } else {
    if ((h & 0x7f80u) == 0x7f80u && (h & 0x7fu)) return cuemu_bits_float(0x7fffffffu);
    return cuemu_bits_float(h << 16);
  }
}

/* Byte e of an .s8 or .u8 register (four elements, the lowest first). */
template <int In_> inline int32_t __cuemu_matrix_byte(reg __cuemu_r, int e) {
  const unsigned __cuemu_b = static_cast<unsigned>(__cuemu_r >> (8 * e)) & 0xffu;
  return In_ == s8 ? static_cast<int32_t>(static_cast<int8_t>(__cuemu_b))
                   : static_cast<int32_t>(__cuemu_b);
}

/* mma.sync.aligned.m16n8k{16,32}.row.col{.satfinite}.s32.atype.__cuemu_btype.s32
 * with .s8 or .u8 A and B: D = A B + C in 32-bit integers, as the PTX ISA
 * lays the fragments out ("Matrix fragments for mma.m16n8k32"): A's
 * registers hold four elements of rows g and g + 8, columns 4t..4t+3, then
 * (k32 only) 16 + 4t..; B's rows 4t..4t+3 of column g, then (k32 only)
 * 16 + 4t..; C and D as for .f32. The sum wraps, or with .satfinite is
 * clamped to the range of .s32. */
template <int... M_>
inline void __cuemu_mma_integer(reg *d, const reg *a, const reg *b, const reg *c, const char *file,
                        int line) {
  constexpr int atype = type_n<M_...>(1), __cuemu_btype = type_n<M_...>(2);
  /* .m16n8k32 is dropped by the translation: the shape that is not k16. */
  constexpr int kdim = has<m_m16n8k16, M_...> ? 16 : 32;
  constexpr int na = kdim / 8, nb = kdim / 16;
  const int __cuemu_lane = static_cast<int>(sreg_laneid()), __cuemu_g = __cuemu_lane / 4,
            t = __cuemu_lane % 4;
  __cuemu_lanes<na + nb> __cuemu_all;
  reg mine[na + nb];
  for (int __cuemu_r = 0; __cuemu_r < na; ++__cuemu_r) mine[__cuemu_r] = a[__cuemu_r];
  for (int __cuemu_r = 0; __cuemu_r < nb; ++__cuemu_r) mine[na + __cuemu_r] = b[__cuemu_r];
  __cuemu_lanes_gather(__cuemu_all, mine, "mma.sync", file, line);
  /* Rows g and g + 8 of A (lanes 4g..4g+3 hold them), columns 2t and
   * 2t + 1 of B (lanes 4(2t)..., 4(2t+1)...): element k of a row is byte
   * k%4 of register (row >= 8) + 2(k >= 16) of lane 4(row%8) + k%16/4;
   * element k of a column byte k%4 of register k/16 of lane 4col + k%16/4. */
  int32_t a_m[2][32], b_m[32][2];
  for (int h = 0; h < 2; ++h)
    for (int __cuemu_k = 0; __cuemu_k < kdim; ++__cuemu_k) {
      const int __cuemu_lk = __cuemu_k % 16 / 4;
      a_m[h][__cuemu_k] = __cuemu_matrix_byte<atype>(
          __cuemu_all.__cuemu_lane[4 * __cuemu_g + __cuemu_lk][h + 2 * (__cuemu_k / 16)], __cuemu_k % 4);
      b_m[__cuemu_k][h] = __cuemu_matrix_byte<__cuemu_btype>(
          __cuemu_all.__cuemu_lane[4 * (2 * t + h) + __cuemu_lk][na + __cuemu_k / 16], __cuemu_k % 4);
    }
  __cuemu_lanes_release(__cuemu_all, "mma.sync", file, line);
  for (int e = 0; e < 4; ++e) {
    const int row = e / 2, col = e % 2;
    int64_t __cuemu_sum = static_cast<int32_t>(static_cast<uint32_t>(c[e]));
    for (int __cuemu_k = 0; __cuemu_k < kdim; ++__cuemu_k)
      __cuemu_sum += static_cast<int64_t>(a_m[row][__cuemu_k]) * b_m[__cuemu_k][col];
    if constexpr (has<m_satfinite, M_...>)
      __cuemu_sum = __cuemu_sum > INT32_MAX ? INT32_MAX : __cuemu_sum < INT32_MIN ? INT32_MIN : __cuemu_sum;
    d[e] = static_cast<uint32_t>(static_cast<uint64_t>(__cuemu_sum));
  }
}

/* mma.sync.aligned.m16n8k{16,8}.row.col.dtype.atype.__cuemu_btype.ctype: D = A B + C
 * with A 16 x K (row major), B K x 8 (column major), C and D 16 x 8,
 * group g = lane / 4 and thread t = lane % 4 holding, as the PTX ISA lays
 * the fragments out: A's element pairs (g, 2t), (g + 8, 2t), then (k16
 * only) (g, 2t + 8), (g + 8, 2t + 8); B's pairs (2t, g), then (k16 only)
 * (2t + 8, g); C's and D's elements (g, 2t), (g, 2t + 1), (g + 8, 2t),
 * (g + 8, 2t + 1) (.f32: one register each; .f16: two pairs). */
template <int... M_>
inline void __cuemu_mma_float(reg *d, const reg *a, const reg *b, const reg *c, const char *file,
                      int line) {
  constexpr int __cuemu_dtype = type_n<M_...>(0), atype = type_n<M_...>(1),
                ctype = type_n<M_...>(3);
  constexpr int kdim = has<m_m16n8k16, M_...> ? 16 : 8;
  constexpr int na = kdim / 4, nb = kdim / 8;
  static_assert(has<m_row, M_...> && has<m_col, M_...>,
                "mma.sync: only the .row.col layouts exist for these shapes");
  static_assert(atype == f16 || atype == bf16, "mma.sync: .f16 or .bf16 inputs are emulated");
  static_assert((__cuemu_dtype == f32 || __cuemu_dtype == f16) && (ctype == f32 || ctype == f16),
                "mma.sync: .f32 or .f16 accumulators are emulated");
  const int __cuemu_lane = static_cast<int>(sreg_laneid()), __cuemu_g = __cuemu_lane / 4, t = __cuemu_lane % 4;
  __cuemu_lanes<na + nb> __cuemu_all;
  reg mine[na + nb];
  for (int __cuemu_r = 0; __cuemu_r < na; ++__cuemu_r) mine[__cuemu_r] = a[__cuemu_r];
  for (int __cuemu_r = 0; __cuemu_r < nb; ++__cuemu_r) mine[na + __cuemu_r] = b[__cuemu_r];
  __cuemu_lanes_gather(__cuemu_all, mine, "mma.sync", file, line);
  /* Rows g and g + 8 of A, columns 2t and 2t + 1 of B: element k of a row
   * is half k%2 of register (row >= 8) + 2(k >= 8) of lane 4(row%8) +
   * k%8/2; element k of a column half k%2 of register k/8 of lane 4col +
   * k%8/2. */
  float a_m[2][16], b_m[16][2];
  for (int h = 0; h < 2; ++h)
    for (int __cuemu_k = 0; __cuemu_k < kdim; ++__cuemu_k) {
      const int __cuemu_lk = __cuemu_k % 8 / 2;
      a_m[h][__cuemu_k] =
          matrix_half<atype>(__cuemu_all.__cuemu_lane[4 * __cuemu_g + __cuemu_lk][h + 2 * (__cuemu_k / 8)], __cuemu_k % 2);
      b_m[__cuemu_k][h] =
          matrix_half<atype>(__cuemu_all.__cuemu_lane[4 * (2 * t + h) + __cuemu_lk][na + __cuemu_k / 8], __cuemu_k % 2);
    }
  __cuemu_lanes_release(__cuemu_all, "mma.sync", file, line);
  float __cuemu_acc[4];
  for (int e = 0; e < 4; ++e)
    __cuemu_acc[e] = ctype == f32 ? as_f32(c[e]) : matrix_half<f16>(c[e / 2], e % 2);
  for (int e = 0; e < 4; ++e) {
    const int row = e / 2, col = e % 2;
    for (int __cuemu_k = 0; __cuemu_k < kdim; ++__cuemu_k) __cuemu_acc[e] += a_m[row][__cuemu_k] * b_m[__cuemu_k][col];
  }
  if constexpr (__cuemu_dtype == f32) {
    for (int e = 0; e < 4; ++e) d[e] = bits_of(__cuemu_acc[e]);
  } else {
    for (int p = 0; p < 2; ++p)
      d[p] = static_cast<reg>(cuemu_nf_from_double(__cuemu_acc[2 * p], cuemu_nf_binary16,
                                                   CUEMU_ROUND_RN)) |
             (static_cast<reg>(cuemu_nf_from_double(__cuemu_acc[2 * p + 1], cuemu_nf_binary16,
                                                    CUEMU_ROUND_RN))
              << 16);
  }
}

/* mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32: A's registers hold
 * elements (g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4), B's (t, g) and
 * (t + 4, g); each is an .f32 of which the unit reads the upper 19 bits.
 * The products are summed in single precision in k order. */
template <int... M_>
inline void __cuemu_mma_tf32(reg *d, const reg *a, const reg *b, const reg *c, const char *file,
                             int line) {
  const int __cuemu_lane = static_cast<int>(sreg_laneid()), __cuemu_g = __cuemu_lane / 4,
            t = __cuemu_lane % 4;
  __cuemu_lanes<6> __cuemu_all;
  const reg mine[6] = {a[0], a[1], a[2], a[3], b[0], b[1]};
  __cuemu_lanes_gather(__cuemu_all, mine, "mma.sync", file, line);
  /* Rows g and g + 8 of A, columns 2t and 2t + 1 of B: element k of a row
   * is register (row >= 8) + 2(k >= 4) of lane 4(row%8) + k%4; element k
   * of a column register k/4 of lane 4col + k%4. */
  float a_m[2][8], b_m[8][2];
  for (int h = 0; h < 2; ++h)
    for (int __cuemu_k = 0; __cuemu_k < 8; ++__cuemu_k) {
      a_m[h][__cuemu_k] =
          as_f32(__cuemu_all.__cuemu_lane[4 * __cuemu_g + __cuemu_k % 4][h + 2 * (__cuemu_k / 4)] & 0xffffe000u);
      b_m[__cuemu_k][h] = as_f32(__cuemu_all.__cuemu_lane[4 * (2 * t + h) + __cuemu_k % 4][4 + __cuemu_k / 4] & 0xffffe000u);
    }
  __cuemu_lanes_release(__cuemu_all, "mma.sync", file, line);
  for (int e = 0; e < 4; ++e) {
    const int row = e / 2, col = e % 2;
    float __cuemu_acc = as_f32(c[e]);
    for (int __cuemu_k = 0; __cuemu_k < 8; ++__cuemu_k) __cuemu_acc += a_m[row][__cuemu_k] * b_m[__cuemu_k][col];
    d[e] = bits_of(__cuemu_acc);
  }
}

/* mma.sync.aligned.m8n8k16.row.col{.satfinite}.s32.atype.btype.s32 (sm_75)
 * with .s8 or .u8 A and B, as the PTX ISA lays the fragments out ("Matrix
 * fragments for mma.m8n8k16"): A's one register holds row g, columns
 * 4t..4t+3; B's rows 4t..4t+3 of column g; C's and D's two registers
 * row g, columns 2t and 2t + 1. */
template <int... M_>
inline void __cuemu_mma_m8n8k16(reg *d, const reg *a, const reg *b, const reg *c, const char *file,
                                int line) {
  constexpr int atype = type_n<M_...>(1), __cuemu_btype = type_n<M_...>(2);
  const int __cuemu_lane = static_cast<int>(sreg_laneid()), __cuemu_g = __cuemu_lane / 4,
            t = __cuemu_lane % 4;
  __cuemu_lanes<2> __cuemu_all;
  const reg mine[2] = {a[0], b[0]};
  __cuemu_lanes_gather(__cuemu_all, mine, "mma.sync", file, line);
  int32_t a_m[16], b_m[16][2];
  for (int __cuemu_k = 0; __cuemu_k < 16; ++__cuemu_k) {
    a_m[__cuemu_k] = __cuemu_matrix_byte<atype>(
        __cuemu_all.__cuemu_lane[4 * __cuemu_g + __cuemu_k / 4][0], __cuemu_k % 4);
    for (int h = 0; h < 2; ++h)
      b_m[__cuemu_k][h] = __cuemu_matrix_byte<__cuemu_btype>(
          __cuemu_all.__cuemu_lane[4 * (2 * t + h) + __cuemu_k / 4][1], __cuemu_k % 4);
  }
  __cuemu_lanes_release(__cuemu_all, "mma.sync", file, line);
  for (int e = 0; e < 2; ++e) {
    int64_t __cuemu_sum = static_cast<int32_t>(static_cast<uint32_t>(c[e]));
    for (int __cuemu_k = 0; __cuemu_k < 16; ++__cuemu_k)
      __cuemu_sum += static_cast<int64_t>(a_m[__cuemu_k]) * b_m[__cuemu_k][e];
    if constexpr (has<m_satfinite, M_...>)
      __cuemu_sum = __cuemu_sum > INT32_MAX ? INT32_MAX : __cuemu_sum < INT32_MIN ? INT32_MIN : __cuemu_sum;
    d[e] = static_cast<uint32_t>(static_cast<uint64_t>(__cuemu_sum));
  }
}

/* mma.sync: the integer or the floating-point products. */
template <int... M_>
inline void mma_core(reg *d, const reg *a, const reg *b, const reg *c, const char *file,
                     int line) {
  constexpr int atype = type_n<M_...>(1);
  if constexpr (has<__cuemu_m_m8n8k16, M_...>)
    __cuemu_mma_m8n8k16<M_...>(d, a, b, c, file, line);
  else if constexpr (atype == s8 || atype == u8)
    __cuemu_mma_integer<M_...>(d, a, b, c, file, line);
  else if constexpr (atype == __cuemu_tf32)
    __cuemu_mma_tf32<M_...>(d, a, b, c, file, line);
  else
    __cuemu_mma_float<M_...>(d, a, b, c, file, line);
}

/* The operand lists, flattened as the translation passes them: D, A, B, C. */
template <int... M_>
inline void mma(reg &d0, reg &d1, reg &d2, reg &d3, reg a0, reg a1, reg a2, reg a3, reg b0,
                reg b1, reg c0, reg c1, reg c2, reg c3, const char *file, int line) {
  const reg a[4] = {a0, a1, a2, a3}, b[2] = {b0, b1}, c[4] = {c0, c1, c2, c3};
  reg d[4];
  mma_core<M_...>(d, a, b, c, file, line);
  d0 = d[0], d1 = d[1], d2 = d[2], d3 = d[3];
}
template <int... M_>
inline void mma(reg &d0, reg &d1, reg a0, reg a1, reg a2, reg a3, reg b0, reg b1, reg c0,
                reg c1, const char *file, int line) {
  const reg a[4] = {a0, a1, a2, a3}, b[2] = {b0, b1}, c[2] = {c0, c1};
  reg d[4];
  mma_core<M_...>(d, a, b, c, file, line);
  d0 = d[0], d1 = d[1];
}
template <int... M_>
inline void mma(reg &d0, reg &d1, reg &d2, reg &d3, reg a0, reg a1, reg b0, reg c0, reg c1,
                reg c2, reg c3, const char *file, int line) {
  const reg a[2] = {a0, a1}, b[1] = {b0}, c[4] = {c0, c1, c2, c3};
  reg d[4];
  mma_core<M_...>(d, a, b, c, file, line);
  d0 = d[0], d1 = d[1], d2 = d[2], d3 = d[3];
}
template <int... M_>
inline void mma(reg &d0, reg &d1, reg a0, reg b0, reg c0, reg c1, const char *file, int line) {
  const reg a[1] = {a0}, b[1] = {b0}, c[2] = {c0, c1};
  reg d[4];
  mma_core<M_...>(d, a, b, c, file, line);
  d0 = d[0], d1 = d[1];
}
template <int... M_>
inline void mma(reg &d0, reg &d1, reg a0, reg a1, reg b0, reg c0, reg c1, const char *file,
                int line) {
  const reg a[2] = {a0, a1}, b[1] = {b0}, c[2] = {c0, c1};
  reg d[4];
  mma_core<M_...>(d, a, b, c, file, line);
  d0 = d[0], d1 = d[1];
}

} // namespace ptx
} // namespace cuemu

#endif /* CUEMU_PTX_MATRIX_H */

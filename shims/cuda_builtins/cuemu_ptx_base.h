/*
 * cuemu_ptx_base.h: what every part of the inline-PTX emulation shares:
 * registers, modifiers and types, operand binding, special registers and
 * moves. The rest of this comment describes the whole emulation.
 *
 * The emulation of inline PTX: cuemu-cc turns each asm statement whose
 * template is PTX into a statement expression that calls the functions of
 * namespace ::cuemu::ptx declared here and in cuemu_ptx_int.h,
 * cuemu_ptx_float.h and cuemu_ptx_sync.h (cuemu_ptx.h includes them all);
 * see emulator/compile/cuemu_ptx.h for the translation and docs/ptx.md for
 * what is supported.
 *
 * Every PTX register is an unsigned long long holding the register's bits
 * in its low bytes (a .pred holds 0 or 1). An instruction is a function
 * template whose template arguments are the instruction's modifiers and
 * types in the order they are written (`bfe.s32` is `bfe<s32>`), whose
 * first parameters are its destinations (references) and whose other
 * parameters are its sources, as in the PTX statement. A function reads
 * only the low bits that its type names and writes results zero-extended
 * (sign-extended for signed types narrower than a register, as ld and cvt
 * do), so that registers of any width mix as PTX allows. The 128-bit
 * registers (`.reg .b128`, operands under "q") are unsigned __int128
 * (`wide`), which only the .b128 forms of mov, ld, st and atom take.
 */
#ifndef CUEMU_PTX_BASE_H
#define CUEMU_PTX_BASE_H
/* A system header: its C++17 forms that C++14 accepts (if constexpr, inline
 * variables, fold expressions) give no warning in a C++14 build of a .cpp
 * file (docs/dialects.md). */
#pragma GCC system_header

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <cuemu/cuemu.h>
#include <cuemu/cuemu_device.h>
#include <cuemu/cuemu_address_space.h>
#include <cuemu/cuemu_device_runtime.h>

#include "cuemu_builtin_vars.h"
#include "cuemu_intrinsics.h"
#include "cuemu_math.h"
#include "cuemu_narrow_float.h"

namespace cuemu {
namespace ptx {

using reg = unsigned long long;
using wide = unsigned __int128;

/* ---- Modifiers and types ------------------------------------------------- */

enum : int {
  m_sat = 1, m_cc, m_ftz, m_rn, m_rz, m_rm, m_rp, m_rni, m_rzi, m_rmi, m_rpi,
  m_hi, m_lo, m_wide, m_approx, m_full, m_NaN, m_relu,
  m_eq, m_ne, m_lt, m_le, m_gt, m_ge, m_ls, m_hs, m_equ, m_neu, m_ltu, m_leu,
  m_gtu, m_geu, m_num, m_nan,
  m_and, m_or, m_xor, m_shiftamt, m_f4e, m_b4e, m_rc8, m_ecl, m_ecr, m_rc16,
  m_l, m_r, m_wrap, m_clamp,
  m_finite, m_infinite, m_number, m_notanumber, m_normal, m_subnormal,
  m_v2, m_v4, m_relaxed, m_acquire, m_release, m_volatile,
  m_add, m_inc, m_dec, m_cas, m_exch, m_min, m_max, m_popc,
  m_up, m_down, m_bfly, m_idx, m_all, m_any, m_uni, m_ballot,
  m_noComplete, m_parity, m_noinc,
  m_m8n8, m_x1, m_x2, m_x4, m_trans, m_m16n8k16, m_m16n8k8, m_row, m_col,
  m_satfinite, __cuemu_m_oob, __cuemu_m_m8n8k16,
  /* vmad's: plus one, the shifts, and the operands written negated. */
  __cuemu_m_po, __cuemu_m_shr7, __cuemu_m_shr15, __cuemu_m_nega, __cuemu_m_negb, __cuemu_m_negc,
  /* The selectors of a scalar video instruction's a and b (%1.b2), in the
   * order .b0 .b1 .b2 .b3 .h0 .h1 (__cuemu_vpart counts on it). */
  __cuemu_m_asel_b0, __cuemu_m_asel_b1, __cuemu_m_asel_b2, __cuemu_m_asel_b3, __cuemu_m_asel_h0,
  __cuemu_m_asel_h1, __cuemu_m_bsel_b0, __cuemu_m_bsel_b1, __cuemu_m_bsel_b2, __cuemu_m_bsel_b3,
  __cuemu_m_bsel_h0, __cuemu_m_bsel_h1, __cuemu_m_dsel_b0, __cuemu_m_dsel_b1, __cuemu_m_dsel_b2,
  __cuemu_m_dsel_b3, __cuemu_m_dsel_h0, __cuemu_m_dsel_h1
};

/* A type is (kind << 8) | bits. */
enum : int { k_u = 1, k_s, k_b, k_f, k_bf, k_f16x2, k_bf16x2, k_pred, k_e4m3x2, k_e5m2x2 };
enum : int {
  u8 = 0x108, u16 = 0x110, u32 = 0x120, u64 = 0x140,
  s8 = 0x208, s16 = 0x210, s32 = 0x220, s64 = 0x240,
  b8 = 0x308, b16 = 0x310, b32 = 0x320, b64 = 0x340,
  f16 = 0x410, f32 = 0x420, f64 = 0x440, bf16 = 0x510,
  f16x2 = 0x620, bf16x2 = 0x720, pred = 0x801, b128 = 0x380,
  e4m3x2 = 0x910, e5m2x2 = 0xA10, /* two FP8 values in 16 bits (cvt only) */
  __cuemu_tf32 = 0xB20 /* an .f32 of 19 significant bits (cvt and mma only) */
};

constexpr int width(int t) { return t & 0xff; }
constexpr int kind(int t) { return t >> 8; }
constexpr bool is_float(int t) { return kind(t) == k_f; }
/* The 16-bit floating-point types: f16, bf16 and their pairs. */
constexpr bool is_half(int t) {
  return t == f16 || kind(t) == k_bf || kind(t) == k_f16x2 || kind(t) == k_bf16x2;
}
/* Any floating-point type. */
constexpr bool is_fp(int t) { return is_float(t) || is_half(t); }
constexpr bool is_signed(int t) { return kind(t) == k_s; }
constexpr bool is_int(int t) {
  return kind(t) == k_u || kind(t) == k_s || kind(t) == k_b;
}

/* Modifier X is among M. */
template <int X_, int... M_> constexpr bool has = ((M_ == X_) || ... || false);

/* The n-th type among M (0 when there is none). */
template <int... M_> constexpr int type_n(int n) {
  const int all[] = {0, M_...};
  for (unsigned __cuemu_i = 1; __cuemu_i < sizeof all / sizeof all[0]; ++__cuemu_i)
    if (all[__cuemu_i] >= 0x100 && n-- == 0) return all[__cuemu_i];
  return 0;
}

/* ---- Bits ---------------------------------------------------------------- */

constexpr reg mask(int __cuemu_bits) { return __cuemu_bits >= 64 ? ~0ULL : (1ULL << __cuemu_bits) - 1; }

/* The register's value as the unsigned or signed integer of `bits` bits. */
constexpr reg zx(reg v, int __cuemu_bits) { return v & mask(__cuemu_bits); }
constexpr long long sx(reg v, int __cuemu_bits) {
  return __cuemu_bits >= 64 ? static_cast<long long>(v)
                    : static_cast<long long>((v & mask(__cuemu_bits)) ^ (1ULL << (__cuemu_bits - 1))) -
                          static_cast<long long>(1ULL << (__cuemu_bits - 1));
}

/* A result of type T as register bits: zero-extended, or sign-extended for
 * signed types narrower than 32 bits. */
template <int T> constexpr reg result(reg v) {
  if constexpr (kind(T) == k_pred) return v != 0;
  else if constexpr (kind(T) == k_s && width(T) < 32)
    return static_cast<reg>(sx(v, width(T))) & mask(32);
  else return zx(v, width(T));
}

inline float as_f32(reg v) { return cuemu_bits_float(static_cast<uint32_t>(v)); }
inline double as_f64(reg v) { return cuemu_bits_double(v); }
inline reg bits_of(float f) { return cuemu_float_bits(f); }
inline reg bits_of(double d) { return cuemu_double_bits(d); }

/* A decimal floating-point literal as the bits of the instruction's type. */
template <int T> inline reg fimm(double v) {
  if constexpr (T == f64) return bits_of(v);
  else if constexpr (T == f16) return cuemu_nf_from_double(v, cuemu_nf_binary16, CUEMU_ROUND_RN);
  else if constexpr (T == bf16) return cuemu_nf_from_double(v, cuemu_nf_bfloat16, CUEMU_ROUND_RN);
  else if constexpr (is_float(T)) return bits_of(static_cast<float>(v));
  else return static_cast<reg>(static_cast<long long>(v));
}

/* ---- Operands ------------------------------------------------------------
 *
 * A constraint's register width: h 16, r and f 32, l, d and n 64. Integers
 * convert by value, arrays to their address (as pointers do);
 * floating-point variables under "f"/"d" convert by value to float/double;
 * other types (a float under "r", __half under "h", a struct) are copied
 * bit for bit. An operand is taken by value, as the asm statement reads
 * it: a reference would odr-use a host constexpr variable named as an
 * operand, which nvcc accepts and cuemu's device-space check refuses in
 * a reference binding. */

constexpr int constraint_bits(char c) {
  return c == 'h' ? 16 : (c == 'r' || c == 'f') ? 32 : 64;
}

template <char C_, typename T> inline reg in(T v) {
  constexpr int w = constraint_bits(C_);
  if constexpr (std::is_array<T>::value) {
    /* An array stands for its first element's address, as in C++. */
    return in<C_>(static_cast<const std::remove_extent_t<T> *>(v));
  } else if constexpr (std::is_pointer<T>::value) {
    return zx(static_cast<reg>(reinterpret_cast<uintptr_t>(v)), w);
  } else if constexpr (C_ == 'f' && std::is_arithmetic<T>::value) {
    return bits_of(static_cast<float>(v));
  } else if constexpr (C_ == 'd' && std::is_arithmetic<T>::value) {
    return bits_of(static_cast<double>(v));
  } else if constexpr (std::is_integral<T>::value || std::is_enum<T>::value) {
    return zx(static_cast<reg>(v), w);
  } else {
    static_assert(std::is_trivially_copyable<T>::value,
                  "inline PTX: an operand must be trivially copyable");
    /* Also a __restrict pointer, which clang++'s std::is_pointer does not
     * match (the toolkit's cuda_pipeline_helpers.h passes one): its bits are
     * its address. The C-style cast drops the restrict qualifier, which
     * clang++ will not drop implicitly. */
    reg __cuemu_bits = 0;
    std::memcpy(&__cuemu_bits, (const void *)&v, sizeof(T) < sizeof __cuemu_bits ? sizeof(T) : sizeof __cuemu_bits);
    return zx(__cuemu_bits, w);
  }
}

template <char C_, typename T> inline void __cuemu_out(T &lv, reg __cuemu_bits) {
  constexpr int w = constraint_bits(C_);
  __cuemu_bits = zx(__cuemu_bits, w);
  if constexpr (std::is_pointer<T>::value) {
    lv = reinterpret_cast<T>(static_cast<uintptr_t>(__cuemu_bits));
  } else if constexpr (C_ == 'f' && std::is_arithmetic<T>::value) {
    lv = static_cast<T>(as_f32(__cuemu_bits));
  } else if constexpr (C_ == 'd' && std::is_arithmetic<T>::value) {
    lv = static_cast<T>(as_f64(__cuemu_bits));
  } else if constexpr (std::is_integral<T>::value || std::is_enum<T>::value) {
    lv = static_cast<T>(__cuemu_bits);
  } else {
    static_assert(std::is_trivially_copyable<T>::value,
                  "inline PTX: an operand must be trivially copyable");
    std::memcpy(static_cast<void *>(&lv), &__cuemu_bits,
                sizeof(T) < sizeof __cuemu_bits ? sizeof(T) : sizeof __cuemu_bits);
  }
}

/* The "q" constraint: a 128-bit operand (__int128 or any 16-byte object),
 * bit for bit; a narrower one is zero-extended. */
template <typename T> inline wide inq(const T &v) {
  static_assert(std::is_trivially_copyable<T>::value,
                "inline PTX: an operand must be trivially copyable");
  wide __cuemu_bits = 0;
  std::memcpy(&__cuemu_bits, &v, sizeof(T) < sizeof __cuemu_bits ? sizeof(T) : sizeof __cuemu_bits);
  return __cuemu_bits;
}
template <typename T> inline void outq(T &lv, wide __cuemu_bits) {
  static_assert(std::is_trivially_copyable<T>::value,
                "inline PTX: an operand must be trivially copyable");
  std::memcpy(static_cast<void *>(&lv), &__cuemu_bits, sizeof(T) < sizeof __cuemu_bits ? sizeof(T) : sizeof __cuemu_bits);
}

/* ---- Special registers --------------------------------------------------- */

/* The thread's linear index in its block (x fastest), as warps are made. */
inline unsigned linear_tid() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
inline reg sreg_laneid() { return linear_tid() & 31u; }
inline reg sreg_warpid() { return linear_tid() >> 5; }
/* The most warps an SM of the emulated device holds (sm_90: 64). */
inline reg sreg_nwarpid() { return 64; }
inline reg sreg_nsmid() {
  long long sms = 0;
  return cuemu_device_get_property("multiProcessorCount", &sms) == 0 && sms > 0
             ? static_cast<reg>(sms)
             : 1;
}
/* The SM a block runs on: blocks are dealt to SMs in order. */
inline reg sreg_smid() {
  const reg __cuemu_block = blockIdx.x + static_cast<reg>(gridDim.x) *
                                     (blockIdx.y + static_cast<reg>(gridDim.y) * blockIdx.z);
  return __cuemu_block % sreg_nsmid();
}
/* The cluster registers: %cluster_nctaid (which = 0..2: x, y, z),
 * %cluster_ctaid, %clusterid, %nclusterid, %cluster_ctarank and
 * %cluster_nctarank, from the launch's cluster shape ((1,1,1) without
 * clusters: every block is a cluster of one). */
inline reg sreg_cluster_nctaid(int which) {
  const cuemu_uint3 d = cuemu_cluster_dims();
  return which == 0 ? d.x : which == 1 ? d.y : d.z;
}
inline reg sreg_cluster_ctaid(int which) {
  const unsigned b[] = {blockIdx.x, blockIdx.y, blockIdx.z};
  return b[which] % sreg_cluster_nctaid(which);
}
inline reg sreg_clusterid(int which) {
  const unsigned b[] = {blockIdx.x, blockIdx.y, blockIdx.z};
  return b[which] / sreg_cluster_nctaid(which);
}
inline reg sreg_nclusterid(int which) {
  const unsigned __cuemu_g[] = {gridDim.x, gridDim.y, gridDim.z};
  return __cuemu_g[which] / sreg_cluster_nctaid(which);
}
inline reg sreg_cluster_nctarank() {
  return sreg_cluster_nctaid(0) * sreg_cluster_nctaid(1) * sreg_cluster_nctaid(2);
}
inline reg sreg_cluster_ctarank() {
  return (sreg_cluster_ctaid(2) * sreg_cluster_nctaid(1) + sreg_cluster_ctaid(1)) *
             sreg_cluster_nctaid(0) +
         sreg_cluster_ctaid(0);
}

/* %lanemask_eq, _lt, _le, _gt, _ge (which = 0..4). */
inline reg sreg_lanemask(int which) {
  const unsigned __cuemu_lane = static_cast<unsigned>(sreg_laneid());
  const unsigned eq = 1u << __cuemu_lane, lt = eq - 1u, le = lt | eq;
  const unsigned masks[] = {eq, lt, le, ~le, ~lt};
  return masks[which];
}
inline reg sreg_clock64() { return static_cast<reg>(cuemu_clock64()); }
inline reg sreg_clock() { return sreg_clock64() & 0xffffffffULL; }
inline reg sreg_clock_hi() { return sreg_clock64() >> 32; }
inline reg sreg_globaltimer() { return cuemu_globaltimer(); }

/* ---- Moves --------------------------------------------------------------- */

template <int... M_> inline void mov(reg &d, reg a) {
  d = result<type_n<M_...>(0)>(a);
}

/* mov.bN d, {a, b, ...}: the parts, lowest first. */
template <int... M_, typename... P_> inline void pack(reg &d, P_... parts) {
  constexpr int n = sizeof...(P_), w = width(type_n<M_...>(0)) / n;
  const reg all[] = {static_cast<reg>(parts)...};
  reg v = 0;
  for (int __cuemu_i = 0; __cuemu_i < n; ++__cuemu_i) v |= zx(all[__cuemu_i], w) << (__cuemu_i * w);
  d = v;
}

/* mov.bN {a, b, ...}, s. */
template <int... M_, typename... P_> inline void unpack(reg s, P_ &...parts) {
  constexpr int n = sizeof...(P_), w = width(type_n<M_...>(0)) / n;
  int __cuemu_i = 0;
  ((parts = zx(s >> (w * __cuemu_i++), w)), ...);
}

/* The .b128 moves: a copy, mov.b128 d, {lo, hi} and mov.b128 {lo, hi}, s
 * (two 64-bit halves, lowest first). */
template <int... M_> inline void mov(wide &d, wide a) { d = a; }
template <int... M_> inline void pack(wide &d, reg lo, reg hi) {
  d = (static_cast<wide>(hi) << 64) | lo;
}
template <int... M_> inline void unpack(wide s, reg &lo, reg &hi) {
  lo = static_cast<reg>(s);
  hi = static_cast<reg>(s >> 64);
}

/* cvta between generic addresses and those of the global, local, const
 * and param spaces: one flat memory, an identity. */
template <int... M_> inline void cvta(reg &d, reg a) {
  d = result<type_n<M_...>(0)>(a);
}

/* isspacep.space p, a: whether generic address a is in the state space
 * (libcuemu's cuemu_address_space(), as __isGlobal() and the others ask);
 * the param space is that of the kernel's parameters. */
template <int __cuemu_Space> inline void __cuemu_isspacep(reg &p, reg a) {
  p = cuemu_address_space(reinterpret_cast<const void *>(a)) == __cuemu_Space;
}
template <int... M_> inline void __cuemu_isspacep_global(reg &p, reg a) {
  __cuemu_isspacep<CUEMU_SPACE_GLOBAL>(p, a);
}
template <int... M_> inline void __cuemu_isspacep_shared(reg &p, reg a) {
  __cuemu_isspacep<CUEMU_SPACE_SHARED>(p, a);
}
template <int... M_> inline void __cuemu_isspacep_local(reg &p, reg a) {
  __cuemu_isspacep<CUEMU_SPACE_LOCAL>(p, a);
}
template <int... M_> inline void __cuemu_isspacep_const(reg &p, reg a) {
  __cuemu_isspacep<CUEMU_SPACE_CONSTANT>(p, a);
}
template <int... M_> inline void __cuemu_isspacep_param(reg &p, reg a) {
  __cuemu_isspacep<CUEMU_SPACE_GRID_CONSTANT>(p, a);
}

/* The shared state space has addresses of its own, as on a GPU (32 bits,
 * never 0; cuemu_device.h's shared window): cvta.to.shared makes one from a
 * generic address, cvta.shared turns one back, and a .shared access goes
 * through shared_at(). A generic address at or above 4 GiB given to a
 * .shared access is taken as it is (a GPU would fault; code that mixes the
 * two is wrong but found working here); below 4 GiB it is a shared
 * address. */
inline reg shared_at(reg a) {
  return (a >> 32) ? a : reinterpret_cast<reg>(cuemu_shared_generic(a));
}
template <int... M_> inline void cvta_to_shared(reg &d, reg a) {
  d = result<type_n<M_...>(0)>(cuemu_shared_address(reinterpret_cast<const void *>(a)));
}
template <int... M_> inline void cvta_shared(reg &d, reg a) {
  d = result<type_n<M_...>(0)>(shared_at(a));
}

} // namespace ptx
} // namespace cuemu

#endif /* CUEMU_PTX_BASE_H */

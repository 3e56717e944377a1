/*
 * cuemu_ptx_tensor.h: the tensor copies of the Tensor Memory Accelerator
 * (TMA) for inline PTX (see cuemu_ptx.h): cp.async.bulk.tensor in tile
 * mode, 1d to 5d, global to shared memory (with the complete-tx of the
 * box's bytes on an mbarrier, and multicast to the blocks of a cluster)
 * and shared to global memory (bulk groups), and cp.reduce.async.bulk.tensor
 * (the reductions of a box into global memory). They read the CUtensorMap
 * that cuTensorMapEncodeTiled wrote (cuemu_driver_tensor_map_api.h): its
 * data type, rank, global address, dimensions and strides, box, element
 * strides, swizzle and out-of-bounds fill. As the bulk copies, a tensor
 * copy is done at once by the thread that issues it. Part of cuemu_ptx.h.
 */
#ifndef CUEMU_PTX_TENSOR_H
#define CUEMU_PTX_TENSOR_H
#pragma GCC system_header

#include "cuemu_narrow_float_ops.h"
#include "cuemu_ptx_sync.h"

#include <cstring>

namespace cuemu {
namespace ptx {

/* ---- The tensor map --------------------------------------------------------
 *
 * The words of a map as cuTensorMapEncode* writes them: 0 the tag, 1 the
 * global address, 2 the kind (bits 7..0: 1 tiled, 2 im2col, 3 im2col wide),
 * data type (15..8), rank (23..16), interleave (31..24), swizzle (39..32),
 * L2 promotion (47..40) and fill (55..48); 3..7 the dimensions; 8..11 the
 * strides in bytes of dimensions 1..4; 12..13 the box sides (16 bits
 * each); 14 the element strides (8 bits each). */
constexpr reg __cuemu_tmap_tag = 0x70614d726f736e54ull; /* "TnsorMap" */

struct __cuemu_tmap_view {
  reg base;
  int kind, type, rank, __cuemu_swizzle, __cuemu_nan_fill;
  unsigned __cuemu_esize; /* bytes of one element */
  long long dim[5];       /* elements */
  reg __cuemu_stride[5];  /* bytes; stride[0] is the element's size */
  unsigned __cuemu_box[5], __cuemu_step[5]; /* box sides and element strides */
  unsigned count[5]; /* elements of the box traversed: ceil(box / step) */
};

/* The end of a launch for a tensor copy that cannot be done, naming it. */
[[noreturn]] inline void __cuemu_tensor_fail(const char *__cuemu_why,
                                             const char *file, int line) {
  cuemu_kernel_assert_fail(__cuemu_why, file, line, "cp.async.bulk.tensor");
}

/* The global memory a tensor copy or reduction reads (__cuemu_write 0) or writes
 * (__cuemu_write 1): in a checked build, told to the checkers (memcheck sees an
 * access outside an allocation), from the code that made it (the return
 * address gives its source line); nothing otherwise. */
#if defined(CUEMU_CHECKED_BUILD)
__attribute__((noinline, no_sanitize("thread", "bounds"))) inline void
__cuemu_tensor_global(reg __cuemu_g, unsigned __cuemu_n, int __cuemu_write) {
  cuemu_check_access(reinterpret_cast<const void *>(__cuemu_g), __cuemu_n,
                     (__cuemu_write ? CUEMU_CHECK_FAST_WRITE : CUEMU_CHECK_FAST_READ) |
                         CUEMU_CHECK_FAST_RANGE,
                     __builtin_return_address(0));
}
#else
inline void __cuemu_tensor_global(reg, unsigned, int) {}
#endif

/* The map at `address` (a generic address: a __grid_constant__ parameter,
 * constant or global memory), checked: one that cuTensorMapEncodeTiled
 * made, of the rank the instruction names, of a type and swizzle that
 * sm_90 has. */
inline __cuemu_tmap_view __cuemu_tmap_read(reg address, int __cuemu_rank,
                                           const char *file, int line) {
  if (address % 64)
    __cuemu_tensor_fail("cp.async.bulk.tensor: the tensor map's address must "
                        "be 64-byte aligned",
                        file, line);
  const reg *__cuemu_w = reinterpret_cast<const reg *>(address);
  if (__cuemu_w[0] != __cuemu_tmap_tag)
    __cuemu_tensor_fail(
        "cp.async.bulk.tensor: not a tensor map made by cuTensorMapEncode*",
        file, line);
  __cuemu_tmap_view __cuemu_v;
  const reg __cuemu_layout = __cuemu_w[2];
  __cuemu_v.base = __cuemu_w[1];
  __cuemu_v.kind = static_cast<int>(__cuemu_layout & 0xff);
  __cuemu_v.type = static_cast<int>((__cuemu_layout >> 8) & 0xff);
  __cuemu_v.rank = static_cast<int>((__cuemu_layout >> 16) & 0xff);
  __cuemu_v.__cuemu_swizzle = static_cast<int>((__cuemu_layout >> 32) & 0xff);
  __cuemu_v.__cuemu_nan_fill =
      static_cast<int>((__cuemu_layout >> 48) & 0xff) != 0;
  if (__cuemu_v.kind != 1)
    __cuemu_tensor_fail("cp.async.bulk.tensor: the tile mode needs a map of "
                        "cuTensorMapEncodeTiled "
                        "(im2col maps are not emulated)",
                        file, line);
  if (__cuemu_v.rank != __cuemu_rank)
    __cuemu_tensor_fail("cp.async.bulk.tensor: the instruction's dimension is "
                        "not the map's rank",
                        file, line);
  /* The packed 4- and 6-bit types and the 128-byte swizzles of 32- and
   * 64-byte atoms are sm_100's. */
  if (__cuemu_v.type > 12 || __cuemu_v.__cuemu_swizzle > 3)
    __cuemu_tensor_fail("cp.async.bulk.tensor: the map's packed data type or "
                        "swizzle atom is not "
                        "emulated (sm_100)",
                        file, line);
  static const unsigned char __cuemu_bytes[] = {1, 2, 4, 4, 8, 8, 2,
                                                4, 8, 2, 4, 4, 4};
  __cuemu_v.__cuemu_esize = __cuemu_bytes[__cuemu_v.type];
  for (int __cuemu_i = 0; __cuemu_i < 5; ++__cuemu_i) {
    const bool __cuemu_in = __cuemu_i < __cuemu_v.rank;
    __cuemu_v.dim[__cuemu_i] =
        __cuemu_in ? static_cast<long long>(__cuemu_w[3 + __cuemu_i]) : 1;
    __cuemu_v.__cuemu_stride[__cuemu_i] =
        __cuemu_i == 0 ? __cuemu_v.__cuemu_esize
        : __cuemu_in   ? __cuemu_w[8 + __cuemu_i - 1]
                       : 0;
    __cuemu_v.__cuemu_box[__cuemu_i] =
        __cuemu_in ? static_cast<unsigned>((__cuemu_w[12 + __cuemu_i / 4] >>
                                            (16 * (__cuemu_i % 4))) &
                                           0xffff)
                   : 1;
    __cuemu_v.__cuemu_step[__cuemu_i] =
        __cuemu_in
            ? static_cast<unsigned>((__cuemu_w[14] >> (8 * __cuemu_i)) & 0xff)
            : 1;
    __cuemu_v.count[__cuemu_i] = (__cuemu_v.__cuemu_box[__cuemu_i] +
                                  __cuemu_v.__cuemu_step[__cuemu_i] - 1) /
                                 __cuemu_v.__cuemu_step[__cuemu_i];
  }
  return __cuemu_v;
}

/* The bytes of a box in shared memory: its rows (the traversed elements of
 * dimension 0) rounded up to whole 16 bytes, one after the other in the
 * order of the outer dimensions. This is also the transaction count a
 * load completes on its mbarrier, out-of-bounds elements included. */
inline reg __cuemu_tmap_row_bytes(const __cuemu_tmap_view &__cuemu_v) {
  return (static_cast<reg>(__cuemu_v.count[0]) * __cuemu_v.__cuemu_esize + 15) &
         ~15ull;
}
inline reg __cuemu_tmap_box_bytes(const __cuemu_tmap_view &__cuemu_v) {
  return __cuemu_tmap_row_bytes(__cuemu_v) * __cuemu_v.count[1] *
         __cuemu_v.count[2] * __cuemu_v.count[3] * __cuemu_v.count[4];
}

/* The swizzle of a shared-memory address, as the TMA unit applies it: the
 * 16-byte chunk (address bits 6..4) is XORed with the 128-byte row (bits
 * 9..7), one bit of it for the 32-byte swizzle, two for the 64-byte one,
 * three for the 128-byte one (CuTe's Swizzle<1,4,3>, <2,4,3>, <3,4,3>).
 * The pattern is of the address, so a box at an address aligned to its
 * repeat (256, 512, 1024 bytes) starts at the pattern's start; shared
 * addresses and the generic ones here agree in these bits. */
inline reg __cuemu_tmap_swizzle(reg address, int __cuemu_swizzle) {
  if (!__cuemu_swizzle)
    return address;
  const reg __cuemu_bits = (1ull << __cuemu_swizzle) - 1;
  return address ^ (((address >> 7) & __cuemu_bits) << 4);
}

/* The fill of `n` bytes of out-of-bounds elements: zeros, or with
 * CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA a NaN of the
 * floating-point type in each (a quiet NaN with every other bit set). */
inline void __cuemu_tmap_fill(unsigned char *__cuemu_to, unsigned __cuemu_n,
                              const __cuemu_tmap_view &__cuemu_v) {
  if (!__cuemu_v.__cuemu_nan_fill) {
    std::memset(__cuemu_to, 0, __cuemu_n);
    return;
  }
  std::memset(__cuemu_to, 0xff, __cuemu_n);
  for (unsigned __cuemu_i = __cuemu_v.__cuemu_esize - 1; __cuemu_i < __cuemu_n;
       __cuemu_i += __cuemu_v.__cuemu_esize)
    __cuemu_to[__cuemu_i] = 0x7f;
}

/* Calls f(shared address, global address or 0 when out of bounds, bytes)
 * for the elements of the box whose first element is at coordinates `c`
 * (elements, signed) and whose shared copy starts at `smem`, in runs: the
 * elements of one 16-byte chunk of shared memory (which the swizzle moves
 * whole) that are contiguous in global memory and all in or all out of
 * bounds, else one element at a time. */
template <typename __cuemu_F>
inline void __cuemu_tmap_walk(const __cuemu_tmap_view &__cuemu_v,
                              reg __cuemu_smem, const int *__cuemu_c,
                              __cuemu_F f) {
  const reg __cuemu_row = __cuemu_tmap_row_bytes(__cuemu_v);
  const unsigned __cuemu_es = __cuemu_v.__cuemu_esize;
  const long long __cuemu_step0 = __cuemu_v.__cuemu_step[0];
  reg __cuemu_r = 0;
  for (unsigned __cuemu_j4 = 0; __cuemu_j4 < __cuemu_v.count[4]; ++__cuemu_j4)
    for (unsigned __cuemu_j3 = 0; __cuemu_j3 < __cuemu_v.count[3]; ++__cuemu_j3)
      for (unsigned __cuemu_j2 = 0; __cuemu_j2 < __cuemu_v.count[2];
           ++__cuemu_j2)
        for (unsigned __cuemu_j1 = 0; __cuemu_j1 < __cuemu_v.count[1];
             ++__cuemu_j1, ++__cuemu_r) {
          const unsigned __cuemu_j[5] = {0, __cuemu_j1, __cuemu_j2, __cuemu_j3,
                                         __cuemu_j4};
          bool __cuemu_inside = true;
          reg __cuemu_at = __cuemu_v.base;
          for (int __cuemu_i = 1; __cuemu_i < 5; ++__cuemu_i) {
            const long long __cuemu_x =
                static_cast<long long>(__cuemu_c[__cuemu_i]) +
                static_cast<long long>(__cuemu_j[__cuemu_i]) *
                    __cuemu_v.__cuemu_step[__cuemu_i];
            __cuemu_inside = __cuemu_inside && __cuemu_x >= 0 &&
                             __cuemu_x < __cuemu_v.dim[__cuemu_i];
            __cuemu_at += static_cast<reg>(__cuemu_x) *
                          __cuemu_v.__cuemu_stride[__cuemu_i];
          }
          const reg __cuemu_line = __cuemu_smem + __cuemu_r * __cuemu_row;
          for (unsigned __cuemu_j0 = 0; __cuemu_j0 < __cuemu_v.count[0];) {
            const reg __cuemu_off = static_cast<reg>(__cuemu_j0) * __cuemu_es;
            /* The elements left in this 16-byte chunk (rows start at whole
             * chunks; an element never straddles one). */
            unsigned __cuemu_n =
                static_cast<unsigned>((16 - __cuemu_off % 16) / __cuemu_es);
            if (__cuemu_n > __cuemu_v.count[0] - __cuemu_j0)
              __cuemu_n = __cuemu_v.count[0] - __cuemu_j0;
            const long long __cuemu_x0 = static_cast<long long>(__cuemu_c[0]) +
                                         __cuemu_j0 * __cuemu_step0;
            const long long __cuemu_xn =
                __cuemu_x0 + (__cuemu_n - 1) * __cuemu_step0;
            const bool __cuemu_all_in = __cuemu_inside && __cuemu_x0 >= 0 &&
                                        __cuemu_xn < __cuemu_v.dim[0];
            const bool __cuemu_all_out = !__cuemu_inside || __cuemu_xn < 0 ||
                                         __cuemu_x0 >= __cuemu_v.dim[0];
            const reg __cuemu_s = __cuemu_tmap_swizzle(
                __cuemu_line + __cuemu_off, __cuemu_v.__cuemu_swizzle);
            if (__cuemu_all_out) {
              f(__cuemu_s, 0, __cuemu_n * __cuemu_es);
            } else if (__cuemu_all_in && __cuemu_step0 == 1) {
              f(__cuemu_s,
                __cuemu_at + static_cast<reg>(__cuemu_x0) * __cuemu_es,
                __cuemu_n * __cuemu_es);
            } else {
              __cuemu_n = 1;
              const bool __cuemu_in = __cuemu_inside && __cuemu_x0 >= 0 &&
                                      __cuemu_x0 < __cuemu_v.dim[0];
              f(__cuemu_s,
                __cuemu_in
                    ? __cuemu_at + static_cast<reg>(__cuemu_x0) * __cuemu_es
                    : 0,
                __cuemu_es);
            }
            __cuemu_j0 += __cuemu_n;
          }
        }
}

/* The shared-memory address of a tensor copy: a shared address (or a
 * generic one), 128-byte aligned as the ISA requires. */
inline reg __cuemu_tensor_smem(reg address, const char *file, int line) {
  address = shared_at(address);
  if (address % 128)
    __cuemu_tensor_fail("cp.async.bulk.tensor: the shared-memory address must "
                        "be 128-byte aligned",
                        file, line);
  return address;
}

/* One box from global memory into the shared memory at `smem`. */
inline void __cuemu_tensor_load_box(const __cuemu_tmap_view &__cuemu_v,
                                    reg __cuemu_smem, const int *__cuemu_c) {
  __cuemu_tmap_walk(__cuemu_v, __cuemu_smem, __cuemu_c,
                    [&](reg __cuemu_s, reg __cuemu_g, unsigned __cuemu_n) {
                      unsigned char *__cuemu_to =
                          reinterpret_cast<unsigned char *>(__cuemu_s);
                      if (__cuemu_g)
                        __cuemu_tensor_global(__cuemu_g, __cuemu_n, 0);
                      if (__cuemu_g)
                        std::memcpy(__cuemu_to,
                                    reinterpret_cast<const void *>(__cuemu_g),
                                    __cuemu_n);
                      else
                        __cuemu_tmap_fill(__cuemu_to, __cuemu_n, __cuemu_v);
                    });
}

/* The address in the shared memory of the cluster's block of rank `rank`
 * that corresponds to `address` in the caller's (its own for its own rank,
 * so that a launch without clusters, a cluster of one, needs no more). */
inline reg __cuemu_cluster_shared(reg address, unsigned __cuemu_rank,
                                  const char *file, int line) {
  if (__cuemu_rank == sreg_cluster_ctarank())
    return address;
  return reinterpret_cast<reg>(cuemu_cluster_map_shared(
      reinterpret_cast<const void *>(address), __cuemu_rank, file, line));
}

/* mapa{.shared::cluster}.{u32,u64} d, a, rank: the address in the block of
 * rank `rank` of the object at `a` in the caller's (a generic address, or
 * with .shared::cluster a shared one: such addresses reach the other
 * block's shared memory through the caller's windows). getctarank: the
 * rank of the block whose shared memory holds `a`. */
template <int... M_>
inline void __cuemu_mapa(reg &d, reg a, reg __cuemu_rank, const char *file,
                         int line) {
  d = result<type_n<M_...>(0)>(__cuemu_cluster_shared(
      a, static_cast<unsigned>(__cuemu_rank), file, line));
}
template <int... M_>
inline void __cuemu_mapa_shared(reg &d, reg a, reg __cuemu_rank,
                                const char *file, int line) {
  const reg __cuemu_at = __cuemu_cluster_shared(
      shared_at(a), static_cast<unsigned>(__cuemu_rank), file, line);
  d = result<type_n<M_...>(0)>(
      cuemu_shared_address(reinterpret_cast<const void *>(__cuemu_at)));
}
template <int... M_> inline void __cuemu_getctarank(reg &d, reg a) {
  d = result<type_n<M_...>(0)>(
      cuemu_cluster_query_shared_rank(reinterpret_cast<const void *>(a)));
}
template <int... M_> inline void __cuemu_getctarank_shared(reg &d, reg a) {
  __cuemu_getctarank<M_...>(d, shared_at(a));
}

/* cp.async.bulk.tensor.Nd.shared::{cluster,cta}.global.tile
 * .mbarrier::complete_tx::bytes{.multicast::cluster} [dst], [map, {c...}],
 * [mbar]{, ctaMask}: the box, then the complete-tx of its bytes on the
 * mbarrier. With multicast (`cta_mask` not ~0), the box goes to the same
 * offset in the shared memory of each block of the cluster whose rank's bit
 * is set, and the complete-tx to the mbarrier at the same offset in each. */
template <int __cuemu_N_, typename... __cuemu_C_>
inline void __cuemu_tensor_g2s(reg dst, reg __cuemu_map, reg mbar,
                               reg __cuemu_cta_mask, const char *file, int line,
                               __cuemu_C_... __cuemu_coords) {
  const int __cuemu_c[5] = {
      static_cast<int>(static_cast<unsigned>(__cuemu_coords))...};
  const __cuemu_tmap_view __cuemu_v =
      __cuemu_tmap_read(__cuemu_map, __cuemu_N_, file, line);
  dst = __cuemu_tensor_smem(dst, file, line);
  mbar = shared_at(mbar);
  const reg __cuemu_bytes = __cuemu_tmap_box_bytes(__cuemu_v);
  if (__cuemu_cta_mask == ~0ull) {
    __cuemu_tensor_load_box(__cuemu_v, dst, __cuemu_c);
    mbar_complete_tx<>(mbar, __cuemu_bytes);
    return;
  }
  for (unsigned __cuemu_rank = 0; __cuemu_rank < 16; ++__cuemu_rank) {
    if (!((__cuemu_cta_mask >> __cuemu_rank) & 1))
      continue;
    const reg __cuemu_to =
        __cuemu_cluster_shared(dst, __cuemu_rank, file, line);
    const reg __cuemu_bar =
        __cuemu_cluster_shared(mbar, __cuemu_rank, file, line);
    __cuemu_tensor_load_box(__cuemu_v, __cuemu_to, __cuemu_c);
    mbar_complete_tx<>(__cuemu_bar, __cuemu_bytes);
  }
}

/* cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
 * .multicast::cluster [dst], [src], size, [mbar], ctaMask: the bytes go to
 * the same offset in the shared memory of each block of the cluster whose
 * rank's bit is set, with the complete-tx on the mbarrier at the same
 * offset in each. */
inline void __cuemu_bulk_g2s_multicast(reg dst, reg src, reg size, reg mbar,
                                       reg __cuemu_cta_mask, const char *file,
                                       int line) {
  dst = shared_at(dst);
  mbar = shared_at(mbar);
  bulk_check(dst, src, size, file, line);
  for (unsigned __cuemu_rank = 0; __cuemu_rank < 16; ++__cuemu_rank) {
    if (!((__cuemu_cta_mask >> __cuemu_rank) & 1))
      continue;
    const reg __cuemu_to =
        __cuemu_cluster_shared(dst, __cuemu_rank, file, line);
    std::memcpy(reinterpret_cast<void *>(__cuemu_to),
                reinterpret_cast<const void *>(src), static_cast<size_t>(size));
    mbar_complete_tx<>(__cuemu_cluster_shared(mbar, __cuemu_rank, file, line),
                       size);
  }
}

/* cp.async.bulk.tensor.Nd.global.shared::cta.tile.bulk_group [map, {c...}],
 * [src]: the box from shared memory into global memory; elements out of
 * the tensor's bounds are not written. */
template <int __cuemu_N_, typename... __cuemu_C_>
inline void __cuemu_tensor_s2g(reg __cuemu_map, reg src, const char *file,
                               int line, __cuemu_C_... __cuemu_coords) {
  const int __cuemu_c[5] = {
      static_cast<int>(static_cast<unsigned>(__cuemu_coords))...};
  const __cuemu_tmap_view __cuemu_v =
      __cuemu_tmap_read(__cuemu_map, __cuemu_N_, file, line);
  src = __cuemu_tensor_smem(src, file, line);
  __cuemu_tmap_walk(__cuemu_v, src, __cuemu_c,
                    [&](reg __cuemu_s, reg __cuemu_g, unsigned __cuemu_n) {
                      if (__cuemu_g)
                        __cuemu_tensor_global(__cuemu_g, __cuemu_n, 1);
                      if (__cuemu_g)
                        std::memcpy(reinterpret_cast<void *>(__cuemu_g),
                                    reinterpret_cast<const void *>(__cuemu_s),
                                    __cuemu_n);
                    });
}

/* One reduction of an element of the map's type into global memory (an
 * atomic operation, as other blocks may reduce into the same element). */
template <int __cuemu_Op_, typename __cuemu_T_>
inline __cuemu_T_ __cuemu_tensor_combine(__cuemu_T_ __cuemu_old,
                                         __cuemu_T_ __cuemu_new) {
  if constexpr (__cuemu_Op_ == m_add)
    return static_cast<__cuemu_T_>(__cuemu_old + __cuemu_new);
  else if constexpr (__cuemu_Op_ == m_min)
    return __cuemu_new < __cuemu_old ? __cuemu_new : __cuemu_old;
  else if constexpr (__cuemu_Op_ == m_max)
    return __cuemu_new > __cuemu_old ? __cuemu_new : __cuemu_old;
  else if constexpr (__cuemu_Op_ == m_inc)
    return __cuemu_old >= __cuemu_new
               ? __cuemu_T_(0)
               : static_cast<__cuemu_T_>(__cuemu_old + 1);
  else if constexpr (__cuemu_Op_ == m_dec)
    return (__cuemu_old == 0 || __cuemu_old > __cuemu_new)
               ? __cuemu_new
               : static_cast<__cuemu_T_>(__cuemu_old - 1);
  else if constexpr (__cuemu_Op_ == m_and)
    return __cuemu_old & __cuemu_new;
  else if constexpr (__cuemu_Op_ == m_or)
    return __cuemu_old | __cuemu_new;
  else
    return __cuemu_old ^ __cuemu_new;
}
template <int __cuemu_Op_, typename __cuemu_T_>
inline void __cuemu_tensor_reduce_one(reg __cuemu_g, reg __cuemu_s) {
  __cuemu_T_ __cuemu_new;
  std::memcpy(&__cuemu_new, reinterpret_cast<const void *>(__cuemu_s),
              sizeof __cuemu_new);
  cuemu_atomic_update(reinterpret_cast<__cuemu_T_ *>(__cuemu_g),
                      [&](__cuemu_T_ __cuemu_old) {
                        return __cuemu_tensor_combine<__cuemu_Op_, __cuemu_T_>(
                            __cuemu_old, __cuemu_new);
                      });
}
/* A floating-point sum, through the bits of its width. */
template <typename __cuemu_F_, typename __cuemu_U_>
inline void __cuemu_tensor_add_float(reg __cuemu_g, reg __cuemu_s) {
  __cuemu_F_ __cuemu_new;
  std::memcpy(&__cuemu_new, reinterpret_cast<const void *>(__cuemu_s),
              sizeof __cuemu_new);
  cuemu_atomic_update(
      reinterpret_cast<__cuemu_U_ *>(__cuemu_g), [&](__cuemu_U_ __cuemu_bits) {
        __cuemu_F_ __cuemu_old;
        std::memcpy(&__cuemu_old, &__cuemu_bits, sizeof __cuemu_old);
        __cuemu_old += __cuemu_new;
        std::memcpy(&__cuemu_bits, &__cuemu_old, sizeof __cuemu_bits);
        return __cuemu_bits;
      });
}

/* A 16-bit floating-point reduction (.f16, .bf16: .add, .min, .max),
 * through the bits: the exact result, rounded to nearest even once (a
 * double holds the sum of two .f16 values exactly); .min and .max as the
 * ISA's min and max instructions: a NaN operand gives the other one, two
 * NaNs the canonical NaN, and -0 is below +0. */
template <int __cuemu_Op_, int __cuemu_T_>
inline void __cuemu_tensor_reduce_half(reg __cuemu_g, reg __cuemu_s) {
  constexpr cuemu_nf_format __cuemu_f =
      __cuemu_T_ == f16 ? cuemu_nf_binary16 : cuemu_nf_bfloat16;
  static_assert(__cuemu_Op_ == m_add || __cuemu_Op_ == m_min ||
                    __cuemu_Op_ == m_max,
                "cp.reduce.async.bulk: .f16 and .bf16 have .add, .min and "
                ".max only");
  uint16_t __cuemu_bits;
  std::memcpy(&__cuemu_bits, reinterpret_cast<const void *>(__cuemu_s),
              sizeof __cuemu_bits);
  cuemu_atomic_update(
      reinterpret_cast<uint16_t *>(__cuemu_g), [&](uint16_t __cuemu_old_bits) {
        if constexpr (__cuemu_Op_ == m_add)
          return cuemu_nf_from_double(
              static_cast<double>(
                  cuemu_nf_to_float(__cuemu_old_bits, __cuemu_f)) +
                  cuemu_nf_to_float(__cuemu_bits, __cuemu_f),
              __cuemu_f, CUEMU_ROUND_RN);
        else if constexpr (__cuemu_Op_ == m_min)
          return cuemu_nf_min(__cuemu_old_bits, __cuemu_bits, __cuemu_f);
        else
          return cuemu_nf_max(__cuemu_old_bits, __cuemu_bits, __cuemu_f);
      });
}

/* One element of the map's data type reduced with Op: the types and
 * operations the ISA lists (.add of .u32 .s32 .u64 .f32; .min and .max of
 * the 32- and 64-bit integers; .inc and .dec of .u32; the bitwise ones of
 * the 32- and 64-bit integers; .add, .min and .max of .f16 and .bf16). */
template <int __cuemu_Op_>
inline void __cuemu_tensor_reduce_element(int __cuemu_type, reg __cuemu_g,
                                          reg __cuemu_s, const char *file,
                                          int line) {
  constexpr bool __cuemu_u32_only =
      __cuemu_Op_ == m_inc || __cuemu_Op_ == m_dec;
  if (__cuemu_type == 2)
    return __cuemu_tensor_reduce_one<__cuemu_Op_, uint32_t>(__cuemu_g,
                                                            __cuemu_s);
  if constexpr (!__cuemu_u32_only) {
    if (__cuemu_type == 3)
      return __cuemu_tensor_reduce_one<__cuemu_Op_, int32_t>(__cuemu_g,
                                                             __cuemu_s);
    if (__cuemu_type == 4)
      return __cuemu_tensor_reduce_one<__cuemu_Op_, uint64_t>(__cuemu_g,
                                                              __cuemu_s);
    if (__cuemu_type == 5)
      return __cuemu_tensor_reduce_one<__cuemu_Op_, int64_t>(__cuemu_g,
                                                             __cuemu_s);
  }
  if constexpr (__cuemu_Op_ == m_add) {
    if (__cuemu_type == 7 || __cuemu_type == 10)
      return __cuemu_tensor_add_float<float, uint32_t>(__cuemu_g, __cuemu_s);
  }
  if constexpr (__cuemu_Op_ == m_add || __cuemu_Op_ == m_min ||
                __cuemu_Op_ == m_max) {
    if (__cuemu_type == 6) /* CU_TENSOR_MAP_DATA_TYPE_FLOAT16 */
      return __cuemu_tensor_reduce_half<__cuemu_Op_, f16>(__cuemu_g,
                                                          __cuemu_s);
    if (__cuemu_type == 9) /* CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 */
      return __cuemu_tensor_reduce_half<__cuemu_Op_, bf16>(__cuemu_g,
                                                           __cuemu_s);
  }
  __cuemu_tensor_fail("cp.reduce.async.bulk.tensor: this reduction of the "
                      "map's data type is not "
                      "emulated",
                      file, line);
}

/* cp.reduce.async.bulk.tensor.Nd.global.shared::cta.OP.tile.bulk_group
 * [map, {c...}], [src]: each element of the box in bounds reduced into
 * global memory with OP. */
template <int __cuemu_Op_, int __cuemu_N_, typename... __cuemu_C_>
inline void __cuemu_tensor_reduce(reg __cuemu_map, reg src, const char *file,
                                  int line, __cuemu_C_... __cuemu_coords) {
  const int __cuemu_c[5] = {
      static_cast<int>(static_cast<unsigned>(__cuemu_coords))...};
  const __cuemu_tmap_view __cuemu_v =
      __cuemu_tmap_read(__cuemu_map, __cuemu_N_, file, line);
  src = __cuemu_tensor_smem(src, file, line);
  __cuemu_tmap_walk(__cuemu_v, src, __cuemu_c,
                    [&](reg __cuemu_s, reg __cuemu_g, unsigned __cuemu_n) {
                      if (__cuemu_g)
                        __cuemu_tensor_global(__cuemu_g, __cuemu_n, 1);
                      for (unsigned __cuemu_i = 0;
                           __cuemu_g && __cuemu_i < __cuemu_n;
                           __cuemu_i += __cuemu_v.__cuemu_esize)
                        __cuemu_tensor_reduce_element<__cuemu_Op_>(
                            __cuemu_v.type, __cuemu_g + __cuemu_i,
                            __cuemu_s + __cuemu_i, file, line);
                    });
}

/* The C++ type of a reduction's PTX type. */
template <int __cuemu_T_> struct __cuemu_reduce_type;
template <> struct __cuemu_reduce_type<u32> { typedef uint32_t type; };
template <> struct __cuemu_reduce_type<s32> { typedef int32_t type; };
template <> struct __cuemu_reduce_type<b32> { typedef uint32_t type; };
template <> struct __cuemu_reduce_type<u64> { typedef uint64_t type; };
template <> struct __cuemu_reduce_type<s64> { typedef int64_t type; };
template <> struct __cuemu_reduce_type<b64> { typedef uint64_t type; };

/* cp.reduce.async.bulk.global.shared::cta.bulk_group.OP.TYPE [dst], [src],
 * size and cp.reduce.async.bulk.shared::cluster.shared::cta
 * .mbarrier::complete_tx::bytes.OP.TYPE [dst], [src], size, [mbar] (`mbar`
 * 0 for the first): each element of the source reduced into the
 * destination with OP, then, into shared memory, the complete-tx of the
 * size. */
template <int __cuemu_Op_, int __cuemu_T_>
inline void __cuemu_bulk_reduce(reg dst, reg src, reg size, reg mbar,
                                const char *file, int line) {
  bulk_check(dst, src, size, file, line);
  constexpr unsigned __cuemu_n = width(__cuemu_T_) / 8;
  for (reg __cuemu_i = 0; __cuemu_i + __cuemu_n <= size;
       __cuemu_i += __cuemu_n) {
    if constexpr (__cuemu_T_ == f32) {
      static_assert(__cuemu_Op_ == m_add,
                    "cp.reduce.async.bulk: .f32 has .add only");
      __cuemu_tensor_add_float<float, uint32_t>(dst + __cuemu_i,
                                                src + __cuemu_i);
    } else if constexpr (__cuemu_T_ == f16 || __cuemu_T_ == bf16) {
      __cuemu_tensor_reduce_half<__cuemu_Op_, __cuemu_T_>(dst + __cuemu_i,
                                                          src + __cuemu_i);
    } else if constexpr (__cuemu_T_ == f64) {
      static_assert(__cuemu_Op_ == m_add,
                    "cp.reduce.async.bulk: .f64 has .add only");
      __cuemu_tensor_add_float<double, uint64_t>(dst + __cuemu_i,
                                                 src + __cuemu_i);
    } else {
      __cuemu_tensor_reduce_one<__cuemu_Op_,
                                typename __cuemu_reduce_type<__cuemu_T_>::type>(
          dst + __cuemu_i, src + __cuemu_i);
    }
  }
  if (mbar)
    mbar_complete_tx<>(shared_at(mbar), size);
}

} // namespace ptx
} // namespace cuemu

#endif /* CUEMU_PTX_TENSOR_H */

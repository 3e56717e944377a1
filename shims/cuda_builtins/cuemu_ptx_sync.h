/*
 * cuemu_ptx_sync.h: PTX's memory, atomic and synchronising instructions for
 * inline PTX (see cuemu_ptx.h): ld, ldu and st in every state space and
 * vector form (one flat memory serves all spaces; .acquire, .relaxed,
 * .release and .volatile order the access, cache operators change
 * nothing), atom and red (real atomic operations, cuemu_atomics.h), fence
 * and membar, nanosleep, cp.async (the copy is done at once), trap,
 * bar.sync/barrier.sync and bar.red (block barriers, or named barriers of
 * part of a block), bar.warp.sync,
 * shfl.sync, vote.sync, match.sync, redux.sync and activemask (warp
 * collectives of libcuemu). Part of cuemu_ptx.h.
 */
#ifndef CUEMU_PTX_SYNC_H
#define CUEMU_PTX_SYNC_H
/* A system header: its C++17 forms that C++14 accepts (if constexpr, inline
 * variables, fold expressions) give no warning in a C++14 build of a .cpp
 * file (docs/dialects.md). */
#pragma GCC system_header

#include "cuemu_ptx_base.h"
#include "cuemu_ptx_float.h"
#include "cuemu_warp_call.h"

#include "cuemu_atomics.h"

#ifdef CUEMU_CHECKED_BUILD
#include <cuemu/cuemu_check_fast.h>
#endif

namespace cuemu {
namespace ptx {

/* The unsigned integer of a type's width, allowed to alias any object (a
 * PTX access may read a float array as .b32). */
template <int Bits> struct word;
template <> struct word<8> { typedef uint8_t __attribute__((may_alias)) type; };
template <> struct word<16> { typedef uint16_t __attribute__((may_alias)) type; };
template <> struct word<32> { typedef uint32_t __attribute__((may_alias)) type; };
template <> struct word<64> { typedef uint64_t __attribute__((may_alias)) type; };
template <> struct word<128> { typedef wide __attribute__((may_alias)) type; };
template <int... M_> using word_of = typename word<width(type_n<M_...>(0))>::type;

/*
 * ld and st. cuemu-cc writes the access itself into the user's statement,
 * `ld<M...>(d, *at<M...>(address, i))` and `*at<M...>(address, i) =
 * st<M...>(v)`, so that the checkers see it at the user's line; element i
 * of a vector is at address + i * its size. The ordered forms (.acquire,
 * .relaxed, .release) are atomic operations here.
 */
template <int... M_> inline auto at(reg address, int __cuemu_i) {
  using U = word_of<M_...>;
  if constexpr (has<m_volatile, M_...>) return reinterpret_cast<volatile U *>(address) + __cuemu_i;
  else return reinterpret_cast<U *>(address) + __cuemu_i;
}

/* A loaded value into its register: sub-word signed types sign-extend. */
template <int... M_> inline void ld(reg &d, word_of<M_...> v) {
  d = result<type_n<M_...>(0)>(v);
}

/* The value a register stores: its low bits. */
template <int... M_> inline word_of<M_...> st(reg v) {
  return static_cast<word_of<M_...>>(v);
}

/* ld.b128 and st.b128. */
template <int... M_> inline void ld(wide &d, wide v) { d = v; }
template <int... M_> inline wide st(wide v) { return v; }

template <int... M_> inline void ld_ordered(reg &d, reg address, int __cuemu_i) {
  using U = word_of<M_...>;
  U *p = reinterpret_cast<U *>(address) + __cuemu_i;
  d = result<type_n<M_...>(0)>(
      __atomic_load_n(p, has<m_acquire, M_...> ? __ATOMIC_ACQUIRE : __ATOMIC_RELAXED));
  /* An ordered load is how a flag that another block sets is polled. */
  cuemu_atomic_poll(p);
}

template <int... M_> inline void st_ordered(reg address, int __cuemu_i, reg v) {
  using U = word_of<M_...>;
  U *p = reinterpret_cast<U *>(address) + __cuemu_i;
  __atomic_store_n(p, static_cast<U>(v),
                   has<m_release, M_...> ? __ATOMIC_RELEASE : __ATOMIC_RELAXED);
}

/*
 * A vector of an ordered access (ld.relaxed.v2.u64, st.release.v4.u32...)
 * up to 16 bytes is one single-copy-atomic access of the whole vector, as a
 * GPU's aligned vector access is: CUB's decoupled look-back stores a tile's
 * status and value as one 16-byte vector and reads them back as one, and a
 * reader that saw the new status with the old value would scan wrongly.
 * Wider vectors, and misaligned ones (a fault on a GPU), are accessed an
 * element at a time.
 */
template <int Bytes> struct whole_word;
template <> struct whole_word<4> { typedef uint32_t type; };
template <> struct whole_word<8> { typedef uint64_t type; };
template <> struct whole_word<16> { typedef wide type; };

#if defined(CUEMU_CHECKED_BUILD) && defined(__x86_64__)
/* The checkers do not see the assembler accesses below: a checked build
 * tells them of each, as the atomic access of 16 bytes it is, from the
 * code that made it (the return address gives its source line). */
__attribute__((noinline, no_sanitize("thread", "bounds"))) inline void
check_whole16(const void *p, int kind) {
  cuemu_check_access(p, 16, kind | CUEMU_CHECK_FAST_ATOMIC,
                     __builtin_return_address(0));
}
#define CUEMU_CHECK_WHOLE16(p, kind) check_whole16(p, CUEMU_CHECK_FAST_##kind)
#else
#define CUEMU_CHECK_WHOLE16(p, kind) ((void)0)
#endif

inline wide load_whole16(const void *p) {
  CUEMU_CHECK_WHOLE16(p, READ);
#if defined(__x86_64__)
  /* An aligned 16-byte SSE access is atomic on the x86-64 processors
   * with AVX (both vendors' manuals say so); asm keeps it one instruction. */
  typedef long long v2 __attribute__((vector_size(16)));
  v2 x;
  __asm__ __volatile__("movdqa %1, %0" : "=x"(x) : "m"(*static_cast<const v2 *>(p)) : "memory");
  wide w;
  std::memcpy(&w, &x, sizeof w);
  return w;
#else
  return __atomic_load_n(static_cast<const wide *>(p), __ATOMIC_ACQUIRE);
#endif
}

inline void store_whole16(void *p, wide w) {
  CUEMU_CHECK_WHOLE16(p, WRITE);
#if defined(__x86_64__)
  typedef long long v2 __attribute__((vector_size(16)));
  v2 x;
  std::memcpy(&x, &w, sizeof x);
  __asm__ __volatile__("movdqa %1, %0" : "=m"(*static_cast<v2 *>(p)) : "x"(x) : "memory");
#else
  __atomic_store_n(static_cast<wide *>(p), w, __ATOMIC_RELEASE);
#endif
}

template <int... M_, typename... R_> inline void ld_ordered_v(reg address, R_ &...d) {
  constexpr int w = width(type_n<M_...>(0)), n = sizeof...(R_), bytes = w / 8 * n;
  if constexpr (bytes == 4 || bytes == 8 || bytes == 16) {
    if (address % bytes == 0) {
      using W_ = typename whole_word<bytes>::type;
      W_ v;
      if constexpr (bytes == 16) v = load_whole16(reinterpret_cast<const void *>(address));
      else v = __atomic_load_n(reinterpret_cast<const W_ *>(address),
                               has<m_acquire, M_...> ? __ATOMIC_ACQUIRE : __ATOMIC_RELAXED);
      int __cuemu_i = 0;
      ((ld<M_...>(d, static_cast<word_of<M_...>>(v >> (w * __cuemu_i++)))), ...);
      /* A poll too, as ld_ordered's: CUB's look-back waits for a tile's
       * status word so. */
      cuemu_atomic_poll(reinterpret_cast<const void *>(address));
      return;
    }
  }
  int __cuemu_i = 0;
  (ld_ordered<M_...>(d, address, __cuemu_i++), ...);
}

template <int... M_, typename... R_> inline void st_ordered_v(reg address, R_... v) {
  constexpr int w = width(type_n<M_...>(0)), n = sizeof...(R_), bytes = w / 8 * n;
  if constexpr (bytes == 4 || bytes == 8 || bytes == 16) {
    if (address % bytes == 0) {
      using W_ = typename whole_word<bytes>::type;
      W_ all = 0;
      int __cuemu_i = 0;
      ((all |= static_cast<W_>(st<M_...>(v)) << (w * __cuemu_i++)), ...);
      if constexpr (bytes == 16) store_whole16(reinterpret_cast<void *>(address), all);
      else __atomic_store_n(reinterpret_cast<W_ *>(address), all,
                            has<m_release, M_...> ? __ATOMIC_RELEASE : __ATOMIC_RELAXED);
      return;
    }
  }
  int __cuemu_i = 0;
  (st_ordered<M_...>(address, __cuemu_i++, v), ...);
}

/* cp.async [dst], [src], cp-size{, src-size}: cuemu-cc writes the copy of
 * the first cp_async_copied() bytes into the user's statement (it is done
 * at once, so commit_group and wait_group have nothing to wait for);
 * cp_async_fill() zeroes the bytes past src-size. */
inline size_t cp_async_copied(reg size, reg src_size = ~0ULL) {
  return static_cast<size_t>(src_size < size ? src_size : size);
}
inline void cp_async_fill(reg dst, reg size, reg src_size = ~0ULL) {
  const size_t n = cp_async_copied(size, src_size);
  std::memset(reinterpret_cast<char *>(dst) + n, 0, static_cast<size_t>(size) - n);
}

/* createpolicy.{fractional,range,cvt}: a cache policy for the operand of
 * .L2::cache_hint, which changes nothing here; the value is opaque on a
 * GPU too, so one constant serves every policy. */
template <int... M_, typename... A_> inline void __cuemu_createpolicy(reg &d, A_...) {
  d = 0x1000000000000000ULL;
}

/* atom.op.type d, [a], b{, c}: d is the old value. The operation is
 * sequentially consistent; .release and .acq_rel (which the translation
 * passes as .release) also put a release fence before it, which is free
 * on x86-64 and tells the race checker that the thread's earlier accesses
 * are published (a lock released by atom.exch.release, a ticket advanced
 * by atom.add.release). */
template <int... M_> inline void atom(reg &d, reg address, reg b, reg c = 0) {
  constexpr int T = type_n<M_...>(0);
  using U = typename word<width(T)>::type;
  U *p = reinterpret_cast<U *>(address);
  const U v = static_cast<U>(b);
  U old;
  if constexpr (has<m_release, M_...>)
    __atomic_thread_fence(__ATOMIC_RELEASE);
  if constexpr (has<m_add, M_...> && is_half(T)) {
    /* atom.add.noftz of .f16, .bf16 and their pairs: each half rounded
     * once to nearest (subnormals kept, as .noftz says). */
    old = cuemu_atomic_update(p, [v](U __cuemu_o) {
      return static_cast<U>(half_lanes<M_...>(
          __cuemu_o, v, 0, [](unsigned short x, unsigned short y, unsigned short, cuemu_nf_format f) {
            return cuemu_nf_add(x, y, f);
          }));
    });
  } else if constexpr (has<m_add, M_...> && is_float(T)) {
    old = cuemu_atomic_update(p, [v](U __cuemu_o) {
      if constexpr (T == f32)
        return static_cast<U>(bits_of(as_f32(__cuemu_o) + as_f32(v)));
      else
        return static_cast<U>(bits_of(as_f64(__cuemu_o) + as_f64(v)));
    });
  } else if constexpr (has<m_add, M_...>) {
    old = cuemu_atomic_fetch_add(p, v);
  } else if constexpr (has<m_and, M_...>) {
    old = cuemu_atomic_fetch_and(p, v);
  } else if constexpr (has<m_or, M_...>) {
    old = cuemu_atomic_fetch_or(p, v);
  } else if constexpr (has<m_xor, M_...>) {
    old = cuemu_atomic_fetch_xor(p, v);
  } else if constexpr (has<m_exch, M_...>) {
    old = cuemu_atomic_exchange(p, v);
  } else if constexpr (has<m_cas, M_...>) {
    old = cuemu_atomic_cas(p, v, static_cast<U>(c));
  } else if constexpr (has<m_min, M_...> || has<m_max, M_...>) {
    constexpr bool want_max = has<m_max, M_...>;
    old = cuemu_atomic_update(p, [v](U __cuemu_o) {
      const bool less = is_signed(T) ? sx(v, width(T)) < sx(__cuemu_o, width(T)) : v < __cuemu_o;
      return (less != want_max) ? v : __cuemu_o;
    });
  } else if constexpr (has<m_inc, M_...>) {
    old = cuemu_atomic_update(p, [v](U __cuemu_o) { return __cuemu_o >= v ? U(0) : U(__cuemu_o + 1); });
  } else {
    static_assert(has<m_dec, M_...>, "inline PTX: unknown atomic operation");
    old = cuemu_atomic_update(p, [v](U __cuemu_o) { return (__cuemu_o == 0 || __cuemu_o > v) ? v : U(__cuemu_o - 1); });
  }
  d = result<T>(old);
}

/* atom.cas.b128 d, [a], b, c and atom.exch.b128 d, [a], b (sm_90): one
 * 16-byte compare-and-swap (cuemu_atomics.h). */
template <int... M_> inline void atom(wide &d, reg address, wide b, wide c = 0) {
  static_assert(has<m_cas, M_...> || has<m_exch, M_...>,
                "inline PTX: .b128 atomics are cas and exch only");
  void *p = reinterpret_cast<void *>(address);
  if constexpr (has<m_release, M_...>)
    __atomic_thread_fence(__ATOMIC_RELEASE);
  if constexpr (has<m_cas, M_...>)
    cuemu_atomic_cas128(p, &b, &c, &d);
  else
    cuemu_atomic_exch128(p, &b, &d);
}

template <int... M_> inline void red(reg address, reg b) {
  reg old;
  atom<M_...>(old, address, b);
}
/* red.add.v2/.v4 (sm_90): each element is an atomic operation of its own
 * (the ISA makes no promise for the vector as a whole). */
template <int... M_> inline void red(reg address, reg __cuemu_b0, reg __cuemu_b1) {
  constexpr reg size = width(type_n<M_...>(0)) / 8;
  red<M_...>(address, __cuemu_b0);
  red<M_...>(address + size, __cuemu_b1);
}
template <int... M_> inline void red(reg address, reg __cuemu_b0, reg __cuemu_b1, reg __cuemu_b2, reg __cuemu_b3) {
  constexpr reg size = width(type_n<M_...>(0)) / 8;
  red<M_...>(address, __cuemu_b0, __cuemu_b1);
  red<M_...>(address + 2 * size, __cuemu_b2, __cuemu_b3);
}

template <int... M_> inline void fence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

template <int... M_> inline void nanosleep(reg) { cuemu_thread_yield(); }

template <int... M_> [[noreturn]] inline void trap(const char *file, int line) {
  cuemu_kernel_trap(file, line);
}

/* brkpt: a breakpoint, which with no debugger attached ends the launch as
 * trap does. */
template <int... M_> [[noreturn]] inline void __cuemu_brkpt(const char *file, int line) {
  cuemu_kernel_breakpoint(file, line);
}

/* exit: the thread ends here (it counts as exited at barriers and warp
 * collectives). */
template <int... M_> [[noreturn]] inline void exit(const char *file, int line) {
  cuemu_thread_exit(file, line);
}

/* An asm statement that cuemu-cc could not translate, in a header it was
 * asked to be lenient with (CUEMU_PTX_DEFER_UNSUPPORTED): running it ends
 * the launch with ASSERT and cuemu-cc's message. */
[[noreturn]] inline void unsupported(const char *what, const char *file, int line) {
  cuemu_kernel_assert_fail(what, file, line, "inline PTX");
}

/* ---- Barriers ------------------------------------------------------------ */

/* Whether a barrier's thread count covers the whole block. */
inline bool whole_block(reg count) {
  const reg __cuemu_threads = static_cast<reg>(blockDim.x) * blockDim.y * blockDim.z;
  return count >= ((__cuemu_threads + 31) & ~31ULL);
}

/* bar.sync a{, b}: a block barrier (as __syncthreads, which is barrier 0)
 * when a is 0 and b covers the block; else named barrier a of b threads
 * (cuemu_device.h). Barrier 1 of the whole block is not __syncthreads:
 * producer-consumer kernels pair `bar.arrive 1, 128` in one warp with
 * `bar.sync 1, 128` in the others while the producer waits at barrier 2. */
template <int... M_> inline void bar_sync(reg, const char *file, int line) {
  cuemu_block_barrier(CUEMU_BARRIER_PLAIN, 0, file, line);
}
template <int... M_> inline void bar_sync(reg a, reg count, const char *file, int line) {
  if (a == 0 && whole_block(count))
    cuemu_block_barrier(CUEMU_BARRIER_PLAIN, 0, file, line);
  else
    cuemu_named_barrier(static_cast<unsigned>(a), static_cast<unsigned>(count), 1, file, line);
}

/* bar.arrive a, b: arrives at named barrier a of b threads without
 * waiting (b is required, as the ISA says). */
template <int... M_> inline void bar_arrive(reg a, reg count, const char *file, int line) {
  cuemu_named_barrier(static_cast<unsigned>(a), static_cast<unsigned>(count), 0, file, line);
}

/* barrier.cluster.arrive and barrier.cluster.wait: the split cluster
 * barrier (cuemu_device_runtime.h); .release, .relaxed, .acquire and
 * .aligned change nothing here (every access is seen at once). */
template <int... M_> inline void cluster_arrive(const char *file, int line) {
  cuemu_cluster_arrive(file, line);
}
template <int... M_> inline void cluster_wait(const char *file, int line) {
  cuemu_cluster_wait(file, line);
}

/* bar.red.popc.u32 d, a{, b}, {!}c and bar.red.{and,or}.pred p, a{, b}, {!}c. */
template <int... M_> inline void bar_red(reg &d, reg, reg c, const char *file, int line) {
  constexpr int op = has<m_popc, M_...>  ? CUEMU_BARRIER_COUNT
                     : has<m_and, M_...> ? CUEMU_BARRIER_AND
                                        : CUEMU_BARRIER_OR;
  d = static_cast<reg>(cuemu_block_barrier(op, c != 0, file, line));
}
template <int... M_> inline void bar_red(reg &d, reg a, reg count, reg c, const char *file, int line) {
  constexpr int op = has<m_popc, M_...>  ? CUEMU_BARRIER_COUNT
                     : has<m_and, M_...> ? CUEMU_BARRIER_AND
                                        : CUEMU_BARRIER_OR;
  if (a == 0 && whole_block(count))
    bar_red<M_...>(d, a, c, file, line);
  else
    d = cuemu_named_barrier_reduce(static_cast<unsigned>(a), static_cast<unsigned>(count), op,
                                   c != 0, file, line);
}

/* ---- mbarrier --------------------------------------------------------------
 *
 * An mbarrier object is 8 bytes of shared memory holding what the PTX ISA
 * says it holds: bits 19..0 count the arrivals still pending in the current
 * phase, bits 39..20 the expected arrivals (both at most 2^20 - 1, the
 * ISA's limit), bits 60..40 the tx-count (21-bit two's complement: the
 * bytes of asynchronous transactions still expected, which the ISA lets go
 * from -(2^20 - 1) to 2^20 - 1), bit 63 is the phase's parity. Every update
 * is one atomic compare-and-swap. A phase completes when its pending
 * arrivals and its tx-count are both zero; the update that completes it
 * resets the pending count and the tx-count, flips the parity and tells
 * the racecheck that the block's accesses are ordered as at a block
 * barrier. A state token holds the parity of the arrival's phase and the
 * arrivals then pending; try_wait lets the other threads of the block run
 * before it answers. */

constexpr reg mbar_parity_bit = 1ULL << 63;
constexpr reg mbar_count_mask = 0xfffffULL;
constexpr reg mbar_tx_mask = 0x1fffffULL;

inline reg mbar_make(reg __cuemu_expected, reg pending, reg parity, long long __cuemu_tx = 0) {
  return parity | ((static_cast<reg>(__cuemu_tx) & mbar_tx_mask) << 40) |
         ((__cuemu_expected & mbar_count_mask) << 20) | (pending & mbar_count_mask);
}

/* The tx-count of an object's bits, sign-extended. */
inline long long mbar_tx(reg __cuemu_o) { return static_cast<long long>(sx((__cuemu_o >> 40) & mbar_tx_mask, 21)); }

template <int... M_> inline void mbar_init(reg address, reg count) {
  __atomic_store_n(reinterpret_cast<reg *>(address), mbar_make(count, count, 0),
                   __ATOMIC_RELEASE);
}

/* Arrives `count` times (0: none) after adding `tx` to the tx-count (an
 * expect-tx of tx > 0, a complete-tx of tx < 0); `drop` also lowers the
 * expected count of later phases. Returns the state token: the phase's
 * parity and the arrivals still pending after this one. */
inline reg mbar_update(reg address, reg count, bool drop, long long __cuemu_tx) {
  reg *p = reinterpret_cast<reg *>(address);
  bool completed = false;
  reg token = 0;
  cuemu_atomic_update(p, [&](reg __cuemu_o) {
    reg __cuemu_expected = (__cuemu_o >> 20) & mbar_count_mask, pending = __cuemu_o & mbar_count_mask;
    const long long now_tx = mbar_tx(__cuemu_o) + __cuemu_tx;
    if (drop) __cuemu_expected -= count;
    pending -= count;
    completed = (pending & mbar_count_mask) == 0 && now_tx == 0;
    token = mbar_make(__cuemu_expected, pending, __cuemu_o & mbar_parity_bit, now_tx);
    return completed ? mbar_make(__cuemu_expected, __cuemu_expected, (__cuemu_o ^ mbar_parity_bit) & mbar_parity_bit)
                     : token;
  });
  if (completed) cuemu_check_barrier_complete();
  return token & (mbar_parity_bit | mbar_count_mask);
}
inline reg mbar_arrive_on(reg address, reg count, bool drop) {
  return mbar_update(address, count, drop, 0);
}

/* mbarrier.arrive{.noComplete}.b64 state, [a]{, count}. */
template <int... M_> inline void mbar_arrive(reg &state, reg address, reg count = 1) {
  state = mbar_arrive_on(address, count, false);
}
template <int... M_> inline void mbar_arrive_drop(reg &state, reg address, reg count = 1) {
  state = mbar_arrive_on(address, count, true);
}

/* mbarrier.expect_tx [a], txCount and mbarrier.complete_tx [a], txCount
 * (no arrival; complete_tx may complete the phase), and
 * mbarrier.arrive.expect_tx state, [a], txCount (the expect-tx, then an
 * arrival). */
template <int... M_> inline void mbar_expect_tx(reg address, reg __cuemu_tx) {
  mbar_update(address, 0, false, static_cast<long long>(__cuemu_tx & 0xffffffffULL));
}
template <int... M_> inline void mbar_complete_tx(reg address, reg __cuemu_tx) {
  mbar_update(address, 0, false, -static_cast<long long>(__cuemu_tx & 0xffffffffULL));
}
template <int... M_> inline void mbar_arrive_expect_tx(reg &state, reg address, reg __cuemu_tx) {
  state = mbar_update(address, 1, false, static_cast<long long>(__cuemu_tx & 0xffffffffULL));
}

/* cp.async.mbarrier.arrive{.noinc}: the copies are done already, so the
 * arrival happens at once; without .noinc the pending count was raised by
 * one first, which the arrival undoes. */
template <int... M_> inline void mbar_cp_async_arrive(reg address) {
  if (has<m_noinc, M_...>) mbar_arrive_on(address, 1, false);
}

/* ---- cp.async.bulk ---------------------------------------------------------
 *
 * The bulk copies are done at once, by the thread that issues them (so
 * commit_group and wait_group have nothing to wait for); a copy into
 * shared memory then performs the complete-tx of its size on its mbarrier,
 * as the ISA's mbarrier::complete_tx::bytes says. As the ISA requires, the
 * size is a multiple of 16 and both addresses are 16-byte aligned; anything
 * else ends the launch, naming the instruction. */
inline void bulk_check(reg dst, reg src, reg size, const char *file, int line) {
  if (size % 16 != 0 || dst % 16 != 0 || src % 16 != 0)
    cuemu_kernel_assert_fail("cp.async.bulk: the size and both addresses must be "
                             "multiples of 16",
                             file, line, "cp.async.bulk");
}

/* cp.async.bulk.shared::{cluster,cta}.global.mbarrier::complete_tx::bytes
 * [dst], [src], size, [mbar]: dst and mbar are shared addresses. */
template <int... M_>
inline void bulk_g2s(reg dst, reg src, reg size, reg mbar, const char *file, int line) {
  dst = shared_at(dst);
  bulk_check(dst, src, size, file, line);
  std::memcpy(reinterpret_cast<void *>(dst), reinterpret_cast<const void *>(src),
              static_cast<size_t>(size));
  mbar_complete_tx<M_...>(shared_at(mbar), size);
}

/* cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes
 * [dst], [src], size, [mbar]: every address is a shared one. */
template <int... M_>
inline void bulk_s2s(reg dst, reg src, reg size, reg mbar, const char *file, int line) {
  bulk_g2s<M_...>(dst, shared_at(src), size, mbar, file, line);
}

/* cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size. */
template <int... M_> inline void bulk_s2g(reg dst, reg src, reg size, const char *file, int line) {
  src = shared_at(src);
  bulk_check(dst, src, size, file, line);
  std::memcpy(reinterpret_cast<void *>(dst), reinterpret_cast<const void *>(src),
              static_cast<size_t>(size));
}

/* test_wait: has the phase of `state` (or, with .parity, the phase of that
 * parity) completed? */
template <int... M_> inline bool mbar_completed(reg address, reg state) {
  const reg __cuemu_now = __atomic_load_n(reinterpret_cast<reg *>(address), __ATOMIC_ACQUIRE);
  const reg parity = has<m_parity, M_...> ? ((state & 1) ? mbar_parity_bit : 0)
                                         : (state & mbar_parity_bit);
  return (__cuemu_now & mbar_parity_bit) != parity;
}
template <int... M_> inline void mbar_test_wait(reg &__cuemu_done, reg address, reg state) {
  __cuemu_done = mbar_completed<M_...>(address, state);
}
template <int... M_>
inline void mbar_try_wait(reg &__cuemu_done, reg address, reg state, reg = 0) {
  if (!mbar_completed<M_...>(address, state)) cuemu_thread_yield();
  __cuemu_done = mbar_completed<M_...>(address, state);
}

template <int... M_> inline void mbar_pending_count(reg &count, reg state) {
  count = state & mbar_count_mask;
}

/* ---- Warp collectives ---------------------------------------------------- */

template <int... M_> inline void warp_sync(reg member_mask, const char *file, int line) {
  cuemu_warp_call(CUEMU_WARP_SYNC, static_cast<unsigned>(member_mask), 0, 0, 32,
                        "bar.warp.sync", file, line);
}

/* shfl.sync.mode.b32 d|p, a, b, c, membermask, as the PTX ISA defines it:
 * c packs the clamp value (bits 4..0) and the segment mask (bits 12..8);
 * the source lane j and the predicate p (j within range) are worked out
 * per lane, and the value is fetched from lane j (from the own lane when
 * p is false). */
template <int... M_>
inline void shfl(reg &d, reg &p, reg a, reg b, reg c, reg member_mask, const char *file,
                 int line) {
  const int __cuemu_lane = static_cast<int>(sreg_laneid());
  const int bval = static_cast<int>(b & 31), cval = static_cast<int>(c & 31);
  const int segmask = static_cast<int>((c >> 8) & 31);
  const int max_lane = (__cuemu_lane & segmask) | (cval & ~segmask);
  const int min_lane = __cuemu_lane & segmask;
  int __cuemu_j;
  bool in_range;
  if constexpr (has<m_up, M_...>) {
    __cuemu_j = __cuemu_lane - bval;
    in_range = __cuemu_j >= max_lane;
  } else if constexpr (has<m_down, M_...>) {
    __cuemu_j = __cuemu_lane + bval;
    in_range = __cuemu_j <= max_lane;
  } else if constexpr (has<m_bfly, M_...>) {
    __cuemu_j = __cuemu_lane ^ bval;
    in_range = __cuemu_j <= max_lane;
  } else {
    __cuemu_j = min_lane | (bval & ~segmask);
    in_range = __cuemu_j <= max_lane;
  }
  if (!in_range) __cuemu_j = __cuemu_lane;
  d = zx(cuemu_warp_call(CUEMU_WARP_SHFL_IDX, static_cast<unsigned>(member_mask),
                               zx(a, 32), __cuemu_j, 32, "shfl.sync", file, line),
         32);
  p = in_range;
}

/* vote.sync.{all,any,uni}.pred d, {!}a, membermask and
 * vote.sync.ballot.b32 d, {!}a, membermask. */
template <int... M_>
inline void vote(reg &d, reg a, reg member_mask, const char *file, int line) {
  constexpr int op = has<m_ballot, M_...> ? CUEMU_WARP_BALLOT
                     : has<m_all, M_...>  ? CUEMU_WARP_ALL
                     : has<m_any, M_...>  ? CUEMU_WARP_ANY
                                         : CUEMU_WARP_UNI;
  d = zx(cuemu_warp_call(op, static_cast<unsigned>(member_mask), a != 0, 0, 32,
                               "vote.sync", file, line),
         32);
}

/* match.sync.any.bN d, a, membermask; match.sync.all.bN d|p, a, membermask. */
template <int... M_>
inline void match(reg &d, reg &p, reg a, reg member_mask, const char *file, int line) {
  constexpr int op = has<m_all, M_...> ? CUEMU_WARP_MATCH_ALL : CUEMU_WARP_MATCH_ANY;
  d = zx(cuemu_warp_call(op, static_cast<unsigned>(member_mask),
                               zx(a, width(type_n<M_...>(0))), 0, 32, "match.sync", file, line),
         32);
  p = d != 0;
}

/* redux.sync.op.type d, a, membermask. */
template <int... M_>
inline void redux(reg &d, reg a, reg member_mask, const char *file, int line) {
  constexpr bool s = is_signed(type_n<M_...>(0));
  constexpr int op = has<m_add, M_...>   ? CUEMU_WARP_REDUCE_ADD
                     : has<m_min, M_...> ? (s ? CUEMU_WARP_REDUCE_MIN_S : CUEMU_WARP_REDUCE_MIN_U)
                     : has<m_max, M_...> ? (s ? CUEMU_WARP_REDUCE_MAX_S : CUEMU_WARP_REDUCE_MAX_U)
                     : has<m_and, M_...> ? CUEMU_WARP_REDUCE_AND
                     : has<m_or, M_...>  ? CUEMU_WARP_REDUCE_OR
                                        : CUEMU_WARP_REDUCE_XOR;
  d = zx(cuemu_warp_call(op, static_cast<unsigned>(member_mask), zx(a, 32), 0, 32,
                               "redux.sync", file, line),
         32);
}

template <int... M_> inline void activemask(reg &d, const char *file, int line) {
  d = cuemu_warp_active_mask(file, line);
}

/* elect.sync d|p, membermask: the lowest lane of the mask that takes part
 * is the leader; d is its lane id in every lane, p is true in the leader. */
template <int... M_>
inline void elect(reg &d, reg &p, reg member_mask, const char *file, int line) {
  const reg present = zx(cuemu_warp_call(CUEMU_WARP_BALLOT,
                                               static_cast<unsigned>(member_mask), 1, 0, 32,
                                               "elect.sync", file, line),
                         32);
  d = present ? static_cast<reg>(__builtin_ctzll(present)) : 0;
  p = present && d == sreg_laneid();
}

} // namespace ptx
} // namespace cuemu

#endif /* CUEMU_PTX_SYNC_H */

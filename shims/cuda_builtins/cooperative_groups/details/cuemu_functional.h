/*
 * cooperative_groups/details/cuemu_functional.h: the operators of cg::reduce
 * and the scans: plus, less (the smaller value), greater (the larger),
 * bit_and, bit_or and bit_xor. As in CUDA, plus and the bitwise operators
 * derive from libcu++'s, whose <cuda/std/functional> nvcc's
 * cooperative_groups/reduce.h and scan.h include: a kernel that includes
 * only those may use cuda::std::max, cuda::std::plus and the rest of that
 * header, as with nvcc. Without libcu++ on the include path (no toolkit,
 * docs/cccl.md) the operators stand alone.
 */
#ifndef CUEMU_CG_DETAILS_FUNCTIONAL_H
#define CUEMU_CG_DETAILS_FUNCTIONAL_H

#if __has_include(<cuda/std/functional>)
#include <cuda/std/functional>

namespace cooperative_groups {
template <typename Ty> struct plus : cuda::std::plus<Ty> {};
template <typename Ty> struct bit_and : cuda::std::bit_and<Ty> {};
template <typename Ty> struct bit_or : cuda::std::bit_or<Ty> {};
template <typename Ty> struct bit_xor : cuda::std::bit_xor<Ty> {};
} // namespace cooperative_groups
#else
namespace cooperative_groups {
template <typename Ty> struct plus {
  Ty operator()(Ty arg1, Ty arg2) const { return arg1 + arg2; }
};
template <typename Ty> struct bit_and {
  Ty operator()(Ty arg1, Ty arg2) const { return arg1 & arg2; }
};
template <typename Ty> struct bit_or {
  Ty operator()(Ty arg1, Ty arg2) const { return arg1 | arg2; }
};
template <typename Ty> struct bit_xor {
  Ty operator()(Ty arg1, Ty arg2) const { return arg1 ^ arg2; }
};
} // namespace cooperative_groups
#endif

namespace cooperative_groups {

template <typename Ty> struct less {
  Ty operator()(Ty arg1, Ty arg2) const { return (arg2 < arg1) ? arg2 : arg1; }
};
template <typename Ty> struct greater {
  Ty operator()(Ty arg1, Ty arg2) const { return (arg1 < arg2) ? arg2 : arg1; }
};

} // namespace cooperative_groups

#endif /* CUEMU_CG_DETAILS_FUNCTIONAL_H */

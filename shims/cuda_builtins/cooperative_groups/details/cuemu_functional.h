/*
 * cooperative_groups/details/cuemu_functional.h: the operators of cg::reduce
 * and the scans: plus, less (the smaller value), greater (the larger),
 * bit_and, bit_or and bit_xor.
 */
#ifndef CUEMU_CG_DETAILS_FUNCTIONAL_H
#define CUEMU_CG_DETAILS_FUNCTIONAL_H

namespace cooperative_groups {

template <typename Ty> struct plus {
  Ty operator()(Ty arg1, Ty arg2) const { return arg1 + arg2; }
};
template <typename Ty> struct less {
  Ty operator()(Ty arg1, Ty arg2) const { return (arg2 < arg1) ? arg2 : arg1; }
};
template <typename Ty> struct greater {
  Ty operator()(Ty arg1, Ty arg2) const { return (arg1 < arg2) ? arg2 : arg1; }
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

#endif /* CUEMU_CG_DETAILS_FUNCTIONAL_H */

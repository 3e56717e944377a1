/*
 * cooperative_groups/details/functional.h: in CUDA, the header that defines
 * the operators of cg::reduce and the scans (cg::plus, less, greater,
 * bit_and, bit_or, bit_xor). Some programs include it by this path; it brings
 * <cooperative_groups.h> and cuemu's operators (details/cuemu_functional.h),
 * as the toolkit's internal headers do not compile for the host.
 */
#ifndef CUEMU_CG_DETAILS_FUNCTIONAL_PATH_H
#define CUEMU_CG_DETAILS_FUNCTIONAL_PATH_H

#include "../../cooperative_groups.h"
#include "cuemu_functional.h"

#endif

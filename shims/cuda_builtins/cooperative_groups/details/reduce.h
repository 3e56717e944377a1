/*
 * cooperative_groups/details/reduce.h: in CUDA, the header that defines
 * cg::reduce, which <cooperative_groups/reduce.h> includes. Some programs
 * include it by this path; it brings the same as <cooperative_groups/reduce.h>
 * (the toolkit's internal headers do not compile for the host).
 */
#ifndef CUEMU_CG_DETAILS_REDUCE_H
#define CUEMU_CG_DETAILS_REDUCE_H

#include "../reduce.h"

#endif

/*
 * cooperative_groups/details/async.h: in CUDA, the header that defines
 * cg::memcpy_async and cg::wait, which <cooperative_groups/memcpy_async.h>
 * includes. Some programs include it by this path; it brings the same as
 * <cooperative_groups/memcpy_async.h> (the toolkit's internal headers do not
 * compile for the host).
 */
#ifndef CUEMU_CG_DETAILS_ASYNC_H
#define CUEMU_CG_DETAILS_ASYNC_H

#include "../memcpy_async.h"

#endif

/*
 * cooperative_groups/details/scan.h: in CUDA, the header that defines
 * cg::inclusive_scan and cg::exclusive_scan, which <cooperative_groups/scan.h>
 * includes. Some programs include it by this path; it brings the same as
 * <cooperative_groups/scan.h> (a path that nvcc finds only here must not
 * reach the toolkit's internal headers, which do not compile for the host).
 */
#ifndef CUEMU_CG_DETAILS_SCAN_H
#define CUEMU_CG_DETAILS_SCAN_H

#include "../scan.h"

#endif

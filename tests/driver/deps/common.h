// common.h: read by both passes.
#pragma once
__host__ __device__ inline int common_value() { return 7; }

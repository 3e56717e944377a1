// NVCC_OPTIONS: -rdc=true -I../../../include --expt-relaxed-constexpr
#include "geom.cuh"
#include "md_common.cuh"

__device__ vec3 geom_min_image(vec3 d, float L) { return md::min_image(d, L); }

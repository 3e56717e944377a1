// pre_included.cuh: a header given to the compiler with -include, as
// projects' common headers are. nvcc pre-includes cuda_runtime.h before
// it, so it may use CUDA's types and qualifiers without including anything
// itself.
#pragma once

struct pre_included_stats {
  float2 range; // CUDA's vector type, from cuda_runtime.h
  int count;
};

__host__ __device__ inline float2 widen(float2 r, float by) {
  return make_float2(r.x - by, r.y + by);
}

#define PRE_INCLUDED_CHECK(call) ((call) == cudaSuccess)

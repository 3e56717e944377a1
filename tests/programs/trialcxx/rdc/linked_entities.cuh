/* linked_entities.cuh: device entities that rdc_linked_entities.cu and
 * rdc/linked_entities.cu share under -rdc=true. */
#pragma once

/* C++17 inline variables: one object of the program. */
inline __device__ int g_inline_calls = 0;
inline __device__ unsigned long long g_inline_sum = 0;

/* Defined, and explicitly instantiated, in rdc/linked_entities.cu only. */
template <typename T>
__device__ T scale_by(T v, int which);
extern template __device__ double scale_by<double>(double, int);

/* Its explicit specialization for float, also defined there only. */
template <typename T>
__device__ T offset_of(T v);
template <>
__device__ float offset_of<float>(float v);

void run_other_unit(float* d, int n);

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

/* A class template whose __device__ members are defined, and the class
 * explicitly instantiated, in rdc/linked_entities.cu only. */
template <class T>
struct Ops {
  __device__ static T triple(T v);
  __device__ T twice(T v) const;
};
extern template struct Ops<float>;

void run_other_unit(float* d, int n);

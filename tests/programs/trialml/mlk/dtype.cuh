#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cstdint>
#include <type_traits>

#include "common.cuh"

namespace mlk {

// Scalar conversions to and from float for every storage type.
template <typename T> struct Convert;

template <> struct Convert<float> {
  static MLK_HOST_DEVICE float to_float(float v) { return v; }
  static MLK_HOST_DEVICE float from_float(float v) { return v; }
};
template <> struct Convert<__half> {
  static MLK_HOST_DEVICE float to_float(__half v) { return __half2float(v); }
  static MLK_HOST_DEVICE __half from_float(float v) { return __float2half_rn(v); }
};
template <> struct Convert<__nv_bfloat16> {
  static MLK_HOST_DEVICE float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
  static MLK_HOST_DEVICE __nv_bfloat16 from_float(float v) { return __float2bfloat16_rn(v); }
};
template <> struct Convert<__nv_fp8_e4m3> {
  static MLK_HOST_DEVICE float to_float(__nv_fp8_e4m3 v) { return static_cast<float>(v); }
  static MLK_HOST_DEVICE __nv_fp8_e4m3 from_float(float v) { return __nv_fp8_e4m3(v); }
};
template <> struct Convert<__nv_fp8_e5m2> {
  static MLK_HOST_DEVICE float to_float(__nv_fp8_e5m2 v) { return float(v); }
  static MLK_HOST_DEVICE __nv_fp8_e5m2 from_float(float v) { return __nv_fp8_e5m2(v); }
};

template <typename T> MLK_HOST_DEVICE float to_float(T v) { return Convert<T>::to_float(v); }
template <typename T> MLK_HOST_DEVICE T from_float(float v) { return Convert<T>::from_float(v); }

// Packed pairs for the 16-bit types.
template <typename T> struct Packed2 { using type = void; };
template <> struct Packed2<__half> { using type = __half2; };
template <> struct Packed2<__nv_bfloat16> { using type = __nv_bfloat162; };

MLK_DEVICE float2 to_float2(__half2 v) { return __half22float2(v); }
MLK_DEVICE float2 to_float2(__nv_bfloat162 v) { return __bfloat1622float2(v); }

template <typename P> MLK_DEVICE P from_float2(float2 v);
template <> MLK_DEVICE __half2 from_float2<__half2>(float2 v) { return __floats2half2_rn(v.x, v.y); }
template <> MLK_DEVICE __nv_bfloat162 from_float2<__nv_bfloat162>(float2 v) {
  return __float22bfloat162_rn(v);
}

template <typename T> struct TypeName;
template <> struct TypeName<float> { static constexpr const char *value = "float"; };
template <> struct TypeName<__half> { static constexpr const char *value = "half"; };
template <> struct TypeName<__nv_bfloat16> { static constexpr const char *value = "bf16"; };
template <> struct TypeName<__nv_fp8_e4m3> { static constexpr const char *value = "fp8_e4m3"; };
template <> struct TypeName<__nv_fp8_e5m2> { static constexpr const char *value = "fp8_e5m2"; };

// A vector of N elements of T loaded with one 16-byte access.
template <typename T, int N>
struct alignas(sizeof(T) * N) AlignedVector {
  T val[N];
  MLK_HOST_DEVICE T &operator[](int i) { return val[i]; }
  MLK_HOST_DEVICE const T &operator[](int i) const { return val[i]; }
};

}  // namespace mlk

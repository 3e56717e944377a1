#pragma once
#include "dtype.cuh"

namespace mlk {

// Rotary position embedding applied in place to q [tokens, heads, head_dim]
// and k [tokens, kv_heads, head_dim]. NeoX style rotates the halves (x_i,
// x_{i+d/2}); GPT-J style rotates interleaved pairs (x_{2i}, x_{2i+1}).
template <typename T, bool NeoX>
__global__ void rotary_embedding_kernel(T *__restrict__ q, T *__restrict__ k,
                                        const int *__restrict__ positions, int heads,
                                        int kv_heads, int head_dim, float theta) {
  const int token = blockIdx.x;
  const int pos = positions[token];
  const int half_dim = head_dim / 2;
  const int total = (heads + kv_heads) * half_dim;
  for (int idx = threadIdx.x; idx < total; idx += blockDim.x) {
    const int head = idx / half_dim;
    const int i = idx % half_dim;
    T *base = head < heads ? q + (static_cast<size_t>(token) * heads + head) * head_dim
                           : k + (static_cast<size_t>(token) * kv_heads + (head - heads)) * head_dim;
    const float inv_freq = powf(theta, -2.f * i / head_dim);
    float s, c;
    sincosf(pos * inv_freq, &s, &c);
    const int i0 = NeoX ? i : 2 * i;
    const int i1 = NeoX ? i + half_dim : 2 * i + 1;
    const float x0 = to_float(base[i0]);
    const float x1 = to_float(base[i1]);
    base[i0] = from_float<T>(x0 * c - x1 * s);
    base[i1] = from_float<T>(x1 * c + x0 * s);
  }
}

// GPT-J style on packed pairs with a precomputed cos/sin cache
// [max_pos, head_dim / 2] in the same 16-bit type: __hmul2 and __hfma2.
template <typename T>
__global__ void rotary_cached_pairs_kernel(T *__restrict__ x, const T *__restrict__ cos_cache,
                                           const T *__restrict__ sin_cache,
                                           const int *__restrict__ positions, int heads,
                                           int head_dim) {
  using P2 = typename Packed2<T>::type;
  const int token = blockIdx.x;
  const int half_dim = head_dim / 2;
  const T *cs = cos_cache + static_cast<size_t>(positions[token]) * half_dim;
  const T *sn = sin_cache + static_cast<size_t>(positions[token]) * half_dim;
  P2 *rows = reinterpret_cast<P2 *>(x + static_cast<size_t>(token) * heads * head_dim);
  for (int idx = threadIdx.x; idx < heads * half_dim; idx += blockDim.x) {
    const int i = idx % half_dim;
    const P2 v = rows[idx];
    P2 c2, s2;
    c2.x = cs[i]; c2.y = cs[i];
    s2.x = sn[i]; s2.y = sn[i];
    // (x0, x1) -> (x0 c - x1 s, x1 c + x0 s): the swapped pair with the sign
    // of its first lane flipped, times sin, added to v times cos.
    P2 swapped = __lowhigh2highlow(v);
    P2 sign;
    sign.x = from_float<T>(-1.f);
    sign.y = from_float<T>(1.f);
    rows[idx] = __hfma2(__hmul2(swapped, sign), s2, __hmul2(v, c2));
  }
}

}  // namespace mlk

/*
 * mip_reference.cuh: a host reference of CUDA's texture fetches from a
 * mipmapped 2-D texture of one float channel, written from the CUDA
 * Programming Guide's "Texture Fetching" appendix and the texture
 * descriptor's documentation, independently of cuemu's sampler:
 *
 * - normalized coordinates, clamp addressing: x is scaled by the level's
 *   width; nearest point reads T[floor(x)], linear reads T[i], T[i+1]
 *   (i = floor(x - 0.5)) with weights 1 - a, a, where a = frac(x - 0.5) in
 *   9-bit fixed point (8 fractional bits);
 * - the level of detail is the given level (tex2DLod) or log2 of the longer
 *   of the two gradients measured in texels of level 0 (tex2DGrad), plus
 *   mipmapLevelBias, clamped to [minMipmapLevelClamp, maxMipmapLevelClamp]
 *   and to the levels there are; point mipmap filtering takes the nearest
 *   level, linear blends the two levels around it.
 *
 * The test programs then compare cuemu's fetches with these values.
 */
#ifndef MIP_REFERENCE_CUH
#define MIP_REFERENCE_CUH

#include <cmath>
#include <vector>

/* The levels of a texture: level l is width[l] x height[l] texels. */
struct MipLevels {
  std::vector<std::vector<float>> texel;
  std::vector<int> width, height;

  /* Levels of a w x h texture: level l has sides max(1, side >> l); texel
   * (x, y) of level l is value(l, x, y). */
  template <class F> MipLevels(int w, int h, int levels, F value) {
    for (int l = 0; l < levels; ++l) {
      int lw = w >> l > 0 ? w >> l : 1, lh = h >> l > 0 ? h >> l : 1;
      width.push_back(lw);
      height.push_back(lh);
      std::vector<float> t(lw * lh);
      for (int y = 0; y < lh; ++y)
        for (int x = 0; x < lw; ++x)
          t[y * lw + x] = value(l, x, y);
      texel.push_back(t);
    }
  }
  int levels() const { return static_cast<int>(width.size()); }
};

/* The sampling state of a reference fetch. */
struct MipSampler {
  bool linear;     /* filterMode */
  bool mip_linear; /* mipmapFilterMode */
  float bias, min_clamp, max_clamp;
};

/* The fraction in 9-bit fixed point, as a multiple of 1/256. */
static inline float ref_weight(float frac) {
  return std::floor(frac * 256.0f + 0.5f) / 256.0f;
}

static inline int ref_clamp(int i, int n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }

/* One level at normalized (x, y). */
static inline float ref_sample_level(const MipLevels &m, int l, const MipSampler &s,
                                     float x, float y) {
  const int w = m.width[l], h = m.height[l];
  const std::vector<float> &t = m.texel[l];
  const float u = x * w, v = y * h;
  if (!s.linear)
    return t[ref_clamp(static_cast<int>(std::floor(v)), h) * w +
             ref_clamp(static_cast<int>(std::floor(u)), w)];
  const float ub = u - 0.5f, vb = v - 0.5f;
  const int i = static_cast<int>(std::floor(ub)), j = static_cast<int>(std::floor(vb));
  const float a = ref_weight(ub - std::floor(ub)), b = ref_weight(vb - std::floor(vb));
  auto at = [&](int xi, int yi) { return t[ref_clamp(yi, h) * w + ref_clamp(xi, w)]; };
  return (1 - a) * (1 - b) * at(i, j) + a * (1 - b) * at(i + 1, j) +
         (1 - a) * b * at(i, j + 1) + a * b * at(i + 1, j + 1);
}

/* The level of detail after the bias and clamps. */
static inline float ref_lambda(const MipLevels &m, const MipSampler &s, float lod) {
  float lambda = lod + s.bias;
  lambda = std::fmax(s.min_clamp, std::fmin(s.max_clamp, lambda));
  return std::fmax(0.0f, std::fmin(static_cast<float>(m.levels() - 1), lambda));
}

/* tex2DLod at normalized (x, y) and level `lod`. */
static inline float ref_lod(const MipLevels &m, const MipSampler &s, float x, float y,
                            float lod) {
  const float lambda = ref_lambda(m, s, lod);
  if (!s.mip_linear)
    return ref_sample_level(m, static_cast<int>(std::floor(lambda + 0.5f)), s, x, y);
  const int l0 = static_cast<int>(std::floor(lambda));
  const float a = ref_weight(lambda - l0);
  if (l0 + 1 >= m.levels() || a == 0.0f)
    return ref_sample_level(m, l0, s, x, y);
  return (1 - a) * ref_sample_level(m, l0, s, x, y) + a * ref_sample_level(m, l0 + 1, s, x, y);
}

/* tex2DGrad: the level of detail from the gradients (normalized units). */
static inline float ref_grad(const MipLevels &m, const MipSampler &s, float x, float y,
                             float dxx, float dxy, float dyx, float dyy) {
  const double w = m.width[0], h = m.height[0];
  const double lx = std::sqrt((dxx * w) * (dxx * w) + (dxy * h) * (dxy * h));
  const double ly = std::sqrt((dyx * w) * (dyx * w) + (dyy * h) * (dyy * h));
  const double rho = lx > ly ? lx : ly;
  return ref_lod(m, s, x, y, static_cast<float>(std::log2(rho)));
}

/* Whether got is within a relative 1e-5 of want (the blends of two levels
 * are not exact in single precision; everything else the tests compare is). */
static inline bool ref_close(float got, float want) {
  return std::fabs(got - want) <= 1e-5f * (std::fabs(want) > 1 ? std::fabs(want) : 1);
}

#endif

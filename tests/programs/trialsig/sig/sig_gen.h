// Deterministic test-signal generation (host only).
#ifndef SIG_SIG_GEN_H
#define SIG_SIG_GEN_H
#include <cmath>
#include <cstdint>
#include <vector>

struct Lcg {
  uint32_t s;
  explicit Lcg(uint32_t seed) : s(seed) {}
  float uniform() { s = s * 1664525u + 1013904223u; return (s >> 8) * (1.0f / 16777216.0f); }
  float noise() { return 2.0f * uniform() - 1.0f; }
};

// A sum of tones plus a little noise.
std::vector<float> make_test_signal(int n, float fs, uint32_t seed);
// A windowed-sinc low-pass prototype.
std::vector<float> design_lowpass(int ntaps, float cutoff_norm);
#endif  // SIG_SIG_GEN_H

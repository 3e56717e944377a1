// host_sim.h: the reference simulator on the host, with std::complex<double>.
#ifndef QSIM_HOST_SIM_H
#define QSIM_HOST_SIM_H
#include <complex>
#include <vector>
#include <cmath>
#include <cstdint>

namespace host {

typedef std::complex<double> cplx;
typedef std::vector<cplx> State;

inline State zero_state(int n) {
  State s(size_t(1) << n, cplx(0, 0));
  s[0] = 1;
  return s;
}

// Deterministic pseudo-random normalised state (a small LCG, same on every build).
inline State random_state(int n, uint64_t seed) {
  State s(size_t(1) << n);
  double norm = 0;
  for (auto &a : s) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    double re = double(seed >> 11) / double(1ULL << 53) - 0.5;
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    double im = double(seed >> 11) / double(1ULL << 53) - 0.5;
    a = cplx(re, im);
    norm += std::norm(a);
  }
  for (auto &a : s) a /= std::sqrt(norm);
  return s;
}

inline void apply1(State &s, int t, const cplx m[4]) {
  size_t bit = size_t(1) << t;
  for (size_t i = 0; i < s.size(); ++i)
    if (!(i & bit)) {
      cplx a0 = s[i], a1 = s[i | bit];
      s[i] = m[0] * a0 + m[1] * a1;
      s[i | bit] = m[2] * a0 + m[3] * a1;
    }
}

inline void apply_c1(State &s, int c, int t, const cplx m[4]) {
  size_t cb = size_t(1) << c, tb = size_t(1) << t;
  for (size_t i = 0; i < s.size(); ++i)
    if ((i & cb) && !(i & tb)) {
      cplx a0 = s[i], a1 = s[i | tb];
      s[i] = m[0] * a0 + m[1] * a1;
      s[i | tb] = m[2] * a0 + m[3] * a1;
    }
}

inline void swap(State &s, int q0, int q1) {
  size_t b0 = size_t(1) << q0, b1 = size_t(1) << q1;
  for (size_t i = 0; i < s.size(); ++i)
    if ((i & b0) && !(i & b1)) std::swap(s[i], s[(i & ~b0) | b1]);
}

inline void cphase(State &s, int q0, int q1, double phi) {
  size_t m = (size_t(1) << q0) | (size_t(1) << q1);
  cplx ph = std::polar(1.0, phi);
  for (size_t i = 0; i < s.size(); ++i)
    if ((i & m) == m) s[i] *= ph;
}

inline void hadamard_m(cplx m[4]) {
  double r = 1 / std::sqrt(2.0);
  m[0] = r; m[1] = r; m[2] = r; m[3] = -r;
}

// QFT without the final swaps reversed order: the textbook circuit.
inline void qft(State &s, int n) {
  cplx h[4];
  hadamard_m(h);
  for (int j = n - 1; j >= 0; --j) {
    apply1(s, j, h);
    for (int k = j - 1; k >= 0; --k) cphase(s, k, j, M_PI / double(1 << (j - k)));
  }
  for (int i = 0; i < n / 2; ++i) swap(s, i, n - 1 - i);
}

inline double max_diff(const State &a, const State &b) {
  double d = 0;
  for (size_t i = 0; i < a.size(); ++i) d = std::fmax(d, std::abs(a[i] - b[i]));
  return d;
}

}  // namespace host

#endif  // QSIM_HOST_SIM_H

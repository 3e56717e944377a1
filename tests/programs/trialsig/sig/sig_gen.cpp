#include "sig_gen.h"

std::vector<float> make_test_signal(int n, float fs, uint32_t seed) {
  Lcg rng(seed);
  std::vector<float> x(n);
  const double f1 = 0.013 * fs, f2 = 0.21 * fs, f3 = 0.37 * fs;
  for (int i = 0; i < n; ++i) {
    double t = i / (double)fs;
    x[i] = (float)(0.8 * std::sin(2 * M_PI * f1 * t) + 0.3 * std::sin(2 * M_PI * f2 * t + 0.4) +
                   0.1 * std::cos(2 * M_PI * f3 * t)) + 0.05f * rng.noise();
  }
  return x;
}

std::vector<float> design_lowpass(int ntaps, float fc) {
  std::vector<float> h(ntaps);
  double sum = 0;
  const double mid = (ntaps - 1) / 2.0;
  for (int i = 0; i < ntaps; ++i) {
    double m = i - mid;
    double sinc = m == 0 ? 2 * fc : std::sin(2 * M_PI * fc * m) / (M_PI * m);
    double w = 0.54 - 0.46 * std::cos(2 * M_PI * i / (ntaps - 1));
    h[i] = (float)(sinc * w);
    sum += h[i];
  }
  for (auto &v : h) v = (float)(v / sum);
  return h;
}

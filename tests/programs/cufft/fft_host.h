/* fft_host.h: the host references of the cufft test programs: a direct
 * DFT in long double, relative errors, and seeded inputs. */
#ifndef FFT_HOST_H
#define FFT_HOST_H

#include <cmath>
#include <vector>

struct cplx {
  long double re, im;
};

/* The unnormalised DFT of x (length n, element stride 1), sign -1 or +1. */
static std::vector<cplx> host_dft(const std::vector<cplx> &x, int sign) {
  size_t n = x.size();
  std::vector<cplx> y(n);
  const long double pi = 3.141592653589793238462643383279502884L;
  std::vector<long double> cs(n), sn(n);
  for (size_t j = 0; j < n; ++j) {
    cs[j] = cosl(sign * 2 * pi * (long double)j / n);
    sn[j] = sinl(sign * 2 * pi * (long double)j / n);
  }
  for (size_t k = 0; k < n; ++k) {
    long double re = 0, im = 0;
    for (size_t j = 0, jk = 0; j < n; ++j, jk = (jk + k) % n) {
      long double c = cs[jk], s = sn[jk];
      re += x[j].re * c - x[j].im * s;
      im += x[j].re * s + x[j].im * c;
    }
    y[k].re = re, y[k].im = im;
  }
  return y;
}

/* A reproducible value in [-1, 1) of stream `seed` at `i`. */
static double host_value(unsigned seed, size_t i) {
  unsigned long long z = (seed + 1) * 0x9E3779B97F4A7C15ULL + i * 0xBF58476D1CE4E5B9ULL;
  z ^= z >> 31;
  z *= 0x94D049BB133111EBULL;
  z ^= z >> 29;
  return (double)(z >> 11) / (double)(1ULL << 52) - 1.0;
}

/* The relative error ||got - want|| / ||want|| (2-norms). */
struct rel_error {
  long double err = 0, norm = 0;
  void add(long double got_re, long double got_im, const cplx &want) {
    long double dr = got_re - want.re, di = got_im - want.im;
    err += dr * dr + di * di;
    norm += want.re * want.re + want.im * want.im;
  }
  double value() const {
    return norm > 0 ? (double)sqrtl(err / norm) : (double)sqrtl(err);
  }
};

#endif /* FFT_HOST_H */

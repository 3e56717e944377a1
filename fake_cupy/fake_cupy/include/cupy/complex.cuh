// cupy/complex.cuh of the fake CuPy, written to CuPy's documented interface:
// complex<float> and complex<double> (Thrust's complex type, thrust::complex,
// also visible as ::complex) with arithmetic, comparison and the math
// functions of std::complex, for kernels compiled by NVRTC or by cuemu.
#ifndef FAKE_CUPY_COMPLEX_CUH
#define FAKE_CUPY_COMPLEX_CUH

namespace thrust {

template <typename T>
struct alignas(2 * sizeof(T)) complex {
  typedef T value_type;

  __host__ __device__ complex(const T &re = T(), const T &im = T())
      : re_(re), im_(im) {}
  template <typename U>
  __host__ __device__ complex(const complex<U> &z)
      : re_(T(z.real())), im_(T(z.imag())) {}

  __host__ __device__ T real() const { return re_; }
  __host__ __device__ T imag() const { return im_; }
  __host__ __device__ void real(T re) { re_ = re; }
  __host__ __device__ void imag(T im) { im_ = im; }

  __host__ __device__ complex &operator=(const T &re) {
    re_ = re;
    im_ = T();
    return *this;
  }
  __host__ __device__ complex &operator+=(const complex &z) {
    re_ += z.re_;
    im_ += z.im_;
    return *this;
  }
  __host__ __device__ complex &operator-=(const complex &z) {
    re_ -= z.re_;
    im_ -= z.im_;
    return *this;
  }
  __host__ __device__ complex &operator*=(const complex &z) {
    *this = *this * z;
    return *this;
  }
  __host__ __device__ complex &operator/=(const complex &z) {
    *this = *this / z;
    return *this;
  }
  __host__ __device__ complex &operator+=(const T &x) { re_ += x; return *this; }
  __host__ __device__ complex &operator-=(const T &x) { re_ -= x; return *this; }
  __host__ __device__ complex &operator*=(const T &x) {
    re_ *= x;
    im_ *= x;
    return *this;
  }
  __host__ __device__ complex &operator/=(const T &x) {
    re_ /= x;
    im_ /= x;
    return *this;
  }

  __host__ __device__ friend complex operator+(const complex &a, const complex &b) {
    return complex(a.re_ + b.re_, a.im_ + b.im_);
  }
  __host__ __device__ friend complex operator-(const complex &a, const complex &b) {
    return complex(a.re_ - b.re_, a.im_ - b.im_);
  }
  __host__ __device__ friend complex operator*(const complex &a, const complex &b) {
    return complex(a.re_ * b.re_ - a.im_ * b.im_, a.re_ * b.im_ + a.im_ * b.re_);
  }
  __host__ __device__ friend complex operator/(const complex &a, const complex &b) {
    // Smith's algorithm (no overflow in |b|^2), step for step as NumPy's
    // complex division, so that a kernel's a / b equals the fake's arrays'.
    T br = b.re_ < 0 ? -b.re_ : b.re_, bi = b.im_ < 0 ? -b.im_ : b.im_;
    if (br >= bi) {
      if (br == 0 && bi == 0)
        return complex(a.re_ / br, a.im_ / bi);
      T rat = b.im_ / b.re_, scl = T(1) / (b.re_ + b.im_ * rat);
      return complex((a.re_ + a.im_ * rat) * scl, (a.im_ - a.re_ * rat) * scl);
    }
    T rat = b.re_ / b.im_, scl = T(1) / (b.im_ + b.re_ * rat);
    return complex((a.re_ * rat + a.im_) * scl, (a.im_ * rat - a.re_) * scl);
  }
  __host__ __device__ friend complex operator+(const complex &a, const T &x) { return complex(a.re_ + x, a.im_); }
  __host__ __device__ friend complex operator+(const T &x, const complex &a) { return complex(x + a.re_, a.im_); }
  __host__ __device__ friend complex operator-(const complex &a, const T &x) { return complex(a.re_ - x, a.im_); }
  __host__ __device__ friend complex operator-(const T &x, const complex &a) { return complex(x - a.re_, -a.im_); }
  __host__ __device__ friend complex operator*(const complex &a, const T &x) { return complex(a.re_ * x, a.im_ * x); }
  __host__ __device__ friend complex operator*(const T &x, const complex &a) { return complex(x * a.re_, x * a.im_); }
  __host__ __device__ friend complex operator/(const complex &a, const T &x) { return complex(a.re_ / x, a.im_ / x); }
  __host__ __device__ friend complex operator/(const T &x, const complex &a) { return complex(x) / a; }
  __host__ __device__ friend complex operator+(const complex &a) { return a; }
  __host__ __device__ friend complex operator-(const complex &a) { return complex(-a.re_, -a.im_); }
  __host__ __device__ friend bool operator==(const complex &a, const complex &b) { return a.re_ == b.re_ && a.im_ == b.im_; }
  __host__ __device__ friend bool operator!=(const complex &a, const complex &b) { return !(a == b); }
  __host__ __device__ friend bool operator==(const complex &a, const T &x) { return a.re_ == x && a.im_ == T(); }
  __host__ __device__ friend bool operator==(const T &x, const complex &a) { return a == x; }
  __host__ __device__ friend bool operator!=(const complex &a, const T &x) { return !(a == x); }
  __host__ __device__ friend bool operator!=(const T &x, const complex &a) { return !(a == x); }

 private:
  T re_, im_;
};

template <typename T> __host__ __device__ inline T real(const complex<T> &z) { return z.real(); }
template <typename T> __host__ __device__ inline T imag(const complex<T> &z) { return z.imag(); }
// atan2 in the precision of T, not through double.
__host__ __device__ inline float cupy_atan2_(float y, float x) { return atan2f(y, x); }
__host__ __device__ inline double cupy_atan2_(double y, double x) { return atan2(y, x); }
// |z| as NumPy's vectorized complex absolute computes it (larger * sqrt(1 +
// ratio^2), with a fused multiply-add), so that a kernel's abs(z) equals
// the fake's cupy.abs on contiguous arrays.
template <typename T> __host__ __device__ inline T abs(const complex<T> &z) {
  T re = z.real() < 0 ? -z.real() : z.real();
  T im = z.imag() < 0 ? -z.imag() : z.imag();
  const T inf = T(1) / T(0);
  if (re == inf || im == inf) return inf;
  if (re != re || im != im) return re + im;
  T larger = re > im ? re : im, smaller = re > im ? im : re;
  if (larger == 0) return 0;
  T ratio = smaller / larger;
  return sqrt(fma(ratio, ratio, T(1))) * larger;
}
template <typename T> __host__ __device__ inline T arg(const complex<T> &z) { return cupy_atan2_(z.imag(), z.real()); }
template <typename T> __host__ __device__ inline T norm(const complex<T> &z) { return z.real() * z.real() + z.imag() * z.imag(); }
template <typename T> __host__ __device__ inline complex<T> conj(const complex<T> &z) { return complex<T>(z.real(), -z.imag()); }
template <typename T> __host__ __device__ inline complex<T> polar(const T &m, const T &theta = T()) {
  return complex<T>(m * ::cos(theta), m * ::sin(theta));
}
template <typename T> __host__ __device__ inline complex<T> proj(const complex<T> &z) { return z; }
template <typename T> __host__ __device__ inline complex<T> exp(const complex<T> &z) {
  T e = ::exp(z.real());
  return complex<T>(e * ::cos(z.imag()), e * ::sin(z.imag()));
}
template <typename T> __host__ __device__ inline complex<T> log(const complex<T> &z) {
  return complex<T>(::log(abs(z)), arg(z));
}
template <typename T> __host__ __device__ inline complex<T> log10(const complex<T> &z) {
  return log(z) / ::log(T(10));
}
template <typename T> __host__ __device__ inline complex<T> sqrt(const complex<T> &z) {
  T m = abs(z);
  T re = ::sqrt((m + z.real()) / T(2));
  T im = ::sqrt((m - z.real()) / T(2));
  return complex<T>(re, z.imag() < T() ? -im : im);
}
template <typename T> __host__ __device__ inline complex<T> pow(const complex<T> &z, const complex<T> &w) {
  if (z.real() == T() && z.imag() == T()) return complex<T>();
  return exp(w * log(z));
}
template <typename T> __host__ __device__ inline complex<T> pow(const complex<T> &z, const T &x) { return pow(z, complex<T>(x)); }
template <typename T> __host__ __device__ inline complex<T> pow(const T &x, const complex<T> &w) { return pow(complex<T>(x), w); }
template <typename T> __host__ __device__ inline complex<T> sin(const complex<T> &z) {
  return complex<T>(::sin(z.real()) * ::cosh(z.imag()), ::cos(z.real()) * ::sinh(z.imag()));
}
template <typename T> __host__ __device__ inline complex<T> cos(const complex<T> &z) {
  return complex<T>(::cos(z.real()) * ::cosh(z.imag()), -::sin(z.real()) * ::sinh(z.imag()));
}
template <typename T> __host__ __device__ inline complex<T> tan(const complex<T> &z) { return sin(z) / cos(z); }
template <typename T> __host__ __device__ inline complex<T> sinh(const complex<T> &z) {
  return complex<T>(::sinh(z.real()) * ::cos(z.imag()), ::cosh(z.real()) * ::sin(z.imag()));
}
template <typename T> __host__ __device__ inline complex<T> cosh(const complex<T> &z) {
  return complex<T>(::cosh(z.real()) * ::cos(z.imag()), ::sinh(z.real()) * ::sin(z.imag()));
}
template <typename T> __host__ __device__ inline complex<T> tanh(const complex<T> &z) { return sinh(z) / cosh(z); }
template <typename T> __host__ __device__ inline complex<T> asinh(const complex<T> &z) { return log(z + sqrt(z * z + T(1))); }
template <typename T> __host__ __device__ inline complex<T> acosh(const complex<T> &z) { return log(z + sqrt(z + T(1)) * sqrt(z - T(1))); }
template <typename T> __host__ __device__ inline complex<T> atanh(const complex<T> &z) { return (log(T(1) + z) - log(T(1) - z)) / T(2); }
template <typename T> __host__ __device__ inline complex<T> asin(const complex<T> &z) {
  complex<T> w = asinh(complex<T>(-z.imag(), z.real()));
  return complex<T>(w.imag(), -w.real());
}
template <typename T> __host__ __device__ inline complex<T> acos(const complex<T> &z) {
  complex<T> w = asin(z);
  return complex<T>(T(1.57079632679489661923) - w.real(), -w.imag());
}
template <typename T> __host__ __device__ inline complex<T> atan(const complex<T> &z) {
  complex<T> w = atanh(complex<T>(-z.imag(), z.real()));
  return complex<T>(w.imag(), -w.real());
}
template <typename T> __host__ __device__ inline bool isnan(const complex<T> &z) { return ::isnan(z.real()) || ::isnan(z.imag()); }
template <typename T> __host__ __device__ inline bool isinf(const complex<T> &z) { return ::isinf(z.real()) || ::isinf(z.imag()); }
template <typename T> __host__ __device__ inline bool isfinite(const complex<T> &z) { return ::isfinite(z.real()) && ::isfinite(z.imag()); }

}  // namespace thrust

using thrust::complex;

#endif

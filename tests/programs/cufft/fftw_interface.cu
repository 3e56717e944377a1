// fftw_interface.cu: cuFFTW, FFTW's interface of cuFFT (<cufftw.h>,
// -lcufftw), on host arrays as NVIDIA's cuFFTW takes them: 1-D, 2-D and
// 3-D complex transforms (forward then backward gives n times the input),
// a real-to-complex transform and its inverse, in place and out of place,
// fftw_plan_many_dft with strides and distances, fftw_execute_dft on other
// arrays, the single-precision fftwf_ forms, fftw_malloc and fftw_free, and
// the NULL plans of what cuFFT cannot do (rank 4, a length of 0). Every
// value is checked against a direct DFT. Prints PASS.
// CUEMU_OPTIONS: -lcufftw
// NVCC_OPTIONS: -lcufftw
#include <cufftw.h>

#include <cmath>
#include <cstdio>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const char *what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what);
    ++failures;
  }
}

// The direct DFT of x (n values, stride 1): sign -1 forward, +1 backward.
std::vector<double> direct_dft(const std::vector<double> &x, int n, int sign) {
  std::vector<double> y(2 * n, 0.0);
  const double pi = std::acos(-1.0);
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j) {
      const double a = sign * 2.0 * pi * j * k / n;
      y[2 * k] += x[2 * j] * std::cos(a) - x[2 * j + 1] * std::sin(a);
      y[2 * k + 1] += x[2 * j] * std::sin(a) + x[2 * j + 1] * std::cos(a);
    }
  return y;
}

bool near(double a, double b, double tol) { return std::fabs(a - b) <= tol; }

// n complex values in a vector of reals (a vector of fftw_complex, an
// array type, is not one that nvcc's front end constructs).
struct complex_array {
  std::vector<double> store;
  explicit complex_array(int n) : store(2 * static_cast<size_t>(n), 0.0) {}
  fftw_complex *data() { return reinterpret_cast<fftw_complex *>(store.data()); }
  fftw_complex &operator[](int i) { return data()[i]; }
};

void complex_1d() {
  const int n = 12;
  fftw_complex *in = static_cast<fftw_complex *>(fftw_malloc(n * sizeof(fftw_complex)));
  fftw_complex *out = static_cast<fftw_complex *>(fftw_malloc(n * sizeof(fftw_complex)));
  std::vector<double> x(2 * n);
  for (int i = 0; i < n; ++i) {
    in[i][0] = x[2 * i] = std::sin(0.3 * i) + 1.0;
    in[i][1] = x[2 * i + 1] = std::cos(0.7 * i);
  }
  fftw_plan forward = fftw_plan_dft_1d(n, in, out, FFTW_FORWARD, FFTW_ESTIMATE);
  fftw_plan backward = fftw_plan_dft_1d(n, out, in, FFTW_BACKWARD, FFTW_ESTIMATE);
  check(forward != nullptr && backward != nullptr, "fftw_plan_dft_1d");
  fftw_execute(forward);
  const std::vector<double> y = direct_dft(x, n, -1);
  bool ok = true;
  for (int k = 0; k < n; ++k)
    ok = ok && near(out[k][0], y[2 * k], 1e-9) && near(out[k][1], y[2 * k + 1], 1e-9);
  check(ok, "1-D forward against the direct DFT");
  fftw_execute(backward);
  ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && near(in[i][0], n * x[2 * i], 1e-9) && near(in[i][1], n * x[2 * i + 1], 1e-9);
  check(ok, "1-D backward gives n times the input");
  fftw_destroy_plan(forward);
  fftw_destroy_plan(backward);
  fftw_free(in);
  fftw_free(out);
}

void complex_2d_3d() {
  const int n0 = 4, n1 = 6, n2 = 5;
  complex_array a(n0 * n1 * n2), b(n0 * n1 * n2), c(n0 * n1 * n2);
  for (int i = 0; i < n0 * n1 * n2; ++i) {
    a[i][0] = 0.01 * i;
    a[i][1] = 1.0 - 0.02 * i;
  }
  fftw_plan f2 = fftw_plan_dft_2d(n0, n1, a.data(), b.data(), FFTW_FORWARD, FFTW_MEASURE);
  fftw_plan b2 = fftw_plan_dft_2d(n0, n1, b.data(), c.data(), FFTW_BACKWARD, FFTW_MEASURE);
  fftw_execute(f2);
  // The (0, 0) value is the sum of the inputs.
  double sum_re = 0.0;
  for (int i = 0; i < n0 * n1; ++i)
    sum_re += a[i][0];
  check(near(b[0][0], sum_re, 1e-9), "2-D DC term");
  fftw_execute(b2);
  bool ok = true;
  for (int i = 0; i < n0 * n1; ++i)
    ok = ok && near(c[i][0], n0 * n1 * a[i][0], 1e-9) && near(c[i][1], n0 * n1 * a[i][1], 1e-9);
  check(ok, "2-D round trip");
  const int n[3] = {n0, n1, n2};
  fftw_plan f3 = fftw_plan_dft(3, n, a.data(), b.data(), FFTW_FORWARD, FFTW_ESTIMATE);
  fftw_plan b3 = fftw_plan_dft_3d(n0, n1, n2, b.data(), b.data(), FFTW_BACKWARD, FFTW_ESTIMATE);
  fftw_execute(f3);
  fftw_execute(b3);  // in place
  ok = true;
  for (int i = 0; i < n0 * n1 * n2; ++i)
    ok = ok && near(b[i][0], n0 * n1 * n2 * a[i][0], 1e-8) &&
         near(b[i][1], n0 * n1 * n2 * a[i][1], 1e-8);
  check(ok, "3-D round trip, the backward in place");
  fftw_destroy_plan(f2);
  fftw_destroy_plan(b2);
  fftw_destroy_plan(f3);
  fftw_destroy_plan(b3);
}

void real_transforms() {
  const int n = 10;
  std::vector<double> r(n), back(n);
  complex_array h(n / 2 + 1);
  std::vector<double> x(2 * n, 0.0);
  for (int i = 0; i < n; ++i)
    r[i] = x[2 * i] = std::cos(0.4 * i) + 0.5 * i;
  fftw_plan r2c = fftw_plan_dft_r2c_1d(n, r.data(), h.data(), FFTW_ESTIMATE);
  fftw_plan c2r = fftw_plan_dft_c2r_1d(n, h.data(), back.data(), FFTW_ESTIMATE);
  fftw_execute(r2c);
  const std::vector<double> y = direct_dft(x, n, -1);
  bool ok = true;
  for (int k = 0; k <= n / 2; ++k)
    ok = ok && near(h[k][0], y[2 * k], 1e-9) && near(h[k][1], y[2 * k + 1], 1e-9);
  check(ok, "r2c: the Hermitian half of the DFT");
  fftw_execute(c2r);
  ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && near(back[i], n * r[i], 1e-9);
  check(ok, "c2r of r2c gives n times the input");
  // In place, 2-D: rows padded to 2 (n1/2 + 1) reals, as FFTW's.
  const int n0 = 3, n1 = 8, padded = 2 * (n1 / 2 + 1);
  std::vector<double> data(n0 * padded, 0.0), orig(n0 * n1);
  for (int i = 0; i < n0; ++i)
    for (int j = 0; j < n1; ++j)
      data[i * padded + j] = orig[i * n1 + j] = 1.0 + i - 0.25 * j;
  fftw_complex *spectrum = reinterpret_cast<fftw_complex *>(data.data());
  fftw_plan r2c2 = fftw_plan_dft_r2c_2d(n0, n1, data.data(), spectrum, FFTW_ESTIMATE);
  fftw_plan c2r2 = fftw_plan_dft_c2r_2d(n0, n1, spectrum, data.data(), FFTW_ESTIMATE);
  fftw_execute(r2c2);
  double total = 0.0;
  for (double v : orig)
    total += v;
  check(near(spectrum[0][0], total, 1e-9) && near(spectrum[0][1], 0.0, 1e-9),
        "in-place 2-D r2c DC term");
  fftw_execute(c2r2);
  ok = true;
  for (int i = 0; i < n0; ++i)
    for (int j = 0; j < n1; ++j)
      ok = ok && near(data[i * padded + j], n0 * n1 * orig[i * n1 + j], 1e-9);
  check(ok, "in-place 2-D c2r of r2c");
  fftw_destroy_plan(r2c);
  fftw_destroy_plan(c2r);
  fftw_destroy_plan(r2c2);
  fftw_destroy_plan(c2r2);
}

void many_and_execute_dft() {
  // Three interleaved transforms of length 8: stride 3, distance 1.
  const int n = 8, howmany = 3;
  complex_array in(n * howmany), out(n * howmany), other(n * howmany);
  for (int i = 0; i < n * howmany; ++i) {
    in[i][0] = std::sin(0.1 * i);
    in[i][1] = 0.0;
    other[i][0] = 1.0;
    other[i][1] = 0.0;
  }
  fftw_plan p = fftw_plan_many_dft(1, &n, howmany, in.data(), nullptr, howmany, 1,
                                   out.data(), nullptr, howmany, 1, FFTW_FORWARD,
                                   FFTW_ESTIMATE);
  check(p != nullptr, "fftw_plan_many_dft");
  fftw_execute(p);
  bool ok = true;
  for (int t = 0; t < howmany; ++t) {
    std::vector<double> x(2 * n);
    for (int j = 0; j < n; ++j) {
      x[2 * j] = in[j * howmany + t][0];
      x[2 * j + 1] = in[j * howmany + t][1];
    }
    const std::vector<double> y = direct_dft(x, n, -1);
    for (int k = 0; k < n; ++k)
      ok = ok && near(out[k * howmany + t][0], y[2 * k], 1e-9) &&
           near(out[k * howmany + t][1], y[2 * k + 1], 1e-9);
  }
  check(ok, "many: strided transforms against the direct DFT");
  // The same plan on other arrays: all ones transform to n at 0.
  fftw_execute_dft(p, other.data(), out.data());
  check(near(out[0][0], n, 1e-12) && near(out[howmany][0], 0.0, 1e-12),
        "fftw_execute_dft on other arrays");
  fftw_destroy_plan(p);
}

void single_precision() {
  const int n = 16;
  fftwf_complex *a = static_cast<fftwf_complex *>(fftwf_malloc(n * sizeof(fftwf_complex)));
  float *r = static_cast<float *>(fftwf_malloc(n * sizeof(float)));
  fftwf_complex *h = static_cast<fftwf_complex *>(fftwf_malloc((n / 2 + 1) * sizeof(fftwf_complex)));
  for (int i = 0; i < n; ++i) {
    a[i][0] = r[i] = static_cast<float>(i % 5);
    a[i][1] = 0.0f;
  }
  fftwf_plan f = fftwf_plan_dft_1d(n, a, a, FFTW_FORWARD, FFTW_ESTIMATE);
  fftwf_plan rf = fftwf_plan_dft_r2c_1d(n, r, h, FFTW_ESTIMATE);
  fftwf_execute(f);
  fftwf_execute(rf);
  bool ok = true;
  for (int k = 0; k <= n / 2; ++k)
    ok = ok && std::fabs(a[k][0] - h[k][0]) < 1e-4f && std::fabs(a[k][1] - h[k][1]) < 1e-4f;
  check(ok && std::fabs(a[0][0] - 30.0f) < 1e-4f, "fftwf_: c2c and r2c agree");
  fftwf_destroy_plan(f);
  fftwf_destroy_plan(rf);
  fftwf_free(a);
  fftwf_free(r);
  fftwf_free(h);
}

void null_plans() {
  complex_array a(16);
  const int four[4] = {2, 2, 2, 2};
  check(fftw_plan_dft(4, four, a.data(), a.data(), FFTW_FORWARD, FFTW_ESTIMATE) == nullptr,
        "rank 4 gives a NULL plan");
  check(fftw_plan_dft_1d(0, a.data(), a.data(), FFTW_FORWARD, FFTW_ESTIMATE) == nullptr,
        "a length of 0 gives a NULL plan");
}

}  // namespace

int main() {
  complex_1d();
  complex_2d_3d();
  real_transforms();
  many_and_execute_dft();
  single_precision();
  null_plans();
  fftw_cleanup();
  if (failures)
    return 1;
  std::printf("PASS\n");
  return 0;
}

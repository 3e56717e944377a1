/* fft_callbacks.cu: cuFFT's callbacks in the style of the samples'
 * simpleCUFFT_callback: __device__ functions whose addresses the program
 * reads from __device__ variables and gives cufftXtSetCallback. A C2C
 * transform whose load callback multiplies each input by a filter (its
 * caller info, device memory) and whose store callback scales each output
 * by 1/n; a D2Z whose load callback doubles each real input; a Z2D whose
 * store callback writes each real output shifted, through shared memory
 * that cufftXtSetCallbackSharedSize asked for; then the C2C again after
 * cufftXtClearCallback. Each against the same transform without callbacks
 * and the host's arithmetic.
 * CUEMU_OPTIONS: -lcufft */
#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

#include <cufft.h>
#include <cufftXt.h>

#define CB_CHECK(call)                                                         \
  do {                                                                         \
    int s_ = (int)(call);                                                      \
    if (s_ != 0) {                                                             \
      std::printf("%s:%d: %s returned %d\n", __FILE__, __LINE__, #call, s_);  \
      return 1;                                                                \
    }                                                                          \
  } while (0)

static const int cb_n = 64;

__device__ cufftComplex cb_load_filtered(void *in, size_t offset, void *info,
                                         void *shared) {
  const float *filter = static_cast<const float *>(info);
  cufftComplex v = static_cast<cufftComplex *>(in)[offset];
  float f = filter[offset % cb_n];
  return make_cuComplex(v.x * f, v.y * f);
}

__device__ void cb_store_scaled(void *out, size_t offset, cufftComplex v,
                                void *info, void *shared) {
  static_cast<cufftComplex *>(out)[offset] =
      make_cuComplex(v.x / cb_n, v.y / cb_n);
}

__device__ cufftDoubleReal cb_load_doubled(void *in, size_t offset,
                                           void *info, void *shared) {
  return 2 * static_cast<cufftDoubleReal *>(in)[offset];
}

__device__ void cb_store_shifted(void *out, size_t offset, cufftDoubleReal v,
                                 void *info, void *shared) {
  /* The shared memory asked for exists (one double of it is used). */
  double *scratch = static_cast<double *>(shared);
  scratch[0] = v;
  static_cast<cufftDoubleReal *>(out)[offset] = scratch[0] + 1.0;
}

__device__ cufftCallbackLoadC cb_load_filtered_ptr = cb_load_filtered;
__device__ cufftCallbackStoreC cb_store_scaled_ptr = cb_store_scaled;
__device__ cufftCallbackLoadD cb_load_doubled_ptr = cb_load_doubled;
__device__ cufftCallbackStoreD cb_store_shifted_ptr = cb_store_shifted;

int main() {
  const int n = cb_n, batch = 3;
  std::vector<cufftComplex> in(n * batch), out(n * batch), plain(n * batch);
  std::vector<float> filter(n);
  for (int i = 0; i < n * batch; ++i)
    in[i] = make_cuComplex(std::sin(0.3f * i), std::cos(0.7f * i));
  for (int i = 0; i < n; ++i)
    filter[i] = i < n / 2 ? 1.0f : 0.5f;
  cufftComplex *d_in, *d_out, *d_filtered;
  float *d_filter;
  size_t bytes = n * batch * sizeof(cufftComplex);
  CB_CHECK(cudaMalloc(&d_in, bytes));
  CB_CHECK(cudaMalloc(&d_out, bytes));
  CB_CHECK(cudaMalloc(&d_filtered, bytes));
  CB_CHECK(cudaMalloc(&d_filter, n * sizeof(float)));
  CB_CHECK(cudaMemcpy(d_in, in.data(), bytes, cudaMemcpyHostToDevice));
  CB_CHECK(cudaMemcpy(d_filter, filter.data(), n * sizeof(float),
                      cudaMemcpyHostToDevice));
  /* The reference: the filtered input transformed without callbacks. */
  std::vector<cufftComplex> filtered(n * batch);
  for (int i = 0; i < n * batch; ++i)
    filtered[i] = make_cuComplex(in[i].x * filter[i % n],
                                 in[i].y * filter[i % n]);
  CB_CHECK(cudaMemcpy(d_filtered, filtered.data(), bytes,
                      cudaMemcpyHostToDevice));
  cufftHandle plan;
  CB_CHECK(cufftPlan1d(&plan, n, CUFFT_C2C, batch));
  CB_CHECK(cufftExecC2C(plan, d_filtered, d_out, CUFFT_FORWARD));
  CB_CHECK(cudaMemcpy(plain.data(), d_out, bytes, cudaMemcpyDeviceToHost));
  /* The callbacks, read from their __device__ variables. */
  cufftCallbackLoadC load_filtered;
  cufftCallbackStoreC store_scaled;
  CB_CHECK(cudaMemcpyFromSymbol(&load_filtered, cb_load_filtered_ptr,
                                sizeof load_filtered));
  CB_CHECK(cudaMemcpyFromSymbol(&store_scaled, cb_store_scaled_ptr,
                                sizeof store_scaled));
  void *info = d_filter;
  CB_CHECK(cufftXtSetCallback(plan, (void **)&load_filtered,
                              CUFFT_CB_LD_COMPLEX, &info));
  CB_CHECK(cufftXtSetCallback(plan, (void **)&store_scaled,
                              CUFFT_CB_ST_COMPLEX, nullptr));
  CB_CHECK(cufftExecC2C(plan, d_in, d_out, CUFFT_FORWARD));
  CB_CHECK(cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
  double err = 0;
  for (int i = 0; i < n * batch; ++i)
    err = std::fmax(err, std::fabs(out[i].x - plain[i].x / n) +
                             std::fabs(out[i].y - plain[i].y / n));
  int ok = err < 1e-5;
  if (!ok)
    std::printf("C2C with load and store callbacks: error %g\n", err);
  /* Cleared: the transform alone again. */
  CB_CHECK(cufftXtClearCallback(plan, CUFFT_CB_LD_COMPLEX));
  CB_CHECK(cufftXtClearCallback(plan, CUFFT_CB_ST_COMPLEX));
  CB_CHECK(cufftExecC2C(plan, d_filtered, d_out, CUFFT_FORWARD));
  CB_CHECK(cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n * batch && ok; ++i)
    ok = out[i].x == plain[i].x && out[i].y == plain[i].y;
  if (!ok)
    std::printf("C2C after cufftXtClearCallback differs\n");
  CB_CHECK(cufftDestroy(plan));

  /* D2Z with a load callback, then Z2D with a store callback using shared
   * memory: the round trip gives 2 n x + 1. */
  std::vector<double> x(n), back(n);
  for (int i = 0; i < n; ++i)
    x[i] = std::cos(0.05 * i * i);
  double *d_x, *d_back;
  cufftDoubleComplex *d_spec;
  CB_CHECK(cudaMalloc(&d_x, n * sizeof(double)));
  CB_CHECK(cudaMalloc(&d_back, n * sizeof(double)));
  CB_CHECK(cudaMalloc(&d_spec, (n / 2 + 1) * sizeof(cufftDoubleComplex)));
  CB_CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(double),
                      cudaMemcpyHostToDevice));
  cufftHandle forward, inverse;
  CB_CHECK(cufftPlan1d(&forward, n, CUFFT_D2Z, 1));
  CB_CHECK(cufftPlan1d(&inverse, n, CUFFT_Z2D, 1));
  cufftCallbackLoadD load_doubled;
  cufftCallbackStoreD store_shifted;
  CB_CHECK(cudaMemcpyFromSymbol(&load_doubled, cb_load_doubled_ptr,
                                sizeof load_doubled));
  CB_CHECK(cudaMemcpyFromSymbol(&store_shifted, cb_store_shifted_ptr,
                                sizeof store_shifted));
  CB_CHECK(cufftXtSetCallback(forward, (void **)&load_doubled,
                              CUFFT_CB_LD_REAL_DOUBLE, nullptr));
  CB_CHECK(cufftXtSetCallback(inverse, (void **)&store_shifted,
                              CUFFT_CB_ST_REAL_DOUBLE, nullptr));
  CB_CHECK(cufftXtSetCallbackSharedSize(inverse, CUFFT_CB_ST_REAL_DOUBLE,
                                        sizeof(double)));
  CB_CHECK(cufftExecD2Z(forward, d_x, d_spec));
  CB_CHECK(cufftExecZ2D(inverse, d_spec, d_back));
  CB_CHECK(cudaMemcpy(back.data(), d_back, n * sizeof(double),
                      cudaMemcpyDeviceToHost));
  err = 0;
  for (int i = 0; i < n; ++i)
    err = std::fmax(err, std::fabs(back[i] - (2.0 * n * x[i] + 1.0)));
  if (err > 1e-9) {
    std::printf("D2Z and Z2D with callbacks: error %g\n", err);
    ok = 0;
  }
  cufftDestroy(forward), cufftDestroy(inverse);
  cudaFree(d_in), cudaFree(d_out), cudaFree(d_filtered), cudaFree(d_filter);
  cudaFree(d_x), cudaFree(d_back), cudaFree(d_spec);
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

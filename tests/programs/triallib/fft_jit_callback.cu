/* fft_jit_callback.cu: cuFFT's LTO callbacks (cufftXtSetJITCallback), as
 * NVIDIA's cuFFT LTO samples use them: the callbacks are compiled apart at
 * run time with NVRTC and -dlto, and their LTO IR given with the names of
 * their functions. A load callback that scales and windows the input of an
 * R2C plan, and a store callback that writes the conjugate of each output
 * value with its caller info's offset, against the same transform of the
 * prepared input on the host side. cuemu had no cufftXtSetJITCallback: the
 * program failed to link.
 * CUEMU_OPTIONS: -lcufft -lnvrtc */
#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

#include <cufft.h>
#include <cufftXt.h>
#include <nvrtc.h>

#include "../cudalibs/check_libs.h"

namespace {

const char *kCallbacks = R"(
extern "C" __device__ float window_load(void *in, unsigned long long offset,
                                        void *info, void *shared) {
  const float *x = static_cast<const float *>(in);
  const float scale = *static_cast<const float *>(info);
  return scale * x[offset] * (offset % 2 ? 0.5f : 1.0f);
}
extern "C" __device__ void conj_store(void *out, unsigned long long offset,
                                      float2 value, void *info, void *shared) {
  float2 *y = static_cast<float2 *>(out);
  y[offset] = make_float2(value.x, -value.y);
}
)";

std::vector<char> lto_ir(const char *src) {
  nvrtcProgram prog;
  std::vector<char> ir;
  if (nvrtcCreateProgram(&prog, src, "callbacks.cu", 0, nullptr, nullptr) != NVRTC_SUCCESS)
    return ir;
  const char *opts[] = {"-arch=sm_90", "-dlto", "-rdc=true"};
  size_t size = 0;
  if (nvrtcCompileProgram(prog, 3, opts) == NVRTC_SUCCESS &&
      nvrtcGetLTOIRSize(prog, &size) == NVRTC_SUCCESS && size > 0) {
    ir.resize(size);
    if (nvrtcGetLTOIR(prog, ir.data()) != NVRTC_SUCCESS)
      ir.clear();
  }
  nvrtcDestroyProgram(&prog);
  return ir;
}

} // namespace

int main() {
  const int n = 16, batch = 2, half = n / 2 + 1;
  std::vector<float> x(n * batch);
  for (int i = 0; i < n * batch; ++i)
    x[i] = std::sin(0.3f * i) + 0.25f * (i % 3);
  std::vector<char> ir = lto_ir(kCallbacks);
  EXPECT(!ir.empty(), "NVRTC gave no LTO IR");

  float *d_x, *d_scale;
  cufftComplex *d_y;
  CHECK_CUDA(cudaMalloc(&d_x, x.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_y, half * batch * sizeof(cufftComplex)));
  CHECK_CUDA(cudaMalloc(&d_scale, sizeof(float)));
  const float scale = 3.0f;
  CHECK_CUDA(cudaMemcpy(d_scale, &scale, sizeof scale, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_x, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice));

  /* The reference: the plain transform of the input prepared on the host,
   * conjugated. */
  std::vector<float> prepared(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    prepared[i] = scale * x[i] * (i % 2 ? 0.5f : 1.0f);
  float *d_prepared;
  CHECK_CUDA(cudaMalloc(&d_prepared, x.size() * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(d_prepared, prepared.data(), x.size() * sizeof(float),
                        cudaMemcpyHostToDevice));
  cufftHandle plain, plan;
  EXPECT_STATUS(cufftPlan1d(&plain, n, CUFFT_R2C, batch), CUFFT_SUCCESS);
  EXPECT_STATUS(cufftExecR2C(plain, d_prepared, d_y), CUFFT_SUCCESS);
  std::vector<std::complex<float>> want(half * batch), got(half * batch);
  CHECK_CUDA(cudaMemcpy(want.data(), d_y, want.size() * sizeof(cufftComplex),
                        cudaMemcpyDeviceToHost));

  EXPECT_STATUS(cufftCreate(&plan), CUFFT_SUCCESS);
  void *load_info[] = {d_scale};
  /* Set before the plan is made, as the samples do. */
  EXPECT_STATUS(cufftXtSetJITCallback(plan, "window_load", ir.data(), ir.size(),
                                      CUFFT_CB_LD_REAL, load_info),
                CUFFT_SUCCESS);
  EXPECT_STATUS(cufftXtSetJITCallback(plan, "conj_store", ir.data(), ir.size(),
                                      CUFFT_CB_ST_COMPLEX, nullptr),
                CUFFT_SUCCESS);
  size_t work = 0;
  EXPECT_STATUS(cufftMakePlan1d(plan, n, CUFFT_R2C, batch, &work), CUFFT_SUCCESS);
  EXPECT_STATUS(cufftExecR2C(plan, d_x, d_y), CUFFT_SUCCESS);
  CHECK_CUDA(cudaMemcpy(got.data(), d_y, got.size() * sizeof(cufftComplex),
                        cudaMemcpyDeviceToHost));
  double worst = 0;
  for (size_t i = 0; i < got.size(); ++i)
    worst = std::fmax(worst, std::abs(got[i] - std::conj(want[i])));
  EXPECT(worst < 1e-4, "the callbacks' transform differs by %g", worst);

  /* Refused: no function of that name, a callback type unlike the plan's. */
  EXPECT_STATUS(cufftXtSetJITCallback(plan, "no_such_callback", ir.data(), ir.size(),
                                      CUFFT_CB_LD_REAL, nullptr),
                CUFFT_INVALID_VALUE);
  EXPECT_STATUS(cufftXtSetJITCallback(plan, "window_load", ir.data(), ir.size(),
                                      CUFFT_CB_LD_COMPLEX, nullptr),
                CUFFT_INVALID_TYPE);
  EXPECT_STATUS(cufftXtClearCallback(plan, CUFFT_CB_LD_REAL), CUFFT_SUCCESS);
  EXPECT_STATUS(cufftXtClearCallback(plan, CUFFT_CB_ST_COMPLEX), CUFFT_SUCCESS);
  EXPECT_STATUS(cufftExecR2C(plan, d_prepared, d_y), CUFFT_SUCCESS);
  CHECK_CUDA(cudaMemcpy(got.data(), d_y, got.size() * sizeof(cufftComplex),
                        cudaMemcpyDeviceToHost));
  EXPECT(std::abs(got[3] - want[3]) < 1e-4f, "after clearing, the plain transform");

  cufftDestroy(plain);
  cufftDestroy(plan);
  CHECK_CUDA(cudaFree(d_x));
  CHECK_CUDA(cudaFree(d_y));
  CHECK_CUDA(cudaFree(d_scale));
  CHECK_CUDA(cudaFree(d_prepared));
  return finish();
}

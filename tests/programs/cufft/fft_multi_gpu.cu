/* fft_multi_gpu.cu: cuFFT's multi-GPU API in the style of the samples'
 * simpleCUFFT_2d_MGPU: a plan on two GPUs (cufftXtSetGPUs), data spread
 * over them (cufftXtMalloc, cufftXtMemcpy), a 2-D C2C transform of 64 x 48
 * executed on the descriptor, whose result lies in slabs of the second
 * dimension (CUFFT_XT_FORMAT_INPLACE_SHUFFLED: each GPU's part [x][its
 * y]), checked element by element against a one-GPU plan; a kernel on
 * each GPU scales its part; the inverse gives natural order back; then a
 * batch of five 1-D Z2Z transforms, whole transforms per GPU. With one
 * device (tests/programs_cufft.sh runs it again with CUEMU_DEVICE=count=2)
 * it checks that two GPUs are refused, as on a machine with one GPU.
 * CUEMU_OPTIONS: -lcufft */
#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

#include <cufft.h>
#include <cufftXt.h>

#define MG_CHECK(call)                                                         \
  do {                                                                         \
    int s_ = (int)(call);                                                      \
    if (s_ != 0) {                                                             \
      std::printf("%s:%d: %s returned %d\n", __FILE__, __LINE__, #call, s_);  \
      return 1;                                                                \
    }                                                                          \
  } while (0)

__global__ void mg_scale(cufftComplex *v, size_t n, float s) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = make_cuComplex(v[i].x * s, v[i].y * s);
}

static double mg_diff(cufftComplex a, cufftComplex b) {
  return std::fabs(a.x - b.x) + std::fabs(a.y - b.y);
}

int main() {
  int devices = 0;
  MG_CHECK(cudaGetDeviceCount(&devices));
  int gpus[2] = {0, 1};
  cufftHandle plan;
  MG_CHECK(cufftCreate(&plan));
  if (devices < 2) {
    int st = cufftXtSetGPUs(plan, 2, gpus);
    cufftDestroy(plan);
    std::printf("%s\n", st == CUFFT_INVALID_DEVICE ? "PASS" : "FAIL");
    return st == CUFFT_INVALID_DEVICE ? 0 : 1;
  }
  const int nx = 64, ny = 48, n = nx * ny;
  std::vector<cufftComplex> in(n), ref(n), out(n);
  for (int i = 0; i < n; ++i)
    in[i] = make_cuComplex(std::sin(0.01f * i), std::cos(0.03f * i));
  /* The reference: the one-GPU transform. */
  cufftComplex *d;
  MG_CHECK(cudaMalloc(&d, n * sizeof(cufftComplex)));
  MG_CHECK(cudaMemcpy(d, in.data(), n * sizeof(cufftComplex),
                      cudaMemcpyHostToDevice));
  cufftHandle single;
  MG_CHECK(cufftPlan2d(&single, nx, ny, CUFFT_C2C));
  MG_CHECK(cufftExecC2C(single, d, d, CUFFT_FORWARD));
  MG_CHECK(cudaMemcpy(ref.data(), d, n * sizeof(cufftComplex),
                      cudaMemcpyDeviceToHost));
  cufftDestroy(single);
  cudaFree(d);
  /* Two GPUs. */
  size_t work[2];
  MG_CHECK(cufftXtSetGPUs(plan, 2, gpus));
  MG_CHECK(cufftMakePlan2d(plan, nx, ny, CUFFT_C2C, work));
  cudaLibXtDesc *desc;
  MG_CHECK(cufftXtMalloc(plan, &desc, CUFFT_XT_FORMAT_INPLACE));
  int ok = desc->descriptor->nGPUs == 2 &&
           desc->descriptor->size[0] == (size_t)nx / 2 * ny * 8 &&
           desc->descriptor->size[1] == (size_t)nx / 2 * ny * 8;
  if (!ok)
    std::printf("cufftXtMalloc: %d GPUs, parts of %zu and %zu bytes\n",
                desc->descriptor->nGPUs, desc->descriptor->size[0],
                desc->descriptor->size[1]);
  MG_CHECK(cufftXtMemcpy(plan, desc, in.data(), CUFFT_COPY_HOST_TO_DEVICE));
  MG_CHECK(cufftXtExecDescriptorC2C(plan, desc, desc, CUFFT_FORWARD));
  if (desc->subFormat != CUFFT_XT_FORMAT_INPLACE_SHUFFLED) {
    std::printf("after the forward transform: sub-format %d\n",
                desc->subFormat);
    ok = 0;
  }
  /* GPU g holds y from 24 g, laid out [x][y - 24 g]. */
  double err = 0;
  for (int g = 0; g < 2; ++g) {
    std::vector<cufftComplex> part(nx * ny / 2);
    MG_CHECK(cudaSetDevice(gpus[g]));
    MG_CHECK(cudaMemcpy(part.data(), desc->descriptor->data[g],
                        part.size() * sizeof(cufftComplex),
                        cudaMemcpyDeviceToHost));
    for (int x = 0; x < nx; ++x)
      for (int y = 0; y < ny / 2; ++y)
        err = std::fmax(err, mg_diff(part[x * (ny / 2) + y],
                                     ref[x * ny + g * (ny / 2) + y]));
  }
  if (err > 1e-3) {
    std::printf("the shuffled parts differ from the transform: %g\n", err);
    ok = 0;
  }
  MG_CHECK(cufftXtMemcpy(plan, out.data(), desc, CUFFT_COPY_DEVICE_TO_HOST));
  err = 0;
  for (int i = 0; i < n; ++i)
    err = std::fmax(err, mg_diff(out[i], ref[i]));
  if (err > 1e-3) {
    std::printf("the forward transform copied back differs: %g\n", err);
    ok = 0;
  }
  /* Each GPU scales its part, then the inverse gives 2 n x. */
  for (int g = 0; g < 2; ++g) {
    MG_CHECK(cudaSetDevice(gpus[g]));
    size_t count = desc->descriptor->size[g] / sizeof(cufftComplex);
    mg_scale<<<(unsigned)((count + 127) / 128), 128>>>(
        (cufftComplex *)desc->descriptor->data[g], count, 2.0f);
  }
  MG_CHECK(cudaSetDevice(0));
  MG_CHECK(cufftXtExecDescriptorC2C(plan, desc, desc, CUFFT_INVERSE));
  if (desc->subFormat != CUFFT_XT_FORMAT_INPLACE) {
    std::printf("after the inverse transform: sub-format %d\n",
                desc->subFormat);
    ok = 0;
  }
  MG_CHECK(cufftXtMemcpy(plan, out.data(), desc, CUFFT_COPY_DEVICE_TO_HOST));
  err = 0;
  for (int i = 0; i < n; ++i)
    err = std::fmax(err, mg_diff(out[i], make_cuComplex(2.0f * n * in[i].x,
                                                        2.0f * n * in[i].y)));
  if (err > 0.5) {
    std::printf("the round trip differs: %g\n", err);
    ok = 0;
  }
  MG_CHECK(cufftXtFree(desc));
  cufftDestroy(plan);

  /* Five 1-D Z2Z transforms of 32: three on GPU 0, two on GPU 1. */
  const int len = 32, batch = 5;
  std::vector<std::complex<double>> zin(len * batch), zout(len * batch);
  for (int i = 0; i < len * batch; ++i)
    zin[i] = std::complex<double>(std::cos(0.2 * i), 0.1 * (i % 7));
  cufftHandle zplan;
  MG_CHECK(cufftCreate(&zplan));
  MG_CHECK(cufftXtSetGPUs(zplan, 2, gpus));
  MG_CHECK(cufftMakePlan1d(zplan, len, CUFFT_Z2Z, batch, work));
  cudaLibXtDesc *zdesc;
  MG_CHECK(cufftXtMalloc(zplan, &zdesc, CUFFT_XT_FORMAT_INPLACE));
  if (zdesc->descriptor->size[0] != 3 * len * 16 ||
      zdesc->descriptor->size[1] != 2 * len * 16) {
    std::printf("batched parts of %zu and %zu bytes\n",
                zdesc->descriptor->size[0], zdesc->descriptor->size[1]);
    ok = 0;
  }
  MG_CHECK(cufftXtMemcpy(zplan, zdesc, zin.data(), CUFFT_COPY_HOST_TO_DEVICE));
  MG_CHECK(cufftXtExecDescriptorZ2Z(zplan, zdesc, zdesc, CUFFT_FORWARD));
  MG_CHECK(cufftXtMemcpy(zplan, zout.data(), zdesc, CUFFT_COPY_DEVICE_TO_HOST));
  err = 0;
  const double pi = 3.14159265358979323846;
  for (int b = 0; b < batch; ++b)
    for (int k = 0; k < len; ++k) {
      std::complex<double> s = 0;
      for (int j = 0; j < len; ++j)
        s += zin[b * len + j] * std::polar(1.0, -2 * pi * j * k / len);
      err = std::fmax(err, std::abs(zout[b * len + k] - s));
    }
  if (err > 1e-9) {
    std::printf("the batched Z2Z transforms differ: %g\n", err);
    ok = 0;
  }
  MG_CHECK(cufftXtFree(zdesc));
  cufftDestroy(zplan);
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

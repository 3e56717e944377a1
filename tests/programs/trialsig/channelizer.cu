// A channelizer fed through a zero-copy ring buffer: odd-length C2C FFTs
// (1000 and 1009 points), a double-precision Z2Z reference, thrust::complex
// frequency shifting, packed-half power accumulation, host callbacks per
// block of samples, and cuFFT's error codes.
//
// CUEMU_OPTIONS: -lcufft
#include <atomic>
#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>
#include <cuda_fp16.h>
#include <thrust/complex.h>
#include "sig/sig_check.cuh"
#include "sig/sig_gen.h"
// The trial's host library (its src/sig_gen.cpp, compiled apart by its
// CMakeLists.txt and Makefile), in this program for the build's time.
#include "sig/sig_gen.cpp"
#include "sig/cplx_ops.cuh"

__global__ void shift_kernel(const float2 *__restrict__ in, float2 *__restrict__ out, int n, float cycles_per_sample) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s, c;
  float turns = cycles_per_sample * (float)(i % 4096);
  turns -= rintf(turns);  // keep the fast intrinsic's argument in [-pi, pi]
  __sincosf(2.0f * 3.14159265f * turns, &s, &c);
  thrust::complex<float> z(in[i].x, in[i].y);
  thrust::complex<float> r = z * thrust::complex<float>(c, s);
  out[i] = make_float2(r.real(), r.imag());
}

__global__ void power_half2_kernel(const float2 *__restrict__ spec, __half2 *__restrict__ acc, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float2 v = spec[i];
  __half2 p = __floats2half2_rn(v.x * v.x * 1e-3f, v.y * v.y * 1e-3f);
  acc[i] = __hadd2(acc[i], __habs2(p));
}

__global__ void mix_ops_kernel(const float2 *a, const float2 *b, float2 *out, float *pw, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float2 p = a[i] * conj(b[i]);
  p += 0.5f * (a[i] - b[i]);
  out[i] = p;
  pw[i] = __fdividef(norm2(p), 1.0f + __saturatef(norm2(a[i])));
}

static void CUDART_CB on_block_done(void *user) { static_cast<std::atomic<int> *>(user)->fetch_add(1); }

int main() {
  bool ok = true;
  // cuFFT's error codes reach the program.
  cufftHandle bad;
  cufftResult r0 = cufftPlan1d(&bad, 0, CUFFT_C2C, 1);
  cufftResult r1 = cufftPlan1d(&bad, 64, CUFFT_C2C, 0);
  std::printf("cufftPlan1d(n=0) = %s, (batch=0) = %s\n", cufftResultString(r0), cufftResultString(r1));
  ok = ok && r0 == CUFFT_INVALID_SIZE && r1 != CUFFT_SUCCESS;

  // Zero-copy ring buffer: the host writes blocks, the device reads them.
  const int nblk = 4, blk = 1009 * 4;
  float2 *ring, *d_ring;
  CUDA_CHECK(cudaHostAlloc(&ring, sizeof(float2) * nblk * blk, cudaHostAllocMapped));
  CUDA_CHECK(cudaHostGetDevicePointer((void **)&d_ring, ring, 0));
  std::vector<float> sig = make_test_signal(2 * nblk * blk, 1000.f, 31u);
  for (int i = 0; i < nblk * blk; ++i) ring[i] = make_float2(sig[2 * i], sig[2 * i + 1]);

  float2 *d_shift, *d_spec, *d_mix;
  float *d_pw;
  __half2 *d_acc;
  cufftDoubleComplex *d_z;
  CUDA_CHECK(cudaMalloc(&d_shift, sizeof(float2) * nblk * blk));
  CUDA_CHECK(cudaMalloc(&d_spec, sizeof(float2) * nblk * blk));
  CUDA_CHECK(cudaMalloc(&d_mix, sizeof(float2) * nblk * blk));
  CUDA_CHECK(cudaMalloc(&d_pw, sizeof(float) * nblk * blk));
  CUDA_CHECK(cudaMalloc(&d_acc, sizeof(__half2) * nblk * blk));
  CUDA_CHECK(cudaMalloc(&d_z, sizeof(cufftDoubleComplex) * 1000 * 4));
  CUDA_CHECK(cudaMemset(d_acc, 0, sizeof(__half2) * nblk * blk));

  cudaStream_t st;
  CUDA_CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cufftHandle p1009, p1000;
  CUFFT_CHECK(cufftPlan1d(&p1009, 1009, CUFFT_C2C, 4));
  CUFFT_CHECK(cufftPlan1d(&p1000, 1000, CUFFT_Z2Z, 4));
  CUFFT_CHECK(cufftSetStream(p1009, st));
  CUFFT_CHECK(cufftSetStream(p1000, st));
  std::atomic<int> done{0};
  for (int b = 0; b < nblk; ++b) {
    float2 *in = d_ring + (size_t)b * blk, *sh = d_shift + (size_t)b * blk, *sp = d_spec + (size_t)b * blk;
    shift_kernel<<<div_up(blk, 256), 256, 0, st>>>(in, sh, blk, 0.125f);
    CUFFT_CHECK(cufftExecC2C(p1009, (cufftComplex *)sh, (cufftComplex *)sp, CUFFT_FORWARD));
    power_half2_kernel<<<div_up(blk, 256), 256, 0, st>>>(sp, d_acc + (size_t)b * blk, blk);
    CUDA_CHECK(cudaLaunchHostFunc(st, on_block_done, &done));
  }
  mix_ops_kernel<<<div_up(nblk * blk, 256), 256, 0, st>>>(d_ring, d_shift, d_mix, d_pw, nblk * blk);
  KERNEL_CHECK();
  // Double-precision reference transform of the first 4000 samples.
  std::vector<cufftDoubleComplex> z(4000);
  for (int i = 0; i < 4000; ++i) z[i] = make_cuDoubleComplex(sig[2 * i], sig[2 * i + 1]);
  CUDA_CHECK(cudaMemcpyAsync(d_z, z.data(), sizeof(cufftDoubleComplex) * 4000, cudaMemcpyHostToDevice, st));
  CUFFT_CHECK(cufftExecZ2Z(p1000, d_z, d_z, CUFFT_FORWARD));
  while (cudaStreamQuery(st) == cudaErrorNotReady) {}
  CUDA_CHECK(cudaStreamSynchronize(st));
  ok = ok && done.load() == nblk;

  std::vector<float2> spec((size_t)nblk * blk), mix((size_t)nblk * blk);
  std::vector<__half2> acc((size_t)nblk * blk);
  std::vector<float> pw((size_t)nblk * blk);
  CUDA_CHECK(cudaMemcpy(spec.data(), d_spec, sizeof(float2) * spec.size(), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(mix.data(), d_mix, sizeof(float2) * mix.size(), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(acc.data(), d_acc, sizeof(__half2) * acc.size(), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(pw.data(), d_pw, sizeof(float) * pw.size(), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(z.data(), d_z, sizeof(cufftDoubleComplex) * 4000, cudaMemcpyDeviceToHost));

  // Host DFTs of a few 1009-point segments and of the 1000-point ones.
  double e1009 = 0, e1000 = 0, emix = 0, eacc = 0;
  for (int seg = 0; seg < nblk * 4; seg += 5) {
    for (int k = 0; k < 1009; k += 13) {
      std::complex<double> s = 0;
      for (int i = 0; i < 1009; ++i) {
        int gi = seg * 1009 + i;
        double ang = 2 * M_PI * 0.125 * (gi % blk % 4096);
        std::complex<double> v(sig[2 * gi], sig[2 * gi + 1]);
        s += v * std::polar(1.0, ang) * std::polar(1.0, -2 * M_PI * (double)k * i / 1009);
      }
      float2 g = spec[(size_t)seg * 1009 + k];
      e1009 = std::fmax(e1009, std::abs(s - std::complex<double>(g.x, g.y)));
    }
  }
  for (int seg = 0; seg < 4; ++seg)
    for (int k = 0; k < 1000; k += 7) {
      std::complex<double> s = 0;
      for (int i = 0; i < 1000; ++i)
        s += std::complex<double>(sig[2 * (seg * 1000 + i)], sig[2 * (seg * 1000 + i) + 1]) *
             std::polar(1.0, -2 * M_PI * (double)k * i / 1000);
      e1000 = std::fmax(e1000, std::abs(s - std::complex<double>(z[seg * 1000 + k].x, z[seg * 1000 + k].y)));
    }
  std::vector<float2> hshift((size_t)nblk * blk);
  for (int i = 0; i < nblk * blk; ++i) {
    float2 a = ring[i];
    double ang = 2 * M_PI * 0.125 * (i % blk % 4096);
    float2 sh = make_float2((float)(a.x * std::cos(ang) - a.y * std::sin(ang)), (float)(a.x * std::sin(ang) + a.y * std::cos(ang)));
    float2 p = a * conj(sh);
    p += 0.5f * (a - sh);
    emix = std::fmax(emix, std::fabs(p.x - mix[i].x) + std::fabs(p.y - mix[i].y));
    float2 g = spec[i];
    float ex = g.x * g.x * 1e-3f, ey = g.y * g.y * 1e-3f;
    eacc = std::fmax(eacc, std::fabs(__low2float(acc[i]) - ex) / (1e-3 + ex));
    eacc = std::fmax(eacc, std::fabs(__high2float(acc[i]) - ey) / (1e-3 + ey));
  }
  std::printf("channelizer: C2C 1009 err %.3g, Z2Z 1000 err %.3g, mix err %.3g, half2 rel err %.3g, callbacks %d\n",
              e1009, e1000, emix, eacc, done.load());
  ok = ok && e1009 < 2e-3 && e1000 < 1e-9 && emix < 1e-4 && eacc < 2e-3;
  CUFFT_CHECK(cufftDestroy(p1009)); CUFFT_CHECK(cufftDestroy(p1000));
  CUDA_CHECK(cudaStreamDestroy(st));
  CUDA_CHECK(cudaFreeHost(ring));
  CUDA_CHECK(cudaFree(d_shift)); CUDA_CHECK(cudaFree(d_spec)); CUDA_CHECK(cudaFree(d_mix));
  CUDA_CHECK(cudaFree(d_pw)); CUDA_CHECK(cudaFree(d_acc)); CUDA_CHECK(cudaFree(d_z));
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

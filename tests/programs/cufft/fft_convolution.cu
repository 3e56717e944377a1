/* fft_convolution.cu: a 1-D circular convolution through cuFFT in the
 * style of the CUDA samples' simpleCUFFT: a signal and a filter padded to
 * one length, both transformed forward by one batched C2C plan in place,
 * multiplied point by point and scaled by 1/n by a kernel, transformed
 * back, and compared with the convolution computed on the host. All of it
 * is issued to one non-blocking stream with cufftSetStream, between
 * cudaMemcpyAsync calls, and synchronised once at the end: the plan's
 * work must run in that stream's order. A second stream then waits on an
 * event recorded after an execution and reads its result; a kernel on the
 * stream writes an execution's input, and the plan is destroyed before
 * that work has run.
 * CUEMU_OPTIONS: -lcufft */
#include <cufft.h>

#include "../cudalibs/check_libs.h"
#include "fft_host.h"

#define CHECK_FFT(call) EXPECT_STATUS(call, CUFFT_SUCCESS)

/* a[i] = a[i] * b[i] / n for n complex values. */
__global__ void multiply_and_scale(cufftComplex *a, const cufftComplex *b,
                                   int n, float scale) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    cufftComplex x = a[i], y = b[i];
    a[i].x = (x.x * y.x - x.y * y.y) * scale;
    a[i].y = (x.x * y.y + x.y * y.x) * scale;
  }
}

/* a[i] = (v[i], 0): the input written by a kernel on the stream. */
__global__ void fill(cufftComplex *a, const float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    a[i].x = v[i];
    a[i].y = 0.0f;
  }
}

/* out[i] = 2 * in[i].x, to read a result from a second stream. */
__global__ void double_real(const cufftComplex *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * in[i].x;
}

int main() {
  const int signal_size = 250, filter_size = 21;
  /* Length 270 = 2 * 3^3 * 5: the mixed-radix path. */
  const int n = signal_size + filter_size - 1;
  std::vector<cufftComplex> h(2 * n);
  for (int i = 0; i < n; ++i) {
    h[i].x = i < signal_size ? (float)host_value(1, i) : 0.0f;
    h[i].y = 0.0f;
    h[n + i].x = i < filter_size ? (float)host_value(2, i) : 0.0f;
    h[n + i].y = 0.0f;
  }
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cufftComplex *d;
  CHECK_CUDA(cudaMalloc(&d, 2 * n * sizeof(cufftComplex)));
  cufftHandle plan, single;
  CHECK_FFT(cufftPlan1d(&plan, n, CUFFT_C2C, 2));
  CHECK_FFT(cufftPlan1d(&single, n, CUFFT_C2C, 1));
  CHECK_FFT(cufftSetStream(plan, stream));
  CHECK_FFT(cufftSetStream(single, stream));
  std::vector<cufftComplex> result(n);
  CHECK_CUDA(cudaMemcpyAsync(d, h.data(), 2 * n * sizeof(cufftComplex),
                             cudaMemcpyHostToDevice, stream));
  CHECK_FFT(cufftExecC2C(plan, d, d, CUFFT_FORWARD));
  multiply_and_scale<<<4, 64, 0, stream>>>(d, d + n, n, 1.0f / n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_FFT(cufftExecC2C(single, d, d, CUFFT_INVERSE));
  CHECK_CUDA(cudaMemcpyAsync(result.data(), d, n * sizeof(cufftComplex),
                             cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));

  double err = 0, norm = 0;
  for (int i = 0; i < n; ++i) {
    double want = 0;
    for (int j = 0; j < filter_size; ++j) {
      int k = (i - j + n) % n;
      want += (double)h[k].x * h[n + j].x;
    }
    err += (result[i].x - want) * (result[i].x - want) +
           (double)result[i].y * result[i].y;
    norm += want * want;
  }
  double rel = std::sqrt(err / norm);
  EXPECT(rel < 1e-5, "convolution: relative error %.3g", rel);

  /* Another stream reads a transform's result after an event. */
  cudaStream_t other;
  cudaEvent_t done;
  CHECK_CUDA(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
  CHECK_CUDA(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
  float *doubled;
  CHECK_CUDA(cudaMalloc(&doubled, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpyAsync(d, h.data(), n * sizeof(cufftComplex),
                             cudaMemcpyHostToDevice, stream));
  CHECK_FFT(cufftExecC2C(single, d, d, CUFFT_FORWARD));
  CHECK_CUDA(cudaEventRecord(done, stream));
  CHECK_CUDA(cudaStreamWaitEvent(other, done, 0));
  double_real<<<(n + 127) / 128, 128, 0, other>>>(d, doubled, n);
  std::vector<float> got(n);
  CHECK_CUDA(cudaMemcpyAsync(got.data(), doubled, n * sizeof(float),
                             cudaMemcpyDeviceToHost, other));
  CHECK_CUDA(cudaStreamSynchronize(other));
  std::vector<cplx> x(n);
  for (int i = 0; i < n; ++i)
    x[i].re = h[i].x, x[i].im = h[i].y;
  std::vector<cplx> y = host_dft(x, -1);
  rel_error e;
  for (int i = 0; i < n; ++i) {
    cplx want = {2 * y[i].re, 0};
    e.add(got[i], 0, want);
  }
  EXPECT(e.value() < 2e-6, "the second stream's read: relative error %.3g",
         e.value());

  /* A kernel on the stream writes the input of an execution, and the
   * plan is destroyed before the work has run: the execution still reads
   * the kernel's values and finishes. */
  float *values;
  CHECK_CUDA(cudaMalloc(&values, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(values, doubled, n * sizeof(float),
                        cudaMemcpyDeviceToDevice));
  CHECK_CUDA(cudaMemset(d, 0, n * sizeof(cufftComplex)));
  fill<<<(n + 127) / 128, 128, 0, stream>>>(d, values, n);
  CHECK_FFT(cufftExecC2C(single, d, d, CUFFT_INVERSE));
  CHECK_FFT(cufftDestroy(single));
  std::vector<cufftComplex> last(n);
  CHECK_CUDA(cudaMemcpyAsync(last.data(), d, n * sizeof(cufftComplex),
                             cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  for (int i = 0; i < n; ++i)
    x[i].re = got[i], x[i].im = 0;
  y = host_dft(x, 1);
  rel_error f;
  for (int i = 0; i < n; ++i)
    f.add(last[i].x, last[i].y, y[i]);
  EXPECT(f.value() < 2e-6, "after a kernel, plan destroyed: relative error "
         "%.3g", f.value());
  CHECK_CUDA(cudaFree(values));

  CHECK_FFT(cufftDestroy(plan));
  CHECK_CUDA(cudaFree(d));
  CHECK_CUDA(cudaFree(doubled));
  CHECK_CUDA(cudaEventDestroy(done));
  CHECK_CUDA(cudaStreamDestroy(stream));
  CHECK_CUDA(cudaStreamDestroy(other));
  return finish();
}

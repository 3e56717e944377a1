// sci_fft_complex.cu: kept whole from the trial of scientific codes: radix-2
// FFTs with cuComplex (double, sincospi), thrust::complex<float> in shared
// memory (__sincosf, fast math) and cuda::std::complex<double> (polar, exp,
// abs, arg), bit reversal by __brev, checked against a CPU DFT.
// CUEMU_OPTIONS: -O2 -std=c++17 --use_fast_math --expt-relaxed-constexpr
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <complex>
#include <cuComplex.h>
#include <thrust/complex.h>
#include <cuda/std/complex>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s @ %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1);} } while (0)

__global__ void bitrev_cu(const cuDoubleComplex *in, cuDoubleComplex *out, int n, int logn) {
    unsigned i = blockIdx.x*blockDim.x + threadIdx.x;
    if (i < n) out[__brev(i) >> (32 - logn)] = in[i];
}

// one butterfly stage, half = 2^(s-1)
__global__ void stage_cu(cuDoubleComplex *a, int n, int half, int sign) {
    int t = blockIdx.x*blockDim.x + threadIdx.x;
    if (t >= n/2) return;
    int grp = t / half, pos = t % half;
    int i = grp*2*half + pos, j = i + half;
    double s, c;
    sincospi(sign*(double)pos/half, &s, &c);
    cuDoubleComplex w = make_cuDoubleComplex(c, s);
    cuDoubleComplex u = a[i], v = cuCmul(w, a[j]);
    a[i] = cuCadd(u, v);
    a[j] = cuCsub(u, v);
}

// whole FFT for n <= 1024 in shared memory, thrust::complex<float>, __sincosf
template <int LOGN>
__global__ void fft_shared_thrust(thrust::complex<float> *data) {
    constexpr int N = 1 << LOGN;
    __shared__ thrust::complex<float> s[N];
    thrust::complex<float> *a = data + blockIdx.x*N;
    for (int i = threadIdx.x; i < N; i += blockDim.x) s[__brev(i) >> (32 - LOGN)] = a[i];
    __syncthreads();
    for (int half = 1; half < N; half <<= 1) {
        for (int t = threadIdx.x; t < N/2; t += blockDim.x) {
            int pos = t & (half - 1);
            int i = (t - pos)*2 + pos, j = i + half;
            float sn, cs;
            __sincosf(-3.14159265358979f*pos/half, &sn, &cs);
            thrust::complex<float> w(cs, sn);
            thrust::complex<float> u = s[i], v = w*s[j];
            s[i] = u + v; s[j] = u - v;
        }
        __syncthreads();
    }
    for (int i = threadIdx.x; i < N; i += blockDim.x) a[i] = s[i];
}

// inverse via cuda::std::complex<double>, also checks abs/arg/exp/polar
__global__ void ifft_stage_std(cuda::std::complex<double> *a, int n, int half) {
    int t = blockIdx.x*blockDim.x + threadIdx.x;
    if (t >= n/2) return;
    int pos = t % half, i = (t/half)*2*half + pos, j = i + half;
    cuda::std::complex<double> w = cuda::std::polar(1.0, M_PI*pos/half);
    cuda::std::complex<double> u = a[i], v = w*a[j];
    a[i] = u + v; a[j] = u - v;
}
__global__ void bitrev_std(const cuda::std::complex<double> *in, cuda::std::complex<double> *out, int n, int logn) {
    unsigned i = blockIdx.x*blockDim.x + threadIdx.x;
    if (i < n) out[__brev(i) >> (32 - logn)] = in[i] / (double)n;
}
__global__ void spectrum_checks(const cuda::std::complex<double> *a, double *out) {
    cuda::std::complex<double> z = a[3];
    out[0] = cuda::std::abs(z);
    out[1] = cuda::std::arg(z);
    cuda::std::complex<double> e = cuda::std::exp(cuda::std::complex<double>(0.0, M_PI));
    out[2] = e.real(); out[3] = e.imag();
    cuDoubleComplex q = make_cuDoubleComplex(3.0, 4.0);
    out[4] = cuCabs(q);
    out[5] = cuCreal(cuCdiv(q, make_cuDoubleComplex(1.0, 2.0)));
    thrust::complex<double> tz(1.0, 1.0);
    out[6] = thrust::norm(tz * thrust::conj(tz));  // |2|^2 = 4
    out[7] = thrust::sqrt(thrust::complex<double>(-4.0, 0.0)).imag();
}

static void dft(const std::vector<std::complex<double>> &x, std::vector<std::complex<double>> &X, int sign) {
    int n = x.size();
    for (int k = 0; k < n; k++) {
        std::complex<double> s = 0;
        for (int j = 0; j < n; j++) s += x[j]*std::polar(1.0, sign*2*M_PI*((long)j*k % n)/n);
        X[k] = s;
    }
}

int main() {
    const int LOGN = 10, N = 1 << LOGN, BATCH = 8;
    bool ok = true;
    std::vector<std::complex<double>> x(N), X(N);
    srand(7);
    for (int i = 0; i < N; i++) x[i] = std::complex<double>(sin(0.3*i) + rand()/(double)RAND_MAX, cos(0.11*i*i/N));
    dft(x, X, -1);

    // 1. cuComplex double, stage per launch
    cuDoubleComplex *d_a, *d_b;
    CK(cudaMalloc(&d_a, N*sizeof(cuDoubleComplex))); CK(cudaMalloc(&d_b, N*sizeof(cuDoubleComplex)));
    CK(cudaMemcpy(d_a, x.data(), N*sizeof(cuDoubleComplex), cudaMemcpyHostToDevice));
    bitrev_cu<<<N/256, 256>>>(d_a, d_b, N, LOGN);
    for (int half = 1; half < N; half <<= 1) stage_cu<<<N/2/128, 128>>>(d_b, N, half, -1);
    std::vector<std::complex<double>> Y(N);
    CK(cudaMemcpy(Y.data(), d_b, N*sizeof(cuDoubleComplex), cudaMemcpyDeviceToHost));
    double e1 = 0, mx = 0;
    for (int k = 0; k < N; k++) { e1 = fmax(e1, abs(Y[k] - X[k])); mx = fmax(mx, abs(X[k])); }
    printf("cuComplex double FFT: max err %.3e (rel %.3e)\n", e1, e1/mx);
    ok &= e1/mx < 1e-12;

    // 2. thrust::complex<float>, batched in shared memory, fast math
    std::vector<thrust::complex<float>> hf(N*BATCH);
    for (int b = 0; b < BATCH; b++) for (int i = 0; i < N; i++) hf[b*N + i] = thrust::complex<float>((float)x[i].real()*(b+1), (float)x[i].imag()*(b+1));
    thrust::complex<float> *d_f;
    CK(cudaMalloc(&d_f, N*BATCH*sizeof(thrust::complex<float>)));
    CK(cudaMemcpy(d_f, hf.data(), N*BATCH*sizeof(thrust::complex<float>), cudaMemcpyHostToDevice));
    fft_shared_thrust<LOGN><<<BATCH, 256>>>(d_f);
    CK(cudaGetLastError());
    CK(cudaMemcpy(hf.data(), d_f, N*BATCH*sizeof(thrust::complex<float>), cudaMemcpyDeviceToHost));
    double e2 = 0;
    for (int b = 0; b < BATCH; b++) for (int k = 0; k < N; k++)
        e2 = fmax(e2, abs(std::complex<double>(hf[b*N+k].real(), hf[b*N+k].imag()) - (double)(b+1)*X[k])/((b+1)*mx));
    printf("thrust::complex<float> FFT (__sincosf): max rel err %.3e\n", e2);
    ok &= e2 < 1e-4;   // single precision, fast-math trig

    // 3. inverse with cuda::std::complex<double>
    cuda::std::complex<double> *d_s, *d_t;
    CK(cudaMalloc(&d_s, N*sizeof(*d_s))); CK(cudaMalloc(&d_t, N*sizeof(*d_t)));
    CK(cudaMemcpy(d_s, X.data(), N*sizeof(*d_s), cudaMemcpyHostToDevice));
    bitrev_std<<<N/256, 256>>>(d_s, d_t, N, LOGN);
    for (int half = 1; half < N; half <<= 1) ifft_stage_std<<<N/2/128, 128>>>(d_t, N, half);
    CK(cudaMemcpy(Y.data(), d_t, N*sizeof(*d_t), cudaMemcpyDeviceToHost));
    double e3 = 0; for (int i = 0; i < N; i++) e3 = fmax(e3, abs(Y[i] - x[i]));
    printf("cuda::std::complex inverse FFT: max err %.3e\n", e3);
    ok &= e3 < 1e-12;

    double *d_o, o[8];
    CK(cudaMalloc(&d_o, 8*sizeof(double)));
    spectrum_checks<<<1, 1>>>(d_t, d_o);
    CK(cudaMemcpy(o, d_o, sizeof(o), cudaMemcpyDeviceToHost));
    double want[8] = {abs(x[3]), arg(x[3]), -1.0, 0.0, 5.0, 2.2, 4.0, 2.0};
    for (int i = 0; i < 8; i++) {
        bool good = fabs(o[i] - want[i]) < 1e-12;
        if (!good) printf("check %d: got %.15g want %.15g\n", i, o[i], want[i]);
        ok &= good;
    }
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}

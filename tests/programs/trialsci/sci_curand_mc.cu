// sci_curand_mc.cu: kept whole from the trial of scientific codes: cuRAND's
// device API (XORWOW and Philox states, curand_normal2_double,
// curand_uniform4, curand_poisson at small and large lambda, skipahead,
// skipahead_sequence, curand_init's offset): an option price against
// Black-Scholes, pi, Poisson moments, and sequence agreement.
// CUEMU_OPTIONS: -O2 --use_fast_math -lcurand
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>
#include <curand_kernel.h>

#define CHECK(call) { const cudaError_t error = call; if (error != cudaSuccess) { \
  printf("Error: %s:%d, code:%d, reason: %s\n", __FILE__, __LINE__, error, cudaGetErrorString(error)); exit(1); } }

#define NTHREADS 256
#define NBLOCKS 64
#define NPATH_PER_THREAD 128

__global__ void setup_xorwow(curandState *state, unsigned long long seed) {
    int id = threadIdx.x + blockIdx.x * blockDim.x;
    curand_init(seed, id, 0, &state[id]);
}

__global__ void setup_philox(curandStatePhilox4_32_10_t *state, unsigned long long seed) {
    int id = threadIdx.x + blockIdx.x * blockDim.x;
    curand_init(seed, id, 0, &state[id]);
}

__global__ void price_call(curandState *state, double S0, double K, double r, double sigma, double T,
                           double *sum, double *sum2) {
    int id = threadIdx.x + blockIdx.x * blockDim.x;
    curandState local = state[id];
    double drift = (r - 0.5*sigma*sigma)*T, vol = sigma*sqrt(T);
    double s = 0.0, s2 = 0.0;
    for (int p = 0; p < NPATH_PER_THREAD/2; p++) {
        double2 z = curand_normal2_double(&local);
        double ST1 = S0*exp(drift + vol*z.x), ST2 = S0*exp(drift - vol*z.x);
        double ST3 = S0*exp(drift + vol*z.y), ST4 = S0*exp(drift - vol*z.y);
        double pay = 0.5*(fmax(ST1 - K, 0.0) + fmax(ST2 - K, 0.0));
        double pay2 = 0.5*(fmax(ST3 - K, 0.0) + fmax(ST4 - K, 0.0));
        s += pay + pay2; s2 += pay*pay + pay2*pay2;
    }
    state[id] = local;
    __shared__ double red[NTHREADS], red2[NTHREADS];
    red[threadIdx.x] = s; red2[threadIdx.x] = s2;
    __syncthreads();
    for (int k = blockDim.x/2; k > 0; k >>= 1) {
        if (threadIdx.x < k) { red[threadIdx.x] += red[threadIdx.x + k]; red2[threadIdx.x] += red2[threadIdx.x + k]; }
        __syncthreads();
    }
    if (threadIdx.x == 0) { atomicAdd(sum, red[0]); atomicAdd(sum2, red2[0]); }
}

__global__ void pi_philox(curandStatePhilox4_32_10_t *state, unsigned long long *hits, int n) {
    int id = threadIdx.x + blockIdx.x * blockDim.x;
    curandStatePhilox4_32_10_t local = state[id];
    unsigned int c = 0;
    for (int i = 0; i < n; i++) {
        float4 u = curand_uniform4(&local);
        if (u.x*u.x + u.y*u.y <= 1.0f) c++;
        if (u.z*u.z + u.w*u.w <= 1.0f) c++;
    }
    state[id] = local;
    atomicAdd(hits, (unsigned long long)c);
}

__global__ void poisson_counts(curandStatePhilox4_32_10_t *state, double lambda, unsigned int *out, int n) {
    int id = threadIdx.x + blockIdx.x * blockDim.x;
    curandStatePhilox4_32_10_t local = state[id];
    for (int i = 0; i < n; i++) out[id*n + i] = curand_poisson(&local, lambda);
    state[id] = local;
}

/* thread 0 draws 2*m numbers from sequence 0; thread 1 starts at the same seed,
   skips m numbers with skipahead; both must agree on the second half. */
__global__ void skip_test(unsigned long long seed, int m, unsigned int *a, unsigned int *b) {
    curandStateXORWOW_t s;
    if (threadIdx.x == 0) {
        curand_init(seed, 0, 0, &s);
        for (int i = 0; i < 2*m; i++) { unsigned int v = curand(&s); if (i >= m) a[i - m] = v; }
    } else if (threadIdx.x == 1) {
        curand_init(seed, 0, 0, &s);
        skipahead((unsigned long long)m, &s);
        for (int i = 0; i < m; i++) b[i] = curand(&s);
    } else if (threadIdx.x == 2) {
        /* offset argument of curand_init does the same */
        curand_init(seed, 0, (unsigned long long)m, &s);
        for (int i = 0; i < m; i++) b[m + i] = curand(&s);
    } else if (threadIdx.x == 3) {
        curandStatePhilox4_32_10_t p, q;
        curand_init(seed, 7, 0, &p);
        curand_init(seed, 0, 0, &q);
        skipahead_sequence(7ULL, &q);
        unsigned int bad = 0;
        for (int i = 0; i < 64; i++) bad += curand(&p) != curand(&q);
        b[2*m] = bad;
    }
}

static double norm_cdf(double x) { return 0.5*erfc(-x/sqrt(2.0)); }

int main(void) {
    int ntot = NTHREADS*NBLOCKS;
    curandState *d_xw; curandStatePhilox4_32_10_t *d_ph;
    CHECK(cudaMalloc((void **)&d_xw, ntot*sizeof(curandState)));
    CHECK(cudaMalloc((void **)&d_ph, ntot*sizeof(curandStatePhilox4_32_10_t)));
    setup_xorwow<<<NBLOCKS, NTHREADS>>>(d_xw, 1234ULL);
    setup_philox<<<NBLOCKS, NTHREADS>>>(d_ph, 5678ULL);
    CHECK(cudaGetLastError());
    int pass = 1;

    /* 1. Black-Scholes call */
    double S0 = 100, K = 105, r = 0.05, sigma = 0.2, T = 1.0;
    double *d_sum; CHECK(cudaMalloc(&d_sum, 2*sizeof(double))); CHECK(cudaMemset(d_sum, 0, 2*sizeof(double)));
    cudaEvent_t start, stop; cudaEventCreate(&start); cudaEventCreate(&stop);
    cudaEventRecord(start, 0);
    price_call<<<NBLOCKS, NTHREADS>>>(d_xw, S0, K, r, sigma, T, d_sum, d_sum + 1);
    cudaEventRecord(stop, 0); cudaEventSynchronize(stop);
    float ms; cudaEventElapsedTime(&ms, start, stop);
    double h[2]; CHECK(cudaMemcpy(h, d_sum, 2*sizeof(double), cudaMemcpyDeviceToHost));
    double npay = (double)ntot*NPATH_PER_THREAD;
    double mean = h[0]/npay, var = h[1]/npay - mean*mean;
    double price = exp(-r*T)*mean, se = exp(-r*T)*sqrt(var/npay);
    double d1 = (log(S0/K) + (r + 0.5*sigma*sigma)*T)/(sigma*sqrt(T)), d2 = d1 - sigma*sqrt(T);
    double bs = S0*norm_cdf(d1) - K*exp(-r*T)*norm_cdf(d2);
    printf("MC call %.5f +- %.5f  (BS %.5f)  %.0f paths in %.2f ms\n", price, se, bs, npay, ms);
    if (fabs(price - bs) > 4*se) { printf("call price outside 4 sigma\n"); pass = 0; }

    /* 2. pi */
    unsigned long long *d_hits, hits; CHECK(cudaMalloc(&d_hits, sizeof(unsigned long long)));
    CHECK(cudaMemset(d_hits, 0, sizeof(unsigned long long)));
    int npi = 64;
    pi_philox<<<NBLOCKS, NTHREADS>>>(d_ph, d_hits, npi);
    CHECK(cudaMemcpy(&hits, d_hits, sizeof(hits), cudaMemcpyDeviceToHost));
    double ntry = 2.0*ntot*npi, pihat = 4.0*hits/ntry, pise = 4.0*sqrt(M_PI/4*(1 - M_PI/4)/ntry);
    printf("pi = %.6f +- %.6f\n", pihat, pise);
    if (fabs(pihat - M_PI) > 4*pise) { printf("pi outside 4 sigma\n"); pass = 0; }

    /* 3. Poisson: mean and variance of counts, for a small and a large lambda */
    double lams[2] = {3.5, 250.0};
    int npo = 16;
    unsigned int *d_cnt; CHECK(cudaMalloc(&d_cnt, ntot*npo*sizeof(unsigned int)));
    unsigned int *cnt = (unsigned int *)malloc(ntot*npo*sizeof(unsigned int));
    for (int l = 0; l < 2; l++) {
        poisson_counts<<<NBLOCKS, NTHREADS>>>(d_ph, lams[l], d_cnt, npo);
        CHECK(cudaMemcpy(cnt, d_cnt, ntot*npo*sizeof(unsigned int), cudaMemcpyDeviceToHost));
        double m = 0, m2 = 0; int nn = ntot*npo;
        for (int i = 0; i < nn; i++) { m += cnt[i]; m2 += (double)cnt[i]*cnt[i]; }
        m /= nn; m2 = m2/nn - m*m;
        double mse = sqrt(lams[l]/nn);
        printf("poisson lambda %.1f: mean %.4f var %.4f\n", lams[l], m, m2);
        if (fabs(m - lams[l]) > 5*mse || fabs(m2/lams[l] - 1.0) > 0.03) { printf("poisson moments off\n"); pass = 0; }
    }

    /* 4. skipahead */
    int msk = 1000;
    unsigned int *d_a, *d_b; CHECK(cudaMalloc(&d_a, msk*sizeof(unsigned))); CHECK(cudaMalloc(&d_b, (2*msk + 1)*sizeof(unsigned)));
    skip_test<<<1, 32>>>(99ULL, msk, d_a, d_b);
    unsigned int *ha = (unsigned *)malloc(msk*sizeof(unsigned)), *hb = (unsigned *)malloc((2*msk + 1)*sizeof(unsigned));
    CHECK(cudaMemcpy(ha, d_a, msk*sizeof(unsigned), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hb, d_b, (2*msk + 1)*sizeof(unsigned), cudaMemcpyDeviceToHost));
    int mism = 0;
    for (int i = 0; i < msk; i++) mism += (ha[i] != hb[i]) + (ha[i] != hb[msk + i]);
    printf("skipahead mismatches %d, skipahead_sequence mismatches %u\n", mism, hb[2*msk]);
    if (mism || hb[2*msk]) pass = 0;

    printf("%s\n", pass ? "PASS" : "FAIL");
    cudaFree(d_xw); cudaFree(d_ph); cudaFree(d_sum); cudaFree(d_hits); cudaFree(d_cnt); cudaFree(d_a); cudaFree(d_b);
    free(cnt); free(ha); free(hb);
    return pass ? 0 : 1;
}

#ifndef S3D_RATES_H
#define S3D_RATES_H

// Arrhenius reaction rates and Gibbs-like equilibrium terms for a small
// mechanism, in the style of generated chemistry code: many small device
// functions over math built-ins.
#define NSPECIES 8
#define NREACT 12

#define R0 8.31451e7
#define PA 1.013250e6
#define DIV(a, b) __fdividef((a), (b))

template <class real> struct Arrhenius {
    real logA, beta, Ea;
};

__constant__ float c_logA[NREACT];
__constant__ float c_beta[NREACT];
__constant__ float c_Ea[NREACT];

template <class real> __device__ __forceinline__ real rateConst(int r, real T, real logT, real rT) {
    return exp((real)c_logA[r] + (real)c_beta[r] * logT - (real)c_Ea[r] * rT);
}

template <> __device__ __forceinline__ float rateConst<float>(int r, float T, float logT, float rT) {
    return __expf(c_logA[r] + c_beta[r] * logT - c_Ea[r] * rT);
}

__device__ inline float gibbs(int s, float T, float logT) {
    float a = 2.5f + 0.1f * s, b = 1.0e-3f * (s + 1);
    return a * (1.0f - logT) - 0.5f * b * T + DIV(1000.0f * (s + 1), T);
}

__device__ inline double gibbs(int s, double T, double logT) {
    double a = 2.5 + 0.1 * s, b = 1.0e-3 * (s + 1);
    return a * (1.0 - logT) - 0.5 * b * T + 1000.0 * (s + 1) / T;
}

template <class real> __device__ real equilibrium(int r, real T, real logT) {
    int s1 = r % NSPECIES, s2 = (r + 3) % NSPECIES;
    real dG = gibbs(s1, T, logT) - gibbs(s2, T, logT);
    real pfac = (real)PA / ((real)R0 * T);
    return exp(dG) * pow(pfac, (real)((r % 3) - 1));
}

template <class real> __device__ real clampRate(real k) {
    return fmin(fmax(k, (real)1e-30), (real)1e30);
}

template <class real> __device__ real progressRate(int r, real T, const real *conc) {
    real logT = log(T);
    real rT = (real)1.0 / T;
    real kf = clampRate(rateConst<real>(r, T, logT, rT));
    real kc = equilibrium<real>(r, T, logT);
    real kr = kf / fmax(kc, (real)1e-30);
    int a = r % NSPECIES, b = (r + 1) % NSPECIES, c = (r + 5) % NSPECIES;
    return kf * conc[a] * conc[b] - kr * conc[c] * sqrt(conc[a]);
}

#endif

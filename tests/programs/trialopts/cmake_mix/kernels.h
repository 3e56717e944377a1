#pragma once
#include <cuda_runtime.h>
/* Launchers of kernels.cu (host code). */
cudaError_t run_poly(const float *in, float *out, int n);
int poly_calls();

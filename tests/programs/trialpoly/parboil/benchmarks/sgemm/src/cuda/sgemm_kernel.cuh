/* sgemm_kernel.cuh: register-tiled SGEMM (C = alpha * A * B^T + beta * C), column-major. */
#ifndef SGEMM_KERNEL_CUH
#define SGEMM_KERNEL_CUH

#include <cstdio>
#include <cstdlib>

#define CHECK_ERROR(errorMessage) {                                    \
    cudaError_t err = cudaGetLastError();                              \
    if( cudaSuccess != err) {                                          \
        fprintf(stderr, "Cuda error: %s in file '%s' in line %i : %s.\n",\
                errorMessage, __FILE__, __LINE__, cudaGetErrorString( err) );\
        exit(EXIT_FAILURE);                                            \
    }                                                                  \
}

// Parameters of tile sizes
#define TILE_N 16
#define TILE_TB_HEIGHT 8
#define TILE_M (TILE_N*TILE_TB_HEIGHT)

// Each thread of a TN x TH block computes TN elements of one row of C; the
// block's TN columns of B^T are staged through shared memory TH rows at a time.
template <int TN, int TH>
__global__ void mysgemmNT(const float *A, int lda, const float *B, int ldb, float *C, int ldc, int k,
                          float alpha, float beta)
{
    // Partial results
    float c[TN];
#pragma unroll
    for (int i = 0; i < TN; i++) c[i] = 0.0f;
    int mid = threadIdx.y * blockDim.x + threadIdx.x; // flattened id
    int m = blockIdx.x * (TN * TH) + mid;
    int n = blockIdx.y * TN + threadIdx.x;
    __shared__ float b_s[TH][TN];
    for (int i = 0; i < k; i += TH) {
        float a;
        b_s[threadIdx.y][threadIdx.x] = B[n + (i + threadIdx.y) * ldb];
        __syncthreads();
        for (int j = 0; j < TH; j++) {
            a = A[m + (i + j) * lda];
#pragma unroll
            for (int kk = 0; kk < TN; kk++)
                c[kk] += a * b_s[j][kk];
        }
        __syncthreads();
    }
    int t = ldc * blockIdx.y * TN + m;
#pragma unroll
    for (int i = 0; i < TN; i++) {
        C[t + i * ldc] = C[t + i * ldc] * beta + alpha * c[i];
    }
}

#endif

/* sgemm_kernel.cu: the host entry of the register-tiled SGEMM. */
#include <cuda_runtime.h>
#include <iostream>
#include "sgemm_kernel.cuh"

void regtileSgemm(char transa, char transb, int m, int n, int k, float alpha, const float *A, int lda,
                  const float *B, int ldb, float beta, float *C, int ldc)
{
    if ((transa != 'N') && (transa != 'n')) {
        std::cerr << "unsupported value of 'transa' in regtileSgemm()" << std::endl;
        return;
    }

    if ((transb != 'T') && (transb != 't')) {
        std::cerr << "unsupported value of 'transb' in regtileSgemm()" << std::endl;
        return;
    }

    // In this code we assume the matrix sizes are multiple of tile size
    if ((m % TILE_M) || (n % TILE_N)) {
        std::cerr << "unsupported size of matrix. m should be multiple of " << TILE_M
                  << "; n should be multiple of " << TILE_N << std::endl;
        return;
    }

    dim3 grid(m / TILE_M, n / TILE_N), threads(TILE_N, TILE_TB_HEIGHT);
    mysgemmNT<TILE_N, TILE_TB_HEIGHT><<<grid, threads>>>(A, lda, B, ldb, C, ldc, k, alpha, beta);
    CHECK_ERROR("mySgemm");
}

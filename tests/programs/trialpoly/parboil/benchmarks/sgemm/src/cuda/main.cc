/*
 * main.cc: SGEMM benchmark driver.  C = A * B^T with A (m x k) and B^T given
 * as (n x k), both column-major text files; -o writes C, and a third input
 * file, when given, is the reference C to compare with.
 */
#include <parboil.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <vector>
#include <iostream>
#include <cuda_runtime.h>

// I/O routines
extern bool readColMajorMatrixFile(const char *fn, int &nr_row, int &nr_col, std::vector<float> &v);
extern bool writeColMajorMatrixFile(const char *fn, int, int, std::vector<float> &);

extern void regtileSgemm(char transa, char transb, int m, int n, int k, float alpha, const float *A,
                         int lda, const float *B, int ldb, float beta, float *C, int ldc);

static int compare_with_reference(const char *fn, int m, int n, std::vector<float> &C)
{
    int rm, rn;
    std::vector<float> ref;
    if (!readColMajorMatrixFile(fn, rm, rn, ref) || rm != m || rn != n || (int)ref.size() != m * n) {
        fprintf(stderr, "bad reference file %s\n", fn);
        return 1;
    }
    int bad = 0;
    for (int i = 0; i < m * n; i++) {
        float tol = 1e-3f * fabsf(ref[i]) + 1e-3f;
        if (fabsf(C[i] - ref[i]) > tol) {
            if (bad < 5) fprintf(stderr, "C[%d] = %f, expected %f\n", i, C[i], ref[i]);
            bad++;
        }
    }
    return bad;
}

int main(int argc, char *argv[])
{
    struct pb_Parameters *params;
    struct pb_TimerSet timers;

    float *dA, *dB, *dC;
    size_t A_sz, B_sz, C_sz;
    int matArow, matAcol;
    int matBrow, matBcol;
    std::vector<float> matA, matBT;

    pb_InitializeTimerSet(&timers);

    /* Read command line. Expect 2 or 3 inputs: A, B^T and the reference C. */
    params = pb_ReadParameters(&argc, argv);
    if ((params == NULL) || (pb_Parameters_CountInputs(params) < 2)) {
        fprintf(stderr, "Expecting two input filenames\n");
        exit(-1);
    }

    /* Read in data */
    pb_SwitchToTimer(&timers, pb_TimerID_IO);

    // load A
    readColMajorMatrixFile(params->inpFiles[0], matArow, matAcol, matA);

    // load B^T
    readColMajorMatrixFile(params->inpFiles[1], matBcol, matBrow, matBT);

    pb_SwitchToTimer(&timers, pb_TimerID_COMPUTE);
    A_sz = matArow * matAcol * sizeof(float);
    B_sz = matBrow * matBcol * sizeof(float);

    // allocate space for C
    C_sz = matArow * matBcol * sizeof(float);

    // CUDA memory allocation
    std::vector<float> matC(matArow * matBcol);
    cudaMalloc((void **)&dA, A_sz);
    cudaMalloc((void **)&dB, B_sz);
    cudaMalloc((void **)&dC, C_sz);

    // Copy A and B^T into device memory
    pb_SwitchToTimer(&timers, pb_TimerID_COPY);
    cudaMemcpy(dA, &matA.front(), A_sz, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, &matBT.front(), B_sz, cudaMemcpyHostToDevice);
    cudaMemset(dC, 0, C_sz);

    pb_SwitchToTimer(&timers, pb_TimerID_KERNEL);

    // Use standard sgemm interface
    regtileSgemm('N', 'T', matArow, matBcol, matAcol, 1.0f, dA, matArow, dB, matBcol, 0.0f, dC, matArow);

    if (params->outFile) {
        pb_SwitchToTimer(&timers, pb_TimerID_COPY);
        cudaMemcpy(&matC.front(), dC, C_sz, cudaMemcpyDeviceToHost);
        /* Write C to file */
        pb_SwitchToTimer(&timers, pb_TimerID_IO);
        writeColMajorMatrixFile(params->outFile, matArow, matBcol, matC);
    } else {
        cudaMemcpy(&matC.front(), dC, C_sz, cudaMemcpyDeviceToHost);
    }

    pb_SwitchToTimer(&timers, pb_TimerID_NONE);

    double GPUtime = pb_GetElapsedTime(&(timers.timers[pb_TimerID_KERNEL]));
    std::cout << "GFLOPs = " << 2. * matArow * matBcol * matAcol / GPUtime / 1e9 << std::endl;
    pb_PrintTimerSet(&timers);

    int fail = 0;
    if (pb_Parameters_CountInputs(params) > 2)
        fail = compare_with_reference(params->inpFiles[2], matArow, matBcol, matC);
    printf("%s\n", fail ? "FAIL" : "PASS");

    pb_FreeParameters(params);
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    return fail ? 1 : 0;
}

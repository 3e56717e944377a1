/*
 * main.cu: 7-point stencil, Jacobi iterations.
 * Usage: stencil -i input.bin[,reference.bin] -o output.bin nx ny nz iterations
 * NVCC_OPTIONS: -I../../../../common/include
 */
#include <parboil.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "file.h"
#include "common.h"
#include "kernels.cuh"

#define BLOCK_X 16
#define BLOCK_Y 8

static int compare_grids(const float *out, const float *ref, int n)
{
    int bad = 0;
    for (int i = 0; i < n; i++) {
        if (fabsf(out[i] - ref[i]) > 1e-4f * (1.0f + fabsf(ref[i]))) {
            if (bad < 5) fprintf(stderr, "A[%d] = %f, expected %f\n", i, out[i], ref[i]);
            bad++;
        }
    }
    return bad;
}

int main(int argc, char **argv)
{
    struct pb_TimerSet timers;
    struct pb_Parameters *parameters;

    printf("CUDA accelerated 7 points stencil codes****\n");
    parameters = pb_ReadParameters(&argc, argv);

    pb_InitializeTimerSet(&timers);
    pb_SwitchToTimer(&timers, pb_TimerID_COMPUTE);

    // declaration
    int nx, ny, nz;
    int size;
    int iteration;
    float c0 = 1.0f / 6.0f;
    float c1 = 1.0f / 6.0f / 6.0f;

    if (argc < 5 || parameters->inpFiles[0] == NULL) {
        printf("Usage: probe nx ny nz t\n"
               "nx: the grid size x\n"
               "ny: the grid size y\n"
               "nz: the grid size z\n"
               "t: the iteration time\n");
        return -1;
    }

    nx = atoi(argv[1]);
    if (nx < 1) return -1;
    ny = atoi(argv[2]);
    if (ny < 1) return -1;
    nz = atoi(argv[3]);
    if (nz < 1) return -1;
    iteration = atoi(argv[4]);
    if (iteration < 1) return -1;

    // host data
    float *h_A0;
    float *h_Anext;
    // device
    float *d_A0;
    float *d_Anext;

    size = nx * ny * nz;

    h_A0 = (float *)malloc(sizeof(float) * size);
    h_Anext = (float *)malloc(sizeof(float) * size);
    pb_SwitchToTimer(&timers, pb_TimerID_IO);
    if (readData(parameters->inpFiles[0], h_A0, nx, ny, nz)) return -1;

    pb_SwitchToTimer(&timers, pb_TimerID_COPY);

    // memory allocation
    cudaMalloc((void **)&d_A0, size * sizeof(float));
    cudaMalloc((void **)&d_Anext, size * sizeof(float));
    cudaMemset(d_Anext, 0, size * sizeof(float));

    // memory copy
    cudaMemcpy(d_A0, h_A0, size * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_Anext, h_A0, size * sizeof(float), cudaMemcpyHostToDevice);

    pb_SwitchToTimer(&timers, pb_TimerID_KERNEL);

    // only use tx-by-ty threads
    dim3 block(BLOCK_X, BLOCK_Y, 1);
    dim3 grid((nx + BLOCK_X - 1) / BLOCK_X, (ny + BLOCK_Y - 1) / BLOCK_Y, 1);

    // main execution
    for (int t = 0; t < iteration; t++) {
        stencil7_marching<BLOCK_X, BLOCK_Y><<<grid, block>>>(c0, c1, d_A0, d_Anext, nx, ny, nz);
        float *d_temp = d_A0;
        d_A0 = d_Anext;
        d_Anext = d_temp;
    }
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "stencil: %s\n", cudaGetErrorString(err));
        return 1;
    }

    float *d_temp = d_A0;
    d_A0 = d_Anext;
    d_Anext = d_temp;

    cudaDeviceSynchronize();
    pb_SwitchToTimer(&timers, pb_TimerID_COPY);
    cudaMemcpy(h_Anext, d_Anext, size * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d_A0);
    cudaFree(d_Anext);

    if (parameters->outFile) {
        pb_SwitchToTimer(&timers, pb_TimerID_IO);
        outputData(parameters->outFile, h_Anext, nx, ny, nz);
    }
    pb_SwitchToTimer(&timers, pb_TimerID_COMPUTE);

    int fail = 0;
    if (parameters->inpFiles[1]) {
        float *ref = (float *)malloc(sizeof(float) * size);
        if (readData(parameters->inpFiles[1], ref, nx, ny, nz)) fail = 1;
        else fail = compare_grids(h_Anext, ref, size);
        free(ref);
    }
    free(h_A0);
    free(h_Anext);
    pb_SwitchToTimer(&timers, pb_TimerID_NONE);

    pb_PrintTimerSet(&timers);
    pb_FreeParameters(parameters);
    printf("%s\n", fail ? "FAIL" : "PASS");
    return fail ? 1 : 0;
}

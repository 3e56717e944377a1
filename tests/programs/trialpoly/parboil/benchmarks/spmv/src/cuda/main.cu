/*
 * main.cu: SpMV in the JDS format.  Inputs: -i matrix.mtx,vector.bin[,reference.txt]
 * NVCC_OPTIONS: -I../../../../common/include
 */
#include <parboil.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <vector>

#include "file.h"
#include "gpu_info.h"
#include "convert_dataset.h"
#include "spmv_jds.cuh"

static int generate_vector(float *x_vector, int dim)
{
    srand(54321);
    for (int i = 0; i < dim; i++) x_vector[i] = (rand() / (float)RAND_MAX);
    return 0;
}

int main(int argc, char **argv)
{
    struct pb_TimerSet timers;
    struct pb_Parameters *parameters;

    printf("CUDA accelerated sparse matrix vector multiplication****\n");
    parameters = pb_ReadParameters(&argc, argv);
    if ((parameters->inpFiles[0] == NULL) || (parameters->inpFiles[1] == NULL)) {
        fprintf(stderr, "Expecting two input filenames\n");
        exit(-1);
    }

    pb_InitializeTimerSet(&timers);
    pb_SwitchToTimer(&timers, pb_TimerID_COMPUTE);

    // parameters declaration
    int len;
    int depth;
    int dim;
    int cols;
    int pad = 32;
    int nzcnt_len;

    // host memory allocation
    // matrix
    float *h_data;
    int *h_indices;
    int *h_ptr;
    int *h_perm;
    int *h_nzcnt;
    // vector
    float *h_Ax_vector;
    float *h_x_vector;

    // device memory allocation
    // matrix
    float *d_data;
    int *d_indices;
    int *d_perm;
    // vector
    float *d_Ax_vector;
    float *d_x_vector;

    // load matrix from files
    pb_SwitchToTimer(&timers, pb_TimerID_IO);
    if (coo_to_jds(parameters->inpFiles[0], pad, &h_data, &h_ptr, &h_nzcnt, &h_indices, &h_perm, &dim, &cols,
                   &len, &nzcnt_len, &depth)) {
        fprintf(stderr, "cannot read the matrix\n");
        return 1;
    }

    h_x_vector = (float *)malloc(sizeof(float) * cols);
    input_vec(parameters->inpFiles[1], h_x_vector, cols);

    pb_SwitchToTimer(&timers, pb_TimerID_COMPUTE);

    cudaDeviceProp deviceProp;
    cudaGetDeviceProperties(&deviceProp, 0);

    // memory allocation
    cudaMalloc((void **)&d_data, len * sizeof(float));
    cudaMalloc((void **)&d_indices, len * sizeof(int));
    cudaMalloc((void **)&d_perm, dim * sizeof(int));
    cudaMalloc((void **)&d_x_vector, cols * sizeof(float));
    cudaMalloc((void **)&d_Ax_vector, dim * sizeof(float));

    // memory copy
    pb_SwitchToTimer(&timers, pb_TimerID_COPY);
    cudaMemcpy(d_data, h_data, len * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_indices, h_indices, len * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_perm, h_perm, dim * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_x_vector, h_x_vector, cols * sizeof(float), cudaMemcpyHostToDevice);

    cudaMemcpyToSymbol(jds_ptr_int, h_ptr, depth * sizeof(int));
    cudaMemcpyToSymbol(sh_zcnt_int, h_nzcnt, nzcnt_len * sizeof(int));
    cudaMemset((void *)d_Ax_vector, 0, dim * sizeof(float));

    pb_SwitchToTimer(&timers, pb_TimerID_COMPUTE);

    size_t grid;
    size_t block;

    compute_active_thread(&block, &grid, nzcnt_len, pad, deviceProp.major, deviceProp.minor,
                          deviceProp.multiProcessorCount);

    // main execution
    pb_SwitchToTimer(&timers, pb_TimerID_KERNEL);

    for (int i = 0; i < 10; i++)
        spmv_jds<<<grid / block, block>>>(d_Ax_vector, d_data, d_indices, d_perm, d_x_vector, dim);

    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        fprintf(stderr, "spmv_jds: %s\n", cudaGetErrorString(err));
        return 1;
    }

    pb_SwitchToTimer(&timers, pb_TimerID_COPY);
    // HtoD memory copy
    h_Ax_vector = (float *)malloc(sizeof(float) * dim);
    cudaMemcpy(h_Ax_vector, d_Ax_vector, dim * sizeof(float), cudaMemcpyDeviceToHost);

    pb_SwitchToTimer(&timers, pb_TimerID_IO);
    if (parameters->outFile) {
        outputData(parameters->outFile, h_Ax_vector, dim);
    }

    int fail = 0;
    if (parameters->inpFiles[2]) {
        std::vector<float> ref;
        if (!read_reference(parameters->inpFiles[2], ref) || (int)ref.size() != dim) {
            fprintf(stderr, "bad reference %s\n", parameters->inpFiles[2]);
            fail = 1;
        } else {
            for (int i = 0; i < dim; i++)
                if (fabsf(ref[i] - h_Ax_vector[i]) > 1e-4f * (1.0f + fabsf(ref[i]))) {
                    if (fail < 5) fprintf(stderr, "y[%d] = %f, expected %f\n", i, h_Ax_vector[i], ref[i]);
                    fail++;
                }
        }
    }
    pb_SwitchToTimer(&timers, pb_TimerID_COMPUTE);

    cudaFree(d_data);
    cudaFree(d_indices);
    cudaFree(d_perm);
    cudaFree(d_Ax_vector);
    cudaFree(d_x_vector);
    free(h_data);
    free(h_indices);
    free(h_ptr);
    free(h_perm);
    free(h_nzcnt);
    free(h_Ax_vector);
    free(h_x_vector);
    pb_SwitchToTimer(&timers, pb_TimerID_NONE);

    pb_PrintTimerSet(&timers);
    pb_FreeParameters(parameters);
    (void)generate_vector;
    printf("%s\n", fail ? "FAIL" : "PASS");
    return fail ? 1 : 0;
}

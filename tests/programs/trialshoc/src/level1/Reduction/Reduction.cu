// NVCC_OPTIONS: -I../../common
// Sum reduction of float and double arrays, templated on the block size.
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "OptionParser.h"
#include "ResultDatabase.h"
#include "cudacommon.h"
#include "reduction_kernel.h"

void addBenchmarkSpecOptions(OptionParser &op) {
    op.addOption("iterations", OPT_INT, "2", "kernel launches per pass");
}

template <class T>
static void launchReduce(int threads, int blocks, const T *in, T *out, unsigned n) {
    size_t smem = threads * sizeof(T);
    switch (threads) {
    case 512: reduce<T, 512><<<blocks, threads, smem>>>(in, out, n); break;
    case 256: reduce<T, 256><<<blocks, threads, smem>>>(in, out, n); break;
    case 128: reduce<T, 128><<<blocks, threads, smem>>>(in, out, n); break;
    case 64: reduce<T, 64><<<blocks, threads, smem>>>(in, out, n); break;
    default: std::cerr << "bad block size\n"; exit(1);
    }
}

template <class T>
static void RunTest(const std::string &testName, ResultDatabase &resultDB,
                    OptionParser &op) {
    const int probSizes[4] = {1, 8, 32, 64};
    int size = probSizes[op.getOptionInt("size") - 1] * 1024 * 16;
    const int passes = (int)op.getOptionInt("passes");
    const int iters = (int)op.getOptionInt("iterations");

    std::vector<T> h_idata(size);
    double ref = 0.0;
    unsigned int refAbove = 0;
    for (int i = 0; i < size; ++i) {
        h_idata[i] = (T)(i % 3);
        ref += (double)h_idata[i];
        refAbove += h_idata[i] > (T)1;
    }
    T *d_idata, *d_odata;
    const int numBlocks = 32;
    CUDA_SAFE_CALL(cudaMalloc(&d_idata, size * sizeof(T)));
    CUDA_SAFE_CALL(cudaMalloc(&d_odata, numBlocks * sizeof(T)));
    CUDA_SAFE_CALL(cudaMemcpy(d_idata, h_idata.data(), size * sizeof(T),
                              cudaMemcpyHostToDevice));
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    const int blockSizes[] = {64, 128, 256, 512};
    for (int k = 0; k < passes; ++k) {
        int threads = blockSizes[k % 4];
        cudaEventRecord(start);
        for (int m = 0; m < iters; ++m) {
            launchReduce<T>(threads, numBlocks, d_idata, d_odata, size);
            launchReduce<T>(threads, 1, d_odata, d_odata, numBlocks);
        }
        cudaEventRecord(stop);
        CHECK_CUDA_ERROR();
        cudaEventSynchronize(stop);
        float ms;
        cudaEventElapsedTime(&ms, start, stop);
        T result;
        CUDA_SAFE_CALL(cudaMemcpy(&result, d_odata, sizeof(T), cudaMemcpyDeviceToHost));
        if ((double)result != ref) {
            std::cerr << testName << " threads=" << threads << ": got " << result
                      << " expected " << ref << "\n";
            resultDB.AddFailure(testName, "wrong sum");
            break;
        }
        double gbytes = (double)size * sizeof(T) / 1e9;
        resultDB.AddResult(testName, std::to_string(threads) + "thr", "GB/s",
                           gbytes * iters / (ms / 1e3));
    }

    unsigned int *d_count;
    int *d_neg;
    CUDA_SAFE_CALL(cudaMalloc(&d_count, sizeof(unsigned int)));
    CUDA_SAFE_CALL(cudaMalloc(&d_neg, sizeof(int)));
    CUDA_SAFE_CALL(cudaMemset(d_count, 0, sizeof(unsigned int)));
    CUDA_SAFE_CALL(cudaMemset(d_neg, 0, sizeof(int)));
    countAbove<T><<<7, 96>>>(d_idata, size, (T)1, d_count, d_neg);
    unsigned int above;
    int neg;
    CUDA_SAFE_CALL(cudaMemcpy(&above, d_count, sizeof above, cudaMemcpyDeviceToHost));
    CUDA_SAFE_CALL(cudaMemcpy(&neg, d_neg, sizeof neg, cudaMemcpyDeviceToHost));
    if (above != refAbove || neg != 0) {
        std::cerr << testName << ": count " << above << " expected " << refAbove
                  << ", negative flag " << neg << "\n";
        resultDB.AddFailure(testName, "syncthreads_count/or");
    }
    T minusOne = (T)-1;
    CUDA_SAFE_CALL(cudaMemcpy(d_idata + size - 1, &minusOne, sizeof(T),
                              cudaMemcpyHostToDevice));
    countAbove<T><<<7, 96>>>(d_idata, size, (T)1, d_count, d_neg);
    CUDA_SAFE_CALL(cudaMemcpy(&neg, d_neg, sizeof neg, cudaMemcpyDeviceToHost));
    if (neg != 1)
        resultDB.AddFailure(testName, "syncthreads_or missed a negative value");

    cudaFree(d_count);
    cudaFree(d_neg);
    cudaFree(d_idata);
    cudaFree(d_odata);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
}

void RunBenchmark(ResultDatabase &resultDB, OptionParser &op) {
    std::cout << "Running single precision test" << std::endl;
    RunTest<float>("Reduction", resultDB, op);
    cudaDeviceProp prop;
    int dev;
    cudaGetDevice(&dev);
    cudaGetDeviceProperties(&prop, dev);
    if ((prop.major == 1 && prop.minor >= 3) || prop.major >= 2) {
        std::cout << "Running double precision test" << std::endl;
        RunTest<double>("Reduction-DP", resultDB, op);
    }
}

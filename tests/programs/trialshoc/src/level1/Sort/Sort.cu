// NVCC_OPTIONS: -I../../common
// Radix sort of unsigned key-value pairs, checked against std::sort.
#include <algorithm>
#include <iostream>
#include <random>
#include <utility>
#include <vector>

#include "OptionParser.h"
#include "ProgressBar.h"
#include "ResultDatabase.h"
#include "cudacommon.h"
#include "sort_kernel.h"

void addBenchmarkSpecOptions(OptionParser &op) {
    op.addOption("keybits", OPT_INT, "32", "significant bits of the keys");
}

void RunBenchmark(ResultDatabase &resultDB, OptionParser &op) {
    const int sizes[4] = {1, 8, 48, 96};
    const int n = sizes[op.getOptionInt("size") - 1] * 1024 * 4 + 123;
    const int keyBits = (int)op.getOptionInt("keybits");
    const int passes = (int)op.getOptionInt("passes");
    const int numTiles = (n + SORT_BLOCK_SIZE - 1) / SORT_BLOCK_SIZE;
    const int numCounts = numTiles * RADIX;

    std::vector<unsigned int> hKeys(n), hVals(n);
    std::mt19937 rng(12345);
    unsigned int mask = keyBits >= 32 ? 0xffffffffu : ((1u << keyBits) - 1u);
    for (int i = 0; i < n; ++i) {
        hKeys[i] = rng() & mask;
        hVals[i] = i;
    }
    // Duplicated keys check stability.
    for (int i = 0; i < n; i += 17)
        hKeys[i] = 42;

    std::vector<std::pair<unsigned int, unsigned int>> ref(n);
    for (int i = 0; i < n; ++i)
        ref[i] = std::make_pair(hKeys[i], hVals[i]);
    std::stable_sort(ref.begin(), ref.end(),
                     [](const std::pair<unsigned, unsigned> &a,
                        const std::pair<unsigned, unsigned> &b) { return a.first < b.first; });
    std::vector<unsigned int> sortedKeys(hKeys);
    std::sort(sortedKeys.begin(), sortedKeys.end());

    unsigned int *dKeys[2], *dVals[2], *dCounts, *dOffsets, *dBlockSums;
    for (int b = 0; b < 2; ++b) {
        CUDA_SAFE_CALL(cudaMalloc(&dKeys[b], n * sizeof(unsigned int)));
        CUDA_SAFE_CALL(cudaMalloc(&dVals[b], n * sizeof(unsigned int)));
    }
    CUDA_SAFE_CALL(cudaMalloc(&dCounts, numCounts * sizeof(unsigned int)));
    CUDA_SAFE_CALL(cudaMalloc(&dOffsets, numCounts * sizeof(unsigned int)));
    CUDA_SAFE_CALL(cudaMalloc(&dBlockSums, 64 * sizeof(unsigned int)));

    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    ProgressBar pb(passes, !op.getOptionBool("quiet"));
    std::vector<unsigned int> outKeys(n), outVals(n);
    for (int p = 0; p < passes; ++p) {
        CUDA_SAFE_CALL(cudaMemcpy(dKeys[0], hKeys.data(), n * sizeof(unsigned int),
                                  cudaMemcpyHostToDevice));
        CUDA_SAFE_CALL(cudaMemcpy(dVals[0], hVals.data(), n * sizeof(unsigned int),
                                  cudaMemcpyHostToDevice));
        cudaEventRecord(start);
        int cur = 0;
        for (int shift = 0; shift < keyBits; shift += RADIX_BITS) {
            radixCount<<<numTiles, SORT_BLOCK_SIZE>>>(dKeys[cur], dCounts, n, shift);
            exclusiveScan<unsigned int, 256>(dCounts, dOffsets, dBlockSums, numCounts, 64);
            radixScatter<<<numTiles, SORT_BLOCK_SIZE>>>(dKeys[cur], dVals[cur],
                                                        dKeys[1 - cur], dVals[1 - cur],
                                                        dOffsets, n, shift);
            cur = 1 - cur;
        }
        cudaEventRecord(stop);
        CHECK_CUDA_ERROR();
        cudaEventSynchronize(stop);
        float ms;
        cudaEventElapsedTime(&ms, start, stop);
        CUDA_SAFE_CALL(cudaMemcpy(outKeys.data(), dKeys[cur], n * sizeof(unsigned int),
                                  cudaMemcpyDeviceToHost));
        CUDA_SAFE_CALL(cudaMemcpy(outVals.data(), dVals[cur], n * sizeof(unsigned int),
                                  cudaMemcpyDeviceToHost));
        bool ok = outKeys == sortedKeys;
        for (int i = 0; i < n && ok; ++i)
            ok = outVals[i] == ref[i].second;
        if (!ok) {
            for (int i = 0; i < n; ++i)
                if (outKeys[i] != ref[i].first || outVals[i] != ref[i].second) {
                    std::cerr << "Sort: first difference at " << i << ": (" << outKeys[i]
                              << "," << outVals[i] << ") expected (" << ref[i].first
                              << "," << ref[i].second << ")\n";
                    break;
                }
            resultDB.AddFailure("Sort-Rate", "not sorted");
            break;
        }
        resultDB.AddResult("Sort-Rate", "", "GB/s",
                           (n * 8.0 * 1e-9) / (ms * 1e-3));
        pb.addItersDone();
        pb.show();
    }
    pb.finish();
    for (int b = 0; b < 2; ++b) {
        cudaFree(dKeys[b]);
        cudaFree(dVals[b]);
    }
    cudaFree(dCounts);
    cudaFree(dOffsets);
    cudaFree(dBlockSums);
}
